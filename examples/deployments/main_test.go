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
		"deployed morning triage (agent version 1), active",
		"next fires: 5 listed",
		"paused: paused by hand",
		"started session sesn_",
		": started by hand\n",
		"unpaused: active",
		"archived; upcoming runs: 0",
	})
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	if !strings.Contains(out, "archived; upcoming runs: 0") {
		t.Errorf("output lacks the end:\n%s", out)
	}
}
