package mmsgenkit_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	mms "github.com/mms-sdk/mms-go"
	mmsgenkit "github.com/mms-sdk/mms-go/adapters/genkit"
	"github.com/mms-sdk/mms-go/mmstest"
)

type weatherIn struct {
	City string `json:"city" jsonschema:"description=the city"`
}

func defineWeather(g *genkit.Genkit) ai.Tool {
	return genkit.DefineTool(g, "get_weather", "The weather of a city",
		func(_ *ai.ToolContext, in weatherIn) (string, error) { return "sunny in " + in.City, nil })
}

// collect is a streaming callback keeping the chunks.
type collect struct {
	mu     sync.Mutex
	chunks []*ai.ModelResponseChunk
}

func (c *collect) cb(_ context.Context, ch *ai.ModelResponseChunk) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.chunks = append(c.chunks, ch)
	return nil
}

func (c *collect) text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var sb strings.Builder
	for _, ch := range c.chunks {
		sb.WriteString(ch.Text())
	}
	return sb.String()
}

// Genkit's own tool loop: the model calls get_weather with an object
// input, Genkit runs it and sends the result back, the model answers.
func TestToolLoop(t *testing.T) {
	for _, streamed := range []bool{false, true} {
		t.Run(map[bool]string{false: "Generate", true: "Stream"}[streamed], func(t *testing.T) {
			g, srv := newGenkit(t, mmstest.WithScript(
				mmstest.Turn{Text: "Let me look.", ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Paris"}`}}},
				mmstest.Turn{Text: "It is sunny in Paris."},
			))
			opts := []ai.GenerateOption{
				ai.WithModelName(modelName),
				ai.WithPrompt("What is the weather in Paris?"),
				ai.WithTools(defineWeather(g)),
			}
			var c collect
			if streamed {
				opts = append(opts, ai.WithStreaming(c.cb))
			}
			resp, err := genkit.Generate(context.Background(), g, opts...)
			require.NoError(t, err)
			assert.Equal(t, "It is sunny in Paris.", resp.Text())
			assert.Equal(t, ai.FinishReasonStop, resp.FinishReason)
			assert.Equal(t, "end_turn", resp.FinishMessage)
			if streamed {
				assert.Contains(t, c.text(), "Let me look.")
				assert.Contains(t, c.text(), "It is sunny in Paris.")
				var sawCall bool
				for _, ch := range c.chunks {
					for _, p := range ch.Content {
						if p.IsToolRequest() {
							sawCall = true
							assert.Equal(t, map[string]any{"city": "Paris"}, p.ToolRequest.Input)
						}
					}
				}
				assert.True(t, sawCall, "the tool request is streamed")
			}

			reqs := sent(t, srv)
			require.Len(t, reqs, 2)
			require.Len(t, reqs[0].Tools, 1)
			def := reqs[0].Tools[0].(mms.CustomTool)
			assert.Equal(t, "get_weather", def.Name)
			var schema map[string]any
			require.NoError(t, json.Unmarshal(def.InputSchema, &schema))
			assert.Equal(t, "object", schema["type"])
			assert.Contains(t, schema["properties"], "city")

			second := reqs[1].Messages
			require.Len(t, second, 3)
			assert.Equal(t, mms.RoleAssistant, second[1].Role)
			assert.Equal(t, "Let me look.", second[1].Content[0].(mms.TextBlock).Text)
			use := second[1].Content[1].(mms.ToolUseBlock)
			assert.Equal(t, "get_weather", use.Name)
			assert.JSONEq(t, `{"city":"Paris"}`, string(use.Input), "the input goes back as an object")
			assert.Equal(t, mms.RoleUser, second[2].Role)
			result := second[2].Content[0].(mms.ToolResultBlock)
			assert.Equal(t, use.ID, result.ToolUseID)
			assert.Contains(t, result.Content[0].(mms.TextBlock).Text, "sunny in Paris")
		})
	}
}

// A streamed answer arrives in pieces whose concatenation is the answer;
// usage and the request id come once, in the response.
func TestStreamMatchesGenerate(t *testing.T) {
	g, srv := newGenkit(t)
	ctx := context.Background()
	opts := []ai.GenerateOption{ai.WithModelName(modelName), ai.WithSystem("Be brief."), ai.WithPrompt("Hello there")}
	want, err := genkit.Generate(ctx, g, opts...)
	require.NoError(t, err)
	var c collect
	got, err := genkit.Generate(ctx, g, append(opts, ai.WithStreaming(c.cb))...)
	require.NoError(t, err)
	require.Greater(t, len(c.chunks), 1)
	assert.Equal(t, "You said: Hello there", c.text())
	assert.Equal(t, want.Text(), got.Text())
	assert.Equal(t, want.Usage, got.Usage)
	assert.Positive(t, got.Usage.InputTokens)
	assert.Positive(t, got.Usage.OutputTokens)
	assert.Equal(t, got.Usage.InputTokens+got.Usage.OutputTokens, got.Usage.TotalTokens)
	assert.Equal(t, want.FinishReason, got.FinishReason)

	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, reqs[0].RequestID, mmsgenkit.RequestID(want))
	assert.Equal(t, reqs[1].RequestID, mmsgenkit.RequestID(got))
	assert.Equal(t, "Be brief.", sent(t, srv)[0].System.Blocks[0].Text)
	assert.IsType(t, &mms.Message{}, got.Raw)
}

