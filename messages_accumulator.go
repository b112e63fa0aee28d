package mms

import (
	"encoding/json"
	"fmt"
	"github.com/mms-sdk/mms-go/internal/codec"
	"maps"
	"slices"
	"strings"
)

// MessageAccumulator folds the events of a streamed message into the
// [Message] a non-streaming call returns. The zero value
// is ready to use; one accumulator serves one stream.
//
//	var acc mms.MessageAccumulator
//	for ev, err := range client.Messages.Stream(ctx, p) {
//		if err != nil {
//			return err
//		}
//		if err := acc.Add(ev); err != nil {
//			return err
//		}
//	}
//	msg := acc.Message()
//
// Add rejects events out of protocol order: anything before message_start,
// a second message_start, a content_block_start whose index is not the next
// block, a delta or stop naming a block that does not exist or is closed,
// anything but a ping or an unknown event after message_stop. A rejected
// event leaves the accumulator as it was, except a tool call whose input is
// not a JSON object at its stop: that block is closed anyway (see below).
//
// message_stop ends the message even while blocks are open: the service
// does that when it cuts a reply in the middle of a block (stop reason
// max_tokens), sending no content_block_stop. The open blocks are closed
// as they are: text and thinking hold what arrived.
//
// A tool call's Input (tool_use, server_tool_use, mcp_tool_use) is set from
// its input_json_delta fragments only when they form a JSON object at the
// block's content_block_stop. Otherwise it keeps what content_block_start
// carried: the complete input when the start already had it and no
// fragment followed, else the initial {} ({} also stands in for an absent
// or null input). So Input is never invalid JSON or a guess. A call whose
// input did not complete (cut by message_stop, or fragments that are not a
// JSON object) is the one [MessageAccumulator.PartialToolInput] reports ok
// for after the stream, with the raw fragment text.
//
// Text, thinking, signatures and tool input are collected in per-block
// buffers and turned into block values at the block's stop or when
// [MessageAccumulator.Message] is called, so Add costs the same for the
// first and the ten-thousandth delta.
type MessageAccumulator struct {
	msg     Message
	state   accState
	blocks  []*accBlock // parallel to msg.Content; pointers, as a strings.Builder must not be copied
	pending int         // blocks with buffered changes not yet in msg.Content
}

type accState uint8

const (
	accEmpty   accState = iota // no message_start yet
	accStarted                 // between message_start and message_stop
	accStopped                 // message_stop seen
)

// blockKind is what deltas a block takes.
type blockKind uint8

const (
	kindOther blockKind = iota
	kindText
	kindThinking
	kindToolUse
	kindServerToolUse
	kindMCPToolUse
	kindCompaction
)

func (k blockKind) takesInput() bool {
	return k == kindToolUse || k == kindServerToolUse || k == kindMCPToolUse
}

// accBlock is the accumulation state of one block.
type accBlock struct {
	kind    blockKind
	open    bool
	changed bool // buffers hold changes not yet in msg.Content

	text      strings.Builder // text, or thinking
	signature strings.Builder // thinking
	citations Citations       // text: initial citations plus citations_delta
	citedSet  bool            // a citations_delta arrived

	input       []byte // tool input fragments
	gotFragment bool   // a non-empty input fragment arrived
	unfinished  bool   // closed without a complete input: not a JSON object at the stop, or cut by message_stop

	compaction *CompactionDelta // the last compaction_delta
}

// Add applies one event. It returns an error, naming the event and the
// block index, for an event out of protocol order and for a tool call whose
// input is not a JSON object at its stop. [PingEvent] and
// [UnknownStreamEvent] are ignored; so is a delta whose type does not fit
// its block (a text delta on a tool call, say), as the protocol says.
func (a *MessageAccumulator) Add(ev MessageStreamEvent) error {
	switch ev := ev.(type) {
	case PingEvent, UnknownStreamEvent:
		return nil
	case nil:
		return fmt.Errorf("mms: accumulator: nil event")
	case MessageStartEvent:
		if a.state != accEmpty {
			return fmt.Errorf("mms: accumulator: second message_start (message %s already started)", a.msg.ID)
		}
		a.start(ev.Message)
		return nil
	}
	switch a.state {
	case accEmpty:
		return fmt.Errorf("mms: accumulator: %s before message_start", eventName(ev))
	case accStopped:
		return fmt.Errorf("mms: accumulator: %s after message_stop", eventName(ev))
	}
	switch ev := ev.(type) {
	case ContentBlockStartEvent:
		return a.startBlock(ev)
	case ContentBlockDeltaEvent:
		b, err := a.openBlock("content_block_delta", ev.Index)
		if err != nil {
			return err
		}
		return a.applyDelta(b, ev.Index, ev.Delta)
	case ContentBlockStopEvent:
		b, err := a.openBlock("content_block_stop", ev.Index)
		if err != nil {
			return err
		}
		return a.stopBlock(b, ev.Index)
	case MessageDeltaEvent:
		a.applyMessageDelta(ev)
	case MessageStopEvent:
		a.closeOpenBlocks()
		a.state = accStopped
	}
	return nil
}

