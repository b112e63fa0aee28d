package ratelimit

import (
	"context"
	"net/http"
	"testing"
	"time"
)

func TestTokensCorrectedFromUsage(t *testing.T) {
	l := New(0, 6000) // 100 tokens/s, burst 6000
	ctx := context.Background()
	if err := l.Wait(ctx, 100); err != nil {
		t.Fatal(err)
	}
	// The response reported far more than estimated: the debt must hold
	// the next request back.
	l.Correct(100, 6100)
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if err := l.Wait(short, 100); err == nil {
		t.Fatal("request after a large correction was not held back")
	}
}

func TestUnderEstimateNotRefunded(t *testing.T) {
	l := New(0, 60) // 1 token/s, burst 60
	ctx := context.Background()
	if err := l.Wait(ctx, 60); err != nil {
		t.Fatal(err)
	}
	l.Correct(60, 10) // no refund
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if err := l.Wait(short, 30); err == nil {
		t.Fatal("tokens were refunded")
	}
}

func TestObservePausesUntilReset(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := New(60, 0)
	l.now = func() time.Time { return now }
	h := http.Header{}
	h.Set("vendor-ratelimit-tokens-remaining", "0")
	h.Set("vendor-ratelimit-tokens-reset", now.Add(10*time.Second).Format(time.RFC3339))
	h.Set("vendor-ratelimit-requests-remaining", "5")
	h.Set("vendor-ratelimit-requests-reset", now.Add(30*time.Second).Format(time.RFC3339))
	l.Observe(h)
	if got := l.pauseUntil.Sub(now); got != 10*time.Second {
		t.Errorf("pause = %v, want 10s (only the empty bucket counts)", got)
	}
	h.Set("vendor-ratelimit-tokens-reset", now.Add(time.Hour).Format(time.RFC3339))
	l.Observe(h)
	if got := l.pauseUntil.Sub(now); got != time.Minute {
		t.Errorf("pause = %v, want capped at 1m", got)
	}
}