// A thinking turn goes back with its signature: the next request carries
// the thinking block unchanged (the fake verifies the signature), also
// after the history went through JSON, as Genkit's sessions store it.
func TestThinkingRoundTrip(t *testing.T) {
	for _, streamed := range []bool{false, true} {
		t.Run(map[bool]string{false: "Generate", true: "Stream"}[streamed], func(t *testing.T) {
			g, srv := newGenkit(t)
			ctx := context.Background()
			cfg := &mmsgenkit.Config{ThinkingBudget: 1024}
			opts := []ai.GenerateOption{ai.WithModelName(modelName), ai.WithConfig(cfg), ai.WithPrompt("Think about tea.")}
			var c collect
			if streamed {
				opts = append(opts, ai.WithStreaming(c.cb))
			}
			resp, err := genkit.Generate(ctx, g, opts...)
			require.NoError(t, err)
			assert.Equal(t, "The user said: Think about tea.", resp.Reasoning())
			first := resp.Message.Content[0]
			require.True(t, first.IsReasoning())
			sig, ok := first.Metadata[mmsgenkit.MetadataSignature].([]byte)
			require.True(t, ok)
			require.NotEmpty(t, sig)
			if streamed {
				var streamedSig []byte
				for _, ch := range c.chunks {
					for _, p := range ch.Content {
						if s, ok := p.Metadata[mmsgenkit.MetadataSignature].([]byte); ok && len(s) > 0 {
							streamedSig = s
						}
					}
				}
				assert.Equal(t, sig, streamedSig, "the signature streams as a reasoning chunk")
			}

			history := resp.History()
			_, err = genkit.Generate(ctx, g, ai.WithModelName(modelName), ai.WithConfig(cfg),
				ai.WithMessages(append(history, ai.NewUserTextMessage("And coffee?"))...))
			require.NoError(t, err)

			raw, err := json.Marshal(history)
			require.NoError(t, err)
			var decoded []*ai.Message
			require.NoError(t, json.Unmarshal(raw, &decoded))
			_, err = genkit.Generate(ctx, g, ai.WithModelName(modelName), ai.WithConfig(cfg),
				ai.WithMessages(append(decoded, ai.NewUserTextMessage("And coffee?"))...))
			require.NoError(t, err)

			reqs := sent(t, srv)
			require.Len(t, reqs, 3)
			for _, r := range reqs[1:] {
				require.Len(t, r.Messages, 3)
				back := r.Messages[1].Content[0].(mms.ThinkingBlock)
				assert.Equal(t, first.Text, back.Thinking)
				assert.Equal(t, string(sig), back.Signature)
				assert.Equal(t, resp.Text(), r.Messages[1].Content[1].(mms.TextBlock).Text)
			}
			assert.Equal(t, mms.ThinkingConfigEnabled{BudgetTokens: 1024}, reqs[0].Thinking)
		})
	}
}

