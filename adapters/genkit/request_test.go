package mmsgenkit_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	mmsgenkit "github.com/mms-sdk/mms-go/adapters/genkit"
	"github.com/mms-sdk/mms-go/mmstest"
)

const pngB64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

// call sends req through the registered model and returns the request the
// fake received.
func call(t *testing.T, req *ai.ModelRequest) (mms.MessageCreateParams, *ai.ModelResponse) {
	t.Helper()
	g, srv := newGenkit(t)
	m := mmsgenkit.Model(g, testModel)
	require.NotNil(t, m)
	resp, err := m.Generate(context.Background(), req, nil)
	require.NoError(t, err)
	reqs := sent(t, srv)
	require.Len(t, reqs, 1)
	return reqs[0], resp
}

func user(parts ...*ai.Part) *ai.Message { return ai.NewUserMessage(parts...) }

func TestRequestMapping(t *testing.T) {
	signed := ai.NewReasoningPart("hmm", []byte("sig"))
	cases := []struct {
		name  string
		req   *ai.ModelRequest
		check func(t *testing.T, p mms.MessageCreateParams)
	}{
		{"images", &ai.ModelRequest{Messages: []*ai.Message{user(
			ai.NewTextPart("look"),
			ai.NewMediaPart("", "data:image/png;base64,"+pngB64),
			ai.NewMediaPart("image/jpeg", "https://example.com/a.jpg"),
		)}}, func(t *testing.T, p mms.MessageCreateParams) {
			c := p.Messages[0].Content
			require.Len(t, c, 3)
			assert.Equal(t, mms.ImageFromBase64("image/png", pngB64), c[1])
			assert.Equal(t, mms.ImageFromURL("https://example.com/a.jpg"), c[2])
		}},
		{"documents", &ai.ModelRequest{Messages: []*ai.Message{user(
			ai.NewMediaPart("application/pdf", "https://example.com/a.pdf"),
			ai.NewMediaPart("", "data:application/pdf;base64,JVBERi0="),
			ai.NewMediaPart("", "data:text/plain;base64,"+base64.StdEncoding.EncodeToString([]byte("notes"))),
		)}}, func(t *testing.T, p mms.MessageCreateParams) {
			c := p.Messages[0].Content
			assert.Equal(t, mms.PDFFromURL("https://example.com/a.pdf"), c[0])
			assert.Equal(t, mms.PDFFromBase64("JVBERi0="), c[1])
			assert.Equal(t, mms.TextDocument("notes"), c[2])
		}},
		{"docs as context", &ai.ModelRequest{
			Messages: []*ai.Message{user(ai.NewTextPart("first")), ai.NewModelTextMessage("ok"), user(ai.NewTextPart("what do they say?"))},
			Docs: []*ai.Document{
				{Content: []*ai.Part{ai.NewTextPart("The sky is green.")}, Metadata: map[string]any{"title": "Facts"}},
				ai.DocumentFromText("Grass is blue.", nil),
				{Content: []*ai.Part{ai.NewMediaPart("application/pdf", "https://example.com/a.pdf")}},
			},
		}, func(t *testing.T, p mms.MessageCreateParams) {
			require.Len(t, p.Messages, 3)
			assert.Len(t, p.Messages[0].Content, 1)
			c := p.Messages[2].Content
			require.Len(t, c, 4)
			want := mms.TextDocument("The sky is green.")
			want.Title = mms.Ptr("Facts")
			assert.Equal(t, want, c[0])
			assert.Equal(t, mms.TextDocument("Grass is blue."), c[1])
			assert.Equal(t, mms.PDFFromURL("https://example.com/a.pdf"), c[2])
			assert.Equal(t, "what do they say?", c[3].(mms.TextBlock).Text)
		}},
		{"system and config", &ai.ModelRequest{
			Messages: []*ai.Message{ai.NewSystemTextMessage("Be brief."), user(ai.NewTextPart("hi"))},
			Config: &mmsgenkit.Config{
				MaxOutputTokens: 100, Temperature: mms.Ptr(0.0), TopP: mms.Ptr(0.5), TopK: mms.Ptr(3),
				StopSequences: []string{"END"}, UserID: "u-1",
				Params: &mms.MessageCreateParams{System: mms.SystemText("You are kind.")},
			},
		}, func(t *testing.T, p mms.MessageCreateParams) {
			assert.Equal(t, testModel, p.Model)
			assert.Equal(t, 100, p.MaxTokens)
			assert.Equal(t, 0.0, *p.Temperature, "0 is sent")
			assert.Equal(t, 0.5, *p.TopP)
			assert.Equal(t, 3, *p.TopK)
			assert.Equal(t, []string{"END"}, p.StopSequences)
			assert.Equal(t, "u-1", p.Metadata.UserID)
			require.Len(t, p.System.Blocks, 2)
			assert.Equal(t, "You are kind.", p.System.Blocks[0].Text)
			assert.Equal(t, "Be brief.", p.System.Blocks[1].Text)
		}},
		{"common config", &ai.ModelRequest{
			Messages: []*ai.Message{user(ai.NewTextPart("hi"))},
			Config:   &ai.GenerationCommonConfig{MaxOutputTokens: 50, Temperature: 0.7, TopK: 5},
		}, func(t *testing.T, p mms.MessageCreateParams) {
			assert.Equal(t, 50, p.MaxTokens)
			assert.Equal(t, 0.7, *p.Temperature)
			assert.Equal(t, 5, *p.TopK)
			assert.Nil(t, p.TopP, "0 is unset in Genkit's common config")
		}},
		{"map config (developer UI)", &ai.ModelRequest{
			Messages: []*ai.Message{user(ai.NewTextPart("hi"))},
			Config:   map[string]any{"maxOutputTokens": 3000, "adaptiveThinking": true},
		}, func(t *testing.T, p mms.MessageCreateParams) {
			assert.Equal(t, 3000, p.MaxTokens)
			assert.Equal(t, mms.ThinkingConfigAdaptive{}, p.Thinking)
		}},
		{"default max tokens", &ai.ModelRequest{Messages: []*ai.Message{user(ai.NewTextPart("hi"))}},
			func(t *testing.T, p mms.MessageCreateParams) { assert.Equal(t, 2048, p.MaxTokens) }},
		{"tools and choice", &ai.ModelRequest{
			Messages:   []*ai.Message{user(ai.NewTextPart("hi"))},
			Tools:      []*ai.ToolDefinition{{Name: "noop", Description: "Does nothing."}, {Name: "add", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "integer"}}, "required": []any{"a"}}}},
			ToolChoice: ai.ToolChoiceNone,
		}, func(t *testing.T, p mms.MessageCreateParams) {
			require.Len(t, p.Tools, 2)
			assert.Equal(t, "add", p.Tools[0].(mms.CustomTool).Name, "sorted by name")
			assert.JSONEq(t, `{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}`, string(p.Tools[0].(mms.CustomTool).InputSchema))
			assert.JSONEq(t, `{"type":"object","properties":{}}`, string(p.Tools[1].(mms.CustomTool).InputSchema))
			assert.Equal(t, "Does nothing.", p.Tools[1].(mms.CustomTool).Description)
			assert.Equal(t, mms.ToolChoiceNone{}, p.ToolChoice)
		}},
		{"history", &ai.ModelRequest{Messages: []*ai.Message{
			user(ai.NewTextPart("add 1 and 2, twice")),
			ai.NewModelMessage(signed, ai.NewReasoningPart("not ours", nil),
				ai.NewToolRequestPart(&ai.ToolRequest{Ref: "t1", Name: "add", Input: map[string]any{"a": 1}}),
				ai.NewToolRequestPart(&ai.ToolRequest{Ref: "t2", Name: "add"})),
			ai.NewMessage(ai.RoleTool, nil,
				ai.NewToolResponsePart(&ai.ToolResponse{Ref: "t1", Name: "add", Output: map[string]any{"sum": 3}})),
			ai.NewMessage(ai.RoleTool, nil,
				ai.NewToolResponsePart(&ai.ToolResponse{Ref: "t2", Name: "add", Output: "3",
					Content: []*ai.Part{ai.NewMediaPart("image/png", "data:image/png;base64,"+pngB64)}})),
			user(ai.NewTextPart("thanks")),
		}}, func(t *testing.T, p mms.MessageCreateParams) {
			require.Len(t, p.Messages, 3, "tool results and the user's text are one turn")
			a := p.Messages[1].Content
			require.Len(t, a, 3, "unsigned reasoning is not sent")
			assert.Equal(t, mms.ThinkingBlock{Thinking: "hmm", Signature: "sig"}, a[0])
			assert.JSONEq(t, `{"a":1}`, string(a[1].(mms.ToolUseBlock).Input))
			assert.JSONEq(t, `{}`, string(a[2].(mms.ToolUseBlock).Input))
			u := p.Messages[2].Content
			require.Len(t, u, 3)
			r1 := u[0].(mms.ToolResultBlock)
			assert.Equal(t, "t1", r1.ToolUseID)
			assert.JSONEq(t, `{"sum":3}`, r1.Content[0].(mms.TextBlock).Text)
			r2 := u[1].(mms.ToolResultBlock)
			assert.Equal(t, "3", r2.Content[0].(mms.TextBlock).Text)
			assert.Equal(t, mms.ImageFromBase64("image/png", pngB64), r2.Content[1])
			assert.Equal(t, "thanks", u[2].(mms.TextBlock).Text)
		}},
		{"block parts", &ai.ModelRequest{Messages: []*ai.Message{
			user(ai.NewTextPart("hi")),
			ai.NewModelMessage(mustBlockPart(t, mms.RedactedThinkingBlock{Data: "opaque"}), ai.NewTextPart("hello")),
			user(mustBlockPart(t, mms.TextBlock{Text: "cached", CacheControl: &mms.CacheControl{TTL: mms.CacheTTL1h}})),
		}}, func(t *testing.T, p mms.MessageCreateParams) {
			assert.Equal(t, mms.RedactedThinkingBlock{Data: "opaque"}, p.Messages[1].Content[0])
			assert.Equal(t, mms.TextBlock{Text: "cached", CacheControl: &mms.CacheControl{TTL: mms.CacheTTL1h}}, p.Messages[2].Content[0])
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := call(t, tc.req)
			tc.check(t, p)
		})
	}
}

