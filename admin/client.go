package admin

import (
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/option"

	// The root package sets adminbridge's functions in its init; importing
	// it guarantees they are set (and admin's errors are its *mms.Error).
	_ "github.com/mms-sdk/mms-go"
)

// EnvAdminKey is the environment variable NewClient reads an admin key
// from when no option gives a credential.
const EnvAdminKey = adminbridge.EnvAdminKey

// ErrCredential is matched (errors.Is) by the error of an operation called
// with a credential it does not accept: a plain API key where an admin
// credential is required, or an admin key or API key where only an OAuth
// token is accepted. Nothing was sent.
var ErrCredential = adminbridge.ErrCredential

// Client is the Organization API client. Its services mirror the API's
// resources. A Client is safe for concurrent use; build one and share it.
type Client struct {
	// Organization reads the organization the credential belongs to.
	Organization *OrganizationService
	// APIKeys retrieves, updates and lists the organization's API keys.
	APIKeys *APIKeysService
	// Invites creates, retrieves, lists and deletes invites.
	Invites *InvitesService
	// Users retrieves, updates, lists and removes the organization's members.
	Users *UsersService
	// Workspaces manages workspaces, their members, service accounts and
	// rate limits.
	Workspaces *WorkspacesService
	// RateLimits lists the organization's rate limits.
	RateLimits *RateLimitsService
	// ComplianceSettings reads and sets the compliance settings.
	ComplianceSettings *ComplianceSettingsService
	// ExternalKeys manages customer-managed encryption keys.
	ExternalKeys *ExternalKeysService
	// FederationIssuers manages the OIDC issuers of workload identity
	// federation (OAuth org:admin only).
	FederationIssuers *FederationIssuersService
	// FederationRules manages federation rules and the workspaces they are
	// enabled for (OAuth org:admin only).
	FederationRules *FederationRulesService
	// ServiceAccounts manages service accounts and their workspace
	// memberships (OAuth org:admin only).
	ServiceAccounts *ServiceAccountsService
	// SpendLimits lists effective spend limits.
	SpendLimits *SpendLimitsService
	// SpendLimitIncreaseRequests reads, approves and denies members'
	// requests for a higher spend limit.
	SpendLimitIncreaseRequests *SpendLimitIncreaseRequestsService
	// RBACGroups manages RBAC groups and their members.
	RBACGroups *RBACGroupsService
	// RBACRoles reads RBAC roles and their permissions.
	RBACRoles *RBACRolesService
	// Webhooks manages the organization's webhook endpoints (beta).
	Webhooks *WebhooksService
	// Reports reads the usage and cost reports (beta) and the legacy
	// reports.
	Reports *ReportsService
	// Analytics lists the Enterprise activity analytics (GA).
	Analytics *AnalyticsService

	// GoogleDataControls reads and sets a Google Cloud project's data
	// controls (beta).
	GoogleDataControls *GoogleDataControlsService
	// ExternalStorage manages customer-owned buckets (beta).
	ExternalStorage *ExternalStorageService
	// TelemetryDestinations manages OpenTelemetry export (beta).
	TelemetryDestinations *TelemetryDestinationsService
	// Plugins manages plugins, their versions, installation settings and
	// shares (beta).
	Plugins *PluginsService
	// PluginMarketplaces reads, configures and validates plugin
	// marketplaces (beta).
	PluginMarketplaces *PluginMarketplacesService
	// ClaudeCodeSettings manages the coding CLI's managed settings (beta).
	ClaudeCodeSettings *ClaudeCodeSettingsService
	// ClaudeTag manages the Slack integration's settings (beta).
	ClaudeTag *ClaudeTagService
	// ComplianceReview reads the vendor's compliance review cases, items
	// and notices, and responds to cases (beta, /v1/compliance/review/…).
	ComplianceReview *ComplianceReviewService

	cfg *config.Config
}

// NewClient builds an Organization API client from options, with defaults
// from the environment, as mms.NewClient does; the credential is the first
// of: an option (option.WithAdminKey, or any credential option of package
// option), $VENDOR_ADMIN_KEY, then the rest of mms.NewClient's chain
// ($VENDOR_API_KEY, $VENDOR_AUTH_TOKEN, profiles, federation). It fails
// when an option is invalid, when two credentials are given together,
// when no credential or base URL is found, or with option.WithPlatform
// (the Organization API is not served through partner platforms).
func NewClient(opts ...option.RequestOption) (*Client, error) {
	cfg, err := adminbridge.NewConfig(opts)
	if err != nil {
		return nil, err
	}
	c := &Client{cfg: cfg}
	c.Organization = &OrganizationService{c: c}
	c.APIKeys = &APIKeysService{c: c}
	c.Invites = &InvitesService{c: c}
	c.Users = &UsersService{c: c}
	c.Workspaces = &WorkspacesService{c: c, Members: &WorkspaceMembersService{c: c},
		ServiceAccounts: &WorkspaceServiceAccountsService{c: c}, RateLimits: &WorkspaceRateLimitsService{c: c}}
	c.RateLimits = &RateLimitsService{c: c}
	c.ComplianceSettings = &ComplianceSettingsService{c: c}
	c.ExternalKeys = &ExternalKeysService{c: c}
	c.FederationIssuers = &FederationIssuersService{c: c}
	c.FederationRules = &FederationRulesService{c: c, Workspaces: &FederationRuleWorkspacesService{c: c}}
	c.ServiceAccounts = &ServiceAccountsService{c: c, Workspaces: &ServiceAccountWorkspacesService{c: c}}
	c.SpendLimits = &SpendLimitsService{c: c}
	c.SpendLimitIncreaseRequests = &SpendLimitIncreaseRequestsService{c: c}
	c.RBACGroups = &RBACGroupsService{c: c, Members: &RBACGroupMembersService{c: c}}
	c.RBACRoles = &RBACRolesService{c: c, Permissions: &RBACRolePermissionsService{c: c}}
	c.Analytics = &AnalyticsService{c: c}
	c.Reports = &ReportsService{c: c}
	c.Webhooks = &WebhooksService{c: c}
	c.initBeta()
	return c, nil
}
