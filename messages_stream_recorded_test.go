package mms

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/fixtures"
	"github.com/mms-sdk/mms-go/internal/sse"

	"github.com/stretchr/testify/require"
)

// streamFiles lists the Messages streams of both layers: the project's
// fixtures (testdata/streams/*.sse) and, when present, the recorded ones
// (../shared/recorded/streams/*.sse, read in place).
func streamFiles(t testing.TB) []string {
	t.Helper()
	return fixtures.Both(t, "streams/*.sse", "streams/*.sse")
}

// rawEvent is one SSE event as the test's own, minimal parser sees it.
type rawEvent struct {
	name string
	data []byte
}

// splitSSE is an independent, deliberately simple SSE parser for the
// streams on file (LF or CRLF line ends, usually one data line per event;
// several are joined as the standard says).
func splitSSE(t *testing.T, body []byte) []rawEvent {
	t.Helper()
	var out []rawEvent
	for _, chunk := range strings.Split(strings.ReplaceAll(string(body), "\r\n", "\n"), "\n\n") {
		if strings.TrimSpace(chunk) == "" {
			continue
		}
		ev := rawEvent{name: "message"}
		var data []string
		for _, line := range strings.Split(chunk, "\n") {
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "event":
				ev.name = value
			case "data":
				data = append(data, value)
			}
		}
		if data == nil {
			continue
		}
		ev.data = []byte(strings.Join(data, "\n"))
		out = append(out, ev)
	}
	return out
}

// streamJSON decodes data into generic values, numbers kept exact.
func streamJSON(t testing.TB, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("invalid JSON (%v): %.300s", err, data)
	}
	return v
}

// streamJSONEqual fails unless got and want are the same JSON value.
func streamJSONEqual(t testing.TB, what string, want, got []byte) {
	t.Helper()
	if diff := cmp.Diff(streamJSON(t, want), streamJSON(t, got)); diff != "" {
		t.Errorf("%s: JSON differs (-want +got):\n%s", what, diff)
	}
}

// unknownsIn returns the paths of the Unknown* values inside v.
func unknownsIn(path string, v reflect.Value) []string {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return unknownsIn(path, v.Elem())
	case reflect.Struct:
		if strings.HasPrefix(v.Type().Name(), "Unknown") {
			return []string{path + " (" + v.Type().Name() + ")"}
		}
		var out []string
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				out = append(out, unknownsIn(path+"."+f.Name, v.Field(i))...)
			}
		}
		return out
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil
		}
		var out []string
		for i := range v.Len() {
			out = append(out, unknownsIn(fmt.Sprintf("%s[%d]", path, i), v.Index(i))...)
		}
		return out
	case reflect.Map:
		var out []string
		for _, k := range v.MapKeys() {
			out = append(out, unknownsIn(path+"."+k.String(), v.MapIndex(k))...)
		}
		return out
	}
	return nil
}

// TestRecordedStreams runs every stream (project fixtures, and the
// recorded ones when present) through the SSE decoder, the event decoder
// and the accumulator, and checks the result against an independent
// accumulation of the raw JSON (streaming.md §5) done with plain maps. A
// stream may end in an error event (streaming.md §2): it must then be the
// last event, decode to *Error with the payload's type and message, and
// leave the accumulator unfinished with what came before.
func TestRecordedStreams(t *testing.T) {
	for _, file := range streamFiles(t) {
		t.Run(fixtures.Name(file), func(t *testing.T) {
			body := fixtures.Read(t, file)
			raw := splitSSE(t, body)

			var acc MessageAccumulator
			dec := sse.NewDecoder(bytes.NewReader(body))
			n := 0
			errored := false
			for {
				sev, err := dec.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatalf("sse: %v", err)
				}
				if n >= len(raw) || sev.Type != raw[n].name || !bytes.Equal(sev.Data, raw[n].data) {
					t.Fatalf("event %d: the SSE decoder and the test's parser disagree", n)
				}
				ev, err := decodeMessageStreamEvent(sev.Type, sev.Data)
				if sev.Type == "error" {
					if n != len(raw)-1 {
						t.Fatalf("event %d: an error event before the end of the stream", n)
					}
					checkErrorEvent(t, sev.Data, err)
					errored = true
					n++
					continue
				}
				if err != nil {
					t.Fatalf("event %d (%s): %v", n, sev.Type, err)
				}
				if u := unknownsIn(eventName(ev), reflect.ValueOf(ev)); len(u) > 0 {
					t.Errorf("event %d decodes to unknown variants: %v", n, u)
				}
				enc, err := json.Marshal(ev)
				if err != nil {
					t.Fatalf("event %d: encoding: %v", n, err)
				}
				streamJSONEqual(t, "event "+sev.Type, sev.Data, enc)
				if err := acc.Add(ev); err != nil {
					t.Fatalf("event %d: Add: %v", n, err)
				}
				n++
			}
			if n != len(raw) {
				t.Fatalf("decoded %d events, the test's parser found %d", n, len(raw))
			}
			if acc.Done() == errored {
				t.Fatalf("Done() = %v after a stream that ended in an error event: %v", acc.Done(), errored)
			}
			got, err := json.Marshal(acc.Message())
			require.NoError(t, err)
			if errored {
				raw = raw[:len(raw)-1]
			}
			want, err := json.Marshal(accumulateRaw(t, raw, !errored))
			require.NoError(t, err)
			streamJSONEqual(t, "accumulated message", want, got)
			for i, b := range acc.Message().Content {
				if _, ok := acc.PartialToolInput(i); ok {
					t.Errorf("block %d (%T): partial tool input left after a complete stream", i, b)
				}
			}
		})
	}
}

