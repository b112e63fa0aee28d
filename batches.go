package mms

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strconv"
	"time"

	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// BatchesService sends many message requests at once, processed
// asynchronously within 24 hours (/v1/messages/batches). Reach it as
// client.Messages.Batches.
//
// These are the GA endpoints: no beta is added for them. The official SDKs
// also offer the endpoints through a beta namespace that sends
// "vendor-beta: message-batches-2024-09-24"; the Batches reference says GA calls send
// nothing, so this service does not. Create adds the betas the requests'
// params need (as Messages.Create does), and betas given as options are
// passed through, e.g. to get beta message shapes in the results.
type BatchesService struct {
	client *Client
}

// Limits of a batch.
const (
	// MaxBatchRequests is the most requests one batch may hold.
	MaxBatchRequests = 100_000
	// MaxBatchCustomIDLength is the longest custom_id, in bytes.
	MaxBatchCustomIDLength = 64
)

const batchesPath = "/v1/messages/batches"

// ---------------------------------------------------------------------------
// Create

// BatchCreateParams is the body of POST /v1/messages/batches.
//
//mms:json
type BatchCreateParams struct {
	// Requests holds 1 to 100,000 requests. The encoded body may be at most
	// 256 MiB; a larger one is refused before anything is sent.
	Requests []BatchRequest `json:"requests"`
}

// BatchRequest is one request of a batch.
//
//mms:json request
type BatchRequest struct {
	// CustomID names the request, to match it with its result (results come
	// back in any order). It is 1–64 characters from [a-zA-Z0-9_-] and
	// unique within the batch.
	CustomID string `json:"custom_id"`
	// Params is a complete Messages request, validated as
	// [MessagesService.Create] validates it.
	Params MessageCreateParams `json:"params"`
}

// Validate reports the first rule the params break, as a *ValidationError:
// the number of requests (1–100,000), then, request by request, the
// custom_id ("requests[i].custom_id": its pattern, or a duplicate, naming
// the earlier index) and the params ("requests[i].params.<path>", the
// field Messages.Create would name). Create calls it before sending.
func (p BatchCreateParams) Validate() error {
	switch n := len(p.Requests); {
	case n == 0:
		return invalid("requests", "must hold at least one request")
	case n > MaxBatchRequests:
		return invalid("requests", "must hold at most %d requests, got %d", MaxBatchRequests, n)
	}
	seen := make(map[string]int, len(p.Requests))
	for i := range p.Requests {
		r := &p.Requests[i]
		path := "requests[" + strconv.Itoa(i) + "]"
		if err := validateCustomID(path+".custom_id", r.CustomID); err != nil {
			return err
		}
		if j, dup := seen[r.CustomID]; dup {
			return invalid(path+".custom_id", "duplicates requests[%d].custom_id %q; custom ids must be unique within a batch", j, r.CustomID)
		}
		seen[r.CustomID] = i
		if err := r.Params.Validate(); err != nil {
			return prefixValidation(path+".params", err)
		}
	}
	return nil
}

// validateCustomID checks ^[a-zA-Z0-9_-]{1,64}$.
func validateCustomID(path, id string) error {
	if id == "" {
		return invalid(path, "must not be empty")
	}
	if len(id) > MaxBatchCustomIDLength {
		return invalid(path, "must be at most %d characters, got %d", MaxBatchCustomIDLength, len(id))
	}
	if !isIDString(id) {
		return invalid(path, "must match ^[a-zA-Z0-9_-]{1,64}$, got %q", id)
	}
	return nil
}

// prefixValidation puts prefix in front of a *ValidationError's field;
// other errors are returned unchanged.
func prefixValidation(prefix string, err error) error {
	var ve *ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	field := prefix
	if ve.Field != "" {
		field += "." + ve.Field
	}
	return &ValidationError{Field: field, Rule: ve.Rule}
}

// encode writes the body of a validated batch as pieces, whose total
// size it returns. Each params goes through the encoder of Messages.Create,
// which copies large payloads (base64 images, long texts) once; the pieces
// are then sent one after the other rather than copied into one buffer, so
// a batch of up to 256 MiB is held in memory once.
func (p *BatchCreateParams) encode() ([][]byte, int64, error) {
	pieces := make([][]byte, 0, 3*len(p.Requests)+1)
	size := int64(0)
	add := func(b []byte) {
		pieces = append(pieces, b)
		size += int64(len(b))
	}
	for i := range p.Requests {
		b, err := encodeMessageBody(&p.Requests[i].Params, "")
		if err != nil {
			return nil, 0, fmt.Errorf("requests[%d].params: %w", i, err)
		}
		sep := `,{"custom_id":"`
		if i == 0 {
			sep = `{"requests":[{"custom_id":"`
		}
		// A valid custom_id ([a-zA-Z0-9_-]) needs no escaping.
		add([]byte(sep + p.Requests[i].CustomID + `","params":`))
		add(b)
		add([]byte("}"))
	}
	add([]byte("]}"))
	return pieces, size, nil
}

