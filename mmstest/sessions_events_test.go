package mmstest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// simEvent is the part of an event the tests look at.
type simEvent struct {
	ID          string          `json:"id"`
	Type        string          `json:"type"`
	ProcessedAt *string         `json:"processed_at"`
	StopReason  json.RawMessage `json:"stop_reason"`
	Name        string          `json:"name"`
	Raw         json.RawMessage `json:"-"`
}

func decodeEvent(t *testing.T, raw []byte) simEvent {
	t.Helper()
	var ev simEvent
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatalf("event %s: %v", raw, err)
	}
	ev.Raw = raw
	return ev
}

// typesOf lists the types of events.
func typesOf(t *testing.T, evs []json.RawMessage) []string {
	t.Helper()
	var out []string
	for _, raw := range evs {
		out = append(out, decodeEvent(t, raw).Type)
	}
	return out
}

// settle waits until no session engine runs: every session has taken all
// its input and none waits for an answer. Nothing may send events while it
// waits.
func settle(s *Server) { s.sessions.wg.Wait() }

// sseStream reads a session event stream.
type sseStream struct {
	t      *testing.T
	resp   *http.Response
	rd     *bufio.Reader
	cancel context.CancelFunc
}

// openStream opens path (a stream endpoint) with the managed-agents beta
// and the API key, or with bearer when it is set.
func openStream(t *testing.T, s *Server, path, bearer string) *sseStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req := newReq(t, s, http.MethodGet, path, nil).WithContext(ctx)
	req.Header.Set(wire.HeaderBeta, wire.BetaManagedAgents)
	if bearer != "" {
		req.Header.Del(wire.HeaderAPIKey)
		req.Header.Set(wire.HeaderAuthorization, "Bearer "+bearer)
	}
	resp, err := s.Client().Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	st := &sseStream{t: t, resp: resp, rd: bufio.NewReader(resp.Body), cancel: cancel}
	t.Cleanup(st.close)
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("stream %s: %d %s", path, resp.StatusCode, b)
	}
	return st
}

func (st *sseStream) close() {
	st.cancel()
	st.resp.Body.Close()
}

// next returns the next event's name and data; err is io.EOF at a clean
// end of the stream.
func (st *sseStream) next() (name string, data []byte, err error) {
	for {
		line, err := st.rd.ReadString('\n')
		if err != nil {
			if err == io.EOF && line == "" && name == "" {
				return "", nil, io.EOF
			}
			return "", nil, fmt.Errorf("stream broken: %w", err)
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "" && name != "":
			return name, data, nil
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = []byte(strings.TrimPrefix(line, "data: "))
		}
	}
}

// until reads events, pings skipped, up to and including the first one
// for which stop is true, and returns them.
func (st *sseStream) until(stop func(simEvent) bool) []simEvent {
	st.t.Helper()
	var out []simEvent
	for {
		name, data, err := st.next()
		if err != nil {
			st.t.Fatalf("after %d events: %v", len(out), err)
		}
		if name == "ping" {
			continue
		}
		ev := decodeEvent(st.t, data)
		if ev.Type != name {
			st.t.Fatalf("event named %q carries type %q", name, ev.Type)
		}
		out = append(out, ev)
		if stop(ev) {
			return out
		}
	}
}

// idleWith reports a session.status_idle whose stop reason has type reason.
func idleWith(reason string) func(simEvent) bool {
	return func(ev simEvent) bool {
		return ev.Type == "session.status_idle" && strings.Contains(string(ev.StopReason), `"type":"`+reason+`"`)
	}
}

// sendEvents posts events (a JSON list) to a session.
func sendEvents(t *testing.T, s *Server, sessionID, events string) (*http.Response, []byte) {
	t.Helper()
	return agentCall(t, s, "POST", "/v1/sessions/"+sessionID+"/events", `{"events":`+events+`}`)
}

