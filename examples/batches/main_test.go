package main

import (
	"context"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
)

// TestRun runs the example against mmstest, whose batches end after
// mmstest.DefaultBatchProcessingTime.
func TestRun(t *testing.T) {
	srv := mmstest.NewServer()
	defer srv.Close()
	t.Setenv(mms.EnvAPIKey, mmstest.DefaultAPIKey)
	t.Setenv(mms.EnvAuthToken, "")
	t.Setenv(mms.EnvBaseURL, srv.URL)
	if err := run(context.Background(), "mms-large-1", 64, []string{"hello", "world"}); err != nil {
		t.Fatal(err)
	}
}
