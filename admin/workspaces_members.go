package admin

import (
	"context"
	"encoding/json"
	"iter"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/option"
)

// WorkspaceRole is a role in a workspace.
type WorkspaceRole string

// The workspace roles; adding a member or a service account accepts all
// but WorkspaceRoleBilling.
const (
	WorkspaceRoleUser                WorkspaceRole = "workspace_user"
	WorkspaceRoleDeveloper           WorkspaceRole = "workspace_developer"
	WorkspaceRoleRestrictedDeveloper WorkspaceRole = "workspace_restricted_developer"
	WorkspaceRoleAdmin               WorkspaceRole = "workspace_admin"
	WorkspaceRoleBilling             WorkspaceRole = "workspace_billing"
)

var (
	workspaceRoles = []WorkspaceRole{WorkspaceRoleUser, WorkspaceRoleDeveloper, WorkspaceRoleRestrictedDeveloper, WorkspaceRoleAdmin, WorkspaceRoleBilling}
	addableWSRoles = workspaceRoles[:4]
)

// validateRole reports a missing role, or one outside roles.
func validateRole(field string, r WorkspaceRole, roles []WorkspaceRole) error {
	if err := required(field, string(r)); err != nil {
		return err
	}
	return oneOf(field, r, roles...)
}

// WorkspaceMembersService manages a workspace's users
// (/v1/organizations/workspaces/{workspace_id}/members; admin key).
type WorkspaceMembersService struct{ c *Client }

