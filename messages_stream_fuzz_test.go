package mms

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/fixtures"
	"github.com/mms-sdk/mms-go/internal/sse"

	"github.com/stretchr/testify/require"
)

var streamEventSeeds = [][2]string{
	{"message_start", `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}`},
	{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":"","citations":null}}`},
	{"content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"f","input":{},"caller":{"type":"direct"}}}`},
	{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi \u00e9 \"x\""}}`},
	{"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"q\": "}}`},
	{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"t","estimated_tokens":null}}`},
	{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","cited_text":"c","url":"u","title":null,"encrypted_index":"e"}}}`},
	{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"compaction_delta","content":null}}`},
	{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"future_delta","x":1}}`},
	{"content_block_delta", `{"type":"content_block_delta","Index":"1","delta":{"type":"text_delta","Text":"a","text":null},"x":[]}`},
	{"content_block_stop", `{"type":"content_block_stop","index":0}`},
	{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null,"stop_details":null},"usage":{"output_tokens":3,"input_tokens":null,"iterations":[{"type":"x"}]}}`},
	{"message_stop", `{"type":"message_stop"}`},
	{"ping", `{"type": "ping"}`},
	{"error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`},
	{"future_event", `{"type":"future_event","a":[1,{"b":null}]}`},
	{"message", `not json`},
}

