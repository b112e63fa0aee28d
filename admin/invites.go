package admin

import (
	"context"
	"encoding/json"
	"iter"
	"net/mail"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/option"
)

// InvitesService creates, retrieves, lists and deletes invites
// (/v1/organizations/invites; admin key). Reach it as c.Invites.
type InvitesService struct{ c *Client }

// InviteStatus is an invite's status.
type InviteStatus string

// The invite statuses (deleted appears on records only).
const (
	InviteStatusPending  InviteStatus = "pending"
	InviteStatusAccepted InviteStatus = "accepted"
	InviteStatusExpired  InviteStatus = "expired"
	InviteStatusDeleted  InviteStatus = "deleted"
)

// Invite is an invite's record (the wire type "invite").
//
//mms:json type=invite
type Invite struct {
	// ID identifies the invite.
	ID string `json:"id"`
	// Email is the invitee's address.
	Email string `json:"email"`
	// Role is the role the invitee gets.
	Role OrganizationRole `json:"role"`
	// Status is the invite's status.
	Status InviteStatus `json:"status"`
	// InvitedAt and ExpiresAt bound the invite.
	InvitedAt time.Time `json:"invited_at"`
	ExpiresAt time.Time `json:"expires_at"`
	// AcceptedAt is when it was accepted; nil until then.
	AcceptedAt *time.Time `json:"accepted_at"`
	// RBACGroupIDs are the RBAC groups the invitee joins (empty for none).
	RBACGroupIDs []string `json:"rbac_group_ids"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// InviteDeleted is the answer to [InvitesService.Delete] (the wire type
// "invite_deleted").
//
//mms:json type=invite_deleted
type InviteDeleted struct {
	// ID is the deleted invite's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// InviteCreateParams are the parameters of [InvitesService.Create].
//
//mms:json
type InviteCreateParams struct {
	// Email is the invitee's address. Required.
	Email string `json:"email"`
	// Role is one of AssignableRoles. Required.
	Role OrganizationRole `json:"role"`
	// RBACGroupIDs adds the invitee to RBAC groups (Enterprise; the key
	// needs write:rbac_groups).
	RBACGroupIDs []string `json:"rbac_group_ids,omitzero"`
}

// Validate reports a missing or malformed email, or a role missing or not
// in AssignableRoles.
func (p InviteCreateParams) Validate() error {
	if err := required("email", p.Email); err != nil {
		return err
	}
	if a, err := mail.ParseAddress(p.Email); err != nil || a.Address != p.Email {
		return invalid("email", "must be an email address, got %q", p.Email)
	}
	if err := required("role", string(p.Role)); err != nil {
		return err
	}
	if err := oneOf("role", p.Role, AssignableRoles...); err != nil {
		return err
	}
	for i, id := range p.RBACGroupIDs {
		if id == "" {
			return invalid("rbac_group_ids["+itoa(i)+"]", "must not be empty")
		}
	}
	return nil
}

// InviteListParams are the parameters of [InvitesService.List] (id
// scheme).
type InviteListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service (20).
	Limit int
	// AfterID and BeforeID start the list after or before an invite.
	AfterID, BeforeID string
	// Email lists only invites to this address (case-insensitive).
	Email string
	// Roles and Statuses filter; no statuses lists pending, accepted and
	// expired invites.
	Roles    []OrganizationRole
	Statuses []InviteStatus
}

// Validate reports Limit outside 1–1000, AfterID with BeforeID, or an
// unknown role or status.
func (p InviteListParams) Validate() error {
	if err := validateIDList(p.Limit, p.AfterID, p.BeforeID); err != nil {
		return err
	}
	if err := eachOneOf("roles", p.Roles, allRoles...); err != nil {
		return err
	}
	return eachOneOf("statuses", p.Statuses, InviteStatusPending, InviteStatusAccepted, InviteStatusExpired)
}

func (p InviteListParams) listArgs() listArgs {
	a := idArgs(p.Limit, p.AfterID, p.BeforeID)
	setString(a.query, "email", p.Email)
	addArray(a.query, "roles", p.Roles)
	addArray(a.query, "statuses", p.Statuses)
	return a
}

func (s *InvitesService) all() endpoint[Invite] {
	return ep[Invite](s.c, adminbridge.AdminKey, "/invites")
}

// Create invites someone (POST /v1/organizations/invites). Creating:
// after an unknown outcome the error matches mms.ErrMaybeApplied.
func (s *InvitesService) Create(ctx context.Context, p InviteCreateParams, opts ...option.RequestOption) (*Invite, error) {
	return s.all().post(ctx, p, opts)
}

// Get retrieves an invite (GET /v1/organizations/invites/{invite_id}).
func (s *InvitesService) Get(ctx context.Context, inviteID string, opts ...option.RequestOption) (*Invite, error) {
	return s.all().id("invite_id", inviteID).get(ctx, opts)
}

// List iterates over the invites (GET /v1/organizations/invites, id
// scheme).
func (s *InvitesService) List(ctx context.Context, p InviteListParams, opts ...option.RequestOption) iter.Seq2[Invite, error] {
	return s.all().list(ctx, adminbridge.ID, p, opts)
}

// ListPage fetches one page of invites.
func (s *InvitesService) ListPage(ctx context.Context, p InviteListParams, opts ...option.RequestOption) (*mms.Page[Invite], error) {
	return s.all().listPage(ctx, adminbridge.ID, p, opts)
}

// Delete deletes a pending invite (DELETE
// /v1/organizations/invites/{invite_id}).
func (s *InvitesService) Delete(ctx context.Context, inviteID string, opts ...option.RequestOption) (*InviteDeleted, error) {
	return as[InviteDeleted](s.all().id("invite_id", inviteID)).delete(ctx, opts)
}
