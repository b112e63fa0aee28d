package admin_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

func TestTelemetryDestinations(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	s := mmstest.NewServer(mmstest.WithClock(func() time.Time { mu.Lock(); defer mu.Unlock(); return now }))
	t.Cleanup(s.Close)
	c, err := admin.NewClient(s.AdminClientOptions()...)
	require.NoError(t, err)
	ws := s.Org().AddWorkspace("w")

	d, err := c.TelemetryDestinations.Create(ctx, admin.TelemetryDestinationParams{
		EndpointURL: "https://otel.example.com:4318", Workspaces: &admin.TelemetryWorkspaces{Type: admin.TelemetryWorkspacesInclude, WorkspaceIDs: []string{ws}},
		Headers: map[string]mms.Secret{"authorization": mms.NewSecret("Bearer tok-123")}, DisplayName: "collector",
		Traces: &admin.TelemetryTraces{ContentMode: admin.TraceContent}})
	require.NoError(t, err)
	assert.Equal(t, wire.BetaTelemetryDestinations, betaOf(t, s))
	assert.Equal(t, []string{"authorization"}, d.HeaderNames)
	assert.Equal(t, "enabled", d.State.Type)
	assert.Equal(t, admin.TraceContent, d.Traces.ContentMode)
	reqs := s.Requests()
	assert.Contains(t, string(reqs[len(reqs)-1].Body), `"authorization":"Bearer tok-123"`, "the header's value is sent")

	got, err := c.TelemetryDestinations.Get(ctx, d.ID)
	require.NoError(t, err)
	assert.Equal(t, "collector", *got.DisplayName)
	up, err := c.TelemetryDestinations.Update(ctx, d.ID, admin.TelemetryDestinationParams{EndpointURL: "https://other.example.com"})
	require.NoError(t, err)
	assert.Empty(t, up.HeaderNames, "a new host drops the headers")
	assert.Equal(t, "collector", *up.DisplayName, "omitted fields kept")

	res, err := c.TelemetryDestinations.Test(ctx, d.ID)
	require.NoError(t, err)
	assert.Equal(t, "success", res.Result.Type)
	_, err = c.TelemetryDestinations.Test(ctx, d.ID, option.WithMaxRetries(0))
	assert.Equal(t, 429, statusOf(err), "at most one test per 10 s")
	mu.Lock()
	now = now.Add(10 * time.Second)
	mu.Unlock()
	_, err = c.TelemetryDestinations.Update(ctx, d.ID, admin.TelemetryDestinationParams{EndpointURL: "https://down.invalid"})
	require.NoError(t, err)
	res, err = c.TelemetryDestinations.Test(ctx, d.ID)
	require.NoError(t, err)
	assert.Equal(t, "failure", res.Result.Type)
	assert.NotEmpty(t, *res.Result.Error)

	// The workspace list.
	other := s.Org().AddWorkspace("o")
	added, err := c.TelemetryDestinations.Workspaces.Add(ctx, d.ID, other)
	require.NoError(t, err)
	assert.Equal(t, other, added.WorkspaceID)
	_, err = c.TelemetryDestinations.Workspaces.Add(ctx, d.ID, other)
	require.NoError(t, err, "adding is idempotent")
	require.Len(t, collect(t, c.TelemetryDestinations.Workspaces.List(ctx, d.ID, admin.CursorListParams{Limit: 1})), 2)
	rm, err := c.TelemetryDestinations.Workspaces.Remove(ctx, d.ID, ws)
	require.NoError(t, err)
	assert.Equal(t, ws, rm.ID)
	_, err = c.TelemetryDestinations.Workspaces.Remove(ctx, d.ID, ws)
	assert.Equal(t, 404, statusOf(err))
	byWS := collect(t, c.TelemetryDestinations.List(ctx, admin.TelemetryDestinationListParams{WorkspaceIDs: []string{other}}))
	require.Len(t, byWS, 1)

	everyone, err := c.TelemetryDestinations.Create(ctx, admin.TelemetryDestinationParams{EndpointURL: "http://otel.internal:4318",
		Workspaces: &admin.TelemetryWorkspaces{Type: admin.TelemetryWorkspacesAll}})
	require.NoError(t, err)
	_, err = c.TelemetryDestinations.Workspaces.Add(ctx, everyone.ID, ws)
	assert.Equal(t, 400, statusOf(err), "an all destination has no list")
	require.Len(t, collect(t, c.TelemetryDestinations.List(ctx, admin.TelemetryDestinationListParams{})), 2)
	del, err := c.TelemetryDestinations.Delete(ctx, everyone.ID)
	require.NoError(t, err)
	assert.Equal(t, everyone.ID, del.ID)
	for range 9 {
		_, err = c.TelemetryDestinations.Create(ctx, admin.TelemetryDestinationParams{EndpointURL: "https://x.example.com",
			Workspaces: &admin.TelemetryWorkspaces{Type: admin.TelemetryWorkspacesAll}})
		require.NoError(t, err)
	}
	_, err = c.TelemetryDestinations.Create(ctx, admin.TelemetryDestinationParams{EndpointURL: "https://x.example.com",
		Workspaces: &admin.TelemetryWorkspaces{Type: admin.TelemetryWorkspacesAll}})
	assert.Equal(t, 400, statusOf(err), "at most 10 per organization")
}

