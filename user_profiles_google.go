package mms

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// A user profile's Google-managed data controls (vaults-user-profiles.md,
// "Additions from R2" §B): customer-managed keys and customer-owned storage
// for the traffic of the customer behind the profile, per region. Beta:
// both user-profiles-2026-09-04 and google-managed-data-controls-2026-09-01
// are sent.

// userProfileGoogleBetas are the two betas the data-controls calls send.
var userProfileGoogleBetas = []string{wire.BetaUserProfiles + "-2026-09-04", wire.BetaGoogleDataControls}

// UserProfileDataControls is a profile's data controls record (the wire
// type "google_managed_data_controls").
//
//mms:json type=google_managed_data_controls
type UserProfileDataControls struct {
	// UserProfileID is the profile's id.
	UserProfileID string `json:"user_profile_id"`
	// BucketLabelValue is the fixed label every bucket named in Storage
	// must carry.
	BucketLabelValue string `json:"bucket_label_value"`
	// CMEK is the customer-managed encryption control.
	CMEK UserProfileCMEK `json:"cmek"`
	// Storage is the customer-owned storage control.
	Storage UserProfileStorage `json:"storage"`
	// UpdatedAt is when a control last changed (RFC 3339).
	UpdatedAt string `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A UserProfileCMEK is the encryption control: [UserProfileCMEKDisabled],
// [UserProfileCMEKEnabled] or [UnknownUserProfileCMEK].
type UserProfileCMEK interface {
	json.Marshaler
	isUserProfileCMEK()
}

var userProfileCMEKUnion = codec.NewUnion[UserProfileCMEK]("UserProfileCMEK", UnknownUserProfileCMEK{}).
	Add("disabled", UserProfileCMEKDisabled{}).
	Add("enabled", UserProfileCMEKEnabled{})

// UserProfileCMEKDisabled is the encryption control off (the wire type
// "disabled").
type UserProfileCMEKDisabled struct {
	// RetiredKeys are keys used before, until they expire.
	RetiredKeys []UserProfileRetired `json:"retired_keys,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserProfileCMEKEnabled is the encryption control on (the wire type
// "enabled").
type UserProfileCMEKEnabled struct {
	// ExternalKeyIDs maps a region to its external key id.
	ExternalKeyIDs map[string]string `json:"external_key_ids,omitzero"`
	// Status is each region's state.
	Status map[string]UserProfileControlStatus `json:"status,omitzero"`
	// RetiredKeys are keys used before, until they expire.
	RetiredKeys []UserProfileRetired `json:"retired_keys,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownUserProfileCMEK keeps an encryption control this SDK version
// cannot name.
type UnknownUserProfileCMEK struct {
	Type string
	Raw  json.RawMessage
}

// A UserProfileStorage is the storage control:
// [UserProfileStorageDisabled], [UserProfileStorageEnabled] or
// [UnknownUserProfileStorage].
type UserProfileStorage interface {
	json.Marshaler
	isUserProfileStorage()
}

var userProfileStorageUnion = codec.NewUnion[UserProfileStorage]("UserProfileStorage", UnknownUserProfileStorage{}).
	Add("disabled", UserProfileStorageDisabled{}).
	Add("enabled", UserProfileStorageEnabled{})

// UserProfileStorageDisabled is the storage control off (the wire type
// "disabled").
type UserProfileStorageDisabled struct {
	// RetiredBuckets are buckets used before, until they expire.
	RetiredBuckets []UserProfileRetired `json:"retired_buckets,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserProfileStorageEnabled is the storage control on (the wire type
// "enabled").
type UserProfileStorageEnabled struct {
	// Buckets maps a region to its bucket.
	Buckets map[string]UserProfileBucket `json:"buckets,omitzero"`
	// Status is each region's state.
	Status map[string]UserProfileControlStatus `json:"status,omitzero"`
	// RetiredBuckets are buckets used before, until they expire.
	RetiredBuckets []UserProfileRetired `json:"retired_buckets,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownUserProfileStorage keeps a storage control this SDK version
// cannot name.
type UnknownUserProfileStorage struct {
	Type string
	Raw  json.RawMessage
}

// UserProfileBucket is a region's bucket.
//
//mms:json
type UserProfileBucket struct {
	BucketName    string `json:"bucket_name"`
	ProjectNumber string `json:"project_number"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserProfileControlStatus is one region's state of a control. The spec
// names these members; the effective key or bucket and anything else the
// service adds are kept in Extra.
//
//mms:json
type UserProfileControlStatus struct {
	// Status is not_configured, pending, active, failed or suspended.
	Status string `json:"status"`
	// Error says why the region failed, as the service describes it.
	Error json.RawMessage `json:"error,omitzero"`
	// ValidatedAt and LastCheckedAt are RFC 3339 strings; nil when absent
	// or null.
	ValidatedAt   *string `json:"validated_at,omitzero"`
	LastCheckedAt *string `json:"last_checked_at,omitzero"`
	// FailedChecks lists the checks that failed, as the service describes
	// them.
	FailedChecks json.RawMessage `json:"failed_checks,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserProfileRetired is a key or bucket used before, kept until ExpiresAt.
// What it names is kept in Extra, as the service describes it.
//
//mms:json
type UserProfileRetired struct {
	// ExpiresAt is when it stops being kept (RFC 3339).
	ExpiresAt string `json:"expires_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserProfileCMEKUpdate turns encryption on (with keys for some regions)
// or off.
//
//mms:json
type UserProfileCMEKUpdate struct {
	// Type is UserProfileControlEnabled or UserProfileControlDisabled; required.
	Type string `json:"type"`
	// ExternalKeyIDs maps a region to an external key id; only when
	// enabled. Regions left out are unchanged.
	ExternalKeyIDs map[string]string `json:"external_key_ids,omitzero"`
}

// UserProfileStorageUpdate turns customer-owned storage on (with buckets
// for some regions) or off.
//
//mms:json
type UserProfileStorageUpdate struct {
	// Type is UserProfileControlEnabled or UserProfileControlDisabled; required.
	Type string `json:"type"`
	// Buckets maps a region to its bucket; only when enabled. Regions
	// left out are unchanged.
	Buckets map[string]UserProfileBucket `json:"buckets,omitzero"`
}

// The two states of a user profile's data control, for the updates' Type.
const (
	UserProfileControlEnabled  = "enabled"
	UserProfileControlDisabled = "disabled"
)

// UserProfileDataControlsUpdateParams are the parameters of
// [UserProfilesService.UpdateGoogleDataControls]; a nil control is
// unchanged.
//
//mms:json
type UserProfileDataControlsUpdateParams struct {
	CMEK    *UserProfileCMEKUpdate    `json:"cmek,omitzero"`
	Storage *UserProfileStorageUpdate `json:"storage,omitzero"`
}

// Validate reports the first rule the params break: a control's type
// other than enabled and disabled, regions sent with a disabled control,
// an empty region or value.
func (p UserProfileDataControlsUpdateParams) Validate() error {
	if p.CMEK != nil {
		if err := validateDataControl("cmek", p.CMEK.Type, "external_key_ids", p.CMEK.ExternalKeyIDs, func(v string) bool { return v != "" }); err != nil {
			return err
		}
	}
	if p.Storage != nil {
		return validateDataControl("storage", p.Storage.Type, "buckets", p.Storage.Buckets, func(b UserProfileBucket) bool {
			return b.BucketName != "" && b.ProjectNumber != ""
		})
	}
	return nil
}

// validateDataControl checks one control of an update: its type, no
// regions when disabled, and no empty region or value.
func validateDataControl[V any](field, typ, mapName string, m map[string]V, ok func(V) bool) error {
	switch typ {
	case UserProfileControlEnabled:
	case UserProfileControlDisabled:
		if len(m) > 0 {
			return invalid(field+"."+mapName, "must be empty when the control is disabled")
		}
	case "":
		return invalid(field+".type", "is required (%q or %q)", UserProfileControlEnabled, UserProfileControlDisabled)
	default:
		return invalid(field+".type", "must be %q or %q, got %q", UserProfileControlEnabled, UserProfileControlDisabled, typ)
	}
	for _, region := range sortedKeys(m) {
		if strings.TrimSpace(region) == "" {
			return invalid(field+"."+mapName, "must not have an empty region")
		}
		if !ok(m[region]) {
			return invalid(field+"."+mapName+"["+region+"]", "must not be empty")
		}
	}
	return nil
}

// GetGoogleDataControls reads a profile's Google-managed data controls
// (GET /v1/user_profiles/{user_profile_id}/providers/google/data_controls;
// beta).
func (s *UserProfilesService) GetGoogleDataControls(ctx context.Context, userProfileID string, opts ...option.RequestOption) (*UserProfileDataControls, error) {
	return s.dataControls(userProfileID).get(ctx, opts)
}

// UpdateGoogleDataControls sets a profile's Google-managed data controls
// (POST /v1/user_profiles/{user_profile_id}/providers/google/data_controls;
// beta). Controls and regions left out are unchanged. The params are
// checked first (see [UserProfileDataControlsUpdateParams.Validate]).
func (s *UserProfilesService) UpdateGoogleDataControls(ctx context.Context, userProfileID string, p UserProfileDataControlsUpdateParams, opts ...option.RequestOption) (*UserProfileDataControls, error) {
	return s.dataControls(userProfileID).update(ctx, p, opts)
}

// dataControls is a profile's data-controls endpoint, with its two betas.
func (s *UserProfilesService) dataControls(userProfileID string) endpoint[UserProfileDataControls] {
	e := as[UserProfileDataControls](s.at(userProfileID)).sub("/providers/google/data_controls")
	e.betas = userProfileGoogleBetas
	return e
}
