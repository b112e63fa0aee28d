package mms

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sessionEventGoldens are the recorded-shape event files
// (testdata/golden/sessions/events), each with the Go type it decodes to
// and the unions inside that fall back to Unknown.
var sessionEventGoldens = []struct {
	file    string
	goType  string
	unknown []string
}{
	{"user_message.json", "UserMessageEvent", nil},
	{"user_message_queued.json", "UserMessageEvent", nil},
	{"user_interrupt.json", "UserInterruptEvent", nil},
	{"user_interrupt_no_id.json", "UserInterruptEvent", nil},
	{"user_tool_confirmation_allow.json", "UserToolConfirmationEvent", nil},
	{"user_tool_confirmation_deny.json", "UserToolConfirmationEvent", nil},
	{"user_custom_tool_result.json", "UserCustomToolResultEvent", nil},
	{"user_tool_result.json", "UserToolResultEvent", nil},
	{"user_define_outcome_text.json", "UserDefineOutcomeEvent", nil},
	{"user_define_outcome_file.json", "UserDefineOutcomeEvent", nil},
	{"system_message.json", "SystemMessageEvent", nil},
	{"agent_message.json", "AgentMessageEvent", nil},
	{"agent_thinking.json", "AgentThinkingEvent", nil},
	{"agent_tool_use_permission_string.json", "AgentToolUseEvent", nil},
	{"agent_tool_use_permission_object.json", "AgentToolUseEvent", nil},
	{"agent_tool_use_evaluation.json", "AgentToolUseEvent", nil},
	{"agent_tool_use_no_permission.json", "AgentToolUseEvent", nil},
	{"agent_tool_result.json", "AgentToolResultEvent", nil},
	{"agent_mcp_tool_use.json", "AgentMCPToolUseEvent", nil},
	{"agent_mcp_tool_use_unknown_verdict.json", "AgentMCPToolUseEvent", nil},
	{"agent_mcp_tool_result.json", "AgentMCPToolResultEvent", nil},
	{"agent_custom_tool_use.json", "AgentCustomToolUseEvent", nil},
	{"agent_thread_context_compacted.json", "AgentThreadContextCompactedEvent", nil},
	{"agent_thread_message_sent.json", "AgentThreadMessageSentEvent", nil},
	{"agent_thread_message_received.json", "AgentThreadMessageReceivedEvent", nil},
	{"session_status_running.json", "SessionStatusRunningEvent", nil},
	{"session_status_idle_end_turn.json", "SessionStatusIdleEvent", nil},
	{"session_status_idle_requires_action.json", "SessionStatusIdleEvent", nil},
	{"session_status_idle_retries_exhausted.json", "SessionStatusIdleEvent", nil},
	{"session_status_idle_budget_reached.json", "SessionStatusIdleEvent", nil},
	{"session_status_idle_unknown_reason.json", "SessionStatusIdleEvent", []string{".StopReason: UnknownSessionStopReason"}},
	{"session_status_rescheduled.json", "SessionStatusRescheduledEvent", nil},
	{"session_status_terminated.json", "SessionStatusTerminatedEvent", nil},
	{"session_error_unknown_error.json", "SessionErrorEvent", nil},
	{"session_error_model_overloaded_error.json", "SessionErrorEvent", nil},
	{"session_error_model_rate_limited_error.json", "SessionErrorEvent", nil},
	{"session_error_model_request_failed_error.json", "SessionErrorEvent", nil},
	{"session_error_mcp_connection_failed_error.json", "SessionErrorEvent", nil},
	{"session_error_mcp_authentication_failed_error.json", "SessionErrorEvent", nil},
	{"session_error_billing_error.json", "SessionErrorEvent", nil},
	{"session_error_credential_host_unreachable_error.json", "SessionErrorEvent", nil},
	{"session_error_unknown_type.json", "SessionErrorEvent", []string{".Error: UnknownSessionError"}},
	{"session_error_unknown_retry_status.json", "SessionErrorEvent", []string{".Error.RetryStatus: UnknownSessionRetryStatus"}},
	{"session_deleted.json", "SessionDeletedEvent", nil},
	{"session_updated.json", "SessionUpdatedEvent", nil},
	{"session_updated_cleared.json", "SessionUpdatedEvent", nil},
	{"session_usage.json", "SessionUsageEvent", nil},
	{"session_thread_created.json", "SessionThreadCreatedEvent", nil},
	{"session_thread_status_running.json", "SessionThreadStatusRunningEvent", nil},
	{"session_thread_status_idle.json", "SessionThreadStatusIdleEvent", nil},
	{"session_thread_status_rescheduled.json", "SessionThreadStatusRescheduledEvent", nil},
	{"session_thread_status_terminated.json", "SessionThreadStatusTerminatedEvent", nil},
	{"span_model_request_start.json", "SpanModelRequestStartEvent", nil},
	{"span_model_request_end.json", "SpanModelRequestEndEvent", nil},
	{"span_model_request_end_error.json", "SpanModelRequestEndEvent", nil},
	{"span_outcome_evaluation_start.json", "SpanOutcomeEvaluationStartEvent", nil},
	{"span_outcome_evaluation_ongoing.json", "SpanOutcomeEvaluationOngoingEvent", nil},
	{"span_outcome_evaluation_end.json", "SpanOutcomeEvaluationEndEvent", nil},
	{"event_start.json", "SessionEventStart", nil},
	{"event_delta.json", "SessionEventDelta", nil},
	{"event_delta_no_index.json", "SessionEventDelta", nil},
	{"event_delta_unknown_delta.json", "SessionEventDelta", []string{".Delta: UnknownSessionEventDeltaBody"}},
	{"unknown_event.json", "UnknownSessionEvent", []string{": UnknownSessionEvent"}},
	{"unknown_members.json", "AgentMessageEvent", []string{".Content[1]: UnknownSessionContentBlock"}},
}

