package mms

import (
	"fmt"
	"strings"
)

// Compaction requests (beta compact-2026-09-04): the top-level "compaction"
// member, and the rules on where compaction blocks may stand in a
// conversation. The block itself is CompactionBlock (messages_content.go).

// betaCompact is the beta of the compaction request member and of the
// signed compaction block it returns (api-version-2026-10-21 §5.2, inferred).
const betaCompact = "compact-2026-09-04"

// Compaction (beta) makes a Messages call a compaction request: the service
// summarizes the whole conversation and answers with a single signed
// [CompactionBlock] and stop reason [StopReasonCompaction]. Send that block
// first in later requests instead of the messages it summarizes (see
// [FromLatestCompaction]). The beta compact-2026-09-04 is added
// automatically. Create, Stream and batch items refuse it together with
// ContextManagement; CountTokens accepts it and the service ignores it.
//
//mms:json request type=summarize
type Compaction struct {
	// Instructions guide the summary. Empty or only white space means none:
	// the service treats such a value as absent. The SDK sends the value as
	// set ("" is left out) and never rewrites it.
	Instructions string `json:"instructions,omitzero"`
}

// HasInstructions reports whether Instructions holds more than white space,
// that is, whether the service will use it.
func (c Compaction) HasInstructions() bool { return strings.TrimSpace(c.Instructions) != "" }

// compactionBetas adds betaCompact for a compaction request, and for a
// conversation that opens with a compaction block (only the first block of
// the first message may be one that counts, so one look suffices).
func compactionBetas(out []string, c *Compaction, messages []MessageParam) []string {
	if c != nil {
		return appendNew(out, betaCompact)
	}
	if len(messages) > 0 && len(messages[0].Content) > 0 {
		if b, ok := messages[0].Content[0].(CompactionBlock); ok && (b.Signature != nil || b.ToolChanges != nil) {
			return appendNew(out, betaCompact)
		}
	}
	return out
}

// summarizes reports whether a compaction block carries a summary, in
// either form. One without (content null: the summary failed) is a no-op
// for the service.
func (b CompactionBlock) summarizes() bool { return b.Content != nil || b.EncryptedContent != nil }

// checkCompactionPlacement applies the service's placement rules for
// compaction blocks (compaction_block_ambiguous, compaction_block_misplaced):
// at most one block with a summary in the conversation, and only as the
// first block of the first message; none in a system message. Blocks
// without a summary may stand anywhere else.
func checkCompactionPlacement(messages []MessageParam) error {
	found, li, lj := false, 0, 0 // the latest block with a summary
	for i, m := range messages {
		for j, b := range m.Content {
			cb, ok := b.(CompactionBlock)
			if !ok {
				continue
			}
			path := fmt.Sprintf("messages[%d].content[%d]", i, j)
			if m.Role == "system" {
				return invalid(path, "a compaction block must not be in a system message (compaction_block_misplaced)")
			}
			if !cb.summarizes() {
				continue
			}
			if found {
				return invalid(fmt.Sprintf("messages[%d].content[%d]", li, lj),
					"is a compaction block with a summary, but %s is a later one: send only the latest (compaction_block_ambiguous); FromLatestCompaction trims the conversation",
					path)
			}
			found, li, lj = true, i, j
		}
	}
	if found && (li != 0 || lj != 0) {
		return invalid(fmt.Sprintf("messages[%d].content[%d]", li, lj),
			"a compaction block with a summary must be the first block of the first message (compaction_block_misplaced); FromLatestCompaction trims the conversation")
	}
	return nil
}

// FromLatestCompaction returns the conversation as the service wants it
// after a compaction: starting at the latest compaction block that carries
// a summary, which becomes the first block of the first message. The
// blocks and messages before it, which the summary replaces, are left out;
// the message holding it keeps its role and later blocks. Without such a
// block messages is returned as it is. The input is not modified.
func FromLatestCompaction(messages []MessageParam) []MessageParam {
	for i := len(messages) - 1; i >= 0; i-- {
		content := messages[i].Content
		for j := len(content) - 1; j >= 0; j-- {
			if cb, ok := content[j].(CompactionBlock); !ok || !cb.summarizes() {
				continue
			}
			out := make([]MessageParam, 0, len(messages)-i)
			first := messages[i]
			first.Content = content[j:len(content):len(content)]
			first.StringContent = false
			return append(append(out, first), messages[i+1:]...)
		}
	}
	return messages
}

// isToolChangeBlock limits a compaction block's tool_changes to
// tool_addition and tool_removal blocks (and unknown ones, passed on).
func isToolChangeBlock(b ContentBlock) bool {
	switch b.(type) {
	case ToolAdditionBlock, ToolRemovalBlock, UnknownContentBlock:
		return true
	}
	return false
}

// FallbackTriggerTypeRefusal is the only [FallbackTrigger] type known: a
// preceding model refused. Other types pass through unchanged.
const FallbackTriggerTypeRefusal = "refusal"
