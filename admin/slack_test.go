package admin_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/internal/wire"
)

func TestClaudeTag(t *testing.T) {
	s, c := fake(t)
	tag := c.ClaudeTag
	wsID := s.Org().AddSlackWorkspace("T01")
	ws, err := tag.SlackWorkspaces.Update(ctx, wsID, admin.TagSettingsUpdateParams{Settings: admin.TagSettingsParams{
		Model: mms.Set("mms-large"), ReplyMode: mms.Set(admin.ReplyModeThread)}})
	require.NoError(t, err)
	assert.Equal(t, wire.BetaClaudeTag, betaOf(t, s))
	assert.Equal(t, "mms-large", *ws.Settings.Model)
	assert.JSONEq(t, `"slack_workspace"`, string(ws.Sources["model"]))

	ch, err := tag.SlackChannels.Create(ctx, admin.SlackChannelCreateParams{Slack: admin.SlackIdentifiers{SlackWorkspaceID: "T01", SlackChannelID: "C01"},
		Settings: &admin.TagSettingsParams{Enabled: mms.Set(true), GuestPolicy: mms.Set(admin.GuestPolicyAllow)}})
	require.NoError(t, err)
	assert.True(t, *ch.Settings.Enabled)
	assert.Equal(t, "mms-large", *ch.Settings.Model, "inherited from the workspace")
	assert.JSONEq(t, `"slack_channel"`, string(ch.Sources["enabled"]))
	again, err := tag.SlackChannels.Create(ctx, admin.SlackChannelCreateParams{Slack: admin.SlackIdentifiers{SlackWorkspaceID: "T01", SlackChannelID: "C01"}})
	require.NoError(t, err)
	assert.Equal(t, ch.ID, again.ID, "create is idempotent")
	_, err = tag.SlackChannels.Create(ctx, admin.SlackChannelCreateParams{Slack: admin.SlackIdentifiers{SlackWorkspaceID: "T99", SlackChannelID: "C01"}})
	assert.Equal(t, 400, statusOf(err))

	_, err = tag.SlackChannels.Delete(ctx, ch.ID)
	assert.Equal(t, 400, statusOf(err), "refused while enabled")
	up, err := tag.SlackChannels.Update(ctx, ch.ID, admin.TagSettingsUpdateParams{Settings: admin.TagSettingsParams{Enabled: mms.Clear[bool](), Model: mms.Set("mms-small")}})
	require.NoError(t, err)
	assert.False(t, *up.Settings.Enabled, "cleared: the organization's default")
	assert.JSONEq(t, `"organization"`, string(up.Sources["enabled"]))
	assert.Equal(t, "mms-small", *up.Settings.Model)
	got, err := tag.SlackChannels.Get(ctx, ch.ID)
	require.NoError(t, err)
	assert.Equal(t, up.Settings, got.Settings)

	quiet, err := tag.SlackChannels.Create(ctx, admin.SlackChannelCreateParams{Slack: admin.SlackIdentifiers{SlackWorkspaceID: "T01", SlackChannelID: "C02"}})
	require.NoError(t, err)
	require.Len(t, collect(t, tag.SlackChannels.List(ctx, admin.SlackChannelListParams{SlackWorkspaceID: "T01"})), 1, "inherited-only channels need include_inherited")
	require.Len(t, collect(t, tag.SlackChannels.List(ctx, admin.SlackChannelListParams{SlackWorkspaceID: "T01", IncludeInherited: true, Limit: 1})), 2)
	one := collect(t, tag.SlackChannels.List(ctx, admin.SlackChannelListParams{SlackWorkspaceID: "T01", SlackChannelID: "C02", IncludeInherited: true}))
	require.Len(t, one, 1)
	assert.Equal(t, quiet.ID, one[0].ID)
	s.Org().AddSlackWorkspace("T02")
	require.Len(t, collect(t, tag.SlackWorkspaces.List(ctx, admin.SlackWorkspaceListParams{Limit: 1})), 2)
	require.Len(t, collect(t, tag.SlackWorkspaces.List(ctx, admin.SlackWorkspaceListParams{SlackWorkspaceID: "T02"})), 1)
	gw, err := tag.SlackWorkspaces.Get(ctx, wsID)
	require.NoError(t, err)
	assert.Equal(t, "T01", gw.Slack.SlackWorkspaceID)

	// Bundles and their targets.
	b := s.Org().AddBundle("Support", "answers support questions")
	bu, err := tag.Bundles.Update(ctx, b, admin.BundleUpdateParams{Instructions: mms.Set("Be brief.")})
	require.NoError(t, err)
	assert.Equal(t, "Be brief.", *bu.Instructions)
	bu, err = tag.Bundles.Update(ctx, b, admin.BundleUpdateParams{Instructions: mms.Clear[string]()})
	require.NoError(t, err)
	assert.Nil(t, bu.Instructions)
	gb, err := tag.Bundles.Get(ctx, b)
	require.NoError(t, err)
	assert.Equal(t, "Support", gb.DisplayName)
	require.Len(t, collect(t, tag.Bundles.List(ctx, admin.CursorListParams{})), 1)
	tg, err := tag.Bundles.Targets.Create(ctx, b, admin.BundleTargetCreateParams{Target: admin.BundleTargetRef{Type: admin.BundleTargetSlackChannel, ID: ch.ID}})
	require.NoError(t, err)
	assert.Equal(t, b, tg.BundleID)
	_, err = tag.Bundles.Targets.Create(ctx, b, admin.BundleTargetCreateParams{Target: admin.BundleTargetRef{Type: admin.BundleTargetSlackWorkspace, ID: wsID}})
	require.NoError(t, err)
	gt, err := tag.Bundles.Targets.Get(ctx, b, tg.ID)
	require.NoError(t, err)
	assert.Equal(t, ch.ID, gt.Target.ID)
	require.Len(t, collect(t, tag.Bundles.Targets.List(ctx, b, admin.CursorListParams{Limit: 1})), 2)
	td, err := tag.Bundles.Targets.Delete(ctx, b, tg.ID)
	require.NoError(t, err)
	assert.Equal(t, tg.ID, td.ID)

	d, err := tag.SlackChannels.Delete(ctx, ch.ID)
	require.NoError(t, err)
	assert.Equal(t, ch.ID, d.ID)
	assert.Equal(t, 404, rawStatus(t, s, "GET", "/v1/organizations/claude_tag/bundles"))
}

