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
	"time"

	"github.com/mms-sdk/mms-go/internal/codec"
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

// listScheme is how a list pages.
type listScheme uint8

const (
	// cursorScheme: page = next_page (or prev_page backwards), has_more
	// where the endpoint sends it. The zero value: most lists use it.
	cursorScheme listScheme = iota
	// idScheme: after_id = last_id (or before_id = first_id backwards)
	// while has_more.
	idScheme
	// idOrCursorScheme is the id scheme, but a page that comes in the
	// cursor scheme (no has_more) is followed by its next_page, as the
	// Files list may answer.
	idOrCursorScheme
)

// listCall is one list call: an endpoint's list with a params' arguments
// and the call's options. The drivers below do the paging.
type listCall struct {
	call   call   // the List call's options, applied once for all its pages
	path   string // escaped, e.g. "/v1/models"
	scheme listScheme
	// query holds limit and filters but not the paging members (after_id,
	// before_id, page), which the drivers set. The drivers copy it for each
	// request and never change it.
	query url.Values
	// order is the order the list is sorted in (the params' order, else the
	// endpoint's default), which cursors are checked against and recorded
	// with; "" for lists without an order.
	order ListOrder
	betas []string // the endpoint's required betas
}

// listParams are the params of a list: checked, then turned into the
// list's arguments.
type listParams interface {
	Validate() error
	listArgs() listArgs
}

// listArgs is what a list's params give its call.
type listArgs struct {
	// query holds limit and filters (see listCall.query). A list with an
	// order puts the params' order here itself when set. Array filters go
	// in with addQueryArray.
	query url.Values
	order ListOrder // see listCall.order
	start listPos   // where List and ListPage start
}

// listPos is a position in a list: the paging members of one request, at
// most one of them set (none: the list's start), and the direction an
// iteration goes from it.
type listPos struct {
	afterID, beforeID string // the id scheme
	page              Cursor // the cursor scheme
	// backward walks towards the list's start: along first_id (the id
	// scheme, set by a before_id start) or prev_page (the cursor scheme).
	backward bool
}

// idStart is the start of an id-scheme list at the params' after_id or
// before_id; a before_id pages backwards.
func idStart(afterID, beforeID string) listPos {
	return listPos{afterID: afterID, beforeID: beforeID, backward: beforeID != ""}
}

// limitQuery is a list's query with its page size when set; the params add
// their filters.
func limitQuery(limit int) url.Values {
	q := url.Values{}
	if limit != 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	return q
}

// listPageWire is a page as the service sends it, in either scheme.
type listPageWire[T any] struct {
	Data []T `json:"data"`
	listPaging
}

