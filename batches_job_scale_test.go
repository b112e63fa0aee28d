package mms_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"

	"github.com/stretchr/testify/require"
)

// scaleInput yields n requests; the first `big` carry about 5 KB of text,
// so that about 52,000 of them fill a 256 MiB batch before 100,000 do.
func scaleInput(n, big int) func(yield func(mms.BatchRequest) bool) {
	pad := strings.Repeat("lorem ipsum ", 420)
	return func(yield func(mms.BatchRequest) bool) {
		for i := range n {
			p := ""
			if i < big {
				p = pad
			}
			if !yield(jobRequest(i, p)) {
				return
			}
		}
	}
}

// TestBatchJob250k runs 250,000 requests end to end against the fake: the
// first batch is closed by the 256 MiB limit, the second by the 100,000
// count, and every custom_id is answered exactly once. It takes about a
// minute and several GB (the in-process fake holds a whole batch), so it
// skips under the race detector and -short; .ci/run runs it without -race.
func TestBatchJob250k(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("runs without -race and -short (see .ci/run)")
	}
	const n, big = 250_000, 60_000
	client, srv := fakeclient.New(t, mmstest.WithBatchProcessingTime(0))
	job, err := client.Messages.Batches.NewJob(mms.BatchJobParams{
		Requests: scaleInput(n, big), Dir: t.TempDir(), PollInterval: 10 * time.Millisecond,
	})
	require.NoError(t, err)
	defer job.Close()
	seen := make([]uint8, n)
	for res, err := range job.Results(context.Background()) {
		require.NoError(t, err)
		i, err := strconv.Atoi(strings.TrimPrefix(res.CustomID, "req-"))
		if err != nil || i < 0 || i >= n {
			t.Fatalf("a result for %q", res.CustomID)
		}
		seen[i]++
		if _, ok := res.Result.(mms.SucceededBatchResult); !ok {
			t.Fatalf("%s: %T", res.CustomID, res.Result)
		}
	}
	for i, c := range seen {
		if c != 1 {
			t.Errorf("req-%06d answered %d times", i, c)
		}
	}
	var sizes []int64
	for _, r := range srv.Requests() {
		if r.Method == "POST" && r.Path == "/v1/messages/batches" {
			sizes = append(sizes, r.BodySize)
		}
	}
	var counts []int
	for b, err := range client.Messages.Batches.List(context.Background(), mms.BatchListParams{}) {
		require.NoError(t, err)
		counts = append([]int{b.RequestCounts.Total()}, counts...) // oldest first
	}
	t.Logf("batches: %v requests, %v bytes", counts, sizes)
	if len(counts) != 3 || len(sizes) != 3 {
		t.Fatalf("%d batches, %d creates; want 3", len(counts), len(sizes))
	}
	if counts[0] >= mms.MaxBatchRequests || sizes[0] < mms.MaxBatchBytes-6000 || sizes[0] > mms.MaxBatchBytes {
		t.Errorf("the first batch (%d requests, %d bytes) was not closed by the byte limit", counts[0], sizes[0])
	}
	if counts[1] != mms.MaxBatchRequests {
		t.Errorf("the second batch holds %d requests, want %d", counts[1], mms.MaxBatchRequests)
	}
	if p := job.Progress(); p.Succeeded != n || p.Submitted != n {
		t.Errorf("progress %s", p)
	}
}
