package mmstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The Memory stores endpoints (agent-memory beta; the rule chain refuses a
// request without it, or with the managed-agents beta too). Memories and
// their versions are in memory_stores_memories.go.
//
//   - POST /v1/memory_stores creates a store ("memstore_…" ids): name 1–255
//     characters without control characters (required), description of at
//     most 1024 characters, metadata of at most 16 pairs (keys 1–64,
//     values ≤ 512). Bodies are checked strictly: an unknown member is a
//     400.
//   - POST /v1/memory_stores/{memory_store_id} updates: name (null keeps
//     it), description (null clears it to ""), metadata as a patch (null
//     deletes a key; a null metadata keeps all). An archived store cannot
//     be updated (400).
//   - GET …/{memory_store_id}; POST …/archive sets archived_at (sessions
//     naming the store are then refused, as for a missing one); DELETE
//     removes the store with its memories and versions and answers {id,
//     type: "memory_store_deleted"}.
//   - GET /v1/memory_stores: newest first, include_archived,
//     created_at[gte], created_at[lte], cursor scheme, limit 1–100
//     (default 20).

// memoryStoreStore holds a server's memory stores, their memories and the
// memories' versions (Server.memoryStores).
type memoryStoreStore struct {
	srv      *Server
	mu       sync.Mutex
	stores   []*memoryStoreWire // in creation order
	memories []*storedMemory    // in creation order, every store's
	versions []*memoryVersion   // in creation order, every store's
}

// memoryStoreWire is the memory store record.
type memoryStoreWire struct {
	ID          string            `json:"id"`
	Type        string            `json:"type"`
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Metadata    map[string]string `json:"metadata"`
	recordTimes
}

// memoryStoreBody is a store create or update body, members kept raw so
// that absent (nil), null and values differ.
type memoryStoreBody struct {
	Name        json.RawMessage `json:"name"`
	Description json.RawMessage `json:"description"`
	Metadata    json.RawMessage `json:"metadata"`
}

// usable reports whether id names a memory store that exists and is not
// archived: what a session's memory_store resource needs.
func (st *memoryStoreStore) usable(id string) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	m := st.store(id)
	return m != nil && m.ArchivedAt == nil
}

// store returns the store id names, or nil; st.mu is held.
func (st *memoryStoreStore) store(id string) *memoryStoreWire {
	return byID(st.stores, id, func(m *memoryStoreWire) string { return m.ID })
}

// timestamp is the server clock's current time as records show it.
func (st *memoryStoreStore) timestamp() string { return st.srv.now().UTC().Format(fileTimeLayout) }

// stringMember decodes a string member named field; null is an error
// unless nullOK (then nil).
func stringMember(field string, raw json.RawMessage, nullOK bool) (*string, error) {
	if isNullJSON(raw) {
		if !nullOK {
			return nil, fmt.Errorf("%s: Input should be a valid string", field)
		}
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("%s: Input should be a valid string", field)
	}
	return &s, nil
}

// checkedMember is stringMember followed by check on a non-null value.
func checkedMember(field string, raw json.RawMessage, nullOK bool, check func(string) error) (*string, error) {
	s, err := stringMember(field, raw, nullOK)
	if err == nil && s != nil {
		err = check(*s)
	}
	return s, err
}

// notEmpty is a checkedMember check: at least one character.
func notEmpty(field string) func(string) error {
	return func(s string) error {
		if s == "" {
			return fmt.Errorf("%s: String should have at least 1 character", field)
		}
		return nil
	}
}

// checkStoreName applies the name rules: 1–255 characters, no control
// character.
func checkStoreName(name string) error {
	if n := textLen(name); n < 1 || n > wire.MaxMemoryStoreNameLen {
		return fmt.Errorf("name: String should have 1 to %d characters, got %d", wire.MaxMemoryStoreNameLen, n)
	}
	if strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return fmt.Errorf("name: control characters are not allowed")
	}
	return nil
}

// checkStoreDescription applies the description rule: at most 1024
// characters.
func checkStoreDescription(d string) error {
	if n := textLen(d); n > wire.MaxMemoryStoreDescriptionLen {
		return fmt.Errorf("description: String should have at most %d characters, got %d", wire.MaxMemoryStoreDescriptionLen, n)
	}
	return nil
}

// createStore serves POST /v1/memory_stores.
func (st *memoryStoreStore) createStore(w http.ResponseWriter, r *http.Request) {
	var b memoryStoreBody
	if badBody(w, r, &b) {
		return
	}
	if b.Name == nil {
		badRequest(w, r, fmt.Errorf("name: Field required"))
		return
	}
	name, err := checkedMember("name", b.Name, false, checkStoreName)
	if err != nil {
		badRequest(w, r, err)
		return
	}
	desc := ""
	if b.Description != nil {
		d, err := checkedMember("description", b.Description, false, checkStoreDescription)
		if err != nil {
			badRequest(w, r, err)
			return
		}
		desc = *d
	}
	meta, err := patchMetadata(nil, b.Metadata, true, false)
	if err != nil {
		badRequest(w, r, err)
		return
	}
	ts := st.timestamp()
	m := &memoryStoreWire{ID: st.srv.newID("memstore_"), Type: "memory_store", Name: *name, Description: desc,
		Metadata: meta, recordTimes: createdAt(ts)}
	writeJSON(w, http.StatusOK, appendLocked(&st.mu, &st.stores, m, func(m *memoryStoreWire) memoryStoreWire { return *m }))
}

