package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// TestRun runs the loop against mmstest, which calls get_weather because the
// prompt names it, then answers the tool result.
func TestRun(t *testing.T) {
	client, _ := fakeclient.New(t)
	var out bytes.Buffer
	if err := run(context.Background(), client, "mms-large-1", "Oslo: use get_weather", &out); err != nil {
		t.Fatal(err)
	}
	want := `-> get_weather {"city":"Oslo: use get_weather"}
You said: 12°C and cloudy in Oslo: use get_weather
`
	if d := cmp.Diff(want, out.String()); d != "" {
		t.Errorf("output (-want +got):\n%s", d)
	}
}

// TestRunTool covers the error results the model gets back.
func TestRunTool(t *testing.T) {
	tests := []struct {
		name    string
		call    mms.ToolUseBlock
		prefix  string // of the result's text
		isError bool
	}{
		{"ok", mms.ToolUseBlock{ID: "t1", Name: "get_weather", Input: []byte(`{"city":"Rome"}`)}, "12°C and cloudy in Rome", false},
		{"unknown tool", mms.ToolUseBlock{ID: "t2", Name: "x", Input: []byte(`{}`)}, "unknown tool x", true},
		{"bad input", mms.ToolUseBlock{ID: "t3", Name: "get_weather", Input: []byte(`{"city":1}`)}, "bad input: ", true},
		{"tool error", mms.ToolUseBlock{ID: "t4", Name: "get_weather", Input: []byte(`{}`)}, "no city given", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runTool(tt.call)
			text := got.Content[0].(mms.TextBlock).Text
			if got.ToolUseID != tt.call.ID || !strings.HasPrefix(text, tt.prefix) || (got.IsError != nil) != tt.isError {
				t.Errorf("runTool = %+v", got)
			}
		})
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"-> get_weather {\"city\":\"Oslo\"}", "12°C and cloudy in Oslo"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
