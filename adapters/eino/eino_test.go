package eino_test

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/cloudwego/eino/callbacks"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/flow/agent/react"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/adapters/eino"
	"github.com/mms-sdk/mms-go/mmstest"
)

type weatherIn struct {
	City string `json:"city" jsonschema:"description=the city"`
}

func weatherTool(t *testing.T) tool.InvokableTool {
	t.Helper()
	tl, err := utils.InferTool("get_weather", "The weather of a city",
		func(_ context.Context, in weatherIn) (string, error) { return "sunny in " + in.City, nil })
	require.NoError(t, err)
	return tl
}

// claudeStyleChecker reads the whole stream for tool calls: the service
// sends text before tool calls, so Eino's default first-chunk check misses
// them.
func claudeStyleChecker(_ context.Context, sr *schema.StreamReader[*schema.Message]) (bool, error) {
	defer sr.Close()
	for {
		m, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		if len(m.ToolCalls) > 0 {
			return true, nil
		}
	}
}

// The react agent drives the tool loop: a call of get_weather with an
// object input, its result sent back, then the final answer.
func TestReactAgentToolLoop(t *testing.T) {
	for _, streamed := range []bool{false, true} {
		t.Run(map[bool]string{false: "Generate", true: "Stream"}[streamed], func(t *testing.T) {
			cm, srv := newModel(t, mmstest.WithScript(
				mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Paris"}`}}},
				mmstest.Turn{Text: "It is sunny in Paris."},
			))
			ctx := context.Background()
			agent, err := react.NewAgent(ctx, &react.AgentConfig{
				ToolCallingModel:      cm,
				ToolsConfig:           compose.ToolsNodeConfig{Tools: []tool.BaseTool{weatherTool(t)}},
				StreamToolCallChecker: claudeStyleChecker,
			})
			require.NoError(t, err)
			in := []*schema.Message{schema.UserMessage("What is the weather in Paris?")}
			var out *schema.Message
			if streamed {
				sr, err := agent.Stream(ctx, in)
				require.NoError(t, err)
				out, err = schema.ConcatMessageStream(sr)
				require.NoError(t, err)
			} else {
				out, err = agent.Generate(ctx, in)
				require.NoError(t, err)
			}
			assert.Equal(t, "It is sunny in Paris.", out.Content)
			assert.Equal(t, "end_turn", out.ResponseMeta.FinishReason)

			reqs := sent(t, srv)
			require.Len(t, reqs, 2)
			require.Len(t, reqs[0].Tools, 1)
			def := reqs[0].Tools[0].(mms.CustomTool)
			assert.Equal(t, "get_weather", def.Name)
			assert.JSONEq(t, `{"type":"object","properties":{"city":{"type":"string","description":"the city"}},"required":["city"],"additionalProperties":false}`, string(def.InputSchema))

			second := reqs[1].Messages
			require.Len(t, second, 3)
			use := second[1].Content[len(second[1].Content)-1].(mms.ToolUseBlock)
			assert.Equal(t, "get_weather", use.Name)
			assert.JSONEq(t, `{"city":"Paris"}`, string(use.Input), "the input goes back as an object")
			result := second[2].Content[0].(mms.ToolResultBlock)
			assert.Equal(t, use.ID, result.ToolUseID)
			assert.Contains(t, result.Content[0].(mms.TextBlock).Text, "sunny in Paris")
		})
	}
}

