package admin

import (
	"context"
	"encoding/json"
	"iter"
	"time"

	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/option"
)

// ServiceAccountsService manages service accounts
// (/v1/organizations/service_accounts; OAuth org:admin only).
type ServiceAccountsService struct {
	c *Client
	// Workspaces manages an account's workspace memberships.
	Workspaces *ServiceAccountWorkspacesService
}

// The service-account organization roles.
const (
	ServiceAccountDeveloper = "developer"
	ServiceAccountAdmin     = "admin"
)

// ServiceAccount is a service account's record (the wire type
// "service_account").
//
//mms:json type=service_account
type ServiceAccount struct {
	// ID identifies the account ("svac_…").
	ID string `json:"id"`
	// Name is the account's slug (immutable).
	Name string `json:"name"`
	// Description describes it; nil for none.
	Description *string `json:"description"`
	// OrganizationRole is "developer" or "admin".
	OrganizationRole string `json:"organization_role"`
	// CreatedAt, UpdatedAt and ArchivedAt (nil while live) are its times.
	CreatedAt  time.Time  `json:"created_at"`
	UpdatedAt  time.Time  `json:"updated_at"`
	ArchivedAt *time.Time `json:"archived_at"`
	// The actors that created, updated and archived it.
	CreatedByActorID  *string `json:"created_by_actor_id"`
	UpdatedByActorID  *string `json:"updated_by_actor_id"`
	ArchivedByActorID *string `json:"archived_by_actor_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ServiceAccountCreateParams are the parameters of
// [ServiceAccountsService.Create].
//
//mms:json
type ServiceAccountCreateParams struct {
	// Name is a unique slug. Required.
	Name string `json:"name"`
	// Description describes the account.
	Description string `json:"description,omitzero"`
	// OrganizationRole is "developer" (the default) or "admin" (needs an
	// interactive credential).
	OrganizationRole string `json:"organization_role,omitzero"`
}

// Validate reports a name that is not a slug or an unknown role.
func (p ServiceAccountCreateParams) Validate() error {
	if err := validateSlug("name", p.Name); err != nil {
		return err
	}
	return oneOf("organization_role", p.OrganizationRole, ServiceAccountDeveloper, ServiceAccountAdmin)
}

// ServiceAccountUpdateParams are the parameters of
// [ServiceAccountsService.Update]; nil fields are unchanged.
//
//mms:json
type ServiceAccountUpdateParams struct {
	// Description sets the description.
	Description *string `json:"description,omitzero"`
	// OrganizationRole sets the role.
	OrganizationRole string `json:"organization_role,omitzero"`
}

// Validate reports an unknown role.
func (p ServiceAccountUpdateParams) Validate() error {
	return oneOf("organization_role", p.OrganizationRole, ServiceAccountDeveloper, ServiceAccountAdmin)
}

func (s *ServiceAccountsService) all() endpoint[ServiceAccount] {
	return ep[ServiceAccount](s.c, adminbridge.OAuth, "/service_accounts")
}

func (s *ServiceAccountsService) at(id string) endpoint[ServiceAccount] {
	return s.all().id("service_account_id", id)
}

// Create creates a service account. Creating: after an unknown outcome the
// error matches mms.ErrMaybeApplied.
func (s *ServiceAccountsService) Create(ctx context.Context, p ServiceAccountCreateParams, opts ...option.RequestOption) (*ServiceAccount, error) {
	return s.all().post(ctx, p, opts)
}

// Get retrieves a service account.
func (s *ServiceAccountsService) Get(ctx context.Context, serviceAccountID string, opts ...option.RequestOption) (*ServiceAccount, error) {
	return s.at(serviceAccountID).get(ctx, opts)
}

// Update changes a service account's description or role.
func (s *ServiceAccountsService) Update(ctx context.Context, serviceAccountID string, p ServiceAccountUpdateParams, opts ...option.RequestOption) (*ServiceAccount, error) {
	return s.at(serviceAccountID).update(ctx, p, opts)
}

// List iterates over the service accounts, newest first (cursor scheme).
func (s *ServiceAccountsService) List(ctx context.Context, p ArchivableListParams, opts ...option.RequestOption) iter.Seq2[ServiceAccount, error] {
	return s.all().list(ctx, adminbridge.Cursor, p, opts)
}

// Archive archives a service account (idempotent); refused while a live
// rule targets it.
func (s *ServiceAccountsService) Archive(ctx context.Context, serviceAccountID string, opts ...option.RequestOption) (*ServiceAccount, error) {
	return s.at(serviceAccountID).archive(ctx, opts)
}

// ServiceAccountWorkspacesService manages an account's workspace
// memberships (…/service_accounts/{id}/workspaces; OAuth org:admin only).
type ServiceAccountWorkspacesService struct{ c *Client }

// ServiceAccountWorkspaceAddParams are the parameters of
// [ServiceAccountWorkspacesService.Add].
//
//mms:json
type ServiceAccountWorkspaceAddParams struct {
	// WorkspaceID is the workspace. Required.
	WorkspaceID string `json:"workspace_id"`
	// WorkspaceRole is the role, not workspace_billing. Required.
	WorkspaceRole WorkspaceRole `json:"workspace_role"`
}

// Validate reports a missing workspace id, or a role missing, unknown or
// workspace_billing.
func (p ServiceAccountWorkspaceAddParams) Validate() error {
	if err := required("workspace_id", p.WorkspaceID); err != nil {
		return err
	}
	return validateRole("workspace_role", p.WorkspaceRole, addableWSRoles)
}

func (s *ServiceAccountWorkspacesService) all(serviceAccountID string) endpoint[ServiceAccountMembership] {
	return ep[ServiceAccountMembership](s.c, adminbridge.OAuth, "/service_accounts").id("service_account_id", serviceAccountID).sub("/workspaces")
}

// List iterates over the account's memberships (cursor scheme); the
// implicit default-workspace membership comes first when not explicit.
func (s *ServiceAccountWorkspacesService) List(ctx context.Context, serviceAccountID string, p CursorListParams, opts ...option.RequestOption) iter.Seq2[ServiceAccountMembership, error] {
	return s.all(serviceAccountID).list(ctx, adminbridge.Cursor, p, opts)
}

// Add adds the account to a workspace or replaces the role of its explicit
// membership: idempotent.
func (s *ServiceAccountWorkspacesService) Add(ctx context.Context, serviceAccountID string, p ServiceAccountWorkspaceAddParams, opts ...option.RequestOption) (*ServiceAccountMembership, error) {
	return s.all(serviceAccountID).update(ctx, p, opts)
}

// Delete removes the account from a workspace; idempotent.
func (s *ServiceAccountWorkspacesService) Delete(ctx context.Context, serviceAccountID, workspaceID string, opts ...option.RequestOption) (*ServiceAccountMembershipDeleted, error) {
	return as[ServiceAccountMembershipDeleted](s.all(serviceAccountID).id("workspace_id", workspaceID)).delete(ctx, opts)
}
