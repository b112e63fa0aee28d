package sse

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// recordedDir holds streams recorded from the real service. It lives outside
// the module, next to it, and is read in place.
const recordedDir = "../../../shared/recorded/streams"

// recordedStreams returns the paths of the recorded streams, or skips the
// test when the folder is absent.
func recordedStreams(tb testing.TB) []string {
	tb.Helper()
	if _, err := os.Stat(recordedDir); err != nil {
		tb.Skipf("skipping: ../shared/recorded is absent: %v", err)
	}
	paths, err := filepath.Glob(filepath.Join(recordedDir, "*.sse"))
	if err != nil {
		tb.Fatal(err)
	}
	if len(paths) == 0 {
		tb.Skipf("skipping: ../shared/recorded has no streams (no *.sse in %s)", recordedDir)
	}
	return paths
}

func TestRecordedStreams(t *testing.T) {
	for _, path := range recordedStreams(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			in, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
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
			if last := got.Events[len(got.Events)-1].Type; last != "message_stop" {
				t.Errorf("last event is %q, want message_stop", last)
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
