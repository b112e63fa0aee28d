package mms

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUserProfileGAGoldenRoundTrip: the GA record (full, and as a list
// shows it with unknown values and members), the delete and action-URL
// answers, and the data-controls record (both controls enabled, both
// disabled, both of an unknown type) decode and re-encode losslessly.
func TestUserProfileGAGoldenRoundTrip(t *testing.T) {
	for _, file := range []string{"profile_ga.json", "profile_ga_list.json"} {
		t.Run(file, func(t *testing.T) { roundTrip[UserProfile](t, readGolden(t, "user_profiles", file), nil) })
	}
	t.Run("deleted", func(t *testing.T) {
		roundTrip[UserProfileDeleted](t, readGolden(t, "user_profiles", "deleted.json"), nil)
	})
	t.Run("action_url", func(t *testing.T) {
		roundTrip[UserProfileActionURL](t, readGolden(t, "user_profiles", "action_url.json"), nil)
	})
	for _, tt := range []struct {
		file    string
		unknown []string
	}{
		{"data_controls_enabled.json", nil},
		{"data_controls_disabled.json", nil},
		{"data_controls_unknown.json", []string{".CMEK: UnknownUserProfileCMEK", ".Storage: UnknownUserProfileStorage"}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			roundTrip[UserProfileDataControls](t, readGolden(t, "user_profiles", tt.file), tt.unknown)
		})
	}
}

// TestUserProfileGAGoldenValues pins what the GA goldens decode to.
func TestUserProfileGAGoldenValues(t *testing.T) {
	var p UserProfile
	require.NoError(t, json.Unmarshal(readGolden(t, "user_profiles", "profile_ga.json"), &p))
	assert.Nil(t, p.TrustGrants)
	assert.Equal(t, UserProfileEnforcementPending, p.EnforcementStatus)
	assert.Equal(t, UserProfileAccessTypePassthrough, p.AccessType)
	require.NotNil(t, p.Programs)
	want := &UserProfilePrograms{
		Cyber: &UserProfileCyberProgram{Status: "active",
			Tiers:        map[string]UserProfileProgramItem{"a": {Status: "active"}, "b": {Status: "inactive"}, "c": {Status: "inactive"}},
			Requirements: &UserProfileCyberRequirements{DataRetention: true}},
		EFS: &UserProfileEFSProgram{Status: "pending", Features: map[string]UserProfileProgramItem{
			"data_retention_exemption": {Status: "inactive"}, "cmek": {Status: "active"}, "storage": {Status: "inactive"}}},
	}
	if diff := cmp.Diff(want, p.Programs); diff != "" {
		t.Errorf("programs (-want +got):\n%s", diff)
	}
	wantActions := []UserProfileEnforcementAction{
		{Type: "restriction", ID: "enac_1", Reason: "unsupported_region", Action: Ptr("verify"), OpenedAt: "2026-11-01T00:00:00Z", ExpiresAt: Ptr("2026-12-01T00:00:00Z")},
		{Type: "restriction", ID: "enac_2", Reason: "high_harm", OpenedAt: "2026-11-02T00:00:00Z"},
	}
	if diff := cmp.Diff(wantActions, p.EnforcementActions); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}

	var list UserProfile
	require.NoError(t, json.Unmarshal(readGolden(t, "user_profiles", "profile_ga_list.json"), &list))
	assert.Equal(t, UserProfileEnforcementStatus("quarantined"), list.EnforcementStatus, "unknown statuses pass through")
	assert.Nil(t, list.Programs.EFS)
	assert.Empty(t, list.Programs.Cyber.Tiers)
	assert.Contains(t, list.Programs.Extra, "research")
	assert.Contains(t, list.EnforcementActions[0].Extra, "case")

	var dc UserProfileDataControls
	require.NoError(t, json.Unmarshal(readGolden(t, "user_profiles", "data_controls_enabled.json"), &dc))
	cmek, ok := dc.CMEK.(UserProfileCMEKEnabled)
	require.True(t, ok, "%T", dc.CMEK)
	assert.Equal(t, map[string]string{"europe-west4": "ekey_1"}, cmek.ExternalKeyIDs)
	st := cmek.Status["europe-west4"]
	assert.Equal(t, "failed", st.Status)
	assert.Nil(t, st.ValidatedAt)
	assert.JSONEq(t, `"ekey_1"`, string(st.Extra["external_key_id"]))
	assert.Equal(t, "2026-12-28T00:00:00Z", cmek.RetiredKeys[0].ExpiresAt)
	storage, ok := dc.Storage.(UserProfileStorageEnabled)
	require.True(t, ok, "%T", dc.Storage)
	assert.Equal(t, UserProfileBucket{BucketName: "acme-logs", ProjectNumber: "123456789"}, storage.Buckets["us-east5"])
}

