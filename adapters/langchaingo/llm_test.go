package langchaingo

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/callbacks"
	"github.com/tmc/langchaingo/llms"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

func TestGenerateContentText(t *testing.T) {
	llm, srv := newLLM(t)
	resp, err := llm.GenerateContent(context.Background(), []llms.MessageContent{
		llms.TextParts(llms.ChatMessageTypeSystem, "Be brief."),
		llms.TextParts(llms.ChatMessageTypeHuman, "Hello"),
	})
	require.NoError(t, err)
	require.Len(t, resp.Choices, 1)
	c := resp.Choices[0]
	assert.Equal(t, "You said: Hello", c.Content)
	assert.Equal(t, "end_turn", c.StopReason)
	assert.Empty(t, c.ToolCalls)
	assert.Nil(t, c.FuncCall)

	usage, ok := c.GenerationInfo[InfoUsage].(mms.Usage)
	require.True(t, ok)
	assert.Positive(t, usage.InputTokens)
	assert.Equal(t, usage.InputTokens, c.GenerationInfo[InfoInputTokens])
	assert.Equal(t, usage.OutputTokens, c.GenerationInfo[InfoOutputTokens])
	assert.Equal(t, 0, c.GenerationInfo[InfoCacheReadInputTokens])
	assert.Equal(t, 0, c.GenerationInfo[InfoCacheCreationInputTokens])
	assert.Equal(t, requestIDs(srv), []string{c.GenerationInfo[InfoRequestID].(string)})
	assert.Equal(t, testModel, c.GenerationInfo[InfoModel])
	assert.NotEmpty(t, c.GenerationInfo[InfoMessageID])

	reqs := messageRequests(t, srv)
	require.Len(t, reqs, 1)
	assert.Equal(t, testModel, reqs[0].Model)
	assert.Equal(t, DefaultMaxTokens, reqs[0].MaxTokens)
	assert.JSONEq(t, `[{"type":"text","text":"Be brief."}]`, string(reqs[0].System))
	assert.False(t, reqs[0].Stream)
}

func TestCall(t *testing.T) {
	llm, _ := newLLM(t)
	out, err := llm.Call(context.Background(), "ping")
	require.NoError(t, err)
	assert.Equal(t, "You said: ping", out)
}

func TestNew(t *testing.T) {
	client, _ := fakeclient.New(t)
	for _, tc := range []struct {
		name    string
		client  *mms.Client
		opts    []Option
		wantErr string
	}{
		{"ok", client, nil, ""},
		{"nil client", nil, nil, "client is nil"},
		{"max tokens one", client, []Option{WithMaxTokens(1)}, ""},
		{"max tokens zero", client, []Option{WithMaxTokens(0)}, "WithMaxTokens(0): max tokens must be positive"},
		{"memory zero", client, []Option{WithReplyMemory(0)}, ""},
		{"memory negative", client, []Option{WithReplyMemory(-1)}, "WithReplyMemory(-1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := New(tc.client, tc.opts...)
			if tc.wantErr == "" {
				require.NoError(t, err)
				assert.NotNil(t, l)
				return
			}
			require.ErrorContains(t, err, tc.wantErr)
		})
	}
}

// A call-level model and max tokens win over New's; none at all is an error
// before anything is sent.
func TestModelAndMaxTokens(t *testing.T) {
	client, srv := fakeclient.New(t)
	llm, err := New(client, WithMaxTokens(100))
	require.NoError(t, err)
	ctx := context.Background()
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")}

	_, err = llm.GenerateContent(ctx, msgs)
	require.ErrorContains(t, err, "no model")
	assert.Empty(t, srv.Requests())

	_, err = llm.GenerateContent(ctx, msgs, llms.WithModel("mms-small-1"), llms.WithMaxTokens(50))
	require.NoError(t, err)
	reqs := messageRequests(t, srv)
	require.Len(t, reqs, 1)
	assert.Equal(t, "mms-small-1", reqs[0].Model)
	assert.Equal(t, 50, reqs[0].MaxTokens)
}

