package mmstest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	// scriptTools defines two custom tools.
	scriptTools = `"tools":[{"name":"lookup","input_schema":{"type":"object","properties":{"q":{"type":"string"},` +
		`"n":{"type":"integer"}},"required":["q","n"]}},{"name":"clock","input_schema":{"type":"object"}}],`
	webSearch = `{"type":"web_search_20250305","name":"web_search"}`
)

// blockTypes lists the types of a Message's content.
func blockTypes(m map[string]any) []string {
	var out []string
	for _, b := range m["content"].([]any) {
		out = append(out, b.(map[string]any)["type"].(string))
	}
	return out
}

// block returns the i-th content block of a Message.
func block(m map[string]any, i int) map[string]any {
	return m["content"].([]any)[i].(map[string]any)
}

// streamMessageOf posts body with "stream": true to s and accumulates the
// stream, which must succeed. The events are returned as sent (accumulate
// fills in the blocks of its own copy).
func streamMessageOf(t *testing.T, s *Server, body string) (map[string]any, []sseEvent) {
	t.Helper()
	resp, got := post(t, s, messagesPath, strings.Replace(body, "{", `{"stream":true,`, 1))
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, got)
	}
	return accumulate(t, parseSSE(t, string(got))), parseSSE(t, string(got))
}

// TestScriptOrder checks that create requests take the turns in order,
// that count_tokens takes none, that Script appends, and that the
// deterministic reply comes back once the script is used up.
func TestScriptOrder(t *testing.T) {
	s := newTestServer(t, WithScript(
		Turn{ToolCalls: []ToolCall{{Name: "lookup"}}},
		Turn{Text: "It is sunny."},
	))
	s.Script(Turn{ToolCalls: []ToolCall{{Name: "clock", Input: `{ "tz" : "UTC" }`}}, StopReason: "refusal"})
	body := create(scriptTools + `"messages":[{"role":"user","content":"Weather?"}]`)
	if resp, got := post(t, s, countPath, count(scriptTools+`"messages":[{"role":"user","content":"Weather?"}]`)); resp.StatusCode != 200 {
		t.Fatalf("count_tokens: %d %s", resp.StatusCode, got)
	}
	type summary struct {
		Types []string
		Stop  string
		Last  any // the last block's text or input
	}
	sum := func(m map[string]any) summary {
		last := block(m, len(m["content"].([]any))-1)
		v := last["text"]
		if last["type"] == "tool_use" {
			v = last["input"]
		}
		return summary{blockTypes(m), m["stop_reason"].(string), v}
	}
	var got []summary
	for range 4 {
		got = append(got, sum(postMessage(t, s, body)))
	}
	want := []summary{
		{[]string{"text", "tool_use"}, "tool_use", map[string]any{"q": "Weather?", "n": 1.0}},
		{[]string{"text"}, "end_turn", "It is sunny."},
		{[]string{"text", "tool_use"}, "refusal", map[string]any{"tz": "UTC"}},
		{[]string{"text"}, "end_turn", "You said: Weather?"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("replies (-want +got):\n%s", d)
	}
}

// TestScriptParallelCalls checks that a turn's calls come in order with
// fresh ids, and that their results sent back in one user turn pass the
// conversation rules while a missing one is refused.
func TestScriptParallelCalls(t *testing.T) {
	s := newTestServer(t, WithScript(Turn{ToolCalls: []ToolCall{{Name: "lookup", Input: `{"q":"a","n":2}`}, {Name: "clock"}}}))
	msg := postMessage(t, s, create(scriptTools+`"messages":[{"role":"user","content":"Go"}]`))
	if d := cmp.Diff([]string{"text", "tool_use", "tool_use"}, blockTypes(msg)); d != "" {
		t.Fatalf("blocks (-want +got):\n%s", d)
	}
	a, b := block(msg, 1), block(msg, 2)
	if a["name"] != "lookup" || b["name"] != "clock" || a["id"] == b["id"] || !strings.HasPrefix(a["id"].(string), "toolu_") {
		t.Errorf("calls %v, %v", a, b)
	}
	content := mustJSON(t, msg["content"])
	result := func(id any) string {
		return `{"type":"tool_result","tool_use_id":"` + id.(string) + `","content":"ok"}`
	}
	for _, tc := range []struct {
		name    string
		results string
		status  int
	}{
		{"both results in one turn", result(a["id"]) + "," + result(b["id"]), 200},
		{"one result missing", result(a["id"]), 400},
	} {
		resp, got := post(t, s, messagesPath, create(scriptTools+`"messages":[{"role":"user","content":"Go"},`+
			`{"role":"assistant","content":`+content+`},{"role":"user","content":[`+tc.results+`]}]`))
		if resp.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d: %s", tc.name, resp.StatusCode, tc.status, got)
		}
	}
}