func mustBlockPart(t *testing.T, b mms.ContentBlock) *ai.Part {
	t.Helper()
	p, err := mmsgenkit.BlockPart(b)
	require.NoError(t, err)
	return p
}

// Requests the service cannot take fail before anything is sent, with an
// error naming the rule (some by Genkit itself, which checks the config
// against the model's config schema).
func TestRequestRefused(t *testing.T) {
	hi := user(ai.NewTextPart("hi"))
	cases := []struct {
		name string
		req  *ai.ModelRequest
		want string
	}{
		{"system after a turn", &ai.ModelRequest{Messages: []*ai.Message{hi, ai.NewSystemTextMessage("late")}}, "system message after the first turn"},
		{"media in system", &ai.ModelRequest{Messages: []*ai.Message{ai.NewSystemMessage(ai.NewMediaPart("image/png", "https://x/a.png")), hi}}, "only text"},
		{"audio", &ai.ModelRequest{Messages: []*ai.Message{user(ai.NewMediaPart("audio/mpeg", "https://x/a.mp3"))}}, `content type "audio/mpeg"`},
		{"URL without type", &ai.ModelRequest{Messages: []*ai.Message{user(ai.NewMediaPart("", "https://x/a"))}}, "needs its ContentType"},
		{"text URL", &ai.ModelRequest{Messages: []*ai.Message{user(ai.NewMediaPart("text/plain", "https://x/a.txt"))}}, "must be a data: URL"},
		{"odd URL", &ai.ModelRequest{Messages: []*ai.Message{user(ai.NewMediaPart("image/png", "file:///a.png"))}}, "http(s) or data:"},
		{"bad data URL", &ai.ModelRequest{Messages: []*ai.Message{user(ai.NewMediaPart("", "data:image/png,xyz"))}}, "data:<mime type>;base64"},
		{"data part", &ai.ModelRequest{Messages: []*ai.Message{user(ai.NewDataPart(`{"a":1}`))}}, "data parts"},
		{"custom part", &ai.ModelRequest{Messages: []*ai.Message{user(ai.NewCustomPart(map[string]any{"x": 1}))}}, "custom part"},
		{"tool input not an object", &ai.ModelRequest{Messages: []*ai.Message{hi, ai.NewModelMessage(ai.NewToolRequestPart(&ai.ToolRequest{Ref: "t", Name: "f", Input: "UTC"}))}}, "must be a JSON object"},
		{"tool request without ref", &ai.ModelRequest{Messages: []*ai.Message{hi, ai.NewModelMessage(ai.NewToolRequestPart(&ai.ToolRequest{Name: "f"}))}}, "Ref is required"},
		{"tool response without ref", &ai.ModelRequest{Messages: []*ai.Message{hi, ai.NewMessage(ai.RoleTool, nil, ai.NewToolResponsePart(&ai.ToolResponse{Name: "f"}))}}, "needs the Ref"},
		{"bad signature", &ai.ModelRequest{Messages: []*ai.Message{hi, ai.NewModelMessage(&ai.Part{Kind: ai.PartReasoning, Text: "x", Metadata: map[string]any{"signature": 7}})}}, "not []byte"},
		{"schema not object", &ai.ModelRequest{Messages: []*ai.Message{hi}, Tools: []*ai.ToolDefinition{{Name: "f", InputSchema: map[string]any{"type": "string"}}}}, `type must be "object"`},
		{"docs without user", &ai.ModelRequest{Messages: []*ai.Message{ai.NewSystemTextMessage("s")}, Docs: []*ai.Document{ai.DocumentFromText("d", nil)}}, "no user message"},
		{"empty doc", &ai.ModelRequest{Messages: []*ai.Message{hi}, Docs: []*ai.Document{{}}}, "empty document"},
		{"image doc", &ai.ModelRequest{Messages: []*ai.Message{hi}, Docs: []*ai.Document{{Content: []*ai.Part{ai.NewMediaPart("image/png", "https://x/a.png")}}}}, "PDF or text"},
		{"config type", &ai.ModelRequest{Messages: []*ai.Message{hi}, Config: 3}, "Expected: object"},
		{"config unknown key", &ai.ModelRequest{Messages: []*ai.Message{hi}, Config: map[string]any{"maxTokens": 3}}, "maxTokens is not allowed"},
		{"both thinkings", &ai.ModelRequest{Messages: []*ai.Message{hi}, Config: &mmsgenkit.Config{ThinkingBudget: 1024, AdaptiveThinking: true}}, "not both"},
		{"negative budget", &ai.ModelRequest{Messages: []*ai.Message{hi}, Config: &mmsgenkit.Config{ThinkingBudget: -1}}, "ThinkingBudget must not be negative"},
		{"negative max", &ai.ModelRequest{Messages: []*ai.Message{hi}, Config: mmsgenkit.Config{MaxOutputTokens: -1}}, "MaxOutputTokens must not be negative"},
		{"params model", &ai.ModelRequest{Messages: []*ai.Message{hi}, Config: &mmsgenkit.Config{Params: &mms.MessageCreateParams{Model: "x"}}}, "Params.Model must be empty"},
		{"params messages", &ai.ModelRequest{Messages: []*ai.Message{hi}, Config: &mmsgenkit.Config{Params: &mms.MessageCreateParams{Messages: []mms.MessageParam{{Role: mms.RoleUser}}}}}, "Params.Messages must be empty"},
		{"version", &ai.ModelRequest{Messages: []*ai.Message{hi}, Config: &ai.GenerationCommonConfig{Version: "v2"}}, "version is not allowed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, srv := newGenkit(t)
			_, err := mmsgenkit.Model(g, testModel).Generate(context.Background(), tc.req, nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Empty(t, srv.Requests(), "nothing is sent")
		})
	}
}

