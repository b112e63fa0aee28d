package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// lastBetas is the vendor-beta the fake's last request carried.
func lastBetas(srv *mmstest.Server) string {
	reqs := srv.Requests()
	return reqs[len(reqs)-1].Header.Get("Vendor-Beta")
}

// TestUserProfilesGAAgainstFake: under API version 2026-10-21 the GA calls
// send no user-profiles beta and get the GA record; enforcement and
// programs the vendor sets show, the enforcement filter lists by status,
// delete removes, action URLs are minted, and the beta-only enrollment URL
// still sends the seed beta.
func TestUserProfilesGAAgainstFake(t *testing.T) {
	srv := mmstest.NewServer()
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0), option.WithVersion(mms.APIVersion20261021))
	ctx := context.Background()

	p, err := c.UserProfiles.Create(ctx, mms.UserProfileCreateParams{Name: "Acme", Metadata: map[string]string{"k": "v"},
		AccessType:          mms.UserProfileAccessTypePassthrough,
		ExternalUserDetails: &mms.UserProfileExternalUserDetailsParams{ReferenceID: "acct-1", Country: "DE"}})
	require.NoError(t, err)
	assert.Empty(t, lastBetas(srv), "a GA call sends no user-profiles beta")
	assert.Nil(t, p.TrustGrants)
	assert.Nil(t, p.ExternalID)
	assert.Equal(t, mms.UserProfileEnforcementUnrestricted, p.EnforcementStatus)
	assert.Empty(t, p.EnforcementActions)
	require.NotNil(t, p.Programs)
	assert.Nil(t, p.Programs.Cyber)
	assert.Equal(t, "acct-1", *p.ExternalUserDetails.ReferenceID)

	plain, err := c.UserProfiles.Create(ctx, mms.UserProfileCreateParams{})
	require.NoError(t, err)
	assert.Equal(t, mms.UserProfileAccessTypeApplication, plain.AccessType, "GA records default access_type")

	// The beta fields are the fake's to refuse under GA.
	_, err = c.UserProfiles.Create(ctx, mms.UserProfileCreateParams{ExternalID: "x"})
	var apiErr *mms.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 400, apiErr.StatusCode)
	assert.Contains(t, apiErr.Message, "external_id")

	// Enforcement, as the vendor sets it.
	id, err := srv.OpenEnforcementAction(p.ID, mmstest.EnforcementAction{Type: "restriction", Reason: "unsupported_region", Verify: true})
	require.NoError(t, err)
	got, err := c.UserProfiles.Get(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, mms.UserProfileEnforcementRestricted, got.EnforcementStatus)
	require.Len(t, got.EnforcementActions, 1)
	assert.Equal(t, id, got.EnforcementActions[0].ID)
	assert.Equal(t, "verify", *got.EnforcementActions[0].Action)
	assert.Nil(t, got.EnforcementActions[0].ExpiresAt)
	require.NoError(t, srv.SubmitVerification(p.ID))
	got, err = c.UserProfiles.Get(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, mms.UserProfileEnforcementPending, got.EnforcementStatus)
	ban, err := srv.OpenEnforcementAction(plain.ID, mmstest.EnforcementAction{Type: "ban", Reason: "fraud_or_abuse"})
	require.NoError(t, err)

	// Programs: a retrieve shows all, a list shows no efs and no tiers.
	require.NoError(t, srv.SetUserProfilePrograms(p.ID, json.RawMessage(
		`{"cyber":{"status":"active","tiers":{"a":{"status":"active"}},"requirements":{"data_retention":true,"human_review":true}},"efs":{"status":"active","features":{"cmek":{"status":"active"}}}}`)))
	got, err = c.UserProfiles.Get(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, "active", got.Programs.Cyber.Tiers["a"].Status)
	assert.True(t, got.Programs.Cyber.Requirements.HumanReview)
	require.NotNil(t, got.Programs.EFS)

	statusOf := func(f ...mms.UserProfileEnforcementStatus) map[string]mms.UserProfileEnforcementStatus {
		out := map[string]mms.UserProfileEnforcementStatus{}
		for it, err := range c.UserProfiles.List(ctx, mms.UserProfileListParams{EnforcementStatus: f, Limit: 1}) {
			require.NoError(t, err)
			out[it.ID] = it.EnforcementStatus
			if it.ID == p.ID {
				assert.Nil(t, it.Programs.EFS, "lists show no efs")
				assert.Empty(t, it.Programs.Cyber.Tiers, "lists show no tiers")
			}
		}
		return out
	}
	assert.Equal(t, map[string]mms.UserProfileEnforcementStatus{plain.ID: mms.UserProfileEnforcementBanned}, statusOf(mms.UserProfileEnforcementBanned))
	assert.Len(t, statusOf(mms.UserProfileEnforcementPending, mms.UserProfileEnforcementBanned), 2)
	assert.Len(t, statusOf(), 2)
	assert.True(t, slices.ContainsFunc(srv.Requests(), func(r mmstest.Request) bool {
		return strings.Contains(r.RawQuery, "enforcement_status%5B%5D=pending&enforcement_status%5B%5D=banned")
	}), "enforcement_status[] sent as an array")
	require.NoError(t, srv.ResolveEnforcementAction(plain.ID, ban))
	assert.Empty(t, statusOf(mms.UserProfileEnforcementBanned))
	assert.Error(t, srv.ResolveEnforcementAction(plain.ID, ban), "resolved twice")

	// Under a user-profiles beta the filter is refused: it is GA only.
	err = firstErr(c.UserProfiles.List(ctx, mms.UserProfileListParams{EnforcementStatus: []mms.UserProfileEnforcementStatus{"banned"}},
		option.WithBeta("user-profiles-2026-09-04")))
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 400, apiErr.StatusCode)

	// Action URL: minted per call, a creating call.
	u, err := c.UserProfiles.CreateActionURL(ctx, p.ID, mms.UserProfileActionURLParams{Action: mms.UserProfileAction{Type: mms.UserProfileActionEnrollEndUser}})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(u.URL, "https://"+mmstest.EnrollmentHost+"/"), u.URL)
	_, err = u.Expires()
	require.NoError(t, err)
	n := len(srv.Requests())
	_, err = c.UserProfiles.CreateActionURL(ctx, p.ID, mms.UserProfileActionURLParams{})
	var ve *mms.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "action.type", ve.Field)
	assert.Len(t, srv.Requests(), n, "nothing sent")

	// The enrollment URL is beta-only: it keeps the seed beta.
	_, err = c.UserProfiles.CreateEnrollmentURL(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, mms.BetaUserProfiles, lastBetas(srv))

	// Delete.
	d, err := c.UserProfiles.Delete(ctx, plain.ID)
	require.NoError(t, err)
	assert.Equal(t, plain.ID, d.ID)
	_, err = c.UserProfiles.Get(ctx, plain.ID)
	assert.True(t, errors.Is(err, mms.ErrNotFound), "%v", err)
}

