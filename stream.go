package mms

// This file holds the events of a streamed message (streaming.md §2, §3):
// the MessageStreamEvent union, the ContentBlockDelta union, and their
// decoder. MessagesService.Stream (messages_stream.go) yields them and
// MessageAccumulator (accumulator.go) folds them into a Message.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/mms-sdk/mms-go/internal/codec"
)

func init() {
	codec.Objects(MessageDeltaFields{}, MessageDeltaUsage{})
	codec.Register(MessageStartEvent{}, codec.Spec{Type: "message_start"})
	codec.Register(ContentBlockStartEvent{}, codec.Spec{Type: "content_block_start"})
	codec.Register(ContentBlockDeltaEvent{}, codec.Spec{Type: "content_block_delta"})
	codec.Register(ContentBlockStopEvent{}, codec.Spec{Type: "content_block_stop"})
	codec.Register(MessageDeltaEvent{}, codec.Spec{Type: "message_delta"})
	codec.Register(MessageStopEvent{}, codec.Spec{Type: "message_stop"})
	codec.Register(PingEvent{}, codec.Spec{Type: "ping"})
	codec.Register(TextDelta{}, codec.Spec{Type: "text_delta"})
	codec.Register(InputJSONDelta{}, codec.Spec{Type: "input_json_delta"})
	codec.Register(ThinkingDelta{}, codec.Spec{Type: "thinking_delta"})
	codec.Register(SignatureDelta{}, codec.Spec{Type: "signature_delta"})
	codec.Register(CitationsDelta{}, codec.Spec{Type: "citations_delta"})
	codec.Register(CompactionDelta{}, codec.Spec{Type: "compaction_delta"})
}

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
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (MessageStartEvent) isMessageStreamEvent() {}

// UnmarshalJSON decodes the event, keeping unknown members in Extra.
func (e *MessageStartEvent) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, e) }

// MarshalJSON writes the event with "type":"message_start" and Extra.
func (e MessageStartEvent) MarshalJSON() ([]byte, error) { return marshalJSON(e) }

