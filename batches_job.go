package mms

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// Defaults of [BatchJobParams].
const (
	// DefaultBatchJobMaxAttempts is how many times a request may be
	// submitted when Retry.MaxAttempts is 0.
	DefaultBatchJobMaxAttempts = 3
	// DefaultBatchJobPollInterval is the first wait between polls of the
	// open batches; it doubles while nothing changes, up to
	// DefaultBatchJobMaxPollInterval.
	DefaultBatchJobPollInterval    = 5 * time.Second
	DefaultBatchJobMaxPollInterval = time.Minute
	// MaxBatchBytes is the most bytes of request body one batch create may
	// carry (256 MiB).
	MaxBatchBytes = 256 << 20
)

// BatchJobParams configure a batch job.
type BatchJobParams struct {
	// Requests yields the job's requests. It must yield the same requests
	// in the same order every time it is ranged: the job ranges it once to
	// check and pack, again to submit, and again for each resubmission;
	// and a resumed job must be given the same sequence. Only one request
	// at a time needs to be in memory.
	Requests iter.Seq[BatchRequest]

	// Dir is the directory the job keeps its state in (see
	// [OpenBatchJobDir]); it is created if missing. Give Dir or Store.
	Dir string
	// Store keeps the job's state instead of a directory, e.g. in a
	// program's own database.
	Store BatchJobStore
	// WaitForOwner, when the job's store lets one process at a time own
	// the job ([BatchJobLocker]) and another process owns it, makes
	// Results wait for the job to be free; without it Results fails at
	// once with a *[BatchJobOwnedError] naming the owner.
	WaitForOwner bool
	// SpoolDir is where batch bodies are written before they are sent
	// (one temporary file at a time, removed after the create). Default:
	// Dir, or os.TempDir() with a Store.
	SpoolDir string

	// MaxRequestsPerBatch caps the requests of one batch: 1 to
	// MaxBatchRequests (the default).
	MaxRequestsPerBatch int
	// MaxBytesPerBatch caps the body of one batch create, in bytes: up to
	// MaxBatchBytes (the default). Smaller batches finish sooner.
	MaxBytesPerBatch int64

	// Retry says which results are resubmitted.
	Retry BatchJobRetry

	// PollInterval is the first wait between polls of the open batches
	// (default DefaultBatchJobPollInterval); it doubles while nothing
	// changes, up to MaxPollInterval (default
	// DefaultBatchJobMaxPollInterval).
	PollInterval    time.Duration
	MaxPollInterval time.Duration

	// Redeliver yields again, at the start of a run, the results earlier
	// runs delivered, each with Redelivered set.
	Redeliver bool

	// OnStep, when set, is called at every step boundary, once the step is
	// recorded in the store, with the step's name and its submission
	// (1-based; 0 for a step of the whole job). An error it returns ends the
	// run at once, with nothing more sent or saved, as if the process had
	// died there; Results yields that error. Tests use it to kill a job
	// between any two steps and resume it. The steps, in order: "plan"
	// (the plan is saved), then per submission "ids" (its custom_ids are
	// saved), "intent" (about to create), "created" (the create answered;
	// not yet recorded), "created-saved", "candidates" (after a lost
	// answer, batches that may be its own were found), "ended", then per
	// result "delivered" or "retry-logged", then "settled"; last "done".
	OnStep func(step string, submission int) error
}

// BatchJobRetry is a job's retry policy.
type BatchJobRetry struct {
	// MaxAttempts is how many times one request may be submitted, the
	// first included: 1 never resubmits. 0 means
	// DefaultBatchJobMaxAttempts.
	MaxAttempts int
	// Retryable reports whether an errored or expired result should be
	// resubmitted (while attempts remain); it is not asked about other
	// results, which are never resubmitted. nil means
	// DefaultBatchRetryable: expired results, and errored results whose
	// error type is api_error, overloaded_error, rate_limit_error or
	// timeout_error.
	Retryable func(BatchResult) bool
}

// BatchJobResult is the final result of one request of a job.
type BatchJobResult struct {
	// CustomID names the request.
	CustomID string
	// Result is its outcome: [SucceededBatchResult], [ErroredBatchResult],
	// [CanceledBatchResult], [ExpiredBatchResult] or [UnknownBatchResult].
	// A request the job never submitted because it was canceled has a
	// CanceledBatchResult and no BatchID. A request missing from its
	// batch's results file, or whose batch the service no longer has (a
	// 404: deleted, or its results archived), has an errored result of
	// type api_error that the SDK made, saying so; the retry policy sees
	// it as any other.
	Result BatchResultValue
	// BatchID is the batch the result comes from.
	BatchID string
	// Attempt is the submission the result comes from: 1 for the first.
	Attempt int
	// Redelivered is set on results an earlier run delivered, yielded
	// again because BatchJobParams.Redeliver asked.
	Redelivered bool
}

