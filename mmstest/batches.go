package mmstest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math/bits"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// Message Batches: POST /v1/messages/batches, GET (list), GET
// one, POST .../cancel, DELETE and GET .../results.
//
// # Lifecycle
//
// A batch follows the server's clock (WithClock), never real time, and its
// state is worked out whenever it is looked at:
//
//   - Create checks the body strictly (requests: 1–100,000 items of
//     custom_id, 1–64 characters of [a-zA-Z0-9_-] and unique, and params, a
//     complete POST /v1/messages body checked against the Messages request
//     form with the create request's vendor-beta values) and answers with
//     the batch in_progress, request_counts.processing = the number of
//     requests and the other counts 0.
//   - Processing takes the batch processing time (DefaultBatchProcessingTime,
//     set with WithBatchProcessingTime, changed with SetBatchProcessingTime
//     for batches created afterwards),
//     spread evenly over the requests in request order: request i of n is
//     done at created_at + time·(i+1)/n. The batch ends when the last one is
//     done. Then, and only then, every request done in time is run through
//     the fake's Messages logic: it succeeds with the Message that
//     POST /v1/messages would return for the same body and betas (other ids,
//     usage.service_tier "batch"), or errors with the error body that call
//     would get (a "stream": true request is errored too). The request goes
//     through the POST /v1/messages handler itself (without the rule chain
//     of rules.go: no faults or rate limits), so every check the endpoint
//     makes, file references included, applies. The counts, ended_at
//     and results_url (this server's .../results path) are set.
//   - Chosen outcomes (WithBatchOutcomes, SetBatchOutcomes): when a batch
//     ends, the function is asked about each request done in time, with
//     its custom_id and submission number, and may make it errored (the
//     usual errored line, default error api_error "Internal server
//     error"), canceled or expired instead of running it; the counts
//     follow. Requests canceled or expired by timing stay so.
//   - Submissions: each create that passes the checks counts one
//     submission per custom_id it holds (BatchSubmissions), as soon as the
//     batch exists, even if the answer never reaches the client.
//   - Size: the body may be up to wire.LimitBatches (256 MiB, else 413 by
//     the rule chain). The requests keep sub-slices of the one body until
//     the batch ends; then only the result lines are kept.
//   - Cancel, allowed while in_progress, sets cancel_initiated_at and the
//     status canceling. The request running at that moment still completes;
//     when it is done the batch ends, and every request not done is canceled.
//     Cancelling a canceling batch returns it unchanged; an ended one is a
//     400.
//   - expires_at is created_at + 24 h. A batch still processing then ends at
//     expires_at: the requests not done are expired (canceled if a cancel
//     was requested). Only a processing time over 24 h gets there.
//   - 29 days after creation the results are archived: archived_at is set
//     and the results endpoint answers 404.
//   - Delete is allowed once the batch has ended (else 400); the batch is
//     then gone (404).
//   - Results answers 404 until the batch has ended. The JSONL file has one
//     line per request, in reverse request order: the service promises no
//     order, and a client that assumes one should fail here.
//   - List pages newest first by the id scheme (pageByID).

// DefaultBatchProcessingTime is how long, on the server's clock, a batch
// takes to process unless WithBatchProcessingTime or SetBatchProcessingTime
// says otherwise.
const DefaultBatchProcessingTime = time.Second

// Batch limits and lifetimes.
const (
	maxBatchRequests = wire.MaxBatchRequests
	batchExpiry      = 24 * time.Hour
	batchArchive     = 29 * 24 * time.Hour
)

// batchSchema is the request form of POST /v1/messages/batches, in the
// notation of schema.go. Each params object is then checked against the
// Messages "create" shape.
var batchSchema = compileSchema(nil, map[string]string{
	"batch_create":  "requests!:[#batch_request]{1," + strconv.Itoa(maxBatchRequests) + "}",
	"batch_request": "custom_id!:str{1," + strconv.Itoa(wire.MaxBatchCustomIDLength) + "}~custom_id params!:obj",
}, nil)

// SetBatchProcessingTime sets how long, on the server's clock, batches
// created from now on take to process (see DefaultBatchProcessingTime); a
// negative d counts as 0, which ends a batch as soon as it is created. A
// time over 24 h makes batches expire before their last requests run.
func (s *Server) SetBatchProcessingTime(d time.Duration) {
	st := s.batches
	st.mu.Lock()
	defer st.mu.Unlock()
	st.processing = max(d, 0)
}