// Cancelling the context ends a stalled stream at once with the
// context's error; no goroutine or connection is left.
func TestStreamCancel(t *testing.T) {
	g, srv := newGenkit(t)
	leaks := goleak.IgnoreCurrent()
	srv.InjectStreamFault(mmstest.StreamFault{Path: "/v1/messages", StallAfterEvents: 5, Stall: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	start := time.Now()
	_, err := genkit.Generate(ctx, g, ai.WithModelName(modelName), ai.WithPrompt("Hello"),
		ai.WithStreaming(func(context.Context, *ai.ModelResponseChunk) error {
			once.Do(func() { time.AfterFunc(50*time.Millisecond, cancel) })
			return nil
		}))
	require.ErrorIs(t, err, context.Canceled)
	assert.Less(t, time.Since(start), 10*time.Second)
	goleak.VerifyNone(t, leaks)
}

// A callback error stops the stream: the error is the call's, and the
// request ends though the server still streams.
func TestStreamStoppedByCallback(t *testing.T) {
	g, srv := newGenkit(t)
	leaks := goleak.IgnoreCurrent()
	srv.InjectStreamFault(mmstest.StreamFault{Path: "/v1/messages", StallAfterEvents: 6, Stall: time.Minute})
	errStop := errors.New("enough")
	start := time.Now()
	_, err := genkit.Generate(context.Background(), g, ai.WithModelName(modelName), ai.WithPrompt("Hello"),
		ai.WithStreaming(func(context.Context, *ai.ModelResponseChunk) error { return errStop }))
	require.ErrorIs(t, err, errStop)
	assert.Less(t, time.Since(start), 10*time.Second)
	goleak.VerifyNone(t, leaks)
	require.Len(t, srv.Requests(), 1)
}

// An error event mid-stream is the call's error, the service's *mms.Error.
func TestStreamMidError(t *testing.T) {
	g, srv := newGenkit(t)
	srv.InjectStreamFault(mmstest.StreamFault{Path: "/v1/messages", ErrorAfterEvents: 4})
	var c collect
	resp, err := genkit.Generate(context.Background(), g, ai.WithModelName(modelName), ai.WithPrompt("Hello"), ai.WithStreaming(c.cb))
	require.Nil(t, resp)
	var apiErr *mms.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "overloaded_error", apiErr.Type)
}

// A cut connection mid-stream is an error, never a short answer.
func TestStreamCut(t *testing.T) {
	g, srv := newGenkit(t)
	srv.InjectStreamFault(mmstest.StreamFault{Path: "/v1/messages", CutAfterEvents: 4})
	var c collect
	resp, err := genkit.Generate(context.Background(), g, ai.WithModelName(modelName), ai.WithPrompt("Hello"), ai.WithStreaming(c.cb))
	require.Error(t, err)
	require.Nil(t, resp)
}

// A refused request is the call's error.
func TestRefused(t *testing.T) {
	g, srv := newGenkit(t)
	srv.FailNext("/v1/messages", 400)
	_, err := genkit.Generate(context.Background(), g, ai.WithModelName(modelName), ai.WithPrompt("Hello"))
	var apiErr *mms.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 400, apiErr.StatusCode)
}

// One plugin serves concurrent calls, streamed and not, of a model that
// resolves on first use.
func TestConcurrentUse(t *testing.T) {
	g, srv := newGenkit(t)
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			opts := []ai.GenerateOption{ai.WithModelName("mms/mms-small-1"), ai.WithPrompt("Hi")}
			var c collect
			if i%2 == 1 {
				opts = append(opts, ai.WithStreaming(c.cb))
			}
			resp, err := genkit.Generate(context.Background(), g, opts...)
			if assert.NoError(t, err) {
				assert.Equal(t, "You said: Hi", resp.Text())
			}
		}()
	}
	wg.Wait()
	assert.Len(t, sent(t, srv), 6)
}

