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
	var out bytes.Buffer
	if err := run(context.Background(), client, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	exampletest.OutputHas(t, out.String(), []string{
		`created store memstore_`, `"Support playbook"`,
		"wrote /customers/acme.md (19 bytes)", "wrote /style.md (9 bytes)",
		"under /customers/, depth 1:\n  memory /customers/acme.md\n  directory /customers/emea/\n",
		"updated /customers/acme.md to 44 bytes",
		"stale update refused: the memory changed since it was read",
		": modified, 44 bytes\n", ": created, 19 bytes\n",
		"path erased true, redacted at ",
		"deleted the store",
	})
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"deleted the store"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