// BatchOutcome is what the fake makes of one batch request when its batch
// ends. The zero value runs the request as usual (through the
// POST /v1/messages handler).
type BatchOutcome struct {
	// Type is "" (run as usual), "errored", "canceled" or "expired". Any
	// other value errors the request with an api_error naming the value.
	Type string
	// ErrorType and Message make an errored result's error; defaults
	// "api_error" and "Internal server error".
	ErrorType, Message string
}

// SetBatchOutcomes replaces the function that picks the outcome of each
// request of the batches that end from now on (see WithBatchOutcomes); nil
// runs every request as usual. submission is 1 for the first batch created
// on this server that held customID, 2 for the second, and so on. f is
// called with the server's batch lock held: it may call BatchSubmissions,
// but not the other batch methods of the server, nor send it requests.
func (s *Server) SetBatchOutcomes(f func(customID string, submission int) BatchOutcome) {
	st := s.batches
	st.mu.Lock()
	defer st.mu.Unlock()
	st.outcomes = f
}

// BatchSubmissions returns how many created batches held customID, so that
// tests can prove no request was submitted twice. A create counts once the
// batch exists, even if its answer never reached the client.
func (s *Server) BatchSubmissions(customID string) int {
	st := s.batches
	st.countMu.Lock()
	defer st.countMu.Unlock()
	return st.submissions[customID]
}

// batchStore holds a server's batches (Server.batches), so that the batch
// endpoints need nothing from the Server type beyond its helpers.
type batchStore struct {
	srv        *Server
	mu         sync.Mutex
	processing time.Duration
	outcomes   func(customID string, submission int) BatchOutcome
	batches    []*fakeBatch // in creation order

	countMu     sync.Mutex     // apart from mu, so that outcomes may read the counts
	submissions map[string]int // by custom_id: how many created batches held it
}

func newBatchStore(s *Server) *batchStore {
	return &batchStore{srv: s, processing: s.cfg.batchProcessing, outcomes: s.cfg.batchOutcomes,
		submissions: map[string]int{}}
}

// fakeBatch is one batch and its requests.
type fakeBatch struct {
	id         string
	created    time.Time
	processing time.Duration
	header     http.Header // the create request's, for betas
	n          int         // the number of requests
	requests   []batchItem // until the batch ends
	cancelAt   *time.Time
	endedAt    *time.Time
	counts     batchCounts
	results    [][]byte // JSONL lines without newline, in file order, once ended
}

// batchItem is one request of a batch. params is a sub-slice of the create
// body, which the items share until the batch ends.
type batchItem struct {
	customID   string
	params     []byte
	submission int // this batch is the submission-th to hold customID
}

type batchCounts struct {
	Processing int `json:"processing"`
	Succeeded  int `json:"succeeded"`
	Errored    int `json:"errored"`
	Canceled   int `json:"canceled"`
	Expired    int `json:"expired"`
}

// batchWire is the MessageBatch record.
type batchWire struct {
	ID                string      `json:"id"`
	Type              string      `json:"type"`
	ProcessingStatus  string      `json:"processing_status"`
	RequestCounts     batchCounts `json:"request_counts"`
	EndedAt           *time.Time  `json:"ended_at"`
	CreatedAt         time.Time   `json:"created_at"`
	ExpiresAt         time.Time   `json:"expires_at"`
	ArchivedAt        *time.Time  `json:"archived_at"`
	CancelInitiatedAt *time.Time  `json:"cancel_initiated_at"`
	ResultsURL        *string     `json:"results_url"`
}

// doneAt is when request i is done: created + processing·(i+1)/n, computed
// without overflow.
func (b *fakeBatch) doneAt(i int) time.Time {
	n := uint64(b.n)
	hi, lo := bits.Mul64(uint64(b.processing), uint64(i+1))
	q, _ := bits.Div64(hi, lo, n) // q ≤ processing: no overflow, hi < n
	return b.created.Add(time.Duration(q))
}

func (b *fakeBatch) expiresAt() time.Time { return b.created.Add(batchExpiry) }

// endTime is when processing ends, given what is known now.
func (b *fakeBatch) endTime() time.Time {
	end := b.created.Add(b.processing)
	if b.cancelAt != nil {
		// The request running at the cancel completes; none starts after.
		n := b.n
		i := sort.Search(n, func(i int) bool { return b.doneAt(i).After(*b.cancelAt) })
		if i < n && b.doneAt(i).Before(end) {
			end = b.doneAt(i)
		}
	}
	if exp := b.expiresAt(); end.After(exp) {
		end = exp
	}
	return end
}

