package mms

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// TestDeploymentGoldenRoundTrip: every record of §1.2 and §2.3, every
// variant of their unions, nulls, archived states and unknown members and
// types, decodes and re-encodes losslessly.
func TestDeploymentGoldenRoundTrip(t *testing.T) {
	for f, unknown := range map[string][]string{
		"deployment.json":                         nil,
		"deployment_manual_unknown.json":          {".InitialEvents[1]: UnknownDeploymentInitialEvent", ".Resources[0]: UnknownDeploymentResource"},
		"deployment_archived_unknown_reason.json": nil,
		"deployment_reason_unknown.json":          {".PausedReason: UnknownDeploymentPausedReason"},
	} {
		t.Run(f, func(t *testing.T) { roundTrip[Deployment](t, readGolden(t, "deployments", f), unknown) })
	}
	for f, unknown := range map[string][]string{
		"run_schedule.json":        nil,
		"run_manual_error.json":    nil,
		"run_unknown_trigger.json": {".TriggerContext: UnknownDeploymentRunTrigger"},
	} {
		t.Run(f, func(t *testing.T) { roundTrip[DeploymentRun](t, readGolden(t, "deployments", f), unknown) })
	}
}

// TestDreamGoldenRoundTrip: every record of §3.2 and the variants of its
// unions, with unknown ones.
func TestDreamGoldenRoundTrip(t *testing.T) {
	for f, unknown := range map[string][]string{
		"dream_pending.json":        nil,
		"dream_completed.json":      nil,
		"dream_failed_unknown.json": {".Inputs[2]: UnknownDreamInput", ".OutputBehavior: UnknownDreamOutputBehavior", ".Outputs[0]: UnknownDreamOutput"},
	} {
		t.Run(f, func(t *testing.T) { roundTrip[Dream](t, readGolden(t, "dreams", f), unknown) })
	}
}

// TestDeploymentGoldenValues pins the typed values the goldens decode to.
func TestDeploymentGoldenValues(t *testing.T) {
	var d, manual Deployment
	var run, failed DeploymentRun
	for _, x := range []struct {
		file string
		v    any
	}{{"deployment.json", &d}, {"deployment_manual_unknown.json", &manual}, {"run_schedule.json", &run}, {"run_manual_error.json", &failed}} {
		require.NoError(t, json.Unmarshal(readGolden(t, "deployments", x.file), x.v), x.file)
	}
	want := DeploymentPausedError{Error: DeploymentError{Type: DeploymentErrorEnvironmentArchived}}
	if diff := cmp.Diff(DeploymentPausedReason(want), d.PausedReason); diff != "" {
		t.Errorf("paused reason (-want +got):\n%s", diff)
	}
	if d.Status != DeploymentPaused || !cmp.Equal(d.Agent, DeploymentAgent{ID: "agent_011CZkZ", Version: 3}) || d.Budget.MaxListCost.Amount != "2500" ||
		d.Schedule.Timezone != "Europe/Paris" || len(d.Schedule.UpcomingRunsAt) != 2 || *d.Schedule.LastRunAt != "2026-11-27T02:00:04.123456Z" {
		t.Errorf("deployment %+v", d)
	}
	if o, ok := d.InitialEvents[0].(UserDefineOutcomeEventParams); !ok || o.MaxIterations != 5 || o.Rubric.(TextRubric).Content != "every mail filed" {
		t.Errorf("outcome %#v", d.InitialEvents[0])
	}
	if m, ok := d.InitialEvents[2].(UserMessageEventParams); !ok || len(m.Content) != 5 || m.Content[2].(DocumentBlock).Title != nil {
		t.Errorf("message %#v", d.InitialEvents[2])
	}
	if r := d.Resources[1].(DeploymentRepositoryResource); *r.MountPath != "/src" || r.Checkout.(CommitCheckout).SHA != "abcdef1234" {
		t.Errorf("repository %#v", r)
	}
	if m := d.Resources[6].(DeploymentMemoryStoreResource); m.Access != "" || m.Instructions != nil {
		t.Errorf("memory store %#v", m)
	}
	if _, ok := manual.PausedReason.(DeploymentPausedManual); !ok || manual.Budget != nil || manual.Schedule != nil || manual.Description != nil || manual.Extra["region"] == nil {
		t.Errorf("manual %+v", manual)
	}
	if run.TriggerContext.(DeploymentScheduleTrigger).ScheduledAt != "2026-11-27T02:00:00Z" || *run.SessionID != "sesn_01" || run.Error != nil {
		t.Errorf("run %+v", run)
	}
	if failed.Error.Type != DeploymentErrorSessionRateLimited || failed.SessionID != nil {
		t.Errorf("failed run %+v", failed)
	}
	if created, err := run.Created(); err != nil || created.Nanosecond() != 123456000 {
		t.Errorf("Created %v %v", created, err)
	}
}

