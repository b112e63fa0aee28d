package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestDemo runs the whole tour, so `go run ./examples/demo` keeps working.
func TestDemo(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatalf("demo failed: %v\n%s", err, out.String())
	}
	for _, want := range []string{"model mms-large-1", "404 not_found_error", "request id: req_", "attempts=2", "tool call: get_weather", "after the tool result", "turn 1: get_weather{\"city\":\"Atlantis\"} -> no data for Atlantis (error: true)", "after 2 requests", "structured: {\"city\":", "final:  \"You said:", "is ended: 3 succeeded", "same bytes: true", "deleted file_", "cites \"The mms-go SDK streams uploads: a file is never held in memory.\"",
		"version 1 -> 2", "an update from version 1 is refused: 409", "on agent version 2: idle", "worker-1 polled work_", "secret <redacted>"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("demo output lacks %q:\n%s", want, out.String())
		}
	}
}
