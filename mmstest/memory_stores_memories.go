package mmstest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The memories of a store and their versions
// (/v1/memory_stores/{memory_store_id}/memories and …/memory_versions).
//
//   - POST …/memories {path, content} creates a memory ("mem_…"):
//     path starts with "/", has ≥ 1 segment, none empty, "." or "..", no
//     control character, ≤ 1,024 bytes, unique per store (case-sensitive;
//     a taken path is a 409 memory_path_conflict_error naming
//     conflicting_memory_id and conflicting_path); content ≤ 102,400
//     bytes, "" allowed. content_sha256 and content_size_bytes are
//     computed.
//   - POST …/memories/{memory_id} {content?, path?, precondition?}: a
//     precondition {type: "content_sha256", content_sha256} that does not
//     match the current content is a 409 memory_precondition_failed_error,
//     and so is DELETE's expected_content_sha256 query.
//   - Every create, change (of content or path) and delete records a
//     version ("memver_…", operation created|modified|deleted) with
//     created_by: api_actor for x-api-key requests, whose api_key_id is
//     "apikey_" and the key's position among the accepted keys (never the
//     key); session_actor for a session's sessions_token; user_actor
//     ("user_" and the token's position, or "user_00" for another token)
//     for other bearer tokens.
//   - view=basic (the default) answers content null; view=full includes
//     it. Lists of memories are sorted by path; with view=full the limit is
//     at most 20. path_prefix (must end with "/") keeps the memories under
//     it; depth d ≥ 1 lists d levels below it and rolls deeper ones up
//     into {type: "memory_prefix", path: "<dir>/"} entries.
//   - GET …/memory_versions lists newest first, filtered by memory_id,
//     operation, session_id, api_key_id, service_account_id,
//     created_at[gte] and created_at[lte]. POST …/{memory_version_id}/redact
//     nulls content, content_sha256, content_size_bytes and path and sets
//     redacted_at and redacted_by.

// storedMemory is one memory of a store.
type storedMemory struct {
	id, storeID, path, content string
	versionID                  string
	createdAt, updatedAt       string
}

// memoryWire is the memory record; Content is nil for view=basic.
type memoryWire struct {
	ID               string  `json:"id"`
	Type             string  `json:"type"`
	MemoryStoreID    string  `json:"memory_store_id"`
	Path             string  `json:"path"`
	Content          *string `json:"content"`
	ContentSHA256    string  `json:"content_sha256"`
	ContentSizeBytes int     `json:"content_size_bytes"`
	MemoryVersionID  string  `json:"memory_version_id"`
	CreatedAt        string  `json:"created_at"`
	UpdatedAt        string  `json:"updated_at"`
}

// render is the memory's record in view (full includes the content).
func (m *storedMemory) render(full bool) memoryWire {
	rec := memoryWire{ID: m.id, Type: "memory", MemoryStoreID: m.storeID, Path: m.path,
		ContentSHA256: contentSHA256(m.content), ContentSizeBytes: len(m.content),
		MemoryVersionID: m.versionID, CreatedAt: m.createdAt, UpdatedAt: m.updatedAt}
	if full {
		c := m.content
		rec.Content = &c
	}
	return rec
}

// memoryVersion is a version as stored, content included; render it for
// an answer.
type memoryVersion struct {
	ID            string `json:"id"`
	Type          string `json:"type"`
	MemoryID      string `json:"memory_id"`
	MemoryStoreID string `json:"memory_store_id"`
	Operation     string `json:"operation"`
	CreatedAt     string `json:"created_at"`
	versionContent
	CreatedBy  json.RawMessage `json:"created_by"`
	RedactedAt *string         `json:"redacted_at"`
	RedactedBy json.RawMessage `json:"redacted_by,omitempty"`
}

// versionContent is what a version holds of its memory: the path, and the
// content unless the version is a deletion. Redaction clears it all (the
// members stay, as null).
type versionContent struct {
	Content          *string `json:"content"`
	ContentSHA256    *string `json:"content_sha256"`
	ContentSizeBytes *int    `json:"content_size_bytes"`
	Path             *string `json:"path"`
}

// render is the version's record in view.
func (v memoryVersion) render(full bool) memoryVersion {
	if !full {
		v.Content = nil
	}
	return v
}