// Cancelled from the callback while events are already buffered, the call
// ends with the context's error, not with the rest of the answer.
func TestStreamCancelInCallback(t *testing.T) {
	g, _ := newGenkit(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var chunks int
	resp, err := genkit.Generate(ctx, g, ai.WithModelName(modelName), ai.WithPrompt("Hello there, a longer prompt"),
		ai.WithStreaming(func(context.Context, *ai.ModelResponseChunk) error {
			chunks++
			cancel()
			return nil
		}))
	require.ErrorIs(t, err, context.Canceled)
	require.Nil(t, resp)
	assert.Equal(t, 1, chunks, "no chunk after the cancel")
}

// Genkit hands a call's tools over in map order; every turn of the loop
// sends them in one order, so the prompt-cache prefix holds.
func TestToolOrderStable(t *testing.T) {
	g, srv := newGenkit(t, mmstest.WithScript(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Oslo"}`}}},
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Rome"}`}}},
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Lima"}`}}},
		mmstest.Turn{Text: "Done."},
	))
	var tools []ai.ToolRef
	for _, name := range []string{"c_tool", "a_tool", "d_tool", "b_tool", "e_tool"} {
		tools = append(tools, genkit.DefineTool(g, name, "unused", func(*ai.ToolContext, struct{}) (string, error) { return "", nil }))
	}
	tools = append(tools, defineWeather(g))
	_, err := genkit.Generate(context.Background(), g, ai.WithModelName(modelName), ai.WithPrompt("weather thrice"), ai.WithTools(tools...))
	require.NoError(t, err)
	reqs := sent(t, srv)
	require.Len(t, reqs, 4)
	for _, r := range reqs {
		var names []string
		for _, tl := range r.Tools {
			names = append(names, tl.(mms.CustomTool).Name)
		}
		assert.Equal(t, []string{"a_tool", "b_tool", "c_tool", "d_tool", "e_tool", "get_weather"}, names)
	}
}

// A server tool's blocks come back as custom parts (streamed whole when
// they end) and go back verbatim: the paused turn continues, and the
// conversation after it is accepted.
func TestServerToolBlocks(t *testing.T) {
	for _, streamed := range []bool{false, true} {
		t.Run(map[bool]string{false: "Generate", true: "Stream"}[streamed], func(t *testing.T) {
			g, srv := newGenkit(t, mmstest.WithScript(mmstest.Turn{PauseTurn: true, Text: "Searching."}, mmstest.Turn{Text: "Found it."}))
			ctx := context.Background()
			cfg := &mmsgenkit.Config{Params: &mms.MessageCreateParams{Tools: mms.Tools{mms.WebSearchTool{Version: mms.WebSearch20250305}}}}
			gen := func(msgs ...*ai.Message) (*ai.ModelResponse, *collect) {
				t.Helper()
				var c collect
				opts := []ai.GenerateOption{ai.WithModelName(modelName), ai.WithConfig(cfg), ai.WithMessages(msgs...)}
				if streamed {
					opts = append(opts, ai.WithStreaming(c.cb))
				}
				resp, err := genkit.Generate(ctx, g, opts...)
				require.NoError(t, err)
				return resp, &c
			}
			first, c := gen(ai.NewUserTextMessage("news"))
			assert.Equal(t, ai.FinishReasonOther, first.FinishReason)
			assert.Equal(t, "pause_turn", first.FinishMessage)
			require.Len(t, first.Message.Content, 2)
			use, ok, err := mmsgenkit.Block(first.Message.Content[1])
			require.NoError(t, err)
			require.True(t, ok)
			require.IsType(t, mms.ServerToolUseBlock{}, use)
			if streamed {
				var custom int
				for _, ch := range c.chunks {
					for _, p := range ch.Content {
						if p.IsCustom() {
							custom++
						}
					}
				}
				assert.Equal(t, 1, custom, "the server tool call streams once, whole")
			}
			second, _ := gen(first.History()...)
			assert.Equal(t, "Found it.", second.Text())
			res, ok, err := mmsgenkit.Block(second.Message.Content[0])
			require.NoError(t, err)
			require.True(t, ok)
			assert.Equal(t, use.(mms.ServerToolUseBlock).ID, res.(mms.WebSearchToolResultBlock).ToolUseID)
			third, _ := gen(append(second.History(), ai.NewUserTextMessage("thanks"))...)
			assert.Equal(t, "You said: thanks", third.Text())

			reqs := sent(t, srv)
			require.Len(t, reqs, 3)
			assert.Equal(t, use, reqs[1].Messages[1].Content[1], "the server tool call goes back as it came")
		})
	}
}
