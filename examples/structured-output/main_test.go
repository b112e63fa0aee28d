package main

import (
	"context"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// TestRun runs the example against mmstest: the fake answers with JSON
// matching the schema, then (scripted) with a reply that does not match.
func TestRun(t *testing.T) {
	client, srv := fakeclient.New(t)
	var out strings.Builder
	if err := run(context.Background(), client, "mms-large-1", "Ada Lovelace", &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "field: science\n") || !strings.HasPrefix(out.String(), "name: ") {
		t.Errorf("output:\n%s", out.String())
	}

	srv.Script(mmstest.Turn{Text: `{"name":"Ada Lovelace","birth_year":"1815","field":"science"}`})
	err := run(context.Background(), client, "mms-large-1", "Ada Lovelace", &out)
	if err == nil || !strings.Contains(err.Error(), "birth_year") || !strings.Contains(err.Error(), `it said: "{\"name\"`) {
		t.Errorf("err = %v, want the mismatch named and the text shown", err)
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"name: "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
