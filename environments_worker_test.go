package mms_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// TestWorkersShareEnvironmentAgainstFake runs two workers on one
// self-hosted environment: ten sessions, each calling a custom tool and
// the sandbox's bash, are all completed, each by one worker, each call
// answered once.
func TestWorkersShareEnvironmentAgainstFake(t *testing.T) {
	f := newAgentFake(t, []mms.AgentTool{customTool("weather", "the weather"), mms.AgentToolset20260401{}}, mms.SelfHostedEnvironmentConfig{})
	c, env, ctx := f.c, f.env, context.Background()
	const sessions = 10
	for i := range sessions {
		f.session(t, mms.NewUserMessageEvent(fmt.Sprintf("weather and bash, %d", i)))
	}

	var mu sync.Mutex
	ranBy := map[string]string{} // session → worker
	calls := map[string]int{}    // call id → runs
	sandbox := map[string]int{}  // call id → runs
	wctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, name := range []string{"worker-a", "worker-b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := c.Environments.Work.Serve(wctx, env, mms.WorkerParams{
				WorkerID: name, MaxSessions: 2, PollWait: time.Second,
				Session: mms.SessionRunParams{
					Tools: map[string]mms.SessionToolFunc{"weather": func(ctx context.Context, call mms.AgentCustomToolUseEvent) (string, error) {
						mu.Lock()
						defer mu.Unlock()
						calls[call.ID]++
						return "sunny", nil
					}},
					Sandbox: func(ctx context.Context, call mms.AgentToolUseEvent) (string, error) {
						mu.Lock()
						defer mu.Unlock()
						sandbox[call.ID]++
						return "ok", nil
					},
				},
				OnStep: func(w *mms.Work, step mms.SessionRunStep) {
					sess := w.Data.(mms.WorkSession).ID
					mu.Lock()
					defer mu.Unlock()
					if prev, ok := ranBy[sess]; ok && prev != name {
						t.Errorf("session %s run by %s and %s", sess, prev, name)
					}
					ranBy[sess] = name
				},
				OnError: func(w *mms.Work, err error) { t.Errorf("worker %s: %v", name, err) },
			})
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		}()
	}
	// Wait until every work item is stopped.
	deadline := time.Now().Add(30 * time.Second)
	for {
		stats, err := c.Environments.Work.Stats(ctx, env)
		require.NoError(t, err)
		if stats.Depth == 0 && stats.Pending == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("work left: %+v", stats)
		}
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if len(ranBy) != sessions || len(calls) != sessions || len(sandbox) != sessions {
		t.Fatalf("%d sessions run, %d custom calls, %d sandbox calls; want %d each", len(ranBy), len(calls), len(sandbox), sessions)
	}
	for id, n := range calls {
		if n != 1 {
			t.Errorf("call %s ran %d times", id, n)
		}
	}
	for id, n := range sandbox {
		if n != 1 {
			t.Errorf("sandbox call %s ran %d times", id, n)
		}
	}
	workers := map[string]bool{}
	for _, w := range ranBy {
		workers[w] = true
	}
	if len(workers) != 2 {
		t.Logf("all sessions went to %v", workers)
	}
}

func TestWorkerParamsValidation(t *testing.T) {
	c, err := mms.NewClient(option.WithAPIKey(testKey), option.WithBaseURL("http://127.0.0.1:1"))
	require.NoError(t, err)
	tests := []struct {
		name, env, field string
		p                WorkerParams
	}{
		{"no environment", "", "environment_id", WorkerParams{}},
		{"negative sessions", "env_1", "MaxSessions", WorkerParams{MaxSessions: -1}},
		{"negative poll wait", "env_1", "PollWait", WorkerParams{PollWait: -1}},
		{"lease under a second", "env_1", "Lease", WorkerParams{Lease: 999 * time.Millisecond}},
		{"session params", "env_1", "MaxConcurrency", WorkerParams{Session: mms.SessionRunParams{MaxConcurrency: -1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.Environments.Work.Serve(context.Background(), tt.env, tt.p)
			var verr *mms.ValidationError
			if !errors.As(err, &verr) || verr.Field != tt.field {
				t.Fatalf("error %v, want a ValidationError for %s", err, tt.field)
			}
		})
	}
}

// TestWorkerStopsOnRequest: a stop requested through the service ends the
// session's run (its tool's context ends) and the worker stops the item.
func TestWorkerStopsOnRequest(t *testing.T) {
	f := newAgentFake(t, []mms.AgentTool{customTool("slow", "takes long")}, mms.SelfHostedEnvironmentConfig{})
	c, env, ctx := f.c, f.env, context.Background()
	f.session(t, mms.NewUserMessageEvent("slow please"))
	running := make(chan *mms.Work, 1)
	toolEnded := make(chan error, 1)
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	served := make(chan error, 1)
	go func() {
		served <- c.Environments.Work.Serve(wctx, env, mms.WorkerParams{Lease: 3 * time.Second, PollWait: time.Second,
			Session: mms.SessionRunParams{Tools: map[string]mms.SessionToolFunc{"slow": func(ctx context.Context, _ mms.AgentCustomToolUseEvent) (string, error) {
				<-ctx.Done()
				toolEnded <- ctx.Err()
				return "", ctx.Err()
			}}},
			OnStep: func(w *mms.Work, step mms.SessionRunStep) {
				if e, ok := step.Event.(mms.AgentCustomToolUseEvent); ok && step.Kind == mms.StepEvent && e.Name == "slow" {
					running <- w
				}
			},
		})
	}()
	w := <-running
	if _, err := c.Environments.Work.Stop(ctx, env, w.ID, mms.WorkStopParams{}); err != nil {
		t.Fatal(err)
	}
	if err := <-toolEnded; !errors.Is(err, context.Canceled) {
		t.Errorf("the tool's context ended with %v", err)
	}
	for {
		got, err := c.Environments.Work.Get(ctx, env, w.ID)
		require.NoError(t, err)
		if got.State == mms.WorkStateStopped {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// WorkerParams is short for the table above.
type WorkerParams = mms.WorkerParams
