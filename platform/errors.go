package platform

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The service's error types: the error.type of an error body. An
// adapter's Response writes one of them into the body it builds from a
// platform's own error, so that the client's *mms.Error and its sentinels
// work as against the service.
const (
	InvalidRequestError = wire.ErrInvalidRequest
	AuthenticationError = wire.ErrAuthentication
	BillingError        = wire.ErrBilling
	PermissionError     = wire.ErrPermission
	NotFoundError       = wire.ErrNotFound
	RequestTooLarge     = wire.ErrRequestTooLarge
	RateLimitError      = wire.ErrRateLimit
	APIError            = wire.ErrAPI
	TimeoutError        = wire.ErrTimeout
	OverloadedError     = wire.ErrOverloaded
)

// ErrorType returns the error type the service answers an HTTP status
// with: 401 authentication_error, 429 rate_limit_error, 529
// overloaded_error, …; another 4xx is invalid_request_error, another 5xx
// api_error.
func ErrorType(status int) string { return wire.ErrorTypeForStatus(status) }

// ErrorBody returns the service's error body with typ and message.
func ErrorBody(typ, message string) []byte {
	type detail struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	b, _ := json.Marshal(struct {
		Type  string `json:"type"`
		Error detail `json:"error"`
	}{"error", detail{typ, message}}) // strings only: cannot fail
	return b
}

// SetBody replaces resp's body with body of contentType, with its length.
func SetBody(resp *http.Response, body []byte, contentType string) {
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	if resp.Header == nil {
		resp.Header = http.Header{}
	}
	resp.Header.Set("Content-Type", contentType)
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	resp.Header.Del("Content-Encoding")
}

// maxErrorBody is how much of an error answer TranslateError looks at;
// the client reads no more of one either.
const maxErrorBody = 1 << 20

// TranslateError is the error half of an adapter's Response. For an
// answer with status 400 or more, it reads the body (a body over 1 MiB is
// left as it is) and asks translate for the platform's error in it: the
// service's error type ("" for ErrorType of the status) and the message,
// or ok false for a body to leave as it came (the service's own error
// body, or nothing to translate). A translated body becomes the service's
// error body. Other answers are left alone.
func TranslateError(resp *http.Response, translate func(body []byte) (typ, message string, ok bool)) (*http.Response, error) {
	if resp.StatusCode < 400 || resp.Body == nil || resp.Body == http.NoBody {
		return resp, nil
	}
	head, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody+1))
	if err != nil {
		resp.Body.Close()
		return nil, err
	}
	if len(head) > maxErrorBody {
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
		return resp, nil
	}
	resp.Body.Close()
	typ, msg, ok := translate(head)
	if !ok {
		resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(head)), int64(len(head))
		return resp, nil
	}
	if typ == "" {
		typ = ErrorType(resp.StatusCode)
	}
	SetBody(resp, ErrorBody(typ, msg), "application/json")
	return resp, nil
}

// IsServiceError reports whether body is already the service's error body
// ({"type":"error",…}), which adapters pass on as it is.
func IsServiceError(body []byte) bool {
	var b struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(body, &b) == nil && b.Type == "error"
}
