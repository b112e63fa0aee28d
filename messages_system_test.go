package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

const (
	betaToolChanges   = "mid-conversation-tool-changes-2026-07-01"
	betaClearAt       = "mid-conversation-system-clear-at-2026-08-21"
	betaMsgOutput     = "mid-conversation-output-config-2026-07-01"
	betaInlineTools   = "inline-tools-2026-09-15"
	betaMCPClient2026 = "mcp-client-2026-09-15"
	betaMCPClient2025 = "mcp-client-2025-11-20"
)

var inlineLookup = mms.CustomTool{Name: "lookup", InputSchema: mms.InputSchema(`{"type":"object"}`)}

// TestSystemMessageForms: the constructors and literals write the request
// form exactly, and each form decodes back into a MessageParam that
// re-encodes to the same JSON (the string shorthand included, though
// validation refuses it on a system message).
func TestSystemMessageForms(t *testing.T) {
	tests := []struct {
		name string
		in   mms.MessageParam
		want string
	}{
		{"text", mms.SystemMessageText("Answer in French."),
			`{"role":"system","content":[{"type":"text","text":"Answer in French."}]}`},
		{"blocks", mms.SystemMessage(mms.TextBlock{Text: "t"}, mms.ToolRemovalBlock{Tool: mms.ToolRef{Name: "get"}}),
			`{"role":"system","content":[{"type":"text","text":"t"},{"type":"tool_removal","tool":{"type":"tool_reference","name":"get"}}]}`},
		{"effort only", mms.SystemEffort(mms.EffortLow),
			`{"role":"system","content":[],"output_config":{"effort":"low"}}`},
		{"nil content writes an empty array", mms.MessageParam{Role: mms.RoleSystem, OutputConfig: &mms.MessageOutputConfig{Effort: mms.EffortMax}},
			`{"role":"system","content":[],"output_config":{"effort":"max"}}`},
		{"clear_at and empty output_config", mms.MessageParam{Role: mms.RoleSystem, Content: mms.ContentBlocks{mms.TextBlock{Text: "t"}},
			ClearAt: mms.ClearAtNextUserMessage, OutputConfig: &mms.MessageOutputConfig{}},
			`{"role":"system","content":[{"type":"text","text":"t"}],"clear_at":"next_user_message","output_config":{}}`},
		{"clear_at never is sent", mms.MessageParam{Role: mms.RoleSystem, Content: mms.ContentBlocks{mms.TextBlock{Text: "t"}}, ClearAt: mms.ClearAtNever},
			`{"role":"system","content":[{"type":"text","text":"t"}],"clear_at":"never"}`},
		{"inline custom tool", mms.SystemMessage(mms.ToolAdditionBlock{Tool: mms.ToolDefinitionRef{Definition: inlineLookup}}),
			`{"role":"system","content":[{"type":"tool_addition","tool":{"type":"tool_definition","definition":{"type":"custom","name":"lookup","input_schema":{"type":"object"}}}}]}`},
		{"inline mcp_toolset in a user turn", mms.UserMessage(mms.ToolAdditionBlock{Tool: mms.ToolDefinitionRef{Definition: mms.MCPToolset{MCPServerName: "s"}}}),
			`{"role":"user","content":[{"type":"tool_addition","tool":{"type":"tool_definition","definition":{"type":"mcp_toolset","mcp_server_name":"s"}}}]}`},
		{"system string shorthand round-trips", mms.MessageParam{Role: mms.RoleSystem, Content: mms.ContentBlocks{mms.TextBlock{Text: "t"}}, StringContent: true},
			`{"role":"system","content":"t"}`},
		{"user turn unchanged", mms.UserText("hi"), `{"role":"user","content":[{"type":"text","text":"hi"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
			var back mms.MessageParam
			require.NoError(t, json.Unmarshal([]byte(tt.want), &back))
			again, err := json.Marshal(back)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(again))
		})
	}

	// Decoding types the inline definition as the tools union does, and an
	// unknown definition type survives verbatim.
	var m mms.MessageParam
	require.NoError(t, json.Unmarshal([]byte(`{"role":"system","content":[{"type":"tool_addition","tool":{"type":"tool_definition",`+
		`"definition":{"type":"web_search_20250305","name":"web_search","max_uses":3}}},{"type":"tool_addition","tool":{"type":"tool_definition",`+
		`"definition":{"type":"hammer_20990101","name":"hammer"}}}],"clear_at":"never","output_config":{"effort":"high"}}`), &m))
	require.Len(t, m.Content, 2)
	def := m.Content[0].(mms.ToolAdditionBlock).Tool.(mms.ToolDefinitionRef).Definition
	_, ok := def.(mms.WebSearchTool)
	assert.True(t, ok, "definition decoded as %T", def)
	unknown := m.Content[1].(mms.ToolAdditionBlock).Tool.(mms.ToolDefinitionRef).Definition.(mms.UnknownTool)
	assert.Equal(t, "hammer_20990101", unknown.Type)
	assert.Equal(t, mms.ClearAtNever, m.ClearAt)
	assert.Equal(t, mms.EffortHigh, m.OutputConfig.Effort)
}

// sysParams is a create request around the messages msgs: a user turn,
// msgs, a user turn.
func sysParams(msgs ...mms.MessageParam) mms.MessageCreateParams {
	all := append([]mms.MessageParam{mms.UserText("Hi")}, msgs...)
	return mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 64, Messages: append(all, mms.UserText("ok"))}
}

// TestSystemMessageValidation: each rule on both sides, for Create,
// CountTokens and a batch item; the fake refuses every shape the SDK
// refuses (sent raw through Client.Do, with the betas).
func TestSystemMessageValidation(t *testing.T) {
	text := mms.TextBlock{Text: "t"}
	def := func(tool mms.Tool) mms.ToolAdditionBlock {
		return mms.ToolAdditionBlock{Tool: mms.ToolDefinitionRef{Definition: tool}}
	}
	withField := func(m mms.MessageParam, f func(*mms.MessageParam)) mms.MessageParam { f(&m); return m }
	tests := []struct {
		name  string
		p     mms.MessageCreateParams
		field string // "" when valid
		rule  string
		fake  string // the fake's message, for a refusal
	}{
		{"system text", sysParams(mms.SystemMessageText("t")), "", "", ""},
		{"system image", sysParams(mms.SystemMessage(mms.ImageFromURL("https://example.com/a.png"))), "messages[1].content[0].type",
			`block type "image" is not allowed in a system message`, "messages.1.content.0: Input tag 'image'"},
		{"system tool_use", sysParams(mms.SystemMessage(mms.ToolUseBlock{ID: "toolu_1", Name: "get", Input: json.RawMessage(`{}`)})),
			"messages[1].content[0].type", `block type "tool_use" is not allowed in a system message`, "messages.1.content.0: Input tag 'tool_use'"},
		{"system tool blocks", sysParams(mms.SystemMessage(mms.ToolAdditionBlock{Tool: mms.ToolRef{Name: "get"}},
			mms.ToolRemovalBlock{Tool: mms.MCPToolsetRef{ServerName: "s"}})), "", "", ""},
		{"system empty text", sysParams(mms.SystemMessageText("")), "messages[1].content[0].text", "must not be empty",
			"messages.1.content.0.text: String should have at least 1 character"},
		{"system string shorthand", sysParams(withField(mms.SystemMessageText("t"), func(m *mms.MessageParam) { m.StringContent = true })),
			"messages[1].content", "not the string shorthand", "messages.1.content: Input should be a valid list"},
		{"system empty", sysParams(mms.SystemMessage()), "messages[1].content", "must not be empty unless output_config sets something",
			"messages.1: a system message needs content or an output_config setting"},
		{"system empty output_config", sysParams(mms.MessageParam{Role: mms.RoleSystem, OutputConfig: &mms.MessageOutputConfig{}}),
			"messages[1].content", "must not be empty unless output_config sets something", "messages.1: a system message needs content"},
		{"system effort only", sysParams(mms.SystemEffort(mms.EffortLow)), "", "", ""},
		{"system empty output_config with content", sysParams(withField(mms.SystemMessageText("t"),
			func(m *mms.MessageParam) { m.OutputConfig = &mms.MessageOutputConfig{} })), "", "", ""},
		{"clear_at on system", sysParams(withField(mms.SystemMessageText("t"), func(m *mms.MessageParam) { m.ClearAt = mms.ClearAtNextUserMessage })), "", "", ""},
		{"clear_at on user", sysParams(withField(mms.UserText("u"), func(m *mms.MessageParam) { m.ClearAt = mms.ClearAtNever })),
			"messages[1].clear_at", "only allowed on a system message", "messages.1.clear_at: Extra inputs are not permitted"},
		{"output_config on assistant", sysParams(withField(mms.AssistantText("a"), func(m *mms.MessageParam) {
			m.OutputConfig = &mms.MessageOutputConfig{Effort: mms.EffortLow}
		})), "messages[1].output_config", "only allowed on a system message", "messages.1.output_config: Extra inputs are not permitted"},
		{"only system messages", mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 64, Messages: []mms.MessageParam{mms.SystemMessageText("t")}},
			"messages", "at least one user or assistant message", "messages: at least one user or assistant message"},
		{"unknown role", sysParams(mms.MessageParam{Role: "developer", Content: mms.ContentBlocks{text}}), "messages[1].role",
			`must be "user", "assistant" or "system"`, "messages.1.role: Input should be 'user', 'assistant' or 'system'"},

		// Inline definitions.
		{"definition", sysParams(mms.SystemMessage(def(inlineLookup))), "", "", ""},
		{"definition in a user turn", sysParams(mms.UserMessage(text, def(inlineLookup))), "", "", ""},
		{"definition mcp_toolset", withMCPServer(sysParams(mms.SystemMessage(def(mms.MCPToolset{MCPServerName: "s"})))), "", "", ""},
		{"definition missing", sysParams(mms.SystemMessage(mms.ToolAdditionBlock{Tool: mms.ToolDefinitionRef{}})),
			"messages[1].content[0].tool.definition", "is required", "messages.1.content.0.tool.definition: Input should be a valid dictionary"},
		{"definition checked as a tools entry", sysParams(mms.SystemMessage(def(mms.CustomTool{Name: "bad name", InputSchema: mms.InputSchema(`{"type":"object"}`)}))),
			"messages[1].content[0].tool.definition.name", "must match", "messages.1.content.0.tool.definition.name: String should match pattern"},
		{"definition schema", sysParams(mms.SystemMessage(def(mms.CustomTool{Name: "lookup"}))),
			"messages[1].content[0].tool.definition.input_schema", "", "messages.1.content.0.tool.definition.input_schema: Input should be a valid dictionary"},
		{"tool_removal of a definition", sysParams(mms.SystemMessage(mms.ToolRemovalBlock{Tool: mms.ToolDefinitionRef{Definition: inlineLookup}})),
			"messages[1].content[0].tool.type", "by reference", "messages.1.content.0.tool: Input tag 'tool_definition'"},
		{"tool_removal of a reference", sysParams(mms.SystemMessage(mms.ToolRemovalBlock{Tool: mms.MCPToolRef{ServerName: "s", Name: "n"}})), "", "", ""},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := newFake(t)
			count := mms.MessageCountTokensParams{Model: tt.p.Model, Messages: tt.p.Messages, MCPServers: tt.p.MCPServers}
			batch := mms.BatchCreateParams{Requests: []mms.BatchRequest{{CustomID: "a", Params: sysParams()}, {CustomID: "b", Params: tt.p}}}
			if tt.field == "" {
				require.NoError(t, tt.p.Validate())
				_, err := c.Messages.Create(ctx, tt.p)
				require.NoError(t, err, "the fake accepts what the SDK sends")
				_, err = c.Messages.CountTokens(ctx, count)
				require.NoError(t, err)
				_, err = c.Messages.Batches.Create(ctx, batch)
				require.NoError(t, err)
				return
			}
			for _, v := range []struct {
				prefix string
				err    error
			}{
				{"", tt.p.Validate()},
				{"", count.Validate()},
				{"requests[1].params.", batch.Validate()},
			} {
				var ve *mms.ValidationError
				require.True(t, errors.As(v.err, &ve), "want a *ValidationError, got %v", v.err)
				assert.Equal(t, v.prefix+tt.field, ve.Field)
				assert.Contains(t, ve.Rule, tt.rule)
			}
			_, err := c.Messages.Create(ctx, tt.p)
			require.Error(t, err)
			assert.Empty(t, srv.Requests(), "nothing is sent")

			// The fake refuses the same body.
			var raw json.RawMessage
			err = c.Do(ctx, http.MethodPost, "/v1/messages", &tt.p, &raw,
				option.WithBeta(betaToolChanges, betaClearAt, betaMsgOutput, betaInlineTools, betaMCPClient2025, betaMCPClient2026))
			wantFakeRefusal(t, err, tt.fake)
		})
	}
}

func withMCPServer(p mms.MessageCreateParams) mms.MessageCreateParams {
	p.MCPServers = mms.MCPServers{{Name: "s", URL: "https://mcp.example.com"}}
	return p
}

// TestSystemMessageBetas: the betas the members and blocks need are added
// to Create, CountTokens and batch create by themselves, and only those.
func TestSystemMessageBetas(t *testing.T) {
	add := func(ref mms.ToolChangeRef) mms.MessageParam {
		return mms.SystemMessage(mms.ToolAdditionBlock{Tool: ref})
	}
	tests := []struct {
		name string
		msg  mms.MessageParam
		mcp  bool
		want []string
		not  []string
	}{
		{"text: GA", mms.SystemMessageText("t"), false, nil, []string{betaToolChanges, betaClearAt, betaMsgOutput, betaInlineTools}},
		{"clear_at", func() mms.MessageParam {
			m := mms.SystemMessageText("t")
			m.ClearAt = mms.ClearAtNextUserMessage
			return m
		}(), false, []string{betaClearAt}, []string{betaMsgOutput}},
		{"output_config", mms.SystemEffort(mms.EffortHigh), false, []string{betaMsgOutput}, []string{betaClearAt}},
		{"tool change", add(mms.ToolRef{Name: "t"}), false, []string{betaToolChanges}, []string{betaInlineTools}},
		{"tool change in a user turn", mms.UserMessage(mms.TextBlock{Text: "x"}, mms.ToolRemovalBlock{Tool: mms.ToolRef{Name: "t"}}), false,
			[]string{betaToolChanges}, nil},
		{"inline definition", add(mms.ToolDefinitionRef{Definition: inlineLookup}), false, []string{betaToolChanges, betaInlineTools}, []string{betaMCPClient2026}},
		{"inline mcp_toolset", add(mms.ToolDefinitionRef{Definition: mms.MCPToolset{MCPServerName: "s"}}), true,
			[]string{betaToolChanges, betaInlineTools, betaMCPClient2025, betaMCPClient2026}, nil},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := newFake(t)
			p := sysParams(tt.msg)
			if tt.mcp {
				p = withMCPServer(p)
			}
			_, err := c.Messages.Create(ctx, p)
			require.NoError(t, err)
			_, err = c.Messages.CountTokens(ctx, mms.MessageCountTokensParams{Model: p.Model, Messages: p.Messages, MCPServers: p.MCPServers})
			require.NoError(t, err)
			_, err = c.Messages.Batches.Create(ctx, mms.BatchCreateParams{Requests: []mms.BatchRequest{{CustomID: "a", Params: p}}})
			require.NoError(t, err)
			reqs := srv.Requests()
			require.Len(t, reqs, 3)
			for _, r := range reqs {
				got := r.Header.Get(wire.HeaderBeta)
				for _, b := range tt.want {
					assert.Contains(t, got, b, r.Path)
				}
				for _, b := range tt.not {
					assert.NotContains(t, got, b, r.Path)
				}
			}
		})
	}
}

// TestSystemMessageNotATurn: the fake answers the user text around a system
// message, and the system text counts toward input tokens in Create and
// CountTokens alike.
func TestSystemMessageNotATurn(t *testing.T) {
	ctx := context.Background()
	c, _ := newFake(t)
	p := sysParams(mms.SystemMessageText(strings.Repeat("Answer in French. ", 40)))
	msg, err := c.Messages.Create(ctx, p)
	require.NoError(t, err)
	assert.Equal(t, "You said: Hi\nok", msg.Content[0].(mms.TextBlock).Text)
	n, err := c.Messages.CountTokens(ctx, mms.MessageCountTokensParams{Model: p.Model, Messages: p.Messages})
	require.NoError(t, err)
	assert.Equal(t, msg.Usage.InputTokens, n.InputTokens)
	plain, err := c.Messages.CountTokens(ctx, mms.MessageCountTokensParams{Model: p.Model, Messages: sysParams().Messages})
	require.NoError(t, err)
	assert.Greater(t, n.InputTokens, plain.InputTokens+150)
}

// TestInlineToolNameConflict: the fake's tool_name_conflict reaches the
// caller as the error code.
func TestInlineToolNameConflict(t *testing.T) {
	c, _ := newFake(t)
	p := sysParams(mms.SystemMessage(mms.ToolAdditionBlock{Tool: mms.ToolDefinitionRef{Definition: inlineLookup}}))
	p.Tools = mms.Tools{inlineLookup}
	_, err := c.Messages.Create(context.Background(), p)
	var apiErr *mms.Error
	require.True(t, errors.As(err, &apiErr), "%v", err)
	assert.Equal(t, mms.ErrorCodeToolNameConflict, apiErr.Code)
}
