package mmstest

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Compaction requests (beta compact-2026-09-04) and the rules for the
// compaction blocks they return.
//
// A request with "compaction" is answered with one compaction block whose
// content is a deterministic summary of the conversation, with stop_reason
// "compaction" and one "compaction" entry in usage.iterations (which holds
// the call's tokens; the top-level counters are 0, as a compaction entry's
// tokens are not in them). The block's signature is base64 of
// compactionMagic, an HMAC of its content, an HMAC of its tool_changes, and
// an HMAC of those two under compactionKey, so a later request can tell a
// damaged signature (compaction_signature_invalid) from a changed summary
// (compaction_content_mismatch) or changed tool changes
// (compaction_tool_changes_mismatch). A block without a signature (the
// context_management flow) is not checked; any signature the fake did not
// issue is invalid. The key is fixed, like the thinking signatures', so
// replies stay deterministic across servers.

var (
	compactionMagic = []byte("mmsc")
	compactionKey   = []byte("mmstest compaction signature key v1")
)

// Error codes of the compaction rules (error.details.error_code).
const (
	codeCompactionSignatureInvalid    = "compaction_signature_invalid"
	codeCompactionContentMismatch     = "compaction_content_mismatch"
	codeCompactionToolChangesMismatch = "compaction_tool_changes_mismatch"
	codeCompactionBlockMisplaced      = "compaction_block_misplaced"
	codeCompactionBlockAmbiguous      = "compaction_block_ambiguous"
	codeCompactionNothingToSummarize  = "compaction_nothing_to_summarize"
)

// compactionParam is the request member "compaction".
type compactionParam struct {
	Type         string  `json:"type"`
	Instructions *string `json:"instructions"`
}

// compactionBlock is a compaction block of a request.
type compactionBlock struct {
	Content          *string         `json:"content"`
	EncryptedContent *string         `json:"encrypted_content"`
	Signature        *string         `json:"signature"`
	ToolChanges      json.RawMessage `json:"tool_changes"`
}

// summarizes reports whether the block carries a summary; one without is a
// no-op.
func (b compactionBlock) summarizes() bool { return b.Content != nil || b.EncryptedContent != nil }

// invalidCoded returns a 400 invalid_request_error with
// error.details.error_code.
func invalidCoded(code, format string, args ...any) *apiError {
	return coded(http.StatusBadRequest, code, fmt.Sprintf(format, args...), nil)
}

// compactionMeta is what a reply's compaction block carries besides its
// text (replyBlock.text).
type compactionMeta struct {
	signature   string
	toolChanges []json.RawMessage
}

// placedCompaction is a compaction block of the request and its position.
type placedCompaction struct {
	msg, idx int
	block    compactionBlock
}

func (c placedCompaction) path() string { return fmt.Sprintf("messages.%d.content.%d", c.msg, c.idx) }

// compactionBlocks lists the compaction blocks of the conversation.
func (p *msgParams) compactionBlocks() []placedCompaction {
	var out []placedCompaction
	for i, m := range p.Messages {
		var raws []json.RawMessage
		if json.Unmarshal(m.Content, &raws) != nil { // string content
			continue
		}
		for j, raw := range raws {
			var head struct {
				Type string `json:"type"`
			}
			if json.Unmarshal(raw, &head) != nil || head.Type != "compaction" {
				continue
			}
			var b compactionBlock
			_ = json.Unmarshal(raw, &b) // the request form checked it
			out = append(out, placedCompaction{i, j, b})
		}
	}
	return out
}

