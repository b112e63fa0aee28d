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
