package mms_test

import (
	"context"
	"fmt"
	"iter"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// jobInput yields n small requests with custom_ids "req-000000"... .
func jobInput(n int) iter.Seq[mms.BatchRequest] {
	return func(yield func(mms.BatchRequest) bool) {
		for i := range n {
			if !yield(jobRequest(i, "")) {
				return
			}
		}
	}
}

func jobRequest(i int, pad string) mms.BatchRequest {
	return mms.BatchRequest{CustomID: fmt.Sprintf("req-%06d", i), Params: mms.MessageCreateParams{
		Model: "mms-large-1", MaxTokens: 16,
		Messages: []mms.MessageParam{mms.UserText(fmt.Sprintf("question %d%s", i, pad))},
	}}
}

// collect runs a job's results to the end, counting each custom_id.
func collectJob(t *testing.T, job *mms.BatchJob, ctx context.Context, seen map[string]int) error {
	t.Helper()
	for res, err := range job.Results(ctx) {
		if err != nil {
			return err
		}
		seen[res.CustomID]++
	}
	return nil
}

func TestBatchJobSmall(t *testing.T) {
	client, _ := fakeclient.New(t, mmstest.WithBatchProcessingTime(0))
	job, err := client.Messages.Batches.NewJob(mms.BatchJobParams{
		Requests: jobInput(25), Store: mms.NewBatchJobMemoryStore(),
		MaxRequestsPerBatch: 10, PollInterval: time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	seen := map[string]int{}
	if err := collectJob(t, job, context.Background(), seen); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 25 {
		t.Fatalf("got %d results, want 25", len(seen))
	}
	for id, n := range seen {
		if n != 1 || false {
			t.Errorf("%s delivered %d times, submitted %d times", id, n, -1)
		}
	}
	p := job.Progress()
	want := mms.BatchJobProgress{Requests: 25, Submitted: 25, Succeeded: 25, Batches: 3}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
}
