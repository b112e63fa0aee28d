package mms

import (
	"encoding/json"
	"fmt"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// The workflow_run.* events: background work the session's agent starts
// (its multiagent_20261001 config with workflows enabled), from
// workflow_run.created to workflow_run.status_ended.

// WorkflowRunCreatedEvent says a workflow run was created (the wire type
// "workflow_run.created"), once per run, before its other events.
type WorkflowRunCreatedEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// WorkflowRunID identifies the run.
	WorkflowRunID string `json:"workflow_run_id"`
	// Name is the run's name.
	Name string `json:"name"`
	// Description says what the run does; nil when null.
	Description *string `json:"description"`
	// Phases is the run's plan, in order; may be empty.
	Phases []WorkflowRunPhase `json:"phases"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkflowRunPhase is one phase of a workflow run's plan.
//
//mms:json
type WorkflowRunPhase struct {
	// ID identifies the phase; phase events name it as
	// workflow_run_phase_id.
	ID string `json:"id"`
	// Name is the phase's name.
	Name string `json:"name"`
	// Description says what the phase does; nil when null.
	Description *string `json:"description"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkflowRunStatusRunningEvent says a workflow run started working (the
// wire type "workflow_run.status_running").
type WorkflowRunStatusRunningEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// WorkflowRunID identifies the run.
	WorkflowRunID string `json:"workflow_run_id"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkflowRunStatusIdleEvent says a workflow run went idle (the wire type
// "workflow_run.status_idle"), each time it does.
type WorkflowRunStatusIdleEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// WorkflowRunID identifies the run.
	WorkflowRunID string `json:"workflow_run_id"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkflowRunPhaseStartedEvent says a phase of a workflow run started (the
// wire type "workflow_run.phase_started").
type WorkflowRunPhaseStartedEvent struct {
	// ID identifies the event; the phase's end names it as
	// phase_started_id.
	ID string `json:"id"`
	// WorkflowRunID identifies the run.
	WorkflowRunID string `json:"workflow_run_id"`
	// WorkflowRunPhaseID is the phase (a [WorkflowRunPhase] ID).
	WorkflowRunPhaseID string `json:"workflow_run_phase_id"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkflowRunPhaseEndedEvent says a phase of a workflow run ended (the
// wire type "workflow_run.phase_ended").
type WorkflowRunPhaseEndedEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// WorkflowRunID identifies the run.
	WorkflowRunID string `json:"workflow_run_id"`
	// WorkflowRunPhaseID is the phase.
	WorkflowRunPhaseID string `json:"workflow_run_phase_id"`
	// PhaseStartedID is the workflow_run.phase_started event this ends.
	PhaseStartedID string `json:"phase_started_id"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkflowRunErrorEvent reports an error of a workflow run (the wire type
// "workflow_run.error"). With [WorkflowRunMaxRunsError] no run was
// created: the session is at its limit of open runs.
type WorkflowRunErrorEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// WorkflowRunID identifies the run.
	WorkflowRunID string `json:"workflow_run_id"`
	// Error is the error.
	Error WorkflowRunError `json:"error"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkflowRunStatusEndedEvent says a workflow run ended (the wire type
// "workflow_run.status_ended"), once per run, after its other events.
type WorkflowRunStatusEndedEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// WorkflowRunID identifies the run.
	WorkflowRunID string `json:"workflow_run_id"`
	// Result is how it ended: [WorkflowRunCompleted],
	// [WorkflowRunStopped], [WorkflowRunFailed] or
	// [UnknownWorkflowRunResult].
	Result WorkflowRunResult `json:"result"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// The error types of a [WorkflowRunError]. Unknown values pass through.
const (
	// WorkflowRunTimeoutError: the run hit its time limit.
	WorkflowRunTimeoutError = "timeout_error"
	// WorkflowRunProgramError: the agent-written plan failed or was
	// refused.
	WorkflowRunProgramError = "program_error"
	// WorkflowRunThreadLimitError: the run started too many threads.
	WorkflowRunThreadLimitError = "thread_limit_error"
	// WorkflowRunMaxRunsError: the session is at its limit of open runs;
	// only on workflow_run.error, and no run was created.
	WorkflowRunMaxRunsError = "max_workflow_runs_error"
	// WorkflowRunUnknownError: the service could not classify the error.
	WorkflowRunUnknownError = "unknown_error"
)

// WorkflowRunError is the error of a workflow run.
//
//mms:json
type WorkflowRunError struct {
	// Type is the error's type, one of the WorkflowRun…Error constants or
	// another as sent.
	Type string `json:"type"`
	// Message says what went wrong.
	Message string `json:"message"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Error formats the error's type and message.
func (e WorkflowRunError) Error() string {
	return fmt.Sprintf("workflow run %s: %s", e.Type, e.Message)
}

// A WorkflowRunResult says how a workflow run ended:
// [WorkflowRunCompleted], [WorkflowRunStopped], [WorkflowRunFailed] or
// [UnknownWorkflowRunResult].
type WorkflowRunResult interface {
	json.Marshaler
	isWorkflowRunResult()
}

var workflowRunResultUnion = codec.NewUnion[WorkflowRunResult]("WorkflowRunResult", UnknownWorkflowRunResult{}).
	Add("completed", WorkflowRunCompleted{}).
	Add("stopped", WorkflowRunStopped{}).
	Add("error", WorkflowRunFailed{})

// WorkflowRunCompleted: the run finished its plan (the wire type
// "completed").
type WorkflowRunCompleted struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkflowRunStopped: the agent stopped the run (the wire type
// "stopped").
type WorkflowRunStopped struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkflowRunFailed: the run ended with an error (the wire type "error").
type WorkflowRunFailed struct {
	// Error is the error.
	Error WorkflowRunError `json:"error"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownWorkflowRunResult keeps a result this SDK version cannot name.
type UnknownWorkflowRunResult struct {
	Type string
	Raw  json.RawMessage
}
