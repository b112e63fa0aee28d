package mms

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestErrorDetailsCode: error.details.error_code and the members some codes
// carry reach *Error; an unknown code is kept and the type still decides
// errors.Is; a body without details leaves both zero.
func TestErrorDetailsCode(t *testing.T) {
	body := func(typ, details string) string {
		return `{"type":"error","error":{"type":"` + typ + `","message":"m"` + details + `},"request_id":"req_1"}`
	}
	tests := []struct {
		name   string
		status int
		body   string
		code   ErrorCode
		want   *ErrorDetails
		is     error
	}{
		{"no details", 400, body("invalid_request_error", ""), "", nil, ErrInvalidRequest},
		{"file expired", 404, body("not_found_error", `,"details":{"error_code":"file_expired"}`), ErrorCodeFileExpired,
			&ErrorDetails{ErrorCode: ErrorCodeFileExpired}, ErrNotFound},
		{"image too large", 400, body("invalid_request_error", `,"details":{"error_code":"image_dimensions_too_large","max_side_length_pixels":8000,"paths":["messages.0.content.1"]}`),
			ErrorCodeImageDimensionsTooLarge, &ErrorDetails{ErrorCode: ErrorCodeImageDimensionsTooLarge, MaxSideLengthPixels: Ptr(8000), Paths: []string{"messages.0.content.1"}}, ErrInvalidRequest},
		{"on hold with appeal", 400, body("invalid_request_error", `,"details":{"error_code":"organization_on_hold","appeal_url":"https://example.com/appeal"}`),
			ErrorCodeOrganizationOnHold, &ErrorDetails{ErrorCode: ErrorCodeOrganizationOnHold, AppealURL: Ptr("https://example.com/appeal")}, ErrInvalidRequest},
		{"thread unsupported", 400, body("invalid_request_error", `,"details":{"error_code":"thread_unsupported_request","unsupported":["thinking","fallbacks"]}`),
			ErrorCodeThreadUnsupportedRequest, &ErrorDetails{ErrorCode: ErrorCodeThreadUnsupportedRequest, Unsupported: []string{"thinking", "fallbacks"}}, ErrInvalidRequest},
		{"unknown code keeps the type", 429, body("rate_limit_error", `,"details":{"error_code":"brand_new_code","extra":1}`),
			"brand_new_code", &ErrorDetails{ErrorCode: "brand_new_code", Extra: map[string]json.RawMessage{"extra": json.RawMessage("1")}}, ErrRateLimited},
		{"ramp limit", 429, body("rate_limit_error", `,"details":{"error_code":"ramp_limit_exceeded"}`), ErrorCodeRampLimitExceeded,
			&ErrorDetails{ErrorCode: ErrorCodeRampLimitExceeded}, ErrRateLimited},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newAPIError(tt.status, http.Header{}, []byte(tt.body), 1)
			assert.Equal(t, tt.code, e.Code)
			if diff := cmp.Diff(tt.want, e.Details); diff != "" {
				t.Errorf("details (-want +got):\n%s", diff)
			}
			assert.True(t, errors.Is(e, tt.is), "%v is %v", e, tt.is)
			assert.Equal(t, "m", e.Message)

			// The error body round-trips with its details.
			var eb ErrorResponse
			require.NoError(t, json.Unmarshal([]byte(tt.body), &eb))
			out, err := json.Marshal(eb)
			require.NoError(t, err)
			assert.JSONEq(t, tt.body, string(out))
		})
	}
}
