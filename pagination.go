package mms

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/mms-sdk/mms-go/observe"
	"iter"
	"net/http"
	"net/url"
	"reflect"
	"strconv"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/option"
)

// Page is one page of a list endpoint, for callers who keep their own
// position; the List methods return iterators that page on their own. The
// service pages lists in two schemes, both returned in this shape:
//
//   - The id scheme (Models, Message Batches, Files) fills FirstID and
//     LastID. Continue with the params' AfterID set to *LastID while HasMore
//     is true, or, when paging backwards, BeforeID set to *FirstID.
//   - The cursor scheme (Skills, Agents, Sessions, Environments, ...) fills
//     NextPage and, where the endpoint has one, PrevPage. Continue with the
//     params' Page set to *NextPage, or *PrevPage to go back.
type Page[T any] struct {
	// Data holds the page's items in the list's order.
	Data []T
	// HasMore reports whether more items lie beyond this page in the paging
	// direction. In the cursor scheme it is the service's has_more where the
	// endpoint sends one, else whether NextPage is set.
	HasMore bool
	// FirstID and LastID are the ids of the first and last item, sent by
	// id-scheme lists; nil on an empty page or when the list does not send
	// them.
	FirstID, LastID *string
	// NextPage and PrevPage locate the following and the preceding page,
	// sent by cursor-scheme lists; nil when there is no such page or when
	// the list does not send them.
	NextPage, PrevPage *Cursor
}

// A Cursor is a position in a list paged by the cursor scheme: the opaque
// token the service returned as next_page or prev_page, together with the
// order the list was sorted in when the service issued it.
//
// Lists that take an order (sessions, session events) accept a cursor only
// with the order it was issued under. The SDK checks this before sending: a
// cursor whose Order differs from the call's order (the params' order, else
// the endpoint's default) fails with a *[ValidationError] for field "page",
// and nothing is sent. Cursors taken from a [Page] carry their order; a
// token kept elsewhere can be given back as Cursor{Token: t}, which is not
// checked (the service decides).
type Cursor struct {
	// Token is the service's opaque page token, sent as the page query
	// parameter.
	Token string
	// Order is the order the token was issued under; "" when unknown or when
	// the list has no order.
	Order ListOrder
}

// ListOrder is the sort order of a list that can be sorted, sent as the
// order query parameter.
type ListOrder string

// The list orders.
const (
	ListOrderAsc  ListOrder = "asc"
	ListOrderDesc ListOrder = "desc"
)

// listCall is one list call as a service builds it from its params. The
// drivers below do the paging: a service's List is a Validate plus one
// driver call, and its page-level call a Validate plus one fetch.
//
//	func (s *FooService) List(ctx context.Context, p FooListParams, opts ...option.RequestOption) iter.Seq2[Foo, error] {
//		if err := p.Validate(); err != nil {
//			return listError[Foo](err)
//		}
//		return listByCursor[Foo](ctx, p.call(s.client, opts), p.Page, false)
//	}
type listCall struct {
	call call   // the List call's options, applied once for all its pages
	path string // escaped, e.g. "/v1/models"
	// query holds limit and filters but not the paging members (after_id,
	// before_id, page), which the drivers set. Array filters go in with
	// addQueryArray. A list with an order puts the params' order here itself
	// when set. The drivers copy query for each request and never change it.
	query url.Values
	// order is the order the list is sorted in (the params' order, else the
	// endpoint's default), which cursors are checked against and recorded
	// with; "" for lists without an order.
	order ListOrder
	betas []string // the endpoint's required betas
}

// listPageWire is a page as the service sends it, in either scheme.
type listPageWire[T any] struct {
	Data     []T     `json:"data"`
	HasMore  *bool   `json:"has_more"`
	FirstID  *string `json:"first_id"`
	LastID   *string `json:"last_id"`
	NextPage *string `json:"next_page"`
	PrevPage *string `json:"prev_page"`
}

