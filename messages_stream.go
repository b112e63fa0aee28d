package mms

import (
	"context"
	"fmt"
	"github.com/mms-sdk/mms-go/observe"
	"io"
	"iter"
	"net/http"
	"sync/atomic"

	"github.com/mms-sdk/mms-go/option"
)

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
//   - the end of ctx yields an error wrapping ctx.Err() as the next value:
//     no event is yielded after it, even one already received.
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
		defer func() {
			st.close()
			st.end(st.err)
		}()
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

// messageStream is one open message stream.
type messageStream struct {
	*eventReader[MessageStreamEvent]

	// The call's charge on the client-side token limit, corrected from the
	// usage the stream reports.
	budget tokenBudget
	usage  Usage
	// observed folds the events for the observer's result; nil when the
	// stream is not observed.
	observed *MessageAccumulator
	err      error // the error the stream ended with
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
	if err := p.checkVersion(callVersion(cl.cfg), ""); err != nil {
		return nil, err
	}
	// One encoding pass: "stream":true goes in while large payloads are
	// spliced (codec.MarshalRequestWith).
	body, err := encodeMessageBody(p, `"stream":true`)
	if err != nil {
		return nil, fmt.Errorf("mms: encoding the message request: %w", err)
	}
	r := &request{method: http.MethodPost, path: "/v1/messages", raw: body, betas: p.betas(), model: p.Model, retry: p.retryClass()}
	ctx, op := startOp(ctx, cl.cfg.Observer, chatOp(observe.Chat, "Messages.Stream", p, true))
	conn, err := cl.openEvents(ctx, r)
	if err != nil {
		endOp(op, err)
		return nil, err
	}
	st := &messageStream{eventReader: newEventReader(ctx, conn, decodeMessageStreamEvent), budget: cl.budget(r)}
	if op != nil {
		st.observed = &MessageAccumulator{}
	}
	return st, nil
}

// end ends the stream's operation, if it is observed: with the message
// when it completed, with err (nil when the program left early).
func (st *messageStream) end(err error) {
	if st.op == nil {
		return
	}
	if err == nil && st.observed.Done() {
		st.op.Result(messageResult(st.observed.Message()))
	}
	st.op.End(err)
}

// run decodes the stream and yields its events up to message_stop, or its
// error.
func (st *messageStream) run(ctx context.Context, yield func(MessageStreamEvent, error) bool) {
	for {
		ev, err := st.next(ctx)
		if err == io.EOF {
			err = fmt.Errorf("%w: the stream ended after %d events without message_stop", ErrStreamTruncated, st.events)
		}
		if err == nil && ctx.Err() != nil {
			// The caller cancelled: events already buffered are not
			// handed over; the context's error is the next value.
			err = fmt.Errorf("mms: stream of %s stopped after %d events: %w", st.what, st.events-1, ctx.Err())
		}
		if err != nil {
			st.err = err
			yield(nil, err)
			return
		}
		if st.observed != nil {
			_ = st.observed.Add(ev) // the stream's own order checks stay with the program's accumulator
		}
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
