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
	var out, info bytes.Buffer
	if err := run(context.Background(), client, "mms-large-1", "Hello", &out, &info); err != nil {
		t.Fatal(err)
	}
	if out.String() != "You said: Hello\n" || !strings.HasPrefix(info.String(), "[end_turn, ") {
		t.Errorf("out %q, info %q", out.String(), info.String())
	}

	// A model the service does not serve: the refusal names the status.
	err := run(context.Background(), client, "no-such-model", "Hello", &out, &info)
	if err == nil || !strings.Contains(err.Error(), "the service refused (404 not_found_error") {
		t.Errorf("err = %v", err)
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"You said: Say hello in three languages."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
