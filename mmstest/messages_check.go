package mmstest

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif" // registered for image.DecodeConfig
	_ "image/jpeg"
	_ "image/png"
	"slices"
	"strings"
)

// The conversation rules of the Messages endpoints, applied after the
// request form has been checked.

// maxImageEdge is the largest width or height, in pixels, of an image sent
// with transformations.oversized_image "error"; larger ones are refused.
// (With the default, "downsize", the service shrinks them; the fake accepts
// any size.)
const maxImageEdge = 8000

// located is a content block with its position in the request.
type located struct {
	msg, idx int // idx is -1 for string content
	b        blockParam
}

func (l located) path() string {
	if l.idx < 0 {
		return fmt.Sprintf("messages.%d.content", l.msg)
	}
	return fmt.Sprintf("messages.%d.content.%d", l.msg, l.idx)
}

// turn is one or more consecutive messages of the same role, merged as the
// service merges them.
type turn struct {
	role   string
	first  int // index of its first message
	blocks []located
}

// contentBlocks decodes a message content: a string is one text block.
func contentBlocks(raw json.RawMessage) ([]blockParam, bool) {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return []blockParam{{Type: "text", Text: text}}, true
	}
	var blocks []blockParam
	_ = json.Unmarshal(raw, &blocks) // checked by the request form
	return blocks, false
}

// turns merges the messages into turns; system messages are not turns
// (messages_system.go).
func (p *msgParams) turns() []turn {
	var out []turn
	for i, m := range p.Messages {
		if !turnMessage(m) {
			continue
		}
		if len(out) == 0 || out[len(out)-1].role != m.Role {
			out = append(out, turn{role: m.Role, first: i})
		}
		t := &out[len(out)-1]
		blocks, isString := contentBlocks(m.Content)
		for j, b := range blocks {
			if isString {
				j = -1
			}
			t.blocks = append(t.blocks, located{i, j, b})
		}
	}
	return out
}

// checkConversation applies the rules that span blocks and turns.
func (p *msgParams) checkConversation() *apiError {
	turns := p.turns()
	for i, t := range turns {
		var err *apiError
		if t.role == "user" {
			var prev *turn
			if i > 0 {
				prev = &turns[i-1]
			}
			err = checkToolResults(t, prev)
			if err == nil {
				err = checkBrowserStates(t, prev)
			}
		} else {
			err = checkThinkingBlocks(t)
			if err == nil && i+1 < len(turns) {
				err = checkToolUsesAnswered(t, turns[i+1])
			}
		}
		if err != nil {
			return err
		}
	}
	if last := turns[len(turns)-1]; p.thinkingOn() && last.role == "assistant" && len(last.blocks) > 0 {
		if b := last.blocks[0]; b.b.Type != "thinking" && b.b.Type != "redacted_thinking" {
			return invalid("%s: Expected `thinking` or `redacted_thinking`, but found `%s`. When `thinking` is enabled, "+
				"a final `assistant` message must start with a thinking block.", b.path(), b.b.Type)
		}
	}
	for i, m := range p.Messages {
		if err := eachImage(fmt.Sprintf("messages.%d.content", i), m.Content, checkImage); err != nil {
			return err
		}
	}
	return p.checkParams()
}

