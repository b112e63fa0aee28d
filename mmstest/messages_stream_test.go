package mmstest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/wire"

	"github.com/stretchr/testify/require"
)

// sseEvent is one parsed server-sent event.
type sseEvent struct {
	name string
	data map[string]any
}

// parseSSE parses an event stream body (streaming.md §1.1), failing on any
// event whose data is not a JSON object of the event's type.
func parseSSE(t *testing.T, body string) []sseEvent {
	t.Helper()
	var out []sseEvent
	for _, chunk := range strings.Split(body, "\n\n") {
		if strings.TrimSpace(chunk) == "" {
			continue
		}
		var ev sseEvent
		var data string
		for _, line := range strings.Split(chunk, "\n") {
			if v, ok := strings.CutPrefix(line, "event: "); ok {
				ev.name = v
			} else if v, ok := strings.CutPrefix(line, "data: "); ok {
				data += v
			}
		}
		if err := json.Unmarshal([]byte(data), &ev.data); err != nil || ev.data["type"] != ev.name {
			t.Fatalf("event %q: data %s (%v)", ev.name, data, err)
		}
		out = append(out, ev)
	}
	return out
}

// accumulate rebuilds the Message from a complete stream by the algorithm
// of streaming.md §5.
func accumulate(t *testing.T, events []sseEvent) map[string]any {
	t.Helper()
	var msg map[string]any
	var content []any
	partial := map[int]string{}
	for _, ev := range events {
		switch ev.name {
		case "message_start":
			msg = ev.data["message"].(map[string]any)
		case "content_block_start":
			if int(ev.data["index"].(float64)) != len(content) {
				t.Fatalf("block index %v, want %d", ev.data["index"], len(content))
			}
			content = append(content, ev.data["content_block"])
		case "content_block_delta":
			i := int(ev.data["index"].(float64))
			block, delta := content[i].(map[string]any), ev.data["delta"].(map[string]any)
			switch delta["type"] {
			case "text_delta":
				block["text"] = block["text"].(string) + delta["text"].(string)
			case "thinking_delta":
				block["thinking"] = block["thinking"].(string) + delta["thinking"].(string)
			case "signature_delta":
				block["signature"] = block["signature"].(string) + delta["signature"].(string)
			case "input_json_delta":
				partial[i] += delta["partial_json"].(string)
			}
		case "content_block_stop":
			i := int(ev.data["index"].(float64))
			if js, ok := partial[i]; ok {
				var input any
				if err := json.Unmarshal([]byte(js), &input); err != nil {
					t.Fatalf("tool input %q: %v", js, err)
				}
				content[i].(map[string]any)["input"] = input
			}
		case "message_delta":
			delta := ev.data["delta"].(map[string]any)
			for _, k := range []string{"stop_reason", "stop_sequence", "stop_details"} {
				msg[k] = delta[k]
			}
			if c, ok := delta["container"]; ok {
				msg["container"] = c
			}
			usage := msg["usage"].(map[string]any)
			for k, v := range ev.data["usage"].(map[string]any) {
				if v != nil {
					usage[k] = v
				}
			}
		}
	}
	msg["content"] = content
	if content == nil {
		msg["content"] = []any{}
	}
	return msg
}

func eventNames(events []sseEvent) []string {
	var names []string
	for _, ev := range events {
		names = append(names, ev.name)
	}
	return names
}

// streamOf posts body with "stream": true to a fresh server and parses the
// stream.
func streamOf(t *testing.T, body string) (*http.Response, []sseEvent) {
	t.Helper()
	s := newTestServer(t)
	resp, got := post(t, s, messagesPath, strings.Replace(body, "{", `{"stream":true,`, 1))
	if resp.StatusCode != 200 || resp.Header.Get(wire.HeaderContentType) != "text/event-stream" {
		t.Fatalf("status %d, content type %q: %s", resp.StatusCode, resp.Header.Get(wire.HeaderContentType), got)
	}
	return resp, parseSSE(t, string(got))
}

// TestStreamMatchesMessage checks that each stream accumulates to the
// Message the same request gets without streaming.
func TestStreamMatchesMessage(t *testing.T) {
	tools := `"tools":[{"name":"lookup","input_schema":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}}],`
	for _, body := range []string{
		create(`"messages":[{"role":"user","content":"Hello, wörld: 日本語 and emoji 🎉"}]`),
		create(tools + `"thinking":{"type":"enabled","budget_tokens":1024},"messages":[{"role":"user","content":"lookup \"Oslo\", please"}]`),
		create(`"thinking":{"type":"adaptive","display":"omitted"},"messages":` + hi),
		create(`"stop_sequences":["world"],"messages":[{"role":"user","content":"hello world"}]`),
		`{"model":"mms-large-1","max_tokens":0,"messages":` + hi + `}`,
		`{"model":"mms-large-1","max_tokens":5,` + tools + `"messages":[{"role":"user","content":"lookup"}]}`,
		create(`"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Sure"}]`),
	} {
		want := postMessage(t, newTestServer(t), body)
		_, events := streamOf(t, body)
		if diff := cmp.Diff(want, accumulate(t, events)); diff != "" {
			t.Errorf("%s: stream differs from the message (-message +stream):\n%s", body, diff)
		}
	}
}