// UnmarshalJSON decodes a page member by member and each item with its own
// decoder: encoding/json would validate the page a second time and rescan
// every item before handing it to the item's UnmarshalJSON.
func (w *listPageWire[T]) UnmarshalJSON(data []byte) error {
	return codec.EachMember(data, func(key string, value []byte) error {
		var err error
		switch key {
		case "data":
			w.Data, err = decodeItems[T](value)
		case "has_more":
			w.HasMore, err = codec.Decode[*bool](value)
		case "first_id":
			w.FirstID, err = codec.Decode[*string](value)
		case "last_id":
			w.LastID, err = codec.Decode[*string](value)
		case "next_page":
			w.NextPage, err = codec.Decode[*string](value)
		case "prev_page":
			w.PrevPage, err = codec.Decode[*string](value)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		return nil
	})
}

// decodeItems decodes a page's data array, each item in place (an item
// type's own UnmarshalJSON is called directly). null gives nil.
func decodeItems[T any](data []byte) ([]T, error) {
	if string(data) == "null" {
		return nil, nil
	}
	out := []T{}
	isUnion := reflect.TypeFor[T]().Kind() == reflect.Interface
	err := codec.EachElement(data, func(elem []byte) error {
		var zero T
		out = append(out, zero)
		v := &out[len(out)-1]
		var err error
		if u, ok := any(v).(json.Unmarshaler); ok {
			err = u.UnmarshalJSON(elem)
		} else if isUnion {
			*v, err = codec.Decode[T](elem) // a sealed union (e.g. SessionResource)
		} else {
			err = json.Unmarshal(elem, v)
		}
		if err != nil {
			return fmt.Errorf("[%d]: %w", len(out)-1, err)
		}
		return nil
	})
	return out, err
}

// getListPage sends one list request with the paging members in paging.
func getListPage[T any](ctx context.Context, l listCall, paging map[string]string) (*listPageWire[T], error) {
	q := make(url.Values, len(l.query)+len(paging))
	for k, v := range l.query {
		q[k] = append([]string(nil), v...)
	}
	for k, v := range paging {
		if v != "" {
			q.Set(k, v)
		}
	}
	var page listPageWire[T]
	r := &request{method: http.MethodGet, path: l.path, query: q, betas: l.betas, out: &page}
	if _, err := l.call.send(ctx, r); err != nil {
		return nil, err
	}
	return &page, nil
}

// fetchIDPage fetches one page of an id-scheme list: the page after afterID,
// or before beforeID, or the first page when both are "".
func fetchIDPage[T any](ctx context.Context, l listCall, afterID, beforeID string) (*Page[T], error) {
	w, err := getListPage[T](ctx, l, map[string]string{"after_id": afterID, "before_id": beforeID})
	if err != nil {
		return nil, err
	}
	return &Page[T]{
		Data: w.Data, HasMore: w.HasMore != nil && *w.HasMore,
		FirstID: w.FirstID, LastID: w.LastID,
		// The id scheme may grow cursor fields (files.md); pass them on.
		NextPage: cursorOf(w.NextPage, l.order), PrevPage: cursorOf(w.PrevPage, l.order),
	}, nil
}

// listByID iterates over every item of an id-scheme list from the params'
// position: forwards with after_id = last_id, or backwards with before_id =
// first_id when the caller started with beforeID. Each page's items come in
// the list's order. It stops on an empty page or has_more = false, and
// with an error when a page leads back to a position already read.
func listByID[T any](ctx context.Context, l listCall, afterID, beforeID string) iter.Seq2[T, error] {
	return observeList(ctx, l, func(ctx context.Context, yield func(T, error) bool) {
		after, before := afterID, beforeID // per range: the sequence restarts
		backward := before != ""
		seen := positions{}
		for {
			var err error
			if backward {
				err = seen.visit(l.path, "before_id", before)
			} else {
				err = seen.visit(l.path, "after_id", after)
			}
			if err != nil {
				yieldError(yield, err)
				return
			}
			page, err := fetchIDPage[T](ctx, l, after, before)
			if err != nil {
				yieldError(yield, err)
				return
			}
			for _, v := range page.Data {
				if !yield(v, nil) {
					return
				}
			}
			if len(page.Data) == 0 || !page.HasMore {
				return
			}
			next, name := page.LastID, "last_id"
			if backward {
				next, name = page.FirstID, "first_id"
			}
			if next == nil || *next == "" {
				yieldError(yield, fmt.Errorf("mms: GET %s: the page says has_more but gives no %s", l.path, name))
				return
			}
			if backward {
				before = *next
			} else {
				after = *next
			}
		}
	})
}

// positions records the paging positions (after_id, before_id or page
// values) one iteration has asked for. A service that leads back to one of
// them (a → b → a) would make the iteration loop forever; it ends with an
// error instead.
type positions map[string]struct{}

// visit records the position name=value, or reports that the iteration
// asked for it before. The start of a list ("") is not a position.
func (p positions) visit(path, name, value string) error {
	if value == "" {
		return nil
	}
	key := name + "=" + value
	if _, ok := p[key]; ok {
		return fmt.Errorf("mms: GET %s: the list leads back to %s %q, a page this iteration has already read; stopping rather than looping", path, name, value)
	}
	p[key] = struct{}{}
	return nil
}

// fetchCursorPage fetches one page of a cursor-scheme list at cursor (the
// first page when its Token is ""). A cursor issued under another order than
// the call's is refused before anything is sent.
func fetchCursorPage[T any](ctx context.Context, l listCall, cursor Cursor) (*Page[T], error) {
	if err := checkCursor(cursor, l.order); err != nil {
		return nil, err
	}
	w, err := getListPage[T](ctx, l, map[string]string{"page": cursor.Token})
	if err != nil {
		return nil, err
	}
	p := &Page[T]{
		Data: w.Data, FirstID: w.FirstID, LastID: w.LastID,
		NextPage: cursorOf(w.NextPage, l.order), PrevPage: cursorOf(w.PrevPage, l.order),
	}
	p.HasMore = p.NextPage != nil
	if w.HasMore != nil {
		p.HasMore = *w.HasMore
	}
	return p, nil
}

// listByCursor iterates over every item of a cursor-scheme list from start:
// forwards along next_page, or, when backward, along prev_page (each page's
// items still in the list's order). Forwards it stops when next_page is
// null or empty, data is empty, or has_more is false; backwards when
// prev_page is null or empty or data is empty. A cursor already read in
// this iteration ends it with an error.
func listByCursor[T any](ctx context.Context, l listCall, start Cursor, backward bool) iter.Seq2[T, error] {
	return observeList(ctx, l, func(ctx context.Context, yield func(T, error) bool) {
		cur := start // per range: the sequence restarts
		seen := positions{}
		for {
			if err := seen.visit(l.path, "page", cur.Token); err != nil {
				yieldError(yield, err)
				return
			}
			page, err := fetchCursorPage[T](ctx, l, cur)
			if err != nil {
				yieldError(yield, err)
				return
			}
			for _, v := range page.Data {
				if !yield(v, nil) {
					return
				}
			}
			next := page.NextPage
			if backward {
				next = page.PrevPage
			} else if !page.HasMore {
				return
			}
			if len(page.Data) == 0 || next == nil {
				return
			}
			cur = *next
		}
	})
}

// checkCursor refuses a cursor issued under another order than order. A
// cursor or a list without an order is not checked.
func checkCursor(c Cursor, order ListOrder) error {
	if c.Token == "" || c.Order == "" || order == "" || c.Order == order {
		return nil
	}
	return invalid("page", "the cursor was issued for order %q and is only valid with that order, not %q", c.Order, order)
}

// cursorOf turns a next_page or prev_page value into a Cursor issued under
// order; null and "" give nil.
func cursorOf(token *string, order ListOrder) *Cursor {
	if token == nil || *token == "" {
		return nil
	}
	return &Cursor{Token: *token, Order: order}
}

// listError returns a sequence that yields err once when ranged and sends
// nothing: what List returns for params that fail validation.
func listError[T any](err error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) { yieldError(yield, err) }
}

