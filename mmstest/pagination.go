package mmstest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// A position is an item's place in its list: the values the list is sorted
// on, most significant first, ending in the item's own, which no other
// item of the list shares (usually its id). Page tokens carry positions,
// not offsets, so a create or a delete between two page fetches neither
// repeats nor skips an item. A token resumes at its item, found by that
// last value, wherever the item now stands (a queued session event moves
// when it is processed); when the item has been deleted, the rest of the
// position still places it between the items either side of where it
// stood.
type position []string

// listOrder is how a list is sorted: by its items' positions (key),
// ascending, or descending when desc.
type listOrder[T any] struct {
	key  func(T) position
	desc bool
}

// orderByID is the order of a list sorted by id, newest first when desc.
// The fake's ids are per-prefix counters of fixed width (Server.newID), so
// their order is the order the items were created in.
func orderByID[T any](idOf func(T) string, desc bool) listOrder[T] {
	return listOrder[T]{key: func(it T) position { return position{idOf(it)} }, desc: desc}
}

// newestByID is the order of the lists that show their items newest first.
func newestByID[T any](idOf func(T) string) listOrder[T] { return orderByID(idOf, true) }

// seqKey is a sequence number as a position value: zero-padded, so that
// the text orders as the number does.
func seqKey(n int) string { return fmt.Sprintf("%020d", n) }

// compare orders two positions in list order.
func (o listOrder[T]) compare(a, b position) int {
	if o.desc {
		a, b = b, a
	}
	return slices.Compare(a, b)
}

// sorted returns a copy of items in list order, with their positions.
// Sorting on every page, rather than trusting the stores' order, keeps
// the list and its tokens in one order even when concurrent creates
// append in another order than their ids were drawn.
func (o listOrder[T]) sorted(items []T) ([]T, []position) {
	type placed struct {
		it  T
		pos position
	}
	all := make([]placed, len(items))
	for i, it := range items {
		all[i] = placed{it, o.key(it)}
	}
	slices.SortStableFunc(all, func(a, b placed) int { return o.compare(a.pos, b.pos) })
	out, keys := make([]T, len(all)), make([]position, len(all))
	for i, p := range all {
		out[i], keys[i] = p.it, p.pos
	}
	return out, keys
}

// find returns where the item of position p stands among keys (sorted):
// its index when it is still listed, else that of the first item placed
// after p, and whether the item is there.
func (o listOrder[T]) find(keys []position, p position) (int, bool) {
	own := p[len(p)-1]
	if i := slices.IndexFunc(keys, func(k position) bool { return k[len(k)-1] == own }); i >= 0 {
		return i, true
	}
	return slices.BinarySearchFunc(keys, p, o.compare)
}

// after returns the index of the first item placed after p's item; before,
// that of p's item or, deleted, of the first after it (the end of the
// items before p).
func (o listOrder[T]) after(keys []position, p position) int {
	i, at := o.find(keys, p)
	if at {
		i++
	}
	return i
}

func (o listOrder[T]) before(keys []position, p position) int {
	i, _ := o.find(keys, p)
	return i
}

// idPage is a list page of the spec's "id scheme" (Models, Message Batches,
// Files). first_id and last_id are null on an empty page.
type idPage[T any] struct {
	Data    []T     `json:"data"`
	HasMore bool    `json:"has_more"`
	FirstID *string `json:"first_id"`
	LastID  *string `json:"last_id"`
}

// Limits of the id scheme's limit query parameter.
const (
	defaultPageLimit = 20
	maxPageLimit     = 1000
)

