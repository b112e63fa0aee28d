package langchaingo

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"

	mms "github.com/mms-sdk/mms-go"
)

// A thinking turn goes back with its signature: AssistantMessage keeps the
// thinking block as a BlockPart, and the fake refuses a block whose text,
// signature or position changed.
func TestThinkingRoundTrip(t *testing.T) {
	llm, srv := newLLM(t)
	ctx := context.Background()
	think := llms.WithThinkingBudget(mms.MinThinkingBudget)
	history := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "Is 1001 prime?")}
	resp, err := llm.GenerateContent(ctx, history, think)
	require.NoError(t, err)
	c := resp.Choices[0]
	assert.Equal(t, "The user said: Is 1001 prime?", c.ReasoningContent)
	assert.Equal(t, c.ReasoningContent, c.GenerationInfo[InfoThinkingContent])
	assert.Positive(t, c.GenerationInfo[InfoThinkingTokens])
	assert.Equal(t, c.GenerationInfo[InfoThinkingTokens], llms.ExtractThinkingTokens(c.GenerationInfo).ThinkingTokens)
	assert.Equal(t, "You said: Is 1001 prime?", c.Content)

	assistant := AssistantMessage(c)
	require.Len(t, assistant.Parts, 2)
	tb, ok := assistant.Parts[0].(BlockPart).Block.(mms.ThinkingBlock)
	require.True(t, ok, "%T", assistant.Parts[0])
	require.NotEmpty(t, tb.Signature)
	assert.Equal(t, llms.TextContent{Text: c.Content}, assistant.Parts[1])

	history = append(history, assistant, llms.TextParts(llms.ChatMessageTypeHuman, "Why?"))
	_, err = llm.GenerateContent(ctx, history, think)
	require.NoError(t, err)

	reqs := messageRequests(t, srv)
	require.Len(t, reqs, 2)
	assert.JSONEq(t, `{"type":"enabled","budget_tokens":1024}`, string(reqs[0].Thinking))
	sent := reqs[1].Messages[1]
	assert.Equal(t, "assistant", sent.Role)
	require.Len(t, sent.Content, 2)
	assert.Equal(t, map[string]any{"type": "thinking", "thinking": tb.Thinking, "signature": tb.Signature}, sent.Content[0])

	// An edited thinking block is refused by the fake, as by the service:
	// the signature is checked.
	tb.Thinking += "!"
	history[1].Parts[0] = BlockPart{Block: tb}
	_, err = llm.GenerateContent(ctx, history, think)
	var apiErr *mms.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Contains(t, apiErr.Message, "signature")
}

// Redacted thinking travels as a BlockPart, unchanged.
func TestRedactedThinkingBlockPart(t *testing.T) {
	llm, srv := newLLM(t)
	blocks := mms.ContentBlocks{mms.RedactedThinkingBlock{Data: "opaque=="}, mms.TextBlock{Text: "Hi."}}
	choice := &llms.ContentChoice{Content: "Hi.", GenerationInfo: map[string]any{InfoBlocks: blocks}}
	assistant := AssistantMessage(choice)
	require.Equal(t, []llms.ContentPart{BlockPart{Block: blocks[0]}, llms.TextContent{Text: "Hi."}}, assistant.Parts)

	_, err := llm.GenerateContent(context.Background(), []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeHuman, "Hello"), assistant, llms.TextParts(llms.ChatMessageTypeHuman, "Again"),
	}, llms.WithThinkingMode(llms.ThinkingModeAuto))
	require.NoError(t, err)
	reqs := messageRequests(t, srv)
	require.Len(t, reqs, 1)
	assert.JSONEq(t, `{"type":"adaptive"}`, string(reqs[0].Thinking))
	assert.Equal(t, map[string]any{"type": "redacted_thinking", "data": "opaque=="}, reqs[0].Messages[1].Content[0])
}

