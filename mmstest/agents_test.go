package mmstest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// agentCall sends a managed-agents request (with the beta) and returns the
// response and body.
func agentCall(t *testing.T, s *Server, method, path, body string) (*http.Response, []byte) {
	t.Helper()
	var req *http.Request
	if body == "" {
		req = newReq(t, s, method, path, nil)
	} else {
		req = newReq(t, s, method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set(wire.HeaderBeta, wire.BetaManagedAgents)
	return send(t, s, req)
}

func agentOK(t *testing.T, s *Server, method, path, body string) agentWire {
	t.Helper()
	resp, b := agentCall(t, s, method, path, body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	var a agentWire
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

func TestAgentsRequireBeta(t *testing.T) {
	s := newTestServer(t)
	resp, body := send(t, s, newReq(t, s, http.MethodGet, "/v1/agents", nil))
	wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, wire.BetaManagedAgents)
}

func TestAgentsLifecycle(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	a := agentOK(t, s, "POST", "/v1/agents", `{"name":"a","model":{"id":"m","effort":"high"},"description":"d",`+
		`"tools":[{"type":"mcp_toolset","mcp_server_name":"docs"}],"mcp_servers":[{"type":"url","name":"docs","url":"https://x"}],"metadata":{"k":"v","gone":"x"}}`)
	if !strings.HasPrefix(a.ID, "agent_") || a.Version != 1 || a.ArchivedAt != nil || string(a.Multiagent) != "null" ||
		string(a.Model) != `{"effort":{"type":"high"},"id":"m"}` || string(a.Skills) != "[]" {
		t.Fatalf("created %+v", a)
	}
	path := "/v1/agents/" + a.ID
	clock.Advance(time.Minute)
	// Clear description and tools+servers, delete and upsert metadata.
	u := agentOK(t, s, "POST", path, `{"version":1,"description":null,"tools":[],"mcp_servers":null,"metadata":{"gone":null,"n":"1"}}`)
	if u.Version != 2 || u.Description != nil || string(u.Tools) != "[]" || string(u.MCPServers) != "[]" ||
		!cmp.Equal(u.Metadata, map[string]string{"k": "v", "n": "1"}) || u.UpdatedAt == a.UpdatedAt || u.CreatedAt != a.CreatedAt {
		t.Fatalf("updated %+v", u)
	}
	// Stale version: 409.
	resp, body := agentCall(t, s, "POST", path, `{"version":1,"name":"b"}`)
	wantError(t, resp, body, http.StatusConflict, wire.ErrInvalidRequest, "version 2")
	// An update that changes nothing makes no version.
	// No version: 400.
	resp, body = agentCall(t, s, "POST", path, `{"name":"b"}`)
	wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, "version: Field required")
	if n := agentOK(t, s, "POST", path, `{"version":2,"name":"a"}`); n.Version != 2 {
		t.Errorf("no-op update made version %d", n.Version)
	}
	// "" clears system; the old version stays readable.
	agentOK(t, s, "POST", path, `{"version":2,"system":"s"}`)
	if v := agentOK(t, s, "POST", path, `{"version":3,"system":""}`); v.Version != 4 || v.System != nil {
		t.Errorf("system cleared: %+v", v)
	}
	if v1 := agentOK(t, s, "GET", path+"?version=1", ""); v1.Version != 1 || v1.Description == nil || len(v1.Metadata) != 2 || v1.Metadata["gone"] != "x" {
		t.Errorf("version 1: %+v", v1)
	}
	for _, body := range []string{`{"version":4,"name":null}`, `{"version":4,"model":null}`, `{"version":4,"name":""}`} {
		resp, b := agentCall(t, s, "POST", path, body)
		wantError(t, resp, b, http.StatusBadRequest, wire.ErrInvalidRequest, "")
	}
	resp, body = agentCall(t, s, "GET", path+"?version=9", "")
	wantError(t, resp, body, http.StatusNotFound, wire.ErrNotFound, "version 9")
	// Versions, newest first, two per page.
	var versions []int
	page := ""
	for {
		resp, body := agentCall(t, s, "GET", path+"/versions?limit=3"+page, "")
		var p cursorPage[agentWire]
		if resp.StatusCode != 200 || json.Unmarshal(body, &p) != nil {
			t.Fatalf("versions: %d %s", resp.StatusCode, body)
		}
		for _, v := range p.Data {
			versions = append(versions, v.Version)
		}
		if p.NextPage == nil {
			break
		}
		page = "&page=" + *p.NextPage
	}
	if !cmp.Equal(versions, []int{4, 3, 2, 1}) {
		t.Errorf("versions %v", versions)
	}
	// Archive: kept, listed only with include_archived, not updatable.
	ar := agentOK(t, s, "POST", path+"/archive", "")
	if ar.ArchivedAt == nil || ar.Version != 4 {
		t.Errorf("archived %+v", ar)
	}
	resp, body = agentCall(t, s, "POST", path, `{"version":4,"name":"c"}`)
	wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, "Archived")
	resp, body = agentCall(t, s, "GET", "/v1/agents/agent_nope", "")
	wantError(t, resp, body, http.StatusNotFound, wire.ErrNotFound, "agent_nope")
}

func TestAgentsListFilters(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	var ids []string
	for range 3 {
		ids = append(ids, agentOK(t, s, "POST", "/v1/agents", `{"name":"a","model":"m"}`).ID)
		clock.Advance(time.Hour)
	}
	agentOK(t, s, "POST", "/v1/agents/"+ids[1]+"/archive", "")
	list := func(query string) []string {
		t.Helper()
		resp, body := agentCall(t, s, "GET", "/v1/agents?"+query, "")
		var p cursorPage[agentWire]
		if resp.StatusCode != 200 || json.Unmarshal(body, &p) != nil {
			t.Fatalf("list %s: %d %s", query, resp.StatusCode, body)
		}
		var got []string
		for _, a := range p.Data {
			got = append(got, a.ID)
		}
		return got
	}
	start := newFakeClock().Now()
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"", []string{ids[2], ids[0]}},
		{"include_archived=true", []string{ids[2], ids[1], ids[0]}},
		{"include_archived=true&created_at[gte]=" + start.Add(time.Hour).Format(time.RFC3339), []string{ids[2], ids[1]}},
		{"include_archived=true&created_at[lte]=" + start.Add(time.Hour).Format(time.RFC3339), []string{ids[1], ids[0]}},
		{"include_archived=true&limit=1", []string{ids[2]}},
	} {
		if got := list(tt.query); !cmp.Equal(got, tt.want) {
			t.Errorf("%q: %v, want %v", tt.query, got, tt.want)
		}
	}
	resp, body := agentCall(t, s, "GET", "/v1/agents?limit=101", "")
	wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, "limit")
	resp, body = agentCall(t, s, "GET", "/v1/agents?created_at[gte]=yesterday", "")
	wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, "created_at[gte]")
}

