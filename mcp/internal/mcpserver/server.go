// Package mcpserver is the MCP server the bridge's tests and example talk
// to, in memory or as the internal/testserver command: tools that answer,
// fail, hang and return huge or odd results, resources of several media
// types and a prompt.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// PNG is the image the image tool and the logo resource return (the PNG
// signature: enough for a media type, not a picture).
var PNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR")

// PDF is the document resource's bytes.
var PDF = []byte("%PDF-1.4\n%%EOF\n")

// Hooks let an in-memory test watch the server; nil fields are not called.
type Hooks struct {
	// HangStarted is called when the hang tool starts waiting,
	// HangEnded when its context ended.
	HangStarted, HangEnded func()
}

// EchoInput is the echo tool's input.
type EchoInput struct {
	Text string `json:"text" jsonschema:"the text to echo"`
}

// HugeInput is the huge tool's input.
type HugeInput struct {
	Bytes int `json:"bytes" jsonschema:"how many bytes of text to return"`
}

// Weather is the weather tool's structured output.
type Weather struct {
	City    string `json:"city"`
	Celsius int    `json:"celsius"`
}

// New returns the server.
func New(hooks *Hooks) *mcp.Server {
	if hooks == nil {
		hooks = &Hooks{}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "mms-go-testserver", Version: "v1"}, nil)
	object := json.RawMessage(`{"type":"object"}`)

	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echoes the text"},
		func(_ context.Context, _ *mcp.CallToolRequest, in EchoInput) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "weather", Description: "The weather in a city"},
		func(_ context.Context, _ *mcp.CallToolRequest, in struct {
			City string `json:"city"`
		}) (*mcp.CallToolResult, Weather, error) {
			return nil, Weather{City: in.City, Celsius: 18}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Always fails as a tool"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return nil, nil, errors.New("the disk is full")
		})
	mcp.AddTool(s, &mcp.Tool{Name: "huge", Description: "Returns as many bytes of text as asked"},
		func(_ context.Context, _ *mcp.CallToolRequest, in HugeInput) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: strings.Repeat("x", in.Bytes)},
				&mcp.ImageContent{MIMEType: "image/png", Data: PNG},
			}}, nil, nil
		})
	s.AddTool(&mcp.Tool{Name: "broken", Description: "Fails at the protocol level", InputSchema: object},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, errors.New("the backend is down")
		})
	s.AddTool(&mcp.Tool{Name: "hang", Description: "Never answers", InputSchema: object},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if hooks.HangStarted != nil {
				hooks.HangStarted()
			}
			<-ctx.Done()
			if hooks.HangEnded != nil {
				hooks.HangEnded()
			}
			return nil, ctx.Err()
		})
	s.AddTool(&mcp.Tool{Name: "structured", Description: "Structured content only", InputSchema: object},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{StructuredContent: map[string]any{"ok": true}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "mixed", Description: "Every kind of content", InputSchema: object},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			size := int64(42)
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "here"},
				&mcp.TextContent{Text: ""},
				&mcp.ImageContent{MIMEType: "image/png", Data: PNG},
				&mcp.ImageContent{MIMEType: "image/bmp", Data: []byte("BM")},
				&mcp.AudioContent{MIMEType: "audio/wav", Data: []byte("RIFF")},
				&mcp.ResourceLink{URI: "file:///big.csv", Name: "big.csv", MIMEType: "text/csv", Size: &size},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///notes.txt", MIMEType: "text/plain", Text: "notes"}},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///doc.pdf", MIMEType: "application/pdf", Blob: PDF}},
			}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "fail_image", Description: "Fails with text and an image", InputSchema: object},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{
				&mcp.TextContent{Text: "rendering failed"},
				&mcp.ImageContent{MIMEType: "image/png", Data: PNG},
			}}, nil
		})

	resource := func(uri, mimeType, text string, blob []byte) {
		s.AddResource(&mcp.Resource{URI: uri, Name: uri[strings.LastIndex(uri, "/")+1:], MIMEType: mimeType},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mimeType, Text: text, Blob: blob}}}, nil
			})
	}
	resource("file:///notes.txt", "text/plain", "Buy milk.", nil)
	resource("file:///logo.png", "image/png", "", PNG)
	resource("file:///doc.pdf", "application/pdf", "", PDF)
	resource("file:///data.json", "application/json", "", []byte(`{"a":1}`))
	resource("file:///song.wav", "audio/wav", "", []byte("RIFF...."))

	s.AddPrompt(&mcp.Prompt{Name: "review", Description: "Review code",
		Arguments: []*mcp.PromptArgument{{Name: "code", Required: true}}},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{
				{Role: "user", Content: &mcp.TextContent{Text: "Review this code: " + req.Params.Arguments["code"]}},
				{Role: "user", Content: &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///style.md", MIMEType: "text/markdown", Text: "Use tabs."}}},
				{Role: "assistant", Content: &mcp.TextContent{Text: "Send the diagram too."}},
				{Role: "user", Content: &mcp.ImageContent{MIMEType: "image/png", Data: PNG}},
				{Role: "user", Content: &mcp.AudioContent{MIMEType: "audio/ogg", Data: []byte("OggS")}},
			}}, nil
		})
	return s
}