func yieldError[T any](yield func(T, error) bool, err error) {
	var zero T
	yield(zero, err)
}

// addQueryArray adds an array query parameter the way the service reads it,
// key[]=a&key[]=b (e.g. ids[], statuses[]). Nothing is added for no values.
func addQueryArray[S ~string](q url.Values, key string, values []S) {
	for _, v := range values {
		q.Add(key+"[]", string(v))
	}
}

// validateLimit reports a page size outside 1–max; 0 (the service's
// default) passes.
func validateLimit(limit, max int) error {
	if limit != 0 && (limit < 1 || limit > max) {
		return invalid("limit", "must be between 1 and %d (or 0 for the default), got %d", max, limit)
	}
	return nil
}

// validateLimitOrder reports a page size outside 1–max or an order other
// than asc and desc; 0 and "" (the service's defaults) pass.
func validateLimitOrder(limit, max int, order ListOrder) error {
	if err := validateLimit(limit, max); err != nil {
		return err
	}
	switch order {
	case "", ListOrderAsc, ListOrderDesc:
		return nil
	}
	return invalid("order", "must be %q or %q, got %q", ListOrderAsc, ListOrderDesc, order)
}

// validateIDParams reports the first rule the params of an id-scheme list
// break: limit outside 1–1000 when set, or afterID and beforeID together.
func validateIDParams(limit int, afterID, beforeID string) error {
	if err := validateLimit(limit, 1000); err != nil {
		return err
	}
	if afterID != "" && beforeID != "" {
		return invalid("after_id", "cannot be used together with before_id")
	}
	return nil
}

