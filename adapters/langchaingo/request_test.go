package langchaingo

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"

	mms "github.com/mms-sdk/mms-go"
)

func pngBytes(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1))))
	return buf.Bytes()
}

// sentBody sends msgs to a fresh fake and returns the one Messages request
// body it received, decoded.
func sentBody(t *testing.T, msgs []llms.MessageContent, opts ...llms.CallOption) map[string]any {
	t.Helper()
	llm, srv := newLLM(t)
	_, err := llm.GenerateContent(context.Background(), msgs, opts...)
	require.NoError(t, err)
	reqs := srv.Requests()
	require.Len(t, reqs, 1)
	var body map[string]any
	require.NoError(t, json.Unmarshal(reqs[0].Body, &body))
	return body
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// Each kind of part and option reaches the wire where it belongs, and the
// fake, which checks request forms strictly, accepts it.
func TestRequestMapping(t *testing.T) {
	img := pngBytes(t)
	b64 := base64.StdEncoding.EncodeToString(img)
	human := func(parts ...llms.ContentPart) []llms.MessageContent {
		return []llms.MessageContent{{Role: llms.ChatMessageTypeHuman, Parts: parts}}
	}
	hi := human(llms.TextPart("hi"))
	weather := &llms.FunctionDefinition{Name: "weather", Description: "d", Parameters: `{"type":"object"}`}
	for _, tc := range []struct {
		name string
		msgs []llms.MessageContent
		opts []llms.CallOption
		path []string // members down to the value compared
		want string   // JSON
	}{
		{"png bytes", human(llms.BinaryPart("image/png", img)), nil, []string{"messages", "0", "content", "0"},
			`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + b64 + `"}}`},
		{"image sniffed", human(llms.BinaryPart("", img)), nil, []string{"messages", "0", "content", "0", "source", "media_type"},
			`"image/png"`},
		{"pdf bytes", human(llms.BinaryPart("application/pdf", []byte("%PDF-1.4"))), nil, []string{"messages", "0", "content", "0", "source"},
			`{"type":"base64","media_type":"application/pdf","data":"` + base64.StdEncoding.EncodeToString([]byte("%PDF-1.4")) + `"}`},
		{"text document", human(llms.BinaryPart("text/plain; charset=utf-8", []byte("notes"))), nil, []string{"messages", "0", "content", "0"},
			`{"type":"document","source":{"type":"text","media_type":"text/plain","data":"notes"}}`},
		{"image url", human(llms.ImageURLWithDetailPart("https://example.com/a.png", "high")), nil, []string{"messages", "0", "content", "0"},
			`{"type":"image","source":{"type":"url","url":"https://example.com/a.png"}}`},
		{"image data url", human(llms.ImageURLPart("data:image/png;base64," + b64)), nil, []string{"messages", "0", "content", "0", "source"},
			`{"type":"base64","media_type":"image/png","data":"` + b64 + `"}`},
		{"cached text 5m", human(llms.WithCacheControl(llms.TextPart("hi"), &llms.CacheControl{Type: "ephemeral"})), nil,
			[]string{"messages", "0", "content", "0"}, `{"type":"text","text":"hi","cache_control":{"type":"ephemeral"}}`},
		{"cached image 1h", human(llms.WithCacheControl(llms.BinaryPart("image/png", img), &llms.CacheControl{Duration: time.Hour})), nil,
			[]string{"messages", "0", "content", "0", "cache_control"}, `{"type":"ephemeral","ttl":"1h"}`},
		{"cached system", []llms.MessageContent{
			{Role: llms.ChatMessageTypeSystem, Parts: []llms.ContentPart{llms.TextPart("a"), llms.WithCacheControl(llms.TextPart("b"), &llms.CacheControl{})}},
			llms.TextParts(llms.ChatMessageTypeSystem, "c"), hi[0]}, nil,
			[]string{"system"}, `[{"type":"text","text":"a"},{"type":"text","text":"b","cache_control":{"type":"ephemeral"}},{"type":"text","text":"c"}]`},
		{"block part", human(BlockPart{Block: mms.TextDocument("doc")}, llms.TextPart("hi")), nil, []string{"messages", "0", "content", "0", "type"},
			`"document"`},
		{"sampling", hi, []llms.CallOption{llms.WithTemperature(0.5), llms.WithTopK(5), llms.WithTopP(0.9), llms.WithStopWords([]string{"END"})},
			[]string{"temperature"}, `0.5`},
		{"top k", hi, []llms.CallOption{llms.WithTopK(5)}, []string{"top_k"}, `5`},
		{"top p", hi, []llms.CallOption{llms.WithTopP(0.9)}, []string{"top_p"}, `0.9`},
		{"stop words", hi, []llms.CallOption{llms.WithStopWords([]string{"END"})}, []string{"stop_sequences"}, `["END"]`},
		{"prompt caching", hi, []llms.CallOption{llms.WithPromptCaching(true)}, []string{"cache_control"}, `{"type":"ephemeral"}`},
		{"user id", hi, []llms.CallOption{llms.WithMetadata(map[string]any{MetadataUserID: "u-1"})}, []string{"metadata"}, `{"user_id":"u-1"}`},
		{"tool", hi, []llms.CallOption{llms.WithTools([]llms.Tool{{Type: "function", Function: &llms.FunctionDefinition{
			Name: "weather", Description: "d", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`), Strict: true}}})},
			[]string{"tools"}, `[{"type":"custom","name":"weather","description":"d","input_schema":{"type":"object","properties":{"city":{"type":"string"}}},"strict":true}]`},
		{"tool without parameters", hi, []llms.CallOption{llms.WithTools([]llms.Tool{{Function: &llms.FunctionDefinition{Name: "now"}}})},
			[]string{"tools", "0", "input_schema"}, `{"type":"object","properties":{}}`},
		{"functions", hi, []llms.CallOption{llms.WithFunctions([]llms.FunctionDefinition{{Name: "weather", Parameters: []byte(`{"type":"object"}`)}})},
			[]string{"tools"}, `[{"type":"custom","name":"weather","input_schema":{"type":"object"}}]`},
		{"tool choice none", hi, []llms.CallOption{llms.WithFunctions([]llms.FunctionDefinition{*weather}), llms.WithToolChoice("none")},
			[]string{"tool_choice"}, `{"type":"none"}`},
		{"tool choice auto", hi, []llms.CallOption{llms.WithFunctions([]llms.FunctionDefinition{*weather}), llms.WithToolChoice("auto")},
			[]string{"tool_choice"}, `{"type":"auto"}`},
		{"tool choice required", hi, []llms.CallOption{llms.WithFunctions([]llms.FunctionDefinition{*weather}), llms.WithToolChoice("required")},
			[]string{"tool_choice"}, `{"type":"any"}`},
		{"tool choice any", hi, []llms.CallOption{llms.WithFunctions([]llms.FunctionDefinition{*weather}), llms.WithToolChoice("any")},
			[]string{"tool_choice"}, `{"type":"any"}`},
		{"tool choice by name", hi, []llms.CallOption{llms.WithFunctions([]llms.FunctionDefinition{*weather}), llms.WithToolChoice("weather")},
			[]string{"tool_choice"}, `{"type":"tool","name":"weather"}`},
		{"tool choice llms", hi, []llms.CallOption{llms.WithFunctions([]llms.FunctionDefinition{*weather}),
			llms.WithToolChoice(llms.ToolChoice{Type: "function", Function: &llms.FunctionReference{Name: "weather"}})},
			[]string{"tool_choice"}, `{"type":"tool","name":"weather"}`},
		{"tool choice llms pointer", hi, []llms.CallOption{llms.WithFunctions([]llms.FunctionDefinition{*weather}),
			llms.WithToolChoice(&llms.ToolChoice{Type: "auto"})}, []string{"tool_choice"}, `{"type":"auto"}`},
		{"tool choice mms", hi, []llms.CallOption{llms.WithFunctions([]llms.FunctionDefinition{*weather}),
			llms.WithToolChoice(mms.ToolChoiceAuto{DisableParallelToolUse: true})}, []string{"tool_choice"}, `{"type":"auto","disable_parallel_tool_use":true}`},
		{"function call behavior", hi, []llms.CallOption{llms.WithFunctions([]llms.FunctionDefinition{*weather}),
			llms.WithFunctionCallBehavior(llms.FunctionCallBehaviorNone)}, []string{"tool_choice"}, `{"type":"none"}`},
		{"function call behavior auto", hi, []llms.CallOption{llms.WithFunctions([]llms.FunctionDefinition{*weather}),
			llms.WithFunctionCallBehavior(llms.FunctionCallBehaviorAuto)}, []string{"tool_choice"}, `{"type":"auto"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v any = sentBody(t, tc.msgs, tc.opts...)
			for _, k := range tc.path {
				switch x := v.(type) {
				case map[string]any:
					v = x[k]
				case []any:
					var i int
					require.NoError(t, json.Unmarshal([]byte(k), &i))
					require.Less(t, i, len(x))
					v = x[i]
				default:
					t.Fatalf("no %q in %v", k, v)
				}
			}
			assert.JSONEq(t, tc.want, asJSON(t, v))
		})
	}
}

// A stop sequence is reported with the stop reason.
func TestStopSequenceInfo(t *testing.T) {
	llm, _ := newLLM(t)
	resp, err := llm.GenerateContent(context.Background(), []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "one two three")},
		llms.WithStopWords([]string{"two"}))
	require.NoError(t, err)
	c := resp.Choices[0]
	assert.Equal(t, "stop_sequence", c.StopReason)
	assert.Equal(t, "two", c.GenerationInfo[InfoStopSequence])
	assert.Equal(t, "You said: one ", c.Content)
}

// Citations of the reply's text are gathered under InfoCitations.
func TestCitationsInfo(t *testing.T) {
	llm, _ := newLLM(t)
	doc := mms.TextDocument("The sky is blue. Grass is green.")
	doc.Citations = &mms.CitationsConfig{Enabled: mms.Ptr(true)}
	resp, err := llm.GenerateContent(context.Background(), []llms.MessageContent{{Role: llms.ChatMessageTypeHuman,
		Parts: []llms.ContentPart{BlockPart{Block: doc}, llms.TextPart("What colour is the sky?")}}})
	require.NoError(t, err)
	cites, ok := resp.Choices[0].GenerationInfo[InfoCitations].(mms.Citations)
	require.True(t, ok)
	require.Len(t, cites, 1)
	c, ok := cites[0].(mms.CharLocationCitation)
	require.True(t, ok, "%T", cites[0])
	assert.Equal(t, "The sky is blue.", c.CitedText)

	// The cited text goes back as a BlockPart, citations included.
	assistant := AssistantMessage(resp.Choices[0])
	var cited int
	for _, p := range assistant.Parts {
		if bp, ok := p.(BlockPart); ok {
			if tb, ok := bp.Block.(mms.TextBlock); ok && len(tb.Citations) > 0 {
				cited++
			}
		}
	}
	assert.Equal(t, 1, cited)
}
