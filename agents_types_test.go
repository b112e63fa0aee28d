package mms

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/internal/codec"

	"github.com/stretchr/testify/require"
)

// TestAgentGoldenRoundTrip decodes each golden agent record, checks which
// union values fell back to Unknown, and re-encodes it losslessly.
func TestAgentGoldenRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		file    string
		unknown []string
	}{
		{"agent_full.json", nil},
		{"agent_minimal.json", nil},
		{"agent_multiagent.json", nil},
		{"agent_unknown.json", []string{
			".Tools[0]: UnknownAgentTool",
			".Tools[1].DefaultConfig.PermissionPolicy: UnknownPermissionPolicy",
			".Tools[1].Configs[0]: UnknownAgentToolConfig",
			".Tools[1].Configs[1]: UnknownAgentToolConfig", // name differs from type
			".Multiagent.Agents[1]: UnknownRosterEntry",
		}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			in := readGolden(t, "agents", tt.file)
			var a Agent
			if err := json.Unmarshal(in, &a); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.unknown, findUnknown("", reflect.ValueOf(a))); diff != "" {
				t.Errorf("unknown variants (-want +got):\n%s", diff)
			}
			out, err := json.Marshal(a)
			require.NoError(t, err)
			requireJSONEqual(t, in, out)
			// The client's decoder gives the same value.
			var b Agent
			if err := decodeInto(in, &b); err != nil || !cmp.Equal(a, b) {
				t.Errorf("decodeInto: %v, differs: %s", err, cmp.Diff(a, b))
			}
		})
	}
}

// TestAgentFullDecodesEveryVariant pins the typed values of the full
// record: every tool, tool config, policy and roster variant.
func TestAgentFullDecodesEveryVariant(t *testing.T) {
	var a Agent
	if err := json.Unmarshal(readGolden(t, "agents", "agent_full.json"), &a); err != nil {
		t.Fatal(err)
	}
	var seen []string
	add := func(v any) { seen = append(seen, reflect.TypeOf(v).Name()) }
	for _, tool := range a.Tools {
		add(tool)
		switch tool := tool.(type) {
		case AgentToolset20260401:
			add(tool.DefaultConfig.PermissionPolicy)
			for _, c := range tool.Configs {
				add(c)
			}
		case AgentMCPToolset:
			add(tool.Configs[0].PermissionPolicy)
		}
	}
	for _, e := range a.Multiagent.Agents {
		add(e)
	}
	want := []string{
		"AgentToolset20260401", "AlwaysAllowPolicy", "BashToolConfig", "EditToolConfig", "ReadToolConfig",
		"WriteToolConfig", "GlobToolConfig", "GrepToolConfig", "WebFetchToolConfig", "WebSearchToolConfig",
		"AgentMCPToolset", "AlwaysAllowPolicy", "AgentCustomTool", "RosterAgent", "RosterAdvisor",
	}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("variants (-want +got):\n%s", diff)
	}
	ts := a.Tools[0].(AgentToolset20260401)
	if p := ts.Configs[1].(EditToolConfig).PermissionPolicy; !cmp.Equal(p, PermissionPolicy(AutoPolicy{})) {
		t.Errorf("edit policy %#v", p)
	}
	ws := ts.Configs[7].(WebSearchToolConfig)
	if ws.UserLocation == nil || ws.UserLocation.City != "Paris" || ws.AllowedDomains == nil || len(ws.AllowedDomains) != 0 {
		t.Errorf("web_search %+v", ws)
	}
	if a.Model.Effort == nil || a.Model.Effort.Type != EffortHigh || a.Model.Speed != ModelSpeedFast ||
		a.Description == nil || a.ArchivedAt != nil || a.Multiagent.Agents[0].(RosterAgent).Version == nil {
		t.Errorf("agent %+v", a)
	}
}