// readerOf returns a fresh reader over pieces.
func readerOf(pieces [][]byte) io.Reader {
	rs := make([]io.Reader, len(pieces))
	for i, b := range pieces {
		rs[i] = bytes.NewReader(b)
	}
	return io.MultiReader(rs...)
}

// betas merges the beta names every request's params need.
func (p *BatchCreateParams) betas() []string {
	var out []string
	for i := range p.Requests {
		out = appendNew(out, p.Requests[i].Params.betas()...)
	}
	return out
}

// Create submits a batch (POST /v1/messages/batches). The params are
// validated first (see [BatchCreateParams.Validate]); a *ValidationError
// means nothing was sent, and so does a [RequestTooLargeError] for a body
// over 256 MiB. The betas the requests' params need are added to the
// request. The batch starts processing at once; follow it with
// [BatchesService.Wait] and read it with [BatchesService.Results].
func (s *BatchesService) Create(ctx context.Context, p BatchCreateParams, opts ...option.RequestOption) (*Batch, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	cl := s.client.newCall(opts)
	if cl.err != nil {
		return nil, cl.err
	}
	// Every request of a batch created with 2026-10-21 follows its rules.
	if v := callVersion(cl.cfg); wire.VersionRefuses(v) {
		for i := range p.Requests {
			if err := p.Requests[i].Params.checkVersion(v, "requests["+strconv.Itoa(i)+"].params."); err != nil {
				return nil, err
			}
		}
	}
	pieces, size, err := p.encode()
	if err != nil {
		return nil, fmt.Errorf("mms: encoding the batch request: %w", err)
	}
	var b Batch
	r := &request{method: http.MethodPost, path: batchesPath, betas: p.betas(), out: &b, retry: transport.Creating,
		stream: readerOf(pieces), size: size, getBody: func() (io.Reader, error) { return readerOf(pieces), nil }}
	if _, err := cl.send(ctx, r); err != nil {
		return nil, err
	}
	return &b, nil
}

// ---------------------------------------------------------------------------
// Get, Cancel, Delete

// batchPath returns the escaped path of a batch plus suffix, refusing ids
// that cannot name one.
func batchPath(id, suffix string) (string, error) {
	seg, err := pathID("message_batch_id", id)
	if err != nil {
		return "", err
	}
	return batchesPath + "/" + seg + suffix, nil
}

// batchCall sends a body-less request about one batch and decodes the
// answer. It is retried as endpoint.go declares its verb: a get is safe, a
// cancel is in actionRetry, a delete is idempotent and a resend answered
// 404 is its success (out then names only the id).
func batchCall(ctx context.Context, cl call, method, id, suffix string, out any) error {
	path, err := batchPath(id, suffix)
	if err != nil {
		return err
	}
	r := &request{method: method, path: path, out: out, retry: retryOfPath(method, path)}
	if method == http.MethodDelete {
		r.removes = transport.Deletes
	}
	resp, err := cl.send(ctx, r)
	if err == nil && resp.Resent {
		return deletedAnswer(id, out)
	}
	return err
}

// Get retrieves a batch (GET /v1/messages/batches/{message_batch_id}).
func (s *BatchesService) Get(ctx context.Context, batchID string, opts ...option.RequestOption) (*Batch, error) {
	return getBatch(ctx, s.client.newCall(opts), batchID)
}

func getBatch(ctx context.Context, cl call, batchID string) (*Batch, error) {
	var b Batch
	if err := batchCall(ctx, cl, http.MethodGet, batchID, "", &b); err != nil {
		return nil, err
	}
	return &b, nil
}

// Cancel asks the service to stop a batch that is still processing
// (POST /v1/messages/batches/{message_batch_id}/cancel). The batch comes
// back canceling (or already ended): requests that had not run end as
// canceled, and requests already running may still complete. A batch that
// has ended cannot be canceled.
func (s *BatchesService) Cancel(ctx context.Context, batchID string, opts ...option.RequestOption) (*Batch, error) {
	var b Batch
	if err := batchCall(ctx, s.client.newCall(opts), http.MethodPost, batchID, "/cancel", &b); err != nil {
		return nil, err
	}
	return &b, nil
}

