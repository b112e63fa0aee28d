package mms

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// Error is the error returned for every non-2xx answer of the service, and
// for an "error" event inside a stream. Match it with errors.As, and its
// category with errors.Is and the Err* sentinels:
//
//	var apiErr *mms.Error
//	if errors.As(err, &apiErr) {
//		log.Printf("request %s failed: %s", apiErr.RequestID, apiErr.Message)
//	}
//	if errors.Is(err, mms.ErrOverloaded) { /* back off */ }
type Error struct {
	// StatusCode is the HTTP status (200 for an error event in a stream).
	StatusCode int
	// Type is the error body's error.type, e.g. "rate_limit_error". Bodies
	// that are not the standard shape leave it empty.
	Type string
	// Message is the error body's error.message, or a short excerpt of a
	// body that is not the standard shape.
	Message string
	// RequestID comes from the request-id header, else the body's request_id.
	RequestID string
	// PlatformRequestID is a partner platform's own request id (Bedrock's
	// x-amzn-RequestId, …), next to RequestID; "" without a platform.
	PlatformRequestID string
	// Header holds the response headers (nil for stream error events).
	Header http.Header
	// Body is the raw response body.
	Body []byte
	// Attempts is how many HTTP attempts were made, retries included.
	Attempts int
	// Code is the error body's error.details.error_code, which names the
	// cause more precisely than Type (e.g. "file_expired"); "" when the body
	// has none. Branch on Code, never on Message; a code this SDK does not
	// list is still set, and Type stays the fallback.
	Code ErrorCode
	// Details is the error body's error.details (nil when absent): the code
	// and the members some codes carry.
	Details *ErrorDetails
}

// Error returns one line: "mms: 429 rate_limit_error: <message> (request-id req_…)".
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mms: %d", e.StatusCode)
	if e.Type != "" {
		b.WriteString(" " + e.Type)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	switch {
	case e.RequestID != "" && e.PlatformRequestID != "":
		b.WriteString(" (request-id " + e.RequestID + ", platform request-id " + e.PlatformRequestID + ")")
	case e.RequestID != "":
		b.WriteString(" (request-id " + e.RequestID + ")")
	case e.PlatformRequestID != "":
		b.WriteString(" (platform request-id " + e.PlatformRequestID + ")")
	}
	return b.String()
}

// Metadata returns the response metadata carried by the error's headers.
func (e *Error) Metadata() ResponseMetadata {
	return metadataFrom(e.StatusCode, e.Header, e.Attempts, e.PlatformRequestID)
}

// Sentinels for errors.Is. An *Error matches the sentinel of its type, or of
// its status when the body names no type.
var (
	ErrInvalidRequest = errors.New("mms: invalid request")
	ErrAuthentication = errors.New("mms: authentication failed")
	ErrBilling        = errors.New("mms: billing error")
	ErrPermission     = errors.New("mms: permission denied")
	ErrNotFound       = errors.New("mms: not found")
	// ErrRequestTooLarge matches the service's 413 and the SDK's own
	// refusal of a body over its endpoint's limit (*RequestTooLargeError).
	ErrRequestTooLarge = errors.New("mms: request too large")
	ErrRateLimited     = errors.New("mms: rate limited")
	ErrAPI             = errors.New("mms: API error")
	ErrTimeout         = errors.New("mms: service timeout")
	ErrOverloaded      = errors.New("mms: overloaded")

	// ErrMemoryPreconditionFailed matches a 409 memory_precondition_failed_error:
	// a memory update's content_sha256 precondition or a delete's
	// expected_content_sha256 no longer matches.
	ErrMemoryPreconditionFailed = errors.New("mms: memory precondition failed")
	// ErrMemoryPathConflict matches a memory_path_conflict_error: the path
	// is taken in the store (see MemoryPathConflictOf).
	ErrMemoryPathConflict = errors.New("mms: memory path conflict")
	// ErrConflict matches a conflict_error: another concurrent
	// modification conflicted.
	ErrConflict = errors.New("mms: conflict")

	// ErrInvalidParams matches every *ValidationError: a request the SDK
	// refused before sending.
	ErrInvalidParams = errors.New("mms: invalid parameters")
)

var sentinelByType = map[string]error{
	wire.ErrInvalidRequest:  ErrInvalidRequest,
	wire.ErrAuthentication:  ErrAuthentication,
	wire.ErrBilling:         ErrBilling,
	wire.ErrPermission:      ErrPermission,
	wire.ErrNotFound:        ErrNotFound,
	wire.ErrRequestTooLarge: ErrRequestTooLarge,
	wire.ErrRateLimit:       ErrRateLimited,
	wire.ErrAPI:             ErrAPI,
	wire.ErrTimeout:         ErrTimeout,
	wire.ErrOverloaded:      ErrOverloaded,

	wire.ErrMemoryPreconditionFailed: ErrMemoryPreconditionFailed,
	wire.ErrMemoryPathConflict:       ErrMemoryPathConflict,
	wire.ErrConflict:                 ErrConflict,
}

