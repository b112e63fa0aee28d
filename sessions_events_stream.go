package mms

// The session event stream that survives the network. The service has no
// resume cursor, so after a reconnect the stream lists the stored events
// from its low watermark on (see sessions_events_stream_once.go) and drops
// those it already yielded, by id. Listing happens after the new
// connection is open, so an event stored in between is on the connection
// or in the list, and the id check keeps it from coming twice.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/mms-sdk/mms-go/observe"
	"io"
	"iter"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/mms-sdk/mms-go/option"
)

// SessionEventStreamParams are the parameters of
// [SessionEventsService.Stream] and [SessionThreadEventsService.Stream].
//
// The stream yields every stored event exactly once across dropped
// connections, in the order it learns of them: the connection's order, and
// after a reconnect the events the connection missed, listed from the
// service. Previews (event_start, event_delta) are yielded as they arrive,
// each at most once, and never for an event already yielded; a connection
// that re-sends an event_start is taken to replay that event's previews
// from its start, so its first fragments, as many as were yielded, are
// dropped. An event without an id (an interrupt) cannot be recognised when
// it comes back, so it is never dropped: after a reconnect it may come
// twice.
type SessionEventStreamParams struct {
	// EventDeltas asks for previews of events as they are produced
	// (event_deltas[]): "agent.message" (an event_start, then the text as
	// event_delta fragments) and "agent.thinking" (an event_start). Fold
	// them with a [SessionEventAccumulator].
	EventDeltas []string
	// IncludeHistory yields the session's stored events from its start
	// before the live ones. Without it the stream starts with the events
	// stored after it was opened.
	IncludeHistory bool
	// Reconnect says how the stream survives a dropped or stalled
	// connection; the zero value reconnects with the defaults.
	Reconnect ReconnectPolicy
}

// ReconnectPolicy is how an event stream survives the network. When the
// connection drops, the server ends the stream early, or nothing arrives
// for longer than the idle timeout (option.WithStreamIdleTimeout; 90 s for
// session streams when none is set), the stream waits and reconnects, then
// fills the gap. The wait doubles from InitialDelay up to MaxDelay after
// each failure, jittered to [d/2, d). Answers 400–499 other than 408, 409
// and 429, an "error" event, and events that do not decode are final: the
// stream yields them and ends.
//
// The stream gives up, yielding an error that wraps [ErrReconnectGaveUp]
// and the last failure, after MaxAttempts reconnects in a row have failed
// or when it has failed for GiveUpAfter without progress, whichever comes
// first; by default after 10 reconnects (about a minute of waits) or 2
// minutes. Progress is a new event yielded, or a connection that stayed up
// for ResetAfter; either starts both counts over. Zero fields take the
// defaults; MaxAttempts [ReconnectForever] reconnects until the context
// ends.
type ReconnectPolicy struct {
	// Disabled ends the stream with the first connection failure.
	Disabled bool
	// MaxAttempts bounds the failed reconnects in a row before the stream
	// gives up: 0 means [DefaultReconnectAttempts]; a negative value
	// ([ReconnectForever]) means no bound, and then GiveUpAfter applies
	// only when set.
	MaxAttempts int
	// GiveUpAfter bounds how long the stream keeps failing without
	// progress: 0 means [DefaultReconnectGiveUpAfter] (no bound when
	// MaxAttempts is ReconnectForever). It is checked after each failure,
	// so the stream may end up to one wait and one attempt later.
	GiveUpAfter time.Duration
	// InitialDelay is the first wait (default 0.5 s); MaxDelay caps the
	// waits (default 10 s).
	InitialDelay, MaxDelay time.Duration
	// ResetAfter is how long a connection must stay up to count as
	// progress (default 5 s).
	ResetAfter time.Duration
}

// ReconnectForever, as [ReconnectPolicy.MaxAttempts], reconnects without
// a bound: the stream ends only with the session, a final failure or the
// context.
const ReconnectForever = -1

