package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	mms "github.com/mms-sdk/mms-go"
)

// lockPoll is how often LockJob with wait asks again for a job another
// owner holds.
const lockPoll = 250 * time.Millisecond

// LockJob implements mms.BatchJobLocker. The job's row in mms_batch_jobs
// holds its owner, the owner's lease (lease_until, the database's clock)
// and a fencing token, raised by every change of owner. LockJob takes the
// job when no lease is held or the last one ran out; otherwise it fails at
// once with an *mms.BatchJobOwnedError naming the owner or, with wait,
// asks again every 250ms until ctx ends.
//
// The lease is renewed every quarter of Options.LeaseTTL while held.
// Writes through the lease's store carry its token and are refused, in the
// statement that would write, once the token is not the job's or the lease
// has run out (mms.ErrBatchJobLeaseLost): a process that was paused or cut
// off past its lease and wakes up writes nothing, and a takeover waits for
// the writes in flight to commit.
func (s *Store) LockJob(ctx context.Context, wait bool) (mms.BatchJobLease, error) {
	ttl := s.opts.LeaseTTL
	for {
		sent := time.Now()
		var token int64
		err := s.w.retry(ctx, func(ctx context.Context) error {
			sent = time.Now()
			return s.pool.QueryRow(ctx, `INSERT INTO mms_batch_jobs AS j (job, owner, token, lease_until)
				VALUES ($1, $2, 1, now() + $3 * interval '1 millisecond')
				ON CONFLICT (job) DO UPDATE SET owner = excluded.owner, token = j.token + 1, lease_until = excluded.lease_until
				WHERE j.lease_until IS NULL OR j.lease_until <= now()
				RETURNING token`, s.job, s.opts.Owner, ttl.Milliseconds()).Scan(&token)
		})
		if err == nil {
			l := &lease{s: s, token: token, ttl: ttl, validUntil: sent.Add(ttl), stop: make(chan struct{}), stopped: make(chan struct{})}
			l.w = &writer{s: s, lease: l, seqs: map[string]int64{}, kinds: map[string]byte{}}
			go l.renew()
			return l, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return nil, fmt.Errorf("batchstore/postgres: locking job %q: %w", s.job, err)
		}
		if !wait {
			owned := &mms.BatchJobOwnedError{}
			var until *time.Time
			err := s.w.retry(ctx, func(ctx context.Context) error {
				return s.pool.QueryRow(ctx, `SELECT owner, lease_until FROM mms_batch_jobs WHERE job = $1`, s.job).Scan(&owned.Owner, &until)
			})
			if until != nil {
				owned.Until = *until
			}
			if err != nil && !errors.Is(err, pgx.ErrNoRows) { // no row: released since; the owner is unknown
				return nil, fmt.Errorf("batchstore/postgres: locking job %q: %w", s.job, err)
			}
			return nil, fmt.Errorf("batchstore/postgres: job %q: %w", s.job, owned)
		}
		t := time.NewTimer(lockPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// lease is a held lease on a job.
type lease struct {
	s     *Store
	w     *writer
	token int64
	ttl   time.Duration

	mu         sync.Mutex
	validUntil time.Time // by this process's clock: the lease is surely held before it
	lost       bool      // the database said another owner holds the job, or Release ran
	released   bool

	stop    chan struct{}
	stopped chan struct{}
}

func (l *lease) Store() mms.BatchJobStore { return l.w }

// Check implements mms.BatchJobLease: a quarter of the lease must be left.
func (l *lease) Check() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.released:
		return fmt.Errorf("batchstore/postgres: job %q: the lease was released: %w", l.s.job, mms.ErrBatchJobLeaseLost)
	case l.lost:
		return fmt.Errorf("batchstore/postgres: job %q: another owner took the job (this owner's token %d): %w", l.s.job, l.token, mms.ErrBatchJobLeaseLost)
	case time.Until(l.validUntil) < l.ttl/4:
		return fmt.Errorf("batchstore/postgres: job %q: the lease could not be renewed in time (it ran out, or is about to, at %s): %w",
			l.s.job, l.validUntil.UTC().Format(time.RFC3339Nano), mms.ErrBatchJobLeaseLost)
	}
	return nil
}

func (l *lease) markLost() {
	l.mu.Lock()
	l.lost = true
	l.mu.Unlock()
}

func (l *lease) lostError(op, key string) error {
	return fmt.Errorf("batchstore/postgres: %s %q refused: the lease of job %q with token %d is no longer held: %w", op, key, l.s.job, l.token, mms.ErrBatchJobLeaseLost)
}

// renew extends the lease every quarter of its length until it is
// released or lost. A renewal that fails for a lost connection is tried
// again at the next tick; the lease lapses (Check fails) if none succeeds
// in time.
func (l *lease) renew() {
	defer close(l.stopped)
	t := time.NewTicker(l.ttl / 4)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), l.ttl/4)
		sent := time.Now()
		tag, err := l.s.pool.Exec(ctx, `UPDATE mms_batch_jobs SET lease_until = now() + $3 * interval '1 millisecond'
			WHERE job = $1 AND token = $2 AND lease_until > now()`, l.s.job, l.token, l.ttl.Milliseconds())
		cancel()
		switch {
		case err != nil:
			continue
		case tag.RowsAffected() == 0:
			l.markLost()
			return
		}
		l.mu.Lock()
		l.validUntil = sent.Add(l.ttl)
		l.mu.Unlock()
	}
}

