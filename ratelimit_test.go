package mms_test

import (
	"context"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/mms-sdk/mms-go/option"
)

func TestRateLimitPacesRequests(t *testing.T) {
	s := newScriptServer(t)
	// 600 per minute = 10 per second with a burst of 10: requests 11 and 12
	// must wait about 100 ms each.
	c := newTestClient(t, s, option.WithRateLimit(600, 0))
	start := time.Now()
	for range 12 {
		if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if took := time.Since(start); took < 150*time.Millisecond {
		t.Errorf("12 requests at 10/s with burst 10 took %v, want ≥ 150ms", took)
	}
}

func TestRateLimitWaitRespectsContext(t *testing.T) {
	s := newScriptServer(t)
	c := newTestClient(t, s, option.WithRateLimit(1, 0)) // one per minute
	if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := c.Do(ctx, "GET", "/v1/models", nil, nil)
	if err == nil {
		t.Fatal("second request was not held back")
	}
	if took := time.Since(start); took > 10*time.Second { // vs the one-minute wait
		t.Errorf("cancel took %v to return", took)
	}
	if n := len(s.requests()); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

func TestRateLimitHonoursServerHeaders(t *testing.T) {
	reset := time.Now().Add(1200 * time.Millisecond).UTC().Format(time.RFC3339Nano)
	s := newScriptServer(t, reply{header: map[string]string{
		"Vendor-Ratelimit-Requests-Remaining": "0", "Vendor-Ratelimit-Requests-Reset": reset,
	}, body: `{}`})
	c := newTestClient(t, s, option.WithRateLimit(6000, 0))
	if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < 500*time.Millisecond {
		t.Errorf("request after an empty server bucket went after %v, want a pause until reset", took)
	}
}

func TestWithRateLimiterUsesCallerLimiter(t *testing.T) {
	s := newScriptServer(t)
	lim := rate.NewLimiter(rate.Every(time.Hour), 1)
	c := newTestClient(t, s, option.WithRateLimiter(lim))
	if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := c.Do(ctx, "GET", "/v1/models", nil, nil); err == nil {
		t.Fatalf("err = %v, want the limiter to refuse within the deadline", err)
	}
}
