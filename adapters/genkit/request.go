package mmsgenkit

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/firebase/genkit/go/ai"

	mms "github.com/mms-sdk/mms-go"
)

// Keys of the parts the plugin returns.
const (
	// MetadataBlock is the Part.Metadata key holding the service's block as
	// JSON (a string) when the part's Genkit form does not show all of it:
	// a text block's citations, a tool input's exact digits.
	MetadataBlock = "mms"
	// MetadataSignature is the Part.Metadata key of a reasoning part's
	// signature, a []byte as Genkit's ai.NewReasoningPart stores it.
	MetadataSignature = "signature"
	// CustomBlock is the Part.Custom key of a custom part holding a block
	// Genkit has no part for (redacted thinking, server tool calls and
	// results), as the block's JSON object.
	CustomBlock = "mms"
)

// BlockPart returns a custom part that sends b as it is: a way to send
// what Genkit has no part for (a document with citations on, a block with
// cache_control, a redacted thinking block).
func BlockPart(b mms.ContentBlock) (*ai.Part, error) {
	if b == nil {
		return nil, errors.New("mmsgenkit: BlockPart: nil block")
	}
	raw, err := json.Marshal(b)
	if err != nil {
		return nil, fmt.Errorf("mmsgenkit: BlockPart: %w", err)
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, fmt.Errorf("mmsgenkit: BlockPart: %w", err)
	}
	return ai.NewCustomPart(map[string]any{CustomBlock: obj}), nil
}

// Block returns the service's block behind a part the plugin returned (or
// built with BlockPart): a custom part's block, or the block kept in
// Metadata[MetadataBlock] (with a text's citations). ok is false for a
// part holding no block.
func Block(p *ai.Part) (b mms.ContentBlock, ok bool, err error) {
	if p == nil {
		return nil, false, nil
	}
	if p.IsCustom() {
		if v, has := p.Custom[CustomBlock]; has {
			b, err := decodeBlock(v)
			return b, err == nil, err
		}
		return nil, false, nil
	}
	v, has := p.Metadata[MetadataBlock]
	if !has {
		return nil, false, nil
	}
	s, isString := v.(string)
	if !isString {
		return nil, false, fmt.Errorf("mmsgenkit: Metadata[%q] is a %T, not the JSON string this package stores", MetadataBlock, v)
	}
	b, err = decodeBlock(json.RawMessage(s))
	return b, err == nil, err
}

// decodeBlock decodes one content block from its JSON (raw, or a value
// that marshals to it).
func decodeBlock(v any) (mms.ContentBlock, error) {
	raw, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return nil, fmt.Errorf("mmsgenkit: a stored block: %w", err)
		}
	}
	var blocks mms.ContentBlocks
	if err := json.Unmarshal(append(append([]byte("["), raw...), ']'), &blocks); err != nil {
		return nil, fmt.Errorf("mmsgenkit: a stored block: %w", err)
	}
	if len(blocks) != 1 {
		return nil, errors.New("mmsgenkit: a stored block: not one block")
	}
	return blocks[0], nil
}

// toParams fills p's system prompt and turns from the request; cite turns
// citations on for its documents.
func toParams(p *mms.MessageCreateParams, req *ai.ModelRequest, cite bool) error {
	var system []mms.TextBlock
	var turns []mms.MessageParam
	lastUser := -1
	for i, m := range req.Messages {
		if m == nil {
			return fmt.Errorf("mmsgenkit: messages[%d]: nil message", i)
		}
		var role mms.Role
		var blocks mms.ContentBlocks
		var err error
		switch m.Role {
		case ai.RoleSystem:
			if len(turns) > 0 {
				return fmt.Errorf("mmsgenkit: messages[%d]: a system message after the first turn; the service takes the system prompt only before the conversation", i)
			}
			for j, part := range m.Content {
				if !part.IsText() {
					return fmt.Errorf("mmsgenkit: messages[%d].content[%d]: a system message holds only text", i, j)
				}
				if part.Text != "" {
					system = append(system, mms.TextBlock{Text: part.Text})
				}
			}
			continue
		case ai.RoleUser:
			role = mms.RoleUser
			blocks, err = userBlocks(m.Content)
		case ai.RoleTool:
			role = mms.RoleUser
			blocks, err = toolBlocks(m.Content)
		case ai.RoleModel:
			role = mms.RoleAssistant
			blocks, err = modelBlocks(m.Content)
		default:
			return fmt.Errorf("mmsgenkit: messages[%d]: unknown role %q", i, m.Role)
		}
		if err != nil {
			return fmt.Errorf("mmsgenkit: messages[%d]: %w", i, err)
		}
		if len(blocks) == 0 {
			continue
		}
		// One turn per role: parallel tool results, a user message after
		// tool results.
		if n := len(turns); n > 0 && turns[n-1].Role == role {
			turns[n-1].Content = append(turns[n-1].Content, blocks...)
		} else {
			turns = append(turns, mms.MessageParam{Role: role, Content: blocks})
		}
		if m.Role == ai.RoleUser {
			lastUser = len(turns) - 1
		}
	}
	if len(req.Docs) > 0 {
		if lastUser < 0 {
			return errors.New("mmsgenkit: the request has documents (Docs) but no user message to carry them")
		}
		docs, err := documents(req.Docs, cite)
		if err != nil {
			return err
		}
		turns[lastUser].Content = append(docs, turns[lastUser].Content...)
	}
	if len(system) > 0 {
		blocks := p.System.Blocks
		if blocks == nil && p.System.Text != "" {
			blocks = []mms.TextBlock{{Text: p.System.Text}}
		}
		p.System = mms.SystemBlocks(append(blocks, system...)...)
	}
	p.Messages = turns
	return nil
}

