package mms_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// TestUserProfilesAgainstFake runs every user-profiles operation against
// mmstest under the seed beta, with every member the SDK can send: the
// fake's strict schema accepts them all.
func TestUserProfilesAgainstFake(t *testing.T) {
	now := fakeNow
	srv := mmstest.NewServer(mmstest.WithClock(func() time.Time { return now }))
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0))
	ctx := context.Background()
	onboarded := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

	p, err := c.UserProfiles.Create(ctx, mms.UserProfileCreateParams{ExternalID: "u-1", Name: "Ada", Metadata: map[string]string{"team": "a", "old": "x"},
		Relationship: mms.UserProfileRelationshipExternal, AccessType: mms.UserProfileAccessTypeApplication, ExternalUserOnboardedAt: onboarded,
		ExternalUserDetails: &mms.UserProfileExternalUserDetailsParams{AccountStatus: mms.UserProfileAccountStatusActive,
			EntityType: mms.UserProfileEntityTypeIndividual, Country: "FR", EmailHash: "eh", NameHash: "nh", ReferenceID: "r", OnboardedAt: onboarded}})
	require.NoError(t, err)
	d := p.ExternalUserDetails
	if !strings.HasPrefix(p.ID, "uprof_") || *p.ExternalID != "u-1" || *p.Name != "Ada" || p.Relationship != mms.UserProfileRelationshipExternal ||
		p.AccessType != mms.UserProfileAccessTypeApplication || *p.ExternalUserOnboardedAt != "2026-01-02T03:04:05Z" ||
		p.TrustGrants == nil || len(p.TrustGrants) != 0 || d == nil || *d.Country != "FR" || *d.EntityType != mms.UserProfileEntityTypeIndividual {
		t.Fatalf("created %+v %+v", p, d)
	}
	if _, err := p.Created(); err != nil {
		t.Errorf("Created: %v", err)
	}
	now = now.Add(time.Minute)
	u, err := c.UserProfiles.Update(ctx, p.ID, mms.UserProfileUpdateParams{ExternalID: mms.Clear[string](), Name: mms.Set("Ada L."),
		Metadata:     mms.UserProfileMetadataPatch{}.Delete("old").Set("team", "b").Set("new", "1"),
		Relationship: mms.Clear[mms.UserProfileRelationship](), AccessType: mms.Set(mms.UserProfileAccessTypePassthrough),
		ExternalUserOnboardedAt: onboarded.Add(time.Hour),
		ExternalUserDetails:     &mms.UserProfileExternalUserDetailsParams{AccountStatus: mms.UserProfileAccountStatusSuspended}})
	require.NoError(t, err)
	if u.ExternalID != nil || *u.Name != "Ada L." || u.Relationship != "" || u.AccessType != mms.UserProfileAccessTypePassthrough ||
		!cmp.Equal(u.Metadata, map[string]string{"team": "b", "new": "1"}) || u.UpdatedAt == p.UpdatedAt ||
		*u.ExternalUserDetails.AccountStatus != mms.UserProfileAccountStatusSuspended || *u.ExternalUserDetails.Country != "FR" {
		t.Fatalf("updated %+v %+v", u, u.ExternalUserDetails)
	}
	if g, err := c.UserProfiles.Get(ctx, p.ID); err != nil || !cmp.Equal(g, u) {
		t.Errorf("Get: %v %s", err, cmp.Diff(u, g))
	}
	e, err := c.UserProfiles.CreateEnrollmentURL(ctx, p.ID)
	require.NoError(t, err)
	if exp, err := e.Expires(); err != nil || !exp.Equal(now.Add(24*time.Hour)) || !strings.HasPrefix(e.URL, "https://"+mmstest.EnrollmentHost+"/") {
		t.Errorf("enrollment %+v %v", e, err)
	}

	// Lists: default newest first; by name with the unnamed last.
	for _, name := range []string{"Bob", ""} {
		now = now.Add(time.Minute)
		if _, err := c.UserProfiles.Create(ctx, mms.UserProfileCreateParams{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	names := func(p mms.UserProfileListParams) []string {
		t.Helper()
		var out []string
		for x, err := range c.UserProfiles.List(ctx, p) {
			require.NoError(t, err)
			n := "-"
			if x.Name != nil {
				n = *x.Name
			}
			out = append(out, n)
		}
		return out
	}
	if got := names(mms.UserProfileListParams{Limit: 1}); !cmp.Equal(got, []string{"-", "Bob", "Ada L."}) {
		t.Errorf("list %v", got)
	}
	if got := names(mms.UserProfileListParams{OrderBy: mms.UserProfileListOrderByName, Order: mms.ListOrderAsc, Limit: 2}); !cmp.Equal(got, []string{"Ada L.", "Bob", "-"}) {
		t.Errorf("list by name %v", got)
	}
	page, err := c.UserProfiles.ListPage(ctx, mms.UserProfileListParams{Limit: 2, Order: mms.ListOrderAsc})
	if err != nil || len(page.Data) != 2 || page.NextPage == nil || page.NextPage.Order != mms.ListOrderAsc {
		t.Fatalf("page %+v %v", page, err)
	}
	if next, err := c.UserProfiles.ListPage(ctx, mms.UserProfileListParams{Limit: 2, Order: mms.ListOrderAsc, Page: *page.NextPage}); err != nil ||
		len(next.Data) != 1 || next.NextPage != nil {
		t.Errorf("next page %+v %v", next, err)
	}

	for _, call := range []func() error{
		func() error { _, err := c.UserProfiles.Get(ctx, "uprof_nope"); return err },
		func() error {
			_, err := c.UserProfiles.Update(ctx, "uprof_nope", mms.UserProfileUpdateParams{})
			return err
		},
		func() error { _, err := c.UserProfiles.CreateEnrollmentURL(ctx, "uprof_nope"); return err },
	} {
		if err := call(); !errors.Is(err, mms.ErrNotFound) {
			t.Errorf("unknown id: %v", err)
		}
	}
	// client.Do adds the endpoint's beta too.
	var raw map[string]any
	if err := c.Do(ctx, "GET", "/v1/user_profiles/"+p.ID, nil, &raw); err != nil || raw["id"] != p.ID {
		t.Errorf("Do: %v %v", raw, err)
	}
	// Without the beta the call is a GA call: the GA record.
	ga, err := c.UserProfiles.Get(ctx, p.ID, option.WithoutEndpointBeta(mms.BetaUserProfiles))
	require.NoError(t, err)
	if ga.TrustGrants != nil || ga.ExternalID != nil || ga.EnforcementStatus != mms.UserProfileEnforcementUnrestricted {
		t.Errorf("without the beta: %+v", ga)
	}
}

// TestUserProfilesDatedBetasAgainstFake: under each dated beta the fake
// accepts what that beta allows, sent by the SDK with the dated value in
// place of the seed, and refuses a member the beta does not take with a
// 400 naming it.
func TestUserProfilesDatedBetasAgainstFake(t *testing.T) {
	srv := mmstest.NewServer()
	t.Cleanup(srv.Close)
	ctx := context.Background()
	details := &mms.UserProfileExternalUserDetailsParams{ReferenceID: "r", Country: "DE"}
	for _, tt := range []struct {
		beta    string
		ok      mms.UserProfileCreateParams
		refused mms.UserProfileCreateParams
		field   string
	}{
		{"user-profiles-2026-03-24", mms.UserProfileCreateParams{ExternalID: "x", Name: "n", Relationship: mms.UserProfileRelationshipResold},
			mms.UserProfileCreateParams{AccessType: mms.UserProfileAccessTypeApplication}, "access_type"},
		{"user-profiles-2026-08-18", mms.UserProfileCreateParams{ExternalID: "x", AccessType: mms.UserProfileAccessTypePassthrough},
			mms.UserProfileCreateParams{ExternalUserDetails: details}, "external_user_details"},
		{"user-profiles-2026-09-04", mms.UserProfileCreateParams{AccessType: mms.UserProfileAccessTypeApplication, ExternalUserDetails: details},
			mms.UserProfileCreateParams{ExternalID: "x"}, "external_id"},
	} {
		t.Run(tt.beta, func(t *testing.T) {
			c := filesClient(t, srv, option.WithMaxRetries(0), option.WithBeta(tt.beta))
			p, err := c.UserProfiles.Create(ctx, tt.ok)
			require.NoError(t, err)
			if _, err := c.UserProfiles.Update(ctx, p.ID, mms.UserProfileUpdateParams{Name: mms.Set("m"), Metadata: mms.UserProfileMetadataPatch{"k": "v"}}); err != nil {
				t.Fatal(err)
			}
			if err := drain(c.UserProfiles.List(ctx, mms.UserProfileListParams{})); err != nil {
				t.Fatal(err)
			}
			var apiErr *mms.Error
			if _, err := c.UserProfiles.Create(ctx, tt.refused); !errors.As(err, &apiErr) || apiErr.StatusCode != 400 ||
				!strings.Contains(apiErr.Message, tt.field+": not accepted under vendor-beta "+tt.beta) {
				t.Errorf("refused member: %v", err)
			}
			for _, r := range srv.Requests() {
				if b := r.Header.Get("Vendor-Beta"); strings.Contains(b, "user-profiles,") || strings.HasSuffix(b, "user-profiles") {
					t.Errorf("seed value sent next to %s: %q", tt.beta, b)
				}
			}
		})
	}
}