// readEventGolden reads testdata/golden/sessions/events/<name>.
func readEventGolden(t testing.TB, name string) []byte {
	t.Helper()
	return readGolden(t, filepath.Join("sessions", "events"), name)
}

// TestSessionEventGoldenRoundTrip decodes every golden event through the
// union (as list pages do) and through decodeSessionEvent (as the stream
// does), checks the variant, the unions that fell back to Unknown and the
// accessors against the file read by encoding/json, and re-encodes it
// losslessly.
func TestSessionEventGoldenRoundTrip(t *testing.T) {
	for _, g := range sessionEventGoldens {
		t.Run(g.file, func(t *testing.T) {
			data := readEventGolden(t, g.file)
			ev, err := sessionEventUnion.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			if got := reflect.TypeOf(ev).Name(); got != g.goType {
				t.Errorf("type %s, want %s", got, g.goType)
			}
			if diff := cmp.Diff(g.unknown, findUnknown("", reflect.ValueOf(ev))); diff != "" {
				t.Errorf("unknown variants (-want +got):\n%s", diff)
			}
			out, err := json.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			requireJSONEqual(t, data, out)

			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			typ, _ := m["type"].(string)
			id, _ := m["id"].(string)
			at, _ := m["processed_at"].(string)
			if typ == "event_start" || typ == "event_delta" {
				id = "" // a preview has no id of its own
			}
			if ev.EventID() != id || ev.EventType() != typ || ev.processedAt() != at {
				t.Errorf("EventID %q EventType %q processedAt %q, want %q %q %q", ev.EventID(), ev.EventType(), ev.processedAt(), id, typ, at)
			}

			streamed, err := decodeSessionEvent("message", data)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(ev, streamed, cmpUpdates); diff != "" {
				t.Errorf("decodeSessionEvent differs from the union (-union +stream):\n%s", diff)
			}
		})
	}
}

// cmpUpdates compares the Update fields of session.updated.
var cmpUpdates = cmp.AllowUnexported(Update[string]{}, Update[SessionBudget]{})

// TestSessionEventGoldensCoverEveryVariant fails when a variant of the
// event union or of a union an event carries has no golden file.
func TestSessionEventGoldensCoverEveryVariant(t *testing.T) {
	var seen []string
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		case reflect.Struct:
			seen = append(seen, v.Type().Name())
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		}
	}
	entries, err := os.ReadDir(filepath.Join("testdata", "golden", "sessions", "events"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, g := range sessionEventGoldens {
		listed[g.file] = true
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "request_") {
			continue
		}
		if !listed[e.Name()] {
			t.Errorf("golden %s is not in sessionEventGoldens", e.Name())
		}
		ev, err := sessionEventUnion.Decode(readEventGolden(t, e.Name()))
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		walk(reflect.ValueOf(ev))
	}
	want := map[string]map[string]reflect.Type{
		"SessionEvent":          sessionEventUnion.Types(),
		"SessionStopReason":     sessionStopReasonUnion.Types(),
		"SessionError":          sessionErrorUnion.Types(),
		"SessionRetryStatus":    sessionRetryStatusUnion.Types(),
		"SessionEventDeltaBody": sessionEventDeltaBodyUnion.Types(),
	}
	for union, types := range want {
		for wire, typ := range types {
			if !slices.Contains(seen, typ.Name()) {
				t.Errorf("%s variant %s (%q) has no golden", union, typ.Name(), wire)
			}
		}
	}
	for _, unknown := range []string{"UnknownSessionEvent", "UnknownSessionStopReason", "UnknownSessionError",
		"UnknownSessionRetryStatus", "UnknownSessionEventDeltaBody", "UnknownSessionContentBlock", "SearchResultBlock", "RedactedBlock"} {
		if !slices.Contains(seen, unknown) {
			t.Errorf("no golden holds a %s", unknown)
		}
	}
}

