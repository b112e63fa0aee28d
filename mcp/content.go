package mcp

// Converting MCP content to Messages content blocks. The mapping is the
// same for tool results, embedded resources, resources read directly and
// prompt messages; what the Messages API has no block for becomes a text
// block describing it (see unsupported).

import (
	"fmt"
	"mime"
	"strings"
	"unicode/utf8"

	mms "github.com/mms-sdk/mms-go"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxTitleRunes is the longest document title the Messages API takes.
const maxTitleRunes = 500

// contentBlocks converts MCP content in order. Empty text is skipped (the
// Messages API refuses an empty text block and it carries nothing).
func contentBlocks(cs []mcp.Content) (mms.ContentBlocks, error) {
	out := make(mms.ContentBlocks, 0, len(cs))
	for i, c := range cs {
		b, err := contentBlock(c)
		if err != nil {
			return nil, fmt.Errorf("content[%d]: %w", i, err)
		}
		if b != nil {
			out = append(out, b)
		}
	}
	return out, nil
}

// contentBlock converts one MCP content value; nil for empty text.
func contentBlock(c mcp.Content) (mms.ContentBlock, error) {
	switch c := c.(type) {
	case *mcp.TextContent:
		if c.Text == "" {
			return nil, nil
		}
		return mms.TextBlock{Text: c.Text}, nil
	case *mcp.ImageContent:
		if mt, ok := imageType(c.MIMEType); ok {
			return mms.ImageFromBytes(mt, c.Data), nil
		}
		return unsupported("image", c.MIMEType, len(c.Data), "", "the Messages API takes JPEG, PNG, GIF and WebP images only"), nil
	case *mcp.AudioContent:
		return unsupported("audio", c.MIMEType, len(c.Data), "", "the Messages API has no audio block"), nil
	case *mcp.ResourceLink:
		return resourceLink(c), nil
	case *mcp.EmbeddedResource:
		if c.Resource == nil {
			return nil, fmt.Errorf("embedded resource without contents")
		}
		return resourceBlock(c.Resource), nil
	case nil:
		return nil, fmt.Errorf("nil content")
	default:
		// ToolUseContent and ToolResultContent belong to sampling
		// messages only; a server sending them here broke the protocol.
		return nil, fmt.Errorf("unexpected MCP content %T", c)
	}
}

// resourceBlock converts one resource's contents by its MIME type:
//   - text contents: a plain-text document titled with the URI;
//   - a JPEG, PNG, GIF or WebP blob: an image;
//   - a PDF blob: a PDF document titled with the URI;
//   - a text/* (or JSON, XML) blob that is valid UTF-8: a plain-text
//     document, as if it had come as text;
//   - any other blob: a text block describing it (see unsupported).
func resourceBlock(r *mcp.ResourceContents) mms.ContentBlock {
	if r.Blob == nil {
		return textDocument(r.URI, r.Text)
	}
	if mt, ok := imageType(r.MIMEType); ok {
		return mms.ImageFromBytes(mt, r.Blob)
	}
	switch base := baseType(r.MIMEType); {
	case base == mms.MediaTypePDF:
		d := mms.PDFFromBytes(r.Blob)
		d.Title = title(r.URI)
		return d
	case isTextual(base) && utf8.Valid(r.Blob):
		return textDocument(r.URI, string(r.Blob))
	}
	return unsupported("resource", r.MIMEType, len(r.Blob), r.URI, "the Messages API has no block for this media type")
}

// textDocument is a plain-text document titled with uri.
func textDocument(uri, text string) mms.DocumentBlock {
	d := mms.TextDocument(text)
	d.Title = title(uri)
	return d
}

// title is uri cut to the longest title the Messages API takes; nil for
// an empty uri.
func title(uri string) *string {
	if uri == "" {
		return nil
	}
	if utf8.RuneCountInString(uri) > maxTitleRunes {
		uri = string([]rune(uri)[:maxTitleRunes-1]) + "…"
	}
	return &uri
}

// resourceLink describes a resource link as text: the Messages API has no
// block for a reference the client has not read.
func resourceLink(l *mcp.ResourceLink) mms.TextBlock {
	var sb strings.Builder
	fmt.Fprintf(&sb, "[MCP resource link: %s", l.URI)
	if l.Name != "" {
		fmt.Fprintf(&sb, " name=%q", l.Name)
	}
	if l.Title != "" {
		fmt.Fprintf(&sb, " title=%q", l.Title)
	}
	if l.MIMEType != "" {
		fmt.Fprintf(&sb, " type=%s", l.MIMEType)
	}
	if l.Size != nil {
		fmt.Fprintf(&sb, " size=%d", *l.Size)
	}
	if l.Description != "" {
		fmt.Fprintf(&sb, " description=%q", l.Description)
	}
	sb.WriteString("]")
	return mms.TextBlock{Text: sb.String()}
}

// unsupported is the text block standing for content the Messages API has
// no block for, so that the model (and the program) see that something
// was there instead of it vanishing.
func unsupported(kind, mimeType string, size int, uri, why string) mms.TextBlock {
	if mimeType == "" {
		mimeType = "no media type"
	}
	where := ""
	if uri != "" {
		where = " " + uri
	}
	return mms.TextBlock{Text: fmt.Sprintf("[MCP %s content%s (%s, %d bytes) not included: %s]", kind, where, mimeType, size, why)}
}

// imageType is the Messages image media type of mimeType, if it has one.
func imageType(mimeType string) (mms.ImageMediaType, bool) {
	switch mt := mms.ImageMediaType(baseType(mimeType)); mt {
	case mms.ImageMediaTypeJPEG, mms.ImageMediaTypePNG, mms.ImageMediaTypeGIF, mms.ImageMediaTypeWebP:
		return mt, true
	}
	return "", false
}

// baseType is mimeType without parameters, lower case.
func baseType(mimeType string) string {
	if t, _, err := mime.ParseMediaType(mimeType); err == nil {
		return t
	}
	return strings.ToLower(strings.TrimSpace(mimeType))
}

// isTextual reports media types whose bytes are text.
func isTextual(base string) bool {
	switch {
	case strings.HasPrefix(base, "text/"),
		base == "application/json", base == "application/xml", base == "application/yaml",
		strings.HasSuffix(base, "+json"), strings.HasSuffix(base, "+xml"):
		return true
	}
	return false
}

// blockSize is what a block adds to a request, roughly: its text, or its
// data as base64.
func blockSize(b mms.ContentBlock) int {
	switch b := b.(type) {
	case mms.TextBlock:
		return len(b.Text)
	case mms.ImageBlock:
		if s, ok := b.Source.(mms.Base64ImageSource); ok {
			return len(s.Data)
		}
	case mms.DocumentBlock:
		switch s := b.Source.(type) {
		case mms.Base64PDFSource:
			return len(s.Data)
		case mms.PlainTextSource:
			return len(s.Data)
		}
	}
	return 0
}

// truncate bounds content to max bytes (as blockSize counts them). Blocks
// are kept in order while they fit; a text block that does not fit is cut
// at a character boundary, any other block that does not fit is left out
// with everything after it, and a marker block saying so ends the result.
func truncate(content mms.ContentBlocks, max int) mms.ContentBlocks {
	total := 0
	for _, b := range content {
		total += blockSize(b)
	}
	if total <= max {
		return content
	}
	out := make(mms.ContentBlocks, 0, len(content)+1)
	budget := max
	for i, b := range content {
		n := blockSize(b)
		if n <= budget {
			out = append(out, b)
			budget -= n
			continue
		}
		omitted := len(content) - i
		if t, ok := b.(mms.TextBlock); ok && budget > 0 {
			cut := budget
			for cut > 0 && !utf8.RuneStart(t.Text[cut]) {
				cut--
			}
			if cut > 0 {
				t.Text = t.Text[:cut]
				out = append(out, t)
				omitted--
			}
		}
		out = append(out, mms.TextBlock{Text: truncationMarker(total, max, omitted)})
		break
	}
	return out
}

// TruncationMarker starts the text block that ends a tool result cut to
// its maximum size (see [Options].MaxResultBytes).
const TruncationMarker = "[mms-go/mcp: result truncated"

func truncationMarker(total, max, omitted int) string {
	s := fmt.Sprintf("%s: the tool returned %d bytes, over the limit of %d", TruncationMarker, total, max)
	if omitted > 0 {
		s += fmt.Sprintf("; %d more content block(s) left out", omitted)
	}
	return s + "]"
}

// text is the text of content for an error message: text blocks as they
// are, other blocks by kind, one per line.
func text(content mms.ContentBlocks) string {
	lines := make([]string, 0, len(content))
	for _, b := range content {
		switch b := b.(type) {
		case mms.TextBlock:
			lines = append(lines, b.Text)
		case mms.DocumentBlock:
			if s, ok := b.Source.(mms.PlainTextSource); ok {
				lines = append(lines, s.Data)
			} else {
				lines = append(lines, "[a PDF document]")
			}
		case mms.ImageBlock:
			lines = append(lines, "[an image]")
		}
	}
	return strings.Join(lines, "\n")
}
