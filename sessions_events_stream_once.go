package mms

// Exactly once across reconnects. A connection may deliver events out of
// stored order, repeat them, and drop before an earlier event arrives, so
// what a connection delivered says nothing about what it missed. Only a
// complete list does: after the list from a time on has been read to its
// end, every event stored at or after that time (and processed before the
// list's last event) has been yielded. That time moves forward only then;
// it is the stream's low watermark. A gap is listed from it, an event
// processed before it is known yielded, and the ids of the events at or
// after it (and of a margin before it) recognise the repeats.
//
// A connection that stays up for long would hold the ids of all its
// events, so a session stream lists from its watermark whenever the ids
// have doubled (a checkpoint): the watermark moves up and the older ids go.
// A thread's list has no time filter, so a thread stream keeps every id
// and lists only after a reconnect.

import (
	"context"
	"iter"
	"time"
)

// seenWindow is how far before the low watermark a session stream keeps
// the ids it has seen. An event processed before the watermark is
// recognised by its time; the ids are a margin for previews, which have
// no time, of events just before it.
const seenWindow = 10 * time.Minute

// minPruneAt is the smallest size of seen worth a checkpoint.
const minPruneAt = 1024

// maxPendingPreviews bounds the events whose previews the gate tracks; an
// event whose final form never comes (a model request that ended early)
// would otherwise stay tracked for the life of the stream.
const maxPendingPreviews = 1024

// skipPast marks the events stored before a live stream as seen and puts
// the watermark at the latest processed time: older events are not the
// stream's, those at that time are known by id, and for a thread every
// stored id is kept. over reports that the stream's last event is among
// them: nothing more will come.
func (st *sessionStream) skipPast(ctx context.Context) (over bool, err error) {
	events := st.latest
	if events == nil {
		events = func(ctx context.Context) iter.Seq2[SessionEvent, error] { return st.list(ctx, time.Time{}) }
	}
	var low time.Time
	for ev, err := range events(ctx) {
		if err != nil {
			return false, err
		}
		if st.ends(ev) {
			return true, nil
		}
		if t := processedTime(ev); !t.IsZero() {
			if st.latest != nil && !low.IsZero() && t.Before(low) {
				break // newest first: past the latest processed time
			}
			if t.After(low) {
				low = t
			}
		}
		if id := ev.EventID(); id != "" {
			st.seen[id] = processedTime(ev)
		}
	}
	st.low = low
	return false, nil
}

// fill lists the stored events from the watermark on and yields those not
// yielded yet. When the list has been read to its end the watermark moves
// to its last processed time and the ids far below it are forgotten. done
// says the sequence is over.
func (st *sessionStream) fill(ctx context.Context) (done bool, err error) {
	if st.phase != nil {
		st.phase(false)
	}
	last := st.low
	for ev, err := range st.list(ctx, st.low) {
		if err != nil {
			return false, err
		}
		if t := processedTime(ev); t.After(last) {
			last = t
		}
		if !st.admit(ev) {
			continue
		}
		if !st.emit(ctx, ev) || st.ends(ev) {
			return true, nil
		}
	}
	st.low = last
	st.prune()
	if st.phase != nil {
		st.phase(true)
	}
	return false, nil
}

// live handles an event read from the connection: it is yielded unless
// it was already, and a checkpoint follows when the ids have doubled. done
// says the sequence is over.
func (st *sessionStream) live(ctx context.Context, ev SessionEvent) (done bool, err error) {
	if !st.admit(ev) {
		return false, nil
	}
	if !st.emit(ctx, ev) || st.ends(ev) {
		return true, nil
	}
	if st.threadID == "" && len(st.seen) >= max(st.pruneAt, minPruneAt) {
		return st.fill(ctx)
	}
	return false, nil
}

// admit reports whether ev is to be yielded, and records it: a stored
// event at most once (by its time before the watermark, by its id from
// there on), a preview by the gate's rules, an event without an id always.
func (st *sessionStream) admit(ev SessionEvent) bool {
	switch ev.(type) {
	case SessionEventStart, SessionEventDelta:
		return st.previews.admit(ev, st.seen)
	}
	t := processedTime(ev)
	if !t.IsZero() && t.Before(st.low) {
		return false
	}
	id := ev.EventID()
	if id == "" {
		return true
	}
	if _, dup := st.seen[id]; dup {
		return false
	}
	st.seen[id] = t
	st.previews.yielded(id)
	return true
}

// prune forgets, in a session stream whose ids have doubled since the
// last pruning, the ids processed more than seenWindow before the
// watermark. The ids of events without a processed time stay.
func (st *sessionStream) prune() {
	if st.threadID != "" || len(st.seen) < max(st.pruneAt, minPruneAt) {
		return
	}
	cut := st.low.Add(-seenWindow)
	for id, t := range st.seen {
		if !t.IsZero() && t.Before(cut) {
			delete(st.seen, id)
		}
	}
	st.pruneAt = 2 * len(st.seen)
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

// previewGate lets each preview through at most once, and none for an
// event already yielded. Previews carry no position, so a fragment is
// known by its rank among its event's fragments: a connection that sends
// an event_start again is replaying that event's previews from the start,
// and its first fragments, as many as were yielded, are the ones yielded.
type previewGate struct {
	conn    int                        // the connection, counted from 1
	pending map[string]*pendingPreview // by event id, until the event is yielded
}

// pendingPreview is what the gate let through for one event.
type pendingPreview struct {
	started bool // its event_start was yielded
	deltas  int  // its event_deltas yielded
	conn    int  // the connection sent and replay are of
	sent    int  // event_deltas this connection sent since its event_start
	replay  bool // this connection re-sent the event_start
}

// reconnected starts a new connection.
func (g *previewGate) reconnected() { g.conn++ }

// yielded forgets the previews of an event now yielded: seen refuses them
// from here on.
func (g *previewGate) yielded(id string) { delete(g.pending, id) }

// admit reports whether the preview ev is to be yielded, and records it.
func (g *previewGate) admit(ev SessionEvent, seen map[string]time.Time) bool {
	var id string
	start := false
	switch ev := ev.(type) {
	case SessionEventStart:
		id, start = ev.Event.ID, true
	case SessionEventDelta:
		id = ev.PendingEventID
	}
	if id == "" {
		return true // nothing to know it by
	}
	if _, done := seen[id]; done {
		return false
	}
	p := g.pending[id]
	if p == nil {
		if g.pending == nil || len(g.pending) >= maxPendingPreviews {
			g.pending = map[string]*pendingPreview{}
		}
		p = &pendingPreview{}
		g.pending[id] = p
	}
	if p.conn != g.conn {
		p.conn, p.sent, p.replay = g.conn, 0, false
	}
	if start {
		if p.started || p.deltas > 0 {
			p.sent, p.replay = 0, true
		}
		if p.started {
			return false
		}
		p.started = true
		return true
	}
	p.sent++
	if p.replay && p.sent <= p.deltas {
		return false
	}
	p.deltas++
	return true
}