// The other side of the limits: zero values and edge inputs are accepted.
func TestAcceptedEdges(t *testing.T) {
	p, _ := call(t, &ai.ModelRequest{
		Messages: []*ai.Message{user(ai.NewTextPart("hi"), ai.NewTextPart(""))},
		Config:   mmsgenkit.Config{ThinkingBudget: 0, MaxOutputTokens: 0},
		Docs:     []*ai.Document{{Content: []*ai.Part{ai.NewMediaPart("", "data:text/plain;base64,"+base64.StdEncoding.EncodeToString([]byte("t")))}}},
	})
	assert.Nil(t, p.Thinking)
	assert.Len(t, p.Messages[0].Content, 2, "empty text is not sent; the document is")
}

// Stop reasons map to Genkit's finish reasons; the service's value stays in
// FinishMessage and Custom.
func TestFinishReasons(t *testing.T) {
	for reason, want := range map[string]ai.FinishReason{
		"end_turn": ai.FinishReasonStop, "tool_use": ai.FinishReasonStop, "stop_sequence": ai.FinishReasonStop,
		"max_tokens": ai.FinishReasonLength, "model_context_window_exceeded": ai.FinishReasonLength,
		"refusal": ai.FinishReasonBlocked, "pause_turn": ai.FinishReasonOther, "something_new": ai.FinishReasonUnknown,
	} {
		t.Run(reason, func(t *testing.T) {
			g, _ := newGenkit(t, mmstest.WithScript(mmstest.Turn{Text: "x", StopReason: reason}))
			resp, err := mmsgenkit.Model(g, testModel).Generate(context.Background(), &ai.ModelRequest{Messages: []*ai.Message{user(ai.NewTextPart("hi"))}}, nil)
			require.NoError(t, err)
			assert.Equal(t, want, resp.FinishReason)
			assert.Equal(t, reason, resp.FinishMessage)
			assert.Equal(t, reason, resp.Custom.(map[string]any)[mmsgenkit.CustomStopReason])
		})
	}
}

