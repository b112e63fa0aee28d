package mmstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The session events endpoints (spec §4; the turns they cause are in
// sessions_sim.go, the streams in sessions_stream.go):
//
//   - GET /v1/sessions/{session_id}/events lists the session's stored
//     events, oldest first by default: events in the order they were
//     processed, then the queued ones (processed_at null) in the order
//     they arrived. Query: limit (1–100), page, order asc|desc, types[]
//     (repeatable), created_at[gt|gte|lt|lte] compared to processed_at (a
//     queued event never matches one). Any other query parameter is a 400.
//   - GET /v1/sessions/{session_id}/threads/{thread_id}/events: a
//     thread's events, oldest first (limit, page).
//   - POST /v1/sessions/{session_id}/events {events:[…]} checks every event
//     strictly, then stores them all, or none, and answers {data:[…]} with
//     the stored events ("sevt_…" ids; a user.interrupt has the id "").
//     user.message, user.interrupt and system.message are queued
//     (processed_at null until the session's turn engine takes them);
//     user.define_outcome, user.custom_tool_result, user.tool_result and
//     user.tool_confirmation arrive processed. The rules: a
//     user.tool_confirmation (allow|deny; deny_message only with deny, at
//     most 10,000 characters) names a call waiting for a confirmation, a
//     user.custom_tool_result a custom tool call waiting for its result, a
//     user.tool_result (only in a self-hosted environment) a tool call the
//     worker must run (each id at most 128 characters); a result needs
//     non-empty content (the service is stricter than its schema, spec §7
//     row 6); a document block's source is base64, text, url or file;
//     system.message comes at most once, last,
//     right after a user.message or a tool result of the same request; a
//     session at its budget refuses user.message and user.define_outcome;
//     a terminated session refuses everything.

// storedEvent is one event of a session's or a thread's log.
type storedEvent struct {
	m   map[string]any // every member, "id", "type" and "processed_at" included
	typ string
	seq int       // the processing order in the session; 0 while queued
	at  time.Time // when it was processed
}

// encode is the event's JSON (members in name order).
func (e *storedEvent) encode() json.RawMessage { return encodeJSON(e.m) }

// eventLog is the log of a session or of one of its threads, with the
// streams reading it.
type eventLog struct {
	events []*storedEvent // in arrival order
	subs   map[*subscriber]bool
}

// ordered returns the log in processed order: processed events by seq,
// then queued ones in arrival order.
func (l *eventLog) ordered() []*storedEvent {
	out := slices.Clone(l.events)
	slices.SortStableFunc(out, func(a, b *storedEvent) int {
		switch {
		case a.seq == 0 && b.seq == 0:
			return 0
		case a.seq == 0:
			return 1
		case b.seq == 0:
			return -1
		}
		return a.seq - b.seq
	})
	return out
}

// markProcessed gives a queued (or new) event its place in the processed
// order; st.mu must be held.
func (st *sessionStore) markProcessed(s *storedSession, ev *storedEvent) {
	s.seq++
	ev.seq, ev.at = s.seq, st.srv.now()
	ev.m["processed_at"] = ev.at.UTC().Format(fileTimeLayout)
}

// newEvent makes an event of type typ with the members of fields; id ""
// draws a fresh "sevt_" id.
func (st *sessionStore) newEvent(typ, id string, fields map[string]any) *storedEvent {
	m := map[string]any{}
	for k, v := range fields {
		m[k] = v
	}
	if id == "" {
		id = st.srv.newID("sevt_")
	}
	m["id"], m["type"] = id, typ
	return &storedEvent{m: m, typ: typ}
}

// SessionEventLog returns the stored events of a session in processed
// order (as the events list returns them), each as its JSON; nil for an
// unknown session.
func (s *Server) SessionEventLog(sessionID string) []json.RawMessage {
	st := s.sessions
	st.mu.Lock()
	defer st.mu.Unlock()
	if sess := st.find(sessionID); sess != nil {
		return encodeEvents(sess.log.ordered())
	}
	return nil
}

// ThreadEventLog returns the stored events of a session thread in order;
// nil for an unknown session or thread.
func (s *Server) ThreadEventLog(sessionID, threadID string) []json.RawMessage {
	st := s.sessions
	st.mu.Lock()
	defer st.mu.Unlock()
	if sess := st.find(sessionID); sess != nil {
		if l := sess.threadLogs[threadID]; l != nil {
			return encodeEvents(l.ordered())
		}
	}
	return nil
}

func encodeEvents(evs []*storedEvent) []json.RawMessage {
	out := make([]json.RawMessage, 0, len(evs))
	for _, ev := range evs {
		out = append(out, ev.encode())
	}
	return out
}

// find returns the session with id, or nil; st.mu must be held.
func (st *sessionStore) find(id string) *storedSession {
	return byID(st.sessions, id, func(s *storedSession) string { return s.rec.ID })
}

// checkQueryKeys refuses query parameters outside allowed.
func checkQueryKeys(q url.Values, allowed ...string) error {
	for k := range q {
		if !slices.Contains(allowed, k) {
			return fmt.Errorf("%s: unknown query parameter", k)
		}
	}
	return nil
}

// eventFilter is the query of the events list.
type eventFilter struct {
	desc   bool
	types  []string
	bounds createdRange
}

func parseEventFilter(q url.Values) (eventFilter, error) {
	f := eventFilter{types: q["types[]"]}
	err := checkQueryKeys(q, "limit", "page", "order", "types[]", "created_at[gt]", "created_at[gte]", "created_at[lt]", "created_at[lte]")
	if err != nil {
		return f, err
	}
	if err := checkEventTypes(f.types); err != nil {
		return f, err
	}
	switch q.Get("order") {
	case "", "asc":
	case "desc":
		f.desc = true
	default:
		return f, fmt.Errorf("order: Input should be 'asc' or 'desc'")
	}
	f.bounds, err = parseCreatedRange(q)
	return f, err
}

// createdRange is the created_at[gt], [gte], [lt] and [lte] bounds of a
// list query, by operator; an absent one is no bound.
type createdRange map[string]time.Time

// parseCreatedRange reads the created_at range of q; the error is the
// message for a 400.
func parseCreatedRange(q url.Values) (createdRange, error) {
	b := createdRange{}
	for _, op := range []string{"gt", "gte", "lt", "lte"} {
		key := "created_at[" + op + "]"
		if v := q.Get(key); v != "" {
			t, err := time.Parse(time.RFC3339Nano, v)
			if err != nil {
				return b, fmt.Errorf("%s: Input should be a valid datetime", key)
			}
			b[op] = t
		}
	}
	return b, nil
}

// holds reports whether c lies within every bound of the range.
func (b createdRange) holds(c time.Time) bool {
	for op, t := range b {
		if op == "gt" && !c.After(t) || op == "gte" && c.Before(t) || op == "lt" && !c.Before(t) || op == "lte" && c.After(t) {
			return false
		}
	}
	return true
}

// keeps reports whether the filter keeps ev.
func (f eventFilter) keeps(ev *storedEvent) bool {
	if len(f.types) > 0 && !slices.Contains(f.types, ev.typ) {
		return false
	}
	if len(f.bounds) > 0 && ev.seq == 0 {
		return false // a queued event has no processed_at to compare
	}
	return f.bounds.holds(ev.at)
}

// listEvents serves GET /v1/sessions/{session_id}/events.
func (st *sessionStore) listEvents(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f, err := parseEventFilter(q)
	if err != nil {
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, err.Error())
		return
	}
	withFound(&st.mu, w, r, st.lookup, func(s *storedSession) {
		var events []*storedEvent
		for _, ev := range s.log.events {
			if f.keeps(ev) {
				events = append(events, ev)
			}
		}
		writeEventList(w, r, events, f.desc)
	})
}