// A streamed answer arrives in pieces whose concatenation is what Generate
// returns; the stop reason and usage come once, in the last chunk.
func TestStreamMatchesGenerate(t *testing.T) {
	cm, srv := newModel(t)
	ctx := context.Background()
	in := []*schema.Message{schema.SystemMessage("Be brief."), schema.UserMessage("Hello there")}

	want, err := cm.Generate(ctx, in)
	require.NoError(t, err)
	sr, err := cm.Stream(ctx, in)
	require.NoError(t, err)
	chunks, err := drain(sr)
	require.NoError(t, err)
	require.Greater(t, len(chunks), 1)
	for i, c := range chunks[:len(chunks)-1] {
		assert.Nil(t, c.ResponseMeta, "chunk %d", i)
		assert.Nil(t, c.Extra, "chunk %d", i)
	}
	got, err := schema.ConcatMessages(chunks)
	require.NoError(t, err)

	assert.Equal(t, "You said: Hello there", got.Content)
	assert.Equal(t, want.Content, got.Content)
	assert.Equal(t, want.ResponseMeta, got.ResponseMeta)
	assert.Positive(t, got.ResponseMeta.Usage.PromptTokens)
	assert.Positive(t, got.ResponseMeta.Usage.CompletionTokens)
	assert.Equal(t, got.ResponseMeta.Usage.PromptTokens+got.ResponseMeta.Usage.CompletionTokens, got.ResponseMeta.Usage.TotalTokens)

	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, reqs[0].RequestID, eino.RequestID(want))
	assert.Equal(t, reqs[1].RequestID, eino.RequestID(got))
	assert.Equal(t, "Be brief.", sent(t, srv)[0].System.Blocks[0].Text)
}

// A streamed tool call's pieces concatenate to the call Generate returns.
func TestStreamToolCall(t *testing.T) {
	cm, _ := newModel(t, mmstest.WithScript(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Oslo"}`}, {Name: "get_weather", Input: `{"city":"Rome"}`}}},
	))
	info, err := weatherTool(t).Info(context.Background())
	require.NoError(t, err)
	tcm, err := cm.WithTools([]*schema.ToolInfo{info})
	require.NoError(t, err)
	sr, err := tcm.Stream(context.Background(), []*schema.Message{schema.UserMessage("get_weather twice")})
	require.NoError(t, err)
	chunks, err := drain(sr)
	require.NoError(t, err)
	got, err := schema.ConcatMessages(chunks)
	require.NoError(t, err)
	require.Len(t, got.ToolCalls, 2)
	assert.JSONEq(t, `{"city":"Oslo"}`, got.ToolCalls[0].Function.Arguments)
	assert.JSONEq(t, `{"city":"Rome"}`, got.ToolCalls[1].Function.Arguments)
	assert.Equal(t, "get_weather", got.ToolCalls[1].Function.Name)
	assert.NotEqual(t, got.ToolCalls[0].ID, got.ToolCalls[1].ID)
	assert.Equal(t, "tool_use", got.ResponseMeta.FinishReason)
}

// A thinking turn comes back with its signature: the next request carries
// the thinking block unchanged (the fake refuses a changed signature).
func TestThinkingRoundTrip(t *testing.T) {
	for _, streamed := range []bool{false, true} {
		t.Run(map[bool]string{false: "Generate", true: "Stream"}[streamed], func(t *testing.T) {
			cm, srv := newModel(t)
			ctx := context.Background()
			think := eino.WithThinking(mms.ThinkingConfigEnabled{BudgetTokens: 1024})
			history := []*schema.Message{schema.UserMessage("Think about tea.")}
			var reply *schema.Message
			if streamed {
				sr, err := cm.Stream(ctx, history, think)
				require.NoError(t, err)
				reply, err = schema.ConcatMessageStream(sr)
				require.NoError(t, err)
			} else {
				var err error
				reply, err = cm.Generate(ctx, history, think)
				require.NoError(t, err)
			}
			assert.Equal(t, "The user said: Think about tea.", reply.ReasoningContent)
			blocks, ok, err := eino.Content(reply)
			require.NoError(t, err)
			require.True(t, ok)
			first := blocks[0].(mms.ThinkingBlock)
			require.NotEmpty(t, first.Signature)

			history = append(history, reply, schema.UserMessage("And coffee?"))
			_, err = cm.Generate(ctx, history, think)
			require.NoError(t, err)
			// Edited, the message is rebuilt around the same signed block.
			edited := *reply
			edited.Content = "Tea is good."
			history[1] = &edited
			_, err = cm.Generate(ctx, history, think)
			require.NoError(t, err)

			reqs := sent(t, srv)
			require.Len(t, reqs, 3)
			for _, r := range reqs[1:] {
				back := r.Messages[1].Content[0].(mms.ThinkingBlock)
				assert.Equal(t, first.Thinking, back.Thinking)
				assert.Equal(t, first.Signature, back.Signature)
			}
			assert.Equal(t, "Tea is good.", reqs[2].Messages[1].Content[1].(mms.TextBlock).Text)
		})
	}
}

