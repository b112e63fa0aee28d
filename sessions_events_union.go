package mms

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// The events of a session: the stored events that list pages and the stream
// carry, and the stream's previews. The variants live in
// sessions_events_user.go, _agent.go, _status.go and _span.go; this file
// holds the union, its Unknown variant, the previews and the stream's
// decoder.

// A SessionEvent is one event of a session: the stored events that list
// pages and streams carry, and the previews a stream sends when asked.
// Switch on its concrete type; an event this SDK version cannot name is an
// [UnknownSessionEvent], never dropped. The variants, by wire family:
//
//   - user.* and system.message, what a client sent: [UserMessageEvent],
//     [UserInterruptEvent], [UserToolConfirmationEvent],
//     [UserCustomToolResultEvent], [UserToolResultEvent],
//     [UserDefineOutcomeEvent], [SystemMessageEvent];
//   - agent.*, what the agent said, thought and called:
//     [AgentMessageEvent], [AgentThinkingEvent], [AgentToolUseEvent],
//     [AgentToolResultEvent], [AgentMCPToolUseEvent],
//     [AgentMCPToolResultEvent], [AgentCustomToolUseEvent],
//     [AgentThreadContextCompactedEvent], [AgentThreadMessageSentEvent],
//     [AgentThreadMessageReceivedEvent];
//   - session.*, the session's status and life: [SessionStatusRunningEvent],
//     [SessionStatusIdleEvent], [SessionStatusRescheduledEvent],
//     [SessionStatusTerminatedEvent], [SessionErrorEvent],
//     [SessionDeletedEvent], [SessionUpdatedEvent], [SessionUsageEvent];
//   - session.thread_*, the sub-agent threads: [SessionThreadCreatedEvent],
//     [SessionThreadStatusRunningEvent], [SessionThreadStatusIdleEvent],
//     [SessionThreadStatusRescheduledEvent],
//     [SessionThreadStatusTerminatedEvent];
//   - span.*, model requests and outcome evaluations:
//     [SpanModelRequestStartEvent], [SpanModelRequestEndEvent],
//     [SpanOutcomeEvaluationStartEvent], [SpanOutcomeEvaluationOngoingEvent],
//     [SpanOutcomeEvaluationEndEvent];
//   - workflow_run.*, the background runs the agent starts:
//     [WorkflowRunCreatedEvent], [WorkflowRunStatusRunningEvent],
//     [WorkflowRunStatusIdleEvent], [WorkflowRunPhaseStartedEvent],
//     [WorkflowRunPhaseEndedEvent], [WorkflowRunErrorEvent],
//     [WorkflowRunStatusEndedEvent];
//   - the stream's previews (event_start, event_delta): [SessionEventStart],
//     [SessionEventDelta];
//   - anything else: [UnknownSessionEvent].
type SessionEvent interface {
	json.Marshaler
	// EventID is the event's id; "" for previews and for stored events
	// that have none (interrupts).
	EventID() string
	// EventType is the wire type ("agent.message"); for
	// UnknownSessionEvent the payload's type (or the SSE event name when
	// the payload has none).
	EventType() string
	isSessionEvent()
	// processedAt is the processed_at member; "" when absent or null.
	processedAt() string
}