// contentSHA256 is the lowercase hex SHA-256 of content.
func contentSHA256(content string) string {
	sum := sha256.Sum256([]byte(content))
	return hex.EncodeToString(sum[:])
}

// isSHA256 reports whether s is 64 lowercase hex digits.
func isSHA256(s string) bool {
	return len(s) == 64 && strings.Trim(s, "0123456789abcdef") == ""
}

// actor is who sent r, as a version's created_by or redacted_by.
func (s *Server) actor(r *http.Request) json.RawMessage {
	if keys := r.Header[wire.HeaderAPIKey]; len(keys) == 1 {
		i := slices.Index(s.cfg.apiKeys, keys[0])
		return encodeJSON(map[string]string{"type": "api_actor", "api_key_id": fmt.Sprintf("apikey_%02d", i+1)})
	}
	token := bearerToken(r.Header.Get(wire.HeaderAuthorization))
	if id, ok := strings.CutPrefix(token, sessionsTokenPrefix); ok && id != "" {
		return encodeJSON(map[string]string{"type": "session_actor", "session_id": id})
	}
	i := slices.Index(s.cfg.authTokens, token)
	return encodeJSON(map[string]string{"type": "user_actor", "user_id": fmt.Sprintf("user_%02d", i+1)})
}

// queryView reads the view query parameter: full reports view=full.
func queryView(q url.Values) (full bool, err error) {
	switch q.Get("view") {
	case "", "basic":
		return false, nil
	case "full":
		return true, nil
	}
	return false, fmt.Errorf("view: Input should be 'basic' or 'full'")
}

// checkMemoryPath applies the path rules.
func checkMemoryPath(p string) error {
	switch {
	case len(p) > 1024:
		return fmt.Errorf("path: must be at most 1024 bytes, got %d", len(p))
	case !strings.HasPrefix(p, "/"):
		return fmt.Errorf("path: must start with '/'")
	case strings.IndexFunc(p, unicode.IsControl) >= 0:
		return fmt.Errorf("path: control characters are not allowed")
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("path: empty, '.' and '..' segments are not allowed")
		}
	}
	return nil
}

// checkMemoryContent applies the content rule.
func checkMemoryContent(c string) error {
	if len(c) > 102400 {
		return fmt.Errorf("content: must be at most 102400 bytes, got %d", len(c))
	}
	return nil
}

// memoryAt returns the memory of storeID at path, or nil; st.mu is held.
func (st *memoryStoreStore) memoryAt(storeID, path string) *storedMemory {
	i := slices.IndexFunc(st.memories, func(m *storedMemory) bool { return m.storeID == storeID && m.path == path })
	if i < 0 {
		return nil
	}
	return st.memories[i]
}

// writePathConflict answers the 409 of a taken path.
func writePathConflict(w http.ResponseWriter, r *http.Request, taken *storedMemory) {
	writeJSON(w, http.StatusConflict, errorBody{
		Type: "error",
		Error: errorDetail{Type: wire.ErrMemoryPathConflict, Message: "A memory already exists at " + taken.path,
			ConflictingMemoryID: taken.id, ConflictingPath: taken.path},
		RequestID: requestID(r),
	})
}

// writePreconditionFailed answers the 409 of a hash that does not match.
func writePreconditionFailed(w http.ResponseWriter, r *http.Request) {
	writeError(w, r, http.StatusConflict, wire.ErrMemoryPreconditionFailed, "The memory's content_sha256 does not match the precondition")
}

// addVersion records a version of m (content and path nil for a
// deletion) and makes it m's head; st.mu is held.
func (st *memoryStoreStore) addVersion(r *http.Request, m *storedMemory, op, ts string) {
	v := &memoryVersion{ID: st.srv.newID("memver_"), Type: "memory_version", MemoryID: m.id, MemoryStoreID: m.storeID,
		Operation: op, CreatedAt: ts, CreatedBy: st.srv.actor(r)}
	path := m.path
	v.Path = &path
	if op != "deleted" {
		c, sum, n := m.content, contentSHA256(m.content), len(m.content)
		v.Content, v.ContentSHA256, v.ContentSizeBytes = &c, &sum, &n
	}
	st.versions = append(st.versions, v)
	m.versionID = v.ID
}

