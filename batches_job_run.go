package mms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"

	"github.com/mms-sdk/mms-go/option"
)

// jobRun is one run of a job: one range of BatchJob.Results.
type jobRun struct {
	job     *BatchJob
	ctx     context.Context
	yield   func(BatchJobResult, error) bool
	stopped bool // the loop body broke out

	// store is the job's store as the run writes it: the lease's, when the
	// store has leases (lease set).
	store BatchJobStore
	lease BatchJobLease

	plan *jobPlan
	subs []*subRecord // by Seq-1; nil for a plan chunk not submitted yet
	// retryOwed marks settled submissions with results queued for a retry
	// and no resubmission yet.
	retryOwed map[int]bool
	// processing is the last poll's processing count of each open batch.
	processing map[int]int64
	// queued counts, per submission, the results queued for a retry;
	// child is the submission that resubmits them. Progress counts them as
	// retrying until the child is sent.
	queued map[int]int64
	child  map[int]*subRecord
}

// errStopped unwinds a run whose loop body broke out.
var errStopped = errors.New("mms: batch job stopped by its loop")

// maxCreateAttempts bounds the sends of one batch create.
const maxCreateAttempts = 8

// durable is the context of store writes and of calls that record what
// already happened: they run even once the run's context has ended.
func (r *jobRun) durable() context.Context { return context.WithoutCancel(r.ctx) }

func (r *jobRun) step(name string, seq int) error {
	if err := r.owned(); err != nil {
		return err
	}
	if r.job.p.OnStep == nil {
		return nil
	}
	return r.job.p.OnStep(name, seq)
}

func (r *jobRun) opts() []option.RequestOption { return r.job.opts }

// owned reports a lease the run no longer holds, before an action the
// store cannot fence.
func (r *jobRun) owned() error {
	if r.lease == nil {
		return nil
	}
	return r.lease.Check()
}

func (r *jobRun) run() error {
	plan, err := r.makePlan()
	if err != nil {
		return err
	}
	var stored jobPlan
	switch ok, err := r.getJSON(keyPlan, &stored); {
	case err != nil:
		return err
	case ok:
		if err := samePlan(&stored, plan); err != nil {
			return err
		}
	default:
		if err := r.put(keyPlan, mustJSON(plan)); err != nil {
			return err
		}
		if err := r.step("plan", 0); err != nil {
			return err
		}
	}
	r.plan = plan
	if err := r.load(); err != nil {
		return err
	}
	if r.job.p.Redeliver {
		if err := r.redeliver(); err != nil {
			return err
		}
	}
	if done, err := r.has(keyDone); err != nil || done {
		return err
	}
	for _, s := range r.subs {
		if s != nil && s.State == subIntent {
			// A run ended between the intent and the record of the batch id.
			if _, err := r.reconcileAfter(s); err != nil {
				return err
			}
		}
	}
	if err := r.submitPlan(); err != nil {
		return err
	}
	if err := r.drive(); err != nil {
		return err
	}
	if err := r.put(keyDone, []byte("{}")); err != nil {
		return err
	}
	return r.step("done", 0)
}

// load reads the submissions and the logs, and rebuilds the progress.
func (r *jobRun) load() error {
	j := r.job
	canceled, err := r.has(keyCanceled)
	if err != nil {
		return err
	}
	subs, err := r.loadSubs()
	if err != nil {
		return err
	}
	r.subs = make([]*subRecord, len(r.plan.Chunks))
	r.retryOwed = map[int]bool{}
	r.processing = map[int]int64{}
	r.queued = map[int]int64{}
	r.child = map[int]*subRecord{}
	for _, s := range subs {
		for len(r.subs) < s.Seq {
			r.subs = append(r.subs, nil)
		}
		r.subs[s.Seq-1] = s
		if s.Parent > 0 {
			r.child[s.Parent] = s
		}
	}
	var p BatchJobProgress
	p.Requests = r.plan.Requests
	for _, s := range subs {
		last := map[string]byte{}
		if err := r.readLog(s.Seq, func(e logEntry) { last[e.customID] = e.code }); err != nil {
			return err
		}
		for _, c := range last {
			if c == codeRetry {
				r.queued[s.Seq]++
				continue
			}
			countFinal(&p, c, 1)
		}
		if s.State == subSettled && r.child[s.Seq] == nil && r.queued[s.Seq] > 0 {
			r.retryOwed[s.Seq] = true
		}
	}
	j.mu.Lock()
	j.canceled = j.canceled || canceled
	j.progress = p
	j.mu.Unlock()
	r.refreshProgress()
	return nil
}