// ContentBlockStartEvent is the "content_block_start" event: it opens block
// Index (0, 1, 2 … in order) in its initial form (empty text, thinking and
// signature; tool input {}), or complete for blocks that get no deltas
// (tool results, redacted thinking, fallback …).
type ContentBlockStartEvent struct {
	Index        int          `json:"index"`
	ContentBlock ContentBlock `json:"content_block"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (ContentBlockStartEvent) isMessageStreamEvent() {}

// UnmarshalJSON decodes the event, keeping unknown members in Extra. An
// "index" that is absent or null is an error.
func (e *ContentBlockStartEvent) UnmarshalJSON(data []byte) error {
	type plain ContentBlockStartEvent
	aux := struct {
		*plain
		ContentBlock holder[ContentBlock] `json:"content_block"`
	}{plain: (*plain)(e), ContentBlock: holder[ContentBlock]{decode: contentBlockUnion.Decode}}
	err := decodeObject(data, &aux, &e.Extra)
	e.ContentBlock = aux.ContentBlock.v
	return checkBlockIndex(data, err)
}

// MarshalJSON writes the event with "type":"content_block_start" and Extra.
func (e ContentBlockStartEvent) MarshalJSON() ([]byte, error) { return marshalJSON(e) }

// ContentBlockDeltaEvent is the "content_block_delta" event: a piece of
// block Index.
type ContentBlockDeltaEvent struct {
	Index int               `json:"index"`
	Delta ContentBlockDelta `json:"delta"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (ContentBlockDeltaEvent) isMessageStreamEvent() {}

// UnmarshalJSON decodes the event, keeping unknown members in Extra. An
// "index" that is absent or null is an error.
func (e *ContentBlockDeltaEvent) UnmarshalJSON(data []byte) error {
	v, err := decodeDeltaEvent(data)
	*e = v
	return err
}

// MarshalJSON writes the event with "type":"content_block_delta" and Extra.
func (e ContentBlockDeltaEvent) MarshalJSON() ([]byte, error) { return marshalJSON(e) }

// ContentBlockStopEvent is the "content_block_stop" event: block Index is
// complete.
type ContentBlockStopEvent struct {
	Index int `json:"index"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (ContentBlockStopEvent) isMessageStreamEvent() {}

// UnmarshalJSON decodes the event, keeping unknown members in Extra. An
// "index" that is absent or null is an error.
func (e *ContentBlockStopEvent) UnmarshalJSON(data []byte) error {
	type plain ContentBlockStopEvent
	return checkBlockIndex(data, decodeObject(data, (*plain)(e), &e.Extra))
}

// MarshalJSON writes the event with "type":"content_block_stop" and Extra.
func (e ContentBlockStopEvent) MarshalJSON() ([]byte, error) { return marshalJSON(e) }

// MessageDeltaEvent is the "message_delta" event, near the end of a stream:
// the stop reason and the final usage counters.
type MessageDeltaEvent struct {
	Delta MessageDeltaFields `json:"delta"`
	Usage MessageDeltaUsage  `json:"usage"`
	// ContextManagement reports the context edits applied (beta; nil:
	// absent or null).
	ContextManagement *ContextManagementResponse `json:"context_management,omitzero"`
	// Extra holds members this SDK version does not model, and explicit
	// nulls of the optional members.
	Extra map[string]json.RawMessage `json:"-"`
}

func (MessageDeltaEvent) isMessageStreamEvent() {}

// UnmarshalJSON decodes the event, keeping unknown members in Extra.
func (e *MessageDeltaEvent) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, e) }

// MarshalJSON writes the event with "type":"message_delta" and Extra.
func (e MessageDeltaEvent) MarshalJSON() ([]byte, error) { return marshalJSON(e) }

// MessageDeltaFields is the delta member of a message_delta event: the
// top-level message fields known only at the end.
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
	// Extra holds members this SDK version does not model, and explicit
	// nulls of the optional members.
	Extra map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes the fields, keeping unknown members in Extra.
func (d *MessageDeltaFields) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, d) }

// MarshalJSON writes the fields with Extra.
func (d MessageDeltaFields) MarshalJSON() ([]byte, error) { return marshalJSON(d) }

// MessageDeltaUsage is the usage member of a message_delta event. Every
// counter is a whole-message total, not an increment: the accumulator
// replaces the message's values, never adds (streaming.md §4). The nullable
// members are nil when absent or null (an explicit null is recorded in
// Extra).
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
	// Extra holds members this SDK version does not model, and explicit
	// nulls of the optional members.
	Extra map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes the usage, keeping unknown members in Extra.
func (u *MessageDeltaUsage) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, u) }

// MarshalJSON writes the usage with Extra.
func (u MessageDeltaUsage) MarshalJSON() ([]byte, error) { return marshalJSON(u) }

// MessageStopEvent is the "message_stop" event, the last of a successful
// stream.
type MessageStopEvent struct {
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (MessageStopEvent) isMessageStreamEvent() {}

// UnmarshalJSON decodes the event, keeping unknown members in Extra.
func (e *MessageStopEvent) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, e) }

// MarshalJSON writes the event with "type":"message_stop" and Extra.
func (e MessageStopEvent) MarshalJSON() ([]byte, error) { return marshalJSON(e) }

// PingEvent is the "ping" keep-alive event; it may come at any point.
type PingEvent struct {
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (PingEvent) isMessageStreamEvent() {}

// UnmarshalJSON decodes the event, keeping unknown members in Extra.
func (e *PingEvent) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, e) }

// MarshalJSON writes the event with "type":"ping" and Extra.
func (e PingEvent) MarshalJSON() ([]byte, error) { return marshalJSON(e) }

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
	return appendJSONString(nil, string(e.Data)), nil
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

func decodeContentBlockDelta(data []byte) (ContentBlockDelta, error) {
	typ, err := codec.PeekType(data)
	if err != nil {
		return nil, err
	}
	var d ContentBlockDelta
	switch typ {
	case "text_delta":
		d, err = decodeTextDelta(data)
	case "input_json_delta":
		d, err = decodeInputJSONDelta(data)
	case "thinking_delta":
		d, err = codec.Decode[ThinkingDelta](data)
	case "signature_delta":
		d, err = codec.Decode[SignatureDelta](data)
	case "citations_delta":
		d, err = codec.Decode[CitationsDelta](data)
	case "compaction_delta":
		d, err = codec.Decode[CompactionDelta](data)
	default:
		return unknownOf(typ, data, newUnknownDelta)
	}
	return settle(d, err, typ, data, newUnknownDelta)
}

// TextDelta is a "text_delta": text appended to a text block.
type TextDelta struct {
	Text string `json:"text"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (TextDelta) isContentBlockDelta() {}

// UnmarshalJSON decodes the delta, keeping unknown members in Extra.
func (d *TextDelta) UnmarshalJSON(data []byte) error {
	v, err := decodeTextDelta(data)
	*d = v
	return err
}

func decodeTextDelta(data []byte) (TextDelta, error) {
	if s, ok := scanStringDelta(data, "text"); ok {
		return TextDelta{Text: s}, nil
	}
	type plain TextDelta
	d := new(TextDelta)
	err := decodeObject(data, (*plain)(d), &d.Extra)
	return *d, err
}

// MarshalJSON writes the delta with "type":"text_delta" and Extra.
func (d TextDelta) MarshalJSON() ([]byte, error) { return marshalJSON(d) }

// InputJSONDelta is an "input_json_delta": a fragment of a tool call's
// input (tool_use, server_tool_use, mcp_tool_use). Fragments are not JSON
// on their own; the accumulator parses their concatenation at the block's
// stop. An empty fragment may occur.
type InputJSONDelta struct {
	PartialJSON string `json:"partial_json"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (InputJSONDelta) isContentBlockDelta() {}

// UnmarshalJSON decodes the delta, keeping unknown members in Extra.
func (d *InputJSONDelta) UnmarshalJSON(data []byte) error {
	v, err := decodeInputJSONDelta(data)
	*d = v
	return err
}

func decodeInputJSONDelta(data []byte) (InputJSONDelta, error) {
	if s, ok := scanStringDelta(data, "partial_json"); ok {
		return InputJSONDelta{PartialJSON: s}, nil
	}
	type plain InputJSONDelta
	d := new(InputJSONDelta)
	err := decodeObject(data, (*plain)(d), &d.Extra)
	return *d, err
}

// MarshalJSON writes the delta with "type":"input_json_delta" and Extra.
func (d InputJSONDelta) MarshalJSON() ([]byte, error) { return marshalJSON(d) }

// ThinkingDelta is a "thinking_delta": text appended to a thinking block.
type ThinkingDelta struct {
	Thinking string `json:"thinking"`
	// EstimatedTokens is a coarse per-frame increment, for progress display
	// only, never billable (beta thinking-token-count-2026-05-13; nil:
	// absent or null).
	EstimatedTokens *int `json:"estimated_tokens,omitzero"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (ThinkingDelta) isContentBlockDelta() {}

// UnmarshalJSON decodes the delta, keeping unknown members in Extra.
func (d *ThinkingDelta) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, d) }

// MarshalJSON writes the delta with "type":"thinking_delta" and Extra.
func (d ThinkingDelta) MarshalJSON() ([]byte, error) { return marshalJSON(d) }

// SignatureDelta is a "signature_delta": the signature of a thinking block,
// normally one per block just before its stop.
type SignatureDelta struct {
	Signature string `json:"signature"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (SignatureDelta) isContentBlockDelta() {}

// UnmarshalJSON decodes the delta, keeping unknown members in Extra.
func (d *SignatureDelta) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, d) }

// MarshalJSON writes the delta with "type":"signature_delta" and Extra.
func (d SignatureDelta) MarshalJSON() ([]byte, error) { return marshalJSON(d) }

// CitationsDelta is a "citations_delta": one citation appended to a text
// block's citations.
type CitationsDelta struct {
	Citation Citation `json:"citation"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (CitationsDelta) isContentBlockDelta() {}

// UnmarshalJSON decodes the delta, keeping unknown members in Extra.
func (d *CitationsDelta) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, d) }

