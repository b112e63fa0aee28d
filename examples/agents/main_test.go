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
	if err := run(context.Background(), client, "mms-large-1", &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	exampletest.OutputHas(t, out.String(), []string{
		"created agent agent_", "(version 1, 3 tools)",
		`updated agent to version 2: "You triage support tickets. Be brief.", metadata map[owner:ops]`,
		"  version 2, updated", "  version 1, updated",
		"created environment env_", "(mms.CloudEnvironmentConfig)",
		"(ticket 1) on agent version 2: idle",
		`newest first: "ticket 3" "ticket 2" "ticket 1"`,
		`back from the second page: "ticket 1" "ticket 3" "ticket 2"`,
		"archived the environment and the agent",
	})
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"archived the environment and the agent"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
