package mms

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// maxDownloadAttempts bounds the downloads of one batch's results; each
// download goes on where the last one stopped.
const maxDownloadAttempts = 5

// Messages of the errored results the SDK makes for a request its batch's
// results file has no (readable) line for, and for the requests of a batch
// the service no longer has (deleted, or its results archived).
const (
	missingResultMessage = "mms: the batch's results file has no readable line for this request"
	goneResultMessage    = "mms: the batch is gone from the service (404) before its results were read"
)

// deliver delivers the results of an ended submission: each request's
// result is delivered, or queued for a retry, once; the log says which
// were already. A submission without a batch (never sent, the job being
// canceled) delivers its requests as canceled.
func (r *jobRun) deliver(s *subRecord) error {
	idx, err := r.loadIDs(s)
	if err != nil {
		return err
	}
	if err := r.readLog(s.Seq, func(e logEntry) {
		if p := idx.find(e.customID); p >= 0 {
			idx.mark[p] = e.code
		}
	}); err != nil {
		return err
	}
	if s.BatchID != "" && !s.Gone {
		backoff := r.job.p.PollInterval
		for attempt := 1; ; attempt++ {
			err := r.readResults(s, idx)
			if err == nil {
				break
			}
			var dl *downloadError
			if errors.As(err, &dl) && errors.Is(err, ErrNotFound) {
				// Deleted, or archived: the results will not come.
				if err := r.markGone(s); err != nil {
					return err
				}
				break
			}
			if !errors.As(err, &dl) || r.ctx.Err() != nil || attempt == maxDownloadAttempts {
				return err
			}
			if err := sleepCtx(r.ctx, backoff); err != nil {
				return err
			}
			backoff = min(2*backoff, r.job.p.MaxPollInterval)
		}
	}
	var unsent func(id string) error
	if s.BatchID == "" {
		if unsent, err = r.unsentResults(s); err != nil {
			return err
		}
	}
	for pos, m := range idx.mark {
		if m != 0 {
			continue
		}
		if err := r.ctx.Err(); err != nil {
			return err
		}
		var err error
		if unsent != nil {
			idx.mark[pos] = codeCanceled
			err = unsent(idx.id(pos))
		} else {
			err = r.settleOne(s, idx, pos, missingResult(s.Gone))
		}
		if err != nil {
			return err
		}
	}
	s.State = subSettled
	if err := r.saveSub(s); err != nil {
		return err
	}
	for _, m := range idx.mark {
		if m == codeRetry {
			r.retryOwed[s.Seq] = true
			break
		}
	}
	return r.step("settled", s.Seq)
}

// unsentResults returns how to deliver the requests of a submission that
// was never sent: a resubmission's requests get the result their last
// submission had (kept in its log); the others a canceled result, without
// a batch.
func (r *jobRun) unsentResults(s *subRecord) (func(id string) error, error) {
	if s.Parent == 0 {
		return func(id string) error { return r.deliverOne(s.Seq, id, CanceledBatchResult{}, "", 0) }, nil
	}
	parent := r.subs[s.Parent-1]
	kept := map[string]logEntry{}
	if err := r.readLog(parent.Seq, func(e logEntry) { kept[e.customID] = e }); err != nil {
		return nil, err
	}
	return func(id string) error {
		e, ok := kept[id]
		if !ok || e.code != codeRetry {
			return fmt.Errorf("mms: the batch job's %s has no result to resubmit for custom_id %q", subKey(parent.Seq, "log"), id)
		}
		res, err := decodeLoggedResult(e)
		if err != nil {
			return err
		}
		return r.deliverOne(s.Seq, id, res, parent.BatchID, parent.Attempt)
	}, nil
}

// missingResult is the result made for a request without a line, or of
// a batch that is gone.
func missingResult(gone bool) BatchResultValue {
	msg := missingResultMessage
	if gone {
		msg = goneResultMessage
	}
	return ErroredBatchResult{Error: ErrorResponse{Error: ErrorDetail{Type: wire.ErrAPI, Message: msg}}}
}

