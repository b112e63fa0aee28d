package admin_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/mmstest"
)

func TestOrganizationGet(t *testing.T) {
	_, c := fake(t)
	org, err := c.Organization.Get(ctx)
	require.NoError(t, err)
	assert.Equal(t, mmstest.DefaultOrganizationID, org.ID)
	assert.NotEmpty(t, org.Name)
}

func TestAPIKeys(t *testing.T) {
	s, c := fake(t)
	u := s.Org().AddUser("ada@example.com", "Ada", "admin")
	old := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var ids []string
	for i := range 25 {
		ids = append(ids, s.Org().AddAPIKey(mmstest.APIKeySeed{Name: "k", WorkspaceID: "wrkspc_1", CreatedAt: old, CreatedByUserID: u, Status: []string{"active", "inactive"}[i%2]}))
	}
	bound := s.Org().AddAPIKey(mmstest.APIKeySeed{Name: "bound", CreatedByUserID: u})

	all := collect(t, c.APIKeys.List(ctx, admin.APIKeyListParams{Limit: 7}))
	require.Len(t, all, 26)
	assert.Equal(t, bound, all[0].ID, "newest first")
	active := collect(t, c.APIKeys.List(ctx, admin.APIKeyListParams{Status: admin.APIKeyStatusInactive}))
	assert.Len(t, active, 12)

	k, err := c.APIKeys.Get(ctx, ids[0])
	require.NoError(t, err)
	assert.Equal(t, old, k.CreatedAt)
	require.IsType(t, admin.WorkspaceKeyScope{}, k.Scope)
	assert.Equal(t, "wrkspc_1", k.Scope.(admin.WorkspaceKeyScope).WorkspaceID)
	require.NotNil(t, k.CreatedBy)
	assert.Equal(t, u, k.CreatedBy.ID)
	assert.Nil(t, k.Principal)

	b, err := c.APIKeys.Get(ctx, bound)
	require.NoError(t, err)
	assert.Equal(t, admin.UserActor{UserID: u}, b.Principal)
	assert.IsType(t, admin.OrganizationKeyScope{}, b.Scope)

	up, err := c.APIKeys.Update(ctx, ids[0], admin.APIKeyUpdateParams{Status: admin.APIKeyStatusInactive, Name: "renamed"})
	require.NoError(t, err)
	assert.Equal(t, admin.APIKeyStatusInactive, up.Status)
	assert.Equal(t, "inactive", s.Org().APIKeyStatus(ids[0]))

	page, err := c.APIKeys.ListPage(ctx, admin.APIKeyListParams{Limit: 10})
	require.NoError(t, err)
	assert.Len(t, page.Data, 10)
	assert.True(t, page.HasMore)
	require.NotNil(t, page.LastID)
}

func TestAPIKeysValidation(t *testing.T) {
	s, c := fake(t)
	before := len(s.Requests())
	for _, tc := range []struct {
		name  string
		err   error
		field string
	}{
		{"update status expired", func() error {
			_, err := c.APIKeys.Update(ctx, "apikey_1", admin.APIKeyUpdateParams{Status: admin.APIKeyStatusExpired})
			return err
		}(), "status"},
		{"empty id", func() error { _, err := c.APIKeys.Get(ctx, ""); return err }(), "api_key_id"},
		{"limit 0 ok but 1001", firstErr(c.APIKeys.List(ctx, admin.APIKeyListParams{Limit: 1001})), "limit"},
		{"limit -1", firstErr(c.APIKeys.List(ctx, admin.APIKeyListParams{Limit: -1})), "limit"},
		{"after and before", firstErr(c.APIKeys.List(ctx, admin.APIKeyListParams{AfterID: "a", BeforeID: "b"})), "after_id"},
		{"status filter", firstErr(c.APIKeys.List(ctx, admin.APIKeyListParams{Status: "gone"})), "status"},
	} {
		var ve *mms.ValidationError
		require.True(t, errors.As(tc.err, &ve), "%s: %v", tc.name, tc.err)
		assert.Equal(t, tc.field, ve.Field, tc.name)
	}
	assert.Len(t, s.Requests(), before, "nothing sent")
	// The limits' other side passes.
	require.NoError(t, firstErr(c.APIKeys.List(ctx, admin.APIKeyListParams{Limit: 1000})))
	require.NoError(t, firstErr(c.APIKeys.List(ctx, admin.APIKeyListParams{Limit: 1})))
}
