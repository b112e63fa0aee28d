package langchaingo

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/tools"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
)

// clock is a langchaingo tool that records its inputs.
type clock struct {
	mu     sync.Mutex
	inputs []string
}

func (*clock) Name() string        { return "get_time" }
func (*clock) Description() string { return "The time in a time zone." }
func (c *clock) Call(_ context.Context, input string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.inputs = append(c.inputs, input)
	return "12:00", nil
}

var _ tools.Tool = (*clock)(nil)

// The tool loop driven by langchaingo's own agent and executor, with
// thinking on, streamed and not: the agent rebuilds the assistant turn
// from the tool calls alone, and the reply memory sends the thinking block
// back with its signature (the fake checks it) and the tool input as the
// model wrote it. Without the memory the agent's turn cannot be sent: it
// holds the tool's extracted input ("UTC") where the JSON arguments were.
func TestAgentToolLoop(t *testing.T) {
	for _, tc := range []struct {
		name    string
		stream  bool
		memory  int
		wantErr string
	}{
		{"create", false, DefaultReplyMemory, ""},
		{"stream", true, DefaultReplyMemory, ""},
		{"memory off", false, 0, `messages[2].Parts[0]: ToolCall "toolu_010000000000000000000001" (get_time): Arguments are not a JSON object`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			llm, srv := newLLM(t, WithReplyMemory(tc.memory), WithCallOptions(llms.WithThinkingBudget(mms.MinThinkingBudget)))
			srv.Script(
				mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_time", Input: `{"__arg1":"UTC"}`}}},
				mmstest.Turn{Text: "It is noon in UTC."},
			)
			tool := &clock{}
			executor := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(llm, []tools.Tool{tool}), agents.WithMaxIterations(3))
			var opts []chains.ChainCallOption
			var streamed strings.Builder
			if tc.stream {
				opts = append(opts, chains.WithStreamingFunc(func(_ context.Context, chunk []byte) error {
					streamed.Write(chunk)
					return nil
				}))
			}
			out, err := chains.Run(context.Background(), executor, "What time is it in UTC?", opts...)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				assert.Len(t, messageRequests(t, srv), 1, "the second request is not sent")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "It is noon in UTC.", out)
			assert.Equal(t, []string{"UTC"}, tool.inputs)
			if tc.stream {
				assert.Equal(t, "You said: What time is it in UTC?It is noon in UTC.", streamed.String())
			}

			reqs := messageRequests(t, srv)
			require.Len(t, reqs, 2)
			for _, r := range reqs {
				assert.Equal(t, tc.stream, r.Stream)
			}
			msgs := reqs[1].Messages
			require.Len(t, msgs, 3)
			assistant := msgs[1].Content
			require.Len(t, assistant, 3)
			assert.Equal(t, "thinking", assistant[0]["type"])
			assert.Equal(t, "The user said: What time is it in UTC?", assistant[0]["thinking"])
			assert.NotEmpty(t, assistant[0]["signature"])
			assert.Equal(t, map[string]any{"type": "text", "text": "You said: What time is it in UTC?"}, assistant[1])
			assert.Equal(t, "tool_use", assistant[2]["type"])
			assert.Equal(t, map[string]any{"__arg1": "UTC"}, assistant[2]["input"])
			assert.Equal(t, "tool_result", msgs[2].Content[0]["type"])
			assert.Equal(t, assistant[2]["id"], msgs[2].Content[0]["tool_use_id"])
		})
	}
}

func TestReplyMemory(t *testing.T) {
	reply := func(id, input string) *mms.Message {
		return &mms.Message{Content: mms.ContentBlocks{
			mms.ThinkingBlock{Thinking: "hm", Signature: "sig-" + id},
			mms.ToolUseBlock{ID: id, Name: "f", Input: []byte(input)},
		}}
	}
	call := func(id, args string) llms.ToolCall {
		return llms.ToolCall{ID: id, FunctionCall: &llms.FunctionCall{Name: "f", Arguments: args}}
	}
	m := newReplyMemory(2)
	m.remember(reply("a", `{"x": 1}`))
	m.remember(&mms.Message{Content: mms.ContentBlocks{mms.TextBlock{Text: "no tools"}}})
	m.remember(reply("b", `{}`))

	got, ok := m.recall([]llms.ToolCall{call("a", `{"x":1}`)})
	require.True(t, ok)
	assert.Equal(t, "sig-a", got[0].(mms.ThinkingBlock).Signature)
	_, ok = m.recall([]llms.ToolCall{call("b", `UTC`)})
	assert.True(t, ok, "the agent's extracted input does not matter")

	for name, calls := range map[string][]llms.ToolCall{
		"other name":   {{ID: "a", FunctionCall: &llms.FunctionCall{Name: "g", Arguments: `{"x":1}`}}},
		"more calls":   {call("a", `{"x":1}`), call("c", `{}`)},
		"unknown id":   {call("zz", `{}`)},
		"none":         nil,
		"nil function": {{ID: "a"}},
	} {
		_, ok := m.recall(calls)
		assert.False(t, ok, name)
	}

	m.remember(reply("c", `{}`))
	_, ok = m.recall([]llms.ToolCall{call("a", `{"x":1}`)})
	assert.False(t, ok, "the oldest is forgotten")
	_, ok = m.recall([]llms.ToolCall{call("c", `{}`)})
	assert.True(t, ok)

	off := newReplyMemory(0)
	off.remember(reply("a", `{}`))
	_, ok = off.recall([]llms.ToolCall{call("a", `{}`)})
	assert.False(t, ok)
}

// Concurrent calls share one LLM: the reply memory is written and read
// from several goroutines (run with -race).
func TestConcurrentToolCalls(t *testing.T) {
	llm, _ := newLLM(t)
	tools := llms.WithTools([]llms.Tool{{Type: "function", Function: &llms.FunctionDefinition{
		Name: "get_time", Parameters: map[string]any{"type": "object"}}}})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			history := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "use get_time")}
			resp, err := llm.GenerateContent(context.Background(), history, tools)
			if err != nil {
				errs <- err
				return
			}
			c := resp.Choices[0]
			if len(c.ToolCalls) != 1 {
				errs <- assert.AnError
				return
			}
			history = append(history,
				llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{c.ToolCalls[0]}},
				llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
					llms.ToolCallResponse{ToolCallID: c.ToolCalls[0].ID, Content: "12:00"}}})
			_, err = llm.GenerateContent(context.Background(), history, tools)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}
