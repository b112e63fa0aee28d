package mms

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stretchr/testify/require"
)

// eventsFromSSE decodes a literal event list: alternating names and
// payloads.
func eventsFromSSE(t *testing.T, pairs ...string) []MessageStreamEvent {
	t.Helper()
	var out []MessageStreamEvent
	for i := 0; i < len(pairs); i += 2 {
		ev, err := decodeMessageStreamEvent(pairs[i], []byte(pairs[i+1]))
		if err != nil {
			t.Fatalf("%s: %v", pairs[i], err)
		}
		out = append(out, ev)
	}
	return out
}

// addAll adds events, failing on the first error.
func addAll(t *testing.T, acc *MessageAccumulator, events ...MessageStreamEvent) {
	t.Helper()
	for i, ev := range events {
		if err := acc.Add(ev); err != nil {
			t.Fatalf("event %d (%s): %v", i, eventName(ev), err)
		}
	}
}

func marshalMessage(t *testing.T, m *Message) []byte {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatalf("Message() does not encode: %v", err)
	}
	return b
}

// TestAccumulatorSpecExample is the exchange of streaming.md §6.
func TestAccumulatorSpecExample(t *testing.T) {
	events := eventsFromSSE(t,
		"message_start", `{"type":"message_start","message":{"id":"msg_example01","type":"message","role":"assistant","model":"example-model","content":[],"stop_reason":null,"stop_sequence":null,"stop_details":null,"container":null,"usage":{"input_tokens":57,"output_tokens":2,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":null,"inference_geo":null,"output_tokens_details":null,"server_tool_use":null,"service_tier":"standard"}}}`,
		"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		"ping", `{"type":"ping"}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Checking "}}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"now."}}`,
		"content_block_stop", `{"type":"content_block_stop","index":0}`,
		"content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_example02","name":"lookup_city","input":{},"caller":{"type":"direct"}}}`,
		"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"q\": \"Os"}}`,
		"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"lo\"}"}}`,
		"content_block_stop", `{"type":"content_block_stop","index":1}`,
		"message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null,"stop_details":null,"container":null},"usage":{"output_tokens":31,"input_tokens":null,"cache_creation_input_tokens":null,"cache_read_input_tokens":null,"output_tokens_details":null,"server_tool_use":null}}`,
		"message_stop", `{"type":"message_stop"}`,
	)
	var acc MessageAccumulator
	if acc.Message() != nil {
		t.Error("Message() before message_start is not nil")
	}
	addAll(t, &acc, events...)
	if !acc.Done() {
		t.Error("not done")
	}
	want := `{"id":"msg_example01","type":"message","role":"assistant","model":"example-model",
		"content":[{"type":"text","text":"Checking now."},{"type":"tool_use","id":"toolu_example02","name":"lookup_city","input":{"q":"Oslo"},"caller":{"type":"direct"}}],
		"stop_reason":"tool_use","stop_sequence":null,"stop_details":null,"container":null,
		"usage":{"input_tokens":57,"output_tokens":31,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":null,"inference_geo":null,"output_tokens_details":null,"server_tool_use":null,"service_tier":"standard"}}`
	streamJSONEqual(t, "message", []byte(want), marshalMessage(t, acc.Message()))
	tu := acc.Message().ToolUses()[0]
	var in struct{ Q string }
	if err := tu.UnmarshalInput(&in); err != nil || in.Q != "Oslo" {
		t.Errorf("input %s: %v", tu.Input, err)
	}
}

