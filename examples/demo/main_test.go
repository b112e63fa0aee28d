package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest"
)

// TestDemo runs the whole tour, so `go run ./examples/demo` keeps working.
func TestDemo(t *testing.T) {
	srv := mmstest.NewServer()
	defer srv.Close()
	var out bytes.Buffer
	if err := run(context.Background(), srv, &out); err != nil {
		t.Fatalf("demo failed: %v\n%s", err, out.String())
	}
	exampletest.OutputHas(t, out.String(), []string{"model mms-large-1", "404 not_found_error", "request id: req_", "attempts=2", "tool call: get_weather", "after the tool result", "turn 1: get_weather{\"city\":\"Atlantis\"} -> no data for Atlantis (error: true)", "after 2 requests", "structured: {\"city\":", "final:  \"You said:", "is ended: 3 succeeded", "same bytes: true", "deleted file_", "cites \"The mms-go SDK streams uploads: a file is never held in memory.\"",
		"version 1 -> 2", "an update from version 1 is refused: 409", "on agent version 2: idle", "worker-1 polled work_", "secret <redacted>"})
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"deleted file_", "worker-1 polled work_"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