// userBlocks is a user message's content.
func userBlocks(parts []*ai.Part) (mms.ContentBlocks, error) {
	blocks := make(mms.ContentBlocks, 0, len(parts))
	for j, part := range parts {
		b, err := inputBlock(part)
		if err != nil {
			return nil, fmt.Errorf("content[%d]: %w", j, err)
		}
		if b != nil {
			blocks = append(blocks, b)
		}
	}
	return blocks, nil
}

// inputBlock is a part of a user message or tool response; nil for empty
// text.
func inputBlock(part *ai.Part) (mms.ContentBlock, error) {
	switch {
	case part == nil:
		return nil, errors.New("nil part")
	case part.IsText():
		stored, _, err := Block(part)
		if err != nil {
			return nil, err
		}
		if s, ok := stored.(mms.TextBlock); ok && s.Text == part.Text {
			return s, nil
		}
		if part.Text == "" {
			return nil, nil
		}
		return mms.TextBlock{Text: part.Text}, nil
	case part.IsMedia():
		return mediaBlock(part.ContentType, part.Text)
	case part.IsCustom():
		b, ok, err := Block(part)
		if !ok && err == nil {
			err = fmt.Errorf("a custom part without Custom[%q] has no meaning for the service", CustomBlock)
		}
		return b, err
	case part.IsData():
		return nil, errors.New("data parts are not supported by the service; send the data as text")
	case part.IsResource():
		return nil, errors.New("resource parts must be resolved by Genkit before the model is called")
	default:
		return nil, fmt.Errorf("%s parts are not supported in this message", kindName(part))
	}
}

// kindName names a part's kind for errors.
func kindName(p *ai.Part) string {
	switch {
	case p.IsToolRequest():
		return "tool request"
	case p.IsToolResponse():
		return "tool response"
	case p.IsReasoning():
		return "reasoning"
	}
	return fmt.Sprintf("kind %d", p.Kind)
}

// mediaBlock is a media part: an image or a document.
func mediaBlock(contentType, url string) (mms.ContentBlock, error) {
	mime, data, isData := contentType, "", false
	if rest, ok := strings.CutPrefix(url, "data:"); ok {
		// RFC 2397: data:<mime>;base64,<data>
		head, d, ok := strings.Cut(rest, ",")
		m, ok64 := strings.CutSuffix(head, ";base64")
		if !ok || !ok64 || m == "" {
			return nil, errors.New("media: a data: URL must be data:<mime type>;base64,<data>")
		}
		mime, data, isData = m, d, true
	} else if !strings.HasPrefix(url, "https://") && !strings.HasPrefix(url, "http://") {
		return nil, fmt.Errorf("media: the URL must be http(s) or data:, got %.40q", url)
	}
	mime = strings.TrimSpace(strings.ToLower(mime))
	switch {
	case mime == "" && !isData:
		return nil, errors.New("media: an http(s) URL needs its ContentType (image/… or application/pdf)")
	case strings.HasPrefix(mime, "image/"):
		if isData {
			return mms.ImageFromBase64(mms.ImageMediaType(mime), data), nil
		}
		return mms.ImageFromURL(url), nil
	case mime == mms.MediaTypePDF:
		if isData {
			return mms.PDFFromBase64(data), nil
		}
		return mms.PDFFromURL(url), nil
	case mime == mms.MediaTypePlainText || strings.HasPrefix(mime, mms.MediaTypePlainText+";"):
		if !isData {
			return nil, errors.New("media: a text/plain document must be a data: URL")
		}
		text, err := base64.StdEncoding.DecodeString(data)
		if err != nil {
			return nil, fmt.Errorf("media: text/plain data is not base64: %w", err)
		}
		return mms.TextDocument(string(text)), nil
	default:
		return nil, fmt.Errorf("media: content type %q; the service reads images, %s and %s", mime, mms.MediaTypePDF, mms.MediaTypePlainText)
	}
}