// Message returns the message accumulated so far: after message_stop, the
// final message, identical in shape to a non-streaming reply; before, a
// snapshot with the blocks as far as they got (a tool call still open
// holds its initial input, see [MessageAccumulator.PartialToolInput]). It is
// nil before message_start. The returned Message and its Content slice are
// the caller's; the values inside are shared with the accumulator and must
// not be modified while it is in use.
func (a *MessageAccumulator) Message() *Message {
	if a.state == accEmpty {
		return nil
	}
	if a.pending > 0 {
		for i, b := range a.blocks {
			if b.changed {
				a.materialize(i)
			}
		}
	}
	m := a.msg
	m.Content = slices.Clone(a.msg.Content)
	return &m
}

// Done reports whether message_stop was added: the message is complete.
func (a *MessageAccumulator) Done() bool { return a.state == accStopped }

// PartialToolInput returns the raw input_json_delta text of the tool call
// (tool_use, server_tool_use or mcp_tool_use) at index when its input did
// not complete: the block is still open (the stream is in progress, or
// broke off mid-call), message_stop closed it before its
// content_block_stop (a reply cut by max_tokens), or its input was not a
// JSON object at its stop. The text is what arrived, usually not valid
// JSON; "" when no fragment came. Such a block's Input keeps what its
// content_block_start carried (normally {}). ok is false for any other
// block, including a tool call whose input completed (read it from the
// block's Input).
func (a *MessageAccumulator) PartialToolInput(index int) (input string, ok bool) {
	if index < 0 || index >= len(a.blocks) {
		return "", false
	}
	b := a.blocks[index]
	if !b.kind.takesInput() || (!b.open && !b.unfinished) {
		return "", false
	}
	return string(b.input), true
}

// start takes the message_start snapshot. Blocks it already holds count as
// complete.
func (a *MessageAccumulator) start(m Message) {
	a.msg = m
	a.msg.Content = slices.Clone(m.Content)
	if a.msg.Content == nil {
		a.msg.Content = ContentBlocks{}
	}
	a.blocks = make([]*accBlock, len(a.msg.Content), len(a.msg.Content)+4)
	for i := range a.blocks {
		a.blocks[i] = &accBlock{}
	}
	a.state = accStarted
}

func (a *MessageAccumulator) startBlock(ev ContentBlockStartEvent) error {
	if ev.Index != len(a.blocks) {
		return fmt.Errorf("mms: accumulator: content_block_start for index %d, want index %d (the next block)", ev.Index, len(a.blocks))
	}
	if ev.ContentBlock == nil {
		return fmt.Errorf("mms: accumulator: content_block_start for index %d has no content_block", ev.Index)
	}
	b := &accBlock{open: true}
	a.blocks = append(a.blocks, b)
	a.msg.Content = append(a.msg.Content, ev.ContentBlock)
	switch cb := ev.ContentBlock.(type) {
	case TextBlock:
		b.kind = kindText
		b.text.WriteString(cb.Text)
		b.citations = slices.Clip(cb.Citations)
	case ThinkingBlock:
		b.kind = kindThinking
		b.text.WriteString(cb.Thinking)
		b.signature.WriteString(cb.Signature)
	case ToolUseBlock:
		b.kind = kindToolUse
	case ServerToolUseBlock:
		b.kind = kindServerToolUse
	case MCPToolUseBlock:
		b.kind = kindMCPToolUse
	case CompactionBlock:
		b.kind = kindCompaction
	case FallbackBlock:
		if cb.To.Model != "" {
			a.msg.Model = cb.To.Model
		}
	}
	if in := toolInput(ev.ContentBlock); b.kind.takesInput() && (len(in) == 0 || codec.IsNull(in)) {
		// No input yet: {}, the value a call without fragments ends with.
		a.setInput(ev.Index, json.RawMessage(`{}`))
	}
	return nil
}

// openBlock returns the open block at index, or an error naming it.
func (a *MessageAccumulator) openBlock(event string, index int) (*accBlock, error) {
	if index < 0 || index >= len(a.blocks) {
		return nil, fmt.Errorf("mms: accumulator: %s for index %d, which was never started (%d blocks)", event, index, len(a.blocks))
	}
	b := a.blocks[index]
	if !b.open {
		return nil, fmt.Errorf("mms: accumulator: %s for index %d, which is already stopped", event, index)
	}
	return b, nil
}

