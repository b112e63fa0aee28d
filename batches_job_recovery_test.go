package mms_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// newTestJob makes a job over n requests (10 per batch) with store.
func newTestJob(t *testing.T, client *mms.Client, store mms.BatchJobStore, n int, edit func(*mms.BatchJobParams)) *mms.BatchJob {
	t.Helper()
	p := mms.BatchJobParams{Requests: jobInput(n), Store: store, MaxRequestsPerBatch: 10,
		PollInterval: time.Millisecond, MaxPollInterval: 4 * time.Millisecond}
	if edit != nil {
		edit(&p)
	}
	job, err := client.Messages.Batches.NewJob(p)
	require.NoError(t, err)
	t.Cleanup(func() { job.Close() })
	return job
}

// checkOnce asserts that requests 0..n-1 were delivered once and
// submitted `submitted` times each.
func checkOnce(t *testing.T, srv *mmstest.Server, seen map[string]int, n, submitted int) {
	t.Helper()
	if len(seen) != n {
		t.Errorf("%d custom_ids delivered, want %d", len(seen), n)
	}
	for i := range n {
		id := fmt.Sprintf("req-%06d", i)
		if seen[id] != 1 {
			t.Errorf("%s delivered %d times", id, seen[id])
		}
		if got := srv.BatchSubmissions(id); got != submitted {
			t.Errorf("%s submitted %d times, want %d", id, got, submitted)
		}
	}
}

func TestBatchJobCreateFaults(t *testing.T) {
	tests := []struct {
		name  string
		fault mmstest.Fault
		// wantErr is "" when the job must finish.
		wantErr string
	}{
		// The batch is made but its answer is lost: the job finds it.
		{"answer lost", mmstest.Fault{Method: "POST", Path: "/v1/messages/batches", DropAfterBytes: 1, Times: 1}, ""},
		// A 500 without a batch: the job looks, finds none, sends again.
		{"500", mmstest.Fault{Method: "POST", Path: "/v1/messages/batches", Statuses: []int{500, 500}}, ""},
		{"429", mmstest.Fault{Method: "POST", Path: "/v1/messages/batches", Statuses: []int{429}, RetryAfterMs: "1"}, ""},
		{"529", mmstest.Fault{Method: "POST", Path: "/v1/messages/batches", Statuses: []int{529}}, ""},
		{"400", mmstest.Fault{Method: "POST", Path: "/v1/messages/batches", Statuses: []int{400}}, "400"},
		{"always 500", mmstest.Fault{Method: "POST", Path: "/v1/messages/batches", Statuses: []int{500, 500, 500, 500, 500, 500, 500, 500}}, "failed 8 times"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, srv := fakeclient.New(t, mmstest.WithBatchProcessingTime(0))
			srv.InjectFault(tt.fault)
			job := newTestJob(t, client, mms.NewBatchJobMemoryStore(), 25, nil)
			seen := map[string]int{}
			err := collectJob(t, job, context.Background(), seen)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one with %q", err, tt.wantErr)
				}
				return
			}
			require.NoError(t, err)
			checkOnce(t, srv, seen, 25, 1)
		})
	}
}

// TestBatchJobForeignCandidates: while the job could not know whether its
// create happened, someone else made a batch of the same size. The job
// takes only its own.
func TestBatchJobForeignCandidates(t *testing.T) {
	for _, at := range []string{"intent/1", "created/1"} { // before and after the create was sent
		t.Run(at, func(t *testing.T) {
			client, srv := fakeclient.New(t, mmstest.WithBatchProcessingTime(0))
			store := mms.NewBatchJobMemoryStore()
			job := newTestJob(t, client, store, 10, func(p *mms.BatchJobParams) {
				p.OnStep = func(step string, seq int) error {
					if fmt.Sprintf("%s/%d", step, seq) == at {
						return errCrash
					}
					return nil
				}
			})
			seen := map[string]int{}
			if err := collectJob(t, job, context.Background(), seen); !errors.Is(err, errCrash) {
				t.Fatalf("first run: %v", err)
			}
			foreign := make([]mms.BatchRequest, 10)
			for i := range foreign {
				foreign[i] = jobRequest(i, "")
				foreign[i].CustomID = fmt.Sprintf("other-%d", i)
			}
			if _, err := client.Messages.Batches.Create(context.Background(), mms.BatchCreateParams{Requests: foreign}); err != nil {
				t.Fatal(err)
			}
			if err := collectJob(t, newTestJob(t, client, store, 10, nil), context.Background(), seen); err != nil {
				t.Fatal(err)
			}
			checkOnce(t, srv, seen, 10, 1)
			for id := range seen {
				if strings.HasPrefix(id, "other-") {
					t.Errorf("delivered %s, of someone else's batch", id)
				}
			}
		})
	}
}