// Defaults set with WithCallOptions apply first; the call's own win.
func TestWithCallOptions(t *testing.T) {
	llm, srv := newLLM(t, WithCallOptions(llms.WithMaxTokens(77), llms.WithModel("mms-small-1")))
	_, err := llm.GenerateContent(context.Background(),
		[]llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")}, llms.WithModel("mms-medium-1"))
	require.NoError(t, err)
	reqs := messageRequests(t, srv)
	require.Len(t, reqs, 1)
	assert.Equal(t, "mms-medium-1", reqs[0].Model)
	assert.Equal(t, 77, reqs[0].MaxTokens)
}

// The service's errors come back as *mms.Error, wrapped, with the request id.
func TestServiceError(t *testing.T) {
	llm, srv := newLLM(t, WithRequestOptions())
	srv.FailNext("/v1/messages", 400)
	_, err := llm.GenerateContent(context.Background(), []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")})
	var apiErr *mms.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 400, apiErr.StatusCode)
	assert.Equal(t, requestIDs(srv), []string{apiErr.RequestID})
}

type recordingHandler struct {
	callbacks.SimpleHandler
	starts, ends, errs int
}

func (h *recordingHandler) HandleLLMGenerateContentStart(context.Context, []llms.MessageContent) {
	h.starts++
}
func (h *recordingHandler) HandleLLMGenerateContentEnd(context.Context, *llms.ContentResponse) {
	h.ends++
}
func (h *recordingHandler) HandleLLMError(context.Context, error) { h.errs++ }

func TestCallbacksHandler(t *testing.T) {
	llm, srv := newLLM(t)
	h := &recordingHandler{}
	llm.CallbacksHandler = h
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")}
	_, err := llm.GenerateContent(context.Background(), msgs)
	require.NoError(t, err)
	srv.FailNext("/v1/messages", 400)
	_, err = llm.GenerateContent(context.Background(), msgs)
	require.Error(t, err)
	assert.Equal(t, [3]int{2, 1, 1}, [3]int{h.starts, h.ends, h.errs})
}

// A tool loop the way langchaingo's documentation drives one: GenerateContent,
// the ToolCall, a ToolCallResponse message, GenerateContent again. The tool
// input travels as a JSON object, not a string.
func TestToolLoopByHand(t *testing.T) {
	llm, srv := newLLM(t)
	srv.Script(
		mmstest.Turn{Text: "Let me look.", ToolCalls: []mmstest.ToolCall{
			{Name: "get_weather", Input: `{"city":"Paris","days":2}`},
			{Name: "get_weather", Input: `{"city":"Rome","days":1}`},
		}},
		mmstest.Turn{Text: "Sunny in both."},
	)
	tools := []llms.Tool{{Type: "function", Function: &llms.FunctionDefinition{
		Name:        "get_weather",
		Description: "Weather forecast",
		Parameters: map[string]any{
			"type":       "object",
			"properties": map[string]any{"city": map[string]any{"type": "string"}, "days": map[string]any{"type": "integer"}},
			"required":   []string{"city"},
		},
	}}}
	ctx := context.Background()
	history := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "Weather in Paris and Rome?")}
	resp, err := llm.GenerateContent(ctx, history, llms.WithTools(tools))
	require.NoError(t, err)
	c := resp.Choices[0]
	assert.Equal(t, "tool_use", c.StopReason)
	assert.Equal(t, "Let me look.", c.Content)
	require.Len(t, c.ToolCalls, 2)
	assert.Equal(t, "function", c.ToolCalls[0].Type)
	assert.Equal(t, "get_weather", c.ToolCalls[0].FunctionCall.Name)
	assert.JSONEq(t, `{"city":"Paris","days":2}`, c.ToolCalls[0].FunctionCall.Arguments)
	assert.Equal(t, c.ToolCalls[0].FunctionCall, c.FuncCall)

	assistant := llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.TextPart(c.Content)}}
	for _, tc := range c.ToolCalls {
		assistant.Parts = append(assistant.Parts, tc)
	}
	history = append(history, assistant)
	for _, tc := range c.ToolCalls {
		history = append(history, llms.MessageContent{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
			llms.ToolCallResponse{ToolCallID: tc.ID, Name: tc.FunctionCall.Name, Content: "sunny"},
		}})
	}
	resp, err = llm.GenerateContent(ctx, history, llms.WithTools(tools))
	require.NoError(t, err)
	assert.Equal(t, "Sunny in both.", resp.Choices[0].Content)

	reqs := messageRequests(t, srv)
	require.Len(t, reqs, 2)
	var tool map[string]any
	require.NoError(t, json.Unmarshal(reqs[0].Tools[0], &tool))
	assert.Equal(t, "get_weather", tool["name"])
	assert.Equal(t, "object", tool["input_schema"].(map[string]any)["type"])

	second := reqs[1].Messages
	require.Len(t, second, 3, "the two tool messages travel in one user turn")
	use := second[1].Content[1]
	assert.Equal(t, "tool_use", use["type"])
	assert.Equal(t, map[string]any{"city": "Paris", "days": float64(2)}, use["input"], "input is an object")
	require.Len(t, second[2].Content, 2)
	assert.Equal(t, "tool_result", second[2].Content[0]["type"])
	assert.Equal(t, c.ToolCalls[0].ID, second[2].Content[0]["tool_use_id"])
	assert.Equal(t, c.ToolCalls[1].ID, second[2].Content[1]["tool_use_id"])
}

