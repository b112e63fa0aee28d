package mmstest

import (
	"encoding/json"
	"net/http"
	"slices"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The session threads (/v1/sessions/{session_id}/threads): one per roster
// member of the session's agent, made at creation ("sthr_…" ids, status
// idle, no stats or usage yet; the turn engine sets status and usage when
// a thread works). Get, list (cursor pages, creation order) and archive;
// a thread's events and stream are in sessions_events.go and
// sessions_stream.go.

// threadWire is the thread record.
type threadWire struct {
	Type           string          `json:"type"`
	ID             string          `json:"id"`
	SessionID      string          `json:"session_id"`
	ParentThreadID *string         `json:"parent_thread_id"`
	Agent          json.RawMessage `json:"agent"`
	Status         string          `json:"status"`
	Stats          json.RawMessage `json:"stats"`
	Usage          json.RawMessage `json:"usage"`
	CreatedAt      string          `json:"created_at"`
	UpdatedAt      string          `json:"updated_at"`
	ArchivedAt     *string         `json:"archived_at"`
}

// lookupThread returns the thread named by the path with st.mu held, or
// answers 404 and returns nil with st.mu released.
func (st *sessionStore) lookupThread(w http.ResponseWriter, r *http.Request) *threadWire {
	s := st.lookup(w, r)
	if s == nil {
		return nil
	}
	id := r.PathValue("thread_id")
	i := slices.IndexFunc(s.threads, func(t *threadWire) bool { return t.ID == id })
	if i < 0 {
		st.mu.Unlock()
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "Session thread not found: "+id)
		return nil
	}
	return s.threads[i]
}

// getThread serves GET /v1/sessions/{session_id}/threads/{thread_id}.
func (st *sessionStore) getThread(w http.ResponseWriter, r *http.Request) {
	t := st.lookupThread(w, r)
	if t == nil {
		return
	}
	out := *t
	st.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// archiveThread serves POST /v1/sessions/{session_id}/threads/{thread_id}/archive.
func (st *sessionStore) archiveThread(w http.ResponseWriter, r *http.Request) {
	t := st.lookupThread(w, r)
	if t == nil {
		return
	}
	if t.ArchivedAt == nil {
		ts := st.timestamp()
		t.ArchivedAt, t.UpdatedAt = &ts, ts
	}
	out := *t
	st.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// listThreads serves GET /v1/sessions/{session_id}/threads.
func (st *sessionStore) listThreads(w http.ResponseWriter, r *http.Request) {
	s := st.lookup(w, r)
	if s == nil {
		return
	}
	var recs []threadWire
	for _, t := range s.threads {
		recs = append(recs, *t)
	}
	st.mu.Unlock()
	page, err := pageByCursor(recs, r.URL.Query(), 100)
	writePage(w, r, page, err)
}