// firstErr is the first error a sequence yields.
func firstErr[T any](seq func(func(T, error) bool)) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

// TestUserProfilesSeedBetaUnderOldVersion: under the default version the
// calls still send the seed beta and get the beta record.
func TestUserProfilesSeedBetaUnderOldVersion(t *testing.T) {
	srv := mmstest.NewServer()
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0))
	p, err := c.UserProfiles.Create(context.Background(), mms.UserProfileCreateParams{ExternalID: "x"})
	require.NoError(t, err)
	assert.Equal(t, mms.BetaUserProfiles, lastBetas(srv))
	assert.NotNil(t, p.TrustGrants)
	assert.Nil(t, p.Programs)
	assert.Empty(t, p.EnforcementStatus)
}

// TestUserProfileDataControlsAgainstFake: both betas are sent; controls
// start disabled; enabling sets regions, a replaced key or bucket and a
// disabled control's are retired; a bad update is refused before sending.
func TestUserProfileDataControlsAgainstFake(t *testing.T) {
	srv := mmstest.NewServer()
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0))
	ctx := context.Background()
	p, err := c.UserProfiles.Create(ctx, mms.UserProfileCreateParams{})
	require.NoError(t, err)

	dc, err := c.UserProfiles.GetGoogleDataControls(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, "user-profiles-2026-09-04,google-managed-data-controls-2026-09-01", lastBetas(srv))
	assert.Equal(t, p.ID, dc.UserProfileID)
	assert.NotEmpty(t, dc.BucketLabelValue)
	assert.IsType(t, mms.UserProfileCMEKDisabled{}, dc.CMEK)
	assert.IsType(t, mms.UserProfileStorageDisabled{}, dc.Storage)

	dc, err = c.UserProfiles.UpdateGoogleDataControls(ctx, p.ID, mms.UserProfileDataControlsUpdateParams{
		CMEK: &mms.UserProfileCMEKUpdate{Type: mms.UserProfileControlEnabled, ExternalKeyIDs: map[string]string{"eu": "ekey_1", "us": "ekey_2"}},
		Storage: &mms.UserProfileStorageUpdate{Type: mms.UserProfileControlEnabled,
			Buckets: map[string]mms.UserProfileBucket{"eu": {BucketName: "logs", ProjectNumber: "42"}}}})
	require.NoError(t, err)
	cmek := dc.CMEK.(mms.UserProfileCMEKEnabled)
	assert.Equal(t, map[string]string{"eu": "ekey_1", "us": "ekey_2"}, cmek.ExternalKeyIDs)
	assert.Equal(t, "active", cmek.Status["eu"].Status)
	assert.Equal(t, mms.UserProfileBucket{BucketName: "logs", ProjectNumber: "42"}, dc.Storage.(mms.UserProfileStorageEnabled).Buckets["eu"])

	// One region's key replaced: the old key is retired, the other region kept.
	dc, err = c.UserProfiles.UpdateGoogleDataControls(ctx, p.ID, mms.UserProfileDataControlsUpdateParams{
		CMEK: &mms.UserProfileCMEKUpdate{Type: mms.UserProfileControlEnabled, ExternalKeyIDs: map[string]string{"eu": "ekey_3"}}})
	require.NoError(t, err)
	cmek = dc.CMEK.(mms.UserProfileCMEKEnabled)
	assert.Equal(t, map[string]string{"eu": "ekey_3", "us": "ekey_2"}, cmek.ExternalKeyIDs)
	require.Len(t, cmek.RetiredKeys, 1)
	assert.JSONEq(t, `"ekey_1"`, string(cmek.RetiredKeys[0].Extra["external_key_id"]))
	assert.IsType(t, mms.UserProfileStorageEnabled{}, dc.Storage, "a control left out is unchanged")

	dc, err = c.UserProfiles.UpdateGoogleDataControls(ctx, p.ID, mms.UserProfileDataControlsUpdateParams{
		Storage: &mms.UserProfileStorageUpdate{Type: mms.UserProfileControlDisabled}})
	require.NoError(t, err)
	off := dc.Storage.(mms.UserProfileStorageDisabled)
	require.Len(t, off.RetiredBuckets, 1)

	n := len(srv.Requests())
	_, err = c.UserProfiles.UpdateGoogleDataControls(ctx, p.ID, mms.UserProfileDataControlsUpdateParams{
		CMEK: &mms.UserProfileCMEKUpdate{Type: mms.UserProfileControlDisabled, ExternalKeyIDs: map[string]string{"eu": "k"}}})
	var ve *mms.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "cmek.external_key_ids", ve.Field)
	assert.Len(t, srv.Requests(), n, "nothing sent")

	// Without the betas the endpoint does not exist; an unknown profile is 404.
	err = c.Do(ctx, "GET", "/v1/user_profiles/"+p.ID+"/providers/google/data_controls", nil, nil)
	assert.True(t, errors.Is(err, mms.ErrNotFound), "%v", err)
	_, err = c.UserProfiles.GetGoogleDataControls(ctx, "uprof_missing")
	assert.True(t, errors.Is(err, mms.ErrNotFound), "%v", err)
}
