package mms

import (
	"encoding/json"
	"reflect"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// The agent.* events: what the agent said, thought and called.

// AgentMessageEvent is a message of the agent (the wire type
// "agent.message").
type AgentMessageEvent struct {
	// ID identifies the event ("sevt_…").
	ID string `json:"id"`
	// Content is the message's blocks: text and redacted.
	Content []SessionContentBlock `json:"content"`
	// ProcessedAt is when the service processed the event (RFC 3339).
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AgentThinkingEvent says the agent is thinking (the wire type
// "agent.thinking"): a progress signal with no content.
type AgentThinkingEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AgentToolUseEvent is a call of a built-in tool (the wire type
// "agent.tool_use"). [AgentToolUseEvent.Permission] says whether it waits
// for a user.tool_confirmation.
type AgentToolUseEvent struct {
	// ID identifies the event; a confirmation or a user.tool_result names
	// it as its tool_use_id.
	ID string `json:"id"`
	// Name is the tool's name.
	Name string `json:"name"`
	// Input is the tool's input, a JSON object.
	Input json.RawMessage `json:"input"`
	// EvaluatedPermission is the permission policy's verdict; nil when
	// absent or null.
	EvaluatedPermission *ToolPermission `json:"evaluated_permission,omitzero"`
	// Evaluation is the verdict under its newer name (newer services send
	// evaluation, older ones evaluated_permission); nil when absent or null.
	// R2 sends a policy here (always_allow, always_ask, or auto with its
	// evaluated_permission); [ToolPermission.EvaluatedVerdict] reads it.
	Evaluation *ToolPermission `json:"evaluation,omitzero"`
	// SessionThreadID is the sub-agent thread the call was cross-posted
	// from; nil when null or absent.
	SessionThreadID *string `json:"session_thread_id,omitzero"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AgentToolResultEvent is the result of a built-in tool (the wire type
// "agent.tool_result").
type AgentToolResultEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// ToolUseID is the agent.tool_use answered.
	ToolUseID string `json:"tool_use_id"`
	// Content is the result's blocks; nil when absent.
	Content []SessionContentBlock `json:"content,omitzero"`
	// IsError reports a failed call.
	IsError bool `json:"is_error,omitzero"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AgentMCPToolUseEvent is a call of an MCP server's tool (the wire type
// "agent.mcp_tool_use"). [AgentMCPToolUseEvent.Permission] says whether it
// waits for a user.tool_confirmation.
type AgentMCPToolUseEvent struct {
	// ID identifies the event; a confirmation names it as its
	// tool_use_id.
	ID string `json:"id"`
	// Name is the tool's name.
	Name string `json:"name"`
	// MCPServerName is the server's name.
	MCPServerName string `json:"mcp_server_name"`
	// Input is the tool's input, a JSON object.
	Input json.RawMessage `json:"input"`
	// EvaluatedPermission is the permission policy's verdict; nil when
	// absent or null.
	EvaluatedPermission *ToolPermission `json:"evaluated_permission,omitzero"`
	// Evaluation is the verdict under its newer name (newer services send
	// evaluation, older ones evaluated_permission); nil when absent or null.
	// R2 sends a policy here (always_allow, always_ask, or auto with its
	// evaluated_permission); [ToolPermission.EvaluatedVerdict] reads it.
	Evaluation *ToolPermission `json:"evaluation,omitzero"`
	// SessionThreadID is the sub-agent thread the call was cross-posted
	// from; nil when null or absent.
	SessionThreadID *string `json:"session_thread_id,omitzero"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AgentMCPToolResultEvent is the result of an MCP tool (the wire type
// "agent.mcp_tool_result").
type AgentMCPToolResultEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// MCPToolUseID is the agent.mcp_tool_use answered.
	MCPToolUseID string `json:"mcp_tool_use_id"`
	// Content is the result's blocks; nil when absent.
	Content []SessionContentBlock `json:"content,omitzero"`
	// IsError reports a failed call.
	IsError bool `json:"is_error,omitzero"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AgentCustomToolUseEvent is a call of one of the agent's custom tools
// (the wire type "agent.custom_tool_use"): the client runs it and answers
// with a user.custom_tool_result; the session is idle until then.
type AgentCustomToolUseEvent struct {
	// ID identifies the event; the result names it as its
	// custom_tool_use_id.
	ID string `json:"id"`
	// Name is the tool's name.
	Name string `json:"name"`
	// Input is the tool's input, a JSON object.
	Input json.RawMessage `json:"input"`
	// SessionThreadID is the sub-agent thread the call was cross-posted
	// from; nil when null or absent.
	SessionThreadID *string `json:"session_thread_id,omitzero"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AgentThreadContextCompactedEvent says a thread's context was compacted
// (the wire type "agent.thread_context_compacted").
type AgentThreadContextCompactedEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AgentThreadMessageSentEvent is a message an agent sent to another
// thread (the wire type "agent.thread_message_sent").
type AgentThreadMessageSentEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// ToSessionThreadID is the receiving thread.
	ToSessionThreadID string `json:"to_session_thread_id"`
	// ToAgentName is the receiving agent's name; "" when absent.
	ToAgentName string `json:"to_agent_name,omitzero"`
	// Content is the message's blocks.
	Content []SessionContentBlock `json:"content"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AgentThreadMessageReceivedEvent is a message an agent received from
// another thread (the wire type "agent.thread_message_received").
type AgentThreadMessageReceivedEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// FromSessionThreadID is the sending thread.
	FromSessionThreadID string `json:"from_session_thread_id"`
	// FromAgentName is the sending agent's name; "" when absent.
	FromAgentName string `json:"from_agent_name,omitzero"`
	// Content is the message's blocks.
	Content []SessionContentBlock `json:"content"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// The verdicts of a permission policy on a tool call (see
// [AgentToolUseEvent.Permission]).
const (
	// PermissionAllow: the call runs without asking.
	PermissionAllow = "allow"
	// PermissionAsk: the call waits for a user.tool_confirmation.
	PermissionAsk = "ask"
	// PermissionDeny: the call is refused.
	PermissionDeny = "deny"
)

// ToolPermission is a permission policy's verdict on a tool call: the
// evaluated_permission or evaluation member of [AgentToolUseEvent] and
// [AgentMCPToolUseEvent]. The service has sent it both as a bare string
// ("ask", the older form) and as an object
// ({"type":"deny","reason_code":"high_risk"}, the newer one); both decode
// here, and each encodes back in the form it came in.
//
//mms:json spec=toolPermissionSpec
type ToolPermission struct {
	// Type is the verdict: [PermissionAllow], [PermissionAsk],
	// [PermissionDeny]; other values pass through.
	Type string `json:"type"`
	// ReasonCode says why, e.g. "indeterminate" or "high_risk"; "" when
	// absent.
	ReasonCode string `json:"reason_code,omitzero"`
	// Bare records that the verdict came as a bare JSON string: it is
	// written back as one while ReasonCode and Extra are empty.
	Bare bool `json:"-"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// toolPermissionSpec reads a verdict given as a bare string or as an
// object and writes it back in the same form.
var toolPermissionSpec = codec.Spec{
	Encode: func(e *codec.Encoder, v reflect.Value) error {
		if p := v.Interface().(ToolPermission); p.Bare && p.ReasonCode == "" && len(p.Extra) == 0 {
			e.String(p.Type)
			return nil
		}
		return e.Struct(v)
	},
	Decode: func(data []byte, v reflect.Value) error {
		p := v.Addr().Interface().(*ToolPermission)
		*p = ToolPermission{}
		if len(data) > 0 && data[0] == '"' {
			s, err := codec.Unquote(data)
			p.Type, p.Bare = s, true
			return err
		}
		return codec.DecodeStruct(data, v)
	},
}

// Permission is the verdict on the call: [PermissionAllow] when the event
// carries none, [PermissionAsk] for a verdict this SDK version does not know
// (the service may add verdicts; asking is the safe reading), and the
// stricter one when evaluated_permission and evaluation disagree.
func (e AgentToolUseEvent) Permission() string {
	return permissionOf(e.EvaluatedPermission, evaluationVerdict(e.Evaluation))
}

// Permission is the verdict on the call, as [AgentToolUseEvent.Permission].
func (e AgentMCPToolUseEvent) Permission() string {
	return permissionOf(e.EvaluatedPermission, evaluationVerdict(e.Evaluation))
}

// permissionOf is the strictest of the verdicts given, unknown ones read
// as "ask"; "allow" when there is none.
func permissionOf(verdicts ...*ToolPermission) string {
	out := PermissionAllow
	for _, p := range verdicts {
		if p == nil {
			continue
		}
		v := p.Type
		if permissionRank(v) < 0 {
			v = PermissionAsk
		}
		if permissionRank(v) > permissionRank(out) {
			out = v
		}
	}
	return out
}

// permissionRank orders the known verdicts by strictness; -1 for others.
func permissionRank(v string) int {
	switch v {
	case PermissionAllow:
		return 0
	case PermissionAsk:
		return 1
	case PermissionDeny:
		return 2
	}
	return -1
}
