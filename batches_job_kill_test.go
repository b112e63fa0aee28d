package mms_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"

	"github.com/stretchr/testify/require"
)

// errCrash is what a killer's hook returns to end a run as a crash would:
// the job returns at once, with nothing more sent or saved.
var errCrash = errors.New("simulated crash")

// killer stops a job at its at-th step boundary (1-based; 0 never): with
// crash, as if the process died there; else by cancelling the run's
// context, as a program shutting down does.
type killer struct {
	at     int
	crash  bool
	cancel context.CancelFunc

	mu    sync.Mutex
	steps []string
}

func (k *killer) hook(step string, seq int) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.steps = append(k.steps, fmt.Sprintf("%s/%d", step, seq))
	if len(k.steps) != k.at {
		return nil
	}
	if k.crash {
		return errCrash
	}
	k.cancel()
	return nil
}

// steppingClock is a server clock that moves step on every reading, so
// that batches end after a few polls, the same way on every run.
func steppingClock(step time.Duration) func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(step)
		return t
	}
}

// openDir opens a job directory, closed at the test's end.
func openDir(t *testing.T, dir string) *mms.BatchJobDir {
	t.Helper()
	d, err := mms.OpenBatchJobDir(dir)
	require.NoError(t, err)
	t.Cleanup(func() { d.Close() })
	return d
}

// killScenario is one job run against its own fake, killable.
type killScenario struct {
	n, perBatch int
	opts        []mmstest.Option
}

// runTo runs the job over store until it ends, killed by k (nil: never),
// adding the results it delivered to seen. It returns the run's error.
func (sc killScenario) runTo(t *testing.T, client *mms.Client, store mms.BatchJobStore, k *killer, seen map[string]int) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := mms.BatchJobParams{
		Requests: jobInput(sc.n), Store: store,
		MaxRequestsPerBatch: sc.perBatch, PollInterval: time.Millisecond, MaxPollInterval: 4 * time.Millisecond,
	}
	if k != nil {
		k.cancel = cancel
		p.OnStep = k.hook
	}
	job, err := client.Messages.Batches.NewJob(p)
	require.NoError(t, err)
	return collectJob(t, job, ctx, seen)
}

// check asserts that every request was delivered once and submitted once.
func (sc killScenario) check(t *testing.T, srv *mmstest.Server, seen map[string]int) {
	t.Helper()
	if len(seen) != sc.n {
		t.Errorf("%d custom_ids delivered, want %d", len(seen), sc.n)
	}
	for i := range sc.n {
		id := fmt.Sprintf("req-%06d", i)
		if seen[id] != 1 {
			t.Errorf("%s delivered %d times", id, seen[id])
		}
		if got := srv.BatchSubmissions(id); got != 1 {
			t.Errorf("%s submitted %d times", id, got)
		}
	}
}

func TestBatchJobKilledAtEveryStep(t *testing.T) {
	sc := killScenario{n: 25, perBatch: 10, opts: []mmstest.Option{
		mmstest.WithClock(steppingClock(100 * time.Millisecond)), mmstest.WithBatchProcessingTime(time.Second)}}
	// A clean run lists the step boundaries.
	clean := &killer{}
	client, srv := fakeclient.New(t, sc.opts...)
	seen := map[string]int{}
	if err := sc.runTo(t, client, mms.NewBatchJobMemoryStore(), clean, seen); err != nil {
		t.Fatal(err)
	}
	sc.check(t, srv, seen)
	t.Logf("%d step boundaries: %v", len(clean.steps), clean.steps)
	for at := 1; at <= len(clean.steps); at++ {
		for _, crash := range []bool{true, false} {
			name := fmt.Sprintf("%02d-%s-crash=%v", at, clean.steps[at-1], crash)
			t.Run(name, func(t *testing.T) {
				client, srv := fakeclient.New(t, sc.opts...)
				dir := t.TempDir()
				store := openDir(t, dir)
				seen := map[string]int{}
				k := &killer{at: at, crash: crash}
				err := sc.runTo(t, client, store, k, seen)
				switch {
				case crash && !errors.Is(err, errCrash):
					t.Fatalf("killed run: %v, want the crash", err)
				case !crash && err != nil && !errors.Is(err, context.Canceled):
					t.Fatalf("killed run: %v", err)
				}
				// The next process opens the directory again.
				if err := sc.runTo(t, client, openDir(t, dir), nil, seen); err != nil {
					t.Fatalf("resumed run: %v", err)
				}
				sc.check(t, srv, seen)
			})
		}
	}
}