// BatchJobProgress counts a job's requests. Counts of final outcomes
// include the results earlier runs delivered.
type BatchJobProgress struct {
	// Requests is the number of requests in the input (0 until the check
	// pass has ended).
	Requests int64
	// Submitted counts request submissions in created batches,
	// resubmissions included.
	Submitted int64
	// Processing counts requests in batches that had not ended at the last
	// poll.
	Processing int64
	// Succeeded, Errored, Canceled and Expired count final results
	// delivered; Other counts results of types this SDK does not know.
	Succeeded, Errored, Canceled, Expired, Other int64
	// Retrying counts results waiting to be resubmitted.
	Retrying int64
	// Batches counts the batches created; OpenBatches those not ended.
	Batches, OpenBatches int
}

// Delivered is the number of final results delivered.
func (p BatchJobProgress) Delivered() int64 {
	return p.Succeeded + p.Errored + p.Canceled + p.Expired + p.Other
}

// String gives a one-line summary, for a progress line.
func (p BatchJobProgress) String() string {
	return fmt.Sprintf("%d/%d done (%d succeeded, %d errored, %d canceled, %d expired), %d submitted, %d processing, %d retrying, %d/%d batches open",
		p.Delivered(), p.Requests, p.Succeeded, p.Errored, p.Canceled, p.Expired, p.Submitted, p.Processing, p.Retrying, p.OpenBatches, p.Batches)
}