var sessionEventUnion = codec.NewUnion[SessionEvent]("SessionEvent", UnknownSessionEvent{}).
	Add("user.message", UserMessageEvent{}).
	Add("user.interrupt", UserInterruptEvent{}).
	Add("user.tool_confirmation", UserToolConfirmationEvent{}).
	Add("user.custom_tool_result", UserCustomToolResultEvent{}).
	Add("user.tool_result", UserToolResultEvent{}).
	Add("user.define_outcome", UserDefineOutcomeEvent{}).
	Add("system.message", SystemMessageEvent{}).
	Add("agent.message", AgentMessageEvent{}).
	Add("agent.thinking", AgentThinkingEvent{}).
	Add("agent.tool_use", AgentToolUseEvent{}).
	Add("agent.tool_result", AgentToolResultEvent{}).
	Add("agent.mcp_tool_use", AgentMCPToolUseEvent{}).
	Add("agent.mcp_tool_result", AgentMCPToolResultEvent{}).
	Add("agent.custom_tool_use", AgentCustomToolUseEvent{}).
	Add("agent.thread_context_compacted", AgentThreadContextCompactedEvent{}).
	Add("agent.thread_message_sent", AgentThreadMessageSentEvent{}).
	Add("agent.thread_message_received", AgentThreadMessageReceivedEvent{}).
	Add("session.status_running", SessionStatusRunningEvent{}).
	Add("session.status_idle", SessionStatusIdleEvent{}).
	Add("session.status_rescheduled", SessionStatusRescheduledEvent{}).
	Add("session.status_terminated", SessionStatusTerminatedEvent{}).
	Add("session.error", SessionErrorEvent{}).
	Add("session.deleted", SessionDeletedEvent{}).
	Add("session.updated", SessionUpdatedEvent{}).
	Add("session.usage", SessionUsageEvent{}).
	Add("session.thread_created", SessionThreadCreatedEvent{}).
	Add("session.thread_status_running", SessionThreadStatusRunningEvent{}).
	Add("session.thread_status_idle", SessionThreadStatusIdleEvent{}).
	Add("session.thread_status_rescheduled", SessionThreadStatusRescheduledEvent{}).
	Add("session.thread_status_terminated", SessionThreadStatusTerminatedEvent{}).
	Add("span.model_request_start", SpanModelRequestStartEvent{}).
	Add("span.model_request_end", SpanModelRequestEndEvent{}).
	Add("span.outcome_evaluation_start", SpanOutcomeEvaluationStartEvent{}).
	Add("span.outcome_evaluation_ongoing", SpanOutcomeEvaluationOngoingEvent{}).
	Add("span.outcome_evaluation_end", SpanOutcomeEvaluationEndEvent{}).
	Add("workflow_run.created", WorkflowRunCreatedEvent{}).
	Add("workflow_run.status_running", WorkflowRunStatusRunningEvent{}).
	Add("workflow_run.status_idle", WorkflowRunStatusIdleEvent{}).
	Add("workflow_run.phase_started", WorkflowRunPhaseStartedEvent{}).
	Add("workflow_run.phase_ended", WorkflowRunPhaseEndedEvent{}).
	Add("workflow_run.error", WorkflowRunErrorEvent{}).
	Add("workflow_run.status_ended", WorkflowRunStatusEndedEvent{}).
	Add("event_start", SessionEventStart{}).
	Add("event_delta", SessionEventDelta{})

// UnknownSessionEvent keeps an event this SDK version cannot name, whatever
// its name: Raw is the payload as it came, and MarshalJSON writes it back.
type UnknownSessionEvent struct {
	// Type is the payload's "type", or the SSE event name when the
	// payload has none.
	Type string
	Raw  json.RawMessage
}

// EventID returns the payload's "id" member, or "" when it has none.
func (u UnknownSessionEvent) EventID() string     { return rawStringMember(u.Raw, "id") }
func (u UnknownSessionEvent) processedAt() string { return rawStringMember(u.Raw, "processed_at") }

// rawStringMember returns the string member key of the JSON object raw, or
// "" when it is absent, null or not a string.
func rawStringMember(raw []byte, key string) string {
	v := codec.Member(raw, key)
	if len(v) == 0 || v[0] != '"' {
		return ""
	}
	s, err := codec.Unquote(v)
	if err != nil {
		return ""
	}
	return s
}

