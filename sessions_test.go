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

	"github.com/stretchr/testify/require"
)

const testSessionJSON = `{"id":"sesn_1","type":"session","status":"idle","agent":{"type":"agent","id":"agent_1","version":1,"name":"a",` +
	`"description":null,"system":null,"model":{"id":"m"},"tools":[],"mcp_servers":[],"skills":[],"multiagent":null},` +
	`"environment_id":"env_1","title":null,"metadata":{},"resources":[],"vault_ids":[],"outcome_evaluations":[],"stats":{},"usage":{},` +
	`"budget":null,"created_at":"2026-04-02T10:00:00Z","updated_at":"2026-04-02T10:00:00Z","archived_at":null}`

// TestSessionsWire checks every sessions operation against a scripted
// server: method, path, query (statuses[] and created_at[...] brackets),
// the beta, and the body.
func TestSessionsWire(t *testing.T) {
	page := `{"data":[` + testSessionJSON + `],"next_page":null,"prev_page":null}`
	t0 := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	runWireCases(t, []wireCase{
		{"create", reply{body: testSessionJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentRef{ID: "agent_1", Version: mms.Ptr(1)},
				EnvironmentID: "env_1", Resources: []mms.SessionResourceParams{mms.GitHubRepositoryResourceParams{URL: "u", AuthorizationToken: mms.NewSecret("tok")}},
				InitialEvents: []mms.SessionEventParams{mms.NewUserMessageEvent("hi")}})
			return err
		}, "POST", "/v1/sessions", "", `{"agent":{"type":"agent","id":"agent_1","version":1},"environment_id":"env_1",` +
			`"resources":[{"type":"github_repository","url":"u","authorization_token":"tok"}],` +
			`"initial_events":[{"type":"user.message","content":[{"type":"text","text":"hi"}]}]}`, nil},
		{"get", reply{body: testSessionJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Sessions.Get(ctx, "sesn_1")
			return err
		}, "GET", "/v1/sessions/sesn_1", "", "", nil},
		{"update", reply{body: testSessionJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Sessions.Update(ctx, "sesn_1", mms.SessionUpdateParams{Title: mms.Clear[string](), Budget: mms.Set(mms.BudgetUSD("3"))})
			return err
		}, "POST", "/v1/sessions/sesn_1", "", `{"title":null,"budget":{"type":"limit","max_list_cost":{"amount":"3","currency":"USD"}}}`, nil},
		{"archive", reply{body: testSessionJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Sessions.Archive(ctx, "sesn_1")
			return err
		}, "POST", "/v1/sessions/sesn_1/archive", "", "", nil},
		{"delete", reply{body: `{"id":"sesn_1","type":"session_deleted"}`}, func(ctx context.Context, c *mms.Client) error {
			d, err := c.Sessions.Delete(ctx, "sesn_1")
			if err == nil && d.ID != "sesn_1" {
				err = fmt.Errorf("deleted %+v", d)
			}
			return err
		}, "DELETE", "/v1/sessions/sesn_1", "", "", nil},
		{"list every filter", reply{body: page}, func(ctx context.Context, c *mms.Client) error {
			return drain(c.Sessions.List(ctx, mms.SessionListParams{Limit: 5, Order: mms.ListOrderAsc, AgentID: "agent_1", AgentVersion: 2,
				DeploymentID: "dep_1", MemoryStoreID: "memstore_1", IncludeArchived: true,
				Statuses:  []mms.SessionStatus{mms.SessionStatusIdle, mms.SessionStatusRunning},
				CreatedGT: t0, CreatedGTE: t0.Add(time.Second), CreatedLT: t0.Add(time.Hour), CreatedLTE: t0.Add(2 * time.Hour),
				Page: mms.Cursor{Token: "page_x", Order: mms.ListOrderAsc}}))
		}, "GET", "/v1/sessions",
			"agent_id=agent_1&agent_version=2&created_at%5Bgt%5D=2026-04-01T00%3A00%3A00Z&created_at%5Bgte%5D=2026-04-01T00%3A00%3A01Z" +
				"&created_at%5Blt%5D=2026-04-01T01%3A00%3A00Z&created_at%5Blte%5D=2026-04-01T02%3A00%3A00Z&deployment_id=dep_1" +
				"&include_archived=true&limit=5&memory_store_id=memstore_1&order=asc&page=page_x&statuses%5B%5D=idle&statuses%5B%5D=running", "", nil},
		{"list page default order", reply{body: page}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Sessions.ListPage(ctx, mms.SessionListParams{Page: mms.Cursor{Token: "p", Order: mms.ListOrderDesc}})
			return err
		}, "GET", "/v1/sessions", "page=p", "", nil},
	})
}