// BatchJob is a workload of any number of Messages requests run through
// Message Batches, one that survives restarts. Make one with
// [BatchesService.NewJob]; read its results with [BatchJob.Results].
// Progress and Cancel may be called from any goroutine while Results runs.
//
// # What a job does
//
//   - Check: it ranges the requests once and checks every one before
//     anything is sent: the custom_id (its pattern, and unique across the
//     whole job), the params (as Messages.Create checks them) and the size
//     of the request's encoding, which must fit in one batch. The first
//     broken rule is a *[ValidationError] naming "requests[i]" (the index in
//     the input) and the custom_id, and nothing is created.
//   - Pack: the same pass measures each request's encoding and packs the
//     requests, in input order, into batches of at most MaxRequestsPerBatch
//     requests and MaxBytesPerBatch bytes of request body.
//   - Submit: each batch's body is encoded again into a temporary file
//     (checked against the first pass's digest, so an input that changes
//     between the passes is refused) and created, one batch at a time,
//     through the client's rate limits.
//   - Wait and deliver: it polls the open batches, downloads the results
//     of each ended batch and yields every request's final result once,
//     in the order the results files give them.
//   - Retry: an expired result, or an errored one the policy calls
//     retryable, is resubmitted in a new batch, up to Retry.MaxAttempts
//     submissions of the request; the last result is delivered after that.
//     Canceled results, results of other errors and results of unknown
//     types are delivered as they are.
//
// # The state, and what a restart resumes
//
// Every step is recorded in the job's [BatchJobStore] before the next one
// starts: the plan (how the input is packed), for each batch the
// custom_ids it holds (before it is created), the intent to create it,
// the created batch's id, and for every result whether it was delivered or
// queued for a retry. A job started again with the same store and the same
// input (the same requests in the same order) carries on from there: no
// request is submitted twice, no delivered result is delivered again
// (unless BatchJobParams.Redeliver asks for it) and none is lost.
//
// A result counts as delivered once the loop body it was yielded to has
// returned (or broken out of the loop): a process that dies inside the
// loop body gets the result again when it resumes. Results and store
// records are written in that order, so the only window in which a
// handled result can be delivered a second time is the few microseconds
// between the loop body's return and the store's write; a program that
// cannot allow even that should make its handling idempotent by custom_id.
//
// # A create that may or may not have happened
//
// Batches carry no idempotency key, so a create whose answer is lost (a
// dropped connection, a 5xx, a process that dies before it records the
// batch id) is recovered by looking: before each create the job records
// the newest batch of the workspace as a watermark; afterwards it lists the
// batches created since the watermark and takes one holding the same number
// of requests, not already claimed by the job, as its own, provisionally.
// When that batch ends, the first line of its results must be one of the
// batch's custom_ids; if it is not, the batch was someone else's and the
// requests are submitted again. What stays ambiguous: a create the service
// carries out after the job has looked (a request held up longer than the
// job's wait) is submitted twice, and its duplicate's results are ignored.
//
// # One owner at a time
//
// Two processes running one job would submit its requests twice. A job
// whose store implements [BatchJobLocker] ([BatchJobDir] does, with a lock
// file; the PostgreSQL store of module batchstore/postgres does, with a
// lease in the database) therefore owns it while Results runs: before
// reading anything it takes the store's lease (waiting for it or failing
// at once with a *[BatchJobOwnedError], as BatchJobParams.WaitForOwner
// says), writes only through it, and releases it when the run ends. Every
// write carries the lease's fencing token, so a process that lost its lease
// (paused or cut off past its end, while another took the job over) writes
// nothing more: its next write fails, and the run ends with an error
// matching [ErrBatchJobLeaseLost]. The lease is checked again right before
// each batch create and each result yielded, which the store cannot fence:
// one more create can be sent by a process paused in the instant between
// that check and the send for longer than the lease's margin (a quarter of
// it, for the PostgreSQL store), the same case as a create the service
// carries out late (see below). [BatchJobMemoryStore] has no lease (it
// cannot be shared by processes), nor has a program's own store unless it
// implements BatchJobLocker.
//
// # Cancelling
//
// Ending the loop (break, or the context's end) stops the job in this
// process only: its batches keep processing, and a later run picks up their
// results. [BatchJob.Cancel] cancels the job itself: it records the cancel
// and cancels every open batch; the next or current run then delivers the
// remaining results, requests never submitted as canceled results without
// a batch, and resubmits nothing.
//
// # Records
//
// The job keeps these keys in its store (see [BatchJobDir] for how a
// directory holds them); every value is JSON and every log record one
// line:
//
//	plan.json        how the input is packed: per batch, the index of its
//	                 first request, its count, its body's size and SHA-256
//	sub-NNNNNN.ids   the custom_ids of submission N, one per line, in body
//	                 order; written before the submission is sent
//	sub-NNNNNN.json  submission N: state (intent, created, ended,
//	                 settled), attempt, parent, watermark, batch id,
//	                 candidates, whether the batch is gone (404)
//	sub-NNNNNN.log   one record per result of submission N: a code and
//	                 the custom_id ("s", "e", "c", "x", "u": delivered as
//	                 succeeded, errored, canceled, expired, other; "r":
//	                 queued for a retry), then the result's JSON except
//	                 for "s"; the last record of a custom_id wins
//	canceled         present once the job was canceled
//	done             present once every result was delivered
//
// Submissions 1 to the plan's batch count are the plan's batches, in
// order; each later one resubmits the results an earlier one (its parent)
// queued for a retry.
type BatchJob struct {
	batches *BatchesService
	opts    []option.RequestOption
	p       BatchJobParams
	store   BatchJobStore
	closer  func() error // closes a store the job opened

	running atomic.Bool

	mu       sync.Mutex
	progress BatchJobProgress
	canceled bool
}

// NewJob makes a batch job (see [BatchJob] for what it does). Nothing is read from the input or sent before
// [BatchJob.Results] runs; NewJob checks the params and opens the store.
// The options apply to every call the job makes. Close the job when done
// with it.
func (s *BatchesService) NewJob(p BatchJobParams, opts ...option.RequestOption) (*BatchJob, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	j := &BatchJob{batches: s, opts: opts, p: p, store: p.Store}
	if j.store == nil {
		d, err := OpenBatchJobDir(p.Dir)
		if err != nil {
			return nil, err
		}
		j.store, j.closer = d, d.Close
	}
	if j.p.SpoolDir == "" {
		j.p.SpoolDir = p.Dir
		if j.p.SpoolDir == "" {
			j.p.SpoolDir = os.TempDir()
		}
	}
	j.p.MaxRequestsPerBatch = cmp.Or(j.p.MaxRequestsPerBatch, MaxBatchRequests)
	j.p.MaxBytesPerBatch = cmp.Or(j.p.MaxBytesPerBatch, MaxBatchBytes)
	j.p.Retry.MaxAttempts = cmp.Or(j.p.Retry.MaxAttempts, DefaultBatchJobMaxAttempts)
	if j.p.Retry.Retryable == nil {
		j.p.Retry.Retryable = DefaultBatchRetryable
	}
	j.p.PollInterval = cmp.Or(j.p.PollInterval, DefaultBatchJobPollInterval)
	j.p.MaxPollInterval = cmp.Or(j.p.MaxPollInterval, max(DefaultBatchJobMaxPollInterval, j.p.PollInterval))
	return j, nil
}

