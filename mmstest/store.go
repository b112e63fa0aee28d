package mmstest

import (
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// pathItem returns the item of items whose id (idOf) is r's path value
// param, or answers 404 "<what> not found: <id>" and returns nil. The caller
// holds the lock that guards items; pathItem neither takes nor releases it.
func pathItem[T any](w http.ResponseWriter, r *http.Request, items []*T, param, what string, idOf func(*T) string) *T {
	id := r.PathValue(param)
	it := byID(items, id, idOf)
	if it == nil {
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, what+" not found: "+id)
	}
	return it
}

// byID returns the item of items whose id (idOf) is id, or nil.
func byID[T any](items []*T, id string, idOf func(*T) string) *T {
	if i := slices.IndexFunc(items, func(it *T) bool { return idOf(it) == id }); i >= 0 {
		return items[i]
	}
	return nil
}

// withLock runs f with mu held: the lock is taken and released here.
func withLock(mu *sync.Mutex, f func()) {
	mu.Lock()
	defer mu.Unlock()
	f()
}

// locked returns f's result, computed with mu held: the lock is taken and
// released here, never handed to a caller.
func locked[T any](mu *sync.Mutex, f func() T) T {
	mu.Lock()
	defer mu.Unlock()
	return f()
}

// copiesOf returns a copy of each item of *items keep keeps, taken with mu
// held, so that a page written after the lock is released does not race
// with a later update.
func copiesOf[T any](mu *sync.Mutex, items *[]*T, keep func(*T) bool) []*T {
	return locked(mu, func() []*T {
		var out []*T
		for _, it := range *items {
			if keep(it) {
				c := *it
				out = append(out, &c)
			}
		}
		return out
	})
}

// recordTimes are the timestamps that end the records of archivable
// resources (agents, environments, sessions, threads, vaults and their
// credentials, memory stores).
type recordTimes struct {
	CreatedAt  string  `json:"created_at"`
	UpdatedAt  string  `json:"updated_at"`
	ArchivedAt *string `json:"archived_at"`
}

// createdAt is the times of a record created at ts.
func createdAt(ts string) recordTimes { return recordTimes{CreatedAt: ts, UpdatedAt: ts} }

// archive sets archived_at and updated_at to now unless the record is
// archived already: archiving is idempotent and keeps the first time.
func (t *recordTimes) archive(now time.Time) {
	if t.ArchivedAt == nil {
		ts := now.UTC().Format(fileTimeLayout)
		t.ArchivedAt, t.UpdatedAt = &ts, ts
	}
}

// serveArchive serves an archive request for a record that is its own
// answer: the record find names (find answers the 404) is archived at
// now() unless it is already, and answered.
func serveArchive[T any, PT interface {
	*T
	archive(now time.Time)
}](mu *sync.Mutex, w http.ResponseWriter, r *http.Request, find func(http.ResponseWriter, *http.Request) *T, now func() time.Time) {
	withFound(mu, w, r, find, func(rec *T) {
		PT(rec).archive(now())
		writeJSON(w, http.StatusOK, *rec)
	})
}

// writeDeleted answers a delete with the service's {"id", "type"} body.
func writeDeleted(w http.ResponseWriter, id, typ string) {
	writeJSON(w, http.StatusOK, deletedWire{ID: id, Type: typ})
}

// withFound runs f on the item find names (find answers the 404 itself and
// returns nil), with mu held for both: a handler's lookup and its work are
// one locked step.
func withFound[T any](mu *sync.Mutex, w http.ResponseWriter, r *http.Request,
	find func(http.ResponseWriter, *http.Request) *T, f func(*T)) {
	mu.Lock()
	defer mu.Unlock()
	if x := find(w, r); x != nil {
		f(x)
	}
}

// withFoundIn is withFound for an item nested in a parent (a vault's
// credential, a session's resource, a skill's version): find answers the
// 404 itself and returns a nil child.
func withFoundIn[P, C any](mu *sync.Mutex, w http.ResponseWriter, r *http.Request,
	find func(http.ResponseWriter, *http.Request) (*P, *C), f func(*P, *C)) {
	mu.Lock()
	defer mu.Unlock()
	if p, c := find(w, r); c != nil {
		f(p, c)
	}
}

