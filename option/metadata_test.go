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