// listPaging is the paging members of a page as the service sends them.
type listPaging struct {
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

// getListPage sends one list request at pos. A cursor issued under another
// order than the call's is refused before anything is sent.
func getListPage[T any](ctx context.Context, l listCall, pos listPos) (*listPageWire[T], error) {
	if err := checkCursor(pos.page, l.order); err != nil {
		return nil, err
	}
	q := make(url.Values, len(l.query)+1)
	for k, v := range l.query {
		q[k] = append([]string(nil), v...)
	}
	for _, m := range [...]struct{ key, value string }{{"after_id", pos.afterID}, {"before_id", pos.beforeID}, {"page", pos.page.Token}} {
		if m.value != "" {
			q.Set(m.key, m.value)
		}
	}
	var page listPageWire[T]
	r := &request{method: http.MethodGet, path: l.path, query: q, betas: l.betas, out: &page}
	if _, err := l.call.send(ctx, r); err != nil {
		return nil, err
	}
	return &page, nil
}

// fetchListPage fetches the one page at pos: what a ListPage returns.
// HasMore is has_more where the page sends it; else, in the cursor scheme,
// whether next_page is set. Cursor members are passed on in every scheme
// (the id scheme may grow them, files.md).
func fetchListPage[T any](ctx context.Context, l listCall, pos listPos) (*Page[T], error) {
	w, err := getListPage[T](ctx, l, pos)
	if err != nil {
		return nil, err
	}
	p := &Page[T]{
		Data: w.Data, FirstID: w.FirstID, LastID: w.LastID,
		NextPage: cursorOf(w.NextPage, l.order), PrevPage: cursorOf(w.PrevPage, l.order),
	}
	switch {
	case w.HasMore != nil:
		p.HasMore = *w.HasMore
	case l.scheme == cursorScheme:
		p.HasMore = p.NextPage != nil
	}
	return p, nil
}

// listItems iterates over every item of a list from start, in any scheme:
// forwards (after_id = last_id, page = next_page) or backwards (before_id =
// first_id, page = prev_page); each page's items come in the list's order.
// It stops at the list's end (see next), on an empty page unless the list
// is in the cursor scheme, and with an
// error when a page leads back to a position already read.
func listItems[T any](ctx context.Context, l listCall, start listPos) iter.Seq2[T, error] {
	return observeList(ctx, l, func(ctx context.Context, yield func(T, error) bool) {
		pos := start // per range: the sequence restarts
		seen := positions{}
		for {
			if err := seen.visitPos(l.path, pos); err != nil {
				yieldError(yield, err)
				return
			}
			w, err := getListPage[T](ctx, l, pos)
			if err != nil {
				yieldError(yield, err)
				return
			}
			for _, v := range w.Data {
				if !yield(v, nil) {
					return
				}
			}
			// A cursor-scheme list goes on past an empty page that still
			// gives a cursor: filtered lists (user profiles by
			// enforcement_status) can answer empty pages mid-list. A
			// cursor seen before ends it with an error (visitPos).
			if len(w.Data) == 0 && l.scheme != cursorScheme {
				return
			}
			next, more, err := l.next(&w.listPaging, pos)
			if err != nil {
				yieldError(yield, err)
				return
			}
			if !more {
				return
			}
			pos = next
		}
	})
}

// next is the position after a page read at pos, or more = false at the
// list's end. The id scheme ends at has_more = false (or absent); the
// cursor scheme forwards at a null or empty next_page or has_more = false,
// backwards at a null or empty prev_page. A Files page without has_more is
// in the cursor scheme, followed forwards only.
func (l listCall) next(w *listPaging, pos listPos) (_ listPos, more bool, _ error) {
	if l.scheme == cursorScheme || l.scheme == idOrCursorScheme && w.HasMore == nil && !pos.backward {
		token := w.NextPage
		if pos.backward {
			token = w.PrevPage
		} else if w.HasMore != nil && !*w.HasMore {
			return listPos{}, false, nil
		}
		c := cursorOf(token, l.order)
		if c == nil {
			return listPos{}, false, nil
		}
		return listPos{page: *c, backward: pos.backward}, true, nil
	}
	if w.HasMore == nil || !*w.HasMore {
		return listPos{}, false, nil
	}
	id, name := w.LastID, "last_id"
	if pos.backward {
		id, name = w.FirstID, "first_id"
	}
	if id == nil || *id == "" {
		return listPos{}, false, fmt.Errorf("mms: GET %s: the page says has_more but gives no %s", l.path, name)
	}
	if pos.backward {
		return listPos{beforeID: *id, backward: true}, true, nil
	}
	return listPos{afterID: *id}, true, nil
}

// positions records the paging positions (after_id, before_id or page
// values) one iteration has asked for. A service that leads back to one of
// them (a → b → a) would make the iteration loop forever; it ends with an
// error instead.
type positions map[string]struct{}

// visitPos records the paging members of pos (see visit).
func (p positions) visitPos(path string, pos listPos) error {
	if err := p.visit(path, "after_id", pos.afterID); err != nil {
		return err
	}
	if err := p.visit(path, "before_id", pos.beforeID); err != nil {
		return err
	}
	return p.visit(path, "page", pos.page.Token)
}

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

// setStrings sets each key of kv whose value is not "" (an unset
// filter).
func setStrings(q url.Values, kv map[string]string) {
	for k, v := range kv {
		if v != "" {
			q.Set(k, v)
		}
	}
}

// setOrder sets order when it is not "" and returns the order the service
// lists in: order, or def when the service's default applies.
func setOrder(q url.Values, order, def ListOrder) ListOrder {
	if order == "" {
		return def
	}
	q.Set("order", string(order))
	return order
}

// archivedListArgs is the cursor-scheme listArgs of a list with a limit
// and include_archived; a list with more filters adds them to its query.
func archivedListArgs(limit int, page Cursor, includeArchived bool) listArgs {
	q := limitQuery(limit)
	if includeArchived {
		q.Set("include_archived", "true")
	}
	return listArgs{query: q, start: listPos{page: page}}
}

// setTimeFilters sets key[gt], key[gte], key[lt] and key[lte] for the
// times that are not zero.
func setTimeFilters(q url.Values, key string, gt, gte, lt, lte time.Time) {
	for _, f := range []struct {
		op string
		t  time.Time
	}{{"gt", gt}, {"gte", gte}, {"lt", lt}, {"lte", lte}} {
		if !f.t.IsZero() {
			q.Set(key+"["+f.op+"]", f.t.UTC().Format(time.RFC3339Nano))
		}
	}
}

// setCreatedRange sets created_at[gte] and created_at[lte] for the bounds
// that are not zero.
func setCreatedRange(q url.Values, after, before time.Time) {
	setTimeFilters(q, "created_at", time.Time{}, after, time.Time{}, before)
}

// validateCreatedRange reports a lower creation bound later than the
// upper one (either zero: unbounded).
func validateCreatedRange(after, before time.Time) error {
	if !after.IsZero() && !before.IsZero() && after.After(before) {
		return invalid("created_at[gte]", "must not be later than created_at[lte]")
	}
	return nil
}

// validateFilled reports the first empty value of a list parameter (a
// filter or a list of names), e.g. "statuses[2]".
func validateFilled[S ~string](path string, values []S) error {
	for i, v := range values {
		if v == "" {
			return invalid(fmt.Sprintf("%s[%d]", path, i), "must not be empty")
		}
	}
	return nil
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
