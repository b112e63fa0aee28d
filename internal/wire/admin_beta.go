package wire

// Beta names of the Organization API's other beta-only families
// (organization.md §19.1, §19.3–19.7): package admin sends them, the fake
// requires them.
const (
	BetaGoogleDataControls    = "google-managed-data-controls-2026-09-01"
	BetaExternalStorage       = "efs-2026-10-01"
	BetaTelemetryDestinations = "telemetry-destinations-2026-08-11"
	BetaPlugins               = "ce-plugins-2026-09-01"
	BetaManagedSettings       = "ce-claude-code-managed-settings-2026-10-06"
	BetaClaudeTag             = "experimental-claude-tag-2026-10-21"
)

func init() {
	for _, b := range []string{BetaGoogleDataControls, BetaExternalStorage, BetaTelemetryDestinations, BetaPlugins, BetaManagedSettings, BetaClaudeTag} {
		if !IsKnownBeta(b) {
			KnownBetas = append(KnownBetas, b)
		}
	}
}