func TestBatchJobRetries(t *testing.T) {
	// Request 3 errors retryably twice, 5 expires once, 7 errors for good,
	// 9 is canceled.
	outcomes := func(id string, submission int) mmstest.BatchOutcome {
		switch {
		case id == "req-000003" && submission <= 2:
			return mmstest.BatchOutcome{Type: "errored", ErrorType: "overloaded_error"}
		case id == "req-000005" && submission == 1:
			return mmstest.BatchOutcome{Type: "expired"}
		case id == "req-000007":
			return mmstest.BatchOutcome{Type: "errored", ErrorType: "invalid_request_error", Message: "bad"}
		case id == "req-000009":
			return mmstest.BatchOutcome{Type: "canceled"}
		}
		return mmstest.BatchOutcome{}
	}
	type got struct {
		Type    string
		Attempt int
	}
	typeOf := func(v mms.BatchResultValue) string { return fmt.Sprintf("%T", v) }
	tests := []struct {
		name        string
		maxAttempts int
		want        map[string]got
	}{
		{"three attempts", 3, map[string]got{
			"req-000003": {"mms.SucceededBatchResult", 3}, "req-000005": {"mms.SucceededBatchResult", 2},
			"req-000007": {"mms.ErroredBatchResult", 1}, "req-000009": {"mms.CanceledBatchResult", 1}}},
		{"two attempts", 2, map[string]got{
			"req-000003": {"mms.ErroredBatchResult", 2}, "req-000005": {"mms.SucceededBatchResult", 2},
			"req-000007": {"mms.ErroredBatchResult", 1}, "req-000009": {"mms.CanceledBatchResult", 1}}},
		{"no retries", 1, map[string]got{
			"req-000003": {"mms.ErroredBatchResult", 1}, "req-000005": {"mms.ExpiredBatchResult", 1},
			"req-000007": {"mms.ErroredBatchResult", 1}, "req-000009": {"mms.CanceledBatchResult", 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, _ := fakeclient.New(t, mmstest.WithBatchProcessingTime(0), mmstest.WithBatchOutcomes(outcomes))
			job := newTestJob(t, client, mms.NewBatchJobMemoryStore(), 12, func(p *mms.BatchJobParams) {
				p.Retry.MaxAttempts = tt.maxAttempts
			})
			results := map[string]got{}
			for res, err := range job.Results(context.Background()) {
				require.NoError(t, err)
				if _, dup := results[res.CustomID]; dup {
					t.Errorf("%s delivered twice", res.CustomID)
				}
				results[res.CustomID] = got{typeOf(res.Result), res.Attempt}
			}
			if len(results) != 12 {
				t.Errorf("%d results, want 12", len(results))
			}
			for id, w := range tt.want {
				if results[id] != w {
					t.Errorf("%s: got %+v, want %+v", id, results[id], w)
				}
			}
			p := job.Progress()
			if p.Retrying != 0 || p.Delivered() != 12 {
				t.Errorf("progress %+v", p)
			}
		})
	}
}

func TestBatchJobCancel(t *testing.T) {
	client, srv := fakeclient.New(t, mmstest.WithClock(steppingClock(100*time.Millisecond)), mmstest.WithBatchProcessingTime(time.Hour))
	store := mms.NewBatchJobMemoryStore()
	ctx := context.Background()
	var job *mms.BatchJob
	job = newTestJob(t, client, store, 25, func(p *mms.BatchJobParams) {
		p.OnStep = func(step string, seq int) error {
			if step == "created-saved" && seq == 2 {
				return job.Cancel(ctx)
			}
			return nil
		}
	})
	byType := map[string]int{}
	seen := map[string]int{}
	for res, err := range job.Results(ctx) {
		require.NoError(t, err)
		seen[res.CustomID]++
		byType[fmt.Sprintf("%T", res.Result)]++
		if res.CustomID >= "req-000020" && (res.BatchID != "" || res.Attempt != 0) {
			t.Errorf("%s, never submitted, came with batch %q, attempt %d", res.CustomID, res.BatchID, res.Attempt)
		}
	}
	if len(seen) != 25 {
		t.Errorf("%d results, want 25", len(seen))
	}
	for i := range 25 {
		id := fmt.Sprintf("req-%06d", i)
		want := 1
		if i >= 20 {
			want = 0
		}
		if seen[id] != 1 || srv.BatchSubmissions(id) != want {
			t.Errorf("%s delivered %d times, submitted %d times (want %d)", id, seen[id], srv.BatchSubmissions(id), want)
		}
	}
	if byType["mms.CanceledBatchResult"] < 5 {
		t.Errorf("results by type %v: want the unsent batch's 5 canceled at least", byType)
	}
	// The job stays canceled: a new run submits nothing and delivers nothing.
	if err := collectJob(t, newTestJob(t, client, store, 25, nil), ctx, seen); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 25 {
		t.Errorf("a run after the end delivered more")
	}
}

func TestBatchJobRedeliver(t *testing.T) {
	client, _ := fakeclient.New(t, mmstest.WithBatchProcessingTime(0), mmstest.WithBatchOutcomes(func(id string, _ int) mmstest.BatchOutcome {
		if id == "req-000004" {
			return mmstest.BatchOutcome{Type: "errored", ErrorType: "invalid_request_error"}
		}
		return mmstest.BatchOutcome{}
	}))
	store := mms.NewBatchJobMemoryStore()
	first := map[string]string{}
	for res, err := range newTestJob(t, client, store, 15, nil).Results(context.Background()) {
		require.NoError(t, err)
		first[res.CustomID] = fmt.Sprintf("%T %s", res.Result, res.BatchID)
	}
	// Without Redeliver a finished job yields nothing.
	none := map[string]int{}
	if err := collectJob(t, newTestJob(t, client, store, 15, nil), context.Background(), none); err != nil || len(none) != 0 {
		t.Fatalf("a finished job yielded %d results, %v", len(none), err)
	}
	again := map[string]string{}
	job := newTestJob(t, client, store, 15, func(p *mms.BatchJobParams) { p.Redeliver = true })
	for res, err := range job.Results(context.Background()) {
		require.NoError(t, err)
		if !res.Redelivered {
			t.Errorf("%s not marked Redelivered", res.CustomID)
		}
		if _, dup := again[res.CustomID]; dup {
			t.Errorf("%s redelivered twice", res.CustomID)
		}
		again[res.CustomID] = fmt.Sprintf("%T %s", res.Result, res.BatchID)
	}
	if diff := cmp.Diff(first, again); diff != "" {
		t.Errorf("redelivered results (-first +again):\n%s", diff)
	}
}

func TestBatchJobInputChanged(t *testing.T) {
	client, _ := fakeclient.New(t, mmstest.WithBatchProcessingTime(0))
	store := mms.NewBatchJobMemoryStore()
	job := newTestJob(t, client, store, 25, func(p *mms.BatchJobParams) {
		p.OnStep = func(step string, seq int) error {
			if step == "created-saved" {
				return errCrash
			}
			return nil
		}
	})
	if err := collectJob(t, job, context.Background(), map[string]int{}); !errors.Is(err, errCrash) {
		t.Fatal(err)
	}
	for _, n := range []int{24, 26} {
		err := collectJob(t, newTestJob(t, client, store, n, nil), context.Background(), map[string]int{})
		if err == nil || !strings.Contains(err.Error(), "changed") {
			t.Errorf("n=%d: error %v, want the input changed", n, err)
		}
	}
	err := collectJob(t, newTestJob(t, client, store, 25, func(p *mms.BatchJobParams) { p.MaxRequestsPerBatch = 11 }), context.Background(), map[string]int{})
	if err == nil || !strings.Contains(err.Error(), "limits") {
		t.Errorf("other limits: error %v, want the limits changed", err)
	}
}

func TestBatchJobBreakAndResume(t *testing.T) {
	client, srv := fakeclient.New(t, mmstest.WithBatchProcessingTime(0))
	store := mms.NewBatchJobMemoryStore()
	seen := map[string]int{}
	for res, err := range newTestJob(t, client, store, 25, nil).Results(context.Background()) {
		require.NoError(t, err)
		seen[res.CustomID]++
		if len(seen) == 5 {
			break // the fifth result was handled: it counts as delivered
		}
	}
	job := newTestJob(t, client, store, 25, nil)
	if p := job.Progress(); p.Delivered() != 0 {
		t.Errorf("progress before the run: %+v", p)
	}
	if err := collectJob(t, job, context.Background(), seen); err != nil {
		t.Fatal(err)
	}
	checkOnce(t, srv, seen, 25, 1)
	if p := job.Progress(); p.Delivered() != 25 || p.Requests != 25 {
		t.Errorf("progress after resuming: %+v", p)
	}
}

func TestBatchJobRunsOnce(t *testing.T) {
	client, _ := fakeclient.New(t, mmstest.WithBatchProcessingTime(0))
	job := newTestJob(t, client, mms.NewBatchJobMemoryStore(), 3, nil)
	var inner error
	for _, err := range job.Results(context.Background()) {
		require.NoError(t, err)
		for _, err := range job.Results(context.Background()) {
			inner = err
		}
		break
	}
	if !errors.Is(inner, mms.ErrBatchJobRunning) {
		t.Errorf("a second range while running: %v, want ErrBatchJobRunning", inner)
	}
}

func TestBatchJobParamsValidate(t *testing.T) {
	store := mms.NewBatchJobMemoryStore()
	ok := mms.BatchJobParams{Requests: jobInput(1), Store: store}
	tests := []struct {
		name  string
		edit  func(p *mms.BatchJobParams)
		field string
	}{
		{"ok", func(p *mms.BatchJobParams) {}, ""},
		{"no requests", func(p *mms.BatchJobParams) { p.Requests = nil }, "requests"},
		{"no store", func(p *mms.BatchJobParams) { p.Store = nil }, "dir"},
		{"dir and store", func(p *mms.BatchJobParams) { p.Dir = t.TempDir() }, "dir"},
		{"max requests at limit", func(p *mms.BatchJobParams) { p.MaxRequestsPerBatch = 100_000 }, ""},
		{"max requests over", func(p *mms.BatchJobParams) { p.MaxRequestsPerBatch = 100_001 }, "max_requests_per_batch"},
		{"max requests negative", func(p *mms.BatchJobParams) { p.MaxRequestsPerBatch = -1 }, "max_requests_per_batch"},
		{"max bytes at limit", func(p *mms.BatchJobParams) { p.MaxBytesPerBatch = mms.MaxBatchBytes }, ""},
		{"max bytes over", func(p *mms.BatchJobParams) { p.MaxBytesPerBatch = mms.MaxBatchBytes + 1 }, "max_bytes_per_batch"},
		{"max bytes negative", func(p *mms.BatchJobParams) { p.MaxBytesPerBatch = -1 }, "max_bytes_per_batch"},
		{"attempts negative", func(p *mms.BatchJobParams) { p.Retry.MaxAttempts = -1 }, "retry.max_attempts"},
		{"poll negative", func(p *mms.BatchJobParams) { p.PollInterval = -1 }, "poll_interval"},
		{"poll over max", func(p *mms.BatchJobParams) { p.PollInterval, p.MaxPollInterval = 2*time.Second, time.Second }, "poll_interval"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ok
			tt.edit(&p)
			err := p.Validate()
			var ve *mms.ValidationError
			switch {
			case tt.field == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.field != "" && (!errors.As(err, &ve) || ve.Field != tt.field):
				t.Errorf("error %v, want one for %s", err, tt.field)
			}
		})
	}
}