func (a *MessageAccumulator) applyDelta(b *accBlock, index int, d ContentBlockDelta) error {
	switch d := d.(type) {
	case nil:
		return fmt.Errorf("mms: accumulator: content_block_delta for index %d has no delta", index)
	case TextDelta:
		if b.kind == kindText {
			b.text.WriteString(d.Text)
			a.touch(b)
		}
	case InputJSONDelta:
		if b.kind.takesInput() && d.PartialJSON != "" {
			b.input = append(b.input, d.PartialJSON...)
			b.gotFragment = true
		}
	case ThinkingDelta:
		if b.kind == kindThinking {
			b.text.WriteString(d.Thinking)
			a.touch(b)
		}
	case SignatureDelta:
		if b.kind == kindThinking {
			b.signature.WriteString(d.Signature)
			a.touch(b)
		}
	case CitationsDelta:
		if b.kind == kindText && d.Citation != nil {
			b.citations = append(b.citations, d.Citation)
			b.citedSet = true
			a.touch(b)
		}
	case CompactionDelta:
		if b.kind == kindCompaction {
			b.compaction = &d
			a.touch(b)
		}
	}
	return nil
}

func (a *MessageAccumulator) touch(b *accBlock) {
	if !b.changed {
		b.changed = true
		a.pending++
	}
}

// stopBlock closes block index at its content_block_stop. A tool call's
// fragments become its Input when they form a JSON object; without
// fragments the Input stays what content_block_start carried (the streaming reference
// says {}; a start that already holds the whole input, as for calls made
// by code execution, is kept rather than overwritten).
func (a *MessageAccumulator) stopBlock(b *accBlock, index int) error {
	b.open = false
	if b.kind.takesInput() {
		if !b.gotFragment {
			return nil
		}
		if !codec.IsObject(b.input) || !json.Valid(b.input) {
			b.unfinished = true
			return fmt.Errorf("mms: accumulator: the input of the tool call at index %d is not a JSON object: %.200q", index, b.input)
		}
		a.setInput(index, b.input)
		b.input = nil
		return nil
	}
	if b.changed {
		a.materialize(index)
	}
	return nil
}

// closeOpenBlocks closes the blocks message_stop finds open (a reply cut
// mid-block). Their buffers are written out as they are; a tool call keeps
// its start input and its fragments stay readable with PartialToolInput.
func (a *MessageAccumulator) closeOpenBlocks() {
	for i, b := range a.blocks {
		if !b.open {
			continue
		}
		b.open = false
		b.unfinished = b.kind.takesInput()
		if b.changed {
			a.materialize(i)
		}
	}
}

// toolInput returns the Input of a tool-call block (nil for other blocks).
func toolInput(cb ContentBlock) json.RawMessage {
	switch cb := cb.(type) {
	case ToolUseBlock:
		return cb.Input
	case ServerToolUseBlock:
		return cb.Input
	case MCPToolUseBlock:
		return cb.Input
	}
	return nil
}

// setInput stores a tool call's input in its block.
func (a *MessageAccumulator) setInput(index int, input json.RawMessage) {
	switch cb := a.msg.Content[index].(type) {
	case ToolUseBlock:
		cb.Input = input
		a.msg.Content[index] = cb
	case ServerToolUseBlock:
		cb.Input = input
		a.msg.Content[index] = cb
	case MCPToolUseBlock:
		cb.Input = input
		a.msg.Content[index] = cb
	}
}

// materialize writes block index's buffers into msg.Content. The strings
// share the builders' memory, so this copies no text.
func (a *MessageAccumulator) materialize(index int) {
	b := a.blocks[index]
	switch cb := a.msg.Content[index].(type) {
	case TextBlock:
		cb.Text = b.text.String()
		if b.citedSet {
			cb.Citations = slices.Clip(b.citations)
			cb.Extra = withoutKey(cb.Extra, "citations")
		}
		a.msg.Content[index] = cb
	case ThinkingBlock:
		cb.Thinking, cb.Signature = b.text.String(), b.signature.String()
		a.msg.Content[index] = cb
	case CompactionBlock:
		if d := b.compaction; d != nil {
			cb.Content, cb.EncryptedContent = d.Content, d.EncryptedContent
			cb.Extra = nullMemoryFrom(cb.Extra, "content", d.Content != nil, d.Extra)
			cb.Extra = nullMemoryFrom(cb.Extra, "encrypted_content", d.EncryptedContent != nil, d.Extra)
			if d.Signature != nil || hasKey(d.Extra, "signature") {
				cb.Signature = d.Signature
				cb.Extra = nullMemoryFrom(cb.Extra, "signature", d.Signature != nil, d.Extra)
			}
			if d.ToolChanges != nil || hasKey(d.Extra, "tool_changes") {
				cb.ToolChanges = d.ToolChanges
				cb.Extra = nullMemoryFrom(cb.Extra, "tool_changes", d.ToolChanges != nil, d.Extra)
			}
		}
		a.msg.Content[index] = cb
	}
	b.changed = false
	a.pending--
}

