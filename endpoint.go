package mms

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/url"

	"github.com/mms-sdk/mms-go/internal/multipart"
	"github.com/mms-sdk/mms-go/observe"
	"github.com/mms-sdk/mms-go/option"
)

// endpoint is one resource path of the service answering a T: what a
// service method needs besides its own special checks. A method builds the
// endpoint, its ids checked as they are added ([endpoint.id]), and makes
// one call of it; the call answers the first id's error before anything
// else, then (post, action) the body's Validate error, sending nothing on
// either. Every call goes through call.send with the call's options
// applied once.
//
//	func (s *FooService) Update(ctx context.Context, fooID string, p FooUpdateParams, opts ...option.RequestOption) (*Foo, error) {
//		return endpoint[Foo]{c: s.client, path: "/v1/foos", betas: fooBetas}.id("foo_id", fooID).post(ctx, p, opts)
//	}
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
// body (nil for none) and decodes the answer.
func (e endpoint[T]) do(ctx context.Context, method, suffix string, body any, opts []option.RequestOption) (*T, error) {
	if e.err != nil {
		return nil, e.err
	}
	var out T
	r := &request{method: method, path: e.path + suffix, query: e.query, body: body, betas: e.betas, out: &out, emptyOK: e.emptyOK}
	if _, err := e.c.newCall(opts).send(ctx, r); err != nil {
		return nil, err
	}
	return &out, nil
}

// get retrieves the record (GET path).
func (e endpoint[T]) get(ctx context.Context, opts []option.RequestOption) (*T, error) {
	return e.do(ctx, http.MethodGet, "", nil, opts)
}

// post sends body to the path (POST path): a create on a collection, an
// update on a record. A body with a Validate method is validated first.
func (e endpoint[T]) post(ctx context.Context, body any, opts []option.RequestOption) (*T, error) {
	if err := e.check(body); err != nil {
		return nil, err
	}
	return e.do(ctx, http.MethodPost, "", body, opts)
}

// action posts body (nil for none) to one of the record's actions (POST
// path+suffix, e.g. "/archive"). A body with a Validate method is
// validated first.
func (e endpoint[T]) action(ctx context.Context, suffix string, body any, opts []option.RequestOption) (*T, error) {
	if err := e.check(body); err != nil {
		return nil, err
	}
	return e.do(ctx, http.MethodPost, suffix, body, opts)
}

// delete deletes the record (DELETE path).
func (e endpoint[T]) delete(ctx context.Context, opts []option.RequestOption) (*T, error) {
	return e.do(ctx, http.MethodDelete, "", nil, opts)
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
		contentType: form.ContentType(), betas: e.betas, out: &out,
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
