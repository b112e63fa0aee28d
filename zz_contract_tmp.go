package mms

// TEMPORARY stand-in for the session event types (h-evtypes builds the
// real ones); removed before merging.

import (
	"encoding/json"

	"github.com/mms-sdk/mms-go/internal/codec"
)

type SessionEvent interface {
	json.Marshaler
	EventID() string
	EventType() string
	isSessionEvent()
	processedAt() string
}

var sessionEventUnion = codec.NewUnion[SessionEvent]("SessionEvent", UnknownSessionEvent{}).
	Add("agent.message", AgentMessageEvent{}).
	Add("agent.thinking", AgentThinkingEvent{}).
	Add("agent.custom_tool_use", AgentCustomToolUseEvent{}).
	Add("span.model_request_end", SpanModelRequestEndEvent{}).
	Add("session.status_terminated", SessionStatusTerminatedEvent{}).
	Add("session.deleted", SessionDeletedEvent{}).
	Add("event_start", SessionEventStart{}).
	Add("event_delta", SessionEventDelta{})

type UnknownSessionEvent struct {
	Type string
	Raw  json.RawMessage
}

func (u UnknownSessionEvent) MarshalJSON() ([]byte, error) { return marshalJSON(u) }
func (u UnknownSessionEvent) EventID() string {
	var v struct {
		ID string `json:"id"`
	}
	json.Unmarshal(u.Raw, &v)
	return v.ID
}
func (u UnknownSessionEvent) EventType() string { return u.Type }
func (UnknownSessionEvent) isSessionEvent()     {}
func (u UnknownSessionEvent) processedAt() string {
	var v struct {
		P string `json:"processed_at"`
	}
	json.Unmarshal(u.Raw, &v)
	return v.P
}

type AgentMessageEvent struct {
	ID          string                     `json:"id"`
	Content     []SessionContentBlock      `json:"content"`
	ProcessedAt *string                    `json:"processed_at"`
	Extra       map[string]json.RawMessage `json:"-"`
}
type AgentThinkingEvent struct {
	ID          string                     `json:"id"`
	ProcessedAt *string                    `json:"processed_at"`
	Extra       map[string]json.RawMessage `json:"-"`
}
type AgentCustomToolUseEvent struct {
	ID              string                     `json:"id"`
	Name            string                     `json:"name"`
	Input           json.RawMessage            `json:"input"`
	SessionThreadID *string                    `json:"session_thread_id,omitzero"`
	ProcessedAt     *string                    `json:"processed_at"`
	Extra           map[string]json.RawMessage `json:"-"`
}
type SpanModelRequestEndEvent struct {
	ID                  string                     `json:"id"`
	ModelRequestStartID string                     `json:"model_request_start_id"`
	ProcessedAt         *string                    `json:"processed_at"`
	Extra               map[string]json.RawMessage `json:"-"`
}
type SessionStatusTerminatedEvent struct {
	ID          string                     `json:"id"`
	ProcessedAt *string                    `json:"processed_at"`
	Extra       map[string]json.RawMessage `json:"-"`
}
type SessionDeletedEvent struct {
	ID          string                     `json:"id"`
	ProcessedAt *string                    `json:"processed_at"`
	Extra       map[string]json.RawMessage `json:"-"`
}
type SessionEventStart struct {
	Event SessionEventRef            `json:"event"`
	Extra map[string]json.RawMessage `json:"-"`
}
type SessionEventRef struct {
	Type  string                     `json:"type"`
	ID    string                     `json:"id"`
	Extra map[string]json.RawMessage `json:"-"`
}
type SessionEventDelta struct {
	EventID_ string                     `json:"event_id"`
	Delta    SessionEventDeltaBody      `json:"delta"`
	Extra    map[string]json.RawMessage `json:"-"`
}
type SessionContentDelta struct {
	Index   *int                       `json:"index,omitzero"`
	Content SessionContentBlock        `json:"content"`
	Extra   map[string]json.RawMessage `json:"-"`
}

