package admin_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/admin"
)

func ptr[T any](v T) *T { return &v }

// fieldOf is the field of a *mms.ValidationError ("" for another error).
func fieldOf(err error) string {
	var ve *mms.ValidationError
	if errors.As(err, &ve) {
		return ve.Field
	}
	return ""
}

func TestUsers(t *testing.T) {
	s, c := fake(t)
	a := s.Org().AddUser("a@example.com", "A", "admin")
	b := s.Org().AddUser("b@example.com", "B", "developer")
	users := collect(t, c.Users.List(ctx, admin.UserListParams{Limit: 1}))
	require.Len(t, users, 2)
	dev := collect(t, c.Users.List(ctx, admin.UserListParams{Roles: []admin.OrganizationRole{admin.RoleDeveloper}}))
	require.Len(t, dev, 1)
	assert.Equal(t, b, dev[0].ID)
	u, err := c.Users.Update(ctx, b, admin.UserUpdateParams{Role: admin.RoleBilling})
	require.NoError(t, err)
	assert.Equal(t, admin.RoleBilling, u.Role)
	got, err := c.Users.Get(ctx, a)
	require.NoError(t, err)
	assert.Equal(t, "a@example.com", got.Email)
	del, err := c.Users.Delete(ctx, b)
	require.NoError(t, err)
	assert.Equal(t, b, del.ID)
	_, err = c.Users.Delete(ctx, a)
	var apiErr *mms.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 400, apiErr.StatusCode)
	assert.Contains(t, apiErr.Error(), "last member")
}

func TestInvites(t *testing.T) {
	s, c := fake(t)
	s.Org().AddUser("member@example.com", "M", "user")
	inv, err := c.Invites.Create(ctx, admin.InviteCreateParams{Email: "new@example.com", Role: admin.RoleDeveloper})
	require.NoError(t, err)
	assert.Equal(t, admin.InviteStatusPending, inv.Status)
	assert.Empty(t, inv.RBACGroupIDs)
	assert.True(t, inv.ExpiresAt.After(inv.InvitedAt))
	_, err = c.Invites.Create(ctx, admin.InviteCreateParams{Email: "member@example.com", Role: admin.RoleUser})
	require.Error(t, err)
	got, err := c.Invites.Get(ctx, inv.ID)
	require.NoError(t, err)
	assert.Equal(t, inv.Email, got.Email)
	list := collect(t, c.Invites.List(ctx, admin.InviteListParams{Statuses: []admin.InviteStatus{admin.InviteStatusPending}}))
	require.Len(t, list, 1)
	d, err := c.Invites.Delete(ctx, inv.ID)
	require.NoError(t, err)
	assert.Equal(t, inv.ID, d.ID)
	assert.Empty(t, collect(t, c.Invites.List(ctx, admin.InviteListParams{})))
}

func TestInviteAndUserValidation(t *testing.T) {
	s, c := fake(t)
	for _, tc := range []struct {
		name, field string
		err         error
	}{
		{"no email", "email", func() error {
			_, err := c.Invites.Create(ctx, admin.InviteCreateParams{Role: admin.RoleUser})
			return err
		}()},
		{"bad email", "email", func() error {
			_, err := c.Invites.Create(ctx, admin.InviteCreateParams{Email: "nope", Role: admin.RoleUser})
			return err
		}()},
		{"admin role", "role", func() error {
			_, err := c.Invites.Create(ctx, admin.InviteCreateParams{Email: "a@b.c", Role: admin.RoleAdmin})
			return err
		}()},
		{"no role", "role", func() error { _, err := c.Users.Update(ctx, "user_1", admin.UserUpdateParams{}); return err }()},
		{"owner role", "role", func() error {
			_, err := c.Users.Update(ctx, "user_1", admin.UserUpdateParams{Role: admin.RoleOwner})
			return err
		}()},
		{"status filter", "statuses[0]", firstErr(c.Invites.List(ctx, admin.InviteListParams{Statuses: []admin.InviteStatus{"deleted"}}))},
		{"roles filter", "roles[0]", firstErr(c.Users.List(ctx, admin.UserListParams{Roles: []admin.OrganizationRole{"boss"}}))},
	} {
		assert.Equal(t, tc.field, fieldOf(tc.err), "%s: %v", tc.name, tc.err)
	}
	assert.Empty(t, s.Requests())
}

