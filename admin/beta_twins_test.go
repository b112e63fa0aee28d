package admin_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// roundTrip decodes doc into a T and checks it encodes back to doc.
func roundTrip[T any](t *testing.T, doc string) T {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal([]byte(doc), &v))
	out, err := json.Marshal(v)
	require.NoError(t, err)
	assert.JSONEq(t, doc, string(out))
	return v
}

func TestBetaTwinMembers(t *testing.T) {
	ws := roundTrip[admin.Workspace](t, `{"type":"workspace","id":"wrkspc_1","name":"w","display_color":"#000000","tags":{},
		"data_residency":{"workspace_geo":"us","allowed_inference_geos":"unrestricted","default_inference_geo":"global"},
		"external_key_id":null,"user_profile_id":null,"compartment_id":"c","created_at":"2026-10-01T00:00:00Z","archived_at":null,
		"inference_data_privacy":{"human_review":{"type":"disabled"},"safeguards_storage":{"type":"internal"},
		"transcripts_storage":{"type":"external","external_storage_id":"estrg_1"}}}`)
	require.NotNil(t, ws.InferenceDataPrivacy)
	assert.Equal(t, "disabled", ws.InferenceDataPrivacy.HumanReview.Type)
	assert.IsType(t, admin.InternalDataStorage{}, ws.InferenceDataPrivacy.SafeguardsStorage)
	assert.Equal(t, admin.ExternalDataStorage{ExternalStorageID: "estrg_1"}, ws.InferenceDataPrivacy.TranscriptsStorage)

	cs := roundTrip[admin.ComplianceSettings](t, `{"type":"compliance_settings","state":{"type":"enabled"},"access_transparency":{"type":"enabled"}}`)
	assert.Equal(t, "enabled", cs.AccessTransparency.Type)
	plain := roundTrip[admin.ComplianceSettings](t, `{"type":"compliance_settings","state":{"type":"disabled"}}`)
	assert.Nil(t, plain.AccessTransparency)

	var rule admin.FederationRule
	require.NoError(t, json.Unmarshal([]byte(`{"type":"federation_rule","id":"fdrl_1","attributes":null,"workspace_id":"wrkspc_1"}`), &rule))
	assert.Nil(t, rule.Attributes)
	assert.Equal(t, "wrkspc_1", *rule.WorkspaceID)
}

func TestWorkspaceInferenceDataPrivacy(t *testing.T) {
	s, c := fake(t)
	create := func(d *admin.InferenceDataPrivacy) error {
		_, err := c.Workspaces.Create(ctx, admin.WorkspaceCreateParams{Name: "w", InferenceDataPrivacy: d})
		return err
	}
	for _, tc := range []struct {
		name, field string
		err         error
	}{
		{"review without type", "inference_data_privacy.human_review.type", create(&admin.InferenceDataPrivacy{HumanReview: &admin.TypeOnly{}})},
		{"external without id", "inference_data_privacy.transcripts_storage.external_storage_id",
			create(&admin.InferenceDataPrivacy{TranscriptsStorage: admin.ExternalDataStorage{}})},
		{"unknown storage", "inference_data_privacy.safeguards_storage", func() error {
			_, err := c.Workspaces.Update(ctx, "wrkspc_1", admin.WorkspaceUpdateParams{InferenceDataPrivacy: &admin.InferenceDataPrivacy{
				SafeguardsStorage: admin.UnknownDataStorage{Type: "tape"}}})
			return err
		}()},
	} {
		assert.Equal(t, tc.field, fieldOf(tc.err), "%s: %v", tc.name, tc.err)
	}
	assert.Empty(t, s.Requests())
	_, err := c.Workspaces.Create(ctx, admin.WorkspaceCreateParams{Name: "plain"})
	require.NoError(t, err)
	assert.Empty(t, betaOf(t, s), "no beta without the member")
	_ = create(&admin.InferenceDataPrivacy{SafeguardsStorage: admin.InternalDataStorage{}}) // the fake does not model the member
	assert.Equal(t, admin.BetaExternalStorage, betaOf(t, s))
	assert.Contains(t, string(s.Requests()[1].Body), `"inference_data_privacy":{"safeguards_storage":{"type":"internal"}}`)
	assert.Equal(t, wire.BetaExternalStorage, admin.BetaExternalStorage)
}

// TestBetaUnionsKeepUnknownVariants: a variant this SDK version cannot
// name decodes to the union's Unknown variant and encodes back as it came.
func TestBetaUnionsKeepUnknownVariants(t *testing.T) {
	st := roundTrip[admin.ExternalStorage](t, `{"type":"external_storage","id":"estrg_1","display_name":null,
		"provider_config":{"type":"azure","container":"c"},"status":{"type":"frozen","since":"x"},"setup_template_version":null,
		"user_profile_id":null,"created_at":"2026-10-01T00:00:00Z","updated_at":"2026-10-01T00:00:00Z"}`)
	assert.Equal(t, "azure", st.ProviderConfig.(admin.UnknownStorageProvider).Type)
	assert.Equal(t, "frozen", st.Status.(admin.UnknownStorageStatus).Type)
	g := roundTrip[admin.GoogleDataControls](t, `{"type":"google_managed_project_data_controls","project_number":"1",
		"cmek":{"type":"rotating"},"storage":{"type":"paused"},"updated_at":"2026-10-01T00:00:00Z"}`)
	assert.IsType(t, admin.UnknownGoogleCMEK{}, g.CMEK)
	assert.IsType(t, admin.UnknownGoogleStorage{}, g.Storage)
	ws := roundTrip[admin.InferenceDataPrivacy](t, `{"transcripts_storage":{"type":"archive"}}`)
	assert.IsType(t, admin.UnknownDataStorage{}, ws.TranscriptsStorage)
}
