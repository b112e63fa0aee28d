package mmstest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/wire"

	"github.com/stretchr/testify/require"
)

const (
	messagesPath = "/v1/messages"
	countPath    = "/v1/messages/count_tokens"
	hi           = `[{"role":"user","content":"Hi"}]`
)

// post sends body to path on s with the given beta values.
func post(t *testing.T, s *Server, path, body string, betas ...string) (*http.Response, []byte) {
	t.Helper()
	req := newReq(t, s, http.MethodPost, path, strings.NewReader(body))
	req.Header.Set(wire.HeaderContentType, "application/json")
	if len(betas) > 0 {
		req.Header.Set(wire.HeaderBeta, strings.Join(betas, ","))
	}
	return send(t, s, req)
}

// create is a create body for mms-large-1 with max_tokens 2048 and the given
// members (a JSON fragment, messages included).
func create(members string) string {
	return `{"model":"mms-large-1","max_tokens":2048,` + members + `}`
}

// count is a count_tokens body for mms-large-1 with the given members.
func count(members string) string {
	return `{"model":"mms-large-1",` + members + `}`
}

// userAssistantUser is a conversation whose assistant turn holds block (a
// JSON object) and whose last user turn says "ok".
func userAssistantUser(block string) string {
	return `"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":[` + block +
		`]},{"role":"user","content":"ok"}]`
}

// imageBlock is an image block with the given media type and data.
func imageBlock(mediaType string, data []byte, oversized string) string {
	tr := ""
	if oversized != "" {
		tr = `,"transformations":{"oversized_image":"` + oversized + `"}`
	}
	return `{"type":"image","source":{"type":"base64","media_type":"` + mediaType + `","data":"` +
		base64.StdEncoding.EncodeToString(data) + `"}` + tr + `}`
}

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// webpVP8X is the header of an extended-format WebP of the given size.
func webpVP8X(w, h int) []byte {
	b := []byte("RIFF\x00\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x00\x00\x00\x00")
	for _, v := range []int{w - 1, h - 1} {
		b = append(b, byte(v), byte(v>>8), byte(v>>16))
	}
	return b
}

func userContent(blocks ...string) string {
	return `"messages":[{"role":"user","content":[` + strings.Join(blocks, ",") + `]}]`
}

