package main

import (
	"context"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// TestRun runs the example against mmstest with a scripted model: two
// parallel calls (one for a city without a station), then the answer.
func TestRun(t *testing.T) {
	client, srv := fakeclient.New(t)
	srv.Script(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{
			{Name: "get_weather", Input: `{"city":"Paris"}`},
			{Name: "get_weather", Input: `{"city":"Atlantis"}`},
		}},
		mmstest.Turn{Text: "Paris is warmer."},
	)
	var out strings.Builder
	if err := run(context.Background(), client, "mms-large-1", "Is it warmer in Paris or in Atlantis?", &out); err != nil {
		t.Fatal(err)
	}
	exampletest.OutputHas(t, out.String(), []string{
		`-> get_weather {"city":"Paris"}: {"city":"Paris","temperature":18,"unit":"celsius"}`,
		`-> get_weather {"city":"Atlantis"}: error: no weather station in Atlantis`,
		"Paris is warmer.\n[2 requests, stop reason end_turn]",
	})
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"-> get_weather {\"city\":\"Oslo\"}", "Paris is warmer", "[2 requests, stop reason end_turn]"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
