package mms

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"mime"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/mms-sdk/mms-go/internal/sse"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
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

func (e *StreamIdleError) Error() string {
	return fmt.Sprintf("mms: stream idle: no bytes received for %v (after %d events); the connection was closed", e.Timeout, e.Events)
}

// Is lets callers match it with context.DeadlineExceeded.
func (e *StreamIdleError) Is(target error) bool { return target == context.DeadlineExceeded }

// errStreamReused is yielded when a stream is ranged over a second time.
var errStreamReused = errors.New("mms: a message stream can be ranged over only once; call Stream again for a new request")

// streamHeaderTimeout bounds the wait for a stream's response headers when
// the caller set no request timeout (streaming.md §1: no per-request
// deadline, only the wait for headers).
const streamHeaderTimeout = 10 * time.Minute

// Stream sends a conversation and streams the model's reply as it is
// generated (POST /v1/messages with "stream": true). Parameters marked beta
// add their beta names to the request.
//
// The returned sequence is lazy and single-use: nothing is sent until the
// first iteration step, and ranging over it a second time yields an error.
// The parameters are validated first; a *ValidationError is yielded once
// and nothing is sent. Failures before the stream starts (an error status,
// a dropped connection) follow the client's retry policy; once the stream
// has started nothing is retried, and every problem is yielded once as the
// last element:
//
//   - an "error" event becomes an [*Error] with StatusCode 200 and the
//     payload's type (errors.Is(err, ErrOverloaded) for overloaded_error);
//   - a stream that ends before message_stop yields an error wrapping
//     [ErrStreamTruncated]: nothing ends silently;
//   - with option.WithStreamIdleTimeout(d), a wait of more than d for the
//     next bytes (pings count) closes the connection and yields a
//     [*StreamIdleError]; time the caller spends between events does not
//     count, as the bytes wait in the connection meanwhile;
//   - the end of ctx yields an error wrapping ctx.Err().
//
// Events of unknown names are yielded as [UnknownStreamEvent]. The sequence
// ends with the message_stop event: nothing the server sends after it is
// yielded, and a server that keeps the connection open after it cannot
// hold the loop (the end of the body is awaited for at most 100 ms, so that
// the connection can be reused when the response ends there, then the
// connection is released). Leaving the loop early (break, return, panic) closes the
// connection; so does the end of the sequence. There is no per-request
// deadline by default: the request timeout, if set, bounds only the wait
// for the response headers.
//
// Fold the events into the final [Message] with a [MessageAccumulator], or
// read just the text with [MessageAccumulator.Text]:
//
//	var acc mms.MessageAccumulator
//	for ev, err := range client.Messages.Stream(ctx, p) {
//		if err != nil {
//			return err
//		}
//		if err := acc.Add(ev); err != nil {
//			return err
//		}
//	}
//	msg := acc.Message()
func (s *MessagesService) Stream(ctx context.Context, p MessageCreateParams, opts ...option.RequestOption) iter.Seq2[MessageStreamEvent, error] {
	var used atomic.Bool
	return func(yield func(MessageStreamEvent, error) bool) {
		if used.Swap(true) {
			yield(nil, errStreamReused)
			return
		}
		st, err := s.openStream(ctx, &p, opts)
		if err != nil {
			yield(nil, err)
			return
		}
		defer st.body.Close()
		st.run(ctx, yield)
	}
}

// Text ranges over a stream, adds every event to a, and yields the text of
// each text delta as it arrives. An error of the stream, or of Add, is
// yielded once and ends the sequence. After the loop a.Message() is the
// final message (or, after an error, the message as far as it got).
//
//	var acc mms.MessageAccumulator
//	for text, err := range acc.Text(client.Messages.Stream(ctx, p)) {
//		if err != nil {
//			return err
//		}
//		fmt.Print(text)
//	}
//	fmt.Println("\noutput tokens:", acc.Message().Usage.OutputTokens)
func (a *MessageAccumulator) Text(events iter.Seq2[MessageStreamEvent, error]) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		for ev, err := range events {
			if err == nil {
				err = a.Add(ev)
			}
			if err != nil {
				yield("", err)
				return
			}
			d, ok := ev.(ContentBlockDeltaEvent)
			if !ok {
				continue
			}
			t, ok := d.Delta.(TextDelta)
			if !ok || t.Text == "" || a.blocks[d.Index].kind != kindText {
				continue
			}
			if !yield(t.Text, nil) {
				return
			}
		}
	}
}

// messageStream is one open stream.
type messageStream struct {
	body io.ReadCloser
	idle *idleReader // nil without an idle timeout
	resp *transport.Response

	// The call's charge on the client-side token limit, corrected from the
	// usage the stream reports.
	budget tokenBudget
	usage  Usage
}