// TestBatchJobProgressAfterResume: a result queued for a retry whose
// resubmission had not been sent when the run died counts as retrying
// when the job resumes, and nothing else is counted twice.
func TestBatchJobProgressAfterResume(t *testing.T) {
	client, _ := fakeclient.New(t, mmstest.WithBatchProcessingTime(0), mmstest.WithBatchOutcomes(func(id string, sub int) mmstest.BatchOutcome {
		if id == "req-000003" && sub == 1 {
			return mmstest.BatchOutcome{Type: "expired"}
		}
		return mmstest.BatchOutcome{}
	}))
	store := mms.NewBatchJobMemoryStore()
	crashAt := func(at string) func(p *mms.BatchJobParams) {
		return func(p *mms.BatchJobParams) {
			p.OnStep = func(step string, seq int) error {
				if fmt.Sprintf("%s/%d", step, seq) == at {
					return errCrash
				}
				return nil
			}
		}
	}
	// Submissions 1 (10 requests) and 2 (2); 3 resubmits req-000003.
	if err := collectJob(t, newTestJob(t, client, store, 12, crashAt("intent/3")), context.Background(), map[string]int{}); !errors.Is(err, errCrash) {
		t.Fatal(err)
	}
	var job *mms.BatchJob
	var first *mms.BatchJobProgress
	job = newTestJob(t, client, store, 12, func(p *mms.BatchJobParams) {
		p.OnStep = func(step string, seq int) error {
			if first == nil {
				pr := job.Progress()
				first = &pr
			}
			return nil
		}
	})
	if err := collectJob(t, job, context.Background(), map[string]int{}); err != nil {
		t.Fatal(err)
	}
	want := mms.BatchJobProgress{Requests: 12, Submitted: 12, Succeeded: 11, Retrying: 1, Batches: 2}
	if diff := cmp.Diff(&want, first); diff != "" {
		t.Errorf("progress on resuming (-want +got):\n%s", diff)
	}
	want = mms.BatchJobProgress{Requests: 12, Submitted: 13, Succeeded: 12, Batches: 3}
	if diff := cmp.Diff(want, job.Progress()); diff != "" {
		t.Errorf("progress at the end (-want +got):\n%s", diff)
	}
}

