package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

const betaCompact = "compact-2026-09-04"

var (
	summary   = mms.CompactionBlock{Content: mms.Ptr("Summary: a trip to Bergen."), Signature: mms.Ptr("sig")}
	noSummary = mms.CompactionBlock{}
	goOn      = mms.TextBlock{Text: "Go on."}
)

func userBlocks(blocks ...mms.ContentBlock) mms.MessageParam {
	return mms.MessageParam{Role: mms.RoleUser, Content: blocks}
}

func assistantBlocks(blocks ...mms.ContentBlock) mms.MessageParam {
	return mms.MessageParam{Role: mms.RoleAssistant, Content: blocks}
}

// TestCompactionParamsEncode: the member's wire form, the beta on create,
// count_tokens and batch items, and instructions sent as set.
func TestCompactionParamsEncode(t *testing.T) {
	ctx := context.Background()
	c, srv := newFake(t)
	hi := []mms.MessageParam{mms.UserText("hi")}
	for _, tt := range []struct {
		name string
		c    mms.Compaction
		want string
	}{
		{"bare", mms.Compaction{}, `{"type":"summarize"}`},
		{"instructions", mms.Compaction{Instructions: "Keep the dates."}, `{"type":"summarize","instructions":"Keep the dates."}`},
		{"white space is sent as set", mms.Compaction{Instructions: " \n"}, `{"type":"summarize","instructions":" \n"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv.ResetRequests()
			comp := tt.c
			_, err := c.Messages.Create(ctx, mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 64, Messages: hi, Compaction: &comp})
			require.NoError(t, err)
			_, err = c.Messages.CountTokens(ctx, mms.MessageCountTokensParams{Model: "mms-large-1", Messages: hi, Compaction: &comp})
			require.NoError(t, err)
			reqs := srv.Requests()
			require.Len(t, reqs, 2)
			for _, r := range reqs {
				var body map[string]json.RawMessage
				require.NoError(t, json.Unmarshal(r.Body, &body))
				assert.JSONEq(t, tt.want, string(body["compaction"]), r.Path)
				assert.Contains(t, r.Header.Get(wire.HeaderBeta), betaCompact, r.Path)
			}
		})
	}
	assert.False(t, mms.Compaction{Instructions: " \t\n"}.HasInstructions())
	assert.True(t, mms.Compaction{Instructions: " x "}.HasInstructions())

	// A batch item carries it, and the batch call its beta.
	srv.ResetRequests()
	_, err := c.Messages.Batches.Create(ctx, mms.BatchCreateParams{Requests: []mms.BatchRequest{{CustomID: "a",
		Params: mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 64, Messages: hi, Compaction: &mms.Compaction{}}}}})
	require.NoError(t, err)
	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	assert.Contains(t, reqs[0].Header.Get(wire.HeaderBeta), betaCompact)
	assert.Contains(t, string(reqs[0].Body), `"compaction":{"type":"summarize"}`)
}

// TestCompactionBetaForSignedBlock: a conversation opening with a signed
// block (or one with tool changes) gets the beta without the member.
func TestCompactionBetaForSignedBlock(t *testing.T) {
	for _, tt := range []struct {
		name  string
		first mms.ContentBlock
		want  bool
	}{
		{"signed", summary, true},
		{"tool changes", mms.CompactionBlock{Content: mms.Ptr("s"), ToolChanges: mms.ContentBlocks{}}, true},
		{"unsigned", mms.CompactionBlock{Content: mms.Ptr("s")}, false},
		{"text", goOn, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := newFake(t)
			p := mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 64, Messages: []mms.MessageParam{userBlocks(tt.first, goOn)}}
			var raw json.RawMessage
			_ = c.Do(context.Background(), http.MethodPost, "/v1/messages", &p, &raw, option.WithBeta("context-management-2025-06-27"))
			_, _ = c.Messages.Create(context.Background(), p)
			reqs := srv.Requests()
			require.Len(t, reqs, 2)
			assert.Equal(t, tt.want, strings.Contains(reqs[1].Header.Get(wire.HeaderBeta), betaCompact))
		})
	}
}

// TestCompactionValidation: one case per rule, on both sides.
func TestCompactionValidation(t *testing.T) {
	withCM := &mms.ContextManagement{}
	cases := []struct {
		name     string
		messages []mms.MessageParam
		comp     *mms.Compaction
		cm       *mms.ContextManagement
		field    string // "" when valid
		rule     string
	}{
		{name: "compaction alone", messages: []mms.MessageParam{mms.UserText("hi")}, comp: &mms.Compaction{}},
		{name: "context_management alone", messages: []mms.MessageParam{mms.UserText("hi")}, cm: withCM},
		{name: "compaction with context_management", messages: []mms.MessageParam{mms.UserText("hi")}, comp: &mms.Compaction{}, cm: withCM,
			field: "compaction", rule: "context_management"},

		{name: "summary first", messages: []mms.MessageParam{userBlocks(summary, goOn)}},
		{name: "summary first in an assistant turn", messages: []mms.MessageParam{assistantBlocks(summary, goOn), mms.UserText("more")}},
		{name: "summary second block", messages: []mms.MessageParam{userBlocks(goOn, summary)},
			field: "messages[0].content[1]", rule: "compaction_block_misplaced"},
		{name: "summary in a later message", messages: []mms.MessageParam{mms.UserText("hi"), assistantBlocks(summary), mms.UserText("more")},
			field: "messages[1].content[0]", rule: "compaction_block_misplaced"},
		{name: "encrypted summary in a later message", messages: []mms.MessageParam{mms.UserText("hi"),
			assistantBlocks(mms.CompactionBlock{EncryptedContent: mms.Ptr("e")}), mms.UserText("more")},
			field: "messages[1].content[0]", rule: "compaction_block_misplaced"},
		{name: "two summaries", messages: []mms.MessageParam{userBlocks(summary, goOn), assistantBlocks(summary), mms.UserText("more")},
			field: "messages[0].content[0]", rule: "compaction_block_ambiguous"},
		{name: "failed block elsewhere", messages: []mms.MessageParam{userBlocks(summary, goOn), assistantBlocks(noSummary, goOn), mms.UserText("more")}},
		{name: "only failed blocks", messages: []mms.MessageParam{mms.UserText("hi"), assistantBlocks(noSummary), mms.UserText("more")}},

		{name: "empty signature", messages: []mms.MessageParam{userBlocks(mms.CompactionBlock{Content: mms.Ptr("s"), Signature: mms.Ptr("")}, goOn)},
			field: "messages[0].content[0].signature", rule: "must not be empty"},
		{name: "tool changes", messages: []mms.MessageParam{userBlocks(mms.CompactionBlock{Content: mms.Ptr("s"), ToolChanges: mms.ContentBlocks{
			mms.ToolAdditionBlock{Tool: mms.ToolRef{Name: "a"}}, mms.ToolRemovalBlock{Tool: mms.ToolRef{Name: "b"}}}}, goOn)}},
		{name: "tool changes hold text", messages: []mms.MessageParam{userBlocks(mms.CompactionBlock{Content: mms.Ptr("s"), ToolChanges: mms.ContentBlocks{goOn}}, goOn)},
			field: "messages[0].content[0].tool_changes[0].type", rule: "not allowed"},
		{name: "tool change invalid", messages: []mms.MessageParam{userBlocks(mms.CompactionBlock{Content: mms.Ptr("s"), ToolChanges: mms.ContentBlocks{
			mms.ToolAdditionBlock{Tool: mms.ToolRef{}}}}, goOn)},
			field: "messages[0].content[0].tool_changes[0].tool.name", rule: "empty"},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			p := mms.MessageCreateParams{Model: "m", MaxTokens: 64, Messages: tt.messages, Compaction: tt.comp, ContextManagement: tt.cm}
			err := p.Validate()
			if tt.field == "" {
				require.NoError(t, err)
			} else {
				var ve *mms.ValidationError
				require.True(t, errors.As(err, &ve), "%v", err)
				assert.Equal(t, tt.field, ve.Field)
				assert.Contains(t, ve.Rule, tt.rule)
			}
			// count_tokens and batch items apply the block rules; count_tokens
			// ignores compaction, so the combination passes there.
			ct := mms.MessageCountTokensParams{Model: "m", Messages: tt.messages, Compaction: tt.comp, ContextManagement: tt.cm}
			if tt.field == "" || tt.field == "compaction" {
				require.NoError(t, ct.Validate())
			} else {
				var ve *mms.ValidationError
				require.True(t, errors.As(ct.Validate(), &ve))
				assert.Equal(t, tt.field, ve.Field)
			}
			b := mms.BatchCreateParams{Requests: []mms.BatchRequest{{CustomID: "a", Params: p}}}
			if err := b.Validate(); tt.field == "" {
				require.NoError(t, err)
			} else {
				var ve *mms.ValidationError
				require.True(t, errors.As(err, &ve), "%v", err)
				assert.Equal(t, "requests[0].params."+tt.field, ve.Field)
			}
		})
	}
}

// TestCompactionBlockRoundTrip: signature and tool_changes come back in
// both forms exactly as received; null, [] and absent tool_changes stay
// apart.
func TestCompactionBlockRoundTrip(t *testing.T) {
	const add = `{"type":"tool_addition","tool":{"type":"tool_reference","name":"a"}}`
	for _, tt := range []struct {
		name, in    string
		toolChanges mms.ContentBlocks
		nilChanges  bool
	}{
		{name: "signed", in: `{"type":"compaction","content":"s","encrypted_content":null,"signature":"sig","tool_changes":[` + add + `]}`,
			toolChanges: mms.ContentBlocks{mms.ToolAdditionBlock{Tool: mms.ToolRef{Name: "a"}}}},
		{name: "no change", in: `{"type":"compaction","content":"s","signature":"sig","tool_changes":[]}`, toolChanges: mms.ContentBlocks{}},
		{name: "not computed", in: `{"type":"compaction","content":"s","signature":"sig","tool_changes":null}`, nilChanges: true},
		{name: "absent", in: `{"type":"compaction","content":"s"}`, nilChanges: true},
		{name: "failed", in: `{"type":"compaction","content":null,"encrypted_content":null,"signature":null,"tool_changes":null}`, nilChanges: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var blocks mms.ContentBlocks
			require.NoError(t, json.Unmarshal([]byte("["+tt.in+"]"), &blocks))
			b, ok := blocks[0].(mms.CompactionBlock)
			require.True(t, ok)
			if tt.nilChanges {
				assert.Nil(t, b.ToolChanges)
			} else {
				assert.NotNil(t, b.ToolChanges)
				if diff := cmp.Diff(tt.toolChanges, b.ToolChanges); diff != "" {
					t.Fatalf("tool_changes (-want +got):\n%s", diff)
				}
			}
			out, err := json.Marshal(b)
			require.NoError(t, err)
			assert.JSONEq(t, tt.in, string(out), "response form")

			// Sent back: every member as received ("content" always).
			p := mms.MessageCreateParams{Model: "m", MaxTokens: 1, Messages: []mms.MessageParam{userBlocks(b, goOn)}}
			req, err := json.Marshal(p)
			require.NoError(t, err)
			var body struct {
				Messages []struct {
					Content []json.RawMessage `json:"content"`
				} `json:"messages"`
			}
			require.NoError(t, json.Unmarshal(req, &body))
			want := tt.in
			if tt.name == "absent" {
				want = `{"type":"compaction","content":"s"}`
			}
			assert.JSONEq(t, want, string(body.Messages[0].Content[0]), "request form")
		})
	}
}

// TestCompactionAccumulator: signature and tool_changes from
// content_block_start survive the compaction_delta; a delta carrying them
// replaces them.
func TestCompactionAccumulator(t *testing.T) {
	start := `{"type":"compaction","content":null,"encrypted_content":null,"signature":"sig","tool_changes":[]}`
	for _, tt := range []struct {
		name, delta, want string
	}{
		{"delta content", `{"type":"compaction_delta","content":"s","encrypted_content":null}`,
			`{"type":"compaction","content":"s","encrypted_content":null,"signature":"sig","tool_changes":[]}`},
		{"delta signature", `{"type":"compaction_delta","content":"s","signature":"sig2","tool_changes":null}`,
			`{"type":"compaction","content":"s","encrypted_content":null,"signature":"sig2","tool_changes":null}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var (
				ms mms.MessageStartEvent
				bs mms.ContentBlockStartEvent
				bd mms.ContentBlockDeltaEvent
				md mms.MessageDeltaEvent
			)
			for _, e := range []struct {
				v    any
				data string
			}{
				{&ms, `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0}}}`},
				{&bs, `{"type":"content_block_start","index":0,"content_block":` + start + `}`},
				{&bd, `{"type":"content_block_delta","index":0,"delta":` + tt.delta + `}`},
				{&md, `{"type":"message_delta","delta":{"stop_reason":"compaction","stop_sequence":null},"usage":{"output_tokens":0,"iterations":[{"type":"compaction","input_tokens":5,"output_tokens":2,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":null}]}}`},
			} {
				require.NoError(t, json.Unmarshal([]byte(e.data), e.v))
			}
			var acc mms.MessageAccumulator
			for _, ev := range []mms.MessageStreamEvent{ms, bs, bd, mms.ContentBlockStopEvent{Index: 0}, md, mms.MessageStopEvent{}} {
				require.NoError(t, acc.Add(ev))
			}
			msg := acc.Message()
			assert.Equal(t, mms.StopReasonCompaction, msg.StopReason)
			require.Len(t, msg.Usage.Iterations, 1)
			_, ok := msg.Usage.Iterations[0].(mms.CompactionIterationUsage)
			assert.True(t, ok)
			out, err := json.Marshal(msg.Content[0])
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(out))
		})
	}
}