// TestAgentRequestForms pins what the params send: the model shorthand,
// the tool configs' name without "type" (the request schema has none, for
// known and unknown tools alike), the roster's bare id, Update states,
// and no unknown member of a decoded record going back into an update.
func TestAgentRequestForms(t *testing.T) {
	var rec Agent
	if err := json.Unmarshal(readGolden(t, "agents", "agent_unknown.json"), &rec); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		in   any
		want string
	}{
		{"bare model id", AgentCreateParams{Name: "a", Model: AgentModel("m")}, `{"name":"a","model":"m"}`},
		{"model object, bare effort", AgentCreateParams{Name: "a", Model: ModelConfigParams{ID: "m", Effort: EffortHigh, Speed: ModelSpeedFast}},
			`{"name":"a","model":{"id":"m","effort":"high","speed":"fast"}}`},
		{"tool configs carry their name", AgentCreateParams{Name: "a", Model: AgentModel("m"), Tools: []AgentTool{
			AgentToolset20260401{Configs: []AgentToolConfig{BashToolConfig{Enabled: Ptr(false)},
				WebFetchToolConfig{MaxContentTokens: Ptr(0), PermissionPolicy: AlwaysAskPolicy{}}}},
		}}, `{"name":"a","model":"m","tools":[{"type":"agent_toolset_20260401","configs":[` +
			`{"name":"bash","enabled":false},` +
			`{"name":"web_fetch","permission_policy":{"type":"always_ask"},"max_content_tokens":0}]}]}`},
		{"roster forms", AgentCreateParams{Name: "a", Model: AgentModel("m"), Multiagent: &AgentMultiagent{Agents: []RosterEntry{
			RosterAgentID("agent_1"), RosterAgent{ID: "agent_2"}, RosterAgent{ID: "agent_3", Version: Ptr(2)}, RosterSelf{}, RosterAdvisor{Model: "adv"},
		}}}, `{"name":"a","model":"m","multiagent":{"type":"coordinator","agents":["agent_1",{"type":"agent","id":"agent_2"},` +
			`{"type":"agent","id":"agent_3","version":2},{"type":"self"},{"type":"advisor","model":"adv"}]}}`},
		{"mcp server type defaults to url", AgentCreateParams{Name: "a", Model: AgentModel("m"), Tools: []AgentTool{AgentMCPToolset{MCPServerName: "s"}},
			MCPServers: []AgentMCPServer{{Name: "s", URL: "u"}}},
			`{"name":"a","model":"m","tools":[{"type":"mcp_toolset","mcp_server_name":"s"}],"mcp_servers":[{"type":"url","name":"s","url":"u"}]}`},
		{"version always sent", AgentUpdateParams{Version: 2}, `{"version":2}`},
		{"zero version sent (Validate refuses it)", AgentUpdateParams{}, `{"version":0}`},
		{"update clears", AgentUpdateParams{Version: 3, Description: Clear[string](), System: Set(""), Tools: Set([]AgentTool{}),
			MCPServers: Clear[[]AgentMCPServer](), Skills: Set([]AgentSkill(nil)), Multiagent: Clear[AgentMultiagent](),
			Metadata: MetadataPatch{"old": nil, "new": Ptr("v")}},
			`{"version":3,"description":null,"system":"","tools":[],"mcp_servers":null,"skills":null,"multiagent":null,"metadata":{"old":null,"new":"v"}}`},
		{"decoded tools go back in request form", AgentUpdateParams{Version: rec.Version, Tools: Set(rec.Tools[1:]), Model: rec.Model.Params()},
			`{"version":9,"model":{"id":"model-next","effort":"ultra","speed":"warp"},"tools":[{"type":"agent_toolset_20260401","default_config":{"enabled":true,"permission_policy":{"type":"ask_twice","times":2}},` +
				`"configs":[{"name":"teleport","enabled":true},{"name":"shell","enabled":true},{"name":"read","enabled":true,"permission_policy":{"type":"auto"}}]},` +
				`{"type":"custom","name":"t","description":"d","input_schema":{"type":"object"}}]}`},
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

// TestAgentParamsDecode reads the params forms back: a bare model id, an
// effort object, a tool config without "type", a bare roster id.
func TestAgentParamsDecode(t *testing.T) {
	var p AgentCreateParams
	in := `{"name":"a","model":{"id":"m","effort":{"type":"low"}},"tools":[{"type":"agent_toolset_20260401","configs":[{"name":"grep","enabled":true},{"name":"zap"}]}],` +
		`"multiagent":{"type":"coordinator","agents":["agent_1"]}}`
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	want := AgentCreateParams{Name: "a", Model: ModelConfigParams{ID: "m", Effort: EffortLow},
		Tools: []AgentTool{AgentToolset20260401{Configs: []AgentToolConfig{GrepToolConfig{Enabled: Ptr(true)},
			UnknownAgentToolConfig{Type: "zap", Raw: json.RawMessage(`{"name":"zap"}`)}}}},
		Multiagent: &AgentMultiagent{Type: MultiagentCoordinator, Agents: []RosterEntry{RosterAgentID("agent_1")}}}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	var m ModelConfigParams
	if err := json.Unmarshal([]byte(`"bare"`), &m); err != nil || m != AgentModel("bare") {
		t.Errorf("bare model: %+v %v", m, err)
	}
}

func FuzzAgent(f *testing.F) {
	var seeds [][]byte
	for _, name := range []string{"agent_full.json", "agent_minimal.json", "agent_unknown.json", "agent_multiagent.json"} {
		seeds = append(seeds, readGolden(f, "agents", name))
	}
	fuzzRecord[Agent](f, seeds...)
}

func FuzzAgentTool(f *testing.F) {
	fuzzDecoder(f, agentToolUnion.Decode,
		`{"type":"agent_toolset_20260401","default_config":{"enabled":true,"permission_policy":{"type":"always_allow"}},"configs":[{"type":"bash","name":"bash"}]}`,
		`{"type":"mcp_toolset","mcp_server_name":"s","configs":[{"name":"t","enabled":false}]}`,
		`{"type":"custom","name":"n","description":"d","input_schema":{"type":"object"}}`)
}

func FuzzAgentToolConfig(f *testing.F) {
	fuzzDecoder(f, agentToolConfigUnion.Decode,
		`{"type":"bash","name":"bash","enabled":true}`, `{"name":"grep"}`, `{"name":"nope"}`,
		`{"type":"web_fetch","name":"web_fetch","allowed_domains":["a"],"max_content_tokens":null}`,
		`{"type":"web_search","name":"web_search","user_location":{"type":"approximate","city":"c"}}`,
		`{"type":"read","name":"write"}`)
}

func FuzzPermissionPolicy(f *testing.F) {
	fuzzDecoder(f, permissionPolicyUnion.Decode, `{"type":"always_allow"}`, `{"type":"always_ask"}`, `{"type":"auto"}`)
}

func FuzzRosterEntry(f *testing.F) {
	fuzzDecoder(f, rosterEntryUnion.Decode,
		`"agent_1"`, `{"type":"agent","id":"a","version":1}`, `{"type":"self"}`, `{"type":"advisor","model":"m"}`)
}
