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

func TestObservePriority(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(d time.Duration) string { return now.Add(d).Format(time.RFC3339) }
	tests := []struct {
		name          string
		header        map[string]string
		wantRateLimit time.Duration // pauseUntil - now (0: none)
		wantPriority  time.Duration // priorityUntil - now (0: none)
	}{
		{"input empty", map[string]string{
			"vendor-priority-input-tokens-remaining": "0", "vendor-priority-input-tokens-reset": at(20 * time.Second),
			"vendor-priority-output-tokens-remaining": "1", "vendor-priority-output-tokens-reset": at(40 * time.Second),
		}, 0, 20 * time.Second},
		{"both empty: the later reset", map[string]string{
			"vendor-priority-input-tokens-remaining": "0", "vendor-priority-input-tokens-reset": at(20 * time.Second),
			"vendor-priority-output-tokens-remaining": "0", "vendor-priority-output-tokens-reset": at(40 * time.Second),
		}, 0, 40 * time.Second},
		{"one left: no pause", map[string]string{
			"vendor-priority-output-tokens-remaining": "1", "vendor-priority-output-tokens-reset": at(40 * time.Second),
		}, 0, 0},
		{"capped at a minute", map[string]string{
			"vendor-priority-output-tokens-remaining": "0", "vendor-priority-output-tokens-reset": at(time.Hour),
		}, 0, time.Minute},
		{"families kept apart", map[string]string{
			"vendor-priority-output-tokens-remaining": "0", "vendor-priority-output-tokens-reset": at(5 * time.Second),
			"vendor-ratelimit-tokens-remaining": "0", "vendor-ratelimit-tokens-reset": at(9 * time.Second),
		}, 9 * time.Second, 5 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := New(0, 0)
			l.now = func() time.Time { return now }
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			l.Observe(h)
			since := func(t time.Time) time.Duration {
				if t.IsZero() {
					return 0
				}
				return t.Sub(now)
			}
			if got := since(l.pauseUntil); got != tt.wantRateLimit {
				t.Errorf("rate-limit pause = %v, want %v", got, tt.wantRateLimit)
			}
			if got := since(l.priorityUntil); got != tt.wantPriority {
				t.Errorf("priority pause = %v, want %v", got, tt.wantPriority)
			}
		})
	}
}

// TestPacePriorityWaits checks who waits for an empty priority bucket: the
// PacePriority view, sharing the limiter's state, does; the limiter itself
// does not. A done context makes a wait return at once with its error.
func TestPacePriorityWaits(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := New(0, 0)
	l.now = func() time.Time { return now }
	paced := l.PacePriority()
	h := http.Header{}
	h.Set("vendor-priority-input-tokens-remaining", "0")
	h.Set("vendor-priority-input-tokens-reset", now.Add(30*time.Second).Format(time.RFC3339))
	paced.Observe(h) // observed through the view: the state is shared
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if err := l.Wait(done, 0); err != nil {
		t.Errorf("plain limiter waited for the priority bucket: %v", err)
	}
	if err := paced.Wait(done, 0); err != context.Canceled {
		t.Errorf("paced limiter: err = %v, want context.Canceled (it must wait)", err)
	}
	// Past the reset, the paced view goes at once.
	now = now.Add(30 * time.Second)
	if err := paced.Wait(done, 0); err != nil {
		t.Errorf("paced limiter after the reset: %v", err)
	}
}
