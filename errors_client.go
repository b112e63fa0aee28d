package mms

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/mms-sdk/mms-go/internal/transport"
)

// The errors of failures on the client's side of the wire. The pipeline
// (internal/transport) builds them through pipelineErrors, so the types
// callers name in errors.As are the ones in the chain.

// ErrNotReplayable is wrapped into the error of a failed call that was not
// retried because its body was a stream that cannot be sent twice.
var ErrNotReplayable = errors.New("not retried: the request body is a stream that cannot be replayed (pass an io.ReadSeeker, e.g. an *os.File, to make it retryable)")

// ErrMaybeApplied matches the error of a request that creates something
// (a batch, a session, a delivered event, an agent, an upload, …) and
// failed after it reached the service: a 5xx, a timeout or a dropped
// connection after the request was written, a success whose body was
// lost. The operation may have taken effect, so the SDK did not send it
// again; check (get or list) before sending it yourself. When the service
// answered, errors.As still finds the *Error with its request id. Requests
// that provably took no effect (no connection made, the request not fully
// written, a 429, x-should-retry: true) are retried as before; reads,
// deletes, archives, updates and Messages calls are retried after any
// retryable failure and never match it.
var ErrMaybeApplied = errors.New("mms: the request may have taken effect")

// ErrRetryBudgetExhausted is wrapped into the error of a failed call that
// was not retried because the client's retry budget was spent: during an
// outage, retries drain it and the client sends each request once until
// successes refill it (see option.WithRetryBudget).
var ErrRetryBudgetExhausted = errors.New("mms: not retried: the client's retry budget is spent (option.WithRetryBudget)")

// RequestTooLargeError reports a request body over its endpoint's limit
// (32 MiB for messages, 256 MiB for batches, 500 MiB for files). It matches
// ErrRequestTooLarge.
type RequestTooLargeError struct {
	// Method and Path name the request, e.g. "POST" and "/v1/files".
	Method, Path string
	// Size is the body's length; when Sent, the bytes read when the limit
	// was crossed.
	Size int64
	// Limit is the endpoint's limit in bytes.
	Limit int64
	// Sent is true when the limit was crossed mid-stream (the size was not
	// known up front), so part of the body had already left.
	Sent bool
}

// Error names the request and the limit, and says whether any of the
// body was sent.
func (e *RequestTooLargeError) Error() string {
	if e.Sent {
		return fmt.Sprintf("mms: request body for %s %s exceeded the %d-byte limit while streaming; the request was aborted", e.Method, e.Path, e.Limit)
	}
	return fmt.Sprintf("mms: request body for %s %s is %d bytes, over the %d-byte limit; nothing was sent", e.Method, e.Path, e.Size, e.Limit)
}

// Is makes a RequestTooLargeError match ErrRequestTooLarge.
func (e *RequestTooLargeError) Is(target error) bool { return target == ErrRequestTooLarge }

// ResponseTooLargeError reports a non-streaming success body over the limit
// set with option.WithMaxResponseSize (default 64 MiB). At most Limit+1
// bytes were read (none when Content-Length announced more; a compressed
// body counts decompressed); the call is not retried.
type ResponseTooLargeError struct {
	// Method and Path name the request.
	Method, Path string
	// Limit is the cap in bytes.
	Limit int64
	// ContentLength is the length the response announced, -1 if none.
	ContentLength int64
}

// Error names the request, the limit and whether the body was read.
func (e *ResponseTooLargeError) Error() string {
	if e.ContentLength > e.Limit {
		return fmt.Sprintf("mms: response body of %s %s is %d bytes, over the %d-byte limit (option.WithMaxResponseSize); it was not read", e.Method, e.Path, e.ContentLength, e.Limit)
	}
	return fmt.Sprintf("mms: response body of %s %s exceeded the %d-byte limit (option.WithMaxResponseSize); reading stopped there", e.Method, e.Path, e.Limit)
}

// RedirectError reports a redirect the SDK did not follow. It follows only
// redirects of idempotent methods (GET, HEAD, OPTIONS, TRACE, PUT, DELETE)
// that stay on the base URL's origin (scheme, host and port), because the
// request carries the credential and a non-idempotent request must not be
// sent twice. It is not retried.
type RedirectError struct {
	// Method and Path name the request.
	Method, Path string
	// StatusCode is the redirect's status: 301, 302, 303, 307 or 308.
	StatusCode int
	// Host is the target's host[:port], without userinfo, path or query.
	Host string
	// Reason says why the redirect was not followed.
	Reason string
	// Err is the error of the http.Client's own CheckRedirect, when that
	// refused the redirect.
	Err error
}

