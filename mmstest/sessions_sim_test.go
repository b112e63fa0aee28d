package mmstest

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The event types of one model request of the session.
var modelRequestTypes = []string{"span.model_request_start", "agent.message", "span.model_request_end", "session.usage"}

func seq(parts ...any) []string {
	var out []string
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			out = append(out, p)
		case []string:
			out = append(out, p...)
		}
	}
	return out
}

// toolsAgent creates an agent with a custom tool "weather" and the agent
// toolset, "read" and "write" asking for confirmation.
func toolsAgent(t *testing.T, s *Server, name string) agentWire {
	t.Helper()
	return agentOK(t, s, "POST", "/v1/agents", `{"name":"`+name+`","model":"m","tools":[`+
		`{"type":"custom","name":"weather","description":"d","input_schema":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city","days"]}},`+
		`{"type":"agent_toolset_20260401","configs":[{"name":"read","permission_policy":{"type":"always_ask"}},{"name":"write","permission_policy":{"type":"always_ask"}}]}]}`)
}

// TestSessionTurnSequences: the events a user.message causes, checked
// against the session's own log once the engine settled.
func TestSessionTurnSequences(t *testing.T) {
	s, _ := sessionFixture(t)
	a := toolsAgent(t, s, "tooled")
	start := seq("user.message", "session.status_running")
	for _, tt := range []struct {
		name, text string
		want       []string
	}{
		{"plain", "hello", seq(start, modelRequestTypes, "session.status_idle")},
		{"thinking", "think it over", seq(start, "span.model_request_start", "agent.thinking", "agent.message", "span.model_request_end", "session.usage", "session.status_idle")},
		{"overloaded, then retried", "overloaded?", seq(start, "session.error", "session.status_rescheduled", "session.status_running", modelRequestTypes, "session.status_idle")},
		{"allowed built-in runs", "please bash it", seq(start, modelRequestTypes, "agent.tool_use", "agent.tool_result", modelRequestTypes, "session.status_idle")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sess := newSession(t, s, a.ID, testEnvID)
			sendOK(t, s, sess.ID, msg(tt.text))
			settle(s)
			log := s.SessionEventLog(sess.ID)
			if diff := cmp.Diff(tt.want, typesOf(t, log)); diff != "" {
				t.Fatalf("events (-want +got):\n%s", diff)
			}
			if last := decodeEvent(t, log[len(log)-1]); string(last.StopReason) != `{"type":"end_turn"}` {
				t.Errorf("last stop reason %s", last.StopReason)
			}
			got := sessionOK(t, s, "GET", "/v1/sessions/"+sess.ID, "")
			if got.Status != "idle" || !strings.Contains(string(got.Usage), `"output_tokens":`) || !strings.Contains(string(got.Stats), "duration_seconds") {
				t.Errorf("record after the turn: %s %s %s", got.Status, got.Usage, got.Stats)
			}
		})
	}
	// The agent's words, the span's link and the error's shape.
	sess := newSession(t, s, a.ID, testEnvID)
	sendOK(t, s, sess.ID, msg("overloaded"))
	settle(s)
	log := s.SessionEventLog(sess.ID)
	var errEv struct {
		Error struct {
			Type        string `json:"type"`
			RetryStatus struct {
				Type string `json:"type"`
			} `json:"retry_status"`
		} `json:"error"`
	}
	_ = json.Unmarshal(log[2], &errEv)
	if errEv.Error.Type != "model_overloaded_error" || errEv.Error.RetryStatus.Type != "retrying" {
		t.Errorf("session.error %s", log[2])
	}
	startID := decodeEvent(t, log[5]).ID
	if !strings.Contains(string(log[6]), `"content":[{"type":"text","text":"You said: overloaded"}]`) ||
		!strings.Contains(string(log[7]), `"model_request_start_id":"`+startID+`"`) || !strings.Contains(string(log[7]), `"is_error":false`) {
		t.Errorf("model request %s %s", log[6], log[7])
	}
}

