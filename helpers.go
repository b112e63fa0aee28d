package mms

import (
	"encoding/base64"
	"net/http"
	"strings"
)

// Ptr returns a pointer to v. Optional fields whose zero value means
// something (temperature 0, top_k 0) are pointers; Ptr fills them in one
// expression: Temperature: mms.Ptr(0.0).
func Ptr[T any](v T) *T { return &v }

// UserText returns a user turn holding one text block.
func UserText(text string) MessageParam {
	return MessageParam{Role: RoleUser, Content: ContentBlocks{TextBlock{Text: text}}}
}

// AssistantText returns an assistant turn holding one text block (for a
// prefill, or a replayed history).
func AssistantText(text string) MessageParam {
	return MessageParam{Role: RoleAssistant, Content: ContentBlocks{TextBlock{Text: text}}}
}

// UserMessage returns a user turn holding blocks.
func UserMessage(blocks ...ContentBlock) MessageParam {
	return MessageParam{Role: RoleUser, Content: ContentBlocks(blocks)}
}

// AssistantMessage returns an assistant turn holding blocks.
func AssistantMessage(blocks ...ContentBlock) MessageParam {
	return MessageParam{Role: RoleAssistant, Content: ContentBlocks(blocks)}
}

// ToolResult returns the answer to the tool_use block toolUseID: content as
// text (written in the string shorthand), marked as an error when isError.
// An empty content sends no content at all.
func ToolResult(toolUseID, content string, isError bool) ToolResultBlock {
	b := ToolResultBlock{ToolUseID: toolUseID}
	if content != "" {
		b.Content, b.StringContent = ContentBlocks{TextBlock{Text: content}}, true
	}
	if isError {
		b.IsError = Ptr(true)
	}
	return b
}

// ToolResultBlocks returns the answer to the tool_use block toolUseID with
// content blocks (text, images, documents, search results, tool references).
func ToolResultBlocks(toolUseID string, isError bool, content ...ContentBlock) ToolResultBlock {
	b := ToolResultBlock{ToolUseID: toolUseID, Content: ContentBlocks(content)}
	if isError {
		b.IsError = Ptr(true)
	}
	return b
}

// ImageFromBytes returns an image block carrying data base64-encoded. An
// empty mediaType is sniffed from the data (JPEG, PNG, GIF or WebP).
func ImageFromBytes(mediaType ImageMediaType, data []byte) ImageBlock {
	if mediaType == "" {
		mediaType = ImageMediaType(http.DetectContentType(data))
	}
	return ImageFromBase64(mediaType, encodeBase64(data))
}

// ImageFromBase64 returns an image block carrying already base64-encoded
// data.
func ImageFromBase64(mediaType ImageMediaType, data string) ImageBlock {
	return ImageBlock{Source: Base64ImageSource{MediaType: mediaType, Data: data}}
}

// ImageFromURL returns an image block the service fetches from url.
func ImageFromURL(url string) ImageBlock {
	return ImageBlock{Source: URLImageSource{URL: url}}
}

// ImageFromFile returns an image block naming a file uploaded with the
// Files API.
func ImageFromFile(fileID string) ImageBlock {
	return ImageBlock{Source: FileImageSource{FileID: fileID}}
}

// PDFFromBytes returns a document block carrying a PDF base64-encoded.
func PDFFromBytes(data []byte) DocumentBlock {
	return PDFFromBase64(encodeBase64(data))
}

// PDFFromBase64 returns a document block carrying an already base64-encoded
// PDF.
func PDFFromBase64(data string) DocumentBlock {
	return DocumentBlock{Source: Base64PDFSource{MediaType: MediaTypePDF, Data: data}}
}

// PDFFromURL returns a document block the service fetches from url (a PDF).
func PDFFromURL(url string) DocumentBlock {
	return DocumentBlock{Source: URLPDFSource{URL: url}}
}

// DocumentFromFile returns a document block naming a file uploaded with the
// Files API.
func DocumentFromFile(fileID string) DocumentBlock {
	return DocumentBlock{Source: FileDocumentSource{FileID: fileID}}
}

// TextDocument returns a document block holding plain text.
func TextDocument(text string) DocumentBlock {
	return DocumentBlock{Source: PlainTextSource{MediaType: MediaTypePlainText, Data: text}}
}

// encodeBase64 encodes data into a string with a single copy.
func encodeBase64(data []byte) string {
	var sb strings.Builder
	sb.Grow(base64.StdEncoding.EncodedLen(len(data)))
	enc := base64.NewEncoder(base64.StdEncoding, &sb)
	enc.Write(data) // a strings.Builder never fails
	enc.Close()
	return sb.String()
}

// Text returns the text of the message's text blocks, concatenated.
func (m *Message) Text() string {
	return joinText(m.Content, func(t TextBlock) string { return t.Text })
}

// Thinking returns the text of the message's thinking blocks, concatenated
// (redacted thinking has none).
func (m *Message) Thinking() string {
	return joinText(m.Content, func(t ThinkingBlock) string { return t.Thinking })
}

// joinText concatenates text(b) over the blocks of content that are a B.
func joinText[C, B any](content []C, text func(B) string) string {
	var sb strings.Builder
	for _, c := range content {
		if b, ok := any(c).(B); ok {
			sb.WriteString(text(b))
		}
	}
	return sb.String()
}

// ToolUses returns the message's tool_use blocks (the client tools to run),
// in order.
func (m *Message) ToolUses() []ToolUseBlock {
	var out []ToolUseBlock
	for _, b := range m.Content {
		if t, ok := b.(ToolUseBlock); ok {
			out = append(out, t)
		}
	}
	return out
}

// ToParam returns the message as an assistant turn for the next request,
// content unchanged (thinking signatures, tool ids and inputs, citations and
// server tool results included).
func (m *Message) ToParam() MessageParam {
	return MessageParam{Role: RoleAssistant, Content: m.Content}
}
