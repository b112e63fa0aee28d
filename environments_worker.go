package mms

// The self-hosted environment worker: polls the environment's work queue
// and runs each session it takes with the session runner, keeping the
// work item's lease alive meanwhile.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/option"
)

// WorkerParams configure [EnvironmentWorkService.Serve].
type WorkerParams struct {
	// WorkerID names this worker to the service (the Vendor-Worker-ID
	// header of its polls); "" makes one from the host name and a random
	// suffix.
	WorkerID string
	// MaxSessions bounds the work items this worker handles at once
	// (default 1).
	MaxSessions int
	// PollWait is how long one poll waits for work on the service
	// (block_ms; default 10 s).
	PollWait time.Duration
	// Lease is the lease each heartbeat asks for (desired_ttl_seconds,
	// whole seconds); 0 keeps the service's (300 s). The worker beats
	// at a third of it.
	Lease time.Duration
	// Session is how each session is run: its tools, its sandbox (the
	// built-in tools this environment executes), its confirmations and
	// timeouts. ResultTimeout defaults to as long as the worker holds the
	// work item's lease.
	Session SessionRunParams
	// OnStep, when set, sees every step of every session run, with the
	// work item it belongs to (for logging). It is called from the
	// session's goroutine.
	OnStep func(w *Work, step SessionRunStep)
	// OnError, when set, is told of failures the worker survives: a poll
	// that failed and will be retried, a session run that ended with an
	// error, a lease that was lost.
	OnError func(w *Work, err error)
}

// The worker's defaults.
const (
	// whileLeaseHeld is the result timeout of a worker's runs: no time
	// limit of its own, as the run's context ends when the lease is lost.
	whileLeaseHeld  = 100 * 365 * 24 * time.Hour
	defaultPollWait = 10 * time.Second
	// leaseShare is the part of the lease between two heartbeats: three
	// heartbeats a lease, so that one lost beat does not lose it.
	leaseShare = 3
)

// Validate reports the first rule the params break: a negative bound, or
// session params that do not validate.
func (p WorkerParams) Validate() error {
	switch {
	case p.MaxSessions < 0:
		return invalid("MaxSessions", "must not be negative, got %d", p.MaxSessions)
	case p.PollWait < 0:
		return invalid("PollWait", "must not be negative, got %v", p.PollWait)
	case p.Lease < 0 || (p.Lease > 0 && p.Lease < time.Second):
		return invalid("Lease", "must be at least 1s (or 0 for the service's), got %v", p.Lease)
	}
	return p.Session.Validate()
}

// Serve runs a worker of a self-hosted environment until ctx ends: it
// polls the work queue, acknowledges each item it takes, heartbeats at a
// third of the lease, and runs the item's session with
// [SessionsService.Run] (authenticated with the item's sessions token when
// it carries one), then stops the item. A health check item is
// acknowledged and stopped. A stop requested through the service (the
// item's state turns "stopping"), or a lease taken over by another
// worker, ends that session's run. Any number of workers may serve one
// environment: the queue gives each item to one of them.
//
// Serve returns nil once ctx has ended and the sessions it was running
// have stopped, and an error when the queue cannot be served (an unknown
// or cloud environment, a refused credential). Polls that fail otherwise
// are retried with backoff.
func (s *EnvironmentWorkService) Serve(ctx context.Context, environmentID string, p WorkerParams, opts ...option.RequestOption) error {
	if _, err := pathID("environment_id", environmentID); err != nil {
		return err
	}
	if err := p.Validate(); err != nil {
		return err
	}
	if p.WorkerID == "" {
		p.WorkerID = newWorkerID()
	}
	if p.MaxSessions == 0 {
		p.MaxSessions = 1
	}
	if p.PollWait == 0 {
		p.PollWait = defaultPollWait
	}
	w := &worker{svc: s, env: environmentID, p: p, opts: opts, slots: make(chan struct{}, p.MaxSessions)}
	defer w.wg.Wait()
	return w.serve(ctx)
}

// worker is one Serve call.
type worker struct {
	svc   *EnvironmentWorkService
	env   string
	p     WorkerParams
	opts  []option.RequestOption
	slots chan struct{}
	wg    sync.WaitGroup
}

func (w *worker) serve(ctx context.Context) error {
	failures := 0
	for {
		select { // a free slot before taking work
		case w.slots <- struct{}{}:
		case <-ctx.Done():
			return nil
		}
		block := int(w.p.PollWait / time.Millisecond)
		work, err := w.svc.Poll(ctx, w.env, EnvironmentWorkPollParams{BlockMS: &block, WorkerID: w.p.WorkerID}, w.opts...)
		if err != nil || work == nil {
			<-w.slots
		}
		switch {
		case ctx.Err() != nil:
			return nil
		case err != nil:
			var apiErr *Error
			if errors.As(err, &apiErr) && isFinalStatus(apiErr.StatusCode) {
				return fmt.Errorf("mms: serving environment %s: %w", w.env, err)
			}
			w.report(nil, err)
			failures++
			if sleepCtx(ctx, backoffDelay(failures, time.Second, 30*time.Second)) != nil {
				return nil
			}
			continue
		case work == nil:
			continue
		}
		failures = 0
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			defer func() { <-w.slots }()
			w.handle(ctx, work)
		}()
	}
}