// Cancelling the context ends the stream with the context's error and
// releases the connection and the goroutine.
func TestStreamCancel(t *testing.T) {
	leaks := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, leaks) }) // after the server closes
	cm, srv := newModel(t)
	srv.InjectStreamFault(mmstest.StreamFault{Path: "/v1/messages", StallAfterEvents: 5, Stall: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sr, err := cm.Stream(ctx, []*schema.Message{schema.UserMessage("Hello")})
	require.NoError(t, err)
	defer sr.Close()
	_, err = sr.Recv()
	require.NoError(t, err)
	start := time.Now()
	cancel()
	for err == nil {
		_, err = sr.Recv()
	}
	assert.ErrorIs(t, err, context.Canceled)
	assert.Less(t, time.Since(start), 10*time.Second)
}

// Closing the reader early ends the request (at the next event; ctx ends
// it at once) though ctx lives on: no goroutine, no connection is left.
func TestStreamCloseEarly(t *testing.T) {
	cm, srv := newModel(t)
	leaks := goleak.IgnoreCurrent() // the server's own goroutines
	srv.InjectStreamFault(mmstest.StreamFault{Path: "/v1/messages", StallAfterEvents: 6, Stall: 300 * time.Millisecond})
	sr, err := cm.Stream(context.Background(), []*schema.Message{schema.UserMessage("Hello")})
	require.NoError(t, err)
	_, err = sr.Recv()
	require.NoError(t, err)
	sr.Close()
	goleak.VerifyNone(t, leaks)
	// The request ended before its last event: the fake saw a broken stream.
	require.Len(t, srv.Requests(), 1)
}

// An error event mid-stream reaches the reader as the service's error.
func TestStreamMidError(t *testing.T) {
	cm, srv := newModel(t)
	srv.InjectStreamFault(mmstest.StreamFault{Path: "/v1/messages", ErrorAfterEvents: 4})
	sr, err := cm.Stream(context.Background(), []*schema.Message{schema.UserMessage("Hello")})
	require.NoError(t, err)
	chunks, err := drain(sr)
	var apiErr *mms.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "overloaded_error", apiErr.Type)
	for _, c := range chunks {
		assert.Nil(t, c.ResponseMeta, "no usage for a broken stream")
	}
}

// A cut connection mid-stream is an error, never a short answer.
func TestStreamCut(t *testing.T) {
	cm, srv := newModel(t)
	srv.InjectStreamFault(mmstest.StreamFault{Path: "/v1/messages", CutAfterEvents: 4})
	sr, err := cm.Stream(context.Background(), []*schema.Message{schema.UserMessage("Hello")})
	require.NoError(t, err)
	_, err = drain(sr)
	require.Error(t, err)
}

// A refused request fails Stream itself, before any reader exists.
func TestStreamRefused(t *testing.T) {
	cm, srv := newModel(t)
	srv.FailNext("/v1/messages", 400)
	sr, err := cm.Stream(context.Background(), []*schema.Message{schema.UserMessage("Hello")})
	require.Nil(t, sr)
	var apiErr *mms.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 400, apiErr.StatusCode)
}

