package mms_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"

	"github.com/stretchr/testify/require"
)

// propertyOutcomes draws the fake's outcome of each submission of each
// request from seed: the same on every call, so a test can check results
// against it.
func propertyOutcomes(seed uint64) func(id string, submission int) mmstest.BatchOutcome {
	return func(id string, submission int) mmstest.BatchOutcome {
		h := uint64(0)
		for _, c := range id {
			h = h*31 + uint64(c)
		}
		r := rand.New(rand.NewPCG(seed, h*7+uint64(submission)))
		switch x := r.IntN(100); {
		case x < 15:
			return mmstest.BatchOutcome{Type: "errored", ErrorType: "overloaded_error"}
		case x < 25:
			return mmstest.BatchOutcome{Type: "expired"}
		case x < 30:
			return mmstest.BatchOutcome{Type: "errored", ErrorType: "invalid_request_error", Message: "no"}
		case x < 33:
			return mmstest.BatchOutcome{Type: "canceled"}
		}
		return mmstest.BatchOutcome{}
	}
}

// wantType is the result type an outcome gives.
func wantType(o mmstest.BatchOutcome) string {
	switch o.Type {
	case "errored":
		return "mms.ErroredBatchResult"
	case "expired":
		return "mms.ExpiredBatchResult"
	case "canceled":
		return "mms.CanceledBatchResult"
	}
	return "mms.SucceededBatchResult"
}

// TestBatchJobRandomKills runs random jobs (sizes, batch limits, outcomes,
// retry limits, lost create answers, a cancel of the job) killed at random
// step boundaries, by crash or by context, several times each, and checks
// after the last run: every request delivered exactly once; submitted as
// many times as its result's attempt says; its result the one the fake
// gave that submission; and resubmitted exactly when the policy says.
func TestBatchJobRandomKills(t *testing.T) {
	cases := 40
	if testing.Short() {
		cases = 8
	}
	for c := range cases {
		seed := uint64(c) + 1
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 99))
			n, perBatch, attempts := 1+rng.IntN(60), 1+rng.IntN(15), 1+rng.IntN(3)
			outcomes := propertyOutcomes(seed)
			client, srv := fakeclient.New(t, mmstest.WithClock(steppingClock(100*time.Millisecond)),
				mmstest.WithBatchProcessingTime(time.Duration(rng.IntN(3))*time.Second), mmstest.WithBatchOutcomes(outcomes))
			if rng.IntN(3) == 0 {
				srv.InjectFault(mmstest.Fault{Method: "POST", Path: "/v1/messages/batches", DropAfterBytes: 1, Times: 1 + rng.IntN(2)})
			}
			cancelAt := -1 // the job is canceled at this step, in the first run
			if rng.IntN(5) == 0 {
				cancelAt = 1 + rng.IntN(30)
			}
			dir := t.TempDir()
			type got struct {
				res   mms.BatchJobResult
				count int
			}
			results := map[string]*got{}
			kills := rng.IntN(4)
			canceled := false
			for run := 0; ; run++ {
				ctx, cancel := context.WithCancel(context.Background())
				steps, killAt, crash := 0, -1, rng.IntN(2) == 0
				if run < kills {
					killAt = 1 + rng.IntN(20+3*n)
				}
				var job *mms.BatchJob
				hook := func(step string, seq int) error {
					steps++
					if run == 0 && steps == cancelAt {
						canceled = true
						if err := job.Cancel(context.Background()); err != nil {
							return err
						}
					}
					if steps != killAt {
						return nil
					}
					if crash {
						return errCrash
					}
					cancel()
					return nil
				}
				job, err := client.Messages.Batches.NewJob(mms.BatchJobParams{
					Requests: jobInput(n), Store: openDir(t, dir), MaxRequestsPerBatch: perBatch,
					Retry:        mms.BatchJobRetry{MaxAttempts: attempts},
					PollInterval: time.Millisecond, MaxPollInterval: 4 * time.Millisecond, OnStep: hook,
				})
				require.NoError(t, err)
				var runErr error
				for res, err := range job.Results(ctx) {
					if err != nil {
						runErr = err
						break
					}
					if g := results[res.CustomID]; g != nil {
						g.count++
						continue
					}
					results[res.CustomID] = &got{res: res, count: 1}
				}
				cancel()
				if runErr == nil {
					break
				}
				if !errors.Is(runErr, errCrash) && !errors.Is(runErr, context.Canceled) {
					t.Fatalf("run %d: %v", run, runErr)
				}
				if run > kills+1 {
					t.Fatalf("run %d ended with %v and no kill was due", run, runErr)
				}
			}
			if len(results) != n {
				t.Errorf("%d custom_ids delivered, want %d", len(results), n)
			}
			for i := range n {
				id := fmt.Sprintf("req-%06d", i)
				g := results[id]
				if g == nil {
					continue
				}
				res := g.res
				if g.count != 1 {
					t.Errorf("%s delivered %d times", id, g.count)
				}
				if subs := srv.BatchSubmissions(id); subs != res.Attempt {
					t.Errorf("%s submitted %d times, its result says attempt %d", id, subs, res.Attempt)
				}
				typ := fmt.Sprintf("%T", res.Result)
				if res.Attempt == 0 {
					if !canceled || typ != "mms.CanceledBatchResult" {
						t.Errorf("%s: never submitted, result %s (job canceled: %v)", id, typ, canceled)
					}
					continue
				}
				o := outcomes(id, res.Attempt)
				if typ != wantType(o) && !(canceled && typ == "mms.CanceledBatchResult") {
					t.Errorf("%s: attempt %d gave %s, the fake chose %+v", id, res.Attempt, typ, o)
				}
				retryable := o.Type == "expired" || (o.Type == "errored" && o.ErrorType == "overloaded_error")
				if retryable && res.Attempt < attempts && !canceled {
					t.Errorf("%s: %s at attempt %d of %d was not resubmitted", id, typ, res.Attempt, attempts)
				}
				for a := 1; a < res.Attempt; a++ {
					if prev := outcomes(id, a); prev.Type != "expired" && prev.ErrorType != "overloaded_error" {
						t.Errorf("%s: attempt %d (%+v) was resubmitted", id, a, prev)
					}
				}
			}
		})
	}
}