func TestTelemetryValidation(t *testing.T) {
	s, c := fake(t)
	all := &admin.TelemetryWorkspaces{Type: admin.TelemetryWorkspacesAll}
	create := func(p admin.TelemetryDestinationParams) error {
		_, err := c.TelemetryDestinations.Create(ctx, p)
		return err
	}
	update := func(p admin.TelemetryDestinationParams) error {
		_, err := c.TelemetryDestinations.Update(ctx, "tdest_1", p)
		return err
	}
	const u = "https://otel.example.com"
	for _, tc := range []struct {
		name, field string
		err         error
	}{
		{"no url", "endpoint_url", create(admin.TelemetryDestinationParams{Workspaces: all})},
		{"relative url", "endpoint_url", create(admin.TelemetryDestinationParams{EndpointURL: "/v1/traces", Workspaces: all})},
		{"ftp url", "endpoint_url", create(admin.TelemetryDestinationParams{EndpointURL: "ftp://x", Workspaces: all})},
		{"no workspaces", "workspaces", create(admin.TelemetryDestinationParams{EndpointURL: u})},
		{"workspaces type", "workspaces.type", create(admin.TelemetryDestinationParams{EndpointURL: u, Workspaces: &admin.TelemetryWorkspaces{Type: "some"}})},
		{"all with ids", "workspaces.workspace_ids", create(admin.TelemetryDestinationParams{EndpointURL: u,
			Workspaces: &admin.TelemetryWorkspaces{Type: admin.TelemetryWorkspacesAll, WorkspaceIDs: []string{"w"}}})},
		{"1001 ids", "workspaces.workspace_ids", create(admin.TelemetryDestinationParams{EndpointURL: u,
			Workspaces: &admin.TelemetryWorkspaces{Type: admin.TelemetryWorkspacesInclude, WorkspaceIDs: make([]string, 1001)}})},
		{"name 256", "display_name", create(admin.TelemetryDestinationParams{EndpointURL: u, Workspaces: all, DisplayName: strings.Repeat("n", 256)})},
		{"header name", "headers", create(admin.TelemetryDestinationParams{EndpointURL: u, Workspaces: all,
			Headers: map[string]mms.Secret{"bad name": mms.NewSecret("v")}})},
		{"content mode", "traces.content_mode", create(admin.TelemetryDestinationParams{EndpointURL: u, Workspaces: all,
			Traces: &admin.TelemetryTraces{ContentMode: "everything"}})},
		{"max bytes 0", "traces.max_content_bytes", create(admin.TelemetryDestinationParams{EndpointURL: u, Workspaces: all,
			Traces: &admin.TelemetryTraces{MaxContentBytes: ptr[int64](0)}})},
		{"traces url", "traces.endpoint_url", create(admin.TelemetryDestinationParams{EndpointURL: u, Workspaces: all,
			Traces: &admin.TelemetryTraces{EndpointURL: "nope"}})},
		{"empty update", "endpoint_url", update(admin.TelemetryDestinationParams{})},
		{"list limit", "limit", firstErr(c.TelemetryDestinations.List(ctx, admin.TelemetryDestinationListParams{Limit: 1001}))},
		{"empty workspace id", "workspace_id", func() error { _, err := c.TelemetryDestinations.Workspaces.Add(ctx, "tdest_1", ""); return err }()},
	} {
		assert.Equal(t, tc.field, fieldOf(tc.err), "%s: %v", tc.name, tc.err)
	}
	assert.Empty(t, s.Requests())
	require.NoError(t, create(admin.TelemetryDestinationParams{EndpointURL: u, Workspaces: &admin.TelemetryWorkspaces{
		Type: admin.TelemetryWorkspacesExclude, WorkspaceIDs: make([]string, 1000)}, DisplayName: strings.Repeat("n", 255),
		Traces: &admin.TelemetryTraces{MaxContentBytes: ptr[int64](1)}}))
}