// checkCompaction applies the placement rules, then checks the
// signatures, then the rules of a compaction request.
func (p *msgParams) checkCompaction() *apiError {
	blocks := p.compactionBlocks()
	var summary *placedCompaction
	for i, c := range blocks {
		if p.Messages[c.msg].Role == "system" {
			return invalidCoded(codeCompactionBlockMisplaced, "%s: a compaction block cannot be in a system message", c.path())
		}
		if !c.block.summarizes() {
			continue
		}
		if summary != nil {
			return invalidCoded(codeCompactionBlockAmbiguous, "%s: only the latest compaction block with content may be sent, and %s is a later one",
				summary.path(), c.path())
		}
		summary = &blocks[i]
	}
	if summary != nil && (summary.msg != 0 || summary.idx != 0) {
		return invalidCoded(codeCompactionBlockMisplaced, "%s: a compaction block must be the first block of the conversation", summary.path())
	}
	for _, c := range blocks {
		if err := c.block.verify(c.path()); err != nil {
			return err
		}
	}
	if p.Compaction == nil || p.count { // count_tokens accepts and ignores it
		return nil
	}
	if present(p.ContextManagement) {
		return invalid("compaction: cannot be combined with context_management")
	}
	if _, lines := p.summaryLines(); len(lines) == 0 {
		return invalidCoded(codeCompactionNothingToSummarize, "messages: nothing to summarize after the compaction block")
	}
	return nil
}

// compactionMACs returns the content and tool_changes MACs of a block.
func compactionMACs(content, encrypted *string, toolChanges json.RawMessage) (contentMAC, toolsMAC []byte) {
	mac := hmac.New(sha256.New, compactionKey)
	c, _ := json.Marshal([]*string{content, encrypted})
	mac.Write([]byte("content\x00"))
	mac.Write(c)
	contentMAC = mac.Sum(nil)
	mac.Reset()
	mac.Write([]byte("tool_changes\x00"))
	mac.Write(canonicalJSON(toolChanges))
	return contentMAC, mac.Sum(nil)
}

// sealMAC binds the two MACs, so that the signature itself cannot be
// altered unnoticed.
func sealMAC(contentMAC, toolsMAC []byte) []byte {
	mac := hmac.New(sha256.New, compactionKey)
	mac.Write([]byte("signature\x00"))
	mac.Write(contentMAC)
	mac.Write(toolsMAC)
	return mac.Sum(nil)
}

// canonicalJSON is raw re-encoded with sorted keys and no space; absent and
// null are both "null".
func canonicalJSON(raw json.RawMessage) []byte {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil || v == nil {
		return []byte("null")
	}
	out, _ := json.Marshal(v)
	return out
}

// signCompaction signs a block the fake issues.
func signCompaction(content string, toolChanges json.RawMessage) string {
	c, t := compactionMACs(&content, nil, toolChanges)
	sig := append(append(append(bytes.Clone(compactionMagic), c...), t...), sealMAC(c, t)...)
	return base64.StdEncoding.EncodeToString(sig)
}

// verify checks a block's signature, if it has one.
func (b compactionBlock) verify(path string) *apiError {
	if b.Signature == nil {
		return nil
	}
	raw, err := base64.StdEncoding.DecodeString(*b.Signature)
	rest, ok := bytes.CutPrefix(raw, compactionMagic)
	if err != nil || !ok || len(rest) != 3*sha256.Size {
		return invalidCoded(codeCompactionSignatureInvalid, "%s.signature: Invalid `signature` in `compaction` block", path)
	}
	gotContent, gotTools, seal := rest[:sha256.Size], rest[sha256.Size:2*sha256.Size], rest[2*sha256.Size:]
	if !hmac.Equal(seal, sealMAC(gotContent, gotTools)) {
		return invalidCoded(codeCompactionSignatureInvalid, "%s.signature: Invalid `signature` in `compaction` block", path)
	}
	wantContent, wantTools := compactionMACs(b.Content, b.EncryptedContent, b.ToolChanges)
	if !hmac.Equal(gotContent, wantContent) {
		return invalidCoded(codeCompactionContentMismatch, "%s.content: the compaction block's content does not match its signature: send the block back unchanged", path)
	}
	if !hmac.Equal(gotTools, wantTools) {
		return invalidCoded(codeCompactionToolChangesMismatch, "%s.tool_changes: the compaction block's tool_changes do not match its signature: send them back unchanged", path)
	}
	return nil
}