// TestSessionCustomToolsAndConfirmations: a custom tool and two asked
// tools wait together; each answer re-emits the idle with the rest; an
// allowed call runs, a denied one becomes an error result; then the next
// model request and end_turn.
func TestSessionCustomToolsAndConfirmations(t *testing.T) {
	s, _ := sessionFixture(t)
	a := toolsAgent(t, s, "tooled")
	sess := newSession(t, s, a.ID, testEnvID)
	st, evs := untilWaiting(t, s, sess.ID, "weather, then read and write")
	ids := map[string]string{}
	var custom simEvent
	for _, ev := range evs {
		if strings.HasSuffix(ev.Type, "tool_use") {
			ids[ev.Name] = ev.ID
		}
		if ev.Type == "agent.custom_tool_use" {
			custom = ev
		}
	}
	if !strings.Contains(string(custom.Raw), `"input":{"city":"weather, then read and write","days":1}`) {
		t.Errorf("custom call input %s", custom.Raw)
	}
	reasons := []string{string(evs[len(evs)-1].StopReason)}
	next := func(events string) []simEvent {
		sendOK(t, s, sess.ID, events)
		got := st.until(func(ev simEvent) bool { return ev.Type == "session.status_idle" })
		reasons = append(reasons, string(got[len(got)-1].StopReason))
		return got
	}
	next(`[{"type":"user.custom_tool_result","custom_tool_use_id":"` + ids["weather"] + `","content":[{"type":"text","text":"sunny"}]}]`)
	allowed := next(`[{"type":"user.tool_confirmation","tool_use_id":"` + ids["read"] + `","result":"allow"}]`)
	sendOK(t, s, sess.ID, `[{"type":"user.tool_confirmation","tool_use_id":"`+ids["write"]+`","result":"deny","deny_message":"not today"}]`)
	denied := st.until(idleWith("end_turn"))
	wantReasons := []string{
		`{"event_ids":["` + ids["weather"] + `","` + ids["read"] + `","` + ids["write"] + `"],"type":"requires_action"}`,
		`{"event_ids":["` + ids["read"] + `","` + ids["write"] + `"],"type":"requires_action"}`,
		`{"event_ids":["` + ids["write"] + `"],"type":"requires_action"}`,
	}
	if diff := cmp.Diff(wantReasons, reasons); diff != "" {
		t.Errorf("idle stop reasons (-want +got):\n%s", diff)
	}
	if allowed[1].Type != "agent.tool_result" || !strings.Contains(string(allowed[1].Raw), `"is_error":false`) ||
		!strings.Contains(string(allowed[1].Raw), `"tool_use_id":"`+ids["read"]+`"`) {
		t.Errorf("allowed call's result %s", allowed[1].Raw)
	}
	var types []string
	for _, ev := range denied {
		types = append(types, ev.Type)
	}
	if diff := cmp.Diff(seq("user.tool_confirmation", "agent.tool_result", "session.status_running", modelRequestTypes, "session.status_idle"), types); diff != "" {
		t.Errorf("after the deny (-want +got):\n%s", diff)
	}
	if r := string(denied[1].Raw); !strings.Contains(r, `"is_error":true`) || !strings.Contains(r, "not today") {
		t.Errorf("denied call's result %s", r)
	}
	if m := string(denied[4].Raw); !strings.Contains(m, `You said: sunny\nread ran with input {\"file_path\":\"weather, then read and write\"}\ndenied: not today`) {
		t.Errorf("follow-up message %s", m)
	}
}