// refreshProgress recounts what the submissions say.
func (r *jobRun) refreshProgress() {
	var submitted, processing int64
	var batches, open int
	for _, s := range r.subs {
		if s == nil || (s.BatchID == "" && len(s.Candidates) == 0) {
			continue
		}
		batches++
		submitted += int64(s.Count)
		if s.State == subCreated {
			open++
			if n, ok := r.processing[s.Seq]; ok {
				processing += n
			} else {
				processing += int64(s.Count)
			}
		}
	}
	var retrying int64
	for seq, n := range r.queued {
		if c := r.child[seq]; c == nil || (c.State == subIntent && len(c.Candidates) == 0) {
			retrying += n
		}
	}
	r.job.updateProgress(func(p *BatchJobProgress) {
		p.Submitted, p.Processing, p.Batches, p.OpenBatches, p.Retrying = submitted, processing, batches, open, retrying
	})
}

// submitPlan ranges the input once more and submits every plan chunk not
// submitted yet (or whose create must be sent again), in order. After a
// cancel, those chunks' requests are delivered as canceled instead.
func (r *jobRun) submitPlan() error {
	chunks := r.plan.Chunks
	need := make([]bool, len(chunks))
	any := false
	for c := range chunks {
		s := r.subs[c]
		need[c] = s == nil || (s.State == subIntent && len(s.Candidates) == 0)
		any = any || need[c]
	}
	if !any {
		return nil
	}
	var (
		c      int
		sp     *spool
		unsent []byte // custom_ids of a chunk delivered as canceled, one per line
		skip   bool   // the current chunk is not sent
	)
	defer func() {
		if sp != nil {
			sp.remove()
		}
	}()
	var i int64
	for req := range r.job.p.Requests {
		for c < len(chunks) && i >= chunks[c].First+int64(chunks[c].Count) {
			c++
		}
		if c == len(chunks) {
			break
		}
		if !need[c] {
			i++
			continue
		}
		if err := r.ctx.Err(); err != nil {
			return err
		}
		first, last := i == chunks[c].First, i == chunks[c].First+int64(chunks[c].Count)-1
		i++
		if first { // a cancel decides for whole chunks
			skip, unsent = r.job.isCanceled(), unsent[:0]
		}
		if skip {
			unsent = append(append(unsent, req.CustomID...), '\n')
			if last {
				if err := r.settleUnsent(r.chunkSub(c), unsent); err != nil {
					return err
				}
			}
			continue
		}
		if sp == nil {
			var err error
			if sp, err = newSpool(r.job.p.SpoolDir); err != nil {
				return err
			}
		}
		if err := sp.add(&req); err != nil {
			return err
		}
		if !last {
			continue
		}
		want := chunks[c]
		if err := sp.finish(); err != nil {
			return err
		}
		if sp.count != want.Count || sp.bytes != want.Bytes || sp.sha != want.SHA256 {
			return fmt.Errorf("mms: the input yielded different requests when ranged again (batch %d of the plan, from requests[%d]); a job's input must be the same every time", c+1, want.First)
		}
		if err := r.submit(r.chunkSub(c), sp); err != nil {
			return err
		}
		sp.remove()
		sp = nil
	}
	if i < r.plan.Requests {
		return fmt.Errorf("mms: the input yielded %d requests when ranged again, %d the first time; a job's input must be the same every time", i, r.plan.Requests)
	}
	return nil
}

