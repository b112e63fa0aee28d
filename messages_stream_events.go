package mms

// This file holds the events of a streamed message:
// the MessageStreamEvent union, the ContentBlockDelta union, and their
// decoder. MessagesService.Stream (messages_stream.go) yields them and
// MessageAccumulator (messages_accumulator.go) folds them into a Message.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// messageStreamEventUnion is the table of the stream events. An event is
// named twice, by its SSE event name and its payload's "type";
// decodeMessageStreamEvent takes only events whose two names agree.
var messageStreamEventUnion = codec.NewUnion[MessageStreamEvent]("MessageStreamEvent", unknownEvent{}).
	Add("message_start", MessageStartEvent{}).
	AddSpec("content_block_start", ContentBlockStartEvent{}, blockEvent).
	AddSpec("content_block_delta", ContentBlockDeltaEvent{}, codec.Spec{Decode: decodeDeltaEvent}).
	AddSpec("content_block_stop", ContentBlockStopEvent{}, blockEvent).
	Add("message_delta", MessageDeltaEvent{}).
	Add("message_stop", MessageStopEvent{}).
	Add("ping", PingEvent{})

// blockEvent is the Spec of the events about one content block: an "index"
// that is absent or null is an error (see checkBlockIndex).
var blockEvent = codec.Spec{Decode: func(data []byte, v reflect.Value) error {
	return checkBlockIndex(data, codec.DecodeStruct(data, v))
}}

// decodeDeltaEvent is the Decode of ContentBlockDeltaEvent.
func decodeDeltaEvent(data []byte, v reflect.Value) error {
	e, ok, err := decodeDeltaEventFast(data)
	if !ok {
		return blockEvent.Decode(data, v)
	}
	*v.Addr().Interface().(*ContentBlockDeltaEvent) = e
	return err
}

// decodeDeltaEventFast is the hot path of a stream: most events are deltas
// of text or tool input. It reads the plain shape (type
// "content_block_delta", index and delta once each, index a non-negative
// integer) in one scan, into values that stay on the stack, and a text or
// input_json delta with scanStringDelta; ok is false for anything else,
// which the structural decoder (blockEvent) then reads to the same result
// (FuzzDeltaEventFastPath checks it).
func decodeDeltaEventFast(data []byte) (e ContentBlockDeltaEvent, ok bool, err error) {
	var index, delta []byte
	plain := true
	err = codec.EachMember(data, func(key string, value []byte) error {
		switch {
		case key == "type" && string(value) == `"content_block_delta"`:
			return nil
		case key == "index" && index == nil:
			index = value
			return nil
		case key == "delta" && delta == nil:
			delta = value
			return nil
		}
		plain = false
		return errStopScan
	})
	n, nerr := strconv.Atoi(string(index))
	if err != nil || !plain || nerr != nil || n < 0 || delta == nil || codec.IsNull(delta) {
		return e, false, nil
	}
	e.Index = n
	typ, err := codec.PeekType(delta)
	if err != nil {
		return e, true, fmt.Errorf("delta: %w", err)
	}
	switch typ {
	case "text_delta":
		if s, ok := scanStringDelta(delta, `"text_delta"`, "text"); ok {
			e.Delta = TextDelta{Text: s}
			return e, true, nil
		}
	case "input_json_delta":
		if s, ok := scanStringDelta(delta, `"input_json_delta"`, "partial_json"); ok {
			e.Delta = InputJSONDelta{PartialJSON: s}
			return e, true, nil
		}
	}
	if e.Delta, err = contentBlockDeltaUnion.Decode(delta); err != nil {
		return e, true, fmt.Errorf("delta: %w", err)
	}
	return e, true, nil
}

// scanStringDelta reads a delta object with one string member (key)
// besides "type" (whose JSON must be typ), the bulk of a stream; ok is false
// for anything else (another member, a value that is not a string, no key),
// which the union's structural decoder then reads.
func scanStringDelta(data []byte, typ, key string) (s string, ok bool) {
	ok = true
	seen := false
	err := codec.EachMember(data, func(k string, value []byte) error {
		switch {
		case k == "type" && string(value) == typ:
			return nil
		case k == key:
			if v, err := codec.Unquote(value); err == nil {
				s, seen = v, true
				return nil
			}
		}
		ok = false
		return errStopScan
	})
	return s, ok && seen && err == nil
}

// errStopScan ends a member walk early inside this file.
var errStopScan = errors.New("mms: stop scan")

// contentBlockDeltaUnion is the table of ContentBlockDelta.
var contentBlockDeltaUnion = codec.NewUnion[ContentBlockDelta]("ContentBlockDelta", UnknownDelta{}).
	Add("text_delta", TextDelta{}).
	Add("input_json_delta", InputJSONDelta{}).
	Add("thinking_delta", ThinkingDelta{}).
	Add("signature_delta", SignatureDelta{}).
	Add("citations_delta", CitationsDelta{}).
	Add("compaction_delta", CompactionDelta{})