func TestAgentsCreateRules(t *testing.T) {
	s := newTestServer(t)
	long := func(n int) string { return strings.Repeat("x", n) }
	for _, tt := range []struct {
		name, body, msg string // msg "" = accepted
	}{
		{"name 256", `{"name":"` + long(256) + `","model":"m"}`, ""},
		{"name 257", `{"name":"` + long(257) + `","model":"m"}`, "name: String should have at most 256"},
		{"empty name", `{"name":"","model":"m"}`, "name"},
		{"server name 255", `{"name":"a","model":"m","mcp_servers":[{"type":"url","name":"` + long(255) + `","url":"u"}],` +
			`"tools":[{"type":"mcp_toolset","mcp_server_name":"` + long(255) + `"}]}`, ""},
		{"server name 256", `{"name":"a","model":"m","mcp_servers":[{"type":"url","name":"` + long(256) + `","url":"u"}],` +
			`"tools":[{"type":"mcp_toolset","mcp_server_name":"` + long(256) + `"}]}`, "mcp_servers.0.name"},
		{"no model", `{"name":"a"}`, "model"},
		{"unknown member", `{"name":"a","model":"m","color":"red"}`, "color"},
		{"description 2048", `{"name":"a","model":"m","description":"` + long(2048) + `"}`, ""},
		{"description 2049", `{"name":"a","model":"m","description":"` + long(2049) + `"}`, "description: String should have at most 2048"},
		{"bad custom name", `{"name":"a","model":"m","tools":[{"type":"custom","name":"a b","description":"d","input_schema":{"type":"object"}}]}`, "tools.0.name"},
		{"custom description 4097", `{"name":"a","model":"m","tools":[{"type":"custom","name":"t","description":"` + long(4097) + `","input_schema":{"type":"object"}}]}`, "tools.0.description"},
		{"unreferenced server", `{"name":"a","model":"m","mcp_servers":[{"type":"url","name":"s","url":"u"}]}`, "not referenced"},
		{"toolset without server", `{"name":"a","model":"m","tools":[{"type":"mcp_toolset","mcp_server_name":"s"}]}`, "no MCP server"},
		{"duplicate server", `{"name":"a","model":"m","tools":[{"type":"mcp_toolset","mcp_server_name":"s"}],` +
			`"mcp_servers":[{"type":"url","name":"s","url":"u"},{"type":"url","name":"s","url":"v"}]}`, "unique"},
		{"metadata value 513", `{"name":"a","model":"m","metadata":{"k":"` + long(513) + `"}}`, "metadata"},
		{"metadata key 65", `{"name":"a","model":"m","metadata":{"` + long(65) + `":"v"}}`, "metadata"},
		{"metadata value 512", `{"name":"a","model":"m","metadata":{"k":"` + long(512) + `"}}`, ""},
		{"tool config by name", `{"name":"a","model":"m","tools":[{"type":"agent_toolset_20260401","configs":[{"name":"bash","enabled":false}]}]}`, ""},
		{"tool config with type", `{"name":"a","model":"m","tools":[{"type":"agent_toolset_20260401","configs":[{"name":"bash"},{"type":"grep","name":"grep"}]}]}`,
			"tools.0.configs.1.type: Extra inputs are not permitted"},
		{"tool config without name", `{"name":"a","model":"m","tools":[{"type":"agent_toolset_20260401","configs":[{"enabled":true}]}]}`, "tools.0.configs.0.name"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := agentCall(t, s, "POST", "/v1/agents", tt.body)
			if tt.msg == "" {
				if resp.StatusCode != 200 {
					t.Fatalf("%d %s", resp.StatusCode, body)
				}
				return
			}
			wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, tt.msg)
		})
	}
}

// TestAgentsToolConfigRecord: a built-in tool config sent by name comes
// back in the record with "type" equal to its name, on create and update.
func TestAgentsToolConfigRecord(t *testing.T) {
	s := newTestServer(t)
	tools := `"tools":[{"type":"agent_toolset_20260401","configs":[{"name":"bash","enabled":false},{"name":"read"}]}]`
	a := agentOK(t, s, "POST", "/v1/agents", `{"name":"a","model":"m",`+tools+`}`)
	want := `[{"configs":[{"enabled":false,"name":"bash","type":"bash"},{"name":"read","type":"read"}],"type":"agent_toolset_20260401"}]`
	if string(a.Tools) != want {
		t.Errorf("created tools %s, want %s", a.Tools, want)
	}
	u := agentOK(t, s, "POST", "/v1/agents/"+a.ID, `{"version":1,`+strings.Replace(tools, `"enabled":false`, `"enabled":true`, 1)+`}`)
	if want := strings.Replace(want, `"enabled":false`, `"enabled":true`, 1); string(u.Tools) != want || u.Version != 2 {
		t.Errorf("updated tools %s (version %d), want %s", u.Tools, u.Version, want)
	}
}
