package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest"
)

// TestRun reports the two old active keys, changes nothing on a dry run,
// and deactivates both after confirmation.
func TestRun(t *testing.T) {
	srv := mmstest.NewServer()
	defer srv.Close()
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	seed(srv.Org(), now)
	client, err := admin.NewClient(srv.AdminClientOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	var dry bytes.Buffer
	if err := run(context.Background(), client, now, 90, false, &dry); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ci-2024", "batch-export", "2 active keys older than 90 days", "dry run"} {
		if !strings.Contains(dry.String(), want) {
			t.Errorf("dry run lacks %q:\n%s", want, dry.String())
		}
	}
	if strings.Contains(dry.String(), "notebook") || strings.Contains(dry.String(), "old-but-off") {
		t.Errorf("reported a young or inactive key:\n%s", dry.String())
	}
	var done bytes.Buffer
	if err := run(context.Background(), client, now, 90, true, &done); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(done.String(), "deactivated apikey_"); n != 2 {
		t.Errorf("deactivated %d keys:\n%s", n, done.String())
	}
	var again bytes.Buffer
	if err := run(context.Background(), client, now, 90, false, &again); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(again.String(), "0 active keys older than 90 days") {
		t.Errorf("after deactivation:\n%s", again.String())
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials (a dry run): against the built-in fake, which it says
// once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	if !strings.Contains(out, "2 active keys older than 90 days") || !strings.Contains(out, "dry run") {
		t.Errorf("output:\n%s", out)
	}
}
