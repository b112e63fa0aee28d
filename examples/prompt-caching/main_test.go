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

// TestRun runs the example against mmstest, which simulates the cache: the
// first request writes the reference, the second reads it. A reference
// below the minimum is never cached.
func TestRun(t *testing.T) {
	client, _ := fakeclient.New(t)
	tests := []struct {
		name, reference, want string
	}{
		{"cached", strings.Repeat("x", 8000), `You said: A?
  input tokens: 2029 written to the cache, 0 read from it, 16 not cached
You said: B?
  input tokens: 0 written to the cache, 2029 read from it, 16 not cached
`},
		{"too short to cache", "short", `You said: A?
  input tokens: 0 written to the cache, 0 read from it, 46 not cached
You said: B?
  input tokens: 0 written to the cache, 0 read from it, 46 not cached
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := run(context.Background(), client, "mms-large-1", tt.reference, []string{"A?", "B?"}, &out); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, out.String()); d != "" {
				t.Errorf("output (-want +got):\n%s", d)
			}
		})
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"written to the cache", "read from it"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
