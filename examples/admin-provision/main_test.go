package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest"
)

// TestRun provisions a workspace on a seeded fake and checks the result
// through the API; an unknown member stops the run before any create.
func TestRun(t *testing.T) {
	srv := mmstest.NewServer()
	defer srv.Close()
	seed(srv.Org())
	client, err := admin.NewClient(srv.AdminClientOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	p := plan{name: "ml", rpm: 500, otpm: 80000, members: members{"ada@example.com": admin.WorkspaceRoleDeveloper}}
	var out bytes.Buffer
	if err := run(context.Background(), client, p, &out); err != nil {
		t.Fatal(err)
	}
	exampletest.OutputHas(t, out.String(), []string{"created workspace ml (wrkspc_", "added ada@example.com as workspace_developer",
		"limit requests_per_minute on Large models: 500 (organization: 4000)", "limit output_tokens_per_minute on Large models: 80000"})
	var wss []admin.Workspace
	for ws, err := range client.Workspaces.List(context.Background(), admin.WorkspaceListParams{}) {
		if err != nil {
			t.Fatal(err)
		}
		wss = append(wss, ws)
	}
	if len(wss) != 1 {
		t.Fatalf("%d workspaces", len(wss))
	}
	p.members["nobody@example.com"] = admin.WorkspaceRoleUser
	if err := run(context.Background(), client, p, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "nobody@example.com") {
		t.Fatalf("unknown member: %v", err)
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	if !strings.Contains(out, "added lin@example.com as workspace_admin") || !strings.Contains(out, "limit requests_per_minute") {
		t.Errorf("output:\n%s", out)
	}
}
