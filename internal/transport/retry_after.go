package transport

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// RetryAfter reads retry-after-ms (float milliseconds), else retry-after
// (float seconds or an HTTP date). ok is false when neither is usable. The
// result is clamped to [0, math.MaxInt64] (NaN is unusable), because
// converting an out-of-range float to a Duration overflows. The retry delay
// and option.ResponseMetadata both read the server's wait with it.
func RetryAfter(h http.Header, now time.Time) (d time.Duration, ok bool) {
	if v := h.Get(wire.HeaderRetryAfterMs); v != "" {
		if ms, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && !math.IsNaN(ms) {
			return clampDuration(ms * float64(time.Millisecond)), true
		}
	}
	if v := strings.TrimSpace(h.Get(wire.HeaderRetryAfter)); v != "" {
		if s, err := strconv.ParseFloat(v, 64); err == nil && !math.IsNaN(s) {
			return clampDuration(s * float64(time.Second)), true
		}
		if t, err := http.ParseTime(v); err == nil {
			return max(t.Sub(now), 0), true // Sub saturates
		}
	}
	return 0, false
}

// clampDuration converts nanoseconds (not NaN) to a Duration in [0, max].
func clampDuration(ns float64) time.Duration {
	switch {
	case ns <= 0:
		return 0
	case ns >= math.MaxInt64: // float64(MaxInt64) is 2⁶³, already out of range
		return math.MaxInt64
	}
	return time.Duration(ns)
}