// A MessageStreamEvent is one server-sent event of a streamed message
// ([MessagesService.Stream]). Variants: [MessageStartEvent],
// [ContentBlockStartEvent], [ContentBlockDeltaEvent],
// [ContentBlockStopEvent], [MessageDeltaEvent], [MessageStopEvent],
// [PingEvent] and [UnknownStreamEvent].
//
// An "error" event is not a variant: the stream yields it as an [*Error]
// and ends. json.Marshal of a decoded event gives back its payload (unknown
// members are kept in Extra).
type MessageStreamEvent interface {
	json.Marshaler
	isMessageStreamEvent()
}

// MessageStartEvent is the "message_start" event, the first of a stream:
// the message with no content yet, a null stop reason and the initial
// usage.
type MessageStartEvent struct {
	Message Message `json:"message"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ContentBlockStartEvent is the "content_block_start" event: it opens block
// Index (0, 1, 2 … in order) in its initial form (empty text, thinking and
// signature; tool input {}), or complete for blocks that get no deltas
// (tool results, redacted thinking, fallback …).
type ContentBlockStartEvent struct {
	Index        int          `json:"index"`
	ContentBlock ContentBlock `json:"content_block"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ContentBlockDeltaEvent is the "content_block_delta" event: a piece of
// block Index.
type ContentBlockDeltaEvent struct {
	Index int               `json:"index"`
	Delta ContentBlockDelta `json:"delta"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ContentBlockStopEvent is the "content_block_stop" event: block Index is
// complete.
type ContentBlockStopEvent struct {
	Index int `json:"index"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// MessageDeltaEvent is the "message_delta" event, near the end of a stream:
// the stop reason and the final usage counters.
type MessageDeltaEvent struct {
	Delta MessageDeltaFields `json:"delta"`
	Usage MessageDeltaUsage  `json:"usage"`
	// ContextManagement reports the context edits applied (beta; nil:
	// absent or null).
	ContextManagement *ContextManagementResponse `json:"context_management,omitzero"`
	// InputTransformations (beta) replaces the message_start value; sent
	// only after a mid-stream server-side fallback (nil: absent).
	InputTransformations []InputTransformation `json:"input_transformations,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// MessageDeltaFields is the delta member of a message_delta event: the
// top-level message fields known only at the end.
//
//mms:json
type MessageDeltaFields struct {
	// StopReason is why generation stopped (empty: null).
	StopReason StopReason `json:"stop_reason"`
	// StopSequence is the custom stop sequence hit (nil: null).
	StopSequence *string `json:"stop_sequence"`
	// StopDetails describes a refusal (nil: absent or null; an explicit
	// null is recorded in Extra).
	StopDetails *StopDetails `json:"stop_details,omitzero"`
	// Container is the code-execution container used (nil: absent or null).
	Container *Container `json:"container,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// MessageDeltaUsage is the usage member of a message_delta event. Every
// counter is a whole-message total, not an increment: the accumulator
// replaces the message's values, never adds. The nullable
// members are nil when absent or null (an explicit null is recorded in
// Extra).
//
//mms:json
type MessageDeltaUsage struct {
	// OutputTokens is the cumulative output token count.
	OutputTokens int  `json:"output_tokens"`
	InputTokens  *int `json:"input_tokens,omitzero"`
	// CacheCreationInputTokens and CacheReadInputTokens are nil when null.
	CacheCreationInputTokens *int                 `json:"cache_creation_input_tokens,omitzero"`
	CacheReadInputTokens     *int                 `json:"cache_read_input_tokens,omitzero"`
	ServerToolUse            *ServerToolUsage     `json:"server_tool_use,omitzero"`
	OutputTokensDetails      *OutputTokensDetails `json:"output_tokens_details,omitzero"`
	// Iterations is the per-sub-inference accounting (beta).
	Iterations IterationUsages `json:"iterations,omitzero"`
	// FallbackCredit reports a fallback credit redemption (beta).
	FallbackCredit *FallbackCreditUsage `json:"fallback_credit,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// MessageStopEvent is the "message_stop" event, the last of a successful
// stream.
type MessageStopEvent struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// PingEvent is the "ping" keep-alive event; it may come at any point.
type PingEvent struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownStreamEvent is an event this SDK version cannot name: an unknown
// SSE event name, or a known name whose payload has another "type" (or
// none). mms-go hands it to the caller rather than dropping it; the
// accumulator ignores it.
type UnknownStreamEvent struct {
	// Name is the SSE event name ("message" when the event had none).
	Name string
	// Data is the event's data, verbatim.
	Data json.RawMessage
}

func (UnknownStreamEvent) isMessageStreamEvent() {}

// MarshalJSON returns Data unchanged when it is JSON, else Data as a JSON
// string (so encoding an event never fails).
func (e UnknownStreamEvent) MarshalJSON() ([]byte, error) {
	if json.Valid(e.Data) {
		return e.Data, nil
	}
	return codec.AppendQuoted(nil, string(e.Data)), nil
}

// ---------------------------------------------------------------------------
// deltas

// A ContentBlockDelta is the delta of a [ContentBlockDeltaEvent]. Variants:
// [TextDelta], [InputJSONDelta], [ThinkingDelta], [SignatureDelta],
// [CitationsDelta], [CompactionDelta] and [UnknownDelta].
type ContentBlockDelta interface {
	json.Marshaler
	isContentBlockDelta()
}

// TextDelta is a "text_delta": text appended to a text block.
type TextDelta struct {
	Text string `json:"text"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// InputJSONDelta is an "input_json_delta": a fragment of a tool call's
// input (tool_use, server_tool_use, mcp_tool_use). Fragments are not JSON
// on their own; the accumulator parses their concatenation at the block's
// stop. An empty fragment may occur.
type InputJSONDelta struct {
	PartialJSON string `json:"partial_json"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ThinkingDelta is a "thinking_delta": text appended to a thinking block.
type ThinkingDelta struct {
	Thinking string `json:"thinking"`
	// EstimatedTokens is a coarse per-frame increment, for progress display
	// only, never billable (beta thinking-token-count-2026-05-13; nil:
	// absent or null).
	EstimatedTokens *int `json:"estimated_tokens,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SignatureDelta is a "signature_delta": the signature of a thinking block,
// normally one per block just before its stop.
type SignatureDelta struct {
	Signature string `json:"signature"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CitationsDelta is a "citations_delta": one citation appended to a text
// block's citations.
type CitationsDelta struct {
	Citation Citation `json:"citation"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CompactionDelta is a "compaction_delta" (beta): the content of a
// compaction block. The accumulator replaces both fields, as the official
// Go SDK does.
type CompactionDelta struct {
	// Content is the summary (nil: absent or null).
	Content *string `json:"content,omitzero"`
	// EncryptedContent is the encrypted form (nil: absent or null).
	EncryptedContent *string `json:"encrypted_content,omitzero"`
	// Signature and ToolChanges are not documented delta members (the
	// service sends them in content_block_start); when a delta carries
	// them, they replace the block's.
	Signature   *string       `json:"signature,omitzero"`
	ToolChanges ContentBlocks `json:"tool_changes,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownDelta holds a delta type this version cannot name; Raw is written
// back verbatim. The accumulator ignores it.
type UnknownDelta struct {
	Type string
	Raw  json.RawMessage
}

// ---------------------------------------------------------------------------
// decoding

// unknownEvent is the Unknown variant of the events table.
// decodeMessageStreamEvent hands it on as an UnknownStreamEvent, which also
// keeps the SSE event name.
type unknownEvent struct {
	Type string
	Raw  json.RawMessage
}

// decodeMessageStreamEvent decodes one SSE event of a Messages stream by its
// event name. An unknown name, or a known name whose payload carries another
// "type" or none, gives an UnknownStreamEvent holding a copy of data. An
// "error" event gives a nil event and its *Error. Malformed JSON in a known
// event is an error (this is where stream bytes enter the SDK, so this is
// where they are validated). data may alias a decoder buffer: nothing
// decoded keeps it.
func decodeMessageStreamEvent(name string, data []byte) (MessageStreamEvent, error) {
	if name == "error" {
		// Fatal whatever its payload says.
		return nil, streamError(data)
	}
	if _, known := messageStreamEventUnion.Types()[name]; !known {
		return UnknownStreamEvent{Name: name, Data: codec.Clone(data)}, nil
	}
	// The one validation pass: the decoders below trust the bytes to be
	// well-formed JSON, as everywhere bytes enter the SDK.
	if !json.Valid(data) {
		return nil, fmt.Errorf("mms: %s event: malformed JSON: %q", name, excerpt(data))
	}
	if typ, err := codec.PeekType(data); err != nil || typ != name {
		return UnknownStreamEvent{Name: name, Data: codec.Clone(data)}, nil
	}
	if name == "content_block_delta" { // the hot path, without reflection
		if e, ok, err := decodeDeltaEventFast(data); ok {
			if err != nil {
				return nil, fmt.Errorf("mms: decoding a %s event: %w", name, err)
			}
			return e, nil
		}
	}
	ev, err := messageStreamEventUnion.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("mms: decoding a %s event: %w", name, err)
	}
	if u, ok := ev.(unknownEvent); ok { // a nested value of another type
		return UnknownStreamEvent{Name: name, Data: u.Raw}, nil
	}
	return ev, nil
}

// streamError builds the *Error of an "error" event: status 200, type and
// message from the payload (an excerpt when it is not the standard shape),
// request id from the payload (Stream fills in the response's request-id
// when the payload has none).
func streamError(data []byte) *Error {
	return newAPIError(200, nil, bytes.Clone(data), 0)
}

// checkBlockIndex returns err, or when it is nil an error if the block
// event in data has no "index" member or a null one. Decoded as an int
// either would be block 0, and a piece of one block would land in another.
func checkBlockIndex(data []byte, err error) error {
	if err != nil {
		return err
	}
	seen, null := false, false
	err = codec.EachMember(data, func(key string, value []byte) error {
		if key == "index" { // a repeated member does not hide a null
			seen, null = true, null || codec.IsNull(value)
		}
		return nil
	})
	switch {
	case err != nil:
		return err
	case !seen:
		return errors.New(`member "index" is absent, want the index of a content block`)
	case null:
		return errors.New(`member "index" is null, want the index of a content block`)
	}
	return nil
}