// A reply's blocks Genkit has no part for come back as custom parts and go
// back verbatim; a tool input with more digits than a float64 keeps them.
func TestReplyBlocksRoundTrip(t *testing.T) {
	g, srv := newGenkit(t, mmstest.WithScript(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "add", Input: `{"a":12345678901234567891}`}}},
	))
	m := mmsgenkit.Model(g, testModel)
	tools := []*ai.ToolDefinition{{Name: "add", InputSchema: map[string]any{"type": "object"}}}
	req := &ai.ModelRequest{Messages: []*ai.Message{user(ai.NewTextPart("add"))}, Tools: tools}
	resp, err := m.Generate(context.Background(), req, nil)
	require.NoError(t, err)
	reqPart := resp.Message.Content[len(resp.Message.Content)-1]
	require.True(t, reqPart.IsToolRequest())
	b, ok, err := mmsgenkit.Block(reqPart)
	require.NoError(t, err)
	require.True(t, ok, "the exact input is kept")
	assert.JSONEq(t, `{"a":12345678901234567891}`, string(b.(mms.ToolUseBlock).Input))

	// Through JSON (a stored session) and back.
	raw, err := json.Marshal(resp.Message)
	require.NoError(t, err)
	var back ai.Message
	require.NoError(t, json.Unmarshal(raw, &back))
	_, err = m.Generate(context.Background(), &ai.ModelRequest{Tools: tools, Messages: []*ai.Message{
		req.Messages[0], &back,
		ai.NewMessage(ai.RoleTool, nil, ai.NewResponseForToolRequest(back.Content[len(back.Content)-1], 1)),
	}}, nil)
	require.NoError(t, err)
	reqs := sent(t, srv)
	use := reqs[1].Messages[1].Content[len(reqs[1].Messages[1].Content)-1].(mms.ToolUseBlock)
	assert.Equal(t, `{"a":12345678901234567891}`, string(use.Input))
}