// TestSessionInterrupt: an interrupt abandons the waiting calls and ends
// the turn; a late answer is refused.
func TestSessionInterrupt(t *testing.T) {
	s, _ := sessionFixture(t)
	a := toolsAgent(t, s, "tooled")
	sess := newSession(t, s, a.ID, testEnvID)
	st, evs := untilWaiting(t, s, sess.ID, "weather")
	callID := evs[len(evs)-2].ID
	stored := sendOK(t, s, sess.ID, `[{"type":"user.interrupt"}]`)
	if stored[0].ID != "" || stored[0].ProcessedAt != nil {
		t.Errorf("stored interrupt %s", stored[0].Raw)
	}
	after := st.until(idleWith("end_turn"))
	if len(after) != 2 || after[0].Type != "user.interrupt" {
		t.Errorf("after the interrupt: %v", after)
	}
	resp, b := sendEvents(t, s, sess.ID, `[{"type":"user.custom_tool_result","custom_tool_use_id":"`+callID+`","content":[{"type":"text","text":"late"}]}]`)
	if resp.StatusCode != 400 || !strings.Contains(string(b), callID) {
		t.Errorf("late answer: %d %s", resp.StatusCode, b)
	}
	settle(s)
	for _, raw := range s.SessionEventLog(sess.ID) {
		if ev := decodeEvent(t, raw); ev.Type == "user.interrupt" && ev.ProcessedAt == nil {
			t.Errorf("interrupt still queued: %s", raw)
		}
	}
}

// TestSessionOutcome: a defined outcome is evaluated at once and the
// session's record says so.
func TestSessionOutcome(t *testing.T) {
	s, a := sessionFixture(t)
	sess := sessionOK(t, s, "POST", "/v1/sessions", `{"agent":"`+a.ID+`","environment_id":"`+testEnvID+`",`+
		`"initial_events":[{"type":"user.define_outcome","description":"a report","rubric":{"type":"text","content":"complete"}}]}`)
	if len(sess.OutcomeEvaluations) != 1 || sess.OutcomeEvaluations[0].Result != "pending" {
		t.Fatalf("created with %+v", sess.OutcomeEvaluations)
	}
	settle(s)
	log := s.SessionEventLog(sess.ID)
	want := seq("user.define_outcome", "session.status_running", "span.outcome_evaluation_start", "span.outcome_evaluation_ongoing",
		"span.outcome_evaluation_end", "session.status_idle")
	if diff := cmp.Diff(want, typesOf(t, log)); diff != "" {
		t.Fatalf("events (-want +got):\n%s", diff)
	}
	oid := sess.OutcomeEvaluations[0].OutcomeID
	end := string(log[4])
	for _, part := range []string{`"outcome_id":"` + oid + `"`, `"result":"satisfied"`, `"outcome_evaluation_start_id":"` + decodeEvent(t, log[2]).ID + `"`, `"iteration":0`, `"usage":{`} {
		if !strings.Contains(end, part) {
			t.Errorf("outcome end %s lacks %s", end, part)
		}
	}
	got := sessionOK(t, s, "GET", "/v1/sessions/"+sess.ID, "")
	if o := got.OutcomeEvaluations[0]; o.Result != "satisfied" || o.Explanation == nil || o.CompletedAt == nil {
		t.Errorf("outcome record %+v", o)
	}
}