// createMemory serves POST /v1/memory_stores/{memory_store_id}/memories.
func (st *memoryStoreStore) createMemory(w http.ResponseWriter, r *http.Request) {
	var b struct {
		Path    *string `json:"path"`
		Content *string `json:"content"`
	}
	full, err := queryView(r.URL.Query())
	if err == nil {
		err = checkQueryKeys(r.URL.Query(), "view")
	}
	if err == nil {
		err = decodeStrictJSON(r, &b)
	}
	switch {
	case err != nil:
	case b.Path == nil:
		err = fmt.Errorf("path: Field required")
	case b.Content == nil:
		err = fmt.Errorf("content: Field required")
	default:
		if err = checkMemoryPath(*b.Path); err == nil {
			err = checkMemoryContent(*b.Content)
		}
	}
	if err != nil {
		badRequest(w, r, err)
		return
	}
	withFound(&st.mu, w, r, st.lookupStore, func(store *memoryStoreWire) {
		if taken := st.memoryAt(store.ID, *b.Path); taken != nil {
			writePathConflict(w, r, taken)
			return
		}
		ts := st.timestamp()
		m := &storedMemory{id: st.srv.newID("mem_"), storeID: store.ID, path: *b.Path, content: *b.Content, createdAt: ts, updatedAt: ts}
		st.memories = append(st.memories, m)
		st.addVersion(r, m, "created", ts)
		writeJSON(w, http.StatusOK, m.render(full))
	})
}

// lookupMemory returns the memory named by the path, or answers
// 404 and returns nil. st.mu must be held.
func (st *memoryStoreStore) lookupMemory(w http.ResponseWriter, r *http.Request) *storedMemory {
	return lookupInStore(st, w, r, func() []*storedMemory { return st.memories }, "memory_id", "Memory",
		func(m *storedMemory, storeID, id string) bool { return m.id == id && m.storeID == storeID })
}

// lookupInStore finds the item of items() the path's param names inside
// the path's store, or answers 404 (naming what) and returns nil. st.mu
// must be held.
func lookupInStore[T any](st *memoryStoreStore, w http.ResponseWriter, r *http.Request, items func() []*T,
	param, what string, match func(item *T, storeID, id string) bool) *T {
	store := st.lookupStore(w, r)
	if store == nil {
		return nil
	}
	id := r.PathValue(param)
	list := items()
	i := slices.IndexFunc(list, func(it *T) bool { return match(it, store.ID, id) })
	if i < 0 {
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, what+" not found: "+id)
		return nil
	}
	return list[i]
}

// getMemory serves GET …/memories/{memory_id}.
func (st *memoryStoreStore) getMemory(w http.ResponseWriter, r *http.Request) {
	getViewed(st, w, r, st.lookupMemory, (*storedMemory).render)
}

// getViewed serves a GET of the item find names inside a store, rendered
// in the view the query asks for (viewOnlyQuery).
func getViewed[T, R any](st *memoryStoreStore, w http.ResponseWriter, r *http.Request,
	find func(http.ResponseWriter, *http.Request) *T, render func(*T, bool) R) {
	full, ok := viewOnlyQuery(w, r)
	if !ok {
		return
	}
	withFound(&st.mu, w, r, find, func(it *T) {
		writeJSON(w, http.StatusOK, render(it, full))
	})
}

// memoryUpdateBody is the body of a memory update.
type memoryUpdateBody struct {
	Content      *string `json:"content"`
	Path         *string `json:"path"`
	Precondition *struct {
		Type          *string `json:"type"`
		ContentSHA256 *string `json:"content_sha256"`
	} `json:"precondition"`
}

// check applies the rules of an update body.
func (b memoryUpdateBody) check() error {
	if b.Content != nil {
		if err := checkMemoryContent(*b.Content); err != nil {
			return err
		}
	}
	if b.Path != nil {
		if err := checkMemoryPath(*b.Path); err != nil {
			return err
		}
	}
	if p := b.Precondition; p != nil {
		switch {
		case p.Type == nil:
			return fmt.Errorf("precondition.type: Field required")
		case *p.Type != "content_sha256":
			return fmt.Errorf("precondition.type: Input should be 'content_sha256'")
		case p.ContentSHA256 == nil:
			return fmt.Errorf("precondition.content_sha256: Field required")
		case !isSHA256(*p.ContentSHA256):
			return fmt.Errorf("precondition.content_sha256: must be 64 lowercase hex digits")
		}
	}
	return nil
}

