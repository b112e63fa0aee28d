package mmstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The session event streams (spec §6):
//
//   - GET /v1/sessions/{session_id}/events/stream and
//     GET /v1/sessions/{session_id}/threads/{thread_id}/stream send, as
//     server-sent events named by their type, the events stored in the
//     session's (or the thread's) log after the connection opened; there
//     is no history (clients list the events to fill gaps). A thread
//     stream also gets the session's session.status_terminated and
//     session.deleted, which it does not store.
//   - event_deltas[]=agent.message and/or agent.thinking (the only query)
//     add the previews: an event_start before each such event, and for
//     agent.message event_delta text fragments (index 0, the block they
//     grow). Previews are never stored.
//   - A ping event ({"type":"ping"}) every WithSessionPingInterval.
//   - The stream ends after it writes session.status_terminated or
//     session.deleted; one opened on a terminated session ends right after
//     the headers.
//
// InjectStreamFault applies to these streams (a Path prefix such as
// "/v1/sessions/"), counting every event written on the connection, pings
// and previews included; DuplicateEvents, ReplayOnConnect and Reorder are
// for these streams only.

// subscriber is one open stream of a log.
type subscriber struct {
	previews map[string]bool // the event types whose previews it asked for
	queue    []streamItem
	wake     chan struct{} // signalled (capacity 1) when the queue grows
}

// streamItem is an event waiting to be written to a stream.
type streamItem struct {
	name   string
	data   json.RawMessage
	stored bool // a stored event (not a preview)
	final  bool // the stream ends after it
}

// push queues it for sub; st.mu must be held.
func (sub *subscriber) push(it streamItem) {
	sub.queue = append(sub.queue, it)
	select {
	case sub.wake <- struct{}{}:
	default:
	}
}

// endsStream reports the event types after which a stream ends.
func endsStream(typ string) bool {
	return typ == "session.status_terminated" || typ == "session.deleted"
}

// append adds ev to l and sends it to l's streams; st.mu must be held.
func (st *sessionStore) append(s *storedSession, l *eventLog, ev *storedEvent) {
	l.events = append(l.events, ev)
	st.broadcast(l, streamItem{name: ev.typ, data: ev.encode(), stored: true, final: endsStream(ev.typ)})
	s.observe(ev)
	if l == &s.log {
		st.srv.sessionWebhook(s.rec.ID, ev)
	}
}

// broadcast sends it to every stream of l; st.mu must be held.
func (st *sessionStore) broadcast(l *eventLog, it streamItem) {
	for sub := range l.subs {
		sub.push(it)
	}
}

// preview sends a preview of an event of type of to the streams of l that
// asked for it; st.mu must be held.
func (st *sessionStore) preview(l *eventLog, of string, payload any) {
	it := streamItem{data: encodeJSON(payload)}
	var head typeOnly
	_ = json.Unmarshal(it.data, &head)
	it.name = head.Type
	for sub := range l.subs {
		if sub.previews[of] {
			sub.push(it)
		}
	}
}

// streamEvents serves GET /v1/sessions/{session_id}/events/stream.
func (st *sessionStore) streamEvents(w http.ResponseWriter, r *http.Request) {
	st.serveStream(w, r, false)
}

// streamThread serves GET /v1/sessions/{session_id}/threads/{thread_id}/stream.
func (st *sessionStore) streamThread(w http.ResponseWriter, r *http.Request) {
	st.serveStream(w, r, true)
}

