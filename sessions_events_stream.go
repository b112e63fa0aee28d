package mms

// The session event stream that survives the network. The service has no
// resume cursor, so after a reconnect the stream lists the events stored
// since the last one it saw and drops those it already yielded, by id.
// Listing happens after the new connection is open, so an event stored in
// between is on the connection or in the list, and the id check keeps it
// from coming twice.

import (
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
// The stream yields every stored event once, in the service's order, across
// dropped connections; previews (event_start, event_delta) are yielded as
// they arrive and never again after a reconnect. An event without an id
// (an interrupt) cannot be recognised when it comes back, so it is never
// dropped: after a reconnect it may come twice.
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
// each failure, jittered to [d/2, d); a connection that stayed up for
// ResetAfter starts the doubling over. Answers 400–499 other than 408, 409
// and 429, an "error" event, and events that do not decode are final: the
// stream yields them and ends. Zero fields take the defaults.
type ReconnectPolicy struct {
	// Disabled ends the stream with the first connection failure.
	Disabled bool
	// MaxAttempts bounds the failed attempts in a row before the stream
	// gives up and yields the last failure; 0 means no bound (until the
	// context ends).
	MaxAttempts int
	// InitialDelay is the first wait (default 0.5 s); MaxDelay caps the
	// waits (default 10 s).
	InitialDelay, MaxDelay time.Duration
	// ResetAfter is how long a connection must stay up to reset the waits
	// (default 5 s).
	ResetAfter time.Duration
}

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
// type, a negative reconnect attempt count or delay, or an initial delay
// above the maximum.
func (p SessionEventStreamParams) Validate() error {
	for i, d := range p.EventDeltas {
		if d == "" {
			return invalid(fmt.Sprintf("event_deltas[%d]", i), "must not be empty")
		}
	}
	r := p.Reconnect
	switch {
	case r.MaxAttempts < 0:
		return invalid("Reconnect.MaxAttempts", "must not be negative, got %d", r.MaxAttempts)
	case r.InitialDelay < 0, r.MaxDelay < 0, r.ResetAfter < 0:
		return invalid("Reconnect", "delays must not be negative")
	case r.InitialDelay > 0 && r.MaxDelay > 0 && r.InitialDelay > r.MaxDelay:
		return invalid("Reconnect.InitialDelay", "must not exceed MaxDelay (%v), got %v", r.MaxDelay, r.InitialDelay)
	}
	return nil
}

// withDefaults fills the zero fields.
func (r ReconnectPolicy) withDefaults() ReconnectPolicy {
	if r.InitialDelay == 0 {
		r.InitialDelay = defaultReconnectDelay
	}
	if r.MaxDelay == 0 {
		r.MaxDelay = max(defaultReconnectMaxDelay, r.InitialDelay)
	}
	if r.ResetAfter == 0 {
		r.ResetAfter = defaultReconnectReset
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

	// seen holds the ids yielded (or stored before a live stream), with
	// their processed times; see remember for how it is kept small.
	seen    map[string]time.Time
	pruneAt int       // the size at which seen is pruned next
	mark    time.Time // the latest processed time seen

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
		st.run(ctx, yield)
	}
}

// run connects, fills gaps and reads until the stream ends, the caller
// stops, or a failure is final.
func (st *sessionStream) run(ctx context.Context, yield func(SessionEvent, error) bool) {
	skipped := st.history
	failures := 0
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
			done, err = st.connect(ctx, yield, &failures)
			if done {
				return
			}
		}
		if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			err = fmt.Errorf("mms: stream of GET %s: %w", st.path, ctx.Err())
		}
		if st.final(ctx, err) || (st.policy.MaxAttempts > 0 && failures >= st.policy.MaxAttempts) {
			yield(nil, err)
			return
		}
		failures++
		if err := sleepCtx(ctx, st.policy.delay(failures)); err != nil {
			yield(nil, fmt.Errorf("mms: stream of GET %s: reconnecting: %w", st.path, err))
			return
		}
	}
}