// appendLocked appends it to *items with mu held and returns view(it), read
// under the same lock: once appended the item is shared with other
// requests, so its answer must not be read after the lock is released.
func appendLocked[T, R any](mu *sync.Mutex, items *[]*T, it *T, view func(*T) R) R {
	mu.Lock()
	defer mu.Unlock()
	*items = append(*items, it)
	return view(it)
}

// newestFirst returns the records view makes of items (kept in creation
// order), newest first, leaving out those it does not keep. The caller
// holds the lock that guards items.
func newestFirst[T, R any](items []*T, view func(*T) (rec R, keep bool)) []R {
	var recs []R
	for _, it := range slices.Backward(items) {
		if rec, ok := view(it); ok {
			recs = append(recs, rec)
		}
	}
	return recs
}

// maxManagedPageLimit is the largest limit of the managed-agents lists.
const maxManagedPageLimit = 100

// writeCursorList answers a managed-agents list of recs, sorted by order
// and paged by the cursor scheme (limit 1–100).
func writeCursorList[R any](w http.ResponseWriter, r *http.Request, recs []R, order listOrder[R]) {
	writeCursorListUpTo(w, r, maxManagedPageLimit, recs, order)
}

// writeCursorListUpTo is writeCursorList with pages of at most maxLimit.
func writeCursorListUpTo[R any](w http.ResponseWriter, r *http.Request, maxLimit int, recs []R, order listOrder[R]) {
	page, err := pageByCursor(recs, order, r.URL.Query(), maxLimit)
	writePage(w, r, page, err)
}

// listArchivable serves a managed-agents list: the records of *items
// newest first (by idOf, newestByID), archived ones only with
// include_archived=true, and only those keep keeps (nil keeps all); cursor
// pages of at most 100. view gives an item's record and its archived_at.
// *items is read with mu held; the page is written after it is released.
func listArchivable[T, R any](w http.ResponseWriter, r *http.Request, mu *sync.Mutex, items *[]*T,
	view func(*T) (rec R, archivedAt *string), keep func(*T) bool, idOf func(R) string) {
	listArchivableUpTo(w, r, maxManagedPageLimit, mu, items, view, keep, idOf)
}

// listArchivableUpTo is listArchivable with pages of at most maxLimit (a
// list whose schema allows more than 100).
func listArchivableUpTo[T, R any](w http.ResponseWriter, r *http.Request, maxLimit int, mu *sync.Mutex, items *[]*T,
	view func(*T) (rec R, archivedAt *string), keep func(*T) bool, idOf func(R) string) {
	archived, ok := archivedQuery(w, r)
	if !ok {
		return
	}
	recs := locked(mu, func() []R {
		return newestFirst(*items, func(it *T) (R, bool) {
			rec, archivedAt := view(it)
			return rec, (archivedAt == nil || archived) && (keep == nil || keep(it))
		})
	})
	writeCursorListUpTo(w, r, maxLimit, recs, newestByID(idOf))
}

// listArchivableIn is listArchivable for items kept beside their parents
// (a vault's credentials, a tunnel's certificates): find names the parent,
// answering its 404, and view gives an item's record, its archived_at and
// whether it is the parent's. The lookup, the read and the page are one
// locked step.
func listArchivableIn[P, T, R any](w http.ResponseWriter, r *http.Request, mu *sync.Mutex,
	find func(http.ResponseWriter, *http.Request) *P, items *[]*T,
	view func(*T, *P) (rec R, archivedAt *string, in bool), idOf func(R) string) {
	archived, ok := archivedQuery(w, r)
	if !ok {
		return
	}
	withFound(mu, w, r, find, func(p *P) {
		writeCursorList(w, r, newestFirst(*items, func(it *T) (R, bool) {
			rec, archivedAt, in := view(it, p)
			return rec, in && (archivedAt == nil || archived)
		}), newestByID(idOf))
	})
}
