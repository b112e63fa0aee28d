package mmstest

import (
	"bufio"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/fixtures"
	"github.com/mms-sdk/mms-go/internal/wire"

	"github.com/stretchr/testify/require"
)

// The length, pattern, range and item-count rules of the service's published
// request schemas (../shared/spec/request-constraints.md), one or more
// limitRow per row of that document, each tried just inside and just
// outside its limit. A row of the Messages form is tried on every endpoint
// that takes it: POST /v1/messages, count_tokens (unless createOnly) and,
// wrapped as params, batch creation.

// Endpoints a limitRow runs on.
const (
	epCreate = 1 << iota
	epCount
	epBatch
)

type limitRow struct {
	schema, member string // the document's Schema and Path columns
	rule           string // which limit, for the subtest name
	betas          []string
	// body is the Messages members (or, with epBatch alone, the whole batch
	// body) with v, a raw JSON value, in place.
	body       func(v string) string
	in, out    string // raw JSON values just inside and just outside; no out: no outside
	msg        string // the message for out, path included, on /v1/messages
	createOnly bool   // not a count_tokens member
	only       int    // the endpoints, when not the default
}

// The vendor-beta values rows need.
var (
	limCM       = []string{betaContextManagement}
	limMCP      = []string{"mcp-client-2025-11-20"}
	limAdvisor  = []string{"advisor-tool-2026-03-01"}
	limComputer = map[string][]string{
		"computer_20241022": {"computer-use-2024-10-22"},
		"computer_20250124": {"computer-use-2025-01-24"},
	}
)

const limHi = `"messages":[{"role":"user","content":"Hi"}]`

// limQ is s as a JSON string; limS is n copies of s as a JSON string.
func limQ(s string) string        { return fmt.Sprintf("%q", s) }
func limS(s string, n int) string { return limQ(strings.Repeat(s, n)) }

// limTools is the members of a request with the one tool.
func limTools(tool string) string { return `"tools":[` + tool + `],` + limHi }

// limUser is the members of a request whose one user turn holds block.
func limUser(block string) string { return `"messages":[{"role":"user","content":[` + block + `]}]` }

// limPrefill is the members of a request ending with an assistant turn (a
// prefill) of blocks, a comma-separated list.
func limPrefill(blocks string) string {
	return `"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":[` + blocks + `]}]`
}

// limAnswer is the members of a request whose last user turn answers a
// tool_use "toolu_1" with the one block.
func limAnswer(block string) string {
	return `"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":[` +
		`{"type":"tool_use","id":"toolu_1","name":"get","input":{}}]},{"role":"user","content":[` + block + `]}]`
}

// limEdit is the members of a request with the one context edit.
func limEdit(edit string) string { return `"context_management":{"edits":[` + edit + `]},` + limHi }

// limList is n copies of item (with %d replaced by the index) as a JSON
// array.
func limList(item string, n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = strings.ReplaceAll(item, "%d", fmt.Sprint(i))
	}
	return "[" + strings.Join(items, ",") + "]"
}

