package admin_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/mmstest"
)

// statusOf is the status of an *mms.Error (0 for another error).
func statusOf(err error) int {
	var apiErr *mms.Error
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode
	}
	return 0
}

// betaOf is the vendor-beta header of the server's last request.
func betaOf(t *testing.T, s *mmstest.Server) string {
	t.Helper()
	reqs := s.Requests()
	require.NotEmpty(t, reqs)
	return reqs[len(reqs)-1].Header.Get(wire.HeaderBeta)
}

// rawStatus sends a request without any beta, as a program not using the
// SDK would, and returns the status.
func rawStatus(t *testing.T, s *mmstest.Server, method, path string) int {
	t.Helper()
	req, err := http.NewRequest(method, s.URL+path, strings.NewReader("{}"))
	require.NoError(t, err)
	req.Header.Set(wire.HeaderAPIKey, mmstest.DefaultAdminKey)
	req.Header.Set(wire.HeaderVersion, wire.DefaultVersion)
	req.Header.Set("content-type", "application/json")
	resp, err := s.Client().Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	return resp.StatusCode
}

func TestGoogleDataControls(t *testing.T) {
	s, c := fake(t)
	s.Org().AddGoogleProject("123456")
	g, err := c.GoogleDataControls.Get(ctx, "123456")
	require.NoError(t, err)
	assert.IsType(t, admin.GoogleCMEKDisabled{}, g.CMEK)
	assert.Equal(t, wire.BetaGoogleDataControls, betaOf(t, s))
	p := admin.GoogleDataControlsUpdateParams{CMEK: &admin.GoogleCMEKUpdate{Type: admin.ControlEnabled, ExternalKeyIDs: map[string]string{"us": "ekey_1"}}}
	_, err = c.GoogleDataControls.Update(ctx, "123456", p)
	assert.Equal(t, 403, statusOf(err), "a plain admin key cannot update")
	oc := oauthClient(t, s)
	up, err := oc.GoogleDataControls.Update(ctx, "123456", p)
	require.NoError(t, err)
	on, ok := up.CMEK.(admin.GoogleCMEKEnabled)
	require.True(t, ok, "%T", up.CMEK)
	assert.Equal(t, map[string]string{"us": "ekey_1"}, on.ExternalKeyIDs)
	assert.IsType(t, admin.GoogleStorageDisabled{}, up.Storage, "omitted controls unchanged")
	up, err = oc.GoogleDataControls.Update(ctx, "123456", admin.GoogleDataControlsUpdateParams{
		Storage: &admin.GoogleStorageUpdate{Type: admin.ControlEnabled, Buckets: map[string]string{"eu": "b"}}})
	require.NoError(t, err)
	assert.IsType(t, admin.GoogleCMEKEnabled{}, up.CMEK)
	assert.IsType(t, admin.GoogleStorageEnabled{}, up.Storage)
	_, err = c.GoogleDataControls.Get(ctx, "999")
	assert.Equal(t, 404, statusOf(err))
}

func TestGoogleDataControlsValidation(t *testing.T) {
	s, c := fake(t)
	gup := func(project string, p admin.GoogleDataControlsUpdateParams) error {
		_, err := c.GoogleDataControls.Update(ctx, project, p)
		return err
	}
	on := &admin.GoogleCMEKUpdate{Type: admin.ControlEnabled, ExternalKeyIDs: map[string]string{"us": "ekey_1"}}
	for _, tc := range []struct {
		name, field string
		err         error
	}{
		{"project not digits", "project_number", func() error { _, err := c.GoogleDataControls.Get(ctx, "my-project"); return err }()},
		{"no control", "cmek", gup("1", admin.GoogleDataControlsUpdateParams{})},
		{"no type", "cmek.type", gup("1", admin.GoogleDataControlsUpdateParams{CMEK: &admin.GoogleCMEKUpdate{}})},
		{"bad type", "cmek.type", gup("1", admin.GoogleDataControlsUpdateParams{CMEK: &admin.GoogleCMEKUpdate{Type: "on"}})},
		{"enabled without regions", "cmek.external_key_ids", gup("1", admin.GoogleDataControlsUpdateParams{CMEK: &admin.GoogleCMEKUpdate{Type: admin.ControlEnabled}})},
		{"disabled with regions", "storage.buckets", gup("1", admin.GoogleDataControlsUpdateParams{CMEK: on,
			Storage: &admin.GoogleStorageUpdate{Type: admin.ControlDisabled, Buckets: map[string]string{"us": "b"}}})},
		{"empty bucket", "storage.buckets[us]", gup("1", admin.GoogleDataControlsUpdateParams{
			Storage: &admin.GoogleStorageUpdate{Type: admin.ControlEnabled, Buckets: map[string]string{"us": ""}}})},
	} {
		assert.Equal(t, tc.field, fieldOf(tc.err), "%s: %v", tc.name, tc.err)
	}
	assert.Empty(t, s.Requests())
	// The other side of each bound is sent.
	s.Org().AddGoogleProject("1")
	_, err := oauthClient(t, s).GoogleDataControls.Update(ctx, "1", admin.GoogleDataControlsUpdateParams{CMEK: on})
	require.NoError(t, err)
}