// chunkSub returns the record of plan chunk c (0-based), new if none.
func (r *jobRun) chunkSub(c int) *subRecord {
	if s := r.subs[c]; s != nil {
		return s
	}
	ch := r.plan.Chunks[c]
	s := &subRecord{Seq: c + 1, Chunk: c + 1, Attempt: 1, Count: ch.Count, Bytes: ch.Bytes, SHA256: ch.SHA256}
	r.subs[c] = s
	return s
}

// submit records the submission's custom_ids and intent, then creates its
// batch from the spooled body.
func (r *jobRun) submit(s *subRecord, sp *spool) error {
	s.Count, s.Bytes, s.SHA256 = sp.count, sp.bytes, sp.sha
	if err := r.put(subKey(s.Seq, "ids"), sp.ids.Bytes()); err != nil {
		return err
	}
	if err := r.step("ids", s.Seq); err != nil {
		return err
	}
	if s.Watermark == nil { // a create sent again keeps its first watermark
		wm, err := r.watermark()
		if err != nil {
			return err
		}
		s.Watermark = wm
		if s.Watermark == nil {
			s.Watermark = &batchMark{}
		}
	}
	s.State, s.IntentAt = subIntent, time.Now().UTC()
	if err := r.saveSub(s); err != nil {
		return err
	}
	if err := r.step("intent", s.Seq); err != nil {
		return err
	}
	return r.create(s, sp)
}

// watermark returns the newest batch of the workspace, nil if none.
func (r *jobRun) watermark() (*batchMark, error) {
	page, err := r.job.batches.ListPage(r.ctx, BatchListParams{Limit: 1}, r.opts()...)
	if err != nil {
		return nil, fmt.Errorf("mms: listing batches before a create: %w", err)
	}
	if len(page.Data) == 0 {
		return nil, nil
	}
	return &batchMark{ID: page.Data[0].ID, CreatedAt: page.Data[0].CreatedAt}, nil
}

// create sends the batch create, with the job's own retries: the client's
// automatic retries are off for it, since a create retried blindly after a
// lost answer makes a second batch. A failure after which the batch may
// exist is followed by a look for it (reconcile) before any new send.
func (r *jobRun) create(s *subRecord, sp *spool) error {
	backoff := r.job.p.PollInterval
	for attempt := 1; ; attempt++ {
		if err := r.owned(); err != nil {
			return err
		}
		b, err := r.createFromSpool(sp)
		if err == nil && b.ID == "" {
			err = errors.New("mms: the service answered a batch create without a batch id")
		}
		if err == nil {
			if err := r.step("created", s.Seq); err != nil {
				return err
			}
			return r.adopt(s, b.ID)
		}
		if r.ctx.Err() != nil {
			return err // the next run looks for the batch
		}
		var apiErr *Error
		isAPI := errors.As(err, &apiErr)
		switch {
		case !isAPI && errors.Is(err, ErrInvalidParams), errors.Is(err, ErrRequestTooLarge) && !isAPI:
			return err
		case isAPI && createRefused(apiErr) && !retryableRefusal(apiErr):
			return fmt.Errorf("mms: creating batch %d of the job: %w", s.Seq, err)
		case !isAPI || !createRefused(apiErr):
			// The batch may exist.
			found, ferr := r.reconcileAfter(s)
			if ferr != nil || found {
				return ferr
			}
		}
		if attempt == maxCreateAttempts {
			return fmt.Errorf("mms: creating batch %d of the job failed %d times: %w", s.Seq, attempt, err)
		}
		wait := backoff
		if isAPI && apiErr.Metadata().RetryAfter > 0 {
			wait = apiErr.Metadata().RetryAfter
		}
		if err := sleepCtx(r.ctx, wait); err != nil {
			return err
		}
		backoff = min(backoff*2, r.job.p.MaxPollInterval)
	}
}

