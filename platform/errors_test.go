package platform_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/platform"
)

func TestTranslateError(t *testing.T) {
	never := func([]byte) (string, string, bool) { panic("translate called") }
	platformMsg := func(b []byte) (string, string, bool) {
		if platform.IsServiceError(b) {
			return "", "", false
		}
		return "", "cloud says: " + string(b), true
	}
	big := strings.Repeat("x", 1<<20+1)
	tests := []struct {
		name      string
		status    int
		body      string
		translate func([]byte) (string, string, bool)
		want      string
	}{
		{"success untouched", 200, `{"id":"msg_1"}`, never, `{"id":"msg_1"}`},
		{"service error kept", 400, `{"type":"error","error":{"type":"invalid_request_error","message":"m"}}`, platformMsg,
			`{"type":"error","error":{"type":"invalid_request_error","message":"m"}}`},
		{"platform error translated", 503, `busy`, platformMsg, `{"type":"error","error":{"type":"api_error","message":"cloud says: busy"}}`},
		{"type given", 400, `x`, func([]byte) (string, string, bool) { return platform.RateLimitError, "slow", true },
			`{"type":"error","error":{"type":"rate_limit_error","message":"slow"}}`},
		{"over 1 MiB passes whole", 500, big, never, big},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := &http.Response{StatusCode: tt.status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(tt.body))}
			got, err := platform.TranslateError(resp, tt.translate)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(got.Body)
			if !bytes.Equal(b, []byte(tt.want)) {
				t.Errorf("body %.200s, want %.200s", b, tt.want)
			}
		})
	}
}

func TestErrorType(t *testing.T) {
	for status, want := range map[int]string{400: "invalid_request_error", 401: "authentication_error", 402: "billing_error",
		403: "permission_error", 404: "not_found_error", 409: "invalid_request_error", 413: "request_too_large",
		429: "rate_limit_error", 500: "api_error", 503: "api_error", 504: "timeout_error", 529: "overloaded_error"} {
		if got := platform.ErrorType(status); got != want {
			t.Errorf("ErrorType(%d) = %q, want %q", status, got, want)
		}
	}
}

func TestEndpointOf(t *testing.T) {
	for _, tt := range []struct {
		method, path string
		want         platform.Endpoint
	}{
		{"POST", "/v1/messages", platform.Messages},
		{"GET", "/v1/messages", platform.Other},
		{"POST", "/v1/messages/count_tokens", platform.CountTokens},
		{"GET", "/v1/messages/batches/b1/results", platform.Batches},
		{"GET", "/v1/models", platform.Models},
		{"GET", "/v1/modelsx", platform.Other},
		{"POST", "/v1/files", platform.Files},
		{"GET", "/v1/skills/s1/versions", platform.Skills},
		{"POST", "/v1/sessions", platform.Other},
	} {
		if got := platform.EndpointOf(tt.method, tt.path); got != tt.want {
			t.Errorf("EndpointOf(%s %s) = %q, want %q", tt.method, tt.path, got, tt.want)
		}
	}
}
