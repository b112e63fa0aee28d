package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// TestRun runs the example against mmstest, so it cannot rot.
func TestRun(t *testing.T) {
	client, srv := fakeclient.New(t)
	var out, info bytes.Buffer
	if err := run(context.Background(), client, "mms-large-1", "Tell me a story", &out, &info); err != nil {
		t.Fatal(err)
	}
	if out.String() != "You said: Tell me a story\n" || !strings.HasPrefix(info.String(), "[end_turn, ") {
		t.Errorf("out %q, info %q", out.String(), info.String())
	}

	srv.InjectStreamFault(mmstest.StreamFault{ErrorAfterEvents: 4})
	err := run(context.Background(), client, "mms-large-1", "Tell me a story", &out, &info)
	if err == nil || !strings.Contains(err.Error(), "overloaded_error") {
		t.Errorf("err = %v", err)
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"You said: Tell me a three-sentence story"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
