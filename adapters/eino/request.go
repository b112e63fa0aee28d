package eino

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cloudwego/eino/schema"

	mms "github.com/mms-sdk/mms-go"
)

// toolDefs turns Eino tool definitions into the request's custom tools.
func toolDefs(tools []*schema.ToolInfo) ([]mms.Tool, error) {
	defs := make([]mms.Tool, 0, len(tools))
	for i, t := range tools {
		if t == nil {
			return nil, fmt.Errorf("eino: tools[%d]: nil tool", i)
		}
		s, err := inputSchema(t)
		if err != nil {
			return nil, fmt.Errorf("eino: tools[%d] (%q): %w", i, t.Name, err)
		}
		defs = append(defs, mms.CustomTool{Name: t.Name, Description: t.Desc, InputSchema: s})
	}
	return defs, nil
}

// inputSchema is a tool's parameters as a JSON Schema object.
func inputSchema(t *schema.ToolInfo) (mms.InputSchema, error) {
	if t.ParamsOneOf == nil {
		return mms.InputSchema(`{"type":"object","properties":{}}`), nil
	}
	s, err := t.ParamsOneOf.ToJSONSchema()
	if err != nil {
		return nil, fmt.Errorf("parameters: %w", err)
	}
	if s == nil {
		return mms.InputSchema(`{"type":"object","properties":{}}`), nil
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("parameters: %w", err)
	}
	// A schema may marshal as true or false (JSON Schema's boolean
	// schemas); the service takes only objects of type "object".
	var head struct {
		Type any `json:"type"`
	}
	if json.Unmarshal(raw, &head) != nil || head.Type != "object" {
		return nil, fmt.Errorf(`parameters: the JSON Schema's type must be "object", got %.100s`, raw)
	}
	return mms.InputSchema(raw), nil
}

// setToolChoice maps Eino's tool choice onto the request.
func setToolChoice(p *mms.MessageCreateParams, tc *schema.ToolChoice, allowed []string) error {
	if tc == nil {
		if len(allowed) > 0 {
			return errors.New("eino: allowed tool names need a tool choice")
		}
		return nil
	}
	switch *tc {
	case schema.ToolChoiceForbidden:
		p.ToolChoice = mms.ToolChoiceNone{}
	case schema.ToolChoiceAllowed:
		if len(allowed) > 0 {
			// The service cannot limit "auto" to some tools.
			return errors.New("eino: tool choice allowed: allowed tool names are not supported; use ToolChoiceForced with one name")
		}
		p.ToolChoice = mms.ToolChoiceAuto{}
	case schema.ToolChoiceForced:
		var names []string
		for _, t := range p.Tools {
			if c, ok := t.(mms.CustomTool); ok {
				names = append(names, c.Name)
			}
		}
		if len(p.Tools) == 0 {
			return errors.New("eino: tool choice forced: no tools")
		}
		switch {
		case len(allowed) > 1:
			return fmt.Errorf("eino: tool choice forced: the service forces one named tool or any tool, got %d allowed names", len(allowed))
		case len(allowed) == 1:
			found := false
			for _, n := range names {
				found = found || n == allowed[0]
			}
			if !found {
				return fmt.Errorf("eino: tool choice forced: allowed tool %q is not among the tools", allowed[0])
			}
			p.ToolChoice = mms.ToolChoiceTool{Name: allowed[0]}
		case len(p.Tools) == 1 && len(names) == 1:
			p.ToolChoice = mms.ToolChoiceTool{Name: names[0]}
		default:
			p.ToolChoice = mms.ToolChoiceAny{}
		}
	default:
		return fmt.Errorf("eino: unknown tool choice %q", *tc)
	}
	return nil
}