// createRefused reports an answer that means no batch was made: a 4xx, or
// a 529 overloaded.
func createRefused(e *Error) bool {
	return (e.StatusCode >= 400 && e.StatusCode < 500) || e.StatusCode == 529
}

// retryableRefusal reports a refusal worth sending again.
func retryableRefusal(e *Error) bool {
	switch e.StatusCode {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooManyRequests, 529:
		return true
	}
	return false
}

// createFromSpool creates a batch from the spooled body, without the client's
// retries.
func (r *jobRun) createFromSpool(sp *spool) (*Batch, error) {
	opts := append(slices.Clip(r.opts()), option.WithMaxRetries(0))
	var b Batch
	req := &request{method: http.MethodPost, path: batchesPath, betas: sp.betas, out: &b,
		stream: sp.body(), size: sp.bytes, getBody: func() (io.Reader, error) { return sp.body(), nil }}
	if _, err := r.job.batches.client.newCall(opts).send(r.ctx, req); err != nil {
		return nil, err
	}
	return &b, nil
}

// adopt records the submission's batch.
func (r *jobRun) adopt(s *subRecord, batchID string) error {
	s.BatchID, s.Candidates, s.State = batchID, nil, subCreated
	if err := r.saveSub(s); err != nil {
		return err
	}
	r.refreshProgress()
	if err := r.step("created-saved", s.Seq); err != nil {
		return err
	}
	if r.job.isCanceled() {
		return cancelJobBatch(r.durable(), r.job, batchID)
	}
	return nil
}

// reconcileAfter lists the batches created since the submission's
// watermark and records those that hold as many requests as it does, and
// that the job has not claimed, as its candidates. found reports whether
// any were.
func (r *jobRun) reconcileAfter(s *subRecord) (found bool, err error) {
	claimed := map[string]bool{}
	for _, o := range r.subs {
		if o == nil {
			continue
		}
		claimed[o.BatchID] = true
		for _, c := range o.Candidates {
			claimed[c] = true
		}
	}
	for _, id := range s.Rejected {
		claimed[id] = true
	}
	var cands []string
	for b, err := range r.job.batches.List(r.ctx, BatchListParams{Limit: 100}, r.opts()...) {
		if err != nil {
			return false, fmt.Errorf("mms: looking for the batch of a create whose answer was lost: %w", err)
		}
		if wm := s.Watermark; wm != nil && wm.ID != "" && (b.ID == wm.ID || b.CreatedAt.Before(wm.CreatedAt)) {
			break
		}
		if !claimed[b.ID] && b.RequestCounts.Total() == s.Count {
			cands = append(cands, b.ID)
		}
	}
	if len(cands) == 0 {
		return false, nil
	}
	s.Candidates, s.State = cands, subCreated
	if err := r.saveSub(s); err != nil {
		return false, err
	}
	r.refreshProgress()
	return true, r.step("candidates", s.Seq)
}

// drive polls the open batches, delivers the results of those that ended
// and resubmits what the policy says, until every result is delivered.
func (r *jobRun) drive() error {
	interval := r.job.p.PollInterval
	for {
		open, changed := false, false
		for i := 0; i < len(r.subs); i++ { // resubmissions grow r.subs
			s := r.subs[i]
			if s == nil {
				return fmt.Errorf("mms: the batch job has no record of submission %d", i+1)
			}
			var err error
			var o, c bool
			switch {
			case s.State == subIntent:
				c, err = true, r.resubmit(s)
			case s.State == subCreated && s.BatchID == "":
				o, c, err = r.resolveCandidates(s)
			case s.State == subCreated:
				o, c, err = r.poll(s)
			case s.State == subEnded:
				c, err = true, r.deliver(s)
			case s.State == subSettled && r.retryOwed[s.Seq]:
				c, err = true, r.resubmitRetries(s)
			}
			if err != nil {
				return err
			}
			open, changed = open || o, changed || c
		}
		if !open && !changed {
			return nil
		}
		if changed {
			interval = r.job.p.PollInterval
			continue
		}
		if err := sleepCtx(r.ctx, interval); err != nil {
			return err
		}
		interval = min(interval*2, r.job.p.MaxPollInterval)
	}
}

