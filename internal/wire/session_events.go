package wire

// SessionEventTypes is the closed enum of a session events list's
// types[] filter (R2): every stored event type, workflow_run.* included.
// The fake refuses other values; the SDK sends what it is given.
var SessionEventTypes = []string{
	"user.message", "user.interrupt", "user.tool_confirmation", "user.custom_tool_result", "user.tool_result",
	"user.define_outcome", "system.message",
	"agent.message", "agent.thinking", "agent.tool_use", "agent.tool_result", "agent.mcp_tool_use",
	"agent.mcp_tool_result", "agent.custom_tool_use", "agent.thread_context_compacted",
	"agent.thread_message_sent", "agent.thread_message_received",
	"session.status_running", "session.status_idle", "session.status_rescheduled", "session.status_terminated",
	"session.error", "session.deleted", "session.updated", "session.usage",
	"session.thread_created", "session.thread_status_running", "session.thread_status_idle",
	"session.thread_status_rescheduled", "session.thread_status_terminated",
	"span.model_request_start", "span.model_request_end", "span.outcome_evaluation_start",
	"span.outcome_evaluation_ongoing", "span.outcome_evaluation_end",
	"workflow_run.created", "workflow_run.status_running", "workflow_run.status_idle",
	"workflow_run.phase_started", "workflow_run.phase_ended", "workflow_run.error", "workflow_run.status_ended",
}

// ThreadStatuses are the values of a thread list's statuses[] filter.
var ThreadStatuses = []string{"running", "idle", "rescheduling", "terminated"}