// settle ends the batch if its end has come by now, running its requests.
func (st *batchStore) settle(b *fakeBatch, now time.Time) {
	if b.endedAt != nil {
		return
	}
	end := b.endTime()
	if now.Before(end) {
		return
	}
	n := b.n
	b.results = make([][]byte, n)
	b.counts = batchCounts{}
	for i, it := range b.requests {
		var o BatchOutcome
		switch {
		case !b.doneAt(i).After(end):
			if st.outcomes != nil {
				o = st.outcomes(it.customID, it.submission)
			}
		case b.cancelAt != nil:
			o.Type = "canceled"
		default:
			o.Type = "expired"
		}
		var line []byte
		switch o.Type {
		case "":
			var ok bool
			line, ok = st.run(b.header, it)
			if ok {
				b.counts.Succeeded++
			} else {
				b.counts.Errored++
			}
		case "canceled", "expired":
			line = resultLine(it.customID, `{"type":"`, o.Type, `"}`)
			if o.Type == "canceled" {
				b.counts.Canceled++
			} else {
				b.counts.Expired++
			}
		case "errored":
			line = erroredLine(it.customID, cmp.Or(o.ErrorType, wire.ErrAPI), cmp.Or(o.Message, "Internal server error"))
			b.counts.Errored++
		default:
			line = erroredLine(it.customID, wire.ErrAPI, fmt.Sprintf("mmstest: unknown BatchOutcome type %q", o.Type))
			b.counts.Errored++
		}
		b.results[n-1-i] = line // reverse request order
	}
	b.endedAt = &end
	b.requests = nil // the params, and with them the create body, are no longer needed
}

// resultLine is one line of the results file: the custom_id (which needs no
// escaping: create checked it against [a-zA-Z0-9_-]) and the result, the
// concatenation of the JSON pieces given.
func resultLine[T string | []byte](customID string, result ...T) []byte {
	size := len(customID) + 28
	for _, r := range result {
		size += len(r)
	}
	line := make([]byte, 0, size)
	line = append(line, `{"custom_id":"`...)
	line = append(line, customID...)
	line = append(line, `","result":`...)
	for _, r := range result {
		line = append(line, r...)
	}
	return append(line, '}')
}

// erroredLine is the result line of an errored request.
func erroredLine(customID, errType, msg string) []byte {
	body := batchErrorBody{Type: "error", Error: errorDetail{Type: errType, Message: msg}}
	return resultLine(customID, encodeJSON(erroredWire{Type: "errored", Error: body}))
}

type erroredWire struct {
	Type  string         `json:"type"`
	Error batchErrorBody `json:"error"`
}

// batchErrorBody is the error body of an errored result; request_id is
// null, as in the Batches reference's example.
type batchErrorBody struct {
	Type      string      `json:"type"`
	Error     errorDetail `json:"error"`
	RequestID *string     `json:"request_id"`
}

// run runs one request through the handler of POST /v1/messages, as
// registered in routes.go, and returns its result line and whether it
// succeeded: a 200 answer is the succeeded message (with usage.service_tier
// "batch"), any other the errored body (with a null request_id). A request
// asking to stream is errored without running.
func (st *batchStore) run(header http.Header, it batchItem) ([]byte, bool) {
	if streams(it.params) {
		return erroredLine(it.customID, wire.ErrInvalidRequest, "stream: batch requests cannot be streamed"), false
	}
	h := header.Clone()
	h.Set(wire.HeaderContentType, "application/json")
	r := withBatchMark(&http.Request{Method: http.MethodPost, URL: &url.URL{Path: "/v1/messages"}, Host: "mms.test",
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: h,
		Body: io.NopCloser(bytes.NewReader(it.params)), ContentLength: int64(len(it.params))})
	handler, _ := st.srv.mux.Handler(r)
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, r)
	if rec.Code != http.StatusOK {
		var e errorBody
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
			return erroredLine(it.customID, errorTypeForStatus(rec.Code), statusMessage(rec.Code)), false
		}
		return erroredLine(it.customID, e.Error.Type, e.Error.Message), false
	}
	// The handler marks the usage of a batch request with service_tier
	// "batch" (drawPriority).
	msg := bytes.TrimSuffix(rec.Body.Bytes(), []byte("\n"))
	return resultLine(it.customID, []byte(`{"type":"succeeded","message":`), msg, []byte("}")), true
}

// streams reports whether params asks to stream; only a body that names
// "stream" is decoded to find out.
func streams(params []byte) bool {
	if !bytes.Contains(params, []byte(`"stream"`)) {
		return false
	}
	var flags struct {
		Stream bool `json:"stream"`
	}
	return json.Unmarshal(params, &flags) == nil && flags.Stream
}