// markGone records that a submission's batch is gone: its requests that
// have no result yet get the made-up errored one, which the retry policy
// may resubmit.
func (r *jobRun) markGone(s *subRecord) error {
	s.Gone, s.State = true, subEnded
	return r.saveSub(s)
}

// readResults downloads the submission's results and settles each result
// not settled yet. Lines that are not valid results, and lines of other
// custom_ids, are passed over: their requests, if any, are settled as
// missing afterwards.
func (r *jobRun) readResults(s *subRecord, idx *idIndex) error {
	for res, err := range r.results(s.BatchID) {
		switch {
		case err != nil:
			return err
		case r.ctx.Err() != nil: // lines already read stay for the next run
			return r.ctx.Err()
		}
		pos := idx.find(res.CustomID)
		if pos < 0 || idx.mark[pos] != 0 {
			continue
		}
		if err := r.settleOne(s, idx, pos, res.Result); err != nil {
			return err
		}
	}
	return nil
}

// results ranges a batch's results, passing over lines that are not valid
// results (their requests, if any, are then missing); a failed download is
// a *downloadError, yielded last.
func (r *jobRun) results(batchID string) iter.Seq2[BatchResult, error] {
	return func(yield func(BatchResult, error) bool) {
		for res, err := range r.job.batches.Results(r.ctx, batchID, r.opts()...) {
			var lineErr *BatchResultLineError
			switch {
			case errors.As(err, &lineErr):
				continue
			case err != nil:
				yield(BatchResult{}, &downloadError{fmt.Errorf("mms: reading the results of batch %s: %w", batchID, err)})
				return
			}
			if !yield(res, nil) {
				return
			}
		}
	}
}

// downloadError is a failed download of results, which deliver tries
// again; every other error of readResults ends the run.
type downloadError struct{ err error }

func (e *downloadError) Error() string { return e.err.Error() }
func (e *downloadError) Unwrap() error { return e.err }

// settleOne queues a result for a retry, when the policy says so and
// attempts remain (and the job is not canceled), or delivers it.
func (r *jobRun) settleOne(s *subRecord, idx *idIndex, pos int, res BatchResultValue) error {
	id := idx.id(pos)
	retry := r.job.p.Retry
	if mayRetry(res) && !r.job.isCanceled() && s.Attempt < retry.MaxAttempts && retry.Retryable(BatchResult{CustomID: id, Result: res}) {
		raw, err := json.Marshal(res)
		if err != nil {
			return fmt.Errorf("mms: encoding the result of custom_id %q: %w", id, err)
		}
		if err := r.appendLog(s.Seq, logEntry{code: codeRetry, customID: id, result: raw}); err != nil {
			return err
		}
		idx.mark[pos] = codeRetry
		r.queued[s.Seq]++
		r.refreshProgress()
		return r.step("retry-logged", s.Seq)
	}
	idx.mark[pos] = resultCode(res)
	return r.deliverOne(s.Seq, id, res, s.BatchID, s.Attempt)
}

// mayRetry reports whether the retry policy is asked about a result: only
// errored and expired ones are.
func mayRetry(res BatchResultValue) bool {
	switch res.(type) {
	case ErroredBatchResult, ExpiredBatchResult:
		return true
	}
	return false
}

// deliverOne yields a final result (of batchID, submission attempt) and
// then records it as delivered in the log of submission seq. A loop body
// that breaks out has had the result: it is recorded too.
func (r *jobRun) deliverOne(seq int, id string, res BatchResultValue, batchID string, attempt int) error {
	if err := r.owned(); err != nil {
		return err
	}
	cont := r.yield(BatchJobResult{CustomID: id, Result: res, BatchID: batchID, Attempt: attempt}, nil)
	code := resultCode(res)
	e := logEntry{code: code, customID: id}
	if code != codeSucceeded {
		raw, err := json.Marshal(res)
		if err != nil {
			return fmt.Errorf("mms: encoding the result of custom_id %q: %w", id, err)
		}
		e.result = raw
	}
	if err := r.appendLog(seq, e); err != nil {
		return err
	}
	r.job.updateProgress(func(p *BatchJobProgress) { countFinal(p, code, 1) })
	if err := r.step("delivered", seq); err != nil {
		return err
	}
	if !cont {
		r.stopped = true
		return errStopped
	}
	return nil
}

