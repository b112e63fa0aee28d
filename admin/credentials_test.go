package admin_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// unsetEnv clears every variable NewClient reads for the test.
func unsetEnv(t *testing.T) {
	for _, v := range []string{admin.EnvAdminKey, mms.EnvAPIKey, mms.EnvAuthToken, mms.EnvBaseURL, mms.EnvProfile,
		mms.EnvFederationRuleID, mms.EnvOrganizationID, mms.EnvIdentityTokenFile, mms.EnvIdentityToken, mms.EnvCustomHeaders} {
		t.Setenv(v, "")
	}
	t.Setenv(mms.EnvConfigDir, t.TempDir())
}

func TestPlainAPIKeyRefusedBeforeSending(t *testing.T) {
	s := mmstest.NewServer()
	defer s.Close()
	c, err := admin.NewClient(s.ClientOptions()...) // the fake's plain API key
	require.NoError(t, err)
	_, err = c.APIKeys.Get(ctx, "apikey_1")
	require.ErrorIs(t, err, admin.ErrCredential)
	assert.NotContains(t, err.Error(), mmstest.DefaultAPIKey)
	require.ErrorIs(t, firstErr(c.APIKeys.List(ctx, admin.APIKeyListParams{})), admin.ErrCredential)
	// A per-call plain key on an admin client is refused too.
	ac, err := admin.NewClient(s.AdminClientOptions()...)
	require.NoError(t, err)
	_, err = ac.Organization.Get(ctx, option.WithAPIKey(mmstest.DefaultAPIKey))
	require.ErrorIs(t, err, admin.ErrCredential)
	assert.Empty(t, s.Requests(), "nothing was sent")
}

func TestAdminKeyNeverReachesNonAdminEndpoints(t *testing.T) {
	unsetEnv(t)
	s := mmstest.NewServer()
	defer s.Close()
	// The root client refuses an admin key, as a client option or per call.
	_, err := mms.NewClient(option.WithBaseURL(s.URL), option.WithAdminKey(mmstest.DefaultAdminKey))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "admin.NewClient")
	assert.NotContains(t, err.Error(), mmstest.DefaultAdminKey)
	root, err := mms.NewClient(s.ClientOptions()...)
	require.NoError(t, err)
	_, err = root.Models.Get(ctx, "m", option.WithAdminKey(mmstest.DefaultAdminKey))
	require.Error(t, err)
	err = root.Do(ctx, "GET", "/v1/organizations/me", nil, nil, option.WithAdminKey(mmstest.DefaultAdminKey))
	require.Error(t, err, "the root client never carries an admin key, even to the admin paths")
	// $VENDOR_ADMIN_KEY is not part of the root's chain.
	t.Setenv(admin.EnvAdminKey, mmstest.DefaultAdminKey)
	_, err = mms.NewClient(option.WithBaseURL(s.URL))
	require.Error(t, err)
	for _, r := range s.Requests() {
		assert.NotEqual(t, mmstest.DefaultAdminKey, r.Header.Get("X-Api-Key"), r.Path)
	}
	assert.Empty(t, s.Requests())
	// The fake refuses an admin key outside the Organization API.
	req, _ := http.NewRequest("GET", s.URL+"/v1/models", nil)
	req.Header.Set("X-Api-Key", mmstest.DefaultAdminKey)
	req.Header.Set("Vendor-Version", "2023-06-01")
	resp, err := s.Client().Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 401, resp.StatusCode)
}

func TestAdminKeyFromEnvironment(t *testing.T) {
	unsetEnv(t)
	s := mmstest.NewServer()
	defer s.Close()
	t.Setenv(mms.EnvBaseURL, s.URL)
	t.Setenv(mms.EnvAPIKey, mmstest.DefaultAPIKey)
	t.Setenv(admin.EnvAdminKey, mmstest.DefaultAdminKey)
	c, err := admin.NewClient(option.WithHTTPClient(s.Client()))
	require.NoError(t, err)
	_, err = c.Organization.Get(ctx)
	require.NoError(t, err, "$VENDOR_ADMIN_KEY wins over $VENDOR_API_KEY")
	reqs := s.Requests()
	require.Len(t, reqs, 1)
	assert.Equal(t, mmstest.DefaultAdminKey, reqs[0].Header.Get("X-Api-Key"))

	t.Setenv(admin.EnvAdminKey, "")
	t.Setenv(mms.EnvAPIKey, "")
	_, err = admin.NewClient()
	require.Error(t, err)
	assert.Contains(t, err.Error(), admin.EnvAdminKey)
}

func TestAdminKeyAndAnotherCredentialTogether(t *testing.T) {
	_, err := admin.NewClient(option.WithBaseURL("http://127.0.0.1:1"), option.WithAdminKey("a-admin-key-value"), option.WithAPIKey("k-value-long"))
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "a-admin-key-value")
	_, err = admin.NewClient(option.WithBaseURL("http://127.0.0.1:1"), option.WithAdminKey(" "))
	require.Error(t, err)
}