// lookupStore returns the store named by the path, or answers
// 404 and returns nil. st.mu must be held.
func (st *memoryStoreStore) lookupStore(w http.ResponseWriter, r *http.Request) *memoryStoreWire {
	return pathItem(w, r, st.stores, "memory_store_id", "Memory store", func(m *memoryStoreWire) string { return m.ID })
}

// getStore serves GET /v1/memory_stores/{memory_store_id}.
func (st *memoryStoreStore) getStore(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookupStore, func(m *memoryStoreWire) {
		writeJSON(w, http.StatusOK, *m)
	})
}

// updateStore serves POST /v1/memory_stores/{memory_store_id}.
func (st *memoryStoreStore) updateStore(w http.ResponseWriter, r *http.Request) {
	var b memoryStoreBody
	if badBody(w, r, &b) {
		return
	}
	withFound(&st.mu, w, r, st.lookupStore, func(m *memoryStoreWire) {
		if m.ArchivedAt != nil {
			badRequest(w, r, fmt.Errorf("archived memory stores cannot be updated: %s", m.ID))
			return
		}
		next := *m
		if badIf(w, r, applyStoreUpdate(&next, b)) {
			return
		}
		if !bytes.Equal(encodeJSON(next), encodeJSON(*m)) {
			next.UpdatedAt = st.timestamp()
		}
		*m = next
		writeJSON(w, http.StatusOK, next)
	})
}

// applyStoreUpdate applies an update body to rec.
func applyStoreUpdate(rec *memoryStoreWire, b memoryStoreBody) error {
	if b.Name != nil {
		name, err := checkedMember("name", b.Name, true, checkStoreName)
		if err != nil {
			return err
		}
		if name != nil {
			rec.Name = *name
		}
	}
	if b.Description != nil {
		d, err := checkedMember("description", b.Description, true, checkStoreDescription)
		if err != nil {
			return err
		}
		rec.Description = ""
		if d != nil {
			rec.Description = *d
		}
	}
	var err error
	rec.Metadata, err = patchMetadata(rec.Metadata, nullAsAbsent(b.Metadata), false, false)
	return err
}

// archiveStore serves POST /v1/memory_stores/{memory_store_id}/archive.
func (st *memoryStoreStore) archiveStore(w http.ResponseWriter, r *http.Request) {
	serveArchive(&st.mu, w, r, st.lookupStore, st.srv.now)
}

// deleteStore serves DELETE /v1/memory_stores/{memory_store_id}: the store,
// its memories and their versions are gone.
func (st *memoryStoreStore) deleteStore(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookupStore, func(m *memoryStoreWire) {
		id := m.ID
		st.stores = slices.DeleteFunc(st.stores, func(x *memoryStoreWire) bool { return x == m })
		st.memories = slices.DeleteFunc(st.memories, func(x *storedMemory) bool { return x.storeID == id })
		st.versions = slices.DeleteFunc(st.versions, func(v *memoryVersion) bool { return v.MemoryStoreID == id })
		writeDeleted(w, id, "memory_store_deleted")
	})
}

// createdBounds reads created_at[gte] and created_at[lte]; a zero time is
// no bound.
func createdBounds(q url.Values) (bounds [2]time.Time, err error) {
	for i, key := range []string{"created_at[gte]", "created_at[lte]"} {
		if v := q.Get(key); v != "" {
			if bounds[i], err = time.Parse(time.RFC3339Nano, v); err != nil {
				return bounds, fmt.Errorf("%s: Input should be a valid datetime", key)
			}
		}
	}
	return bounds, nil
}

// within reports whether the record timestamp ts lies inside bounds.
func within(ts string, bounds [2]time.Time) bool {
	t, err := time.Parse(time.RFC3339Nano, ts)
	return err == nil && inBounds(t, bounds)
}

// inBounds reports whether t lies inside bounds (a zero bound is none).
func inBounds(t time.Time, bounds [2]time.Time) bool {
	return (bounds[0].IsZero() || !t.Before(bounds[0])) && (bounds[1].IsZero() || !t.After(bounds[1]))
}

// listStores serves GET /v1/memory_stores, newest first.
func (st *memoryStoreStore) listStores(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	err := checkQueryKeys(q, "limit", "page", "include_archived", "created_at[gte]", "created_at[lte]")
	var bounds [2]time.Time
	if err == nil {
		bounds, err = createdBounds(q)
	}
	if err != nil {
		badRequest(w, r, err)
		return
	}
	listArchivable(w, r, &st.mu, &st.stores, func(m *memoryStoreWire) (memoryStoreWire, *string) { return *m, m.ArchivedAt },
		func(m *memoryStoreWire) bool { return within(m.CreatedAt, bounds) }, func(m memoryStoreWire) string { return m.ID })
}
