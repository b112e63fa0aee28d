package eino_test

import (
	"context"
	"encoding/base64"
	"testing"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/adapters/eino"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// A 1×1 PNG.
const pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

var pdfBase64 = base64.StdEncoding.EncodeToString([]byte("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"))

func ptr[T any](v T) *T { return &v }

func userParts(parts ...schema.MessageInputPart) []*schema.Message {
	return []*schema.Message{{Role: schema.User, UserInputMultiContent: parts}}
}

func text(s string) schema.MessageInputPart {
	return schema.MessageInputPart{Type: schema.ChatMessagePartTypeText, Text: s}
}

func image(c schema.MessagePartCommon) schema.MessageInputPart {
	return schema.MessageInputPart{Type: schema.ChatMessagePartTypeImageURL, Image: &schema.MessageInputImage{MessagePartCommon: c}}
}

func file(c schema.MessagePartCommon, name string) schema.MessageInputPart {
	return schema.MessageInputPart{Type: schema.ChatMessagePartTypeFileURL, File: &schema.MessageInputFile{MessagePartCommon: c, Name: name}}
}

// Each kind of input becomes the block the service reads.
func TestInputMapping(t *testing.T) {
	call := schema.ToolCall{ID: "toolu_1", Type: "function", Function: schema.FunctionCall{Name: "get_weather", Arguments: ` {"city": "Paris"} `}}
	tests := []struct {
		name string
		in   []*schema.Message
		want []mms.MessageParam
	}{{
		name: "text",
		in:   []*schema.Message{schema.UserMessage("Hi")},
		want: []mms.MessageParam{{Role: mms.RoleUser, Content: mms.ContentBlocks{mms.TextBlock{Text: "Hi"}}}},
	}, {
		name: "base64 image",
		in:   userParts(text("What is it?"), image(schema.MessagePartCommon{Base64Data: ptr(pngBase64), MIMEType: "image/png"})),
		want: []mms.MessageParam{mms.UserMessage(mms.TextBlock{Text: "What is it?"}, mms.ImageFromBase64(mms.ImageMediaTypePNG, pngBase64))},
	}, {
		name: "image URL",
		in:   userParts(image(schema.MessagePartCommon{URL: ptr("https://example.com/cat.png")})),
		want: []mms.MessageParam{mms.UserMessage(mms.ImageFromURL("https://example.com/cat.png"))},
	}, {
		name: "image data URL",
		in:   userParts(image(schema.MessagePartCommon{URL: ptr("data:image/png;base64," + pngBase64)})),
		want: []mms.MessageParam{mms.UserMessage(mms.ImageFromBase64(mms.ImageMediaTypePNG, pngBase64))},
	}, {
		name: "deprecated MultiContent image",
		in: []*schema.Message{{Role: schema.User, MultiContent: []schema.ChatMessagePart{ //lint:ignore SA1019 the deprecated form is still accepted
			//lint:ignore SA1019 the deprecated form is still accepted
			{Type: schema.ChatMessagePartTypeImageURL, ImageURL: &schema.ChatMessageImageURL{URL: "https://example.com/cat.png"}},
		}}},
		want: []mms.MessageParam{mms.UserMessage(mms.ImageFromURL("https://example.com/cat.png"))},
	}, {
		name: "PDF",
		in:   userParts(file(schema.MessagePartCommon{Base64Data: ptr(pdfBase64), MIMEType: "application/pdf"}, "report.pdf")),
		want: []mms.MessageParam{mms.UserMessage(withTitle(mms.PDFFromBase64(pdfBase64), "report.pdf"))},
	}, {
		name: "PDF URL",
		in:   userParts(file(schema.MessagePartCommon{URL: ptr("https://example.com/a.pdf")}, "")),
		want: []mms.MessageParam{mms.UserMessage(mms.PDFFromURL("https://example.com/a.pdf"))},
	}, {
		name: "plain text document",
		in:   userParts(file(schema.MessagePartCommon{Base64Data: ptr(base64.StdEncoding.EncodeToString([]byte("Tea is hot."))), MIMEType: "text/plain"}, "")),
		want: []mms.MessageParam{mms.UserMessage(mms.TextDocument("Tea is hot."))},
	}, {
		name: "tool call and parallel results in one turn",
		in: []*schema.Message{
			schema.UserMessage("Weather?"),
			schema.AssistantMessage("", []schema.ToolCall{call, {ID: "toolu_2", Function: schema.FunctionCall{Name: "get_weather"}}}),
			schema.ToolMessage("sunny", "toolu_1"),
			{Role: schema.Tool, ToolCallID: "toolu_2", UserInputMultiContent: []schema.MessageInputPart{
				text("a map:"), image(schema.MessagePartCommon{Base64Data: ptr(pngBase64), MIMEType: "image/png"}),
			}},
		},
		want: []mms.MessageParam{
			mms.UserMessage(mms.TextBlock{Text: "Weather?"}),
			mms.AssistantMessage(
				mms.ToolUseBlock{ID: "toolu_1", Name: "get_weather", Input: []byte(`{"city":"Paris"}`)},
				mms.ToolUseBlock{ID: "toolu_2", Name: "get_weather", Input: []byte(`{}`)},
			),
			mms.UserMessage(
				mms.ToolResult("toolu_1", "sunny", false),
				mms.ToolResultBlocks("toolu_2", false, mms.TextBlock{Text: "a map:"}, mms.ImageFromBase64(mms.ImageMediaTypePNG, pngBase64)),
			),
		},
	}, {
		name: "thinking without signed blocks is not sent",
		in: []*schema.Message{
			schema.UserMessage("Hi"),
			{Role: schema.Assistant, Content: "Hello", ReasoningContent: "unsigned"},
			schema.UserMessage("Bye"),
		},
		want: []mms.MessageParam{
			mms.UserMessage(mms.TextBlock{Text: "Hi"}),
			mms.AssistantMessage(mms.TextBlock{Text: "Hello"}),
			mms.UserMessage(mms.TextBlock{Text: "Bye"}),
		},
	}, {
		name: "redacted thinking goes back first",
		in: []*schema.Message{
			schema.UserMessage("Hi"),
			{Role: schema.Assistant, Content: "Hello", Extra: map[string]any{
				eino.ExtraContent: `[{"type":"redacted_thinking","data":"c2VjcmV0"},{"type":"text","text":"Hello"}]`,
			}},
			schema.UserMessage("Bye"),
		},
		want: []mms.MessageParam{
			mms.UserMessage(mms.TextBlock{Text: "Hi"}),
			mms.AssistantMessage(mms.RedactedThinkingBlock{Data: "c2VjcmV0"}, mms.TextBlock{Text: "Hello"}),
			mms.UserMessage(mms.TextBlock{Text: "Bye"}),
		},
	}, {
		name: "edited message keeps redacted thinking",
		in: []*schema.Message{
			schema.UserMessage("Hi"),
			{Role: schema.Assistant, Content: "Edited", Extra: map[string]any{
				eino.ExtraContent: `[{"type":"redacted_thinking","data":"c2VjcmV0"},{"type":"text","text":"Hello"}]`,
			}},
			schema.UserMessage("Bye"),
		},
		want: []mms.MessageParam{
			mms.UserMessage(mms.TextBlock{Text: "Hi"}),
			mms.AssistantMessage(mms.RedactedThinkingBlock{Data: "c2VjcmV0"}, mms.TextBlock{Text: "Edited"}),
			mms.UserMessage(mms.TextBlock{Text: "Bye"}),
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cm, srv := newModel(t)
			info := &schema.ToolInfo{Name: "get_weather", Desc: "Weather."}
			tcm, err := cm.WithTools([]*schema.ToolInfo{info})
			require.NoError(t, err)
			_, err = tcm.Generate(context.Background(), tt.in)
			require.NoError(t, err)
			got := sent(t, srv)[0].Messages
			for i := range got {
				got[i].StringContent = false
			}
			// Compare in wire form: what the service receives.
			assert.Empty(t, cmp.Diff(wire(t, tt.want), wire(t, got)))
		})
	}
}

func withTitle(d mms.DocumentBlock, title string) mms.DocumentBlock {
	d.Title = &title
	return d
}

func wire(t *testing.T, msgs []mms.MessageParam) string {
	t.Helper()
	p := mms.MessageCreateParams{Model: "m", Messages: msgs}
	b, err := p.MarshalJSON()
	require.NoError(t, err)
	return string(b)
}

// Input the service cannot take is refused before anything is sent, with an
// error naming the message and the rule.
func TestInputRefused(t *testing.T) {
	tests := []struct {
		name string
		in   []*schema.Message
		want string
	}{
		{"nil message", []*schema.Message{nil}, "messages[0]: nil message"},
		{"unknown role", []*schema.Message{{Role: "critic", Content: "x"}}, `messages[0]: unknown role "critic"`},
		{"system after the first turn", []*schema.Message{schema.UserMessage("Hi"), schema.SystemMessage("Be nice.")}, "messages[1]: a system message after the first turn"},
		{"image in a system message", []*schema.Message{{Role: schema.System, UserInputMultiContent: []schema.MessageInputPart{image(schema.MessagePartCommon{URL: ptr("https://x/y.png")})}}}, "a system message holds only text"},
		{"audio", userParts(schema.MessageInputPart{Type: schema.ChatMessagePartTypeAudioURL, Audio: &schema.MessageInputAudio{}}), "part 0: audio_url parts are not supported"},
		{"Content and parts", []*schema.Message{{Role: schema.User, Content: "x", UserInputMultiContent: []schema.MessageInputPart{text("y")}}}, "set Content or multimodal parts, not both"},
		{"image without data", userParts(image(schema.MessagePartCommon{})), "image: neither URL nor Base64Data is set"},
		{"image without MIME type", userParts(image(schema.MessagePartCommon{Base64Data: ptr(pngBase64)})), "Base64Data needs a MIMEType"},
		{"bad data URL", userParts(image(schema.MessagePartCommon{URL: ptr("data:image/png," + pngBase64)})), "data:<mime type>;base64,<data>"},
		{"zip file", userParts(file(schema.MessagePartCommon{Base64Data: ptr("UEsDBA=="), MIMEType: "application/zip"}, "")), `MIME type "application/zip"`},
		{"text URL file", userParts(file(schema.MessagePartCommon{URL: ptr("https://x/a.txt"), MIMEType: "text/plain"}, "")), "a URL document must be a PDF"},
		{"tool message without id", []*schema.Message{schema.UserMessage("Hi"), schema.ToolMessage("x", "")}, "needs its ToolCallID"},
		{"arguments an array", assistantCall(`[1]`), "Function.Arguments must be a JSON object"},
		{"arguments a string", assistantCall(`"city"`), "Function.Arguments must be a JSON object"},
		{"arguments null", assistantCall(`null`), "Function.Arguments must be a JSON object"},
		{"arguments broken", assistantCall(`{"city":`), "Function.Arguments must be a JSON object"},
		{"bad stored content", []*schema.Message{schema.UserMessage("Hi"), {Role: schema.Assistant, Content: "x", Extra: map[string]any{eino.ExtraContent: 42}}}, "is a int, not the JSON string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cm, srv := newModel(t)
			_, err := cm.Generate(context.Background(), tt.in)
			require.ErrorContains(t, err, tt.want)
			_, err = cm.Stream(context.Background(), tt.in)
			require.ErrorContains(t, err, tt.want)
			assert.Empty(t, srv.Requests(), "nothing is sent")
		})
	}
}