// summaryLines are what the summary of the conversation is made of: the
// summary of a leading compaction block, and a line for the text of each
// message.
func (p *msgParams) summaryLines() (earlier string, lines []string) {
	for i, m := range p.Messages {
		blocks, _ := contentBlocks(m.Content)
		var texts []string
		for j, b := range blocks {
			switch {
			case b.Type == "text":
				texts = append(texts, b.Text)
			case b.Type == "tool_result":
				texts = append(texts, resultText(b.Content))
			case b.Type == "compaction" && i == 0 && j == 0:
				var c compactionBlock
				if raws := rawBlocks(m.Content); len(raws) > 0 && json.Unmarshal(raws[0], &c) == nil && c.Content != nil {
					earlier = clip(*c.Content, 200)
				}
			}
		}
		if t := strings.TrimSpace(strings.Join(texts, " ")); t != "" {
			lines = append(lines, m.Role+": "+clip(t, 80))
		}
	}
	return earlier, lines
}

// rawBlocks splits an array content into its blocks (nil for a string).
func rawBlocks(content json.RawMessage) []json.RawMessage {
	var raws []json.RawMessage
	_ = json.Unmarshal(content, &raws)
	return raws
}

// toolChanges collects the tool changes of the conversation, in order: a
// leading compaction block's, then every tool_addition and tool_removal
// block. Never nil: the fake always computes them.
func (p *msgParams) toolChanges() []json.RawMessage {
	out := []json.RawMessage{}
	for i, m := range p.Messages {
		for j, raw := range rawBlocks(m.Content) {
			var head struct {
				Type        string            `json:"type"`
				ToolChanges []json.RawMessage `json:"tool_changes"`
			}
			_ = json.Unmarshal(raw, &head)
			switch {
			case head.Type == "compaction" && i == 0 && j == 0:
				out = append(out, head.ToolChanges...)
			case head.Type == "tool_addition" || head.Type == "tool_removal":
				out = append(out, raw)
			}
		}
	}
	return out
}

// compactionReply is the reply to a compaction request.
func (s *Server) compactionReply(p *msgParams) reply {
	earlier, lines := p.summaryLines()
	if earlier != "" {
		lines = append([]string{"Earlier: " + earlier}, lines...)
	}
	summary := fmt.Sprintf("Summary of the conversation (%d messages).\n%s", len(p.Messages), strings.Join(lines, "\n"))
	if in := p.Compaction.Instructions; in != nil && strings.TrimSpace(*in) != "" {
		summary += "\nInstructions followed: " + clip(strings.TrimSpace(*in), 200)
	}
	changes := p.toolChanges()
	tc, _ := json.Marshal(changes)
	b := replyBlock{typ: "compaction", text: summary, compact: &compactionMeta{signature: signCompaction(summary, tc), toolChanges: changes}}
	in := inputTokens(p.members)
	return reply{id: s.newID("msg_"), blocks: []replyBlock{b}, stopReason: "compaction",
		iterations: []any{compactionIteration{Type: "compaction", InputTokens: in, OutputTokens: tokenCount(len(summary))}}}
}

// compactionIteration is the usage.iterations entry of a compaction call.
type compactionIteration struct {
	Type                     string    `json:"type"`
	InputTokens              int       `json:"input_tokens"`
	OutputTokens             int       `json:"output_tokens"`
	CacheCreationInputTokens int       `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int       `json:"cache_read_input_tokens"`
	CacheCreation            *struct{} `json:"cache_creation"`
}

// compactionWire is the compaction block of a reply.
type compactionWire struct {
	Type             string            `json:"type"`
	Content          *string           `json:"content"`
	EncryptedContent *string           `json:"encrypted_content"`
	Signature        string            `json:"signature"`
	ToolChanges      []json.RawMessage `json:"tool_changes"`
}

// compactionWire returns the block's JSON form; the initial form, which
// opens it in a stream, has content null (a compaction_delta fills it) and
// already the signature and tool changes.
func (b replyBlock) compactionWire(initial bool) compactionWire {
	w := compactionWire{Type: "compaction", Signature: b.compact.signature, ToolChanges: b.compact.toolChanges}
	if !initial {
		w.Content = &b.text
	}
	return w
}

// compactionDelta is the one delta of a streamed compaction block: the
// whole summary, so that appending (TS) and replacing (Go) agree.
type compactionDelta struct {
	Type             string  `json:"type"`
	Content          string  `json:"content"`
	EncryptedContent *string `json:"encrypted_content"`
}