// listThreadEvents serves GET /v1/sessions/{session_id}/threads/{thread_id}/events.
func (st *sessionStore) listThreadEvents(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if badIf(w, r, checkQueryKeys(q, "limit", "page")) {
		return
	}
	withFound(&st.mu, w, r, st.lookupThread, func(t *threadWire) {
		writeEventList(w, r, st.find(t.SessionID).threadLogs[t.ID].events, false)
	})
}

// eventOrder is the order of the event lists (ordered's, reversed when
// desc): processed events by seq, then queued ones by id. Queued events
// draw their ids under the store's lock as they arrive, so their ids are
// in arrival order.
func eventOrder(desc bool) listOrder[*storedEvent] {
	return listOrder[*storedEvent]{desc: desc, key: func(ev *storedEvent) position {
		id, _ := ev.m["id"].(string)
		if ev.seq == 0 {
			return position{"queued", id}
		}
		return position{"processed", seqKey(ev.seq), id}
	}}
}

// writeEventList answers an event list: events (in any order) sorted by
// eventOrder, paged by the cursor scheme.
func writeEventList(w http.ResponseWriter, r *http.Request, events []*storedEvent, desc bool) {
	page, err := pageByCursorAs(events, eventOrder(desc), r.URL.Query(), maxManagedPageLimit, (*storedEvent).encode)
	writePage(w, r, page, err)
}

