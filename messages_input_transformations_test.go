package mms

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInputTransformations: the member decodes and round-trips on a
// Message, and a message_delta's value replaces message_start's in the
// accumulator.
func TestInputTransformations(t *testing.T) {
	const start = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],` +
		`"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":0},` +
		`"input_transformations":[{"type":"thinking_mismatch_allowed","path":"messages.1.content.0","reason":"prefix_binding_mismatch"}]}}`
	const delta = `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":3},` +
		`"input_transformations":[{"type":"thinking_dropped","path":"messages.1.content.0","reason":"model_binding_mismatch"}]}`
	for _, withDelta := range []bool{false, true} {
		events := []string{"message_start", start}
		if withDelta {
			events = append(events, "message_delta", delta)
		} else {
			events = append(events, "message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":3}}`)
		}
		events = append(events, "message_stop", `{"type":"message_stop"}`)
		var acc MessageAccumulator
		addAll(t, &acc, eventsFromSSE(t, events...)...)
		m := acc.Message()
		require.Len(t, m.InputTransformations, 1)
		want := InputTransformation{Type: InputThinkingMismatchAllowed, Path: "messages.1.content.0", Reason: "prefix_binding_mismatch"}
		if withDelta {
			want = InputTransformation{Type: InputThinkingDropped, Path: "messages.1.content.0", Reason: "model_binding_mismatch"}
		}
		assert.Equal(t, want, m.InputTransformations[0])
	}

	msg := `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":"end_turn","stop_sequence":null,` +
		`"usage":{"input_tokens":1,"output_tokens":1},"input_transformations":[]}`
	var got Message
	require.NoError(t, json.Unmarshal([]byte(msg), &got))
	assert.NotNil(t, got.InputTransformations)
	assert.Empty(t, got.InputTransformations)
	out, err := json.Marshal(got)
	require.NoError(t, err)
	assert.Contains(t, string(out), `"input_transformations":[]`)
}