// TestStreamEvents checks the event sequence, the initial forms and the
// delta sizes.
func TestStreamEvents(t *testing.T) {
	_, events := streamOf(t, create(`"tools":[{"name":"lookup","input_schema":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}}],`+
		`"thinking":{"type":"adaptive"},"messages":[{"role":"user","content":"lookup Oslo"}]`))
	var names []string
	for _, n := range eventNames(events) {
		if len(names) == 0 || n != "content_block_delta" || names[len(names)-1] != "content_block_delta" {
			names = append(names, n)
		}
	}
	want := []string{"message_start", "content_block_start", "ping", "content_block_delta", "content_block_stop", "ping",
		"content_block_start", "content_block_delta", "content_block_stop", "ping",
		"content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("events (-want +got, runs of deltas collapsed):\n%s", diff)
	}
	start := events[0].data["message"].(map[string]any)
	if start["stop_reason"] != nil || len(start["content"].([]any)) != 0 || start["usage"].(map[string]any)["output_tokens"] != 1.0 {
		t.Errorf("message_start %v", start)
	}
	initial := map[string]string{
		"thinking": `{"signature":"","thinking":"","type":"thinking"}`,
		"text":     `{"text":"","type":"text"}`,
		"tool_use": `{"caller":{"type":"direct"},"id":"toolu_010000000000000000000001","input":{},"name":"lookup","type":"tool_use"}`,
	}
	var sawSignature, sawEmptyFragment bool
	for _, ev := range events {
		if block, ok := ev.data["content_block"].(map[string]any); ok {
			if got := mustJSON(t, block); got != initial[block["type"].(string)] {
				t.Errorf("initial block %s", got)
			}
		}
		delta, _ := ev.data["delta"].(map[string]any)
		for _, k := range []string{"text", "thinking", "partial_json"} {
			if s, ok := delta[k].(string); ok && len([]rune(s)) > 9 {
				t.Errorf("delta %q is longer than 9 characters", s)
			}
		}
		sawSignature = sawSignature || delta["type"] == "signature_delta"
		sawEmptyFragment = sawEmptyFragment || delta["partial_json"] == ""
	}
	if !sawSignature || !sawEmptyFragment {
		t.Errorf("signature_delta %v, empty partial_json %v", sawSignature, sawEmptyFragment)
	}
	last := events[len(events)-2].data
	if d := last["delta"].(map[string]any); d["stop_reason"] != "tool_use" {
		t.Errorf("message_delta %v", last)
	}
}

// TestStreamErrorsBeforeStart checks that refusals come as JSON errors, not
// streams.
func TestStreamErrorsBeforeStart(t *testing.T) {
	s := newTestServer(t)
	resp, body := post(t, s, messagesPath, create(`"stream":true,"messages":[]`))
	wantError(t, resp, body, 400, wire.ErrInvalidRequest, "messages: List should have at least 1 item")
}

// streamRaw posts a streaming request and returns what arrived before the
// body ended, and the read error.
func streamRaw(t *testing.T, s *Server, ctx context.Context) (string, error) {
	t.Helper()
	req := newReq(t, s, http.MethodPost, messagesPath, strings.NewReader(create(`"stream":true,"messages":`+hi)))
	resp, err := s.Client().Do(req.WithContext(ctx))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	return string(got), err
}

func TestStreamFaults(t *testing.T) {
	ctx := context.Background()
	t.Run("error event", func(t *testing.T) {
		s := newTestServer(t)
		s.InjectStreamFault(StreamFault{Path: messagesPath, ErrorAfterEvents: 2, Times: 1})
		body, err := streamRaw(t, s, ctx)
		require.NoError(t, err)
		events := parseSSE(t, body)
		if diff := cmp.Diff([]string{"message_start", "content_block_start", "error"}, eventNames(events)); diff != "" {
			t.Fatalf("events (-want +got):\n%s", diff)
		}
		want := map[string]any{"type": "error", "request_id": "req_010000000000000000000001",
			"error": map[string]any{"details": nil, "type": "overloaded_error", "message": "Overloaded"}}
		if diff := cmp.Diff(want, events[2].data); diff != "" {
			t.Errorf("error payload (-want +got):\n%s", diff)
		}
		if body, err := streamRaw(t, s, ctx); err != nil || !strings.HasSuffix(body, "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n") {
			t.Errorf("after Times: %v %q", err, body)
		}
	})
	t.Run("cut", func(t *testing.T) {
		s := newTestServer(t)
		s.InjectStreamFault(StreamFault{CutAfterEvents: 3})
		body, err := streamRaw(t, s, ctx)
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("read error %v, want unexpected EOF", err)
		}
		if names := eventNames(parseSSE(t, body)); len(names) != 3 || names[2] != "ping" {
			t.Errorf("events before the cut: %v", names)
		}
	})
	t.Run("stall", func(t *testing.T) {
		s := newTestServer(t)
		s.InjectStreamFault(StreamFault{Path: "/v1/", StallAfterEvents: 1, Stall: 150 * time.Millisecond})
		began := time.Now()
		body, err := streamRaw(t, s, ctx)
		if err != nil || !strings.Contains(body, "message_stop") || time.Since(began) < 150*time.Millisecond {
			t.Errorf("after %v: %v %q", time.Since(began), err, body)
		}
	})
	t.Run("stall cancelled", func(t *testing.T) {
		s := newTestServer(t)
		s.InjectStreamFault(StreamFault{StallAfterEvents: 1, Stall: time.Hour})
		cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		if _, err := streamRaw(t, s, cctx); err == nil {
			t.Error("a stalled stream ended without error")
		}
	})
	t.Run("other path and ClearFaults", func(t *testing.T) {
		s := newTestServer(t)
		s.InjectStreamFault(StreamFault{Path: "/v1/other", CutAfterEvents: 1})
		if _, err := streamRaw(t, s, ctx); err != nil {
			t.Errorf("fault for another path applied: %v", err)
		}
		s.InjectStreamFault(StreamFault{CutAfterEvents: 1})
		s.ClearFaults()
		if _, err := streamRaw(t, s, ctx); err != nil {
			t.Errorf("cleared fault applied: %v", err)
		}
	})
}
