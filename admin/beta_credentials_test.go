package admin_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// TestBetaFamiliesRefuseAPIKey: every beta family that needs an admin
// credential refuses a plain API key before sending anything.
func TestBetaFamiliesRefuseAPIKey(t *testing.T) {
	s := mmstest.NewServer()
	t.Cleanup(s.Close)
	c, err := admin.NewClient(option.WithBaseURL(s.URL), option.WithHTTPClient(s.Client()), option.WithAPIKey("mms-test-key"))
	require.NoError(t, err)
	calls := map[string]func() error{
		"google get": func() error { _, err := c.GoogleDataControls.Get(ctx, "1"); return err },
		"storage":    func() error { _, err := c.ExternalStorage.Get(ctx, "estrg_1"); return err },
		"telemetry": func() error {
			return firstErr(c.TelemetryDestinations.List(ctx, admin.TelemetryDestinationListParams{}))
		},
		"plugin upload": func() error {
			_, err := c.Plugins.Create(ctx, admin.PluginCreateParams{Files: []admin.PluginFile{{Path: "plugin.json", Reader: strings.NewReader("{}")}}})
			return err
		},
		"plugin download": func() error { _, err := c.Plugins.Versions.Download(ctx, "plugin_1", "v"); return err },
		"marketplaces":    func() error { return firstErr(c.PluginMarketplaces.List(ctx, admin.PluginMarketplaceListParams{})) },
		"managed":         func() error { _, err := c.ClaudeCodeSettings.Default.Get(ctx); return err },
		"slack":           func() error { _, err := c.ClaudeTag.Bundles.Get(ctx, "bundle_1"); return err },
	}
	for name, call := range calls {
		assert.ErrorIs(t, call(), admin.ErrCredential, name)
	}
	assert.Empty(t, s.Requests())
}

// TestTelemetryHeaderValuesHidden: header values are secrets, never
// printed with the params.
func TestTelemetryHeaderValuesHidden(t *testing.T) {
	p := admin.TelemetryDestinationParams{EndpointURL: "https://x.example.com", Headers: map[string]mms.Secret{"authorization": mms.NewSecret("Bearer s3cr3t")}}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		assert.NotContains(t, sprintf(verb, p), "s3cr3t", verb)
	}
}

func sprintf(format string, v any) string { return fmt.Sprintf(format, v) }

// TestBetaFamiliesAbsentWithoutBeta: the fake answers 404 to each family
// without its beta, as the service does; the SDK sends it (the other
// tests pass through these routes).
func TestBetaFamiliesAbsentWithoutBeta(t *testing.T) {
	s, _ := fake(t)
	s.Org().AddGoogleProject("1")
	for _, path := range []string{
		"/v1/organizations/providers/google/projects/1/data_controls",
		"/v1/organizations/external_storage",
		"/v1/organizations/telemetry_destinations",
		"/v1/organizations/plugins",
		"/v1/organizations/plugin_marketplaces",
		"/v1/organizations/claude_code/managed_settings/rbac_group_default",
		"/v1/organizations/claude_tag/bundles",
	} {
		assert.Equal(t, 404, rawStatus(t, s, "GET", path), path)
	}
}