// toParams turns Eino messages into the system prompt and the turns.
func toParams(in []*schema.Message) ([]mms.TextBlock, []mms.MessageParam, error) {
	var system []mms.TextBlock
	var turns []mms.MessageParam
	for i, m := range in {
		if m == nil {
			return nil, nil, fmt.Errorf("eino: messages[%d]: nil message", i)
		}
		var role mms.Role
		var blocks mms.ContentBlocks
		var err error
		switch m.Role {
		case schema.System:
			if len(turns) > 0 {
				return nil, nil, fmt.Errorf("eino: messages[%d]: a system message after the first turn; the service takes the system prompt only before the conversation", i)
			}
			texts, err := systemText(m)
			if err != nil {
				return nil, nil, fmt.Errorf("eino: messages[%d]: %w", i, err)
			}
			system = append(system, texts...)
			continue
		case schema.User:
			role = mms.RoleUser
			blocks, err = userBlocks(m)
		case schema.Tool:
			role = mms.RoleUser
			blocks, err = toolResult(m)
		case schema.Assistant:
			role = mms.RoleAssistant
			blocks, err = assistantBlocks(m)
		default:
			err = fmt.Errorf("unknown role %q", m.Role)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("eino: messages[%d]: %w", i, err)
		}
		// Consecutive messages of one role are one turn: parallel tool
		// results must answer their calls together.
		if n := len(turns); n > 0 && turns[n-1].Role == role {
			turns[n-1].Content = append(turns[n-1].Content, blocks...)
			continue
		}
		turns = append(turns, mms.MessageParam{Role: role, Content: blocks})
	}
	return system, turns, nil
}

// systemText is a system message's text.
func systemText(m *schema.Message) ([]mms.TextBlock, error) {
	blocks, err := userBlocks(m)
	if err != nil {
		return nil, err
	}
	texts := make([]mms.TextBlock, 0, len(blocks))
	for _, b := range blocks {
		t, ok := b.(mms.TextBlock)
		if !ok {
			return nil, errors.New("a system message holds only text")
		}
		texts = append(texts, t)
	}
	return texts, nil
}

