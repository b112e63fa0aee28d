package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// TestRun runs the example against mmstest, so it cannot rot.
func TestRun(t *testing.T) {
	client, _ := fakeclient.New(t)
	var out bytes.Buffer
	if err := run(context.Background(), client, "mms-large-1", &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	exampletest.OutputHas(t, out.String(), []string{
		"store Support playbook, 2 sessions",
		"is pending\n",
		"completed: wrote \"Support playbook (dream)\" (2000 input tokens)",
		"archived the dream: true",
	})
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	if !strings.Contains(out, "archived the dream: true") {
		t.Errorf("output lacks the end:\n%s", out)
	}
}
