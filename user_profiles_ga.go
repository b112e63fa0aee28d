package mms

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mms-sdk/mms-go/option"
)

// The user-profiles API as it is GA (vaults-user-profiles.md, "Additions
// from R2" §B–§D): a request with no user-profiles beta gets the GA record
// (programs and enforcement instead of trust grants), and delete and action
// URLs exist. Under API version 2026-10-21 the SDK sends no user-profiles
// beta on these calls (as Files and Skills, transport.MergeBetas); under
// 2023-06-01 it keeps the seed value, and a dated value given with
// option.WithBeta selects that beta's record either way.

// UserProfileEnforcementStatus sums up a profile's open enforcement actions
// (GA records only). Unknown values pass through.
type UserProfileEnforcementStatus string

// The enforcement statuses, decided by the first that applies.
const (
	// UserProfileEnforcementBanned: an open action is a ban.
	UserProfileEnforcementBanned UserProfileEnforcementStatus = "banned"
	// UserProfileEnforcementPending: a restriction an identity check can
	// clear is open, the end user submitted the check and review has not
	// ended.
	UserProfileEnforcementPending UserProfileEnforcementStatus = "pending"
	// UserProfileEnforcementRestricted: some other action is open.
	UserProfileEnforcementRestricted UserProfileEnforcementStatus = "restricted"
	// UserProfileEnforcementUnrestricted: no action is open.
	UserProfileEnforcementUnrestricted UserProfileEnforcementStatus = "unrestricted"
)

// UserProfileEnforcementAction is one open enforcement action of a profile
// ([UserProfile].EnforcementActions).
//
//mms:json
type UserProfileEnforcementAction struct {
	// Type is "restriction" or "ban".
	Type string `json:"type"`
	// ID identifies the action ("enac_…").
	ID string `json:"id"`
	// Reason is why it was opened: unsupported_region, fraud_or_abuse,
	// high_harm, usage_policy_violation, account_compromise or
	// unspecified.
	Reason string `json:"reason"`
	// Action is "verify" when the end user can clear the action now by
	// passing an identity check ([UserProfilesService.CreateActionURL]);
	// nil when null.
	Action *string `json:"action"`
	// OpenedAt is when the action was opened (RFC 3339).
	OpenedAt string `json:"opened_at"`
	// ExpiresAt is when it ends by itself; nil when open-ended (always for
	// bans and for account_compromise).
	ExpiresAt *string `json:"expires_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserProfilePrograms is the profile's standing in the vendor's programs
// (GA records only). A nil program is null on the wire: not enrolled, or
// (for EFS in a list) not reported; retrieve the profile for the full
// answer.
//
//mms:json
type UserProfilePrograms struct {
	// Cyber is the cyber verification program.
	Cyber *UserProfileCyberProgram `json:"cyber"`
	// EFS is the enterprise features program.
	EFS *UserProfileEFSProgram `json:"efs"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserProfileCyberProgram is a profile's cyber program standing.
//
//mms:json
type UserProfileCyberProgram struct {
	// Status is "active", "pending" or "rejected".
	Status string `json:"status"`
	// Tiers maps a tier ("a" specialized access, "b" red-team access, "c"
	// defense access) to its status ("active" or "inactive"). A response
	// reports every tier or none: an empty map does not mean inactive.
	Tiers map[string]UserProfileProgramItem `json:"tiers"`
	// Requirements is what a request naming the profile must allow for the
	// active tiers' relaxed safeguards; nil when null.
	Requirements *UserProfileCyberRequirements `json:"requirements"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserProfileCyberRequirements are the cyber program's request
// requirements.
//
//mms:json
type UserProfileCyberRequirements struct {
	DataRetention bool `json:"data_retention"`
	HumanReview   bool `json:"human_review"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserProfileEFSProgram is a profile's enterprise features standing.
//
//mms:json
type UserProfileEFSProgram struct {
	// Status is "active", "pending" or "rejected".
	Status string `json:"status"`
	// Features maps a feature (data_retention_exemption, cmek, storage) to
	// its status: "active" means approved, not necessarily set up.
	Features map[string]UserProfileProgramItem `json:"features"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserProfileProgramItem is one tier or feature of a program.
//
//mms:json
type UserProfileProgramItem struct {
	// Status is "active" or "inactive".
	Status string `json:"status"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserProfileDeleted is the answer of [UserProfilesService.Delete] (the
// wire type "user_profile_deleted").
//
//mms:json type=user_profile_deleted
type UserProfileDeleted struct {
	// ID is the deleted profile's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserProfileActionType names what an action URL lets the end user do.
type UserProfileActionType string

// UserProfileActionEnrollEndUser sends the end customer to the verification
// portal.
const UserProfileActionEnrollEndUser UserProfileActionType = "enroll_end_user"

// UserProfileAction is the action member of [UserProfileActionURLParams].
//
//mms:json
type UserProfileAction struct {
	// Type is the action; required.
	Type UserProfileActionType `json:"type"`
}

// UserProfileActionURLParams are the parameters of
// [UserProfilesService.CreateActionURL].
//
//mms:json
type UserProfileActionURLParams struct {
	// Action is what the link is for; Action.Type is required.
	Action UserProfileAction `json:"action"`
}

// Validate reports a missing action type.
func (p UserProfileActionURLParams) Validate() error {
	if p.Action.Type == "" {
		return invalid("action.type", "is required (e.g. %q)", UserProfileActionEnrollEndUser)
	}
	return nil
}

// UserProfileActionURL is the answer of
// [UserProfilesService.CreateActionURL] (the wire type
// "user_profile_action_url"). Anyone holding URL can open it until
// ExpiresAt: hand it to the end user only.
//
//mms:json type=user_profile_action_url
type UserProfileActionURL struct {
	// URL is the link.
	URL string `json:"url"`
	// ExpiresAt is when the link stops working (RFC 3339).
	ExpiresAt string `json:"expires_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Expires parses ExpiresAt.
func (u UserProfileActionURL) Expires() (time.Time, error) {
	return time.Parse(time.RFC3339Nano, u.ExpiresAt)
}

// Delete deletes a user profile (DELETE
// /v1/user_profiles/{user_profile_id}). Stop sending the profile's id
// first: deleting it also clears it from a workspace bound to it.
func (s *UserProfilesService) Delete(ctx context.Context, userProfileID string, opts ...option.RequestOption) (*UserProfileDeleted, error) {
	return as[UserProfileDeleted](s.at(userProfileID)).delete(ctx, opts)
}

// CreateActionURL mints a link that sends the profile's end customer to
// the verification portal (POST
// /v1/user_profiles/{user_profile_id}/action_urls). Each call makes a new
// link, hence Create. The params are checked first (see
// [UserProfileActionURLParams.Validate]).
func (s *UserProfilesService) CreateActionURL(ctx context.Context, userProfileID string, p UserProfileActionURLParams, opts ...option.RequestOption) (*UserProfileActionURL, error) {
	return as[UserProfileActionURL](s.at(userProfileID)).action(ctx, "/action_urls", p, opts)
}