// limBatch is a batch body of n valid requests, the first with custom id v
// (a raw JSON value).
func limBatch(n int, v string) string {
	var b strings.Builder
	b.WriteString(`{"requests":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		id := fmt.Sprintf(`"r%d"`, i)
		if i == 0 {
			id = v
		}
		b.WriteString(`{"custom_id":` + id + `,"params":{"model":"mms-large-1","max_tokens":1,` + limHi + `}}`)
	}
	b.WriteString(`]}`)
	return b.String()
}

// limCitation is a request with a text block citing c, a citation object
// with the value in place.
func limCitation(c string) func(v string) string {
	return func(v string) string {
		return limUser(`{"type":"text","text":"x","citations":[` + strings.ReplaceAll(c, "V", v) + `]}`)
	}
}

// limRows are the rows; V in a template stands for the value.
func limRows() []limitRow {
	tmpl := func(f func(string) string, t string) func(string) string {
		return func(v string) string { return f(strings.ReplaceAll(t, "V", v)) }
	}
	const (
		ge0, ge1, gt0   = "Input should be greater than or equal to 0", "Input should be greater than or equal to 1", "Input should be greater than 0"
		atLeast1        = "String should have at least 1 character"
		idPattern       = "String should match pattern '^[a-zA-Z0-9_-]+$'"
		srvtooluPattern = "String should match pattern '^srvtoolu_[a-zA-Z0-9_]+$'"
	)
	atMost := func(n int) string { return fmt.Sprintf("String should have at most %d characters", n) }
	listAtMost := func(n int) string {
		return fmt.Sprintf("List should have at most %d items after validation, not %d", n, n+1)
	}
	rows := []limitRow{
		{schema: "BetaAdvisorTool_20260301", member: "tools[].max_uses", rule: "exclusiveMinimum 0", betas: limAdvisor,
			body: tmpl(limTools, `{"type":"advisor_20260301","name":"advisor","model":"m","max_uses":V}`),
			in:   "1", out: "0", msg: "tools.0.max_uses: " + gt0},
		{schema: "BetaContainerParams", member: "container.skills", rule: "maxItems 8", createOnly: true,
			body: func(v string) string { return `"container":{"skills":` + v + `},` + limHi },
			in:   limList(`{"type":"vendor","skill_id":"s%d"}`, 8), out: limList(`{"type":"vendor","skill_id":"s%d"}`, 9),
			msg: "container.skills: " + listAtMost(8)},
		{schema: "BetaContextManagementConfig", member: "context_management.edits", rule: "minItems 0", betas: limCM,
			body: func(v string) string { return `"context_management":{"edits":` + v + `},` + limHi }, in: "[]"},
		{schema: "BetaCountMessageTokensParams", member: "mcp_servers", rule: "maxItems 20", betas: limMCP, only: epCount,
			body: func(v string) string { return `"mcp_servers":` + v + `,` + limHi },
			in:   limList(`{"type":"url","name":"s%d","url":"https://mcp.example/%d"}`, 20),
			out:  limList(`{"type":"url","name":"s%d","url":"https://mcp.example/%d"}`, 21),
			msg:  "mcp_servers: " + listAtMost(20)},
		{schema: "BetaCreateMessageBatchParams", member: "requests", rule: "minItems 1", only: epBatch,
			body: func(v string) string { return `{"requests":` + v + `}` },
			in:   `[{"custom_id":"a","params":{"model":"mms-large-1","max_tokens":1,` + limHi + `}}]`, out: "[]",
			msg: "requests: List should have at least 1 item after validation, not 0"},
		{schema: "BetaCreateMessageBatchParams", member: "requests", rule: "maxItems 100000", only: epBatch,
			body: func(v string) string {
				n := map[string]int{"in": maxBatchRequests, "out": maxBatchRequests + 1}[v]
				return limBatch(n, `"r0"`)
			},
			in: "in", out: "out", msg: "requests: " + listAtMost(maxBatchRequests)},
		{schema: "BetaCreateMessageParams", member: "max_tokens", rule: "minimum 0", createOnly: true, only: epCreate | epBatch,
			body: func(v string) string { return `"max_tokens":` + v + `,` + limHi }, in: "0", out: "-1", msg: "max_tokens: " + ge0},
		{schema: "BetaCreateMessageParams", member: "mcp_servers", rule: "maxItems 20", betas: limMCP, only: epCreate | epBatch,
			body: func(v string) string { return `"mcp_servers":` + v + `,` + limHi },
			in:   limList(`{"type":"url","name":"s%d","url":"https://mcp.example/%d"}`, 20),
			out:  limList(`{"type":"url","name":"s%d","url":"https://mcp.example/%d"}`, 21),
			msg:  "mcp_servers: " + listAtMost(20)},
		{schema: "BetaCreateMessageParams", member: "temperature", rule: "minimum 0", createOnly: true,
			body: func(v string) string { return `"temperature":` + v + `,` + limHi }, in: "0", out: "-0.01", msg: "temperature: " + ge0},
		{schema: "BetaCreateMessageParams", member: "temperature", rule: "maximum 1", createOnly: true,
			body: func(v string) string { return `"temperature":` + v + `,` + limHi }, in: "1", out: "1.01",
			msg: "temperature: Input should be less than or equal to 1"},
		{schema: "BetaCreateMessageParams", member: "top_k", rule: "minimum 0", createOnly: true,
			body: func(v string) string { return `"top_k":` + v + `,` + limHi }, in: "0", out: "-1", msg: "top_k: " + ge0},
		{schema: "BetaCreateMessageParams", member: "top_p", rule: "minimum 0", createOnly: true,
			body: func(v string) string { return `"top_p":` + v + `,` + limHi }, in: "0", out: "-0.01", msg: "top_p: " + ge0},
		{schema: "BetaCreateMessageParams", member: "top_p", rule: "maximum 1", createOnly: true,
			body: func(v string) string { return `"top_p":` + v + `,` + limHi }, in: "1", out: "1.01",
			msg: "top_p: Input should be less than or equal to 1"},
		{schema: "BetaInputTokensClearAtLeast", member: "context_management.edits[].clear_at_least.value", rule: "minimum 0", betas: limCM,
			body: tmpl(limEdit, `{"type":"clear_tool_uses_20250919","clear_at_least":{"type":"input_tokens","value":V}}`),
			in:   "0", out: "-1", msg: "context_management.edits.0.clear_at_least.value: " + ge0},
		{schema: "BetaInputTokensTrigger", member: "context_management.edits[].trigger.value", rule: "minimum 1 (clear_tool_uses)", betas: limCM,
			body: tmpl(limEdit, `{"type":"clear_tool_uses_20250919","trigger":{"type":"input_tokens","value":V}}`),
			in:   "1", out: "0", msg: "context_management.edits.0.trigger.value: " + ge1},
		{schema: "BetaInputTokensTrigger", member: "context_management.edits[].trigger.value", rule: "minimum 1 (compact)", betas: limCM,
			body: tmpl(limEdit, `{"type":"compact_20260112","trigger":{"type":"input_tokens","value":V}}`),
			in:   "1", out: "0", msg: "context_management.edits.0.trigger.value: " + ge1},
		{schema: "BetaMCPToolset", member: "tools[].mcp_server_name", rule: "maxLength 255", betas: limMCP,
			body: tmpl(limTools, `{"type":"mcp_toolset","mcp_server_name":V}`),
			in:   limS("s", 255), out: limS("s", 256), msg: "tools.0.mcp_server_name: " + atMost(255)},
		{schema: "BetaMCPToolset", member: "tools[].mcp_server_name", rule: "minLength 1", betas: limMCP,
			body: tmpl(limTools, `{"type":"mcp_toolset","mcp_server_name":V}`),
			in:   `"s"`, out: `""`, msg: "tools.0.mcp_server_name: " + atLeast1},
		{schema: "BetaMessageBatchIndividualRequestParams", member: "requests[].custom_id", rule: "maxLength 64", only: epBatch,
			body: func(v string) string { return limBatch(1, v) }, in: limS("a", 64), out: limS("a", 65),
			msg: "requests.0.custom_id: " + atMost(64)},
		{schema: "BetaMessageBatchIndividualRequestParams", member: "requests[].custom_id", rule: "minLength 1", only: epBatch,
			body: func(v string) string { return limBatch(1, v) }, in: `"a"`, out: `""`, msg: "requests.0.custom_id: " + atLeast1},
		{schema: "BetaMessageBatchIndividualRequestParams", member: "requests[].custom_id", rule: "pattern", only: epBatch,
			body: func(v string) string { return limBatch(1, v) }, in: `"a-B_9"`, out: `"a.b"`,
			msg: "requests.0.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"},
		{schema: "BetaMetadata", member: "metadata.user_id", rule: "maxLength 512", createOnly: true,
			body: func(v string) string { return `"metadata":{"user_id":` + v + `},` + limHi },
			in:   limS("é", 512), out: limS("u", 513), msg: "metadata.user_id: " + atMost(512)},
		{schema: "BetaRequestDocumentBlock", member: "messages[].content[].context", rule: "minLength 1",
			body: tmpl(limUser, `{"type":"document","context":V,"source":{"type":"text","media_type":"text/plain","data":"d"}}`),
			in:   `"c"`, out: `""`, msg: "messages.0.content.0.context: " + atLeast1},
		{schema: "BetaRequestDocumentBlock", member: "messages[].content[].title", rule: "maxLength 500",
			body: tmpl(limUser, `{"type":"document","title":V,"source":{"type":"text","media_type":"text/plain","data":"d"}}`),
			in:   limS("t", 500), out: limS("t", 501), msg: "messages.0.content.0.title: " + atMost(500)},
		{schema: "BetaRequestDocumentBlock", member: "messages[].content[].title", rule: "minLength 1",
			body: tmpl(limUser, `{"type":"document","title":V,"source":{"type":"text","media_type":"text/plain","data":"d"}}`),
			in:   `"t"`, out: `""`, msg: "messages.0.content.0.title: " + atLeast1},
		{schema: "BetaRequestMCPToolResultBlock", member: "messages[].content[].tool_use_id", rule: "pattern", betas: limMCP,
			body: func(v string) string {
				return limPrefill(`{"type":"mcp_tool_use","id":"mcptoolu_1","name":"n","server_name":"s","input":{}},` +
					`{"type":"mcp_tool_result","tool_use_id":` + v + `,"content":"ok"}`)
			},
			in: `"mcptoolu_1"`, out: `"mcptoolu.1"`, msg: "messages.1.content.1.tool_use_id: " + idPattern},
		{schema: "BetaRequestMCPToolUseBlock", member: "messages[].content[].id", rule: "pattern", betas: limMCP,
			body: tmpl(limPrefill, `{"type":"mcp_tool_use","id":V,"name":"n","server_name":"s","input":{}}`),
			in:   `"mcptoolu-1"`, out: `"mcptoolu 1"`, msg: "messages.1.content.0.id: " + idPattern},
		{schema: "BetaRequestServerToolUseBlock", member: "messages[].content[].id", rule: "pattern",
			body: tmpl(limPrefill, `{"type":"server_tool_use","id":V,"name":"web_search","input":{}}`),
			in:   `"srvtoolu_01Ab"`, out: `"toolu_01Ab"`, msg: "messages.1.content.0.id: " + srvtooluPattern},
		{schema: "BetaRequestTextBlock", member: "messages[].content[].text", rule: "minLength 1",
			body: tmpl(limUser, `{"type":"text","text":V}`), in: `"x"`, out: `""`, msg: "messages.0.content.0.text: " + atLeast1},
		{schema: "BetaRequestToolReferenceBlock", member: "messages[].content[].content[].tool_name", rule: "maxLength 256",
			body: tmpl(limAnswer, `{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"tool_reference","tool_name":V}]}`),
			in:   limS("t", 256), out: limS("t", 257), msg: "messages.2.content.0.content.0.tool_name: " + atMost(256)},
		{schema: "BetaRequestToolReferenceBlock", member: "messages[].content[].content[].tool_name", rule: "minLength 1",
			body: tmpl(limAnswer, `{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"tool_reference","tool_name":V}]}`),
			in:   `"t"`, out: `""`, msg: "messages.2.content.0.content.0.tool_name: " + atLeast1},
		{schema: "BetaRequestToolReferenceBlock", member: "messages[].content[].content[].tool_name", rule: "pattern",
			body: tmpl(limAnswer, `{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"tool_reference","tool_name":V}]}`),
			in:   `"get_weather-2"`, out: `"get.weather"`,
			msg: "messages.2.content.0.content.0.tool_name: String should match pattern '^[a-zA-Z0-9_-]{1,256}$'"},
		{schema: "BetaRequestToolResultBlock", member: "messages[].content[].tool_use_id", rule: "pattern",
			body: tmpl(limAnswer, `{"type":"tool_result","tool_use_id":V}`),
			in:   `"toolu_1"`, out: `"toolu.1"`, msg: "messages.2.content.0.tool_use_id: " + idPattern},
		{schema: "BetaRequestToolUseBlock", member: "messages[].content[].id", rule: "pattern",
			body: tmpl(limPrefill, `{"type":"tool_use","id":V,"name":"get","input":{}}`),
			in:   `"toolu_01-A"`, out: `"toolu:01"`, msg: "messages.1.content.0.id: " + idPattern},
		{schema: "BetaRequestToolUseBlock", member: "messages[].content[].name", rule: "maxLength 200",
			body: tmpl(limPrefill, `{"type":"tool_use","id":"toolu_1","name":V,"input":{}}`),
			in:   limS("n", 200), out: limS("n", 201), msg: "messages.1.content.0.name: " + atMost(200)},
		{schema: "BetaRequestToolUseBlock", member: "messages[].content[].name", rule: "minLength 1",
			body: tmpl(limPrefill, `{"type":"tool_use","id":"toolu_1","name":V,"input":{}}`),
			in:   `"n"`, out: `""`, msg: "messages.1.content.0.name: " + atLeast1},
		{schema: "BetaSkillParams", member: "container.skills[].skill_id", rule: "maxLength 64", createOnly: true,
			body: func(v string) string {
				return `"container":{"skills":[{"type":"custom","skill_id":` + v + `}]},` + limHi
			},
			in: limS("s", 64), out: limS("s", 65), msg: "container.skills.0.skill_id: " + atMost(64)},
		{schema: "BetaSkillParams", member: "container.skills[].skill_id", rule: "minLength 1", createOnly: true,
			body: func(v string) string {
				return `"container":{"skills":[{"type":"custom","skill_id":` + v + `}]},` + limHi
			},
			in: `"s"`, out: `""`, msg: "container.skills.0.skill_id: " + atLeast1},
		{schema: "BetaSkillParams", member: "container.skills[].version", rule: "maxLength 64", createOnly: true,
			body: func(v string) string {
				return `"container":{"skills":[{"type":"custom","skill_id":"s","version":` + v + `}]},` + limHi
			},
			in: limS("9", 64), out: limS("9", 65), msg: "container.skills.0.version: " + atMost(64)},
		{schema: "BetaSkillParams", member: "container.skills[].version", rule: "minLength 1", createOnly: true,
			body: func(v string) string {
				return `"container":{"skills":[{"type":"custom","skill_id":"s","version":` + v + `}]},` + limHi
			},
			in: `"1"`, out: `""`, msg: "container.skills.0.version: " + atLeast1},
		{schema: "BetaTextEditor_20250728", member: "tools[].max_characters", rule: "minimum 1",
			body: tmpl(limTools, `{"type":"text_editor_20250728","name":"str_replace_based_edit_tool","max_characters":V}`),
			in:   "1", out: "0", msg: "tools.0.max_characters: " + ge1},
		{schema: "BetaThinkingConfigEnabled", member: "thinking.budget_tokens", rule: "minimum 1024",
			body: func(v string) string { return `"thinking":{"type":"enabled","budget_tokens":` + v + `},` + limHi },
			in:   "1024", out: "1023", msg: "thinking.budget_tokens: Input should be greater than or equal to 1024"},
		{schema: "BetaThinkingTurns", member: "context_management.edits[].keep.value", rule: "minimum 1", betas: limCM,
			body: tmpl(limEdit, `{"type":"clear_thinking_20251015","keep":{"type":"thinking_turns","value":V}}`),
			in:   "1", out: "0", msg: "context_management.edits.0.keep.value: " + ge1},
		{schema: "BetaTokenTaskBudget", member: "output_config.task_budget.remaining", rule: "minimum 0",
			body: func(v string) string {
				return `"output_config":{"task_budget":{"type":"tokens","total":2048,"remaining":` + v + `}},` + limHi
			},
			in: "0", out: "-1", msg: "output_config.task_budget.remaining: " + ge0},
		{schema: "BetaTokenTaskBudget", member: "output_config.task_budget.total", rule: "minimum 1024",
			body: func(v string) string {
				return `"output_config":{"task_budget":{"type":"tokens","total":` + v + `}},` + limHi
			},
			in: "1024", out: "1023", msg: "output_config.task_budget.total: Input should be greater than or equal to 1024"},
		{schema: "BetaTool", member: "tools[].name", rule: "maxLength 128",
			body: tmpl(limTools, `{"name":V,"input_schema":{"type":"object"}}`),
			in:   limS("n", 128), out: limS("n", 129), msg: "tools.0.name: " + atMost(128)},
		{schema: "BetaTool", member: "tools[].name", rule: "minLength 1",
			body: tmpl(limTools, `{"type":"custom","name":V,"input_schema":{"type":"object"}}`),
			in:   `"n"`, out: `""`, msg: "tools.0.name: " + atLeast1},
		{schema: "BetaTool", member: "tools[].name", rule: "pattern",
			body: tmpl(limTools, `{"name":V,"input_schema":{"type":"object"}}`),
			in:   `"get_weather-2"`, out: `"get weather"`,
			msg: "tools.0.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"},
		{schema: "BetaToolUsesKeep", member: "context_management.edits[].keep.value", rule: "minimum 0", betas: limCM,
			body: tmpl(limEdit, `{"type":"clear_tool_uses_20250919","keep":{"type":"tool_uses","value":V}}`),
			in:   "0", out: "-1", msg: "context_management.edits.0.keep.value: " + ge0},
		{schema: "BetaToolUsesTrigger", member: "context_management.edits[].trigger.value", rule: "minimum 1", betas: limCM,
			body: tmpl(limEdit, `{"type":"clear_tool_uses_20250919","trigger":{"type":"tool_uses","value":V}}`),
			in:   "1", out: "0", msg: "context_management.edits.0.trigger.value: " + ge1},
		{schema: "BetaUserLocation", member: "tools[].user_location.country", rule: "maxLength 2 (lowercase accepted)",
			body: tmpl(limTools, `{"type":"web_search_20250305","name":"web_search","user_location":{"type":"approximate","country":V}}`),
			in:   `"fr"`, out: `"fra"`, msg: "tools.0.user_location.country: " + atMost(2)},
		{schema: "BetaUserLocation", member: "tools[].user_location.country", rule: "minLength 2",
			body: tmpl(limTools, `{"type":"web_search_20250305","name":"web_search","user_location":{"type":"approximate","country":V}}`),
			in:   `"FR"`, out: `"F"`, msg: "tools.0.user_location.country: String should have at least 2 characters"},
	}

	// Server tool result blocks: tool_use_id is a server tool id.
	for schema, block := range map[string]string{
		"BetaRequestAdvisorToolResultBlock":                 `{"type":"advisor_tool_result","tool_use_id":V,"content":{"type":"advisor_tool_result_error","error_code":"unavailable"}}`,
		"BetaRequestBashCodeExecutionToolResultBlock":       `{"type":"bash_code_execution_tool_result","tool_use_id":V,"content":{"type":"bash_code_execution_tool_result_error","error_code":"unavailable"}}`,
		"BetaRequestCodeExecutionToolResultBlock":           `{"type":"code_execution_tool_result","tool_use_id":V,"content":{"type":"code_execution_tool_result_error","error_code":"unavailable"}}`,
		"BetaRequestTextEditorCodeExecutionToolResultBlock": `{"type":"text_editor_code_execution_tool_result","tool_use_id":V,"content":{"type":"text_editor_code_execution_tool_result_error","error_code":"unavailable"}}`,
		"BetaRequestToolSearchToolResultBlock":              `{"type":"tool_search_tool_result","tool_use_id":V,"content":{"type":"tool_search_tool_result_error","error_code":"unavailable"}}`,
		"BetaRequestWebFetchToolResultBlock":                `{"type":"web_fetch_tool_result","tool_use_id":V,"content":{"type":"web_fetch_tool_result_error","error_code":"unavailable"}}`,
		"BetaRequestWebSearchToolResultBlock":               `{"type":"web_search_tool_result","tool_use_id":V,"content":{"type":"web_search_tool_result_error","error_code":"unavailable"}}`,
	} {
		var betas []string
		if strings.Contains(block, "advisor") {
			betas = limAdvisor
		}
		rows = append(rows, limitRow{schema: schema, member: "messages[].content[].tool_use_id", rule: "pattern", betas: betas,
			body: tmpl(limPrefill, block), in: `"srvtoolu_01Ab"`, out: `"toolu_01Ab"`,
			msg: "messages.1.content.0.tool_use_id: " + srvtooluPattern})
	}

	// Server tool callers.
	for schema, typ := range map[string]string{
		"BetaServerToolCaller":          "code_execution_20250825",
		"BetaServerToolCaller_20260120": "code_execution_20260120",
	} {
		rows = append(rows, limitRow{schema: schema, member: "messages[].content[].caller.tool_id", rule: "pattern",
			body: tmpl(limPrefill, `{"type":"tool_use","id":"toolu_1","name":"get","input":{},"caller":{"type":"`+typ+`","tool_id":V}}`),
			in:   `"srvtoolu_01Ab"`, out: `"toolu_01Ab"`, msg: "messages.1.content.0.caller.tool_id: " + srvtooluPattern})
	}

	// Citations of request text blocks. document_title follows the seed:
	// 1–500 (the published schema says 1–255).
	docCitations := map[string]string{
		"BetaRequestCharLocationCitation":         `"type":"char_location","cited_text":"a","document_index":0,"start_char_index":0,"end_char_index":1`,
		"BetaRequestPageLocationCitation":         `"type":"page_location","cited_text":"a","document_index":0,"start_page_number":1,"end_page_number":2`,
		"BetaRequestContentBlockLocationCitation": `"type":"content_block_location","cited_text":"a","document_index":0,"start_block_index":0,"end_block_index":1`,
	}
	for schema, base := range docCitations {
		rows = append(rows,
			limitRow{schema: schema, member: "messages[].content[].citations[].document_index", rule: "minimum 0",
				body: limCitation(`{` + strings.Replace(base, `"document_index":0`, `"document_index":V`, 1) + `}`),
				in:   "0", out: "-1", msg: "messages.0.content.0.citations.0.document_index: " + ge0},
			limitRow{schema: schema, member: "messages[].content[].citations[].document_title", rule: "maxLength 500 (seed)",
				body: limCitation(`{` + base + `,"document_title":V}`),
				in:   limS("t", 500), out: limS("t", 501), msg: "messages.0.content.0.citations.0.document_title: " + atMost(500)},
			limitRow{schema: schema, member: "messages[].content[].citations[].document_title", rule: "minLength 1",
				body: limCitation(`{` + base + `,"document_title":V}`),
				in:   `"t"`, out: `""`, msg: "messages.0.content.0.citations.0.document_title: " + atLeast1})
	}
	startOf := map[string]struct{ member, zero, in, out, msg string }{
		"BetaRequestCharLocationCitation":         {"start_char_index", `"start_char_index":0`, "0", "-1", ge0},
		"BetaRequestPageLocationCitation":         {"start_page_number", `"start_page_number":1`, "1", "0", ge1},
		"BetaRequestContentBlockLocationCitation": {"start_block_index", `"start_block_index":0`, "0", "-1", ge0},
	}
	for schema, s := range startOf {
		rows = append(rows, limitRow{schema: schema, member: "messages[].content[].citations[]." + s.member, rule: "minimum",
			body: limCitation(`{` + strings.Replace(docCitations[schema], s.zero, `"`+s.member+`":V`, 1) + `}`),
			in:   s.in, out: s.out, msg: "messages.0.content.0.citations.0." + s.member + ": " + s.msg})
	}
	const searchCite = `"type":"search_result_location","cited_text":"a","source":"s","search_result_index":SRI,"start_block_index":SBI,"end_block_index":1`
	rows = append(rows,
		limitRow{schema: "BetaRequestSearchResultLocationCitation", member: "messages[].content[].citations[].search_result_index",
			rule: "minimum 0", body: limCitation(`{` + strings.NewReplacer("SRI", "V", "SBI", "0").Replace(searchCite) + `}`),
			in: "0", out: "-1", msg: "messages.0.content.0.citations.0.search_result_index: " + ge0},
		limitRow{schema: "BetaRequestSearchResultLocationCitation", member: "messages[].content[].citations[].start_block_index",
			rule: "minimum 0", body: limCitation(`{` + strings.NewReplacer("SRI", "0", "SBI", "V").Replace(searchCite) + `}`),
			in: "0", out: "-1", msg: "messages.0.content.0.citations.0.start_block_index: " + ge0})
	const webCite = `"type":"web_search_result_location","cited_text":"a","encrypted_index":"e"`
	for _, m := range []struct {
		member string
		max    int
	}{{"title", 512}, {"url", 2048}} {
		other := `"url":"u"`
		if m.member == "url" {
			other = `"title":"t"`
		}
		body := limCitation(`{` + webCite + `,` + other + `,"` + m.member + `":V}`)
		rows = append(rows,
			limitRow{schema: "BetaRequestWebSearchResultLocationCitation", member: "messages[].content[].citations[]." + m.member,
				rule: fmt.Sprintf("maxLength %d", m.max), body: body, in: limS("w", m.max), out: limS("w", m.max+1),
				msg: "messages.0.content.0.citations.0." + m.member + ": " + atMost(m.max)},
			limitRow{schema: "BetaRequestWebSearchResultLocationCitation", member: "messages[].content[].citations[]." + m.member,
				rule: "minLength 1", body: body, in: `"w"`, out: `""`,
				msg: "messages.0.content.0.citations.0." + m.member + ": " + atLeast1})
	}

	// Computer use, every version.
	for _, v := range []string{"computer_20241022", "computer_20250124", "computer_20251124"} {
		schema := "BetaComputerUseTool_" + strings.TrimPrefix(v, "computer_")
		for _, m := range []struct{ member, w, h, n, in, out, msg string }{
			{"display_width_px", "V", "1", "0", "1", "0", ge1},
			{"display_height_px", "1", "V", "0", "1", "0", ge1},
			{"display_number", "1", "1", "V", "0", "-1", ge0},
		} {
			tool := fmt.Sprintf(`{"type":%q,"name":"computer","display_width_px":%s,"display_height_px":%s,"display_number":%s}`, v, m.w, m.h, m.n)
			rows = append(rows, limitRow{schema: schema, member: "tools[]." + m.member, rule: "minimum", betas: limComputer[v],
				body: tmpl(limTools, tool), in: m.in, out: m.out, msg: "tools.0." + m.member + ": " + m.msg})
		}
	}
	// Web fetch and web search; the newest versions, which the document
	// does not list yet, follow the older ones.
	for _, v := range []string{"20250910", "20260209", "20260309", "20260318"} {
		for _, m := range []string{"max_content_tokens", "max_uses"} {
			rows = append(rows, limitRow{schema: "BetaWebFetchTool_" + v, member: "tools[]." + m, rule: "exclusiveMinimum 0",
				body: tmpl(limTools, `{"type":"web_fetch_`+v+`","name":"web_fetch","`+m+`":V}`),
				in:   "1", out: "0", msg: "tools.0." + m + ": " + gt0})
		}
	}
	for _, v := range []string{"20250305", "20260209", "20260318"} {
		rows = append(rows, limitRow{schema: "BetaWebSearchTool_" + v, member: "tools[].max_uses", rule: "exclusiveMinimum 0",
			body: tmpl(limTools, `{"type":"web_search_`+v+`","name":"web_search","max_uses":V}`),
			in:   "1", out: "-1", msg: "tools.0.max_uses: " + gt0})
	}
	// user_location city, region and timezone: 1–255.
	for _, m := range []string{"city", "region", "timezone"} {
		body := tmpl(limTools, `{"type":"web_search_20250305","name":"web_search","user_location":{"type":"approximate","`+m+`":V}}`)
		rows = append(rows,
			limitRow{schema: "BetaUserLocation", member: "tools[].user_location." + m, rule: "maxLength 255",
				body: body, in: limS("é", 255), out: limS("x", 256), msg: "tools.0.user_location." + m + ": " + atMost(255)},
			limitRow{schema: "BetaUserLocation", member: "tools[].user_location." + m, rule: "minLength 1",
				body: body, in: `"x"`, out: `""`, msg: "tools.0.user_location." + m + ": " + atLeast1})
	}
	return rows
}

// limEndpoint is one way a row's body is sent.
type limEndpoint struct {
	name, path string
	wrap       func(r limitRow, members string) string
	prefix     string // before the message's path
}

var limEndpoints = map[int]limEndpoint{
	epCreate: {"create", messagesPath, func(r limitRow, m string) string { return limCreateBody(r, m) }, ""},
	epCount:  {"count_tokens", countPath, func(_ limitRow, m string) string { return count(m) }, ""},
	epBatch: {"batch", batchesPath, func(r limitRow, m string) string {
		if r.only == epBatch {
			return m
		}
		return batchBody("r1", limCreateBody(r, m))
	}, "requests.0.params."},
}

// limCreateBody is a create body of members, with max_tokens unless the
// row sets it.
func limCreateBody(r limitRow, members string) string {
	if r.member == "max_tokens" {
		return `{"model":"mms-large-1",` + members + `}`
	}
	return create(members)
}

func TestRequestConstraints(t *testing.T) {
	s := newTestServer(t)
	for _, r := range limRows() {
		eps := r.only
		if eps == 0 {
			eps = epCreate | epBatch
			if !r.createOnly {
				eps |= epCount
			}
		}
		for _, bit := range []int{epCreate, epCount, epBatch} {
			if eps&bit == 0 {
				continue
			}
			ep := limEndpoints[bit]
			prefix := ep.prefix
			if r.only == epBatch {
				prefix = ""
			}
			t.Run(r.schema+" "+r.member+" "+r.rule+" "+ep.name, func(t *testing.T) {
				resp, body := post(t, s, ep.path, ep.wrap(r, r.body(r.in)), r.betas...)
				if resp.StatusCode != http.StatusOK {
					t.Errorf("inside the limit: status %d, body %s", resp.StatusCode, body)
				}
				if r.out == "" {
					return
				}
				resp, body = post(t, s, ep.path, ep.wrap(r, r.body(r.out)), r.betas...)
				if resp.StatusCode != http.StatusBadRequest {
					t.Fatalf("outside the limit: status %d, want 400; body %s", resp.StatusCode, body)
				}
				e := decodeError(t, body)
				if e.Error.Type != wire.ErrInvalidRequest || e.Error.Message != prefix+r.msg {
					t.Errorf("outside the limit: %s: %s\nwant %s: %s", e.Error.Type, e.Error.Message, wire.ErrInvalidRequest, prefix+r.msg)
				}
			})
		}
	}
}

// TestRequestConstraintsCoverEveryRow requires a limitRow for every row of
// request-constraints.md. The spec sits beside the repository in the
// project's workspace and CI; a clone without it has nothing to compare
// against (the run's last line says so), and TestRequestConstraints still
// runs every row it knows.
func TestRequestConstraintsCoverEveryRow(t *testing.T) {
	path, ok := fixtures.Shared(t, "spec/request-constraints.md")
	if !ok {
		return
	}
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	have := map[string]bool{}
	for _, r := range limRows() {
		have[r.schema+" "+r.member] = true
	}
	rows := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "|")
		if len(cols) < 4 || !strings.HasPrefix(strings.TrimSpace(cols[1]), "Beta") {
			continue
		}
		rows++
		key := strings.TrimSpace(cols[1]) + " " + strings.Trim(strings.TrimSpace(cols[2]), "`")
		if !have[key] {
			t.Errorf("no limitRow for %s (%s)", key, strings.TrimSpace(cols[3]))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rows == 0 {
		t.Fatal("no rows found in request-constraints.md")
	}
}