func TestWorkspaces(t *testing.T) {
	s, c := fake(t)
	ws, err := c.Workspaces.Create(ctx, admin.WorkspaceCreateParams{Name: "research", DisplayColor: "#112233", Tags: map[string]string{"team": "ml"},
		DataResidency: &admin.DataResidency{AllowedInferenceGeos: &admin.InferenceGeos{Geos: []string{"us"}}, DefaultInferenceGeo: "us"}})
	require.NoError(t, err)
	assert.Equal(t, "research", ws.Name)
	assert.Equal(t, []string{"us"}, ws.DataResidency.AllowedInferenceGeos.Geos)
	assert.Equal(t, "us", ws.DataResidency.WorkspaceGeo)
	assert.NotEmpty(t, ws.CompartmentID)
	other := s.Org().AddWorkspace("other")
	o, err := c.Workspaces.Get(ctx, other)
	require.NoError(t, err)
	assert.True(t, o.DataResidency.AllowedInferenceGeos.Unrestricted)

	up, err := c.Workspaces.Update(ctx, ws.ID, admin.WorkspaceUpdateParams{Name: "research-2",
		DataResidency: &admin.DataResidency{AllowedInferenceGeos: &admin.InferenceGeos{Unrestricted: true}}})
	require.NoError(t, err)
	assert.Equal(t, "research-2", up.Name)
	assert.True(t, up.DataResidency.AllowedInferenceGeos.Unrestricted)
	assert.Equal(t, "us", up.DataResidency.DefaultInferenceGeo, "other residency members kept")

	arch, err := c.Workspaces.Archive(ctx, other)
	require.NoError(t, err)
	require.NotNil(t, arch.ArchivedAt)
	live := collect(t, c.Workspaces.List(ctx, admin.WorkspaceListParams{}))
	require.Len(t, live, 1)
	all := collect(t, c.Workspaces.List(ctx, admin.WorkspaceListParams{IncludeArchived: true, Limit: 1}))
	require.Len(t, all, 2)
	byID := collect(t, c.Workspaces.List(ctx, admin.WorkspaceListParams{IncludeArchived: true, IDs: []string{other}}))
	require.Len(t, byID, 1)

	// Members.
	u := s.Org().AddUser("m@example.com", "M", "developer")
	m, err := c.Workspaces.Members.Add(ctx, ws.ID, admin.WorkspaceMemberAddParams{UserID: u, WorkspaceRole: admin.WorkspaceRoleDeveloper})
	require.NoError(t, err)
	assert.Equal(t, admin.WorkspaceRoleDeveloper, m.WorkspaceRole)
	m, err = c.Workspaces.Members.Update(ctx, ws.ID, u, admin.WorkspaceMemberUpdateParams{WorkspaceRole: admin.WorkspaceRoleAdmin})
	require.NoError(t, err)
	assert.Equal(t, admin.WorkspaceRoleAdmin, m.WorkspaceRole)
	got, err := c.Workspaces.Members.Get(ctx, ws.ID, u)
	require.NoError(t, err)
	assert.Equal(t, admin.WorkspaceRoleAdmin, got.WorkspaceRole)
	require.Len(t, collect(t, c.Workspaces.Members.List(ctx, ws.ID, admin.WorkspaceMemberListParams{})), 1)
	d, err := c.Workspaces.Members.Delete(ctx, ws.ID, u)
	require.NoError(t, err)
	assert.Equal(t, u, d.UserID)
	assert.Empty(t, collect(t, c.Workspaces.Members.List(ctx, ws.ID, admin.WorkspaceMemberListParams{})))
}