// poll gets a submission's batch; an ended one is delivered.
func (r *jobRun) poll(s *subRecord) (open, changed bool, err error) {
	b, err := r.job.batches.Get(r.ctx, s.BatchID, r.opts()...)
	var apiErr *Error
	switch {
	case errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusNotFound:
		// Deleted by someone: its requests get a made-up errored result.
		if err := r.markGone(s); err != nil {
			return false, false, err
		}
		delete(r.processing, s.Seq)
		r.refreshProgress()
		return false, true, r.deliver(s)
	case err != nil:
		return false, false, fmt.Errorf("mms: polling batch %s: %w", s.BatchID, err)
	}
	if !b.ended() {
		if r.processing[s.Seq] != int64(b.RequestCounts.Processing) {
			r.processing[s.Seq] = int64(b.RequestCounts.Processing)
			r.refreshProgress()
		}
		return true, false, nil
	}
	s.State = subEnded
	if err := r.saveSub(s); err != nil {
		return false, false, err
	}
	delete(r.processing, s.Seq)
	r.refreshProgress()
	if err := r.step("ended", s.Seq); err != nil {
		return false, false, err
	}
	return false, true, r.deliver(s)
}

// resolveCandidates checks the candidates of a create whose answer was
// lost, as they end: the first whose results hold this submission's
// custom_ids is its batch. When none is, the create is sent again.
func (r *jobRun) resolveCandidates(s *subRecord) (open, changed bool, err error) {
	idx, err := r.loadIDs(s)
	if err != nil {
		return false, false, err
	}
	for _, c := range slices.Clone(s.Candidates) {
		b, err := r.job.batches.Get(r.ctx, c, r.opts()...)
		if errors.Is(err, ErrNotFound) {
			s.Candidates = slices.DeleteFunc(s.Candidates, func(x string) bool { return x == c })
			s.Rejected = append(s.Rejected, c)
			changed = true
			continue
		}
		if err != nil {
			return false, false, fmt.Errorf("mms: polling batch %s: %w", c, err)
		}
		if !b.ended() {
			open = true
			continue
		}
		ours, err := r.holds(c, idx)
		if err != nil {
			return false, false, err
		}
		if ours {
			s.BatchID, s.Candidates, s.State = c, nil, subEnded
			if err := r.saveSub(s); err != nil {
				return false, false, err
			}
			r.refreshProgress()
			if err := r.step("ended", s.Seq); err != nil {
				return false, false, err
			}
			return false, true, r.deliver(s)
		}
		s.Candidates = slices.DeleteFunc(s.Candidates, func(x string) bool { return x == c })
		s.Rejected = append(s.Rejected, c)
		changed = true
	}
	if !changed {
		return open, false, nil
	}
	if len(s.Candidates) == 0 {
		s.State = subIntent
	}
	if err := r.saveSub(s); err != nil {
		return false, false, err
	}
	r.refreshProgress()
	return open, true, nil
}

// holds reports whether the first result of an ended batch is one of idx.
func (r *jobRun) holds(batchID string, idx *idIndex) (bool, error) {
	for res, err := range r.results(batchID) {
		if err != nil {
			return false, err
		}
		return idx.find(res.CustomID) >= 0, nil
	}
	return false, nil
}

// resubmit sends again the create of a submission none of whose
// candidates was its batch (or that a run left before its create was
// sent).
func (r *jobRun) resubmit(s *subRecord) error {
	idx, err := r.loadIDs(s)
	if err != nil {
		return err
	}
	if r.job.isCanceled() {
		return r.settleUnsent(s, []byte(idx.blob))
	}
	sp, err := r.spoolIDs(idx)
	if err != nil {
		return err
	}
	defer sp.remove()
	if sp.sha != s.SHA256 {
		return fmt.Errorf("mms: the input yielded different requests for submission %d than when it was first made; a job's input must be the same every time", s.Seq)
	}
	return r.submit(s, sp)
}

