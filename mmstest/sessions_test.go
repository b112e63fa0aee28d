package mmstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// sessionFixture is a server with an agent.
// testEnvID is the id of the cloud environment sessionFixture creates
// first (ids depend only on the request sequence).
const testEnvID = "env_010000000000000000000001"

// sessionFixture is a server holding an agent and a cloud environment
// (testEnvID) for sessions to run in.
func sessionFixture(t *testing.T) (*Server, agentWire) {
	t.Helper()
	s := newTestServer(t)
	a := agentOK(t, s, "POST", "/v1/agents", `{"name":"a","model":"m"}`)
	if e := envOK(t, s, "POST", "/v1/environments", `{"name":"cloud"}`); e.ID != testEnvID {
		t.Fatalf("environment id %s, want %s", e.ID, testEnvID)
	}
	seedMemoryStore(s, "memstore_1") // the store the resources below name
	return s, a
}

func sessionOK(t *testing.T, s *Server, method, path, body string) sessionWire {
	t.Helper()
	resp, b := agentCall(t, s, method, path, body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	var out sessionWire
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSessionsRequireBeta(t *testing.T) {
	s := newTestServer(t)
	resp, body := send(t, s, newReq(t, s, http.MethodGet, "/v1/sessions", nil))
	wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, wire.BetaManagedAgents)
}

// TestSessionCreateRules: each rule of the create body on both sides,
// and strictness (an unknown member anywhere is a 400 naming it).
func TestSessionCreateRules(t *testing.T) {
	s, a := sessionFixture(t)
	vault := vaultOK[vaultWire](t, s, "POST", "/v1/vaults", `{"display_name":"v"}`)
	gone := vaultOK[vaultWire](t, s, "POST", "/v1/vaults", `{"display_name":"gone"}`)
	vaultOK[vaultWire](t, s, "POST", "/v1/vaults/"+gone.ID+"/archive", "")
	selfHosted := envOK(t, s, "POST", "/v1/environments", `{"name":"s","config":{"type":"self_hosted"}}`)
	archivedEnv := envOK(t, s, "POST", "/v1/environments", `{"name":"a"}`)
	envOK(t, s, "POST", "/v1/environments/"+archivedEnv.ID+"/archive", "")
	onEnv := func(envID, extra string) string {
		return `{"agent":"` + a.ID + `","environment_id":"` + envID + `"` + extra + `}`
	}
	body := func(extra string) string {
		return `{"agent":"` + a.ID + `","environment_id":"` + testEnvID + `"` + extra + `}`
	}
	events := func(n int) string {
		return `,"initial_events":[` + strings.TrimSuffix(strings.Repeat(`{"type":"user.message","content":[{"type":"text","text":"hi"}]},`, n), ",") + `]`
	}
	outcome := func(n int) string {
		return fmt.Sprintf(`,"initial_events":[{"type":"user.define_outcome","description":"d","rubric":{"type":"text","content":"c"},"max_iterations":%d}]`, n)
	}
	for _, tt := range []struct {
		name, body string
		status     int
		msg        string
	}{
		{"minimal", body(""), 200, ""},
		{"unknown member", body(`,"color":"red"`), 400, "color: Extra inputs"},
		{"vault and title", body(`,"vault_ids":["` + vault.ID + `"],"title":null`), 200, ""},
		{"unknown vault", body(`,"vault_ids":["vlt_nope"]`), 404, "Vault not found: vlt_nope"},
		{"archived vault", body(`,"vault_ids":["` + gone.ID + `"]`), 404, "Vault not found"},
		{"unknown environment", onEnv("env_nope", ""), 404, "Environment not found: env_nope"},
		{"archived environment", onEnv(archivedEnv.ID, ""), 404, "Environment not found"},
		{"self-hosted, memory store", onEnv(selfHosted.ID, `,"resources":[{"type":"memory_store","memory_store_id":"memstore_1"}]`), 200, ""},
		{"self-hosted, file", onEnv(selfHosted.ID, `,"resources":[{"type":"file","file_id":"file_1"}]`), 400, "only memory_store"},
		{"no agent", `{"environment_id":"` + testEnvID + `"}`, 400, "agent: Field required"},
		{"no environment", `{"agent":"` + a.ID + `"}`, 400, "environment_id"},
		{"unknown agent", `{"agent":"agent_x","environment_id":"` + testEnvID + `"}`, 404, "Agent not found"},
		{"ref version 2", `{"agent":{"type":"agent","id":"` + a.ID + `","version":2},"environment_id":"` + testEnvID + `"}`, 404, "no version 2"},
		{"ref version 0", `{"agent":{"type":"agent","id":"` + a.ID + `","version":0},"environment_id":"` + testEnvID + `"}`, 400, "agent.version"},
		{"ref with overrides", `{"agent":{"type":"agent","id":"` + a.ID + `","system":"s"},"environment_id":"` + testEnvID + `"}`, 400, "agent_with_overrides"},
		{"override unknown member", `{"agent":{"type":"agent_with_overrides","id":"` + a.ID + `","temperature":1},"environment_id":"` + testEnvID + `"}`, 400, "agent.temperature"},
		{"override system 100000", `{"agent":{"type":"agent_with_overrides","id":"` + a.ID + `","system":"` + strings.Repeat("s", 100_000) + `"},"environment_id":"` + testEnvID + `"}`, 200, ""},
		{"override system 100001", `{"agent":{"type":"agent_with_overrides","id":"` + a.ID + `","system":"` + strings.Repeat("s", 100_001) + `"},"environment_id":"` + testEnvID + `"}`, 400, "agent.system"},
		{"override toolset without server", `{"agent":{"type":"agent_with_overrides","id":"` + a.ID + `","tools":[{"type":"mcp_toolset","mcp_server_name":"x"}]},"environment_id":"` + testEnvID + `"}`, 400, "mcp_server_name"},
		{"17 metadata pairs", body(`,"metadata":{` + strings.TrimSuffix(strings.Repeat(`"k":"v",`, 1), ",") + `,"a1":"","a2":"","a3":"","a4":"","a5":"","a6":"","a7":"","a8":"","a9":"","b1":"","b2":"","b3":"","b4":"","b5":"","b6":"","b7":""}`), 400, "metadata"},
		{"metadata value 513", body(`,"metadata":{"k":"` + strings.Repeat("v", 513) + `"}`), 400, "metadata.k"},
		{"github", body(`,"resources":[{"type":"github_repository","url":"u","authorization_token":"t","checkout":{"type":"commit","sha":"abc1234"}}]`), 200, ""},
		{"github no token", body(`,"resources":[{"type":"github_repository","url":"u"}]`), 400, "resources.0.authorization_token"},
		{"github no url", body(`,"resources":[{"type":"github_repository","authorization_token":"t"}]`), 400, "resources.0.url"},
		{"github bad checkout", body(`,"resources":[{"type":"github_repository","url":"u","authorization_token":"t","checkout":{"type":"tag","name":"v"}}]`), 400, "checkout"},
		{"file missing", body(`,"resources":[{"type":"file","file_id":"file_nope"}]`), 404, "File not found"},
		{"file no id", body(`,"resources":[{"type":"file"}]`), 400, "resources.0.file_id"},
		{"memory", body(`,"resources":[{"type":"memory_store","memory_store_id":"memstore_1","instructions":"` + strings.Repeat("é", 4096) + `"}]`), 200, ""},
		{"memory instructions 4097", body(`,"resources":[{"type":"memory_store","memory_store_id":"memstore_1","instructions":"` + strings.Repeat("é", 4097) + `"}]`), 400, "instructions"},
		{"memory access", body(`,"resources":[{"type":"memory_store","memory_store_id":"memstore_1","access":"admin"}]`), 400, "access"},
		{"memory no id", body(`,"resources":[{"type":"memory_store"}]`), 400, "memory_store_id"},
		{"resource unknown type", body(`,"resources":[{"type":"s3"}]`), 400, "resources.0.type"},
		{"50 events", body(events(50)), 200, ""},
		{"51 events", body(events(51)), 400, "initial_events"},
		{"interrupt event", body(`,"initial_events":[{"type":"user.interrupt"}]`), 400, "initial_events.0.type"},
		{"empty message", body(`,"initial_events":[{"type":"user.message","content":[]}]`), 400, "content"},
		{"empty text", body(`,"initial_events":[{"type":"user.message","content":[{"type":"text","text":""}]}]`), 400, "content.0.text"},
		{"block member", body(`,"initial_events":[{"type":"user.message","content":[{"type":"text","text":"a","cache_control":{}}]}]`), 400, "cache_control"},
		{"blocks", body(`,"initial_events":[{"type":"user.message","content":[{"type":"image","source":{"type":"url","url":"u"}},{"type":"document","source":{"type":"file","file_id":"f"},"title":"t"},{"type":"redacted"}]}]`), 200, ""},
		{"max_iterations 1", body(outcome(1)), 200, ""},
		{"max_iterations 20", body(outcome(20)), 200, ""},
		{"max_iterations 0", body(outcome(0)), 400, "max_iterations"},
		{"max_iterations 21", body(outcome(21)), 400, "max_iterations"},
		{"outcome bad rubric", body(`,"initial_events":[{"type":"user.define_outcome","description":"d","rubric":{"type":"text"}}]`), 400, "rubric"},
		{"budget", body(`,"budget":{"type":"limit","max_list_cost":{"amount":"12.50","currency":"USD"}}`), 200, ""},
		{"budget amount", body(`,"budget":{"type":"limit","max_list_cost":{"amount":"12,5","currency":"USD"}}`), 400, "amount"},
		{"budget currency", body(`,"budget":{"type":"limit","max_list_cost":{"amount":"1","currency":"EUR"}}`), 400, "currency"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, b := agentCall(t, s, "POST", "/v1/sessions", tt.body)
			if resp.StatusCode != tt.status || !strings.Contains(string(b), tt.msg) {
				t.Errorf("%d %s, want %d containing %q", resp.StatusCode, b, tt.status, tt.msg)
			}
		})
	}
}