// updateMemory serves POST …/memories/{memory_id}.
func (st *memoryStoreStore) updateMemory(w http.ResponseWriter, r *http.Request) {
	var b memoryUpdateBody
	full, err := queryView(r.URL.Query())
	if err == nil {
		err = checkQueryKeys(r.URL.Query(), "view")
	}
	if err == nil {
		err = decodeStrictJSON(r, &b)
	}
	if err == nil {
		err = b.check()
	}
	if err != nil {
		badRequest(w, r, err)
		return
	}
	withFound(&st.mu, w, r, st.lookupMemory, func(m *storedMemory) {
		if b.Precondition != nil && *b.Precondition.ContentSHA256 != contentSHA256(m.content) {
			writePreconditionFailed(w, r)
			return
		}
		if b.Path != nil && *b.Path != m.path {
			if taken := st.memoryAt(m.storeID, *b.Path); taken != nil {
				writePathConflict(w, r, taken)
				return
			}
		}
		changed := b.Content != nil && *b.Content != m.content || b.Path != nil && *b.Path != m.path
		if changed {
			if b.Content != nil {
				m.content = *b.Content
			}
			if b.Path != nil {
				m.path = *b.Path
			}
			m.updatedAt = st.timestamp()
			st.addVersion(r, m, "modified", m.updatedAt)
		}
		writeJSON(w, http.StatusOK, m.render(full))
	})
}

// deleteMemory serves DELETE …/memories/{memory_id}.
func (st *memoryStoreStore) deleteMemory(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	err := checkQueryKeys(q, "expected_content_sha256")
	expected := q.Get("expected_content_sha256")
	if err == nil && q.Has("expected_content_sha256") && !isSHA256(expected) {
		err = fmt.Errorf("expected_content_sha256: must be 64 lowercase hex digits")
	}
	if err != nil {
		badRequest(w, r, err)
		return
	}
	withFound(&st.mu, w, r, st.lookupMemory, func(m *storedMemory) {
		if expected != "" && expected != contentSHA256(m.content) {
			writePreconditionFailed(w, r)
			return
		}
		st.addVersion(r, m, "deleted", st.timestamp())
		st.memories = slices.DeleteFunc(st.memories, func(x *storedMemory) bool { return x == m })
		writeDeleted(w, m.id, "memory_deleted")
	})
}

// memoryListQuery reads the query of a memories list.
func memoryListQuery(q url.Values) (full bool, prefix string, depth int, err error) {
	if err = checkQueryKeys(q, "limit", "page", "path_prefix", "depth", "view"); err != nil {
		return
	}
	if full, err = queryView(q); err != nil {
		return
	}
	prefix = q.Get("path_prefix")
	if q.Has("path_prefix") && !strings.HasSuffix(prefix, "/") {
		return full, prefix, 0, fmt.Errorf("path_prefix: must end with '/'")
	}
	if q.Has("depth") {
		if depth, err = strconv.Atoi(q.Get("depth")); err != nil || depth < 0 {
			return full, prefix, 0, fmt.Errorf("depth: Input should be an integer of at least 0")
		}
	}
	return full, prefix, depth, nil
}

// listMemories serves GET …/memories: sorted by path, with prefixes
// rolled up past depth.
func (st *memoryStoreStore) listMemories(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	full, prefix, depth, err := memoryListQuery(q)
	if err != nil {
		badRequest(w, r, err)
		return
	}
	withFound(&st.mu, w, r, st.lookupStore, func(store *memoryStoreWire) {
		type entry struct {
			path string
			item any
		}
		var entries []entry
		seen := map[string]bool{}
		base := prefix
		if base == "" {
			base = "/"
		}
		for _, m := range st.memories {
			rest, ok := strings.CutPrefix(m.path, base)
			if m.storeID != store.ID || !ok {
				continue
			}
			if segs := strings.Split(rest, "/"); depth > 0 && len(segs) > depth {
				dir := base + strings.Join(segs[:depth], "/") + "/"
				if !seen[dir] {
					seen[dir] = true
					entries = append(entries, entry{dir, map[string]string{"type": "memory_prefix", "path": dir}})
				}
				continue
			}
			entries = append(entries, entry{m.path, m.render(full)})
		}
		maxLimit := 100
		if full {
			maxLimit = 20
		}
		byPath := listOrder[entry]{key: func(e entry) position { return position{e.path} }}
		page, err := pageByCursorAs(entries, byPath, q, maxLimit, func(e entry) any { return e.item })
		writePage(w, r, page, err)
	})
}

