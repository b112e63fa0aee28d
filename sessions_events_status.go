package mms

import (
	"encoding/json"
	"reflect"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// The session.* events: status changes, errors, updates, usage and
// threads, with the unions they carry (idle stop reasons, session errors
// and their retry status).

func init() {
	codec.Register(Update[SessionBudget]{}, updateSpec[SessionBudget]())
}

// SessionStatusRunningEvent says the agent started working (the wire type
// "session.status_running").
type SessionStatusRunningEvent struct {
	// ID identifies the event ("sevt_…").
	ID string `json:"id"`
	// ProcessedAt is when the service processed the event (RFC 3339).
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionStatusIdleEvent says the session waits for input (the wire type
// "session.status_idle"); StopReason says why.
type SessionStatusIdleEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// StopReason is why the session stopped: [SessionEndTurn],
	// [SessionRequiresAction], [SessionRetriesExhausted],
	// [SessionBudgetReached], [SessionRefusal] or
	// [UnknownSessionStopReason].
	StopReason SessionStopReason `json:"stop_reason"`
	// StopDetails describes a refusal (its category and explanation); nil
	// when null or absent.
	StopDetails *StopDetails `json:"stop_details,omitzero"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionStatusRescheduledEvent says the session is recovering from an
// error and will run again (the wire type "session.status_rescheduled").
type SessionStatusRescheduledEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionStatusTerminatedEvent says the session finished for good (the
// wire type "session.status_terminated"); it ends a stream.
type SessionStatusTerminatedEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionErrorEvent reports an error in the session (the wire type
// "session.error").
type SessionErrorEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// Error is the error; its ErrorType, ErrorMessage and
	// ErrorRetryStatus read it without a type switch.
	Error SessionError `json:"error"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionDeletedEvent says the session was deleted (the wire type
// "session.deleted"); it ends a stream.
type SessionDeletedEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionUpdatedEvent reports a successful update of the session (the
// wire type "session.updated"). It carries only the fields that changed:
// a zero field did not change.
type SessionUpdatedEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// Title is the new title: set (Value), cleared (IsClear: null), or
	// unchanged (IsZero: absent).
	Title Update[string] `json:"title,omitzero"`
	// Metadata is the changed metadata as sent; a nil value is a key sent
	// as null. nil when absent.
	Metadata map[string]*string `json:"metadata,omitzero"`
	// Agent holds the agent's changed lists; nil when absent.
	Agent *SessionAgentChange `json:"agent,omitzero"`
	// Budget is the new budget: set, removed (IsClear: null), or unchanged
	// (IsZero: absent).
	Budget Update[SessionBudget] `json:"budget,omitzero"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionAgentChange is the agent member of a [SessionUpdatedEvent]: the
// lists an update replaced.
//
//mms:json
type SessionAgentChange struct {
	// Tools and MCPServers are the new lists; nil when unchanged.
	Tools      []AgentTool      `json:"tools,omitzero"`
	MCPServers []AgentMCPServer `json:"mcp_servers,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// updateSpec encodes an Update[T] in the mode of the document around it
// (its MarshalJSON always writes the request form), so an update a
// response carries re-encodes with its unknown members.
func updateSpec[T any]() codec.Spec {
	return codec.Spec{
		Encode: func(e *codec.Encoder, v reflect.Value) error {
			u := v.Interface().(Update[T])
			if val, ok := u.Value(); ok {
				return e.Any(val)
			}
			if !u.IsClear() {
				return errKeepUpdate
			}
			e.Raw([]byte("null"))
			return nil
		},
		Decode: func(data []byte, v reflect.Value) error {
			return v.Addr().Interface().(*Update[T]).UnmarshalJSON(data)
		},
	}
}

// SessionUsageEvent is a snapshot of what the session has used (the wire
// type "session.usage").
type SessionUsageEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// Usage is the snapshot.
	Usage SessionUsage `json:"usage"`
	// Budget is the session's budget; nil when absent or null.
	Budget *SessionBudget `json:"budget,omitzero"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionThreadCreatedEvent says a thread was started (the wire type
// "session.thread_created").
type SessionThreadCreatedEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// SessionThreadID is the thread.
	SessionThreadID string `json:"session_thread_id"`
	// AgentName is the name of the thread's agent.
	AgentName string `json:"agent_name"`
	// WorkflowRunID is the workflow run that created the thread; nil when
	// null or absent.
	WorkflowRunID *string `json:"workflow_run_id"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionThreadStatusRunningEvent says a thread's agent started working
// (the wire type "session.thread_status_running").
type SessionThreadStatusRunningEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// SessionThreadID is the thread.
	SessionThreadID string `json:"session_thread_id"`
	// AgentName is the name of the thread's agent.
	AgentName string `json:"agent_name"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionThreadStatusIdleEvent says a thread waits (the wire type
// "session.thread_status_idle"); StopReason says why.
type SessionThreadStatusIdleEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// SessionThreadID is the thread.
	SessionThreadID string `json:"session_thread_id"`
	// AgentName is the name of the thread's agent.
	AgentName string `json:"agent_name"`
	// StopReason is why the thread stopped (see [SessionStatusIdleEvent]).
	StopReason SessionStopReason `json:"stop_reason"`
	// StopDetails describes a refusal; nil when null or absent.
	StopDetails *StopDetails `json:"stop_details,omitzero"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionThreadStatusRescheduledEvent says a thread is recovering from an
// error (the wire type "session.thread_status_rescheduled").
type SessionThreadStatusRescheduledEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// SessionThreadID is the thread.
	SessionThreadID string `json:"session_thread_id"`
	// AgentName is the name of the thread's agent.
	AgentName string `json:"agent_name"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionThreadStatusTerminatedEvent says a thread finished for good (the
// wire type "session.thread_status_terminated").
type SessionThreadStatusTerminatedEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// SessionThreadID is the thread.
	SessionThreadID string `json:"session_thread_id"`
	// AgentName is the name of the thread's agent.
	AgentName string `json:"agent_name"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A SessionStopReason says why a session or a thread went idle:
// [SessionEndTurn], [SessionRequiresAction], [SessionRetriesExhausted],
// [SessionBudgetReached], [SessionRefusal] or [UnknownSessionStopReason].
type SessionStopReason interface {
	json.Marshaler
	isSessionStopReason()
}

var sessionStopReasonUnion = codec.NewUnion[SessionStopReason]("SessionStopReason", UnknownSessionStopReason{}).
	Add("end_turn", SessionEndTurn{}).
	Add("requires_action", SessionRequiresAction{}).
	Add("retries_exhausted", SessionRetriesExhausted{}).
	Add("budget_reached", SessionBudgetReached{}).
	Add("refusal", SessionRefusal{})

// SessionEndTurn: the agent finished its turn (the wire type "end_turn").
type SessionEndTurn struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionRequiresAction: the session waits for answers to the events
// named (the wire type "requires_action"): tool confirmations and custom
// tool results. Answering only some re-emits the idle event with the rest.
type SessionRequiresAction struct {
	// EventIDs are the blocking events.
	EventIDs []string `json:"event_ids"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionRetriesExhausted: the turn was abandoned after errors (the wire
// type "retries_exhausted").
type SessionRetriesExhausted struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionBudgetReached: the session reached its budget (the wire type
// "budget_reached"); raising the budget resumes it.
type SessionBudgetReached struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownSessionStopReason keeps a stop reason this SDK version cannot
// name.
type UnknownSessionStopReason struct {
	Type string
	Raw  json.RawMessage
}

// A SessionError is the error of a [SessionErrorEvent], one variant per
// error type: [SessionUnknownError] (the service's "unknown_error"),
// [SessionModelOverloadedError], [SessionModelRateLimitedError],
// [SessionModelRequestFailedError], [SessionMCPConnectionFailedError],
// [SessionMCPAuthenticationFailedError], [SessionBillingError],
// [SessionCredentialHostUnreachableError],
// [SessionToolUseLimitReachedError], [SessionCompactionLimitReachedError],
// [SessionRepositoryAuthenticationError], [SessionRepositoryForbiddenError],
// [SessionRepositoryNotFoundError], [SessionRepositoryCheckoutError],
// [SessionRepositoryCloneError], or [UnknownSessionError] for a type this
// SDK version cannot name. Its methods read what every error
// carries.
type SessionError interface {
	json.Marshaler
	isSessionError()
	// ErrorType is the error's wire type ("model_overloaded_error").
	ErrorType() string
	// ErrorMessage is the error's message.
	ErrorMessage() string
	// ErrorRetryStatus is the type of its retry status:
	// [RetryStatusRetrying], [RetryStatusExhausted], [RetryStatusTerminal],
	// another type as sent, or "" when it has none.
	ErrorRetryStatus() string
}

var sessionErrorUnion = codec.NewUnion[SessionError]("SessionError", UnknownSessionError{}).
	Add("unknown_error", SessionUnknownError{}).
	Add("model_overloaded_error", SessionModelOverloadedError{}).
	Add("model_rate_limited_error", SessionModelRateLimitedError{}).
	Add("model_request_failed_error", SessionModelRequestFailedError{}).
	Add("mcp_connection_failed_error", SessionMCPConnectionFailedError{}).
	Add("mcp_authentication_failed_error", SessionMCPAuthenticationFailedError{}).
	Add("billing_error", SessionBillingError{}).
	Add("credential_host_unreachable_error", SessionCredentialHostUnreachableError{}).
	Add("tool_use_limit_reached_error", SessionToolUseLimitReachedError{}).
	Add("compaction_limit_reached_error", SessionCompactionLimitReachedError{}).
	Add("repository_authentication_error", SessionRepositoryAuthenticationError{}).
	Add("repository_forbidden_error", SessionRepositoryForbiddenError{}).
	Add("repository_not_found_error", SessionRepositoryNotFoundError{}).
	Add("repository_checkout_error", SessionRepositoryCheckoutError{}).
	Add("repository_clone_error", SessionRepositoryCloneError{})

// SessionUnknownError is an error the service could not classify (the
// wire type "unknown_error"; not to be confused with
// [UnknownSessionError], an error type this SDK version cannot name).
type SessionUnknownError struct {
	Message     string             `json:"message"`
	RetryStatus SessionRetryStatus `json:"retry_status"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionModelOverloadedError: the model was overloaded (the wire type
// "model_overloaded_error").
type SessionModelOverloadedError struct {
	Message     string             `json:"message"`
	RetryStatus SessionRetryStatus `json:"retry_status"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionModelRateLimitedError: the model's rate limit was hit (the wire
// type "model_rate_limited_error").
type SessionModelRateLimitedError struct {
	Message     string             `json:"message"`
	RetryStatus SessionRetryStatus `json:"retry_status"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionModelRequestFailedError: a model request failed (the wire type
// "model_request_failed_error").
type SessionModelRequestFailedError struct {
	Message     string             `json:"message"`
	RetryStatus SessionRetryStatus `json:"retry_status"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionMCPConnectionFailedError: an MCP server could not be reached (the
// wire type "mcp_connection_failed_error").
type SessionMCPConnectionFailedError struct {
	Message     string             `json:"message"`
	RetryStatus SessionRetryStatus `json:"retry_status"`
	// MCPServerName is the server's name.
	MCPServerName string `json:"mcp_server_name"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionMCPAuthenticationFailedError: an MCP server refused the
// credentials (the wire type "mcp_authentication_failed_error").
type SessionMCPAuthenticationFailedError struct {
	Message     string             `json:"message"`
	RetryStatus SessionRetryStatus `json:"retry_status"`
	// MCPServerName is the server's name.
	MCPServerName string `json:"mcp_server_name"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionBillingError: a billing problem stopped the session (the wire
// type "billing_error").
type SessionBillingError struct {
	Message     string             `json:"message"`
	RetryStatus SessionRetryStatus `json:"retry_status"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionCredentialHostUnreachableError: the host of a vault credential
// could not be reached (the wire type "credential_host_unreachable_error").
type SessionCredentialHostUnreachableError struct {
	Message     string             `json:"message"`
	RetryStatus SessionRetryStatus `json:"retry_status"`
	// VaultID and CredentialID name the credential.
	VaultID      string `json:"vault_id"`
	CredentialID string `json:"credential_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownSessionError keeps an error type this SDK version cannot name;
// its methods read the message and retry status from Raw.
type UnknownSessionError struct {
	Type string
	Raw  json.RawMessage
}

// The retry statuses of a [SessionError] (see
// [SessionError.ErrorRetryStatus]).
const (
	// RetryStatusRetrying: the service retries; wait.
	RetryStatusRetrying = "retrying"
	// RetryStatusExhausted: the turn was abandoned and queued input
	// flushed; the session is idle again.
	RetryStatusExhausted = "exhausted"
	// RetryStatusTerminal: the session will terminate.
	RetryStatusTerminal = "terminal"
)

// A SessionRetryStatus says what follows a [SessionError]:
// [SessionRetrying], [SessionRetryExhausted], [SessionRetryTerminal] or
// [UnknownSessionRetryStatus].
type SessionRetryStatus interface {
	json.Marshaler
	isSessionRetryStatus()
}

var sessionRetryStatusUnion = codec.NewUnion[SessionRetryStatus]("SessionRetryStatus", UnknownSessionRetryStatus{}).
	Add(RetryStatusRetrying, SessionRetrying{}).
	Add(RetryStatusExhausted, SessionRetryExhausted{}).
	Add(RetryStatusTerminal, SessionRetryTerminal{})

// SessionRetrying: the service retries (the wire type "retrying").
type SessionRetrying struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionRetryExhausted: the turn was abandoned (the wire type
// "exhausted").
type SessionRetryExhausted struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionRetryTerminal: the session will terminate (the wire type
// "terminal").
type SessionRetryTerminal struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownSessionRetryStatus keeps a retry status this SDK version cannot
// name.
type UnknownSessionRetryStatus struct {
	Type string
	Raw  json.RawMessage
}

// retryStatusType is the wire type of s; "" for nil.
func retryStatusType(s SessionRetryStatus) string {
	switch s := s.(type) {
	case SessionRetrying:
		return RetryStatusRetrying
	case SessionRetryExhausted:
		return RetryStatusExhausted
	case SessionRetryTerminal:
		return RetryStatusTerminal
	case UnknownSessionRetryStatus:
		return s.Type
	}
	return ""
}

// ErrorType returns "unknown_error", the error's wire type.
func (SessionUnknownError) ErrorType() string { return "unknown_error" }

// ErrorMessage returns the error's message.
func (e SessionUnknownError) ErrorMessage() string { return e.Message }

// ErrorRetryStatus returns the type of the error's retry status, or ""
// when it has none.
func (e SessionUnknownError) ErrorRetryStatus() string { return retryStatusType(e.RetryStatus) }

// ErrorType returns "model_overloaded_error", the error's wire type.
func (SessionModelOverloadedError) ErrorType() string { return "model_overloaded_error" }

// ErrorMessage returns the error's message.
func (e SessionModelOverloadedError) ErrorMessage() string { return e.Message }

// ErrorRetryStatus returns the type of the error's retry status, or ""
// when it has none.
func (e SessionModelOverloadedError) ErrorRetryStatus() string { return retryStatusType(e.RetryStatus) }

// ErrorType returns "model_rate_limited_error", the error's wire type.
func (SessionModelRateLimitedError) ErrorType() string { return "model_rate_limited_error" }

// ErrorMessage returns the error's message.
func (e SessionModelRateLimitedError) ErrorMessage() string { return e.Message }

// ErrorRetryStatus returns the type of the error's retry status, or ""
// when it has none.
func (e SessionModelRateLimitedError) ErrorRetryStatus() string {
	return retryStatusType(e.RetryStatus)
}

// ErrorType returns "model_request_failed_error", the error's wire type.
func (SessionModelRequestFailedError) ErrorType() string { return "model_request_failed_error" }

// ErrorMessage returns the error's message.
func (e SessionModelRequestFailedError) ErrorMessage() string { return e.Message }

// ErrorRetryStatus returns the type of the error's retry status, or ""
// when it has none.
func (e SessionModelRequestFailedError) ErrorRetryStatus() string {
	return retryStatusType(e.RetryStatus)
}

// ErrorType returns "mcp_connection_failed_error", the error's wire type.
func (SessionMCPConnectionFailedError) ErrorType() string { return "mcp_connection_failed_error" }

// ErrorMessage returns the error's message.
func (e SessionMCPConnectionFailedError) ErrorMessage() string { return e.Message }

// ErrorRetryStatus returns the type of the error's retry status, or ""
// when it has none.
func (e SessionMCPConnectionFailedError) ErrorRetryStatus() string {
	return retryStatusType(e.RetryStatus)
}

// ErrorType returns "mcp_authentication_failed_error", the error's wire type.
func (SessionMCPAuthenticationFailedError) ErrorType() string {
	return "mcp_authentication_failed_error"
}

// ErrorMessage returns the error's message.
func (e SessionMCPAuthenticationFailedError) ErrorMessage() string { return e.Message }

// ErrorRetryStatus returns the type of the error's retry status, or ""
// when it has none.
func (e SessionMCPAuthenticationFailedError) ErrorRetryStatus() string {
	return retryStatusType(e.RetryStatus)
}

// ErrorType returns "billing_error", the error's wire type.
func (SessionBillingError) ErrorType() string { return "billing_error" }

// ErrorMessage returns the error's message.
func (e SessionBillingError) ErrorMessage() string { return e.Message }

// ErrorRetryStatus returns the type of the error's retry status, or ""
// when it has none.
func (e SessionBillingError) ErrorRetryStatus() string { return retryStatusType(e.RetryStatus) }

// ErrorType returns "credential_host_unreachable_error", the error's wire type.
func (SessionCredentialHostUnreachableError) ErrorType() string {
	return "credential_host_unreachable_error"
}

// ErrorMessage returns the error's message.
func (e SessionCredentialHostUnreachableError) ErrorMessage() string { return e.Message }

// ErrorRetryStatus returns the type of the error's retry status, or ""
// when it has none.
func (e SessionCredentialHostUnreachableError) ErrorRetryStatus() string {
	return retryStatusType(e.RetryStatus)
}

// ErrorType returns the error's wire type as sent.
func (u UnknownSessionError) ErrorType() string { return u.Type }

// ErrorMessage returns the error's message.
func (u UnknownSessionError) ErrorMessage() string { return rawStringMember(u.Raw, "message") }

// ErrorRetryStatus returns the type of the error's retry status, or ""
// when it has none.
func (u UnknownSessionError) ErrorRetryStatus() string {
	return rawStringMember(codec.Member(u.Raw, "retry_status"), "type")
}
