package mms

import "encoding/json"

// The stored user.* and system.message events: what a client sent, echoed
// once the service has stored it. ProcessedAt is "" while the event is
// queued (the service sends null); define_outcome, custom_tool_result and
// tool_result arrive processed.

// UserMessageEvent is a user turn as stored (the wire type "user.message").
type UserMessageEvent struct {
	// ID identifies the event ("sevt_…").
	ID string `json:"id"`
	// Content is the message's blocks: text, image, document, redacted.
	Content []SessionContentBlock `json:"content"`
	// ProcessedAt is when the service processed the event (RFC 3339); ""
	// while it is queued.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserInterruptEvent is an interrupt as stored (the wire type
// "user.interrupt"). The service may store an interrupt without an id,
// so it cannot be told from another by id.
type UserInterruptEvent struct {
	// ID identifies the event; "" when it has none.
	ID string `json:"id,omitzero"`
	// SessionThreadID is the thread interrupted; nil when the interrupt
	// was for every thread (null or absent).
	SessionThreadID *string `json:"session_thread_id,omitzero"`
	// ProcessedAt is when the service processed the event; "" while it is
	// queued.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserToolConfirmationEvent is the answer to a permission request as
// stored (the wire type "user.tool_confirmation").
type UserToolConfirmationEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// ToolUseID is the agent.tool_use or agent.mcp_tool_use answered.
	ToolUseID string `json:"tool_use_id"`
	// Result is "allow" or "deny".
	Result ToolConfirmationResult `json:"result"`
	// DenyMessage is the reason given with a deny; "" when null or absent.
	DenyMessage string `json:"deny_message,omitzero"`
	// SessionThreadID is the thread of the tool call, informational only
	// (the service routes a confirmation by its tool use id); nil when null
	// or absent.
	SessionThreadID *string `json:"session_thread_id,omitzero"`
	// ProcessedAt is when the service processed the event; "" while it is
	// queued.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserCustomToolResultEvent is the result of a custom tool call as stored
// (the wire type "user.custom_tool_result").
type UserCustomToolResultEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// CustomToolUseID is the agent.custom_tool_use answered.
	CustomToolUseID string `json:"custom_tool_use_id"`
	// Content is the result's blocks; nil when absent.
	Content []SessionContentBlock `json:"content,omitzero"`
	// IsError reports a failed call.
	IsError bool `json:"is_error,omitzero"`
	// SessionThreadID is the thread of the tool call; nil when null or
	// absent.
	SessionThreadID *string `json:"session_thread_id,omitzero"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserToolResultEvent is the result of a sandbox tool a self-hosted
// environment ran, as stored (the wire type "user.tool_result").
type UserToolResultEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// ToolUseID is the agent.tool_use answered.
	ToolUseID string `json:"tool_use_id"`
	// Content is the result's blocks; nil when absent.
	Content []SessionContentBlock `json:"content,omitzero"`
	// IsError reports a failed call.
	IsError bool `json:"is_error,omitzero"`
	// SessionThreadID is the thread of the tool call; nil when null or
	// absent.
	SessionThreadID *string `json:"session_thread_id,omitzero"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserDefineOutcomeEvent is an outcome as stored (the wire type
// "user.define_outcome").
type UserDefineOutcomeEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// OutcomeID identifies the outcome (see [OutcomeEvaluation]).
	OutcomeID string `json:"outcome_id"`
	// Description says what the outcome is.
	Description string `json:"description"`
	// Rubric grades the outcome: [TextRubric], [FileRubric] or
	// [UnknownOutcomeRubric].
	Rubric OutcomeRubric `json:"rubric"`
	// MaxIterations caps the attempts; nil when null (the default, 3) or
	// absent.
	MaxIterations *int `json:"max_iterations,omitzero"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SystemMessageEvent is a system-role turn as stored (the wire type
// "system.message").
type SystemMessageEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// Content is the message's text blocks.
	Content []SessionContentBlock `json:"content"`
	// ProcessedAt is when the service processed the event; "" while it is
	// queued.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}
