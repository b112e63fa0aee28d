package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/batchstore/postgres"
	"github.com/mms-sdk/mms-go/batchstore/postgres/internal/pgtest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

var errCrash = errors.New("simulated crash")

// checkOnce asserts every request of n delivered and submitted exactly
// once.
func checkOnce(t *testing.T, srv *mmstest.Server, n int, seen map[string]int) {
	t.Helper()
	if len(seen) != n {
		t.Errorf("%d custom_ids delivered, want %d", len(seen), n)
	}
	for i := range n {
		id := fmt.Sprintf("req-%06d", i)
		if seen[id] != 1 {
			t.Errorf("%s delivered %d times", id, seen[id])
		}
		if got := srv.BatchSubmissions(id); got != 1 {
			t.Errorf("%s submitted %d times", id, got)
		}
	}
}

// TestJobRandomKills runs random jobs over the store, killed at random
// step boundaries (by crash or by context) and resumed with a new store
// and pool each time, as a new process would: every request delivered
// once and submitted once.
func TestJobRandomKills(t *testing.T) {
	cases := 12
	if testing.Short() {
		cases = 4
	}
	url := dbURL(t)
	for c := range cases {
		seed := uint64(c) + 1
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 31))
			n, perBatch := 1+rng.IntN(50), 1+rng.IntN(15)
			client, srv := fakeclient.New(t, mmstest.WithBatchProcessingTime(time.Duration(rng.IntN(3))*50*time.Millisecond))
			if rng.IntN(3) == 0 {
				srv.InjectFault(mmstest.Fault{Method: "POST", Path: "/v1/messages/batches", DropAfterBytes: 1, Times: 1})
			}
			job := jobName(t)
			seen := map[string]int{}
			kills := 1 + rng.IntN(3)
			for run := 0; ; run++ {
				pool := newPool(t, url)
				store, err := postgres.Open(context.Background(), pool, job, &postgres.Options{LeaseTTL: 2 * time.Second})
				require.NoError(t, err)
				ctx, cancel := context.WithCancel(context.Background())
				steps, killAt, crash := 0, -1, rng.IntN(2) == 0
				if run < kills {
					killAt = 1 + rng.IntN(10+2*n)
				}
				j, err := client.Messages.Batches.NewJob(mms.BatchJobParams{
					Requests: jobInput(n), Store: store, MaxRequestsPerBatch: perBatch,
					PollInterval: time.Millisecond, MaxPollInterval: 5 * time.Millisecond,
					OnStep: func(string, int) error {
						steps++
						if steps != killAt {
							return nil
						}
						if crash {
							return errCrash
						}
						cancel()
						return nil
					},
				})
				require.NoError(t, err)
				var runErr error
				for res, err := range j.Results(ctx) {
					if err != nil {
						runErr = err
						break
					}
					seen[res.CustomID]++
				}
				cancel()
				pool.Close()
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
			checkOnce(t, srv, n, seen)
		})
	}
}

// TestJobTwoProcessesRandomKills runs each job with two worker processes
// started together, again and again until the job is done: each worker
// may exit at a random step (as a crash), or be killed (SIGKILL) at a
// random moment, and the second waits for the first's lease. Every
// request's result is delivered and none is submitted twice.
func TestJobTwoProcessesRandomKills(t *testing.T) {
	seeds := 4
	if testing.Short() {
		seeds = 2
	}
	url := dbURL(t)
	for c := range seeds {
		seed := uint64(c) + 1
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 77))
			n, perBatch := 10+rng.IntN(40), 3+rng.IntN(10)
			fake := mmstest.NewServer(mmstest.WithBatchProcessingTime(100 * time.Millisecond))
			defer fake.Close()
			job := jobName(t)
			seen := map[string]int{}
			done := false
			for round := 0; !done; round++ {
				if round == 12 {
					t.Fatal("the job is not done after 12 rounds")
				}
				var ws []*worker
				for i := range 2 {
					c := workerConfig{DB: url, Job: job, Fake: fake.URL, Owner: fmt.Sprintf("worker %d.%d", round, i),
						N: n, PerBatch: perBatch, TTL: time.Second, Wait: true}
					if round < 3 && rng.IntN(3) > 0 {
						c.ExitAt = 1 + rng.IntN(10+n)
					}
					ws = append(ws, startWorker(t, c))
				}
				if round < 3 && rng.IntN(2) == 0 {
					victim, after := ws[rng.IntN(2)], time.Duration(rng.IntN(800))*time.Millisecond
					time.AfterFunc(after, func() { victim.cmd.Process.Kill() })
				}
				for _, w := range ws {
					ids, errLine, ok := w.results(60 * time.Second)
					if !ok {
						t.Fatalf("round %d: a worker did not end", round)
					}
					for _, id := range ids {
						seen[id]++
					}
					switch {
					case w.code == workerDone:
						done = true
					case w.code == workerFailed && !strings.HasPrefix(errLine, "E lost"):
						t.Fatalf("round %d: worker failed: %s", round, errLine)
					}
					t.Logf("round %d: worker exit %d, %d results %s", round, w.code, len(ids), errLine)
				}
			}
			if len(seen) != n {
				t.Errorf("%d custom_ids delivered, want %d", len(seen), n)
			}
			for i := range n {
				id := fmt.Sprintf("req-%06d", i)
				if got := fake.BatchSubmissions(id); got != 1 {
					t.Errorf("%s submitted %d times", id, got)
				}
				if seen[id] > 1 {
					t.Logf("%s delivered %d times (a process killed between the result's handling and its record)", id, seen[id])
				}
			}
		})
	}
}

