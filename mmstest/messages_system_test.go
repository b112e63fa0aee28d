package mmstest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	betaToolChangesValue = "mid-conversation-tool-changes-2026-07-01"
	sysText              = `{"role":"system","content":[{"type":"text","text":"Answer in French."}]}`
	customDef            = `{"name":"lookup","input_schema":{"type":"object"}}`
)

// withSystem is a conversation: Hi, then the system message sys, then ok.
func withSystem(sys string) string {
	return `"messages":[{"role":"user","content":"Hi"},` + sys + `,{"role":"user","content":"ok"}]`
}

// addition is a tool_addition block whose tool is ref.
func addition(ref string) string { return `{"type":"tool_addition","tool":` + ref + `}` }

// definition is a tool_definition reference to def.
func definition(def string) string { return `{"type":"tool_definition","definition":` + def + `}` }

// systemOf is a system message holding blocks (JSON objects) and extra
// members (a JSON fragment, or "").
func systemOf(extra string, blocks ...string) string {
	if extra != "" {
		extra = "," + extra
	}
	return `{"role":"system","content":[` + strings.Join(blocks, ",") + `]` + extra + `}`
}

// TestSystemMessages: every rule of mid-conversation system messages and
// inline tool definitions, on both sides, in create and count_tokens.
func TestSystemMessages(t *testing.T) {
	tools := []string{betaToolChangesValue}
	inline := []string{betaToolChangesValue, betaInlineTools}
	tests := []struct {
		name   string
		path   string
		body   string
		betas  []string
		status int
		msg    string
	}{
		// role system with text: GA.
		{name: "system text", status: 200, body: create(withSystem(sysText))},
		{name: "system text count_tokens", path: countPath, status: 200, body: count(withSystem(sysText))},
		{name: "system string shorthand", body: create(withSystem(`{"role":"system","content":"Answer in French."}`)),
			msg: "messages.1.content: Input should be a valid list (a system message takes an array of blocks)"},
		{name: "system image block", body: create(withSystem(systemOf("", `{"type":"image","source":{"type":"url","url":"u"}}`))),
			msg: "messages.1.content.0: Input tag 'image' found using 'type' does not match any of the expected tags: 'text', 'tool_addition' or 'tool_removal'"},
		{name: "system empty text", body: create(withSystem(systemOf("", `{"type":"text","text":""}`))),
			msg: "messages.1.content.0.text: String should have at least 1 character"},
		{name: "only system messages", body: create(`"messages":[` + sysText + `]`),
			msg: "messages: at least one user or assistant message is required besides system messages"},

		// Tool blocks in a system message: behind the tool-changes beta.
		{name: "system tool_addition without beta", body: create(withSystem(systemOf("", addition(`{"type":"tool_reference","name":"t"}`)))),
			msg: "messages.1.content.0: type 'tool_addition' requires the vendor-beta header value `mid-conversation-tool-changes-2026-07-01`"},
		{name: "system tool_addition", status: 200, betas: tools,
			body: create(withSystem(systemOf("", addition(`{"type":"tool_reference","name":"t"}`),
				`{"type":"tool_removal","tool":{"type":"mcp_toolset_reference","server_name":"s"}}`)))},

		// clear_at.
		{name: "clear_at without beta", body: create(withSystem(systemOf(`"clear_at":"next_user_message"`, `{"type":"text","text":"x"}`))),
			msg: "messages.1.clear_at: this field requires the vendor-beta header value `mid-conversation-system-clear-at-2026-08-21`"},
		{name: "clear_at", status: 200, betas: []string{betaSystemClearAt},
			body: create(withSystem(systemOf(`"clear_at":"next_user_message"`, `{"type":"text","text":"x"}`)))},
		{name: "clear_at never", status: 200, betas: []string{betaSystemClearAt},
			body: create(withSystem(systemOf(`"clear_at":"never"`, `{"type":"text","text":"x"}`)))},
		{name: "clear_at value", betas: []string{betaSystemClearAt},
			body: create(withSystem(systemOf(`"clear_at":"later"`, `{"type":"text","text":"x"}`))),
			msg:  "messages.1.clear_at: Input should be 'never' or 'next_user_message'"},
		{name: "clear_at on a user message", betas: []string{betaSystemClearAt},
			body: create(`"messages":[{"role":"user","content":"Hi","clear_at":"never"}]`),
			msg:  "messages.0.clear_at: Extra inputs are not permitted (clear_at is for system messages only)"},

		// output_config on a message.
		{name: "output_config without beta", body: create(withSystem(systemOf(`"output_config":{"effort":"low"}`))),
			msg: "messages.1.output_config: this field requires the vendor-beta header value `mid-conversation-output-config-2026-07-01`"},
		{name: "output_config only", status: 200, betas: []string{betaMessageOutputConfig},
			body: create(withSystem(systemOf(`"output_config":{"effort":"low"}`)))},
		{name: "output_config empty with content", status: 200, betas: []string{betaMessageOutputConfig},
			body: create(withSystem(systemOf(`"output_config":{}`, `{"type":"text","text":"x"}`)))},
		{name: "output_config empty without content", betas: []string{betaMessageOutputConfig},
			body: create(withSystem(systemOf(`"output_config":{}`))),
			msg:  "messages.1: a system message needs content or an output_config setting"},
		{name: "no content no output_config", body: create(withSystem(systemOf(""))),
			msg: "messages.1: a system message needs content or an output_config setting"},
		{name: "output_config format", betas: []string{betaMessageOutputConfig},
			body: create(withSystem(systemOf(`"output_config":{"format":{"type":"json_schema","schema":{}}}`, `{"type":"text","text":"x"}`))),
			msg:  "messages.1.output_config.format: Extra inputs are not permitted"},
		{name: "output_config effort value", betas: []string{betaMessageOutputConfig},
			body: create(withSystem(systemOf(`"output_config":{"effort":"extreme"}`))),
			msg:  "messages.1.output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'"},
		{name: "output_config on an assistant message", betas: []string{betaMessageOutputConfig},
			body: create(`"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"a","output_config":{"effort":"low"}},{"role":"user","content":"ok"}]`),
			msg:  "messages.1.output_config: Extra inputs are not permitted (output_config is for system messages only)"},
		{name: "output_config count_tokens", path: countPath, status: 200, betas: []string{betaMessageOutputConfig},
			body: count(withSystem(systemOf(`"output_config":{"effort":"high"}`)))},
		{name: "output_config effort unsupported by the model", betas: []string{betaMessageOutputConfig},
			body: `{"model":"mms-small-1","max_tokens":1,` + withSystem(systemOf(`"output_config":{"effort":"low"}`)) + `}`,
			msg:  "messages.1.output_config.effort: This model does not support the effort parameter."},
		{name: "output_config effort without effort on a model without it", status: 200, betas: []string{betaMessageOutputConfig},
			body: `{"model":"mms-small-1","max_tokens":1,` + withSystem(systemOf(`"output_config":{}`, `{"type":"text","text":"x"}`)) + `}`},

		// Inline tool definitions.
		{name: "tool_definition without inline beta", betas: tools,
			body: create(withSystem(systemOf("", addition(definition(customDef))))),
			msg:  "messages.1.content.0.tool: type 'tool_definition' requires the vendor-beta header value `inline-tools-2026-09-15`"},
		{name: "tool_definition", status: 200, betas: inline, body: create(withSystem(systemOf("", addition(definition(customDef)))))},
		{name: "tool_definition in a user message", status: 200, betas: inline,
			body: create(userContent(`{"type":"text","text":"Hi"}`, addition(definition(customDef))))},
		{name: "tool_definition server tool", status: 200, betas: inline,
			body: create(withSystem(systemOf("", addition(definition(`{"type":"web_search_20250305","name":"web_search"}`)))))},
		{name: "tool_definition checked as a tool", betas: inline,
			body: create(withSystem(systemOf("", addition(definition(`{"name":"lookup"}`))))),
			msg:  "messages.1.content.0.tool.definition.input_schema: Field required"},
		{name: "tool_definition without definition", betas: inline,
			body: create(withSystem(systemOf("", addition(`{"type":"tool_definition"}`)))),
			msg:  "messages.1.content.0.tool.definition: Field required"},
		{name: "tool_removal of a definition", betas: inline,
			body: create(withSystem(systemOf("", `{"type":"tool_removal","tool":`+definition(customDef)+`}`))),
			msg: "messages.1.content.0.tool: Input tag 'tool_definition' found using 'type' does not match any of the expected tags: " +
				"'mcp_tool_reference', 'mcp_toolset_reference' or 'tool_reference'"},
		{name: "inline mcp_toolset without the MCP client beta", betas: append(inline, "mcp-client-2025-11-20"),
			body: create(withSystem(systemOf("", addition(definition(`{"type":"mcp_toolset","mcp_server_name":"s"}`))))),
			msg:  "messages.1.content.0.tool.definition: an inline 'mcp_toolset' requires the vendor-beta header value `mcp-client-2026-09-15`"},
		{name: "inline mcp_toolset", status: 200, betas: append(inline, "mcp-client-2025-11-20", betaInlineMCPToolset),
			body: create(`"mcp_servers":[{"type":"url","name":"s","url":"https://mcp.example.com"}],` +
				withSystem(systemOf("", addition(definition(`{"type":"mcp_toolset","mcp_server_name":"s"}`)))))},
		{name: "definition repeats a declared tool", betas: inline,
			body: create(`"tools":[` + customDef + `],` + withSystem(systemOf("", addition(definition(customDef))))),
			msg:  `messages.1.content.0.tool.definition: tool name "lookup" is already defined by the request's tools or an earlier tool_definition`},
		{name: "definition repeats an earlier one", betas: inline,
			body: create(`"messages":[{"role":"user","content":[` + addition(definition(customDef)) + `]},` +
				systemOf("", addition(definition(customDef))) + `]`),
			msg: `messages.1.content.0.tool.definition: tool name "lookup" is already defined by the request's tools or an earlier tool_definition`},
		{name: "definitions with other names", status: 200, betas: inline,
			body: create(`"tools":[{"name":"get","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":[` +
				addition(definition(customDef)) + `]},` + systemOf("", addition(definition(`{"name":"other","input_schema":{"type":"object"}}`))) + `]`)},
		{name: "definition conflict count_tokens", path: countPath, betas: inline,
			body: count(`"tools":[` + customDef + `],` + withSystem(systemOf("", addition(definition(customDef))))),
			msg:  `messages.1.content.0.tool.definition: tool name "lookup" is already defined by the request's tools or an earlier tool_definition`},
	}
	s := newTestServer(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, status := tt.path, tt.status
			if path == "" {
				path = messagesPath
			}
			if status == 0 {
				status = http.StatusBadRequest
			}
			resp, body := post(t, s, path, tt.body, tt.betas...)
			require.Equal(t, status, resp.StatusCode, "body %s", body)
			if status == http.StatusOK {
				return
			}
			e := decodeError(t, body)
			assert.Equal(t, "invalid_request_error", e.Error.Type)
			assert.Equal(t, tt.msg, e.Error.Message)
		})
	}
}