// newListCall returns the call to path with limit in its query when set;
// the caller adds its filters to the query.
func newListCall(c *Client, path string, limit int, opts []option.RequestOption, betas ...string) listCall {
	q := url.Values{}
	if limit != 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	return listCall{call: c.newCall(opts), path: path, query: q, betas: betas}
}

// idListParams are the params of an id-scheme list, as listIDs and
// fetchIDParamsPage take them.
type idListParams interface {
	Validate() error
	call(c *Client, opts []option.RequestOption) listCall
	position() (afterID, beforeID string)
}

// listIDs is the List of an id-scheme service: p validated, then drive
// (listByID, or a variant) from p's position.
func listIDs[T any](ctx context.Context, c *Client, p idListParams, opts []option.RequestOption,
	drive func(context.Context, listCall, string, string) iter.Seq2[T, error]) iter.Seq2[T, error] {
	if err := p.Validate(); err != nil {
		return listError[T](err)
	}
	after, before := p.position()
	return drive(ctx, p.call(c, opts), after, before)
}

// fetchIDParamsPage is the ListPage of an id-scheme service: p validated,
// then the page at p's position.
func fetchIDParamsPage[T any](ctx context.Context, c *Client, p idListParams, opts []option.RequestOption) (*Page[T], error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	after, before := p.position()
	return fetchIDPage[T](ctx, p.call(c, opts), after, before)
}

// observeList runs one iteration of a list as an observed operation (all
// its pages) when the call has an observer; body is the iteration, run
// under the operation's context.
func observeList[T any](ctx context.Context, l listCall, body func(context.Context, func(T, error) bool)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		if l.call.err != nil || l.call.cfg.Observer == nil {
			body(ctx, yield)
			return
		}
		ctx, op := startOp(ctx, l.call.cfg.Observer, observe.Op{Kind: observe.List, Name: "GET " + l.path, Method: http.MethodGet, Path: l.path})
		var failed error
		defer func() { op.End(failed) }()
		body(ctx, func(v T, err error) bool {
			if err != nil {
				failed = err
			}
			return yield(v, err)
		})
	}
}
