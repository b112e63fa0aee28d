package admin

import (
	"context"
	"encoding/json"
	"iter"
	"strings"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// The small beta-only families of organization.md §19.1: signing a member
// out, the spend-limit records, and a Google Cloud project's data
// controls. Each sends its own beta.

// SignOut ends a member's sign-in sessions, trusted devices and this
// organization's OAuth tokens everywhere (POST
// /v1/organizations/users/{user_id}/sign_out, beta
// admin-user-sign-out-2026-10-08; scope write:members; Enterprise). It may
// take up to an hour to take effect; the member keeps their role. The
// answer is the member's record. Signing out twice is the same sign-out,
// so it is idempotent. Owners, privileged, managed and membership-admin
// members and the caller themself cannot be signed out (400/403 with
// cannot_sign_out_… codes).
func (s *UsersService) SignOut(ctx context.Context, userID string, opts ...option.RequestOption) (*User, error) {
	return s.at(userID).beta(wire.BetaAdminUserSignOut).action(ctx, "/sign_out", nil, transport.Idempotent, opts)
}

// The spend-limit scope types a list may filter on.
const (
	ScopeTypeUser                = "user"
	ScopeTypeSeatTier            = "seat_tier"
	ScopeTypeRBACGroup           = "rbac_group"
	ScopeTypeOrganizationService = "organization_service"
	ScopeTypeOrganization        = "organization"
	ScopeTypeWorkspace           = "workspace"
	ScopeTypeUsageTier           = "usage_tier"
)

var scopeTypes = []string{ScopeTypeUser, ScopeTypeSeatTier, ScopeTypeRBACGroup, ScopeTypeOrganizationService,
	ScopeTypeOrganization, ScopeTypeWorkspace, ScopeTypeUsageTier}

// SpendLimitDeleted is the answer to [SpendLimitsService.Delete].
//
//mms:json type=spend_limit_deleted
type SpendLimitDeleted struct {
	// ID is the deleted limit's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SpendLimitListParams are the parameters of [SpendLimitsService.List]
// (cursor scheme).
type SpendLimitListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// ScopeTypes lists only limits of these scope types (ScopeType…).
	ScopeTypes []string
	// WorkspaceID lists only a workspace's limits (Console organizations).
	WorkspaceID string
}

// Validate reports Limit outside 1–1000 or an unknown scope type.
func (p SpendLimitListParams) Validate() error {
	if err := validateLimit(p.Limit, 1000); err != nil {
		return err
	}
	return eachOneOf("scope_type", p.ScopeTypes, scopeTypes...)
}

func (p SpendLimitListParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	addArray(a.query, "scope_type", p.ScopeTypes)
	setString(a.query, "workspace_id", p.WorkspaceID)
	return a
}

// SpendLimitSetParams are the parameters of [SpendLimitsService.Set], an
// upsert on (scope, period).
//
//mms:json
type SpendLimitSetParams struct {
	// Amount is the limit in minor units (an integer string). Required.
	Amount Decimal `json:"amount"`
	// Scope is where it applies: a [UserScope] (Enterprise), or an
	// [OrganizationScope] or [WorkspaceScope] (Console, monthly).
	// Required.
	Scope SpendScope `json:"scope"`
	// Period is daily, weekly or monthly; the service's default when "".
	Period string `json:"period,omitzero"`
}

// Validate reports an amount that is not a non-negative integer, a
// missing scope or one that cannot be set (only user, organization and
// workspace scopes can), a scope without its id, or an unknown period.
func (p SpendLimitSetParams) Validate() error {
	if p.Amount == "" {
		return invalid("amount", "is required")
	}
	if err := p.Amount.validateMinorUnits("amount"); err != nil {
		return err
	}
	switch sc := p.Scope.(type) {
	case nil:
		return invalid("scope", "is required")
	case UserScope:
		if err := required("scope.user_id", sc.UserID); err != nil {
			return err
		}
	case OrganizationScope:
	case WorkspaceScope:
		if err := required("scope.workspace_id", sc.WorkspaceID); err != nil {
			return err
		}
	default:
		return invalid("scope", "must be a UserScope, OrganizationScope or WorkspaceScope: only these scopes can be set")
	}
	return oneOf("period", p.Period, periods...)
}

func (s *SpendLimitsService) all() endpoint[SpendLimit] {
	return ep[SpendLimit](s.c, adminbridge.AdminKey, "/spend_limits")
}

// Get retrieves a spend limit (GET /v1/organizations/spend_limits/{id}).
func (s *SpendLimitsService) Get(ctx context.Context, spendLimitID string, opts ...option.RequestOption) (*SpendLimit, error) {
	return s.all().id("spend_limit_id", spendLimitID).get(ctx, opts)
}

// List iterates over the spend limits (GET /v1/organizations/spend_limits,
// beta spend-limit-reads-2026-09-26; cursor scheme). Enterprise
// organizations list by scope type (organization, seat_tier, rbac_group,
// organization_service, user), Console organizations newest first.
func (s *SpendLimitsService) List(ctx context.Context, p SpendLimitListParams, opts ...option.RequestOption) iter.Seq2[SpendLimit, error] {
	return s.all().beta(wire.BetaSpendLimitReads).list(ctx, adminbridge.Cursor, p, opts)
}

// Set writes the limit of a (scope, period), replacing the one there
// (POST /v1/organizations/spend_limits): an upsert, so idempotent.
// Enterprise organizations set user limits only; Console organizations
// monthly organization and workspace limits (early access). Code
// spend_limits_admin_api_writes_not_enabled (403) when writes are off.
func (s *SpendLimitsService) Set(ctx context.Context, p SpendLimitSetParams, opts ...option.RequestOption) (*SpendLimit, error) {
	return s.all().update(ctx, p, opts)
}

// Delete removes a per-user override (Enterprise) or an organization or
// workspace limit (Console), never a usage_tier cap (DELETE
// /v1/organizations/spend_limits/{id}).
func (s *SpendLimitsService) Delete(ctx context.Context, spendLimitID string, opts ...option.RequestOption) (*SpendLimitDeleted, error) {
	return as[SpendLimitDeleted](s.all().id("spend_limit_id", spendLimitID)).delete(ctx, opts)
}

// GoogleDataControlsService reads and sets the data controls the vendor
// applies to a Google Cloud project's managed traffic
// (/v1/organizations/providers/google/projects/{project_number}/data_controls,
// beta google-managed-data-controls-2026-09-01).
type GoogleDataControlsService struct{ c *Client }

// GoogleDataControls is a project's record (the wire type
// "google_managed_project_data_controls").
//
//mms:json type=google_managed_project_data_controls
type GoogleDataControls struct {
	// ProjectNumber is the Google Cloud project number.
	ProjectNumber string `json:"project_number"`
	// CMEK is the customer-managed encryption control.
	CMEK GoogleCMEK `json:"cmek"`
	// Storage is the customer-owned storage control.
	Storage GoogleStorage `json:"storage"`
	// UpdatedAt is when a control last changed.
	UpdatedAt time.Time `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A GoogleCMEK is the encryption control: [GoogleCMEKDisabled],
// [GoogleCMEKEnabled] or [UnknownGoogleCMEK].
type GoogleCMEK interface {
	json.Marshaler
	isGoogleCMEK()
}

var googleCMEKUnion = codec.NewUnion[GoogleCMEK]("GoogleCMEK", UnknownGoogleCMEK{}).
	Add("disabled", GoogleCMEKDisabled{}).
	Add("enabled", GoogleCMEKEnabled{})

// GoogleCMEKDisabled is the control off (the wire type "disabled").
type GoogleCMEKDisabled struct {
	// RetiredKeys are keys used before, as the service describes them.
	RetiredKeys []json.RawMessage `json:"retired_keys"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// GoogleCMEKEnabled is the control on (the wire type "enabled").
type GoogleCMEKEnabled struct {
	// ExternalKeyIDs maps a region to its external key ("ekey_…").
	ExternalKeyIDs map[string]string `json:"external_key_ids"`
	// Status is each region's state, as the service describes it.
	Status map[string]json.RawMessage `json:"status"`
	// RetiredKeys are keys used before, as the service describes them.
	RetiredKeys []json.RawMessage `json:"retired_keys"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownGoogleCMEK keeps a control this SDK version cannot name.
type UnknownGoogleCMEK struct {
	Type string
	Raw  json.RawMessage
}

// A GoogleStorage is the storage control: [GoogleStorageDisabled],
// [GoogleStorageEnabled] or [UnknownGoogleStorage].
type GoogleStorage interface {
	json.Marshaler
	isGoogleStorage()
}

var googleStorageUnion = codec.NewUnion[GoogleStorage]("GoogleStorage", UnknownGoogleStorage{}).
	Add("disabled", GoogleStorageDisabled{}).
	Add("enabled", GoogleStorageEnabled{})

// GoogleStorageDisabled is the control off (the wire type "disabled").
type GoogleStorageDisabled struct {
	// RetiredBuckets are buckets used before, as the service describes them.
	RetiredBuckets []json.RawMessage `json:"retired_buckets"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// GoogleStorageEnabled is the control on (the wire type "enabled").
type GoogleStorageEnabled struct {
	// Buckets maps a region to its bucket.
	Buckets map[string]string `json:"buckets"`
	// Status is each region's state, as the service describes it.
	Status map[string]json.RawMessage `json:"status"`
	// RetiredBuckets are buckets used before, as the service describes them.
	RetiredBuckets []json.RawMessage `json:"retired_buckets"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownGoogleStorage keeps a control this SDK version cannot name.
type UnknownGoogleStorage struct {
	Type string
	Raw  json.RawMessage
}

// The states of a data control in an update.
const (
	ControlEnabled  = "enabled"
	ControlDisabled = "disabled"
)

// GoogleCMEKUpdate turns encryption on with keys per region, or off.
//
//mms:json
type GoogleCMEKUpdate struct {
	// Type is ControlEnabled or ControlDisabled. Required.
	Type string `json:"type"`
	// ExternalKeyIDs maps a region to an external key ("ekey_…"); only
	// when enabled, at least one. Regions left out are unchanged.
	ExternalKeyIDs map[string]string `json:"external_key_ids,omitzero"`
}

// GoogleStorageUpdate turns customer-owned storage on with buckets per
// region, or off.
//
//mms:json
type GoogleStorageUpdate struct {
	// Type is ControlEnabled or ControlDisabled. Required.
	Type string `json:"type"`
	// Buckets maps a region to a bucket; only when enabled, at least one.
	// Regions left out are unchanged.
	Buckets map[string]string `json:"buckets,omitzero"`
}

// GoogleDataControlsUpdateParams are the parameters of
// [GoogleDataControlsService.Update]; a control left nil is unchanged.
//
//mms:json
type GoogleDataControlsUpdateParams struct {
	// CMEK sets the encryption control.
	CMEK *GoogleCMEKUpdate `json:"cmek,omitzero"`
	// Storage sets the storage control.
	Storage *GoogleStorageUpdate `json:"storage,omitzero"`
}

// validateControl checks one control of an update: its type, and a
// non-empty region map (no empty region or value) exactly when enabled.
func validateControl(field, typ, mapName string, m map[string]string) error {
	if err := required(field+".type", typ); err != nil {
		return err
	}
	if err := oneOf(field+".type", typ, ControlEnabled, ControlDisabled); err != nil {
		return err
	}
	if typ == ControlDisabled {
		if len(m) > 0 {
			return invalid(field+"."+mapName, "must be empty when the control is disabled")
		}
		return nil
	}
	if len(m) == 0 {
		return invalid(field+"."+mapName, "must name at least one region when the control is enabled")
	}
	for _, k := range sortedKeys(m) {
		if strings.TrimSpace(k) == "" {
			return invalid(field+"."+mapName, "must not have an empty region")
		}
		if m[k] == "" {
			return invalid(field+"."+mapName+"["+k+"]", "must not be empty")
		}
	}
	return nil
}

// Validate reports an update naming no control, or a control with an
// unknown type, or with regions when disabled or none when enabled.
func (p GoogleDataControlsUpdateParams) Validate() error {
	if p.CMEK == nil && p.Storage == nil {
		return invalid("cmek", "an update must set cmek, storage or both")
	}
	if p.CMEK != nil {
		if err := validateControl("cmek", p.CMEK.Type, "external_key_ids", p.CMEK.ExternalKeyIDs); err != nil {
			return err
		}
	}
	if p.Storage != nil {
		return validateControl("storage", p.Storage.Type, "buckets", p.Storage.Buckets)
	}
	return nil
}

// project is the data-controls path of a project; its number must be
// digits.
func (s *GoogleDataControlsService) project(cred adminbridge.Credential, projectNumber string) endpoint[GoogleDataControls] {
	e := ep[GoogleDataControls](s.c, cred, "/providers/google/projects").beta(wire.BetaGoogleDataControls)
	if projectNumber != "" && strings.Trim(projectNumber, "0123456789") != "" {
		e.err = invalid("project_number", "must be the project's number (digits), got %q", projectNumber)
		return e
	}
	return e.id("project_number", projectNumber).sub("/data_controls")
}

// Get reads a project's data controls (admin key).
func (s *GoogleDataControlsService) Get(ctx context.Context, projectNumber string, opts ...option.RequestOption) (*GoogleDataControls, error) {
	return s.project(adminbridge.AdminKey, projectNumber).get(ctx, opts)
}

// Update sets the controls the params name; omitted controls and regions
// are unchanged. The organization must have proved it owns the project,
// and one organization at a time controls a project. It needs a user or
// service-account credential (an OAuth token with org:admin, or an
// organization-scoped key of an admin or owner): the service refuses a
// plain admin key (403), so none is refused here.
func (s *GoogleDataControlsService) Update(ctx context.Context, projectNumber string, p GoogleDataControlsUpdateParams, opts ...option.RequestOption) (*GoogleDataControls, error) {
	return s.project(adminbridge.AnyKey, projectNumber).update(ctx, p, opts)
}

// initBeta sets up the beta-only families' services.
func (c *Client) initBeta() {
	c.GoogleDataControls = &GoogleDataControlsService{c: c}
	c.ExternalStorage = &ExternalStorageService{c: c}
	c.TelemetryDestinations = &TelemetryDestinationsService{c: c, Workspaces: &TelemetryDestinationWorkspacesService{c: c}}
	c.Plugins = &PluginsService{c: c, Versions: &PluginVersionsService{c: c},
		InstallationSettings: &PluginInstallationSettingsService{c: c}, Shares: &PluginSharesService{c: c}}
	c.PluginMarketplaces = &PluginMarketplacesService{c: c}
	c.ClaudeCodeSettings = &ClaudeCodeSettingsService{Configuration: &ManagedSettingsConfigurationService{c: c},
		Groups: &ManagedSettingsGroupsService{c: c}, Default: &ManagedSettingsDefaultService{c: c}}
	c.ClaudeTag = &ClaudeTagService{SlackChannels: &SlackChannelsService{c: c}, SlackWorkspaces: &SlackWorkspacesService{c: c},
		Bundles: &BundlesService{c: c, Targets: &BundleTargetsService{c: c}}}
}
