package mms_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

const testUserProfileJSON = `{"id":"uprof_1","type":"user_profile","metadata":{},"trust_grants":{},` +
	`"created_at":"2026-04-02T10:00:00Z","updated_at":"2026-04-02T10:00:00Z"}`

// runProfileWireCases runs each case against a scripted server like
// runWireCases, but expects the user-profiles beta (merged after a client
// beta) instead of the managed-agents one.
func runProfileWireCases(t *testing.T, cases []wireCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, tt.reply)
			c := newTestClient(t, srv, option.WithBeta("context-1m-2025-08-07"))
			if err := tt.do(context.Background(), c); err != nil {
				t.Fatal(err)
			}
			got := srv.requests()
			if len(got) != 1 {
				t.Fatalf("%d requests", len(got))
			}
			r := got[0]
			if r.method != tt.method || r.path != tt.path || r.query != tt.query {
				t.Errorf("sent %s %s ? %s, want %s %s ? %s", r.method, r.path, r.query, tt.method, tt.path, tt.query)
			}
			if b := r.header.Values("Vendor-Beta"); !cmp.Equal(b, []string{"context-1m-2025-08-07," + mms.BetaUserProfiles}) {
				t.Errorf("vendor-beta %q", b)
			}
			for k, v := range tt.header {
				if got := r.header.Get(k); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
			if tt.body == "" {
				if len(r.body) != 0 {
					t.Errorf("body %s, want none", r.body)
				}
			} else if diff := jsonDiff(t, []byte(tt.body), r.body); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUserProfilesWire checks every user-profiles operation against a
// scripted server: method, path, query, the beta, the body, and the
// per-call workspace header.
func TestUserProfilesWire(t *testing.T) {
	page := `{"data":[` + testUserProfileJSON + `],"next_page":null}`
	onboarded := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	runProfileWireCases(t, []wireCase{
		{"create", reply{body: testUserProfileJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.UserProfiles.Create(ctx, mms.UserProfileCreateParams{ExternalID: "u-1", Name: "Ada", Metadata: map[string]string{"k": "v"},
				Relationship: mms.UserProfileRelationshipResold, AccessType: mms.UserProfileAccessTypePassthrough, ExternalUserOnboardedAt: onboarded,
				ExternalUserDetails: &mms.UserProfileExternalUserDetailsParams{AccountStatus: mms.UserProfileAccountStatusActive,
					EntityType: mms.UserProfileEntityTypeBusiness, Country: "FR", EmailHash: "eh", NameHash: "nh", ReferenceID: "r", OnboardedAt: onboarded}})
			return err
		}, "POST", "/v1/user_profiles", "", `{"external_id":"u-1","name":"Ada","metadata":{"k":"v"},"relationship":"resold",` +
			`"access_type":"passthrough","external_user_onboarded_at":"2026-01-02T03:04:05Z","external_user_details":{"account_status":"active",` +
			`"entity_type":"business","country":"FR","email_hash":"eh","name_hash":"nh","reference_id":"r","onboarded_at":"2026-01-02T03:04:05Z"}}`, nil},
		{"create empty, per-call workspace", reply{body: testUserProfileJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.UserProfiles.Create(ctx, mms.UserProfileCreateParams{}, option.WithWorkspaceID("wrkspc_1"))
			return err
		}, "POST", "/v1/user_profiles", "", `{}`, map[string]string{"Vendor-Workspace-Id": "wrkspc_1"}},
		{"get", reply{body: testUserProfileJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.UserProfiles.Get(ctx, "uprof_1")
			return err
		}, "GET", "/v1/user_profiles/uprof_1", "", "", nil},
		{"update", reply{body: testUserProfileJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.UserProfiles.Update(ctx, "uprof_1", mms.UserProfileUpdateParams{ExternalID: mms.Set("u-2"), Name: mms.Clear[string](),
				Metadata:     mms.UserProfileMetadataPatch{}.Set("n", "1").Delete("gone"),
				Relationship: mms.Clear[mms.UserProfileRelationship](), AccessType: mms.Set(mms.UserProfileAccessTypeApplication),
				ExternalUserOnboardedAt: onboarded, ExternalUserDetails: &mms.UserProfileExternalUserDetailsParams{ReferenceID: "r2"}})
			return err
		}, "POST", "/v1/user_profiles/uprof_1", "", `{"external_id":"u-2","name":null,"metadata":{"n":"1","gone":""},"relationship":null,` +
			`"access_type":"application","external_user_onboarded_at":"2026-01-02T03:04:05Z","external_user_details":{"reference_id":"r2"}}`, nil},
		{"empty update", reply{body: testUserProfileJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.UserProfiles.Update(ctx, "uprof_1", mms.UserProfileUpdateParams{})
			return err
		}, "POST", "/v1/user_profiles/uprof_1", "", `{}`, nil},
		{"enrollment url", reply{body: `{"type":"enrollment_url","url":"https://e/x","expires_at":"2026-04-03T10:00:00Z"}`},
			func(ctx context.Context, c *mms.Client) error {
				e, err := c.UserProfiles.CreateEnrollmentURL(ctx, "uprof_1")
				if err == nil && e.URL != "https://e/x" {
					err = errors.New("url " + e.URL)
				}
				return err
			}, "POST", "/v1/user_profiles/uprof_1/enrollment_url", "", "", nil},
		{"list", reply{body: page}, func(ctx context.Context, c *mms.Client) error {
			return drain(c.UserProfiles.List(ctx, mms.UserProfileListParams{Limit: 5, Order: mms.ListOrderAsc,
				OrderBy: mms.UserProfileListOrderByName, Page: mms.Cursor{Token: "page_x"}}))
		}, "GET", "/v1/user_profiles", "limit=5&order=asc&order_by=name&page=page_x", "", nil},
		{"list page", reply{body: page}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.UserProfiles.ListPage(ctx, mms.UserProfileListParams{})
			return err
		}, "GET", "/v1/user_profiles", "", "", nil},
	})
}

