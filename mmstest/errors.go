package mmstest

import (
	"net/http"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// statusOverloaded is the service's non-standard "overloaded" status.
const statusOverloaded = 529

// errorBody is the service's error body:
// {"type":"error","error":{"type":...,"message":...},"request_id":"req_..."}.
type errorBody struct {
	Type      string      `json:"type"`
	Error     errorDetail `json:"error"`
	RequestID string      `json:"request_id"`
}

// errorDetail is the "error" member of errorBody.
type errorDetail struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	// The members of a memory_path_conflict_error (memory_stores_memories.go).
	ConflictingMemoryID string `json:"conflicting_memory_id,omitempty"`
	ConflictingPath     string `json:"conflicting_path,omitempty"`
	// Details is error.details of the Organization API's coded errors
	// (writeCodedError), as tests decode them.
	Details *codedDetails `json:"details,omitempty"`
}

// codedDetails is error.details: the error's code.
type codedDetails struct {
	ErrorCode string `json:"error_code"`
}

// coded is a refusal whose body carries error.details: error_code code
// and the extra members.
func coded(status int, code, msg string, extra map[string]any) *apiError {
	details := map[string]any{"error_code": code}
	for k, v := range extra {
		details[k] = v
	}
	return &apiError{status: status, errType: errorTypeForStatus(status), msg: msg, details: details}
}

// writeAPIError answers r with e, with its error.details when it has some.
func writeAPIError(w http.ResponseWriter, r *http.Request, e *apiError) {
	if e.details == nil {
		writeError(w, r, e.status, e.errType, e.msg)
		return
	}
	writeJSON(w, e.status, map[string]any{"type": "error", "request_id": requestID(r),
		"error": map[string]any{"type": e.errType, "message": e.msg, "details": e.details}})
}

// writeCodedError answers an error whose body carries
// error.details.error_code, as the Organization API's errors do.
func writeCodedError(w http.ResponseWriter, r *http.Request, status int, code, msg string) {
	writeAPIError(w, r, coded(status, code, msg, nil))
}

// writeError answers r with status and the error body for errType and
// message, carrying the request's id. Messages must never include
// credentials.
func writeError(w http.ResponseWriter, r *http.Request, status int, errType, message string) {
	writeJSON(w, status, errorBody{
		Type:      "error",
		Error:     errorDetail{Type: errType, Message: message},
		RequestID: requestID(r),
	})
}

// errorTypeForStatus maps a status to its error type as in the spec's table
// (wire.ErrorTypeForStatus).
func errorTypeForStatus(status int) string { return wire.ErrorTypeForStatus(status) }

// statusMessage is the generic message for an injected error status.
func statusMessage(status int) string {
	switch status {
	case http.StatusInternalServerError:
		return "Internal server error"
	case http.StatusTooManyRequests:
		return "Number of requests has exceeded your rate limit"
	case http.StatusGatewayTimeout:
		return "Request timed out"
	case statusOverloaded:
		return "Overloaded"
	}
	if text := http.StatusText(status); text != "" {
		return text
	}
	return "Error"
}