// Validation failures name the field and send nothing.
func TestInvalidCallsSendNothing(t *testing.T) {
	llm, srv := newLLM(t)
	hi := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")}
	for _, tc := range []struct {
		name     string
		messages []llms.MessageContent
		opts     []llms.CallOption
		want     string
	}{
		{"no parts", []llms.MessageContent{{Role: llms.ChatMessageTypeHuman}}, nil, "messages[0]: no parts"},
		{"generic role", []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeGeneric, "x")}, nil, `role "generic"`},
		{"function role", []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeFunction, "x")}, nil, `role "function"`},
		{"tool call in human", []llms.MessageContent{{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{
			llms.ToolCall{ID: "a", FunctionCall: &llms.FunctionCall{Name: "f"}}}}}, nil, "belongs in an ai message"},
		{"text in tool", []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeTool, "x")}, nil, "a tool message holds ToolCallResponse"},
		{"result without id", []llms.MessageContent{{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{
			llms.ToolCallResponse{Content: "x"}}}}, nil, "ToolCallID is empty"},
		{"arguments not object", append(hi[:1:1], llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
			llms.ToolCall{ID: "a", FunctionCall: &llms.FunctionCall{Name: "f", Arguments: `"x"`}}}}), nil, "not a JSON object"},
		{"nil function call", append(hi[:1:1], llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
			llms.ToolCall{ID: "a"}}}), nil, "FunctionCall is nil"},
		{"image in ai", append(hi[:1:1], llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{
			llms.BinaryPart("image/png", []byte{1})}}), nil, "an ai message holds"},
		{"image in system", []llms.MessageContent{{Role: llms.ChatMessageTypeSystem, Parts: []llms.ContentPart{
			llms.BinaryPart("image/png", []byte{1})}}}, nil, "a system message holds text"},
		{"binary of unknown type", []llms.MessageContent{{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{
			llms.BinaryPart("audio/wav", []byte{1})}}}, nil, `MIMEType "audio/wav"`},
		{"image url scheme", []llms.MessageContent{{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{
			llms.ImageURLPart("ftp://x/y.png")}}}, nil, "http(s) URL"},
		{"data url not base64", []llms.MessageContent{{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{
			llms.ImageURLPart("data:image/png,abc")}}}, nil, "must be base64"},
		{"nil block", []llms.MessageContent{{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{BlockPart{}}}}, nil, "Block is nil"},
		{"cache type", []llms.MessageContent{{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{
			llms.WithCacheControl(llms.TextPart("x"), &llms.CacheControl{Type: "persistent"})}}}, nil, `CacheControl.Type "persistent"`},
		{"cache duration", []llms.MessageContent{{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{
			llms.WithCacheControl(llms.TextPart("x"), &llms.CacheControl{Duration: 10 * 60e9})}}}, nil, "CacheControl.Duration 10m0s"},
		{"negative max tokens", hi, []llms.CallOption{llms.WithMaxTokens(-1)}, "MaxTokens -1"},
		{"candidate count", hi, []llms.CallOption{llms.WithCandidateCount(2)}, "CallOptions.CandidateCount"},
		{"n", hi, []llms.CallOption{llms.WithN(2)}, "CallOptions.N"},
		{"seed", hi, []llms.CallOption{llms.WithSeed(1)}, "CallOptions.Seed"},
		{"min length", hi, []llms.CallOption{llms.WithMinLength(1)}, "CallOptions.MinLength"},
		{"max length", hi, []llms.CallOption{llms.WithMaxLength(1)}, "CallOptions.MaxLength"},
		{"repetition penalty", hi, []llms.CallOption{llms.WithRepetitionPenalty(1)}, "CallOptions.RepetitionPenalty"},
		{"frequency penalty", hi, []llms.CallOption{llms.WithFrequencyPenalty(1)}, "CallOptions.FrequencyPenalty"},
		{"presence penalty", hi, []llms.CallOption{llms.WithPresencePenalty(1)}, "CallOptions.PresencePenalty"},
		{"json mode", hi, []llms.CallOption{llms.WithJSONMode()}, "CallOptions.JSONMode"},
		{"response mime type", hi, []llms.CallOption{llms.WithResponseMIMEType("application/json")}, "CallOptions.ResponseMIMEType"},
		{"metadata key", hi, []llms.CallOption{llms.WithMetadata(map[string]any{"anthropic:beta_headers": []string{"x"}})}, `Metadata["anthropic:beta_headers"]: unknown key`},
		{"metadata user id type", hi, []llms.CallOption{llms.WithMetadata(map[string]any{MetadataUserID: 1})}, `Metadata["user_id"]: a int`},
		{"metadata caching type", hi, []llms.CallOption{llms.WithMetadata(map[string]any{"prompt_caching": "yes"})}, `Metadata["prompt_caching"]: a string`},
		{"metadata thinking type", hi, []llms.CallOption{llms.WithMetadata(map[string]any{"thinking_config": llms.ThinkingConfig{}})}, `Metadata["thinking_config"]: a llms.ThinkingConfig`},
		{"tool type", hi, []llms.CallOption{llms.WithTools([]llms.Tool{{Type: "retrieval"}})}, `Tools[0]: type "retrieval"`},
		{"tool without function", hi, []llms.CallOption{llms.WithTools([]llms.Tool{{Type: "function"}})}, "Tools[0]: Function is nil"},
		{"tool schema not object", hi, []llms.CallOption{llms.WithTools([]llms.Tool{{Function: &llms.FunctionDefinition{
			Name: "f", Parameters: "[1]"}}})}, "Tools[0] (f): Parameters: not a JSON object"},
		{"function schema not object", hi, []llms.CallOption{llms.WithFunctions([]llms.FunctionDefinition{{
			Name: "f", Parameters: 3}})}, "Functions[0] (f): Parameters: not a JSON object"},
		{"tool choice type", hi, []llms.CallOption{llms.WithToolChoice(3)}, "CallOptions.ToolChoice: a int"},
		{"tool choice empty", hi, []llms.CallOption{llms.WithToolChoice("")}, "CallOptions.ToolChoice: empty"},
		{"tool choice empty name", hi, []llms.CallOption{llms.WithToolChoice(llms.ToolChoice{Type: "function",
			Function: &llms.FunctionReference{}})}, "the function's name is empty"},
		{"function call behavior", hi, []llms.CallOption{llms.WithFunctionCallBehavior("sometimes")}, `FunctionCallBehavior "sometimes"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := llm.GenerateContent(context.Background(), tc.messages, tc.opts...)
			require.ErrorContains(t, err, tc.want)
			assert.Empty(t, srv.Requests())
		})
	}
}

// The other side of each limit: the values that are not refused.
func TestAcceptedEdges(t *testing.T) {
	llm, _ := newLLM(t)
	hi := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")}
	for _, tc := range []struct {
		name string
		opts []llms.CallOption
	}{
		{"candidate count 1", []llms.CallOption{llms.WithCandidateCount(1)}},
		{"n 1", []llms.CallOption{llms.WithN(1)}},
		{"zero knobs", []llms.CallOption{llms.WithSeed(0), llms.WithMinLength(0), llms.WithMaxLength(0),
			llms.WithRepetitionPenalty(0), llms.WithTemperature(0)}},
		{"text/plain", []llms.CallOption{llms.WithResponseMIMEType("text/plain")}},
		{"max tokens 0 is unset", []llms.CallOption{llms.WithMaxTokens(0)}},
		{"known metadata", []llms.CallOption{llms.WithMetadata(map[string]any{MetadataUserID: "u-1", "prompt_caching": false})}},
		{"nil thinking config", []llms.CallOption{llms.WithThinking(nil)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := llm.GenerateContent(context.Background(), hi, tc.opts...)
			require.NoError(t, err)
		})
	}
}

func TestServiceValidationError(t *testing.T) {
	// Rules the SDK checks (here: an empty text block) come back as its
	// *mms.ValidationError before anything is sent.
	llm, srv := newLLM(t)
	_, err := llm.GenerateContent(context.Background(), []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "")})
	var verr *mms.ValidationError
	require.True(t, errors.As(err, &verr), "%v", err)
	assert.Empty(t, srv.Requests())
}