// input is a sent event with what the turn engine needs of it.
type input struct {
	ev       *storedEvent
	text     string // user.message, system.message: the text blocks; results: the result text
	callID   string // the call a confirmation or result answers
	allow    bool   // user.tool_confirmation
	denyMsg  string // user.tool_confirmation with deny
	isError  bool   // results
	threadID string // user.interrupt of one thread
}

// sentEvent is the union of the members of the events a client sends;
// each kind's own decoding refuses the members it does not have.
type sentEvent struct {
	Type            string            `json:"type"`
	Content         []json.RawMessage `json:"content"`
	SessionThreadID *string           `json:"session_thread_id"`
	ToolUseID       *string           `json:"tool_use_id"`
	CustomToolUseID *string           `json:"custom_tool_use_id"`
	Result          *string           `json:"result"`
	DenyMessage     *string           `json:"deny_message"`
	IsError         *bool             `json:"is_error"`
	Description     string            `json:"description"`
	Rubric          json.RawMessage   `json:"rubric"`
	MaxIterations   *int              `json:"max_iterations"`
}

// sentMembers are the members each kind allows.
var sentMembers = map[string][]string{
	"user.message":            {"type", "content"},
	"user.interrupt":          {"type", "session_thread_id"},
	"user.tool_confirmation":  {"type", "tool_use_id", "result", "deny_message"},
	"user.custom_tool_result": {"type", "custom_tool_use_id", "content", "is_error"},
	"user.tool_result":        {"type", "tool_use_id", "content", "is_error"},
	"user.define_outcome":     {"type", "description", "rubric", "max_iterations"},
	"system.message":          {"type", "content"},
}

// sendCheck carries what the checks of one request have accepted so far.
type sendCheck struct {
	s        *storedSession
	awaiting map[string]string // the session's waiting calls as the request's earlier events leave them
	prev     string            // the previous event's type
}