// The model reports to Eino's callbacks itself: start, end with usage
// (once for a stream), error.
func TestCallbacks(t *testing.T) {
	cm, srv := newModel(t)
	var mu sync.Mutex
	var starts, ends, errs, usages int
	var input *model.CallbackInput
	h := callbacks.NewHandlerBuilder().
		OnStartFn(func(ctx context.Context, info *callbacks.RunInfo, in callbacks.CallbackInput) context.Context {
			mu.Lock()
			defer mu.Unlock()
			starts++
			input = model.ConvCallbackInput(in)
			assert.Equal(t, "MMS", info.Type)
			return ctx
		}).
		OnEndFn(func(ctx context.Context, _ *callbacks.RunInfo, out callbacks.CallbackOutput) context.Context {
			mu.Lock()
			defer mu.Unlock()
			ends++
			if model.ConvCallbackOutput(out).TokenUsage != nil {
				usages++
			}
			return ctx
		}).
		OnEndWithStreamOutputFn(func(ctx context.Context, _ *callbacks.RunInfo, out *schema.StreamReader[callbacks.CallbackOutput]) context.Context {
			defer out.Close()
			for {
				o, err := out.Recv()
				if err != nil {
					break
				}
				mu.Lock()
				if model.ConvCallbackOutput(o).TokenUsage != nil {
					usages++
				}
				mu.Unlock()
			}
			mu.Lock()
			ends++
			mu.Unlock()
			return ctx
		}).
		OnErrorFn(func(ctx context.Context, _ *callbacks.RunInfo, _ error) context.Context {
			mu.Lock()
			defer mu.Unlock()
			errs++
			return ctx
		}).Build()
	ctx := callbacks.InitCallbacks(context.Background(), nil, h)
	in := []*schema.Message{schema.UserMessage("Hello")}

	_, err := cm.Generate(ctx, in, model.WithTemperature(0.5))
	require.NoError(t, err)
	sr, err := cm.Stream(ctx, in)
	require.NoError(t, err)
	_, err = drain(sr)
	require.NoError(t, err)
	srv.FailNext("/v1/messages", 400)
	_, err = cm.Generate(ctx, in)
	require.Error(t, err)

	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return ends == 2 }, 5*time.Second, 10*time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, 3, starts)
	assert.Equal(t, 2, usages, "usage once per call")
	assert.Equal(t, 1, errs)
	require.NotNil(t, input)
	assert.Equal(t, testModel, input.Config.Model)
	assert.Equal(t, 2048, input.Config.MaxTokens)
}

// WithTools returns a new model; the original keeps its tools.
func TestWithToolsDoesNotMutate(t *testing.T) {
	cm, srv := newModel(t)
	info, err := weatherTool(t).Info(context.Background())
	require.NoError(t, err)
	withTools, err := cm.WithTools([]*schema.ToolInfo{info})
	require.NoError(t, err)
	ctx := context.Background()
	in := []*schema.Message{schema.UserMessage("Hi")}
	_, err = withTools.Generate(ctx, in)
	require.NoError(t, err)
	_, err = cm.Generate(ctx, in)
	require.NoError(t, err)
	require.NoError(t, cm.BindTools([]*schema.ToolInfo{info, {Name: "no_params", Desc: "Takes nothing."}}))
	_, err = cm.Generate(ctx, in)
	require.NoError(t, err)

	reqs := sent(t, srv)
	require.Len(t, reqs, 3)
	assert.Len(t, reqs[0].Tools, 1)
	assert.Empty(t, reqs[1].Tools)
	require.Len(t, reqs[2].Tools, 2)
	assert.JSONEq(t, `{"type":"object","properties":{}}`, string(reqs[2].Tools[1].(mms.CustomTool).InputSchema))
}

// Eino's common options reach the request.
func TestCommonOptions(t *testing.T) {
	cm, srv := newModel(t)
	_, err := cm.Generate(context.Background(), []*schema.Message{schema.UserMessage("one two three")},
		model.WithModel("mms-small-1"), model.WithMaxTokens(100), model.WithTemperature(0),
		model.WithTopP(0.5), model.WithStop([]string{"two"}))
	require.NoError(t, err)
	p := sent(t, srv)[0]
	assert.Equal(t, "mms-small-1", p.Model)
	assert.Equal(t, 100, p.MaxTokens)
	require.NotNil(t, p.Temperature)
	assert.Equal(t, 0.0, *p.Temperature, "0 is sent")
	assert.Equal(t, 0.5, *p.TopP)
	assert.Equal(t, []string{"two"}, p.StopSequences)
}

// One model serves concurrent calls, also while BindTools rebinds it.
func TestConcurrentUse(t *testing.T) {
	cm, srv := newModel(t)
	info, err := weatherTool(t).Info(context.Background())
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 0 {
				assert.NoError(t, cm.BindTools([]*schema.ToolInfo{info}))
			}
			_, err := cm.Generate(context.Background(), []*schema.Message{schema.UserMessage("Hi")})
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	assert.Len(t, sent(t, srv), 4)
}
