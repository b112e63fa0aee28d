package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// TestRun runs the example against mmstest, which thinks "The user said:
// <prompt>" and checks that the thinking comes back signed and unchanged.
func TestRun(t *testing.T) {
	client, _ := fakeclient.New(t)
	var out bytes.Buffer
	if err := run(context.Background(), client, "mms-large-1", "Is 1001 prime?", &out); err != nil {
		t.Fatal(err)
	}
	want := `thinking: The user said: Is 1001 prime?
answer: You said: Is 1001 prime?
(8 of 14 output tokens were thinking)
thinking: The user said: Explain it to a child.
answer: You said: Explain it to a child.
(10 of 18 output tokens were thinking)
`
	if d := cmp.Diff(want, out.String()); d != "" {
		t.Errorf("output (-want +got):\n%s", d)
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"thinking: The user said: Is 1001 prime?", "Explain it to a child."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