// sendOK posts events and returns the stored ones.
func sendOK(t *testing.T, s *Server, sessionID, events string) []simEvent {
	t.Helper()
	resp, b := sendEvents(t, s, sessionID, events)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("send %s: %d %s", events, resp.StatusCode, b)
	}
	var out struct {
		Data []json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	var evs []simEvent
	for _, raw := range out.Data {
		evs = append(evs, decodeEvent(t, raw))
	}
	return evs
}

// untilWaiting opens the session's stream, sends a user.message of text
// and reads up to the idle that names the calls waiting.
func untilWaiting(t *testing.T, s *Server, sessionID, text string) (*sseStream, []simEvent) {
	t.Helper()
	st := openStream(t, s, "/v1/sessions/"+sessionID+"/events/stream", "")
	sendOK(t, s, sessionID, msg(text))
	return st, st.until(idleWith("requires_action"))
}

const userMsg = `{"type":"user.message","content":[{"type":"text","text":%q}]}`

func msg(text string) string { return fmt.Sprintf("["+userMsg+"]", text) }

// newSession creates a session of agentID in envID.
func newSession(t *testing.T, s *Server, agentID, envID string) sessionWire {
	t.Helper()
	return sessionOK(t, s, "POST", "/v1/sessions", `{"agent":"`+agentID+`","environment_id":"`+envID+`"}`)
}

// TestSessionEventsSend: the stored answer of each kind (ids, queued or
// processed, the interrupt's empty id) and the engine taking the queued
// ones.
func TestSessionEventsSend(t *testing.T) {
	s, a := sessionFixture(t)
	sess := newSession(t, s, a.ID, testEnvID)
	got := sendOK(t, s, sess.ID, `[`+fmt.Sprintf(userMsg, "hi")+`,{"type":"system.message","content":[{"type":"text","text":"be kind"}]}]`)
	got = append(got, sendOK(t, s, sess.ID, `[{"type":"user.define_outcome","description":"d","rubric":{"type":"text","content":"c"}},{"type":"user.interrupt"}]`)...)
	type row struct {
		Type      string
		IDPrefix  string
		Processed bool
	}
	var rows []row
	for _, ev := range got {
		prefix, _, _ := strings.Cut(ev.ID, "_")
		rows = append(rows, row{ev.Type, prefix, ev.ProcessedAt != nil})
	}
	want := []row{{"user.message", "sevt", false}, {"system.message", "sevt", false}, {"user.define_outcome", "sevt", true}, {"user.interrupt", "", false}}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("stored events (-want +got):\n%s", diff)
	}
	settle(s)
	for _, raw := range s.SessionEventLog(sess.ID) {
		if ev := decodeEvent(t, raw); ev.ProcessedAt == nil {
			t.Errorf("event still queued after the engine settled: %s", raw)
		}
	}
}