var sentinelByStatus = map[int]error{
	400: ErrInvalidRequest, 401: ErrAuthentication, 402: ErrBilling, 403: ErrPermission,
	404: ErrNotFound, 413: ErrRequestTooLarge, 429: ErrRateLimited, 500: ErrAPI,
	504: ErrTimeout, 529: ErrOverloaded,
}

// Is maps the error onto its sentinel: by error type first (a 413 whose body
// says invalid_request_error is an invalid request), else by status.
func (e *Error) Is(target error) bool {
	if s, ok := sentinelByType[e.Type]; ok {
		return s == target
	}
	return statusIs(e.StatusCode, target)
}

// statusIs maps an HTTP status onto its sentinel (any 5xx is ErrAPI).
func statusIs(status int, target error) bool {
	if s, ok := sentinelByStatus[status]; ok {
		return s == target
	}
	return status >= 500 && target == ErrAPI
}

// newAPIError builds the *Error for a response. Bodies that are not the
// standard shape (a proxy's HTML page, an empty body, an error object without
// the top-level type) still give an *Error with the status and an excerpt.
func newAPIError(status int, header http.Header, body []byte, attempts int) *Error {
	e := &Error{StatusCode: status, Header: header, Body: body, Attempts: attempts}
	var eb ErrorResponse // the standard body (below)
	if json.Unmarshal(body, &eb) == nil && (eb.Error.Type != "" || eb.Error.Message != "") {
		e.Type, e.Message = eb.Error.Type, eb.Error.Message
		if d := eb.Error.Details; d != nil {
			e.Details, e.Code = d, d.ErrorCode
		}
		if eb.RequestID != nil {
			e.RequestID = *eb.RequestID
		}
	} else {
		e.Message = excerpt(body)
	}
	e.Message = transport.RedactURL(e.Message) // the text is not ours (a proxy page may quote URLs)
	if id := header.Get(wire.HeaderRequestID); id != "" {
		e.RequestID = id
	}
	return e
}

// excerpt gives the first line of a non-standard body, short enough for a log.
func excerpt(body []byte) string {
	s := strings.TrimSpace(string(body))
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	const max = 200
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}

// ErrorResponse is the service's error body,
// {"type":"error","error":{"type":…,"message":…},"request_id":…}, as an
// errored batch result carries it.
//
//mms:json type=error
type ErrorResponse struct {
	// Error holds the error's type and message.
	Error ErrorDetail `json:"error"`
	// RequestID is the id of the failed request; nil when null.
	RequestID *string `json:"request_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ErrorDetail is the "error" member of an error body.
//
//mms:json
type ErrorDetail struct {
	// Type is the error type, e.g. "invalid_request_error".
	Type string `json:"type"`
	// Message says what went wrong.
	Message string `json:"message"`
	// Details names the cause (error_code) and what some causes carry; nil
	// when the body has none.
	Details *ErrorDetails `json:"details,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ErrorDetails is the "details" member of an error body: the error_code
// and the members particular codes carry (api-version-2026-10-21.md §4).
// A member a code does not carry stays zero.
//
//mms:json
type ErrorDetails struct {
	// ErrorCode names the cause, e.g. ErrorCodeFileExpired.
	ErrorCode ErrorCode `json:"error_code"`
	// MaxSideLengthPixels is the largest image side allowed
	// (image_dimensions_too_large).
	MaxSideLengthPixels *int `json:"max_side_length_pixels,omitzero"`
	// Paths lists the offending blocks, "messages.i.content.j…"
	// (image_dimensions_too_large).
	Paths []string `json:"paths,omitzero"`
	// AppealURL is where an appeal can be made; nil when none can
	// (organization_on_hold).
	AppealURL *string `json:"appeal_url,omitzero"`
	// Unsupported lists what a thread cannot carry: cache_control,
	// context_management, fallbacks, hipaa, inference_hooks, thinking
	// (thread_unsupported_request).
	Unsupported []string `json:"unsupported,omitzero"`
	// Field names the offending setting (workspace_policy_violation,
	// storage_profile_mismatch).
	Field string `json:"field,omitzero"`
	// WorkspaceID names the workspace left incomplete
	// (workspace_created_incomplete).
	WorkspaceID string `json:"workspace_id,omitzero"`
	// PluginID names the plugin holding the name (plugin_name_taken).
	PluginID string `json:"plugin_id,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}