// TestUserProfileGAParamsValidate: a rule per case, both sides.
func TestUserProfileGAParamsValidate(t *testing.T) {
	enabledKeys := func(m map[string]string) UserProfileDataControlsUpdateParams {
		return UserProfileDataControlsUpdateParams{CMEK: &UserProfileCMEKUpdate{Type: UserProfileControlEnabled, ExternalKeyIDs: m}}
	}
	bucket := UserProfileBucket{BucketName: "b", ProjectNumber: "1"}
	for _, tt := range []struct {
		name  string
		p     interface{ Validate() error }
		field string // "" for valid
	}{
		{"action set", UserProfileActionURLParams{Action: UserProfileAction{Type: UserProfileActionEnrollEndUser}}, ""},
		{"action missing", UserProfileActionURLParams{}, "action.type"},
		{"no control", UserProfileDataControlsUpdateParams{}, ""},
		{"cmek enabled with a key", enabledKeys(map[string]string{"eu": "k"}), ""},
		{"cmek enabled, regions unchanged", enabledKeys(nil), ""},
		{"cmek empty key", enabledKeys(map[string]string{"eu": ""}), "cmek.external_key_ids[eu]"},
		{"cmek empty region", enabledKeys(map[string]string{" ": "k"}), "cmek.external_key_ids"},
		{"cmek type missing", UserProfileDataControlsUpdateParams{CMEK: &UserProfileCMEKUpdate{}}, "cmek.type"},
		{"cmek type unknown", UserProfileDataControlsUpdateParams{CMEK: &UserProfileCMEKUpdate{Type: "on"}}, "cmek.type"},
		{"cmek disabled", UserProfileDataControlsUpdateParams{CMEK: &UserProfileCMEKUpdate{Type: UserProfileControlDisabled}}, ""},
		{"cmek disabled with keys", UserProfileDataControlsUpdateParams{CMEK: &UserProfileCMEKUpdate{Type: UserProfileControlDisabled,
			ExternalKeyIDs: map[string]string{"eu": "k"}}}, "cmek.external_key_ids"},
		{"storage with a bucket", UserProfileDataControlsUpdateParams{Storage: &UserProfileStorageUpdate{Type: UserProfileControlEnabled,
			Buckets: map[string]UserProfileBucket{"us": bucket}}}, ""},
		{"storage bucket without project", UserProfileDataControlsUpdateParams{Storage: &UserProfileStorageUpdate{Type: UserProfileControlEnabled,
			Buckets: map[string]UserProfileBucket{"us": {BucketName: "b"}}}}, "storage.buckets[us]"},
		{"storage disabled with buckets", UserProfileDataControlsUpdateParams{Storage: &UserProfileStorageUpdate{Type: UserProfileControlDisabled,
			Buckets: map[string]UserProfileBucket{"us": bucket}}}, "storage.buckets"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.p.Validate()
			if tt.field == "" {
				require.NoError(t, err)
				return
			}
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tt.field, ve.Field)
		})
	}
}

// The data-controls unions, one fuzz target each (fuzzDecoder's checks:
// decode or fail cleanly, lossless re-encoding).
func FuzzUserProfileCMEK(f *testing.F) {
	fuzzDecoder(f, userProfileCMEKUnion.Decode, `{"type":"disabled","retired_keys":[]}`,
		`{"type":"enabled","external_key_ids":{"eu":"k"},"status":{"eu":{"status":"active"}}}`)
}

func FuzzUserProfileStorage(f *testing.F) {
	fuzzDecoder(f, userProfileStorageUnion.Decode, `{"type":"disabled"}`,
		`{"type":"enabled","buckets":{"us":{"bucket_name":"b","project_number":"1"}}}`)
}