// checkErrorEvent: an error event's decoding is the *Error its payload
// describes (HTTP status 200: the stream had begun).
func checkErrorEvent(t *testing.T, data []byte, err error) {
	t.Helper()
	var payload struct {
		Error struct{ Type, Message string } `json:"error"`
	}
	if e := json.Unmarshal(data, &payload); e != nil {
		t.Fatalf("error event payload: %v", e)
	}
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("error event decoded to %v, want *Error", err)
	}
	if apiErr.StatusCode != 200 || apiErr.Type != payload.Error.Type || apiErr.Message != payload.Error.Message {
		t.Errorf("error event: got %d %q %q, want 200 %q %q", apiErr.StatusCode, apiErr.Type, apiErr.Message, payload.Error.Type, payload.Error.Message)
	}
}

// accumulateRaw is the reference accumulation: streaming.md §3-§5 applied
// to generic JSON maps, independently of the SDK's types. complete says
// the stream reached its end (a message_delta is then required).
func accumulateRaw(t *testing.T, events []rawEvent, complete bool) map[string]any {
	t.Helper()
	var msg map[string]any
	var content []map[string]any
	fragments := map[int]*strings.Builder{}
	var lastDelta map[string]any
	for _, ev := range events {
		var d map[string]any
		if err := json.Unmarshal(ev.data, &d); err != nil {
			t.Fatal(err)
		}
		switch ev.name {
		case "message_start":
			msg = d["message"].(map[string]any)
			for _, b := range msg["content"].([]any) {
				content = append(content, b.(map[string]any))
			}
		case "content_block_start":
			if int(d["index"].(float64)) != len(content) {
				t.Fatalf("reference: block index %v out of order", d["index"])
			}
			b := d["content_block"].(map[string]any)
			content = append(content, b)
			if b["type"] == "fallback" {
				msg["model"] = b["to"].(map[string]any)["model"]
			}
		case "content_block_delta":
			i := int(d["index"].(float64))
			b, delta := content[i], d["delta"].(map[string]any)
			appendTo := func(key, piece string) {
				s, _ := b[key].(string)
				b[key] = s + piece
			}
			switch delta["type"] {
			case "text_delta":
				appendTo("text", delta["text"].(string))
			case "thinking_delta":
				appendTo("thinking", delta["thinking"].(string))
			case "signature_delta":
				appendTo("signature", delta["signature"].(string))
			case "citations_delta":
				cites, _ := b["citations"].([]any)
				b["citations"] = append(cites, delta["citation"])
			case "input_json_delta":
				if fragments[i] == nil {
					fragments[i] = &strings.Builder{}
				}
				fragments[i].WriteString(delta["partial_json"].(string))
			case "compaction_delta":
				for _, k := range []string{"content", "encrypted_content"} {
					if v, ok := delta[k]; ok {
						b[k] = v
					} else {
						delete(b, k)
					}
				}
			default:
				t.Fatalf("reference: unexpected delta %v", delta["type"])
			}
		case "content_block_stop":
			i := int(d["index"].(float64))
			switch content[i]["type"] {
			case "tool_use", "server_tool_use", "mcp_tool_use":
				input := content[i]["input"] // no fragment: the start's input, {} when it had none
				if input == nil {
					input = map[string]any{}
				}
				if f := fragments[i]; f != nil && f.Len() > 0 {
					if err := json.Unmarshal([]byte(f.String()), &input); err != nil {
						t.Fatalf("reference: block %d input %q: %v", i, f.String(), err)
					}
				}
				content[i]["input"] = input
			}
		case "message_delta":
			lastDelta = d
			delta := d["delta"].(map[string]any)
			msg["stop_reason"], msg["stop_sequence"] = delta["stop_reason"], delta["stop_sequence"]
			if v, ok := delta["stop_details"]; ok {
				msg["stop_details"] = v
			}
			if v := delta["container"]; v != nil {
				msg["container"] = v
			}
			if v := d["context_management"]; v != nil {
				msg["context_management"] = v
			}
			usage := msg["usage"].(map[string]any)
			for k, v := range d["usage"].(map[string]any) {
				if v != nil || k == "iterations" {
					usage[k] = v
				}
			}
		}
	}
	if lastDelta == nil && complete {
		t.Fatal("reference: no message_delta")
	}
	blocks := make([]any, len(content))
	for i, b := range content {
		blocks[i] = b
	}
	msg["content"] = blocks
	return msg
}
