package mms

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"
)

// The job's keys (documented on BatchJob, "Records").
const (
	keyPlan     = "plan.json"
	keyCanceled = "canceled"
	keyDone     = "done"
)

func subKey(seq int, ext string) string { return fmt.Sprintf("sub-%06d.%s", seq, ext) }

// Submission states, in order.
const (
	subIntent  = "intent"  // about to be created, or created without the job knowing its id
	subCreated = "created" // the batch (BatchID) exists and is processing
	subEnded   = "ended"   // the batch ended; its results are being delivered
	subSettled = "settled" // every result is delivered or queued for a retry
)

// subRecord is one submission: a batch the job creates, and the state of
// its results.
type subRecord struct {
	Seq     int    `json:"seq"`
	Chunk   int    `json:"chunk,omitempty"`  // the plan chunk (1-based), for a first submission
	Parent  int    `json:"parent,omitempty"` // the submission it resubmits results of
	Attempt int    `json:"attempt"`
	Count   int    `json:"count"`
	Bytes   int64  `json:"bytes"`
	SHA256  string `json:"sha256"`
	State   string `json:"state"`
	// Watermark is the newest batch of the workspace before the first
	// create was sent: a batch created by that create is newer.
	Watermark *batchMark `json:"watermark,omitempty"`
	IntentAt  time.Time  `json:"intent_at"`
	// BatchID is the submission's batch: the one its create answered
	// with, or the candidate whose results showed it holds its requests.
	BatchID string `json:"batch_id,omitempty"`
	// Gone is set when the service no longer has the batch (a 404) before
	// its results were all read.
	Gone bool `json:"gone,omitempty"`
	// Candidates are batches that may be this submission's, found after a
	// create whose answer was lost; Rejected ones turned out not to be.
	Candidates []string `json:"candidates,omitempty"`
	Rejected   []string `json:"rejected,omitempty"`
}

// batchMark names a batch and when it was created (the service's clock).
type batchMark struct {
	ID        string    `json:"id"`
	CreatedAt time.Time `json:"created_at"`
}

// Result codes of the submission logs.
const (
	codeSucceeded = 's'
	codeErrored   = 'e'
	codeCanceled  = 'c'
	codeExpired   = 'x'
	codeOther     = 'u'
	codeRetry     = 'r' // queued for resubmission
)

// logEntry is one record of a submission log. The result is kept for
// every code but 's' (a succeeded message is fetched again from the
// results when it must be delivered again).
type logEntry struct {
	code     byte
	customID string
	result   []byte
}

func (e logEntry) encode() []byte {
	b := make([]byte, 0, 3+len(e.customID)+len(e.result))
	b = append(b, e.code, ' ')
	b = append(b, e.customID...)
	if len(e.result) > 0 {
		b = append(b, ' ')
		b = append(b, e.result...)
	}
	return b
}

func parseLogEntry(rec []byte) (logEntry, error) {
	if len(rec) < 3 || rec[1] != ' ' || !strings.ContainsRune("secxur", rune(rec[0])) {
		return logEntry{}, fmt.Errorf("not a result record: %q", excerpt(rec))
	}
	e := logEntry{code: rec[0]}
	id, result, _ := bytes.Cut(rec[2:], []byte{' '})
	e.customID = string(id)
	if len(result) > 0 {
		e.result = bytes.Clone(result)
	}
	return e, nil
}

// resultCode is the log code of a final result.
func resultCode(v BatchResultValue) byte {
	switch v.(type) {
	case SucceededBatchResult:
		return codeSucceeded
	case ErroredBatchResult:
		return codeErrored
	case CanceledBatchResult:
		return codeCanceled
	case ExpiredBatchResult:
		return codeExpired
	}
	return codeOther
}

// countFinal adds one final result of code c to p.
func countFinal(p *BatchJobProgress, c byte, n int64) {
	switch c {
	case codeSucceeded:
		p.Succeeded += n
	case codeErrored:
		p.Errored += n
	case codeCanceled:
		p.Canceled += n
	case codeExpired:
		p.Expired += n
	case codeOther:
		p.Other += n
	}
}

// getJSON reads a JSON value of the store; ok is false when there is none.
func (r *jobRun) getJSON(key string, v any) (ok bool, err error) {
	b, err := r.store.Get(r.ctx, key)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("mms: reading the batch job's %s: %w", key, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("mms: the batch job's %s is damaged: %w", key, err)
	}
	return true, nil
}

// has reports whether the store holds key.
func (r *jobRun) has(key string) (bool, error) {
	_, err := r.store.Get(r.ctx, key)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("mms: reading the batch job's %s: %w", key, err)
	}
	return true, nil
}