// TestDreamGoldenValues pins the typed values of the dream goldens.
func TestDreamGoldenValues(t *testing.T) {
	var done, failed Dream
	require.NoError(t, json.Unmarshal(readGolden(t, "dreams", "dream_completed.json"), &done))
	require.NoError(t, json.Unmarshal(readGolden(t, "dreams", "dream_failed_unknown.json"), &failed))
	if done.Status != DreamCompleted || !done.Status.Final() || !cmp.Equal(done.OutputBehavior, DreamOutputBehavior(DreamUpdateExisting{MemoryStoreID: "memstore_01"})) ||
		done.Usage.CacheReadInputTokens != 9000 || *done.SessionID != "sesn_09" || done.ArchivedAt == nil {
		t.Errorf("completed %+v", done)
	}
	if s := done.Inputs[0].(DreamSessions); !cmp.Equal(s.SessionIDs, []string{"sesn_01"}) {
		t.Errorf("inputs %#v", done.Inputs)
	}
	if failed.Error.Type != "timeout" || failed.Error.Extra["at_phase"] == nil || failed.Usage.Extra["thinking_tokens"] == nil || failed.Model.Extra["tier"] == nil {
		t.Errorf("failed %+v", failed)
	}
	if DreamRunning.Final() || DreamPending.Final() {
		t.Error("pending or running reported final")
	}
}

// TestDeploymentRequestForms pins the request bodies the params encode
// to: bare agent ids, the schedule's type, a public repository without a
// token, null for a cleared member, the model as a bare id.
func TestDeploymentRequestForms(t *testing.T) {
	for name, c := range map[string]struct {
		v    any
		want string
	}{
		"create": {DeploymentCreateParams{Name: "n", Agent: SessionAgentID("agent_1"), EnvironmentID: "env_1",
			InitialEvents: []DeploymentInitialEvent{NewUserMessageEvent("hi"), NewSystemMessageEvent("s")},
			Resources: []SessionResourceParams{GitHubRepositoryResourceParams{URL: "u"},
				GitHubRepositoryResourceParams{URL: "v", AuthorizationToken: NewSecret("tok")}},
			Schedule: &DeploymentScheduleParams{Expression: "0 0 * * *", Timezone: "UTC"}, Budget: Ptr(DeploymentBudgetCents(100))},
			`{"name":"n","agent":"agent_1","environment_id":"env_1",
			"initial_events":[{"type":"user.message","content":[{"type":"text","text":"hi"}]},{"type":"system.message","content":[{"type":"text","text":"s"}]}],
			"resources":[{"type":"github_repository","url":"u"},{"type":"github_repository","url":"v","authorization_token":"tok"}],
			"schedule":{"type":"cron","expression":"0 0 * * *","timezone":"UTC"},
			"budget":{"type":"limit","max_list_cost":{"amount":"100","currency":"USD"}}}`},
		"create pinned": {DeploymentCreateParams{Name: "n", Agent: SessionAgentRef{ID: "a", Version: Ptr(2)}, EnvironmentID: "e",
			InitialEvents: []DeploymentInitialEvent{NewDefineOutcomeEvent("d", FileRubric{FileID: "f"})}},
			`{"name":"n","agent":{"type":"agent","id":"a","version":2},"environment_id":"e",
			"initial_events":[{"type":"user.define_outcome","description":"d","rubric":{"type":"file","file_id":"f"}}]}`},
		"update": {DeploymentUpdateParams{Name: "m", Description: Clear[string](), Resources: Clear[[]SessionResourceParams](),
			VaultIDs: Set([]string{}), Schedule: Set(DeploymentScheduleParams{Expression: "* * * * *", Timezone: "UTC"}),
			Budget: Clear[SessionBudget](), Metadata: MetadataPatch{}.Delete("k")},
			`{"name":"m","description":null,"resources":null,"vault_ids":[],"schedule":{"type":"cron","expression":"* * * * *","timezone":"UTC"},
			"budget":null,"metadata":{"k":null}}`},
		"update empty": {DeploymentUpdateParams{}, `{}`},
		"dream": {DreamCreateParams{Inputs: []DreamInput{DreamMemoryStore{MemoryStoreID: "m"}, DreamSessions{SessionIDs: []string{"s"}}},
			Model: AgentModel("model-a")},
			`{"inputs":[{"type":"memory_store","memory_store_id":"m"},{"type":"sessions","session_ids":["s"]}],"model":"model-a"}`},
		"dream full": {DreamCreateParams{Inputs: []DreamInput{DreamMemoryStore{MemoryStoreID: "m"}}, Instructions: "i",
			Model: ModelConfigParams{ID: "model-a", Speed: ModelSpeedStandard}, OutputBehavior: DreamUpdateExisting{MemoryStoreID: "m"}},
			`{"inputs":[{"type":"memory_store","memory_store_id":"m"}],"model":{"id":"model-a","speed":"standard"},"instructions":"i",
			"output_behavior":{"type":"update_existing","memory_store_id":"m"}}`},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := json.Marshal(c.v)
			require.NoError(t, err)
			requireJSONEqual(t, []byte(c.want), got)
		})
	}
}

