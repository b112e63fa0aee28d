package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/exampletest"
)

// wantLines are in every run's output.
var wantLines = []string{
	"event agent.created about agent_",
	"event session.created about sesn_",
	"event session.status_idled about sesn_",
	": session status idle",
	"event agent.archived about agent_",
	"a forged delivery is answered 401",
	"events handled, each once",
}

// TestRun runs the example and checks what it reports.
func TestRun(t *testing.T) {
	exampletest.Unconfigured(t)
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	exampletest.OutputHas(t, out.String(), wantLines)
}

// TestMainWithoutCredentials runs main as `go run` does: against the
// built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	if !strings.Contains(out, "events handled, each once") {
		t.Errorf("output:\n%s", out)
	}
}
