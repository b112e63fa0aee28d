package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest"
)

// TestRun writes March's report from a seeded fake and checks the CSV and
// the exact total.
func TestRun(t *testing.T) {
	srv := mmstest.NewServer()
	defer srv.Close()
	march := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	seed(srv.Org(), march)
	client, err := admin.NewClient(srv.AdminClientOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	var out, sum bytes.Buffer
	if err := run(context.Background(), client, march, &out, &sum); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || strings.Join(recs[0], ",") != "starting_at,ending_at,workspace_id,model,amount,list_amount,currency,requests" {
		t.Fatalf("csv:\n%v", recs)
	}
	if !strings.Contains(text, ",mms-large-1,395.500,420.00,USD,3360") {
		t.Errorf("no exact production/large row:\n%s", text)
	}
	// 28 × (14.125 + 2.333 + 4.7) = 592.424
	if want := "2026-03: 3 rows, total 592.424 USD"; !strings.Contains(sum.String(), want) {
		t.Errorf("summary %q, want %q", sum.String(), want)
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, errOut := exampletest.RunMain(t, main)
	if !strings.Contains(out, "workspace_id,model,amount") || !strings.Contains(errOut, "3 rows") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out, errOut)
	}
}