// Delete deletes a batch and its results
// (DELETE /v1/messages/batches/{message_batch_id}). Only a batch that has
// ended can be deleted: cancel a running one and wait for it first.
func (s *BatchesService) Delete(ctx context.Context, batchID string, opts ...option.RequestOption) (*BatchDeleted, error) {
	var d BatchDeleted
	if err := batchCall(ctx, s.client.newCall(opts), http.MethodDelete, batchID, "", &d); err != nil {
		return nil, err
	}
	return &d, nil
}

// ---------------------------------------------------------------------------
// List

// BatchListParams are the parameters of [BatchesService.List] and
// [BatchesService.ListPage]. The zero value lists from the newest batch on.
type BatchListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service (20). The
	// iterator of List fetches pages of this size.
	Limit int
	// AfterID starts the list right after this batch id (older batches).
	AfterID string
	// BeforeID starts the list right before this batch id; List then pages
	// backwards (towards newer batches).
	BeforeID string
}

// Validate reports the first rule the params break: Limit outside 1–1000
// when set, or AfterID and BeforeID given together.
func (p BatchListParams) Validate() error {
	return validateIDParams(p.Limit, p.AfterID, p.BeforeID)
}

func (p BatchListParams) listArgs() listArgs {
	return listArgs{query: limitQuery(p.Limit), start: idStart(p.AfterID, p.BeforeID)}
}

// listEndpoint is the batches list, paged by the id scheme.
func (s *BatchesService) listEndpoint() endpoint[Batch] {
	return endpoint[Batch]{c: s.client, path: batchesPath, scheme: idScheme}
}

// List iterates over the batches of the workspace, newest first, fetching
// pages of p.Limit as it goes (GET /v1/messages/batches). Nothing is sent
// before the loop starts; ranging the sequence again lists again from p's
// position, and breaking out of the loop stops the fetching. An error, such
// as a *[ValidationError] for bad params or an *[Error] from the service,
// is yielded once, last. With p.BeforeID set the list goes backwards, page
// by page, towards newer batches; each page still comes newest first.
func (s *BatchesService) List(ctx context.Context, p BatchListParams, opts ...option.RequestOption) iter.Seq2[Batch, error] {
	return s.listEndpoint().list(ctx, p, opts)
}

// ListPage fetches one page of batches (GET /v1/messages/batches). Continue
// with AfterID set to the page's LastID while HasMore is true (or BeforeID
// set to its FirstID to go backwards).
func (s *BatchesService) ListPage(ctx context.Context, p BatchListParams, opts ...option.RequestOption) (*Page[Batch], error) {
	return s.listEndpoint().listPage(ctx, p, opts)
}

// ---------------------------------------------------------------------------
// Wait

// Default polling of [BatchesService.Wait].
const (
	DefaultBatchPollInterval    = time.Second
	DefaultBatchMaxPollInterval = 30 * time.Second
)

// BatchWaitParams tune how [BatchesService.Wait] polls. The zero value
// polls after 1 s, then doubles the wait up to 30 s.
type BatchWaitParams struct {
	// PollInterval is the wait after the first poll (default 1 s); each
	// following wait doubles, up to MaxPollInterval.
	PollInterval time.Duration
	// MaxPollInterval caps the wait between polls (default 30 s, or
	// PollInterval when that is longer).
	MaxPollInterval time.Duration
	// OnPoll, when set, is called on Wait's goroutine with the batch each
	// poll read, the ended one included, before Wait returns or sleeps
	// again: a place for a progress line or a log record.
	OnPoll func(b *Batch)
}

// Validate refuses negative intervals, and a PollInterval longer than an
// explicit MaxPollInterval.
func (p BatchWaitParams) Validate() error {
	switch {
	case p.PollInterval < 0:
		return invalid("poll_interval", "must not be negative, got %v", p.PollInterval)
	case p.MaxPollInterval < 0:
		return invalid("max_poll_interval", "must not be negative, got %v", p.MaxPollInterval)
	case p.MaxPollInterval > 0 && p.PollInterval > p.MaxPollInterval:
		return invalid("poll_interval", "must not exceed max_poll_interval (%v), got %v", p.MaxPollInterval, p.PollInterval)
	}
	return nil
}

// Wait polls the batch with [BatchesService.Get] until its processing has
// ended (status "ended", or ended_at set), and returns it. The first poll
// is immediate; then it waits p.PollInterval, doubling each time up to
// p.MaxPollInterval (1 s to 30 s by default). Each poll is a normal call,
// with the client's retries.
//
// Wait returns as soon as ctx ends, with an error wrapping ctx.Err() and
// the last batch it saw (nil if none), so a caller with a deadline still
// gets the progress. A failed poll ends the wait with its error, likewise
// with the last batch seen.
func (s *BatchesService) Wait(ctx context.Context, batchID string, p BatchWaitParams, opts ...option.RequestOption) (*Batch, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	cl := s.client.newCall(opts) // once for every poll
	return pollUntil(ctx, p.PollInterval, p.MaxPollInterval, p.OnPoll,
		func() (*Batch, error) { return getBatch(ctx, cl, batchID) },
		func(b *Batch) (bool, string) { return b.ended(), string(b.ProcessingStatus) },
		"batch "+batchID)
}