func TestFromLatestCompaction(t *testing.T) {
	hi := mms.UserText("hi")
	more := mms.UserText("more")
	older := mms.CompactionBlock{Content: mms.Ptr("older")}
	for _, tt := range []struct {
		name    string
		in, out []mms.MessageParam
	}{
		{"none", []mms.MessageParam{hi}, []mms.MessageParam{hi}},
		{"only failed", []mms.MessageParam{hi, assistantBlocks(noSummary), more}, []mms.MessageParam{hi, assistantBlocks(noSummary), more}},
		{"reply appended", []mms.MessageParam{hi, assistantBlocks(summary), more}, []mms.MessageParam{assistantBlocks(summary), more}},
		{"context_management reply", []mms.MessageParam{hi, assistantBlocks(mms.TextBlock{Text: "x"}, summary, goOn), more},
			[]mms.MessageParam{assistantBlocks(summary, goOn), more}},
		{"latest wins", []mms.MessageParam{userBlocks(older, goOn), assistantBlocks(summary, noSummary), more},
			[]mms.MessageParam{assistantBlocks(summary, noSummary), more}},
		{"already first", []mms.MessageParam{userBlocks(summary, goOn)}, []mms.MessageParam{userBlocks(summary, goOn)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := append([]mms.MessageParam(nil), tt.in...)
			got := mms.FromLatestCompaction(in)
			if diff := cmp.Diff(tt.out, got); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
			require.NoError(t, (mms.MessageCreateParams{Model: "m", Messages: got}).Validate())
			assert.Equal(t, tt.in, in, "the input is not modified")
		})
	}
}

