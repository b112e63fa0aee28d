package mmstest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The session simulator: each session has a turn engine, a goroutine
// started when the session has input and ended when it has none (or by
// TerminateSession, a delete, or Server.Close). It takes the session's
// input in order and emits the events a real session emits; see the
// package documentation for what each input causes.

// engineStopped unwinds an engine whose session was terminated or deleted,
// or whose server closed.
type engineStopped struct{}

// kick wakes s's engine, starting it when it is not running; st.mu must
// be held.
func (st *sessionStore) kick(s *storedSession) {
	select {
	case s.wake <- struct{}{}:
	default:
	}
	if s.engineOn || s.stopped || st.closed {
		return
	}
	s.engineOn = true
	st.wg.Add(1)
	go st.run(s)
}

// halt stops s's engine and abandons its waiting calls; st.mu must be held.
func (st *sessionStore) halt(s *storedSession) {
	if !s.stopped {
		s.stopped = true
		close(s.stop)
	}
	clear(s.awaiting)
}

// shutdown stops every engine and waits for them (Server.Close).
func (st *sessionStore) shutdown() {
	withLock(&st.mu, func() { st.closed = true })
	st.wg.Wait() // without st.mu: the engines take it to finish
}

// run is a session's engine.
func (st *sessionStore) run(s *storedSession) {
	defer st.wg.Done()
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(engineStopped); !ok {
				panic(v)
			}
		}
	}()
	e := &engine{st: st, s: s}
	for {
		in := e.next(false)
		if in == nil {
			return
		}
		switch in.ev.typ {
		case "user.message":
			e.turn(in.text)
		case "user.define_outcome":
			e.outcome(in)
		}
		// system.message joins the conversation silently; an interrupt
		// with no turn running, or an answer to an abandoned call, does
		// nothing.
	}
}

// engine runs one session's turns.
type engine struct {
	st *sessionStore
	s  *storedSession
}

// where names the log an event goes to: the session's (th nil) or a
// thread's, and with cross also the session's.
type where struct {
	th    *threadWire
	cross bool
}

var primary = where{}

// halted reports whether the engine must stop; st.mu must be held.
func (e *engine) halted() bool {
	select {
	case <-e.st.srv.done:
		return true
	default:
		return e.s.stopped || e.st.closed
	}
}

// next takes the session's next input: the oldest one, or with answers
// only a confirmation, a result or an interrupt (messages wait for the
// turn to end), waiting for it. Without answers it returns nil when
// nothing is queued, ending the engine.
func (e *engine) next(answers bool) *input {
	st, s := e.st, e.s
	st.mu.Lock()
	defer st.mu.Unlock()
	for {
		if e.halted() {
			panic(engineStopped{})
		}
		for i, in := range s.pending {
			switch in.ev.typ {
			case "user.message", "system.message", "user.define_outcome":
				if answers {
					continue
				}
			}
			s.pending = append(s.pending[:i:i], s.pending[i+1:]...)
			if in.ev.seq == 0 {
				st.markProcessed(s, in.ev)
			}
			return in
		}
		if !answers {
			s.engineOn = false
			return nil
		}
		st.mu.Unlock()
		select {
		case <-s.wake:
		case <-s.stop:
		case <-st.srv.done:
		}
		st.mu.Lock()
	}
}

// pause waits WithSessionEventDelay between events.
func (e *engine) pause() {
	d := e.st.srv.cfg.sessionEventDelay
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-e.s.stop:
		panic(engineStopped{})
	case <-e.st.srv.done:
		panic(engineStopped{})
	}
}

// locked runs f with st.mu held, unless the engine must stop.
func (e *engine) locked(f func()) {
	e.st.mu.Lock()
	defer e.st.mu.Unlock()
	if e.halted() {
		panic(engineStopped{})
	}
	f()
}

// logsOf returns the logs an event at w goes to; st.mu must be held.
func (e *engine) logsOf(w where) []*eventLog {
	if w.th == nil {
		return []*eventLog{&e.s.log}
	}
	if w.cross {
		return []*eventLog{e.s.threadLogs[w.th.ID], &e.s.log}
	}
	return []*eventLog{e.s.threadLogs[w.th.ID]}
}

