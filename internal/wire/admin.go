package wire

// Beta names of the Organization API's beta families (organization.md
// §19, webhooks.md §7): package admin sends them, the fake requires them.
const (
	BetaAnalyticsUsageCost = "analytics-usage-cost-2026-08-24"
	BetaAdminWebhooks      = "webhooks-2026-10-07"
	BetaSpendLimitReads    = "spend-limit-reads-2026-09-26"
	BetaAdminUserSignOut   = "admin-user-sign-out-2026-10-08"
)

func init() {
	for _, b := range []string{BetaAnalyticsUsageCost, BetaAdminWebhooks, BetaSpendLimitReads, BetaAdminUserSignOut} {
		if !IsKnownBeta(b) {
			KnownBetas = append(KnownBetas, b)
		}
	}
}
