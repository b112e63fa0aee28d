package transport

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// Metadata is what a response says about itself beyond its body. The root
// package exports it as mms.ResponseMetadata.
type Metadata struct {
	// StatusCode is the HTTP status of the final attempt.
	StatusCode int
	// RequestID is the request-id header (req_…).
	RequestID string
	// OrganizationID and WorkspaceID are the vendor-organization-id and
	// vendor-workspace-id headers.
	OrganizationID string
	WorkspaceID    string
	// RateLimits holds the vendor-ratelimit-<bucket>-{limit,remaining,reset}
	// headers keyed by bucket: "requests", "tokens", "input-tokens",
	// "output-tokens", and any bucket the service adds later.
	RateLimits map[string]RateLimit
	// Priority holds the vendor-priority-<bucket>-* headers the same way
	// ("input-tokens", "output-tokens").
	Priority map[string]RateLimit
	// RetryAfter is the server's requested wait (retry-after-ms, else
	// retry-after), zero when absent, unusable or negative, and at most
	// math.MaxInt64 for huge or infinite values.
	RetryAfter time.Duration
	// Attempts is how many HTTP attempts the call made, retries included.
	Attempts int
	// Header is the full response header of the final attempt.
	Header http.Header
}

// RateLimit is one rate-limit bucket. Fields the service did not send are zero.
type RateLimit struct {
	Limit     int64
	Remaining int64
	Reset     time.Time
}

// ParseMetadata reads the metadata of a response.
func ParseMetadata(status int, h http.Header, attempts int) Metadata {
	m := Metadata{
		StatusCode:     status,
		RequestID:      h.Get(wire.HeaderRequestID),
		OrganizationID: h.Get(wire.HeaderOrganizationID),
		WorkspaceID:    h.Get(wire.HeaderWorkspaceID),
		Attempts:       attempts,
		Header:         h,
	}
	m.RetryAfter, _ = retryAfter(h, time.Now())
	for key, vals := range h {
		if len(vals) == 0 {
			continue
		}
		canon := http.CanonicalHeaderKey(key)
		switch {
		case strings.HasPrefix(canon, wire.RateLimitPrefix):
			m.RateLimits = addBucket(m.RateLimits, canon[len(wire.RateLimitPrefix):], vals[0])
		case strings.HasPrefix(canon, wire.PriorityPrefix):
			m.Priority = addBucket(m.Priority, canon[len(wire.PriorityPrefix):], vals[0])
		}
	}
	return m
}

// addBucket stores one "<bucket>-<field>" header value ("Input-Tokens-Reset").
func addBucket(dst map[string]RateLimit, name, value string) map[string]RateLimit {
	i := strings.LastIndexByte(name, '-')
	if i <= 0 {
		return dst
	}
	bucket, field := strings.ToLower(name[:i]), strings.ToLower(name[i+1:])
	if dst == nil {
		dst = make(map[string]RateLimit)
	}
	rl := dst[bucket]
	switch field {
	case "limit":
		rl.Limit, _ = strconv.ParseInt(strings.TrimSpace(value), 10, 64)
	case "remaining":
		rl.Remaining, _ = strconv.ParseInt(strings.TrimSpace(value), 10, 64)
	case "reset":
		rl.Reset, _ = time.Parse(time.RFC3339, strings.TrimSpace(value))
	default:
		return dst
	}
	dst[bucket] = rl
	return dst
}

// retryAfter reads retry-after-ms (float milliseconds), else retry-after
// (float seconds or an HTTP date). ok is false when neither is usable. The
// result is clamped to [0, math.MaxInt64] (NaN is unusable), because
// converting an out-of-range float to a Duration overflows.
func retryAfter(h http.Header, now time.Time) (d time.Duration, ok bool) {
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
