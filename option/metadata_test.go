package option

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseMetadata(t *testing.T) {
	h := http.Header{}
	h.Set("request-id", "req_1")
	h.Set("vendor-organization-id", "org_1")
	h.Set("vendor-workspace-id", "wrkspc_1")
	h.Set("vendor-ratelimit-requests-limit", "50")
	h.Set("vendor-ratelimit-requests-remaining", "49")
	h.Set("vendor-ratelimit-requests-reset", "2026-01-01T00:00:10Z")
	h.Set("vendor-ratelimit-input-tokens-limit", "1000")
	h.Set("vendor-ratelimit-input-tokens-remaining", "900")
	h.Set("vendor-priority-output-tokens-remaining", "7")
	h.Set("retry-after", "3")
	got := parseMetadata(429, h, 2)
	want := ResponseMetadata{
		StatusCode: 429, RequestID: "req_1", OrganizationID: "org_1", WorkspaceID: "wrkspc_1",
		RateLimits: map[string]RateLimit{
			"requests":     {Limit: 50, Remaining: 49, Reset: time.Date(2026, 1, 1, 0, 0, 10, 0, time.UTC)},
			"input-tokens": {Limit: 1000, Remaining: 900},
		},
		Priority:   map[string]RateLimit{"output-tokens": {Remaining: 7}},
		RetryAfter: 3 * time.Second, Attempts: 2, Header: h,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("metadata (-want +got):\n%s", d)
	}
}

// TestParseMetadataUnrepresentable: a retry-after or a bucket count that
// cannot be represented is absent from the metadata, never the largest
// or smallest value (issue 27 §7).
func TestParseMetadataUnrepresentable(t *testing.T) {
	tests := []struct {
		name, header, value string
		retryAfter          time.Duration
		limit               int64
	}{
		{"retry-after NaN", "retry-after", "NaN", 0, 0},
		{"retry-after +Inf", "retry-after", "+Inf", 0, 0},
		{"retry-after 1e308", "retry-after", "1e308", 0, 0},
		{"retry-after MaxInt64", "retry-after", "9223372036854775807", 0, 0},
		{"retry-after -1e308", "retry-after", "-1e308", 0, 0},
		{"retry-after-ms 1e308", "retry-after-ms", "1e308", 0, 0},
		{"retry-after-ms NaN", "retry-after-ms", "NaN", 0, 0},
		{"retry-after representable", "retry-after", "120", 2 * time.Minute, 0},
		{"limit over int64", "vendor-ratelimit-requests-limit", "9223372036854775808", 0, 0},
		{"limit negative", "vendor-ratelimit-requests-limit", "-9223372036854775809", 0, 0},
		{"limit representable", "vendor-ratelimit-requests-limit", "9223372036854775807", 0, 9223372036854775807},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			h.Set(tt.header, tt.value)
			got := parseMetadata(200, h, 1)
			if got.RetryAfter != tt.retryAfter {
				t.Errorf("RetryAfter = %v (%d), want %v", got.RetryAfter, int64(got.RetryAfter), tt.retryAfter)
			}
			if l := got.RateLimits["requests"].Limit; l != tt.limit {
				t.Errorf("requests limit = %d, want %d", l, tt.limit)
			}
		})
	}
}