// The default bounds of a [ReconnectPolicy]: the stream gives up after
// DefaultReconnectAttempts failed reconnects in a row, or after failing
// for DefaultReconnectGiveUpAfter without progress.
const (
	DefaultReconnectAttempts    = 10
	DefaultReconnectGiveUpAfter = 2 * time.Minute
)

// ErrReconnectGaveUp is wrapped into the error of an event stream that
// stopped reconnecting because its [ReconnectPolicy] bound was reached;
// the error also wraps the last failure (an *Error for an error status).
var ErrReconnectGaveUp = errors.New("mms: event stream gave up reconnecting")

// The reconnect defaults: the first retry after 0.5 s, doubling to 10 s,
// reset once a connection has stayed up 5 s, as the official Go SDK's
// runner does.
const (
	defaultReconnectDelay    = 500 * time.Millisecond
	defaultReconnectMaxDelay = 10 * time.Second
	defaultReconnectReset    = 5 * time.Second
	// defaultSessionStreamIdle is the idle timeout of a reconnecting
	// session stream when the caller set none: a silent connection is
	// replaced rather than waited on forever.
	defaultSessionStreamIdle = 90 * time.Second
)

// Validate reports the first rule the params break: an empty event delta
// type, a negative reconnect delay or GiveUpAfter, or an initial delay
// above the maximum. A negative MaxAttempts is [ReconnectForever].
func (p SessionEventStreamParams) Validate() error {
	if err := validateFilled("event_deltas", p.EventDeltas); err != nil {
		return err
	}
	r := p.Reconnect
	switch {
	case r.GiveUpAfter < 0:
		return invalid("Reconnect.GiveUpAfter", "must not be negative, got %v", r.GiveUpAfter)
	case r.InitialDelay < 0, r.MaxDelay < 0, r.ResetAfter < 0:
		return invalid("Reconnect", "delays must not be negative")
	case r.InitialDelay > 0 && r.MaxDelay > 0 && r.InitialDelay > r.MaxDelay:
		return invalid("Reconnect.InitialDelay", "must not exceed MaxDelay (%v), got %v", r.MaxDelay, r.InitialDelay)
	}
	return nil
}

// withDefaults fills the zero fields.
func (r ReconnectPolicy) withDefaults() ReconnectPolicy {
	r.InitialDelay = cmp.Or(r.InitialDelay, defaultReconnectDelay)
	r.MaxDelay = cmp.Or(r.MaxDelay, max(defaultReconnectMaxDelay, r.InitialDelay))
	r.ResetAfter = cmp.Or(r.ResetAfter, defaultReconnectReset)
	switch {
	case r.MaxAttempts == 0:
		r.MaxAttempts = DefaultReconnectAttempts
		r.GiveUpAfter = cmp.Or(r.GiveUpAfter, DefaultReconnectGiveUpAfter)
	case r.MaxAttempts > 0 && r.GiveUpAfter == 0:
		r.GiveUpAfter = DefaultReconnectGiveUpAfter
	}
	return r
}

// delay is the wait before attempt n (1, 2, …) after a failure.
func (r ReconnectPolicy) delay(n int) time.Duration {
	return backoffDelay(n, r.InitialDelay, r.MaxDelay)
}

// sessionStream is one reconnecting stream of a session or a thread.
type sessionStream struct {
	client   *Client
	path     string // …/events/stream or …/threads/{id}/stream
	query    url.Values
	opts     []option.RequestOption
	policy   ReconnectPolicy
	history  bool
	threadID string // "" for a session stream

	// list lists the stored events processed at or after since (from the
	// start when since is zero, and always for a thread, whose list has no
	// time filter), oldest first.
	list func(ctx context.Context, since time.Time) iter.Seq2[SessionEvent, error]
	// latest lists a session's events newest first; nil for a thread.
	latest func(ctx context.Context) iter.Seq2[SessionEvent, error]

	// yield is the caller's loop body. Once the sequence is over (an
	// error yielded, or the caller stopped) over is set and nothing more
	// is yielded.
	yield func(SessionEvent, error) bool
	over  bool

	// failures counts the failed reconnects since progress, the last time
	// an event was yielded or a connection stayed up for ResetAfter.
	failures int
	progress time.Time

	// The exactly-once state (sessions_events_stream_once.go): the low
	// watermark, the ids yielded at or after it (and a margin before it),
	// and the previews' gate.
	low      time.Time
	seen     map[string]time.Time
	pruneAt  int // the size at which seen is checkpointed and pruned next
	previews previewGate

	// phase, when set, is told when a gap fill starts (false) and when
	// the stream is live again (true): the session runner acts on calls
	// only once it has seen the whole gap, which may hold their answers.
	phase func(live bool)
}

