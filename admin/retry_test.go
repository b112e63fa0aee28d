package admin_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// A create whose answer is lost after it applied is not sent again: the
// error matches mms.ErrMaybeApplied and exactly one workspace exists.
func TestCreateAfterUnknownOutcomeIsNotResent(t *testing.T) {
	s, c := fake(t)
	s.InjectFault(mmstest.Fault{Method: "POST", Path: "/v1/organizations/workspaces", Statuses: []int{503}, AfterApply: true})
	_, err := c.Workspaces.Create(ctx, admin.WorkspaceCreateParams{Name: "once"})
	require.ErrorIs(t, err, mms.ErrMaybeApplied)
	assert.Len(t, collect(t, c.Workspaces.List(ctx, admin.WorkspaceListParams{})), 1)
	n := 0
	for _, r := range s.Requests() {
		if r.Method == "POST" && r.Path == "/v1/organizations/workspaces" {
			n++
		}
	}
	assert.Equal(t, 1, n, "sent once")
}

// An update (idempotent) is resent after a 5xx; a delete whose answer was
// lost succeeds on the resend's 404 (the lost attempt's success), with the
// id filled in.
func TestIdempotentRetries(t *testing.T) {
	s, c := fake(t)
	u := s.Org().AddUser("a@example.com", "A", "developer")
	s.Org().AddUser("b@example.com", "B", "admin")
	s.InjectFault(mmstest.Fault{Method: "POST", Path: "/v1/organizations/users/", Statuses: []int{500}})
	got, err := c.Users.Update(ctx, u, admin.UserUpdateParams{Role: admin.RoleBilling}, option.WithMaxRetries(2))
	require.NoError(t, err)
	assert.Equal(t, admin.RoleBilling, got.Role)

	s.InjectFault(mmstest.Fault{Method: "DELETE", Path: "/v1/organizations/users/", Statuses: []int{502}, AfterApply: true})
	var md option.ResponseMetadata
	del, err := c.Users.Delete(ctx, u, option.WithResponseMetadata(&md))
	require.NoError(t, err)
	assert.Equal(t, u, del.ID)
	assert.True(t, md.Resent)

	ws := s.Org().AddWorkspace("w")
	s.InjectFault(mmstest.Fault{Method: "POST", Path: "/v1/organizations/workspaces/" + ws + "/archive", Statuses: []int{502}, AfterApply: true})
	arch, err := c.Workspaces.Archive(ctx, ws)
	require.NoError(t, err)
	assert.NotNil(t, arch.ArchivedAt)
}

// Every record decodes and re-encodes to the JSON it came from, unknown
// members and unknown union variants included.
func TestGoldenRoundTrips(t *testing.T) {
	for name, tc := range map[string]struct {
		into any
		json string
	}{
		"api key":                  {new(admin.APIKey), `{"id":"apikey_1","type":"api_key","name":"k","partial_key_hint":"sk-…abcd","status":"active","created_at":"2026-01-02T03:04:05Z","expires_at":null,"created_by":{"id":"user_1","type":"user"},"principal":{"type":"service_account_actor","service_account_id":"svac_1"},"scope":{"type":"workspace","workspace_id":"wrkspc_1"},"new":1}`},
		"api key unknown scope":    {new(admin.APIKey), `{"id":"apikey_1","type":"api_key","name":"k","partial_key_hint":"h","status":"expired","created_at":"2026-01-02T03:04:05Z","expires_at":"2027-01-02T03:04:05Z","created_by":null,"principal":{"type":"robot_actor","robot":"r"},"scope":{"type":"galaxy","galaxy_id":"g"}}`},
		"workspace":                {new(admin.Workspace), `{"id":"wrkspc_1","type":"workspace","name":"w","display_color":"#112233","tags":{"a":"b"},"data_residency":{"workspace_geo":"us","allowed_inference_geos":["us","global"],"default_inference_geo":"us"},"external_key_id":null,"user_profile_id":null,"compartment_id":"c","created_at":"2026-01-02T03:04:05Z","archived_at":null}`},
		"workspace unrestricted":   {new(admin.Workspace), `{"id":"wrkspc_1","type":"workspace","name":"w","display_color":"#112233","tags":{},"data_residency":{"workspace_geo":"us","allowed_inference_geos":"unrestricted","default_inference_geo":"global"},"external_key_id":"ekey_1","user_profile_id":"uprof_1","compartment_id":"c","created_at":"2026-01-02T03:04:05Z","archived_at":"2026-02-02T03:04:05Z"}`},
		"rate limit":               {new(admin.RateLimit), `{"type":"rate_limit","id":"rl_1","group":{"type":"model_group","id":"rlg_1","display_name":"L"},"limits":[{"type":"requests_per_minute","value":5}],"models":["m"]}`},
		"rate limit unknown group": {new(admin.RateLimit), `{"type":"rate_limit","id":"rl_1","group":{"type":"video","id":"rlg_9"},"limits":[],"models":null}`},
		"external key":             {new(admin.ExternalKey), `{"id":"ekey_1","type":"external_key","provider_config":{"type":"azure","key_name":"k","tenant_id":"t","vault_uri":"https://v","client_id":"c"},"display_name":null,"geo":"us","user_profile_id":null,"attachment":{"type":"attached"},"created_at":"2026-01-02T03:04:05Z","updated_at":"2026-01-02T03:04:05Z"}`},
		"spend summary":            {new(admin.SpendSummary), `{"actor":{"type":"scoped_api_key_actor","scoped_api_key_id":"k"},"spend_limit_id":null,"period":"monthly","amount":null,"currency":"USD","period_to_date_spend":"12.345","scope":{"type":"seat_tier","seat_tier":"premium"},"source":{"type":"usage_tier"}}`},
		"cost row":                 {new(admin.CostRow), `{"starting_at":"2026-03-01T00:00:00Z","ending_at":"2026-03-02T00:00:00Z","group":{"workspace_id":"w","model":null,"cost_type":"tokens"},"cost":{"amount":"1.005","list_amount":"2","currency":"USD","requests":3}}`},
		"issuer":                   {new(admin.FederationIssuer), `{"id":"fdis_1","type":"federation_issuer","name":"n","issuer_url":"https://i","jwks":{"type":"explicit_url","url":"https://k","ca_cert_pem":null},"check_jti":false,"max_jwt_lifetime_seconds":60,"poll_status":{"consecutive_failures":0},"jwks_polling_disabled_at":null,"created_at":"2026-01-02T03:04:05Z","updated_at":"2026-01-02T03:04:05Z","archived_at":null,"created_by_actor_id":"user_1","updated_by_actor_id":null,"archived_by_actor_id":null}`},
	} {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, json.Unmarshal([]byte(tc.json), tc.into))
			back, err := json.Marshal(tc.into)
			require.NoError(t, err)
			var want, got any
			require.NoError(t, json.Unmarshal([]byte(tc.json), &want))
			require.NoError(t, json.Unmarshal(back, &got))
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("round trip (-want +got):\n%s", d)
			}
		})
	}
}