// TestScriptWrongTurn checks that a turn the request cannot support is a
// 500 naming the turn, and that the next turn is still served.
func TestScriptWrongTurn(t *testing.T) {
	tests := []struct {
		name, tools string
		turn        Turn
		msg         string
	}{
		{"unknown tool", scriptTools, Turn{ToolCalls: []ToolCall{{Name: "clock"}, {Name: "weather"}}},
			`mmstest: scripted turn 1: tool call 1: the request defines no client tool "weather" (its client tools: lookup, clock)`},
		{"server tool is no custom tool", `"tools":[` + webSearch + `],`, Turn{ToolCalls: []ToolCall{{Name: "web_search"}}},
			`mmstest: scripted turn 1: tool call 0: the request defines no client tool "web_search" (its client tools: )`},
		{"input not an object", scriptTools, Turn{ToolCalls: []ToolCall{{Name: "clock", Input: `[1]`}}},
			"mmstest: scripted turn 1: tool call 0 (clock): Input is not a JSON object"},
		{"input not JSON", scriptTools, Turn{ToolCalls: []ToolCall{{Name: "clock", Input: `{`}}},
			"mmstest: scripted turn 1: tool call 0 (clock): Input is not a JSON object"},
		{"pause without server tool", scriptTools, Turn{PauseTurn: true},
			"mmstest: scripted turn 1: PauseTurn needs a server tool (web_search, web_fetch or code_execution) in the request's tools"},
		{"pause with calls", `"tools":[` + webSearch + `,{"name":"clock","input_schema":{"type":"object"}}],`,
			Turn{PauseTurn: true, ToolCalls: []ToolCall{{Name: "clock"}}}, "mmstest: scripted turn 1: PauseTurn cannot be combined with ToolCalls"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, WithScript(tt.turn, Turn{Text: "next"}))
			body := create(tt.tools + `"messages":[{"role":"user","content":"Go"}]`)
			resp, got := post(t, s, messagesPath, body)
			var e errorBody
			_ = json.Unmarshal(got, &e)
			if resp.StatusCode != 500 || e.Error.Type != "api_error" || e.Error.Message != tt.msg {
				t.Errorf("got %d %s\nwant 500 api_error %q", resp.StatusCode, got, tt.msg)
			}
			if m := postMessage(t, s, body); block(m, 0)["text"] != "next" {
				t.Errorf("next turn: %v", m["content"])
			}
		})
	}
}

