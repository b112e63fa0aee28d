package admin

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/url"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// base is the path every operation of the package is under.
const base = "/v1/organizations"

// endpoint is one resource path of the Organization API answering a T,
// the package's counterpart of the root's endpoint[T] (endpoint.go):
// ids are checked as they are added, params before sending, and each verb
// declares its retry class; every verb sends through the root's call.send
// (adminbridge.Send), with the credential the operation accepts.
type endpoint[T any] struct {
	c     *Client
	path  string // escaped
	cred  adminbridge.Credential
	betas []string
	err   error  // the first failed id or params check: answered, nothing sent
	last  string // the last id added, unescaped (a resent delete names it)
}

// ep is the endpoint at base+suffix accepting cred.
func ep[T any](c *Client, cred adminbridge.Credential, suffix string) endpoint[T] {
	return endpoint[T]{c: c, path: base + suffix, cred: cred}
}

// id appends one checked, escaped path segment: an empty id, "." or ".."
// is a *mms.ValidationError naming field.
func (e endpoint[T]) id(field, value string) endpoint[T] {
	if e.err != nil {
		return e
	}
	seg, rule := wire.PathSegment(value)
	if rule != "" {
		e.err = invalid(field, "%s", rule)
		return e
	}
	e.path += "/" + seg
	e.last = value
	return e
}

// sub appends a fixed, escaped suffix.
func (e endpoint[T]) sub(suffix string) endpoint[T] {
	e.path += suffix
	return e
}

// beta makes every request of e send the beta.
func (e endpoint[T]) beta(b string) endpoint[T] {
	e.betas = []string{b}
	return e
}

// as is e answering a U.
func as[U, T any](e endpoint[T]) endpoint[U] { return endpoint[U](e) }

// validator is params that check themselves.
type validator interface{ Validate() error }

// do validates body (when it is a validator) after the ids, then sends.
func (e endpoint[T]) do(ctx context.Context, method, suffix string, query url.Values, body any, retry transport.Retry, removes transport.Removal, opts []option.RequestOption) (*T, error) {
	if e.err != nil {
		return nil, e.err
	}
	if v, ok := body.(validator); ok {
		if err := v.Validate(); err != nil {
			return nil, err
		}
	}
	var out T
	r := &adminbridge.Request{Method: method, Path: e.path + suffix, Query: query, Body: body, Betas: e.betas, Out: &out,
		Retry: retry, Removes: removes, ID: e.last, Credential: e.cred}
	if err := adminbridge.Send(ctx, e.c.cfg, opts, r); err != nil {
		return nil, err
	}
	return &out, nil
}

// get retrieves (GET path); safe.
func (e endpoint[T]) get(ctx context.Context, opts []option.RequestOption) (*T, error) {
	return e.do(ctx, http.MethodGet, "", nil, nil, transport.Safe, transport.RemovesNothing, opts)
}

// getQuery retrieves with a query (GET path?query); safe.
func (e endpoint[T]) getQuery(ctx context.Context, q url.Values, opts []option.RequestOption) (*T, error) {
	return e.do(ctx, http.MethodGet, "", q, nil, transport.Safe, transport.RemovesNothing, opts)
}

// post creates (POST collection): retried only when provably not applied;
// otherwise a failure matches mms.ErrMaybeApplied.
func (e endpoint[T]) post(ctx context.Context, body any, opts []option.RequestOption) (*T, error) {
	return e.do(ctx, http.MethodPost, "", nil, body, transport.Creating, transport.RemovesNothing, opts)
}

// update sets the fields body holds (POST record): idempotent. Adding a
// member (a membership keyed by its ids) is an update too: sent twice it
// is the same membership.
func (e endpoint[T]) update(ctx context.Context, body any, opts []option.RequestOption) (*T, error) {
	return e.do(ctx, http.MethodPost, "", nil, body, transport.Idempotent, transport.RemovesNothing, opts)
}

// archive archives the record (POST path/archive): idempotent, and a
// resend answered "already gone" reads the record.
func (e endpoint[T]) archive(ctx context.Context, opts []option.RequestOption) (*T, error) {
	return e.do(ctx, http.MethodPost, "/archive", nil, nil, transport.Idempotent, transport.Archives, opts)
}

// action posts body to path+suffix with the given retry class.
func (e endpoint[T]) action(ctx context.Context, suffix string, body any, retry transport.Retry, opts []option.RequestOption) (*T, error) {
	return e.do(ctx, http.MethodPost, suffix, nil, body, retry, transport.RemovesNothing, opts)
}

