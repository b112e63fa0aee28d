package mmstest

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// gaProfile creates a profile with a GA request and returns its record.
func gaProfile(t *testing.T, s *Server, body string) map[string]any {
	t.Helper()
	resp, b := profileCall(t, s, "", "POST", "/v1/user_profiles", body)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
	var rec map[string]any
	require.NoError(t, json.Unmarshal(b, &rec))
	return rec
}

// TestUserProfilesGARules: the GA record's members, the GA body's members
// (each refused beta member, each accepted GA one), the enforcement filter
// and the beta-only enrollment URL.
func TestUserProfilesGARules(t *testing.T) {
	s := newTestServer(t)
	rec := gaProfile(t, s, `{"name":"A","access_type":"passthrough","external_user_details":{"country":"FR"},"metadata":{"k":"v"}}`)
	for _, k := range []string{"id", "type", "metadata", "name", "access_type", "external_user_details", "programs",
		"enforcement_status", "enforcement_actions", "created_at", "updated_at"} {
		assert.Contains(t, rec, k)
	}
	for _, k := range []string{"trust_grants", "external_id", "relationship", "external_user_onboarded_at"} {
		assert.NotContains(t, rec, k)
	}
	assert.Equal(t, map[string]any{"cyber": nil, "efs": nil}, rec["programs"])
	assert.Equal(t, "unrestricted", rec["enforcement_status"])
	assert.Equal(t, []any{}, rec["enforcement_actions"])
	details := rec["external_user_details"].(map[string]any)
	assert.Len(t, details, 7, "every member present")

	for _, body := range []string{`{"external_id":"x"}`, `{"relationship":"external"}`, `{"external_user_onboarded_at":"2026-01-01T00:00:00Z"}`} {
		resp, b := profileCall(t, s, "", "POST", "/v1/user_profiles", body)
		wantError(t, resp, b, 400, wire.ErrInvalidRequest, "Extra inputs are not permitted")
	}
	// The same members pass under the seed beta.
	resp, b := profileCall(t, s, wire.BetaUserProfiles, "POST", "/v1/user_profiles", `{"external_id":"x","relationship":"external"}`)
	require.Equal(t, 200, resp.StatusCode, "%s", b)

	resp, b = profileCall(t, s, "", "GET", "/v1/user_profiles?enforcement_status[]=banned", "")
	require.Equal(t, 200, resp.StatusCode, "%s", b)
	resp, b = profileCall(t, s, "", "GET", "/v1/user_profiles?enforcement_status[]=frozen", "")
	wantError(t, resp, b, 400, wire.ErrInvalidRequest, "enforcement_status")
	resp, b = profileCall(t, s, wire.BetaUserProfiles, "GET", "/v1/user_profiles?enforcement_status[]=banned", "")
	wantError(t, resp, b, 400, wire.ErrInvalidRequest, "GA only")

	id := rec["id"].(string)
	resp, b = profileCall(t, s, "", "POST", "/v1/user_profiles/"+id+"/enrollment_url", "")
	wantError(t, resp, b, 400, wire.ErrInvalidRequest, "requires the user-profiles beta")
	resp, b = profileCall(t, s, wire.BetaUserProfiles, "POST", "/v1/user_profiles/"+id+"/enrollment_url", "")
	require.Equal(t, 200, resp.StatusCode, "%s", b)
}

// TestUserProfilesActionURLAndDelete: the action-URL body rules, and
// delete.
func TestUserProfilesActionURLAndDelete(t *testing.T) {
	s := newTestServer(t)
	id := gaProfile(t, s, `{}`)["id"].(string)
	for _, tt := range []struct{ body, msg string }{
		{`{}`, "action: Field required"},
		{`{"action":{"type":"reset"}}`, "enroll_end_user"},
		{`{"action":{"type":"enroll_end_user"},"x":1}`, "x"},
	} {
		resp, b := profileCall(t, s, "", "POST", "/v1/user_profiles/"+id+"/action_urls", tt.body)
		wantError(t, resp, b, 400, wire.ErrInvalidRequest, tt.msg)
	}
	resp, b := profileCall(t, s, "", "POST", "/v1/user_profiles/"+id+"/action_urls", `{"action":{"type":"enroll_end_user"}}`)
	require.Equal(t, 200, resp.StatusCode, "%s", b)
	assert.Contains(t, string(b), `"type":"user_profile_action_url"`)
	resp, b = profileCall(t, s, "", "POST", "/v1/user_profiles/uprof_none/action_urls", `{"action":{"type":"enroll_end_user"}}`)
	wantError(t, resp, b, 404, wire.ErrNotFound, "")

	resp, b = profileCall(t, s, "", "DELETE", "/v1/user_profiles/"+id, "")
	require.Equal(t, 200, resp.StatusCode, "%s", b)
	assert.JSONEq(t, `{"id":"`+id+`","type":"user_profile_deleted"}`, string(b))
	resp, b = profileCall(t, s, "", "DELETE", "/v1/user_profiles/"+id, "")
	wantError(t, resp, b, 404, wire.ErrNotFound, "")
}