// TestDeploymentParamsDecode: the params decode back from their request
// form (a test double reading a body, a recorded request), the agent's
// two forms included.
func TestDeploymentParamsDecode(t *testing.T) {
	var p DeploymentCreateParams
	require.NoError(t, json.Unmarshal([]byte(`{"name":"n","agent":"agent_1","environment_id":"e",
		"initial_events":[{"type":"system.message","content":[{"type":"text","text":"s"}]},{"type":"user.other"}]}`), &p))
	if p.Agent != SessionAgentID("agent_1") || len(p.InitialEvents) != 2 {
		t.Fatalf("%+v", p)
	}
	if u, ok := p.InitialEvents[1].(UnknownDeploymentInitialEvent); !ok || u.Type != "user.other" {
		t.Errorf("unknown event %#v", p.InitialEvents[1])
	}
	require.NoError(t, json.Unmarshal([]byte(`{"name":"n","agent":{"type":"agent","id":"a"},"environment_id":"e","initial_events":[]}`), &p))
	if p.Agent.(SessionAgentRef).ID != "a" {
		t.Errorf("agent %#v", p.Agent)
	}
}

// FuzzDeploymentDecode: the decoders of the deployment, run and dream
// records never panic, and what they decode re-encodes to a document that
// decodes to the same value.
func FuzzDeploymentDecode(f *testing.F) {
	for _, g := range []struct{ dir, name string }{
		{"deployments", "deployment.json"}, {"deployments", "deployment_manual_unknown.json"},
		{"deployments", "run_unknown_trigger.json"}, {"dreams", "dream_failed_unknown.json"},
	} {
		f.Add(readGolden(f, g.dir, g.name))
	}
	f.Add([]byte(`{"paused_reason":{"type":"error","error":null},"initial_events":[null,{"type":1}],"resources":[{}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		checkRedecode[Deployment](t, data)
		checkRedecode[DeploymentRun](t, data)
		checkRedecode[Dream](t, data)
	})
}

// checkRedecode decodes data as a T and, when that works, checks that the
// re-encoded value decodes and encodes again to the same bytes (raw
// members are compacted by the first pass, so the values may differ in
// whitespace only).
func checkRedecode[T any](t *testing.T, data []byte) {
	var v T
	if json.Unmarshal(data, &v) != nil {
		return
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%T: marshal: %v", v, err)
	}
	var w T
	if err := json.Unmarshal(out, &w); err != nil {
		t.Fatalf("%T: re-decode of %s: %v", v, out, err)
	}
	again, err := json.Marshal(w)
	if err != nil || string(again) != string(out) {
		t.Fatalf("%T: not stable: %v\nin:     %s\nonce:   %s\ntwice:  %s", v, err, data, out, again)
	}
}

// The union decoders of deployments, runs and dreams, one fuzz target each
// (fuzzDecoder's checks: decode or fail cleanly, lossless re-encoding).
func FuzzDeploymentPausedReason(f *testing.F) {
	fuzzDecoder(f, deploymentPausedReasonUnion.Decode, `{"type":"manual"}`, `{"type":"error","error":{"type":"agent_archived_error","message":"m"}}`)
}

func FuzzDeploymentResource(f *testing.F) {
	fuzzDecoder(f, deploymentResourceUnion.Decode, `{"type":"file","file_id":"file_1"}`, `{"type":"memory_store","memory_store_id":"memstore_1"}`)
}

func FuzzDeploymentAgentParams(f *testing.F) {
	fuzzDecoder(f, deploymentAgentParamsUnion.Decode, `{"type":"agent","id":"agent_1","version":2}`)
}

func FuzzDeploymentInitialEvent(f *testing.F) {
	fuzzDecoder(f, deploymentInitialEventUnion.Decode, `{"type":"user.message","content":[{"type":"text","text":"hi"}]}`)
}

func FuzzDeploymentRunTrigger(f *testing.F) {
	fuzzDecoder(f, deploymentRunTriggerUnion.Decode, `{"type":"manual"}`, `{"type":"schedule","scheduled_at":"2026-11-28T10:00:00Z"}`)
}

func FuzzDreamInput(f *testing.F) {
	fuzzDecoder(f, dreamInputUnion.Decode, `{"type":"memory_store","memory_store_id":"memstore_1"}`, `{"type":"sessions","session_ids":["sesn_1"]}`)
}

func FuzzDreamOutput(f *testing.F) {
	fuzzDecoder(f, dreamOutputUnion.Decode, `{"type":"memory_store","memory_store_id":"memstore_1"}`)
}

func FuzzDreamOutputBehavior(f *testing.F) {
	fuzzDecoder(f, dreamOutputBehaviorUnion.Decode, `{"type":"create_new"}`, `{"type":"update_existing"}`)
}