// Validate reports the first rule the params break: no Requests; neither
// or both of Dir and Store; MaxRequestsPerBatch outside 0–100,000;
// MaxBytesPerBatch outside 0–256 MiB; a negative MaxAttempts or poll
// interval, or a PollInterval over an explicit MaxPollInterval.
func (p BatchJobParams) Validate() error {
	switch {
	case p.Requests == nil:
		return invalid("requests", "must be set")
	case p.Dir == "" && p.Store == nil:
		return invalid("dir", "a directory or a store is required to keep the job's state")
	case p.Dir != "" && p.Store != nil:
		return invalid("dir", "give a directory or a store, not both")
	case p.MaxRequestsPerBatch < 0 || p.MaxRequestsPerBatch > MaxBatchRequests:
		return invalid("max_requests_per_batch", "must be 0 (the default, %d) to %d, got %d", MaxBatchRequests, MaxBatchRequests, p.MaxRequestsPerBatch)
	case p.MaxBytesPerBatch < 0 || p.MaxBytesPerBatch > MaxBatchBytes:
		return invalid("max_bytes_per_batch", "must be 0 (the default, %d) to %d, got %d", MaxBatchBytes, MaxBatchBytes, p.MaxBytesPerBatch)
	case p.Retry.MaxAttempts < 0:
		return invalid("retry.max_attempts", "must not be negative, got %d", p.Retry.MaxAttempts)
	}
	return BatchWaitParams{PollInterval: p.PollInterval, MaxPollInterval: p.MaxPollInterval}.Validate()
}

// DefaultBatchRetryable is the default of BatchJobRetry.Retryable: expired
// results, and errored results whose error type is api_error,
// overloaded_error, rate_limit_error or timeout_error.
func DefaultBatchRetryable(r BatchResult) bool {
	switch v := r.Result.(type) {
	case ExpiredBatchResult:
		return true
	case ErroredBatchResult:
		switch v.Error.Error.Type {
		case wire.ErrAPI, wire.ErrOverloaded, wire.ErrRateLimit, wire.ErrTimeout:
			return true
		}
	}
	return false
}

// Progress returns the job's counts as of now.
func (j *BatchJob) Progress() BatchJobProgress {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.progress
}

// updateProgress changes the counts under the job's lock.
func (j *BatchJob) updateProgress(f func(p *BatchJobProgress)) {
	j.mu.Lock()
	defer j.mu.Unlock()
	f(&j.progress)
}

func (j *BatchJob) isCanceled() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.canceled
}

// Close closes the store the job opened from BatchJobParams.Dir; a Store
// given by the program is left open.
func (j *BatchJob) Close() error {
	if j.closer == nil {
		return nil
	}
	return j.closer()
}

// ErrBatchJobRunning is returned when Results is ranged while another
// range of the same job's results is still running.
var ErrBatchJobRunning = errors.New("mms: the batch job is already running")

// Results runs the job and yields every request's final result once (see
// [BatchJob]): results earlier runs delivered are skipped, unless
// BatchJobParams.Redeliver asks for them. The work happens as the loop
// pulls: leaving the loop stops it, and ranging Results again (in this
// process or another, with the same store and input) resumes.
//
// An error ends the sequence and is yielded once, last: a
// *[ValidationError] for bad input (before anything was sent), the
// context's error (wrapped with the job's progress), a store error, or an
// *[Error] the service gave for a call the job cannot do without. The
// job's batches keep processing; run it again to go on.
func (j *BatchJob) Results(ctx context.Context) iter.Seq2[BatchJobResult, error] {
	return func(yield func(BatchJobResult, error) bool) {
		if !j.running.CompareAndSwap(false, true) {
			yield(BatchJobResult{}, ErrBatchJobRunning)
			return
		}
		defer j.running.Store(false)
		r := &jobRun{job: j, ctx: ctx, yield: yield, store: j.store}
		if l, ok := j.store.(BatchJobLocker); ok {
			lease, err := l.LockJob(ctx, j.p.WaitForOwner)
			if err != nil {
				yield(BatchJobResult{}, err)
				return
			}
			defer lease.Release(context.WithoutCancel(ctx))
			r.lease, r.store = lease, lease.Store()
		}
		if err := r.run(); err != nil && !r.stopped {
			if err == ctx.Err() { // the job's waits and loops return it bare
				err = fmt.Errorf("mms: batch job interrupted at %v: %w", j.Progress(), err)
			}
			yield(BatchJobResult{}, err)
		}
	}
}
