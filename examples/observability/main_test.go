package main

import (
	"context"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest"
)

// TestRun runs the example against mmstest and checks that the printed
// telemetry holds its spans, their attributes and the metrics.
func TestRun(t *testing.T) {
	srv := mmstest.NewServer(mmstest.WithScript(mmstest.Turn{Text: "Red."}, mmstest.Turn{Text: "Green."}))
	defer srv.Close()
	var out strings.Builder
	if err := run(context.Background(), srv.ClientOptions(), "mms-large-1", &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	got := out.String()
	for _, want := range []string{
		"create: Red.\n", "Green.\n",
		`"Name": "answer-questions"`,
		`"Name": "chat mms-large-1"`,
		`"Name": "POST"`,
		`"Key": "gen_ai.operation.name"`,
		`"Key": "gen_ai.usage.input_tokens"`,
		`"Key": "gen_ai.response.finish_reasons"`,
		`"Name": "gen_ai.client.operation.duration"`,
		`"Name": "gen_ai.client.token.usage"`,
		`"Name": "gen_ai.client.operation.time_to_first_chunk"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if n := strings.Count(got, `"Name": "chat mms-large-1"`); n != 2 {
		t.Errorf("%d chat spans, want 2 (the create and the stream)", n)
	}
	if t.Failed() {
		t.Logf("output:\n%s", got)
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"create: You said: Name a primary colour.", "\"Name\": \"chat "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
