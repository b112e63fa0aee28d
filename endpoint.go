package mms

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strings"

	"github.com/mms-sdk/mms-go/internal/multipart"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/observe"
	"github.com/mms-sdk/mms-go/option"
)

// endpoint is one resource path of the service answering a T: what a
// service method needs besides its own special checks. A method builds the
// endpoint, its ids checked as they are added ([endpoint.id]), and makes
// one call of it; the call answers the first id's error before anything
// else, then (post, update, action) the body's Validate error, sending
// nothing on either. Every call goes through call.send with the call's
// options applied once.
//
//	func (s *FooService) Update(ctx context.Context, fooID string, p FooUpdateParams, opts ...option.RequestOption) (*Foo, error) {
//		return endpoint[Foo]{c: s.client, path: "/v1/foos", betas: fooBetas}.id("foo_id", fooID).update(ctx, p, opts)
//	}
//
// Each verb declares how its request may be retried (transport.Retry),
// so a new method cannot forget it:
//   - get, list, listPage: safe, retried after any retryable failure.
//   - post and upload create (a record, a delivered event, a file):
//     retried only when the failed attempt provably took no effect (no
//     connection, not fully written, 429, x-should-retry: true); after
//     any other failure the error matches ErrMaybeApplied. This is the
//     default: a POST nobody declared otherwise is creating.
//   - update (POST to a record) sets the fields it sends, so sending it
//     twice is sending it once: idempotent. Updates with a precondition
//     (an agent's version, a memory's content_sha256) are idempotent too:
//     a resend cannot apply twice; when its precondition fails because an
//     earlier attempt whose answer was lost did apply, the 409 matches
//     ErrMaybeApplied.
//   - delete is idempotent; a resend answered 404 is the success of the
//     attempt whose answer was lost (ResponseMetadata.Resent).
//   - action: as actionRetry lists the action; an action it does not list
//     is creating.
type endpoint[T any] struct {
	c     *Client
	path  string   // escaped, e.g. "/v1/agents/agent_1"
	betas []string // the endpoint's required betas
	// query is sent with every request but a list's (e.g. a memory's
	// view); nil for none.
	query url.Values
	// emptyOK: an answer without a body (a 204) gives a zero T instead of a
	// decoding error.
	emptyOK bool
	scheme  listScheme // how the endpoint's list pages
	// err is the first failed check of the path's ids (see id) or of
	// params (see checked); every call answers it first and sends nothing.
	err error
	// lastID is the last id added (unescaped): a resent delete's answer
	// names it (see removed).
	lastID string
}

// actionRetry declares how each record action (POST path+suffix) may be
// retried. An action missing here is creating: retried only when provably
// not applied, and ErrMaybeApplied after an unknown outcome.
// rotate_token (each call mints a new token and retires the last) and
// enrollment_url (each call mints a link) are deliberately absent.
var actionRetry = map[string]struct {
	retry   transport.Retry
	removes transport.Removal
}{
	// Archiving an archived record keeps its first archived_at (agents,
	// environments, sessions, threads, vaults, credentials, tunnels,
	// certificates, memory stores); a resend answered 404 or "already
	// archived" is the earlier attempt's success.
	"/archive": {transport.Idempotent, transport.Archives},
	// Cancelling a batch that is cancelling answers the batch; a canceled
	// dream answers itself.
	"/cancel": {transport.Idempotent, transport.RemovesNothing},
	// A work item's ack and stop move it to a state; again is the same
	// state. A heartbeat extends the lease from now (with
	// expected_last_heartbeat, a resend fails its precondition: 412).
	"/ack":       {transport.Idempotent, transport.RemovesNothing},
	"/stop":      {transport.Idempotent, transport.RemovesNothing},
	"/heartbeat": {transport.Idempotent, transport.RemovesNothing},
	// Pausing a paused deployment, or unpausing an active one, leaves it
	// as it is. (A deployment's /run starts a run each time: creating.)
	"/pause":   {transport.Idempotent, transport.RemovesNothing},
	"/unpause": {transport.Idempotent, transport.RemovesNothing},
	// A redacted memory version stays redacted.
	"/redact": {transport.Idempotent, transport.RemovesNothing},
	// Reading a tunnel's token (a POST to keep it out of access logs) and
	// checking a credential change nothing.
	"/reveal_token":       {transport.Safe, transport.RemovesNothing},
	"/mcp_oauth_validate": {transport.Safe, transport.RemovesNothing},
}