// checkParams applies the rules between top-level parameters.
func (p *msgParams) checkParams() *apiError {
	names := map[string]bool{}
	for i, t := range p.Tools {
		if t.Name != "" && names[t.Name] {
			return invalid("tools: Tool names must be unique. Duplicate name: %s", t.Name)
		}
		names[t.Name] = true
		if present(t.AllowedDomains) && present(t.BlockedDomains) {
			return invalid("tools.%d: allowed_domains and blocked_domains cannot both be set", i)
		}
	}
	if p.Thinking != nil && p.Thinking.Type == "enabled" && !p.count && p.MaxTokens <= p.Thinking.BudgetTokens {
		return invalid("max_tokens: `max_tokens` must be greater than `thinking.budget_tokens`")
	}
	if p.thinkingOn() && p.ToolChoice != nil && (p.ToolChoice.Type == "any" || p.ToolChoice.Type == "tool") {
		return invalid("Thinking may not be enabled when tool_choice forces tool use.")
	}
	if present(p.OutputFormat) && p.OutputConfig != nil && present(p.OutputConfig.Format) {
		return invalid("output_format: cannot be combined with output_config.format; send output_config.format only")
	}
	if present(p.Fallbacks) && present(p.FallbackCreditToken) {
		return invalid("fallback_credit_token: cannot be combined with fallbacks")
	}
	if err := p.checkMCPAndURLSources(); err != nil { // messages_mcp.go
		return err
	}
	if err := p.checkInlineToolNames(); err != nil {
		return err
	}
	return p.checkOutputFormat()
}

// checkToolResults requires every tool_result of a user turn to answer a
// tool_use of the assistant turn before it.
func checkToolResults(t turn, prev *turn) *apiError {
	asked := map[string]bool{}
	if prev != nil {
		for _, b := range prev.blocks {
			if b.b.Type == "tool_use" {
				asked[b.b.ID] = true
			}
		}
	}
	var unexpected []string
	var at located
	for _, b := range t.blocks {
		if b.b.Type == "tool_result" && !asked[b.b.ToolUseID] {
			if unexpected == nil {
				at = b
			}
			unexpected = append(unexpected, b.b.ToolUseID)
		}
	}
	if unexpected == nil {
		return nil
	}
	return invalid("%s: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must "+
		"have a corresponding `tool_use` block in the previous message.", at.path(), strings.Join(unexpected, ", "))
}

// checkToolUsesAnswered requires the turn after an assistant turn to answer
// each of its tool_use blocks.
func checkToolUsesAnswered(t, next turn) *apiError {
	answered := map[string]bool{}
	for _, b := range next.blocks {
		if b.b.Type == "tool_result" {
			answered[b.b.ToolUseID] = true
		}
	}
	var missing []string
	for _, b := range t.blocks {
		if b.b.Type == "tool_use" && !answered[b.b.ID] {
			missing = append(missing, b.b.ID)
		}
	}
	if missing == nil {
		return nil
	}
	return invalid("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. "+
		"Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
		next.first, strings.Join(missing, ", "))
}

// Thinking signatures. A signature the fake issues is base64 of
// signatureMagic, the block's index in its message content (uvarint) and an
// HMAC-SHA256, under signingKey, of that index and the thinking text. Such a
// block passed back with other text or at another index is refused, as the
// service refuses modified or reordered thinking blocks. Signatures the fake
// did not issue (the service's, in recorded conversations) are opaque and
// accepted. The key is fixed so that signatures verify on every Server,
// which keeps replies deterministic; it protects against accidents, not
// adversaries.
var (
	signatureMagic = []byte("mmst")
	signingKey     = []byte("mmstest thinking signature key v1")
)

func thinkingMAC(index int, text string) []byte {
	mac := hmac.New(sha256.New, signingKey)
	fmt.Fprintf(mac, "%d\x00%s", index, text)
	return mac.Sum(nil)
}

// signThinking signs the thinking text of the block at index of a reply.
func signThinking(index int, text string) string {
	raw := binary.AppendUvarint(slices.Clone(signatureMagic), uint64(index))
	return base64.StdEncoding.EncodeToString(append(raw, thinkingMAC(index, text)...))
}