// parseSent checks one sent event and returns it ready to store; st.mu
// must be held.
func (st *sessionStore) parseSent(path string, raw json.RawMessage, c *sendCheck) (*input, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return nil, invalid("%s: Input should be an object", path)
	}
	var typ string
	_ = json.Unmarshal(members["type"], &typ)
	allowed, ok := sentMembers[typ]
	if !ok {
		return nil, invalid("%s.type: Input should be 'user.message', 'user.interrupt', 'user.tool_confirmation', "+
			"'user.custom_tool_result', 'user.tool_result', 'user.define_outcome' or 'system.message', got %q", path, typ)
	}
	for k := range members {
		if !slices.Contains(allowed, k) {
			return nil, invalid("%s.%s: Extra inputs are not permitted", path, k)
		}
	}
	var ev sentEvent
	if err := strictDecode(path, raw, &ev); err != nil {
		return nil, err
	}
	in := &input{}
	fields := map[string]any{}
	switch typ {
	case "user.message", "user.define_outcome":
		if err := checkInitialEvent(path, raw); err != nil {
			return nil, err
		}
		if c.s.budgetReached() {
			return nil, invalid("%s: the session reached its budget; only tool results, confirmations and interrupts are accepted", path)
		}
		if typ == "user.message" {
			fields["content"], fields["processed_at"] = ev.Content, nil
			in.text = blocksText(ev.Content)
		} else {
			fields["outcome_id"], fields["description"], fields["rubric"] = st.srv.newID("outc_"), ev.Description, ev.Rubric
			fields["max_iterations"] = ev.MaxIterations
		}
	case "system.message":
		if len(ev.Content) == 0 {
			return nil, invalid("%s.content: List should have at least 1 item", path)
		}
		for j, b := range ev.Content {
			var tb textWire
			if err := strictDecode(fmt.Sprintf("%s.content.%d", path, j), b, &tb); err != nil || tb.Type != "text" || tb.Text == "" {
				return nil, invalid("%s.content.%d: Input should be a text block {type:\"text\", text} with non-empty text", path, j)
			}
		}
		if c.prev != "user.message" && c.prev != "user.custom_tool_result" && c.prev != "user.tool_result" {
			return nil, invalid("%s: a system.message must directly follow a user.message or a tool result in the same request", path)
		}
		fields["content"], fields["processed_at"] = ev.Content, nil
		in.text = blocksText(ev.Content)
	case "user.interrupt":
		fields["processed_at"], fields["session_thread_id"] = nil, ev.SessionThreadID
		if id := ev.SessionThreadID; id != nil {
			if c.s.threadLogs[*id] == nil {
				return nil, invalid("%s.session_thread_id: the session has no thread %q", path, *id)
			}
			in.threadID = *id
		}
	case "user.tool_confirmation":
		if ev.ToolUseID == nil || *ev.ToolUseID == "" {
			return nil, invalid("%s.tool_use_id: Field required", path)
		}
		if ev.Result == nil || *ev.Result != "allow" && *ev.Result != "deny" {
			return nil, invalid("%s.result: Input should be 'allow' or 'deny'", path)
		}
		if ev.DenyMessage != nil && *ev.Result != "deny" {
			return nil, invalid("%s.deny_message: only a deny carries a deny_message", path)
		}
		if textLen(*ev.ToolUseID) > wire.MaxEventToolUseIDLen {
			return nil, invalid("%s.tool_use_id: String should have at most %d characters", path, wire.MaxEventToolUseIDLen)
		}
		if ev.DenyMessage != nil && textLen(*ev.DenyMessage) > wire.MaxDenyMessageLen {
			return nil, invalid("%s.deny_message: String should have at most %d characters", path, wire.MaxDenyMessageLen)
		}
		id := *ev.ToolUseID
		if c.awaiting[id] != awaitConfirm {
			return nil, invalid("%s.tool_use_id: no tool call %q is waiting for a confirmation", path, id)
		}
		in.callID, in.allow = id, *ev.Result == "allow"
		delete(c.awaiting, id)
		if in.allow && c.s.selfHosted {
			c.awaiting[id] = awaitResult // the worker runs it and posts user.tool_result
		}
		if ev.DenyMessage != nil {
			in.denyMsg = *ev.DenyMessage
		}
		fields["tool_use_id"], fields["result"], fields["deny_message"] = id, *ev.Result, ev.DenyMessage
		fields["session_thread_id"] = c.s.threadOf(id)
	case "user.custom_tool_result", "user.tool_result":
		idMember, idp, want := "custom_tool_use_id", ev.CustomToolUseID, awaitCustom
		if typ == "user.tool_result" {
			idMember, idp, want = "tool_use_id", ev.ToolUseID, awaitResult
			if !c.s.selfHosted {
				return nil, invalid("%s: user.tool_result is only accepted in a self_hosted environment", path)
			}
		}
		if idp == nil || *idp == "" {
			return nil, invalid("%s.%s: Field required", path, idMember)
		}
		if textLen(*idp) > wire.MaxEventToolUseIDLen {
			return nil, invalid("%s.%s: String should have at most %d characters", path, idMember, wire.MaxEventToolUseIDLen)
		}
		text, err := resultContent(path+".content", ev.Content)
		if err != nil {
			return nil, err
		}
		id := *idp
		if c.awaiting[id] != want {
			return nil, invalid("%s.%s: no tool call %q is waiting for this result", path, idMember, id)
		}
		delete(c.awaiting, id)
		in.callID, in.text = id, text
		fields[idMember] = id
		if ev.Content != nil {
			fields["content"] = ev.Content
		}
		if ev.IsError != nil {
			fields["is_error"], in.isError = *ev.IsError, *ev.IsError
		}
		fields["session_thread_id"] = c.s.threadOf(id)
	}
	c.prev = typ
	in.ev = st.newEvent(typ, "", fields)
	if typ == "user.interrupt" {
		in.ev.m["id"] = "" // the service gives interrupts no id (spec §7 row 5)
	}
	return in, nil
}

// What a waiting call waits for.
const (
	awaitConfirm = "confirmation" // an always_ask tool call: user.tool_confirmation
	awaitCustom  = "custom"       // a custom tool call: user.custom_tool_result
	awaitResult  = "result"       // a self-hosted tool call: user.tool_result
)