func newSessionStream(ctx context.Context, c *Client, path string, p SessionEventStreamParams, opts []option.RequestOption,
	list func(context.Context, time.Time) iter.Seq2[SessionEvent, error], latest func(context.Context) iter.Seq2[SessionEvent, error],
	threadID string, phase func(live bool)) iter.Seq2[SessionEvent, error] {
	var used atomic.Bool
	return func(yield func(SessionEvent, error) bool) {
		if used.Swap(true) {
			yield(nil, errStreamReused)
			return
		}
		q := url.Values{}
		addQueryArray(q, "event_deltas", p.EventDeltas)
		st := &sessionStream{client: c, path: path, query: q, opts: opts, policy: p.Reconnect.withDefaults(),
			history: p.IncludeHistory, threadID: threadID, list: list, latest: latest, seen: map[string]time.Time{}, phase: phase}
		if cl := c.newCall(opts); cl.err == nil && cl.cfg.Observer != nil {
			var op observe.Operation
			ctx, op = startOp(ctx, cl.cfg.Observer, observe.Op{Kind: observe.SessionStream, Name: "GET " + path, Method: http.MethodGet, Path: path})
			var failed error
			program := yield
			yield = func(ev SessionEvent, err error) bool {
				if err != nil {
					failed = err
				} else {
					op.Event(ev.EventType()) // live or filled in from the list after a reconnect
				}
				return program(ev, err)
			}
			defer func() { op.End(failed) }()
		}
		st.yield = yield
		st.run(ctx)
	}
}

// emit yields ev and reports whether the stream goes on. After the end of
// ctx it yields the context's error instead, whatever the connection or
// the list still holds: the caller gets nothing after cancelling.
func (st *sessionStream) emit(ctx context.Context, ev SessionEvent) bool {
	if st.over {
		return false
	}
	if ctx.Err() != nil {
		st.fail(st.ctxErr(ctx))
		return false
	}
	st.progressed()
	if !st.yield(ev, nil) {
		st.over = true
	}
	return !st.over
}

// fail yields err as the last element, unless the sequence is over.
func (st *sessionStream) fail(err error) {
	if !st.over {
		st.over = true
		st.yield(nil, err)
	}
}

// ctxErr is the error of a stream whose context ended.
func (st *sessionStream) ctxErr(ctx context.Context) error {
	return fmt.Errorf("mms: stream of GET %s: %w", st.path, ctx.Err())
}

// progressed starts the reconnect bounds over.
func (st *sessionStream) progressed() { st.failures, st.progress = 0, time.Now() }

// run connects, fills gaps and reads until the stream ends, the caller
// stops, a failure is final, or the reconnect policy gives up.
func (st *sessionStream) run(ctx context.Context) {
	skipped := st.history
	st.progress = time.Now()
	for {
		var err error
		if !skipped {
			var over bool
			if over, err = st.skipPast(ctx); over {
				return // the session ended before the stream opened
			}
			skipped = err == nil
		}
		if skipped {
			var done bool
			if done, err = st.connect(ctx); done {
				return
			}
		}
		switch {
		case ctx.Err() != nil:
			if !errors.Is(err, ctx.Err()) {
				err = st.ctxErr(ctx)
			}
			st.fail(err)
			return
		case st.final(ctx, err):
			st.fail(err)
			return
		}
		if gaveUp := st.exhausted(err); gaveUp != nil {
			st.fail(gaveUp)
			return
		}
		st.failures++
		if err := sleepCtx(ctx, st.policy.delay(st.failures)); err != nil {
			st.fail(fmt.Errorf("mms: stream of GET %s: reconnecting: %w", st.path, err))
			return
		}
	}
}