// MarshalJSON writes the delta with "type":"citations_delta" and Extra.
func (d CitationsDelta) MarshalJSON() ([]byte, error) { return marshalJSON(d) }

// CompactionDelta is a "compaction_delta" (beta): the content of a
// compaction block. The accumulator replaces both fields, as the official
// Go SDK does.
type CompactionDelta struct {
	// Content is the summary (nil: absent or null).
	Content *string `json:"content,omitzero"`
	// EncryptedContent is the encrypted form (nil: absent or null).
	EncryptedContent *string `json:"encrypted_content,omitzero"`
	// Extra holds members this SDK version does not model, and explicit
	// nulls of the optional members.
	Extra map[string]json.RawMessage `json:"-"`
}

func (CompactionDelta) isContentBlockDelta() {}

// UnmarshalJSON decodes the delta, keeping unknown members in Extra.
func (d *CompactionDelta) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, d) }

// MarshalJSON writes the delta with "type":"compaction_delta" and Extra.
func (d CompactionDelta) MarshalJSON() ([]byte, error) { return marshalJSON(d) }

// UnknownDelta holds a delta type this version cannot name; Raw is written
// back verbatim. The accumulator ignores it.
type UnknownDelta struct {
	Type string
	Raw  json.RawMessage
}

func newUnknownDelta(typ string, raw json.RawMessage) ContentBlockDelta {
	return UnknownDelta{Type: typ, Raw: raw}
}

