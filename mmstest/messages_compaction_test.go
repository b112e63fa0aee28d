package mmstest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// compactionReplyOf asks for a compaction of the conversation msgs (a JSON
// array) and returns the reply's one block, as sent.
func compactionReplyOf(t *testing.T, s *Server, msgs, member string, betas ...string) (map[string]json.RawMessage, json.RawMessage) {
	t.Helper()
	resp, body := post(t, s, messagesPath, create(`"compaction":`+member+`,"messages":`+msgs), append([]string{betaCompact}, betas...)...)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
	var msg map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(body, &msg))
	var content []json.RawMessage
	require.NoError(t, json.Unmarshal(msg["content"], &content))
	require.Len(t, content, 1)
	return msg, content[0]
}

// errorCode is error.details.error_code of an error body ("" if none).
func errorCode(t *testing.T, body []byte) string {
	t.Helper()
	var e struct {
		Error struct {
			Type    string `json:"type"`
			Details *struct {
				ErrorCode string `json:"error_code"`
			} `json:"details"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(body, &e), string(body))
	if e.Error.Details == nil {
		return ""
	}
	return e.Error.Details.ErrorCode
}

const toolAdd = `{"type":"tool_addition","tool":{"type":"tool_reference","name":"get"}}`

func TestCompactionRequest(t *testing.T) {
	s := newTestServer(t)
	msgs := `[{"role":"user","content":"Plan a trip to Bergen."},{"role":"assistant","content":"Day one: Bryggen."},` +
		`{"role":"user","content":[` + toolAdd + `,{"type":"text","text":"And day two?"}]}]`
	msg, block := compactionReplyOf(t, s, msgs, `{"type":"summarize","instructions":"Keep the dates."}`, betaToolChanges)

	assert.JSONEq(t, `"compaction"`, string(msg["stop_reason"]))
	var b compactionWire
	require.NoError(t, json.Unmarshal(block, &b))
	require.NotNil(t, b.Content)
	assert.Equal(t, "Summary of the conversation (3 messages).\nuser: Plan a trip to Bergen.\nassistant: Day one: Bryggen.\n"+
		"user: And day two?\nInstructions followed: Keep the dates.", *b.Content)
	assert.NotEmpty(t, b.Signature)
	require.Len(t, b.ToolChanges, 1)
	assert.JSONEq(t, toolAdd, string(b.ToolChanges[0]))

	var usage struct {
		InputTokens  int               `json:"input_tokens"`
		OutputTokens int               `json:"output_tokens"`
		Iterations   []json.RawMessage `json:"iterations"`
	}
	require.NoError(t, json.Unmarshal(msg["usage"], &usage))
	assert.Zero(t, usage.InputTokens, "a compaction entry's tokens are not in the top-level counters")
	assert.Zero(t, usage.OutputTokens)
	require.Len(t, usage.Iterations, 1)
	var it compactionIteration
	require.NoError(t, json.Unmarshal(usage.Iterations[0], &it))
	assert.Equal(t, "compaction", it.Type)
	assert.Positive(t, it.InputTokens)
	assert.Positive(t, it.OutputTokens)

	// Deterministic: the same request, the same block (the id aside).
	_, again := compactionReplyOf(t, s, msgs, `{"type":"summarize","instructions":"Keep the dates."}`, betaToolChanges)
	assert.JSONEq(t, string(block), string(again))

	// White-space instructions are absent.
	_, plain := compactionReplyOf(t, s, `[{"role":"user","content":"Hi"}]`, `{"type":"summarize","instructions":"  \n"}`)
	require.NoError(t, json.Unmarshal(plain, &b))
	assert.Equal(t, "Summary of the conversation (1 messages).\nuser: Hi", *b.Content)
	assert.Equal(t, []json.RawMessage{}, b.ToolChanges, "no tool changes: [] (computed, none)")
}

func TestCompactionRequestRules(t *testing.T) {
	s := newTestServer(t)
	cases := []struct {
		name, body string
		betas      []string
		status     int
		code, msg  string
	}{
		{name: "needs beta", body: create(`"compaction":{"type":"summarize"},"messages":` + hi), status: 400,
			msg: "compaction: this field requires the vendor-beta header value `compact-2026-09-04`"},
		{name: "type", body: create(`"compaction":{"type":"trim"},"messages":` + hi), betas: []string{betaCompact}, status: 400,
			msg: "compaction.type: Input should be 'summarize'"},
		{name: "no trigger options", body: create(`"compaction":{"type":"summarize","pause_after_compaction":true},"messages":` + hi),
			betas: []string{betaCompact}, status: 400, msg: "compaction.pause_after_compaction: Extra inputs are not permitted"},
		{name: "with context_management", body: create(`"compaction":{"type":"summarize"},"context_management":{"edits":[]},"messages":` + hi),
			betas: []string{betaCompact, betaContextManagement}, status: 400, msg: "compaction: cannot be combined with context_management"},
		{name: "nothing to summarize", body: create(`"compaction":{"type":"summarize"},"messages":[{"role":"user","content":[` +
			`{"type":"compaction","content":"s"}]}]`), betas: []string{betaCompact}, status: 400, code: codeCompactionNothingToSummarize},
		{name: "count_tokens ignores it", body: count(`"compaction":{"type":"summarize"},"context_management":{"edits":[]},"messages":` + hi),
			betas: []string{betaCompact, betaContextManagement}, status: 200},
		{name: "count_tokens gates it", body: count(`"compaction":{"type":"summarize"},"messages":` + hi), status: 400,
			msg: "compaction: this field requires the vendor-beta header value `compact-2026-09-04`"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := messagesPath
			if !strings.Contains(c.body, `"max_tokens"`) {
				path = countPath
			}
			resp, body := post(t, s, path, c.body, c.betas...)
			require.Equal(t, c.status, resp.StatusCode, string(body))
			if c.status == 200 {
				return
			}
			assert.Equal(t, c.code, errorCode(t, body))
			if c.msg != "" {
				assert.Contains(t, string(body), c.msg)
			}
		})
	}
}

// TestCompactionBlockChecks: a later request starting with the block
// passes; one that changed it, or places blocks where they may not stand,
// gets the service's error code.
func TestCompactionBlockChecks(t *testing.T) {
	s := newTestServer(t)
	_, block := compactionReplyOf(t, s, `[{"role":"user","content":[`+toolAdd+`,{"type":"text","text":"Hi"}]}]`,
		`{"type":"summarize"}`, betaToolChanges)
	var b map[string]any
	require.NoError(t, json.Unmarshal(block, &b))
	edit := func(f func(m map[string]any)) string {
		m := map[string]any{}
		for k, v := range b {
			m[k] = v
		}
		f(m)
		out, _ := json.Marshal(m)
		return string(out)
	}
	first := func(blocks ...string) string {
		return create(`"messages":[{"role":"user","content":[` + strings.Join(blocks, ",") + `]}]`)
	}
	next := `{"type":"text","text":"Go on."}`
	failed := `{"type":"compaction","content":null,"encrypted_content":null}`
	cases := []struct {
		name, body string
		code       string
	}{
		{name: "unchanged", body: first(string(block), next)},
		{name: "unsigned (context_management flow)", body: first(`{"type":"compaction","content":"s"}`, next)},
		{name: "failed block elsewhere is a no-op", body: create(`"messages":[{"role":"user","content":[` + string(block) + `,` + next +
			`]},{"role":"assistant","content":[` + failed + `,{"type":"text","text":"ok"}]},{"role":"user","content":"more"}]`)},
		{name: "signature damaged", body: first(edit(func(m map[string]any) { m["signature"] = "bW1zYwAAAA==" }), next),
			code: codeCompactionSignatureInvalid},
		{name: "signature not base64", body: first(edit(func(m map[string]any) { m["signature"] = "%%%" }), next),
			code: codeCompactionSignatureInvalid},
		{name: "signature empty", body: first(edit(func(m map[string]any) { m["signature"] = "" }), next),
			code: codeCompactionSignatureInvalid},
		{name: "content changed", body: first(edit(func(m map[string]any) { m["content"] = "Something else." }), next),
			code: codeCompactionContentMismatch},
		{name: "content dropped", body: first(edit(func(m map[string]any) { m["content"] = nil }), next),
			code: codeCompactionContentMismatch},
		{name: "tool_changes changed", body: first(edit(func(m map[string]any) { m["tool_changes"] = []any{} }), next),
			code: codeCompactionToolChangesMismatch},
		{name: "tool_changes null", body: first(edit(func(m map[string]any) { m["tool_changes"] = nil }), next),
			code: codeCompactionToolChangesMismatch},
		{name: "not first", body: first(next, string(block)), code: codeCompactionBlockMisplaced},
		{name: "in a later message", body: create(`"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":[` +
			string(block) + `]},{"role":"user","content":"more"}]`), code: codeCompactionBlockMisplaced},
		{name: "two with content", body: first(string(block), `{"type":"compaction","content":"older"}`, next),
			code: codeCompactionBlockAmbiguous},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := post(t, s, messagesPath, c.body, betaCompact, betaToolChanges)
			if c.code == "" {
				require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
				return
			}
			require.Equal(t, http.StatusBadRequest, resp.StatusCode, string(body))
			assert.Equal(t, c.code, errorCode(t, body))
			assert.Contains(t, string(body), `"type":"invalid_request_error"`)
			// count_tokens checks the blocks the same way.
			resp, body = post(t, s, countPath, strings.Replace(c.body, `"max_tokens":2048,`, "", 1), betaCompact, betaToolChanges)
			require.Equal(t, http.StatusBadRequest, resp.StatusCode, string(body))
			assert.Equal(t, c.code, errorCode(t, body))
		})
	}

	// The signature's members are beta-gated.
	resp, body := post(t, s, messagesPath, first(string(block), next), betaContextManagement, betaToolChanges)
	require.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, string(body), "messages.0.content.0.signature: this field requires the vendor-beta header value `compact-2026-09-04`")
}

func TestCompactionStream(t *testing.T) {
	s := newTestServer(t)
	body := create(`"stream":true,"compaction":{"type":"summarize"},"messages":` + hi)
	resp, got := post(t, s, messagesPath, body, betaCompact)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(got))
	var names []string
	var start, delta map[string]any
	for _, ev := range parseSSE(t, string(got)) {
		names = append(names, ev.name)
		switch ev.name {
		case "content_block_start":
			start = ev.data["content_block"].(map[string]any)
		case "content_block_delta":
			delta = ev.data["delta"].(map[string]any)
		case "message_delta":
			assert.Equal(t, "compaction", ev.data["delta"].(map[string]any)["stop_reason"])
			assert.Len(t, ev.data["usage"].(map[string]any)["iterations"], 1)
		}
	}
	assert.Equal(t, []string{"message_start", "content_block_start", "ping", "content_block_delta", "content_block_stop",
		"message_delta", "message_stop"}, names)
	assert.Nil(t, start["content"])
	assert.NotEmpty(t, start["signature"])
	assert.Equal(t, []any{}, start["tool_changes"])
	assert.Equal(t, "compaction_delta", delta["type"])
	assert.Equal(t, "Summary of the conversation (1 messages).\nuser: Hi", delta["content"])

	// The streamed block is the one Create returns.
	_, block := compactionReplyOf(t, s, hi, `{"type":"summarize"}`)
	var b compactionWire
	require.NoError(t, json.Unmarshal(block, &b))
	assert.Equal(t, start["signature"], b.Signature)
}