// exhausted is the error that ends the stream when the policy's bounds
// are reached after the failure err; nil while they are not.
func (st *sessionStream) exhausted(err error) error {
	p := st.policy
	switch {
	case p.MaxAttempts > 0 && st.failures >= p.MaxAttempts:
		return fmt.Errorf("%w: stream of GET %s: %d reconnects in a row failed (Reconnect.MaxAttempts is %d); the last failure: %w",
			ErrReconnectGaveUp, st.path, st.failures, p.MaxAttempts, err)
	case p.GiveUpAfter > 0 && time.Since(st.progress) >= p.GiveUpAfter:
		return fmt.Errorf("%w: stream of GET %s: no progress for %v after %d reconnects (Reconnect.GiveUpAfter is %v); the last failure: %w",
			ErrReconnectGaveUp, st.path, time.Since(st.progress).Round(time.Millisecond), st.failures, p.GiveUpAfter, err)
	}
	return nil
}

// connect opens one connection, fills the gap before it and reads it. done
// says the sequence is over (the caller stopped, the stream ended, or a
// final error was yielded); otherwise err is why the connection failed.
func (st *sessionStream) connect(ctx context.Context) (done bool, err error) {
	conn, err := st.open(ctx)
	if err != nil {
		return false, err
	}
	defer conn.close()
	up := time.Now()
	defer func() {
		if time.Since(up) >= st.policy.ResetAfter {
			st.progressed()
		}
	}()
	st.previews.reconnected()
	if done, err := st.fill(ctx); done || err != nil {
		return done, err
	}
	for {
		ev, err := conn.next(ctx)
		if err == io.EOF {
			err = fmt.Errorf("%w: the server ended the stream after %d events", ErrStreamTruncated, conn.events)
		}
		if err != nil {
			return false, err
		}
		if ev == nil { // a ping
			continue
		}
		done, err := st.live(ctx, ev)
		if done && !st.over {
			conn.finish() // the stream's last event: read the end of the body
		}
		if done || err != nil {
			return done, err
		}
	}
}

// open sends the stream request.
func (st *sessionStream) open(ctx context.Context) (*eventReader[SessionEvent], error) {
	cl := st.client.newCall(st.opts)
	if cl.err != nil {
		return nil, cl.err
	}
	if cl.cfg.StreamIdle == 0 && !st.policy.Disabled {
		cfg := *cl.cfg
		cfg.StreamIdle = defaultSessionStreamIdle
		cl.cfg = &cfg
	}
	r := &request{method: http.MethodGet, path: st.path, query: st.query, betas: managedAgentsBetas}
	conn, err := cl.openEvents(ctx, r)
	if err != nil {
		return nil, err
	}
	er := newEventReader(ctx, conn, decodeSessionEvent)
	er.op = nil // the stream reports each event it yields, however it came
	return er, nil
}

// ends reports whether ev is the last event of the stream.
func (st *sessionStream) ends(ev SessionEvent) bool {
	switch ev := ev.(type) {
	case SessionStatusTerminatedEvent, SessionDeletedEvent:
		return true
	case SessionThreadStatusTerminatedEvent:
		return st.threadID != "" && ev.SessionThreadID == st.threadID
	}
	return false
}

// final reports whether err ends the stream rather than a reconnect.
func (st *sessionStream) final(ctx context.Context, err error) bool {
	if st.policy.Disabled || ctx.Err() != nil {
		return true
	}
	var apiErr *Error
	if errors.As(err, &apiErr) {
		return isFinalStatus(apiErr.StatusCode)
	}
	var verr *ValidationError
	var tooLarge *ResponseTooLargeError
	var redirect *RedirectError
	var undecodable *eventDecodeError
	return errors.As(err, &verr) || errors.As(err, &tooLarge) || errors.As(err, &redirect) ||
		errors.As(err, &undecodable) || errors.Is(err, errNotEventStream)
}
