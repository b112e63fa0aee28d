package mms

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/internal/codec"

	"github.com/stretchr/testify/require"
)

// TestSessionGoldenRoundTrip decodes each golden session and thread,
// checks which unions fell back to Unknown, and re-encodes them
// losslessly (unknown members included).
func TestSessionGoldenRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		file    string
		unknown []string
	}{
		{"session_full.json", nil},
		{"session_minimal.json", nil},
		{"session_multiagent.json", nil},
		{"session_unknown.json", []string{
			".Agent.Tools[0]: UnknownAgentTool",
			".Agent.Multiagent.Agents[0]: UnknownThreadAgent",
			".Resources[0]: UnknownSessionResource",
			".Resources[1].Checkout: UnknownRepositoryCheckout",
		}},
	} {
		t.Run(tt.file, func(t *testing.T) { roundTrip[Session](t, readGolden(t, "sessions", tt.file), tt.unknown) })
	}
	for _, tt := range []struct {
		file    string
		unknown []string
	}{
		{"thread_agent.json", nil},
		{"thread_advisor.json", nil},
		{"thread_inline.json", nil},
		{"thread_unknown.json", []string{".Agent: UnknownThreadAgent"}},
	} {
		t.Run(tt.file, func(t *testing.T) { roundTrip[SessionThread](t, readGolden(t, "sessions", tt.file), tt.unknown) })
	}
}

// TestSessionFullDecodesEveryVariant pins the typed values of the full
// record: every resource, checkout and roster variant, the nullable fields.
func TestSessionFullDecodesEveryVariant(t *testing.T) {
	var s Session
	if err := json.Unmarshal(readGolden(t, "sessions", "session_full.json"), &s); err != nil {
		t.Fatal(err)
	}
	var seen []string
	add := func(v any) { seen = append(seen, reflect.TypeOf(v).Name()) }
	for _, r := range s.Resources {
		add(r)
		if g, ok := r.(GitHubRepositoryResource); ok && g.Checkout != nil {
			add(g.Checkout)
		}
	}
	for _, a := range s.Agent.Multiagent.Agents {
		add(a)
	}
	want := []string{"GitHubRepositoryResource", "BranchCheckout", "GitHubRepositoryResource", "CommitCheckout",
		"GitHubRepositoryResource", "FileResource", "MemoryStoreResource", "SessionThreadAgent", "RosterAdvisor"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("variants (-want +got):\n%s", diff)
	}
	if s.Status != SessionStatusRunning || s.Title == nil || *s.Title != "triage" || s.Budget == nil ||
		!cmp.Equal(s.Budget.MaxListCost, SessionCost{Amount: "25.00", Currency: "USD"}) || s.DeploymentID == nil ||
		s.Usage.CacheCreation.Ephemeral5mInputTokens != 2 || s.Usage.ListCost.Amount != "0.42" ||
		s.Usage.ServerToolUse.WebSearchRequests != 3 || s.Stats.ActiveSeconds != 12.5 ||
		s.OutcomeEvaluations[1].Result != OutcomeResultSatisfied || s.OutcomeEvaluations[0].Explanation != nil ||
		s.Agent.Version != 3 || s.Agent.Model.Effort.Type != EffortHigh || len(s.Agent.Tools) != 3 {
		t.Errorf("session %+v", s)
	}
	if m := s.Resources[4].(MemoryStoreResource); m.Access != MemoryStoreAccessReadOnly || m.Name != "notes" {
		t.Errorf("memory store %+v", m)
	}
	var min Session
	if err := json.Unmarshal(readGolden(t, "sessions", "session_minimal.json"), &min); err != nil {
		t.Fatal(err)
	}
	if min.Title != nil || min.Budget != nil || min.Agent.Multiagent != nil || min.DeploymentID != nil || min.ArchivedAt != nil {
		t.Errorf("minimal %+v", min)
	}
}

