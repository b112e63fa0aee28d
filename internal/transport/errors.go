package transport

import (
	"errors"
	"net/http"
	"time"
)

// Errors builds the errors Do returns that callers tell apart by type or
// identity. The root package implements it with its exported types
// (*mms.Error, *mms.RequestTooLargeError, ...), so that what Do returns is
// what callers match, with no conversion step and no internal type in the
// chain.
type Errors interface {
	// API is the error of a non-2xx answer; platformID is the platform's
	// own request id, if any. h and body come scrubbed by sc, which also
	// scrubs what is decoded from body (an escape sc did not foresee).
	API(status int, h http.Header, body []byte, attempts int, platformID string, sc *Scrubber) error
	// RequestTooLarge reports a body over its endpoint's limit; sent is true
	// when the limit was crossed while streaming (size bytes had been read).
	RequestTooLarge(method, path string, size, limit int64, sent bool) error
	// ResponseTooLarge reports a success body over limit; contentLength is
	// the announced length, -1 if none.
	ResponseTooLarge(method, path string, limit, contentLength int64) error
	// Redirect reports a redirect the SDK did not follow (status 3xx to
	// host) and why; err is the http.Client's own CheckRedirect error, if
	// that refused it.
	Redirect(method, path string, status int, host, reason string, err error) error
	// AttemptTimeout reports an attempt that ran past its timeout.
	AttemptTimeout(timeout time.Duration) error
	// NotReplayable is wrapped into the error of a failed attempt that was
	// not retried because its body was a stream that cannot be sent again.
	NotReplayable() error
	// MaybeApplied is wrapped into the error of a Creating request that
	// failed after it may have taken effect (and so was not sent again).
	MaybeApplied(method, path string) error
	// RetryBudget is wrapped into the error of a failed attempt that was
	// not retried because the client's retry budget was spent.
	RetryBudget() error
}

// final carries an error built inside net/http's call stack (a body over
// the limit, a refused redirect) out through net/http's wrapping: the
// attempt returns the carried error as it is, and does not retry it.
type final struct{ err error }

func (f *final) Error() string { return f.err.Error() }
func (f *final) Unwrap() error { return f.err }

// asFinal returns the error carried by a final in err's chain.
func asFinal(err error) (error, bool) {
	var f *final
	if errors.As(err, &f) {
		return f.err, true
	}
	return nil, false
}