// TestSessionsWorkspacePerCall: option.WithWorkspaceID sends the
// workspace header on a sessions call.
func TestSessionsWorkspacePerCall(t *testing.T) {
	srv := newScriptServer(t, reply{body: testSessionJSON})
	c := newTestClient(t, srv)
	if _, err := c.Sessions.Get(context.Background(), "sesn_1", option.WithWorkspaceID("wrkspc_1")); err != nil {
		t.Fatal(err)
	}
	if h := srv.requests()[0].header.Get("Vendor-Workspace-Id"); h != "wrkspc_1" {
		t.Errorf("vendor-workspace-id %q", h)
	}
}

// TestSessionsListBothWays: List follows next_page, or prev_page with
// FollowPrevPage, each page's cursor carrying the call's order.
func TestSessionsListBothWays(t *testing.T) {
	item := func(id string) string { return strings.Replace(testSessionJSON, `"sesn_1"`, `"`+id+`"`, 1) }
	srv := newScriptServer(t,
		reply{body: `{"data":[` + item("s3") + `],"next_page":"n1","prev_page":"p1"}`},
		reply{body: `{"data":[` + item("s4") + `],"next_page":null,"prev_page":"p2"}`},
		reply{body: `{"data":[` + item("s2") + `],"next_page":"n3","prev_page":"p3"}`},
		reply{body: `{"data":[` + item("s1") + `],"next_page":"n4","prev_page":null}`},
	)
	c := newTestClient(t, srv)
	ctx := context.Background()
	collect := func(p mms.SessionListParams) []string {
		var ids []string
		for s, err := range c.Sessions.List(ctx, p) {
			require.NoError(t, err)
			ids = append(ids, s.ID)
		}
		return ids
	}
	start := mms.Cursor{Token: "mid", Order: mms.ListOrderAsc}
	fwd := collect(mms.SessionListParams{Order: mms.ListOrderAsc, Page: start})
	back := collect(mms.SessionListParams{Order: mms.ListOrderAsc, Page: start, FollowPrevPage: true})
	if !cmp.Equal(fwd, []string{"s3", "s4"}) || !cmp.Equal(back, []string{"s2", "s1"}) {
		t.Errorf("forward %v, backward %v", fwd, back)
	}
	var pages []string
	for _, r := range srv.requests() {
		pages = append(pages, r.query)
	}
	want := []string{"order=asc&page=mid", "order=asc&page=n1", "order=asc&page=mid", "order=asc&page=p3"}
	if !cmp.Equal(pages, want) {
		t.Errorf("queries %q, want %q", pages, want)
	}
}

// TestSessionsCursorOrder: a cursor issued under one order is refused
// with the other before sending, both ways; a page's cursors carry its
// order.
func TestSessionsCursorOrder(t *testing.T) {
	srv := newScriptServer(t, reply{body: `{"data":[` + testSessionJSON + `],"next_page":"n","prev_page":"p"}`})
	c := newTestClient(t, srv)
	ctx := context.Background()
	page, err := c.Sessions.ListPage(ctx, mms.SessionListParams{})
	require.NoError(t, err)
	if *page.NextPage != (mms.Cursor{Token: "n", Order: mms.ListOrderDesc}) || *page.PrevPage != (mms.Cursor{Token: "p", Order: mms.ListOrderDesc}) {
		t.Errorf("cursors %+v %+v", page.NextPage, page.PrevPage)
	}
	for name, p := range map[string]mms.SessionListParams{
		"desc cursor, asc call":           {Order: mms.ListOrderAsc, Page: *page.NextPage},
		"asc cursor, default desc call":   {Page: mms.Cursor{Token: "x", Order: mms.ListOrderAsc}},
		"asc cursor, desc call, backward": {Order: mms.ListOrderDesc, Page: mms.Cursor{Token: "x", Order: mms.ListOrderAsc}, FollowPrevPage: true},
	} {
		var ve *mms.ValidationError
		if _, err := c.Sessions.ListPage(ctx, p); !errors.As(err, &ve) || ve.Field != "page" {
			t.Errorf("%s: ListPage %v", name, err)
		}
		if err := drain(c.Sessions.List(ctx, p)); !errors.As(err, &ve) || ve.Field != "page" {
			t.Errorf("%s: List %v", name, err)
		}
	}
	if n := len(srv.requests()); n != 1 {
		t.Errorf("%d requests sent, want 1", n)
	}
}