// WorkspaceMember is a user's membership (the wire type
// "workspace_member").
//
//mms:json type=workspace_member
type WorkspaceMember struct {
	// UserID and WorkspaceID name the membership.
	UserID      string `json:"user_id"`
	WorkspaceID string `json:"workspace_id"`
	// WorkspaceRole is the user's role there.
	WorkspaceRole WorkspaceRole `json:"workspace_role"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkspaceMemberDeleted is the answer to [WorkspaceMembersService.Delete]
// (the wire type "workspace_member_deleted").
//
//mms:json type=workspace_member_deleted
type WorkspaceMemberDeleted struct {
	// UserID and WorkspaceID name the removed membership.
	UserID      string `json:"user_id"`
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkspaceMemberAddParams are the parameters of
// [WorkspaceMembersService.Add].
//
//mms:json
type WorkspaceMemberAddParams struct {
	// UserID is the organization member to add. Required.
	UserID string `json:"user_id"`
	// WorkspaceRole is the role, not workspace_billing. Required.
	WorkspaceRole WorkspaceRole `json:"workspace_role"`
}

// Validate reports a missing user id, or a role missing, unknown or
// workspace_billing.
func (p WorkspaceMemberAddParams) Validate() error {
	if err := required("user_id", p.UserID); err != nil {
		return err
	}
	return validateRole("workspace_role", p.WorkspaceRole, addableWSRoles)
}

// WorkspaceMemberUpdateParams are the parameters of
// [WorkspaceMembersService.Update].
//
//mms:json
type WorkspaceMemberUpdateParams struct {
	// WorkspaceRole is the new role. Required.
	WorkspaceRole WorkspaceRole `json:"workspace_role"`
}

// Validate reports a role missing or unknown.
func (p WorkspaceMemberUpdateParams) Validate() error {
	return validateRole("workspace_role", p.WorkspaceRole, workspaceRoles)
}

// WorkspaceMemberListParams are the parameters of
// [WorkspaceMembersService.List] (id scheme).
type WorkspaceMemberListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service (20).
	Limit int
	// AfterID and BeforeID start the list after or before a member.
	AfterID, BeforeID string
}

// Validate reports Limit outside 1–1000 or AfterID with BeforeID.
func (p WorkspaceMemberListParams) Validate() error {
	return validateIDList(p.Limit, p.AfterID, p.BeforeID)
}

func (p WorkspaceMemberListParams) listArgs() listArgs {
	return idArgs(p.Limit, p.AfterID, p.BeforeID)
}

func (s *WorkspaceMembersService) all(workspaceID string) endpoint[WorkspaceMember] {
	return ep[WorkspaceMember](s.c, adminbridge.AdminKey, "/workspaces").id("workspace_id", workspaceID).sub("/members")
}

// Get retrieves a membership (GET …/workspaces/{workspace_id}/members/{user_id}).
func (s *WorkspaceMembersService) Get(ctx context.Context, workspaceID, userID string, opts ...option.RequestOption) (*WorkspaceMember, error) {
	return s.all(workspaceID).id("user_id", userID).get(ctx, opts)
}

// Add adds a user to the workspace (POST …/workspaces/{workspace_id}/members).
func (s *WorkspaceMembersService) Add(ctx context.Context, workspaceID string, p WorkspaceMemberAddParams, opts ...option.RequestOption) (*WorkspaceMember, error) {
	return s.all(workspaceID).post(ctx, p, opts)
}

// Update sets a member's role (POST …/members/{user_id}).
func (s *WorkspaceMembersService) Update(ctx context.Context, workspaceID, userID string, p WorkspaceMemberUpdateParams, opts ...option.RequestOption) (*WorkspaceMember, error) {
	return s.all(workspaceID).id("user_id", userID).update(ctx, p, opts)
}

// List iterates over the workspace's members (GET …/members, id scheme).
func (s *WorkspaceMembersService) List(ctx context.Context, workspaceID string, p WorkspaceMemberListParams, opts ...option.RequestOption) iter.Seq2[WorkspaceMember, error] {
	return s.all(workspaceID).list(ctx, adminbridge.ID, p, opts)
}

// ListPage fetches one page of the workspace's members.
func (s *WorkspaceMembersService) ListPage(ctx context.Context, workspaceID string, p WorkspaceMemberListParams, opts ...option.RequestOption) (*mms.Page[WorkspaceMember], error) {
	return s.all(workspaceID).listPage(ctx, adminbridge.ID, p, opts)
}

// Delete removes a member from the workspace (DELETE …/members/{user_id}).
func (s *WorkspaceMembersService) Delete(ctx context.Context, workspaceID, userID string, opts ...option.RequestOption) (*WorkspaceMemberDeleted, error) {
	return as[WorkspaceMemberDeleted](s.all(workspaceID).id("user_id", userID)).delete(ctx, opts)
}

// WorkspaceServiceAccountsService manages a workspace's service-account
// memberships (/v1/organizations/workspaces/{workspace_id}/service_accounts;
// OAuth org:admin only).
type WorkspaceServiceAccountsService struct{ c *Client }

// ServiceAccountMembership is a service account's membership of a
// workspace (the wire type "service_account_workspace_member").
//
//mms:json type=service_account_workspace_member
type ServiceAccountMembership struct {
	// ServiceAccountID and WorkspaceID name the membership.
	ServiceAccountID string `json:"service_account_id"`
	WorkspaceID      string `json:"workspace_id"`
	// WorkspaceRole is the account's role (never workspace_billing).
	WorkspaceRole WorkspaceRole `json:"workspace_role"`
	// Implicit marks the default-workspace membership every account has
	// (role workspace_user, not removable).
	Implicit bool `json:"implicit"`
	// CreatedByActorID is who added it; nil when not recorded.
	CreatedByActorID *string `json:"created_by_actor_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ServiceAccountMembershipDeleted is the answer to removing a service
// account from a workspace (the wire type
// "service_account_workspace_member_deleted").
//
//mms:json type=service_account_workspace_member_deleted
type ServiceAccountMembershipDeleted struct {
	// ServiceAccountID and WorkspaceID name the removed membership.
	ServiceAccountID string `json:"service_account_id"`
	WorkspaceID      string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkspaceServiceAccountAddParams are the parameters of
// [WorkspaceServiceAccountsService.Add].
//
//mms:json
type WorkspaceServiceAccountAddParams struct {
	// ServiceAccountID is the account to add. Required.
	ServiceAccountID string `json:"service_account_id"`
	// WorkspaceRole is the role, not workspace_billing. Required.
	WorkspaceRole WorkspaceRole `json:"workspace_role"`
}

// Validate reports a missing account id, or a role missing, unknown or
// workspace_billing.
func (p WorkspaceServiceAccountAddParams) Validate() error {
	if err := required("service_account_id", p.ServiceAccountID); err != nil {
		return err
	}
	return validateRole("workspace_role", p.WorkspaceRole, addableWSRoles)
}

// MembershipRoleParams set a service account's role in a workspace
// ([WorkspaceServiceAccountsService.Update]).
//
//mms:json
type MembershipRoleParams struct {
	// WorkspaceRole is the role, not workspace_billing. Required.
	WorkspaceRole WorkspaceRole `json:"workspace_role"`
}

// Validate reports a role missing, unknown or workspace_billing.
func (p MembershipRoleParams) Validate() error {
	return validateRole("workspace_role", p.WorkspaceRole, addableWSRoles)
}

// CursorListParams are the parameters of the cursor-scheme lists that take
// only a page size and a start.
type CursorListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
}

// Validate reports Limit outside 1–1000.
func (p CursorListParams) Validate() error { return validateLimit(p.Limit, 1000) }

func (p CursorListParams) listArgs() listArgs { return cursorArgs(p.Limit, p.Page) }

func (s *WorkspaceServiceAccountsService) all(workspaceID string) endpoint[ServiceAccountMembership] {
	return ep[ServiceAccountMembership](s.c, adminbridge.OAuth, "/workspaces").id("workspace_id", workspaceID).sub("/service_accounts")
}

// Get retrieves a membership (GET
// …/workspaces/{workspace_id}/service_accounts/{service_account_id}); the
// default workspace answers the implicit one.
func (s *WorkspaceServiceAccountsService) Get(ctx context.Context, workspaceID, serviceAccountID string, opts ...option.RequestOption) (*ServiceAccountMembership, error) {
	return s.all(workspaceID).id("service_account_id", serviceAccountID).get(ctx, opts)
}

// Add adds a service account to the workspace, or replaces the role of an
// existing explicit membership (POST …/service_accounts): idempotent.
func (s *WorkspaceServiceAccountsService) Add(ctx context.Context, workspaceID string, p WorkspaceServiceAccountAddParams, opts ...option.RequestOption) (*ServiceAccountMembership, error) {
	return s.all(workspaceID).update(ctx, p, opts)
}

// Update sets an explicit membership's role (POST
// …/service_accounts/{service_account_id}).
func (s *WorkspaceServiceAccountsService) Update(ctx context.Context, workspaceID, serviceAccountID string, p MembershipRoleParams, opts ...option.RequestOption) (*ServiceAccountMembership, error) {
	return s.all(workspaceID).id("service_account_id", serviceAccountID).update(ctx, p, opts)
}

// List iterates over the workspace's explicit service-account
// memberships (GET …/service_accounts, cursor scheme).
func (s *WorkspaceServiceAccountsService) List(ctx context.Context, workspaceID string, p CursorListParams, opts ...option.RequestOption) iter.Seq2[ServiceAccountMembership, error] {
	return s.all(workspaceID).list(ctx, adminbridge.Cursor, p, opts)
}

// Delete removes a service account from the workspace (DELETE
// …/service_accounts/{service_account_id}); idempotent.
func (s *WorkspaceServiceAccountsService) Delete(ctx context.Context, workspaceID, serviceAccountID string, opts ...option.RequestOption) (*ServiceAccountMembershipDeleted, error) {
	return as[ServiceAccountMembershipDeleted](s.all(workspaceID).id("service_account_id", serviceAccountID)).delete(ctx, opts)
}