func TestMessagesValidation(t *testing.T) {
	many := strings.TrimSuffix(strings.Repeat(`{"role":"user","content":"a"},`, 100_001), ",")
	tooLong := strings.Repeat("x", 4*100_000)
	png9000 := pngOf(t, 9000, 10)
	toolUse := `{"type":"tool_use","id":"toolu_1","name":"get","input":{}}`
	tests := []struct {
		name   string
		path   string // default messagesPath
		body   string
		betas  []string
		status int    // default 400
		msg    string // exact, or a prefix when it ends in "..."
	}{
		// Body and top-level members.
		{name: "empty body", body: "", msg: "request body is empty; a JSON body is required"},
		{name: "invalid JSON", body: `{"model":`, msg: "request body is not valid JSON"},
		{name: "not an object", body: `[1]`, msg: "body: Input should be a valid dictionary"},
		{name: "extra top-level member", body: create(`"messages":` + hi + `,"foo":1`), msg: "foo: Extra inputs are not permitted"},
		{name: "model required", body: `{"max_tokens":1,"messages":` + hi + `}`, msg: "model: Field required"},
		{name: "max_tokens required", body: `{"model":"mms-large-1","messages":` + hi + `}`, msg: "max_tokens: Field required"},
		{name: "messages required", body: create(`"system":"s"`), msg: "messages: Field required"},
		{name: "max_tokens negative", body: `{"model":"mms-large-1","max_tokens":-1,"messages":` + hi + `}`,
			msg: "max_tokens: Input should be greater than or equal to 0"},
		{name: "max_tokens fraction", body: `{"model":"mms-large-1","max_tokens":1.5,"messages":` + hi + `}`,
			msg: "max_tokens: Input should be a valid integer"},
		{name: "max_tokens string", body: `{"model":"mms-large-1","max_tokens":"9","messages":` + hi + `}`,
			msg: "max_tokens: Input should be a valid integer"},
		{name: "temperature above 1", body: create(`"temperature":1.5,"messages":` + hi),
			msg: "temperature: Input should be less than or equal to 1"},
		{name: "service_tier enum", body: create(`"service_tier":"fast","messages":` + hi),
			msg: "service_tier: Input should be 'auto' or 'standard_only'"},
		{name: "stream not bool", body: create(`"stream":"yes","messages":` + hi), msg: "stream: Input should be a valid boolean"},
		{name: "metadata extra", body: create(`"metadata":{"user_id":"u","email":"e"},"messages":` + hi),
			msg: "metadata.email: Extra inputs are not permitted"},
		{name: "container object", status: 200, body: create(`"container":{"skills":[{"type":"vendor","skill_id":"pdf"}]},"messages":` + hi)},
		{name: "container not issued", status: 404, body: create(`"container":{"id":"c","skills":[{"type":"vendor","skill_id":"pdf"}]},"messages":` + hi),
			msg: "container: c not found"},
		{name: "system image block", body: create(`"system":[{"type":"image","source":{"type":"url","url":"u"}}],"messages":` + hi),
			msg: "system.0: Input tag 'image' found using 'type' does not match any of the expected tags: 'text'"},

		// Messages and blocks.
		{name: "no messages", body: create(`"messages":[]`), msg: "messages: List should have at least 1 item after validation, not 0"},
		{name: "too many messages", body: create(`"messages":[` + many + `]`),
			msg: "messages: List should have at most 100000 items after validation, not 100001"},
		{name: "system role string content", body: create(`"messages":[{"role":"system","content":"x"}]`),
			msg: "messages.0.content: Input should be a valid list (a system message takes an array of blocks)"},
		{name: "unknown role", body: create(`"messages":[{"role":"developer","content":"x"}]`),
			msg: "messages.0.role: Input should be 'user', 'assistant' or 'system'"},
		{name: "content required", body: create(`"messages":[{"role":"user"}]`), msg: "messages.0.content: Field required"},
		{name: "empty string content", body: create(`"messages":[{"role":"user","content":""}]`),
			msg: "messages.0.content: String should have at least 1 character"},
		{name: "empty text block", body: create(userContent(`{"type":"text","text":""}`)),
			msg: "messages.0.content.0.text: String should have at least 1 character"},
		{name: "content number", body: create(`"messages":[{"role":"user","content":7}]`),
			msg: "messages.0.content: Input should be a valid string or a valid list"},
		{name: "unknown block type", body: create(userContent(`{"type":"video","url":"u"}`)),
			msg: "messages.0.content.0: Input tag 'video' found using 'type' does not match any of the expected tags: 'advisor_tool_result', ..."},
		{name: "block without type", body: create(userContent(`{"text":"x"}`)),
			msg: "messages.0.content.0: Unable to extract tag using discriminator 'type'"},
		{name: "citation file_id", body: create(userContent(`{"type":"text","text":"x","citations":[{"type":"char_location",` +
			`"cited_text":"a","document_index":0,"document_title":null,"start_char_index":0,"end_char_index":1,"file_id":"file_1"}]}`)),
			msg: "messages.0.content.0.citations.0.file_id: Extra inputs are not permitted"},
		{name: "citation page number", body: create(userContent(`{"type":"text","text":"x","citations":[{"type":"page_location",` +
			`"cited_text":"a","document_index":0,"start_page_number":0,"end_page_number":1}]}`)),
			msg: "messages.0.content.0.citations.0.start_page_number: Input should be greater than or equal to 1"},
		{name: "document title too long", body: create(userContent(`{"type":"document","title":"` + strings.Repeat("t", 501) +
			`","source":{"type":"text","media_type":"text/plain","data":"d"}}`)),
			msg: "messages.0.content.0.title: String should have at most 500 characters"},
		{name: "document source media type", body: create(userContent(`{"type":"document","source":{"type":"text","media_type":"text/html","data":"d"}}`)),
			msg: "messages.0.content.0.source.media_type: Input should be 'text/plain'"},
		{name: "tool_result nested image extra", body: create(`"tools":[{"name":"get","input_schema":{"type":"object"}}],` +
			`"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":[` + toolUse + `]},` +
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"image","source":{"type":"url","url":"u","alt":"a"}}]}]}]`),
			msg: "messages.2.content.0.content.0.source.alt: Extra inputs are not permitted"},
		{name: "caller type", body: create(userAssistantUser(`{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{},"caller":{"type":"indirect"}}`)),
			msg: "messages.1.content.0.caller: Input tag 'indirect' found using 'type' does not match any of the expected tags: " +
				"'code_execution_20250825', 'code_execution_20260120' or 'direct'"},
		{name: "server tool name", body: create(userAssistantUser(`{"type":"server_tool_use","id":"srvtoolu_1","name":"shell","input":{}}`)),
			msg: "messages.1.content.0.name: Input should be 'web_search', 'web_fetch', 'code_execution', 'bash_code_execution', " +
				"'text_editor_code_execution', 'tool_search_tool_regex', 'tool_search_tool_bm25' or 'advisor'"},
		{name: "web search result extra", body: create(userAssistantUser(`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1",` +
			`"content":[{"type":"web_search_result","encrypted_content":"e","title":"t","url":"u","score":1}]}`)),
			msg: "messages.1.content.0.content.0.score: Extra inputs are not permitted"},
		{name: "web search error form", status: 200, body: create(userAssistantUser(`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1",` +
			`"content":{"type":"web_search_tool_result_error","error_code":"unavailable"}}`))},
		{name: "thinking has no cache_control", body: create(userAssistantUser(`{"type":"thinking","thinking":"t","signature":"s","cache_control":{"type":"ephemeral"}}`)),
			msg: "messages.1.content.0.cache_control: Extra inputs are not permitted"},
		{name: "cache_control ttl", body: create(userContent(`{"type":"text","text":"x","cache_control":{"type":"ephemeral","ttl":"1d"}}`)),
			msg: "messages.0.content.0.cache_control.ttl: Input should be '5m' or '1h'"},
		{name: "browser_state outside tool_result", body: create(userContent(`{"type":"browser_state","tabs":[]}`)),
			msg: "messages.0.content.0: Input tag 'browser_state' found using 'type' does not match any of the expected tags: 'advisor_tool_result', ..."},

		{name: "search_result block", status: 200, body: create(userContent(`{"type":"search_result","source":"https://example.com",` +
			`"title":"t","content":[{"type":"text","text":"c"}],"citations":{"enabled":true}}`))},
		{name: "browser_state in tool_result", status: 200, body: create(`"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":[` +
			`{"type":"tool_use","id":"toolu_1","name":"navigate","input":{},"toolset_name":"browser"}]},` +
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"browser_state",` +
			`"tabs":[{"tab_id":"1","title":"t","url":"u","active":true}],"state_changes":[{"type":"tab_opened","tab_id":"1"}]}]}]}]`)},
		// Beta-only pieces.
		{name: "advisor block needs beta", body: create(userAssistantUser(`{"type":"advisor_tool_result","tool_use_id":"srvtoolu_1",` +
			`"content":{"type":"advisor_result","text":"t"}}`)),
			msg: "messages.1.content.0: type 'advisor_tool_result' requires the vendor-beta header value `advisor-tool-2026-03-01`"},
		{name: "advisor block with beta", status: 200, betas: []string{"advisor-tool-2026-03-01"},
			body: create(userAssistantUser(`{"type":"advisor_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"advisor_result","text":"t"}}`))},
		{name: "mcp_tool_use needs beta", body: create(userAssistantUser(`{"type":"mcp_tool_use","id":"m","name":"n","server_name":"s","input":{}}`)),
			msg: "messages.1.content.0: type 'mcp_tool_use' requires the vendor-beta header value `mcp-client-2025-04-04` or `mcp-client-2025-11-20` or `mcp-client-2026-09-15`"},
		{name: "fallback block with beta", status: 200, betas: []string{"server-side-fallback-2026-07-01"},
			body: create(userAssistantUser(`{"type":"fallback","from":{"model":"a"},"to":{"model":"b"},"trigger":{"type":"refusal","category":null}}`))},
		{name: "tool_addition needs beta", body: create(userContent(`{"type":"tool_addition","tool":{"type":"tool_reference","name":"t"}}`)),
			msg: "messages.0.content.0: type 'tool_addition' requires the vendor-beta header value `mid-conversation-tool-changes-2026-07-01`"},
		{name: "compaction block with beta", status: 200, betas: []string{"context-management-2025-06-27"},
			body: create(userContent(`{"type":"compaction","content":"summary","encrypted_content":null},{"type":"text","text":"go on"}`))},
		{name: "mcp_toolset needs the newer MCP beta", betas: []string{"mcp-client-2025-04-04"},
			body: create(`"tools":[{"type":"mcp_toolset","mcp_server_name":"s"}],"messages":` + hi),
			msg:  "tools.0: type 'mcp_toolset' requires the vendor-beta header value `mcp-client-2025-11-20` or `mcp-client-2026-09-15`"},
		{name: "mcp_toolset", status: 200, betas: []string{"mcp-client-2025-11-20"},
			body: create(`"mcp_servers":[{"type":"url","name":"s","url":"https://mcp.example.com"}],` +
				`"tools":[{"type":"mcp_toolset","mcp_server_name":"s","configs":{"search":{"enabled":false}}}],"messages":` + hi)},
		{name: "context_management needs beta", body: create(`"context_management":{"edits":[]},"messages":` + hi),
			msg: "context_management: this field requires the vendor-beta header value `context-management-2025-06-27`"},
		{name: "context_management with beta", status: 200, betas: []string{"context-management-2025-06-27"},
			body: create(`"context_management":{"edits":[{"type":"clear_thinking_20251015","keep":"all"}]},"messages":` + hi)},
		{name: "mcp_servers needs beta", body: create(`"mcp_servers":[{"type":"url","name":"n","url":"u"}],"messages":` + hi),
			msg: "mcp_servers: this field requires the vendor-beta header value `mcp-client-2025-04-04` or `mcp-client-2025-11-20` or `mcp-client-2026-09-15`"},
		{name: "speed needs beta", body: create(`"speed":"fast","messages":` + hi),
			msg: "speed: this field requires the vendor-beta header value `fast-mode-2026-02-01`"},
		{name: "output_format needs beta", body: create(`"output_format":{"type":"json_schema","schema":{}},"messages":` + hi),
			msg: "output_format: this field requires the vendor-beta header value `structured-outputs-2025-12-15`"},
		{name: "diagnostics needs beta", body: create(`"diagnostics":{"previous_message_id":null},"messages":` + hi),
			msg: "diagnostics: this field requires the vendor-beta header value `cache-diagnosis-2026-04-07`"},
		{name: "fallbacks need beta", body: create(`"fallbacks":[{"model":"mms-medium-1"}],"messages":` + hi),
			msg: "fallbacks: this field requires the vendor-beta header value `server-side-fallback-2026-06-01` or `server-side-fallback-2026-07-01`"},
		{name: "fallback param extra", betas: []string{"server-side-fallback-2026-06-01"}, body: create(`"fallbacks":[{"model":"m","temperature":1}],"messages":` + hi),
			msg: "fallbacks.0.temperature: Extra inputs are not permitted"},
		{name: "credit token object needs newer beta", betas: []string{"fallback-credit-2026-06-01"},
			body: create(`"fallback_credit_token":{"token":"t"},"messages":` + hi),
			msg:  "fallback_credit_token: this form requires the vendor-beta header value `fallback-credit-2026-07-01`"},
		{name: "credit token string", status: 200, betas: []string{"fallback-credit-2026-06-01"},
			body: create(`"fallback_credit_token":"t","messages":` + hi)},
		{name: "fallbacks with credit token", betas: []string{"fallback-credit-2026-06-01", "server-side-fallback-2026-07-01"},
			body: create(`"fallback_credit_token":"t","fallbacks":"default","messages":` + hi),
			msg:  "fallback_credit_token: cannot be combined with fallbacks"},
		{name: "output_format with output_config.format", betas: []string{"structured-outputs-2025-12-15"},
			body: create(`"output_format":{"type":"json_schema","schema":{}},"output_config":{"format":{"type":"json_schema","schema":{}}},"messages":` + hi),
			msg:  "output_format: cannot be combined with output_config.format; send output_config.format only"},

		// Tools and tool_choice.
		{name: "unknown tool type", body: create(`"tools":[{"type":"hammer_20250101","name":"hammer"}],"messages":` + hi),
			msg: "tools.0: Input tag 'hammer_20250101' found using 'type' does not match any of the expected tags: 'advisor_20260301', ..."},
		{name: "custom tool without schema", body: create(`"tools":[{"name":"get"}],"messages":` + hi), msg: "tools.0.input_schema: Field required"},
		{name: "custom tool null type", status: 200, body: create(`"tools":[{"type":null,"name":"get","input_schema":{"type":"object","x-extra":1}}],"messages":` + hi)},
		{name: "input_schema type", body: create(`"tools":[{"name":"get","input_schema":{"type":"string"}}],"messages":` + hi),
			msg: "tools.0.input_schema.type: Input should be 'object'"},
		{name: "versioned tool name", body: create(`"tools":[{"type":"bash_20250124","name":"shell"}],"messages":` + hi),
			msg: "tools.0.name: Input should be 'bash'"},
		{name: "member of another tool version", body: create(`"tools":[{"type":"web_fetch_20250910","name":"web_fetch","use_cache":false}],"messages":` + hi),
			msg: "tools.0.use_cache: Extra inputs are not permitted"},
		{name: "toolset config key", body: create(`"tools":[{"type":"computer_toolset_20260801","configs":{"teleport":{"enabled":true}}}],"messages":` + hi),
			msg: "tools.0.configs.teleport: Extra inputs are not permitted"},
		{name: "advisor tool needs beta", body: create(`"tools":[{"type":"advisor_20260301","name":"advisor","model":"m"}],"messages":` + hi),
			msg: "tools.0: type 'advisor_20260301' requires the vendor-beta header value `advisor-tool-2026-03-01`"},
		{name: "duplicate tool names", body: create(`"tools":[{"name":"a","input_schema":{"type":"object"}},{"name":"a","input_schema":{"type":"object"}}],"messages":` + hi),
			msg: "tools: Tool names must be unique. Duplicate name: a"},
		{name: "allowed and blocked domains", body: create(`"tools":[{"type":"web_search_20250305","name":"web_search","allowed_domains":["a"],"blocked_domains":["b"]}],"messages":` + hi),
			msg: "tools.0: allowed_domains and blocked_domains cannot both be set"},
		{name: "tool_choice type", body: create(`"tool_choice":{"type":"some"},"messages":` + hi),
			msg: "tool_choice: Input tag 'some' found using 'type' does not match any of the expected tags: 'any', 'auto', 'none' or 'tool'"},
		{name: "tool_choice tool name", body: create(`"tool_choice":{"type":"tool"},"messages":` + hi), msg: "tool_choice.name: Field required"},
		{name: "tool_choice none extra", body: create(`"tool_choice":{"type":"none","disable_parallel_tool_use":true},"messages":` + hi),
			msg: "tool_choice.disable_parallel_tool_use: Extra inputs are not permitted"},

		// Thinking and output_config.
		{name: "budget below 1024", body: create(`"thinking":{"type":"enabled","budget_tokens":1000},"messages":` + hi),
			msg: "thinking.budget_tokens: Input should be greater than or equal to 1024"},
		{name: "budget not below max_tokens", body: `{"model":"mms-large-1","max_tokens":1024,"thinking":{"type":"enabled","budget_tokens":1024},"messages":` + hi + `}`,
			msg: "max_tokens: `max_tokens` must be greater than `thinking.budget_tokens`"},
		{name: "budget required", body: create(`"thinking":{"type":"enabled"},"messages":` + hi), msg: "thinking.budget_tokens: Field required"},
		{name: "adaptive takes no budget", body: create(`"thinking":{"type":"adaptive","budget_tokens":2000},"messages":` + hi),
			msg: "thinking.budget_tokens: Extra inputs are not permitted"},
		{name: "thinking with forced tool", body: create(`"thinking":{"type":"adaptive"},"tool_choice":{"type":"any"},"messages":` + hi),
			msg: "Thinking may not be enabled when tool_choice forces tool use."},
		{name: "prefill without thinking block", body: create(`"thinking":{"type":"adaptive"},"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Sure"}]`),
			msg: "messages.1.content: Expected `thinking` or `redacted_thinking`, but found `text`. When `thinking` is enabled, a final `assistant` message must start with a thinking block."},
		{name: "effort enum", body: create(`"output_config":{"effort":"extreme"},"messages":` + hi),
			msg: "output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'"},
		{name: "task_budget", status: 200, body: create(`"output_config":{"task_budget":{"type":"tokens","total":5000}},"messages":` + hi)},

		// Tool use pairing and merged turns.
		{name: "orphan tool_result", body: create(`"messages":[{"role":"user","content":"Use it."},{"role":"assistant","content":[` +
			`{"type":"server_tool_use","id":"srvtoolu_01Fv","name":"web_search","input":{}},` + toolUse + `]},` +
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"srvtoolu_01Fv","content":"x","is_error":true},` +
			`{"type":"tool_result","tool_use_id":"toolu_1","content":"done"}]}]`),
			msg: "messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: srvtoolu_01Fv. Each `tool_result` block " +
				"must have a corresponding `tool_use` block in the previous message."},
		{name: "tool_result first", body: create(userContent(`{"type":"tool_result","tool_use_id":"toolu_1"}`)),
			msg: "messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_1. Each `tool_result` block " +
				"must have a corresponding `tool_use` block in the previous message."},
		{name: "tool_use unanswered", body: create(userAssistantUser(toolUse)),
			msg: "messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` " +
				"block must have a corresponding `tool_result` block in the next message."},
		{name: "same-role turns merge", status: 200, body: create(`"messages":[{"role":"user","content":"Hi"},` +
			`{"role":"assistant","content":[` + toolUse + `]},{"role":"assistant","content":"Calling."},` +
			`{"role":"user","content":"Here:"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1"}]}]`)},
		{name: "prefill may hold tool_use", status: 200, body: create(`"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":[` + toolUse + `]}]`)},

		// Images.
		{name: "oversized image refused", body: create(userContent(imageBlock("image/png", png9000, "error"))),
			msg: `messages.0.content.0: image is 9000x10 px, larger than the maximum of 8000x8000 px; the largest that fits is ` +
				`8000x8 px (or send transformations.oversized_image "downsize")`},
		{name: "oversized image downsized", status: 200, body: create(userContent(imageBlock("image/png", png9000, "downsize")))},
		{name: "oversized webp", body: create(userContent(imageBlock("image/webp", webpVP8X(6000, 12000), "error"))),
			msg: `messages.0.content.0: image is 6000x12000 px, larger than the maximum of 8000x8000 px; the largest that fits is ` +
				`4000x8000 px (or send transformations.oversized_image "downsize")`},
		{name: "image in tool_result", body: create(`"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":[` + toolUse + `]},` +
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[` + imageBlock("image/png", png9000, "error") + `]}]}]`),
			msg: "messages.2.content.0.content.0: image is 9000x10 px, ..."},
		{name: "image in a content document", body: create(userContent(`{"type":"document","source":{"type":"content","content":[` +
			imageBlock("image/png", png9000, "error") + `]}}`)),
			msg: "messages.0.content.0.source.content.0: image is 9000x10 px, ..."},
		{name: "image media type mismatch", body: create(userContent(imageBlock("image/jpeg", pngOf(t, 2, 2), ""))),
			msg: "messages.0.content.0.source.media_type: The image was specified using the image/jpeg media type, but the image appears to be a image/png image"},
		{name: "image not base64", body: create(userContent(`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"%%%"}}`)),
			msg: "messages.0.content.0.source.data: The image data is not valid base64"},
		{name: "image not an image", body: create(userContent(imageBlock("image/gif", []byte("hello"), ""))),
			msg: "messages.0.content.0.source: Could not process image"},
		{name: "oversized_image enum", body: create(userContent(imageBlock("image/png", pngOf(t, 2, 2), "crop"))),
			msg: "messages.0.content.0.transformations.oversized_image: Input should be 'downsize' or 'error'"},

		// Models.
		{name: "unknown model", status: 404, body: `{"model":"nope","max_tokens":1,"messages":` + hi + `}`, msg: "model: nope"},
		{name: "alias", status: 200, body: `{"model":"mms-small-latest","max_tokens":1,"messages":` + hi + `}`},
		{name: "max_tokens above the model's", body: `{"model":"mms-tiny-0","max_tokens":9000,"messages":` + hi + `}`,
			msg: "max_tokens: 9000 > 8192, which is the maximum allowed number of output tokens for mms-tiny-0"},
		{name: "prompt too long", body: `{"model":"mms-tiny-0","max_tokens":1,"messages":[{"role":"user","content":"` + tooLong + `"}]}`,
			msg: "prompt is too long: 100008 tokens > 100000 maximum"},
		{name: "effort unsupported", body: `{"model":"mms-small-1","max_tokens":1,"output_config":{"effort":"low"},"messages":` + hi + `}`,
			msg: "This model does not support the effort parameter."},
		{name: "thinking type unsupported", body: `{"model":"mms-small-1","max_tokens":1,"thinking":{"type":"adaptive"},"messages":` + hi + `}`,
			msg: "thinking.type: This model does not support thinking type 'adaptive'."},

		// count_tokens takes only its own fields (messages.md §11).
		{name: "count_tokens", path: countPath, status: 200, body: count(`"system":"s","tools":[],"thinking":{"type":"enabled","budget_tokens":4096},"messages":` + hi)},
		{name: "count_tokens max_tokens", path: countPath, body: create(`"messages":` + hi), msg: "max_tokens: Extra inputs are not permitted"},
		{name: "count_tokens stream", path: countPath, body: count(`"stream":false,"messages":` + hi), msg: "stream: Extra inputs are not permitted"},
		{name: "count_tokens fallbacks", path: countPath, betas: []string{"server-side-fallback-2026-06-01"},
			body: count(`"fallbacks":"default","messages":` + hi), msg: "fallbacks: Extra inputs are not permitted"},
		{name: "count_tokens beta field", path: countPath, body: count(`"speed":"fast","messages":` + hi),
			msg: "speed: this field requires the vendor-beta header value `fast-mode-2026-02-01`"},
		{name: "count_tokens blocks", path: countPath, body: count(userContent(`{"type":"text","text":"x","file_id":"f"}`)),
			msg: "messages.0.content.0.file_id: Extra inputs are not permitted"},
		{name: "count_tokens model", path: countPath, status: 404, body: `{"model":"nope","messages":` + hi + `}`, msg: "model: nope"},
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
			if resp.StatusCode != status {
				t.Fatalf("status = %d, want %d; body %s", resp.StatusCode, status, body)
			}
			if status == http.StatusOK {
				return
			}
			got := decodeError(t, body).Error.Message
			if prefix, ok := strings.CutSuffix(tt.msg, "..."); ok && strings.HasPrefix(got, prefix) {
				return
			}
			if got != tt.msg {
				t.Errorf("message\n got: %s\nwant: %s", got, tt.msg)
			}
		})
	}
}

// TestSchemaNotes pins two decisions of the request form.
func TestSchemaNotes(t *testing.T) {
	s := newTestServer(t)
	// abort_reason is outside the spec but in recorded responses.
	block := `{"type":"code_execution_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"code_execution_result",` +
		`"stdout":"","stderr":"","return_code":0,"content":[],"abort_reason":null}}`
	if resp, body := post(t, s, messagesPath, create(userAssistantUser(block))); resp.StatusCode != 200 {
		t.Errorf("abort_reason refused: %s", body)
	}
	// Beta values may be sent as repeated header lines.
	req := newReq(t, s, http.MethodPost, messagesPath, strings.NewReader(create(`"speed":"fast","messages":`+hi)))
	req.Header.Add(wire.HeaderBeta, "context-management-2025-06-27")
	req.Header.Add(wire.HeaderBeta, "fast-mode-2026-02-01")
	if resp, body := send(t, s, req); resp.StatusCode != 200 {
		t.Errorf("repeated beta lines: %s", body)
	}
}

