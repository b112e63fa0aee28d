package mms_test

// Issue 27 §3: the worker never spins on a misbehaving queue, and a panic
// in a hook it calls on its own goroutines does not end the process.

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// hostileQueue is a work queue that ignores block_ms: every poll is
// answered at once, empty (204), with an item (itemJSON), or with a
// status; every ack is answered with ackStatus. It counts the requests.
type hostileQueue struct {
	pollStatus int    // 0: 204, or the item when itemJSON is set
	itemJSON   string // the item every poll hands out
	ackStatus  int
	polls      atomic.Int64
	acks       atomic.Int64
}

func (q *hostileQueue) start(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/work/poll"):
			q.polls.Add(1)
			switch {
			case q.pollStatus != 0:
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(q.pollStatus)
				w.Write([]byte(`{"type":"error","error":{"type":"api_error","message":"down"}}`))
			case q.itemJSON != "":
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(q.itemJSON))
			default:
				w.WriteHeader(http.StatusNoContent)
			}
		case strings.HasSuffix(r.URL.Path, "/ack"):
			q.acks.Add(1)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(q.ackStatus)
			w.Write([]byte(`{"type":"error","error":{"type":"api_error","message":"ack failed"}}`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// serveFor runs a worker against srv for d and returns Serve's error.
func serveFor(t *testing.T, srv *httptest.Server, d time.Duration, p mms.WorkerParams, opts ...option.RequestOption) error {
	t.Helper()
	c, err := mms.NewClient(append([]option.RequestOption{option.WithAPIKey(testKey), option.WithBaseURL(srv.URL), option.WithMaxRetries(0)}, opts...)...)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return c.Environments.Work.Serve(ctx, "env_1", p)
}

// The bounds below are generous: without backoff these queues see
// thousands of requests in the window, with it about five; a loaded
// machine only lowers the counts.
const hostileWindow, hostileMaxRequests = 2 * time.Second, 50

// TestWorkerBacksOffEmptyPolls: a queue that answers empty polls at once,
// whatever block_ms says, is not polled in a tight loop.
func TestWorkerBacksOffEmptyPolls(t *testing.T) {
	q := &hostileQueue{}
	err := serveFor(t, q.start(t), hostileWindow, mms.WorkerParams{OnError: func(_ *mms.Work, err error) { t.Errorf("OnError: %v", err) }})
	require.NoError(t, err)
	if n := q.polls.Load(); n == 0 || n >= hostileMaxRequests {
		t.Fatalf("%d polls in %v, want 1 to %d", n, hostileWindow, hostileMaxRequests-1)
	}
}

// TestWorkerBacksOffFailingAck: a queue that hands out an item at once
// whose ack keeps failing is not polled, nor the ack repeated, in a tight
// loop; each failed ack is reported.
func TestWorkerBacksOffFailingAck(t *testing.T) {
	for _, status := range []int{http.StatusInternalServerError, http.StatusNotFound} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			q := &hostileQueue{ackStatus: status, itemJSON: `{"type":"work","id":"work_1","environment_id":"env_1","state":"starting",` +
				`"data":{"type":"session","id":"sess_1"},"metadata":{},"secret":null,"created_at":"2026-04-02T10:00:00Z"}`}
			var reported atomic.Int64
			err := serveFor(t, q.start(t), hostileWindow, mms.WorkerParams{OnError: func(w *mms.Work, err error) {
				var apiErr *mms.Error
				if w == nil || w.ID != "work_1" || !errors.As(err, &apiErr) || apiErr.StatusCode != status {
					t.Errorf("OnError(%v, %v), want the failed ack of work_1", w, err)
				}
				reported.Add(1)
			}})
			require.NoError(t, err)
			polls, acks := q.polls.Load(), q.acks.Load()
			if acks == 0 || acks >= hostileMaxRequests || polls >= hostileMaxRequests {
				t.Fatalf("%d polls and %d acks in %v, want 1 to %d", polls, acks, hostileWindow, hostileMaxRequests-1)
			}
			if reported.Load() != acks {
				t.Errorf("%d failures reported for %d failed acks", reported.Load(), acks)
			}
		})
	}
}

// TestWorkerBacksOffFailingPolls: polls that fail (and are retried) back
// off from the first failure on.
func TestWorkerBacksOffFailingPolls(t *testing.T) {
	q := &hostileQueue{pollStatus: http.StatusServiceUnavailable}
	err := serveFor(t, q.start(t), hostileWindow, mms.WorkerParams{})
	require.NoError(t, err)
	if n := q.polls.Load(); n == 0 || n >= hostileMaxRequests {
		t.Fatalf("%d polls in %v, want 1 to %d", n, hostileWindow, hostileMaxRequests-1)
	}
}