// TestSessionSnapshotAndThreads: the agent snapshot, its roster resolved,
// one thread per roster member, a token never echoed.
func TestSessionSnapshotAndThreads(t *testing.T) {
	s, a := sessionFixture(t)
	coord := agentOK(t, s, "POST", "/v1/agents", `{"name":"lead","model":"m","multiagent":{"type":"coordinator","agents":["`+a.ID+`",{"type":"self"},{"type":"advisor","model":"adv"}]}}`)
	resp, b := agentCall(t, s, "POST", "/v1/sessions", `{"agent":"`+coord.ID+`","environment_id":"`+testEnvID+`",`+
		`"resources":[{"type":"github_repository","url":"https://github.com/o/r","authorization_token":"ghp_secret"}]}`)
	if resp.StatusCode != 200 || strings.Contains(string(b), "ghp_secret") {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	var sess sessionWire
	if err := json.Unmarshal(b, &sess); err != nil {
		t.Fatal(err)
	}
	var roster struct {
		Type   string            `json:"type"`
		Agents []json.RawMessage `json:"agents"`
	}
	if err := json.Unmarshal(sess.Agent.Multiagent, &roster); err != nil || roster.Type != "coordinator" || len(roster.Agents) != 3 {
		t.Fatalf("roster %s %v", sess.Agent.Multiagent, err)
	}
	if !strings.Contains(string(roster.Agents[0]), `"name":"a"`) || strings.Contains(string(roster.Agents[0]), "multiagent") ||
		!strings.Contains(string(roster.Agents[1]), `"name":"lead"`) || string(roster.Agents[2]) != `{"type":"advisor","model":"adv"}` {
		t.Errorf("roster agents %s", roster.Agents)
	}
	if tok, ok := s.RepositoryToken(sess.ID, "sesrsc_010000000000000000000001"); !ok || tok != "ghp_secret" {
		t.Errorf("stored token %q %v", tok, ok)
	}
	resp, b = agentCall(t, s, "GET", "/v1/sessions/"+sess.ID+"/threads?limit=2", "")
	var page cursorPage[threadWire]
	if err := json.Unmarshal(b, &page); err != nil || resp.StatusCode != 200 || len(page.Data) != 2 || page.NextPage == nil {
		t.Fatalf("threads %d %s", resp.StatusCode, b)
	}
	th := page.Data[0]
	if !strings.HasPrefix(th.ID, "sthr_") || th.SessionID != sess.ID || th.Status != "idle" || string(th.Stats) != "null" {
		t.Errorf("thread %+v", th)
	}
	got := agentOK(t, s, "POST", "/v1/sessions/"+sess.ID+"/threads/"+th.ID+"/archive", "")
	_ = got
	resp, b = agentCall(t, s, "GET", "/v1/sessions/"+sess.ID+"/threads/"+th.ID, "")
	if resp.StatusCode != 200 || !strings.Contains(string(b), `"archived_at":"`) {
		t.Errorf("archived thread %d %s", resp.StatusCode, b)
	}
	resp, b = agentCall(t, s, "GET", "/v1/sessions/"+sess.ID+"/threads/sthr_nope", "")
	wantError(t, resp, b, http.StatusNotFound, wire.ErrNotFound, "thread")
}

// TestSessionUpdateRules: the update members, vault_ids refused, budget
// only replaced or removed, strictness.
func TestSessionUpdateRules(t *testing.T) {
	s, a := sessionFixture(t)
	withBudget := sessionOK(t, s, "POST", "/v1/sessions", `{"agent":"`+a.ID+`","environment_id":"`+testEnvID+`","title":"t","budget":{"type":"limit","max_list_cost":{"amount":"5","currency":"USD"}}}`)
	plain := sessionOK(t, s, "POST", "/v1/sessions", `{"agent":"`+a.ID+`","environment_id":"`+testEnvID+`"}`)
	for _, tt := range []struct {
		name, id, body string
		status         int
		msg            string
	}{
		{"title cleared", withBudget.ID, `{"title":null}`, 200, `"title":null`},
		{"vault_ids", withBudget.ID, `{"vault_ids":["vlt_1"]}`, 400, "vault_ids"},
		{"unknown member", withBudget.ID, `{"status":"running"}`, 400, "status: Extra inputs"},
		{"agent unknown member", withBudget.ID, `{"agent":{"model":"m"}}`, 400, "model"},
		{"agent tools", withBudget.ID, `{"agent":{"tools":[{"type":"custom","name":"t","description":"d","input_schema":{"type":"object"}}]}}`, 200, `"name":"t"`},
		{"agent server unused", withBudget.ID, `{"agent":{"mcp_servers":[{"type":"url","name":"s","url":"u"}]}}`, 400, "not referenced"},
		{"budget replaced", withBudget.ID, `{"budget":{"type":"limit","max_list_cost":{"amount":"9","currency":"USD"}}}`, 200, `"amount":"9"`},
		{"budget bad", withBudget.ID, `{"budget":{"type":"limit","max_list_cost":{"amount":"x","currency":"USD"}}}`, 400, "amount"},
		{"budget removed", withBudget.ID, `{"budget":null}`, 200, `"budget":null`},
		{"budget added later", plain.ID, `{"budget":{"type":"limit","max_list_cost":{"amount":"1","currency":"USD"}}}`, 400, "cannot be added"},
		{"metadata", plain.ID, `{"metadata":{"a":"1","b":null}}`, 200, `"metadata":{"a":"1"}`},
		{"unknown session", "sesn_nope", `{}`, 404, "Session not found"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, b := agentCall(t, s, "POST", "/v1/sessions/"+tt.id, tt.body)
			if resp.StatusCode != tt.status || !strings.Contains(string(b), tt.msg) {
				t.Errorf("%d %s, want %d containing %q", resp.StatusCode, b, tt.status, tt.msg)
			}
		})
	}
}

