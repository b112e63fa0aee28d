package mms_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

const testAgentJSON = `{"id":"agent_1","type":"agent","name":"a","description":null,"system":null,"model":{"id":"m"},` +
	`"tools":[],"mcp_servers":[],"skills":[],"multiagent":null,"metadata":{},"version":2,` +
	`"created_at":"2026-04-02T10:00:00Z","updated_at":"2026-04-02T10:00:00Z","archived_at":null}`

// TestAgentsWire checks every agents operation against a scripted server:
// method, path, query (bracketed filters), the managed-agents beta merged
// with the client's and the call's betas, and the body.
func TestAgentsWire(t *testing.T) {
	page := `{"data":[` + testAgentJSON + `],"next_page":null}`
	after := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	before := time.Date(2026, 4, 30, 12, 0, 0, 5, time.FixedZone("x", 3600))
	for _, tt := range []struct {
		name                string
		reply               string
		do                  func(context.Context, *mms.Client) error
		method, path, query string
		body                string
	}{
		{"create", testAgentJSON, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Agents.Create(ctx, mms.AgentCreateParams{Name: "a", Model: mms.AgentModel("m"), Metadata: map[string]string{"k": "v"}})
			return err
		}, "POST", "/v1/agents", "", `{"name":"a","model":"m","metadata":{"k":"v"}}`},
		{"get", testAgentJSON, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Agents.Get(ctx, "agent_1")
			return err
		}, "GET", "/v1/agents/agent_1", "", ""},
		{"get version", testAgentJSON, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Agents.GetVersion(ctx, "agent_1", mms.AgentGetParams{Version: 2})
			return err
		}, "GET", "/v1/agents/agent_1", "version=2", ""},
		{"update", testAgentJSON, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Agents.Update(ctx, "agent_1", mms.AgentUpdateParams{Version: 2, System: mms.Clear[string](),
				Metadata: mms.MetadataPatch{}.Delete("k")})
			return err
		}, "POST", "/v1/agents/agent_1", "", `{"version":2,"system":null,"metadata":{"k":null}}`},
		{"archive", testAgentJSON, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Agents.Archive(ctx, "agent_1")
			return err
		}, "POST", "/v1/agents/agent_1/archive", "", ""},
		{"list", page, func(ctx context.Context, c *mms.Client) error {
			for _, err := range c.Agents.List(ctx, mms.AgentListParams{Limit: 5, IncludeArchived: true, CreatedAfter: after, CreatedBefore: before,
				Page: mms.Cursor{Token: "page_x"}}) {
				if err != nil {
					return err
				}
			}
			return nil
		}, "GET", "/v1/agents",
			"created_at%5Bgte%5D=2026-04-01T00%3A00%3A00Z&created_at%5Blte%5D=2026-04-30T11%3A00%3A00.000000005Z&include_archived=true&limit=5&page=page_x", ""},
		{"list versions", page, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Agents.Versions.ListPage(ctx, "agent 1", mms.AgentVersionListParams{Limit: 2})
			return err
		}, "GET", "/v1/agents/agent 1/versions", "limit=2", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{body: tt.reply})
			c := newTestClient(t, srv, option.WithBeta("context-1m-2025-08-07"))
			if err := tt.do(context.Background(), c); err != nil {
				t.Fatal(err)
			}
			got := srv.requests()
			if len(got) != 1 {
				t.Fatalf("%d requests", len(got))
			}
			r := got[0]
			if r.method != tt.method || r.path != tt.path || r.query != tt.query {
				t.Errorf("sent %s %s ? %s, want %s %s ? %s", r.method, r.path, r.query, tt.method, tt.path, tt.query)
			}
			if b := r.header.Values("Vendor-Beta"); !cmp.Equal(b, []string{"context-1m-2025-08-07," + mms.BetaManagedAgents}) {
				t.Errorf("vendor-beta %q", b)
			}
			if tt.body == "" {
				if len(r.body) != 0 {
					t.Errorf("body %s, want none", r.body)
				}
			} else if diff := jsonDiff(t, []byte(tt.body), r.body); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAgentsBetaPerCall: a beta given per call, or as a client-level