// TestSessionEventsSendRules: each rule of the send body on both sides.
func TestSessionEventsSendRules(t *testing.T) {
	s, _ := sessionFixture(t)
	tools := `[{"type":"custom","name":"weather","description":"d","input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}},` +
		`{"type":"agent_toolset_20260401","configs":[{"name":"read","permission_policy":{"type":"always_ask"}}]}]`
	a := agentOK(t, s, "POST", "/v1/agents", `{"name":"tooled","model":"m","tools":`+tools+`}`)
	sess := newSession(t, s, a.ID, testEnvID)
	_, evs := untilWaiting(t, s, sess.ID, "weather twice, read and edit")
	var customID, askID string
	for _, ev := range evs {
		switch {
		case ev.Type == "agent.custom_tool_use":
			customID = ev.ID
		case ev.Type == "agent.tool_use" && ev.Name == "read":
			askID = ev.ID
		}
	}
	if customID == "" || askID == "" {
		t.Fatalf("no waiting calls in %v", evs)
	}
	result := func(id, content string) string {
		return `[{"type":"user.custom_tool_result","custom_tool_use_id":"` + id + `","content":` + content + `}]`
	}
	text := `[{"type":"text","text":"sunny"}]`
	for _, tt := range []struct {
		name, events string
		status       int
		msg          string
	}{
		{"no events", `[]`, 400, "events: List should have at least 1 item"},
		{"unknown type", `[{"type":"user.wave"}]`, 400, "events.0.type"},
		{"unknown member", `[{"type":"user.interrupt","color":"red"}]`, 400, "events.0.color: Extra inputs"},
		{"message without content", `[{"type":"user.message"}]`, 400, "events.0.content"},
		{"message empty text", `[{"type":"user.message","content":[{"type":"text","text":""}]}]`, 400, "events.0.content.0.text"},
		{"interrupt unknown thread", `[{"type":"user.interrupt","session_thread_id":"sthr_nope"}]`, 400, "session_thread_id"},
		{"outcome max_iterations 21", `[{"type":"user.define_outcome","description":"d","rubric":{"type":"text","content":"c"},"max_iterations":21}]`, 400, "max_iterations"},
		{"confirmation unknown call", `[{"type":"user.tool_confirmation","tool_use_id":"sevt_nope","result":"allow"}]`, 400, "sevt_nope"},
		{"confirmation of a custom call", `[{"type":"user.tool_confirmation","tool_use_id":"` + customID + `","result":"allow"}]`, 400, customID},
		{"confirmation bad result", `[{"type":"user.tool_confirmation","tool_use_id":"` + askID + `","result":"maybe"}]`, 400, "result"},
		{"confirmation without id", `[{"type":"user.tool_confirmation","result":"allow"}]`, 400, "tool_use_id: Field required"},
		{"deny_message with allow", `[{"type":"user.tool_confirmation","tool_use_id":"` + askID + `","result":"allow","deny_message":"no"}]`, 400, "deny_message"},
		{"result of an ask call", result(askID, text), 400, askID},
		{"result without content", `[{"type":"user.custom_tool_result","custom_tool_use_id":"` + customID + `"}]`, 400, "non-empty content"},
		{"result of empty text", result(customID, `[{"type":"text","text":""}]`), 400, "non-empty content"},
		{"result block member", result(customID, `[{"type":"text","text":"a","x":1}]`), 400, "content.0.x"},
		{"result block type", result(customID, `[{"type":"video"}]`), 400, "content.0.type"},
		{"tool_result on cloud", `[{"type":"user.tool_result","tool_use_id":"` + askID + `","content":` + text + `}]`, 400, "self_hosted"},
		{"result twice", `[` + strings.Trim(result(customID, text), "[]") + `,` + strings.Trim(result(customID, text), "[]") + `]`, 400, "events.1.custom_tool_use_id"},
		{"system first", `[{"type":"system.message","content":[{"type":"text","text":"s"}]}]`, 400, "directly follow"},
		{"system not last", `[` + fmt.Sprintf(userMsg, "a") + `,{"type":"system.message","content":[{"type":"text","text":"s"}]},` + fmt.Sprintf(userMsg, "b") + `]`, 400, "last event"},
		{"system non-text", `[` + fmt.Sprintf(userMsg, "a") + `,{"type":"system.message","content":[{"type":"image","source":{}}]}]`, 400, "events.1.content.0"},
		// The accepted sides; each answers its call once.
		{"result", result(customID, text), 200, `"custom_tool_use_id":"` + customID + `"`},
		{"result again", result(customID, text), 400, customID},
		{"deny with message", `[{"type":"user.tool_confirmation","tool_use_id":"` + askID + `","result":"deny","deny_message":"no"}]`, 200, `"deny_message":"no"`},
		{"system after a message", `[` + fmt.Sprintf(userMsg, "a") + `,{"type":"system.message","content":[{"type":"text","text":"s"}]}]`, 200, `"type":"system.message"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, b := sendEvents(t, s, sess.ID, tt.events)
			if resp.StatusCode != tt.status || !strings.Contains(string(b), tt.msg) {
				t.Errorf("%d %s, want %d containing %q", resp.StatusCode, b, tt.status, tt.msg)
			}
		})
	}
	resp, b := sendEvents(t, s, "sesn_nope", msg("hi"))
	wantError(t, resp, b, http.StatusNotFound, wire.ErrNotFound, "Session not found")
}

// TestSessionEventsSelfHostedResults: in a self-hosted environment an
// allowed built-in tool waits for user.tool_result, and so does an asked
// one once allowed; user.tool_result needs a waiting call.
func TestSessionEventsSelfHostedResults(t *testing.T) {
	s, _ := sessionFixture(t)
	self := envOK(t, s, "POST", "/v1/environments", `{"name":"s","config":{"type":"self_hosted"}}`)
	a := agentOK(t, s, "POST", "/v1/agents", `{"name":"sh","model":"m","tools":[{"type":"agent_toolset_20260401",`+
		`"default_config":{"enabled":false},"configs":[{"name":"bash","enabled":true},{"name":"grep","enabled":true,"permission_policy":{"type":"always_ask"}}]}]}`)
	sess := newSession(t, s, a.ID, self.ID)
	st, evs := untilWaiting(t, s, sess.ID, "bash then grep")
	calls := map[string]string{}
	for _, ev := range evs {
		if ev.Type == "agent.tool_use" {
			calls[ev.Name] = ev.ID
			if want := map[string]string{"bash": `"evaluated_permission":"allow"`, "grep": `"evaluated_permission":"ask"`}[ev.Name]; !strings.Contains(string(ev.Raw), want) {
				t.Errorf("%s: %s, want %s", ev.Name, ev.Raw, want)
			}
		}
	}
	if len(calls) != 2 {
		t.Fatalf("calls %v, want bash and grep only", calls)
	}
	toolResult := func(id string) string {
		return `[{"type":"user.tool_result","tool_use_id":"` + id + `","content":[{"type":"text","text":"done"}],"is_error":false}]`
	}
	if resp, b := sendEvents(t, s, sess.ID, toolResult(calls["grep"])); resp.StatusCode != 400 || !strings.Contains(string(b), calls["grep"]) {
		t.Errorf("result before the confirmation: %d %s", resp.StatusCode, b)
	}
	// Each answer waits for the idle it causes: an answer arrives
	// processed, so one sent earlier would come before that idle.
	var types []string
	for _, answer := range []string{toolResult(calls["bash"]), `[{"type":"user.tool_confirmation","tool_use_id":"` + calls["grep"] + `","result":"allow"}]`, toolResult(calls["grep"])} {
		sendOK(t, s, sess.ID, answer)
		for _, ev := range st.until(func(ev simEvent) bool { return ev.Type == "session.status_idle" }) {
			types = append(types, ev.Type)
		}
	}
	want := []string{"user.tool_result", "session.status_idle", "user.tool_confirmation", "session.status_idle", "user.tool_result",
		"session.status_running", "span.model_request_start", "agent.message", "span.model_request_end", "session.usage", "session.status_idle"}
	if diff := cmp.Diff(want, types); diff != "" {
		t.Errorf("after the answers (-want +got):\n%s", diff)
	}
}

// TestSessionEventsList: order, types[], created_at bounds against
// processed_at (a queued event matches none), paging, unknown parameters,
// and a thread's list.
func TestSessionEventsList(t *testing.T) {
	clock := NewManualClock(time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC))
	s := newTestServer(t, WithManualClock(clock))
	a := agentOK(t, s, "POST", "/v1/agents", `{"name":"a","model":"m"}`)
	envOK(t, s, "POST", "/v1/environments", `{"name":"cloud"}`)
	sess := newSession(t, s, a.ID, testEnvID)
	sendOK(t, s, sess.ID, msg("one"))
	settle(s)
	clock.Advance(time.Hour)
	sendOK(t, s, sess.ID, msg("two"))
	settle(s)
	all := s.SessionEventLog(sess.ID)
	if len(all) != 14 {
		t.Fatalf("%d events, want 14: %v", len(all), typesOf(t, all))
	}
	list := func(query string) (int, []string, *string) {
		resp, b := agentCall(t, s, "GET", "/v1/sessions/"+sess.ID+"/events?"+query, "")
		var page cursorPage[json.RawMessage]
		if resp.StatusCode != 200 {
			return resp.StatusCode, []string{string(b)}, nil
		}
		if err := json.Unmarshal(b, &page); err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, raw := range page.Data {
			ids = append(ids, decodeEvent(t, raw).ID)
		}
		return 200, ids, page.NextPage
	}
	idsOf := func(evs []json.RawMessage) []string {
		var out []string
		for _, raw := range evs {
			out = append(out, decodeEvent(t, raw).ID)
		}
		return out
	}
	reversed := idsOf(all)
	for i, j := 0, len(reversed)-1; i < j; i, j = i+1, j-1 {
		reversed[i], reversed[j] = reversed[j], reversed[i]
	}
	secondHour := "2026-05-01T10:00:00Z"
	for _, tt := range []struct {
		name, query string
		want        []string
	}{
		{"default", "limit=100", idsOf(all)},
		{"asc", "limit=100&order=asc", idsOf(all)},
		{"desc", "limit=100&order=desc", reversed},
		{"types", "types[]=user.message&types[]=session.status_idle", idsOf([]json.RawMessage{all[0], all[6], all[7], all[13]})},
		{"gte second hour", "limit=100&created_at[gte]=" + secondHour, idsOf(all[7:])},
		{"gt second hour", "created_at[gt]=" + secondHour, nil},
		{"lt second hour", "limit=100&created_at[lt]=" + secondHour, idsOf(all[:7])},
		{"lte second hour", "limit=100&created_at[lte]=" + secondHour, idsOf(all)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, got, _ := list(tt.query)
			if diff := cmp.Diff(tt.want, got); status != 200 || diff != "" {
				t.Errorf("%d (-want +got):\n%s", status, diff)
			}
		})
	}
	_, first, next := list("limit=5")
	_, second, _ := list("limit=100&page=" + *next)
	if diff := cmp.Diff(idsOf(all), append(first, second...)); diff != "" {
		t.Errorf("paged (-want +got):\n%s", diff)
	}
	for _, q := range []string{"after_id=x", "order=up", "created_at[gt]=yesterday", "limit=0", "limit=101", "page=nonsense"} {
		if status, _, _ := list(q); status != 400 {
			t.Errorf("%s: %d, want 400", q, status)
		}
	}
	if status, _, _ := list("limit=100"); status != 200 {
		t.Errorf("limit=100: %d", status)
	}
	// A queued event has no processed_at: no created_at bound matches it.
	queued := sessionOK(t, s, "POST", "/v1/sessions", `{"agent":"`+a.ID+`","environment_id":"`+testEnvID+`"}`)
	s.sessions.mu.Lock()
	qs := s.sessions.find(queued.ID)
	ev := s.sessions.newEvent("user.message", "", map[string]any{"content": []textWire{{"text", "x"}}, "processed_at": nil})
	s.sessions.append(qs, &qs.log, ev)
	s.sessions.mu.Unlock()
	resp, b := agentCall(t, s, "GET", "/v1/sessions/"+queued.ID+"/events?created_at[lte]=2030-01-01T00:00:00Z", "")
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"data":[]`) {
		t.Errorf("queued event matched a bound: %s", b)
	}
	resp, b = agentCall(t, s, "GET", "/v1/sessions/"+queued.ID+"/events", "")
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"processed_at":null`) {
		t.Errorf("queued event unlisted: %s", b)
	}
}

// TestSessionEventsStreamRules: the stream's query, a terminated
// session's stream ends after the headers, unknown sessions and threads.
func TestSessionEventsStreamRules(t *testing.T) {
	s, a := sessionFixture(t)
	sess := newSession(t, s, a.ID, testEnvID)
	for _, tt := range []struct {
		name, path string
		status     int
		msg        string
	}{
		{"bad delta", "/v1/sessions/" + sess.ID + "/events/stream?event_deltas[]=agent.tool_use", 400, "event_deltas"},
		{"unknown parameter", "/v1/sessions/" + sess.ID + "/events/stream?from=1", 400, "from"},
		{"unknown session", "/v1/sessions/sesn_nope/events/stream", 404, "Session not found"},
		{"unknown thread", "/v1/sessions/" + sess.ID + "/threads/sthr_nope/stream", 404, "thread not found"},
		{"thread list unknown parameter", "/v1/sessions/" + sess.ID + "/threads/sthr_nope/events?order=asc", 400, "order"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, b := agentCall(t, s, "GET", tt.path, "")
			if resp.StatusCode != tt.status || !strings.Contains(string(b), tt.msg) {
				t.Errorf("%d %s, want %d containing %q", resp.StatusCode, b, tt.status, tt.msg)
			}
		})
	}
	if err := s.TerminateSession(sess.ID); err != nil {
		t.Fatal(err)
	}
	st := openStream(t, s, "/v1/sessions/"+sess.ID+"/events/stream?event_deltas[]=agent.message", "")
	if _, _, err := st.next(); !errors.Is(err, io.EOF) {
		t.Errorf("stream of a terminated session: %v, want a clean end", err)
	}
}

// TestSessionsTokenAuth: a self-hosted work item's sessions_token drives
// its own session and nothing else.
func TestSessionsTokenAuth(t *testing.T) {
	s, a := sessionFixture(t)
	self := envOK(t, s, "POST", "/v1/environments", `{"name":"s","config":{"type":"self_hosted"}}`)
	sess := newSession(t, s, a.ID, self.ID)
	other := newSession(t, s, a.ID, self.ID)
	cloud := newSession(t, s, a.ID, testEnvID)
	token := "sk-session-" + sess.ID
	call := func(method, path, token, body string) int {
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req := newReq(t, s, method, path, rd)
		req.Header.Del(wire.HeaderAPIKey)
		req.Header.Set(wire.HeaderAuthorization, "Bearer "+token)
		req.Header.Set(wire.HeaderBeta, wire.BetaManagedAgents)
		resp, b := send(t, s, req)
		if strings.Contains(string(b), token) {
			t.Errorf("%s %s: the token is echoed: %s", method, path, b)
		}
		return resp.StatusCode
	}
	base := "/v1/sessions/" + sess.ID
	for _, tt := range []struct {
		name, method, path, token, body string
		status                          int
	}{
		{"get own session", "GET", base, token, "", 200},
		{"list own events", "GET", base + "/events", token, "", 200},
		{"send own events", "POST", base + "/events", token, `{"events":[{"type":"user.interrupt"}]}`, 200},
		{"own threads", "GET", base + "/threads", token, "", 200},
		{"delete own session", "DELETE", base, token, "", 401},
		{"update own session", "POST", base, token, `{}`, 401},
		{"own resources", "GET", base + "/resources", token, "", 401},
		{"other session", "GET", "/v1/sessions/" + other.ID, token, "", 401},
		{"other session events", "GET", "/v1/sessions/" + other.ID + "/events", token, "", 401},
		{"session list", "GET", "/v1/sessions", token, "", 401},
		{"agents", "GET", "/v1/agents", token, "", 401},
		{"cloud session's made-up token", "GET", "/v1/sessions/" + cloud.ID, "sk-session-" + cloud.ID, "", 401},
		{"unknown session's token", "GET", "/v1/sessions/sesn_nope", "sk-session-sesn_nope", "", 401},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := call(tt.method, tt.path, tt.token, tt.body); got != tt.status {
				t.Errorf("%d, want %d", got, tt.status)
			}
		})
	}
	st := openStream(t, s, base+"/events/stream", token)
	sendOK(t, s, sess.ID, msg("hi"))
	st.until(idleWith("end_turn"))
}
