package mmstest

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/mms-sdk/mms-go/internal/wire"
)

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

// pageByID pages items (already in list order) by the id scheme's query
// parameters: limit (1-1000, default 20), after_id (the page right after that
// item) and before_id (the page right before it). has_more reports whether
// more items lie beyond the page in the paging direction. The error, if any,
// is the message for a 400 invalid_request_error.
func pageByID[T any](items []T, idOf func(T) string, q url.Values) (idPage[T], error) {
	limit, err := queryLimit(q, maxPageLimit)
	if err != nil {
		return idPage[T]{}, err
	}
	after, before := q.Get("after_id"), q.Get("before_id")
	indexOf := func(param, id string) (int, error) {
		i := slices.IndexFunc(items, func(it T) bool { return idOf(it) == id })
		if i < 0 {
			return 0, fmt.Errorf("%s: no item with id %q", param, id)
		}
		return i, nil
	}
	start, end := 0, min(limit, len(items))
	hasMore := end < len(items)
	switch {
	case after != "" && before != "":
		return idPage[T]{}, fmt.Errorf("after_id and before_id cannot be used together")
	case before != "":
		i, err := indexOf("before_id", before)
		if err != nil {
			return idPage[T]{}, err
		}
		start, end = max(0, i-limit), i
		hasMore = start > 0
	case after != "":
		i, err := indexOf("after_id", after)
		if err != nil {
			return idPage[T]{}, err
		}
		start, end = i+1, min(i+1+limit, len(items))
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

// pageQuery reads limit (1-maxLimit, default 20) and the page token of q,
// decoded from its "page_<base64>" form (nil when q has none). The error
// is the message for a 400.
func pageQuery(q url.Values, maxLimit int) (limit int, token *string, err error) {
	if limit, err = queryLimit(q, maxLimit); err != nil || q.Get("page") == "" {
		return limit, nil, err
	}
	t := q.Get("page")
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(t, "page_"))
	if err != nil || !strings.HasPrefix(t, "page_") {
		return 0, nil, badPageToken(q)
	}
	s := string(raw)
	return limit, &s, nil
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

// pageByCursor pages items (in list order) by limit (1-maxLimit, default
// 20) and page, a token naming the offset of the page. The error, if any,
// is the message for a 400.
func pageByCursor[T any](items []T, q url.Values, maxLimit int) (cursorPage[T], error) {
	limit, token, err := pageQuery(q, maxLimit)
	if err != nil {
		return cursorPage[T]{}, err
	}
	start := 0
	if token != nil {
		n, err := strconv.Atoi(*token)
		if err != nil || n < 0 {
			return cursorPage[T]{}, badPageToken(q)
		}
		start = min(n, len(items))
	}
	end := min(start+limit, len(items))
	page := cursorPage[T]{Data: append([]T{}, items[start:end]...)}
	if end < len(items) {
		token := "page_" + base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(end)))
		page.NextPage = &token
	}
	return page, nil
}

// bidiPage is a list page of the bidirectional cursor scheme (GET
// /v1/sessions): prev_page is null on the first page.
type bidiPage[T any] struct {
	Data     []T     `json:"data"`
	NextPage *string `json:"next_page"`
	PrevPage *string `json:"prev_page"`
}

// pageBidirectional pages items (already sorted in order) by limit
// (1-maxLimit, default 20) and page. Its tokens name the order they were
// issued under, a direction and an offset: "next from offset n" or "the
// page ending before offset n". A token issued under another order is
// refused, as the service refuses it. The error is the message for a 400.
func pageBidirectional[T any](items []T, q url.Values, maxLimit int, order string) (bidiPage[T], error) {
	limit, cursor, err := pageQuery(q, maxLimit)
	if err != nil {
		return bidiPage[T]{}, err
	}
	start, end := 0, min(limit, len(items))
	if cursor != nil {
		parts := strings.Split(*cursor, ":")
		var n int
		if len(parts) == 3 {
			n, err = strconv.Atoi(parts[2])
		}
		if err != nil || len(parts) != 3 || n < 0 || (parts[1] != "n" && parts[1] != "p") {
			return bidiPage[T]{}, badPageToken(q)
		}
		if parts[0] != order {
			return bidiPage[T]{}, fmt.Errorf("page: the cursor was issued for order %q and cannot be used with order %q", parts[0], order)
		}
		n = min(n, len(items))
		if parts[1] == "n" {
			start, end = n, min(n+limit, len(items))
		} else {
			start, end = max(0, n-limit), n
		}
	}
	token := func(dir string, n int) *string {
		t := "page_" + base64.RawURLEncoding.EncodeToString([]byte(order+":"+dir+":"+strconv.Itoa(n)))
		return &t
	}
	page := bidiPage[T]{Data: append([]T{}, items[start:end]...)}
	if end < len(items) {
		page.NextPage = token("n", end)
	}
	if start > 0 {
		page.PrevPage = token("p", start)
	}
	return page, nil
}
