package admin

// initBeta sets up the beta-only families' services.
func (c *Client) initBeta() {
	c.GoogleDataControls = &GoogleDataControlsService{c: c}
	c.ExternalStorage = &ExternalStorageService{c: c}
	c.TelemetryDestinations = &TelemetryDestinationsService{c: c, Workspaces: &TelemetryDestinationWorkspacesService{c: c}}
	c.Plugins = &PluginsService{c: c, Versions: &PluginVersionsService{c: c},
		InstallationSettings: &PluginInstallationSettingsService{c: c}, Shares: &PluginSharesService{c: c}}
	c.PluginMarketplaces = &PluginMarketplacesService{c: c}
	c.ClaudeCodeSettings = &ClaudeCodeSettingsService{Configuration: &ManagedSettingsConfigurationService{c: c},
		Groups: &ManagedSettingsGroupsService{c: c}, Default: &ManagedSettingsDefaultService{c: c}}
	c.ClaudeTag = &ClaudeTagService{SlackChannels: &SlackChannelsService{c: c}, SlackWorkspaces: &SlackWorkspacesService{c: c},
		Bundles: &BundlesService{c: c, Targets: &BundleTargetsService{c: c}}}
	c.ComplianceReview = &ComplianceReviewService{c: c}
}