func (UnknownDelta) isContentBlockDelta() {}

// MarshalJSON returns Raw unchanged.
func (d UnknownDelta) MarshalJSON() ([]byte, error) { return marshalJSON(d) }

// ---------------------------------------------------------------------------
// decoding

// decodeMessageStreamEvent decodes one SSE event of a Messages stream by its
// event name. An unknown name, or a known name whose payload carries another
// "type" or none, gives an UnknownStreamEvent holding a copy of data. An
// "error" event gives a nil event and its *Error. Malformed JSON in a known
// event is an error (this is where stream bytes enter the SDK, so this is
// where they are validated). data may alias a decoder buffer: nothing
// decoded keeps it.
func decodeMessageStreamEvent(name string, data []byte) (MessageStreamEvent, error) {
	switch {
	case name == "error":
		// Fatal whatever its payload says (streaming.md §5.8).
		return nil, streamError(data)
	case !knownStreamEvent(name):
		return UnknownStreamEvent{Name: name, Data: codec.Clone(data)}, nil
	}
	// The one validation pass: the decoders below trust the bytes to be
	// well-formed JSON, as everywhere bytes enter the SDK.
	if !json.Valid(data) {
		return nil, fmt.Errorf("mms: %s event: malformed JSON: %q", name, excerpt(data))
	}
	typ, err := codec.PeekType(data)
	if err != nil || typ != name {
		return UnknownStreamEvent{Name: name, Data: codec.Clone(data)}, nil
	}
	switch name {
	case "content_block_delta":
		e, err := decodeDeltaEvent(data)
		if err != nil {
			return nil, fmt.Errorf("mms: decoding a %s event: %w", name, err)
		}
		return e, nil
	case "message_start":
		return decodeEvent[MessageStartEvent](name, data)
	case "content_block_start":
		return decodeEvent[ContentBlockStartEvent](name, data)
	case "content_block_stop":
		return decodeEvent[ContentBlockStopEvent](name, data)
	case "message_delta":
		return decodeEvent[MessageDeltaEvent](name, data)
	case "message_stop":
		return decodeEvent[MessageStopEvent](name, data)
	}
	return decodeEvent[PingEvent](name, data)
}

func knownStreamEvent(name string) bool {
	switch name {
	case "message_start", "content_block_start", "content_block_delta", "content_block_stop",
		"message_delta", "message_stop", "ping":
		return true
	}
	return false
}

// decodeEvent decodes a known event type T; *T must decode itself.
func decodeEvent[T MessageStreamEvent](name string, data []byte) (MessageStreamEvent, error) {
	v, err := codec.Decode[T](data)
	if err != nil {
		return nil, fmt.Errorf("mms: decoding a %s event: %w", name, err)
	}
	return v, nil
}

