package bedrock

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
	"github.com/google/go-cmp/cmp"
)

// frame encodes one EventStream message with the AWS SDK's encoder.
func frame(t testing.TB, kind string, hs map[string]string, payload []byte) []byte {
	t.Helper()
	headers := eventstream.Headers{{Name: ":message-type", Value: eventstream.StringValue(kind)}}
	for k, v := range hs {
		headers = append(headers, eventstream.Header{Name: k, Value: eventstream.StringValue(v)})
	}
	var buf bytes.Buffer
	if err := eventstream.NewEncoder().Encode(&buf, eventstream.Message{Headers: headers, Payload: payload}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// chunkFrame wraps one service event in a chunk frame.
func chunkFrame(t testing.TB, event string) []byte {
	payload, _ := json.Marshal(struct {
		Bytes []byte `json:"bytes"`
	}{[]byte(event)})
	return frame(t, "event", map[string]string{":event-type": "chunk", ":content-type": "application/json"}, payload)
}

func sse(name, data string) string { return "event: " + name + "\ndata: " + data + "\n\n" }

// translate runs frames through the adapter's Response, as the client does.
func translate(t testing.TB, stream []byte) (string, error) {
	t.Helper()
	a := newAdapter(staticConfig("us-east-1"), env(nil), fixedClock(), nil)
	resp := &http.Response{StatusCode: 200, ContentLength: int64(len(stream)),
		Header: http.Header{"Content-Type": {"application/vnd.amazon.eventstream"}, "Content-Length": {fmt.Sprint(len(stream))}},
		Body:   io.NopCloser(bytes.NewReader(stream))}
	got, err := a.Response(resp, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Header.Get("Content-Type") != "text/event-stream" || got.Header.Get("Content-Length") != "" || got.ContentLength != -1 {
		t.Errorf("headers %v, length %d", got.Header, got.ContentLength)
	}
	out, err := io.ReadAll(got.Body)
	return string(out), err
}

var streamEvents = []string{
	`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"m","usage":{"input_tokens":3,"output_tokens":0}}}`,
	`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
	`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi\nthere"}}`,
	`{"type":"content_block_stop","index":0}`,
	`{"type":"message_stop"}`,
}

func TestEventStreamToSSE(t *testing.T) {
	var all []byte
	var want string
	for _, e := range streamEvents {
		all = append(all, chunkFrame(t, e)...)
		var ev struct{ Type string }
		_ = json.Unmarshal([]byte(e), &ev)
		want += sse(ev.Type, e)
	}
	pretty := "{\n  \"type\": \"ping\"\n}"
	prettyFrame := chunkFrame(t, pretty)
	other := frame(t, "event", map[string]string{":event-type": "initial-response"}, []byte(`{}`))
	exc := frame(t, "exception", map[string]string{":exception-type": "throttlingException"}, []byte(`{"message":"Too many tokens"}`))
	stale := frame(t, "exception", map[string]string{":exception-type": "modelStreamErrorException"}, []byte(`{"message":"stream failed","originalStatusCode":500}`))
	unnamed := frame(t, "exception", map[string]string{":exception-type": "serviceUnavailableException"}, nil)
	errFrame := frame(t, "error", map[string]string{":error-code": "validationException", ":error-message": "bad input"}, nil)

	tests := []struct {
		name    string
		stream  []byte
		want    string
		wantErr bool
	}{
		{"events", all, want, false},
		{"a multi-line event becomes one data line", prettyFrame, sse("ping", `{"type":"ping"}`), false},
		{"non-chunk events are skipped", append(append([]byte{}, other...), chunkFrame(t, streamEvents[4])...), sse("message_stop", streamEvents[4]), false},
		{"exception after events", concat(chunkFrame(t, streamEvents[0]), exc, chunkFrame(t, streamEvents[4])),
			sse("message_start", streamEvents[0]) + sse("error", `{"type":"error","error":{"type":"rate_limit_error","message":"Too many tokens"}}`), false},
		{"model stream error", stale, sse("error", `{"type":"error","error":{"type":"api_error","message":"stream failed"}}`), false},
		{"exception without a message", unnamed, sse("error", `{"type":"error","error":{"type":"overloaded_error","message":"serviceUnavailableException"}}`), false},
		{"error frame", errFrame, sse("error", `{"type":"error","error":{"type":"invalid_request_error","message":"bad input"}}`), false},
		{"empty", nil, "", false},
		{"chunk payload not JSON", frame(t, "event", map[string]string{":event-type": "chunk"}, []byte(`nope`)), "", true},
		{"chunk event without a type", chunkFrame(t, `{"x":1}`), "", true},
		{"chunk event not JSON", chunkFrame(t, `{"type":`), "", true},
		{"unknown message type", frame(t, "mystery", nil, nil), "", true},
		{"declared lengths impossible", concat(chunkFrame(t, streamEvents[0]), []byte{0, 0, 0, 10, 0, 0, 0, 20, 0, 0, 0, 0}),
			sse("message_start", streamEvents[0]), true},
		{"payload over 16 MiB declared", lengths(1<<25, 0), "", true},
		{"headers over 128 KiB declared", lengths(1<<18, 1<<17+1), "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := translate(t, tt.stream)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("SSE (-want +got):\n%s", diff)
			}
		})
	}
}

func concat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// lengths returns a prelude declaring those lengths, with a valid CRC.
func lengths(total, headers uint32) []byte {
	var b bytes.Buffer
	_ = binary.Write(&b, binary.BigEndian, total)
	_ = binary.Write(&b, binary.BigEndian, headers)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(b.Bytes()))
	return append(b.Bytes(), make([]byte, 64)...)
}