// delete deletes (DELETE path): idempotent; a resend answered 404 is the
// lost attempt's success.
func (e endpoint[T]) delete(ctx context.Context, opts []option.RequestOption) (*T, error) {
	return e.do(ctx, http.MethodDelete, "", nil, nil, transport.Idempotent, transport.Deletes, opts)
}

// listParams are a list's params: checked, then its query and start.
type listParams interface {
	Validate() error
	listArgs() listArgs
}

// listArgs is what a list's params give its call.
type listArgs struct {
	query             url.Values // limit and filters
	afterID, beforeID string     // id scheme start
	page              string     // cursor scheme start
}

// bridgeList is e's list call of p's args.
func (e endpoint[T]) bridgeList(scheme adminbridge.Scheme, a listArgs) *adminbridge.List {
	return &adminbridge.List{Path: e.path, Betas: e.betas, Scheme: scheme, Query: a.query,
		AfterID: a.afterID, BeforeID: a.beforeID, Page: a.page, Credential: e.cred}
}

// list iterates over the list's items from p's start, fetching pages as it
// goes with the root's driver: nothing is sent before the loop starts;
// ranging again lists again; an error is yielded once, last. Invalid params
// yield their error and send nothing.
func (e endpoint[T]) list(ctx context.Context, scheme adminbridge.Scheme, p listParams, opts []option.RequestOption) iter.Seq2[T, error] {
	if e.err == nil {
		e.err = p.Validate()
	}
	if e.err != nil {
		return func(yield func(T, error) bool) {
			var zero T
			yield(zero, e.err)
		}
	}
	items := adminbridge.Items(ctx, e.c.cfg, opts, e.bridgeList(scheme, p.listArgs()))
	return func(yield func(T, error) bool) {
		for raw, err := range items {
			var v T
			if err == nil {
				if err = decodeItem(raw, &v); err != nil {
					err = fmt.Errorf("admin: GET %s: decoding an item: %w", e.path, err)
				}
			}
			if !yield(v, err) || err != nil {
				return
			}
		}
	}
}

// listPage fetches the one page at p's start.
func (e endpoint[T]) listPage(ctx context.Context, scheme adminbridge.Scheme, p listParams, opts []option.RequestOption) (*mms.Page[T], error) {
	if e.err == nil {
		e.err = p.Validate()
	}
	if e.err != nil {
		return nil, e.err
	}
	w, err := adminbridge.GetPage(ctx, e.c.cfg, opts, e.bridgeList(scheme, p.listArgs()))
	if err != nil {
		return nil, err
	}
	out := &mms.Page[T]{Data: make([]T, len(w.Data)), HasMore: w.HasMore, FirstID: w.FirstID, LastID: w.LastID}
	for i, raw := range w.Data {
		if err := decodeItem(raw, &out.Data[i]); err != nil {
			return nil, fmt.Errorf("admin: GET %s: decoding item %d: %w", e.path, i, err)
		}
	}
	if w.NextPage != nil {
		out.NextPage = &mms.Cursor{Token: *w.NextPage}
	}
	if w.PrevPage != nil {
		out.PrevPage = &mms.Cursor{Token: *w.PrevPage}
	}
	return out, nil
}

// decodeItem decodes one list item: the page was validated as a whole
// when it was read, so the item's own decoder runs directly.
func decodeItem[T any](raw json.RawMessage, v *T) error {
	if u, ok := any(v).(json.Unmarshaler); ok {
		return u.UnmarshalJSON(raw)
	}
	return json.Unmarshal(raw, v)
}

// idArgs is the query and start of an id-scheme list.
func idArgs(limit int, afterID, beforeID string) listArgs {
	return listArgs{query: limitQuery(limit), afterID: afterID, beforeID: beforeID}
}

// cursorArgs is the query and start of a cursor-scheme list.
func cursorArgs(limit int, page mms.Cursor) listArgs {
	return listArgs{query: limitQuery(limit), page: page.Token}
}

// limitQuery is a query holding limit when set.
func limitQuery(limit int) url.Values {
	q := url.Values{}
	if limit != 0 {
		q.Set("limit", fmt.Sprint(limit))
	}
	return q
}

// addArray adds key[]=v for each value.
func addArray[S ~string](q url.Values, key string, values []S) {
	for _, v := range values {
		q.Add(key+"[]", string(v))
	}
}

// setBool sets key=true when b.
func setBool(q url.Values, key string, b bool) {
	if b {
		q.Set(key, "true")
	}
}

// setString sets key=v when v is not empty.
func setString[S ~string](q url.Values, key string, v S) {
	if v != "" {
		q.Set(key, string(v))
	}
}