func TestAccumulatorProtocolErrors(t *testing.T) {
	start := MessageStartEvent{Message: Message{ID: "msg_1", Content: ContentBlocks{}}}
	text := ContentBlockStartEvent{Index: 0, ContentBlock: TextBlock{}}
	delta := func(i int) ContentBlockDeltaEvent {
		return ContentBlockDeltaEvent{Index: i, Delta: TextDelta{Text: "x"}}
	}
	tests := []struct {
		name    string
		before  []MessageStreamEvent
		ev      MessageStreamEvent
		wantErr string
	}{
		{"delta before message_start", nil, delta(0), "content_block_delta before message_start"},
		{"block start before message_start", nil, text, "content_block_start before message_start"},
		{"message_stop before message_start", nil, MessageStopEvent{}, "message_stop before message_start"},
		{"second message_start", []MessageStreamEvent{start}, start, "second message_start"},
		{"message_start after message_stop", []MessageStreamEvent{start, MessageStopEvent{}}, start, "second message_start"},
		{"first block not index 0", []MessageStreamEvent{start}, ContentBlockStartEvent{Index: 1, ContentBlock: TextBlock{}}, "index 1, want index 0"},
		{"block index repeated", []MessageStreamEvent{start, text}, text, "index 0, want index 1"},
		{"block index skipped", []MessageStreamEvent{start, text}, ContentBlockStartEvent{Index: 2, ContentBlock: TextBlock{}}, "index 2, want index 1"},
		{"negative block index", []MessageStreamEvent{start}, ContentBlockStartEvent{Index: -1, ContentBlock: TextBlock{}}, "index -1"},
		{"block without content", []MessageStreamEvent{start}, ContentBlockStartEvent{Index: 0}, "index 0 has no content_block"},
		{"delta for a block never started", []MessageStreamEvent{start, text}, delta(3), "content_block_delta for index 3, which was never started"},
		{"delta for a negative index", []MessageStreamEvent{start, text}, delta(-1), "index -1"},
		{"delta after the block stopped", []MessageStreamEvent{start, text, ContentBlockStopEvent{Index: 0}}, delta(0), "index 0, which is already stopped"},
		{"delta without delta", []MessageStreamEvent{start, text}, ContentBlockDeltaEvent{Index: 0}, "index 0 has no delta"},
		{"stop twice", []MessageStreamEvent{start, text, ContentBlockStopEvent{Index: 0}}, ContentBlockStopEvent{Index: 0}, "content_block_stop for index 0, which is already stopped"},
		{"stop for a block never started", []MessageStreamEvent{start}, ContentBlockStopEvent{Index: 0}, "index 0, which was never started"},
		{"delta after message_stop", []MessageStreamEvent{start, MessageStopEvent{}}, delta(0), "content_block_delta after message_stop"},
		{"message_delta after message_stop", []MessageStreamEvent{start, MessageStopEvent{}}, MessageDeltaEvent{}, "message_delta after message_stop"},
		{"second message_stop", []MessageStreamEvent{start, MessageStopEvent{}}, MessageStopEvent{}, "message_stop after message_stop"},
		{"nil event", []MessageStreamEvent{start}, nil, "nil event"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var acc MessageAccumulator
			addAll(t, &acc, tt.before...)
			before := acc.Message()
			var beforeJSON []byte
			if before != nil {
				beforeJSON = marshalMessage(t, before)
			}
			err := acc.Add(tt.ev)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Add = %v, want an error containing %q", err, tt.wantErr)
			}
			if after := acc.Message(); before != nil && string(marshalMessage(t, after)) != string(beforeJSON) {
				t.Errorf("a rejected event changed the message:\n%s\n%s", beforeJSON, marshalMessage(t, after))
			}
		})
	}
}

// TestAccumulatorIgnores: pings and unknown events anywhere, and deltas
// that do not fit their block, change nothing.
func TestAccumulatorIgnores(t *testing.T) {
	var acc MessageAccumulator
	unknown := UnknownStreamEvent{Name: "x", Data: json.RawMessage(`{}`)}
	addAll(t, &acc, PingEvent{}, unknown,
		MessageStartEvent{Message: Message{ID: "m"}},
		ContentBlockStartEvent{Index: 0, ContentBlock: ToolUseBlock{ID: "t", Name: "f", Input: json.RawMessage(`{}`)}},
		ContentBlockDeltaEvent{Index: 0, Delta: TextDelta{Text: "not for a tool"}},
		ContentBlockDeltaEvent{Index: 0, Delta: ThinkingDelta{Thinking: "no"}},
		ContentBlockDeltaEvent{Index: 0, Delta: UnknownDelta{Type: "z", Raw: json.RawMessage(`{"type":"z"}`)}},
		ContentBlockStopEvent{Index: 0},
		ContentBlockStartEvent{Index: 1, ContentBlock: TextBlock{}},
		ContentBlockDeltaEvent{Index: 1, Delta: InputJSONDelta{PartialJSON: `{"a":1}`}},
		ContentBlockDeltaEvent{Index: 1, Delta: SignatureDelta{Signature: "s"}},
		ContentBlockDeltaEvent{Index: 1, Delta: CompactionDelta{Content: Ptr("c")}},
		ContentBlockDeltaEvent{Index: 1, Delta: TextDelta{Text: "ok"}},
		PingEvent{}, unknown,
		ContentBlockStopEvent{Index: 1},
		ContentBlockStartEvent{Index: 2, ContentBlock: RedactedThinkingBlock{Data: "enc"}},
		ContentBlockDeltaEvent{Index: 2, Delta: ThinkingDelta{Thinking: "no"}},
		ContentBlockStopEvent{Index: 2},
		MessageStopEvent{}, PingEvent{}, unknown,
	)
	want := `{"type":"message","id":"m","role":"","model":"","content":[
		{"type":"tool_use","id":"t","name":"f","input":{}},{"type":"text","text":"ok"},{"type":"redacted_thinking","data":"enc"}],
		"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":null,"cache_read_input_tokens":null,"service_tier":null}}`
	streamJSONEqual(t, "message", []byte(want), marshalMessage(t, acc.Message()))
}

