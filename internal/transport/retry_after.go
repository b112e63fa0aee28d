package transport

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The one rule for numbers and times read from response headers: a value
// is used only when it is representable; anything else (not a number, NaN,
// ±Inf, beyond what a time.Duration or an int64 holds) is reported absent,
// never clamped to the largest or smallest value, which a caller would
// sleep on or count with. Every reader of retry-after, retry-after-ms and
// the vendor-ratelimit-* / vendor-priority-* headers goes through these
// functions: the retry delay, option.ResponseMetadata (and so
// mms.Error.Metadata), the client-side rate limiter.

// RetryAfter reads retry-after-ms (float milliseconds), else retry-after
// (float seconds or an HTTP date). ok is false when neither holds a wait a
// time.Duration can represent (about ±292 years): garbage, NaN, ±Inf,
// 1e308, 9223372036854775807 seconds, a date past year 2262 all count as
// absent, and an unusable retry-after-ms leaves the decision to
// retry-after. A negative wait or a date in the past is 0 (ok true). The
// retry delay then uses only 0 < d ≤ 60 s (see RetryDelay).
func RetryAfter(h http.Header, now time.Time) (d time.Duration, ok bool) {
	if v := strings.TrimSpace(h.Get(wire.HeaderRetryAfterMs)); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil {
			if d, ok := toDuration(ms * float64(time.Millisecond)); ok {
				return d, true
			}
		}
	}
	if v := strings.TrimSpace(h.Get(wire.HeaderRetryAfter)); v != "" {
		if s, err := strconv.ParseFloat(v, 64); err == nil {
			return toDuration(s * float64(time.Second))
		}
		if t, err := http.ParseTime(v); err == nil {
			d := t.Sub(now)
			if !now.Add(d).Equal(t) { // Sub saturated: out of a Duration's range
				return 0, false
			}
			return max(d, 0), true
		}
	}
	return 0, false
}

// toDuration converts nanoseconds to a Duration: not ok when the value is
// NaN, infinite or out of a Duration's range; a negative value is 0.
func toDuration(ns float64) (time.Duration, bool) {
	// float64(math.MaxInt64) is 2⁶³, already out of range, hence >=.
	if math.IsNaN(ns) || ns >= math.MaxInt64 || ns < math.MinInt64 {
		return 0, false
	}
	return max(time.Duration(ns), 0), true
}

// HeaderCount reads a count header (a rate-limit bucket's -limit or
// -remaining): a decimal integer in [0, MaxInt64]. ok is false for
// anything else, including a value too large for an int64 (which
// strconv.ParseInt would clamp to MaxInt64) or a negative one.
func HeaderCount(v string) (n int64, ok bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// HeaderTime reads a time header (a bucket's -reset): RFC 3339. ok is
// false for anything else.
func HeaderTime(v string) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(v))
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}