// tamperFirstResults rewrites the first results file the job downloads:
// the line of req-000002 is dropped, req-000001's is repeated, and a
// foreign line and a line that is not JSON are added.
func tamperFirstResults() option.Middleware {
	var once sync.Once
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		if err != nil || !strings.HasSuffix(req.URL.Path, "/results") {
			return resp, err
		}
		done := true
		once.Do(func() { done = false })
		if done {
			return resp, nil
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		var out []string
		for _, line := range strings.Split(strings.TrimSpace(string(body)), "\n") {
			switch {
			case strings.Contains(line, `"req-000002"`):
				continue
			case strings.Contains(line, `"req-000001"`):
				out = append(out, line)
			}
			out = append(out, line)
		}
		out = append(out, `{"custom_id":"someone-else","result":{"type":"expired"}}`, `not json`)
		resp.Body = io.NopCloser(strings.NewReader(strings.Join(out, "\n") + "\n"))
		resp.ContentLength = -1
		resp.Header.Del("Content-Length")
		return resp, nil
	}
}

// TestBatchJobHostileResults: a results file that misses a request,
// repeats one and holds lines that are not the job's loses nothing and
// delivers nothing twice: the missing request gets an errored result the
// SDK made, which the default policy resubmits.
func TestBatchJobHostileResults(t *testing.T) {
	for _, attempts := range []int{1, 2} {
		t.Run(fmt.Sprint("attempts=", attempts), func(t *testing.T) {
			_, srv := fakeclient.New(t, mmstest.WithBatchProcessingTime(0))
			client, err := mms.NewClient(append(srv.ClientOptions(), option.WithMiddleware(tamperFirstResults()))...)
			require.NoError(t, err)
			results := map[string]mms.BatchJobResult{}
			job := newTestJob(t, client, mms.NewBatchJobMemoryStore(), 5, func(p *mms.BatchJobParams) { p.Retry.MaxAttempts = attempts })
			for res, err := range job.Results(context.Background()) {
				require.NoError(t, err)
				if _, dup := results[res.CustomID]; dup {
					t.Errorf("%s delivered twice", res.CustomID)
				}
				results[res.CustomID] = res
			}
			if len(results) != 5 {
				t.Fatalf("%d results, want 5: %v", len(results), results)
			}
			missing := results["req-000002"]
			if attempts == 1 {
				e, ok := missing.Result.(mms.ErroredBatchResult)
				if !ok || e.Error.Error.Type != "api_error" || !strings.Contains(e.Error.Error.Message, "no readable line") {
					t.Errorf("the missing request's result: %+v", missing.Result)
				}
				return
			}
			if _, ok := missing.Result.(mms.SucceededBatchResult); !ok || missing.Attempt != 2 {
				t.Errorf("the missing request, resubmitted: attempt %d, %T", missing.Attempt, missing.Result)
			}
		})
	}
}

