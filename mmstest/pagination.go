package mmstest

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"

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

// writePage answers r with page, or with a 400 invalid_request_error
// carrying err when paging failed.
func writePage(w http.ResponseWriter, r *http.Request, page any, err error) {
	if err != nil {
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, page)
}
