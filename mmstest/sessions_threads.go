package mmstest

import (
	"encoding/json"
	"net/http"
	"slices"
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
	WorkflowRunID  *string         `json:"workflow_run_id"` // a run's thread; the fake starts none
	Status         string          `json:"status"`
	Stats          json.RawMessage `json:"stats"`
	Usage          json.RawMessage `json:"usage"`
	recordTimes
}

// lookupThread returns the thread named by the path, or answers
// 404 and returns nil. st.mu must be held.
func (st *sessionStore) lookupThread(w http.ResponseWriter, r *http.Request) *threadWire {
	s := st.lookup(w, r)
	if s == nil {
		return nil
	}
	return pathItem(w, r, s.threads, "thread_id", "Session thread", func(t *threadWire) string { return t.ID })
}

// getThread serves GET /v1/sessions/{session_id}/threads/{thread_id}.
func (st *sessionStore) getThread(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookupThread, func(t *threadWire) {
		writeJSON(w, http.StatusOK, *t)
	})
}

// archiveThread serves POST /v1/sessions/{session_id}/threads/{thread_id}/archive.
func (st *sessionStore) archiveThread(w http.ResponseWriter, r *http.Request) {
	serveArchive(&st.mu, w, r, st.lookupThread, st.srv.now)
}

// listThreads serves GET /v1/sessions/{session_id}/threads.
func (st *sessionStore) listThreads(w http.ResponseWriter, r *http.Request) {
	statuses, err := threadStatuses(r)
	if err != nil {
		badRequest(w, r, err)
		return
	}
	withFound(&st.mu, w, r, st.lookup, func(s *storedSession) {
		var recs []threadWire
		for _, t := range s.threads {
			if len(statuses) == 0 || slices.Contains(statuses, t.Status) {
				recs = append(recs, *t)
			}
		}
		writeCursorList(w, r, recs, orderByID(func(t threadWire) string { return t.ID }, false))
	})
}