// documents are Genkit's context documents as document blocks, with
// citations on when cite is set.
func documents(docs []*ai.Document, cite bool) (mms.ContentBlocks, error) {
	out := make(mms.ContentBlocks, 0, len(docs))
	for i, d := range docs {
		if d == nil {
			return nil, fmt.Errorf("mmsgenkit: docs[%d]: nil document", i)
		}
		var text strings.Builder
		var block mms.ContentBlock
		for j, part := range d.Content {
			switch {
			case part.IsText():
				text.WriteString(part.Text)
			case part.IsMedia() && block == nil:
				b, err := mediaBlock(part.ContentType, part.Text)
				if err != nil {
					return nil, fmt.Errorf("mmsgenkit: docs[%d].content[%d]: %w", i, j, err)
				}
				if _, ok := b.(mms.DocumentBlock); !ok {
					return nil, fmt.Errorf("mmsgenkit: docs[%d].content[%d]: a document's media must be a PDF or text, got %q", i, j, part.ContentType)
				}
				block = b
			default:
				return nil, fmt.Errorf("mmsgenkit: docs[%d].content[%d]: a document is text parts or one PDF or text media part", i, j)
			}
		}
		if block != nil && text.Len() > 0 {
			return nil, fmt.Errorf("mmsgenkit: docs[%d]: a document is text parts or one PDF or text media part, not both", i)
		}
		if block == nil {
			if text.Len() == 0 {
				return nil, fmt.Errorf("mmsgenkit: docs[%d]: empty document", i)
			}
			block = mms.TextDocument(text.String())
		}
		doc := block.(mms.DocumentBlock)
		if title, ok := d.Metadata["title"].(string); ok && title != "" {
			doc.Title = mms.Ptr(title)
		}
		if cite {
			doc.Citations = &mms.CitationsConfig{Enabled: mms.Ptr(true)}
		}
		out = append(out, doc)
	}
	return out, nil
}