// lookupVersion returns the version named by the path, or answers
// 404 and returns nil. st.mu must be held.
func (st *memoryStoreStore) lookupVersion(w http.ResponseWriter, r *http.Request) *memoryVersion {
	return lookupInStore(st, w, r, func() []*memoryVersion { return st.versions }, "memory_version_id", "Memory version",
		func(v *memoryVersion, storeID, id string) bool { return v.ID == id && v.MemoryStoreID == storeID })
}

// getVersion serves GET …/memory_versions/{memory_version_id}.
func (st *memoryStoreStore) getVersion(w http.ResponseWriter, r *http.Request) {
	getViewed(st, w, r, st.lookupVersion, func(v *memoryVersion, full bool) memoryVersion { return v.render(full) })
}

// redactVersion serves POST …/memory_versions/{memory_version_id}/redact.
func (st *memoryStoreStore) redactVersion(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookupVersion, func(v *memoryVersion) {
		if v.RedactedAt == nil {
			ts := st.timestamp()
			v.versionContent = versionContent{}
			v.RedactedAt, v.RedactedBy = &ts, st.srv.actor(r)
		}
		writeJSON(w, http.StatusOK, v.render(false))
	})
}

// versionFilters are the equality filters of the versions list: query
// parameter and the version member it compares.
var versionFilters = map[string]func(v *memoryVersion) string{
	"memory_id":          func(v *memoryVersion) string { return v.MemoryID },
	"operation":          func(v *memoryVersion) string { return v.Operation },
	"session_id":         func(v *memoryVersion) string { return actorMember(v.CreatedBy, "session_id") },
	"api_key_id":         func(v *memoryVersion) string { return actorMember(v.CreatedBy, "api_key_id") },
	"service_account_id": func(v *memoryVersion) string { return actorMember(v.CreatedBy, "service_account_id") },
}

// actorMember returns one string member of an actor.
func actorMember(actor json.RawMessage, key string) string {
	var m map[string]string
	_ = json.Unmarshal(actor, &m) // the fake wrote it
	return m[key]
}

// listVersions serves GET …/memory_versions, newest first.
func (st *memoryStoreStore) listVersions(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	err := checkQueryKeys(q, "limit", "page", "memory_id", "operation", "session_id", "api_key_id",
		"service_account_id", "created_at[gte]", "created_at[lte]", "view")
	var full bool
	if err == nil {
		full, err = queryView(q)
	}
	var bounds [2]time.Time
	if err == nil {
		bounds, err = createdBounds(q)
	}
	if op := q.Get("operation"); err == nil && q.Has("operation") && op != "created" && op != "modified" && op != "deleted" {
		err = fmt.Errorf("operation: Input should be 'created', 'modified' or 'deleted'")
	}
	if err != nil {
		badRequest(w, r, err)
		return
	}
	withFound(&st.mu, w, r, st.lookupStore, func(store *memoryStoreWire) {
		var recs []memoryVersion
		for _, v := range slices.Backward(st.versions) {
			if v.MemoryStoreID != store.ID || !within(v.CreatedAt, bounds) {
				continue
			}
			keep := true
			for key, member := range versionFilters {
				if q.Has(key) && member(v) != q.Get(key) {
					keep = false
				}
			}
			if keep {
				recs = append(recs, v.render(full))
			}
		}
		writeCursorList(w, r, recs, newestByID(func(v memoryVersion) string { return v.ID }))
	})
}

// viewOnlyQuery reads a query that may hold view and nothing else,
// answering 400 otherwise.
func viewOnlyQuery(w http.ResponseWriter, r *http.Request) (full, ok bool) {
	full, err := queryView(r.URL.Query())
	if err == nil {
		err = checkQueryKeys(r.URL.Query(), "view")
	}
	if err != nil {
		badRequest(w, r, err)
		return false, false
	}
	return full, true
}
