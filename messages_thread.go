package mms

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/option"
	"github.com/mms-sdk/mms-go/platform"
)

// ErrMessageThreadBusy is returned (or yielded) by a [MessageThread] call
// made while another turn of the same thread is in progress: a thread runs
// one turn at a time, and the second call changes nothing.
var ErrMessageThreadBusy = errors.New("mms: MessageThread: another turn of this thread is in progress; a thread runs one turn at a time")

// MessageThread holds one conversation and sends it as a message thread
// (beta message-threads-2026-08-12): the service keeps the conversation,
// so each turn sends only its new messages, while the thread keeps the
// whole history locally to start again when the service cannot continue.
// Create one with [MessagesService.NewThread]; nothing is sent until the
// first [MessageThread.Send] or [MessageThread.Stream].
//
// Each turn is one of:
//
//   - create: the first turn, and any turn after the thread was broken
//     off (below): the full history, system and tools, with thread
//     {type:"create"}. Breakpoints (cache_control) of messages already
//     answered are removed, as a request allows only a few;
//   - continue: only the turn's messages, without system and tools, with
//     thread {type:"continue"} naming the previous reply;
//   - unthreaded, after the service refused threading for this
//     conversation and SetUnthreadedFallback(true) allowed going on
//     without it: the full history without thread, from then on.
//
// When a continuation is answered thread_not_found,
// thread_already_continued or thread_continue_in_flight, the turn is sent
// again at once as a create; after thread_unsupported_request it is sent
// unthreaded if allowed (else the error is returned). A turn makes at most
// three requests (continue, create, unthreaded). Only those definite
// refusals lead to a resend: a turn whose outcome is unknown (an error
// matching [ErrMaybeApplied], a dropped connection) returns its error, is
// not recorded, and the next turn starts a new thread.
//
// The next turn also starts a new thread after a reply with stop_reason
// "refusal" (the whole turn, messages and reply, is left out of the
// history: send it again or rephrase), after a reply that a fallback model
// served (Usage.Iterations holds a [FallbackMessageIterationUsage]: a
// thread keeps one model), and after a stream that ended before
// message_stop (the partial reply is kept in the history). The container
// of each reply is reused by later turns unless the parameters name one.
//
// A thread's system prompt and tools are fixed when it is created:
// [MessageThread.SetParams] refuses to change them, and
// [MessageThread.Fork] starts a new thread with the same history and new
// parameters. Within a thread, tools change through tool_addition and
// tool_removal blocks in a system message.
//
// Threads are not offered through partner platforms (option.WithPlatform:
// Bedrock, Vertex AI and the other platform adapters): there every turn
// fails with an error matching platform.ErrUnsupported.
//
// A MessageThread is not safe for concurrent turns: a Send or Stream made
// while another turn is in progress fails with [ErrMessageThreadBusy]
// and changes nothing. Its accessors may be called at any time.
type MessageThread struct {
	svc  *MessagesService
	opts []option.RequestOption

	busy atomic.Bool // a turn is in progress

	mu         sync.Mutex
	params     MessageCreateParams // the settings: no Messages, no Thread
	history    []MessageParam
	lastID     string // the reply the next turn continues; "" starts a new thread
	lastReply  string // the id of the last reply received
	unthreaded bool   // threading was refused and the thread goes on without it
	fallback   bool   // SetUnthreadedFallback
	container  string // the last reply's container id, reused unless params name one
	threadErr  error  // a problem with the parameters given to NewThread
}

// NewThread returns a [MessageThread] with the parameters of every turn
// (model, max_tokens, system, tools, …) and, in p.Messages, the history it
// starts from (may be empty). p.Thread must be unset: the thread sets it.
// opts apply to every request of the thread. Nothing is sent until the
// first turn.
func (s *MessagesService) NewThread(p MessageCreateParams, opts ...option.RequestOption) *MessageThread {
	t := &MessageThread{svc: s, opts: slices.Clone(opts), history: slices.Clone(p.Messages)}
	if p.Thread != nil {
		t.threadErr = invalid("thread", "is set by MessageThread: leave it unset")
	}
	p.Messages, p.Thread = nil, nil
	t.params = p
	return t
}