// TestSystemMessageErrorCode: a name conflict carries its error code.
func TestSystemMessageErrorCode(t *testing.T) {
	s := newTestServer(t)
	resp, body := post(t, s, messagesPath, create(`"tools":[`+customDef+`],`+withSystem(systemOf("", addition(definition(customDef))))),
		betaToolChangesValue, betaInlineTools)
	require.Equal(t, http.StatusBadRequest, resp.StatusCode)
	var e struct {
		Error struct {
			Type    string `json:"type"`
			Details struct {
				ErrorCode string `json:"error_code"`
			} `json:"details"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(body, &e))
	assert.Equal(t, "invalid_request_error", e.Error.Type)
	assert.Equal(t, "tool_name_conflict", e.Error.Details.ErrorCode)
}

// TestSystemMessageReply: a system message is not a user turn. The reply
// answers the user text around it (not the system text), a tool_use is
// still answered by the tool_result after a system message, a conversation
// ending in a system message after a user turn is answered, and the
// system text counts toward input tokens in create and count_tokens alike.
func TestSystemMessageReply(t *testing.T) {
	s := newTestServer(t)
	msg := postMessage(t, s, create(withSystem(sysText)))
	content := msg["content"].([]any)
	require.NotEmpty(t, content)
	text := content[0].(map[string]any)["text"].(string)
	assert.Equal(t, "You said: Hi\nok", text, "the user messages around a system message are one user turn")
	assert.NotContains(t, text, "French")

	// tool_use, system message, tool_result.
	tools := `"tools":[{"name":"get","input_schema":{"type":"object"}}],`
	toolUse := `{"type":"tool_use","id":"toolu_1","name":"get","input":{}}`
	body := create(tools + `"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":[` + toolUse + `]},` +
		sysText + `,{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"sunny"}]}]`)
	msg = postMessage(t, s, body)
	assert.Contains(t, msg["content"].([]any)[0].(map[string]any)["text"], "sunny")

	// A trailing system message after the user turn.
	msg = postMessage(t, s, create(`"messages":[{"role":"user","content":"Hi"},`+sysText+`]`))
	assert.Equal(t, "You said: Hi", msg["content"].([]any)[0].(map[string]any)["text"])
	assert.Equal(t, "end_turn", msg["stop_reason"])

	// Tokens: the system text counts, and create agrees with count_tokens.
	plain := `"messages":[{"role":"user","content":"Hi"},{"role":"user","content":"ok"}]`
	long := systemOf("", `{"type":"text","text":"`+strings.Repeat("Answer in French. ", 40)+`"}`)
	countOf := func(members string) int {
		resp, b := post(t, s, countPath, count(members))
		require.Equal(t, 200, resp.StatusCode, "%s", b)
		var out struct {
			InputTokens int `json:"input_tokens"`
		}
		require.NoError(t, json.Unmarshal(b, &out))
		return out.InputTokens
	}
	without, with := countOf(plain), countOf(withSystem(long))
	assert.Greater(t, with, without+150, "the system text counts")
	msg = postMessage(t, s, create(withSystem(long)))
	assert.EqualValues(t, with, msg["usage"].(map[string]any)["input_tokens"])
}

// TestSystemMessagesInBatches: batch items get the request-form rules of
// system messages at create time, with the item's path.
func TestSystemMessagesInBatches(t *testing.T) {
	s := newTestServer(t)
	tests := []struct {
		name   string
		params string
		betas  []string
		status int
		msg    string
	}{
		{"system text", create(withSystem(sysText)), nil, 200, ""},
		{"clear_at", create(withSystem(systemOf(`"clear_at":"next_user_message"`, `{"type":"text","text":"x"}`))), []string{betaSystemClearAt}, 200, ""},
		{"clear_at on a user message", create(`"messages":[{"role":"user","content":"Hi","clear_at":"never"}]`), []string{betaSystemClearAt}, 400,
			"requests.1.params.messages.0.clear_at: Extra inputs are not permitted (clear_at is for system messages only)"},
		{"system string shorthand", create(withSystem(`{"role":"system","content":"x"}`)), nil, 400,
			"requests.1.params.messages.1.content: Input should be a valid list (a system message takes an array of blocks)"},
		{"clear_at without beta", create(withSystem(systemOf(`"clear_at":"never"`, `{"type":"text","text":"x"}`))), nil, 400,
			"requests.1.params.messages.1.clear_at: this field requires the vendor-beta header value `mid-conversation-system-clear-at-2026-08-21`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := post(t, s, "/v1/messages/batches", batchBody("a", hiParams("a"), "b", tt.params), tt.betas...)
			require.Equal(t, tt.status, resp.StatusCode, "%s", body)
			if tt.status != 200 {
				assert.Equal(t, tt.msg, decodeError(t, body).Error.Message)
			}
		})
	}
}