// resultContent checks a tool result's content and returns its text: the
// blocks are text, image, document (its source base64, text, url or file)
// or search_result, and at least one must carry something (an empty
// result is refused, spec §7 row 6, where the service is stricter than its
// schema).
func resultContent(path string, content []json.RawMessage) (string, error) {
	substantial := false
	var texts []string
	for j, raw := range content {
		var b struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}
		if json.Unmarshal(raw, &b) != nil {
			return "", invalid("%s.%d: Input should be an object", path, j)
		}
		switch b.Type {
		case "text":
			var tb textWire
			if err := strictDecode(fmt.Sprintf("%s.%d", path, j), raw, &tb); err != nil {
				return "", err
			}
			if b.Text == nil {
				return "", invalid("%s.%d.text: Field required", path, j)
			}
			if *b.Text != "" {
				substantial = true
				texts = append(texts, *b.Text)
			}
		case "document":
			var d struct {
				Source json.RawMessage `json:"source"`
			}
			_ = json.Unmarshal(raw, &d)
			if err := checkEventDocumentSource(fmt.Sprintf("%s.%d", path, j), d.Source); err != nil {
				return "", err
			}
			substantial = true
		case "image", "search_result":
			substantial = true
		default:
			return "", invalid("%s.%d.type: Input should be 'text', 'image', 'document' or 'search_result', got %q", path, j, b.Type)
		}
	}
	if !substantial {
		return "", invalid("%s: a tool result needs non-empty content; send a placeholder such as \"(no output)\"", path)
	}
	return strings.Join(texts, "\n"), nil
}

// blocksText joins the text of text blocks.
func blocksText(blocks []json.RawMessage) string {
	var parts []string
	for _, raw := range blocks {
		var b textWire
		if json.Unmarshal(raw, &b) == nil && b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// parseInputs checks a list of sent events against s; st.mu must be held.
// Nothing is stored.
func (st *sessionStore) parseInputs(field string, s *storedSession, raws []json.RawMessage) ([]*input, map[string]string, error) {
	c := &sendCheck{s: s, awaiting: map[string]string{}}
	for k, v := range s.awaiting {
		c.awaiting[k] = v
	}
	var ins []*input
	for i, raw := range raws {
		in, err := st.parseSent(fmt.Sprintf("%s.%d", field, i), raw, c)
		if err != nil {
			return nil, nil, err
		}
		if in.ev.typ == "system.message" && i != len(raws)-1 {
			return nil, nil, invalid("%s.%d: a system.message must be the last event of the request", field, i)
		}
		ins = append(ins, in)
	}
	return ins, c.awaiting, nil
}

// storeInputs stores checked inputs: processed kinds get their place in
// the processed order now, the others are queued; every one goes to the
// turn engine. st.mu must be held.
func (st *sessionStore) storeInputs(s *storedSession, ins []*input, awaiting map[string]string) []json.RawMessage {
	s.awaiting = awaiting
	out := make([]json.RawMessage, 0, len(ins))
	for _, in := range ins {
		switch in.ev.typ {
		case "user.message", "user.interrupt", "system.message":
		default:
			st.markProcessed(s, in.ev)
		}
		if in.ev.typ == "user.define_outcome" {
			s.rec.OutcomeEvaluations = append(s.rec.OutcomeEvaluations, outcomeWire{Type: "outcome_evaluation",
				OutcomeID: in.ev.m["outcome_id"].(string), Description: in.ev.m["description"].(string), Result: "pending"})
		}
		st.append(s, &s.log, in.ev)
		out = append(out, in.ev.encode())
		s.pending = append(s.pending, in)
	}
	st.kick(s)
	return out
}

// sendEvents serves POST /v1/sessions/{session_id}/events.
func (st *sessionStore) sendEvents(w http.ResponseWriter, r *http.Request) {
	var b struct {
		Events []json.RawMessage `json:"events"`
	}
	if badBody(w, r, &b) {
		return
	}
	if len(b.Events) == 0 {
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "events: List should have at least 1 item")
		return
	}
	withFound(&st.mu, w, r, st.lookup, func(s *storedSession) {
		if s.rec.Status == "terminated" {
			writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "Session "+s.rec.ID+" is terminated and accepts no more events")
			return
		}
		ins, awaiting, err := st.parseInputs("events", s, b.Events)
		if err != nil {
			writeErr(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"data": st.storeInputs(s, ins, awaiting)})
	})
}
