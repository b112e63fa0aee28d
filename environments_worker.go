package mms

// The self-hosted environment worker: polls the environment's work queue
// and runs each session it takes with the session runner, keeping the
// work item's lease alive meanwhile.

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
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
	// Backoff is how long the worker waits after a round of its loop
	// that made no progress; see [WorkerBackoff].
	Backoff WorkerBackoff
	// OnStep, when set, sees every step of every session run, with the
	// work item it belongs to (for logging). It is called from the
	// session's goroutine. A panic in it is contained: it ends that
	// session's run, which is reported to OnError with a
	// *[ToolPanicError] (Hook "OnStep"); the worker and its other
	// sessions go on.
	OnStep func(w *Work, step SessionRunStep)
	// OnError, when set, is told of failures the worker survives: a poll
	// or an ack that failed and will be retried, a session run that ended
	// with an error, a lease that was lost. It is called from the
	// worker's goroutines, possibly several at once. A panic in it is
	// contained and logged (option.WithLogger of the client or of
	// Serve's options, else
	// slog.Default) as a *[ToolPanicError] with Hook "OnError".
	OnError func(w *Work, err error)
}

// WorkerBackoff is the worker's backoff: the wait after a round of its
// loop that made no progress, so that a failing or misbehaving queue is
// not polled in a tight loop. Such a round is a poll that failed, a poll
// answered empty in less than half of PollWait (a queue that does not
// hold polls for block_ms), or an item whose ack failed. After the n-th
// such round in a row the worker waits a random time in [d/2, d), where
// d = Min·2^(n-1) capped at Max; after an empty poll d is also capped at
// PollWait (but not below Min), and the time the poll took counts toward
// the wait. An
// acknowledged item, or an empty poll the queue held for at least half of
// PollWait, resets n.
type WorkerBackoff struct {
	// Min is the first wait (default 100 ms, or Max when that is
	// shorter).
	Min time.Duration
	// Max caps the wait (default 30 s, or Min when that is longer).
	Max time.Duration
}

// The backoff's defaults.
const (
	defaultWorkerBackoffMin = 100 * time.Millisecond
	defaultWorkerBackoffMax = 30 * time.Second
)

// Validate reports a negative bound, or a Max below Min when both are
// set.
func (b WorkerBackoff) Validate() error {
	switch {
	case b.Min < 0:
		return invalid("Backoff.Min", "must not be negative, got %v", b.Min)
	case b.Max < 0:
		return invalid("Backoff.Max", "must not be negative, got %v", b.Max)
	case b.Min > 0 && b.Max > 0 && b.Max < b.Min:
		return invalid("Backoff.Max", "must not be below Backoff.Min (%v), got %v", b.Min, b.Max)
	}
	return nil
}

func (b WorkerBackoff) withDefaults() WorkerBackoff {
	if b.Min == 0 {
		b.Min = defaultWorkerBackoffMin
		if b.Max > 0 {
			b.Min = min(b.Min, b.Max)
		}
	}
	b.Max = cmp.Or(b.Max, max(defaultWorkerBackoffMax, b.Min))
	return b
}

