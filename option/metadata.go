package option

import (
	"net/http"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// ResponseMetadata is what a response says about itself beyond its body:
// request id, organization and workspace, the parsed rate-limit and
// priority headers, the server's retry-after, and how many attempts the
// call took. Capture it for any call with [WithResponseMetadata]; an
// *mms.Error carries it too (its Metadata method). mms.ResponseMetadata
// names this type.
type ResponseMetadata struct {
	// StatusCode is the HTTP status of the final attempt.
	StatusCode int
	// RequestID is the request-id header (req_…).
	RequestID string
	// PlatformRequestID is a partner platform's own request id (Bedrock's
	// x-amzn-RequestId, …); "" without a platform.
	PlatformRequestID string
	// OrganizationID is the vendor-organization-id header.
	OrganizationID string
	// WorkspaceID is the vendor-workspace-id header.
	WorkspaceID string
	// RateLimits holds the vendor-ratelimit-<bucket>-{limit,remaining,reset}
	// headers keyed by bucket: "requests", "tokens", "input-tokens",
	// "output-tokens", and any bucket the service adds later. Nil when the
	// response has none.
	RateLimits map[string]RateLimit
	// Priority holds the vendor-priority-<bucket>-* headers the same way
	// ("input-tokens", "output-tokens"); PriorityInputTokens and
	// PriorityOutputTokens read the two documented buckets.
	Priority map[string]RateLimit
	// RetryAfter is the server's requested wait (retry-after-ms, else
	// retry-after); zero when absent, negative or a date in the past, and
	// zero too when the value is not a wait a time.Duration can hold (NaN,
	// ±Inf, 1e308, a huge integer, a date past 2262): such a value is
	// treated as absent, as the retry loop treats it, never clamped to the
	// largest Duration. The raw header stays in Header.
	RetryAfter time.Duration
	// Attempts is how many HTTP attempts the call made, retries included.
	Attempts int
	// Resent is true when a delete or archive succeeded on the evidence
	// of a resend: an attempt's answer was lost (a 5xx, a timeout, a
	// dropped connection), the SDK sent the request again, and the
	// service answered that the record was already gone (404) or already
	// archived, which means the earlier attempt did it. StatusCode and
	// Header are that answer's. A first attempt answered 404 is an error,
	// as always.
	Resent bool
	// Header is the full response header of the final attempt.
	Header http.Header
}

// PriorityInputTokens is the vendor-priority-input-tokens-* bucket, and
// whether the response carried it (the service sends it on requests with
// service_tier auto on a model with a priority commitment).
func (m ResponseMetadata) PriorityInputTokens() (RateLimit, bool) {
	rl, ok := m.Priority["input-tokens"]
	return rl, ok
}

// PriorityOutputTokens is the vendor-priority-output-tokens-* bucket, and
// whether the response carried it.
func (m ResponseMetadata) PriorityOutputTokens() (RateLimit, bool) {
	rl, ok := m.Priority["output-tokens"]
	return rl, ok
}

// RateLimit is one parsed vendor-ratelimit-* or vendor-priority-* bucket.
// Fields the service did not send are zero, and so are values that are
// not a count an int64 holds (negative, too large, not an integer) or not
// an RFC 3339 time: they are treated as absent, not clamped. mms.RateLimit names this type.
type RateLimit struct {
	// Limit is the bucket's size (the -limit header).
	Limit int64
	// Remaining is what is left of it (the -remaining header).
	Remaining int64
	// Reset is when the bucket is full again (the -reset header, RFC 3339).
	Reset time.Time
}

// parseMetadata reads the metadata of a response; every number and time
// goes through the transport's one header rule (retry_after.go).
func parseMetadata(status int, h http.Header, attempts int) ResponseMetadata {
	m := ResponseMetadata{
		StatusCode:     status,
		RequestID:      h.Get(wire.HeaderRequestID),
		OrganizationID: h.Get(wire.HeaderOrganizationID),
		WorkspaceID:    h.Get(wire.HeaderWorkspaceID),
		Attempts:       attempts,
		Header:         h,
	}
	m.RetryAfter, _ = transport.RetryAfter(h, time.Now())
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
		rl.Limit, _ = transport.HeaderCount(value)
	case "remaining":
		rl.Remaining, _ = transport.HeaderCount(value)
	case "reset":
		rl.Reset, _ = transport.HeaderTime(value)
	default:
		return dst
	}
	dst[bucket] = rl
	return dst
}