// TestWorkerBackoffIsTunable: Backoff.Min and Max bound the waits (a Min
// of a second allows at most three polls in 2 s), and bad bounds are
// refused.
func TestWorkerBackoffIsTunable(t *testing.T) {
	q := &hostileQueue{}
	require.NoError(t, serveFor(t, q.start(t), hostileWindow, mms.WorkerParams{Backoff: mms.WorkerBackoff{Min: 2 * time.Second}}))
	if n := q.polls.Load(); n == 0 || n > 3 {
		t.Fatalf("%d polls in %v with a 2 s backoff, want 1 to 3", n, hostileWindow)
	}
	tests := []struct {
		name  string
		b     mms.WorkerBackoff
		field string
	}{
		{"negative min", mms.WorkerBackoff{Min: -1}, "Backoff.Min"},
		{"negative max", mms.WorkerBackoff{Max: -1}, "Backoff.Max"},
		{"max below min", mms.WorkerBackoff{Min: time.Second, Max: time.Second - 1}, "Backoff.Max"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var verr *mms.ValidationError
			err := mms.WorkerParams{Backoff: tt.b}.Validate()
			if !errors.As(err, &verr) || verr.Field != tt.field {
				t.Fatalf("error %v, want a ValidationError for %s", err, tt.field)
			}
		})
	}
	for _, ok := range []mms.WorkerBackoff{{}, {Min: time.Second, Max: time.Second}, {Max: time.Millisecond}, {Min: time.Hour}} {
		require.NoError(t, mms.WorkerParams{Backoff: ok}.Validate())
	}
}

// TestWorkerContainsOnStepPanic: a panic in OnStep ends that session's
// run, which is reported to OnError as a *ToolPanicError; the worker and
// its other session go on, and Serve returns cleanly.
func TestWorkerContainsOnStepPanic(t *testing.T) {
	f := newAgentFake(t, []mms.AgentTool{customTool("weather", "the weather")}, mms.SelfHostedEnvironmentConfig{})
	c, env, ctx := f.c, f.env, context.Background()
	doomed := f.session(t, mms.NewUserMessageEvent("weather, please"))
	other := f.session(t, mms.NewUserMessageEvent("weather, please"))

	var mu sync.Mutex
	var errs []error
	results := map[string]int{} // session → tool results posted
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	served := make(chan error, 1)
	go func() {
		served <- c.Environments.Work.Serve(wctx, env, mms.WorkerParams{
			MaxSessions: 2, PollWait: time.Second,
			Session: mms.SessionRunParams{Tools: map[string]mms.SessionToolFunc{"weather": func(context.Context, mms.AgentCustomToolUseEvent) (string, error) {
				return "sunny", nil
			}}},
			OnStep: func(w *mms.Work, step mms.SessionRunStep) {
				sess := w.Data.(mms.WorkSession).ID
				if sess == doomed {
					panic("a bug in OnStep")
				}
				if step.Kind == mms.StepToolResult {
					mu.Lock()
					results[sess]++
					mu.Unlock()
				}
			},
			OnError: func(_ *mms.Work, err error) {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			},
		})
	}()
	waitQueueDrained(t, c, env)
	stop()
	require.NoError(t, <-served)

	mu.Lock()
	defer mu.Unlock()
	if results[other] != 1 || results[doomed] != 0 {
		t.Errorf("tool results %v: want one for %s, none for %s", results, other, doomed)
	}
	require.Len(t, errs, 1, "errors reported: %v", errs)
	var pe *mms.ToolPanicError
	require.ErrorAs(t, errs[0], &pe)
	if pe.Hook != "OnStep" || pe.Value != "a bug in OnStep" || len(pe.Stack) == 0 {
		t.Errorf("panic error %+v, want OnStep's panic with its stack", pe)
	}
	if !strings.Contains(errs[0].Error(), doomed) || !strings.Contains(errs[0].Error(), "the OnStep hook panicked: a bug in OnStep") {
		t.Errorf("error %q does not name the session and the panic", errs[0])
	}
}

// TestWorkerContainsOnErrorPanic: a panic in OnError (here told of failed
// polls) is contained and logged; the worker goes on polling.
func TestWorkerContainsOnErrorPanic(t *testing.T) {
	var logged bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(lockedWriter{&mu, &logged}, nil))
	q := &hostileQueue{pollStatus: http.StatusServiceUnavailable}
	var calls atomic.Int64
	err := serveFor(t, q.start(t), time.Second, mms.WorkerParams{OnError: func(*mms.Work, error) {
		calls.Add(1)
		panic("a bug in OnError")
	}}, option.WithLogger(logger))
	require.NoError(t, err)
	if calls.Load() < 2 {
		t.Fatalf("OnError called %d times, want the worker to go on after its panic", calls.Load())
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logged.String(), "the OnError hook panicked: a bug in OnError") {
		t.Errorf("log %q does not report the panic", logged.String())
	}
}

// waitQueueDrained waits until every work item of env is stopped.
func waitQueueDrained(t *testing.T, c *mms.Client, env string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		stats, err := c.Environments.Work.Stats(context.Background(), env)
		require.NoError(t, err)
		if stats.Depth == 0 && stats.Pending == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("work left: %+v", stats)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