// History returns a copy of the conversation so far: the starting
// messages, then each turn's messages and reply.
func (t *MessageThread) History() []MessageParam {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Clone(t.history)
}

// ID returns the id of the last reply received ("" before the first),
// whether or not the next turn can continue it.
func (t *MessageThread) ID() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastReply
}

// PreviousMessageID returns the id of the reply the next turn continues,
// or "" when the next turn starts a new thread (or the thread went
// unthreaded).
func (t *MessageThread) PreviousMessageID() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastID
}

// Threaded reports whether turns are still sent as a message thread:
// false once the service refused threading and the thread went on
// without it (SetUnthreadedFallback).
func (t *MessageThread) Threaded() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return !t.unthreaded
}

// Params returns a copy of the parameters of every turn (Messages and
// Thread unset).
func (t *MessageThread) Params() MessageCreateParams {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.params
}

// SetUnthreadedFallback says what a turn does when the service answers
// thread_unsupported_request (or the parameters carry a member threads
// cannot have, such as thinking or cache_control): with on false (the
// default) the turn returns the error; with on true it is sent again
// without thread, with the full history, and so are all later turns.
func (t *MessageThread) SetUnthreadedFallback(on bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.fallback = on
}

// SetParams replaces the parameters of later turns. It refuses
// p.Messages and p.Thread, and a change of System or Tools, which a thread
// keeps from its creation (use [MessageThread.Fork], or a system message
// with tool_addition/tool_removal blocks). A change of Model makes the next
// turn start a new thread; other changes are sent with the next
// continuation, and a member the service fingerprints
// (thread_fingerprint_mismatch) is refused by it.
func (t *MessageThread) SetParams(p MessageCreateParams) error {
	if t.busy.Load() {
		return ErrMessageThreadBusy
	}
	switch {
	case p.Messages != nil:
		return invalid("messages", "must be unset: MessageThread keeps the history (send new messages with Send or Stream)")
	case p.Thread != nil:
		return invalid("thread", "is set by MessageThread: leave it unset")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !sameJSON(t.params.System, p.System) {
		return invalid("system", "cannot change on a message thread (the service keeps it from the thread's creation): use Fork for a new thread, or add a system message")
	}
	if !sameJSON(t.params.Tools, p.Tools) {
		return invalid("tools", "cannot change on a message thread (the service keeps them from the thread's creation): use Fork for a new thread, or send tool_addition/tool_removal blocks in a system message")
	}
	if p.Model != t.params.Model {
		t.lastID = ""
	}
	t.params = p
	return nil
}

// Fork returns a new MessageThread with a copy of this one's history, its
// request options and fallback setting, and the parameters p (p.Messages
// and p.Thread must be unset). Its first turn creates a new thread; this
// one is unchanged and may go on.
func (t *MessageThread) Fork(p MessageCreateParams) (*MessageThread, error) {
	if t.busy.Load() {
		return nil, ErrMessageThreadBusy
	}
	switch {
	case p.Messages != nil:
		return nil, invalid("messages", "must be unset: the fork starts from this thread's history")
	case p.Thread != nil:
		return nil, invalid("thread", "is set by MessageThread: leave it unset")
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return &MessageThread{svc: t.svc, opts: slices.Clone(t.opts), params: p, history: slices.Clone(t.history),
		fallback: t.fallback}, nil
}

// sameJSON reports whether a and b encode alike in request form.
func sameJSON(a, b any) bool {
	ja, errA := codec.MarshalRequest(a)
	jb, errB := codec.MarshalRequest(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// threadMode is how a turn's request is sent.
type threadMode uint8

const (
	modeCreate threadMode = iota
	modeContinue
	modeUnthreaded
)

// Send sends a turn: msgs (may be none, e.g. to resume a paused turn)
// after the history, and returns the reply, which the thread records. See
// [MessageThread] for what is sent and for the fallbacks. A
// *ValidationError means nothing was sent.
func (t *MessageThread) Send(ctx context.Context, msgs ...MessageParam) (*Message, error) {
	if err := t.begin(); err != nil {
		return nil, err
	}
	defer t.busy.Store(false)
	msgs = slices.Clone(msgs)
	mode, err := t.firstMode(msgs)
	if err != nil {
		return nil, err
	}
	for {
		p, err := t.request(mode, msgs)
		if err != nil {
			return nil, err
		}
		msg, err := t.svc.Create(ctx, p, t.opts...)
		if err == nil {
			t.record(mode, msgs, msg, true)
			return msg, nil
		}
		next, ok := t.fallbackMode(mode, err)
		if !ok {
			t.failed(err)
			return nil, err
		}
		mode = next
	}
}

// Stream sends a turn as [MessageThread.Send] does and streams the reply
// as [MessagesService.Stream] does: lazy, single-use, every problem yielded
// once as the last element. The fallbacks apply while no event has been
// yielded. The thread records the reply when the stream ends; a stream
// that ends before message_stop (an error, or the caller leaving the loop)
// leaves the partial reply in the history, and the next turn starts a new
// thread.
func (t *MessageThread) Stream(ctx context.Context, msgs ...MessageParam) iter.Seq2[MessageStreamEvent, error] {
	msgs = slices.Clone(msgs)
	var used atomic.Bool
	return func(yield func(MessageStreamEvent, error) bool) {
		if used.Swap(true) {
			yield(nil, errStreamReused)
			return
		}
		if err := t.begin(); err != nil {
			yield(nil, err)
			return
		}
		defer t.busy.Store(false)
		mode, err := t.firstMode(msgs)
		if err != nil {
			yield(nil, err)
			return
		}
		for {
			p, err := t.request(mode, msgs)
			if err != nil {
				yield(nil, err)
				return
			}
			var acc MessageAccumulator
			events, stopped := 0, false
			var streamErr error
			for ev, err := range t.svc.Stream(ctx, p, t.opts...) {
				if err == nil {
					err = acc.Add(ev)
				}
				if err != nil {
					streamErr = err
					break
				}
				events++
				if !yield(ev, nil) {
					stopped = true
					break
				}
			}
			if streamErr != nil && events == 0 {
				if next, ok := t.fallbackMode(mode, streamErr); ok {
					mode = next
					continue
				}
				t.failed(streamErr)
				yield(nil, streamErr)
				return
			}
			complete := streamErr == nil && !stopped && acc.Done()
			if msg := acc.Message(); msg != nil {
				t.record(mode, msgs, msg, complete)
			} else {
				t.failed(streamErr)
			}
			if streamErr != nil {
				yield(nil, streamErr)
			}
			return
		}
	}
}

// begin starts a turn: it refuses a second concurrent turn and the cases
// where no turn can be sent.
func (t *MessageThread) begin() error {
	if pf := t.svc.client.cfg.Platform; pf != nil {
		return fmt.Errorf("mms: MessageThread: message threads are not offered through %s (%w); send the whole conversation with Messages.Create",
			pf.Name(), platform.ErrUnsupported)
	}
	if !t.busy.CompareAndSwap(false, true) {
		return ErrMessageThreadBusy
	}
	if t.threadErr != nil {
		t.busy.Store(false)
		return t.threadErr
	}
	return nil
}

// firstMode is how the turn's first request is sent. A threaded request
// the service would refuse as thread_unsupported_request is refused here
// (or, with the fallback on, sent unthreaded) without a round trip.
func (t *MessageThread) firstMode(msgs []MessageParam) (threadMode, error) {
	t.mu.Lock()
	mode := modeCreate
	switch {
	case t.unthreaded:
		mode = modeUnthreaded
	case t.lastID != "":
		mode = modeContinue
	}
	t.mu.Unlock()
	if mode == modeUnthreaded {
		return mode, nil
	}
	p, err := t.request(mode, msgs)
	if err != nil {
		return mode, err
	}
	if err := p.threadUnsupported(); err != nil {
		t.mu.Lock()
		defer t.mu.Unlock()
		if !t.fallback {
			return mode, err
		}
		t.unthreaded, t.lastID = true, ""
		return modeUnthreaded, nil
	}
	return mode, nil
}

// request builds the turn's request for mode.
func (t *MessageThread) request(mode threadMode, msgs []MessageParam) (MessageCreateParams, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.params
	if p.Container == nil && t.container != "" {
		p.Container = &ContainerParam{ID: t.container}
	}
	switch mode {
	case modeContinue:
		p.System, p.Tools = SystemPrompt{}, nil
		p.Messages = append(make([]MessageParam, 0, len(msgs)), msgs...) // [] when none
		p.Thread = ThreadContinue{PreviousMessageID: t.lastID}
	case modeCreate:
		p.Messages = make([]MessageParam, 0, len(t.history)+len(msgs))
		for _, m := range t.history {
			m, err := withoutCacheControl(m)
			if err != nil {
				return p, err
			}
			p.Messages = append(p.Messages, m)
		}
		p.Messages = append(p.Messages, msgs...)
		p.Thread = ThreadCreate{}
	default:
		p.Messages = append(slices.Clone(t.history), msgs...)
	}
	return p, nil
}

// fallbackMode says how to send the turn again after err, if at all: a
// refused continuation as a create, a refused threaded request unthreaded
// when allowed. Only definite refusals count; nothing else is resent.
func (t *MessageThread) fallbackMode(mode threadMode, err error) (threadMode, bool) {
	var e *Error
	if !errors.As(err, &e) || (e.StatusCode != http.StatusBadRequest && e.StatusCode != http.StatusNotFound) {
		return mode, false
	}
	switch e.Code {
	case ErrorCodeThreadNotFound, ErrorCodeThreadAlreadyContinued, ErrorCodeThreadContinueInFlight:
		if mode == modeContinue {
			t.mu.Lock()
			t.lastID = ""
			t.mu.Unlock()
			return modeCreate, true
		}
	case ErrorCodeThreadUnsupportedRequest:
		t.mu.Lock()
		defer t.mu.Unlock()
		if mode != modeUnthreaded && t.fallback {
			t.unthreaded, t.lastID = true, ""
			return modeUnthreaded, true
		}
	}
	return mode, false
}

// failed notes a turn that failed with err: unless the service refused it
// (nothing was sent, or a 4xx answer), the thread on the service may have
// moved on, so the next turn starts a new one.
func (t *MessageThread) failed(err error) {
	var v *ValidationError
	var e *Error
	if errors.As(err, &v) || errors.As(err, &e) && e.StatusCode >= 400 && e.StatusCode < 500 && !errors.Is(err, ErrMaybeApplied) {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lastID = ""
}

// record adds an answered turn to the history and decides how the next
// turn is sent. complete is false for a stream that ended early.
func (t *MessageThread) record(mode threadMode, msgs []MessageParam, msg *Message, complete bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lastReply = msg.ID
	if complete && msg.StopReason == StopReasonRefusal {
		t.lastID = "" // the service stored the refused turn: start again without it
		return
	}
	t.history = append(t.history, msgs...)
	if len(msg.Content) > 0 {
		t.history = append(t.history, msg.ToParam())
	}
	if t.params.Container == nil && msg.Container != nil && msg.Container.ID != "" {
		t.container = msg.Container.ID
	}
	switch {
	case mode == modeUnthreaded || !complete || servedByFallback(msg):
		t.lastID = ""
	default:
		t.lastID = msg.ID
	}
}

// servedByFallback reports whether a fallback model wrote the reply.
func servedByFallback(msg *Message) bool {
	for _, it := range msg.Usage.Iterations {
		if _, ok := it.(FallbackMessageIterationUsage); ok {
			return true
		}
	}
	return false
}
