package mms

import (
	"testing"
	"time"
)

// TestWorkerBackoffPolicy: the n-th wait lies in [d/2, d) with d = Min·2^(n-1)
// capped at Max and at the round's limit; defaults fill unset bounds.
func TestWorkerBackoffPolicy(t *testing.T) {
	b := WorkerBackoff{}.withDefaults()
	if b.Min != 100*time.Millisecond || b.Max != 30*time.Second {
		t.Fatalf("defaults %+v", b)
	}
	tests := []struct {
		n     int
		limit time.Duration
		d     time.Duration // the upper end
	}{
		{1, time.Hour, 100 * time.Millisecond},
		{2, time.Hour, 200 * time.Millisecond},
		{5, time.Hour, 1600 * time.Millisecond},
		{9, time.Hour, 25600 * time.Millisecond},
		{10, time.Hour, 30 * time.Second},
		{1000, time.Hour, 30 * time.Second},
		{1000, 10 * time.Second, 10 * time.Second},    // an empty poll: capped at PollWait
		{1, time.Millisecond, 100 * time.Millisecond}, // never below Min
	}
	for _, tt := range tests {
		for range 50 {
			if got := b.wait(tt.n, tt.limit); got < tt.d/2 || got >= tt.d {
				t.Fatalf("wait(%d, %v) = %v, want in [%v, %v)", tt.n, tt.limit, got, tt.d/2, tt.d)
			}
		}
	}
	for _, tt := range []struct{ in, want WorkerBackoff }{
		{WorkerBackoff{Max: 10 * time.Millisecond}, WorkerBackoff{Min: 10 * time.Millisecond, Max: 10 * time.Millisecond}},
		{WorkerBackoff{Min: time.Minute}, WorkerBackoff{Min: time.Minute, Max: time.Minute}},
		{WorkerBackoff{Min: time.Second}, WorkerBackoff{Min: time.Second, Max: 30 * time.Second}},
	} {
		if got := tt.in.withDefaults(); got != tt.want {
			t.Errorf("%+v with defaults = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}