// TestUserProfilesEnforcement: the status rules in order (banned, pending,
// restricted, unrestricted), the seeding checks, resolution.
func TestUserProfilesEnforcement(t *testing.T) {
	s := newTestServer(t)
	id := gaProfile(t, s, `{}`)["id"].(string)
	status := func() string {
		resp, b := profileCall(t, s, "", "GET", "/v1/user_profiles/"+id, "")
		require.Equal(t, 200, resp.StatusCode)
		var rec struct {
			Status string `json:"enforcement_status"`
		}
		require.NoError(t, json.Unmarshal(b, &rec))
		return rec.Status
	}
	for _, bad := range []EnforcementAction{{Type: "warning"}, {Type: "ban", Verify: true},
		{Type: "ban", ExpiresAt: time.Now()}, {Type: "restriction", Reason: "account_compromise", ExpiresAt: time.Now()}} {
		_, err := s.OpenEnforcementAction(id, bad)
		assert.Error(t, err, "%+v", bad)
	}
	_, err := s.OpenEnforcementAction("uprof_none", EnforcementAction{Type: "restriction"})
	assert.Error(t, err)

	verify, err := s.OpenEnforcementAction(id, EnforcementAction{Type: "restriction", Reason: "unsupported_region", Verify: true,
		ExpiresAt: time.Now().Add(time.Hour)})
	require.NoError(t, err)
	assert.Equal(t, "restricted", status(), "not submitted yet")
	require.NoError(t, s.SubmitVerification(id))
	assert.Equal(t, "pending", status())
	compromise, err := s.OpenEnforcementAction(id, EnforcementAction{Type: "restriction", Reason: "account_compromise"})
	require.NoError(t, err)
	assert.Equal(t, "restricted", status(), "account_compromise blocks pending")
	ban, err := s.OpenEnforcementAction(id, EnforcementAction{Type: "ban", Reason: "fraud_or_abuse"})
	require.NoError(t, err)
	assert.Equal(t, "banned", status())
	for _, a := range []string{ban, compromise} {
		require.NoError(t, s.ResolveEnforcementAction(id, a))
	}
	assert.Equal(t, "pending", status())
	require.NoError(t, s.ResolveEnforcementAction(id, verify))
	assert.Equal(t, "unrestricted", status())
	assert.Error(t, s.SetUserProfilePrograms(id, json.RawMessage(`[]`)))
}

// TestUserProfileDataControlsRules: the betas, and each update rule on
// both sides.
func TestUserProfileDataControlsRules(t *testing.T) {
	s := newTestServer(t)
	id := gaProfile(t, s, `{}`)["id"].(string)
	path := "/v1/user_profiles/" + id + "/providers/google/data_controls"
	both := "user-profiles-2026-09-04," + wire.BetaGoogleDataControls
	for _, beta := range []string{"user-profiles-2026-09-04", wire.BetaGoogleDataControls + ",user-profiles"} {
		resp, b := profileCall(t, s, beta, "GET", path, "")
		wantError(t, resp, b, 404, wire.ErrNotFound, "")
	}
	resp, b := profileCall(t, s, both, "GET", path, "")
	require.Equal(t, 200, resp.StatusCode, "%s", b)
	for _, tt := range []struct {
		body string
		ok   bool
	}{
		{`{}`, false},
		{`{"cmek":{"type":"enabled"}}`, true},
		{`{"cmek":{"type":"enabled","external_key_ids":{"eu":"k"}}}`, true},
		{`{"cmek":{"type":"enabled","external_key_ids":{"eu":""}}}`, false},
		{`{"cmek":{"type":"disabled"}}`, true},
		{`{"cmek":{"type":"disabled","external_key_ids":{"eu":"k"}}}`, false},
		{`{"cmek":{"type":"on"}}`, false},
		{`{"storage":{"type":"enabled","buckets":{"us":{"bucket_name":"b","project_number":"1"}}}}`, true},
		{`{"storage":{"type":"enabled","buckets":{"us":{"bucket_name":"b"}}}}`, false},
		{`{"storage":{"type":"disabled","buckets":{"us":{"bucket_name":"b","project_number":"1"}}}}`, false},
		{`{"storage":{"type":"disabled"},"extra":1}`, false},
	} {
		resp, b := profileCall(t, s, both, "POST", path, tt.body)
		if tt.ok {
			assert.Equal(t, 200, resp.StatusCode, "%s: %s", tt.body, b)
		} else {
			assert.Equal(t, 400, resp.StatusCode, "%s: %s", tt.body, b)
		}
	}
}