// openStream validates and encodes p, sends the request and returns the
// open stream.
func (s *MessagesService) openStream(ctx context.Context, p *MessageCreateParams, opts []option.RequestOption) (*messageStream, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	cl := s.client.newCall(opts)
	if cl.err != nil {
		return nil, cl.err
	}
	if err := checkUserProfile(p, cl.cfg); err != nil {
		return nil, err
	}
	// One encoding pass: "stream":true goes in while large payloads are
	// spliced (codec.MarshalRequestWith).
	body, err := encodeMessageBody(p, `"stream":true`)
	if err != nil {
		return nil, fmt.Errorf("mms: encoding the message request: %w", err)
	}
	r := &request{
		method: http.MethodPost, path: "/v1/messages", raw: body, betas: p.betas(),
		accept: "text/event-stream", streaming: true, timeout: streamHeaderTimeout,
	}
	resp, err := cl.send(ctx, r)
	if err != nil {
		return nil, err
	}
	st := &messageStream{body: resp.Body, resp: resp, budget: cl.budget(r)}
	if ct := resp.Header.Get(wire.HeaderContentType); ct != "" {
		if mt, _, _ := mime.ParseMediaType(ct); mt == "application/json" {
			data, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
			resp.Body.Close()
			return nil, fmt.Errorf("mms: POST /v1/messages: expected an event stream, got %s: %s (request-id %s)",
				ct, excerpt(data), resp.RequestID)
		}
	}
	if cl.cfg.StreamIdle > 0 {
		st.idle = newIdleReader(resp.Body, cl.cfg.StreamIdle)
		st.body = st.idle
	}
	return st, nil
}

// run decodes the stream and yields its events up to message_stop, or its
// error.
func (st *messageStream) run(ctx context.Context, yield func(MessageStreamEvent, error) bool) {
	dec := sse.NewDecoder(st.body)
	events := 0
	for {
		sev, err := dec.Next()
		if err != nil {
			switch {
			case err == io.EOF:
				yield(nil, fmt.Errorf("%w: the stream ended after %d events without message_stop", ErrStreamTruncated, events))
			default:
				yield(nil, st.readError(ctx, events, err))
			}
			return
		}
		ev, err := decodeMessageStreamEvent(sev.Type, sev.Data)
		if err != nil {
			var apiErr *Error
			if errors.As(err, &apiErr) { // an "error" event
				yield(nil, st.withResponse(apiErr))
			} else {
				yield(nil, fmt.Errorf("%w (event %d of the stream, request-id %s)", err, events+1, st.resp.RequestID))
			}
			return
		}
		events++
		switch e := ev.(type) {
		case MessageStartEvent:
			st.usage = e.Message.Usage
		case MessageDeltaEvent:
			st.usage.OutputTokens = e.Usage.OutputTokens
		case MessageStopEvent:
			st.budget.correct(billed(st.usage))
			// The message is complete: the sequence ends here whatever
			// the server does with the connection next.
			yield(ev, nil)
			st.finish()
			return
		}
		if !yield(ev, nil) {
			return
		}
	}
}

const (
	// drainWait and drainLimit bound what a finished stream reads after
	// message_stop: a server that ends the response there (the normal
	// case) lets the HTTP/1 connection be reused, which needs the body
	// read to its end; one that holds the connection open, or keeps
	// sending, is cut off.
	drainWait  = 100 * time.Millisecond
	drainLimit = 4 << 10
)

// finish reads the rest of a complete stream's body, within drainWait and
// drainLimit, then closes it.
func (st *messageStream) finish() {
	t := time.AfterFunc(drainWait, func() { st.body.Close() })
	io.CopyN(io.Discard, st.body, drainLimit)
	t.Stop()
	st.body.Close()
}

// readError explains why reading the stream failed.
func (st *messageStream) readError(ctx context.Context, events int, err error) error {
	switch {
	case st.idle != nil && st.idle.fired.Load():
		return &StreamIdleError{Timeout: st.idle.timeout, Events: events}
	case ctx.Err() != nil:
		return fmt.Errorf("mms: stream of POST /v1/messages stopped after %d events: %w", events, ctx.Err())
	}
	return fmt.Errorf("%w after %d events: %w", ErrStreamTruncated, events, err)
}

// withResponse completes the *Error of an "error" event with what the
// response says: the attempts, and its request-id when the payload has
// none.
func (st *messageStream) withResponse(e *Error) *Error {
	e.Attempts = st.resp.Attempts
	if e.RequestID == "" {
		e.RequestID = st.resp.RequestID
	}
	return e
}

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
