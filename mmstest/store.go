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

// archiveRecord sets a record's archived_at and updated_at to now unless it
// is archived already: archiving is idempotent and keeps the first time.
func archiveRecord(archivedAt **string, updatedAt *string, now time.Time) {
	if *archivedAt == nil {
		ts := now.UTC().Format(fileTimeLayout)
		*archivedAt, *updatedAt = &ts, ts
	}
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