// emit stores a new event (a fresh id unless id is set) after the pause,
// and runs then under the same lock, so that what then records is in
// place before anyone sees the event.
func (e *engine) emit(w where, typ, id string, fields map[string]any, then ...func(*storedEvent)) *storedEvent {
	e.pause()
	var ev *storedEvent
	e.locked(func() {
		ev = e.st.newEvent(typ, id, fields)
		e.st.markProcessed(e.s, ev)
		for _, l := range e.logsOf(w) {
			e.st.append(e.s, l, ev)
		}
		for _, f := range then {
			f(ev)
		}
	})
	return ev
}

// previewStep sends one preview of an event of type of after the pause.
func (e *engine) previewStep(w where, of string, payload any) {
	e.pause()
	e.locked(func() { e.st.preview(e.logsOf(w)[0], of, payload) })
}

// message emits agent.message holding text, after its previews.
func (e *engine) message(w where, text string) {
	id := e.st.srv.newID("sevt_")
	e.previewStep(w, "agent.message", map[string]any{"type": "event_start", "event": map[string]string{"type": "agent.message", "id": id}})
	for _, c := range chunks(text) {
		e.previewStep(w, "agent.message", map[string]any{"type": "event_delta", "event_id": id,
			"delta": map[string]any{"type": "content_delta", "index": 0, "content": textWire{"text", c}}})
	}
	e.emit(w, "agent.message", id, map[string]any{"content": []textWire{{"text", text}}})
}

