package admin

import (
	"context"
	"encoding/json"
	"iter"
	"time"

	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/option"
)

// RBACGroupsService manages RBAC groups (/v1/organizations/rbac_groups;
// admin key; Enterprise).
type RBACGroupsService struct {
	c *Client
	// Members manages a group's members.
	Members *RBACGroupMembersService
}

// RBACGroup is a group's record (the wire type "rbac_group").
//
//mms:json type=rbac_group
type RBACGroup struct {
	// ID identifies the group ("rbac_group_…").
	ID string `json:"id"`
	// Name is the group's name (not unique).
	Name string `json:"name"`
	// SourceType is "direct" (made here) or "scim".
	SourceType string `json:"source_type"`
	// RoleIDs are the group's roles; nil: role data temporarily
	// unavailable (retry).
	RoleIDs []string `json:"role_ids"`
	// CreatedAt and UpdatedAt are its times.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// RBACGroupDeleted is the answer to [RBACGroupsService.Delete].
//
//mms:json type=rbac_group_deleted
type RBACGroupDeleted struct {
	// ID is the deleted group's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// RBACGroupParams are the parameters of [RBACGroupsService.Create] and
// [RBACGroupsService.Update].
//
//mms:json
type RBACGroupParams struct {
	// Name names the group; required on create.
	Name string `json:"name,omitzero"`
}

// Validate reports a name longer than 255 characters.
func (p RBACGroupParams) Validate() error { return maxLen("name", p.Name, 255) }

func (s *RBACGroupsService) all() endpoint[RBACGroup] {
	return ep[RBACGroup](s.c, adminbridge.AdminKey, "/rbac_groups")
}

// Create creates a group (source_type direct). Creating: after an unknown
// outcome the error matches mms.ErrMaybeApplied (names are not unique, so
// a resend would make a second group).
func (s *RBACGroupsService) Create(ctx context.Context, p RBACGroupParams, opts ...option.RequestOption) (*RBACGroup, error) {
	if p.Name == "" {
		return nil, invalid("name", "is required")
	}
	return s.all().post(ctx, p, opts)
}

// Get retrieves a group.
func (s *RBACGroupsService) Get(ctx context.Context, groupID string, opts ...option.RequestOption) (*RBACGroup, error) {
	return s.all().id("rbac_group_id", groupID).get(ctx, opts)
}

// Update renames a group.
func (s *RBACGroupsService) Update(ctx context.Context, groupID string, p RBACGroupParams, opts ...option.RequestOption) (*RBACGroup, error) {
	return s.all().id("rbac_group_id", groupID).update(ctx, p, opts)
}

// List iterates over the groups (cursor scheme).
func (s *RBACGroupsService) List(ctx context.Context, p CursorListParams, opts ...option.RequestOption) iter.Seq2[RBACGroup, error] {
	return s.all().list(ctx, adminbridge.Cursor, p, opts)
}

// Delete deletes a group.
func (s *RBACGroupsService) Delete(ctx context.Context, groupID string, opts ...option.RequestOption) (*RBACGroupDeleted, error) {
	return as[RBACGroupDeleted](s.all().id("rbac_group_id", groupID)).delete(ctx, opts)
}

// RBACGroupMembersService manages a group's members
// (…/rbac_groups/{rbac_group_id}/members).
type RBACGroupMembersService struct{ c *Client }

// RBACGroupMember is a membership (the wire type "rbac_group_member").
//
//mms:json type=rbac_group_member
type RBACGroupMember struct {
	// RBACGroupID and UserID name the membership.
	RBACGroupID string `json:"rbac_group_id"`
	UserID      string `json:"user_id"`
	// Email is the member's address.
	Email string `json:"email"`
	// CreatedAt is when the user joined the group.
	CreatedAt time.Time `json:"created_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// RBACGroupMemberDeleted is the answer to [RBACGroupMembersService.Delete].
//
//mms:json type=rbac_group_member_deleted
type RBACGroupMemberDeleted struct {
	// RBACGroupID and UserID name the removed membership.
	RBACGroupID string `json:"rbac_group_id"`
	UserID      string `json:"user_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// RBACGroupMemberAddParams are the parameters of
// [RBACGroupMembersService.Add].
//
//mms:json
type RBACGroupMemberAddParams struct {
	// UserID is the member to add. Required.
	UserID string `json:"user_id"`
}

// Validate reports a missing user id.
func (p RBACGroupMemberAddParams) Validate() error { return required("user_id", p.UserID) }

func (s *RBACGroupMembersService) all(groupID string) endpoint[RBACGroupMember] {
	return ep[RBACGroupMember](s.c, adminbridge.AdminKey, "/rbac_groups").id("rbac_group_id", groupID).sub("/members")
}

// List iterates over a group's members (cursor scheme).
func (s *RBACGroupMembersService) List(ctx context.Context, groupID string, p CursorListParams, opts ...option.RequestOption) iter.Seq2[RBACGroupMember, error] {
	return s.all(groupID).list(ctx, adminbridge.Cursor, p, opts)
}

// Add adds a member to a group: idempotent (the same membership).
func (s *RBACGroupMembersService) Add(ctx context.Context, groupID string, p RBACGroupMemberAddParams, opts ...option.RequestOption) (*RBACGroupMember, error) {
	return s.all(groupID).update(ctx, p, opts)
}

// Delete removes a member from a group.
func (s *RBACGroupMembersService) Delete(ctx context.Context, groupID, userID string, opts ...option.RequestOption) (*RBACGroupMemberDeleted, error) {
	return as[RBACGroupMemberDeleted](s.all(groupID).id("user_id", userID)).delete(ctx, opts)
}

// RBACRolesService reads RBAC roles (/v1/organizations/rbac_roles; admin
// key; Enterprise; read-only).
type RBACRolesService struct {
	c *Client
	// Permissions lists a role's permissions.
	Permissions *RBACRolePermissionsService
}

// RBACRole is a role (the wire type "rbac_role").
//
//mms:json type=rbac_role
type RBACRole struct {
	// ID identifies the role; store it, not the display name.
	ID string `json:"id"`
	// DisplayName may be renamed for built-in roles.
	DisplayName string `json:"display_name"`
	// Source is {type: "built_in" | "custom" | …}.
	Source TypeOnly `json:"source"`
	// CreatedAt and UpdatedAt are its times.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Get retrieves a role.
func (s *RBACRolesService) Get(ctx context.Context, roleID string, opts ...option.RequestOption) (*RBACRole, error) {
	return ep[RBACRole](s.c, adminbridge.AdminKey, "/rbac_roles").id("rbac_role_id", roleID).get(ctx, opts)
}

// List iterates over the roles (cursor scheme).
func (s *RBACRolesService) List(ctx context.Context, p CursorListParams, opts ...option.RequestOption) iter.Seq2[RBACRole, error] {
	return ep[RBACRole](s.c, adminbridge.AdminKey, "/rbac_roles").list(ctx, adminbridge.Cursor, p, opts)
}

// RBACRolePermissionsService lists a role's permissions.
type RBACRolePermissionsService struct{ c *Client }

// RBACRolePermission is one grant of a role (the wire type
// "rbac_role_permission").
//
//mms:json type=rbac_role_permission
type RBACRolePermission struct {
	// Action is the granted action (an entitlement, permission_*, use, …).
	Action string `json:"action"`
	// Resource is what it applies to.
	Resource PermissionResource `json:"resource"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A PermissionResource is what a permission applies to:
// [OrganizationResource], [ConnectorToolResource],
// [ConnectorScopeResource], [ConnectorResource], [AllConnectorsResource]
// or [UnknownPermissionResource].
type PermissionResource interface {
	json.Marshaler
	isPermissionResource()
}

var permissionResourceUnion = codec.NewUnion[PermissionResource]("PermissionResource", UnknownPermissionResource{}).
	Add("organization", OrganizationResource{}).
	Add("connector_tool", ConnectorToolResource{}).
	Add("connector_scope", ConnectorScopeResource{}).
	Add("connector", ConnectorResource{}).
	Add("all_connectors", AllConnectorsResource{})

// OrganizationResource is an organization (the wire type "organization").
type OrganizationResource struct {
	// OrganizationID is the organization.
	OrganizationID string `json:"organization_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ConnectorToolResource is one tool of a connector (the wire type
// "connector_tool").
type ConnectorToolResource struct {
	// ConnectorID and ToolName name the tool.
	ConnectorID string `json:"connector_id"`
	ToolName    string `json:"tool_name"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ConnectorScopeResource is a scope of a connector (the wire type
// "connector_scope").
type ConnectorScopeResource struct {
	// ConnectorID and Scope name it.
	ConnectorID string `json:"connector_id"`
	Scope       string `json:"scope"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ConnectorResource is a connector (the wire type "connector").
type ConnectorResource struct {
	// ConnectorID is the connector.
	ConnectorID string `json:"connector_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AllConnectorsResource is every connector (the wire type
// "all_connectors").
type AllConnectorsResource struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownPermissionResource keeps a resource this SDK version cannot name.
type UnknownPermissionResource struct {
	Type string
	Raw  json.RawMessage
}

// List iterates over a role's permissions (cursor scheme).
func (s *RBACRolePermissionsService) List(ctx context.Context, roleID string, p CursorListParams, opts ...option.RequestOption) iter.Seq2[RBACRolePermission, error] {
	return ep[RBACRolePermission](s.c, adminbridge.AdminKey, "/rbac_roles").id("rbac_role_id", roleID).sub("/permissions").list(ctx, adminbridge.Cursor, p, opts)
}