// TestSessionResourcesRules: only files are added, a token rotates and is
// never echoed, delete, and the list.
func TestSessionResourcesRules(t *testing.T) {
	s, a := sessionFixture(t)
	sess := sessionOK(t, s, "POST", "/v1/sessions", `{"agent":"`+a.ID+`","environment_id":"`+testEnvID+`",`+
		`"resources":[{"type":"github_repository","url":"u","authorization_token":"old"},{"type":"memory_store","memory_store_id":"memstore_1"}]}`)
	base := "/v1/sessions/" + sess.ID + "/resources"
	var repo struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(sess.Resources[0], &repo)
	for _, tt := range []struct {
		name, method, path, body string
		status                   int
		msg                      string
	}{
		{"add repository", "POST", base, `{"type":"github_repository","url":"u","authorization_token":"t"}`, 400, "only file resources"},
		{"add memory", "POST", base, `{"type":"memory_store","memory_store_id":"m"}`, 400, "only file resources"},
		{"add missing file", "POST", base, `{"type":"file","file_id":"file_nope"}`, 404, "File not found"},
		{"rotate", "POST", base + "/" + repo.ID, `{"authorization_token":"new"}`, 200, `"type":"github_repository"`},
		{"rotate without token", "POST", base + "/" + repo.ID, `{}`, 400, "authorization_token"},
		{"rotate unknown member", "POST", base + "/" + repo.ID, `{"authorization_token":"x","url":"v"}`, 400, "url"},
		{"get", "GET", base + "/" + repo.ID, "", 200, `"url":"u"`},
		{"get unknown", "GET", base + "/sesrsc_nope", "", 404, "resource not found"},
		{"list", "GET", base + "?limit=1", "", 200, `"next_page":"page_`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, b := agentCall(t, s, tt.method, tt.path, tt.body)
			if resp.StatusCode != tt.status || !strings.Contains(string(b), tt.msg) || strings.Contains(string(b), `"old"`) || strings.Contains(string(b), `"new"`) {
				t.Errorf("%d %s, want %d containing %q", resp.StatusCode, b, tt.status, tt.msg)
			}
		})
	}
	if tok, _ := s.RepositoryToken(sess.ID, repo.ID); tok != "new" {
		t.Errorf("token %q after rotation", tok)
	}
	resp, b := agentCall(t, s, "DELETE", base+"/"+repo.ID, "")
	if resp.StatusCode != 200 || string(b) != `{"id":"`+repo.ID+`","type":"session_resource_deleted"}`+"\n" {
		t.Errorf("delete %d %s", resp.StatusCode, b)
	}
	got := sessionOK(t, s, "GET", "/v1/sessions/"+sess.ID, "")
	if len(got.Resources) != 1 || !strings.Contains(string(got.Resources[0]), "memory_store") {
		t.Errorf("resources after delete %s", got.Resources)
	}
}