// record builds the wire record of b as of now; b must be settled.
func (b *fakeBatch) record(r *http.Request, now time.Time) batchWire {
	w := batchWire{ID: b.id, Type: "message_batch", ProcessingStatus: "in_progress",
		CreatedAt: b.created.UTC(), ExpiresAt: b.expiresAt().UTC(), RequestCounts: b.counts}
	if b.cancelAt != nil {
		w.ProcessingStatus = "canceling"
		w.CancelInitiatedAt = utcPtr(*b.cancelAt)
	}
	if b.endedAt == nil {
		w.RequestCounts = batchCounts{Processing: b.n}
		return w
	}
	w.ProcessingStatus = "ended"
	w.EndedAt = utcPtr(*b.endedAt)
	if archive := b.created.Add(batchArchive); !now.Before(archive) {
		w.ArchivedAt = utcPtr(archive)
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	u := scheme + "://" + r.Host + "/v1/messages/batches/" + url.PathEscape(b.id) + "/results"
	w.ResultsURL = &u
	return w
}

func utcPtr(t time.Time) *time.Time {
	t = t.UTC()
	return &t
}

// lookup returns the batch the path names, settled at now, or answers 404
// and returns nil. st.mu must be held.
func (st *batchStore) lookup(w http.ResponseWriter, r *http.Request) (b *fakeBatch, now time.Time) {
	now = st.srv.now()
	id := r.PathValue("message_batch_id")
	for _, b := range st.batches {
		if b.id == id {
			st.settle(b, now)
			return b, now
		}
	}
	writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "message batch not found: "+id)
	return nil, now
}

// create serves POST /v1/messages/batches.
func (st *batchStore) create(w http.ResponseWriter, r *http.Request) {
	// Buffered by the rule chain; read into one buffer of the declared size
	// (growing it would copy), which the batch's requests then share.
	raw := make([]byte, max(r.ContentLength, 0))
	n, _ := io.ReadFull(r.Body, raw)
	raw = raw[:n]
	if rest, _ := io.ReadAll(r.Body); len(rest) > 0 { // a chunked body
		raw = append(raw, rest...)
	}
	switch {
	case len(bytes.TrimSpace(raw)) == 0:
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "request body is empty; a JSON body is required")
		return
	case !json.Valid(raw):
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "request body is not valid JSON")
		return
	}
	betas := betaNames(r.Header)
	v := validator{sc: batchSchema, betas: betas}
	if badIf(w, r, v.check("", raw, &typ{kind: kShape, name: "batch_create"})) {
		return
	}
	requests := batchItems(raw)
	mv := validator{sc: messagesSchema, betas: betas}
	seen := make(map[string]int, len(requests))
	for i, it := range requests {
		path := "requests." + strconv.Itoa(i)
		if j, dup := seen[it.customID]; dup {
			writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest,
				fmt.Sprintf("%s.custom_id: duplicate custom_id %q (also requests.%d.custom_id); custom_id must be unique within a batch", path, it.customID, j))
			return
		}
		seen[it.customID] = i
		if jsonKind(it.params) == '{' {
			if err := versionRefusal(requestVersion(r), it.params, path+".params."); err != nil {
				writeAPIError(w, r, err)
				return
			}
		}
		if badIf(w, r, mv.check(path+".params", it.params, &typ{kind: kShape, name: "create"})) {
			return
		}
		if err := systemMessageRules(it.params, path+".params.", betas); err != nil {
			writeAPIError(w, r, err)
			return
		}
		if noMessages(it.params) { // the form allows [] for a thread continuation only
			writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, path+".params.messages: List should have at least 1 item after validation, not 0")
			return
		}
	}
	header := http.Header{}
	for _, k := range []string{wire.HeaderBeta, wire.HeaderUserProfileID, wire.HeaderWorkspaceID} {
		if vs := r.Header.Values(k); len(vs) > 0 {
			header[k] = slices.Clone(vs)
		}
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	now := st.srv.now()
	b := &fakeBatch{id: st.srv.newID("msgbatch_"), created: now, processing: st.processing,
		header: header, n: len(requests), requests: requests}
	st.batches = append(st.batches, b)
	st.countSubmissions(requests)
	st.settle(b, now)
	writeJSON(w, http.StatusOK, b.record(r, now))
}

