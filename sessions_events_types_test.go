package mms

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/internal/codec"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sessionEventGoldenUnknowns lists the golden event files
// (testdata/golden/sessions/events) in which a union falls back to its
// Unknown variant, with where. Every other file decodes to the variant
// that the table gives its "type", with nothing Unknown inside: adding a
// variant is its struct, its table line and its golden file.
var sessionEventGoldenUnknowns = map[string][]string{
	"session_status_idle_unknown_reason.json": {".StopReason: UnknownSessionStopReason"},
	"session_error_unknown_type.json":         {".Error: UnknownSessionError"},
	"session_error_unknown_retry_status.json": {".Error.RetryStatus: UnknownSessionRetryStatus"},
	"event_delta_unknown_delta.json":          {".Delta: UnknownSessionEventDeltaBody"},
	"unknown_event.json":                      {": UnknownSessionEvent"},
	"unknown_members.json":                    {".Content[1]: UnknownSessionContentBlock"},
	"workflow_run_status_ended_unknown.json":  {".Result: UnknownWorkflowRunResult"},
}

// sessionEventGoldenFiles returns the golden event files (not the request
// ones), each with the Go type its "type" names in the union's table.
func sessionEventGoldenFiles(t *testing.T) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join("testdata", "golden", "sessions", "events"))
	require.NoError(t, err)
	types := sessionEventUnion.Types()
	out := map[string]string{}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "request_") {
			continue
		}
		var head struct{ Type string }
		require.NoError(t, json.Unmarshal(readEventGolden(t, e.Name()), &head), e.Name())
		out[e.Name()] = "UnknownSessionEvent"
		if typ, ok := types[head.Type]; ok {
			out[e.Name()] = typ.Name()
		}
	}
	return out
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
	for file, goType := range sessionEventGoldenFiles(t) {
		t.Run(file, func(t *testing.T) {
			data := readEventGolden(t, file)
			ev, err := sessionEventUnion.Decode(data)
			require.NoError(t, err)
			assert.Equal(t, goType, reflect.TypeOf(ev).Name())
			if diff := cmp.Diff(sessionEventGoldenUnknowns[file], findUnknown("", reflect.ValueOf(ev))); diff != "" {
				t.Errorf("unknown variants (-want +got):\n%s", diff)
			}
			out, err := json.Marshal(ev)
			require.NoError(t, err)
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
			require.NoError(t, err)
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
	for file := range sessionEventGoldenFiles(t) {
		ev, err := sessionEventUnion.Decode(readEventGolden(t, file))
		require.NoError(t, err, file)
		walk(reflect.ValueOf(ev))
	}
	want := map[string]map[string]reflect.Type{
		"SessionEvent":          sessionEventUnion.Types(),
		"SessionStopReason":     sessionStopReasonUnion.Types(),
		"SessionError":          sessionErrorUnion.Types(),
		"SessionRetryStatus":    sessionRetryStatusUnion.Types(),
		"SessionEventDeltaBody": sessionEventDeltaBodyUnion.Types(),
		"WorkflowRunResult":     workflowRunResultUnion.Types(),
	}
	for union, types := range want {
		for wire, typ := range types {
			if !slices.Contains(seen, typ.Name()) {
				t.Errorf("%s variant %s (%q) has no golden", union, typ.Name(), wire)
			}
		}
	}
	for _, unknown := range []string{"UnknownSessionEvent", "UnknownSessionStopReason", "UnknownSessionError",
		"UnknownSessionRetryStatus", "UnknownSessionEventDeltaBody", "UnknownSessionContentBlock", "SearchResultBlock", "RedactedBlock", "UnknownWorkflowRunResult"} {
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
			require.NoError(t, err)
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

// TestDecodeSessionEvent covers the stream decoder's cases: keep-alives,
// error events, payloads decoded by their own type whatever the name,
// unknown types and payloads without one kept, malformed JSON refused.
func TestDecodeSessionEvent(t *testing.T) {
	msg := `{"type":"agent.message","id":"sevt_1","content":[{"type":"text","text":"hi"}],"processed_at":"2026-04-02T10:00:00Z"}`
	typed := AgentMessageEvent{ID: "sevt_1", Content: []SessionContentBlock{TextBlock{Text: "hi"}}, ProcessedAt: "2026-04-02T10:00:00Z"}
	for _, tt := range []struct {
		name, event, data string
		want              SessionEvent
		wantErr           string // a substring; "" for none
	}{
		{name: "ping", event: "ping", data: `{"type":"ping"}`},
		{name: "ping without data", event: "ping", data: ``},
		{name: "named as its type", event: "agent.message", data: msg, want: typed},
		{name: "unknown name, known type", event: "agent.session_thread_message_sent", data: msg, want: typed},
		{name: "generic name", event: "message", data: msg, want: typed},
		{name: "name of another type", event: "session.usage", data: msg, want: typed},
		{name: "preview", event: "event_delta", data: `{"type":"event_delta","event_id":"sevt_1","delta":{"type":"content_delta","index":2,"content":{"type":"text","text":"x"}}}`,
			want: SessionEventDelta{PendingEventID: "sevt_1", Delta: SessionContentDelta{Index: Ptr(2), Content: TextBlock{Text: "x"}}}},
		{name: "unknown type", event: "agent.plan", data: `{"type":"agent.plan","id":"sevt_2","steps":[1]}`,
			want: UnknownSessionEvent{Type: "agent.plan", Raw: json.RawMessage(`{"type":"agent.plan","id":"sevt_2","steps":[1]}`)}},
		{name: "unknown type under a known name", event: "agent.message", data: `{"type":"agent.plan","id":"sevt_2"}`,
			want: UnknownSessionEvent{Type: "agent.plan", Raw: json.RawMessage(`{"type":"agent.plan","id":"sevt_2"}`)}},
		{name: "no type", event: "session.thread_status_created", data: `{"id":"sevt_3"}`,
			want: UnknownSessionEvent{Type: "session.thread_status_created", Raw: json.RawMessage(`{"id":"sevt_3"}`)}},
		{name: "null type", event: "x", data: `{"type":null}`, want: UnknownSessionEvent{Type: "x", Raw: json.RawMessage(`{"type":null}`)}},
		{name: "numeric type", event: "x", data: `{"type":7}`, want: UnknownSessionEvent{Type: "x", Raw: json.RawMessage(`{"type":7}`)}},
		{name: "empty type", event: "x", data: `{"type":""}`, want: UnknownSessionEvent{Type: "x", Raw: json.RawMessage(`{"type":""}`)}},
		{name: "not an object", event: "x", data: `[1,2]`, want: UnknownSessionEvent{Type: "x", Raw: json.RawMessage(`[1,2]`)}},
		{name: "null payload", event: "x", data: `null`, want: UnknownSessionEvent{Type: "x", Raw: json.RawMessage(`null`)}},
		{name: "malformed", event: "agent.message", data: `{"type":"agent.message","id":`, wantErr: "malformed JSON"},
		{name: "malformed unknown", event: "x", data: `{"a":}`, wantErr: "malformed JSON"},
		{name: "empty data", event: "agent.message", data: ``, wantErr: "malformed JSON"},
		{name: "known type, bad member", event: "agent.message", data: `{"type":"agent.message","id":"e","content":5}`, wantErr: "content"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeSessionEvent(tt.event, []byte(tt.data))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want one containing %q (value %#v)", err, tt.wantErr, got)
				}
				return
			}
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("error event", func(t *testing.T) {
		data := []byte(`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_011"}`)
		ev, err := decodeSessionEvent("error", data)
		var apiErr *Error
		if ev != nil || !errors.As(err, &apiErr) {
			t.Fatalf("got %#v, %v; want an *Error", ev, err)
		}
		if apiErr.StatusCode != 200 || apiErr.Type != "overloaded_error" || apiErr.Message != "Overloaded" || apiErr.RequestID != "req_011" {
			t.Errorf("error %+v", apiErr)
		}
	})
	t.Run("unknown keeps a copy", func(t *testing.T) {
		data := []byte(`{"type":"agent.plan","id":"sevt_9"}`)
		ev, err := decodeSessionEvent("agent.plan", data)
		require.NoError(t, err)
		copy(data, "xxxxxxxxxxxxxxxxxxxx")
		if u := ev.(UnknownSessionEvent); string(u.Raw) != `{"type":"agent.plan","id":"sevt_9"}` || u.EventID() != "sevt_9" {
			t.Errorf("unknown %+v aliases the input", u)
		}
	})
}

// TestUnknownSessionEventAccessors reads id and processed_at from Raw.
func TestUnknownSessionEventAccessors(t *testing.T) {
	for _, tt := range []struct{ raw, id, at string }{
		{`{"type":"x","id":"sevt_1","processed_at":"2026-04-02T10:00:00Z"}`, "sevt_1", "2026-04-02T10:00:00Z"},
		{`{"type":"x","id":"sevt_\u0031"}`, "sevt_1", ""},
		{`{"type":"x","id":null,"processed_at":null}`, "", ""},
		{`{"type":"x","id":5}`, "", ""},
		{`[1]`, "", ""},
	} {
		u := UnknownSessionEvent{Type: "x", Raw: json.RawMessage(tt.raw)}
		if u.EventID() != tt.id || u.processedAt() != tt.at || u.EventType() != "x" {
			t.Errorf("%s: EventID %q processedAt %q", tt.raw, u.EventID(), u.processedAt())
		}
	}
}

// TestToolPermission pins both wire forms of a verdict, their re-encoding
// in the form received, and Permission's reading: absent is allow, an
// unknown verdict is ask, the stricter of two wins.
func TestToolPermission(t *testing.T) {
	for _, tt := range []struct {
		name, in, out string
		want          string
	}{
		{"absent", `{"type":"agent.tool_use","id":"e","name":"n","input":{}}`, "", PermissionAllow},
		{"null", `{"type":"agent.tool_use","id":"e","name":"n","input":{},"evaluated_permission":null}`, "", PermissionAllow},
		{"bare allow", `{"type":"agent.tool_use","id":"e","name":"n","input":{},"evaluated_permission":"allow"}`, "", PermissionAllow},
		{"bare ask", `{"type":"agent.tool_use","id":"e","name":"n","input":{},"evaluated_permission":"ask"}`, "", PermissionAsk},
		{"bare deny", `{"type":"agent.tool_use","id":"e","name":"n","input":{},"evaluated_permission":"deny"}`, "", PermissionDeny},
		{"bare unknown", `{"type":"agent.tool_use","id":"e","name":"n","input":{},"evaluated_permission":"maybe"}`, "", PermissionAsk},
		{"object allow", `{"type":"agent.tool_use","id":"e","name":"n","input":{},"evaluated_permission":{"type":"allow"}}`, "", PermissionAllow},
		{"object deny", `{"type":"agent.tool_use","id":"e","name":"n","input":{},"evaluated_permission":{"type":"deny","reason_code":"high_risk"}}`, "", PermissionDeny},
		{"object unknown", `{"type":"agent.tool_use","id":"e","name":"n","input":{},"evaluated_permission":{"type":"auto"}}`, "", PermissionAsk},
		{"evaluation only", `{"type":"agent.tool_use","id":"e","name":"n","input":{},"evaluation":{"type":"ask","reason_code":"indeterminate"}}`, "", PermissionAsk},
		{"stricter wins", `{"type":"agent.tool_use","id":"e","name":"n","input":{},"evaluated_permission":"allow","evaluation":{"type":"deny"}}`, "", PermissionDeny},
		{"stricter wins mcp", `{"type":"agent.mcp_tool_use","id":"e","name":"n","mcp_server_name":"s","input":{},"evaluated_permission":"deny","evaluation":{"type":"ask"}}`, "", PermissionDeny},
		{"mcp absent", `{"type":"agent.mcp_tool_use","id":"e","name":"n","mcp_server_name":"s","input":{}}`, "", PermissionAllow},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := sessionEventUnion.Decode([]byte(tt.in))
			require.NoError(t, err)
			var got string
			switch e := ev.(type) {
			case AgentToolUseEvent:
				got = e.Permission()
			case AgentMCPToolUseEvent:
				got = e.Permission()
			default:
				t.Fatalf("decoded %T", ev)
			}
			if got != tt.want {
				t.Errorf("Permission() = %q, want %q", got, tt.want)
			}
			out, err := json.Marshal(ev)
			require.NoError(t, err)
			if string(out) != tt.in { // exact: the verdict keeps its form
				t.Errorf("re-encoded\n%s\nwant\n%s", out, tt.in)
			}
		})
	}
	// A bare verdict given a reason code has no string form left.
	p := ToolPermission{Type: "deny", Bare: true, ReasonCode: "high_risk"}
	if b, err := json.Marshal(p); err != nil || string(b) != `{"type":"deny","reason_code":"high_risk"}` {
		t.Errorf("%s %v", b, err)
	}
	if b, err := json.Marshal(ToolPermission{Type: "ask", Bare: true}); err != nil || string(b) != `"ask"` {
		t.Errorf("%s %v", b, err)
	}
}

// TestSessionErrorAccessors reads type, message and retry status of every
// error golden through the interface, no type switch.
func TestSessionErrorAccessors(t *testing.T) {
	for _, tt := range []struct{ file, typ, message, retry string }{
		{"session_error_unknown_error.json", "unknown_error", "unknown error happened", RetryStatusTerminal},
		{"session_error_model_overloaded_error.json", "model_overloaded_error", "model overloaded error happened", RetryStatusRetrying},
		{"session_error_model_rate_limited_error.json", "model_rate_limited_error", "model rate limited error happened", RetryStatusRetrying},
		{"session_error_model_request_failed_error.json", "model_request_failed_error", "model request failed error happened", RetryStatusExhausted},
		{"session_error_mcp_connection_failed_error.json", "mcp_connection_failed_error", "mcp connection failed error happened", RetryStatusExhausted},
		{"session_error_mcp_authentication_failed_error.json", "mcp_authentication_failed_error", "mcp authentication failed error happened", RetryStatusTerminal},
		{"session_error_billing_error.json", "billing_error", "billing error happened", RetryStatusTerminal},
		{"session_error_credential_host_unreachable_error.json", "credential_host_unreachable_error", "credential host unreachable error happened", RetryStatusRetrying},
		{"session_error_unknown_type.json", "quota_error", "quota error happened", "paused"},
		{"session_error_unknown_retry_status.json", "model_overloaded_error", "overloaded", "deferred"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			ev, err := sessionEventUnion.Decode(readEventGolden(t, tt.file))
			require.NoError(t, err)
			e := ev.(SessionErrorEvent).Error
			if e.ErrorType() != tt.typ || e.ErrorMessage() != tt.message || e.ErrorRetryStatus() != tt.retry {
				t.Errorf("ErrorType %q ErrorMessage %q ErrorRetryStatus %q", e.ErrorType(), e.ErrorMessage(), e.ErrorRetryStatus())
			}
		})
	}
	for wire, typ := range sessionErrorUnion.Types() {
		if got := reflect.New(typ).Elem().Interface().(SessionError).ErrorType(); got != wire {
			t.Errorf("%s.ErrorType() = %q, want %q", typ.Name(), got, wire)
		}
	}
	if got := (SessionBillingError{Message: "m"}).ErrorRetryStatus(); got != "" {
		t.Errorf("no retry status: %q", got)
	}
}

// TestSessionEventParamsRequestForms pins the exact request form of every
// params kind (testdata/golden/sessions/events/request_*.json), through
// MarshalJSON and the client's request encoder, and decodes it back.
func TestSessionEventParamsRequestForms(t *testing.T) {
	const custom, tool, thread = "sevt_011CZkZ0021q4m7Lx2m8yR3v7a", "sevt_011CZkZ0013q4m7Lx2m8yR3v7a", "sthr_011CZkZ9Hn3mQx7vL2pR8s4D"
	for _, tt := range []struct {
		file string
		in   any
	}{
		{"request_user_message.json", NewUserMessageEvent("What is the weather in Paris?")},
		{"request_user_message_blocks.json", NewUserMessageEventBlocks(TextBlock{Text: "Look"}, ImageFromURL("https://example.com/paris.png"),
			DocumentFromFile("file_011CZkZAq9Vb2"), RedactedBlock{})},
		{"request_user_interrupt.json", NewInterruptEvent()},
		{"request_user_interrupt_thread.json", NewThreadInterruptEvent(thread)},
		{"request_tool_confirmation_allow.json", NewAllowToolEvent(tool)},
		{"request_tool_confirmation_deny.json", NewDenyToolEvent(tool, "not on production")},
		{"request_tool_confirmation_deny_silent.json", NewDenyToolEvent(tool, "")},
		{"request_custom_tool_result.json", NewCustomToolResultEvent(custom, "18°C, light rain")},
		{"request_custom_tool_error.json", NewCustomToolErrorEvent(custom, "city not found")},
		{"request_custom_tool_result_blocks.json", UserCustomToolResultEventParams{CustomToolUseID: custom, Content: []SessionContentBlock{
			ImageBlock{Source: FileImageSource{FileID: "file_011CZkZGc9Yv"}},
			SearchResultBlock{Source: "https://example.com/forecast", Title: "Forecast", Content: ContentBlocks{TextBlock{Text: "Rain all week."}},
				Citations: &CitationsConfig{Enabled: Ptr(true)}}}}},
		{"request_tool_result.json", NewToolResultEvent(tool, "total 0", false)},
		{"request_tool_result_error.json", NewToolResultEvent(tool, "permission denied", true)},
		{"request_define_outcome.json", NewDefineOutcomeEvent("A weekly weather report", TextRubric{Content: "Covers seven days"})},
		{"request_define_outcome_file.json", UserDefineOutcomeEventParams{Description: "A summary", Rubric: FileRubric{FileID: "file_011CZkZDz6Vs"}, MaxIterations: 5}},
		{"request_system_message.json", NewSystemMessageEvent("Answer in French.")},
		{"request_send.json", SessionEventSendParams{Events: []SessionEventParams{
			NewCustomToolResultEvent(custom, "18°C, light rain"), NewAllowToolEvent(tool), NewSystemMessageEvent("Answer in French.")}}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			want := bytes.TrimSpace(readEventGolden(t, tt.file))
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			body, err := codec.MarshalRequest(tt.in)
			require.NoError(t, err)
			if string(got) != string(want) || string(body) != string(want) {
				t.Errorf("MarshalJSON\n%s\nMarshalRequest\n%s\nwant\n%s", got, body, want)
			}
			if p, ok := tt.in.(SessionEventParams); ok {
				if err := p.validate("e"); err != nil {
					t.Errorf("validate: %v", err)
				}
				back, err := sessionEventParamsUnion.Decode(want)
				if err != nil || !cmp.Equal(back, p) {
					t.Errorf("decoded back %#v, %v", back, err)
				}
			} else if err := tt.in.(SessionEventSendParams).Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

// TestSessionEventSendParamsValidate checks every rule on both sides:
// the field path of the first broken rule, or "" for valid params.
func TestSessionEventSendParamsValidate(t *testing.T) {
	send := func(es ...SessionEventParams) SessionEventSendParams { return SessionEventSendParams{Events: es} }
	text := func(s string) SessionContentBlock { return TextBlock{Text: s} }
	search := SearchResultBlock{Source: "s", Title: "t", Content: ContentBlocks{TextBlock{Text: "x"}}}
	image := ImageFromURL("https://example.com/i.png")
	customResult := func(blocks ...SessionContentBlock) UserCustomToolResultEventParams {
		return UserCustomToolResultEventParams{CustomToolUseID: "sevt_1", Content: blocks}
	}
	toolResult := func(blocks ...SessionContentBlock) UserToolResultEventParams {
		return UserToolResultEventParams{ToolUseID: "sevt_1", Content: blocks}
	}
	for _, tt := range []struct {
		name  string
		p     SessionEventSendParams
		field string
		rule  string // a substring of the rule, when it matters
	}{
		{"no events", send(), "events", ""},
		{"one event", send(NewUserMessageEvent("hi")), "", ""},
		{"nil event", send(NewUserMessageEvent("hi"), nil), "events[1]", ""},
		{"unknown kind passes", send(UnknownSessionEventParams{Type: "user.pause", Raw: json.RawMessage(`{"type":"user.pause"}`)}), "", ""},

		{"message without content", send(UserMessageEventParams{}), "events[0].content", ""},
		{"message empty text", send(NewUserMessageEvent("")), "events[0].content[0].text", ""},
		{"message with image", send(NewUserMessageEventBlocks(text("a"), image)), "", ""},
		{"message with search_result", send(NewUserMessageEventBlocks(text("a"), search)), "events[0].content[1]", "only in a tool result"},
		{"message with cache_control", send(NewUserMessageEventBlocks(TextBlock{Text: "a", CacheControl: &CacheControl{}})), "events[0].content[0].cache_control", ""},

		{"interrupt all", send(NewInterruptEvent()), "", ""},
		{"interrupt thread", send(NewThreadInterruptEvent("sthr_1")), "", ""},

		{"allow", send(NewAllowToolEvent("sevt_1")), "", ""},
		{"allow without id", send(NewAllowToolEvent("")), "events[0].tool_use_id", ""},
		{"deny with message", send(NewDenyToolEvent("sevt_1", "no")), "", ""},
		{"deny without message", send(NewDenyToolEvent("sevt_1", "")), "", ""},
		{"deny without id", send(NewDenyToolEvent("", "no")), "events[0].tool_use_id", ""},
		{"allow with deny_message", send(UserToolConfirmationEventParams{ToolUseID: "sevt_1", Result: ToolConfirmationAllow, DenyMessage: "no"}),
			"events[0].deny_message", "only with result"},
		{"no result", send(UserToolConfirmationEventParams{ToolUseID: "sevt_1"}), "events[0].result", ""},
		{"other result", send(UserToolConfirmationEventParams{ToolUseID: "sevt_1", Result: "maybe"}), "events[0].result", `"allow" or "deny"`},

		{"custom result", send(NewCustomToolResultEvent("sevt_1", "ok")), "", ""},
		{"custom error", send(NewCustomToolErrorEvent("sevt_1", "failed")), "", ""},
		{"custom without id", send(NewCustomToolResultEvent("", "ok")), "events[0].custom_tool_use_id", ""},
		{"custom no content", send(customResult()), "events[0].content", "(no output)"},
		{"custom empty text", send(NewCustomToolResultEvent("sevt_1", "")), "events[0].content", "(no output)"},
		{"custom only empty texts", send(customResult(text(""), text(""))), "events[0].content", "(no output)"},
		{"custom one char", send(NewCustomToolResultEvent("sevt_1", "0")), "", ""},
		{"custom image only", send(customResult(image)), "", ""},
		{"custom search_result", send(customResult(search)), "", ""},
		{"custom empty text beside text", send(customResult(text("a"), text(""))), "events[0].content[1].text", ""},
		{"custom nil block", send(customResult(text("a"), nil)), "events[0].content[1]", ""},
		{"custom search_result cache_control", send(customResult(SearchResultBlock{Source: "s", Title: "t",
			Content: ContentBlocks{TextBlock{Text: "x"}}, CacheControl: &CacheControl{}})), "events[0].content[0].cache_control", ""},
		{"custom error empty", send(NewCustomToolErrorEvent("sevt_1", "")), "events[0].content", "(no output)"},

		{"tool result", send(NewToolResultEvent("sevt_1", "ok", false)), "", ""},
		{"tool result error", send(NewToolResultEvent("sevt_1", "failed", true)), "", ""},
		{"tool result without id", send(NewToolResultEvent("", "ok", false)), "events[0].tool_use_id", ""},
		{"tool result no content", send(toolResult()), "events[0].content", "(no output)"},
		{"tool result empty text", send(NewToolResultEvent("sevt_1", "", true)), "events[0].content", "(no output)"},
		{"tool result search_result", send(toolResult(search)), "", ""},

		{"outcome", send(NewDefineOutcomeEvent("d", TextRubric{Content: "c"})), "", ""},
		{"outcome empty description", send(NewDefineOutcomeEvent("", TextRubric{Content: "c"})), "", ""},
		{"outcome 21 iterations", send(UserDefineOutcomeEventParams{Description: "d", Rubric: TextRubric{Content: "c"}, MaxIterations: 21}),
			"events[0].max_iterations", ""},

		{"system alone", send(NewSystemMessageEvent("be brief")), "", ""},
		{"system last", send(NewUserMessageEvent("hi"), NewSystemMessageEvent("be brief")), "", ""},
		{"system first", send(NewSystemMessageEvent("be brief"), NewUserMessageEvent("hi")), "events[0]", "last"},
		{"two systems", send(NewUserMessageEvent("hi"), NewSystemMessageEvent("a"), NewSystemMessageEvent("b")), "events[1]", "at most one"},
		{"system no content", send(SystemMessageEventParams{}), "events[0].content", ""},
		{"system empty text", send(NewSystemMessageEvent("")), "events[0].content[0].text", ""},
		{"system image", send(SystemMessageEventParams{Content: []SessionContentBlock{text("a"), image}}), "events[0].content[1]", "only text"},
		{"system search_result", send(SystemMessageEventParams{Content: []SessionContentBlock{search}}), "events[0].content[0]", "only text"},
		{"system nil block", send(SystemMessageEventParams{Content: []SessionContentBlock{nil}}), "events[0].content[0]", "nil"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.p.Validate()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			var ve *ValidationError
			if !errors.As(err, &ve) || !errors.Is(err, ErrInvalidParams) {
				t.Fatalf("err %v, want a *ValidationError for %s", err, tt.field)
			}
			if ve.Field != tt.field || !strings.Contains(ve.Rule, tt.rule) {
				t.Errorf("field %q rule %q, want %q with %q", ve.Field, ve.Rule, tt.field, tt.rule)
			}
		})
	}
}

// TestSessionCreateRefusesSendOnlyEvents checks that initial events stay
// user.message and user.define_outcome, and that a user.message there
// refuses a search_result.
func TestSessionCreateRefusesSendOnlyEvents(t *testing.T) {
	for _, tt := range []struct {
		name  string
		e     SessionEventParams
		field string
	}{
		{"user.message", NewUserMessageEvent("hi"), ""},
		{"user.define_outcome", NewDefineOutcomeEvent("d", TextRubric{Content: "c"}), ""},
		{"user.interrupt", NewInterruptEvent(), "initial_events[0]"},
		{"user.tool_confirmation", NewAllowToolEvent("sevt_1"), "initial_events[0]"},
		{"user.custom_tool_result", NewCustomToolResultEvent("sevt_1", "ok"), "initial_events[0]"},
		{"user.tool_result", NewToolResultEvent("sevt_1", "ok", false), "initial_events[0]"},
		{"system.message", NewSystemMessageEvent("be brief"), "initial_events[0]"},
		{"search_result in a message", NewUserMessageEventBlocks(SearchResultBlock{Source: "s", Title: "t",
			Content: ContentBlocks{TextBlock{Text: "x"}}}), "initial_events[0].content[0]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := SessionCreateParams{Agent: SessionAgentID("agent_1"), EnvironmentID: "env_1", InitialEvents: []SessionEventParams{tt.e}}.Validate()
			var ve *ValidationError
			switch {
			case tt.field == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.field != "" && (!errors.As(err, &ve) || ve.Field != tt.field):
				t.Fatalf("err %v, want a *ValidationError for %s", err, tt.field)
			}
		})
	}
}

// BenchmarkDecodeSessionEvent measures the stream's per-event decoding of
// the two commonest events, with the Messages stream's text delta as the
// reference.
func BenchmarkDecodeSessionEvent(b *testing.B) {
	for _, bb := range []struct {
		name, event, data string
		decode            func(string, []byte) (any, error)
	}{
		{"agent.message", "agent.message", `{"type":"agent.message","id":"sevt_011CZkZ0011q4m7Lx2m8yR3v7a","content":[{"type":"text","text":"It is 18°C in Paris, with light rain expected through the afternoon."}],"processed_at":"2026-04-02T10:00:08.096Z"}`,
			func(n string, d []byte) (any, error) { return decodeSessionEvent(n, d) }},
		{"event_delta", "event_delta", `{"type":"event_delta","event_id":"sevt_011CZkZ0070q4m7Lx2m8yR3v7a","delta":{"type":"content_delta","index":0,"content":{"type":"text","text":"It is 18°C in"}}}`,
			func(n string, d []byte) (any, error) { return decodeSessionEvent(n, d) }},
		{"messages_content_block_delta", "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"It is 18°C in"}}`,
			func(n string, d []byte) (any, error) { return decodeMessageStreamEvent(n, d) }},
	} {
		b.Run(bb.name, func(b *testing.B) {
			data := []byte(bb.data)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if ev, err := bb.decode(bb.event, data); err != nil || ev == nil {
					b.Fatal(ev, err)
				}
			}
		})
	}
}