// TestEventStreamDamage: every frame before the damage is delivered, then
// the read fails; a cut between frames is a clean end the client reports
// as a truncated stream (no message_stop).
func TestEventStreamDamage(t *testing.T) {
	f0, f1 := chunkFrame(t, streamEvents[0]), chunkFrame(t, streamEvents[1])
	whole := concat(f0, f1)
	first := sse("message_start", streamEvents[0])
	flip := func(at int) []byte {
		b := bytes.Clone(whole)
		b[at] ^= 0x40
		return b
	}
	tests := []struct {
		name    string
		stream  []byte
		want    string
		wantErr error
	}{
		{"cut in the second prelude", whole[:len(f0)+5], first, io.ErrUnexpectedEOF},
		{"cut in the second's headers", whole[:len(f0)+20], first, io.ErrUnexpectedEOF},
		{"cut in the second's payload", whole[:len(whole)-10], first, io.ErrUnexpectedEOF},
		{"cut in the second's CRC", whole[:len(whole)-2], first, io.ErrUnexpectedEOF},
		{"cut between frames", whole[:len(f0)], first, nil},
		{"second payload corrupted", flip(len(whole) - 20), first, eventstream.ChecksumError{}},
		{"second message CRC corrupted", flip(len(whole) - 1), first, eventstream.ChecksumError{}},
		{"second prelude CRC corrupted", flip(len(f0) + 9), first, eventstream.ChecksumError{}},
		{"first headers corrupted", flip(14), "", eventstream.ChecksumError{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := translate(t, tt.stream)
			if got != tt.want {
				t.Errorf("SSE = %q, want %q", got, tt.want)
			}
			switch {
			case tt.wantErr == nil && err != nil:
				t.Errorf("err = %v, want none", err)
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			case tt.wantErr != nil && !strings.Contains(err.Error(), "event stream is damaged"):
				t.Errorf("err = %v does not say the stream is damaged", err)
			}
		})
	}
}

// FuzzEventStreamToSSE damages a valid stream (cut, or one byte changed)
// or feeds arbitrary bytes: no panic, every frame wholly before the
// damage delivered as its event, and an error unless the stream was cut
// between frames.
func FuzzEventStreamToSSE(f *testing.F) {
	f.Add(uint8(3), uint16(40), uint16(0), uint8(0), []byte(nil))
	f.Add(uint8(5), uint16(0), uint16(130), uint8(1), []byte(nil))
	f.Add(uint8(1), uint16(5), uint16(0), uint8(0), []byte(nil))
	f.Add(uint8(0), uint16(0), uint16(0), uint8(0), []byte{0, 0, 0, 16, 0, 0, 0, 0, 5, 0x6a, 0xe1, 0x5c, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, n uint8, cut, flipAt uint16, flip uint8, raw []byte) {
		if raw != nil {
			_, _ = translate(t, raw) // arbitrary bytes: only no panic, no hang
			return
		}
		var stream []byte
		var ends []int // end offset of each frame
		var events []string
		for i := 0; i < int(n%8); i++ {
			e := streamEvents[i%len(streamEvents)]
			stream = append(stream, chunkFrame(t, e)...)
			ends = append(ends, len(stream))
			var ev struct{ Type string }
			_ = json.Unmarshal([]byte(e), &ev)
			events = append(events, sse(ev.Type, e))
		}
		damage, cutAt := len(stream), false // the first damaged byte
		switch {
		case flip != 0 && len(stream) > 0:
			damage = int(flipAt) % len(stream)
			stream[damage] ^= flip
		case cut != 0 && len(stream) > 0:
			damage, cutAt = int(cut)%len(stream), true
			stream = stream[:damage]
		}
		var want string
		clean := damage == len(stream) && !cutAt || cutAt && damage == 0 // undamaged, or cut to nothing
		for i, end := range ends {
			if end <= damage {
				want += events[i]
			}
			if cutAt && end == damage {
				clean = true // cut between frames
			}
		}
		got, err := translate(t, stream)
		if got != want {
			t.Fatalf("delivered %q, want %q", got, want)
		}
		if clean != (err == nil) {
			t.Fatalf("err = %v; damage at %d, frame ends %v", err, damage, ends)
		}
	})
}