// TestSessionRequestForms pins what the params send: the three agent
// forms, Update clears, resources with the token's value, initial events
// of both kinds with every content block, the budget.
func TestSessionRequestForms(t *testing.T) {
	base := func(p SessionCreateParams) SessionCreateParams { p.EnvironmentID = "env_1"; return p }
	for _, tt := range []struct {
		name string
		in   any
		want string
	}{
		{"agent id", base(SessionCreateParams{Agent: SessionAgentID("agent_1")}), `{"agent":"agent_1","environment_id":"env_1"}`},
		{"agent ref", base(SessionCreateParams{Agent: SessionAgentRef{ID: "agent_1", Version: Ptr(2)}}),
			`{"agent":{"type":"agent","id":"agent_1","version":2},"environment_id":"env_1"}`},
		{"agent ref latest", base(SessionCreateParams{Agent: SessionAgentRef{ID: "agent_1"}}),
			`{"agent":{"type":"agent","id":"agent_1"},"environment_id":"env_1"}`},
		{"overrides", base(SessionCreateParams{Agent: SessionAgentWithOverrides{ID: "agent_1", Model: AgentModel("m2"), System: Clear[string](),
			Tools: []AgentTool{}, Skills: []AgentSkill{{Type: SkillSourceCustom, SkillID: "skill_1"}}}}),
			`{"agent":{"type":"agent_with_overrides","id":"agent_1","model":"m2","system":null,"tools":[],"skills":[{"type":"custom","skill_id":"skill_1"}]},"environment_id":"env_1"}`},
		{"overrides set system", base(SessionCreateParams{Agent: SessionAgentWithOverrides{ID: "agent_1", Version: Ptr(1), System: Set("s")}}),
			`{"agent":{"type":"agent_with_overrides","id":"agent_1","version":1,"system":"s"},"environment_id":"env_1"}`},
		{"everything", base(SessionCreateParams{Agent: SessionAgentID("a"), Title: "t", Metadata: map[string]string{"k": "v"},
			Resources: []SessionResourceParams{
				GitHubRepositoryResourceParams{URL: "https://github.com/o/r", AuthorizationToken: NewSecret("ghp_secret"), Checkout: BranchCheckout{Name: "main"}},
				GitHubRepositoryResourceParams{URL: "u", AuthorizationToken: NewSecret("x"), MountPath: "/w", Checkout: CommitCheckout{SHA: "abc"}},
				FileResourceParams{FileID: "file_1", MountPath: "/m"},
				MemoryStoreResourceParams{MemoryStoreID: "memstore_1", Access: MemoryStoreAccessReadWrite, Instructions: "i"},
			},
			VaultIDs: []string{"vlt_1"},
			InitialEvents: []SessionEventParams{
				NewUserMessageEvent("hi"),
				NewUserMessageEventBlocks(ImageFromURL("https://x/i.png"), DocumentFromFile("file_2"), RedactedBlock{}),
				NewDefineOutcomeEvent("a report", TextRubric{Content: "complete"}),
				UserDefineOutcomeEventParams{Description: "d", Rubric: FileRubric{FileID: "file_3"}, MaxIterations: 5},
			},
			Budget: Ptr(BudgetUSD("12.50"))}),
			`{"agent":"a","environment_id":"env_1","title":"t","metadata":{"k":"v"},"resources":[` +
				`{"type":"github_repository","url":"https://github.com/o/r","authorization_token":"ghp_secret","checkout":{"type":"branch","name":"main"}},` +
				`{"type":"github_repository","url":"u","authorization_token":"x","mount_path":"/w","checkout":{"type":"commit","sha":"abc"}},` +
				`{"type":"file","file_id":"file_1","mount_path":"/m"},` +
				`{"type":"memory_store","memory_store_id":"memstore_1","access":"read_write","instructions":"i"}],` +
				`"vault_ids":["vlt_1"],"initial_events":[` +
				`{"type":"user.message","content":[{"type":"text","text":"hi"}]},` +
				`{"type":"user.message","content":[{"type":"image","source":{"type":"url","url":"https://x/i.png"}},{"type":"document","source":{"type":"file","file_id":"file_2"}},{"type":"redacted"}]},` +
				`{"type":"user.define_outcome","description":"a report","rubric":{"type":"text","content":"complete"}},` +
				`{"type":"user.define_outcome","description":"d","rubric":{"type":"file","file_id":"file_3"},"max_iterations":5}],` +
				`"budget":{"type":"limit","max_list_cost":{"amount":"12.50","currency":"USD"}}}`},
		{"empty update", SessionUpdateParams{}, `{}`},
		{"update clears", SessionUpdateParams{Title: Clear[string](), Budget: Clear[SessionBudget](), Metadata: MetadataPatch{}.Delete("k")},
			`{"title":null,"metadata":{"k":null},"budget":null}`},
		{"update sets", SessionUpdateParams{Title: Set("t"), Budget: Set(BudgetUSD("5")),
			Agent: &SessionAgentUpdate{Tools: []AgentTool{AgentMCPToolset{MCPServerName: "s"}}, MCPServers: []AgentMCPServer{{Name: "s", URL: "u"}}}},
			`{"title":"t","agent":{"tools":[{"type":"mcp_toolset","mcp_server_name":"s"}],"mcp_servers":[{"type":"url","name":"s","url":"u"}]},` +
				`"budget":{"type":"limit","max_list_cost":{"amount":"5","currency":"USD"}}}`},
		{"update clears agent tools", SessionUpdateParams{Agent: &SessionAgentUpdate{Tools: []AgentTool{}}}, `{"agent":{"tools":[]}}`},
		{"resource add", FileResourceParams{FileID: "file_1"}, `{"type":"file","file_id":"file_1"}`},
		{"resource update", SessionResourceUpdateParams{AuthorizationToken: NewSecret("tok")}, `{"authorization_token":"tok"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			requireJSONEqual(t, []byte(tt.want), got)
			body, err := codec.MarshalRequest(tt.in)
			require.NoError(t, err)
			requireJSONEqual(t, []byte(tt.want), body)
		})
	}
}

// TestSessionParamsDecode reads the params forms back: each agent form,
// resources, events and their blocks.
func TestSessionParamsDecode(t *testing.T) {
	in := `{"agent":"agent_1","environment_id":"e","resources":[{"type":"github_repository","url":"u","authorization_token":"t","checkout":{"type":"commit","sha":"s"}},` +
		`{"type":"memory_store","memory_store_id":"m"},{"type":"zip","x":1}],` +
		`"initial_events":[{"type":"user.message","content":[{"type":"text","text":"hi"},{"type":"redacted"},{"type":"video"}]},` +
		`{"type":"user.define_outcome","description":"d","rubric":{"type":"file","file_id":"f"}},{"type":"user.pause"}]}`
	var p SessionCreateParams
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	want := SessionCreateParams{Agent: SessionAgentID("agent_1"), EnvironmentID: "e",
		Resources: []SessionResourceParams{
			GitHubRepositoryResourceParams{URL: "u", AuthorizationToken: NewSecret("t"), Checkout: CommitCheckout{SHA: "s"}},
			MemoryStoreResourceParams{MemoryStoreID: "m"},
			UnknownSessionResourceParams{Type: "zip", Raw: json.RawMessage(`{"type":"zip","x":1}`)},
		},
		InitialEvents: []SessionEventParams{
			UserMessageEventParams{Content: []SessionContentBlock{TextBlock{Text: "hi"}, RedactedBlock{},
				UnknownSessionContentBlock{Type: "video", Raw: json.RawMessage(`{"type":"video"}`)}}},
			UserDefineOutcomeEventParams{Description: "d", Rubric: FileRubric{FileID: "f"}},
			UnknownSessionEventParams{Type: "user.pause", Raw: json.RawMessage(`{"type":"user.pause"}`)},
		}}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, tt := range []struct {
		in   string
		want SessionAgentParams
	}{
		{`{"type":"agent","id":"a","version":3}`, SessionAgentRef{ID: "a", Version: Ptr(3)}},
		{`{"type":"agent_with_overrides","id":"a","system":null,"model":{"id":"m","effort":"low"}}`,
			SessionAgentWithOverrides{ID: "a", System: Clear[string](), Model: ModelConfigParams{ID: "m", Effort: EffortLow}}},
	} {
		got, err := sessionAgentParamsUnion.Decode([]byte(tt.in))
		if err != nil || !cmp.Equal(got, tt.want, cmp.AllowUnexported(Update[string]{})) {
			t.Errorf("%s: %v %#v", tt.in, err, got)
		}
	}
}

// TestSessionSecretsNotPrinted: a repository token in params prints as
// <redacted> with every verb.
func TestSessionSecretsNotPrinted(t *testing.T) {
	p := SessionCreateParams{Agent: SessionAgentID("a"), EnvironmentID: "e",
		Resources: []SessionResourceParams{GitHubRepositoryResourceParams{URL: "u", AuthorizationToken: NewSecret("ghp_topsecret")}}}
	for _, s := range []string{fmt.Sprintf("%v", p), fmt.Sprintf("%+v", p), fmt.Sprintf("%#v", p),
		fmt.Sprintf("%v", SessionResourceUpdateParams{AuthorizationToken: NewSecret("ghp_topsecret")})} {
		if strings.Contains(s, "topsecret") {
			t.Errorf("secret printed: %s", s)
		}
	}
}

func FuzzSession(f *testing.F) {
	for _, name := range []string{"session_full.json", "session_minimal.json", "session_unknown.json", "session_multiagent.json"} {
		f.Add(readGolden(f, "sessions", name))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkRecordRoundTrip[Session](t, data) })
}

func FuzzSessionThread(f *testing.F) {
	for _, name := range []string{"thread_agent.json", "thread_advisor.json", "thread_unknown.json", "thread_inline.json"} {
		f.Add(readGolden(f, "sessions", name))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkRecordRoundTrip[SessionThread](t, data) })
}

func FuzzSessionResource(f *testing.F) {
	fuzzDecoder(f, sessionResourceUnion.Decode,
		`{"type":"github_repository","id":"r","url":"u","mount_path":"/w","checkout":{"type":"branch","name":"main"},"created_at":"t","updated_at":"t"}`,
		`{"type":"file","id":"r","file_id":"f","mount_path":"/m","created_at":"t","updated_at":"t"}`,
		`{"type":"memory_store","memory_store_id":"m","access":"read_only"}`)
}

func FuzzThreadAgent(f *testing.F) {
	fuzzDecoder(f, threadAgentUnion.Decode,
		`{"type":"agent","id":"a","version":1,"name":"n","description":null,"system":null,"model":{"id":"m"},"tools":[],"mcp_servers":[],"skills":[]}`,
		`{"type":"advisor","model":"m"}`)
}

func FuzzRepositoryCheckout(f *testing.F) {
	fuzzDecoder(f, repositoryCheckoutUnion.Decode, `{"type":"branch","name":"b"}`, `{"type":"commit","sha":"s"}`)
}

func FuzzSessionAgentParams(f *testing.F) {
	fuzzDecoder(f, sessionAgentParamsUnion.Decode, `"agent_1"`, `{"type":"agent","id":"a","version":1}`,
		`{"type":"agent_with_overrides","id":"a","system":null,"tools":[]}`)
}

func FuzzSessionResourceParams(f *testing.F) {
	fuzzDecoder(f, sessionResourceParamsUnion.Decode,
		`{"type":"github_repository","url":"u","authorization_token":"t","checkout":{"type":"commit","sha":"s"}}`,
		`{"type":"file","file_id":"f"}`, `{"type":"memory_store","memory_store_id":"m","access":"read_write","instructions":"i"}`)
}

func FuzzSessionEventParams(f *testing.F) {
	fuzzDecoder(f, sessionEventParamsUnion.Decode,
		`{"type":"user.message","content":[{"type":"text","text":"hi"},{"type":"redacted"}]}`,
		`{"type":"user.define_outcome","description":"d","rubric":{"type":"text","content":"c"},"max_iterations":3}`)
}

func FuzzSessionContentBlock(f *testing.F) {
	fuzzDecoder(f, sessionContentBlockUnion.Decode, `{"type":"text","text":"t"}`, `{"type":"redacted"}`,
		`{"type":"image","source":{"type":"url","url":"u"}}`, `{"type":"document","source":{"type":"file","file_id":"f"},"title":"t"}`)
}

func FuzzOutcomeRubric(f *testing.F) {
	fuzzDecoder(f, outcomeRubricUnion.Decode, `{"type":"text","content":"c"}`, `{"type":"file","file_id":"f"}`)
}

// TestSessionDeletedRoundTrip: the deletion answers decode, keep unknown
// members, and re-encode losslessly.
func TestSessionDeletedRoundTrip(t *testing.T) {
	d := roundTrip[SessionDeleted](t, []byte(`{"id":"sesn_1","type":"session_deleted","purged":true}`), nil)
	r := roundTrip[SessionResourceDeleted](t, []byte(`{"id":"sesrsc_1","type":"session_resource_deleted"}`), nil)
	if d.ID != "sesn_1" || r.ID != "sesrsc_1" || string(d.Extra["purged"]) != "true" {
		t.Errorf("%+v %+v", d, r)
	}
	var other SessionDeleted
	if err := json.Unmarshal([]byte(`{"id":"x","type":"environment_deleted"}`), &other); err == nil {
		t.Errorf("another deletion's type decoded: %+v", other)
	}
}

func FuzzSessionDeleted(f *testing.F) {
	f.Add([]byte(`{"id":"sesn_1","type":"session_deleted"}`))
	f.Add([]byte(`{"id":"sesrsc_1","type":"session_resource_deleted","x":[1]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRecordRoundTrip[SessionDeleted](t, data)
		checkRecordRoundTrip[SessionResourceDeleted](t, data)
	})
}