// TestScriptPauseTurn checks a paused server tool call and its
// continuation for each server tool, streaming and not: the continuation
// starts with the tool's result, and the whole history, with its two
// consecutive assistant turns, goes back without a validation error.
func TestScriptPauseTurn(t *testing.T) {
	tests := []struct {
		tool, name, input string
		result            string // the result block's type
	}{
		{webSearch, "web_search", `{"query":"news"}`, "web_search_tool_result"},
		{`{"type":"web_fetch_20250910","name":"web_fetch"}`, "web_fetch", `{"url":"https://example.com/"}`, "web_fetch_tool_result"},
		{`{"type":"code_execution_20250825","name":"code_execution"}`, "code_execution", `{"code":"print(\"news\")"}`, "code_execution_tool_result"},
	}
	for _, tt := range tests {
		for _, stream := range []bool{false, true} {
			t.Run(tt.name+map[bool]string{false: "", true: "/stream"}[stream], func(t *testing.T) {
				s := newTestServer(t, WithScript(Turn{PauseTurn: true, Text: "Searching."}, Turn{Text: "Found it."}))
				send := func(messages string) map[string]any {
					body := create(`"tools":[` + tt.tool + `],"messages":` + messages)
					if !stream {
						return postMessage(t, s, body)
					}
					m, _ := streamMessageOf(t, s, body)
					return m
				}
				first := send(`[{"role":"user","content":"news"}]`)
				use := block(first, 1)
				if d := cmp.Diff([]string{"text", "server_tool_use"}, blockTypes(first)); d != "" || first["stop_reason"] != "pause_turn" {
					t.Fatalf("paused reply %v, stop %v", d, first["stop_reason"])
				}
				if use["name"] != tt.name || mustJSON(t, use["input"]) != tt.input || !strings.HasPrefix(use["id"].(string), "srvtoolu_") {
					t.Errorf("server_tool_use %v", use)
				}
				history := `[{"role":"user","content":"news"},{"role":"assistant","content":` + mustJSON(t, first["content"]) + `}`
				second := send(history + `]`)
				if d := cmp.Diff([]string{tt.result, "text"}, blockTypes(second)); d != "" || second["stop_reason"] != "end_turn" {
					t.Fatalf("continuation (-want +got):\n%s stop %v", d, second["stop_reason"])
				}
				if r := block(second, 0); r["tool_use_id"] != use["id"] || block(second, 1)["text"] != "Found it." {
					t.Errorf("continuation %v", second["content"])
				}
				third := send(history + `,{"role":"assistant","content":` + mustJSON(t, second["content"]) +
					`},{"role":"user","content":"thanks"}]`)
				if block(third, 0)["text"] != "You said: thanks" {
					t.Errorf("after the continuation: %v", third["content"])
				}
			})
		}
	}
}

// TestScriptPauseStreamEvents checks how the server blocks stream: a
// server_tool_use opens with input {} and fills it with input_json_delta;
// a result block is complete in its start event.
func TestScriptPauseStreamEvents(t *testing.T) {
	s := newTestServer(t, WithScript(Turn{PauseTurn: true}))
	tools := `"tools":[` + webSearch + `],`
	_, events := streamMessageOf(t, s, create(tools+`"messages":[{"role":"user","content":"news"}]`))
	var starts []any
	var deltas []string
	for _, ev := range events {
		switch ev.name {
		case "content_block_start":
			starts = append(starts, ev.data["content_block"])
		case "content_block_delta":
			deltas = append(deltas, ev.data["delta"].(map[string]any)["type"].(string))
		}
	}
	wantStart := []any{map[string]any{"type": "server_tool_use", "id": "srvtoolu_010000000000000000000001",
		"name": "web_search", "input": map[string]any{}, "caller": map[string]any{"type": "direct"}}}
	if d := cmp.Diff(wantStart, starts); d != "" {
		t.Errorf("starts (-want +got):\n%s", d)
	}
	for _, d := range deltas {
		if d != "input_json_delta" {
			t.Errorf("delta %s", d)
		}
	}
	paused := `[{"role":"user","content":"news"},{"role":"assistant","content":[{"type":"server_tool_use",` +
		`"id":"srvtoolu_010000000000000000000001","name":"web_search","input":{"query":"news"}}]}]`
	_, events = streamMessageOf(t, s, create(tools+`"messages":`+paused))
	first := events[1]
	want := map[string]any{"type": "web_search_tool_result", "tool_use_id": "srvtoolu_010000000000000000000001",
		"caller": map[string]any{"type": "direct"}, "content": []any{map[string]any{"type": "web_search_result",
			"title": "Result for news", "url": "https://example.com/search?q=news", "encrypted_content": "mmstest-result-1",
			"page_age": nil}}}
	if d := cmp.Diff(want, first.data["content_block"]); first.name != "content_block_start" || d != "" {
		t.Errorf("first block event %s (-want +got):\n%s", first.name, d)
	}
	if events[2].name != "ping" || events[3].name != "content_block_stop" {
		t.Errorf("result block followed by %s, %s; want no deltas", events[2].name, events[3].name)
	}
}