// TestSessionCreateValidation: each rule on both sides of its limit; a
// failure sends nothing and names the field.
func TestSessionCreateValidation(t *testing.T) {
	ok := func(p mms.SessionCreateParams) mms.SessionCreateParams {
		if p.Agent == nil {
			p.Agent = mms.SessionAgentID("agent_1")
		}
		if p.EnvironmentID == "" {
			p.EnvironmentID = "env_1"
		}
		return p
	}
	events := func(n int) []mms.SessionEventParams {
		es := make([]mms.SessionEventParams, n)
		for i := range es {
			es[i] = mms.NewUserMessageEvent("hi")
		}
		return es
	}
	res := func(r mms.SessionResourceParams) mms.SessionCreateParams {
		return ok(mms.SessionCreateParams{Resources: []mms.SessionResourceParams{r}})
	}
	ev := func(e mms.SessionEventParams) mms.SessionCreateParams {
		return ok(mms.SessionCreateParams{InitialEvents: []mms.SessionEventParams{e}})
	}
	outcome := func(n int) mms.SessionCreateParams {
		return ev(mms.UserDefineOutcomeEventParams{Description: "d", Rubric: mms.TextRubric{Content: "c"}, MaxIterations: n})
	}
	budget := func(amount, currency string) mms.SessionCreateParams {
		return ok(mms.SessionCreateParams{Budget: &mms.SessionBudget{MaxListCost: mms.SessionCost{Amount: amount, Currency: currency}}})
	}
	over := func(o mms.SessionAgentWithOverrides) mms.SessionCreateParams {
		if o.ID == "" {
			o.ID = "agent_1"
		}
		return ok(mms.SessionCreateParams{Agent: o})
	}
	s1, t1 := servers(1)
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
		p     mms.SessionCreateParams
		field string
	}{
		{"minimal", ok(mms.SessionCreateParams{}), ""},
		{"no agent", mms.SessionCreateParams{EnvironmentID: "env_1"}, "agent"},
		{"empty agent id", ok(mms.SessionCreateParams{Agent: mms.SessionAgentID("")}), "agent"},
		{"ref without id", ok(mms.SessionCreateParams{Agent: mms.SessionAgentRef{}}), "agent.id"},
		{"ref version 0", ok(mms.SessionCreateParams{Agent: mms.SessionAgentRef{ID: "a", Version: mms.Ptr(0)}}), "agent.version"},
		{"ref version 1", ok(mms.SessionCreateParams{Agent: mms.SessionAgentRef{ID: "a", Version: mms.Ptr(1)}}), ""},
		{"overrides without id", ok(mms.SessionCreateParams{Agent: mms.SessionAgentWithOverrides{}}), "agent.id"},
		{"override system 100000", over(mms.SessionAgentWithOverrides{System: mms.Set(strings.Repeat("s", 100_000))}), ""},
		{"override system 100001", over(mms.SessionAgentWithOverrides{System: mms.Set(strings.Repeat("s", 100_001))}), "agent.system"},
		{"override model without id", over(mms.SessionAgentWithOverrides{Model: mms.ModelConfigParams{Speed: mms.ModelSpeedFast}}), "agent.model.id"},
		{"override servers match", over(mms.SessionAgentWithOverrides{Tools: t1, MCPServers: s1}), ""},
		{"override server unreferenced", over(mms.SessionAgentWithOverrides{Tools: []mms.AgentTool{}, MCPServers: s1}), "agent.mcp_servers[0]"},
		{"override 21 servers", over(mms.SessionAgentWithOverrides{Tools: t21, MCPServers: s21}), "agent.mcp_servers"},
		{"no environment", mms.SessionCreateParams{Agent: mms.SessionAgentID("a")}, "environment_id"},
		{"16 metadata pairs", ok(mms.SessionCreateParams{Metadata: metadata(16, 2, 1)}), ""},
		{"17 metadata pairs", ok(mms.SessionCreateParams{Metadata: metadata(17, 2, 1)}), "metadata"},
		{"metadata key 65", ok(mms.SessionCreateParams{Metadata: metadata(1, 65, 1)}), "metadata"},
		{"metadata value 513", ok(mms.SessionCreateParams{Metadata: metadata(1, 1, 513)}), "metadata.0"},
		{"nil resource", ok(mms.SessionCreateParams{Resources: []mms.SessionResourceParams{nil}}), "resources[0]"},
		{"github ok", res(mms.GitHubRepositoryResourceParams{URL: "u", AuthorizationToken: mms.NewSecret("t")}), ""},
		{"github no url", res(mms.GitHubRepositoryResourceParams{AuthorizationToken: mms.NewSecret("t")}), "resources[0].url"},
		{"github no token", res(mms.GitHubRepositoryResourceParams{URL: "u"}), "resources[0].authorization_token"},
		{"github branch without name", res(mms.GitHubRepositoryResourceParams{URL: "u", AuthorizationToken: mms.NewSecret("t"), Checkout: mms.BranchCheckout{}}), "resources[0].checkout.name"},
		{"github commit without sha", res(mms.GitHubRepositoryResourceParams{URL: "u", AuthorizationToken: mms.NewSecret("t"), Checkout: mms.CommitCheckout{}}), "resources[0].checkout.sha"},
		{"file no id", res(mms.FileResourceParams{}), "resources[0].file_id"},
		{"memory no id", res(mms.MemoryStoreResourceParams{}), "resources[0].memory_store_id"},
		{"memory access bad", res(mms.MemoryStoreResourceParams{MemoryStoreID: "m", Access: "write_only"}), "resources[0].access"},
		{"memory access read_only", res(mms.MemoryStoreResourceParams{MemoryStoreID: "m", Access: mms.MemoryStoreAccessReadOnly}), ""},
		{"instructions 4096", res(mms.MemoryStoreResourceParams{MemoryStoreID: "m", Instructions: strings.Repeat("é", 4096)}), ""},
		{"instructions 4097", res(mms.MemoryStoreResourceParams{MemoryStoreID: "m", Instructions: strings.Repeat("é", 4097)}), "resources[0].instructions"},
		{"empty vault id", ok(mms.SessionCreateParams{VaultIDs: []string{"vlt_1", ""}}), "vault_ids[1]"},
		{"50 events", ok(mms.SessionCreateParams{InitialEvents: events(50)}), ""},
		{"51 events", ok(mms.SessionCreateParams{InitialEvents: events(51)}), "initial_events"},
		{"nil event", ev(nil), "initial_events[0]"},
		{"other event kind", ev(mms.UnknownSessionEventParams{Type: "user.interrupt", Raw: []byte(`{"type":"user.interrupt"}`)}), "initial_events[0]"},
		{"empty message", ev(mms.UserMessageEventParams{}), "initial_events[0].content"},
		{"empty text block", ev(mms.NewUserMessageEvent("")), "initial_events[0].content[0].text"},
		{"nil block", ev(mms.NewUserMessageEventBlocks(nil)), "initial_events[0].content[0]"},
		{"image without source", ev(mms.NewUserMessageEventBlocks(mms.ImageBlock{})), "initial_events[0].content[0].source"},
		{"text with cache_control", ev(mms.NewUserMessageEventBlocks(mms.TextBlock{Text: "a", CacheControl: &mms.CacheControl{}})), "initial_events[0].content[0].cache_control"},
		{"image with transformations", ev(mms.NewUserMessageEventBlocks(mms.ImageBlock{Source: mms.URLImageSource{URL: "u"},
			Transformations: &mms.ImageTransformations{}})), "initial_events[0].content[0].transformations"},
		{"document with citations", ev(mms.NewUserMessageEventBlocks(mms.DocumentBlock{Source: mms.FileDocumentSource{FileID: "f"},
			Citations: &mms.CitationsConfig{Enabled: mms.Ptr(true)}})), "initial_events[0].content[0].citations"},
		{"document with title and context", ev(mms.NewUserMessageEventBlocks(mms.DocumentBlock{Source: mms.FileDocumentSource{FileID: "f"},
			Title: mms.Ptr("t"), Context: "c"})), ""},
		{"outcome empty description", ev(mms.UserDefineOutcomeEventParams{Rubric: mms.TextRubric{Content: "c"}}), ""},
		{"outcome no rubric", ev(mms.UserDefineOutcomeEventParams{Description: "d"}), "initial_events[0].rubric"},
		{"outcome empty text rubric", ev(mms.NewDefineOutcomeEvent("d", mms.TextRubric{})), "initial_events[0].rubric.content"},
		{"outcome empty file rubric", ev(mms.NewDefineOutcomeEvent("d", mms.FileRubric{})), "initial_events[0].rubric.file_id"},
		{"max_iterations default", outcome(0), ""},
		{"max_iterations 1", outcome(1), ""},
		{"max_iterations 20", outcome(20), ""},
		{"max_iterations 21", outcome(21), "initial_events[0].max_iterations"},
		{"max_iterations -1", outcome(-1), "initial_events[0].max_iterations"},
		{"budget integer", budget("25", "USD"), ""},
		{"budget decimal", budget("12.50", "USD"), ""},
		{"budget empty", budget("", "USD"), "budget.max_list_cost.amount"},
		{"budget not a number", budget("ten", "USD"), "budget.max_list_cost.amount"},
		{"budget trailing dot", budget("1.", "USD"), "budget.max_list_cost.amount"},
		{"budget negative", budget("-1", "USD"), "budget.max_list_cost.amount"},
		{"budget euro", budget("1", "EUR"), "budget.max_list_cost.currency"},
		{"budget no currency", budget("1", ""), "budget.max_list_cost.currency"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{body: testSessionJSON})
			c := newTestClient(t, srv)
			_, err := c.Sessions.Create(context.Background(), tt.p)
			checkAgentValidation(t, err, tt.field, len(srv.requests()))
		})
	}
}

