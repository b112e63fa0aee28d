package sse

import (
	"bytes"
	"encoding/json"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/fixtures"
)

// streamFiles returns the Messages streams of both layers: the project's
// fixtures (testdata/streams/*.sse at the module root) and, when present,
// the recorded ones (../shared/recorded/streams, read in place).
func streamFiles(tb testing.TB) []string {
	tb.Helper()
	return fixtures.Both(tb, "streams/*.sse", "streams/*.sse")
}

func TestRecordedStreams(t *testing.T) {
	for _, path := range streamFiles(t) {
		t.Run(fixtures.Name(path), func(t *testing.T) {
			in := fixtures.Read(t, path)
			got, _ := decodeAll(bytes.NewReader(in), 0)
			if got.End != endEOF {
				t.Errorf("stream ended with %q, want a clean EOF", got.End)
			}
			if len(got.Events) == 0 {
				t.Fatal("no events")
			}
			for i, ev := range got.Events {
				if !json.Valid([]byte(ev.Data)) {
					t.Errorf("event %d (%s): data is not valid JSON: %.200q", i, ev.Type, ev.Data)
					continue
				}
				var payload struct{ Type string }
				if err := json.Unmarshal([]byte(ev.Data), &payload); err != nil {
					t.Errorf("event %d (%s): %v", i, ev.Type, err)
				} else if payload.Type != ev.Type {
					t.Errorf("event %d: payload type %q differs from event name %q", i, payload.Type, ev.Type)
				}
			}
			if first := got.Events[0].Type; first != "message_start" {
				t.Errorf("first event is %q, want message_start", first)
			}
			// A stream ends with message_stop, or with an error event once
			// it has begun (streaming.md §2).
			if last := got.Events[len(got.Events)-1].Type; last != "message_stop" && last != "error" {
				t.Errorf("last event is %q, want message_stop or error", last)
			}

			if diff := cmp.Diff(refDecode(in), got); diff != "" {
				t.Errorf("differs from the reference decoder (-ref +got):\n%s", diff)
			}
			one, _ := decodeAll(iotest.OneByteReader(bytes.NewReader(in)), 0)
			if diff := cmp.Diff(got, one); diff != "" {
				t.Errorf("one-byte reads differ (-whole +one-byte):\n%s", diff)
			}
		})
	}
}