// postMessage posts a create body and decodes the Message it must get.
func postMessage(t *testing.T, s *Server, body string, betas ...string) map[string]any {
	t.Helper()
	resp, b := post(t, s, messagesPath, body, betas...)
	return decodeMessage(t, resp, b)
}

// decodeMessage decodes a 200 Message body.
func decodeMessage(t *testing.T, resp *http.Response, body []byte) map[string]any {
	t.Helper()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// rawMember returns the JSON of a member of the object body, as sent.
func rawMember(t *testing.T, body []byte, name string) string {
	t.Helper()
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		t.Fatal(err)
	}
	return string(members[name])
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestMessagesReply(t *testing.T) {
	city := `{"name":"lookup_city","input_schema":{"type":"object","properties":{"q":{"type":"string"},` +
		`"units":{"enum":["metric","imperial"]},"days":{"type":["integer","null"]},"exact":{"type":"boolean"},` +
		`"tags":{"type":"array"},"at":{"type":"object","properties":{"lat":{"type":"number"}},"required":["lat"]},` +
		`"opt":{"type":"string"}},"required":["q","units","days","exact","tags","at"]}}`
	timeTool := `{"name":"time","input_schema":{"type":"object"}}`
	tools := `"tools":[` + city + `,` + timeTool + `,{"type":"web_search_20250305","name":"web_search"}],`
	cityUse := func(id, q string) string {
		return `{"type":"tool_use","id":"` + id + `","name":"lookup_city","input":{"q":"` + q + `","units":"metric","days":1,` +
			`"exact":true,"tags":[],"at":{"lat":1}},"caller":{"type":"direct"}}`
	}
	tests := []struct {
		name       string
		body       string
		content    string // JSON
		stop       string
		stopSeq    any
		output     float64 // output_tokens, when not 0
		thinkToken float64 // output_tokens_details.thinking_tokens, when not 0
	}{
		{name: "echo", body: create(`"messages":[{"role":"user","content":"Hello"}]`),
			content: `[{"type":"text","text":"You said: Hello"}]`, stop: "end_turn", output: 4},
		{name: "text blocks joined", body: create(userContent(`{"type":"text","text":"a"}`, `{"type":"text","text":"b"}`)),
			content: `[{"type":"text","text":"You said: a\nb"}]`, stop: "end_turn"},
		{name: "named tool", body: create(tools + `"messages":[{"role":"user","content":"Use lookup_city for Oslo"}]`),
			content: `[{"type":"text","text":"You said: Use lookup_city for Oslo"},` + cityUse("toolu_010000000000000000000001", "Use lookup_city for Oslo") + `]`,
			stop:    "tool_use"},
		{name: "no tool named", body: create(tools + `"messages":[{"role":"user","content":"Search the web"}]`),
			content: `[{"type":"text","text":"You said: Search the web"}]`, stop: "end_turn"},
		{name: "parallel tools", body: create(tools + `"messages":[{"role":"user","content":"time and lookup_city"}]`),
			content: `[{"type":"text","text":"You said: time and lookup_city"},` + cityUse("toolu_010000000000000000000001", "time and lookup_city") + `,` +
				`{"type":"tool_use","id":"toolu_010000000000000000000002","name":"time","input":{},"caller":{"type":"direct"}}]`, stop: "tool_use"},
		{name: "disable parallel", body: create(tools + `"tool_choice":{"type":"auto","disable_parallel_tool_use":true},` +
			`"messages":[{"role":"user","content":"time and lookup_city"}]`),
			content: `[{"type":"text","text":"You said: time and lookup_city"},` + cityUse("toolu_010000000000000000000001", "time and lookup_city") + `]`, stop: "tool_use"},
		{name: "tool_choice none", body: create(tools + `"tool_choice":{"type":"none"},"messages":[{"role":"user","content":"time"}]`),
			content: `[{"type":"text","text":"You said: time"}]`, stop: "end_turn"},
		{name: "tool_choice any", body: create(tools + `"tool_choice":{"type":"any"},"messages":[{"role":"user","content":"Hi"}]`),
			content: `[{"type":"text","text":"You said: Hi"},` + cityUse("toolu_010000000000000000000001", "Hi") + `]`, stop: "tool_use"},
		{name: "tool_choice tool", body: create(tools + `"tool_choice":{"type":"tool","name":"time"},"messages":[{"role":"user","content":"lookup_city"}]`),
			content: `[{"type":"text","text":"You said: lookup_city"},{"type":"tool_use","id":"toolu_010000000000000000000001","name":"time","input":{},"caller":{"type":"direct"}}]`,
			stop:    "tool_use"},
		{name: "tool result answered", body: create(tools + `"messages":[{"role":"user","content":"time?"},` +
			`{"role":"assistant","content":[{"type":"tool_use","id":"toolu_9","name":"time","input":{}}]},` +
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_9","content":[{"type":"text","text":"noon, time"}]}]}]`),
			content: `[{"type":"text","text":"You said: noon, time"}]`, stop: "end_turn"},
		{name: "stop sequence", body: create(`"stop_sequences":["zzz","Paris","capital"],"messages":[{"role":"user","content":"The capital is Paris"}]`),
			content: `[{"type":"text","text":"You said: The "}]`, stop: "stop_sequence", stopSeq: "capital"},
		{name: "stop sequence drops tool_use", body: create(tools + `"stop_sequences":["city"],"messages":[{"role":"user","content":"lookup_city"}]`),
			content: `[{"type":"text","text":"You said: lookup_"}]`, stop: "stop_sequence", stopSeq: "city"},
		{name: "max_tokens 0", body: `{"model":"mms-large-1","max_tokens":0,"messages":` + hi + `}`,
			content: `[]`, stop: "max_tokens"},
		{name: "max_tokens cuts text", body: `{"model":"mms-large-1","max_tokens":3,"messages":[{"role":"user","content":"Hello"}]}`,
			content: `[{"type":"text","text":"You said: He"}]`, stop: "max_tokens", output: 3},
		{name: "max_tokens drops tool_use", body: `{"model":"mms-large-1","max_tokens":5,` + tools + `"messages":[{"role":"user","content":"time"}]}`,
			content: `[{"type":"text","text":"You said: time"}]`, stop: "max_tokens", output: 4},
		{name: "max_tokens wins over a later stop sequence", body: `{"model":"mms-large-1","max_tokens":3,"stop_sequences":["lo"],"messages":[{"role":"user","content":"Hello"}]}`,
			content: `[{"type":"text","text":"You said: He"}]`, stop: "max_tokens"},
		{name: "thinking", body: create(`"thinking":{"type":"enabled","budget_tokens":1024},"messages":[{"role":"user","content":"Hi"}]`),
			content: `[{"type":"thinking","thinking":"The user said: Hi","signature":"` + signThinking(0, "The user said: Hi") + `"},` +
				`{"type":"text","text":"You said: Hi"}]`, stop: "end_turn", output: 8, thinkToken: 5},
		{name: "thinking omitted", body: create(`"thinking":{"type":"adaptive","display":"omitted"},"messages":[{"role":"user","content":"Hi"}]`),
			content: `[{"type":"thinking","thinking":"","signature":"` + signThinking(0, "") + `"},{"type":"text","text":"You said: Hi"}]`, stop: "end_turn"},
		{name: "prefill", body: create(`"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Sure:"}]`),
			content: `[{"type":"text","text":"You said: Hi"}]`, stop: "end_turn"},
		{name: "prefill with thinking", body: create(`"thinking":{"type":"adaptive"},"messages":[{"role":"user","content":"Hi"},` +
			`{"role":"assistant","content":[{"type":"redacted_thinking","data":"x"}]}]`),
			content: `[{"type":"text","text":"You said: Hi"}]`, stop: "end_turn"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			resp, body := post(t, s, messagesPath, tt.body)
			m := decodeMessage(t, resp, body)
			if got := rawMember(t, body, "content"); got != tt.content {
				t.Errorf("content\n got: %s\nwant: %s", got, tt.content)
			}
			if m["stop_reason"] != tt.stop || m["stop_sequence"] != tt.stopSeq {
				t.Errorf("stop_reason %v, stop_sequence %v; want %v, %v", m["stop_reason"], m["stop_sequence"], tt.stop, tt.stopSeq)
			}
			usage := m["usage"].(map[string]any)
			if tt.output != 0 && usage["output_tokens"] != tt.output {
				t.Errorf("output_tokens = %v, want %v", usage["output_tokens"], tt.output)
			}
			if details, _ := usage["output_tokens_details"].(map[string]any); tt.thinkToken != 0 && details["thinking_tokens"] != tt.thinkToken {
				t.Errorf("output_tokens_details = %v, want thinking_tokens %v", details, tt.thinkToken)
			}
		})
	}
}

// TestMessageShape pins the Message object's members and their order.
func TestMessageShape(t *testing.T) {
	s := newTestServer(t)
	_, body := post(t, s, messagesPath, create(`"messages":[{"role":"user","content":"Hello"}]`))
	want := `{"model":"mms-large-1","id":"msg_010000000000000000000001","type":"message","role":"assistant",` +
		`"content":[{"type":"text","text":"You said: Hello"}],"container":null,"stop_reason":"end_turn","stop_sequence":null,"stop_details":null,` +
		`"usage":{"input_tokens":9,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,` +
		`"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":4,` +
		`"service_tier":"standard","inference_geo":"global"}}` + "\n"
	if string(body) != want {
		t.Errorf("body\n got: %s\nwant: %s", body, want)
	}
	_, body = post(t, s, messagesPath, create(`"model":"mms-medium-latest","inference_geo":"us","messages":`+hi),
		"context-management-2025-06-27")
	m := decodeMessage(t, &http.Response{StatusCode: 200}, body)
	if m["model"] != "mms-medium-1" || m["usage"].(map[string]any)["inference_geo"] != "us" {
		t.Errorf("alias or inference_geo not applied: %s", body)
	}
}

// TestCountTokensAgrees checks that count_tokens returns the input_tokens
// that create reports for the same request.
func TestCountTokensAgrees(t *testing.T) {
	s := newTestServer(t)
	for _, members := range []string{
		`"messages":` + hi,
		`"system":[{"type":"text","text":"Be brief."}],"tools":[{"name":"t","input_schema":{"type":"object"}}],` +
			`"tool_choice":{"type":"auto"},"thinking":{"type":"enabled","budget_tokens":1024},"output_config":{"effort":"low"},` +
			`"messages":[{"role":"user","content":"Tell me about the weather in a long sentence, please."}]`,
		`"context_management":{"edits":[]},"messages":[{"role":"user","content":"x"},{"role":"assistant","content":"y"}]`,
	} {
		m := postMessage(t, s, create(`"stop_sequences":["q"],"temperature":0.5,`+members), betaContextManagement)
		want := m["usage"].(map[string]any)["input_tokens"]
		_, body := post(t, s, countPath, count(members), betaContextManagement)
		var got map[string]any
		_ = json.Unmarshal(body, &got)
		if got["input_tokens"] != want {
			t.Errorf("%s: count_tokens %s, create input_tokens %v", members, body, want)
		}
		if strings.Contains(members, "context_management") != (got["context_management"] != nil) {
			t.Errorf("%s: context_management in %s", members, body)
		}
	}
}

// TestThinkingSignatures checks that fake-issued thinking blocks must come
// back unchanged and in place, and that foreign signatures are opaque.
func TestThinkingSignatures(t *testing.T) {
	s := newTestServer(t)
	m := postMessage(t, s, create(`"thinking":{"type":"adaptive"},"messages":`+hi))
	content := m["content"].([]any)
	thinking, text := mustJSON(t, content[0]), mustJSON(t, content[1])
	modified := strings.Replace(thinking, "The user", "A user", 1)
	foreign := `{"type":"thinking","thinking":"hm","signature":"EqQBCkYIBxgCKkA="}`
	sig := content[0].(map[string]any)["signature"].(string)
	corrupt := strings.Replace(thinking, sig, base64.StdEncoding.EncodeToString(append([]byte("mmst\x00"), make([]byte, 32)...)), 1)
	conversation := func(assistant ...string) string {
		return create(`"thinking":{"type":"adaptive"},"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":[` +
			strings.Join(assistant, ",") + `]},{"role":"user","content":"Again"}]`)
	}
	tests := []struct {
		name      string
		assistant []string
		msg       string // "" means accepted
	}{
		{name: "unchanged", assistant: []string{thinking, text}},
		{name: "foreign signature", assistant: []string{foreign, text}},
		{name: "modified", assistant: []string{modified, text}, msg: "messages.1.content.0: Invalid `signature` in `thinking` block"},
		{name: "forged", assistant: []string{corrupt, text}, msg: "messages.1.content.0: Invalid `signature` in `thinking` block"},
		{name: "reordered", assistant: []string{text, thinking},
			msg: "messages.1.content.1: `thinking` block moved from position 0: thinking blocks must be passed back unchanged and in their original order"},
	}
	for _, tt := range tests {
		resp, body := post(t, s, messagesPath, conversation(tt.assistant...))
		switch {
		case tt.msg == "" && resp.StatusCode != 200:
			t.Errorf("%s: %d %s", tt.name, resp.StatusCode, body)
		case tt.msg != "":
			wantError(t, resp, body, 400, wire.ErrInvalidRequest, tt.msg)
		}
	}
}

// TestMessagesDeterminism checks that replies depend only on the request
// and the order of requests.
func TestMessagesDeterminism(t *testing.T) {
	bodies := []string{
		create(`"thinking":{"type":"adaptive"},"tools":[{"name":"get","input_schema":{"type":"object","properties":{"k":{"type":"string"}},"required":["k"]}}],` +
			`"messages":[{"role":"user","content":"get it"}]`),
		create(`"stream":true,"messages":[{"role":"user","content":"Stream me, 日本語 too"}]`),
		create(`"messages":[]`),
	}
	run := func() []string {
		s := newTestServer(t)
		var out []string
		for _, b := range bodies {
			resp, body := post(t, s, messagesPath, b)
			out = append(out, fmt.Sprint(resp.StatusCode, " ", string(body)))
		}
		return out
	}
	first, second := run(), run()
	for i := range first {
		if first[i] != second[i] {
			t.Errorf("request %d differs:\n%s\n%s", i, first[i], second[i])
		}
	}
	// The same request twice on one server differs only in its ids.
	s := newTestServer(t)
	_, a := post(t, s, messagesPath, bodies[0])
	_, b := post(t, s, messagesPath, bodies[0])
	a = bytes.ReplaceAll(a, []byte("010000000000000000000001"), []byte("010000000000000000000002"))
	if !bytes.Equal(a, b) {
		t.Errorf("same request, different replies:\n%s\n%s", a, b)
	}
}
