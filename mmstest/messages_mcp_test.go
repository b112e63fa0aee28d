package mmstest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	mcpServers     = `"mcp_servers":[{"type":"url","name":"tracker","url":"https://mcp.example.com/tracker"}],`
	mcpToolset     = `{"type":"mcp_toolset","mcp_server_name":"tracker"}`
	pinnedToolset  = `{"type":"mcp_toolset","mcp_server_name":"tracker","tools":[%s]}`
	listingBlock   = `{"type":"mcp_tool_listing","mcp_server_name":"tracker","tools":[%s]}`
	listedTool     = `{"name":"list_issues","input_schema":{"type":"object"}}`
	betaMCP1120    = "mcp-client-2025-11-20"
	betaMCP0915    = "mcp-client-2026-09-15"
	webFetchSource = `{"type":"web_fetch_20260318","name":"web_fetch","url_sources":%s}`
)

// TestMCPRequestForms: the request form of the mcp_tool_listing block, of
// pinned mcp_toolset tools and of web_fetch url_sources, each rule on both
// sides, with the beta gates.
func TestMCPRequestForms(t *testing.T) {
	fill := func(format, arg string) string { return strings.ReplaceAll(format, "%s", arg) }
	long := strings.Repeat("n", 128)
	tests := []struct {
		name  string
		body  string
		betas []string
		msg   string // "" accepts
	}{
		// mcp_tool_listing, sent back in an assistant turn.
		{"listing", create(mcpServers + `"tools":[` + mcpToolset + `],` + userAssistantUser(fill(listingBlock, listedTool))),
			[]string{betaMCP1120}, ""},
		{"listing without tools", create(mcpServers + `"tools":[` + mcpToolset + `],` + userAssistantUser(fill(listingBlock, ""))),
			[]string{betaMCP1120}, ""},
		{"listing description null", create(mcpServers + `"tools":[` + mcpToolset + `],` +
			userAssistantUser(fill(listingBlock, `{"name":"a","description":null,"input_schema":{}}`))), []string{betaMCP0915}, ""},
		{"listing without beta", create(userAssistantUser(fill(listingBlock, listedTool))), nil,
			"messages.1.content.0: type 'mcp_tool_listing' requires the vendor-beta header value `mcp-client-2025-11-20` or `mcp-client-2026-09-15`"},
		{"listing empty server name", create(userAssistantUser(`{"type":"mcp_tool_listing","mcp_server_name":"","tools":[]}`)),
			[]string{betaMCP1120}, "messages.1.content.0.mcp_server_name"},
		{"listing tools missing", create(userAssistantUser(`{"type":"mcp_tool_listing","mcp_server_name":"tracker"}`)),
			[]string{betaMCP1120}, "messages.1.content.0.tools"},
		{"listing tool name empty", create(userAssistantUser(fill(listingBlock, `{"name":"","input_schema":{}}`))),
			[]string{betaMCP1120}, "messages.1.content.0.tools.0.name"},
		{"listing input_schema not an object", create(userAssistantUser(fill(listingBlock, `{"name":"a","input_schema":[]}`))),
			[]string{betaMCP1120}, "messages.1.content.0.tools.0.input_schema"},
		{"listing input_schema missing", create(userAssistantUser(fill(listingBlock, `{"name":"a"}`))),
			[]string{betaMCP1120}, "messages.1.content.0.tools.0.input_schema"},

		// mcp_toolset.tools
		{"pinned", create(mcpServers + `"tools":[` + fill(pinnedToolset, listedTool) + `],"messages":` + hi),
			[]string{betaMCP1120, betaMCP0915}, ""},
		{"pinned under the new beta alone", create(mcpServers + `"tools":[` + fill(pinnedToolset, listedTool) + `],"messages":` + hi),
			[]string{betaMCP0915}, ""},
		{"pinned without its beta", create(mcpServers + `"tools":[` + fill(pinnedToolset, listedTool) + `],"messages":` + hi),
			[]string{betaMCP1120}, "tools.0.tools"},
		{"pinned name 128", create(mcpServers + `"tools":[` + fill(pinnedToolset, `{"name":"`+long+`","input_schema":{}}`) +
			`],"messages":` + hi), []string{betaMCP0915}, ""},
		{"pinned name 129", create(mcpServers + `"tools":[` + fill(pinnedToolset, `{"name":"`+long+`n","input_schema":{}}`) +
			`],"messages":` + hi), []string{betaMCP0915}, "tools.0.tools.0.name"},
		{"pinned name empty", create(mcpServers + `"tools":[` + fill(pinnedToolset, `{"name":"","input_schema":{}}`) +
			`],"messages":` + hi), []string{betaMCP0915}, "tools.0.tools.0.name"},
		{"pinned name with a dot", create(mcpServers + `"tools":[` + fill(pinnedToolset, `{"name":"issues.list","input_schema":{}}`) +
			`],"messages":` + hi), []string{betaMCP0915}, ""},
		{"pinned duplicate", create(mcpServers + `"tools":[` + fill(pinnedToolset, listedTool+","+listedTool) +
			`],"messages":` + hi), []string{betaMCP0915}, "tools.0.tools.1.name: MCP tool names must be unique"},
		{"pinned input_schema not an object", create(mcpServers + `"tools":[` + fill(pinnedToolset, `{"name":"a","input_schema":"x"}`) +
			`],"messages":` + hi), []string{betaMCP0915}, "tools.0.tools.0.input_schema"},

		// web_fetch url_sources (GA: no beta).
		{"url_sources all kinds", create(`"tools":[{"name":"lookup","input_schema":{"type":"object"}},` +
			`{"type":"web_search_20260209","name":"web_search"},` + fill(webFetchSource,
			`{"user_input":{"type":"none"},"client_tool_results":{"type":"except","tools":[{"type":"tool_reference","name":"lookup"}]},`+
				`"server_tool_results":{"type":"only","tools":[{"type":"tool_reference","name":"web_search"}]}}`) +
			`],"messages":` + hi), nil, ""},
		{"url_sources on the oldest version", create(`"tools":[{"type":"web_fetch_20250910","name":"web_fetch",` +
			`"url_sources":{"user_input":{"type":"all"},"client_tool_results":{"type":"none"},"server_tool_results":{"type":"all"}}}],` +
			`"messages":` + hi), nil, ""},
		{"url_sources toolset member", create(`"tools":[{"type":"computer_toolset_20260801"},` + fill(webFetchSource,
			`{"client_tool_results":{"type":"only","tools":[{"type":"tool_reference","name":"screenshot"}]}}`) +
			`],"messages":` + hi), nil, ""},
		{"url_sources undeclared tool", create(`"tools":[` + fill(webFetchSource,
			`{"server_tool_results":{"type":"only","tools":[{"type":"tool_reference","name":"web_search"}]}}`) +
			`],"messages":` + hi), nil, "tools.0.url_sources.server_tool_results.tools.0.name: tool `web_search` is not declared"},
		{"url_sources user_input only", create(`"tools":[` + fill(webFetchSource,
			`{"user_input":{"type":"only","tools":[]}}`) + `],"messages":` + hi), nil, "tools.0.url_sources.user_input: Input tag 'only'"},
		{"url_sources filter without tools", create(`"tools":[` + fill(webFetchSource,
			`{"client_tool_results":{"type":"except"}}`) + `],"messages":` + hi), nil, "tools.0.url_sources.client_tool_results.tools"},
		{"url_sources reference without name", create(`"tools":[` + fill(webFetchSource,
			`{"client_tool_results":{"type":"except","tools":[{"type":"tool_reference","name":""}]}}`) + `],"messages":` + hi), nil,
			"tools.0.url_sources.client_tool_results.tools.0.name"},
		{"url_sources unknown member", create(`"tools":[` + fill(webFetchSource, `{"model_output":{"type":"all"}}`) +
			`],"messages":` + hi), nil, "tools.0.url_sources.model_output: Extra inputs are not permitted"},
	}
	s := newTestServer(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, got := post(t, s, messagesPath, tt.body, tt.betas...)
			if tt.msg == "" {
				require.Equal(t, 200, resp.StatusCode, "%s", got)
				return
			}
			wantError(t, resp, got, 400, "invalid_request_error", tt.msg)
		})
	}
}

