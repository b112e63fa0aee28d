package mmstest

import (
	"encoding/json"
	"strings"
	"testing"
)

const (
	computerToolset = `{"type":"computer_toolset_20260801","configs":{"zoom":{"enabled":false}}}`
	browserToolset  = `{"type":"browser_toolset_20260801"}`
	toolsetTools    = `"tools":[` + computerToolset + `,` + browserToolset + `],`
)

// TestScriptToolsetCalls: a scripted toolset call comes back as a tool_use
// with toolset_name and the action as name, streaming or not, and the
// conversation with its result goes back.
func TestScriptToolsetCalls(t *testing.T) {
	turn := Turn{ToolCalls: []ToolCall{
		{Toolset: "computer", Name: "left_click", Input: `{"coordinate":[10, 20]}`},
		{Toolset: "browser", Name: "list_tabs"},
	}}
	s := newTestServer(t, WithScript(turn, turn))
	body := create(toolsetTools + `"messages":[{"role":"user","content":"Go"}]`)
	stream, _ := streamMessageOf(t, s, body)
	for _, m := range []map[string]any{postMessage(t, s, body), stream} {
		if m["stop_reason"] != "tool_use" {
			t.Fatalf("stop_reason %v", m["stop_reason"])
		}
		a, b := block(m, 1), block(m, 2)
		if a["toolset_name"] != "computer" || a["name"] != "left_click" || mustJSON(t, a["input"]) != `{"coordinate":[10,20]}` {
			t.Errorf("computer call %v", a)
		}
		if b["toolset_name"] != "browser" || b["name"] != "list_tabs" || mustJSON(t, b["input"]) != `{}` {
			t.Errorf("browser call %v", b)
		}
		result := `{"type":"tool_result","tool_use_id":"` + b["id"].(string) + `","toolset_name":"browser","content":[` +
			`{"type":"browser_state","tabs":[{"tab_id":"t1","title":"A","url":"https://a.example/","active":true}]}]},` +
			`{"type":"tool_result","tool_use_id":"` + a["id"].(string) + `","toolset_name":"computer","content":"done"}`
		postMessage(t, s, create(toolsetTools+`"messages":[{"role":"user","content":"Go"},{"role":"assistant","content":`+
			mustJSON(t, m["content"])+`},{"role":"user","content":[`+result+`]}]`))
	}
}

// TestScriptToolsetWrongCall: a toolset call the request cannot carry is
// a 500 naming the turn.
func TestScriptToolsetWrongCall(t *testing.T) {
	tests := []struct {
		name, tools string
		call        ToolCall
		msg         string
	}{
		{"toolset not declared", `"tools":[` + browserToolset + `],`, ToolCall{Toolset: "computer", Name: "screenshot"},
			"tool call 0 (computer screenshot): the request declares no computer toolset"},
		{"not a member", toolsetTools, ToolCall{Toolset: "browser", Name: "teleport"},
			`tool call 0 (browser teleport): "teleport" is not an action of the browser toolset`},
		{"disabled", toolsetTools, ToolCall{Toolset: "computer", Name: "zoom", Input: `{"region":[0,0,1,1]}`},
			"tool call 0 (computer zoom): the request's computer toolset disables zoom (configs.zoom.enabled is false)"},
		{"other toolset", toolsetTools, ToolCall{Toolset: "mcp", Name: "x"},
			`tool call 0 (mcp x): Toolset "mcp" is not computer or browser`},
		{"input not an object", toolsetTools, ToolCall{Toolset: "browser", Name: "navigate", Input: `"https://a.example/"`},
			"tool call 0 (browser navigate): Input is not a JSON object"},
		{"toolset is no client tool", toolsetTools, ToolCall{Name: ""},
			`tool call 0: the request defines no client tool "" (its client tools: )`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, WithScript(Turn{ToolCalls: []ToolCall{tt.call}}))
			resp, got := post(t, s, messagesPath, create(tt.tools+`"messages":[{"role":"user","content":"Go"}]`))
			var e errorBody
			_ = json.Unmarshal(got, &e)
			if want := "mmstest: scripted turn 1: " + tt.msg; resp.StatusCode != 500 || e.Error.Message != want {
				t.Errorf("got %d %s\nwant 500 %q", resp.StatusCode, got, want)
			}
		})
	}
}