// userBlocks is the content of a user (or system) message.
func userBlocks(m *schema.Message) (mms.ContentBlocks, error) {
	parts, err := inputParts(m)
	if err != nil {
		return nil, err
	}
	if parts == nil {
		return mms.ContentBlocks{mms.TextBlock{Text: m.Content}}, nil
	}
	blocks := make(mms.ContentBlocks, 0, len(parts))
	for j, p := range parts {
		b, err := inputBlock(p)
		if err != nil {
			return nil, fmt.Errorf("part %d: %w", j, err)
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// inputParts is a message's multimodal parts (nil for plain Content), the
// deprecated MultiContent converted to the new form.
func inputParts(m *schema.Message) ([]schema.MessageInputPart, error) {
	switch {
	case len(m.UserInputMultiContent) > 0 && len(m.MultiContent) > 0:
		return nil, errors.New("set UserInputMultiContent or MultiContent, not both")
	case (len(m.UserInputMultiContent) > 0 || len(m.MultiContent) > 0) && m.Content != "":
		return nil, errors.New("set Content or multimodal parts, not both")
	case len(m.UserInputMultiContent) > 0:
		return m.UserInputMultiContent, nil
	case len(m.MultiContent) > 0:
		return legacyParts(m.MultiContent)
	}
	return nil, nil
}

// legacyParts converts the deprecated ChatMessagePart form.
//
//lint:ignore SA1019 callers still set the deprecated MultiContent
func legacyParts(parts []schema.ChatMessagePart) ([]schema.MessageInputPart, error) {
	out := make([]schema.MessageInputPart, 0, len(parts))
	for j, p := range parts {
		np := schema.MessageInputPart{Type: p.Type, Text: p.Text}
		switch p.Type {
		case schema.ChatMessagePartTypeText:
		case schema.ChatMessagePartTypeImageURL:
			if p.ImageURL == nil {
				return nil, fmt.Errorf("part %d: image_url part without ImageURL", j)
			}
			url := p.ImageURL.URL
			np.Image = &schema.MessageInputImage{MessagePartCommon: schema.MessagePartCommon{URL: &url, MIMEType: p.ImageURL.MIMEType}}
		case schema.ChatMessagePartTypeFileURL:
			if p.FileURL == nil {
				return nil, fmt.Errorf("part %d: file_url part without FileURL", j)
			}
			url := p.FileURL.URL
			np.File = &schema.MessageInputFile{MessagePartCommon: schema.MessagePartCommon{URL: &url, MIMEType: p.FileURL.MIMEType}, Name: p.FileURL.Name}
		default:
			return nil, fmt.Errorf("part %d: %s parts are not supported by the service", j, p.Type)
		}
		out = append(out, np)
	}
	return out, nil
}

// inputBlock is one multimodal part as a content block.
func inputBlock(p schema.MessageInputPart) (mms.ContentBlock, error) {
	switch p.Type {
	case schema.ChatMessagePartTypeText:
		return mms.TextBlock{Text: p.Text}, nil
	case schema.ChatMessagePartTypeImageURL:
		if p.Image == nil {
			return nil, errors.New("image_url part without Image")
		}
		return imageBlock(p.Image.MessagePartCommon)
	case schema.ChatMessagePartTypeFileURL:
		if p.File == nil {
			return nil, errors.New("file_url part without File")
		}
		return documentBlock(p.File)
	default:
		return nil, fmt.Errorf("%s parts are not supported by the service", p.Type)
	}
}

// source is a part's data: base64 bytes with their MIME type, or a URL.
func source(c schema.MessagePartCommon) (mime, data, url string, err error) {
	switch {
	case c.Base64Data != nil && c.URL != nil:
		return "", "", "", errors.New("set URL or Base64Data, not both")
	case c.Base64Data != nil:
		if c.MIMEType == "" {
			return "", "", "", errors.New("Base64Data needs a MIMEType")
		}
		return c.MIMEType, *c.Base64Data, "", nil
	case c.URL == nil || *c.URL == "":
		return "", "", "", errors.New("neither URL nor Base64Data is set")
	}
	u := *c.URL
	if !strings.HasPrefix(u, "data:") {
		return c.MIMEType, "", u, nil
	}
	// RFC 2397: data:<mime>;base64,<data>
	head, data, ok := strings.Cut(strings.TrimPrefix(u, "data:"), ",")
	mime, ok64 := strings.CutSuffix(head, ";base64")
	if !ok || !ok64 || mime == "" {
		return "", "", "", errors.New("a data: URL must be data:<mime type>;base64,<data>")
	}
	return mime, data, "", nil
}

// imageBlock is an image part.
func imageBlock(c schema.MessagePartCommon) (mms.ContentBlock, error) {
	mime, data, url, err := source(c)
	if err != nil {
		return nil, fmt.Errorf("image: %w", err)
	}
	if url != "" {
		return mms.ImageFromURL(url), nil
	}
	return mms.ImageFromBase64(mms.ImageMediaType(mime), data), nil
}

// documentBlock is a file part: a PDF or plain text document.
func documentBlock(f *schema.MessageInputFile) (mms.ContentBlock, error) {
	mime, data, url, err := source(f.MessagePartCommon)
	if err != nil {
		return nil, fmt.Errorf("file: %w", err)
	}
	var d mms.DocumentBlock
	switch {
	case url != "" && (mime == "" || mime == mms.MediaTypePDF):
		d = mms.PDFFromURL(url)
	case url != "":
		return nil, fmt.Errorf("file: a URL document must be a PDF, got %q", mime)
	case mime == mms.MediaTypePDF:
		d = mms.PDFFromBase64(data)
	case mime == mms.MediaTypePlainText || strings.HasPrefix(mime, mms.MediaTypePlainText+";"):
		text, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			return nil, fmt.Errorf("file: text/plain data is not base64: %w", err)
		}
		d = mms.TextDocument(string(text))
	default:
		return nil, fmt.Errorf("file: MIME type %q; the service reads %s and %s documents", mime, mms.MediaTypePDF, mms.MediaTypePlainText)
	}
	if f.Name != "" {
		d.Title = mms.Ptr(f.Name)
	}
	return d, nil
}

// toolResult is a tool message as a tool_result block.
func toolResult(m *schema.Message) (mms.ContentBlocks, error) {
	if m.ToolCallID == "" {
		return nil, errors.New("a tool message needs its ToolCallID")
	}
	parts, err := inputParts(m)
	if err != nil {
		return nil, err
	}
	if parts == nil {
		return mms.ContentBlocks{mms.ToolResult(m.ToolCallID, m.Content, false)}, nil
	}
	blocks := make(mms.ContentBlocks, 0, len(parts))
	for j, p := range parts {
		b, err := inputBlock(p)
		if err != nil {
			return nil, fmt.Errorf("part %d: %w", j, err)
		}
		blocks = append(blocks, b)
	}
	return mms.ContentBlocks{mms.ToolResultBlocks(m.ToolCallID, false, blocks...)}, nil
}

// assistantBlocks is an assistant message's content: its stored blocks
// when the message still says what they say, else rebuilt from its fields
// with the signed thinking first.
func assistantBlocks(m *schema.Message) (mms.ContentBlocks, error) {
	stored, ok, err := Content(m)
	if err != nil {
		return nil, err
	}
	calls, err := toolUses(m.ToolCalls)
	if err != nil {
		return nil, err
	}
	text, err := assistantText(m)
	if err != nil {
		return nil, err
	}
	if ok && sameContent(stored, text, calls) {
		return stored, nil
	}
	var blocks mms.ContentBlocks
	for _, b := range stored {
		switch b.(type) {
		case mms.ThinkingBlock, mms.RedactedThinkingBlock:
			blocks = append(blocks, b)
		}
	}
	if text != "" {
		blocks = append(blocks, mms.TextBlock{Text: text})
	}
	for _, c := range calls {
		blocks = append(blocks, c)
	}
	return blocks, nil
}

// assistantText is an assistant message's text.
func assistantText(m *schema.Message) (string, error) {
	if len(m.AssistantGenMultiContent) == 0 {
		return m.Content, nil
	}
	if m.Content != "" {
		return "", errors.New("set Content or AssistantGenMultiContent, not both")
	}
	var sb strings.Builder
	for j, p := range m.AssistantGenMultiContent {
		if p.Type != schema.ChatMessagePartTypeText {
			return "", fmt.Errorf("part %d: %s parts cannot be sent back to the service", j, p.Type)
		}
		sb.WriteString(p.Text)
	}
	return sb.String(), nil
}

// toolUses are an assistant message's tool calls as tool_use blocks.
func toolUses(calls []schema.ToolCall) ([]mms.ToolUseBlock, error) {
	out := make([]mms.ToolUseBlock, 0, len(calls))
	for j, c := range calls {
		args := strings.TrimSpace(c.Function.Arguments)
		if args == "" {
			args = "{}"
		}
		if args[0] != '{' || !json.Valid([]byte(args)) {
			return nil, fmt.Errorf("ToolCalls[%d] (%q): Function.Arguments must be a JSON object", j, c.Function.Name)
		}
		out = append(out, mms.ToolUseBlock{ID: c.ID, Name: c.Function.Name, Input: json.RawMessage(args)})
	}
	return out, nil
}

// sameContent reports whether stored blocks say what the message's text
// and tool calls say.
func sameContent(stored mms.ContentBlocks, text string, calls []mms.ToolUseBlock) bool {
	var sb strings.Builder
	var uses []mms.ToolUseBlock
	for _, b := range stored {
		switch b := b.(type) {
		case mms.TextBlock:
			sb.WriteString(b.Text)
		case mms.ToolUseBlock:
			uses = append(uses, b)
		}
	}
	if sb.String() != text || len(uses) != len(calls) {
		return false
	}
	for i, u := range uses {
		if u.ID != calls[i].ID || u.Name != calls[i].Name || !sameJSON(u.Input, calls[i].Input) {
			return false
		}
	}
	return true
}

// sameJSON compares two JSON texts, ignoring insignificant space.
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}