// modelUsage is a span's model_usage.
func modelUsage(in, out int) map[string]any {
	return map[string]any{"input_tokens": in, "output_tokens": out, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
}

// modelRequest emits one model request answering prompt: its spans, an
// agent.thinking when think, the agent.message "You said: <prompt>", and
// for the session's own requests session.usage. It reports false when the
// request used up the session's budget: the turn then ends with
// session.status_idle {budget_reached}.
func (e *engine) modelRequest(w where, prompt string, think bool) bool {
	start := e.emit(w, "span.model_request_start", "", nil)
	if think {
		id := e.st.srv.newID("sevt_")
		e.previewStep(w, "agent.thinking", map[string]any{"type": "event_start", "event": map[string]string{"type": "agent.thinking", "id": id}})
		e.emit(w, "agent.thinking", id, nil)
	}
	text := "You said: " + prompt
	e.message(w, text)
	in, out := tokenCount(len(prompt)), tokenCount(len(text))
	e.emit(w, "span.model_request_end", "", map[string]any{"model_request_start_id": start.m["id"], "is_error": false,
		"model_usage": modelUsage(in, out)}, func(*storedEvent) { e.s.addUsage(w.th, in, out) })
	if w.th != nil {
		return true
	}
	var reached bool
	fields := map[string]any{}
	e.locked(func() {
		fields["usage"] = e.s.rec.Usage
		if b := e.s.rec.Budget; b != nil {
			fields["budget"] = *b
		}
		reached = e.s.budgetReached()
	})
	e.emit(w, "session.usage", "", fields)
	if reached {
		e.idle(map[string]any{"type": "budget_reached"})
	}
	return !reached
}

func (e *engine) idle(reason map[string]any) {
	e.emit(primary, "session.status_idle", "", map[string]any{"stop_reason": reason})
}

// simTool is a tool of an agent as the simulator sees it.
type simTool struct {
	name   string
	custom bool
	schema json.RawMessage
	ask    bool // a built-in tool whose policy is not always_allow (unknown policies count as ask, spec §7 row 1)
}

// builtinSchemas are the input schemas the simulator fills for the
// built-in tools (spec §1.5), in the toolset's order.
var builtinSchemas = []struct{ name, required string }{
	{"bash", `["command"]`}, {"edit", `["file_path","old_string","new_string"]`}, {"read", `["file_path"]`},
	{"write", `["file_path","content"]`}, {"glob", `["pattern"]`}, {"grep", `["pattern"]`},
	{"web_fetch", `["url"]`}, {"web_search", `["query"]`},
}

// agentTools reads an agent snapshot's tools: custom tools, and the
// enabled tools of an agent toolset (enabled and always_allow unless its
// default_config or a config says otherwise).
func agentTools(agent json.RawMessage) []simTool {
	type policy struct {
		Enabled          *bool `json:"enabled"`
		PermissionPolicy *struct {
			Type string `json:"type"`
		} `json:"permission_policy"`
	}
	var a struct {
		Tools []struct {
			Type          string          `json:"type"`
			Name          string          `json:"name"`
			InputSchema   json.RawMessage `json:"input_schema"`
			DefaultConfig *policy         `json:"default_config"`
			Configs       []struct {
				Name string `json:"name"`
				policy
			} `json:"configs"`
		} `json:"tools"`
	}
	_ = json.Unmarshal(agent, &a) // a snapshot the fake made
	var out []simTool
	for _, t := range a.Tools {
		switch t.Type {
		case "custom":
			out = append(out, simTool{name: t.Name, custom: true, schema: t.InputSchema})
		case "agent_toolset_20260401":
			for _, b := range builtinSchemas {
				enabled, ask := true, false
				apply := func(p *policy) {
					if p.Enabled != nil {
						enabled = *p.Enabled
					}
					if p.PermissionPolicy != nil {
						ask = p.PermissionPolicy.Type != "always_allow"
					}
				}
				if t.DefaultConfig != nil {
					apply(t.DefaultConfig)
				}
				for _, c := range t.Configs {
					if c.Name == b.name {
						apply(&c.policy)
					}
				}
				if enabled {
					schema := `{"type":"object","required":` + b.required + `}`
					out = append(out, simTool{name: b.name, schema: json.RawMessage(schema), ask: ask})
				}
			}
		}
	}
	return out
}

// call is a tool call waiting for an answer.
type call struct {
	id, name string
	input    json.RawMessage
	w        where
	wait     string // awaitConfirm, awaitCustom or awaitResult
}

// callTools emits a call of each tool named in text, in tools order; it
// returns the calls that wait and the results of the tools the fake ran.
func (e *engine) callTools(w where, tools []simTool, text string) (calls []*call, results []string) {
	tid := any(nil)
	if w.th != nil {
		tid = w.th.ID
	}
	for _, t := range tools {
		if !strings.Contains(text, t.name) {
			continue
		}
		input := exampleValue(t.schema, text)
		c := &call{name: t.name, input: input, w: where{th: w.th, cross: w.th != nil}}
		fields := map[string]any{"name": t.name, "input": input}
		if w.th != nil {
			fields["session_thread_id"] = tid
		}
		typ := "agent.tool_use"
		switch {
		case t.custom:
			typ, c.wait = "agent.custom_tool_use", awaitCustom
		case t.ask:
			fields["evaluated_permission"], c.wait = "ask", awaitConfirm
		default:
			fields["evaluated_permission"] = "allow"
			if e.s.selfHosted {
				c.wait = awaitResult
			}
		}
		if c.wait == "" {
			ev := e.emit(w, typ, "", fields)
			results = append(results, e.runTool(w, ev.m["id"].(string), t.name, input))
			continue
		}
		ev := e.emit(c.w, typ, "", fields, func(ev *storedEvent) {
			id := ev.m["id"].(string)
			e.s.awaiting[id] = c.wait
			if w.th != nil {
				e.s.callThread[id] = w.th.ID
			}
		})
		c.id = ev.m["id"].(string)
		calls = append(calls, c)
	}
	return calls, results
}

// runTool runs an allowed built-in tool the fake's way: agent.tool_result
// with made-up output.
func (e *engine) runTool(w where, id, name string, input json.RawMessage) string {
	out := fmt.Sprintf("%s ran with input %s", name, input)
	e.emit(where{th: w.th}, "agent.tool_result", "", map[string]any{"tool_use_id": id,
		"content": []textWire{{"text", out}}, "is_error": false})
	return out
}

// await waits for the answers to calls, re-emitting session.status_idle
// {requires_action} with the calls still waiting after each one. It adds
// the results, per thread (nil: the session's own), and reports false
// when an interrupt ended the turn.
func (e *engine) await(calls []*call, results map[*threadWire][]string) bool {
	waiting := calls
	for len(waiting) > 0 {
		ids := make([]string, 0, len(waiting))
		for _, c := range waiting {
			ids = append(ids, c.id)
		}
		e.idle(map[string]any{"type": "requires_action", "event_ids": ids})
		in := e.next(true)
		if in.ev.typ == "user.interrupt" {
			var keep []*call
			for _, c := range waiting {
				if in.threadID != "" && (c.w.th == nil || c.w.th.ID != in.threadID) {
					keep = append(keep, c)
				}
			}
			e.abandon(waiting, keep)
			if waiting = keep; in.threadID == "" {
				e.idle(map[string]any{"type": "end_turn"})
				return false
			}
			continue
		}
		i := -1
		for j, c := range waiting {
			if c.id == in.callID {
				i = j
			}
		}
		if i < 0 {
			continue // an answer to a call an interrupt abandoned
		}
		c := waiting[i]
		done := true
		switch {
		case in.ev.typ == "user.tool_confirmation" && !in.allow:
			msg := in.denyMsg
			if msg == "" {
				msg = "The user denied this tool call."
			}
			e.emit(where{th: c.w.th}, "agent.tool_result", "", map[string]any{"tool_use_id": c.id,
				"content": []textWire{{"text", msg}}, "is_error": true})
			results[c.w.th] = append(results[c.w.th], "denied: "+msg)
		case in.ev.typ == "user.tool_confirmation" && e.s.selfHosted:
			c.wait, done = awaitResult, false // the worker runs it
		case in.ev.typ == "user.tool_confirmation":
			results[c.w.th] = append(results[c.w.th], e.runTool(c.w, c.id, c.name, c.input))
		case in.isError:
			results[c.w.th] = append(results[c.w.th], "error: "+in.text)
		default:
			results[c.w.th] = append(results[c.w.th], in.text)
		}
		if done {
			waiting = append(waiting[:i:i], waiting[i+1:]...)
		}
	}
	if len(calls) > 0 {
		e.emit(primary, "session.status_running", "", nil)
	}
	return true
}

// abandon forgets the waiting calls not kept: answers to them are refused.
func (e *engine) abandon(waiting, keep []*call) {
	e.locked(func() {
		for _, c := range waiting {
			if !containsCall(keep, c) {
				delete(e.s.awaiting, c.id)
			}
		}
	})
}

func containsCall(calls []*call, c *call) bool {
	for _, x := range calls {
		if x == c {
			return true
		}
	}
	return false
}

// rosterThread is a thread the text names.
type rosterThread struct {
	th   *threadWire
	name string
}

// turnSetup reads, under the lock, what a turn needs of the session.
func (e *engine) turnSetup(text string) (tools []simTool, named []rosterThread, lead string) {
	e.locked(func() {
		tools = agentTools(encodeJSON(e.s.rec.Agent))
		lead = e.s.rec.Agent.Name
		for _, th := range e.s.threads {
			var a struct {
				Name string `json:"name"`
			}
			_ = json.Unmarshal(th.Agent, &a)
			if th.ArchivedAt == nil && a.Name != "" && strings.Contains(text, a.Name) {
				named = append(named, rosterThread{th, a.Name})
			}
		}
	})
	return tools, named, lead
}

// turn runs the turn a user.message starts.
func (e *engine) turn(text string) {
	e.emit(primary, "session.status_running", "", nil)
	if strings.Contains(text, "overloaded") {
		e.emit(primary, "session.error", "", map[string]any{"error": map[string]any{"type": "model_overloaded_error",
			"message": "The model is overloaded; retrying", "retry_status": map[string]string{"type": "retrying"}}})
		e.emit(primary, "session.status_rescheduled", "", nil)
		e.emit(primary, "session.status_running", "", nil)
	}
	tools, named, lead := e.turnSetup(text)
	if !e.modelRequest(primary, text, strings.Contains(text, "think")) {
		return
	}
	results := map[*threadWire][]string{}
	var calls []*call
	var waitingThreads []rosterThread
	for _, rt := range named {
		if c := e.delegate(rt, lead, text); len(c) > 0 {
			calls = append(calls, c...)
			waitingThreads = append(waitingThreads, rt)
		}
	}
	own, ran := e.callTools(primary, tools, text)
	calls = append(calls, own...)
	results[nil] = ran
	if !e.await(calls, results) {
		return
	}
	for _, rt := range waitingThreads {
		said := strings.Join(results[rt.th], "\n")
		e.modelRequest(where{th: rt.th}, said, false)
		e.finishThread(rt, "You said: "+said)
	}
	if len(calls) > 0 || len(ran) > 0 {
		if !e.modelRequest(primary, strings.Join(results[nil], "\n"), false) {
			return
		}
	}
	e.idle(map[string]any{"type": "end_turn"})
}

// delegate sends text to a roster member's thread, which answers it with
// its own model request and tool calls (cross-posted to the session's
// log); it returns the calls that wait. A thread without waiting calls
// finishes at once.
func (e *engine) delegate(rt rosterThread, lead, text string) []*call {
	tw := where{th: rt.th}
	content := []textWire{{"text", text}}
	e.emit(primary, "agent.thread_message_sent", "", map[string]any{"to_session_thread_id": rt.th.ID, "to_agent_name": rt.name, "content": content})
	e.emit(primary, "session.thread_status_running", "", map[string]any{"session_thread_id": rt.th.ID, "agent_name": rt.name})
	// The coordinator's side has no thread of its own in the fake: the
	// message comes from the session.
	e.emit(tw, "agent.thread_message_received", "", map[string]any{"from_session_thread_id": e.s.rec.ID, "from_agent_name": lead, "content": content})
	e.modelRequest(tw, text, false)
	calls, ran := e.callTools(tw, agentTools(rt.th.Agent), text)
	if len(calls) == 0 {
		reply := "You said: " + text
		if len(ran) > 0 {
			said := strings.Join(ran, "\n")
			e.modelRequest(tw, said, false)
			reply = "You said: " + said
		}
		e.finishThread(rt, reply)
	}
	return calls
}

// finishThread ends a thread's work: it goes idle and its reply reaches
// the session.
func (e *engine) finishThread(rt rosterThread, reply string) {
	e.emit(primary, "session.thread_status_idle", "", map[string]any{"session_thread_id": rt.th.ID, "agent_name": rt.name,
		"stop_reason": map[string]string{"type": "end_turn"}})
	e.emit(primary, "agent.thread_message_received", "", map[string]any{"from_session_thread_id": rt.th.ID, "from_agent_name": rt.name,
		"content": []textWire{{"text", reply}}})
}

// outcome evaluates an outcome at once: it is satisfied on the first
// iteration.
func (e *engine) outcome(in *input) {
	oid, desc := in.ev.m["outcome_id"].(string), in.ev.m["description"].(string)
	set := func(result string, expl *string, done bool) func(*storedEvent) {
		return func(ev *storedEvent) {
			for i := range e.s.rec.OutcomeEvaluations {
				if o := &e.s.rec.OutcomeEvaluations[i]; o.OutcomeID == oid {
					o.Result, o.Explanation = result, expl
					if done {
						ts := ev.m["processed_at"].(string)
						o.CompletedAt = &ts
					}
				}
			}
		}
	}
	e.emit(primary, "session.status_running", "", nil)
	span := map[string]any{"outcome_id": oid, "iteration": 0}
	start := e.emit(primary, "span.outcome_evaluation_start", "", span, set("running", nil, false))
	e.emit(primary, "span.outcome_evaluation_ongoing", "", span, set("evaluating", nil, false))
	expl := fmt.Sprintf("The outcome %q is met.", desc)
	end := map[string]any{"outcome_id": oid, "iteration": 0, "outcome_evaluation_start_id": start.m["id"], "result": "satisfied",
		"explanation": expl, "usage": modelUsage(tokenCount(len(desc)), tokenCount(len(expl)))}
	e.emit(primary, "span.outcome_evaluation_end", "", end, set("satisfied", &expl, true))
	e.idle(map[string]any{"type": "end_turn"})
}

// tokenMicros is the fake's list price of a token, in millionths of a USD.
const tokenMicros = 10

// addUsage counts a model request in the session's usage (and its
// thread's); st.mu must be held.
func (s *storedSession) addUsage(th *threadWire, in, out int) {
	s.inTokens += in
	s.outTokens += out
	s.costMicros += int64(in+out) * tokenMicros
	s.rec.Usage = encodeJSON(map[string]any{"input_tokens": s.inTokens, "output_tokens": s.outTokens, "cache_read_input_tokens": 0,
		"cache_creation": map[string]int{"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0},
		"list_cost":      costWire{Amount: fmt.Sprintf("%d.%06d", s.costMicros/1e6, s.costMicros%1e6), Currency: "USD"}})
	if th != nil {
		u := s.threadUsage[th.ID]
		u[0], u[1] = u[0]+in, u[1]+out
		s.threadUsage[th.ID] = u
		th.Usage = encodeJSON(map[string]int{"input_tokens": u[0], "output_tokens": u[1]})
	}
}

// budgetReached reports whether the session's cost reached its budget;
// st.mu must be held.
func (s *storedSession) budgetReached() bool {
	return s.rec.Budget != nil && s.costMicros >= amountMicros(s.rec.Budget.MaxListCost.Amount)
}

// amountMicros reads a decimal string (isDecimalString) in millionths.
func amountMicros(amount string) int64 {
	whole, frac, _ := strings.Cut(amount, ".")
	frac = (frac + "000000")[:6]
	w, _ := strconv.ParseInt(whole, 10, 64)
	f, _ := strconv.ParseInt(frac, 10, 64)
	return w*1e6 + f
}

// observe applies an event to the session's and its threads' records;
// st.mu must be held.
func (s *storedSession) observe(ev *storedEvent) {
	if ev.seq == 0 {
		return
	}
	ts := ev.m["processed_at"].(string)
	status := map[string]string{"session.status_running": "running", "session.status_idle": "idle",
		"session.status_rescheduled": "rescheduling", "session.status_terminated": "terminated"}
	if st, ok := status[ev.typ]; ok && s.rec.Status != st {
		if st == "running" {
			s.runningSince = ev.at
		} else if s.rec.Status == "running" {
			s.active += ev.at.Sub(s.runningSince)
		}
		s.rec.Status, s.rec.UpdatedAt = st, ts
		s.rec.Stats = encodeJSON(map[string]float64{"active_seconds": s.active.Seconds(),
			"duration_seconds": ev.at.Sub(s.created).Seconds()})
	}
	thStatus := map[string]string{"session.thread_status_running": "running", "session.thread_status_idle": "idle"}
	if st, ok := thStatus[ev.typ]; ok {
		for _, th := range s.threads {
			if th.ID == ev.m["session_thread_id"] {
				th.Status, th.UpdatedAt = st, ts
			}
		}
	}
}

// threadOf is the session_thread_id of a call's answer: its thread's id,
// or null.
func (s *storedSession) threadOf(callID string) any {
	if id := s.callThread[callID]; id != "" {
		return id
	}
	return nil
}

// TerminateSession ends a session for good, as the service does when a
// session fails or completes: it emits session.status_terminated (which
// ends the open streams, the threads' included), the session's status
// becomes "terminated", its turn engine stops, and it accepts no more
// events.
func (s *Server) TerminateSession(sessionID string) error {
	st := s.sessions
	st.mu.Lock()
	defer st.mu.Unlock()
	sess := st.find(sessionID)
	if sess == nil {
		return fmt.Errorf("mmstest: no session %q", sessionID)
	}
	if sess.rec.Status != "terminated" {
		st.finalEvent(sess, "session.status_terminated", nil)
	}
	return nil
}

// finalEvent stores an event that ends the session's streams (the
// threads' streams get it too, without storing it) and stops the engine;
// st.mu must be held.
func (st *sessionStore) finalEvent(s *storedSession, typ string, fields map[string]any) {
	ev := st.newEvent(typ, "", fields)
	st.markProcessed(s, ev)
	st.append(s, &s.log, ev)
	for _, l := range s.threadLogs {
		st.broadcast(l, streamItem{name: typ, data: ev.encode(), stored: true, final: true})
	}
	st.halt(s)
}