// retryOfPath classes a request Client.Do sends by its method and path: a
// POST to the Messages endpoints is stateless, a POST ending in an action
// of actionRetry is classed as the action; anything else by method.
func retryOfPath(method, path string) transport.Retry {
	if method != http.MethodPost {
		return transport.RetryByMethod
	}
	switch path {
	case "/v1/messages", "/v1/messages/count_tokens":
		return transport.Stateless
	}
	if i := strings.LastIndexByte(path, '/'); i > 0 {
		if a, ok := actionRetry[path[i:]]; ok {
			return a.retry
		}
	}
	return transport.RetryByMethod
}

// validator is a request body that checks itself; post and action call
// Validate before sending.
type validator interface{ Validate() error }

// id appends one path segment, the id value of field checked and escaped
// by pathID ("/"+segment). The first failing id is remembered and later
// ids are not checked: the endpoint's calls answer that error.
func (e endpoint[T]) id(field, value string) endpoint[T] {
	if e.err != nil {
		return e
	}
	seg, err := pathID(field, value)
	if err != nil {
		e.err = err
		return e
	}
	e.path += "/" + seg
	e.lastID = value
	return e
}

// sub appends a fixed, already escaped suffix to the path (e.g.
// "/credentials").
func (e endpoint[T]) sub(suffix string) endpoint[T] {
	e.path += suffix
	return e
}

// checked records p's Validate error unless an error is already recorded:
// for params a verb does not take as its body (e.g. a get's), checked
// after the ids before them.
func (e endpoint[T]) checked(p validator) endpoint[T] {
	if e.err == nil {
		e.err = p.Validate()
	}
	return e
}

// withQuery is e sending q with every request but a list's.
func (e endpoint[T]) withQuery(q url.Values) endpoint[T] {
	e.query = q
	return e
}

// as is e answering a U instead (e.g. a delete's answer type).
func as[U, T any](e endpoint[T]) endpoint[U] {
	return endpoint[U](e) // no field is a T
}

// check is the endpoint's id error, then body's Validate error when body
// is a validator; nil when the call may be sent.
func (e endpoint[T]) check(body any) error {
	if e.err != nil {
		return e.err
	}
	if v, ok := body.(validator); ok {
		return v.Validate()
	}
	return nil
}

// do sends method to the endpoint's path with suffix (e.g. "/archive") and
// body (nil for none), retried as retry and removes declare, and decodes
// the answer.
func (e endpoint[T]) do(ctx context.Context, method, suffix string, body any, retry transport.Retry, removes transport.Removal, opts []option.RequestOption) (*T, error) {
	if e.err != nil {
		return nil, e.err
	}
	var out T
	r := &request{method: method, path: e.path + suffix, query: e.query, body: body, betas: e.betas, out: &out, emptyOK: e.emptyOK,
		retry: retry, removes: removes}
	cl := e.c.newCall(opts)
	resp, err := cl.send(ctx, r)
	if err != nil {
		return nil, err
	}
	if resp.Resent {
		return e.removed(ctx, cl, removes)
	}
	return &out, nil
}

// removed is the answer of a delete or archive that succeeded on a
// resend's "already gone" (transport.Response.Resent): the service's
// answer was lost with the attempt that did it. A delete's is a T naming
// the record's id (every …Deleted type has the id member); an archive's
// is the archived record, read again (the call's metadata, if captured,
// stays the archive's).
func (e endpoint[T]) removed(ctx context.Context, cl call, removes transport.Removal) (*T, error) {
	var out T
	if removes == transport.Archives {
		quiet := cl
		if cl.cfg.MetadataInto != nil {
			quiet.cfg = cl.cfg.Clone()
			quiet.cfg.MetadataInto = nil
		}
		r := &request{method: http.MethodGet, path: e.path, betas: e.betas, out: &out}
		if _, err := quiet.send(ctx, r); err != nil {
			return nil, fmt.Errorf("mms: POST %s/archive: a resend found the record already archived or gone, but reading it failed: %w", e.path, err)
		}
		return &out, nil
	}
	if err := deletedAnswer(e.lastID, &out); err != nil {
		return nil, fmt.Errorf("mms: DELETE %s: %w", e.path, err)
	}
	return &out, nil
}

// deletedAnswer fills out, a …Deleted answer, with the deleted record's id:
// the answer of a delete whose own answer was lost.
func deletedAnswer(id string, out any) error {
	b, err := json.Marshal(map[string]string{"id": id})
	if err != nil {
		return err
	}
	return decodeInto(b, out)
}