func TestAccumulatorBlocks(t *testing.T) {
	cite := CharLocationCitation{CitedText: "x", DocumentIndex: 0, StartCharIndex: 0, EndCharIndex: 1}
	var acc MessageAccumulator
	addAll(t, &acc,
		// Blocks present at message_start are kept and counted.
		MessageStartEvent{Message: Message{ID: "m", Model: "a", Content: ContentBlocks{TextBlock{Text: "prefilled"}}}},
		ContentBlockStartEvent{Index: 1, ContentBlock: ThinkingBlock{}},
		ContentBlockDeltaEvent{Index: 1, Delta: ThinkingDelta{Thinking: "let me "}},
		ContentBlockDeltaEvent{Index: 1, Delta: ThinkingDelta{Thinking: "think", EstimatedTokens: Ptr(2)}},
		ContentBlockDeltaEvent{Index: 1, Delta: SignatureDelta{Signature: "sig"}},
		ContentBlockDeltaEvent{Index: 1, Delta: SignatureDelta{Signature: "nature"}}, // Go appends
		ContentBlockStopEvent{Index: 1},
		ContentBlockStartEvent{Index: 2, ContentBlock: TextBlock{Text: "Start: "}},
		ContentBlockDeltaEvent{Index: 2, Delta: TextDelta{Text: "cited"}},
		ContentBlockDeltaEvent{Index: 2, Delta: CitationsDelta{Citation: cite}},
		ContentBlockDeltaEvent{Index: 2, Delta: CitationsDelta{Citation: cite}},
		ContentBlockStopEvent{Index: 2},
		ContentBlockStartEvent{Index: 3, ContentBlock: CompactionBlock{Extra: map[string]json.RawMessage{"content": json.RawMessage("null")}}},
		ContentBlockDeltaEvent{Index: 3, Delta: CompactionDelta{Content: Ptr("first"), EncryptedContent: Ptr("e1")}},
		ContentBlockDeltaEvent{Index: 3, Delta: CompactionDelta{Content: Ptr("second")}}, // Go replaces both
		ContentBlockStopEvent{Index: 3},
		ContentBlockStartEvent{Index: 4, ContentBlock: FallbackBlock{From: FallbackModel{Model: "a"}, To: FallbackModel{Model: "b"}}},
		ContentBlockStopEvent{Index: 4},
		ContentBlockStartEvent{Index: 5, ContentBlock: ServerToolUseBlock{ID: "srvtoolu_1", Name: "web_search", Input: json.RawMessage(`{}`)}},
		ContentBlockDeltaEvent{Index: 5, Delta: InputJSONDelta{PartialJSON: ""}},
		ContentBlockDeltaEvent{Index: 5, Delta: InputJSONDelta{PartialJSON: `{"query": `}},
		ContentBlockDeltaEvent{Index: 5, Delta: InputJSONDelta{PartialJSON: `"oslo", "z": 1, "a": 2}`}},
		ContentBlockStopEvent{Index: 5},
		ContentBlockStartEvent{Index: 6, ContentBlock: MCPToolUseBlock{ID: "mcptoolu_1", Name: "n", ServerName: "s", Input: json.RawMessage(`{}`)}},
		ContentBlockStopEvent{Index: 6}, // no fragments: {}
		ContentBlockStartEvent{Index: 7, ContentBlock: ToolUseBlock{ID: "toolu_1", Name: "f", Input: json.RawMessage(`{}`)}},
		ContentBlockDeltaEvent{Index: 7, Delta: InputJSONDelta{PartialJSON: ""}},
		ContentBlockStopEvent{Index: 7}, // only empty fragments: {}
		MessageStopEvent{},
	)
	want := `{"type":"message","id":"m","role":"","model":"b","content":[
		{"type":"text","text":"prefilled"},
		{"type":"thinking","thinking":"let me think","signature":"signature"},
		{"type":"text","text":"Start: cited","citations":[
			{"type":"char_location","cited_text":"x","document_index":0,"document_title":null,"start_char_index":0,"end_char_index":1},
			{"type":"char_location","cited_text":"x","document_index":0,"document_title":null,"start_char_index":0,"end_char_index":1}]},
		{"type":"compaction","content":"second"},
		{"type":"fallback","from":{"model":"a"},"to":{"model":"b"}},
		{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"oslo","z":1,"a":2}},
		{"type":"mcp_tool_use","id":"mcptoolu_1","name":"n","server_name":"s","input":{}},
		{"type":"tool_use","id":"toolu_1","name":"f","input":{}}],
		"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":null,"cache_read_input_tokens":null,"service_tier":null}}`
	got := marshalMessage(t, acc.Message())
	streamJSONEqual(t, "message", []byte(want), got)
	// Tool input is kept byte for byte (key order, spacing).
	if in := acc.Message().Content[5].(ServerToolUseBlock).Input; string(in) != `{"query": "oslo", "z": 1, "a": 2}` {
		t.Errorf("input %s", in)
	}
}