// Release implements mms.BatchJobLease: the lease ends at once, so the
// next owner need not wait for it to run out. It tries for at most the
// lease's length (then the lease has run out by itself).
func (l *lease) Release(ctx context.Context) error {
	l.mu.Lock()
	if l.released {
		l.mu.Unlock()
		return nil
	}
	l.released = true
	l.mu.Unlock()
	close(l.stop)
	<-l.stopped
	// Past the lease's length there is nothing left to release.
	ctx, cancel := context.WithTimeout(ctx, l.ttl)
	defer cancel()
	err := l.s.w.retry(ctx, func(ctx context.Context) error {
		_, err := l.s.pool.Exec(ctx, `UPDATE mms_batch_jobs SET lease_until = NULL WHERE job = $1 AND token = $2`, l.s.job, l.token)
		return err
	})
	if err != nil {
		return fmt.Errorf("batchstore/postgres: releasing job %q (its lease runs out by itself): %w", l.s.job, err)
	}
	return nil
}

// retry runs op until it succeeds or fails for good: an error of a lost
// connection or of a server restarting is tried again, with backoff, for
// up to Options.RetryFor, and for a lease's writer only while the lease
// holds.
func (w *writer) retry(ctx context.Context, op func(context.Context) error) error {
	var first time.Time
	backoff := 25 * time.Millisecond
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := op(ctx)
		if err == nil || !transient(err) {
			return err
		}
		if first.IsZero() {
			first = time.Now()
		}
		if time.Since(first) > w.s.opts.RetryFor {
			return err
		}
		if w.lease != nil {
			if lerr := w.lease.Check(); lerr != nil {
				return fmt.Errorf("%w (after %w)", lerr, err)
			}
		}
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		backoff = min(2*backoff, time.Second)
	}
}

// transient reports an error worth trying again: the connection is lost or
// cannot be made, or the server is restarting or busy.
func transient(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "40001", "40P01", "53300", "57P01", "57P02", "57P03":
			return true
		}
		return strings.HasPrefix(pgErr.Code, "08")
	}
	var netErr net.Error
	var connectErr *pgconn.ConnectError
	switch {
	case errors.As(err, &connectErr), errors.As(err, &netErr), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), pgconn.SafeToRetry(err):
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "conn closed") || strings.Contains(msg, "connection reset") || strings.Contains(msg, "broken pipe")
}
