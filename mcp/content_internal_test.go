package mcp

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
)

func TestTruncateCutsAtACharacterBoundary(t *testing.T) {
	in := mms.ContentBlocks{mms.TextBlock{Text: "aé"}} // 3 bytes; é is 2
	got := truncate(in, 2)
	require.Len(t, got, 2)
	assert.Equal(t, "a", got[0].(mms.TextBlock).Text)
	assert.Equal(t, TruncationMarker+": the tool returned 3 bytes, over the limit of 2]", got[1].(mms.TextBlock).Text)

	// No room for even one character: only the marker.
	got = truncate(mms.ContentBlocks{mms.TextBlock{Text: "éé"}}, 1)
	assert.Equal(t, mms.ContentBlocks{mms.TextBlock{Text: TruncationMarker + ": the tool returned 4 bytes, over the limit of 1; 1 more content block(s) left out]"}}, got)

	// Within the limit, nothing changes.
	assert.Equal(t, in, truncate(in, 3))
}

func TestResourceBlockMediaTypes(t *testing.T) {
	title := func(s string) *string { return &s }
	tests := []struct {
		name string
		in   mcp.ResourceContents
		want mms.ContentBlock
	}{
		{name: "text with no media type", in: mcp.ResourceContents{URI: "a:b", Text: "t"},
			want: mms.DocumentBlock{Source: mms.PlainTextSource{MediaType: "text/plain", Data: "t"}, Title: title("a:b")}},
		{name: "text blob with parameters", in: mcp.ResourceContents{URI: "a:b", MIMEType: "Text/Plain; charset=utf-8", Blob: []byte("t")},
			want: mms.DocumentBlock{Source: mms.PlainTextSource{MediaType: "text/plain", Data: "t"}, Title: title("a:b")}},
		{name: "text blob that is not UTF-8", in: mcp.ResourceContents{URI: "a:b", MIMEType: "text/plain", Blob: []byte{0xff}},
			want: mms.TextBlock{Text: "[MCP resource content a:b (text/plain, 1 bytes) not included: the Messages API has no block for this media type]"}},
		{name: "vendor JSON blob", in: mcp.ResourceContents{URI: "a:b", MIMEType: "application/vnd.x+json", Blob: []byte("{}")},
			want: mms.DocumentBlock{Source: mms.PlainTextSource{MediaType: "text/plain", Data: "{}"}, Title: title("a:b")}},
		{name: "JPEG", in: mcp.ResourceContents{URI: "a:b", MIMEType: "image/jpeg", Blob: []byte{1}},
			want: mms.ImageFromBase64(mms.ImageMediaTypeJPEG, "AQ==")},
		{name: "SVG", in: mcp.ResourceContents{URI: "a:b", MIMEType: "image/svg+xml", Blob: []byte("<svg/>")},
			want: mms.DocumentBlock{Source: mms.PlainTextSource{MediaType: "text/plain", Data: "<svg/>"}, Title: title("a:b")}},
		{name: "blob with no media type", in: mcp.ResourceContents{URI: "a:b", Blob: []byte{1, 2}},
			want: mms.TextBlock{Text: "[MCP resource content a:b (no media type, 2 bytes) not included: the Messages API has no block for this media type]"}},
		{name: "URI at the title limit", in: mcp.ResourceContents{URI: strings.Repeat("u", 500), Text: "t"},
			want: mms.DocumentBlock{Source: mms.PlainTextSource{MediaType: "text/plain", Data: "t"}, Title: title(strings.Repeat("u", 500))}},
		{name: "URI over the title limit", in: mcp.ResourceContents{URI: strings.Repeat("u", 501), Text: "t"},
			want: mms.DocumentBlock{Source: mms.PlainTextSource{MediaType: "text/plain", Data: "t"}, Title: title(strings.Repeat("u", 499) + "…")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, resourceBlock(&tt.in)); d != "" {
				t.Errorf("block (-want +got):\n%s", d)
			}
		})
	}
}

func TestContentBlockRefusesSamplingContent(t *testing.T) {
	// Sampling content is deprecated in MCP, which is why a server that
	// sends it in a tool result is refused.
	//lint:ignore SA1019 the test needs content of the deprecated sampling kind
	_, err := contentBlocks([]mcp.Content{&mcp.TextContent{Text: "a"}, &mcp.ToolUseContent{Name: "x"}})
	require.ErrorContains(t, err, "content[1]: unexpected MCP content *mcp.ToolUseContent")
	_, err = contentBlocks([]mcp.Content{&mcp.EmbeddedResource{}})
	require.ErrorContains(t, err, "embedded resource without contents")
}