// Models named in Plugin.Models are defined at Init; other names resolve on
// first use; DefineModel registers one by hand.
func TestModelsResolve(t *testing.T) {
	client, srv := newClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &mmsgenkit.Plugin{Client: client, Models: []string{"mms-small-1"}}
	g := genkit.Init(ctx, genkit.WithPlugins(p))
	descs := p.ListActions(ctx)
	require.Len(t, descs, 1)
	assert.Equal(t, "mms/mms-small-1", descs[0].Name)
	assert.NotNil(t, genkit.LookupModel(g, "mms/mms-small-1"))
	text, err := genkit.GenerateText(ctx, g, ai.WithModelName("mms/mms-medium-1"), ai.WithPrompt("hi"))
	require.NoError(t, err)
	assert.Equal(t, "You said: hi", text)
	m, err := p.DefineModel(g, "mms-third-3")
	require.NoError(t, err)
	assert.Equal(t, "mms/mms-third-3", m.Name())
	assert.Nil(t, p.ResolveAction("embedder", "x"))
	assert.Equal(t, "mms-medium-1", sent(t, srv)[0].Model)
	assert.PanicsWithValue(t, "mmsgenkit: plugin already initialized", func() { p.Init(ctx) })
	assert.Panics(t, func() { (&mmsgenkit.Plugin{}).Init(ctx) })
}

