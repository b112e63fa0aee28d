package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
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
	require.NoError(t, err)
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

// seqOf yields the given requests.
func seqOf(reqs ...mms.BatchRequest) iter.Seq[mms.BatchRequest] {
	return func(yield func(mms.BatchRequest) bool) {
		for _, r := range reqs {
			if !yield(r) {
				return
			}
		}
	}
}

// oneRequestBodySize is the size of a batch body holding r alone, as the
// fake received it from Batches.Create.
func oneRequestBodySize(t *testing.T, r mms.BatchRequest) int64 {
	t.Helper()
	client, srv := fakeclient.New(t)
	if _, err := client.Messages.Batches.Create(context.Background(), mms.BatchCreateParams{Requests: []mms.BatchRequest{r}}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	return reqs[len(reqs)-1].BodySize
}

func TestBatchJobRefusesBadInputBeforeSending(t *testing.T) {
	big := jobRequest(3, strings.Repeat("x", 500))
	size := oneRequestBodySize(t, big)
	reqs := func(n int, edit func(i int, r *mms.BatchRequest)) iter.Seq[mms.BatchRequest] {
		out := make([]mms.BatchRequest, n)
		for i := range out {
			out[i] = jobRequest(i, "")
			edit(i, &out[i])
		}
		return seqOf(out...)
	}
	tests := []struct {
		name     string
		input    iter.Seq[mms.BatchRequest]
		maxBytes int64
		field    string // "" for no error
		opts     []option.RequestOption
	}{
		{"duplicate", reqs(10, func(i int, r *mms.BatchRequest) {
			if i == 7 {
				r.CustomID = "req-000003"
			}
		}), 0, `requests[7] (custom_id "req-000003").custom_id`, nil},
		{"bad custom_id", reqs(5, func(i int, r *mms.BatchRequest) {
			if i == 2 {
				r.CustomID = "has space"
			}
		}), 0, "requests[2].custom_id", nil},
		{"custom_id too long", reqs(5, func(i int, r *mms.BatchRequest) {
			if i == 4 {
				r.CustomID = strings.Repeat("a", 65)
			}
		}), 0, "requests[4].custom_id", nil},
		{"custom_id at its limit", reqs(5, func(i int, r *mms.BatchRequest) {
			if i == 4 {
				r.CustomID = strings.Repeat("a", 64)
			}
		}), 0, "", nil},
		{"bad params", reqs(5, func(i int, r *mms.BatchRequest) {
			if i == 1 {
				r.Params.Messages = nil
			}
		}), 0, `requests[1] (custom_id "req-000001").params.messages`, nil},
		{"request over the byte limit", seqOf(jobRequest(0, ""), big), size - 1, `requests[1] (custom_id "req-000003")`, nil},
		{"request at the byte limit", seqOf(jobRequest(0, ""), big), size, "", nil},
		{"no requests", seqOf(), 0, "requests", nil},
		{"temperature under 2026-10-21", reqs(3, func(i int, r *mms.BatchRequest) {
			if i == 2 {
				r.Params.Temperature = mms.Ptr(1.0)
			}
		}), 0, `requests[2] (custom_id "req-000002").params.temperature`, []option.RequestOption{option.WithVersion(mms.APIVersion20261021)}},
		{"temperature under 2023-06-01", reqs(3, func(i int, r *mms.BatchRequest) {
			if i == 2 {
				r.Params.Temperature = mms.Ptr(1.0)
			}
		}), 0, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, srv := fakeclient.New(t, mmstest.WithBatchProcessingTime(0))
			job, err := client.Messages.Batches.NewJob(mms.BatchJobParams{
				Requests: tt.input, Store: mms.NewBatchJobMemoryStore(), MaxBytesPerBatch: tt.maxBytes, PollInterval: time.Millisecond,
			}, tt.opts...)
			require.NoError(t, err)
			err = collectJob(t, job, context.Background(), map[string]int{})
			if tt.field == "" {
				if err != nil {
					t.Fatalf("error %v, want none", err)
				}
				return
			}
			var ve *mms.ValidationError
			if !errors.As(err, &ve) || ve.Field != tt.field {
				t.Fatalf("error %v, want a *ValidationError for %s", err, tt.field)
			}
			if n := len(srv.Requests()); n != 0 {
				t.Errorf("%d requests reached the service, want none", n)
			}
		})
	}
}

func TestBatchJobPacksUnderBothLimits(t *testing.T) {
	// 30 requests of about 700 bytes: the byte limit closes batches before
	// the count limit of 20 does, except where noted.
	input := func(yield func(mms.BatchRequest) bool) {
		for i := range 30 {
			pad := ""
			if i < 20 {
				pad = strings.Repeat("p", 600)
			}
			if !yield(jobRequest(i, pad)) {
				return
			}
		}
	}
	const maxBytes = 4000
	client, srv := fakeclient.New(t, mmstest.WithBatchProcessingTime(0))
	job, err := client.Messages.Batches.NewJob(mms.BatchJobParams{
		Requests: input, Store: mms.NewBatchJobMemoryStore(), MaxBytesPerBatch: maxBytes, MaxRequestsPerBatch: 8, PollInterval: time.Millisecond,
	})
	require.NoError(t, err)
	seen := map[string]int{}
	if err := collectJob(t, job, context.Background(), seen); err != nil {
		t.Fatal(err)
	}
	var counts []int
	for _, r := range srv.Requests() {
		if r.Method != "POST" || r.Path != "/v1/messages/batches" {
			continue
		}
		if r.BodySize > maxBytes {
			t.Errorf("a batch body of %d bytes, over the limit of %d", r.BodySize, maxBytes)
		}
		var body struct{ Requests []json.RawMessage }
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatal(err)
		}
		counts = append(counts, len(body.Requests))
	}
	// 5 large requests fit under 4000 bytes, and the fourth batch takes a
	// small one as well; then the small ones go by 8.
	want := []int{5, 5, 5, 6, 8, 1}
	if diff := cmp.Diff(want, counts); diff != "" {
		t.Errorf("requests per batch (-want +got):\n%s", diff)
	}
	if len(seen) != 30 {
		t.Errorf("%d results, want 30", len(seen))
	}
}

// TestBatchJobContextErrorSaysWhere: a job whose context ends while it
// waits for its batches yields the context's error with the mms: prefix
// and the job's progress, as every other call's error has them, not a
// bare "context deadline exceeded".
func TestBatchJobContextErrorSaysWhere(t *testing.T) {
	for _, tc := range []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		want error
	}{
		{"deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 300*time.Millisecond)
		}, context.DeadlineExceeded},
		{"cancel", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(300*time.Millisecond, cancel)
			return ctx, cancel
		}, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client, _ := fakeclient.New(t, mmstest.WithBatchProcessingTime(time.Hour)) // the batch never ends
			job, err := client.Messages.Batches.NewJob(mms.BatchJobParams{
				Requests: jobInput(3), Store: mms.NewBatchJobMemoryStore(), PollInterval: time.Millisecond,
			})
			require.NoError(t, err)
			defer job.Close()
			ctx, cancel := tc.ctx()
			defer cancel()
			err = collectJob(t, job, ctx, map[string]int{})
			require.ErrorIs(t, err, tc.want)
			require.True(t, strings.HasPrefix(err.Error(), "mms: batch job interrupted at 0/3 done"), "error %q", err)
			require.Contains(t, err.Error(), "3 submitted")
		})
	}
}