// TestSchemaBoundsAndPatterns checks the schema notation's exclusive bounds
// and patterns directly, both sides of each limit.
func TestSchemaBoundsAndPatterns(t *testing.T) {
	sc := compileSchema(nil, map[string]string{
		"s": "ratio:num{>0,<1} count:int{0,3} id:str{1,8}~id",
	}, nil)
	tests := []struct {
		body, want string // want "" = valid
	}{
		{`{"ratio":0.5}`, ""},
		{`{"ratio":0}`, "ratio: Input should be greater than 0"},
		{`{"ratio":1}`, "ratio: Input should be less than 1"},
		{`{"count":0}`, ""},
		{`{"count":3}`, ""},
		{`{"count":4}`, "count: Input should be less than or equal to 3"},
		{`{"id":"a-b_C9"}`, ""},
		{`{"id":"a b"}`, "id: String should match pattern '^[a-zA-Z0-9_-]+$'"},
		{`{"id":"abcdefghi"}`, "id: String should have at most 8 characters"},
	}
	for _, tt := range tests {
		v := validator{sc: sc}
		err := v.check("", []byte(tt.body), &typ{kind: kShape, name: "s"})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.body, got, tt.want)
		}
	}
	for _, bad := range []string{"n:int~id", "n:str~nope", "n:str{>0,}"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: compiled, want a panic", bad)
				}
			}()
			compileSchema(nil, map[string]string{"s": bad}, nil)
		}()
	}
}