func TestWorkspaceValidation(t *testing.T) {
	s, c := fake(t)
	create := func(p admin.WorkspaceCreateParams) error { _, err := c.Workspaces.Create(ctx, p); return err }
	for _, tc := range []struct {
		name, field string
		err         error
	}{
		{"no name", "name", create(admin.WorkspaceCreateParams{})},
		{"colour", "display_color", create(admin.WorkspaceCreateParams{Name: "n", DisplayColor: "red"})},
		{"colour short", "display_color", create(admin.WorkspaceCreateParams{Name: "n", DisplayColor: "#12345"})},
		{"vendor tag", "tags.vendor-x", create(admin.WorkspaceCreateParams{Name: "n", Tags: map[string]string{"vendor-x": "1"}})},
		{"geo", "data_residency.workspace_geo", create(admin.WorkspaceCreateParams{Name: "n", DataResidency: &admin.DataResidency{WorkspaceGeo: "eu"}})},
		{"default not allowed", "data_residency.default_inference_geo", create(admin.WorkspaceCreateParams{Name: "n",
			DataResidency: &admin.DataResidency{AllowedInferenceGeos: &admin.InferenceGeos{Geos: []string{"us"}}, DefaultInferenceGeo: "global"}})},
		{"unknown geo", "data_residency.allowed_inference_geos[0]", create(admin.WorkspaceCreateParams{Name: "n",
			DataResidency: &admin.DataResidency{AllowedInferenceGeos: &admin.InferenceGeos{Geos: []string{"eu"}}}})},
		{"update geo", "data_residency.workspace_geo", func() error {
			_, err := c.Workspaces.Update(ctx, "wrkspc_1", admin.WorkspaceUpdateParams{DataResidency: &admin.DataResidency{WorkspaceGeo: "us"}})
			return err
		}()},
		{"ids > 100", "ids", firstErr(c.Workspaces.List(ctx, admin.WorkspaceListParams{IDs: make([]string, 101)}))},
		{"billing member", "workspace_role", func() error {
			_, err := c.Workspaces.Members.Add(ctx, "wrkspc_1", admin.WorkspaceMemberAddParams{UserID: "user_1", WorkspaceRole: admin.WorkspaceRoleBilling})
			return err
		}()},
		{"no user", "user_id", func() error {
			_, err := c.Workspaces.Members.Add(ctx, "wrkspc_1", admin.WorkspaceMemberAddParams{WorkspaceRole: admin.WorkspaceRoleUser})
			return err
		}()},
		{"empty workspace id", "workspace_id", func() error { _, err := c.Workspaces.Members.Get(ctx, "", "user_1"); return err }()},
	} {
		assert.Equal(t, tc.field, fieldOf(tc.err), "%s: %v", tc.name, tc.err)
	}
	assert.Empty(t, s.Requests())
	// The other side of the limits passes.
	require.NoError(t, create(admin.WorkspaceCreateParams{Name: "n", DisplayColor: "#abcDEF", Tags: map[string]string{"ven": "1"}}))
	require.NoError(t, firstErr(c.Workspaces.List(ctx, admin.WorkspaceListParams{IDs: make([]string, 100)})))
}