// TestSessionMultiAgent: a roster member named in the text works in its
// thread; its custom tool call is cross-posted to the session's log and
// answered there.
func TestSessionMultiAgent(t *testing.T) {
	s, _ := sessionFixture(t)
	helper := agentOK(t, s, "POST", "/v1/agents", `{"name":"helper","model":"m","tools":[{"type":"custom","name":"lookup","description":"d","input_schema":{"type":"object"}}]}`)
	lead := agentOK(t, s, "POST", "/v1/agents", `{"name":"lead","model":"m","multiagent":{"type":"coordinator","agents":["`+helper.ID+`",{"type":"advisor","model":"adv"}]}}`)
	sess := newSession(t, s, lead.ID, testEnvID)
	resp, b := agentCall(t, s, "GET", "/v1/sessions/"+sess.ID+"/threads", "")
	var threads cursorPage[threadWire]
	if err := json.Unmarshal(b, &threads); err != nil || resp.StatusCode != 200 || len(threads.Data) != 2 {
		t.Fatalf("threads %d %s", resp.StatusCode, b)
	}
	tid := threads.Data[0].ID
	st := openStream(t, s, "/v1/sessions/"+sess.ID+"/events/stream", "")
	tst := openStream(t, s, "/v1/sessions/"+sess.ID+"/threads/"+tid+"/stream", "")
	sendOK(t, s, sess.ID, msg("helper, lookup this"))
	evs := st.until(idleWith("requires_action"))
	use := evs[len(evs)-2]
	if use.Type != "agent.custom_tool_use" || !strings.Contains(string(use.Raw), `"session_thread_id":"`+tid+`"`) {
		t.Fatalf("cross-posted call %s", use.Raw)
	}
	if got := thread(t, s, sess.ID, tid); got.Status != "running" {
		t.Errorf("thread status while it waits: %s", got.Status)
	}
	stored := sendOK(t, s, sess.ID, `[{"type":"user.custom_tool_result","custom_tool_use_id":"`+use.ID+`","content":[{"type":"text","text":"found"}]}]`)
	if !strings.Contains(string(stored[0].Raw), `"session_thread_id":"`+tid+`"`) {
		t.Errorf("stored result %s", stored[0].Raw)
	}
	st.until(idleWith("end_turn"))
	tst.until(func(ev simEvent) bool { return ev.Type == "agent.message" && strings.Contains(string(ev.Raw), "found") })
	settle(s)
	wantSession := seq("user.message", "session.status_running", modelRequestTypes,
		"agent.thread_message_sent", "session.thread_status_running", "agent.custom_tool_use", "session.status_idle",
		"user.custom_tool_result", "session.status_running", "session.thread_status_idle", "agent.thread_message_received",
		modelRequestTypes, "session.status_idle")
	if diff := cmp.Diff(wantSession, typesOf(t, s.SessionEventLog(sess.ID))); diff != "" {
		t.Errorf("session events (-want +got):\n%s", diff)
	}
	wantThread := seq("agent.thread_message_received", "span.model_request_start", "agent.message", "span.model_request_end",
		"agent.custom_tool_use", "span.model_request_start", "agent.message", "span.model_request_end")
	threadLog := s.ThreadEventLog(sess.ID, tid)
	if diff := cmp.Diff(wantThread, typesOf(t, threadLog)); diff != "" {
		t.Errorf("thread events (-want +got):\n%s", diff)
	}
	resp, b = agentCall(t, s, "GET", "/v1/sessions/"+sess.ID+"/threads/"+tid+"/events?limit=2", "")
	var page cursorPage[json.RawMessage]
	if err := json.Unmarshal(b, &page); err != nil || resp.StatusCode != 200 || len(page.Data) != 2 || page.NextPage == nil ||
		string(page.Data[0]) != string(threadLog[0]) {
		t.Errorf("thread events list %d %s", resp.StatusCode, b)
	}
	if got := thread(t, s, sess.ID, tid); got.Status != "idle" || !strings.Contains(string(got.Usage), "output_tokens") {
		t.Errorf("thread after the turn %+v", got)
	}
	if got := sendOK(t, s, sess.ID, `[{"type":"user.interrupt","session_thread_id":"`+tid+`"}]`); !strings.Contains(string(got[0].Raw), `"session_thread_id":"`+tid+`"`) {
		t.Errorf("thread interrupt %s", got[0].Raw)
	}
	if s.ThreadEventLog(sess.ID, "sthr_nope") != nil || s.SessionEventLog("sesn_nope") != nil {
		t.Error("logs of unknown sessions or threads")
	}
}

func thread(t *testing.T, s *Server, sessionID, threadID string) threadWire {
	t.Helper()
	resp, b := agentCall(t, s, "GET", "/v1/sessions/"+sessionID+"/threads/"+threadID, "")
	var th threadWire
	if err := json.Unmarshal(b, &th); err != nil || resp.StatusCode != 200 {
		t.Fatalf("thread %d %s", resp.StatusCode, b)
	}
	return th
}