// TestUserProfilesDatedBetaReplacesSeed: a caller's dated user-profiles
// beta, on the client or on the call, goes out instead of the seed value,
// never next to it.
func TestUserProfilesDatedBetaReplacesSeed(t *testing.T) {
	for _, tt := range []struct {
		name           string
		client, perCal []option.RequestOption
		want           string
	}{
		{"seed by default", nil, nil, "user-profiles"},
		{"client dated", []option.RequestOption{option.WithBeta("user-profiles-2026-08-18")}, nil, "user-profiles-2026-08-18"},
		{"call dated", nil, []option.RequestOption{option.WithBeta("user-profiles-2026-09-04")}, "user-profiles-2026-09-04"},
		{"other betas kept", []option.RequestOption{option.WithBeta("files-api-2025-04-14", "user-profiles-2026-03-24")}, nil,
			"files-api-2025-04-14,user-profiles-2026-03-24"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{body: testUserProfileJSON})
			c := newTestClient(t, srv, tt.client...)
			if _, err := c.UserProfiles.Get(context.Background(), "uprof_1", tt.perCal...); err != nil {
				t.Fatal(err)
			}
			if got := srv.requests()[0].header.Values("Vendor-Beta"); !cmp.Equal(got, []string{tt.want}) {
				t.Errorf("vendor-beta %q, want %q", got, tt.want)
			}
		})
	}
}