// applyMessageDelta merges a message_delta.
func (a *MessageAccumulator) applyMessageDelta(ev MessageDeltaEvent) {
	m := &a.msg
	d := ev.Delta
	m.StopReason = d.StopReason
	m.StopSequence = clonePtr(d.StopSequence)
	switch {
	case d.StopDetails != nil:
		m.StopDetails = d.StopDetails
		m.Extra = withoutKey(m.Extra, "stop_details")
	case hasKey(d.Extra, "stop_details"): // an explicit null
		m.StopDetails = nil
		m.Extra = setNullMemory(m.Extra, "stop_details", true)
	}
	if d.Container != nil {
		m.Container = d.Container
		m.Extra = withoutKey(m.Extra, "container")
	}
	if ev.ContextManagement != nil {
		m.ContextManagement = ev.ContextManagement
		m.Extra = withoutKey(m.Extra, "context_management")
	}
	if ev.InputTransformations != nil { // after a fallback: replaces message_start's
		m.InputTransformations = ev.InputTransformations
		m.Extra = withoutKey(m.Extra, "input_transformations")
	}

	u, du := &m.Usage, ev.Usage
	u.OutputTokens = du.OutputTokens
	if du.InputTokens != nil {
		u.InputTokens = *du.InputTokens
	}
	if du.CacheCreationInputTokens != nil {
		u.CacheCreationInputTokens = clonePtr(du.CacheCreationInputTokens)
	}
	if du.CacheReadInputTokens != nil {
		u.CacheReadInputTokens = clonePtr(du.CacheReadInputTokens)
	}
	if du.ServerToolUse != nil {
		u.ServerToolUse = du.ServerToolUse
		u.Extra = withoutKey(u.Extra, "server_tool_use")
	}
	if du.OutputTokensDetails != nil {
		u.OutputTokensDetails = du.OutputTokensDetails
		u.Extra = withoutKey(u.Extra, "output_tokens_details")
	}
	// Iterations: replaced whenever the member is present, null included
	// (the Go SDK replaces always, TS when non-null; an absent member keeps
	// the message_start value).
	if du.Iterations != nil {
		u.Iterations = du.Iterations
		u.Extra = withoutKey(u.Extra, "iterations")
	} else if hasKey(du.Extra, "iterations") {
		u.Iterations = nil
		u.Extra = setNullMemory(u.Extra, "iterations", true)
	}
	if du.FallbackCredit != nil {
		u.FallbackCredit = du.FallbackCredit
		u.Extra = withoutKey(u.Extra, "fallback_credit")
	}
}

// eventName is the wire name of an event, for error messages.
func eventName(ev MessageStreamEvent) string {
	switch ev.(type) {
	case MessageStartEvent:
		return "message_start"
	case ContentBlockStartEvent:
		return "content_block_start"
	case ContentBlockDeltaEvent:
		return "content_block_delta"
	case ContentBlockStopEvent:
		return "content_block_stop"
	case MessageDeltaEvent:
		return "message_delta"
	case MessageStopEvent:
		return "message_stop"
	case PingEvent:
		return "ping"
	case UnknownStreamEvent:
		return "unknown event"
	}
	return fmt.Sprintf("%T", ev)
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func hasKey(m map[string]json.RawMessage, key string) bool {
	_, ok := m[key]
	return ok
}

// withoutKey returns m without key, copying m (which may be shared with an
// event the caller holds) only when it has the key.
func withoutKey(m map[string]json.RawMessage, key string) map[string]json.RawMessage {
	if !hasKey(m, key) {
		return m
	}
	m = maps.Clone(m)
	delete(m, key)
	if len(m) == 0 {
		return nil
	}
	return m
}

// nullMemoryFrom updates the null memory of key in extra after a field was
// replaced from a delta: set (a value) forgets it, an explicit null in the
// delta's Extra records it, an absent member leaves it.
func nullMemoryFrom(extra map[string]json.RawMessage, key string, set bool, delta map[string]json.RawMessage) map[string]json.RawMessage {
	switch {
	case set:
		return withoutKey(extra, key)
	case hasKey(delta, key):
		return setNullMemory(extra, key, true)
	}
	return extra
}

// setNullMemory records (null true) or forgets an explicit null of key in
// an Extra map, copying it first.
func setNullMemory(m map[string]json.RawMessage, key string, null bool) map[string]json.RawMessage {
	if !null {
		return withoutKey(m, key)
	}
	if v, ok := m[key]; ok && codec.IsNull(v) {
		return m
	}
	m = maps.Clone(m)
	if m == nil {
		m = make(map[string]json.RawMessage, 1)
	}
	m[key] = json.RawMessage("null")
	return m
}
