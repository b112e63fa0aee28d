package mmstest

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// transcript runs a fixed mix of successful, refused and faulted requests
// against a fresh server and records each answer's status, request id and
// body.
func transcript(t *testing.T) []string {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now), WithServerRateLimit(60, 5))
	s.InjectFault(Fault{Path: "/v1/models/", Statuses: []int{529}})
	var out []string
	for _, step := range []struct{ path, key, beta string }{
		{path: "/v1/models"},
		{path: "/v1/models?limit=2&after_id=mms-large-1"},
		{path: "/v1/models/mms-small-1"}, // faulted
		{path: "/v1/models/mms-small-1"},
		{path: "/v1/models/nope"},
		{path: "/v1/models", key: "bad-key"},
		{path: "/v1/models", beta: "nope-2020-01-01"},
		{path: "/v1/models?limit=0"},
		{path: "/v1/models"}, // rate limited
	} {
		req := newReq(t, s, http.MethodGet, step.path, nil)
		if step.key != "" {
			req.Header.Set(wire.HeaderAPIKey, step.key)
		}
		if step.beta != "" {
			req.Header.Set(wire.HeaderBeta, step.beta)
		}
		resp, body := send(t, s, req)
		out = append(out, fmt.Sprintf("%d %s %s %s", resp.StatusCode, resp.Header.Get(wire.HeaderRequestID),
			resp.Header.Get(headerRateLimitReset), body))
		clock.Advance(time.Millisecond)
	}
	return out
}

func TestDeterminism(t *testing.T) {
	first, second := transcript(t), transcript(t)
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("same requests, different answers (-first +second):\n%s", diff)
	}
	if last := first[len(first)-1]; !strings.HasPrefix(last, fmt.Sprintf("429 req_01%022d ", 9)) {
		t.Errorf("last answer %q, want the 9th request rate limited", last)
	}
}
