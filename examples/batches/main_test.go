package main

import (
	"context"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// TestRun runs the example against mmstest, whose batches end after
// mmstest.DefaultBatchProcessingTime.
func TestRun(t *testing.T) {
	client, _ := fakeclient.New(t)
	if err := run(context.Background(), client, "mms-large-1", 64, []string{"hello", "world"}); err != nil {
		t.Fatal(err)
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"question-0: ", "question-2: "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