// TestSessionStreamPreviews: previews only when asked, never stored, and
// their fragments make the final text.
func TestSessionStreamPreviews(t *testing.T) {
	s, a := sessionFixture(t)
	sess := newSession(t, s, a.ID, testEnvID)
	plain := openStream(t, s, "/v1/sessions/"+sess.ID+"/events/stream", "")
	both := openStream(t, s, "/v1/sessions/"+sess.ID+"/events/stream?event_deltas[]=agent.message&event_deltas[]=agent.thinking", "")
	thinking := openStream(t, s, "/v1/sessions/"+sess.ID+"/events/stream?event_deltas[]=agent.thinking", "")
	sendOK(t, s, sess.ID, msg("think of a long enough answer"))
	count := func(evs []simEvent, typ string) int {
		n := 0
		for _, ev := range evs {
			if ev.Type == typ {
				n++
			}
		}
		return n
	}
	p := plain.until(idleWith("end_turn"))
	if count(p, "event_start")+count(p, "event_delta") != 0 {
		t.Errorf("previews on a stream that did not ask: %v", p)
	}
	th := thinking.until(idleWith("end_turn"))
	if count(th, "event_start") != 1 || count(th, "event_delta") != 0 || !strings.Contains(string(th[3].Raw), `"type":"agent.thinking"`) {
		t.Errorf("thinking previews: %v", th)
	}
	all := both.until(idleWith("end_turn"))
	var text, msgID string
	for _, ev := range all {
		switch ev.Type {
		case "event_start":
			if strings.Contains(string(ev.Raw), "agent.message") {
				var start struct {
					Event struct{ ID string } `json:"event"`
				}
				_ = json.Unmarshal(ev.Raw, &start)
				msgID = start.Event.ID
			}
		case "event_delta":
			var d struct {
				EventID string `json:"event_id"`
				Delta   struct {
					Type    string `json:"type"`
					Index   *int   `json:"index"`
					Content struct{ Type, Text string }
				} `json:"delta"`
			}
			_ = json.Unmarshal(ev.Raw, &d)
			if d.EventID != msgID || d.Delta.Type != "content_delta" || d.Delta.Index == nil || *d.Delta.Index != 0 || d.Delta.Content.Type != "text" {
				t.Errorf("delta %s", ev.Raw)
			}
			text += d.Delta.Content.Text
		case "agent.message":
			if ev.ID != msgID || !strings.Contains(string(ev.Raw), `"text":"`+text+`"`) || text != "You said: think of a long enough answer" {
				t.Errorf("final %s after previews %q of %s", ev.Raw, text, msgID)
			}
		}
	}
	if count(all, "event_delta") < 3 {
		t.Errorf("%d deltas", count(all, "event_delta"))
	}
	for _, raw := range s.SessionEventLog(sess.ID) {
		if ev := decodeEvent(t, raw); strings.HasPrefix(ev.Type, "event_") {
			t.Errorf("stored preview %s", raw)
		}
	}
}