// streamError builds the *Error of an "error" event: status 200, type and
// message from the payload (an excerpt when it is not the standard shape),
// request id from the payload (Stream fills in the response's request-id
// when the payload has none).
func streamError(data []byte) *Error {
	return newAPIError(200, nil, bytes.Clone(data), 0)
}

// decodeDeltaEvent is the hot path of a stream: most events are
// content_block_delta events carrying text or tool input. It reads the
// members with the codec's scanner instead of reflection, into values that
// stay on the stack. Anything but the plain shape (a member it does not
// model, an index that is absent or not a small integer, no delta,
// malformed JSON) goes through the generic decoder, so on valid JSON the
// result is the same (FuzzDeltaEventFastPath checks it).
func decodeDeltaEvent(data []byte) (ContentBlockDeltaEvent, error) {
	index, hasIndex, slow := 0, false, false
	var delta []byte
	err := codec.EachMember(data, func(key string, value []byte) error {
		switch key {
		case "type":
			return nil
		case "index":
			n, ok := parseSmallInt(value)
			if ok {
				index, hasIndex = n, true
				return nil
			}
		case "delta":
			delta = value
			return nil
		}
		slow = true
		return errStopScan
	})
	if err != nil || slow || !hasIndex || delta == nil || isJSONNull(delta) {
		return decodeDeltaEventSlow(data)
	}
	d, err := decodeContentBlockDelta(delta)
	if err != nil {
		return ContentBlockDeltaEvent{}, err
	}
	return ContentBlockDeltaEvent{Index: index, Delta: d}, nil
}

// decodeDeltaEventSlow is the generic decoder of a content_block_delta
// event.
func decodeDeltaEventSlow(data []byte) (ContentBlockDeltaEvent, error) {
	type plain ContentBlockDeltaEvent
	e := new(ContentBlockDeltaEvent)
	aux := struct {
		*plain
		Delta holder[ContentBlockDelta] `json:"delta"`
	}{plain: (*plain)(e), Delta: holder[ContentBlockDelta]{decode: decodeContentBlockDelta}}
	err := decodeObject(data, &aux, &e.Extra)
	e.Delta = aux.Delta.v
	return *e, checkBlockIndex(data, err)
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
			seen, null = true, null || isJSONNull(value)
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

// errStopScan ends a member walk early inside this file.
var errStopScan = errors.New("mms: stop scan")

// parseSmallInt parses a non-negative JSON integer of at most 9 digits.
func parseSmallInt(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 9 || (len(b) > 1 && b[0] == '0') {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// scanStringDelta reads a delta object with one string member (key)
// besides "type": the fast path of text_delta and input_json_delta. ok is
// false for anything else (another member, a value that is not a string,
// malformed JSON): the caller then uses the generic decoder.
func scanStringDelta(data []byte, key string) (s string, ok bool) {
	ok = true
	err := codec.EachMember(data, func(k string, value []byte) error {
		switch k {
		case "type":
			return nil
		case key:
			if v, good := jsonString(value); good {
				s = v
				return nil
			}
		}
		ok = false
		return errStopScan
	})
	return s, ok && err == nil
}

// jsonString decodes a JSON string value; ok is false when value is not a
// well-formed string.
func jsonString(value []byte) (string, bool) {
	if len(value) < 2 || value[0] != '"' || value[len(value)-1] != '"' {
		return "", false
	}
	if inner := value[1 : len(value)-1]; plainJSONString(inner) {
		return string(inner), true
	}
	var s string
	if json.Unmarshal(value, &s) != nil {
		return "", false
	}
	return s, true
}

// plainJSONString reports whether b, the inside of a scanned JSON string,
// decodes to itself: no escapes, no control characters, valid UTF-8.
// Anything else goes through encoding/json (which unescapes, rejects
// control characters and replaces invalid UTF-8).
func plainJSONString(b []byte) bool {
	ascii := true
	for _, c := range b {
		if c < 0x20 || c == '\\' || c == '"' {
			return false
		}
		if c >= 0x80 {
			ascii = false
		}
	}
	return ascii || utf8.Valid(b)
}
