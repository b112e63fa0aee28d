package admin

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"time"

	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// ClaudeCodeSettingsService manages the coding CLI's managed settings
// (/v1/organizations/claude_code/managed_settings, beta
// ce-claude-code-managed-settings-2026-10-06; Enterprise; admin key with
// scopes read:/write:claude_code_managed_settings): the mode, per-group
// settings in a priority order, and the default for members in no group.
// Writes are idempotent: a write answered 503 may have applied, and
// sending it again is safe.
type ClaudeCodeSettingsService struct {
	// Configuration reads and sets the mode and the group order.
	Configuration *ManagedSettingsConfigurationService
	// Groups sets the settings of RBAC groups.
	Groups *ManagedSettingsGroupsService
	// Default sets the settings of members in no group with settings.
	Default *ManagedSettingsDefaultService
}

// The managed-settings modes.
const (
	ManagedSettingsModeOrganization = "organization"
	ManagedSettingsModeRBACGroups   = "rbac_groups"
)

const managedSettings = "/claude_code/managed_settings"

// ManagedSettingsConfigurationService reads and sets the configuration
// (…/managed_settings/configuration).
type ManagedSettingsConfigurationService struct{ c *Client }

// ManagedSettingsConfiguration is the configuration (the wire type
// "claude_code_managed_settings_configuration").
//
//mms:json type=claude_code_managed_settings_configuration
type ManagedSettingsConfiguration struct {
	// Mode is {type: "organization" | "rbac_groups"}.
	Mode TypeOnly `json:"mode"`
	// ModeUpdatedAt is when the mode last changed; nil for never.
	ModeUpdatedAt *time.Time `json:"mode_updated_at"`
	// RBACGroupOrder is the groups with settings, highest priority first.
	RBACGroupOrder []string `json:"rbac_group_order"`
	// RBACGroupOrderVersion changes with the order; send it back with a
	// new order so a concurrent change answers 409.
	RBACGroupOrderVersion int64 `json:"rbac_group_order_version"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ManagedSettingsConfigurationParams are the parameters of
// [ManagedSettingsConfigurationService.Update], applied atomically.
//
//mms:json
type ManagedSettingsConfigurationParams struct {
	// Mode is ManagedSettingsModeOrganization or …RBACGroups, sent as
	// {type}.
	Mode *TypeOnly `json:"mode,omitzero"`
	// RBACGroupOrder is the new order: every group with settings, once.
	RBACGroupOrder []string `json:"rbac_group_order,omitzero"`
	// RBACGroupOrderVersion is the version the order was read at; a stale
	// one answers 409.
	RBACGroupOrderVersion *int64 `json:"rbac_group_order_version,omitzero"`
}

// Validate reports an update of nothing, an unknown mode, an empty or
// repeated group in the order, or a negative version.
func (p ManagedSettingsConfigurationParams) Validate() error {
	if p.Mode == nil && p.RBACGroupOrder == nil && p.RBACGroupOrderVersion == nil {
		return invalid("mode", "an update must set mode, rbac_group_order or both")
	}
	if p.Mode != nil {
		if err := required("mode.type", p.Mode.Type); err != nil {
			return err
		}
		if err := oneOf("mode.type", p.Mode.Type, ManagedSettingsModeOrganization, ManagedSettingsModeRBACGroups); err != nil {
			return err
		}
	}
	seen := map[string]bool{}
	for i, g := range p.RBACGroupOrder {
		if g == "" {
			return invalid("rbac_group_order["+itoa(i)+"]", "must not be empty")
		}
		if seen[g] {
			return invalid("rbac_group_order["+itoa(i)+"]", "repeats %q", g)
		}
		seen[g] = true
	}
	if v := p.RBACGroupOrderVersion; v != nil && *v < 0 {
		return invalid("rbac_group_order_version", "must not be negative, got %d", *v)
	}
	return nil
}

func (s *ManagedSettingsConfigurationService) ep() endpoint[ManagedSettingsConfiguration] {
	return ep[ManagedSettingsConfiguration](s.c, adminbridge.AdminKey, managedSettings+"/configuration").beta(wire.BetaManagedSettings)
}

// Get reads the configuration.
func (s *ManagedSettingsConfigurationService) Get(ctx context.Context, opts ...option.RequestOption) (*ManagedSettingsConfiguration, error) {
	return s.ep().get(ctx, opts)
}

// Update sets the members p holds, atomically.
func (s *ManagedSettingsConfigurationService) Update(ctx context.Context, p ManagedSettingsConfigurationParams, opts ...option.RequestOption) (*ManagedSettingsConfiguration, error) {
	return s.ep().update(ctx, p, opts)
}

// ManagedSettingsGroupsService sets the settings of RBAC groups
// (…/managed_settings/rbac_groups).
type ManagedSettingsGroupsService struct{ c *Client }

// GroupManagedSettings are a group's settings (the wire type
// "claude_code_rbac_group_managed_settings").
//
//mms:json type=claude_code_rbac_group_managed_settings
type GroupManagedSettings struct {
	// RBACGroupID is the group; RBACGroupStatus its state.
	RBACGroupID     string `json:"rbac_group_id"`
	RBACGroupStatus string `json:"rbac_group_status"`
	// Settings is the settings object; nil in list entries, which omit it.
	Settings json.RawMessage `json:"settings,omitzero"`
	// CreatedAt and UpdatedAt are its times.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// GroupManagedSettingsDeleted is the answer to
// [ManagedSettingsGroupsService.Delete].
//
//mms:json
type GroupManagedSettingsDeleted struct {
	// RBACGroupID is the group whose settings were deleted, when the
	// answer names it.
	RBACGroupID string `json:"rbac_group_id,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ManagedSettingsParams are the parameters of
// [ManagedSettingsGroupsService.Set] and
// [ManagedSettingsDefaultService.Update].
//
//mms:json
type ManagedSettingsParams struct {
	// Settings is a JSON object of settings. Required by Set; for the
	// default, nil clears it (sent as null).
	Settings json.RawMessage `json:"settings"`
}

// validateSettings reports settings that are not a JSON object (nil
// passes only when nullable).
func validateSettings(s json.RawMessage, nullable bool) error {
	t := bytes.TrimSpace(s)
	if len(t) == 0 || string(t) == "null" {
		if nullable {
			return nil
		}
		return invalid("settings", "is required")
	}
	if t[0] != '{' || !json.Valid(t) {
		return invalid("settings", "must be a JSON object")
	}
	return nil
}

// Validate reports settings that are not a JSON object; nil passes (the
// default's clearing).
func (p ManagedSettingsParams) Validate() error { return validateSettings(p.Settings, true) }

func (s *ManagedSettingsGroupsService) all() endpoint[GroupManagedSettings] {
	return ep[GroupManagedSettings](s.c, adminbridge.AdminKey, managedSettings+"/rbac_groups").beta(wire.BetaManagedSettings)
}

// Get reads a group's settings; none answers 404
// rbac_group_managed_settings_not_found.
func (s *ManagedSettingsGroupsService) Get(ctx context.Context, groupID string, opts ...option.RequestOption) (*GroupManagedSettings, error) {
	return s.all().id("rbac_group_id", groupID).get(ctx, opts)
}

// Set sets a group's settings; a group new to settings joins the end of
// the order.
func (s *ManagedSettingsGroupsService) Set(ctx context.Context, groupID string, p ManagedSettingsParams, opts ...option.RequestOption) (*GroupManagedSettings, error) {
	if err := validateSettings(p.Settings, false); err != nil {
		return nil, err
	}
	return s.all().id("rbac_group_id", groupID).update(ctx, p, opts)
}

// Delete deletes a group's settings.
func (s *ManagedSettingsGroupsService) Delete(ctx context.Context, groupID string, opts ...option.RequestOption) (*GroupManagedSettingsDeleted, error) {
	return as[GroupManagedSettingsDeleted](s.all().id("rbac_group_id", groupID)).delete(ctx, opts)
}

// List iterates over the groups with settings in priority order (cursor
// scheme; entries omit Settings). An order changed between pages answers
// 409.
func (s *ManagedSettingsGroupsService) List(ctx context.Context, p CursorListParams, opts ...option.RequestOption) iter.Seq2[GroupManagedSettings, error] {
	return s.all().list(ctx, adminbridge.Cursor, p, opts)
}

// ManagedSettingsDefaultService sets the settings of members in no group
// with settings (…/managed_settings/rbac_group_default).
type ManagedSettingsDefaultService struct{ c *Client }

// DefaultManagedSettings is the default (the wire type
// "claude_code_rbac_group_default_managed_settings").
//
//mms:json type=claude_code_rbac_group_default_managed_settings
type DefaultManagedSettings struct {
	// Settings is the settings object; the JSON null when cleared.
	Settings json.RawMessage `json:"settings"`
	// UpdatedAt is when it last changed; nil for never.
	UpdatedAt *time.Time `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (s *ManagedSettingsDefaultService) ep() endpoint[DefaultManagedSettings] {
	return ep[DefaultManagedSettings](s.c, adminbridge.AdminKey, managedSettings+"/rbac_group_default").beta(wire.BetaManagedSettings)
}

// Get reads the default.
func (s *ManagedSettingsDefaultService) Get(ctx context.Context, opts ...option.RequestOption) (*DefaultManagedSettings, error) {
	return s.ep().get(ctx, opts)
}

// Update sets the default, or clears it when p.Settings is nil.
func (s *ManagedSettingsDefaultService) Update(ctx context.Context, p ManagedSettingsParams, opts ...option.RequestOption) (*DefaultManagedSettings, error) {
	return s.ep().update(ctx, p, opts)
}