// get retrieves the record (GET path); safe.
func (e endpoint[T]) get(ctx context.Context, opts []option.RequestOption) (*T, error) {
	return e.do(ctx, http.MethodGet, "", nil, transport.Safe, transport.RemovesNothing, opts)
}

// post creates: it sends body to the collection's path (POST path), and
// is creating (see endpoint). A body with a Validate method is validated
// first.
func (e endpoint[T]) post(ctx context.Context, body any, opts []option.RequestOption) (*T, error) {
	if err := e.check(body); err != nil {
		return nil, err
	}
	return e.do(ctx, http.MethodPost, "", body, transport.Creating, transport.RemovesNothing, opts)
}

// update sends body to the record's path (POST path), setting the fields
// it holds: idempotent (see endpoint). A body with a Validate method is
// validated first.
func (e endpoint[T]) update(ctx context.Context, body any, opts []option.RequestOption) (*T, error) {
	if err := e.check(body); err != nil {
		return nil, err
	}
	return e.do(ctx, http.MethodPost, "", body, transport.Idempotent, transport.RemovesNothing, opts)
}

// action posts body (nil for none) to one of the record's actions (POST
// path+suffix, e.g. "/archive"), retried as actionRetry declares the
// suffix (creating when it is not there). A body with a Validate method
// is validated first.
func (e endpoint[T]) action(ctx context.Context, suffix string, body any, opts []option.RequestOption) (*T, error) {
	if err := e.check(body); err != nil {
		return nil, err
	}
	a, ok := actionRetry[suffix]
	if !ok {
		a.retry = transport.Creating
	}
	return e.do(ctx, http.MethodPost, suffix, body, a.retry, a.removes, opts)
}

// delete deletes the record (DELETE path): idempotent, and a resend
// answered 404 is the success of the attempt whose answer was lost.
func (e endpoint[T]) delete(ctx context.Context, opts []option.RequestOption) (*T, error) {
	return e.do(ctx, http.MethodDelete, "", nil, transport.Idempotent, transport.Deletes, opts)
}

// list returns the sequence of the endpoint's list from p's start; params
// that fail validation give a sequence yielding that error and sending
// nothing; so does a failed id.
func (e endpoint[T]) list(ctx context.Context, p listParams, opts []option.RequestOption) iter.Seq2[T, error] {
	if e.err != nil {
		return listError[T](e.err)
	}
	if err := p.Validate(); err != nil {
		return listError[T](err)
	}
	l, start := e.listCall(p.listArgs(), opts)
	return listItems[T](ctx, l, start)
}

// listPage fetches the one page of the endpoint's list at p's start.
func (e endpoint[T]) listPage(ctx context.Context, p listParams, opts []option.RequestOption) (*Page[T], error) {
	if e.err != nil {
		return nil, e.err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	l, start := e.listCall(p.listArgs(), opts)
	return fetchListPage[T](ctx, l, start)
}

// listCall is the list call of args with opts applied (once, for all its
// pages).
func (e endpoint[T]) listCall(args listArgs, opts []option.RequestOption) (listCall, listPos) {
	return listCall{call: e.c.newCall(opts), path: e.path, scheme: e.scheme, query: args.query, order: args.order, betas: e.betas}, args.start
}

// upload posts a multipart form (POST path), streamed, replayable when
// every part's source can seek; the call is observed as an upload.
func (e endpoint[T]) upload(ctx context.Context, form *multipart.Form, opts []option.RequestOption) (*T, error) {
	if e.err != nil {
		return nil, e.err
	}
	body, err := form.Open()
	if err != nil {
		return nil, fmt.Errorf("mms: POST %s: %w", e.path, err)
	}
	var out T
	r := &request{
		method: http.MethodPost, path: e.path, query: e.query, stream: body, size: form.Size(),
		contentType: form.ContentType(), betas: e.betas, out: &out, retry: transport.Creating,
	}
	if form.Replayable() {
		r.getBody = form.Open
	}
	cl := e.c.newCall(opts)
	var op observe.Operation
	if cl.err == nil {
		ctx, op = startOp(ctx, cl.cfg.Observer, observe.Op{Kind: observe.Upload, Name: "POST " + e.path, Method: http.MethodPost, Path: e.path})
	}
	_, err = cl.send(ctx, r)
	if op != nil {
		if err == nil {
			op.Result(observe.Result{Response: &out})
		}
		op.End(err)
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}