func TestBatchJobCustomRetryable(t *testing.T) {
	client, srv := fakeclient.New(t, mmstest.WithBatchProcessingTime(0), mmstest.WithBatchOutcomes(func(id string, sub int) mmstest.BatchOutcome {
		if sub == 1 && (id == "req-000001" || id == "req-000002") {
			return mmstest.BatchOutcome{Type: "errored", ErrorType: "invalid_request_error"}
		}
		return mmstest.BatchOutcome{}
	}))
	// Retry req-000001's invalid request (not retryable by default), not
	// req-000002's.
	job := newTestJob(t, client, mms.NewBatchJobMemoryStore(), 4, func(p *mms.BatchJobParams) {
		p.Retry.Retryable = func(r mms.BatchResult) bool { return r.CustomID == "req-000001" }
	})
	attempts := map[string]int{}
	for res, err := range job.Results(context.Background()) {
		require.NoError(t, err)
		attempts[res.CustomID] = res.Attempt
	}
	want := map[string]int{"req-000000": 1, "req-000001": 2, "req-000002": 1, "req-000003": 1}
	if diff := cmp.Diff(want, attempts); diff != "" {
		t.Errorf("attempts (-want +got):\n%s", diff)
	}
	if srv.BatchSubmissions("req-000001") != 2 || srv.BatchSubmissions("req-000002") != 1 {
		t.Errorf("submissions: %d, %d", srv.BatchSubmissions("req-000001"), srv.BatchSubmissions("req-000002"))
	}
}