// TestBrowserStateRules: each browser_state rule, on both sides.
func TestBrowserStateRules(t *testing.T) {
	tab := func(id string, active bool) string {
		a := ""
		if active {
			a = `,"active":true`
		}
		return `{"tab_id":"` + id + `","title":"T","url":"https://a.example/"` + a + `}`
	}
	state := func(tabs string, extra string) string {
		return `{"type":"browser_state","tabs":[` + tabs + `]` + extra + `}`
	}
	use := func(id, toolset string) string {
		ts := ""
		if toolset != "" {
			ts = `,"toolset_name":"` + toolset + `"`
		}
		return `{"type":"tool_use","id":"` + id + `","name":"navigate","input":{}` + ts + `}`
	}
	result := func(id, content, extra string) string {
		return `{"type":"tool_result","tool_use_id":"` + id + `","content":[` + content + `]` + extra + `}`
	}
	one := state(tab("t1", true), "")
	tests := []struct {
		name, uses, results string
		msg                 string // "" when accepted
	}{
		{"browser call", use("toolu_a", "browser"), result("toolu_a", one, ""), ""},
		{"no tabs", use("toolu_a", "browser"), result("toolu_a", state("", ""), ""), ""},
		{"with state changes", use("toolu_a", "browser"), result("toolu_a", state(tab("t1", true), `,"state_changes":[{"type":"tab_opened","tab_id":"t1"}]`), ""), ""},
		{"empty state changes", use("toolu_a", "browser"), result("toolu_a", state(tab("t1", true), `,"state_changes":[]`), ""),
			"messages.2.content.0.content.0.state_changes: omit state_changes instead of sending an empty list"},
		{"no active tab", use("toolu_a", "browser"), result("toolu_a", state(tab("t1", false)+","+tab("t2", false), ""), ""),
			"messages.2.content.0.content.0.tabs: exactly one tab must be active, found 0"},
		{"two active tabs", use("toolu_a", "browser"), result("toolu_a", state(tab("t1", true)+","+tab("t2", true), ""), ""),
			"messages.2.content.0.content.0.tabs: exactly one tab must be active, found 2"},
		{"is_error false", use("toolu_a", "browser"), result("toolu_a", one, `,"is_error":false`), ""},
		{"is_error true", use("toolu_a", "browser"), result("toolu_a", one, `,"is_error":true`),
			"messages.2.content.0.content.0: browser_state is not allowed in a tool_result with is_error true"},
		{"two states", use("toolu_a", "browser"), result("toolu_a", one+`,{"type":"text","text":"x"},`+one, ""),
			"messages.2.content.0.content.2: a tool_result may hold at most one browser_state block"},
		{"computer call", use("toolu_a", "computer"), result("toolu_a", one, ""),
			"messages.2.content.0.content.0: browser_state is only allowed in a tool_result answering a browser toolset call"},
		{"custom tool call", use("toolu_a", ""), result("toolu_a", `{"type":"text","text":"x"}`, ""), ""},
		{"custom tool call with state", use("toolu_a", "browser") + "," + use("toolu_b", ""),
			result("toolu_a", one, "") + "," + result("toolu_b", one, ""),
			"messages.2.content.1.content.0: browser_state is only allowed in a tool_result answering a browser toolset call"},
	}
	s := newTestServer(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := create(toolsetTools + `"messages":[{"role":"user","content":"Go"},{"role":"assistant","content":[` + tt.uses +
				`]},{"role":"user","content":[` + tt.results + `]}]`)
			resp, got := post(t, s, messagesPath, body)
			if tt.msg == "" {
				if resp.StatusCode != 200 {
					t.Fatalf("status %d: %s", resp.StatusCode, got)
				}
				return
			}
			var e errorBody
			_ = json.Unmarshal(got, &e)
			if resp.StatusCode != 400 || e.Error.Type != "invalid_request_error" || !strings.Contains(e.Error.Message, tt.msg) {
				t.Errorf("got %d %s\nwant 400 %q", resp.StatusCode, got, tt.msg)
			}
		})
	}
}

// TestToolsetEchoAccepted: the spec does not say the service refuses an
// echoed toolset call whose toolset is not declared or whose action is
// disabled, so the fake accepts both.
func TestToolsetEchoAccepted(t *testing.T) {
	s := newTestServer(t)
	for _, tools := range []string{`"tools":[` + browserToolset + `],`, toolsetTools} {
		body := create(tools + `"messages":[{"role":"user","content":"Go"},{"role":"assistant","content":[` +
			`{"type":"tool_use","id":"toolu_z","name":"zoom","input":{"region":[0,0,1,1]},"toolset_name":"computer"}]},` +
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_z","content":"ok"}]}]`)
		postMessage(t, s, body)
	}
}