func TestClaudeTagValidation(t *testing.T) {
	s, c := fake(t)
	tag := c.ClaudeTag
	create := func(p admin.SlackChannelCreateParams) error { _, err := tag.SlackChannels.Create(ctx, p); return err }
	update := func(p admin.TagSettingsParams) error {
		_, err := tag.SlackChannels.Update(ctx, "slkch_1", admin.TagSettingsUpdateParams{Settings: p})
		return err
	}
	ids := admin.SlackIdentifiers{SlackWorkspaceID: "T01", SlackChannelID: "C01"}
	for _, tc := range []struct {
		name, field string
		err         error
	}{
		{"no workspace", "slack.slack_workspace_id", create(admin.SlackChannelCreateParams{Slack: admin.SlackIdentifiers{SlackChannelID: "C"}})},
		{"no channel", "slack.slack_channel_id", create(admin.SlackChannelCreateParams{Slack: admin.SlackIdentifiers{SlackWorkspaceID: "T"}})},
		{"create guest policy", "settings.guest_policy", create(admin.SlackChannelCreateParams{Slack: ids,
			Settings: &admin.TagSettingsParams{GuestPolicy: mms.Set("everyone")}})},
		{"empty update", "settings", update(admin.TagSettingsParams{})},
		{"reply mode", "settings.reply_mode", update(admin.TagSettingsParams{ReplyMode: mms.Set("loud")})},
		{"empty reply mode", "settings.reply_mode", update(admin.TagSettingsParams{ReplyMode: mms.Set("")})},
		{"empty model", "settings.model", update(admin.TagSettingsParams{Model: mms.Set("")})},
		{"empty environment", "settings.environment_id", update(admin.TagSettingsParams{EnvironmentID: mms.Set("")})},
		{"workspace update", "settings", func() error {
			_, err := tag.SlackWorkspaces.Update(ctx, "slkws_1", admin.TagSettingsUpdateParams{})
			return err
		}()},
		{"list needs workspace", "slack_workspace_id", firstErr(tag.SlackChannels.List(ctx, admin.SlackChannelListParams{}))},
		{"list limit", "limit", firstErr(tag.SlackChannels.List(ctx, admin.SlackChannelListParams{SlackWorkspaceID: "T", Limit: 1001}))},
		{"workspace list limit", "limit", firstErr(tag.SlackWorkspaces.List(ctx, admin.SlackWorkspaceListParams{Limit: -1}))},
		{"bundle nothing", "instructions", func() error { _, err := tag.Bundles.Update(ctx, "bundle_1", admin.BundleUpdateParams{}); return err }()},
		{"target type", "target.type", func() error {
			_, err := tag.Bundles.Targets.Create(ctx, "bundle_1", admin.BundleTargetCreateParams{Target: admin.BundleTargetRef{Type: "dm", ID: "x"}})
			return err
		}()},
		{"target id", "target.id", func() error {
			_, err := tag.Bundles.Targets.Create(ctx, "bundle_1", admin.BundleTargetCreateParams{Target: admin.BundleTargetRef{Type: admin.BundleTargetSlackChannel}})
			return err
		}()},
		{"empty target id", "target_id", func() error { _, err := tag.Bundles.Targets.Delete(ctx, "bundle_1", ""); return err }()},
	} {
		assert.Equal(t, tc.field, fieldOf(tc.err), "%s: %v", tc.name, tc.err)
	}
	assert.Empty(t, s.Requests())
	// The other side: set values and clears are sent.
	s.Org().AddSlackWorkspace("T01")
	require.NoError(t, create(admin.SlackChannelCreateParams{Slack: ids, Settings: &admin.TagSettingsParams{
		ReplyMode: mms.Set(admin.ReplyModeAlwaysAwake), Model: mms.Clear[string](), GuestPolicy: mms.Set(admin.GuestPolicyChannelOnly)}}))
	require.NoError(t, firstErr(tag.SlackChannels.List(ctx, admin.SlackChannelListParams{SlackWorkspaceID: "T01", Limit: 1000})))
}