// checkThinkingBlocks verifies the fake-issued signatures of a turn.
func checkThinkingBlocks(t turn) *apiError {
	for _, b := range t.blocks {
		if b.b.Type != "thinking" {
			continue
		}
		raw, err := base64.StdEncoding.DecodeString(b.b.Signature)
		rest, issued := bytes.CutPrefix(raw, signatureMagic)
		if err != nil || !issued {
			continue // not the fake's: opaque
		}
		index, n := binary.Uvarint(rest)
		if n <= 0 || !hmac.Equal(rest[n:], thinkingMAC(int(index), b.b.Thinking)) {
			return invalid("%s: Invalid `signature` in `thinking` block", b.path())
		}
		if int(index) != b.idx {
			return invalid("%s: `thinking` block moved from position %d: thinking blocks must be passed back "+
				"unchanged and in their original order", b.path(), index)
		}
	}
	return nil
}

// eachImage calls check for every image block in a content value, looking
// into tool_result content and content-sourced documents too.
func eachImage(path string, content json.RawMessage, check func(path string, b blockParam) *apiError) *apiError {
	blocks, isString := contentBlocks(content)
	if isString {
		return nil
	}
	for i, b := range blocks {
		p := fmt.Sprintf("%s.%d", path, i)
		var err *apiError
		switch {
		case b.Type == "image":
			err = check(p, b)
		case b.Type == "tool_result" && b.Content != nil:
			err = eachImage(p+".content", b.Content, check)
		case b.Type == "document" && b.Source != nil && b.Source.Type == "content":
			err = eachImage(p+".source.content", b.Source.Content, check)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// checkImage checks a base64 image: valid base64, a format matching its
// media_type and, with oversized_image "error", at most maxImageEdge pixels
// on each side.
func checkImage(path string, b blockParam) *apiError {
	src := b.Source
	if src == nil || src.Type != "base64" {
		return nil
	}
	data, err := base64.StdEncoding.DecodeString(src.Data)
	if err != nil {
		return invalid("%s.source.data: The image data is not valid base64", path)
	}
	w, h, format, ok := imageConfig(data)
	if !ok {
		return invalid("%s.source: Could not process image", path)
	}
	if mt := "image/" + format; mt != src.MediaType {
		return invalid("%s.source.media_type: The image was specified using the %s media type, but the image "+
			"appears to be a %s image", path, src.MediaType, mt)
	}
	if b.Transformations == nil || b.Transformations.OversizedImage != "error" || max(w, h) <= maxImageEdge {
		return nil
	}
	scale := float64(maxImageEdge) / float64(max(w, h))
	return invalid("%s: image is %dx%d px, larger than the maximum of %dx%d px; the largest that fits is %dx%d px "+
		"(or send transformations.oversized_image \"downsize\")", path, w, h, maxImageEdge, maxImageEdge,
		max(1, int(float64(w)*scale)), max(1, int(float64(h)*scale)))
}

// imageConfig returns an image's size and format ("png", "jpeg", "gif" or
// "webp").
func imageConfig(data []byte) (w, h int, format string, ok bool) {
	if w, h, ok := webpSize(data); ok {
		return w, h, "webp", true
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return 0, 0, "", false
	}
	return cfg.Width, cfg.Height, format, true
}

// webpSize reads the canvas size from a WebP header (RIFF container with a
// VP8, VP8L or VP8X first chunk).
func webpSize(d []byte) (w, h int, ok bool) {
	if len(d) < 30 || string(d[0:4]) != "RIFF" || string(d[8:12]) != "WEBP" {
		return 0, 0, false
	}
	le24 := func(b []byte) int { return int(b[0]) | int(b[1])<<8 | int(b[2])<<16 }
	switch string(d[12:16]) {
	case "VP8X":
		return le24(d[24:27]) + 1, le24(d[27:30]) + 1, true
	case "VP8L":
		bits := binary.LittleEndian.Uint32(d[21:25])
		return int(bits&0x3fff) + 1, int(bits>>14&0x3fff) + 1, true
	case "VP8 ":
		return int(binary.LittleEndian.Uint16(d[26:28]) & 0x3fff), int(binary.LittleEndian.Uint16(d[28:30]) & 0x3fff), true
	}
	return 0, 0, false
}
