package mms

import (
	"context"
	"encoding/json"
	"iter"

	"github.com/mms-sdk/mms-go/option"
)

// SessionThreadsService retrieves, lists and archives the threads of a
// multi-agent session (/v1/sessions/{session_id}/threads). Reach it as
// client.Sessions.Threads.
type SessionThreadsService struct {
	client *Client
	// Events lists and streams a thread's events.
	Events *SessionThreadEventsService
}

// SessionThread is one agent's thread of a multi-agent session (the wire
// type "session_thread").
//
//mms:json type=session_thread
type SessionThread struct {
	// ID identifies the thread ("sthr_…").
	ID string `json:"id"`
	// SessionID is the thread's session.
	SessionID string `json:"session_id"`
	// ParentThreadID is the thread that started this one; nil when null.
	ParentThreadID *string `json:"parent_thread_id"`
	// Agent is the thread's agent: [SessionThreadAgent], [RosterAdvisor]
	// or [SessionThreadInlineAgent].
	Agent ThreadAgent `json:"agent"`
	// WorkflowRunID is the workflow run that created the thread; nil when
	// null or absent (a thread not started by a run).
	WorkflowRunID *string `json:"workflow_run_id"`
	// Status is the thread's status (the session statuses).
	Status SessionStatus `json:"status"`
	// Stats are the thread's times; nil when null.
	Stats *SessionThreadStats `json:"stats"`
	// Usage is what the thread has used; nil when null.
	Usage *SessionUsage `json:"usage"`
	// CreatedAt and UpdatedAt are RFC 3339 strings.
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// ArchivedAt is when the thread was archived; nil while it is not.
	ArchivedAt *string `json:"archived_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionThreadStats are a thread's times, in seconds.
//
//mms:json
type SessionThreadStats struct {
	ActiveSeconds   float64 `json:"active_seconds,omitzero"`
	DurationSeconds float64 `json:"duration_seconds,omitzero"`
	StartupSeconds  float64 `json:"startup_seconds,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Get retrieves a thread (GET /v1/sessions/{session_id}/threads/{thread_id}).
func (s *SessionThreadsService) Get(ctx context.Context, sessionID, threadID string, opts ...option.RequestOption) (*SessionThread, error) {
	return s.at(sessionID, threadID).get(ctx, opts)
}

// Archive archives a thread (POST
// /v1/sessions/{session_id}/threads/{thread_id}/archive).
func (s *SessionThreadsService) Archive(ctx context.Context, sessionID, threadID string, opts ...option.RequestOption) (*SessionThread, error) {
	return s.at(sessionID, threadID).action(ctx, "/archive", nil, opts)
}

// SessionThreadListParams are the parameters of
// [SessionThreadsService.List] and [SessionThreadsService.ListPage].
type SessionThreadListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
	// Statuses keeps the threads in any of these statuses (statuses[]):
	// running, idle, rescheduling or terminated.
	Statuses []SessionStatus
}

// Validate reports Limit outside 1–100 when set, or an empty status.
func (p SessionThreadListParams) Validate() error {
	if err := validateThreadStatuses(p.Statuses); err != nil {
		return err
	}
	return validateLimit(p.Limit, 100)
}

func (p SessionThreadListParams) listArgs() listArgs {
	q := limitQuery(p.Limit)
	addQueryArray(q, "statuses", p.Statuses)
	return listArgs{query: q, start: listPos{page: p.Page}}
}

// List iterates over a session's threads, fetching pages as it goes (GET
// /v1/sessions/{session_id}/threads, cursor scheme).
func (s *SessionThreadsService) List(ctx context.Context, sessionID string, p SessionThreadListParams, opts ...option.RequestOption) iter.Seq2[SessionThread, error] {
	return s.all(sessionID).list(ctx, p, opts)
}

// ListPage fetches one page of a session's threads.
func (s *SessionThreadsService) ListPage(ctx context.Context, sessionID string, p SessionThreadListParams, opts ...option.RequestOption) (*Page[SessionThread], error) {
	return s.all(sessionID).listPage(ctx, p, opts)
}

// all is a session's threads' endpoint (/v1/sessions/{session_id}/threads).
func (s *SessionThreadsService) all(sessionID string) endpoint[SessionThread] {
	return sessionAt[SessionThread](s.client, sessionID).sub("/threads")
}

// at is one thread's endpoint
// (/v1/sessions/{session_id}/threads/{thread_id}).
func (s *SessionThreadsService) at(sessionID, threadID string) endpoint[SessionThread] {
	return sessionThreadAt[SessionThread](s.client, sessionID, threadID)
}

// sessionThreadAt is one thread's endpoint
// (/v1/sessions/{session_id}/threads/{thread_id}) answering a T.
func sessionThreadAt[T any](c *Client, sessionID, threadID string) endpoint[T] {
	return sessionAt[T](c, sessionID).sub("/threads").id("thread_id", threadID)
}
