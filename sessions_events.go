package mms

import (
	"context"
	"encoding/json"
	"iter"
	"time"

	"github.com/mms-sdk/mms-go/option"
)

// SessionEventsService sends, lists and streams the events of a session
// (/v1/sessions/{session_id}/events). Reach it as client.Sessions.Events;
// a thread's events are on client.Sessions.Threads.Events.
type SessionEventsService struct {
	client *Client
}

// SessionEventSendResult is the answer to [SessionEventsService.Send]: the
// events as the service stored them (ids assigned; user messages have a
// nil processed time while they wait in the queue).
//
//mms:json
type SessionEventSendResult struct {
	// Data holds the stored events, in the order sent; empty when the
	// service answered without them.
	Data []SessionEvent `json:"data,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Send sends events to a session (POST /v1/sessions/{session_id}/events):
// user messages, interrupts, tool confirmations, tool results, outcomes
// and system messages, built with the New…Event constructors. The params
// are validated first; nothing is sent when they break a rule.
//
//	_, err := client.Sessions.Events.Send(ctx, sessionID, mms.SessionEventSendParams{
//		Events: []mms.SessionEventParams{mms.NewUserMessageEvent("Summarise the report")},
//	})
func (s *SessionEventsService) Send(ctx context.Context, sessionID string, p SessionEventSendParams, opts ...option.RequestOption) (*SessionEventSendResult, error) {
	return as[SessionEventSendResult](s.all(sessionID)).post(ctx, p, opts)
}

// SessionEventListParams are the parameters of [SessionEventsService.List]
// and [SessionEventsService.ListPage].
type SessionEventListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service.
	Limit int
	// Page starts the list at a page returned before as NextPage. A cursor
	// issued under another Order is refused before sending.
	Page Cursor
	// Order sorts by processing time: ListOrderAsc (the default, oldest
	// first) or ListOrderDesc.
	Order ListOrder
	// Types keeps the events of these wire types (types[]), e.g.
	// "agent.message".
	Types []string
	// CreatedGT, CreatedGTE, CreatedLT and CreatedLTE, when not zero, bound
	// the processing time (created_at[gt], [gte], [lt], [lte]; the service
	// compares them to processed_at, so events still queued do not match).
	CreatedGT, CreatedGTE, CreatedLT, CreatedLTE time.Time
}

// Validate reports the first rule the params break: Limit outside 1–100
// when set, an Order other than asc and desc, or an empty type.
func (p SessionEventListParams) Validate() error {
	if err := validateLimitOrder(p.Limit, 100, p.Order); err != nil {
		return err
	}
	return validateFilled("types", p.Types)
}

func (p SessionEventListParams) listArgs() listArgs {
	q := limitQuery(p.Limit)
	order := setOrder(q, p.Order, ListOrderAsc)
	addQueryArray(q, "types", p.Types)
	setTimeFilters(q, "created_at", p.CreatedGT, p.CreatedGTE, p.CreatedLT, p.CreatedLTE)
	return listArgs{query: q, order: order, start: listPos{page: p.Page}}
}

// List iterates over a session's stored events, fetching pages as it goes
// (GET /v1/sessions/{session_id}/events), oldest first unless p.Order says
// otherwise. Nothing is sent before the loop starts; ranging again lists
// again; an error is yielded once, last. Events of kinds this SDK version
// does not know come as [UnknownSessionEvent].
func (s *SessionEventsService) List(ctx context.Context, sessionID string, p SessionEventListParams, opts ...option.RequestOption) iter.Seq2[SessionEvent, error] {
	return s.all(sessionID).list(ctx, p, opts)
}

// ListPage fetches one page of a session's events. Continue with Page set
// to the page's *NextPage.
func (s *SessionEventsService) ListPage(ctx context.Context, sessionID string, p SessionEventListParams, opts ...option.RequestOption) (*Page[SessionEvent], error) {
	return s.all(sessionID).listPage(ctx, p, opts)
}

// Stream streams a session's events as they happen (GET
// /v1/sessions/{session_id}/events/stream) and survives the network: see
// [SessionEventStreamParams] for what it yields and [ReconnectPolicy] for
// how it reconnects. The sequence is lazy and single-use like
// [MessagesService.Stream]: nothing is sent before the loop starts, a
// second range yields an error, and leaving the loop closes the
// connection. It ends, without an error, after a session.status_terminated
// or session.deleted event; when the reconnect policy gives up, with an
// error wrapping [ErrReconnectGaveUp]; at the end of ctx, at once, with an
// error wrapping ctx.Err() as the next value: nothing comes after it, not
// even events already received.
//
//	for ev, err := range client.Sessions.Events.Stream(ctx, sessionID, mms.SessionEventStreamParams{}) {
//		if err != nil {
//			return err
//		}
//		switch ev := ev.(type) {
//		case mms.AgentMessageEvent:
//			fmt.Println(ev.Text())
//		case mms.SessionStatusIdleEvent:
//			// the agent waits for input
//		}
//	}
func (s *SessionEventsService) Stream(ctx context.Context, sessionID string, p SessionEventStreamParams, opts ...option.RequestOption) iter.Seq2[SessionEvent, error] {
	return s.stream(ctx, sessionID, p, opts, nil)
}

// stream is Stream with a phase hook (see sessionStream.phase).
func (s *SessionEventsService) stream(ctx context.Context, sessionID string, p SessionEventStreamParams, opts []option.RequestOption, phase func(live bool)) iter.Seq2[SessionEvent, error] {
	e := s.all(sessionID).checked(p)
	if e.err != nil {
		return listError[SessionEvent](e.err)
	}
	list := func(ctx context.Context, since time.Time) iter.Seq2[SessionEvent, error] {
		return s.List(ctx, sessionID, SessionEventListParams{Limit: 100, CreatedGTE: since}, opts...)
	}
	latest := func(ctx context.Context) iter.Seq2[SessionEvent, error] {
		return s.List(ctx, sessionID, SessionEventListParams{Limit: 100, Order: ListOrderDesc}, opts...)
	}
	return newSessionStream(ctx, s.client, e.path+"/stream", p, opts, list, latest, "", phase)
}

// SessionThreadEventsService lists and streams the events of one thread of
// a multi-agent session. Reach it as client.Sessions.Threads.Events.
type SessionThreadEventsService struct {
	client *Client
}

// SessionThreadEventListParams are the parameters of
// [SessionThreadEventsService.List] and [SessionThreadEventsService.ListPage]
// (the thread list takes no filters).
type SessionThreadEventListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
}

// Validate reports Limit outside 1–100 when set.
func (p SessionThreadEventListParams) Validate() error { return validateLimit(p.Limit, 100) }

func (p SessionThreadEventListParams) listArgs() listArgs {
	return listArgs{query: limitQuery(p.Limit), start: listPos{page: p.Page}}
}

// List iterates over a thread's stored events (GET
// /v1/sessions/{session_id}/threads/{thread_id}/events), fetching pages as
// it goes.
func (s *SessionThreadEventsService) List(ctx context.Context, sessionID, threadID string, p SessionThreadEventListParams, opts ...option.RequestOption) iter.Seq2[SessionEvent, error] {
	return s.all(sessionID, threadID).list(ctx, p, opts)
}

// ListPage fetches one page of a thread's events.
func (s *SessionThreadEventsService) ListPage(ctx context.Context, sessionID, threadID string, p SessionThreadEventListParams, opts ...option.RequestOption) (*Page[SessionEvent], error) {
	return s.all(sessionID, threadID).listPage(ctx, p, opts)
}

// Stream streams a thread's events (GET
// /v1/sessions/{session_id}/threads/{thread_id}/stream) exactly as
// [SessionEventsService.Stream] streams a session's, and also ends after
// the thread's own session.thread_status_terminated. The thread list has
// no time filter, so filling a gap after a reconnect lists the thread's
// events from its start.
func (s *SessionThreadEventsService) Stream(ctx context.Context, sessionID, threadID string, p SessionEventStreamParams, opts ...option.RequestOption) iter.Seq2[SessionEvent, error] {
	e := sessionThreadAt[SessionEvent](s.client, sessionID, threadID).checked(p)
	if e.err != nil {
		return listError[SessionEvent](e.err)
	}
	list := func(ctx context.Context, _ time.Time) iter.Seq2[SessionEvent, error] {
		return s.List(ctx, sessionID, threadID, SessionThreadEventListParams{Limit: 100}, opts...)
	}
	return newSessionStream(ctx, s.client, e.path+"/stream", p, opts, list, nil, threadID, nil)
}

// all is a session's events' endpoint (/v1/sessions/{session_id}/events).
func (s *SessionEventsService) all(sessionID string) endpoint[SessionEvent] {
	return sessionAt[SessionEvent](s.client, sessionID).sub("/events")
}

// all is a thread's events' endpoint
// (/v1/sessions/{session_id}/threads/{thread_id}/events).
func (s *SessionThreadEventsService) all(sessionID, threadID string) endpoint[SessionEvent] {
	return sessionThreadAt[SessionEvent](s.client, sessionID, threadID).sub("/events")
}