// SessionEventStart announces that an event is being produced (the wire
// type "event_start"), a preview the stream sends only when asked to. For
// agent.thinking it is the only preview.
type SessionEventStart struct {
	// Event names the event to come.
	Event SessionEventRef `json:"event"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionEventRef names an event being produced.
//
//mms:json
type SessionEventRef struct {
	// Type is the event's type: "agent.message" or "agent.thinking".
	Type string `json:"type"`
	// ID is the id the event will have.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionEventDelta is a fragment of a pending event (the wire type
// "event_delta"), a preview the stream sends only when asked to. The final
// event, when it comes, is authoritative.
type SessionEventDelta struct {
	// PendingEventID is the id of the pending event (from its
	// [SessionEventStart]); the wire's event_id. (The field cannot be
	// named EventID: that is the SessionEvent method, "" for previews.)
	PendingEventID string `json:"event_id"`
	// Delta is the fragment: [SessionContentDelta] or
	// [UnknownSessionEventDeltaBody].
	Delta SessionEventDeltaBody `json:"delta"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A SessionEventDeltaBody is the fragment a [SessionEventDelta] carries:
// [SessionContentDelta] or [UnknownSessionEventDeltaBody].
type SessionEventDeltaBody interface {
	json.Marshaler
	isSessionEventDeltaBody()
}

var sessionEventDeltaBodyUnion = codec.NewUnion[SessionEventDeltaBody]("SessionEventDeltaBody", UnknownSessionEventDeltaBody{}).
	Add("content_delta", SessionContentDelta{})

// SessionContentDelta is text for one content block of a pending
// agent.message (the wire type "content_delta").
type SessionContentDelta struct {
	// Index is the block the text belongs to; nil when absent.
	Index *int `json:"index,omitzero"`
	// Content is the fragment, a [TextBlock].
	Content SessionContentBlock `json:"content"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownSessionEventDeltaBody keeps a fragment kind this SDK version
// cannot name.
type UnknownSessionEventDeltaBody struct {
	Type string
	Raw  json.RawMessage
}

// decodeSessionEvent decodes one SSE event of a session stream. A "ping" is
// (nil, nil), to be skipped; an "error" event is its *Error, as on the
// Messages stream; malformed JSON is an error. Any other payload is decoded
// by its own "type", whatever the event's name (the SSE name and the
// payload's type may differ between service versions), and one whose type
// this version does not know, or that has none, is an [UnknownSessionEvent]
// (Type the payload's type, else name): an unknown name is never an error.
func decodeSessionEvent(name string, data []byte) (SessionEvent, error) {
	switch name {
	case "ping":
		return nil, nil
	case "error":
		return nil, streamError(data)
	}
	// The one validation pass: the union below trusts its bytes.
	if !json.Valid(data) {
		return nil, fmt.Errorf("mms: session %s event: malformed JSON: %q", name, excerpt(data))
	}
	if name == "event_delta" { // the bulk of a stream with previews
		if e, ok := decodeSessionDeltaFast(data); ok {
			return e, nil
		}
	}
	ev, err := sessionEventUnion.Decode(data)
	if err != nil {
		if _, perr := codec.PeekType(data); perr != nil {
			// Not an object with a string "type": kept under its name.
			return UnknownSessionEvent{Type: name, Raw: codec.Clone(data)}, nil
		}
		return nil, fmt.Errorf("mms: decoding a session %s event: %w", name, err)
	}
	if u, ok := ev.(UnknownSessionEvent); ok && u.Type == "" {
		u.Type = name
		return u, nil
	}
	return ev, nil
}

// decodeSessionDeltaFast reads the plain event_delta (event_id, and a
// content_delta of one text block with an index) without the union's
// reflection, as decodeDeltaEventFast does for message streams; ok is false
// for anything else (another member, another shape), which the union then
// reads. The result is what the union would give.
func decodeSessionDeltaFast(data []byte) (e SessionEventDelta, ok bool) {
	var id, delta []byte
	if !plainMembers(data, `"event_delta"`, "event_id", &id, "delta", &delta) || id == nil || delta == nil {
		return e, false
	}
	var index, content []byte
	if !plainMembers(delta, `"content_delta"`, "index", &index, "content", &content) || index == nil || content == nil {
		return e, false
	}
	eventID, err := codec.Unquote(id)
	n, nerr := strconv.Atoi(string(index))
	text, tok := scanStringDelta(content, `"text"`, "text")
	if err != nil || nerr != nil || !tok {
		return e, false
	}
	return SessionEventDelta{PendingEventID: eventID, Delta: SessionContentDelta{Index: &n, Content: TextBlock{Text: text}}}, true
}

// plainMembers reports whether the object data has a "type" member whose
// JSON is typ and otherwise only the members k1 and k2 (each at most
// once), whose values it stores in v1 and v2.
func plainMembers(data []byte, typ, k1 string, v1 *[]byte, k2 string, v2 *[]byte) bool {
	plain := true
	err := codec.EachMember(data, func(key string, value []byte) error {
		switch {
		case key == "type" && string(value) == typ:
		case key == k1 && *v1 == nil:
			*v1 = value
		case key == k2 && *v2 == nil:
			*v2 = value
		default:
			plain = false
			return errStopScan
		}
		return nil
	})
	return err == nil && plain
}