// TestScriptThinkingAndLimits checks that thinking, stop sequences and
// max_tokens apply to scripted replies as to others.
func TestScriptThinkingAndLimits(t *testing.T) {
	s := newTestServer(t, WithScript(
		Turn{PauseTurn: true},
		Turn{Text: "one STOP two"},
		Turn{ToolCalls: []ToolCall{{Name: "clock"}}},
	))
	tools := `"tools":[` + webSearch + `,{"name":"clock","input_schema":{"type":"object"}}],`
	m := postMessage(t, s, create(tools+`"thinking":{"type":"enabled","budget_tokens":1024},"messages":[{"role":"user","content":"Go"}]`))
	if d := cmp.Diff([]string{"thinking", "server_tool_use"}, blockTypes(m)); d != "" {
		t.Errorf("thinking pause (-want +got):\n%s", d)
	}
	m = postMessage(t, s, create(tools+`"stop_sequences":["STOP"],"messages":[{"role":"user","content":"Go"}]`))
	if block(m, 0)["text"] != "one " || m["stop_reason"] != "stop_sequence" {
		t.Errorf("stop sequence: %v %v", m["content"], m["stop_reason"])
	}
	m = postMessage(t, s, `{"model":"mms-large-1","max_tokens":3,`+tools+`"messages":[{"role":"user","content":"Go"}]}`)
	if d := cmp.Diff([]string{"text"}, blockTypes(m)); d != "" || m["stop_reason"] != "max_tokens" {
		t.Errorf("max_tokens: %v %v", m["content"], m["stop_reason"])
	}
}

// TestConversationMergedTurns checks the conversation rules on the
// histories a tool runner sends: consecutive assistant turns count as one,
// a trailing assistant turn may end with an unanswered server_tool_use,
// and the rules on client tool calls still hold on the merged view.
func TestConversationMergedTurns(t *testing.T) {
	use := `{"type":"tool_use","id":"toolu_1","name":"clock","input":{}}`
	srv := `{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"q"}}`
	res := `{"type":"tool_result","tool_use_id":"toolu_1","content":"noon"}`
	think := `{"type":"thinking","thinking":"hm","signature":"opaque"}`
	tools := `"tools":[` + webSearch + `,{"name":"clock","input_schema":{"type":"object"}}],`
	msgs := func(turns ...string) string { return `"messages":[` + strings.Join(turns, ",") + `]` }
	user := func(c string) string { return `{"role":"user","content":` + c + `}` }
	asst := func(blocks ...string) string {
		return `{"role":"assistant","content":[` + strings.Join(blocks, ",") + `]}`
	}
	tests := []struct {
		name, members string
		status        int
	}{
		{"trailing unanswered server_tool_use", msgs(user(`"q"`), asst(srv)), 200},
		{"trailing merged assistant turns", msgs(user(`"q"`), asst(`{"type":"text","text":"a"}`), asst(srv)), 200},
		{"tool_use answered after merged assistant turns", msgs(user(`"q"`), asst(use), asst(`{"type":"text","text":"b"}`), user(`[`+res+`]`)), 200},
		{"tool_use unanswered after merged assistant turns", msgs(user(`"q"`), asst(use), asst(`{"type":"text","text":"b"}`), user(`"next"`)), 400},
		{"results split over merged user turns", msgs(user(`"q"`), asst(use), user(`[`+res+`]`), user(`"more"`)), 200},
		{"thinking: merged trailing turn starts with thinking", `"thinking":{"type":"enabled","budget_tokens":1024},` +
			msgs(user(`"q"`), asst(think), asst(srv)), 200},
		{"thinking: merged trailing turn without thinking first", `"thinking":{"type":"enabled","budget_tokens":1024},` +
			msgs(user(`"q"`), asst(srv), asst(think)), 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, got := post(t, newTestServer(t), messagesPath, create(tools+tt.members))
			if resp.StatusCode != tt.status {
				t.Errorf("status %d, want %d: %s", resp.StatusCode, tt.status, got)
			}
		})
	}
}

// TestScriptNotTakenByBatches checks that batch items get the
// deterministic reply and leave the script to create requests.
func TestScriptNotTakenByBatches(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now), WithScript(Turn{Text: "scripted"}))
	b := createBatch(t, s, batchBody("a", hiParams("one"), "b", hiParams("two")))
	clock.Advance(DefaultBatchProcessingTime)
	for _, line := range resultsOf(t, s, b.ID) {
		if r := string(line["result"]); !strings.Contains(r, `"text":"You said: `) {
			t.Errorf("batch result %s", r)
		}
	}
	if m := postMessage(t, s, create(`"messages":`+hi)); block(m, 0)["text"] != "scripted" {
		t.Errorf("create after the batch: %v", m["content"])
	}
}
