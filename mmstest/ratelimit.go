package mmstest

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// Rate-limit header names.
const (
	headerRateLimitPrefix    = wire.RateLimitPrefix + "Requests-"
	headerRateLimitLimit     = headerRateLimitPrefix + "Limit"
	headerRateLimitRemaining = headerRateLimitPrefix + "Remaining"
	headerRateLimitReset     = headerRateLimitPrefix + "Reset"
)

// rateLimiter is the request bucket configured by WithServerRateLimit. The mutex
// makes spending a token and reading the bucket for the headers one step, so
// concurrent requests never report inconsistent counts.
type rateLimiter struct {
	mu        sync.Mutex
	bucket    *rate.Limiter
	perMinute int
}

func newRateLimiter(perMinute, burst int) *rateLimiter {
	return &rateLimiter{
		bucket:    rate.NewLimiter(rate.Limit(float64(perMinute)/60), burst),
		perMinute: perMinute,
	}
}

// take spends one request at now and sets the vendor-ratelimit-requests-*
// headers on h (plus retry-after when refused). It reports whether the
// request may proceed. The time is passed in so the bucket follows the
// server's clock, not the wall clock.
func (l *rateLimiter) take(now time.Time, h http.Header) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	ok := l.bucket.AllowN(now, 1)
	tokens := setBucketHeaders(h, headerRateLimitPrefix, now, l.perMinute, l.bucket)
	if !ok {
		wait := max(math.Ceil((1-tokens)/(float64(l.perMinute)/60)), 1)
		h.Set(wire.HeaderRetryAfter, strconv.Itoa(int(wait)))
	}
	return ok
}

// setBucketHeaders sets the <prefix>{Limit,Remaining,Reset} headers of a
// bucket refilling at perMinute (a rate-limit or a priority bucket) as of
// now, and returns the tokens it holds.
func setBucketHeaders(h http.Header, prefix string, now time.Time, perMinute int, b *rate.Limiter) float64 {
	tokens := b.TokensAt(now)
	h.Set(prefix+"Limit", strconv.Itoa(perMinute))
	h.Set(prefix+"Remaining", strconv.Itoa(min(max(int(math.Floor(tokens)), 0), perMinute)))
	// The reset header is when the bucket is full again, rounded up to the
	// second because RFC 3339 timestamps on the wire carry whole seconds.
	full := now
	if perMinute > 0 {
		full = now.Add(seconds((float64(b.Burst()) - tokens) / (float64(perMinute) / 60)))
	}
	if t := full.Truncate(time.Second); t.Before(full) {
		full = t.Add(time.Second)
	}
	h.Set(prefix+"Reset", full.UTC().Format(time.RFC3339))
	return tokens
}

func seconds(s float64) time.Duration {
	return time.Duration(s * float64(time.Second))
}

// checkRateLimit applies the configured rate limit, if any.
func (s *Server) checkRateLimit(w http.ResponseWriter, r *http.Request) bool {
	if s.limiter == nil || s.limiter.take(s.now(), w.Header()) {
		return true
	}
	writeError(w, r, http.StatusTooManyRequests, wire.ErrRateLimit,
		"Number of requests has exceeded your per-minute rate limit. Retry after the time in the retry-after header.")
	return false
}