// FuzzMessageStreamEvent checks the event decoder on arbitrary names and
// payloads: no panic; valid JSON gives an event or an error, never both or
// neither; an unknown event (or delta) gives back its input exactly; a known
// event encodes, decodes again and encodes to the same JSON (a fixed
// point); the data buffer may be overwritten after decoding.
func FuzzMessageStreamEvent(f *testing.F) {
	for _, s := range streamEventSeeds {
		f.Add(s[0], []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		buf := bytes.Clone(data)
		ev, err := decodeMessageStreamEvent(name, buf)
		if name == "error" {
			var apiErr *Error
			if ev != nil || !errors.As(err, &apiErr) || apiErr.StatusCode != 200 || !bytes.Equal(apiErr.Body, data) {
				t.Fatalf("error event: %v, %v", ev, err)
			}
			return
		}
		if (ev == nil) == (err == nil) {
			t.Fatalf("decoded %q %q to %v, %v", name, data, ev, err)
		}
		if err != nil {
			return
		}
		for i := range buf {
			buf[i] = 0
		}
		enc, err := json.Marshal(ev)
		if err != nil {
			t.Fatalf("json.Marshal of %#v: %v", ev, err)
		}
		if u, ok := ev.(UnknownStreamEvent); ok {
			raw, err := u.MarshalJSON()
			if err != nil || u.Name != name || !bytes.Equal(u.Data, data) || (json.Valid(data) && !bytes.Equal(raw, data)) {
				t.Fatalf("unknown event %q %q re-encodes %s, %v", name, u.Data, raw, err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("malformed JSON %q decoded to %#v", data, ev)
		}
		if d, ok := ev.(ContentBlockDeltaEvent); ok {
			if u, ok := d.Delta.(UnknownDelta); ok && !bytes.Contains(data, u.Raw) {
				t.Fatalf("unknown delta %s is not in the input %s", u.Raw, data)
			}
		}
		ev2, err := decodeMessageStreamEvent(name, enc)
		if err != nil {
			t.Fatalf("re-decode of %s: %v", enc, err)
		}
		enc2, err := json.Marshal(ev2)
		require.NoError(t, err)
		if diff := cmp.Diff(streamJSON(t, enc), streamJSON(t, enc2)); diff != "" {
			t.Fatalf("not a fixed point:\n%s\n%s\n%s", enc, enc2, diff)
		}
	})
}

// decodeDeltaEventSlow is the structural decoder of a content_block_delta
// event, the one the fast path stands in for.
func decodeDeltaEventSlow(data []byte) (ContentBlockDeltaEvent, error) {
	var e ContentBlockDeltaEvent
	err := blockEvent.Decode(data, reflect.ValueOf(&e).Elem())
	return e, err
}

// FuzzDeltaEventFastPath checks that the fast content_block_delta decoder
// gives what the generic one gives, on every valid JSON input it takes.
func FuzzDeltaEventFastPath(f *testing.F) {
	for _, s := range streamEventSeeds {
		if s[0] == "content_block_delta" {
			f.Add([]byte(s[1]))
		}
	}
	f.Add([]byte(`{"type":"content_block_delta","index":7,"delta":{"type":"input_json_delta","partial_json":"\ud83c\udf89 \u0000"}}`))
	f.Add([]byte(`{"index":0,"delta":null}`))
	f.Add([]byte(`{"index":01,"delta":{"type":"text_delta","text":"a","text":"b"}}`))
	f.Add([]byte(`{"type":"","index":0,"delta":{"type":"text_delta","text":"a"}}`))
	f.Add([]byte(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","type":"x","text":"a"}}`))
	f.Add([]byte(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta"}}`)) // no text: the generic decoder keeps it absent
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok, errFast := decodeDeltaEventFast(data)
		if !ok || !json.Valid(data) {
			return
		}
		slow, errSlow := decodeDeltaEventSlow(data)
		if (errFast == nil) != (errSlow == nil) {
			t.Fatalf("%s: fast %v, generic %v", data, errFast, errSlow)
		}
		if errFast == nil && !cmp.Equal(fast, slow) {
			t.Fatalf("%s: fast and generic decoders differ:\n%s", data, cmp.Diff(slow, fast))
		}
	})
}

// FuzzMessageAccumulator feeds arbitrary bytes through the whole pipeline
// of a stream (SSE decoder, event decoder, accumulator), adding every event
// that decodes even after errors: no panic, and every snapshot encodes.
func FuzzMessageAccumulator(f *testing.F) {
	var seed bytes.Buffer
	for _, s := range streamEventSeeds {
		seed.WriteString("event: " + s[0] + "\ndata: " + s[1] + "\n\n")
	}
	f.Add(seed.Bytes())
	f.Add([]byte("event: message_start\ndata: " + sseStart + "\n\nevent: content_block_start\ndata: " + sseBlockStart + "\n\nevent: content_block_delta\ndata: " + sseText(0, "x") + "\n\n"))
	for _, file := range streamFiles(f) { // project fixtures, recorded streams when present
		if b := fixtures.Read(f, file); len(b) < 8<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var acc MessageAccumulator
		dec := sse.NewDecoder(bytes.NewReader(data))
		for range 10_000 {
			sev, err := dec.Next()
			if err != nil {
				if err != io.EOF && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, sse.ErrEventTooLarge) {
					t.Fatalf("sse: %v", err)
				}
				break
			}
			ev, err := decodeMessageStreamEvent(sev.Type, sev.Data)
			if err != nil {
				continue
			}
			acc.Add(ev) // errors are fine; panics are not
		}
		checkAccumulator(t, &acc)
	})
}

// FuzzAccumulatorEvents drives the accumulator with event sequences built
// from the input bytes (every kind of event, valid and invalid indexes,
// every delta on every block kind): no panic, rejected events change
// nothing, and the snapshot always encodes.
func FuzzAccumulatorEvents(f *testing.F) {
	f.Add([]byte{0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 6})
	f.Add([]byte{0, 1, 3, 2, 3, 8, 3, 4, 3, 1, 0, 5, 6, 7})
	f.Fuzz(func(t *testing.T, ops []byte) {
		blocks := []ContentBlock{
			TextBlock{}, ThinkingBlock{}, ToolUseBlock{ID: "t", Name: "f", Input: json.RawMessage(`{}`)},
			ServerToolUseBlock{ID: "srvtoolu_1", Name: "web_search", Input: json.RawMessage(`{}`)},
			MCPToolUseBlock{ID: "m", Name: "n", ServerName: "s", Input: json.RawMessage(`{}`)},
			CompactionBlock{}, RedactedThinkingBlock{Data: "d"},
			FallbackBlock{From: FallbackModel{Model: "a"}, To: FallbackModel{Model: "b"}},
			UnknownContentBlock{Type: "future", Raw: json.RawMessage(`{"type":"future"}`)},
		}
		deltas := []ContentBlockDelta{
			TextDelta{Text: "t"}, InputJSONDelta{PartialJSON: `{"a":`}, InputJSONDelta{PartialJSON: `1}`}, InputJSONDelta{},
			ThinkingDelta{Thinking: "th"}, SignatureDelta{Signature: "s"},
			CitationsDelta{Citation: CharLocationCitation{CitedText: "c"}}, CitationsDelta{},
			CompactionDelta{Content: Ptr("c")}, UnknownDelta{Type: "x", Raw: json.RawMessage(`{"type":"x"}`)}, nil,
		}
		var acc MessageAccumulator
		for i := 0; i+1 < len(ops); i += 2 {
			op, arg := ops[i]%9, int(ops[i+1])
			index := arg%12 - 1
			var ev MessageStreamEvent
			switch op {
			case 0:
				ev = ContentBlockStartEvent{Index: index, ContentBlock: blocks[arg%len(blocks)]}
			case 1, 2, 3:
				ev = ContentBlockDeltaEvent{Index: index % 4, Delta: deltas[arg%len(deltas)]}
			case 4:
				ev = ContentBlockStopEvent{Index: index}
			case 5:
				ev = MessageDeltaEvent{Delta: MessageDeltaFields{StopReason: StopReasonEndTurn}, Usage: MessageDeltaUsage{OutputTokens: arg}}
			case 6:
				ev = MessageStopEvent{}
			case 7:
				ev = MessageStartEvent{Message: Message{ID: "m", Content: ContentBlocks(blocks[:arg%3])}}
			case 8:
				ev = PingEvent{}
			}
			before := snapshotJSON(t, &acc)
			if err := acc.Add(ev); err != nil {
				stop, _ := ev.(ContentBlockStopEvent)
				if after := snapshotJSON(t, &acc); after != before && !strings.Contains(err.Error(), "input of the tool call") {
					t.Fatalf("rejected %T %+v (%v) changed the message:\n%s\n%s", ev, stop, err, before, after)
				}
			}
		}
		checkAccumulator(t, &acc)
	})
}

func snapshotJSON(t *testing.T, acc *MessageAccumulator) string {
	t.Helper()
	m := acc.Message()
	if m == nil {
		return ""
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatalf("snapshot does not encode: %v", err)
	}
	return string(b)
}

// checkAccumulator checks the accumulator's invariants.
func checkAccumulator(t *testing.T, acc *MessageAccumulator) {
	t.Helper()
	snapshotJSON(t, acc)
	m := acc.Message()
	if m == nil {
		return
	}
	for i, b := range m.Content {
		if b == nil || reflect.ValueOf(b).Kind() == reflect.Invalid {
			t.Fatalf("block %d is nil", i)
		}
		in, partial := acc.PartialToolInput(i)
		if partial && acc.Done() && !strings.Contains(blockTypeName(b), "tool_use") {
			t.Fatalf("block %d: partial input %q on a %s", i, in, blockTypeName(b))
		}
	}
}
