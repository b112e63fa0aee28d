// Package ratelimit paces requests on the client side: a requests-per-minute
// bucket, a tokens-per-minute bucket whose estimates are corrected from the
// usage the service reports, and a pause that honours the server's own
// vendor-ratelimit-* headers when they say a bucket is empty (and, when
// asked, its vendor-priority-* headers).
package ratelimit

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// Limiter implements config.Limiter.
type Limiter struct {
	*state
	// priority: Wait also waits for an empty priority bucket's reset.
	priority bool
}

// state is what the views of one limiter (PacePriority) share.
type state struct {
	requests waiter        // nil when unlimited
	tokens   *rate.Limiter // nil when unlimited

	mu            sync.Mutex
	pauseUntil    time.Time // set from vendor-ratelimit-* headers that report an empty bucket
	priorityUntil time.Time // the same from vendor-priority-* headers
	now           func() time.Time
}

type waiter interface {
	Wait(ctx context.Context) error
}

// New returns a limiter for requestsPerMinute and tokensPerMinute; 0 means
// no limit on that axis. Bursts equal one minute's budget divided by 60 (at
// least 1), so a fresh client cannot dump a whole minute at once.
func New(requestsPerMinute, tokensPerMinute int) *Limiter {
	l := &Limiter{state: &state{now: time.Now}}
	if requestsPerMinute > 0 {
		l.requests = rate.NewLimiter(rate.Limit(float64(requestsPerMinute)/60), max(1, requestsPerMinute/60))
	}
	if tokensPerMinute > 0 {
		// A single request may need more than a second's worth of tokens:
		// the burst is a minute's budget so a large prompt can still pass.
		l.tokens = rate.NewLimiter(rate.Limit(float64(tokensPerMinute)/60), tokensPerMinute)
	}
	return l
}

// FromWaiter paces requests with a caller-supplied limiter.
func FromWaiter(w waiter) *Limiter {
	return &Limiter{state: &state{requests: w, now: time.Now}}
}

// PacePriority returns a view of l that shares its buckets and pauses, and
// whose Wait also waits while a priority bucket is empty: a request with
// service_tier auto then waits for priority capacity instead of being
// served at the standard tier. l itself is unchanged.
func (l *Limiter) PacePriority() *Limiter {
	return &Limiter{state: l.state, priority: true}
}

// Wait blocks until a request of about tokens may go, or ctx ends.
func (l *Limiter) Wait(ctx context.Context, tokens int) error {
	if err := l.waitPause(ctx); err != nil {
		return err
	}
	if l.requests != nil {
		if err := l.requests.Wait(ctx); err != nil {
			return err
		}
	}
	if l.tokens != nil && tokens > 0 {
		n := min(tokens, l.tokens.Burst())
		if err := l.tokens.WaitN(ctx, n); err != nil {
			return err
		}
	}
	return nil
}

func (l *Limiter) waitPause(ctx context.Context) error {
	l.mu.Lock()
	until := l.pauseUntil
	if l.priority && l.priorityUntil.After(until) {
		until = l.priorityUntil
	}
	d := until.Sub(l.now())
	l.mu.Unlock()
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Correct charges the difference between the estimate and what the response
// reported. Over-estimates are not refunded: x/time/rate cannot return
// tokens already spent, and erring slow is the safe side.
func (l *Limiter) Correct(estimate, actual int) {
	if l.tokens == nil || actual <= estimate {
		return
	}
	l.tokens.ReserveN(l.now(), min(actual-estimate, l.tokens.Burst()))
}

// Observe reads the server's rate-limit headers: when any bucket reports
// zero remaining, further requests wait until that bucket's reset time. It
// notes the priority buckets too; only a PacePriority view waits for them.
func (l *Limiter) Observe(h http.Header) {
	limit := l.now().Add(time.Minute)
	until, priority := emptyUntil(h, wire.RateLimitPrefix, limit), emptyUntil(h, wire.PriorityPrefix, limit)
	if until.IsZero() && priority.IsZero() {
		return
	}
	l.mu.Lock()
	if until.After(l.pauseUntil) {
		l.pauseUntil = until
	}
	if priority.After(l.priorityUntil) {
		l.priorityUntil = priority
	}
	l.mu.Unlock()
}

// emptyUntil is the latest reset of the buckets of the header family prefix
// that report zero remaining, never after limit (a clock skew must not
// freeze the client on the server's word); zero when none is empty.
func emptyUntil(h http.Header, prefix string, limit time.Time) time.Time {
	var until time.Time
	for key, vals := range h {
		canon := http.CanonicalHeaderKey(key)
		if !strings.HasPrefix(canon, prefix) || !strings.HasSuffix(canon, "-Remaining") || len(vals) == 0 {
			continue
		}
		// transport's header rule: a count or time it cannot represent is absent.
		if n, ok := transport.HeaderCount(vals[0]); !ok || n > 0 {
			continue
		}
		reset := h.Get(strings.TrimSuffix(canon, "-Remaining") + "-Reset")
		if t, ok := transport.HeaderTime(reset); ok && t.After(until) {
			until = t
		}
	}
	if until.After(limit) {
		return limit
	}
	return until
}