// TestCompactionAgainstFake: a compaction turn end to end; a changed block
// gets the service's error code.
func TestCompactionAgainstFake(t *testing.T) {
	ctx := context.Background()
	c, _ := newFake(t)
	conv := []mms.MessageParam{mms.UserText("Plan a trip to Bergen."), mms.AssistantText("Day one: Bryggen.")}
	reply, err := c.Messages.Create(ctx, mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 1024,
		Messages: append(conv, mms.UserText("Summarize.")), Compaction: &mms.Compaction{Instructions: "Keep the dates."}})
	require.NoError(t, err)
	assert.Equal(t, mms.StopReasonCompaction, reply.StopReason)
	require.Len(t, reply.Content, 1)
	block, ok := reply.Content[0].(mms.CompactionBlock)
	require.True(t, ok)
	require.NotNil(t, block.Content)
	require.NotNil(t, block.Signature)
	assert.Equal(t, mms.ContentBlocks{}, block.ToolChanges)
	require.Len(t, reply.Usage.Iterations, 1)
	assert.IsType(t, mms.CompactionIterationUsage{}, reply.Usage.Iterations[0])

	next := func(b mms.CompactionBlock) []mms.MessageParam {
		return []mms.MessageParam{userBlocks(b, mms.TextBlock{Text: "And day two?"})}
	}
	_, err = c.Messages.Create(ctx, mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 1024, Messages: next(block)})
	require.NoError(t, err)

	// The same, streamed and accumulated.
	var acc mms.MessageAccumulator
	for ev, err := range c.Messages.Stream(ctx, mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 1024,
		Messages: append(conv, mms.UserText("Summarize.")), Compaction: &mms.Compaction{Instructions: "Keep the dates."}}) {
		require.NoError(t, err)
		require.NoError(t, acc.Add(ev))
	}
	streamed := acc.Message()
	if diff := cmp.Diff(reply.Content, streamed.Content); diff != "" {
		t.Fatalf("streamed content (-create +stream):\n%s", diff)
	}

	changed := block
	changed.Content = mms.Ptr("Something else.")
	forged := block
	forged.Signature = mms.Ptr("bm90IGEgc2lnbmF0dXJl")
	tools := block
	tools.ToolChanges = nil
	for _, tt := range []struct {
		b    mms.CompactionBlock
		code mms.ErrorCode
	}{
		{changed, mms.ErrorCodeCompactionContentMismatch},
		{forged, mms.ErrorCodeCompactionSignatureInvalid},
		{tools, mms.ErrorCodeCompactionToolChangesMismatch},
	} {
		_, err = c.Messages.Create(ctx, mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 1024, Messages: next(tt.b)})
		var apiErr *mms.Error
		require.True(t, errors.As(err, &apiErr), "%v", err)
		assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
		assert.Equal(t, tt.code, apiErr.Code)
	}

	// What the SDK refuses locally, the fake refuses with the service's code.
	for _, tt := range []struct {
		messages []mms.MessageParam
		code     mms.ErrorCode
	}{
		{[]mms.MessageParam{mms.UserText("hi"), assistantBlocks(block), mms.UserText("more")}, mms.ErrorCodeCompactionBlockMisplaced},
		{[]mms.MessageParam{userBlocks(block, goOn), assistantBlocks(block), mms.UserText("more")}, mms.ErrorCodeCompactionBlockAmbiguous},
	} {
		p := mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 64, Messages: tt.messages}
		_, err := c.Messages.Create(ctx, p)
		var ve *mms.ValidationError
		require.True(t, errors.As(err, &ve), "%v", err)
		assert.Contains(t, ve.Rule, string(tt.code))
		var raw json.RawMessage
		err = c.Do(ctx, http.MethodPost, "/v1/messages", &p, &raw, option.WithBeta(betaCompact))
		var apiErr *mms.Error
		require.True(t, errors.As(err, &apiErr), "%v", err)
		assert.Equal(t, tt.code, apiErr.Code)
	}
}