// toolBlocks is a tool message: tool_result blocks.
func toolBlocks(parts []*ai.Part) (mms.ContentBlocks, error) {
	blocks := make(mms.ContentBlocks, 0, len(parts))
	for j, part := range parts {
		if !part.IsToolResponse() || part.ToolResponse == nil {
			b, err := inputBlock(part)
			if err != nil {
				return nil, fmt.Errorf("content[%d]: %w", j, err)
			}
			if b != nil {
				blocks = append(blocks, b)
			}
			continue
		}
		b, err := toolResult(part.ToolResponse)
		if err != nil {
			return nil, fmt.Errorf("content[%d] (tool %q): %w", j, part.ToolResponse.Name, err)
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// toolResult is a tool's response as a tool_result block.
func toolResult(r *ai.ToolResponse) (mms.ToolResultBlock, error) {
	if r.Ref == "" {
		return mms.ToolResultBlock{}, errors.New("a tool response needs the Ref of the request it answers")
	}
	var content mms.ContentBlocks
	switch out := r.Output.(type) {
	case nil:
	case string:
		if out != "" {
			content = append(content, mms.TextBlock{Text: out})
		}
	default:
		raw, err := json.Marshal(out)
		if err != nil {
			return mms.ToolResultBlock{}, fmt.Errorf("output: %w", err)
		}
		content = append(content, mms.TextBlock{Text: string(raw)})
	}
	for k, part := range r.Content {
		b, err := inputBlock(part)
		if err != nil {
			return mms.ToolResultBlock{}, fmt.Errorf("content[%d]: %w", k, err)
		}
		if b != nil {
			content = append(content, b)
		}
	}
	return mms.ToolResultBlocks(r.Ref, false, content...), nil
}

// modelBlocks is a model message's content: each part as the block it
// came from while it still says the same, else rebuilt from the part.
func modelBlocks(parts []*ai.Part) (mms.ContentBlocks, error) {
	blocks := make(mms.ContentBlocks, 0, len(parts))
	for j, part := range parts {
		b, err := modelBlock(part)
		if err != nil {
			return nil, fmt.Errorf("content[%d]: %w", j, err)
		}
		if b != nil {
			blocks = append(blocks, b)
		}
	}
	return blocks, nil
}

// modelBlock is one part of a model message; nil when nothing is sent.
func modelBlock(part *ai.Part) (mms.ContentBlock, error) {
	if part == nil {
		return nil, errors.New("nil part")
	}
	stored, _, err := Block(part)
	if err != nil {
		return nil, err
	}
	switch {
	case part.IsCustom():
		if stored == nil {
			return nil, fmt.Errorf("a custom part without Custom[%q] has no meaning for the service", CustomBlock)
		}
		return stored, nil
	case part.IsText():
		if s, ok := stored.(mms.TextBlock); ok && s.Text == part.Text {
			return s, nil
		}
		if part.Text == "" {
			return nil, nil
		}
		return mms.TextBlock{Text: part.Text}, nil
	case part.IsReasoning():
		sig, err := signature(part)
		if err != nil {
			return nil, err
		}
		if s, ok := stored.(mms.ThinkingBlock); ok && s.Thinking == part.Text && s.Signature == sig {
			return s, nil
		}
		if sig == "" {
			return nil, nil // unsigned thinking is not the service's; see the package doc
		}
		return mms.ThinkingBlock{Thinking: part.Text, Signature: sig}, nil
	case part.IsToolRequest():
		r := part.ToolRequest
		if r == nil {
			return nil, errors.New("a tool request part without its ToolRequest")
		}
		if r.Ref == "" {
			return nil, fmt.Errorf("tool request %q: Ref is required (it pairs the request with its response)", r.Name)
		}
		input, err := toolInput(r.Input)
		if err != nil {
			return nil, fmt.Errorf("tool request %q: %w", r.Name, err)
		}
		if s, ok := stored.(mms.ToolUseBlock); ok && s.ID == r.Ref && s.Name == r.Name && sameJSON(s.Input, input) {
			return s, nil
		}
		return mms.ToolUseBlock{ID: r.Ref, Name: r.Name, Input: input}, nil
	case part.IsMedia():
		return nil, errors.New("media parts cannot be sent back as the model's content")
	default:
		return nil, fmt.Errorf("%s parts are not supported in a model message", kindName(part))
	}
}

// signature reads a reasoning part's signature: the []byte Genkit stores,
// or the base64 string JSON made of it.
func signature(part *ai.Part) (string, error) {
	switch s := part.Metadata[MetadataSignature].(type) {
	case nil:
		return "", nil
	case []byte:
		return string(s), nil
	case string:
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return "", fmt.Errorf("reasoning: Metadata[%q] is a string but not base64 (the JSON of a []byte): %w", MetadataSignature, err)
		}
		return string(b), nil
	default:
		return "", fmt.Errorf("reasoning: Metadata[%q] is a %T, not []byte", MetadataSignature, s)
	}
}

// toolInput is a tool request's input as a JSON object.
func toolInput(v any) (json.RawMessage, error) {
	if v == nil {
		return json.RawMessage(`{}`), nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	if len(raw) == 0 || raw[0] != '{' {
		return nil, fmt.Errorf("input must be a JSON object, got %.60s", raw)
	}
	return raw, nil
}

// sameJSON reports whether two JSON texts hold the same value as Go
// decodes them (so a stored input with more digits than a float64 still
// matches the part made from it).
func sameJSON(a, b []byte) bool {
	var va, vb any
	return json.Unmarshal(a, &va) == nil && json.Unmarshal(b, &vb) == nil && reflect.DeepEqual(va, vb)
}

// toolDefs are Genkit's tool definitions as custom tools, sorted by name:
// Genkit's Generate lists them in map order, different on every call,
// which would make each turn's tools a new prompt-cache prefix.
func toolDefs(tools []*ai.ToolDefinition) ([]mms.Tool, error) {
	for i, t := range tools {
		if t == nil {
			return nil, fmt.Errorf("mmsgenkit: tools[%d]: nil tool", i)
		}
	}
	tools = slices.SortedStableFunc(slices.Values(tools), func(a, b *ai.ToolDefinition) int { return strings.Compare(a.Name, b.Name) })
	out := make([]mms.Tool, 0, len(tools))
	for _, t := range tools {
		schema := mms.InputSchema(`{"type":"object","properties":{}}`)
		if len(t.InputSchema) > 0 {
			if t.InputSchema["type"] != "object" {
				return nil, fmt.Errorf(`mmsgenkit: tool %q: the input schema's type must be "object", got %v`, t.Name, t.InputSchema["type"])
			}
			raw, err := json.Marshal(t.InputSchema)
			if err != nil {
				return nil, fmt.Errorf("mmsgenkit: tool %q: input schema: %w", t.Name, err)
			}
			schema = mms.InputSchema(raw)
		}
		out = append(out, mms.CustomTool{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	return out, nil
}

// toolChoice is Genkit's tool choice; nil leaves the service's default.
func toolChoice(c ai.ToolChoice) (mms.ToolChoice, error) {
	switch c {
	case "":
		return nil, nil
	case ai.ToolChoiceAuto:
		return mms.ToolChoiceAuto{}, nil
	case ai.ToolChoiceRequired:
		return mms.ToolChoiceAny{}, nil
	case ai.ToolChoiceNone:
		return mms.ToolChoiceNone{}, nil
	}
	return nil, fmt.Errorf("mmsgenkit: unknown tool choice %q", c)
}
