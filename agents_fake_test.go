package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// TestAgentsAgainstFake runs every agents operation against mmstest:
// create with a custom tool and an MCP toolset, conditional update, clear,
// metadata patch, versions, get by version, archive and the list filters.
func TestAgentsAgainstFake(t *testing.T) {
	now := time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC)
	srv := mmstest.NewServer(mmstest.WithClock(func() time.Time { return now }))
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0))
	ctx := context.Background()

	a, err := c.Agents.Create(ctx, mms.AgentCreateParams{
		Name: "researcher", Model: mms.ModelConfigParams{ID: "m", Effort: mms.EffortHigh}, Description: "finds",
		Tools: []mms.AgentTool{
			mms.AgentToolset20260401{Configs: []mms.AgentToolConfig{mms.BashToolConfig{Enabled: mms.Ptr(false)}}},
			mms.AgentMCPToolset{MCPServerName: "docs", DefaultConfig: &mms.AgentToolsetDefaultConfig{PermissionPolicy: mms.AlwaysAskPolicy{}}},
			mms.AgentCustomTool{Name: "weather", Description: "the weather", InputSchema: mms.InputSchema(`{"type":"object"}`)},
		},
		MCPServers: []mms.AgentMCPServer{{Name: "docs", URL: "https://mcp.example"}},
		Metadata:   map[string]string{"team": "a", "old": "x"},
	})
	require.NoError(t, err)
	if !strings.HasPrefix(a.ID, "agent_") || a.Version != 1 || len(a.Tools) != 3 || a.Model.Effort == nil || a.Model.Effort.Type != mms.EffortHigh {
		t.Fatalf("created %+v", a)
	}
	if _, ok := a.Tools[0].(mms.AgentToolset20260401).Configs[0].(mms.BashToolConfig); !ok {
		t.Errorf("tool config %#v", a.Tools[0])
	}

	now = now.Add(time.Hour)
	u, err := c.Agents.Update(ctx, a.ID, mms.AgentUpdateParams{
		Version: 1, Description: mms.Clear[string](), System: mms.Set("be brief"),
		Tools: mms.Set(a.Tools[2:]), MCPServers: mms.Clear[[]mms.AgentMCPServer](),
		Metadata: mms.MetadataPatch{}.Delete("old").Set("team", "b"),
	})
	require.NoError(t, err)
	if u.Version != 2 || u.Description != nil || u.System == nil || *u.System != "be brief" || len(u.Tools) != 1 ||
		len(u.MCPServers) != 0 || !cmp.Equal(u.Metadata, map[string]string{"team": "b"}) {
		t.Fatalf("updated %+v", u)
	}
	_, err = c.Agents.Update(ctx, a.ID, mms.AgentUpdateParams{Version: 1, Name: "late"})
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 409 {
		t.Fatalf("stale update: %v", err)
	}

	if g, err := c.Agents.Get(ctx, a.ID); err != nil || g.Version != 2 {
		t.Fatalf("Get: %+v %v", g, err)
	}
	if g, err := c.Agents.GetVersion(ctx, a.ID, mms.AgentGetParams{Version: 1}); err != nil || g.Version != 1 || g.Description == nil {
		t.Fatalf("GetVersion: %+v %v", g, err)
	}
	var versions []int
	for v, err := range c.Agents.Versions.List(ctx, a.ID, mms.AgentVersionListParams{Limit: 1}) {
		require.NoError(t, err)
		versions = append(versions, v.Version)
	}
	if !cmp.Equal(versions, []int{2, 1}) {
		t.Errorf("versions %v", versions)
	}

	b, err := c.Agents.Create(ctx, mms.AgentCreateParams{Name: "second", Model: mms.AgentModel("m")})
	require.NoError(t, err)
	ar, err := c.Agents.Archive(ctx, a.ID)
	if err != nil || ar.ArchivedAt == nil {
		t.Fatalf("Archive: %+v %v", ar, err)
	}
	list := func(p mms.AgentListParams) []string {
		t.Helper()
		var ids []string
		for ag, err := range c.Agents.List(ctx, p) {
			require.NoError(t, err)
			ids = append(ids, ag.ID)
		}
		return ids
	}
	start := time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC)
	for name, tt := range map[string]struct {
		p    mms.AgentListParams
		want []string
	}{
		"default":          {mms.AgentListParams{}, []string{b.ID}},
		"include archived": {mms.AgentListParams{IncludeArchived: true, Limit: 1}, []string{b.ID, a.ID}},
		"created after":    {mms.AgentListParams{IncludeArchived: true, CreatedAfter: start.Add(time.Minute)}, []string{b.ID}},
		"created before":   {mms.AgentListParams{IncludeArchived: true, CreatedBefore: start}, []string{a.ID}},
	} {
		if got := list(tt.p); !cmp.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", name, got, tt.want)
		}
	}
	if _, err := c.Agents.Get(ctx, "agent_missing"); !errors.Is(err, mms.ErrNotFound) {
		t.Errorf("Get missing: %v", err)
	}
	// Without the beta the fake refuses, as the service does.
	if _, err := c.Agents.Get(ctx, b.ID, option.WithoutEndpointBeta(mms.BetaManagedAgents)); !errors.As(err, &apiErr) || apiErr.StatusCode != 400 {
		t.Errorf("without the beta: %v", err)
	}
}

// TestAgentToolConfigsSentByName: a built-in tool config goes out with its
// "name" only (the fake, like the service's request schema, refuses a
// "type" there), comes back with both, and a decoded agent's tools go back
// into an update as they came, again without "type". An update without
// its version is refused before sending.
func TestAgentToolConfigsSentByName(t *testing.T) {
	srv := mmstest.NewServer()
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0))
	ctx := context.Background()
	a, err := c.Agents.Create(ctx, mms.AgentCreateParams{Name: "a", Model: mms.AgentModel("m"), Tools: []mms.AgentTool{
		mms.AgentToolset20260401{Configs: []mms.AgentToolConfig{
			mms.BashToolConfig{Enabled: mms.Ptr(false)},
			mms.ReadToolConfig{PermissionPolicy: mms.AlwaysAskPolicy{}},
		}},
	}})
	require.NoError(t, err)
	configs := a.Tools[0].(mms.AgentToolset20260401).Configs
	if _, ok := configs[0].(mms.BashToolConfig); !ok {
		t.Fatalf("configs %#v", configs)
	}
	record, err := json.Marshal(a)
	require.NoError(t, err)
	if !strings.Contains(string(record), `{"type":"bash","name":"bash","enabled":false}`) {
		t.Errorf("the record's form lost the config's type: %s", record)
	}

	u, err := c.Agents.Update(ctx, a.ID, mms.AgentUpdateParams{Version: a.Version, Name: "b", Tools: mms.Set(a.Tools)})
	require.NoError(t, err)
	if u.Version != 2 || !cmp.Equal(u.Tools, a.Tools) {
		t.Errorf("updated %+v", u)
	}

	_, err = c.Agents.Update(ctx, a.ID, mms.AgentUpdateParams{Name: "c"})
	var ve *mms.ValidationError
	if !errors.As(err, &ve) || ve.Field != "version" {
		t.Fatalf("update without version: %v", err)
	}
	if g, err := c.Agents.Get(ctx, a.ID); err != nil || g.Version != 2 || g.Name != "b" {
		t.Errorf("after a refused update: %+v %v", g, err)
	}
}