// vendor-beta header, is merged with the endpoint's, which a repeated
// value does not duplicate and a header does not replace.
func TestAgentsBetaPerCall(t *testing.T) {
	srv := newScriptServer(t, reply{body: testAgentJSON}, reply{body: testAgentJSON})
	c := newTestClient(t, srv, option.WithHeader("vendor-beta", "context-1m-2025-08-07"))
	ctx := context.Background()
	if _, err := c.Agents.Get(ctx, "agent_1", option.WithBeta(mms.BetaManagedAgents, "files-api-2025-04-14")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Agents.Archive(ctx, "agent_1"); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{
		"context-1m-2025-08-07," + mms.BetaManagedAgents + ",files-api-2025-04-14",
		"context-1m-2025-08-07," + mms.BetaManagedAgents,
	} {
		if b := srv.requests()[i].header.Values("Vendor-Beta"); !cmp.Equal(b, []string{want}) {
			t.Errorf("request %d: vendor-beta %q, want %q", i, b, want)
		}
	}
}

func customTool(name, desc string) mms.AgentCustomTool {
	return mms.AgentCustomTool{Name: name, Description: desc, InputSchema: mms.InputSchema(`{"type":"object"}`)}
}

func servers(n int) ([]mms.AgentMCPServer, []mms.AgentTool) {
	var ss []mms.AgentMCPServer
	var ts []mms.AgentTool
	for i := range n {
		name := fmt.Sprintf("s%d", i)
		ss = append(ss, mms.AgentMCPServer{Name: name, URL: "https://x.example/" + name})
		ts = append(ts, mms.AgentMCPToolset{MCPServerName: name})
	}
	return ss, ts
}

// TestAgentCreateValidation: each rule on both sides of its limit; a
// failure sends nothing and names the field.
func TestAgentCreateValidation(t *testing.T) {
	ok := func(p mms.AgentCreateParams) mms.AgentCreateParams {
		if p.Name == "" {
			p.Name = "a"
		}
		if p.Model.ID == "" {
			p.Model = mms.AgentModel("m")
		}
		return p
	}
	tools := func(n int) []mms.AgentTool {
		ts := make([]mms.AgentTool, n)
		for i := range ts {
			ts[i] = customTool(fmt.Sprintf("t%d", i), "d")
		}
		return ts
	}
	s20, t20 := servers(20)
	s21, t21 := servers(21)
	metadata := func(n, keyLen, valueLen int) map[string]string {
		m := map[string]string{}
		for i := range n {
			m[fmt.Sprintf("%0*d", keyLen, i)] = strings.Repeat("v", valueLen)
		}
		return m
	}
	for _, tt := range []struct {
		name  string
		p     mms.AgentCreateParams
		field string // "" when valid
	}{
		{"minimal", ok(mms.AgentCreateParams{}), ""},
		{"no name", mms.AgentCreateParams{Model: mms.AgentModel("m")}, "name"},
		{"name 256", ok(mms.AgentCreateParams{Name: strings.Repeat("n", 256)}), ""},
		{"name 257", ok(mms.AgentCreateParams{Name: strings.Repeat("n", 257)}), "name"},
		{"no model", mms.AgentCreateParams{Name: "a"}, "model.id"},
		{"description 2048 runes", ok(mms.AgentCreateParams{Description: strings.Repeat("é", 2048)}), ""},
		{"description 2049", ok(mms.AgentCreateParams{Description: strings.Repeat("é", 2049)}), "description"},
		{"system 100000", ok(mms.AgentCreateParams{System: strings.Repeat("s", 100_000)}), ""},
		{"system 100001", ok(mms.AgentCreateParams{System: strings.Repeat("s", 100_001)}), "system"},
		{"256 tools", ok(mms.AgentCreateParams{Tools: tools(256)}), ""},
		{"257 tools", ok(mms.AgentCreateParams{Tools: tools(257)}), "tools"},
		{"nil tool", ok(mms.AgentCreateParams{Tools: []mms.AgentTool{nil}}), "tools[0]"},
		{"custom name 128", ok(mms.AgentCreateParams{Tools: []mms.AgentTool{customTool(strings.Repeat("a", 128), "d")}}), ""},
		{"custom name 129", ok(mms.AgentCreateParams{Tools: []mms.AgentTool{customTool(strings.Repeat("a", 129), "d")}}), "tools[0].name"},
		{"custom name empty", ok(mms.AgentCreateParams{Tools: []mms.AgentTool{customTool("", "d")}}), "tools[0].name"},
		{"custom name chars", ok(mms.AgentCreateParams{Tools: []mms.AgentTool{customTool("a b", "d")}}), "tools[0].name"},
		{"custom name dash underscore", ok(mms.AgentCreateParams{Tools: []mms.AgentTool{customTool("a-b_C9", "d")}}), ""},
		{"custom description 1024", ok(mms.AgentCreateParams{Tools: []mms.AgentTool{customTool("t", strings.Repeat("d", 1024))}}), ""},
		{"custom description 1025", ok(mms.AgentCreateParams{Tools: []mms.AgentTool{customTool("t", strings.Repeat("d", 1025))}}), "tools[0].description"},
		{"custom description empty", ok(mms.AgentCreateParams{Tools: []mms.AgentTool{customTool("t", "")}}), "tools[0].description"},
		{"custom schema not object", ok(mms.AgentCreateParams{Tools: []mms.AgentTool{mms.AgentCustomTool{Name: "t", Description: "d",
			InputSchema: mms.InputSchema(`{"type":"string"}`)}}}), "tools[0].input_schema.type"},
		{"20 servers", ok(mms.AgentCreateParams{MCPServers: s20, Tools: t20}), ""},
		{"21 servers", ok(mms.AgentCreateParams{MCPServers: s21, Tools: t21}), "mcp_servers"},
		{"server name twice", ok(mms.AgentCreateParams{MCPServers: append(s20[:1:1], s20[0]), Tools: t20[:1]}), "mcp_servers[1].name"},
		{"server name 255", ok(mms.AgentCreateParams{MCPServers: []mms.AgentMCPServer{{Name: strings.Repeat("é", 255), URL: "u"}},
			Tools: []mms.AgentTool{mms.AgentMCPToolset{MCPServerName: strings.Repeat("é", 255)}}}), ""},
		{"server name 256", ok(mms.AgentCreateParams{MCPServers: []mms.AgentMCPServer{{Name: strings.Repeat("é", 256), URL: "u"}},
			Tools: []mms.AgentTool{mms.AgentMCPToolset{MCPServerName: strings.Repeat("é", 256)}}}), "mcp_servers[0].name"},
		{"server without url", ok(mms.AgentCreateParams{MCPServers: []mms.AgentMCPServer{{Name: "s0"}}, Tools: t20[:1]}), "mcp_servers[0].url"},
		{"server not referenced", ok(mms.AgentCreateParams{MCPServers: s20[:2], Tools: t20[:1]}), "mcp_servers[1]"},
		{"toolset names no server", ok(mms.AgentCreateParams{MCPServers: s20[:1], Tools: t20[:2]}), "tools[1].mcp_server_name"},
		{"toolset without server name", ok(mms.AgentCreateParams{Tools: []mms.AgentTool{mms.AgentMCPToolset{}}}), "tools[0].mcp_server_name"},
		{"16 metadata pairs", ok(mms.AgentCreateParams{Metadata: metadata(16, 2, 1)}), ""},
		{"17 metadata pairs", ok(mms.AgentCreateParams{Metadata: metadata(17, 2, 1)}), "metadata"},
		{"metadata key 64", ok(mms.AgentCreateParams{Metadata: metadata(1, 64, 1)}), ""},
		{"metadata key 65", ok(mms.AgentCreateParams{Metadata: metadata(1, 65, 1)}), "metadata"},
		{"metadata value 512", ok(mms.AgentCreateParams{Metadata: metadata(1, 1, 512)}), ""},
		{"metadata value 513", ok(mms.AgentCreateParams{Metadata: metadata(1, 1, 513)}), "metadata.0"},
		{"roster agent without id", ok(mms.AgentCreateParams{Multiagent: &mms.AgentMultiagent{Agents: []mms.RosterEntry{mms.RosterAgent{}}}}), "multiagent.agents[0].id"},
		{"roster version 0", ok(mms.AgentCreateParams{Multiagent: &mms.AgentMultiagent{Agents: []mms.RosterEntry{mms.RosterAgent{ID: "a", Version: mms.Ptr(0)}}}}), "multiagent.agents[0].version"},
		{"roster version 1", ok(mms.AgentCreateParams{Multiagent: &mms.AgentMultiagent{Agents: []mms.RosterEntry{mms.RosterAgent{ID: "a", Version: mms.Ptr(1)}}}}), ""},
		{"roster empty id", ok(mms.AgentCreateParams{Multiagent: &mms.AgentMultiagent{Agents: []mms.RosterEntry{mms.RosterAgentID("")}}}), "multiagent.agents[0]"},
		{"roster advisor without model", ok(mms.AgentCreateParams{Multiagent: &mms.AgentMultiagent{Agents: []mms.RosterEntry{mms.RosterAdvisor{}}}}), "multiagent.agents[0].model"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{body: testAgentJSON})
			c := newTestClient(t, srv)
			_, err := c.Agents.Create(context.Background(), tt.p)
			checkAgentValidation(t, err, tt.field, len(srv.requests()))
		})
	}
}