func assistantCall(args string) []*schema.Message {
	return []*schema.Message{
		schema.UserMessage("Hi"),
		schema.AssistantMessage("", []schema.ToolCall{{ID: "toolu_1", Function: schema.FunctionCall{Name: "f", Arguments: args}}}),
		schema.ToolMessage("ok", "toolu_1"),
	}
}

// Eino's tool choices map onto the service's.
func TestToolChoice(t *testing.T) {
	a := &schema.ToolInfo{Name: "a", Desc: "A."}
	b := &schema.ToolInfo{Name: "b", Desc: "B."}
	tests := []struct {
		name    string
		tools   []*schema.ToolInfo
		opts    []model.Option
		want    mms.ToolChoice
		wantErr string
	}{
		{"none given", []*schema.ToolInfo{a, b}, nil, nil, ""},
		{"forbidden", []*schema.ToolInfo{a, b}, []model.Option{model.WithToolChoice(schema.ToolChoiceForbidden)}, mms.ToolChoiceNone{}, ""},
		{"allowed", []*schema.ToolInfo{a, b}, []model.Option{model.WithToolChoice(schema.ToolChoiceAllowed)}, mms.ToolChoiceAuto{}, ""},
		{"forced", []*schema.ToolInfo{a, b}, []model.Option{model.WithToolChoice(schema.ToolChoiceForced)}, mms.ToolChoiceAny{}, ""},
		{"forced, one tool", []*schema.ToolInfo{a}, []model.Option{model.WithToolChoice(schema.ToolChoiceForced)}, mms.ToolChoiceTool{Name: "a"}, ""},
		{"forced, one name", []*schema.ToolInfo{a, b}, []model.Option{model.WithToolChoice(schema.ToolChoiceForced, "b")}, mms.ToolChoiceTool{Name: "b"}, ""},
		{"per-call tools", nil, []model.Option{model.WithTools([]*schema.ToolInfo{b}), model.WithToolChoice(schema.ToolChoiceForced)}, mms.ToolChoiceTool{Name: "b"}, ""},
		{"forced, two names", []*schema.ToolInfo{a, b}, []model.Option{model.WithToolChoice(schema.ToolChoiceForced, "a", "b")}, nil, "got 2 allowed names"},
		{"forced, unknown name", []*schema.ToolInfo{a, b}, []model.Option{model.WithToolChoice(schema.ToolChoiceForced, "c")}, nil, `allowed tool "c" is not among the tools`},
		{"forced, no tools", nil, []model.Option{model.WithToolChoice(schema.ToolChoiceForced)}, nil, "no tools"},
		{"allowed with names", []*schema.ToolInfo{a, b}, []model.Option{model.WithToolChoice(schema.ToolChoiceAllowed, "a")}, nil, "allowed tool names are not supported"},
		{"unknown", []*schema.ToolInfo{a}, []model.Option{model.WithToolChoice("sometimes")}, nil, `unknown tool choice "sometimes"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cm, srv := newModel(t)
			tcm, err := cm.WithTools(tt.tools)
			require.NoError(t, err)
			_, err = tcm.Generate(context.Background(), []*schema.Message{schema.UserMessage("Hi")}, tt.opts...)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				assert.Empty(t, srv.Requests())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, sent(t, srv)[0].ToolChoice)
		})
	}
}

// Tool parameters go as JSON Schema objects; anything else is refused.
func TestToolSchemas(t *testing.T) {
	cm, srv := newModel(t)
	params := schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
		"city": {Type: schema.String, Desc: "the city", Required: true},
		"days": {Type: schema.Integer},
	})
	tcm, err := cm.WithTools([]*schema.ToolInfo{{Name: "forecast", Desc: "Forecast.", ParamsOneOf: params}})
	require.NoError(t, err)
	_, err = tcm.Generate(context.Background(), []*schema.Message{schema.UserMessage("Hi")})
	require.NoError(t, err)
	def := sent(t, srv)[0].Tools[0].(mms.CustomTool)
	assert.JSONEq(t, `{"type":"object","properties":{"city":{"type":"string","description":"the city"},"days":{"type":"integer"}},"required":["city"]}`, string(def.InputSchema))

	for _, bad := range []*jsonschema.Schema{{Type: "string"}, {}} {
		_, err = cm.WithTools([]*schema.ToolInfo{{Name: "bad", ParamsOneOf: schema.NewParamsOneOfByJSONSchema(bad)}})
		require.ErrorContains(t, err, `tools[0] ("bad"): parameters: the JSON Schema's type must be "object"`)
		require.ErrorContains(t, cm.BindTools([]*schema.ToolInfo{{Name: "bad", ParamsOneOf: schema.NewParamsOneOfByJSONSchema(bad)}}), "must be \"object\"")
	}
	_, err = cm.WithTools([]*schema.ToolInfo{nil})
	require.ErrorContains(t, err, "tools[0]: nil tool")
}

func TestNewChatModelRefuses(t *testing.T) {
	client, _ := fakeclient.New(t)
	tests := []struct {
		name   string
		client *mms.Client
		p      mms.MessageCreateParams
		want   string
	}{
		{"no client", nil, mms.MessageCreateParams{Model: "m", MaxTokens: 1}, "client is nil"},
		{"no model", client, mms.MessageCreateParams{MaxTokens: 1}, "template.Model is required"},
		{"max tokens 0", client, mms.MessageCreateParams{Model: "m"}, "template.MaxTokens must be positive, got 0"},
		{"messages", client, mms.MessageCreateParams{Model: "m", MaxTokens: 1, Messages: []mms.MessageParam{mms.UserText("x")}}, "template.Messages must be empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := eino.NewChatModel(tt.client, tt.p)
			require.ErrorContains(t, err, tt.want)
		})
	}
	cm, err := eino.NewChatModel(client, mms.MessageCreateParams{Model: "m", MaxTokens: 1})
	require.NoError(t, err)
	assert.Equal(t, "MMS", cm.GetType())
}

// The template's system prompt comes before the input's system messages.
func TestSystemPrompt(t *testing.T) {
	client, srv := fakeclient.New(t)
	cm, err := eino.NewChatModel(client, mms.MessageCreateParams{Model: testModel, MaxTokens: 100, System: mms.SystemText("You are terse.")})
	require.NoError(t, err)
	_, err = cm.Generate(context.Background(), []*schema.Message{schema.SystemMessage("Use French."), schema.UserMessage("Hi")})
	require.NoError(t, err)
	_, err = cm.Generate(context.Background(), []*schema.Message{schema.UserMessage("Hi")})
	require.NoError(t, err)
	reqs := sent(t, srv)
	assert.Equal(t, []mms.TextBlock{{Text: "You are terse."}, {Text: "Use French."}}, reqs[0].System.Blocks)
	assert.Equal(t, "You are terse.", reqs[1].System.Text)
}