// wait is the wait after the n-th unproductive round in a row, capped at
// limit as well as Max.
func (b WorkerBackoff) wait(n int, limit time.Duration) time.Duration {
	return backoffDelay(n, b.Min, min(b.Max, max(limit, b.Min)))
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

// Validate reports the first rule the params break: a negative bound, a
// backoff that does not validate, or session params that do not validate.
func (p WorkerParams) Validate() error {
	switch {
	case p.MaxSessions < 0:
		return invalid("MaxSessions", "must not be negative, got %d", p.MaxSessions)
	case p.PollWait < 0:
		return invalid("PollWait", "must not be negative, got %v", p.PollWait)
	case p.Lease < 0 || (p.Lease > 0 && p.Lease < time.Second):
		return invalid("Lease", "must be at least 1s (or 0 for the service's), got %v", p.Lease)
	}
	if err := p.Backoff.Validate(); err != nil {
		return err
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
// or cloud environment, a refused credential). Polls and acks that fail
// otherwise are retried, and a queue that answers empty polls at once is
// polled less and less often: see [WorkerBackoff].
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
	p.MaxSessions = cmp.Or(p.MaxSessions, 1)
	p.PollWait = cmp.Or(p.PollWait, defaultPollWait)
	p.Backoff = p.Backoff.withDefaults()
	cl := s.client.newCall(opts)
	if cl.err != nil {
		return cl.err
	}
	w := &worker{svc: s, env: environmentID, p: p, opts: opts, logger: cl.cfg.Logger, slots: make(chan struct{}, p.MaxSessions)}
	defer w.wg.Wait()
	return w.serve(ctx)
}

// worker is one Serve call.
type worker struct {
	svc    *EnvironmentWorkService
	env    string
	p      WorkerParams
	opts   []option.RequestOption
	logger *slog.Logger // where a panic of OnError goes
	slots  chan struct{}
	wg     sync.WaitGroup
}

func (w *worker) serve(ctx context.Context) error {
	idle := 0 // rounds in a row that made no progress
	for {
		select { // a free slot before taking work
		case w.slots <- struct{}{}:
		case <-ctx.Done():
			return nil
		}
		work, wait, err := w.take(ctx, &idle)
		if work == nil {
			<-w.slots
		}
		switch {
		case ctx.Err() != nil:
			return nil
		case err != nil:
			return err
		case work == nil:
			if wait > 0 && sleepCtx(ctx, wait) != nil {
				return nil
			}
			continue
		}
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			defer func() { <-w.slots }()
			w.handle(ctx, work)
		}()
	}
}

// take polls for a work item and acknowledges it. It returns the item, or
// none and the wait before the next poll (the backoff; idle counts the
// rounds in a row that took nothing), or an error when the queue cannot be
// served.
func (w *worker) take(ctx context.Context, idle *int) (*Work, time.Duration, error) {
	block := int(w.p.PollWait / time.Millisecond)
	began := time.Now()
	work, err := w.svc.Poll(ctx, w.env, EnvironmentWorkPollParams{BlockMS: &block, WorkerID: w.p.WorkerID}, w.opts...)
	if ctx.Err() != nil {
		return nil, 0, nil
	}
	if err != nil {
		var apiErr *Error
		var verr *ValidationError
		if errors.As(err, &verr) || errors.As(err, &apiErr) && isFinalStatus(apiErr.StatusCode) {
			// Refused params (a PollWait not below the request timeout)
			// are refused again on every poll.
			return nil, 0, fmt.Errorf("mms: serving environment %s: %w", w.env, err)
		}
		w.report(nil, err)
		*idle++
		return nil, w.p.Backoff.wait(*idle, w.p.Backoff.Max), nil
	}
	if work == nil {
		took := time.Since(began)
		if took >= w.p.PollWait/2 {
			*idle = 0 // the queue held the poll: it is well
			return nil, 0, nil
		}
		*idle++
		return nil, max(0, w.p.Backoff.wait(*idle, w.p.PollWait)-took), nil
	}
	acked, err := w.svc.Ack(ctx, w.env, work.ID, w.opts...)
	if err != nil {
		if ctx.Err() == nil {
			w.report(work, fmt.Errorf("mms: acknowledging work %s: %w", work.ID, err))
		}
		*idle++
		return nil, w.p.Backoff.wait(*idle, w.p.Backoff.Max), nil
	}
	*idle = 0
	return acked, 0, nil
}

// handle runs an acknowledged work item and stops it.
func (w *worker) handle(ctx context.Context, work *Work) {
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
	p.ResultTimeout = cmp.Or(p.ResultTimeout, whileLeaseHeld)
	for step, err := range w.svc.client.Sessions.Run(rctx, sessionID, p, opts...) {
		if err != nil {
			if ctx.Err() == nil && rctx.Err() == nil {
				w.report(work, err)
			}
			return
		}
		if w.p.OnStep != nil {
			if err := callHook("OnStep", func() { w.p.OnStep(work, step) }); err != nil {
				// Leaving the loop ends the run; the item is stopped.
				w.report(work, fmt.Errorf("mms: running session %s: %w", sessionID, err))
				return
			}
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

// report tells OnError of err. A panic in OnError has nowhere else to go
// but the log.
func (w *worker) report(work *Work, err error) {
	if w.p.OnError == nil {
		return
	}
	if perr := callHook("OnError", func() { w.p.OnError(work, err) }); perr != nil {
		logHookPanic(w.logger, perr)
	}
}

// newWorkerID is "<host>-<8 random hex digits>".
func newWorkerID() string {
	host, _ := os.Hostname()
	host = cmp.Or(host, "worker")
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