// TestMCPScriptedListing: a scripted turn's listing becomes an
// mcp_tool_listing block, unless the toolset pins its tools or the
// conversation already holds a listing of the server; a listing of a
// server no toolset uses is the script's mistake.
func TestMCPScriptedListing(t *testing.T) {
	listing := MCPToolListing{ServerName: "tracker", Tools: []MCPTool{
		{Name: "list_issues", Description: "List issues.", InputSchema: `{"type":"object","properties":{}}`},
		{Name: "ping"},
	}}
	wantBlock := map[string]any{"type": "mcp_tool_listing", "mcp_server_name": "tracker", "tools": []any{
		map[string]any{"name": "list_issues", "description": "List issues.",
			"input_schema": map[string]any{"type": "object", "properties": map[string]any{}}},
		map[string]any{"name": "ping", "input_schema": map[string]any{"type": "object"}},
	}}
	plain := create(mcpServers + `"tools":[` + mcpToolset + `],"messages":` + hi)

	s := newTestServer(t, WithScript(Turn{MCPToolListings: []MCPToolListing{listing}, Text: "listed"}))
	resp, got := post(t, s, messagesPath, plain, betaMCP1120)
	require.Equal(t, 200, resp.StatusCode, "%s", got)
	var m struct {
		Content []map[string]any `json:"content"`
	}
	require.NoError(t, json.Unmarshal(got, &m))
	require.Len(t, m.Content, 2)
	if d := cmp.Diff(wantBlock, m.Content[0]); d != "" {
		t.Errorf("listing block (-want +got):\n%s", d)
	}
	assert.Equal(t, "listed", m.Content[1]["text"])

	// Streaming: the block is complete in its content_block_start, no deltas.
	s = newTestServer(t, WithScript(Turn{MCPToolListings: []MCPToolListing{listing}}))
	resp, got = post(t, s, messagesPath, strings.Replace(plain, "{", `{"stream":true,`, 1), betaMCP1120)
	require.Equal(t, 200, resp.StatusCode, "%s", got)
	events := parseSSE(t, string(got))
	var starts []any
	for i, ev := range events {
		if ev.name == "content_block_start" && ev.data["content_block"].(map[string]any)["type"] == "mcp_tool_listing" {
			starts = append(starts, ev.data["content_block"])
			for _, next := range events[i+1:] {
				if next.name == "content_block_stop" {
					break
				}
				assert.NotEqual(t, "content_block_delta", next.name, "a listing takes no deltas")
			}
		}
	}
	if d := cmp.Diff([]any{wantBlock}, starts); d != "" {
		t.Errorf("streamed listing (-want +got):\n%s", d)
	}

	// Not asked: pinned tools, or a listing sent back.
	pinned := create(mcpServers + `"tools":[` + strings.ReplaceAll(pinnedToolset, "%s", listedTool) + `],"messages":` + hi)
	sentBack := create(mcpServers + `"tools":[` + mcpToolset + `],` +
		userAssistantUser(strings.ReplaceAll(listingBlock, "%s", listedTool)))
	for name, body := range map[string]string{"pinned": pinned, "sent back": sentBack} {
		t.Run(name, func(t *testing.T) {
			s := newTestServer(t, WithScript(Turn{MCPToolListings: []MCPToolListing{listing}, Text: "reused"}))
			resp, got := post(t, s, messagesPath, body, betaMCP1120, betaMCP0915)
			require.Equal(t, 200, resp.StatusCode, "%s", got)
			var m struct {
				Content []map[string]any `json:"content"`
			}
			require.NoError(t, json.Unmarshal(got, &m))
			require.Len(t, m.Content, 1, "%s", got)
			assert.Equal(t, "reused", m.Content[0]["text"])
		})
	}

	// Wrong scripts.
	for name, tc := range map[string]struct {
		listing MCPToolListing
		msg     string
	}{
		"no toolset uses the server": {MCPToolListing{ServerName: "docs"},
			`mmstest: scripted turn 1: MCP tool listing 0: no mcp_toolset of the request uses MCP server "docs"`},
		"schema not an object": {MCPToolListing{ServerName: "tracker", Tools: []MCPTool{{Name: "a", InputSchema: "[]"}}},
			"mmstest: scripted turn 1: MCP tool listing 0, tool 0 (a): InputSchema is not a JSON object"},
	} {
		t.Run(name, func(t *testing.T) {
			s := newTestServer(t, WithScript(Turn{MCPToolListings: []MCPToolListing{tc.listing}}))
			resp, got := post(t, s, messagesPath, plain, betaMCP1120)
			wantError(t, resp, got, 500, "api_error", tc.msg)
		})
	}
}