// TestBatchJobSpoolDir: batch bodies are written in SpoolDir while they are
// sent, and removed after.
func TestBatchJobSpoolDir(t *testing.T) {
	client, _ := fakeclient.New(t, mmstest.WithBatchProcessingTime(0))
	spool := t.TempDir()
	var during []string
	job := newTestJob(t, client, mms.NewBatchJobMemoryStore(), 12, func(p *mms.BatchJobParams) {
		p.SpoolDir = spool
		p.OnStep = func(step string, seq int) error {
			if step == "intent" {
				entries, err := os.ReadDir(spool)
				if err != nil {
					return err
				}
				for _, e := range entries {
					during = append(during, e.Name())
				}
			}
			return nil
		}
	})
	if err := collectJob(t, job, context.Background(), map[string]int{}); err != nil {
		t.Fatal(err)
	}
	if len(during) != 2 {
		t.Errorf("files in the spool directory as each of 2 batches was sent: %v", during)
	}
	if entries, _ := os.ReadDir(spool); len(entries) != 0 {
		t.Errorf("left in the spool directory: %v", entries)
	}
}

// TestBatchJobBatchGone: a batch deleted by someone else before the job
// polled it, or whose results were archived before the job read them,
// loses no request: each gets an errored result the SDK made, which the
// default policy resubmits.
func TestBatchJobBatchGone(t *testing.T) {
	tests := []struct {
		name string
		step string // where the batch goes away
		gone func(t *testing.T, client *mms.Client, clock *mmstest.ManualClock, batchID string)
	}{
		{"deleted", "created-saved/1", func(t *testing.T, client *mms.Client, _ *mmstest.ManualClock, id string) {
			if _, err := client.Messages.Batches.Delete(context.Background(), id); err != nil {
				t.Fatal(err)
			}
		}},
		{"archived", "ended/1", func(t *testing.T, _ *mms.Client, clock *mmstest.ManualClock, _ string) {
			clock.Advance(30 * 24 * time.Hour)
		}},
	}
	for _, tt := range tests {
		for _, attempts := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/attempts=%d", tt.name, attempts), func(t *testing.T) {
				clock := mmstest.NewManualClock(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
				client, srv := fakeclient.New(t, mmstest.WithManualClock(clock), mmstest.WithBatchProcessingTime(0))
				job := newTestJob(t, client, mms.NewBatchJobMemoryStore(), 3, func(p *mms.BatchJobParams) {
					p.Retry.MaxAttempts = attempts
					p.OnStep = func(step string, seq int) error {
						if fmt.Sprintf("%s/%d", step, seq) == tt.step {
							var id string
							for b, err := range client.Messages.Batches.List(context.Background(), mms.BatchListParams{}) {
								if err != nil {
									return err
								}
								id = b.ID
							}
							tt.gone(t, client, clock, id)
						}
						return nil
					}
				})
				results := map[string]mms.BatchJobResult{}
				for res, err := range job.Results(context.Background()) {
					require.NoError(t, err)
					results[res.CustomID] = res
				}
				if len(results) != 3 {
					t.Fatalf("%d results, want 3", len(results))
				}
				for id, res := range results {
					if attempts == 2 {
						if _, ok := res.Result.(mms.SucceededBatchResult); !ok || res.Attempt != 2 || srv.BatchSubmissions(id) != 2 {
							t.Errorf("%s: %T at attempt %d, submitted %d times", id, res.Result, res.Attempt, srv.BatchSubmissions(id))
						}
						continue
					}
					e, ok := res.Result.(mms.ErroredBatchResult)
					if !ok || !strings.Contains(e.Error.Error.Message, "gone from the service") {
						t.Errorf("%s: %+v", id, res.Result)
					}
				}
			})
		}
	}
}

// TestBatchJobCreateAnswerWithoutID: a create answered with an empty batch
// id is a lost answer: the job finds the batch by listing.
func TestBatchJobCreateAnswerWithoutID(t *testing.T) {
	_, srv := fakeclient.New(t, mmstest.WithBatchProcessingTime(0))
	var once sync.Once
	blank := func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		if err != nil || req.Method != http.MethodPost || req.URL.Path != "/v1/messages/batches" {
			return resp, err
		}
		once.Do(func() {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			var rec map[string]any
			if json.Unmarshal(body, &rec) == nil {
				rec["id"] = ""
				body, _ = json.Marshal(rec)
			}
			resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
			resp.Header.Set("Content-Length", fmt.Sprint(len(body)))
		})
		return resp, nil
	}
	client, err := mms.NewClient(append(srv.ClientOptions(), option.WithMiddleware(blank))...)
	require.NoError(t, err)
	seen := map[string]int{}
	if err := collectJob(t, newTestJob(t, client, mms.NewBatchJobMemoryStore(), 5, nil), context.Background(), seen); err != nil {
		t.Fatal(err)
	}
	checkOnce(t, srv, seen, 5, 1)
}
