package mms

import (
	"context"
	"encoding/json"
	"iter"
	"slices"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// BetaUserProfiles is the beta every user-profiles request carries unless
// the caller sends a dated one: the undated value the service's seed
// document names. A dated value given with option.WithBeta
// ("user-profiles-2026-03-24", "user-profiles-2026-08-18" or
// "user-profiles-2026-09-04") replaces it on the wire; the dated values
// decide which fields the service accepts (see [UserProfileCreateParams]).
const BetaUserProfiles = "user-profiles"

// userProfileBetas is the endpoint beta list of every user-profiles
// request. The transport drops the seed value when a dated
// user-profiles-* beta stands for it.
var userProfileBetas = []string{wire.BetaUserProfiles}

// UserProfilesService creates, retrieves, updates, lists and deletes user
// profiles (/v1/user_profiles), the records of the end users or companies
// a platform serves, and mints their enrollment and action links. The
// service has no archive. Reach it as client.UserProfiles. Under API
// version 2023-06-01 every call sends the user-profiles beta
// ([BetaUserProfiles], or the caller's dated value instead); under
// 2026-10-21 the GA calls send none and get the GA record
// (user_profiles_ga.go). option.WithWorkspaceID picks the workspace per
// call.
type UserProfilesService struct {
	client *Client
}

// UserProfileRelationship is a profile's relationship to the platform
// (beta user-profiles-2026-03-24 only; later betas use
// [UserProfileAccessType]). Unknown values pass through in records;
// params take only the three below (the schema's enum).
type UserProfileRelationship string

// The relationships.
const (
	UserProfileRelationshipExternal UserProfileRelationship = "external"
	UserProfileRelationshipResold   UserProfileRelationship = "resold"
	UserProfileRelationshipInternal UserProfileRelationship = "internal"
)

// UserProfileAccessType says how a profile reaches the service (betas
// user-profiles-2026-08-18 and -09-04). Unknown values pass through.
type UserProfileAccessType string

// The access types.
const (
	// UserProfileAccessTypeApplication: a platform's end user (the
	// service's default).
	UserProfileAccessTypeApplication UserProfileAccessType = "application"
	// UserProfileAccessTypePassthrough: a company the access is resold to.
	UserProfileAccessTypePassthrough UserProfileAccessType = "passthrough"
)

// UserProfileAccountStatus is the status of the external user's account.
// Unknown values pass through.
type UserProfileAccountStatus string

// The account statuses.
const (
	UserProfileAccountStatusActive    UserProfileAccountStatus = "active"
	UserProfileAccountStatusSuspended UserProfileAccountStatus = "suspended"
	UserProfileAccountStatusBlocked   UserProfileAccountStatus = "blocked"
)

// UserProfileEntityType is the kind of entity the external user is.
// Unknown values pass through.
type UserProfileEntityType string

// The entity types.
const (
	UserProfileEntityTypeIndividual UserProfileEntityType = "individual"
	UserProfileEntityTypeBusiness   UserProfileEntityType = "business"
	UserProfileEntityTypeNonProfit  UserProfileEntityType = "non_profit"
	UserProfileEntityTypeGovernment UserProfileEntityType = "government"
)

// UserProfileTrustGrantStatus is the status of one trust grant. Unknown
// values pass through.
type UserProfileTrustGrantStatus string

// The trust grant statuses.
const (
	UserProfileTrustGrantActive   UserProfileTrustGrantStatus = "active"
	UserProfileTrustGrantPending  UserProfileTrustGrantStatus = "pending"
	UserProfileTrustGrantRejected UserProfileTrustGrantStatus = "rejected"
)

// UserProfile is a user profile's record (the wire type "user_profile").
// Which of the optional fields appear depends on the beta the request
// carried. Members this SDK version does not model are kept in Extra, so
// json.Marshal writes a reply back without loss.
//
//mms:json type=user_profile
type UserProfile struct {
	// ID identifies the profile ("uprof_…").
	ID string `json:"id"`
	// Metadata is the caller's key-value pairs.
	Metadata map[string]string `json:"metadata"`
	// TrustGrants maps a grant's name to its status. No request field sets
	// it; a grant appears once active or pending (see
	// [UserProfilesService.CreateEnrollmentURL]). GA records have none
	// (see Programs).
	TrustGrants map[string]UserProfileTrustGrant `json:"trust_grants,omitzero"`
	// CreatedAt and UpdatedAt are RFC 3339 strings as the service sent
	// them (see [UserProfile.Created]).
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// ExternalID is the caller's id for the user (not unique); nil when
	// absent or null. Beta user-profiles-2026-09-04 uses
	// ExternalUserDetails.ReferenceID instead.
	ExternalID *string `json:"external_id,omitzero"`
	// Name is the user's real-world name; nil when absent or null.
	Name *string `json:"name,omitzero"`
	// Relationship is sent under beta user-profiles-2026-03-24 only.
	Relationship UserProfileRelationship `json:"relationship,omitzero"`
	// AccessType is sent under betas user-profiles-2026-08-18 and later.
	AccessType UserProfileAccessType `json:"access_type,omitzero"`
	// ExternalUserOnboardedAt is when the user was onboarded on the
	// platform (RFC 3339); nil when absent or null.
	ExternalUserOnboardedAt *string `json:"external_user_onboarded_at,omitzero"`
	// ExternalUserDetails is sent under beta user-profiles-2026-09-04 and
	// in GA records.
	ExternalUserDetails *UserProfileExternalUserDetails `json:"external_user_details,omitzero"`
	// Programs is the profile's standing in the vendor's programs (GA
	// records only).
	Programs *UserProfilePrograms `json:"programs,omitzero"`
	// EnforcementStatus sums up the open enforcement actions (GA records
	// only).
	EnforcementStatus UserProfileEnforcementStatus `json:"enforcement_status,omitzero"`
	// EnforcementActions are the open enforcement actions (GA records
	// only).
	EnforcementActions []UserProfileEnforcementAction `json:"enforcement_actions,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Created parses CreatedAt.
func (p UserProfile) Created() (time.Time, error) {
	return time.Parse(time.RFC3339Nano, p.CreatedAt)
}

// UserProfileTrustGrant is one entry of [UserProfile].TrustGrants.
//
//mms:json
type UserProfileTrustGrant struct {
	// Status is the grant's status.
	Status UserProfileTrustGrantStatus `json:"status"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserProfileExternalUserDetails describes the external user (beta
// user-profiles-2026-09-04). Every member is always present and null
// until set, hence the pointers.
//
//mms:json
type UserProfileExternalUserDetails struct {
	AccountStatus *UserProfileAccountStatus `json:"account_status"`
	EntityType    *UserProfileEntityType    `json:"entity_type"`
	// Country is an ISO 3166-1 alpha-2 code.
	Country   *string `json:"country"`
	EmailHash *string `json:"email_hash"`
	NameHash  *string `json:"name_hash"`
	// ReferenceID is the caller's id for the user (what ExternalID was
	// before this beta).
	ReferenceID *string `json:"reference_id"`
	// OnboardedAt is an RFC 3339 string.
	OnboardedAt *string `json:"onboarded_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserProfileEnrollmentURL is the answer to
// [UserProfilesService.CreateEnrollmentURL] (the wire type
// "enrollment_url"): a link the user opens to enrol a trust grant.
//
//mms:json type=enrollment_url
type UserProfileEnrollmentURL struct {
	// URL is the enrollment link.
	URL string `json:"url"`
	// ExpiresAt is when the link stops working (RFC 3339).
	ExpiresAt string `json:"expires_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Expires parses ExpiresAt.
func (u UserProfileEnrollmentURL) Expires() (time.Time, error) {
	return time.Parse(time.RFC3339Nano, u.ExpiresAt)
}

// The user-profile text limits (internal/wire/limits.go).
const (
	maxUserProfileTextLen = wire.MaxUserProfileTextLen // external_id, name, hashes, reference_id
)

// UserProfileCreateParams are the parameters of
// [UserProfilesService.Create]. Every field is optional; a zero field is
// not sent. Which fields the service accepts depends on the beta:
// Relationship under user-profiles-2026-03-24, AccessType under -08-18
// and -09-04, ExternalUserDetails under -09-04 only, ExternalID under
// every beta but -09-04. The SDK does not check these pairings (the
// caller picks the beta); the service answers 400 naming the field.
//
//mms:json
type UserProfileCreateParams struct {
	// ExternalID is the caller's id for the user, at most 255 characters.
	ExternalID string `json:"external_id,omitzero"`
	// Name is the user's real-world name, at most 255 characters.
	Name string `json:"name,omitzero"`
	// Metadata is at most 16 pairs, keys of 1 to 64 characters, values of
	// 1 to 512 (on update an empty value deletes its key, so none is
	// allowed here).
	Metadata map[string]string `json:"metadata,omitzero"`
	// Relationship (beta -03-24): external, resold or internal.
	Relationship UserProfileRelationship `json:"relationship,omitzero"`
	// AccessType (betas -08-18, -09-04).
	AccessType UserProfileAccessType `json:"access_type,omitzero"`
	// ExternalUserOnboardedAt is sent as RFC 3339 when not zero.
	ExternalUserOnboardedAt time.Time `json:"external_user_onboarded_at,omitzero"`
	// ExternalUserDetails (beta -09-04).
	ExternalUserDetails *UserProfileExternalUserDetailsParams `json:"external_user_details,omitzero"`
}

// Validate reports the first rule the params break: an external id or
// name over 255 characters, a relationship other than external, resold
// and internal, metadata past 16 pairs, 64-character keys or
// 512-character values or with an empty value, or bad external user
// details (see [UserProfileExternalUserDetailsParams.Validate]).
func (p UserProfileCreateParams) Validate() error {
	if err := validateLength("external_id", p.ExternalID, 0, maxUserProfileTextLen); err != nil {
		return err
	}
	if err := validateLength("name", p.Name, 0, maxUserProfileTextLen); err != nil {
		return err
	}
	if p.Relationship != "" {
		if err := validateRelationship(p.Relationship); err != nil {
			return err
		}
	}
	if err := validateMetadata("metadata", p.Metadata); err != nil {
		return err
	}
	for _, k := range sortedKeys(p.Metadata) {
		if p.Metadata[k] == "" {
			return invalid("metadata."+k, "must not be empty on create (an empty value deletes a key on update)")
		}
	}
	if p.ExternalUserDetails == nil {
		return nil
	}
	return p.ExternalUserDetails.Validate()
}

// UserProfileMetadataPatch is the metadata member of a user-profile
// update. It merges into the profile's metadata: each key with a value
// is added or replaced, each key mapped to "" is deleted, and keys not
// named keep their values. This differs from [MetadataPatch], which
// deletes with null: the user-profiles endpoint takes strings only and
// deletes with the empty string, so a key cannot be set to "".
type UserProfileMetadataPatch map[string]string

// Set adds or replaces key with value; an empty value deletes the key.
func (m UserProfileMetadataPatch) Set(key, value string) UserProfileMetadataPatch {
	m[key] = value
	return m
}

// Delete deletes key (sent as key: "").
func (m UserProfileMetadataPatch) Delete(key string) UserProfileMetadataPatch {
	m[key] = ""
	return m
}

// UserProfileUpdateParams are the parameters of
// [UserProfilesService.Update]. A zero field keeps the profile's value;
// the beta pairings of [UserProfileCreateParams] apply.
//
//mms:json
type UserProfileUpdateParams struct {
	// ExternalID and Name: [Set] replaces (1 to 255 characters: "" is
	// refused), [Clear] sends null.
	ExternalID Update[string] `json:"external_id,omitzero"`
	Name       Update[string] `json:"name,omitzero"`
	// Metadata merges; "" deletes a key (see [UserProfileMetadataPatch]).
	Metadata UserProfileMetadataPatch `json:"metadata,omitzero"`
	// Relationship (beta -03-24; external, resold or internal) and
	// AccessType (-08-18, -09-04): [Set] replaces, [Clear] sends null.
	Relationship Update[UserProfileRelationship] `json:"relationship,omitzero"`
	AccessType   Update[UserProfileAccessType]   `json:"access_type,omitzero"`
	// ExternalUserOnboardedAt replaces the time when not zero (it cannot
	// be cleared).
	ExternalUserOnboardedAt time.Time `json:"external_user_onboarded_at,omitzero"`
	// ExternalUserDetails (beta -09-04): each member sent replaces the
	// profile's; members not sent are kept. None can be cleared.
	ExternalUserDetails *UserProfileExternalUserDetailsParams `json:"external_user_details,omitzero"`
}

// Validate reports the first rule the params break: an external id or
// name set to "" (use [Clear]) or to more than 255 characters, a
// relationship set to "" or to a value other than external, resold and
// internal, an access type set to "", a metadata patch past 16 keys,
// 64-character keys or 512-character values, or bad external user
// details.
func (p UserProfileUpdateParams) Validate() error {
	for _, f := range []struct {
		path string
		u    Update[string]
	}{{"external_id", p.ExternalID}, {"name", p.Name}} {
		if v, ok := f.u.Value(); ok {
			if v == "" {
				return invalid(f.path, "must not be empty when set (Clear sends null)")
			}
			if err := validateLength(f.path, v, 1, maxUserProfileTextLen); err != nil {
				return err
			}
		}
	}
	if v, ok := p.Relationship.Value(); ok {
		if v == "" {
			return invalid("relationship", "must not be empty (Clear sends null)")
		}
		if err := validateRelationship(v); err != nil {
			return err
		}
	}
	if v, ok := p.AccessType.Value(); ok && v == "" {
		return invalid("access_type", "must not be empty (Clear sends null)")
	}
	if err := validateMetadata("metadata", p.Metadata); err != nil {
		return err
	}
	if p.ExternalUserDetails == nil {
		return nil
	}
	return p.ExternalUserDetails.Validate()
}

// UserProfileExternalUserDetailsParams are the external user details of a
// create or update (beta user-profiles-2026-09-04). Every member is
// optional; a zero member is not sent.
//
//mms:json
type UserProfileExternalUserDetailsParams struct {
	AccountStatus UserProfileAccountStatus `json:"account_status,omitzero"`
	EntityType    UserProfileEntityType    `json:"entity_type,omitzero"`
	// Country is an ISO 3166-1 alpha-2 code: two uppercase letters.
	Country string `json:"country,omitzero"`
	// EmailHash, NameHash and ReferenceID are 1 to 255 characters.
	EmailHash   string `json:"email_hash,omitzero"`
	NameHash    string `json:"name_hash,omitzero"`
	ReferenceID string `json:"reference_id,omitzero"`
	// OnboardedAt is sent as RFC 3339 when not zero.
	OnboardedAt time.Time `json:"onboarded_at,omitzero"`
}

// Validate reports the first rule the details break: a country other than
// two uppercase letters, or a hash or reference id over 255 characters
// (an empty one is not sent).
func (d UserProfileExternalUserDetailsParams) Validate() error {
	const path = "external_user_details."
	if c := d.Country; c != "" && (len(c) != 2 || !isUpperASCII(c[0]) || !isUpperASCII(c[1])) {
		return invalid(path+"country", "must be an ISO 3166-1 alpha-2 code (two uppercase letters), got %q", c)
	}
	for _, f := range []struct{ name, v string }{
		{"email_hash", d.EmailHash}, {"name_hash", d.NameHash}, {"reference_id", d.ReferenceID},
	} {
		if err := validateLength(path+f.name, f.v, 0, maxUserProfileTextLen); err != nil {
			return err
		}
	}
	return nil
}

func isUpperASCII(c byte) bool { return c >= 'A' && c <= 'Z' }

// validateRelationship reports a relationship outside the schema's enum
// (wire.UserProfileRelationships).
func validateRelationship(r UserProfileRelationship) error {
	if slices.Contains(wire.UserProfileRelationships, string(r)) {
		return nil
	}
	return invalid("relationship", "must be %q, %q or %q, got %q",
		UserProfileRelationshipExternal, UserProfileRelationshipResold, UserProfileRelationshipInternal, r)
}

// Create creates a user profile (POST /v1/user_profiles). The params are
// checked first (see [UserProfileCreateParams.Validate]); a
// *ValidationError means nothing was sent.
func (s *UserProfilesService) Create(ctx context.Context, p UserProfileCreateParams, opts ...option.RequestOption) (*UserProfile, error) {
	return s.all().post(ctx, p, opts)
}

// Get retrieves a user profile (GET /v1/user_profiles/{user_profile_id}).
func (s *UserProfilesService) Get(ctx context.Context, userProfileID string, opts ...option.RequestOption) (*UserProfile, error) {
	return s.at(userProfileID).get(ctx, opts)
}

// Update changes a user profile (POST /v1/user_profiles/{user_profile_id}).
// The params are checked first (see [UserProfileUpdateParams.Validate]).
func (s *UserProfilesService) Update(ctx context.Context, userProfileID string, p UserProfileUpdateParams, opts ...option.RequestOption) (*UserProfile, error) {
	return s.at(userProfileID).update(ctx, p, opts)
}

// CreateEnrollmentURL mints a trust-grant enrollment link for a user
// profile (POST /v1/user_profiles/{user_profile_id}/enrollment_url, no
// body; beta: for the vendor's AWS-hosted platform only, elsewhere use
// [UserProfilesService.CreateActionURL]). Each call makes a new link with
// its own expiry, hence Create rather than Get.
func (s *UserProfilesService) CreateEnrollmentURL(ctx context.Context, userProfileID string, opts ...option.RequestOption) (*UserProfileEnrollmentURL, error) {
	// The endpoint is beta-only: under 2026-10-21, where the GA calls send
	// no user-profiles beta, it still sends the seed value.
	if cl := s.client.newCall(opts); cl.err == nil && wire.VersionRefuses(callVersion(cl.cfg)) {
		opts = append(opts[:len(opts):len(opts)], option.WithBeta(wire.BetaUserProfiles))
	}
	return as[UserProfileEnrollmentURL](s.at(userProfileID)).action(ctx, "/enrollment_url", nil, opts)
}

// UserProfileListOrderBy is the field a user-profile list is sorted by.
type UserProfileListOrderBy string

// The sort fields.
const (
	// UserProfileListOrderByCreatedAt sorts by creation time (the
	// service's default).
	UserProfileListOrderByCreatedAt UserProfileListOrderBy = "created_at"
	// UserProfileListOrderByName sorts by name; profiles without one come
	// last in either order.
	UserProfileListOrderByName UserProfileListOrderBy = "name"
)

// UserProfileListParams are the parameters of [UserProfilesService.List]
// and [UserProfilesService.ListPage].
type UserProfileListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage. A cursor
	// issued under another Order is refused before sending; one issued
	// under another OrderBy is the service's to refuse.
	Page Cursor
	// Order is ListOrderDesc (the default) or ListOrderAsc.
	Order ListOrder
	// OrderBy is the sort field: created_at (the default) or name.
	OrderBy UserProfileListOrderBy
	// EnforcementStatus keeps only profiles in these statuses
	// (enforcement_status[]; GA only: a dated user-profiles beta answers
	// 400). A page may then hold fewer than Limit profiles, or none, and
	// still lead on; List keeps paging until the cursor ends.
	EnforcementStatus []UserProfileEnforcementStatus
}

// Validate reports the first rule the params break: Limit outside 1–100
// when set, an Order other than asc and desc, or an OrderBy other than
// created_at and name.
func (p UserProfileListParams) Validate() error {
	if err := validateLimitOrder(p.Limit, 100, p.Order); err != nil {
		return err
	}
	switch p.OrderBy {
	case "", UserProfileListOrderByCreatedAt, UserProfileListOrderByName:
		return nil
	}
	return invalid("order_by", "must be %q or %q, got %q", UserProfileListOrderByCreatedAt, UserProfileListOrderByName, p.OrderBy)
}

func (p UserProfileListParams) listArgs() listArgs {
	q := limitQuery(p.Limit)
	order := setOrder(q, p.Order, ListOrderDesc)
	if p.OrderBy != "" {
		q.Set("order_by", string(p.OrderBy))
	}
	addQueryArray(q, "enforcement_status", p.EnforcementStatus)
	return listArgs{query: q, order: order, start: listPos{page: p.Page}}
}

// profileEndpoint is the user-profiles endpoint at path (escaped), the beta
// added, answering a T.
func profileEndpoint[T any](c *Client, path string) endpoint[T] {
	return endpoint[T]{c: c, path: path, betas: userProfileBetas}
}

// List iterates over the user profiles, fetching pages as it goes (GET
// /v1/user_profiles, cursor scheme), newest first unless p says otherwise.
// Nothing is sent before the loop starts; ranging again lists again from
// p.Page; an error is yielded once, last.
func (s *UserProfilesService) List(ctx context.Context, p UserProfileListParams, opts ...option.RequestOption) iter.Seq2[UserProfile, error] {
	return s.all().list(ctx, p, opts)
}

// ListPage fetches one page of user profiles (GET /v1/user_profiles).
// Continue with Page set to the page's *NextPage while it is not nil.
func (s *UserProfilesService) ListPage(ctx context.Context, p UserProfileListParams, opts ...option.RequestOption) (*Page[UserProfile], error) {
	return s.all().listPage(ctx, p, opts)
}

// all is the user profiles' endpoint (/v1/user_profiles).
func (s *UserProfilesService) all() endpoint[UserProfile] {
	return profileEndpoint[UserProfile](s.client, "/v1/user_profiles")
}

// at is one user profile's endpoint (/v1/user_profiles/{user_profile_id}).
func (s *UserProfilesService) at(userProfileID string) endpoint[UserProfile] {
	return s.all().id("user_profile_id", userProfileID)
}