func (st *sessionStore) serveStream(w http.ResponseWriter, r *http.Request, thread bool) {
	q := r.URL.Query()
	sub := &subscriber{previews: map[string]bool{}, wake: make(chan struct{}, 1)}
	err := checkQueryKeys(q, "event_deltas[]")
	for _, v := range q["event_deltas[]"] {
		if v != "agent.message" && v != "agent.thinking" {
			err = fmt.Errorf("event_deltas: Input should be 'agent.message' or 'agent.thinking', got %q", v)
		}
		sub.previews[v] = true
	}
	if err != nil {
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, err.Error())
		return
	}
	l, fault, over, ok := st.subscribe(w, r, thread, sub)
	if !ok {
		return
	}
	h := w.Header()
	h.Set(wire.HeaderContentType, "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_ = http.NewResponseController(w).Flush() // the client may already be gone
	if over {
		return
	}
	defer withLock(&st.mu, func() { delete(l.subs, sub) })
	e := &sseWriter{s: st.srv, w: w, r: r, fault: fault}
	ping := time.NewTicker(st.srv.cfg.sessionPingInterval)
	defer ping.Stop()
	write := func(it streamItem) bool {
		return e.send(it.name, it.data) && !(it.stored && fault.DuplicateEvents && !e.send(it.name, it.data)) && !it.final
	}
	var held *streamItem // a stored event waiting for the next one (Reorder)
	for {
		var items []streamItem
		withLock(&st.mu, func() { items, sub.queue = sub.queue, nil })
		for _, it := range items {
			switch {
			case fault.Reorder && it.stored && !it.final && held == nil:
				held = &it
				continue
			case fault.Reorder && it.stored && !it.final:
				first := *held
				held = nil
				if !write(it) || !write(first) {
					return
				}
				continue
			case held != nil && it.final:
				if !write(*held) {
					return
				}
				held = nil
			}
			if !write(it) {
				return
			}
		}
		select {
		case <-sub.wake:
		case <-ping.C:
			if !e.send("ping", typeOnly{"ping"}) {
				return
			}
		case <-r.Context().Done():
			return
		case <-st.srv.done:
			return
		}
	}
}

// sessionsTokenPrefix starts the sessions_token of a self-hosted work item
// (environments_work.go): "sk-session-<session id>".
const sessionsTokenPrefix = "sk-session-"

// sessionTokenAllows reports whether token, sent as a bearer token, is the
// sessions_token of a self-hosted work item and r is one of that
// session's endpoints: GET the session, its events (list, send, stream)
// and its threads. The spec does not say what the token may reach; the
// fake lets it drive its own session and nothing else.
func (s *Server) sessionTokenAllows(token string, r *http.Request) bool {
	id, ok := strings.CutPrefix(token, sessionsTokenPrefix)
	if !ok || id == "" || !s.environments.hasSessionWork(id) {
		return false
	}
	base := "/v1/sessions/" + id
	rest, ok := strings.CutPrefix(r.URL.Path, base)
	switch {
	case !ok:
		return false
	case rest == "":
		return r.Method == http.MethodGet
	}
	return rest == "/events" || rest == "/events/stream" || rest == "/threads" || strings.HasPrefix(rest, "/threads/")
}

// subscribe finds the session (or thread) the path names and, unless the
// session is over, adds sub to its log's subscribers with the replay its
// stream fault asks for; or answers 404 and returns ok false. It holds
// st.mu while it looks.
func (st *sessionStore) subscribe(w http.ResponseWriter, r *http.Request, thread bool, sub *subscriber) (l *eventLog, fault StreamFault, over, ok bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	var s *storedSession
	if thread {
		t := st.lookupThread(w, r)
		if t == nil {
			return nil, fault, false, false
		}
		s = st.find(t.SessionID)
		l = s.threadLogs[t.ID]
	} else {
		if s = st.lookup(w, r); s == nil {
			return nil, fault, false, false
		}
		l = &s.log
	}
	fault = st.srv.takeStreamFault(r)
	over = s.rec.Status == "terminated"
	if !over {
		l.subs[sub] = true
		for _, ev := range slices.Backward(l.ordered()[max(0, len(l.events)-fault.ReplayOnConnect):]) {
			sub.queue = append(sub.queue, streamItem{name: ev.typ, data: ev.encode(), stored: true})
		}
	}
	return l, fault, over, true
}