// pageByID pages items by the id scheme's query parameters: limit (1-1000,
// default 20), after_id (the page right after that item) and before_id
// (the page right before it). has_more reports whether more items lie
// beyond the page in the paging direction.
//
// With idPrefix set, the list is newest first by id (newestByID), and an id of
// that prefix names its place whether or not its item is still listed (a
// deleted batch, an expired file). Without it (models), items are already
// in list order and after_id and before_id must name one of them. The
// error, if any, is the message for a 400 invalid_request_error.
func pageByID[T any](items []T, idOf func(T) string, q url.Values, idPrefix string) (idPage[T], error) {
	limit, err := queryLimit(q, maxPageLimit)
	if err != nil {
		return idPage[T]{}, err
	}
	order := newestByID(idOf)
	var keys []position
	if idPrefix != "" {
		items, keys = order.sorted(items)
	}
	// place returns where id stands: the index of its item, or of the
	// first item after it, and whether the item is there.
	place := func(param, id string) (i int, at bool, err error) {
		switch {
		case idPrefix == "":
			i = slices.IndexFunc(items, func(it T) bool { return idOf(it) == id })
			at = i >= 0
		case strings.HasPrefix(id, idPrefix):
			i, at = order.find(keys, position{id})
			return i, at, nil
		}
		if !at {
			return 0, false, fmt.Errorf("%s: no item with id %q", param, id)
		}
		return i, true, nil
	}
	after, before := q.Get("after_id"), q.Get("before_id")
	start, end := 0, min(limit, len(items))
	hasMore := end < len(items)
	switch {
	case after != "" && before != "":
		return idPage[T]{}, fmt.Errorf("after_id and before_id cannot be used together")
	case before != "":
		i, _, err := place("before_id", before)
		if err != nil {
			return idPage[T]{}, err
		}
		start, end = max(0, i-limit), i
		hasMore = start > 0
	case after != "":
		i, at, err := place("after_id", after)
		if err != nil {
			return idPage[T]{}, err
		}
		if at {
			i++
		}
		start, end = i, min(i+limit, len(items))
		hasMore = end < len(items)
	}
	page := idPage[T]{Data: append([]T{}, items[start:end]...), HasMore: hasMore}
	if len(page.Data) > 0 {
		first, last := idOf(page.Data[0]), idOf(page.Data[len(page.Data)-1])
		page.FirstID, page.LastID = &first, &last
	}
	return page, nil
}

// queryLimit reads the limit query parameter: defaultPageLimit when absent,
// else an integer from 1 to maxLimit. The error is the message for a 400.
func queryLimit(q url.Values, maxLimit int) (int, error) {
	if !q.Has("limit") {
		return defaultPageLimit, nil
	}
	n, err := strconv.Atoi(q.Get("limit"))
	switch {
	case err != nil:
		return 0, fmt.Errorf("limit: Input should be a valid integer, got %q", q.Get("limit"))
	case n < 1 || n > maxLimit:
		return 0, fmt.Errorf("limit: Input should be between 1 and %d, got %d", maxLimit, n)
	}
	return n, nil
}

// pageToken is what a page token of the cursor schemes holds: the
// position a page continues after (After) or, for a bidirectional list's
// prev_page, the position it ends before (Before); and for a
// bidirectional list the order it was issued under.
type pageToken struct {
	Order  string   `json:"order,omitempty"`
	After  position `json:"after,omitempty"`
	Before position `json:"before,omitempty"`
}

// encode is the token's wire form: "page_" and its JSON in base64.
func (t pageToken) encode() *string {
	raw, _ := json.Marshal(t) // strings only: cannot fail
	s := "page_" + base64.RawURLEncoding.EncodeToString(raw)
	return &s
}

// pageQuery reads limit (1-maxLimit, default 20) and the page token of q
// (nil when q has none). A token holds exactly one position. The error is
// the message for a 400.
func pageQuery(q url.Values, maxLimit int) (limit int, token *pageToken, err error) {
	if limit, err = queryLimit(q, maxLimit); err != nil || q.Get("page") == "" {
		return limit, nil, err
	}
	t := q.Get("page")
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(t, "page_"))
	token = &pageToken{}
	if err != nil || !strings.HasPrefix(t, "page_") || json.Unmarshal(raw, token) != nil ||
		(len(token.After) == 0) == (len(token.Before) == 0) {
		return 0, nil, badPageToken(q)
	}
	return limit, token, nil
}

