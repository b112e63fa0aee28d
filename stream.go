package mms

// The event-stream connection shared by every streaming endpoint (message
// streams and session event streams): sending the request with the
// stream's header timeout, refusing a JSON answer where events were
// expected, the idle timer, the read errors, the drain after a complete
// stream, and eventReader, which decodes the events into a stream's own
// event type. Each stream keeps only what its events mean on top.

import (
	"context"
	"errors"
	"fmt"
	"github.com/mms-sdk/mms-go/observe"
	"io"
	"mime"
	"sync/atomic"
	"time"

	"github.com/mms-sdk/mms-go/internal/sse"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// ErrStreamTruncated is wrapped into the error of a stream that ended before
// its message_stop event: the connection closed cleanly too early, closed in
// the middle of an event, or failed while reading. The message is
// incomplete. Match it with errors.Is; the error also says how many events
// arrived and wraps the read error, if any.
var ErrStreamTruncated = errors.New("mms: stream truncated")

// StreamIdleError is the error of a stream that received no bytes at all
// (pings included) for longer than option.WithStreamIdleTimeout allows; its
// connection has been closed. It matches context.DeadlineExceeded with
// errors.Is; use errors.As to tell it from the caller's own deadline.
type StreamIdleError struct {
	// Timeout is the idle time allowed.
	Timeout time.Duration
	// Events is how many events arrived before the silence.
	Events int
}

// Error says how long the stream was silent and after how many events.
func (e *StreamIdleError) Error() string {
	return fmt.Sprintf("mms: stream idle: no bytes received for %v (after %d events); the connection was closed", e.Timeout, e.Events)
}

// Is lets callers match it with context.DeadlineExceeded.
func (e *StreamIdleError) Is(target error) bool { return target == context.DeadlineExceeded }

// errNotEventStream is wrapped into the error of a 2xx JSON answer where an
// event stream was expected: a misrouted request, not a network failure.
var errNotEventStream = errors.New("expected an event stream")

// errStreamReused is yielded when a stream is ranged over a second time.
var errStreamReused = errors.New("mms: a stream can be ranged over only once; call Stream again for a new request")

// streamHeaderTimeout bounds the wait for a stream's response headers when
// the caller set no request timeout: a stream may last as long as the
// model writes, so only the wait for headers is bounded.
const streamHeaderTimeout = 10 * time.Minute

// eventConn is one open event-stream response.
type eventConn struct {
	body io.ReadCloser // the response body, behind idle when there is one
	idle *idleReader   // nil without an idle timeout
	resp *transport.Response
	what string // "POST /v1/messages", for errors
}

// openEvents sends r, which must ask for an event stream, on cl and returns
// the open stream. A JSON answer with a 2xx status is an error, not a
// stream: a misrouted or misconfigured server would otherwise look like a
// stream without events.
func (cl call) openEvents(ctx context.Context, r *request) (*eventConn, error) {
	r.accept, r.streaming = "text/event-stream", true
	if r.timeout == 0 {
		r.timeout = streamHeaderTimeout
	}
	resp, err := cl.send(ctx, r)
	if err != nil {
		return nil, err
	}
	c := &eventConn{body: resp.Body, resp: resp, what: r.method + " " + r.path}
	if ct := resp.Header.Get(wire.HeaderContentType); ct != "" {
		if mt, _, _ := mime.ParseMediaType(ct); mt == "application/json" {
			data, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
			resp.Body.Close()
			return nil, fmt.Errorf("mms: %s: %w, got %s: %s (request-id %s)",
				c.what, errNotEventStream, ct, excerpt(data), resp.RequestID)
		}
	}
	if cl.cfg.StreamIdle > 0 {
		c.idle = newIdleReader(resp.Body, cl.cfg.StreamIdle)
		c.body = c.idle
	}
	return c, nil
}

// close releases the connection.
func (c *eventConn) close() { c.body.Close() }

const (
	// drainWait and drainLimit bound what a finished stream reads after
	// its last event: a server that ends the response there (the normal
	// case) lets the HTTP/1 connection be reused, which needs the body
	// read to its end; one that holds the connection open, or keeps
	// sending, is cut off.
	drainWait  = 100 * time.Millisecond
	drainLimit = 4 << 10
)

// finish reads the rest of a complete stream's body, within drainWait and
// drainLimit, then closes it.
func (c *eventConn) finish() {
	t := time.AfterFunc(drainWait, func() { c.body.Close() })
	io.CopyN(io.Discard, c.body, drainLimit)
	t.Stop()
	c.body.Close()
}

// readError explains why reading the stream failed after events events.
func (c *eventConn) readError(ctx context.Context, events int, err error) error {
	switch {
	case c.idle != nil && c.idle.fired.Load():
		return &StreamIdleError{Timeout: c.idle.timeout, Events: events}
	case ctx.Err() != nil:
		return fmt.Errorf("mms: stream of %s stopped after %d events: %w", c.what, events, ctx.Err())
	}
	return fmt.Errorf("%w after %d events: %w", ErrStreamTruncated, events, err)
}

// withResponse completes the *Error of an "error" event with what the
// response says: the attempts, the platform's request id, and its
// request-id when the payload has none.
func (c *eventConn) withResponse(e *Error) *Error {
	scrubError(e, c.resp.Scrub)
	e.Attempts, e.PlatformRequestID = c.resp.Attempts, c.resp.PlatformRequestID
	if e.RequestID == "" {
		e.RequestID = c.resp.RequestID
	}
	return e
}

// eventReader decodes the events of one open connection into T with
// decode, which turns an "error" event into an *Error.
type eventReader[T any] struct {
	*eventConn
	dec    *sse.Decoder
	decode func(name string, data []byte) (T, error)
	events int               // events decoded so far
	op     observe.Operation // told of each event; nil when not observed
}

// newEventReader reads c's events, telling the operation ctx runs under
// (if any) of each.
func newEventReader[T any](ctx context.Context, c *eventConn, decode func(name string, data []byte) (T, error)) *eventReader[T] {
	return &eventReader[T]{eventConn: c, dec: sse.NewDecoder(c.body), decode: decode, op: opFrom(ctx)}
}

// next returns the next event. The body's clean end between two events is
// io.EOF, which each stream judges itself; every other failure comes
// explained: a read error (idle, cancelled, truncated) by readError, an
// "error" event as its *Error completed from the response, an undecodable
// event with its position and the request-id.
func (r *eventReader[T]) next(ctx context.Context) (T, error) {
	var zero T
	sev, err := r.dec.Next()
	if err == io.EOF {
		return zero, io.EOF
	}
	if err != nil {
		return zero, r.readError(ctx, r.events, err)
	}
	ev, err := r.decode(sev.Type, sev.Data)
	if err != nil {
		var apiErr *Error
		if errors.As(err, &apiErr) {
			return zero, r.withResponse(apiErr)
		}
		return zero, &eventDecodeError{fmt.Errorf("%w (event %d of the stream, request-id %s)", err, r.events+1, r.resp.RequestID)}
	}
	r.events++
	if r.op != nil {
		r.op.Event(sev.Type)
	}
	return ev, nil
}

// eventDecodeError is the error of an event that does not decode: the
// server and the SDK disagree, which no reconnect mends.
type eventDecodeError struct{ err error }

func (e *eventDecodeError) Error() string { return e.err.Error() }
func (e *eventDecodeError) Unwrap() error { return e.err }

// idleReader closes the response body when a Read waits longer than timeout
// for bytes. The clock runs only while a Read is waiting, so a caller that
// takes its time between events is not mistaken for a silent server (the
// bytes wait in the connection's buffers meanwhile).
type idleReader struct {
	body    io.ReadCloser
	timeout time.Duration
	timer   *time.Timer
	fired   atomic.Bool
}

func newIdleReader(body io.ReadCloser, timeout time.Duration) *idleReader {
	r := &idleReader{body: body, timeout: timeout}
	r.timer = time.AfterFunc(time.Hour, func() {
		r.fired.Store(true)
		body.Close()
	})
	r.timer.Stop()
	return r
}

func (r *idleReader) Read(p []byte) (int, error) {
	if r.fired.Load() {
		return 0, errIdle
	}
	r.timer.Reset(r.timeout)
	n, err := r.body.Read(p)
	if !r.timer.Stop() && r.fired.Load() && n == 0 {
		return 0, errIdle
	}
	return n, err
}

func (r *idleReader) Close() error {
	r.timer.Stop()
	return r.body.Close()
}

// errIdle is the read error after the idle timer closed the body; run turns
// it into a *StreamIdleError.
var errIdle = errors.New("mms: stream idle")