// spoolIDs encodes the requests of idx, in input order, into a new body.
func (r *jobRun) spoolIDs(idx *idIndex) (*spool, error) {
	sp, err := newSpool(r.job.p.SpoolDir)
	if err != nil {
		return nil, err
	}
	for req := range r.job.p.Requests {
		if err := r.ctx.Err(); err != nil {
			sp.remove()
			return nil, err
		}
		if idx.find(req.CustomID) < 0 {
			continue
		}
		if err := sp.add(&req); err != nil {
			sp.remove()
			return nil, err
		}
	}
	if err := sp.finish(); err != nil {
		sp.remove()
		return nil, err
	}
	if sp.count != idx.len() {
		sp.remove()
		return nil, fmt.Errorf("mms: the input holds %d of the %d requests to resubmit; a job's input must be the same every time", sp.count, idx.len())
	}
	return sp, nil
}

// resubmitRetries makes the submission that resubmits the results a
// settled submission queued for a retry; after a cancel, those results are
// delivered as they are instead.
func (r *jobRun) resubmitRetries(parent *subRecord) error {
	var queued []logEntry
	last := map[string]int{}
	if err := r.readLog(parent.Seq, func(e logEntry) {
		if i, ok := last[e.customID]; ok {
			queued[i].code = 0 // superseded
		}
		last[e.customID] = len(queued)
		queued = append(queued, e)
	}); err != nil {
		return err
	}
	queued = slices.DeleteFunc(queued, func(e logEntry) bool { return e.code != codeRetry })
	delete(r.retryOwed, parent.Seq)
	if len(queued) == 0 {
		return nil
	}
	if r.job.isCanceled() {
		for _, e := range queued {
			res, err := decodeLoggedResult(e)
			if err != nil {
				return err
			}
			r.queued[parent.Seq]--
			r.refreshProgress()
			if err := r.deliverOne(parent.Seq, e.customID, res, parent.BatchID, parent.Attempt); err != nil {
				return err
			}
		}
		return nil
	}
	var ids []byte
	for _, e := range queued {
		ids = append(append(ids, e.customID...), '\n')
	}
	sp, err := r.spoolIDs(newIDIndex(ids))
	if err != nil {
		return err
	}
	defer sp.remove()
	s := &subRecord{Seq: len(r.subs) + 1, Parent: parent.Seq, Attempt: parent.Attempt + 1}
	r.subs = append(r.subs, s)
	r.child[parent.Seq] = s
	return r.submit(s, sp)
}

// decodeLoggedResult decodes the result kept in a log record.
func decodeLoggedResult(e logEntry) (BatchResultValue, error) {
	var res BatchResult
	if err := json.Unmarshal([]byte(`{"custom_id":"`+e.customID+`","result":`+string(e.result)+`}`), &res); err != nil || res.Result == nil {
		return nil, fmt.Errorf("mms: the batch job's log holds a damaged result for custom_id %q: %v", e.customID, err)
	}
	return res.Result, nil
}

// cancelJobBatch cancels one of the job's batches; one that has ended
// already, or is gone, is no error.
func cancelJobBatch(ctx context.Context, j *BatchJob, batchID string) error {
	_, err := j.batches.Cancel(ctx, batchID, j.opts...)
	var apiErr *Error
	if errors.As(err, &apiErr) && (apiErr.StatusCode == http.StatusBadRequest || apiErr.StatusCode == http.StatusNotFound) {
		return nil // ended, or gone: nothing left to cancel
	}
	if err != nil {
		return fmt.Errorf("mms: canceling batch %s of the job: %w", batchID, err)
	}
	return nil
}