// TestSessionUpdateListAndPathValidation: update and list rules on both
// sides, and the required path ids of every method.
func TestSessionUpdateListAndPathValidation(t *testing.T) {
	s2, t2 := servers(2)
	for _, tt := range []struct {
		name  string
		id    string
		p     mms.SessionUpdateParams
		field string
	}{
		{"empty", "sesn_1", mms.SessionUpdateParams{}, ""},
		{"no id", "", mms.SessionUpdateParams{}, "session_id"},
		{"dot id", ".", mms.SessionUpdateParams{}, "session_id"},
		{"metadata value 513", "sesn_1", mms.SessionUpdateParams{Metadata: mms.MetadataPatch{}.Set("k", strings.Repeat("v", 513))}, "metadata.k"},
		{"metadata value 512", "sesn_1", mms.SessionUpdateParams{Metadata: mms.MetadataPatch{}.Set("k", strings.Repeat("v", 512))}, ""},
		{"agent servers match", "sesn_1", mms.SessionUpdateParams{Agent: &mms.SessionAgentUpdate{Tools: t2, MCPServers: s2}}, ""},
		{"agent server unreferenced", "sesn_1", mms.SessionUpdateParams{Agent: &mms.SessionAgentUpdate{Tools: t2[:1], MCPServers: s2}}, "agent.mcp_servers[1]"},
		{"agent 257 tools", "sesn_1", mms.SessionUpdateParams{Agent: &mms.SessionAgentUpdate{Tools: make([]mms.AgentTool, 257)}}, "agent.tools"},
		{"budget bad amount", "sesn_1", mms.SessionUpdateParams{Budget: mms.Set(mms.BudgetUSD("1,5"))}, "budget.max_list_cost.amount"},
		{"budget cleared", "sesn_1", mms.SessionUpdateParams{Budget: mms.Clear[mms.SessionBudget]()}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{body: testSessionJSON})
			c := newTestClient(t, srv)
			_, err := c.Sessions.Update(context.Background(), tt.id, tt.p)
			checkAgentValidation(t, err, tt.field, len(srv.requests()))
		})
	}
	srv := newScriptServer(t)
	c := newTestClient(t, srv)
	ctx := context.Background()
	for name, tt := range map[string]struct {
		err   error
		field string
	}{
		"get":                {func() error { _, err := c.Sessions.Get(ctx, ""); return err }(), "session_id"},
		"archive":            {func() error { _, err := c.Sessions.Archive(ctx, ".."); return err }(), "session_id"},
		"delete":             {func() error { _, err := c.Sessions.Delete(ctx, ""); return err }(), "session_id"},
		"limit 101":          {func() error { _, err := c.Sessions.ListPage(ctx, mms.SessionListParams{Limit: 101}); return err }(), "limit"},
		"order sideways":     {drain(c.Sessions.List(ctx, mms.SessionListParams{Order: "sideways"})), "order"},
		"version without id": {drain(c.Sessions.List(ctx, mms.SessionListParams{AgentVersion: 1})), "agent_version"},
		"negative version":   {drain(c.Sessions.List(ctx, mms.SessionListParams{AgentID: "a", AgentVersion: -1})), "agent_version"},
		"empty status":       {drain(c.Sessions.List(ctx, mms.SessionListParams{Statuses: []mms.SessionStatus{""}})), "statuses[0]"},
	} {
		var ve *mms.ValidationError
		if !errors.As(tt.err, &ve) || ve.Field != tt.field {
			t.Errorf("%s: %v", name, tt.err)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
	// The valid sides of the list rules are sent.
	for _, p := range []mms.SessionListParams{{Limit: 100}, {AgentID: "a", AgentVersion: 1}, {Order: mms.ListOrderAsc}} {
		if _, err := c.Sessions.ListPage(ctx, p); err != nil {
			t.Errorf("%+v: %v", p, err)
		}
	}
}