// TestFallbackTriggerTyped: the refusal trigger decodes typed, and an
// unknown trigger type round-trips unchanged.
func TestFallbackTriggerTyped(t *testing.T) {
	for _, in := range []string{
		`{"type":"fallback","from":{"model":"a"},"to":{"model":"b"},"trigger":{"type":"refusal","category":"cyber"}}`,
		`{"type":"fallback","from":{"model":"a"},"to":{"model":"b"},"trigger":{"type":"refusal","category":null}}`,
		`{"type":"fallback","from":{"model":"a"},"to":{"model":"b"},"trigger":{"type":"overload","retry_after_ms":20}}`,
	} {
		var blocks mms.ContentBlocks
		require.NoError(t, json.Unmarshal([]byte("["+in+"]"), &blocks))
		fb, ok := blocks[0].(mms.FallbackBlock)
		require.True(t, ok)
		require.NotNil(t, fb.Trigger)
		out, err := json.Marshal(fb)
		require.NoError(t, err)
		assert.JSONEq(t, in, string(out))
		if fb.Trigger.Type == mms.FallbackTriggerTypeRefusal && fb.Trigger.Category != "" {
			assert.Equal(t, mms.RefusalCategoryCyber, fb.Trigger.Category)
		}
	}
	for _, c := range []mms.RefusalCategory{mms.RefusalCategoryCyber, mms.RefusalCategoryBio, mms.RefusalCategoryFrontierLLM,
		mms.RefusalCategoryReasoningExtraction, mms.RefusalCategoryGeneralHarms} {
		assert.NotEmpty(t, c)
	}
	// §5.5: the advisor's error codes and server tool name.
	for _, c := range []mms.ToolErrorCode{mms.ToolErrorCodeMaxUsesExceeded, mms.ToolErrorCodePromptTooLong, mms.ToolErrorCodeTooManyRequests,
		mms.ToolErrorCodeOverloaded, mms.ToolErrorCodeUnavailable, mms.ToolErrorCodeExecutionTimeExceeded, mms.ToolErrorCodeModelNotFound} {
		var blocks mms.ContentBlocks
		in := `{"type":"advisor_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"advisor_tool_result_error","error_code":"` + string(c) + `"}}`
		require.NoError(t, json.Unmarshal([]byte("["+in+"]"), &blocks))
		res := blocks[0].(mms.AdvisorToolResultBlock)
		assert.Equal(t, mms.AdvisorToolResultError{ErrorCode: c}, res.Content)
	}
	assert.Equal(t, mms.ServerToolName("advisor"), mms.ServerToolNameAdvisor)
}