// settleUnsent records and delivers, as canceled, the requests of a
// submission the job will not send because it was canceled.
// ids holds the custom_ids, each ended by '\n'.
func (r *jobRun) settleUnsent(s *subRecord, ids []byte) error {
	if err := r.put(subKey(s.Seq, "ids"), ids); err != nil {
		return err
	}
	s.Count, s.State, s.Candidates = bytes.Count(ids, []byte{'\n'}), subEnded, nil
	if err := r.saveSub(s); err != nil {
		return err
	}
	return r.deliver(s)
}

// redeliver yields again the final results earlier runs delivered, in
// submission order: the results kept in the logs, and the succeeded ones
// downloaded again from their batches.
func (r *jobRun) redeliver() error {
	for _, s := range r.subs {
		if s == nil || (s.State != subEnded && s.State != subSettled) {
			continue
		}
		var order []logEntry
		last := map[string]int{}
		if err := r.readLog(s.Seq, func(e logEntry) {
			if i, ok := last[e.customID]; ok {
				order[i].code = 0
			}
			last[e.customID] = len(order)
			order = append(order, e)
		}); err != nil {
			return err
		}
		succeeded := map[string]bool{}
		for _, e := range order {
			switch e.code {
			case 0, codeRetry:
				continue
			case codeSucceeded:
				succeeded[e.customID] = true
				continue
			}
			res, err := decodeLoggedResult(e)
			if err != nil {
				return err
			}
			if !r.yield(BatchJobResult{CustomID: e.customID, Result: res, BatchID: s.BatchID, Attempt: s.Attempt, Redelivered: true}, nil) {
				r.stopped = true
				return errStopped
			}
		}
		if len(succeeded) == 0 || s.BatchID == "" {
			continue
		}
		for res, err := range r.results(s.BatchID) {
			if err != nil {
				return err
			}
			if !succeeded[res.CustomID] {
				continue
			}
			delete(succeeded, res.CustomID)
			if !r.yield(BatchJobResult{CustomID: res.CustomID, Result: res.Result, BatchID: s.BatchID, Attempt: s.Attempt, Redelivered: true}, nil) {
				r.stopped = true
				return errStopped
			}
		}
	}
	return nil
}

// Cancel cancels the job: it records the cancel in the store, so that no
// run submits anything from then on, and cancels every batch of the job
// that is still processing. Requests already running may still complete.
// A run (now or later) then delivers every remaining result: what the
// canceled batches give, the last result of requests that were waiting to
// be resubmitted, and a canceled result for requests never submitted.
//
// Cancel may be called while Results runs, or from another process with
// the same store. A batch whose create had lost its answer and that the job
// has not yet confirmed as its own is not canceled (it may be someone
// else's); its results are delivered when it ends.
func (j *BatchJob) Cancel(ctx context.Context) error {
	j.mu.Lock()
	j.canceled = true
	j.mu.Unlock()
	if err := j.store.Put(ctx, keyCanceled, []byte("{}")); err != nil {
		return fmt.Errorf("mms: saving the batch job's cancel: %w", err)
	}
	r := &jobRun{job: j, ctx: ctx, store: j.store}
	subs, err := r.loadSubs()
	if err != nil {
		return err
	}
	var errs []error
	for _, s := range subs {
		if s.BatchID != "" && s.State == subCreated {
			errs = append(errs, cancelJobBatch(ctx, j, s.BatchID))
		}
	}
	return errors.Join(errs...)
}