// TestSessionStreamFaults: cut, duplicates, replay across a reconnect,
// and error statuses on the stream route.
func TestSessionStreamFaults(t *testing.T) {
	s, a := sessionFixture(t)
	sess := newSession(t, s, a.ID, testEnvID)
	path := "/v1/sessions/" + sess.ID + "/events/stream"

	// A cut after 3 events: the client sees a broken body.
	s.InjectStreamFault(StreamFault{Path: "/v1/sessions/", CutAfterEvents: 3, Times: 1})
	cut := openStream(t, s, path, "")
	sendOK(t, s, sess.ID, msg("one"))
	for range 3 {
		if _, _, err := cut.next(); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := cut.next(); err == nil || errors.Is(err, io.EOF) {
		t.Errorf("after the cut: %v, want a broken stream", err)
	}
	settle(s)
	first := s.SessionEventLog(sess.ID)

	// Replay on connect: the 2 most recent stored events, newest first.
	s.InjectStreamFault(StreamFault{Path: path, ReplayOnConnect: 2, DuplicateEvents: true, Times: 1})
	dup := openStream(t, s, path, "")
	sendOK(t, s, sess.ID, msg("two"))
	idles := 0
	got := dup.until(func(ev simEvent) bool {
		if idleWith("end_turn")(ev) {
			idles++
		}
		return idles == 4 // the replayed one, then the new one, each twice
	})
	second := s.SessionEventLog(sess.ID)[len(first):]
	idOf := func(raw json.RawMessage) string { return decodeEvent(t, raw).ID }
	var want []string
	for _, raw := range append(first[len(first)-2:], second...) {
		want = append(want, idOf(raw), idOf(raw))
	}
	want[0], want[1], want[2], want[3] = want[2], want[3], want[0], want[1] // replayed newest first
	var gotIDs []string
	for _, ev := range got {
		gotIDs = append(gotIDs, ev.ID)
	}
	if diff := cmp.Diff(want, gotIDs); diff != "" {
		t.Errorf("replayed and duplicated (-want +got):\n%s", diff)
	}

	// An error event after 2 events ends the stream cleanly.
	s.InjectStreamFault(StreamFault{Path: path, ErrorAfterEvents: 2, Times: 1})
	errStream := openStream(t, s, path, "")
	sendOK(t, s, sess.ID, msg("three"))
	var names []string
	for {
		name, _, err := errStream.next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Errorf("error stream: %v", err)
			}
			break
		}
		names = append(names, name)
	}
	if diff := cmp.Diff([]string{"user.message", "session.status_running", "error"}, names); diff != "" {
		t.Errorf("error fault (-want +got):\n%s", diff)
	}
	settle(s)

	// Reconnects answered with 429 then 529, then a stream.
	s.InjectFault(Fault{Path: path, Statuses: []int{429, 529}})
	for _, want := range []int{429, 529, 200} {
		resp, _ := agentCall(t, s, "GET", path+"?x=1", "") // a bad query still meets the fault first
		if want == 200 {
			want = 400
		}
		if resp.StatusCode != want {
			t.Errorf("reconnect: %d, want %d", resp.StatusCode, want)
		}
	}
}

// TestSessionStreamPings: pings at the configured interval, counted by
// the stream faults.
func TestSessionStreamPings(t *testing.T) {
	s := newTestServer(t, WithSessionPingInterval(time.Millisecond))
	a := agentOK(t, s, "POST", "/v1/agents", `{"name":"a","model":"m"}`)
	envOK(t, s, "POST", "/v1/environments", `{"name":"cloud"}`)
	sess := newSession(t, s, a.ID, testEnvID)
	s.InjectStreamFault(StreamFault{Path: "/v1/sessions/", CutAfterEvents: 2})
	st := openStream(t, s, "/v1/sessions/"+sess.ID+"/events/stream", "")
	for range 2 {
		name, data, err := st.next()
		if err != nil || name != "ping" || string(data) != `{"type":"ping"}` {
			t.Fatalf("%s %s %v, want a ping", name, data, err)
		}
	}
	if _, _, err := st.next(); err == nil {
		t.Error("the stream went on after the cut")
	}
}

