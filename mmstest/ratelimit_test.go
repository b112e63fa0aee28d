package mmstest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/internal/wire"
)

func TestRateLimit(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithServerRateLimit(60, 2), WithClock(clock.Now))
	rfc := func(d time.Duration) string { return clock.Now().Add(d).Format(time.RFC3339) }
	steps := []struct {
		advance    time.Duration
		status     int
		remaining  string
		reset      string
		retryAfter string
	}{
		{status: 200, remaining: "1", reset: rfc(time.Second)},
		{status: 200, remaining: "0", reset: rfc(2 * time.Second)},
		{status: 429, remaining: "0", reset: rfc(2 * time.Second), retryAfter: "1"},
		{advance: 500 * time.Millisecond, status: 429, remaining: "0", reset: rfc(2 * time.Second), retryAfter: "1"},
		{advance: 500 * time.Millisecond, status: 200, remaining: "0", reset: rfc(3 * time.Second)},
	}
	for i, st := range steps {
		clock.Advance(st.advance)
		resp, body := get(t, s, "/v1/models")
		require.Equal(t, st.status, resp.StatusCode, "step %d: %s", i, body)
		if st.status == 429 {
			wantError(t, resp, body, 429, wire.ErrRateLimit, "rate limit")
		}
		got := [4]string{
			resp.Header.Get(headerRateLimitLimit), resp.Header.Get(headerRateLimitRemaining),
			resp.Header.Get(headerRateLimitReset), resp.Header.Get(wire.HeaderRetryAfter),
		}
		assert.Equal(t, [4]string{"60", st.remaining, st.reset, st.retryAfter}, got, "step %d: limit, remaining, reset, retry-after", i)
	}
}

func TestRateLimitAfterFaults(t *testing.T) {
	s := newTestServer(t, WithServerRateLimit(60, 1), WithClock(newFakeClock().Now))
	s.InjectFault(Fault{Statuses: []int{503}})
	// The faulted answer spends no token; it comes before rate limiting.
	for _, want := range []int{503, 200, 429} {
		resp, _ := get(t, s, "/v1/models")
		assert.Equal(t, want, resp.StatusCode)
	}
}

func TestNoRateLimitHeadersByDefault(t *testing.T) {
	s := newTestServer(t)
	resp, _ := get(t, s, "/v1/models")
	assert.Empty(t, resp.Header.Get(headerRateLimitLimit), "rate-limit header without WithServerRateLimit")
}

// TestWithRateLimitAlias: the deprecated name configures the same limit.
func TestWithRateLimitAlias(t *testing.T) {
	s := newTestServer(t, WithRateLimit(60, 1), WithClock(newFakeClock().Now))
	for _, want := range []int{200, 429} {
		resp, _ := get(t, s, "/v1/models")
		assert.Equal(t, want, resp.StatusCode)
	}
}