// handle acknowledges a work item, runs it, and stops it.
func (w *worker) handle(ctx context.Context, work *Work) {
	acked, err := w.svc.Ack(ctx, w.env, work.ID, w.opts...)
	if err != nil {
		w.report(work, fmt.Errorf("mms: acknowledging work %s: %w", work.ID, err))
		return
	}
	work = acked
	if sess, ok := work.Data.(WorkSession); ok {
		w.runSession(ctx, work, sess.ID)
	}
	if ctx.Err() != nil {
		return // the lease lapses and another worker reclaims the item
	}
	// A stop cut short by the worker's own shutdown is no failure either:
	// the lease lapses as above.
	if _, err := w.svc.Stop(ctx, w.env, work.ID, WorkStopParams{Force: true}, w.opts...); err != nil && ctx.Err() == nil {
		w.report(work, fmt.Errorf("mms: stopping work %s: %w", work.ID, err))
	}
}

// runSession runs the session while a heartbeat goroutine keeps the lease.
func (w *worker) runSession(ctx context.Context, work *Work, sessionID string) {
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	beat := make(chan struct{})
	go func() {
		defer close(beat)
		w.heartbeat(rctx, cancel, work)
	}()
	defer func() { cancel(); <-beat }()
	opts := w.opts
	if creds, err := work.SessionCredentials(); err == nil {
		// The item's own credential, for this session only. Its
		// api_base_url is not followed: requests stay on the configured
		// base URL, the only host credentials go to.
		opts = append(append([]option.RequestOption(nil), w.opts...), option.WithAuthToken(creds.SessionsToken.Reveal()))
	}
	p := w.p.Session
	if p.ResultTimeout == 0 {
		p.ResultTimeout = whileLeaseHeld
	}
	for step, err := range w.svc.client.Sessions.Run(rctx, sessionID, p, opts...) {
		if err != nil {
			if ctx.Err() == nil && rctx.Err() == nil {
				w.report(work, err)
			}
			return
		}
		if w.p.OnStep != nil {
			w.p.OnStep(work, step)
		}
	}
}

// heartbeat extends the lease at a third of its length until ctx ends;
// a lost lease or a requested stop cancels the run.
func (w *worker) heartbeat(ctx context.Context, stop context.CancelFunc, work *Work) {
	ttl := 300 * time.Second
	var desired *int
	if w.p.Lease > 0 {
		ttl = w.p.Lease
		desired = new(int)
		*desired = int(w.p.Lease / time.Second)
	}
	last := ""
	if work.LatestHeartbeatAt != nil {
		last = *work.LatestHeartbeatAt
	}
	for first := desired != nil; ; first = false {
		// With a lease of its own the first beat goes at once, to set it.
		if !first && sleepCtx(ctx, ttl/leaseShare) != nil {
			return
		}
		hb, err := w.svc.Heartbeat(ctx, w.env, work.ID, WorkHeartbeatParams{DesiredTTLSeconds: desired, ExpectedLastHeartbeat: last}, w.opts...)
		if ctx.Err() != nil {
			return
		}
		var apiErr *Error
		switch {
		case err != nil && errors.As(err, &apiErr) && isFinalStatus(apiErr.StatusCode):
			w.report(work, fmt.Errorf("mms: heartbeat of work %s: %w", work.ID, err))
			stop()
			return
		case err != nil:
			w.report(work, fmt.Errorf("mms: heartbeat of work %s (retried): %w", work.ID, err))
			continue
		case !hb.LeaseExtended:
			w.report(work, fmt.Errorf("mms: work %s: the lease was not extended (state %s): another worker holds it", work.ID, hb.State))
			stop()
			return
		case hb.State == WorkStateStopping || hb.State == WorkStateStopped:
			stop()
			return
		}
		last = hb.LastHeartbeat
		if hb.TTLSeconds > 0 {
			ttl = time.Duration(hb.TTLSeconds) * time.Second
		}
	}
}

func (w *worker) report(work *Work, err error) {
	if w.p.OnError != nil {
		w.p.OnError(work, err)
	}
}

// newWorkerID is "<host>-<8 random hex digits>".
func newWorkerID() string {
	host, _ := os.Hostname()
	if host == "" {
		host = "worker"
	}
	var b [4]byte
	rand.Read(b[:])
	return host + "-" + hex.EncodeToString(b[:])
}

// backoffDelay is the jittered wait before attempt n: from lo doubling to
// hi, jittered to [d/2, d).
func backoffDelay(n int, lo, hi time.Duration) time.Duration {
	d := hi
	if n <= 30 && lo<<(n-1) < hi {
		d = lo << (n - 1)
	}
	if d < 2 {
		return d
	}
	return d/2 + mrand.N(d/2)
}
