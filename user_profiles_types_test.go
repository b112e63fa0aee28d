package mms

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"

	"github.com/stretchr/testify/require"
)

func TestBetaUserProfilesMatchesWire(t *testing.T) {
	if BetaUserProfiles != wire.BetaUserProfiles || wire.RequiredBeta("/v1/user_profiles") != BetaUserProfiles {
		t.Fatalf("BetaUserProfiles %q, wire %q", BetaUserProfiles, wire.BetaUserProfiles)
	}
	for _, b := range []string{BetaUserProfiles, "user-profiles-2026-03-24", "user-profiles-2026-08-18", "user-profiles-2026-09-04"} {
		if !wire.IsKnownBeta(b) {
			t.Errorf("%s is not a known beta", b)
		}
	}
}

var userProfileGoldens = []string{"profile_2026_03_24.json", "profile_2026_08_18.json", "profile_2026_09_04.json",
	"profile_details_null.json", "profile_unknown.json"}

// TestUserProfileGoldenRoundTrip: the record under each dated beta, the
// details with every member null, unknown enum values and unknown members
// (top level, in a trust grant, in the details), and the enrollment URL,
// decode and re-encode losslessly.
func TestUserProfileGoldenRoundTrip(t *testing.T) {
	for _, file := range userProfileGoldens {
		t.Run(file, func(t *testing.T) { roundTrip[UserProfile](t, readGolden(t, "user_profiles", file), nil) })
	}
	for _, file := range []string{"enrollment_url.json", "enrollment_url_unknown.json"} {
		t.Run(file, func(t *testing.T) { roundTrip[UserProfileEnrollmentURL](t, readGolden(t, "user_profiles", file), nil) })
	}
	// A record of another type is not taken for a profile.
	var p UserProfile
	if err := decodeInto(readGolden(t, "user_profiles", "enrollment_url.json"), &p); err == nil {
		t.Errorf("enrollment_url decoded as UserProfile")
	}
}

