package mms

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// TestSessionEventTypesEnumMatchesUnion: the types[] enum the fake
// enforces is the event union's stored types (previews apart).
func TestSessionEventTypesEnumMatchesUnion(t *testing.T) {
	var union []string
	for typ := range maps.Keys(sessionEventUnion.Types()) {
		if typ != "event_start" && typ != "event_delta" {
			union = append(union, typ)
		}
	}
	slices.Sort(union)
	if diff := cmp.Diff(union, slices.Sorted(slices.Values(wire.SessionEventTypes))); diff != "" {
		t.Errorf("(-union +wire.SessionEventTypes):\n%s", diff)
	}
}

// TestWorkflowRunTypedValues pins the decoded workflow_run.* values, the
// refusal's stop details and the R2 session errors.
func TestWorkflowRunTypedValues(t *testing.T) {
	run := "wfrun_011CZkZ9Hn3mQx7vL2pR8s4D"
	for _, tt := range []struct {
		file string
		want SessionEvent
	}{
		{"workflow_run_created.json", WorkflowRunCreatedEvent{ID: "sevt_011CZkZ0121q4m7Lx2m8yR3v7a", WorkflowRunID: run, Name: "triage",
			Description: Ptr("sort the open issues"), Phases: []WorkflowRunPhase{{ID: "wfphase_01", Name: "collect", Description: Ptr("read every issue")},
				{ID: "wfphase_02", Name: "label"}}, ProcessedAt: "2026-04-02T10:02:21.000Z"}},
		{"workflow_run_phase_ended.json", WorkflowRunPhaseEndedEvent{ID: "sevt_011CZkZ0126q4m7Lx2m8yR3v7a", WorkflowRunID: run,
			WorkflowRunPhaseID: "wfphase_01", PhaseStartedID: "sevt_011CZkZ0125q4m7Lx2m8yR3v7a", ProcessedAt: "2026-04-02T10:02:26.000Z"}},
		{"workflow_run_error.json", WorkflowRunErrorEvent{ID: "sevt_011CZkZ0127q4m7Lx2m8yR3v7a", WorkflowRunID: run,
			Error:       WorkflowRunError{Type: WorkflowRunMaxRunsError, Message: "The session has too many open workflow runs."},
			ProcessedAt: "2026-04-02T10:02:27.000Z"}},
		{"workflow_run_status_ended_error.json", WorkflowRunStatusEndedEvent{ID: "sevt_011CZkZ0130q4m7Lx2m8yR3v7a", WorkflowRunID: run,
			Result:      WorkflowRunFailed{Error: WorkflowRunError{Type: WorkflowRunProgramError, Message: "The plan failed."}},
			ProcessedAt: "2026-04-02T10:02:30.000Z"}},
		{"session_status_idle_refusal.json", SessionStatusIdleEvent{ID: "sevt_011CZkZ0060q4m7Lx2m8yR3v7a", StopReason: SessionRefusal{},
			StopDetails: &StopDetails{Type: "refusal", Category: RefusalCategoryCyber, Explanation: Ptr("The request asked for a working exploit.")},
			ProcessedAt: "2026-04-02T10:01:00.000Z"}},
		{"session_status_idle_no_stop_details.json", SessionStatusIdleEvent{ID: "sevt_011CZkZ0062q4m7Lx2m8yR3v7a", StopReason: SessionEndTurn{},
			ProcessedAt: "2026-04-02T10:01:02.000Z", Extra: map[string]json.RawMessage{"stop_details": json.RawMessage("null")}}},
		{"session_error_repository_clone_error.json", SessionErrorEvent{ID: "sevt_011CZkZ0114q4m7Lx2m8yR3v7a",
			Error: SessionRepositoryCloneError{Message: "repository_clone_error happened", RetryStatus: SessionRetryTerminal{},
				RepositoryURL: "https://github.com/o/r"}, ProcessedAt: "2026-04-02T10:02:14.000Z"}},
		{"session_thread_created_workflow.json", SessionThreadCreatedEvent{ID: "sevt_011CZkZ0120q4m7Lx2m8yR3v7a",
			SessionThreadID: "sthr_011CZkZ9Hn3mQx7vL2pR8s4E", AgentName: "planner", WorkflowRunID: &run, ProcessedAt: "2026-04-02T10:02:20.000Z"}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			ev, err := sessionEventUnion.Decode(readEventGolden(t, tt.file))
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, ev); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	e := SessionToolUseLimitReachedError{Message: "m", RetryStatus: SessionRetryExhausted{}}
	if e.ErrorType() != "tool_use_limit_reached_error" || e.ErrorMessage() != "m" || e.ErrorRetryStatus() != RetryStatusExhausted {
		t.Errorf("accessors %q %q %q", e.ErrorType(), e.ErrorMessage(), e.ErrorRetryStatus())
	}
}