// checkAgentValidation: field "" wants success (one request sent), else a
// *ValidationError for field and nothing sent.
func checkAgentValidation(t *testing.T, err error, field string, sent int) {
	t.Helper()
	var ve *mms.ValidationError
	switch {
	case field == "" && (err != nil || sent != 1):
		t.Errorf("err %v, %d requests; want success", err, sent)
	case field != "" && (!errors.As(err, &ve) || ve.Field != field || sent != 0):
		t.Errorf("err %v (field %q), %d requests; want a ValidationError for %q and none sent", err, fieldOf(ve), sent, field)
	}
}

func fieldOf(ve *mms.ValidationError) string {
	if ve == nil {
		return ""
	}
	return ve.Field
}

// TestAgentUpdateAndPathValidation: update rules on both sides, and the
// required path ids of every method.
func TestAgentUpdateAndPathValidation(t *testing.T) {
	s2, t2 := servers(2)
	for _, tt := range []struct {
		name  string
		id    string
		p     mms.AgentUpdateParams
		field string
	}{
		{"version only", "agent_1", mms.AgentUpdateParams{Version: 1}, ""},
		{"no version", "agent_1", mms.AgentUpdateParams{}, "version"},
		{"no version, a change", "agent_1", mms.AgentUpdateParams{Name: "n"}, "version"},
		{"no id", "", mms.AgentUpdateParams{Version: 1}, "agent_id"},
		{"dot id", "..", mms.AgentUpdateParams{Version: 1}, "agent_id"},
		{"negative version", "agent_1", mms.AgentUpdateParams{Version: -1}, "version"},
		{"name 257", "agent_1", mms.AgentUpdateParams{Version: 1, Name: strings.Repeat("n", 257)}, "name"},
		{"model without id", "agent_1", mms.AgentUpdateParams{Version: 1, Model: mms.ModelConfigParams{Effort: mms.EffortLow}}, "model.id"},
		{"description 2049", "agent_1", mms.AgentUpdateParams{Version: 1, Description: mms.Set(strings.Repeat("d", 2049))}, "description"},
		{"system 100001", "agent_1", mms.AgentUpdateParams{Version: 1, System: mms.Set(strings.Repeat("s", 100_001))}, "system"},
		{"system cleared", "agent_1", mms.AgentUpdateParams{Version: 1, System: mms.Clear[string]()}, ""},
		{"257 tools", "agent_1", mms.AgentUpdateParams{Version: 1, Tools: mms.Set(make([]mms.AgentTool, 257))}, "tools"},
		{"servers and toolsets match", "agent_1", mms.AgentUpdateParams{Version: 1, Tools: mms.Set(t2), MCPServers: mms.Set(s2)}, ""},
		{"server unreferenced", "agent_1", mms.AgentUpdateParams{Version: 1, Tools: mms.Set(t2[:1]), MCPServers: mms.Set(s2)}, "mcp_servers[1]"},
		{"servers alone", "agent_1", mms.AgentUpdateParams{Version: 1, MCPServers: mms.Set(s2)}, ""},
		{"17 metadata keys", "agent_1", mms.AgentUpdateParams{Version: 1, Metadata: func() mms.MetadataPatch {
			m := mms.MetadataPatch{}
			for i := range 17 {
				m.Delete(fmt.Sprint(i))
			}
			return m
		}()}, "metadata"},
		{"metadata value 513", "agent_1", mms.AgentUpdateParams{Version: 1, Metadata: mms.MetadataPatch{}.Set("k", strings.Repeat("v", 513))}, "metadata.k"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{body: testAgentJSON})
			c := newTestClient(t, srv)
			_, err := c.Agents.Update(context.Background(), tt.id, tt.p)
			checkAgentValidation(t, err, tt.field, len(srv.requests()))
		})
	}
	srv := newScriptServer(t)
	c := newTestClient(t, srv)
	ctx := context.Background()
	for name, call := range map[string]func() error{
		"get":           func() error { _, err := c.Agents.Get(ctx, ""); return err },
		"get version":   func() error { _, err := c.Agents.GetVersion(ctx, "", mms.AgentGetParams{}); return err },
		"archive":       func() error { _, err := c.Agents.Archive(ctx, ""); return err },
		"versions page": func() error { _, err := c.Agents.Versions.ListPage(ctx, "", mms.AgentVersionListParams{}); return err },
		"versions list": func() error {
			for _, err := range c.Agents.Versions.List(ctx, "", mms.AgentVersionListParams{}) {
				return err
			}
			return nil
		},
	} {
		var ve *mms.ValidationError
		if err := call(); !errors.As(err, &ve) || ve.Field != "agent_id" {
			t.Errorf("%s with no id: %v", name, err)
		}
	}
	for name, tt := range map[string]struct {
		err   error
		field string
	}{
		"version -1": {func() error { _, err := c.Agents.GetVersion(ctx, "a", mms.AgentGetParams{Version: -1}); return err }(), "version"},
		"limit 101":  {func() error { _, err := c.Agents.ListPage(ctx, mms.AgentListParams{Limit: 101}); return err }(), "limit"},
		"versions limit 101": {func() error {
			_, err := c.Agents.Versions.ListPage(ctx, "a", mms.AgentVersionListParams{Limit: 101})
			return err
		}(), "limit"},
		"created range reversed": {func() error {
			_, err := c.Agents.ListPage(ctx, mms.AgentListParams{CreatedAfter: time.Unix(2, 0), CreatedBefore: time.Unix(1, 0)})
			return err
		}(), "created_at[gte]"},
	} {
		var ve *mms.ValidationError
		if !errors.As(tt.err, &ve) || ve.Field != tt.field {
			t.Errorf("%s: %v", name, tt.err)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}
