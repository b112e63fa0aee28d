package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// TestRun lists the fake's models (two per page, so the iterator fetches
// several pages) and shows one by alias, so the example cannot rot.
func TestRun(t *testing.T) {
	client, _ := fakeclient.New(t)
	tests := []struct {
		id   string
		want []string
	}{
		{"", []string{"ID", "mms-large-1", "mms-tiny-0", "\n4 models\n"}},
		{"mms-large-latest", []string{"mms-large-1 (MMS Large 1)", "context window 1000000 tokens", "thinking"}},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		if err := run(context.Background(), client, tt.id, 2, &out); err != nil {
			t.Fatalf("run(%q): %v", tt.id, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("run(%q) output lacks %q:\n%s", tt.id, w, out.String())
			}
		}
	}
	if err := run(context.Background(), client, "nope", 2, &bytes.Buffer{}); err == nil {
		t.Error("an unknown model gave no error")
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"4 models"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