// TestAccumulatorEventsNotModified: accumulating never writes into the
// events (their Extra maps and slices are the caller's).
func TestAccumulatorEventsNotModified(t *testing.T) {
	events := eventsFromSSE(t,
		"message_start", `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],"stop_reason":null,"stop_sequence":null,"stop_details":null,"container":null,"usage":{"input_tokens":1,"output_tokens":1,"server_tool_use":null,"iterations":null,"service_tier":"standard"}}}`,
		"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"compaction","content":null}}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"compaction_delta","content":"c","encrypted_content":null}}`,
		"content_block_stop", `{"type":"content_block_stop","index":0}`,
		"message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null,"stop_details":{"type":"refusal","category":null,"explanation":null},"container":{"id":"c1","expires_at":"x"}},"usage":{"output_tokens":5,"server_tool_use":{"web_search_requests":1},"iterations":[]},"context_management":{"applied_edits":[]}}`,
		"message_stop", `{"type":"message_stop"}`,
	)
	var before []string
	for _, ev := range events {
		b, _ := json.Marshal(ev)
		before = append(before, string(b))
	}
	var acc MessageAccumulator
	addAll(t, &acc, events...)
	acc.Message()
	for i, ev := range events {
		if b, _ := json.Marshal(ev); string(b) != before[i] {
			t.Errorf("event %d changed:\n%s\n%s", i, before[i], b)
		}
	}
	want := `{"id":"m","type":"message","role":"assistant","model":"x","content":[{"type":"compaction","content":"c","encrypted_content":null}],
		"stop_reason":"end_turn","stop_sequence":null,"stop_details":{"type":"refusal","category":null,"explanation":null},"container":{"id":"c1","expires_at":"x"},
		"context_management":{"applied_edits":[]},
		"usage":{"input_tokens":1,"output_tokens":5,"server_tool_use":{"web_search_requests":1},"iterations":[],"service_tier":"standard"}}`
	streamJSONEqual(t, "message", []byte(want), marshalMessage(t, acc.Message()))
}