// TestUserProfileGoldenValues pins the typed values the goldens decode to.
func TestUserProfileGoldenValues(t *testing.T) {
	decode := func(file string) UserProfile {
		var p UserProfile
		if err := json.Unmarshal(readGolden(t, "user_profiles", file), &p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	old := decode("profile_2026_03_24.json")
	if *old.ExternalID != "cust-42" || *old.Name != "Ada Lovelace" || old.Relationship != UserProfileRelationshipResold ||
		old.AccessType != "" || old.ExternalUserDetails != nil || old.ExternalUserOnboardedAt != nil || len(old.Extra) != 0 {
		t.Errorf("-03-24 %+v", old)
	}
	if c, err := old.Created(); err != nil || c.Nanosecond() != 123456000 {
		t.Errorf("Created %v %v", c, err)
	}
	mid := decode("profile_2026_08_18.json")
	if mid.ExternalID != nil || mid.Name != nil || mid.AccessType != UserProfileAccessTypePassthrough || *mid.ExternalUserOnboardedAt != "2026-08-01T00:00:00Z" ||
		!cmp.Equal(mid.TrustGrants, map[string]UserProfileTrustGrant{"cyber": {Status: UserProfileTrustGrantActive}, "bio": {Status: UserProfileTrustGrantPending}}) {
		t.Errorf("-08-18 %+v", mid)
	}
	details := decode("profile_2026_09_04.json").ExternalUserDetails
	want := &UserProfileExternalUserDetails{AccountStatus: Ptr(UserProfileAccountStatusActive), EntityType: Ptr(UserProfileEntityTypeBusiness),
		Country: Ptr("DE"), EmailHash: Ptr("5f4dcc3b"), NameHash: Ptr("a1b2c3"), ReferenceID: Ptr("acct-7"), OnboardedAt: Ptr("2026-09-01T00:00:00Z")}
	if diff := cmp.Diff(want, details); diff != "" {
		t.Errorf("-09-04 details (-want +got):\n%s", diff)
	}
	if d := decode("profile_details_null.json").ExternalUserDetails; !cmp.Equal(d, &UserProfileExternalUserDetails{}) {
		t.Errorf("null details %+v", d)
	}
	u := decode("profile_unknown.json")
	if u.Relationship != "partner" || u.AccessType != "delegated" || u.TrustGrants["future"].Status != "revoked" ||
		u.TrustGrants["future"].Extra["since"] == nil || *u.ExternalUserDetails.AccountStatus != "closed" ||
		u.ExternalUserDetails.Extra["risk_score"] == nil || u.Extra["workspace_id"] == nil || u.Extra["labels"] == nil {
		t.Errorf("unknown %+v", u)
	}
	var e UserProfileEnrollmentURL
	if err := json.Unmarshal(readGolden(t, "user_profiles", "enrollment_url_unknown.json"), &e); err != nil {
		t.Fatal(err)
	}
	if exp, err := e.Expires(); err != nil || !exp.Equal(time.Date(2026, 9, 6, 10, 0, 0, 0, time.UTC)) || e.Extra["grant"] == nil {
		t.Errorf("enrollment %+v %v", e, err)
	}
}

// TestUserProfileRequestForms pins what each params type sends: zero
// fields left out, Update states, "" deleting a metadata key, times in
// RFC 3339; and a request form decodes back to the same params.
func TestUserProfileRequestForms(t *testing.T) {
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))
	for _, tt := range []struct {
		name string
		in   any
		want string
	}{
		{"empty create", UserProfileCreateParams{}, `{}`},
		{"full create", UserProfileCreateParams{ExternalID: "e", Name: "n", Metadata: map[string]string{"k": "v"},
			Relationship: UserProfileRelationshipInternal, AccessType: UserProfileAccessTypeApplication, ExternalUserOnboardedAt: at,
			ExternalUserDetails: &UserProfileExternalUserDetailsParams{AccountStatus: UserProfileAccountStatusBlocked,
				EntityType: UserProfileEntityTypeGovernment, Country: "US", EmailHash: "e", NameHash: "n", ReferenceID: "r", OnboardedAt: at}},
			`{"external_id":"e","name":"n","metadata":{"k":"v"},"relationship":"internal","access_type":"application",` +
				`"external_user_onboarded_at":"2030-01-02T03:04:05+01:00","external_user_details":{"account_status":"blocked",` +
				`"entity_type":"government","country":"US","email_hash":"e","name_hash":"n","reference_id":"r","onboarded_at":"2030-01-02T03:04:05+01:00"}}`},
		{"empty details", UserProfileCreateParams{ExternalUserDetails: &UserProfileExternalUserDetailsParams{}}, `{"external_user_details":{}}`},
		{"empty update", UserProfileUpdateParams{}, `{}`},
		{"update clears", UserProfileUpdateParams{ExternalID: Clear[string](), Name: Clear[string](),
			Relationship: Clear[UserProfileRelationship](), AccessType: Clear[UserProfileAccessType]()},
			`{"external_id":null,"name":null,"relationship":null,"access_type":null}`},
		{"update sets", UserProfileUpdateParams{ExternalID: Set(""), Name: Set("n"), Relationship: Set(UserProfileRelationshipExternal),
			AccessType: Set(UserProfileAccessTypePassthrough), Metadata: UserProfileMetadataPatch{}.Set("a", "1").Delete("b"),
			ExternalUserOnboardedAt: at, ExternalUserDetails: &UserProfileExternalUserDetailsParams{Country: "FR"}},
			`{"external_id":"","name":"n","relationship":"external","access_type":"passthrough","metadata":{"a":"1","b":""},` +
				`"external_user_onboarded_at":"2030-01-02T03:04:05+01:00","external_user_details":{"country":"FR"}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			requireJSONEqual(t, []byte(tt.want), got)
			body, err := codec.MarshalRequest(tt.in)
			require.NoError(t, err)
			requireJSONEqual(t, []byte(tt.want), body)
			back := reflect.New(reflect.TypeOf(tt.in))
			if err := json.Unmarshal(got, back.Interface()); err != nil {
				t.Fatal(err)
			}
			again, err := json.Marshal(back.Elem().Interface())
			require.NoError(t, err)
			requireJSONEqual(t, got, again)
		})
	}
}

func FuzzUserProfile(f *testing.F) {
	for _, name := range userProfileGoldens {
		f.Add(readGolden(f, "user_profiles", name))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkRecordRoundTrip[UserProfile](t, data) })
}

func FuzzUserProfileEnrollmentURL(f *testing.F) {
	f.Add(readGolden(f, "user_profiles", "enrollment_url.json"))
	f.Add(readGolden(f, "user_profiles", "enrollment_url_unknown.json"))
	f.Fuzz(func(t *testing.T, data []byte) { checkRecordRoundTrip[UserProfileEnrollmentURL](t, data) })
}

func FuzzUserProfileUpdateParams(f *testing.F) {
	f.Add([]byte(`{"external_id":null,"name":"n","metadata":{"a":""},"relationship":null,"access_type":"application",` +
		`"external_user_onboarded_at":"2030-01-02T03:04:05Z","external_user_details":{"country":"FR"}}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) { checkRecordRoundTrip[UserProfileUpdateParams](t, data) })
}