// TestUserProfileParamsValidate: every rule on both sides of its limit;
// a broken rule sends nothing.
func TestUserProfileParamsValidate(t *testing.T) {
	s255, s256 := strings.Repeat("é", 255), strings.Repeat("é", 256)
	pairs := func(n int, value string) map[string]string {
		m := map[string]string{}
		for i := range n {
			m[string(rune('a'+i))] = value
		}
		return m
	}
	details := func(d mms.UserProfileExternalUserDetailsParams) *mms.UserProfileExternalUserDetailsParams { return &d }
	for _, tt := range []struct {
		name  string
		p     interface{ Validate() error }
		field string // "" = valid
	}{
		{"create empty", mms.UserProfileCreateParams{}, ""},
		{"external_id 255", mms.UserProfileCreateParams{ExternalID: s255}, ""},
		{"external_id 256", mms.UserProfileCreateParams{ExternalID: s256}, "external_id"},
		{"name 255", mms.UserProfileCreateParams{Name: s255}, ""},
		{"name 256", mms.UserProfileCreateParams{Name: s256}, "name"},
		{"16 pairs", mms.UserProfileCreateParams{Metadata: pairs(16, "v")}, ""},
		{"17 pairs", mms.UserProfileCreateParams{Metadata: pairs(17, "v")}, "metadata"},
		{"key 64", mms.UserProfileCreateParams{Metadata: map[string]string{strings.Repeat("k", 64): "v"}}, ""},
		{"key 65", mms.UserProfileCreateParams{Metadata: map[string]string{strings.Repeat("k", 65): "v"}}, "metadata"},
		{"key empty", mms.UserProfileCreateParams{Metadata: map[string]string{"": "v"}}, "metadata"},
		{"value 512", mms.UserProfileCreateParams{Metadata: map[string]string{"k": strings.Repeat("v", 512)}}, ""},
		{"value 513", mms.UserProfileCreateParams{Metadata: map[string]string{"k": strings.Repeat("v", 513)}}, "metadata.k"},
		{"value 1 on create", mms.UserProfileCreateParams{Metadata: map[string]string{"k": "v"}}, ""},
		{"value empty on create", mms.UserProfileCreateParams{Metadata: map[string]string{"k": ""}}, "metadata.k"},
		{"country FR", mms.UserProfileCreateParams{ExternalUserDetails: details(mms.UserProfileExternalUserDetailsParams{Country: "FR"})}, ""},
		{"country F", mms.UserProfileCreateParams{ExternalUserDetails: details(mms.UserProfileExternalUserDetailsParams{Country: "F"})}, "external_user_details.country"},
		{"country FRA", mms.UserProfileCreateParams{ExternalUserDetails: details(mms.UserProfileExternalUserDetailsParams{Country: "FRA"})}, "external_user_details.country"},
		{"country fr", mms.UserProfileCreateParams{ExternalUserDetails: details(mms.UserProfileExternalUserDetailsParams{Country: "fr"})}, "external_user_details.country"},
		{"country É (two bytes)", mms.UserProfileCreateParams{ExternalUserDetails: details(mms.UserProfileExternalUserDetailsParams{Country: "É"})}, "external_user_details.country"},
		{"hashes 255", mms.UserProfileCreateParams{ExternalUserDetails: details(mms.UserProfileExternalUserDetailsParams{EmailHash: s255, NameHash: s255, ReferenceID: s255})}, ""},
		{"email_hash 256", mms.UserProfileCreateParams{ExternalUserDetails: details(mms.UserProfileExternalUserDetailsParams{EmailHash: s256})}, "external_user_details.email_hash"},
		{"name_hash 256", mms.UserProfileCreateParams{ExternalUserDetails: details(mms.UserProfileExternalUserDetailsParams{NameHash: s256})}, "external_user_details.name_hash"},
		{"reference_id 256", mms.UserProfileUpdateParams{ExternalUserDetails: details(mms.UserProfileExternalUserDetailsParams{ReferenceID: s256})}, "external_user_details.reference_id"},
		{"reference_id 1", mms.UserProfileUpdateParams{ExternalUserDetails: details(mms.UserProfileExternalUserDetailsParams{ReferenceID: "r"})}, ""},
		{"update empty", mms.UserProfileUpdateParams{}, ""},
		{"update external_id 255", mms.UserProfileUpdateParams{ExternalID: mms.Set(s255)}, ""},
		{"update external_id 256", mms.UserProfileUpdateParams{ExternalID: mms.Set(s256)}, "external_id"},
		{"update name 255", mms.UserProfileUpdateParams{Name: mms.Set(s255)}, ""},
		{"update name 256", mms.UserProfileUpdateParams{Name: mms.Set(s256)}, "name"},
		{"update name cleared", mms.UserProfileUpdateParams{Name: mms.Clear[string]()}, ""},
		{"update relationship set", mms.UserProfileUpdateParams{Relationship: mms.Set(mms.UserProfileRelationshipInternal)}, ""},
		{"update relationship empty", mms.UserProfileUpdateParams{Relationship: mms.Set[mms.UserProfileRelationship]("")}, "relationship"},
		{"update access_type unknown passes", mms.UserProfileUpdateParams{AccessType: mms.Set[mms.UserProfileAccessType]("future")}, ""},
		{"update access_type empty", mms.UserProfileUpdateParams{AccessType: mms.Set[mms.UserProfileAccessType]("")}, "access_type"},
		{"patch 16 keys", mms.UserProfileUpdateParams{Metadata: pairs(16, "")}, ""},
		{"patch 17 keys", mms.UserProfileUpdateParams{Metadata: pairs(17, "")}, "metadata"},
		{"patch value 512", mms.UserProfileUpdateParams{Metadata: mms.UserProfileMetadataPatch{"k": strings.Repeat("v", 512)}}, ""},
		{"patch value 513", mms.UserProfileUpdateParams{Metadata: mms.UserProfileMetadataPatch{"k": strings.Repeat("v", 513)}}, "metadata.k"},
		{"patch key 65", mms.UserProfileUpdateParams{Metadata: mms.UserProfileMetadataPatch{}.Delete(strings.Repeat("k", 65))}, "metadata"},
		{"patch country", mms.UserProfileUpdateParams{ExternalUserDetails: details(mms.UserProfileExternalUserDetailsParams{Country: "de"})}, "external_user_details.country"},
		{"list default", mms.UserProfileListParams{}, ""},
		{"limit 1", mms.UserProfileListParams{Limit: 1}, ""},
		{"limit 100", mms.UserProfileListParams{Limit: 100}, ""},
		{"limit 101", mms.UserProfileListParams{Limit: 101}, "limit"},
		{"limit -1", mms.UserProfileListParams{Limit: -1}, "limit"},
		{"order desc", mms.UserProfileListParams{Order: mms.ListOrderDesc}, ""},
		{"order up", mms.UserProfileListParams{Order: "up"}, "order"},
		{"order_by created_at", mms.UserProfileListParams{OrderBy: mms.UserProfileListOrderByCreatedAt}, ""},
		{"order_by id", mms.UserProfileListParams{OrderBy: "id"}, "order_by"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.p.Validate()
			var ve *mms.ValidationError
			switch {
			case tt.field == "" && err != nil:
				t.Fatalf("valid params refused: %v", err)
			case tt.field != "" && (!errors.As(err, &ve) || ve.Field != tt.field):
				t.Fatalf("error %v, want one for %s", err, tt.field)
			}
		})
	}
	// Nothing is sent when a rule breaks, on every method that validates.
	srv := newScriptServer(t)
	c := newTestClient(t, srv)
	ctx := context.Background()
	errs := []error{
		func() error {
			_, err := c.UserProfiles.Create(ctx, mms.UserProfileCreateParams{Name: s256})
			return err
		}(),
		func() error {
			_, err := c.UserProfiles.Update(ctx, "uprof_1", mms.UserProfileUpdateParams{Name: mms.Set(s256)})
			return err
		}(),
		func() error { _, err := c.UserProfiles.Update(ctx, "", mms.UserProfileUpdateParams{}); return err }(),
		func() error { _, err := c.UserProfiles.Get(ctx, ".."); return err }(),
		func() error { _, err := c.UserProfiles.CreateEnrollmentURL(ctx, ""); return err }(),
		func() error {
			_, err := c.UserProfiles.ListPage(ctx, mms.UserProfileListParams{Limit: 101})
			return err
		}(),
		drain(c.UserProfiles.List(ctx, mms.UserProfileListParams{OrderBy: "id"})),
		// A cursor issued under the other order is refused before sending.
		drain(c.UserProfiles.List(ctx, mms.UserProfileListParams{Page: mms.Cursor{Token: "t", Order: mms.ListOrderAsc}})),
	}
	for i, err := range errs {
		if !errors.Is(err, mms.ErrInvalidParams) {
			t.Errorf("call %d: %v, want a validation error", i, err)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// TestUserProfileMetadataPatch: Delete sends "", Set replaces, and the
// builders chain on a made map.
func TestUserProfileMetadataPatch(t *testing.T) {
	got := mms.UserProfileMetadataPatch{}.Set("a", "1").Delete("b").Set("c", "")
	if want := (mms.UserProfileMetadataPatch{"a": "1", "b": "", "c": ""}); !cmp.Equal(got, want) {
		t.Errorf("patch %v", got)
	}
}