// TestSessionTerminateAndDelete: termination and deletion end the
// streams (the threads' too) after their event; a terminated session
// refuses events; an update emits only the changed fields.
func TestSessionTerminateAndDelete(t *testing.T) {
	s, a := sessionFixture(t)
	lead := agentOK(t, s, "POST", "/v1/agents", `{"name":"lead","model":"m","multiagent":{"type":"coordinator","agents":["`+a.ID+`"]}}`)
	sess := newSession(t, s, lead.ID, testEnvID)
	var threads cursorPage[threadWire]
	_, b := agentCall(t, s, "GET", "/v1/sessions/"+sess.ID+"/threads", "")
	_ = json.Unmarshal(b, &threads)
	st := openStream(t, s, "/v1/sessions/"+sess.ID+"/events/stream", "")
	tst := openStream(t, s, "/v1/sessions/"+sess.ID+"/threads/"+threads.Data[0].ID+"/stream", "")

	sessionOK(t, s, "POST", "/v1/sessions/"+sess.ID, `{"title":"new","metadata":{}}`)
	sessionOK(t, s, "POST", "/v1/sessions/"+sess.ID, `{"title":"new"}`) // no change, no event
	upd := st.until(func(simEvent) bool { return true })[0]
	if upd.Type != "session.updated" || strings.Contains(string(upd.Raw), "metadata") || !strings.Contains(string(upd.Raw), `"title":"new"`) {
		t.Errorf("update event %s", upd.Raw)
	}
	if err := s.TerminateSession(sess.ID); err != nil {
		t.Fatal(err)
	}
	for _, stream := range []*sseStream{st, tst} {
		stream.until(func(ev simEvent) bool { return ev.Type == "session.status_terminated" })
		if _, _, err := stream.next(); !errors.Is(err, io.EOF) {
			t.Errorf("after termination: %v, want the end", err)
		}
	}
	if got := sessionOK(t, s, "GET", "/v1/sessions/"+sess.ID, ""); got.Status != "terminated" {
		t.Errorf("status %s", got.Status)
	}
	if resp, b := sendEvents(t, s, sess.ID, msg("hi")); resp.StatusCode != 400 || !strings.Contains(string(b), "terminated") {
		t.Errorf("send to a terminated session: %d %s", resp.StatusCode, b)
	}
	if err := s.TerminateSession("sesn_nope"); err == nil {
		t.Error("terminating an unknown session")
	}

	other := newSession(t, s, a.ID, testEnvID)
	ost := openStream(t, s, "/v1/sessions/"+other.ID+"/events/stream", "")
	if resp, b := agentCall(t, s, "DELETE", "/v1/sessions/"+other.ID, ""); resp.StatusCode != 200 {
		t.Fatalf("delete %d %s", resp.StatusCode, b)
	}
	ost.until(func(ev simEvent) bool { return ev.Type == "session.deleted" })
	if _, _, err := ost.next(); !errors.Is(err, io.EOF) {
		t.Errorf("after deletion: %v, want the end", err)
	}
}

// TestSessionBudget: a turn that reaches the budget stops with
// budget_reached; then a message is refused and an interrupt accepted. A
// budget above the cost does not stop it.
func TestSessionBudget(t *testing.T) {
	s, a := sessionFixture(t)
	for _, tt := range []struct {
		amount string
		reason string
		status int
	}{
		{"0.00006", "budget_reached", 400}, // "hello" costs 6 tokens, 60 millionths
		{"0.000061", "end_turn", 200},
	} {
		t.Run(tt.amount, func(t *testing.T) {
			sess := sessionOK(t, s, "POST", "/v1/sessions", `{"agent":"`+a.ID+`","environment_id":"`+testEnvID+`","budget":{"type":"limit","max_list_cost":{"amount":"`+tt.amount+`","currency":"USD"}}}`)
			st := openStream(t, s, "/v1/sessions/"+sess.ID+"/events/stream", "")
			sendOK(t, s, sess.ID, msg("hello"))
			evs := st.until(func(ev simEvent) bool { return ev.Type == "session.status_idle" })
			if got := string(evs[len(evs)-1].StopReason); got != `{"type":"`+tt.reason+`"}` {
				t.Errorf("stop reason %s", got)
			}
			if !strings.Contains(string(evs[len(evs)-2].Raw), `"list_cost":{"amount":"0.000060","currency":"USD"}`) {
				t.Errorf("usage %s", evs[len(evs)-2].Raw)
			}
			if resp, b := sendEvents(t, s, sess.ID, msg("more")); resp.StatusCode != tt.status {
				t.Errorf("next message: %d %s", resp.StatusCode, b)
			}
			sendOK(t, s, sess.ID, `[{"type":"user.interrupt"}]`)
			settle(s)
		})
	}
}

// TestSessionCloseStopsEngines: Close stops an engine in the middle of
// a slow turn and ends the open streams (TestMain's goleak checks).
func TestSessionCloseStopsEngines(t *testing.T) {
	s := NewServer(WithSessionEventDelay(time.Hour))
	defer s.Close()
	a := agentOK(t, s, "POST", "/v1/agents", `{"name":"a","model":"m"}`)
	envOK(t, s, "POST", "/v1/environments", `{"name":"cloud"}`)
	sess := newSession(t, s, a.ID, testEnvID)
	st := openStream(t, s, "/v1/sessions/"+sess.ID+"/events/stream", "")
	sendOK(t, s, sess.ID, msg("hello"))
	if name, _, err := st.next(); err != nil || name != "user.message" {
		t.Fatalf("%s %v", name, err)
	}
	s.Close()
	if _, _, err := st.next(); err == nil {
		t.Error("the stream went on after Close")
	}
	if resp, err := http.Get(s.URL); err == nil {
		resp.Body.Close()
		t.Error("the server still answers")
	}
}