// TestAccumulatorMessageDelta checks the merge rules of streaming.md §4.
func TestAccumulatorMessageDelta(t *testing.T) {
	start := `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[],"stop_reason":null,"stop_sequence":null,"stop_details":null,
		"usage":{"input_tokens":10,"output_tokens":1,"cache_creation_input_tokens":3,"cache_read_input_tokens":4,"cache_creation":{"ephemeral_5m_input_tokens":3,"ephemeral_1h_input_tokens":0},
		"server_tool_use":{"web_search_requests":0},"iterations":[{"type":"message","input_tokens":1,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":null}],
		"service_tier":"priority","inference_geo":"eu","speed":"fast"}}}`
	tests := []struct {
		name   string
		deltas []string
		want   string // the expected stop fields and usage, merged over the start
	}{
		{"nulls keep the start values; output replaced", []string{
			`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null,"stop_details":null},"usage":{"output_tokens":31,"input_tokens":null,"cache_creation_input_tokens":null,"cache_read_input_tokens":null,"server_tool_use":null,"output_tokens_details":null,"fallback_credit":null}}`},
			`{"stop_reason":"end_turn","stop_sequence":null,"stop_details":null,"usage":{"input_tokens":10,"output_tokens":31,"cache_creation_input_tokens":3,"cache_read_input_tokens":4,
			"cache_creation":{"ephemeral_5m_input_tokens":3,"ephemeral_1h_input_tokens":0},"server_tool_use":{"web_search_requests":0},
			"iterations":[{"type":"message","input_tokens":1,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":null}],"service_tier":"priority","inference_geo":"eu","speed":"fast"}}`},
		{"values replace, never add", []string{
			`{"type":"message_delta","delta":{"stop_reason":"max_tokens","stop_sequence":null},"usage":{"output_tokens":20,"input_tokens":11,"cache_creation_input_tokens":0,"cache_read_input_tokens":5,"server_tool_use":{"web_search_requests":2},"output_tokens_details":{"thinking_tokens":7},"fallback_credit":{"status":{"type":"redeemed"}},"iterations":[]}}`,
			`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":"STOP"},"usage":{"output_tokens":25}}`},
			`{"stop_reason":"end_turn","stop_sequence":"STOP","stop_details":null,"usage":{"input_tokens":11,"output_tokens":25,"cache_creation_input_tokens":0,"cache_read_input_tokens":5,
			"cache_creation":{"ephemeral_5m_input_tokens":3,"ephemeral_1h_input_tokens":0},"server_tool_use":{"web_search_requests":2},"output_tokens_details":{"thinking_tokens":7},
			"fallback_credit":{"status":{"type":"redeemed"}},"iterations":[],"service_tier":"priority","inference_geo":"eu","speed":"fast"}}`},
		{"iterations null clears; stop_details set; container and context_management kept when null", []string{
			`{"type":"message_delta","delta":{"stop_reason":"refusal","stop_sequence":null,"stop_details":{"type":"refusal","category":"cyber","explanation":"no"},"container":{"id":"c","expires_at":"t"}},"usage":{"output_tokens":2,"iterations":null},"context_management":{"applied_edits":[]}}`,
			`{"type":"message_delta","delta":{"stop_reason":"refusal","stop_sequence":null,"container":null},"usage":{"output_tokens":3},"context_management":null}`},
			`{"stop_reason":"refusal","stop_sequence":null,"stop_details":{"type":"refusal","category":"cyber","explanation":"no"},"container":{"id":"c","expires_at":"t"},"context_management":{"applied_edits":[]},
			"usage":{"input_tokens":10,"output_tokens":3,"cache_creation_input_tokens":3,"cache_read_input_tokens":4,"cache_creation":{"ephemeral_5m_input_tokens":3,"ephemeral_1h_input_tokens":0},
			"server_tool_use":{"web_search_requests":0},"iterations":null,"service_tier":"priority","inference_geo":"eu","speed":"fast"}}`},
		{"stop_details null after a value clears it", []string{
			`{"type":"message_delta","delta":{"stop_reason":"refusal","stop_sequence":null,"stop_details":{"type":"refusal","category":null,"explanation":null}},"usage":{"output_tokens":2}}`,
			`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null,"stop_details":null},"usage":{"output_tokens":2}}`},
			`{"stop_reason":"end_turn","stop_sequence":null,"stop_details":null,"usage":{"input_tokens":10,"output_tokens":2,"cache_creation_input_tokens":3,"cache_read_input_tokens":4,
			"cache_creation":{"ephemeral_5m_input_tokens":3,"ephemeral_1h_input_tokens":0},"server_tool_use":{"web_search_requests":0},
			"iterations":[{"type":"message","input_tokens":1,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":null}],"service_tier":"priority","inference_geo":"eu","speed":"fast"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pairs := []string{"message_start", start}
			for _, d := range tt.deltas {
				pairs = append(pairs, "message_delta", d)
			}
			var acc MessageAccumulator
			addAll(t, &acc, eventsFromSSE(t, append(pairs, "message_stop", `{"type":"message_stop"}`)...)...)
			var got map[string]json.RawMessage
			if err := json.Unmarshal(marshalMessage(t, acc.Message()), &got); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"id", "type", "role", "model", "content"} {
				delete(got, k)
			}
			b, _ := json.Marshal(got)
			streamJSONEqual(t, "merged", []byte(tt.want), b)
		})
	}
}

// TestAccumulatorToolInputErrors: invalid input at the stop is an error
// naming the index, the raw text is kept, and the message still encodes;
// so does a stream that ends mid-call.
func TestAccumulatorToolInputErrors(t *testing.T) {
	for _, bad := range []string{`{"q": "Os`, `[1,2]`, `"x"`, `{"a":1}{`} {
		var acc MessageAccumulator
		addAll(t, &acc,
			MessageStartEvent{Message: Message{ID: "m"}},
			ContentBlockStartEvent{Index: 0, ContentBlock: TextBlock{}},
			ContentBlockStopEvent{Index: 0},
			ContentBlockStartEvent{Index: 1, ContentBlock: ToolUseBlock{ID: "t", Name: "f", Input: json.RawMessage(`{}`)}},
			ContentBlockDeltaEvent{Index: 1, Delta: InputJSONDelta{PartialJSON: bad}},
		)
		if in, ok := acc.PartialToolInput(1); !ok || in != bad {
			t.Errorf("%s: mid-call PartialToolInput = %q, %v", bad, in, ok)
		}
		marshalMessage(t, acc.Message()) // a snapshot mid-call encodes
		err := acc.Add(ContentBlockStopEvent{Index: 1})
		if err == nil || !strings.Contains(err.Error(), "index 1") {
			t.Fatalf("%s: stop = %v, want an error naming index 1", bad, err)
		}
		if in, ok := acc.PartialToolInput(1); !ok || in != bad {
			t.Errorf("%s: PartialToolInput after the stop = %q, %v", bad, in, ok)
		}
		if in := acc.Message().Content[1].(ToolUseBlock).Input; string(in) != `{}` {
			t.Errorf("%s: input %s, want {}", bad, in)
		}
		if _, ok := acc.PartialToolInput(0); ok {
			t.Error("a text block has partial tool input")
		}
		// The block is closed: the stream may go on.
		addAll(t, &acc, ContentBlockStartEvent{Index: 2, ContentBlock: TextBlock{}}, ContentBlockStopEvent{Index: 2}, MessageStopEvent{})
		marshalMessage(t, acc.Message())
	}

	// Complete inputs leave no partial text.
	var acc MessageAccumulator
	addAll(t, &acc,
		MessageStartEvent{Message: Message{ID: "m"}},
		ContentBlockStartEvent{Index: 0, ContentBlock: MCPToolUseBlock{ID: "x", Name: "n", ServerName: "s", Input: json.RawMessage(`{}`)}},
		ContentBlockDeltaEvent{Index: 0, Delta: InputJSONDelta{PartialJSON: `{"ok":true}`}},
		ContentBlockStopEvent{Index: 0},
	)
	if in, ok := acc.PartialToolInput(0); ok {
		t.Errorf("complete input reported partial: %q", in)
	}
	for _, i := range []int{-1, 1, 99} {
		if _, ok := acc.PartialToolInput(i); ok {
			t.Errorf("PartialToolInput(%d) ok", i)
		}
	}
}

// TestAccumulatorMessageIsACopy: the caller may change what Message
// returns without breaking the accumulator; snapshots follow the stream.
func TestAccumulatorMessageIsACopy(t *testing.T) {
	var acc MessageAccumulator
	addAll(t, &acc,
		MessageStartEvent{Message: Message{ID: "m"}},
		ContentBlockStartEvent{Index: 0, ContentBlock: TextBlock{}},
		ContentBlockDeltaEvent{Index: 0, Delta: TextDelta{Text: "a"}},
	)
	snap := acc.Message()
	if snap.Text() != "a" {
		t.Fatalf("snapshot text %q", snap.Text())
	}
	snap.Content = nil
	snap.ID = "changed"
	addAll(t, &acc, ContentBlockDeltaEvent{Index: 0, Delta: TextDelta{Text: "b"}}, ContentBlockStopEvent{Index: 0})
	if m := acc.Message(); m.Text() != "ab" || m.ID != "m" {
		t.Errorf("text %q id %q", m.Text(), m.ID)
	}
}

// TestAccumulatorAddDoesNotCopyText: adding a text delta allocates nothing
// once the buffer has grown, however long the text already is (Add is not
// O(length)), and Message shares the buffer instead of copying it.
func TestAccumulatorAddDoesNotCopyText(t *testing.T) {
	var acc MessageAccumulator
	addAll(t, &acc, MessageStartEvent{Message: Message{ID: "m"}}, ContentBlockStartEvent{Index: 0, ContentBlock: TextBlock{}})
	var ev MessageStreamEvent = ContentBlockDeltaEvent{Index: 0, Delta: TextDelta{Text: strings.Repeat("x", 64)}}
	for range 20_000 { // 1.28 MB of text
		if err := acc.Add(ev); err != nil {
			t.Fatal(err)
		}
	}
	allocs := testing.AllocsPerRun(1000, func() { acc.Add(ev) })
	if allocs > 0.05 {
		t.Errorf("Add allocates %.2f times per text delta", allocs)
	}
	acc.Message()
	allocs = testing.AllocsPerRun(100, func() { acc.Message() })
	if allocs > 4 {
		t.Errorf("Message allocates %.0f times", allocs)
	}
}

// TestAccumulatorText checks the text helper against the fake: the yielded
// pieces are the text deltas, and the final message is complete.
func TestAccumulatorText(t *testing.T) {
	c, _ := streamFake(t)
	p := streamParams("tell me about lookup in Oslo")
	p.Tools = Tools{streamLookupTool}
	p.Thinking = ThinkingConfigAdaptive{}
	var acc MessageAccumulator
	var pieces []string
	for text, err := range acc.Text(c.Messages.Stream(context.Background(), p)) {
		require.NoError(t, err)
		pieces = append(pieces, text)
	}
	m := acc.Message()
	if len(pieces) < 3 || strings.Join(pieces, "") != m.Text() || m.Text() != "You said: tell me about lookup in Oslo" {
		t.Errorf("pieces %q, text %q", pieces, m.Text())
	}
	if !acc.Done() || len(m.ToolUses()) != 1 || m.StopReason != StopReasonToolUse {
		t.Errorf("message %s", marshalMessage(t, m))
	}

	// Errors end the sequence, once; break stops the stream.
	srv2c, srv2 := streamFake(t)
	_ = srv2
	var acc2 MessageAccumulator
	p2 := streamParams("x")
	p2.Model = ""
	var errs []error
	for _, err := range acc2.Text(srv2c.Messages.Stream(context.Background(), p2)) {
		errs = append(errs, err)
	}
	var verr *ValidationError
	if len(errs) != 1 || !errors.As(errs[0], &verr) {
		t.Errorf("errors %v", errs)
	}
	var acc3 MessageAccumulator
	n := 0
	for range acc3.Text(c.Messages.Stream(context.Background(), streamParams("one two three four five"))) {
		n++
		break
	}
	if n != 1 || acc3.Done() {
		t.Errorf("break: %d pieces, done %v", n, acc3.Done())
	}
}

func TestEventName(t *testing.T) {
	for _, ev := range []MessageStreamEvent{MessageStartEvent{}, ContentBlockStartEvent{}, ContentBlockDeltaEvent{}, ContentBlockStopEvent{},
		MessageDeltaEvent{}, MessageStopEvent{}, PingEvent{}} {
		b, err := json.Marshal(ev)
		require.NoError(t, err)
		var v struct{ Type string }
		json.Unmarshal(b, &v)
		if diff := cmp.Diff(v.Type, eventName(ev)); diff != "" {
			t.Errorf("%T: %s", ev, diff)
		}
	}
}

// TestAccumulatorToolInputFromStart: a tool call whose content_block_start
// already carries its input keeps it when no fragment follows (calls made
// by code execution arrive so); fragments, when they come, make the input.
func TestAccumulatorToolInputFromStart(t *testing.T) {
	full := json.RawMessage(`{"url": "https://example.org/a", "n": 1}`)
	blocks := map[string]func(in json.RawMessage) ContentBlock{
		"tool_use": func(in json.RawMessage) ContentBlock { return ToolUseBlock{ID: "toolu_1", Name: "f", Input: in} },
		"server_tool_use": func(in json.RawMessage) ContentBlock {
			return ServerToolUseBlock{ID: "srvtoolu_1", Name: "web_fetch", Input: in}
		},
		"mcp_tool_use": func(in json.RawMessage) ContentBlock {
			return MCPToolUseBlock{ID: "mcptoolu_1", Name: "n", ServerName: "s", Input: in}
		},
	}
	tests := []struct {
		name      string
		start     json.RawMessage
		fragments []string
		want      string
	}{
		{"complete in the start, no fragment", full, nil, string(full)},
		{"complete in the start, only empty fragments", full, []string{"", ""}, string(full)},
		{"fragments replace the start input", full, []string{`{"url": `, `"https://example.org/b"}`}, `{"url": "https://example.org/b"}`},
		{"initial {} and fragments", json.RawMessage(`{}`), []string{`{"q"`, `: "Oslo"}`}, `{"q": "Oslo"}`},
		{"initial {}, no fragment", json.RawMessage(`{}`), nil, `{}`},
		{"no input in the start, no fragment", nil, nil, `{}`},
		{"null input in the start, no fragment", json.RawMessage(`null`), nil, `{}`},
	}
	for typ, mk := range blocks {
		for _, tt := range tests {
			t.Run(typ+"/"+tt.name, func(t *testing.T) {
				var acc MessageAccumulator
				addAll(t, &acc, MessageStartEvent{Message: Message{ID: "m"}}, ContentBlockStartEvent{Index: 0, ContentBlock: mk(tt.start)})
				for _, f := range tt.fragments {
					addAll(t, &acc, ContentBlockDeltaEvent{Index: 0, Delta: InputJSONDelta{PartialJSON: f}})
				}
				addAll(t, &acc, ContentBlockStopEvent{Index: 0}, MessageStopEvent{})
				if got := string(toolInput(acc.Message().Content[0])); got != tt.want {
					t.Errorf("input %s, want %s", got, tt.want)
				}
				if in, ok := acc.PartialToolInput(0); ok {
					t.Errorf("a complete call reports partial input %q", in)
				}
			})
		}
	}

	// Fragments that are not a JSON object leave the start input too.
	var acc MessageAccumulator
	addAll(t, &acc, MessageStartEvent{Message: Message{ID: "m"}},
		ContentBlockStartEvent{Index: 0, ContentBlock: ToolUseBlock{ID: "toolu_1", Name: "f", Input: full}},
		ContentBlockDeltaEvent{Index: 0, Delta: InputJSONDelta{PartialJSON: `{"url": `}})
	if err := acc.Add(ContentBlockStopEvent{Index: 0}); err == nil {
		t.Fatal("bad fragments accepted")
	}
	if got := string(toolInput(acc.Message().Content[0])); got != string(full) {
		t.Errorf("input after bad fragments %s, want the start's %s", got, full)
	}
	if in, ok := acc.PartialToolInput(0); !ok || in != `{"url": ` {
		t.Errorf("PartialToolInput = %q, %v", in, ok)
	}
}

// TestAccumulatorCutMidBlock: message_stop while blocks are open (the
// service cuts a reply at max_tokens without content_block_stop) ends the
// message normally. A cut tool call keeps its start input, never the
// fragments, even when they happen to parse; PartialToolInput gives them.
func TestAccumulatorCutMidBlock(t *testing.T) {
	cutDelta := MessageDeltaEvent{Delta: MessageDeltaFields{StopReason: StopReasonMaxTokens}, Usage: MessageDeltaUsage{OutputTokens: 24}}
	tests := []struct {
		name      string
		block     ContentBlock
		deltas    []ContentBlockDelta
		want      string // the cut block
		partial   string
		isPartial bool
	}{
		{"tool_use mid-input", ToolUseBlock{ID: "toolu_1", Name: "f", Input: json.RawMessage(`{}`)},
			[]ContentBlockDelta{InputJSONDelta{PartialJSON: `{"q": "Oslo, Nor`}, InputJSONDelta{PartialJSON: `way", "n`}},
			`{"type":"tool_use","id":"toolu_1","name":"f","input":{}}`, `{"q": "Oslo, Norway", "n`, true},
		{"server_tool_use before any fragment", ServerToolUseBlock{ID: "srvtoolu_1", Name: "web_search", Input: json.RawMessage(`{}`)}, nil,
			`{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}`, "", true},
		{"mcp_tool_use whose fragments parse, but no stop", MCPToolUseBlock{ID: "mcptoolu_1", Name: "n", ServerName: "s", Input: json.RawMessage(`{}`)},
			[]ContentBlockDelta{InputJSONDelta{PartialJSON: `{"a":1}`}},
			`{"type":"mcp_tool_use","id":"mcptoolu_1","name":"n","server_name":"s","input":{}}`, `{"a":1}`, true},
		{"tool_use with a complete start input", ToolUseBlock{ID: "toolu_2", Name: "f", Input: json.RawMessage(`{"q":"x"}`)}, nil,
			`{"type":"tool_use","id":"toolu_2","name":"f","input":{"q":"x"}}`, "", true},
		{"text", TextBlock{}, []ContentBlockDelta{TextDelta{Text: "The answer is"}},
			`{"type":"text","text":"The answer is"}`, "", false},
		{"thinking", ThinkingBlock{}, []ContentBlockDelta{ThinkingDelta{Thinking: "hmm"}},
			`{"type":"thinking","thinking":"hmm","signature":""}`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var acc MessageAccumulator
			addAll(t, &acc,
				MessageStartEvent{Message: Message{ID: "m"}},
				ContentBlockStartEvent{Index: 0, ContentBlock: TextBlock{}},
				ContentBlockDeltaEvent{Index: 0, Delta: TextDelta{Text: "Looking."}},
				ContentBlockStopEvent{Index: 0},
				ContentBlockStartEvent{Index: 1, ContentBlock: tt.block},
			)
			for _, d := range tt.deltas {
				addAll(t, &acc, ContentBlockDeltaEvent{Index: 1, Delta: d})
			}
			addAll(t, &acc, cutDelta, MessageStopEvent{})
			if !acc.Done() {
				t.Fatal("not done after message_stop")
			}
			m := acc.Message()
			if m.StopReason != StopReasonMaxTokens || m.Usage.OutputTokens != 24 {
				t.Errorf("stop reason %q, output tokens %d", m.StopReason, m.Usage.OutputTokens)
			}
			b, err := json.Marshal(m.Content[1])
			require.NoError(t, err)
			streamJSONEqual(t, "cut block", []byte(tt.want), b)
			if in, ok := acc.PartialToolInput(1); ok != tt.isPartial || in != tt.partial {
				t.Errorf("PartialToolInput = %q, %v; want %q, %v", in, ok, tt.partial, tt.isPartial)
			}
			if _, ok := acc.PartialToolInput(0); ok {
				t.Error("the stopped text block reports partial input")
			}
			// The message is final: the cut block takes nothing more.
			for _, ev := range []MessageStreamEvent{ContentBlockDeltaEvent{Index: 1, Delta: InputJSONDelta{PartialJSON: "1}"}}, ContentBlockStopEvent{Index: 1}} {
				if err := acc.Add(ev); err == nil || !strings.Contains(err.Error(), "after message_stop") {
					t.Errorf("Add(%s) after the cut = %v", eventName(ev), err)
				}
			}
		})
	}
}
