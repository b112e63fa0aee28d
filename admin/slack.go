package admin

import (
	"context"
	"encoding/json"
	"iter"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// ClaudeTagService manages the Slack integration's settings
// (/v1/organizations/claude_tag, beta experimental-claude-tag-2026-10-21):
// Slack channels and workspaces, whose settings inherit from the level
// above unless set, and bundles of instructions attached to them. Common
// refusals (403): api_key_scope_missing, claude_tag_writes_not_enabled,
// compliance_configuration_restricted,
// organization_level_scoped_api_key_required.
type ClaudeTagService struct {
	// SlackChannels manages channels.
	SlackChannels *SlackChannelsService
	// SlackWorkspaces reads and sets Slack workspaces.
	SlackWorkspaces *SlackWorkspacesService
	// Bundles reads and edits bundles and their targets.
	Bundles *BundlesService
}

// The guest policies and reply modes of the Slack integration.
const (
	GuestPolicyAllow       = "allow"
	GuestPolicyRestrict    = "restrict"
	GuestPolicyChannelOnly = "channel_only"

	ReplyModeAutomatic   = "automatic"
	ReplyModeMentionOnly = "mention_only"
	ReplyModeAlwaysAwake = "always_awake"
	ReplyModeThread      = "thread"
)

// SlackIdentifiers name a Slack workspace, and a channel in it.
//
//mms:json
type SlackIdentifiers struct {
	// SlackWorkspaceID is the Slack workspace (team).
	SlackWorkspaceID string `json:"slack_workspace_id"`
	// SlackChannelID is the channel; "" for a workspace.
	SlackChannelID string `json:"slack_channel_id,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// TagSettings are a channel's or workspace's settings as read; a nil
// value is inherited (see Sources).
//
//mms:json
type TagSettings struct {
	// Enabled turns the integration on.
	Enabled *bool `json:"enabled"`
	// EnvironmentID is the environment its sessions run in.
	EnvironmentID *string `json:"environment_id"`
	// Model is the model it uses.
	Model *string `json:"model"`
	// Instructions are added to its prompt.
	Instructions *string `json:"instructions"`
	// GuestPolicy is allow, restrict or channel_only.
	GuestPolicy *string `json:"guest_policy"`
	// ReplyMode is automatic, mention_only, always_awake or thread.
	ReplyMode *string `json:"reply_mode"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// TagSettingsParams change settings: a field left as it is is unchanged,
// mms.Set sets it and mms.Clear clears it (it then inherits).
//
//mms:json
type TagSettingsParams struct {
	// Enabled turns the integration on or off.
	Enabled mms.Update[bool] `json:"enabled,omitzero"`
	// EnvironmentID is the environment its sessions run in.
	EnvironmentID mms.Update[string] `json:"environment_id,omitzero"`
	// Model is the model it uses.
	Model mms.Update[string] `json:"model,omitzero"`
	// Instructions are added to its prompt.
	Instructions mms.Update[string] `json:"instructions,omitzero"`
	// GuestPolicy is GuestPolicyAllow, …Restrict or …ChannelOnly.
	GuestPolicy mms.Update[string] `json:"guest_policy,omitzero"`
	// ReplyMode is ReplyModeAutomatic, …MentionOnly, …AlwaysAwake or
	// …Thread.
	ReplyMode mms.Update[string] `json:"reply_mode,omitzero"`
}

func (p TagSettingsParams) empty() bool {
	return p.Enabled.IsZero() && p.EnvironmentID.IsZero() && p.Model.IsZero() && p.Instructions.IsZero() &&
		p.GuestPolicy.IsZero() && p.ReplyMode.IsZero()
}

// Validate reports an unknown guest policy or reply mode, or an empty
// string set where clearing is meant (use mms.Clear).
func (p TagSettingsParams) Validate() error {
	for _, f := range []struct {
		name string
		u    mms.Update[string]
	}{{"settings.environment_id", p.EnvironmentID}, {"settings.model", p.Model}} {
		if v, ok := f.u.Value(); ok && v == "" {
			return invalid(f.name, "must not be empty (clear it with mms.Clear)")
		}
	}
	if v, ok := p.GuestPolicy.Value(); ok {
		if err := required("settings.guest_policy", v); err != nil {
			return err
		}
		if err := oneOf("settings.guest_policy", v, GuestPolicyAllow, GuestPolicyRestrict, GuestPolicyChannelOnly); err != nil {
			return err
		}
	}
	if v, ok := p.ReplyMode.Value(); ok {
		if err := required("settings.reply_mode", v); err != nil {
			return err
		}
		return oneOf("settings.reply_mode", v, ReplyModeAutomatic, ReplyModeMentionOnly, ReplyModeAlwaysAwake, ReplyModeThread)
	}
	return nil
}

// SlackChannel is a channel's record (the wire type "slack_channel").
//
//mms:json type=slack_channel
type SlackChannel struct {
	// ID identifies the record.
	ID string `json:"id"`
	// Slack names the channel in Slack.
	Slack SlackIdentifiers `json:"slack"`
	// Settings are its effective settings; Sources says at which level
	// each value is set.
	Settings TagSettings                `json:"settings"`
	Sources  map[string]json.RawMessage `json:"sources"`
	// CreatedAt and UpdatedAt are its times.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SlackWorkspace is a Slack workspace's record (the wire type
// "slack_workspace").
//
//mms:json type=slack_workspace
type SlackWorkspace struct {
	// ID identifies the record.
	ID string `json:"id"`
	// Slack names the workspace in Slack.
	Slack SlackIdentifiers `json:"slack"`
	// Settings are its settings; Sources says at which level each value
	// is set.
	Settings TagSettings                `json:"settings"`
	Sources  map[string]json.RawMessage `json:"sources"`
	// CreatedAt and UpdatedAt are its times.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SlackChannelDeleted is the answer to [SlackChannelsService.Delete].
//
//mms:json type=slack_channel_deleted
type SlackChannelDeleted struct {
	// ID is the deleted record's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SlackChannelCreateParams are the parameters of
// [SlackChannelsService.Create].
//
//mms:json
type SlackChannelCreateParams struct {
	// Slack names the channel: SlackWorkspaceID and SlackChannelID are
	// required.
	Slack SlackIdentifiers `json:"slack"`
	// Settings are its first settings; nil inherits everything.
	Settings *TagSettingsParams `json:"settings,omitzero"`
}

// Validate reports a missing workspace or channel id, or bad settings.
func (p SlackChannelCreateParams) Validate() error {
	if err := required("slack.slack_workspace_id", p.Slack.SlackWorkspaceID); err != nil {
		return err
	}
	if err := required("slack.slack_channel_id", p.Slack.SlackChannelID); err != nil {
		return err
	}
	if p.Settings != nil {
		return p.Settings.Validate()
	}
	return nil
}

// TagSettingsUpdateParams are the parameters of the channel and workspace
// updates: a partial change of the settings.
//
//mms:json
type TagSettingsUpdateParams struct {
	// Settings are the changes; at least one.
	Settings TagSettingsParams `json:"settings"`
}

// Validate reports no change, or bad settings.
func (p TagSettingsUpdateParams) Validate() error {
	if p.Settings.empty() {
		return invalid("settings", "an update must set or clear at least one setting")
	}
	return p.Settings.Validate()
}

// SlackChannelListParams are the parameters of [SlackChannelsService.List]
// (cursor scheme).
type SlackChannelListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// SlackWorkspaceID is the Slack workspace whose channels are listed.
	// Required.
	SlackWorkspaceID string
	// SlackChannelID lists only this channel.
	SlackChannelID string
	// IncludeInherited also lists channels with only inherited settings.
	IncludeInherited bool
}

// Validate reports Limit outside 1–1000 or a missing workspace id.
func (p SlackChannelListParams) Validate() error {
	if err := validateLimit(p.Limit, 1000); err != nil {
		return err
	}
	return required("slack_workspace_id", p.SlackWorkspaceID)
}

func (p SlackChannelListParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	setString(a.query, "slack_workspace_id", p.SlackWorkspaceID)
	setString(a.query, "slack_channel_id", p.SlackChannelID)
	setBool(a.query, "include_inherited", p.IncludeInherited)
	return a
}

const claudeTag = "/claude_tag"

// SlackChannelsService manages channels (…/claude_tag/slack_channels).
type SlackChannelsService struct{ c *Client }

func (s *SlackChannelsService) all() endpoint[SlackChannel] {
	return ep[SlackChannel](s.c, adminbridge.AdminKey, claudeTag+"/slack_channels").beta(wire.BetaClaudeTag)
}

// Create adds a channel; a channel added before is answered as it is, so
// it is idempotent.
func (s *SlackChannelsService) Create(ctx context.Context, p SlackChannelCreateParams, opts ...option.RequestOption) (*SlackChannel, error) {
	return s.all().update(ctx, p, opts)
}

// Get retrieves a channel.
func (s *SlackChannelsService) Get(ctx context.Context, channelID string, opts ...option.RequestOption) (*SlackChannel, error) {
	return s.all().id("slack_channel_id", channelID).get(ctx, opts)
}

// Update changes a channel's settings.
func (s *SlackChannelsService) Update(ctx context.Context, channelID string, p TagSettingsUpdateParams, opts ...option.RequestOption) (*SlackChannel, error) {
	return s.all().id("slack_channel_id", channelID).update(ctx, p, opts)
}

// List iterates over a Slack workspace's channels (cursor scheme).
func (s *SlackChannelsService) List(ctx context.Context, p SlackChannelListParams, opts ...option.RequestOption) iter.Seq2[SlackChannel, error] {
	return s.all().list(ctx, adminbridge.Cursor, p, opts)
}

// Delete deletes a channel; refused (slack_channel_enabled) while it is
// enabled.
func (s *SlackChannelsService) Delete(ctx context.Context, channelID string, opts ...option.RequestOption) (*SlackChannelDeleted, error) {
	return as[SlackChannelDeleted](s.all().id("slack_channel_id", channelID)).delete(ctx, opts)
}

// SlackWorkspacesService reads and sets Slack workspaces
// (…/claude_tag/slack_workspaces).
type SlackWorkspacesService struct{ c *Client }

// SlackWorkspaceListParams are the parameters of
// [SlackWorkspacesService.List] (cursor scheme).
type SlackWorkspaceListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// SlackWorkspaceID lists only this Slack workspace.
	SlackWorkspaceID string
}

// Validate reports Limit outside 1–1000.
func (p SlackWorkspaceListParams) Validate() error { return validateLimit(p.Limit, 1000) }

func (p SlackWorkspaceListParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	setString(a.query, "slack_workspace_id", p.SlackWorkspaceID)
	return a
}

func (s *SlackWorkspacesService) all() endpoint[SlackWorkspace] {
	return ep[SlackWorkspace](s.c, adminbridge.AdminKey, claudeTag+"/slack_workspaces").beta(wire.BetaClaudeTag)
}

// Get retrieves a Slack workspace.
func (s *SlackWorkspacesService) Get(ctx context.Context, workspaceID string, opts ...option.RequestOption) (*SlackWorkspace, error) {
	return s.all().id("slack_workspace_id", workspaceID).get(ctx, opts)
}

// Update changes a Slack workspace's settings.
func (s *SlackWorkspacesService) Update(ctx context.Context, workspaceID string, p TagSettingsUpdateParams, opts ...option.RequestOption) (*SlackWorkspace, error) {
	return s.all().id("slack_workspace_id", workspaceID).update(ctx, p, opts)
}

// List iterates over the Slack workspaces (cursor scheme).
func (s *SlackWorkspacesService) List(ctx context.Context, p SlackWorkspaceListParams, opts ...option.RequestOption) iter.Seq2[SlackWorkspace, error] {
	return s.all().list(ctx, adminbridge.Cursor, p, opts)
}

// BundlesService reads and edits bundles (…/claude_tag/bundles).
type BundlesService struct {
	c *Client
	// Targets attaches bundles to channels and workspaces.
	Targets *BundleTargetsService
}

// Bundle is a bundle's record (the wire type "bundle").
//
//mms:json type=bundle
type Bundle struct {
	// ID identifies the bundle.
	ID string `json:"id"`
	// DisplayName and Description describe it.
	DisplayName string  `json:"display_name"`
	Description *string `json:"description"`
	// Instructions are what it adds; nil for none.
	Instructions *string `json:"instructions"`
	// CreatedAt and UpdatedAt are its times.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// BundleUpdateParams are the parameters of [BundlesService.Update].
//
//mms:json
type BundleUpdateParams struct {
	// Instructions sets (mms.Set) or clears (mms.Clear) the instructions.
	// Required: an update that does neither is refused.
	Instructions mms.Update[string] `json:"instructions,omitzero"`
}

// Validate reports an update that neither sets nor clears.
func (p BundleUpdateParams) Validate() error {
	if p.Instructions.IsZero() {
		return invalid("instructions", "must be set (mms.Set) or cleared (mms.Clear)")
	}
	return nil
}

func (s *BundlesService) all() endpoint[Bundle] {
	return ep[Bundle](s.c, adminbridge.AdminKey, claudeTag+"/bundles").beta(wire.BetaClaudeTag)
}

// Get retrieves a bundle.
func (s *BundlesService) Get(ctx context.Context, bundleID string, opts ...option.RequestOption) (*Bundle, error) {
	return s.all().id("bundle_id", bundleID).get(ctx, opts)
}

// Update sets or clears a bundle's instructions.
func (s *BundlesService) Update(ctx context.Context, bundleID string, p BundleUpdateParams, opts ...option.RequestOption) (*Bundle, error) {
	return s.all().id("bundle_id", bundleID).update(ctx, p, opts)
}

// List iterates over the bundles (cursor scheme).
func (s *BundlesService) List(ctx context.Context, p CursorListParams, opts ...option.RequestOption) iter.Seq2[Bundle, error] {
	return s.all().list(ctx, adminbridge.Cursor, p, opts)
}

// The kinds of bundle targets.
const (
	BundleTargetSlackChannel   = "slack_channel"
	BundleTargetSlackWorkspace = "slack_workspace"
)

// BundleTargetRef names what a bundle is attached to: a channel's or a
// Slack workspace's record.
//
//mms:json
type BundleTargetRef struct {
	// Type is BundleTargetSlackChannel or BundleTargetSlackWorkspace.
	Type string `json:"type"`
	// ID is the channel's or workspace's record id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// BundleTarget is an attachment (the wire type "bundle_target").
//
//mms:json type=bundle_target
type BundleTarget struct {
	// ID identifies the attachment; BundleID its bundle.
	ID       string `json:"id"`
	BundleID string `json:"bundle_id"`
	// Target is what the bundle is attached to.
	Target BundleTargetRef `json:"target"`
	// CreatedAt is when it was attached.
	CreatedAt time.Time `json:"created_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// BundleTargetDeleted is the answer to [BundleTargetsService.Delete].
//
//mms:json type=bundle_target_deleted
type BundleTargetDeleted struct {
	// ID is the removed attachment's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// BundleTargetCreateParams are the parameters of
// [BundleTargetsService.Create].
//
//mms:json
type BundleTargetCreateParams struct {
	// Target is what to attach the bundle to. Required.
	Target BundleTargetRef `json:"target"`
}

// Validate reports a missing or unknown target type or a missing id.
func (p BundleTargetCreateParams) Validate() error {
	if err := required("target.type", p.Target.Type); err != nil {
		return err
	}
	if err := oneOf("target.type", p.Target.Type, BundleTargetSlackChannel, BundleTargetSlackWorkspace); err != nil {
		return err
	}
	return required("target.id", p.Target.ID)
}

// BundleTargetsService attaches a bundle to channels and Slack workspaces
// (…/claude_tag/bundles/{bundle_id}/targets).
type BundleTargetsService struct{ c *Client }

func (s *BundleTargetsService) all(bundleID string) endpoint[BundleTarget] {
	return ep[BundleTarget](s.c, adminbridge.AdminKey, claudeTag+"/bundles").beta(wire.BetaClaudeTag).id("bundle_id", bundleID).sub("/targets")
}

// Create attaches the bundle. Creating: after an unknown outcome the
// error matches mms.ErrMaybeApplied.
func (s *BundleTargetsService) Create(ctx context.Context, bundleID string, p BundleTargetCreateParams, opts ...option.RequestOption) (*BundleTarget, error) {
	return s.all(bundleID).post(ctx, p, opts)
}

// Get retrieves an attachment.
func (s *BundleTargetsService) Get(ctx context.Context, bundleID, targetID string, opts ...option.RequestOption) (*BundleTarget, error) {
	return s.all(bundleID).id("target_id", targetID).get(ctx, opts)
}

// List iterates over the bundle's attachments (cursor scheme).
func (s *BundleTargetsService) List(ctx context.Context, bundleID string, p CursorListParams, opts ...option.RequestOption) iter.Seq2[BundleTarget, error] {
	return s.all(bundleID).list(ctx, adminbridge.Cursor, p, opts)
}

// Delete detaches the bundle.
func (s *BundleTargetsService) Delete(ctx context.Context, bundleID, targetID string, opts ...option.RequestOption) (*BundleTargetDeleted, error) {
	return as[BundleTargetDeleted](s.all(bundleID).id("target_id", targetID)).delete(ctx, opts)
}
