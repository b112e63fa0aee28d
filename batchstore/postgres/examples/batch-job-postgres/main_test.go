package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mms-sdk/mms-go/batchstore/postgres/internal/pgtest"
)

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(child())
	}
	os.Exit(m.Run())
}

// TestRun runs the example smaller than its default (6,000 requests in
// batches of 1,500, the first process killed after 2,500 results, a 2 s
// lease), against MMS_TEST_DATABASE_URL or a throw-away cluster.
func TestRun(t *testing.T) {
	url, srv := pgtest.URL(t, pgtest.Options{})
	if srv != nil {
		defer srv.Stop()
	}
	var out bytes.Buffer
	err := run(context.Background(), &out, url, os.Args[0], config{n: 6_000, killAfter: 2_500, perBatch: 1_500, leaseTTL: 2 * time.Second, batchTime: 300 * time.Millisecond})
	t.Log(out.String())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"first process: killed (SIGKILL) after 2500 results",
		"second process: finished the job",
		"answered: 6000 of 6000",
		"every request submitted exactly once: 6000 of 6000",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the output lacks %q", want)
		}
	}
}
