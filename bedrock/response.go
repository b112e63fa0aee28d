package bedrock

import (
	"cmp"
	"encoding/json"
	"mime"
	"net/http"
	"strings"

	"github.com/mms-sdk/mms-go/platform"
)

// eventStreamType is the media type of InvokeModelWithResponseStream.
const eventStreamType = "application/vnd.amazon.eventstream"

// Response translates InvokeModel's answers: an error body ({"message"} and
// x-amzn-ErrorType) into the service's error body with the same status,
// and an EventStream into server-sent events. Mantle answers in the
// service's own shapes and passes through.
func (a *adapter) Response(resp *http.Response, _ *platform.Request) (*http.Response, error) {
	if a.mantle {
		return resp, nil
	}
	if resp.StatusCode >= 400 {
		return translateError(resp)
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == eventStreamType {
		resp.Body = newEventStreamReader(resp.Body)
		resp.Header.Set("Content-Type", "text/event-stream")
		resp.Header.Del("Content-Length")
		resp.ContentLength = -1
	}
	return resp, nil
}

// translateError rewrites an AWS error body into the service's error body,
// keeping the status and the message. A body already in the service's
// shape is left as it is.
func translateError(resp *http.Response) (*http.Response, error) {
	code, _, _ := strings.Cut(resp.Header.Get("X-Amzn-Errortype"), ":")
	return platform.TranslateError(resp, func(raw []byte) (string, string, bool) {
		if platform.IsServiceError(raw) {
			return "", "", false
		}
		var aws struct {
			Message string `json:"message"`
			// Some AWS front ends spell it with a capital.
			MessageCap string `json:"Message"`
		}
		_ = json.Unmarshal(raw, &aws) // a body that is no JSON keeps its text as the message
		msg := cmp.Or(aws.Message, aws.MessageCap, strings.TrimSpace(string(raw)), http.StatusText(resp.StatusCode))
		return errorType(code, resp.StatusCode), msg, true
	})
}

// errorType maps an AWS exception name (as in x-amzn-ErrorType, or an
// EventStream :exception-type, either capitalisation) to the service's
// error type; an unknown one goes by the status (0 in a stream).
func errorType(exception string, status int) string {
	switch strings.ToLower(exception) {
	case "throttlingexception", "modelnotreadyexception":
		return platform.RateLimitError
	case "serviceunavailableexception":
		return platform.OverloadedError
	case "modeltimeoutexception":
		return platform.TimeoutError
	case "validationexception":
		if status != http.StatusRequestEntityTooLarge {
			return platform.InvalidRequestError
		}
	case "accessdeniedexception":
		return platform.PermissionError
	case "resourcenotfoundexception":
		return platform.NotFoundError
	case "unrecognizedclientexception", "invalidsignatureexception", "expiredtokenexception", "incompletesignatureexception":
		return platform.AuthenticationError
	case "internalserverexception", "modelerrorexception", "modelstreamerrorexception":
		return platform.APIError
	}
	switch {
	case status == 400:
		return platform.InvalidRequestError
	case status == 401:
		return platform.AuthenticationError
	case status == 403:
		return platform.PermissionError
	case status == 404:
		return platform.NotFoundError
	case status == 408 || status == 504:
		return platform.TimeoutError
	case status == 413:
		return platform.RequestTooLarge
	case status == 429:
		return platform.RateLimitError
	case status == 503 || status == 529:
		return platform.OverloadedError
	case status >= 400 && status < 500:
		return platform.InvalidRequestError
	}
	return platform.APIError
}