func ps(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func (e AgentMessageEvent) EventID() string                { return e.ID }
func (e AgentThinkingEvent) EventID() string               { return e.ID }
func (e AgentCustomToolUseEvent) EventID() string          { return e.ID }
func (e SpanModelRequestEndEvent) EventID() string         { return e.ID }
func (e SessionStatusTerminatedEvent) EventID() string     { return e.ID }
func (e SessionDeletedEvent) EventID() string              { return e.ID }
func (e SessionEventStart) EventID() string                { return "" }
func (e SessionEventDelta) EventID() string                { return "" }
func (e AgentMessageEvent) EventType() string              { return "agent.message" }
func (e AgentThinkingEvent) EventType() string             { return "agent.thinking" }
func (e AgentCustomToolUseEvent) EventType() string        { return "agent.custom_tool_use" }
func (e SpanModelRequestEndEvent) EventType() string       { return "span.model_request_end" }
func (e SessionStatusTerminatedEvent) EventType() string   { return "session.status_terminated" }
func (e SessionDeletedEvent) EventType() string            { return "session.deleted" }
func (e SessionEventStart) EventType() string              { return "event_start" }
func (e SessionEventDelta) EventType() string              { return "event_delta" }
func (e AgentMessageEvent) processedAt() string            { return ps(e.ProcessedAt) }
func (e AgentThinkingEvent) processedAt() string           { return ps(e.ProcessedAt) }
func (e AgentCustomToolUseEvent) processedAt() string      { return ps(e.ProcessedAt) }
func (e SpanModelRequestEndEvent) processedAt() string     { return ps(e.ProcessedAt) }
func (e SessionStatusTerminatedEvent) processedAt() string { return ps(e.ProcessedAt) }
func (e SessionDeletedEvent) processedAt() string          { return ps(e.ProcessedAt) }
func (e SessionEventStart) processedAt() string            { return "" }
func (e SessionEventDelta) processedAt() string            { return "" }
func (AgentMessageEvent) isSessionEvent()                  {}
func (AgentThinkingEvent) isSessionEvent()                 {}
func (AgentCustomToolUseEvent) isSessionEvent()            {}
func (SpanModelRequestEndEvent) isSessionEvent()           {}
func (SessionStatusTerminatedEvent) isSessionEvent()       {}
func (SessionDeletedEvent) isSessionEvent()                {}
func (SessionEventStart) isSessionEvent()                  {}
func (SessionEventDelta) isSessionEvent()                  {}

func (e AgentMessageEvent) MarshalJSON() ([]byte, error)            { return marshalJSON(e) }
func (e *AgentMessageEvent) UnmarshalJSON(d []byte) error           { return unmarshalJSON(d, e) }
func (e AgentThinkingEvent) MarshalJSON() ([]byte, error)           { return marshalJSON(e) }
func (e *AgentThinkingEvent) UnmarshalJSON(d []byte) error          { return unmarshalJSON(d, e) }
func (e AgentCustomToolUseEvent) MarshalJSON() ([]byte, error)      { return marshalJSON(e) }
func (e *AgentCustomToolUseEvent) UnmarshalJSON(d []byte) error     { return unmarshalJSON(d, e) }
func (e SpanModelRequestEndEvent) MarshalJSON() ([]byte, error)     { return marshalJSON(e) }
func (e *SpanModelRequestEndEvent) UnmarshalJSON(d []byte) error    { return unmarshalJSON(d, e) }
func (e SessionStatusTerminatedEvent) MarshalJSON() ([]byte, error) { return marshalJSON(e) }
func (e *SessionStatusTerminatedEvent) UnmarshalJSON(d []byte) error {
	return unmarshalJSON(d, e)
}
func (e SessionDeletedEvent) MarshalJSON() ([]byte, error)  { return marshalJSON(e) }
func (e *SessionDeletedEvent) UnmarshalJSON(d []byte) error { return unmarshalJSON(d, e) }
func (e SessionEventStart) MarshalJSON() ([]byte, error)    { return marshalJSON(e) }
func (e *SessionEventStart) UnmarshalJSON(d []byte) error   { return unmarshalJSON(d, e) }
func (e SessionEventDelta) MarshalJSON() ([]byte, error)    { return marshalJSON(e) }
func (e *SessionEventDelta) UnmarshalJSON(d []byte) error   { return unmarshalJSON(d, e) }

func decodeSessionEvent(name string, data []byte) (SessionEvent, error) {
	switch name {
	case "ping":
		return nil, nil
	case "error":
		return nil, streamError(data)
	}
	return sessionEventUnion.Decode(data)
}

type SessionEventSendParams struct {
	Events []SessionEventParams `json:"events"`
}

func (p SessionEventSendParams) Validate() error { return nil }

type SessionThreadStatusTerminatedEvent struct {
	ID              string  `json:"id"`
	SessionThreadID string  `json:"session_thread_id"`
	ProcessedAt     *string `json:"processed_at"`
}

func (e SessionThreadStatusTerminatedEvent) EventID() string     { return e.ID }
func (e SessionThreadStatusTerminatedEvent) EventType() string   { return "x" }
func (e SessionThreadStatusTerminatedEvent) processedAt() string { return ps(e.ProcessedAt) }
func (SessionThreadStatusTerminatedEvent) isSessionEvent()       {}
func (e SessionThreadStatusTerminatedEvent) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct{}{})
}

type SessionEventDeltaBody interface {
	json.Marshaler
	isSessionEventDeltaBody()
}

var sessionEventDeltaBodyUnion = codec.NewUnion[SessionEventDeltaBody]("SessionEventDeltaBody", UnknownSessionEventDeltaBody{}).
	Add("content_delta", SessionContentDelta{})

type UnknownSessionEventDeltaBody struct {
	Type string
	Raw  json.RawMessage
}

func (SessionContentDelta) isSessionEventDeltaBody()                {}
func (UnknownSessionEventDeltaBody) isSessionEventDeltaBody()       {}
func (e SessionContentDelta) MarshalJSON() ([]byte, error)          { return marshalJSON(e) }
func (e *SessionContentDelta) UnmarshalJSON(d []byte) error         { return unmarshalJSON(d, e) }
func (u UnknownSessionEventDeltaBody) MarshalJSON() ([]byte, error) { return marshalJSON(u) }