// pollUntil is the loop of the Wait methods: it reads a record with get
// until state reports it final, and returns it. The first read is
// immediate; then it waits interval (default DefaultBatchPollInterval),
// doubling each time up to ceiling (default DefaultBatchMaxPollInterval,
// or interval when that is longer). onPoll, when set, sees every record
// read. A failed read ends the loop with its error, ctx's end with an
// error naming what and its last status; both with the last record read
// (nil if none).
func pollUntil[T any](ctx context.Context, interval, ceiling time.Duration, onPoll func(*T), get func() (*T, error), state func(*T) (final bool, status string), what string) (*T, error) {
	interval = cmp.Or(interval, DefaultBatchPollInterval)
	ceiling = cmp.Or(ceiling, max(DefaultBatchMaxPollInterval, interval))
	interval = min(interval, ceiling)
	var last *T
	for {
		v, err := get()
		if err != nil {
			return last, err
		}
		last = v
		if onPoll != nil {
			onPoll(v)
		}
		final, status := state(v)
		if final {
			return v, nil
		}
		if err := sleepCtx(ctx, interval); err != nil {
			return last, fmt.Errorf("mms: waiting for %s to end (status %s): %w", what, status, err)
		}
		interval = min(interval*2, ceiling)
	}
}

// sleepCtx waits for d or until ctx ends, returning ctx.Err() then.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// ---------------------------------------------------------------------------
// Records

// BatchStatus is the processing status of a batch. Unknown values pass
// through.
type BatchStatus string

// Batch processing statuses: in_progress → ended, or in_progress →
// (cancel) canceling → ended.
const (
	BatchStatusInProgress BatchStatus = "in_progress"
	BatchStatusCanceling  BatchStatus = "canceling"
	BatchStatusEnded      BatchStatus = "ended"
)

// Batch is a message batch (the wire type "message_batch"). Members this
// SDK version does not model are kept in Extra, so json.Marshal writes a
// reply back without loss (timestamps in RFC 3339 form).
//
//mms:json type=message_batch
type Batch struct {
	// ID identifies the batch; its format may change.
	ID string `json:"id"`
	// ProcessingStatus is in_progress, canceling or ended.
	ProcessingStatus BatchStatus `json:"processing_status"`
	// RequestCounts counts the requests by outcome; the outcomes stay 0
	// until the whole batch has ended.
	RequestCounts BatchRequestCounts `json:"request_counts"`
	// CreatedAt is when the batch was created.
	CreatedAt time.Time `json:"created_at"`
	// ExpiresAt is when unfinished requests expire: CreatedAt + 24 h.
	ExpiresAt time.Time `json:"expires_at"`
	// EndedAt is when processing ended; nil until then.
	EndedAt *time.Time `json:"ended_at"`
	// CancelInitiatedAt is when a cancel was requested; nil if none was.
	CancelInitiatedAt *time.Time `json:"cancel_initiated_at"`
	// ArchivedAt is when the results were archived and became unavailable;
	// nil until then.
	ArchivedAt *time.Time `json:"archived_at"`
	// ResultsURL locates the JSONL results once processing has ended; nil
	// until then. [BatchesService.Results] reads them.
	ResultsURL *string `json:"results_url"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ended reports whether processing has ended.
func (b *Batch) ended() bool {
	return b.ProcessingStatus == BatchStatusEnded || b.EndedAt != nil
}

// BatchRequestCounts counts a batch's requests by state; the fields sum to
// the number of requests.
//
//mms:json
type BatchRequestCounts struct {
	// Processing counts the requests not finished yet.
	Processing int `json:"processing"`
	// Succeeded, Errored, Canceled and Expired count outcomes; they are 0
	// until the whole batch has ended.
	Succeeded int `json:"succeeded"`
	Errored   int `json:"errored"`
	Canceled  int `json:"canceled"`
	Expired   int `json:"expired"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Total is the number of requests counted.
func (c BatchRequestCounts) Total() int {
	return c.Processing + c.Succeeded + c.Errored + c.Canceled + c.Expired
}

// BatchDeleted is the answer of [BatchesService.Delete] (the wire type
// "message_batch_deleted").
//
//mms:json type=message_batch_deleted
type BatchDeleted struct {
	// ID is the deleted batch's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}