// TestSessionThreadInterrupt: an interrupt naming a thread abandons that
// thread's calls only; the turn goes on with the session's own.
func TestSessionThreadInterrupt(t *testing.T) {
	s, _ := sessionFixture(t)
	helper := agentOK(t, s, "POST", "/v1/agents", `{"name":"helper","model":"m","tools":[{"type":"custom","name":"lookup","description":"d","input_schema":{"type":"object"}}]}`)
	lead := agentOK(t, s, "POST", "/v1/agents", `{"name":"lead","model":"m","tools":[{"type":"custom","name":"weather","description":"d","input_schema":{"type":"object"}}],`+
		`"multiagent":{"type":"coordinator","agents":["`+helper.ID+`"]}}`)
	sess := newSession(t, s, lead.ID, testEnvID)
	st, evs := untilWaiting(t, s, sess.ID, "helper: lookup the weather")
	calls := map[string]simEvent{}
	for _, ev := range evs {
		if ev.Type == "agent.custom_tool_use" {
			calls[ev.Name] = ev
		}
	}
	var tid struct {
		ID string `json:"session_thread_id"`
	}
	_ = json.Unmarshal(calls["lookup"].Raw, &tid)
	sendOK(t, s, sess.ID, `[{"type":"user.interrupt","session_thread_id":"`+tid.ID+`"}]`)
	after := st.until(func(ev simEvent) bool { return ev.Type == "session.status_idle" })
	if got := string(after[len(after)-1].StopReason); got != `{"event_ids":["`+calls["weather"].ID+`"],"type":"requires_action"}` {
		t.Errorf("after the thread interrupt: %s", got)
	}
	if resp, b := sendEvents(t, s, sess.ID, `[{"type":"user.custom_tool_result","custom_tool_use_id":"`+calls["lookup"].ID+`","content":[{"type":"text","text":"x"}]}]`); resp.StatusCode != 400 {
		t.Errorf("answer to the abandoned call: %d %s", resp.StatusCode, b)
	}
	sendOK(t, s, sess.ID, `[{"type":"user.custom_tool_result","custom_tool_use_id":"`+calls["weather"].ID+`","content":[{"type":"text","text":"rain"}]}]`)
	st.until(idleWith("end_turn"))
	if got := thread(t, s, sess.ID, tid.ID); got.Status != "idle" {
		t.Errorf("thread status %s", got.Status)
	}
}

// TestSessionStreamReorderFault: Reorder writes the stored events in
// swapped pairs, and the stream's last event writes the waiting one first.
func TestSessionStreamReorderFault(t *testing.T) {
	s, a := sessionFixture(t)
	sess := newSession(t, s, a.ID, testEnvID)
	path := "/v1/sessions/" + sess.ID + "/events/stream"
	s.InjectStreamFault(StreamFault{Path: path, Reorder: true, Times: 1})
	st := openStream(t, s, path, "")
	sendOK(t, s, sess.ID, msg("one"))
	settle(s)
	if err := s.TerminateSession(sess.ID); err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		name, data, err := st.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if name != "ping" {
			got = append(got, decodeEvent(t, data).ID)
		}
	}
	var want []string
	log := s.SessionEventLog(sess.ID)
	for _, raw := range log {
		want = append(want, decodeEvent(t, raw).ID)
	}
	last := len(want) - 1 // session.status_terminated
	for i := 0; i+1 < last; i += 2 {
		want[i], want[i+1] = want[i+1], want[i]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reordered stream (-want +got):\n%s", diff)
	}
}