// put writes a store value. It runs even after the context has ended: the
// value records something that already happened.
func (r *jobRun) put(key string, value []byte) error {
	if err := r.store.Put(r.durable(), key, value); err != nil {
		return fmt.Errorf("mms: saving the batch job's %s: %w", key, err)
	}
	return nil
}

func (r *jobRun) saveSub(s *subRecord) error { return r.put(subKey(s.Seq, "json"), mustJSON(s)) }

// loadSubs reads every submission record, in order.
func (r *jobRun) loadSubs() ([]*subRecord, error) {
	keys, err := r.store.Keys(r.ctx, "sub-")
	if err != nil {
		return nil, fmt.Errorf("mms: listing the batch job's submissions: %w", err)
	}
	var subs []*subRecord
	for _, k := range keys {
		if !strings.HasSuffix(k, ".json") {
			continue
		}
		s := new(subRecord)
		if _, err := r.getJSON(k, s); err != nil {
			return nil, err
		}
		if s.Seq < 1 || k != subKey(s.Seq, "json") {
			return nil, fmt.Errorf("mms: the batch job's %s is damaged: it names submission %d", k, s.Seq)
		}
		subs = append(subs, s)
	}
	slices.SortFunc(subs, func(a, b *subRecord) int { return a.Seq - b.Seq })
	return subs, nil
}

// loadIDs reads the custom_ids of a submission.
func (r *jobRun) loadIDs(s *subRecord) (*idIndex, error) {
	b, err := r.store.Get(r.ctx, subKey(s.Seq, "ids"))
	if err != nil {
		return nil, fmt.Errorf("mms: reading the custom_ids of the batch job's submission %d: %w", s.Seq, err)
	}
	idx := newIDIndex(b)
	if idx.len() != s.Count {
		return nil, fmt.Errorf("mms: the batch job's %s is damaged: %d custom_ids for %d requests", subKey(s.Seq, "ids"), idx.len(), s.Count)
	}
	return idx, nil
}

// readLog reads a submission's log: the last record of each custom_id wins.
// fn gets each record in order.
func (r *jobRun) readLog(seq int, fn func(logEntry)) error {
	key := subKey(seq, "log")
	for rec, err := range r.store.Records(r.ctx, key) {
		if err != nil {
			return fmt.Errorf("mms: reading the batch job's %s: %w", key, err)
		}
		e, err := parseLogEntry(rec)
		if err != nil {
			return fmt.Errorf("mms: the batch job's %s is damaged: %w", key, err)
		}
		fn(e)
	}
	return nil
}

func (r *jobRun) appendLog(seq int, e logEntry) error {
	key := subKey(seq, "log")
	if err := r.store.Append(r.durable(), key, e.encode()); err != nil {
		return fmt.Errorf("mms: saving to the batch job's %s: %w", key, err)
	}
	return nil
}

// idIndex is a submission's custom_ids, sorted for lookups, with a mark
// per id: memory is one batch's ids (about 20 bytes and one allocation
// for them all, plus the ids' bytes), whatever the job's size.
type idIndex struct {
	blob   string  // the ids, each ended by '\n', in body order
	start  []int32 // where id i starts in blob; start[n] = len(blob)
	sorted []int32 // positions, sorted by custom_id
	mark   []byte  // per position: 0, or the log code
}

// newIDIndex indexes a list of custom_ids, one per line (the last line
// may lack its '\n').
func newIDIndex(list []byte) *idIndex {
	blob := string(list)
	if blob != "" && blob[len(blob)-1] != '\n' {
		blob += "\n"
	}
	n := strings.Count(blob, "\n")
	x := &idIndex{blob: blob, start: make([]int32, 0, n+1), sorted: make([]int32, n), mark: make([]byte, n)}
	for i := 0; i < len(blob); {
		x.start = append(x.start, int32(i))
		i += strings.IndexByte(blob[i:], '\n') + 1
	}
	x.start = append(x.start, int32(len(blob)))
	for i := range x.sorted {
		x.sorted[i] = int32(i)
	}
	slices.SortFunc(x.sorted, func(a, b int32) int { return strings.Compare(x.id(int(a)), x.id(int(b))) })
	return x
}

// len is the number of ids.
func (x *idIndex) len() int { return len(x.mark) }

// id returns the custom_id at position i.
func (x *idIndex) id(i int) string { return x.blob[x.start[i] : x.start[i+1]-1] }

// find returns the position of id, or -1.
func (x *idIndex) find(id string) int {
	i, ok := slices.BinarySearchFunc(x.sorted, id, func(p int32, id string) int { return strings.Compare(x.id(int(p)), id) })
	if !ok {
		return -1
	}
	return int(x.sorted[i])
}