// TestJobFrozenOwner stops a worker (SIGSTOP) at a step, past its lease: a
// second worker, waiting, takes the job over when the lease runs out and
// finishes it; the first, continued (SIGCONT), writes and sends nothing
// more and ends with a lost lease. No request is submitted twice.
func TestJobFrozenOwner(t *testing.T) {
	url := dbURL(t)
	const n, perBatch = 30, 10
	for _, stopAt := range []string{"intent/2", "created/2", "created-saved/1", "ended/1", "delivered/1"} {
		t.Run(strings.ReplaceAll(stopAt, "/", "-"), func(t *testing.T) {
			fake := mmstest.NewServer(mmstest.WithBatchProcessingTime(200 * time.Millisecond))
			defer fake.Close()
			job := jobName(t)
			a := startWorker(t, workerConfig{DB: url, Job: job, Fake: fake.URL, Owner: "frozen", N: n, PerBatch: perBatch, TTL: time.Second, StopAt: stopAt})
			idsA, ok := a.waitLine("F", 60*time.Second)
			require.True(t, ok, "worker a did not reach %s", stopAt)
			require.NoError(t, a.cmd.Process.Signal(syscall.SIGSTOP))
			for !stopped(a.cmd.Process.Pid) {
				time.Sleep(5 * time.Millisecond)
			}
			// While a's lease lasts, a second worker that does not wait is
			// refused, naming a.
			c := startWorker(t, workerConfig{DB: url, Job: job, Fake: fake.URL, Owner: "impatient", N: n, PerBatch: perBatch, TTL: time.Second})
			_, errLine, ok := c.results(60 * time.Second)
			require.True(t, ok)
			require.True(t, strings.HasPrefix(errLine, "E owned") && strings.Contains(errLine, "frozen"), "second worker: %s", errLine)

			b := startWorker(t, workerConfig{DB: url, Job: job, Fake: fake.URL, Owner: "successor", N: n, PerBatch: perBatch, TTL: time.Second, Wait: true})
			idsB, errLine, ok := b.results(60 * time.Second)
			require.True(t, ok)
			require.Equal(t, workerDone, b.code, "successor: %s", errLine)

			require.NoError(t, a.cmd.Process.Signal(syscall.SIGCONT))
			_, err := io.WriteString(a.stdin, "go on\n")
			require.NoError(t, err)
			more, errLine, ok := a.results(60 * time.Second)
			require.True(t, ok)
			require.Equal(t, workerFailed, a.code, "the frozen worker, continued: %s", errLine)
			require.True(t, strings.HasPrefix(errLine, "E lost"), "the frozen worker, continued: %s", errLine)
			require.Empty(t, more, "results the frozen worker yielded after its lease was lost")

			seen := map[string]int{}
			for _, id := range append(idsA, idsB...) {
				seen[id]++
			}
			checkOnce(t, fake, n, seen)
		})
	}
}

// TestJobServerRestartAndDroppedConnections runs a job while its
// server is restarted, then while its connections are cut
// (pg_terminate_backend): the job goes on, and ends with every request
// delivered and submitted once.
func TestJobServerRestartAndDroppedConnections(t *testing.T) {
	url, srv := pgtest.URL(t, pgtest.Options{})
	if srv == nil {
		t.Skip("a server of our own is needed to restart it (MMS_TEST_DATABASE_URL is set)")
	}
	defer srv.Stop()
	for _, disrupt := range []string{"restart", "terminate"} {
		t.Run(disrupt, func(t *testing.T) {
			ctx := context.Background()
			pool, err := pgxpool.New(ctx, url)
			require.NoError(t, err)
			defer pool.Close()
			admin, err := pgxpool.New(ctx, url)
			require.NoError(t, err)
			defer admin.Close()
			store, err := postgres.Open(ctx, pool, jobName(t), &postgres.Options{LeaseTTL: 10 * time.Second})
			require.NoError(t, err)
			client, fake := fakeclient.New(t, mmstest.WithBatchProcessingTime(100*time.Millisecond))
			const n = 300
			var once sync.Once
			disrupted := make(chan error, 1)
			steps := 0
			j, err := client.Messages.Batches.NewJob(mms.BatchJobParams{
				Requests: jobInput(n), Store: store, MaxRequestsPerBatch: 50,
				PollInterval: time.Millisecond, MaxPollInterval: 5 * time.Millisecond,
				OnStep: func(step string, seq int) error {
					steps++
					if steps%40 != 0 || steps > 400 {
						return nil
					}
					// Every 40 steps, disrupt the server under the job, once
					// (a restart) or every time (cut connections).
					switch disrupt {
					case "restart":
						once.Do(func() { disrupted <- srv.Restart() })
					case "terminate":
						_, err := admin.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
							WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`)
						if err != nil {
							t.Logf("terminate: %v", err)
						}
					}
					return nil
				},
			})
			require.NoError(t, err)
			seen := map[string]int{}
			for res, err := range j.Results(ctx) {
				require.NoError(t, err)
				seen[res.CustomID]++
			}
			if disrupt == "restart" {
				require.NoError(t, <-disrupted)
			}
			checkOnce(t, fake, n, seen)
		})
	}
}