func TestAssistantMessageOfOtherProviders(t *testing.T) {
	tc := llms.ToolCall{ID: "call_1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "f", Arguments: `{}`}}
	got := AssistantMessage(&llms.ContentChoice{Content: "x", ToolCalls: []llms.ToolCall{tc}})
	assert.Equal(t, llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.TextContent{Text: "x"}, tc}}, got)
	got = AssistantMessage(&llms.ContentChoice{})
	assert.Empty(t, got.Parts)
}

// Tool calls of another caller, cited text and server tool blocks stay
// BlockParts; plain ones become langchaingo's parts.
func TestAssistantMessageParts(t *testing.T) {
	plainUse := mms.ToolUseBlock{ID: "toolu_1", Name: "f", Input: []byte(`{"a":1}`), Caller: mms.DirectCaller{}}
	otherUse := mms.ToolUseBlock{ID: "toolu_2", Name: "f", Input: []byte(`{}`), ToolsetName: "set"}
	cited := mms.TextBlock{Text: "x", Citations: mms.Citations{mms.CharLocationCitation{CitedText: "x"}}}
	got := AssistantMessage(&llms.ContentChoice{GenerationInfo: map[string]any{
		InfoBlocks: mms.ContentBlocks{plainUse, otherUse, cited},
	}})
	assert.Equal(t, []llms.ContentPart{
		llms.ToolCall{ID: "toolu_1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "f", Arguments: `{"a":1}`}},
		BlockPart{Block: otherUse},
		BlockPart{Block: cited},
	}, got.Parts)
}

func TestThinkingConfigMapping(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opts     []llms.CallOption
		thinking string
		beta     bool
	}{
		{"budget", []llms.CallOption{llms.WithThinkingBudget(2000)}, `{"type":"enabled","budget_tokens":2000}`, false},
		{"low is its share", []llms.CallOption{llms.WithMaxTokens(10000), llms.WithThinkingMode(llms.ThinkingModeLow)},
			`{"type":"enabled","budget_tokens":2000}`, false},
		{"high is its share", []llms.CallOption{llms.WithMaxTokens(10000), llms.WithThinkingMode(llms.ThinkingModeHigh)},
			`{"type":"enabled","budget_tokens":8000}`, false},
		{"medium at least the minimum", []llms.CallOption{llms.WithThinkingMode(llms.ThinkingModeMedium)},
			`{"type":"enabled","budget_tokens":2048}`, false},
		{"low below the minimum", []llms.CallOption{llms.WithThinkingMode(llms.ThinkingModeLow)},
			`{"type":"enabled","budget_tokens":1024}`, false},
		{"auto", []llms.CallOption{llms.WithThinkingMode(llms.ThinkingModeAuto)}, `{"type":"adaptive"}`, false},
		{"return thinking alone is auto", []llms.CallOption{llms.WithReturnThinking(true)}, `{"type":"adaptive"}`, false},
		{"none", []llms.CallOption{llms.WithThinkingMode(llms.ThinkingModeNone)}, `{"type":"disabled"}`, false},
		{"interleaved", []llms.CallOption{llms.WithThinkingBudget(1024), llms.WithInterleaveThinking(true)},
			`{"type":"enabled","budget_tokens":1024}`, true},
		{"unset", nil, ``, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			llm, srv := newLLM(t)
			_, err := llm.GenerateContent(context.Background(),
				[]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")}, tc.opts...)
			require.NoError(t, err)
			reqs := messageRequests(t, srv)
			require.Len(t, reqs, 1)
			if tc.thinking == "" {
				assert.Nil(t, reqs[0].Thinking)
			} else {
				assert.JSONEq(t, tc.thinking, string(reqs[0].Thinking))
			}
			beta := srv.Requests()[0].Header.Get("vendor-beta")
			if tc.beta {
				assert.Contains(t, beta, interleavedThinkingBeta)
			} else {
				assert.NotContains(t, beta, interleavedThinkingBeta)
			}
		})
	}
}
