package admin

import (
	"context"
	"encoding/json"
	"iter"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// OrganizationRole is a member's role in the organization.
type OrganizationRole string

// The organization roles. Invites and role updates accept only
// AssignableRoles; admin, owner and the rest are read-only here.
const (
	RoleUser            OrganizationRole = "user"
	RoleDeveloper       OrganizationRole = "developer"
	RoleBilling         OrganizationRole = "billing"
	RoleAdmin           OrganizationRole = "admin"
	RoleClaudeCodeUser  OrganizationRole = "claude_code_user"
	RoleManaged         OrganizationRole = "managed"
	RoleMembershipAdmin OrganizationRole = "membership_admin"
	RoleOwner           OrganizationRole = "owner"
	RolePrimaryOwner    OrganizationRole = "primary_owner"
)

// AssignableRoles are the roles an invite or a role update may give
// (Console organizations: user, developer, billing, claude_code_user;
// Enterprise: user, managed); admin is not assignable through the API.
var AssignableRoles = []OrganizationRole{RoleUser, RoleDeveloper, RoleBilling, RoleClaudeCodeUser, RoleManaged}

var allRoles = []OrganizationRole{RoleUser, RoleDeveloper, RoleBilling, RoleAdmin, RoleClaudeCodeUser, RoleManaged, RoleMembershipAdmin, RoleOwner, RolePrimaryOwner}

// UsersService retrieves, updates, lists and removes the organization's
// members (/v1/organizations/users; admin key). Reach it as c.Users.
type UsersService struct{ c *Client }

// User is a member of the organization (the wire type "user").
//
//mms:json type=user
type User struct {
	// ID identifies the user ("user_…").
	ID string `json:"id"`
	// Email is the user's email address.
	Email string `json:"email"`
	// Name is the user's name.
	Name string `json:"name"`
	// Role is the user's organization role.
	Role OrganizationRole `json:"role"`
	// AddedAt is when the user joined.
	AddedAt time.Time `json:"added_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserDeleted is the answer to [UsersService.Delete] (the wire type
// "user_deleted").
//
//mms:json type=user_deleted
type UserDeleted struct {
	// ID is the removed user's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserUpdateParams are the parameters of [UsersService.Update].
//
//mms:json
type UserUpdateParams struct {
	// Role is the new role, one of AssignableRoles. Required.
	Role OrganizationRole `json:"role"`
}

// Validate reports a missing role or one not in AssignableRoles.
func (p UserUpdateParams) Validate() error {
	if err := required("role", string(p.Role)); err != nil {
		return err
	}
	return oneOf("role", p.Role, AssignableRoles...)
}

// UserListParams are the parameters of [UsersService.List] (id scheme).
type UserListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service (20).
	Limit int
	// AfterID and BeforeID start the list after or before a user.
	AfterID, BeforeID string
	// Email lists only the user with this address.
	Email string
	// Roles lists only users holding one of the roles.
	Roles []OrganizationRole
}

// Validate reports Limit outside 1–1000, AfterID with BeforeID, or an
// unknown role.
func (p UserListParams) Validate() error {
	if err := validateIDList(p.Limit, p.AfterID, p.BeforeID); err != nil {
		return err
	}
	return eachOneOf("roles", p.Roles, allRoles...)
}

func (p UserListParams) listArgs() listArgs {
	a := idArgs(p.Limit, p.AfterID, p.BeforeID)
	setString(a.query, "email", p.Email)
	addArray(a.query, "roles", p.Roles)
	return a
}

func (s *UsersService) all() endpoint[User] { return ep[User](s.c, adminbridge.AdminKey, "/users") }
func (s *UsersService) at(id string) endpoint[User] {
	return s.all().id("user_id", id)
}

// Get retrieves a member (GET /v1/organizations/users/{user_id}).
func (s *UsersService) Get(ctx context.Context, userID string, opts ...option.RequestOption) (*User, error) {
	return s.at(userID).get(ctx, opts)
}

// Update sets a member's role (POST /v1/organizations/users/{user_id}).
func (s *UsersService) Update(ctx context.Context, userID string, p UserUpdateParams, opts ...option.RequestOption) (*User, error) {
	return s.at(userID).update(ctx, p, opts)
}

// List iterates over the members (GET /v1/organizations/users, id scheme).
func (s *UsersService) List(ctx context.Context, p UserListParams, opts ...option.RequestOption) iter.Seq2[User, error] {
	return s.all().list(ctx, adminbridge.ID, p, opts)
}

// ListPage fetches one page of members.
func (s *UsersService) ListPage(ctx context.Context, p UserListParams, opts ...option.RequestOption) (*mms.Page[User], error) {
	return s.all().listPage(ctx, adminbridge.ID, p, opts)
}

// Delete removes a member from the organization (DELETE
// /v1/organizations/users/{user_id}); the last member cannot be removed.
func (s *UsersService) Delete(ctx context.Context, userID string, opts ...option.RequestOption) (*UserDeleted, error) {
	return as[UserDeleted](s.at(userID)).delete(ctx, opts)
}

// SignOut signs a member out everywhere (POST
// /v1/organizations/users/{user_id}/sign_out; beta
// admin-user-sign-out-2026-10-08, sent by the SDK; Enterprise; scope
// write:members): sign-in sessions, trusted devices and the
// organization's OAuth tokens end (within about an hour); the role is
// kept. Idempotent: signing out twice is signing out once.
func (s *UsersService) SignOut(ctx context.Context, userID string, opts ...option.RequestOption) (*User, error) {
	return s.at(userID).beta(wire.BetaAdminUserSignOut).action(ctx, "/sign_out", nil, transport.Idempotent, opts)
}