// batchItems lists the requests of a create body that passed batchSchema.
func batchItems(body []byte) []batchItem {
	var items []batchItem
	for name, requests := range jsonMembers(body) {
		if name != "requests" {
			continue
		}
		items = items[:0] // a repeated member: the last one counts, as for encoding/json
		for req := range jsonElements(requests) {
			var it batchItem
			for name, v := range jsonMembers(req) {
				switch name {
				case "custom_id":
					it.customID = jsonString(v)
				case "params":
					it.params = v
				}
			}
			items = append(items, it)
		}
	}
	return items
}

// countSubmissions counts the submission of each request of a created batch
// and numbers it.
func (st *batchStore) countSubmissions(requests []batchItem) {
	st.countMu.Lock()
	defer st.countMu.Unlock()
	for i := range requests {
		st.submissions[requests[i].customID]++
		requests[i].submission = st.submissions[requests[i].customID]
	}
}

// list serves GET /v1/messages/batches, newest first, paged by the id
// scheme.
func (st *batchStore) list(w http.ResponseWriter, r *http.Request) {
	records := locked(&st.mu, func() []batchWire {
		now := st.srv.now()
		return newestFirst(st.batches, func(b *fakeBatch) (batchWire, bool) {
			st.settle(b, now)
			return b.record(r, now), true
		})
	})
	page, err := pageByID(records, func(b batchWire) string { return b.ID }, r.URL.Query(), "msgbatch_")
	writePage(w, r, page, err)
}

// get serves GET /v1/messages/batches/{message_batch_id}.
func (st *batchStore) get(w http.ResponseWriter, r *http.Request) {
	st.withBatch(w, r, func(b *fakeBatch, now time.Time) {
		writeJSON(w, http.StatusOK, b.record(r, now))
	})
}

// withBatch runs f on the batch the path names, settled at now, with st.mu
// held for both, or answers 404.
func (st *batchStore) withBatch(w http.ResponseWriter, r *http.Request, f func(b *fakeBatch, now time.Time)) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if b, now := st.lookup(w, r); b != nil {
		f(b, now)
	}
}

// cancel serves POST /v1/messages/batches/{message_batch_id}/cancel.
func (st *batchStore) cancel(w http.ResponseWriter, r *http.Request) {
	st.withBatch(w, r, func(b *fakeBatch, now time.Time) {
		switch {
		case b.endedAt != nil:
			writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest,
				fmt.Sprintf("message batch %s has already ended; only a batch that is processing can be canceled", b.id))
			return
		case b.cancelAt == nil:
			b.cancelAt = &now
			st.settle(b, now)
		}
		writeJSON(w, http.StatusOK, b.record(r, now))
	})
}

// delete serves DELETE /v1/messages/batches/{message_batch_id}.
func (st *batchStore) delete(w http.ResponseWriter, r *http.Request) {
	st.withBatch(w, r, func(b *fakeBatch, _ time.Time) {
		switch {
		case b.endedAt == nil:
			writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest,
				fmt.Sprintf("message batch %s is still processing; cancel it and wait for it to end before deleting it", b.id))
			return
		}
		st.batches = slices.DeleteFunc(st.batches, func(x *fakeBatch) bool { return x == b })
		writeJSON(w, http.StatusOK, struct {
			ID   string `json:"id"`
			Type string `json:"type"`
		}{b.id, "message_batch_deleted"})
	})
}

// results serves GET /v1/messages/batches/{message_batch_id}/results.
func (st *batchStore) results(w http.ResponseWriter, r *http.Request) {
	var b *fakeBatch
	var ended, archived bool
	var lines [][]byte
	withLock(&st.mu, func() { // the lines are written after the lock is released
		var now time.Time
		if b, now = st.lookup(w, r); b != nil {
			ended, lines = b.endedAt != nil, b.results
			archived = !now.Before(b.created.Add(batchArchive))
		}
	})
	if b == nil {
		return
	}
	switch {
	case !ended:
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound,
			fmt.Sprintf("message batch %s is still processing; its results are available only after processing ends", b.id))
		return
	case archived:
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound,
			fmt.Sprintf("the results of message batch %s have been archived and are no longer available", b.id))
		return
	}
	size := 0
	for _, l := range lines {
		size += len(l) + 1
	}
	h := w.Header()
	h.Set(wire.HeaderContentType, "application/x-jsonl")
	h.Set("Content-Length", strconv.Itoa(size))
	w.WriteHeader(http.StatusOK)
	newline := []byte{'\n'}
	for _, l := range lines {
		if _, err := w.Write(l); err != nil {
			return // the client is gone
		}
		_, _ = w.Write(newline)
	}
}