func TestRateLimits(t *testing.T) {
	s, c := fake(t)
	org := collect(t, c.RateLimits.List(ctx, admin.RateLimitListParams{}))
	require.Len(t, org, 2)
	mg, ok := org[0].Group.(admin.ModelGroup)
	require.True(t, ok, "%T", org[0].Group)
	assert.NotEmpty(t, mg.DisplayName)
	paged := collect(t, c.RateLimits.List(ctx, admin.RateLimitListParams{Limit: 1}))
	require.Len(t, paged, 2)
	batch := collect(t, c.RateLimits.List(ctx, admin.RateLimitListParams{GroupType: admin.GroupBatch}))
	require.Len(t, batch, 1)
	assert.IsType(t, admin.BatchGroup{}, batch[0].Group)

	ws := s.Org().AddWorkspace("w")
	assert.Empty(t, collect(t, c.Workspaces.RateLimits.List(ctx, ws, admin.WorkspaceRateLimitListParams{})))
	got, err := c.Workspaces.RateLimits.Update(ctx, ws, org[0].ID, admin.WorkspaceRateLimitUpdateParams{
		Limits: []admin.LimitOverride{{Type: admin.LimitRequestsPerMinute, Value: ptr[int64](100)}}})
	require.NoError(t, err)
	assert.Equal(t, org[0].ID, got.RateLimitID)
	wl := collect(t, c.Workspaces.RateLimits.List(ctx, ws, admin.WorkspaceRateLimitListParams{}))
	require.Len(t, wl, 1)
	require.Len(t, wl[0].Limits, 1)
	assert.Equal(t, int64(100), wl[0].Limits[0].Value)
	assert.Equal(t, "workspace", wl[0].Limits[0].Source.Type)
	inh := collect(t, c.Workspaces.RateLimits.List(ctx, ws, admin.WorkspaceRateLimitListParams{IncludeInherited: true}))
	require.Len(t, inh, 2)
	_, err = c.Workspaces.RateLimits.Update(ctx, ws, org[0].ID, admin.WorkspaceRateLimitUpdateParams{
		Limits: []admin.LimitOverride{{Type: admin.LimitRequestsPerMinute}}}) // null clears
	require.NoError(t, err)
	assert.Empty(t, collect(t, c.Workspaces.RateLimits.List(ctx, ws, admin.WorkspaceRateLimitListParams{})))
	reqs := s.Requests()
	assert.JSONEq(t, `{"limits":[{"type":"requests_per_minute","value":null}]}`, string(reqs[len(reqs)-2].Body))

	for _, tc := range []struct {
		p     admin.WorkspaceRateLimitUpdateParams
		field string
	}{
		{admin.WorkspaceRateLimitUpdateParams{}, "limits"},
		{admin.WorkspaceRateLimitUpdateParams{Limits: []admin.LimitOverride{{Type: "bogus"}}}, "limits[0].type"},
		{admin.WorkspaceRateLimitUpdateParams{Limits: []admin.LimitOverride{{Type: admin.LimitTokensPerDay, Value: ptr[int64](-1)}}}, "limits[0].value"},
		{admin.WorkspaceRateLimitUpdateParams{Limits: []admin.LimitOverride{{Type: admin.LimitTokensPerDay}, {Type: admin.LimitTokensPerDay}}}, "limits[1].type"},
	} {
		_, err := c.Workspaces.RateLimits.Update(ctx, ws, org[0].ID, tc.p)
		assert.Equal(t, tc.field, fieldOf(err), "%v", err)
	}
	_, err = c.Workspaces.RateLimits.Update(ctx, ws, org[0].ID, admin.WorkspaceRateLimitUpdateParams{
		Limits: []admin.LimitOverride{{Type: admin.LimitTokensPerDay, Value: ptr[int64](0)}}})
	require.NoError(t, err, "zero is allowed")
	assert.Equal(t, "group_type", fieldOf(firstErr(c.RateLimits.List(ctx, admin.RateLimitListParams{GroupType: "x"}))))
}

func TestComplianceSettings(t *testing.T) {
	s, c := fake(t)
	got, err := c.ComplianceSettings.Get(ctx)
	require.NoError(t, err)
	assert.Equal(t, admin.ComplianceDisabled, got.State.Type)
	got, err = c.ComplianceSettings.Update(ctx, admin.ComplianceSettingsUpdateParams{State: admin.TypeOnly{Type: admin.ComplianceEnabled}})
	require.NoError(t, err)
	assert.Equal(t, admin.ComplianceEnabled, got.State.Type)
	reqs := s.Requests()
	assert.JSONEq(t, `{"state":{"type":"enabled"}}`, string(reqs[len(reqs)-1].Body))
	_, err = c.ComplianceSettings.Update(ctx, admin.ComplianceSettingsUpdateParams{State: admin.TypeOnly{Type: "on"}})
	assert.Equal(t, "state.type", fieldOf(err))
	_, err = c.ComplianceSettings.Update(ctx, admin.ComplianceSettingsUpdateParams{})
	assert.Equal(t, "state.type", fieldOf(err))
}