// badPageToken is the error for a page token of q that this list did not
// issue.
func badPageToken(q url.Values) error {
	return fmt.Errorf("page: %q is not a page token of this list", q.Get("page"))
}

// writePage answers r with page, or with a 400 invalid_request_error
// carrying err when paging failed.
func writePage(w http.ResponseWriter, r *http.Request, page any, err error) {
	if err != nil {
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, page)
}

// cursorPage is a list page of the cursor scheme.
type cursorPage[T any] struct {
	Data     []T     `json:"data"`
	NextPage *string `json:"next_page"`
}

// pageByCursor pages items by order, limit (1-maxLimit, default 20) and
// page, a token naming the position of the previous page's last item. The
// error, if any, is the message for a 400.
func pageByCursor[T any](items []T, order listOrder[T], q url.Values, maxLimit int) (cursorPage[T], error) {
	limit, token, err := pageQuery(q, maxLimit)
	if err == nil && token != nil && (len(token.After) == 0 || token.Order != "") {
		err = badPageToken(q)
	}
	if err != nil {
		return cursorPage[T]{}, err
	}
	items, keys := order.sorted(items)
	start := 0
	if token != nil {
		start = order.after(keys, token.After)
	}
	end := min(start+limit, len(items))
	page := cursorPage[T]{Data: items[start:end:end]}
	if end < len(items) {
		page.NextPage = pageToken{After: keys[end-1]}.encode()
	}
	return page, nil
}

// pageByCursorAs is pageByCursor for items whose records view makes
// (a stored event's JSON, a resource's rendering).
func pageByCursorAs[T, R any](items []T, order listOrder[T], q url.Values, maxLimit int, view func(T) R) (cursorPage[R], error) {
	page, err := pageByCursor(items, order, q, maxLimit)
	recs := make([]R, len(page.Data))
	for i, it := range page.Data {
		recs[i] = view(it)
	}
	return cursorPage[R]{Data: recs, NextPage: page.NextPage}, err
}

// bidiPage is a list page of the bidirectional cursor scheme (GET
// /v1/sessions): prev_page is null on the first page.
type bidiPage[T any] struct {
	Data     []T     `json:"data"`
	NextPage *string `json:"next_page"`
	PrevPage *string `json:"prev_page"`
}

// pageBidirectional pages items by order, limit (1-maxLimit, default 20)
// and page. Its tokens name the order they were issued under (orderName),
// a direction and a position: "the page after this item" or "the page
// ending before this item". A token issued under another order is refused,
// as the service refuses it. A page that an earlier item's deletion leaves
// empty at the start of the list has neither token. The error is the
// message for a 400.
func pageBidirectional[T any](items []T, order listOrder[T], q url.Values, maxLimit int, orderName string) (bidiPage[T], error) {
	limit, token, err := pageQuery(q, maxLimit)
	if err == nil && token != nil && token.Order != orderName {
		err = fmt.Errorf("page: the cursor was issued for order %q and cannot be used with order %q", token.Order, orderName)
	}
	if err != nil {
		return bidiPage[T]{}, err
	}
	items, keys := order.sorted(items)
	start, end := 0, min(limit, len(items))
	switch {
	case token == nil:
	case len(token.After) > 0:
		start = order.after(keys, token.After)
		end = min(start+limit, len(items))
	default:
		end = order.before(keys, token.Before)
		start = max(0, end-limit)
	}
	page := bidiPage[T]{Data: items[start:end:end]}
	if end < len(items) && end > 0 {
		page.NextPage = pageToken{Order: orderName, After: keys[end-1]}.encode()
	}
	// A page past the last item (the items after the token were deleted)
	// is empty and has no item to end a previous page before.
	if start > 0 && start < len(keys) {
		page.PrevPage = pageToken{Order: orderName, Before: keys[start]}.encode()
	}
	return page, nil
}
