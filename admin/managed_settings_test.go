package admin_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

func TestClaudeCodeSettings(t *testing.T) {
	s, c := fake(t)
	ms := c.ClaudeCodeSettings
	cfg, err := ms.Configuration.Get(ctx)
	require.NoError(t, err)
	assert.Equal(t, wire.BetaManagedSettings, betaOf(t, s))
	assert.Equal(t, admin.ManagedSettingsModeOrganization, cfg.Mode.Type)
	assert.Nil(t, cfg.ModeUpdatedAt)

	a, err := ms.Groups.Set(ctx, "rbac_group_a", admin.ManagedSettingsParams{Settings: json.RawMessage(`{"permissions":{"deny":["Bash"]}}`)})
	require.NoError(t, err)
	assert.JSONEq(t, `{"permissions":{"deny":["Bash"]}}`, string(a.Settings))
	_, err = ms.Groups.Set(ctx, "rbac_group_b", admin.ManagedSettingsParams{Settings: json.RawMessage(`{}`)})
	require.NoError(t, err)
	cfg, err = ms.Configuration.Get(ctx)
	require.NoError(t, err)
	assert.Equal(t, []string{"rbac_group_a", "rbac_group_b"}, cfg.RBACGroupOrder, "new groups join the end")

	stale := cfg.RBACGroupOrderVersion - 1
	_, err = ms.Configuration.Update(ctx, admin.ManagedSettingsConfigurationParams{RBACGroupOrder: []string{"rbac_group_b", "rbac_group_a"}, RBACGroupOrderVersion: &stale}, option.WithMaxRetries(0))
	assert.Equal(t, 409, statusOf(err))
	v := cfg.RBACGroupOrderVersion
	up, err := ms.Configuration.Update(ctx, admin.ManagedSettingsConfigurationParams{Mode: &admin.TypeOnly{Type: admin.ManagedSettingsModeRBACGroups},
		RBACGroupOrder: []string{"rbac_group_b", "rbac_group_a"}, RBACGroupOrderVersion: &v})
	require.NoError(t, err)
	assert.Equal(t, []string{"rbac_group_b", "rbac_group_a"}, up.RBACGroupOrder)
	assert.Equal(t, admin.ManagedSettingsModeRBACGroups, up.Mode.Type)
	assert.NotNil(t, up.ModeUpdatedAt)

	list := collect(t, ms.Groups.List(ctx, admin.CursorListParams{Limit: 1}))
	require.Len(t, list, 2)
	assert.Equal(t, "rbac_group_b", list[0].RBACGroupID, "priority order")
	assert.Nil(t, list[0].Settings, "list entries omit settings")
	got, err := ms.Groups.Get(ctx, "rbac_group_a")
	require.NoError(t, err)
	assert.NotEmpty(t, got.Settings)
	d, err := ms.Groups.Delete(ctx, "rbac_group_a")
	require.NoError(t, err)
	assert.Equal(t, "rbac_group_a", d.RBACGroupID)
	_, err = ms.Groups.Get(ctx, "rbac_group_a")
	assert.Equal(t, 404, statusOf(err))

	def, err := ms.Default.Update(ctx, admin.ManagedSettingsParams{Settings: json.RawMessage(`{"model":"m"}`)})
	require.NoError(t, err)
	assert.JSONEq(t, `{"model":"m"}`, string(def.Settings))
	cleared, err := ms.Default.Update(ctx, admin.ManagedSettingsParams{})
	require.NoError(t, err, "nil clears")
	assert.JSONEq(t, "null", string(cleared.Settings))
	got2, err := ms.Default.Get(ctx)
	require.NoError(t, err)
	assert.NotNil(t, got2.UpdatedAt)
	assert.Equal(t, 404, rawStatus(t, s, "GET", "/v1/organizations/claude_code/managed_settings/configuration"))
}

func TestClaudeCodeSettingsValidation(t *testing.T) {
	s, c := fake(t)
	ms := c.ClaudeCodeSettings
	neg := int64(-1)
	zero := int64(0)
	conf := func(p admin.ManagedSettingsConfigurationParams) error {
		_, err := ms.Configuration.Update(ctx, p)
		return err
	}
	for _, tc := range []struct {
		name, field string
		err         error
	}{
		{"nothing", "mode", conf(admin.ManagedSettingsConfigurationParams{})},
		{"no mode type", "mode.type", conf(admin.ManagedSettingsConfigurationParams{Mode: &admin.TypeOnly{}})},
		{"bad mode", "mode.type", conf(admin.ManagedSettingsConfigurationParams{Mode: &admin.TypeOnly{Type: "users"}})},
		{"empty group", "rbac_group_order[0]", conf(admin.ManagedSettingsConfigurationParams{RBACGroupOrder: []string{""}})},
		{"repeated group", "rbac_group_order[1]", conf(admin.ManagedSettingsConfigurationParams{RBACGroupOrder: []string{"g", "g"}})},
		{"negative version", "rbac_group_order_version", conf(admin.ManagedSettingsConfigurationParams{RBACGroupOrderVersion: &neg})},
		{"no settings", "settings", func() error { _, err := ms.Groups.Set(ctx, "g", admin.ManagedSettingsParams{}); return err }()},
		{"array settings", "settings", func() error {
			_, err := ms.Groups.Set(ctx, "g", admin.ManagedSettingsParams{Settings: json.RawMessage(`[]`)})
			return err
		}()},
		{"bad json", "settings", func() error {
			_, err := ms.Default.Update(ctx, admin.ManagedSettingsParams{Settings: json.RawMessage(`{"a":`)})
			return err
		}()},
		{"empty group id", "rbac_group_id", func() error { _, err := ms.Groups.Delete(ctx, ""); return err }()},
		{"limit", "limit", firstErr(ms.Groups.List(ctx, admin.CursorListParams{Limit: 1001}))},
	} {
		assert.Equal(t, tc.field, fieldOf(tc.err), "%s: %v", tc.name, tc.err)
	}
	assert.Empty(t, s.Requests())
	require.NoError(t, conf(admin.ManagedSettingsConfigurationParams{RBACGroupOrderVersion: &zero}))
}