// Error names the request, the redirect it did not follow and why.
func (e *RedirectError) Error() string {
	s := fmt.Sprintf("mms: %s %s: did not follow the %d redirect to %s: %s", e.Method, e.Path, e.StatusCode, e.Host, e.Reason)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns Err.
func (e *RedirectError) Unwrap() error { return e.Err }

// AttemptTimeoutError reports an attempt that ran past its per-attempt
// timeout (option.WithRequestTimeout, or the endpoint's default); it
// matches context.DeadlineExceeded. A timed-out attempt is retried like a
// dropped connection; a call's error wraps it when its last attempt timed
// out.
type AttemptTimeoutError struct {
	// Timeout is the per-attempt timeout that ran out.
	Timeout time.Duration
}

// Error says how long the attempt ran.
func (e *AttemptTimeoutError) Error() string {
	return fmt.Sprintf("mms: attempt timed out after %v", e.Timeout)
}

// Is lets callers match it with context.DeadlineExceeded.
func (e *AttemptTimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// pipelineErrors builds the transport's errors as this package's types.
type pipelineErrors struct{}

func (pipelineErrors) API(status int, h http.Header, body []byte, attempts int, platformID string, sc *transport.Scrubber) error {
	e := newAPIError(status, h, body, attempts)
	rescrub(e, sc)
	e.PlatformRequestID = platformID
	return e
}

// scrubError hides, in an *Error built from what the server sent after
// the response began (a stream's "error" event), the secrets the request
// carried.
func scrubError(e *Error, sc *transport.Scrubber) {
	if sc == nil {
		return
	}
	e.Body = sc.Bytes(e.Body)
	rescrub(e, sc)
}

// rescrub finishes the scrubbing of e, whose body came scrubbed: a secret
// the server escaped in a way the scrubber did not foresee (\u0073k-…)
// shows only once decoded. Then the body is decoded and encoded again
// with every string scrubbed.
func rescrub(e *Error, sc *transport.Scrubber) {
	if m := sc.String(e.Message); m != e.Message {
		e.Message = m
		e.Body = rescrubJSON(e.Body, sc)
	}
}

func (pipelineErrors) RequestTooLarge(method, path string, size, limit int64, sent bool) error {
	return &RequestTooLargeError{Method: method, Path: path, Size: size, Limit: limit, Sent: sent}
}

func (pipelineErrors) ResponseTooLarge(method, path string, limit, contentLength int64) error {
	return &ResponseTooLargeError{Method: method, Path: path, Limit: limit, ContentLength: contentLength}
}

func (pipelineErrors) Redirect(method, path string, status int, host, reason string, err error) error {
	return &RedirectError{Method: method, Path: path, StatusCode: status, Host: host, Reason: reason, Err: err}
}

func (pipelineErrors) AttemptTimeout(timeout time.Duration) error {
	return &AttemptTimeoutError{Timeout: timeout}
}

func (pipelineErrors) NotReplayable() error { return ErrNotReplayable }

func (pipelineErrors) MaybeApplied(method, path string) error {
	return fmt.Errorf("%w: the outcome of %s %s is unknown, and the SDK does not send it again; check (get or list) before sending it yourself", ErrMaybeApplied, method, path)
}

func (pipelineErrors) RetryBudget() error { return ErrRetryBudgetExhausted }

// rescrubJSON decodes a JSON body, scrubs every string in it (keys too)
// and encodes it again; a body that is not JSON becomes its scrubbed
// excerpt.
func rescrubJSON(body []byte, sc *transport.Scrubber) []byte {
	var v any
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return []byte(sc.String(excerpt(body)))
	}
	var walk func(any) any
	walk = func(v any) any {
		switch v := v.(type) {
		case string:
			return sc.String(v)
		case []any:
			for i := range v {
				v[i] = walk(v[i])
			}
		case map[string]any:
			out := make(map[string]any, len(v))
			for k, x := range v {
				out[sc.String(k)] = walk(x)
			}
			return out
		}
		return v
	}
	out, err := json.Marshal(walk(v))
	if err != nil {
		return []byte(transport.Mask)
	}
	return out
}