// Citations on the request's documents come back on the text parts (in the
// block Block returns) and go back with them on the next turn.
func TestCitationsRoundTrip(t *testing.T) {
	for _, streamed := range []bool{false, true} {
		t.Run(map[bool]string{false: "Generate", true: "Stream"}[streamed], func(t *testing.T) {
			g, srv := newGenkit(t)
			ctx := context.Background()
			cfg := &mmsgenkit.Config{Citations: true}
			docs := ai.WithDocs(&ai.Document{Content: []*ai.Part{ai.NewTextPart("The sky is green. Grass is blue.")}, Metadata: map[string]any{"title": "Facts"}})
			opts := []ai.GenerateOption{ai.WithModelName(modelName), ai.WithConfig(cfg), docs, ai.WithPrompt("What colour is the sky?")}
			var c collect
			if streamed {
				opts = append(opts, ai.WithStreaming(c.cb))
			}
			resp, err := genkit.Generate(ctx, g, opts...)
			require.NoError(t, err)
			var cited mms.TextBlock
			for _, p := range resp.Message.Content {
				b, ok, err := mmsgenkit.Block(p)
				require.NoError(t, err)
				if tb, isText := b.(mms.TextBlock); ok && isText && len(tb.Citations) > 0 {
					cited = tb
					assert.Equal(t, tb.Text, p.Text)
				}
			}
			require.NotEmpty(t, cited.Citations, "a text part keeps its citations")
			loc := cited.Citations[0].(mms.CharLocationCitation)
			assert.Equal(t, "The sky is green.", strings.TrimSpace(loc.CitedText))

			_, err = genkit.Generate(ctx, g, ai.WithModelName(modelName),
				ai.WithMessages(append(resp.History(), ai.NewUserTextMessage("Thanks"))...))
			require.NoError(t, err)
			reqs := sent(t, srv)
			require.Len(t, reqs, 2)
			doc := reqs[0].Messages[0].Content[0].(mms.DocumentBlock)
			assert.True(t, *doc.Citations.Enabled)
			var back []mms.Citation
			for _, b := range reqs[1].Messages[1].Content {
				if tb, ok := b.(mms.TextBlock); ok {
					back = append(back, tb.Citations...)
				}
			}
			require.Len(t, back, 1, "the citations go back")
			got := back[0].(mms.CharLocationCitation)
			assert.Equal(t, loc.CitedText, got.CitedText)
			assert.Equal(t, loc.DocumentIndex, got.DocumentIndex)
			assert.Equal(t, loc.StartCharIndex, got.StartCharIndex)
			assert.Equal(t, loc.EndCharIndex, got.EndCharIndex)
			assert.Equal(t, loc.DocumentTitle, got.DocumentTitle)
		})
	}
}