// TestSessionEventVariantsAccessors checks that every variant of the
// table answers EventType with the wire type it is registered under and
// EventID with its ID field.
func TestSessionEventVariantsAccessors(t *testing.T) {
	for wire, typ := range sessionEventUnion.Types() {
		v := reflect.New(typ).Elem()
		if f := v.FieldByName("ID"); f.IsValid() {
			f.SetString("sevt_x")
		} else if wire != "event_start" && wire != "event_delta" {
			t.Errorf("%s has no ID field", typ.Name())
		}
		if f := v.FieldByName("ProcessedAt"); f.IsValid() {
			f.SetString("2026-04-02T10:00:00Z")
		}
		ev := v.Interface().(SessionEvent)
		wantID, wantAt := "sevt_x", "2026-04-02T10:00:00Z"
		if wire == "event_start" || wire == "event_delta" {
			wantID, wantAt = "", ""
		}
		if ev.EventType() != wire || ev.EventID() != wantID || ev.processedAt() != wantAt {
			t.Errorf("%s: EventType %q EventID %q processedAt %q", typ.Name(), ev.EventType(), ev.EventID(), ev.processedAt())
		}
	}
}

// TestSessionEventTypedValues pins the decoded values where the wire's
// shape matters: nullable and absent members, both permission forms, the
// presence of session.updated's fields, stop reasons, errors and previews.
func TestSessionEventTypedValues(t *testing.T) {
	th := "sthr_011CZkZ9Hn3mQx7vL2pR8s4D"
	null := json.RawMessage("null")
	for _, tt := range []struct {
		file string
		want SessionEvent
	}{
		{"user_message_queued.json", UserMessageEvent{ID: "sevt_011CZkZ0002q4m7Lx2m8yR3v7a",
			Content: []SessionContentBlock{TextBlock{Text: "And tomorrow?"}}, Extra: map[string]json.RawMessage{"processed_at": null}}},
		{"user_interrupt_no_id.json", UserInterruptEvent{SessionThreadID: &th, Extra: map[string]json.RawMessage{"processed_at": null}}},
		{"user_tool_confirmation_allow.json", UserToolConfirmationEvent{ID: "sevt_011CZkZ0004q4m7Lx2m8yR3v7a",
			ToolUseID: "sevt_011CZkZ0007q4m7Lx2m8yR3v7a", Result: ToolConfirmationAllow, SessionThreadID: &th,
			ProcessedAt: "2026-04-02T10:00:03.411Z", Extra: map[string]json.RawMessage{"deny_message": null}}},
		{"user_tool_confirmation_deny.json", UserToolConfirmationEvent{ID: "sevt_011CZkZ0005q4m7Lx2m8yR3v7a",
			ToolUseID: "sevt_011CZkZ0008q4m7Lx2m8yR3v7a", Result: ToolConfirmationDeny, DenyMessage: "not on production",
			Extra: map[string]json.RawMessage{"processed_at": null}}},
		{"user_tool_result.json", UserToolResultEvent{ID: "sevt_011CZkZ0007q4m7Lx2m8yR3v7a", ToolUseID: "sevt_011CZkZ0009q4m7Lx2m8yR3v7a",
			Content: []SessionContentBlock{SearchResultBlock{Source: "https://example.com/doc", Title: "Doc",
				Content: ContentBlocks{TextBlock{Text: "found it"}}, Citations: &CitationsConfig{Enabled: Ptr(true)}}},
			IsError: true, ProcessedAt: "2026-04-02T10:00:05.685Z"}},
		{"user_define_outcome_text.json", UserDefineOutcomeEvent{ID: "sevt_011CZkZ0008q4m7Lx2m8yR3v7a", OutcomeID: "outc_011CZkZBx4Tq",
			Description: "A weekly weather report", Rubric: TextRubric{Content: "Covers seven days"},
			ProcessedAt: "2026-04-02T10:00:06.822Z", Extra: map[string]json.RawMessage{"max_iterations": null}}},
		{"user_define_outcome_file.json", UserDefineOutcomeEvent{ID: "sevt_011CZkZ0009q4m7Lx2m8yR3v7a", OutcomeID: "outc_011CZkZCy5Ur",
			Description: "A summary", Rubric: FileRubric{FileID: "file_011CZkZDz6Vs"}, MaxIterations: Ptr(5),
			ProcessedAt: "2026-04-02T10:00:07.959Z"}},
		{"agent_message.json", AgentMessageEvent{ID: "sevt_011CZkZ0011q4m7Lx2m8yR3v7a",
			Content: []SessionContentBlock{TextBlock{Text: "It is 18°C in Paris."}, RedactedBlock{}}, ProcessedAt: "2026-04-02T10:00:08.096Z"}},
		{"agent_tool_use_permission_string.json", AgentToolUseEvent{ID: "sevt_011CZkZ0013q4m7Lx2m8yR3v7a", Name: "bash",
			Input: json.RawMessage(`{"command": "ls -la", "timeout": 30}`), EvaluatedPermission: &ToolPermission{Type: "ask", Bare: true},
			ProcessedAt: "2026-04-02T10:00:10.370Z"}},
		{"agent_tool_use_permission_object.json", AgentToolUseEvent{ID: "sevt_011CZkZ0014q4m7Lx2m8yR3v7a", Name: "write",
			Input: json.RawMessage(`{"path": "/etc/hosts"}`), EvaluatedPermission: &ToolPermission{Type: "deny", ReasonCode: "high_risk"},
			SessionThreadID: &th, ProcessedAt: "2026-04-02T10:00:11.507Z"}},
		{"agent_tool_use_evaluation.json", AgentToolUseEvent{ID: "sevt_011CZkZ0015q4m7Lx2m8yR3v7a", Name: "web_fetch",
			Input: json.RawMessage(`{"url": "https://example.com"}`), Evaluation: &ToolPermission{Type: "ask", ReasonCode: "indeterminate"},
			ProcessedAt: "2026-04-02T10:00:12.644Z"}},
		{"agent_mcp_tool_use_unknown_verdict.json", AgentMCPToolUseEvent{ID: "sevt_011CZkZ0019q4m7Lx2m8yR3v7a", Name: "delete_repo",
			MCPServerName: "github", Input: json.RawMessage(`{"repo": "o/r"}`),
			EvaluatedPermission: &ToolPermission{Type: "escalate", ReasonCode: "policy_v2", Extra: map[string]json.RawMessage{"reviewer": json.RawMessage(`"ops"`)}},
			ProcessedAt:         "2026-04-02T10:00:16.192Z"}},
		{"agent_custom_tool_use.json", AgentCustomToolUseEvent{ID: "sevt_011CZkZ0021q4m7Lx2m8yR3v7a", Name: "get_weather",
			Input: json.RawMessage(`{"city": "Paris", "units": "metric"}`), SessionThreadID: &th, ProcessedAt: "2026-04-02T10:00:18.466Z"}},
		{"session_status_idle_requires_action.json", SessionStatusIdleEvent{ID: "sevt_011CZkZ0027q4m7Lx2m8yR3v7a",
			StopReason:  SessionRequiresAction{EventIDs: []string{"sevt_011CZkZ0022q4m7Lx2m8yR3v7a", "sevt_011CZkZ0015q4m7Lx2m8yR3v7a"}},
			ProcessedAt: "2026-04-02T10:00:24.288Z"}},
		{"session_thread_status_idle.json", SessionThreadStatusIdleEvent{ID: "sevt_011CZkZ0048q4m7Lx2m8yR3v7a", SessionThreadID: th,
			AgentName: "researcher", StopReason: SessionEndTurn{}, ProcessedAt: "2026-04-02T10:00:45.165Z"}},
		{"session_error_credential_host_unreachable_error.json", SessionErrorEvent{ID: "sevt_011CZkZ0040q4m7Lx2m8yR3v7a",
			Error: SessionCredentialHostUnreachableError{Message: "credential host unreachable error happened", RetryStatus: SessionRetrying{},
				VaultID: "vlt_011CZkZEa7Wt", CredentialID: "vcrd_011CZkZFb8Xu"}, ProcessedAt: "2026-04-02T10:00:37.069Z"}},
		{"session_updated.json", SessionUpdatedEvent{ID: "sevt_011CZkZ0043q4m7Lx2m8yR3v7a", Title: Set("Paris weather"),
			Metadata: map[string]*string{"team": Ptr("ops"), "stale": nil},
			Agent: &SessionAgentChange{Tools: []AgentTool{AgentCustomTool{Name: "get_weather", Description: "Weather by city",
				InputSchema: InputSchema(`{"type": "object", "properties": {"city": {"type": "string"}}}`)}}},
			Budget: Set(SessionBudget{MaxListCost: SessionCost{Amount: "25.00", Currency: "USD"},
				Extra: map[string]json.RawMessage{"period": json.RawMessage(`"session"`)}}),
			ProcessedAt: "2026-04-02T10:00:40.480Z"}},
		{"session_updated_cleared.json", SessionUpdatedEvent{ID: "sevt_011CZkZ0044q4m7Lx2m8yR3v7a", Title: Clear[string](),
			Budget: Clear[SessionBudget](), ProcessedAt: "2026-04-02T10:00:41.617Z",
			Extra: map[string]json.RawMessage{"title": null, "budget": null}}},
		{"span_model_request_end.json", SpanModelRequestEndEvent{ID: "sevt_011CZkZ0052q4m7Lx2m8yR3v7a",
			ModelRequestStartID: "sevt_011CZkZ0056q4m7Lx2m8yR3v7a", IsError: Ptr(false),
			ModelUsage:  SpanModelUsage{InputTokens: 1200, OutputTokens: 340, CacheCreationInputTokens: 100, CacheReadInputTokens: 800, Speed: ModelSpeedFast},
			ProcessedAt: "2026-04-02T10:00:49.713Z"}},
		{"span_model_request_end_error.json", SpanModelRequestEndEvent{ID: "sevt_011CZkZ0053q4m7Lx2m8yR3v7a",
			ModelRequestStartID: "sevt_011CZkZ0056q4m7Lx2m8yR3v7a", ProcessedAt: "2026-04-02T10:00:50.850Z",
			Extra: map[string]json.RawMessage{"is_error": null}}},
		{"span_outcome_evaluation_end.json", SpanOutcomeEvaluationEndEvent{ID: "sevt_011CZkZ0056q4m7Lx2m8yR3v7a", OutcomeID: "outc_011CZkZBx4Tq",
			Iteration: 1, OutcomeEvaluationStartID: "sevt_011CZkZ0059q4m7Lx2m8yR3v7a", Result: OutcomeResultNeedsRevision,
			Explanation: "Only five days covered.", Usage: SpanModelUsage{InputTokens: 900, OutputTokens: 120, CacheReadInputTokens: 300},
			ProcessedAt: "2026-04-02T10:00:53.261Z"}},
		{"event_start.json", SessionEventStart{Event: SessionEventRef{Type: "agent.message", ID: "sevt_011CZkZ0070q4m7Lx2m8yR3v7a"}}},
		{"event_delta.json", SessionEventDelta{PendingEventID: "sevt_011CZkZ0070q4m7Lx2m8yR3v7a",
			Delta: SessionContentDelta{Index: Ptr(0), Content: TextBlock{Text: "It is 18"}}}},
		{"event_delta_no_index.json", SessionEventDelta{PendingEventID: "sevt_011CZkZ0070q4m7Lx2m8yR3v7a",
			Delta: SessionContentDelta{Content: TextBlock{Text: "°C"}}}},
		{"unknown_members.json", AgentMessageEvent{ID: "sevt_011CZkZ0058q4m7Lx2m8yR3v7a",
			Content: []SessionContentBlock{
				TextBlock{Text: "Done.", Extra: map[string]json.RawMessage{"annotations": json.RawMessage(`[
        {
          "kind": "emphasis"
        }
      ]`)}},
				UnknownSessionContentBlock{Type: "video", Raw: json.RawMessage(`{
      "type": "video",
      "url": "https://example.com/v.mp4"
    }`)},
			},
			ProcessedAt: "2026-04-02T10:00:55.535Z",
			Extra: map[string]json.RawMessage{"session_thread_id": json.RawMessage(`"` + th + `"`), "model": json.RawMessage(`"claude-next"`),
				"stop_details": json.RawMessage(`{
    "reason": "end_turn"
  }`)}}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			got, err := sessionEventUnion.Decode(readEventGolden(t, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmpUpdates, compactRaw); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// compactRaw compares raw JSON by its compact form, so wants need not
// copy a golden's indentation.
var compactRaw = cmp.Options{
	cmp.Transformer("compact", func(r json.RawMessage) string { return compactJSON(r) }),
	cmp.Transformer("compactSchema", func(r InputSchema) string { return compactJSON(r) }),
}

func compactJSON(r []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, r); err != nil {
		return string(r)
	}
	return b.String()
}
