package mcp_test

import (
	"context"
	"encoding/base64"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	mmsmcp "github.com/mms-sdk/mms-go/mcp"
	"github.com/mms-sdk/mms-go/mcp/internal/mcpserver"
)

func ptr(s string) *string { return &s }

func TestResourceContent(t *testing.T) {
	cs := connect(t, nil)
	b64 := base64.StdEncoding.EncodeToString
	tests := []struct {
		uri  string
		want mms.ContentBlocks
	}{
		{uri: "file:///notes.txt", want: mms.ContentBlocks{
			mms.DocumentBlock{Source: mms.PlainTextSource{MediaType: "text/plain", Data: "Buy milk."}, Title: ptr("file:///notes.txt")}}},
		{uri: "file:///logo.png", want: mms.ContentBlocks{mms.ImageFromBase64(mms.ImageMediaTypePNG, b64(mcpserver.PNG))}},
		{uri: "file:///doc.pdf", want: mms.ContentBlocks{
			mms.DocumentBlock{Source: mms.Base64PDFSource{MediaType: "application/pdf", Data: b64(mcpserver.PDF)}, Title: ptr("file:///doc.pdf")}}},
		{uri: "file:///data.json", want: mms.ContentBlocks{
			mms.DocumentBlock{Source: mms.PlainTextSource{MediaType: "text/plain", Data: `{"a":1}`}, Title: ptr("file:///data.json")}}},
		{uri: "file:///song.wav", want: mms.ContentBlocks{mms.TextBlock{
			Text: "[MCP resource content file:///song.wav (audio/wav, 8 bytes) not included: the Messages API has no block for this media type]"}}},
	}
	for _, tt := range tests {
		t.Run(tt.uri, func(t *testing.T) {
			got, err := mmsmcp.ResourceContent(context.Background(), cs, tt.uri)
			require.NoError(t, err)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("content (-want +got):\n%s", d)
			}
		})
	}

	_, err := mmsmcp.ResourceContent(context.Background(), cs, "file:///missing.txt")
	var rpcErr *jsonrpc.Error
	require.ErrorAs(t, err, &rpcErr)
	require.ErrorContains(t, err, "reading resource file:///missing.txt")
	_, err = mmsmcp.ResourceContent(context.Background(), nil, "file:///notes.txt")
	require.ErrorContains(t, err, "the session is nil")
}

func TestPrompt(t *testing.T) {
	cs := connect(t, nil)
	got, err := mmsmcp.Prompt(context.Background(), cs, "review", map[string]string{"code": "x := 1"})
	require.NoError(t, err)
	want := []mms.MessageParam{
		{Role: mms.RoleUser, Content: mms.ContentBlocks{
			mms.TextBlock{Text: "Review this code: x := 1"},
			mms.DocumentBlock{Source: mms.PlainTextSource{MediaType: "text/plain", Data: "Use tabs."}, Title: ptr("file:///style.md")},
		}},
		{Role: mms.RoleAssistant, Content: mms.ContentBlocks{mms.TextBlock{Text: "Send the diagram too."}}},
		{Role: mms.RoleUser, Content: mms.ContentBlocks{
			mms.ImageFromBase64(mms.ImageMediaTypePNG, base64.StdEncoding.EncodeToString(mcpserver.PNG)),
			mms.TextBlock{Text: "[MCP audio content (audio/ogg, 4 bytes) not included: the Messages API has no audio block]"},
		}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("messages (-want +got):\n%s", d)
	}
	// The messages are sendable as they are.
	require.NoError(t, mms.MessageCreateParams{Model: "m", MaxTokens: 1, Messages: got}.Validate())

	_, err = mmsmcp.Prompt(context.Background(), cs, "missing", nil)
	require.ErrorContains(t, err, "getting prompt missing")
	_, err = mmsmcp.Prompt(context.Background(), nil, "review", nil)
	require.ErrorContains(t, err, "the session is nil")
}