// TestSessionListRules: the query rules and the order-bound cursors.
func TestSessionListRules(t *testing.T) {
	s, a := sessionFixture(t)
	for range 3 {
		sessionOK(t, s, "POST", "/v1/sessions", `{"agent":"`+a.ID+`","environment_id":"`+testEnvID+`"}`)
	}
	resp, b := agentCall(t, s, "GET", "/v1/sessions?limit=2&order=asc", "")
	var page bidiPage[sessionWire]
	if err := json.Unmarshal(b, &page); err != nil || resp.StatusCode != 200 || page.PrevPage != nil || page.NextPage == nil {
		t.Fatalf("first page %d %s", resp.StatusCode, b)
	}
	for _, tt := range []struct {
		name, query string
		status      int
		msg         string
	}{
		{"next same order", "order=asc&page=" + *page.NextPage, 200, `"prev_page":"page_`},
		{"next other order", "order=desc&page=" + *page.NextPage, 400, "order"},
		{"next default order", "page=" + *page.NextPage, 400, "order"},
		{"bad order", "order=up", 400, "order"},
		{"version without agent", "agent_version=1", 400, "agent_version"},
		{"version with agent", "agent_id=" + a.ID + "&agent_version=1", 200, `"data":[{`},
		{"bad status", "statuses[]=sleeping", 400, "statuses"},
		{"bad time", "created_at[gt]=yesterday", 400, "created_at[gt]"},
		{"bad token", "page=nonsense", 400, "page"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, b := agentCall(t, s, "GET", "/v1/sessions?"+tt.query, "")
			if resp.StatusCode != tt.status || !strings.Contains(string(b), tt.msg) {
				t.Errorf("%d %s, want %d containing %q", resp.StatusCode, b, tt.status, tt.msg)
			}
		})
	}
}

// TestSessionQueuedForSelfHostedWorkers: a session in a self-hosted
// environment becomes a work item of its queue; one in a cloud
// environment does not.
func TestSessionQueuedForSelfHostedWorkers(t *testing.T) {
	s, a := sessionFixture(t)
	self := envOK(t, s, "POST", "/v1/environments", `{"name":"s","config":{"type":"self_hosted"}}`)
	sess := sessionOK(t, s, "POST", "/v1/sessions", `{"agent":"`+a.ID+`","environment_id":"`+self.ID+`"}`)
	sessionOK(t, s, "POST", "/v1/sessions", `{"agent":"`+a.ID+`","environment_id":"`+testEnvID+`"}`)
	resp, b := agentCall(t, s, "GET", "/v1/environments/"+self.ID+"/work", "")
	var page struct {
		Data []struct {
			State string `json:"state"`
			Data  struct {
				Type, ID string
			} `json:"data"`
		} `json:"data"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &page) != nil {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	if len(page.Data) != 1 || page.Data[0].Data.Type != "session" || page.Data[0].Data.ID != sess.ID || page.Data[0].State != "queued" {
		t.Errorf("work queue %s, want one queued item for %s", b, sess.ID)
	}
}
