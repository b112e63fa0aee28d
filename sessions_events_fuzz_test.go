package mms

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/internal/codec"

	"github.com/stretchr/testify/require"
)

// sessionEventSeeds are the golden events, compacted (the stream sends
// one line per event).
func sessionEventSeeds(f *testing.F) [][]byte {
	f.Helper()
	dir := filepath.Join("testdata", "golden", "sessions", "events")
	entries, err := os.ReadDir(dir)
	if err != nil {
		f.Fatal(err)
	}
	var out [][]byte
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		var b bytes.Buffer
		if err := json.Compact(&b, data); err != nil {
			f.Fatal(err)
		}
		out = append(out, b.Bytes())
	}
	return out
}

// FuzzSessionEvent decodes events through the union list pages use: no
// panic; an Unknown event keeps its input byte for byte; any other
// encodes to a fixed point.
func FuzzSessionEvent(f *testing.F) {
	var seeds []string
	for _, s := range sessionEventSeeds(f) {
		seeds = append(seeds, string(s))
	}
	fuzzDecoder(f, sessionEventUnion.Decode, seeds...)
}

// FuzzDecodeSessionEvent decodes SSE events as the stream does: no panic;
// a ping is skipped and an error event is an *Error; otherwise an event
// does not depend on its SSE name beyond the Unknown fallback's Type, an
// Unknown event keeps its payload byte for byte, and a typed one
// re-encodes to a fixed point.
func FuzzDecodeSessionEvent(f *testing.F) {
	for _, s := range sessionEventSeeds(f) {
		typ, _ := codec.PeekType(s)
		f.Add(typ, s)
		f.Add("message", s)
	}
	f.Add("ping", []byte(`{"type":"ping"}`))
	f.Add("error", []byte(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`))
	f.Add("session.thread_status_created", []byte(`{"id":"sevt_1"}`))
	f.Add("x", []byte(`{"type":"event_delta","event_id":"e","delta":{"type":"content_delta","index":null,"content":{"type":"text","text":"\u00e9"}}}`))
	f.Add("x", []byte(`[{"type":"agent.message"}]`))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		ev, err := decodeSessionEvent(name, data)
		switch name {
		case "ping":
			if ev != nil || err != nil {
				t.Fatalf("ping decoded to %#v, %v", ev, err)
			}
			return
		case "error":
			var apiErr *Error
			if ev != nil || !errors.As(err, &apiErr) {
				t.Fatalf("error event decoded to %#v, %v", ev, err)
			}
			return
		}
		if err != nil {
			return
		}
		if ev == nil {
			t.Fatalf("%q %q decoded to nil without an error", name, data)
		}
		other, err := decodeSessionEvent("fuzz.other_name", data)
		if err != nil {
			t.Fatalf("decodes under %q but not under another name: %v", name, err)
		}
		if u, ok := ev.(UnknownSessionEvent); ok {
			if !bytes.Equal(u.Raw, data) || u.EventType() == "" && name != "" {
				t.Fatalf("unknown %+v, input %q under %q", u, data, name)
			}
			if _, ok := other.(UnknownSessionEvent); !ok {
				t.Fatalf("unknown under %q, %T under another name", name, other)
			}
			return
		}
		if !cmp.Equal(ev, other, cmpUpdates) {
			t.Fatalf("the SSE name changed the event:\n%s", cmp.Diff(ev, other, cmpUpdates))
		}
		if wire := sessionEventUnion.Types(); wire[ev.EventType()] != reflect.TypeOf(ev) {
			t.Fatalf("%T.EventType() = %q", ev, ev.EventType())
		}
		enc, err := json.Marshal(ev)
		if err != nil {
			t.Fatalf("encode of decoded %q: %v", data, err)
		}
		again, err := decodeSessionEvent(name, enc)
		if err != nil {
			t.Fatalf("re-decode of %s: %v", enc, err)
		}
		enc2, err := json.Marshal(again)
		require.NoError(t, err)
		requireJSONEqual(t, enc, enc2)
	})
}