// connect opens one connection, fills the gap before it and reads it. done
// says the sequence is over (the caller stopped, the stream ended, or a
// final error was yielded); otherwise err is why the connection failed.
func (st *sessionStream) connect(ctx context.Context, yield func(SessionEvent, error) bool, failures *int) (done bool, err error) {
	conn, err := st.open(ctx)
	if err != nil {
		return false, err
	}
	defer conn.close()
	up := time.Now()
	defer func() {
		if time.Since(up) >= st.policy.ResetAfter {
			*failures = 0
		}
	}()
	if st.phase != nil {
		st.phase(false)
	}
	for ev, err := range st.list(ctx, st.mark) {
		if err != nil {
			return false, err
		}
		if !st.admit(ev) {
			continue
		}
		if !yield(ev, nil) || st.ends(ev) {
			return true, nil
		}
	}
	if st.phase != nil {
		st.phase(true)
	}
	for {
		ev, err := conn.next(ctx)
		if err == io.EOF {
			err = fmt.Errorf("%w: the server ended the stream after %d events", ErrStreamTruncated, conn.events)
		}
		if err != nil {
			return false, err
		}
		if ev == nil || !st.admit(ev) { // a ping, or an event already yielded
			continue
		}
		if !yield(ev, nil) {
			return true, nil
		}
		if st.ends(ev) {
			conn.finish()
			return true, nil
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

// skipPast marks the events stored before a live stream as seen: those at
// the latest processed time (a gap is listed from that time on, inclusive)
// and, for a thread, all of them. over reports that the stream's last
// event is among them: nothing more will come.
func (st *sessionStream) skipPast(ctx context.Context) (over bool, err error) {
	events := st.latest
	if events == nil {
		events = func(ctx context.Context) iter.Seq2[SessionEvent, error] { return st.list(ctx, time.Time{}) }
	}
	for ev, err := range events(ctx) {
		if err != nil {
			return false, err
		}
		if st.ends(ev) {
			return true, nil
		}
		if t := processedTime(ev); !t.IsZero() && st.latest != nil {
			if st.mark.IsZero() {
				st.mark = t
			} else if t.Before(st.mark) {
				break
			}
		}
		if id := ev.EventID(); id != "" {
			st.remember(id, ev)
		}
	}
	return false, nil
}

// admit reports whether ev is to be yielded, and records it: a stored
// event once by id; previews and events without an id always.
func (st *sessionStream) admit(ev SessionEvent) bool {
	if id := ev.EventID(); id != "" {
		if _, dup := st.seen[id]; dup {
			return false
		}
		st.remember(id, ev)
	}
	if t := processedTime(ev); t.After(st.mark) {
		st.mark = t
	}
	return true
}

// seenWindow is how far before the latest processed time a session
// stream keeps the ids it has seen. A gap fill lists events from that
// time on, so older ids can only come back if the service replays old
// events on a new connection, which it is not known to do; the window is
// a margin for that.
const seenWindow = 10 * time.Minute

// minPruneAt is the smallest size of seen worth pruning.
const minPruneAt = 1024

// remember records id as seen. A session stream's set is pruned of the
// ids processed more than seenWindow before the latest processed time
// whenever it has doubled since the last pruning, so a stream that runs
// for days holds the ids of about its last ten minutes (and those of
// events without a processed time). A thread's gap fill lists the thread
// from its start, so a thread stream keeps every id.
func (st *sessionStream) remember(id string, ev SessionEvent) {
	st.seen[id] = processedTime(ev)
	if st.threadID != "" || len(st.seen) < max(st.pruneAt, minPruneAt) {
		return
	}
	cut := st.mark.Add(-seenWindow)
	for id, t := range st.seen {
		if !t.IsZero() && t.Before(cut) {
			delete(st.seen, id)
		}
	}
	st.pruneAt = 2 * len(st.seen)
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

// processedTime is ev's processed time; zero when it has none or it does
// not parse.
func processedTime(ev SessionEvent) time.Time {
	s := ev.processedAt()
	if s == "" {
		return time.Time{}
	}
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}
