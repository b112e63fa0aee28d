package admin_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// seedActors adds usage by two actors on 2 March.
func seedActors(s *mmstest.Server) {
	day := march.AddDate(0, 0, 1)
	for i, u := range []struct {
		actor, amount string
		req           int64
	}{{"user_a", "0.25", 1}, {"user_b", "0.125", 7}, {"user_a", "0.005", 2}} {
		s.Org().AddUsage(mmstest.UsageRecord{Time: day.Add(time.Duration(i) * time.Hour), Group: map[string]string{"actor": u.actor, "model": "mms-large-1"},
			Requests: u.req, UncachedInputTokens: 10 * u.req, OutputTokens: u.req, Amount: u.amount, ListAmount: u.amount})
	}
}

func TestLegacyReports(t *testing.T) {
	s, c := fake(t)
	seedUsage(s)
	ten := admin.ReportParams{StartingAt: march, EndingAt: march.AddDate(0, 0, 10), BucketWidth: admin.BucketDay, GroupBy: []string{admin.DimModel}, Limit: 3}

	// Usage report: ten daily buckets (empty ones too), paged by three.
	buckets := collect(t, c.Reports.UsageReport(ctx, ten))
	require.Len(t, buckets, 10)
	assert.Equal(t, march, buckets[0].StartingAt.UTC())
	assert.Equal(t, 24*time.Hour, buckets[0].EndingAt.Sub(buckets[0].StartingAt))
	require.Len(t, buckets[0].Results, 1)
	assert.Equal(t, "mms-large-1", *buckets[0].Results[0].Model)
	assert.Equal(t, int64(110), buckets[0].Results[0].TotalTokens)
	assert.True(t, buckets[0].Results[0].StartingAt.IsZero(), "a bucket bounds its results")
	assert.Empty(t, buckets[9].Results)
	reqs := s.Requests()
	last := reqs[len(reqs)-1]
	assert.Empty(t, last.Header.Get("Vendor-Beta"), "the legacy reports send no beta")
	assert.Equal(t, "1d", must(url.ParseQuery(last.RawQuery)).Get("bucket_width"))
	assert.Empty(t, must(url.ParseQuery(last.RawQuery)).Get("time_bucket_width"))

	// Cost report: exact decimals, ranked by spend in a bucket.
	cb := collect(t, c.Reports.CostReport(ctx, admin.ReportParams{StartingAt: march, EndingAt: march.AddDate(0, 1, 0), GroupBy: []string{admin.DimWorkspaceID, admin.DimModel}}))
	require.Len(t, cb, 1)
	require.Len(t, cb[0].Results, 4)
	assert.Equal(t, admin.Decimal("1.005"), cb[0].Results[0].Amount)
	var a admin.LegacyCostRow
	for _, r := range cb[0].Results {
		if r.Extra["workspace_id"] != nil && string(r.Extra["workspace_id"]) == `"wrkspc_a"` && *r.Model == "mms-large-1" {
			a = r
		}
	}
	assert.Equal(t, admin.Decimal("0.305"), a.Amount, "exact sum of 0.10 and 0.205")
	assert.Equal(t, "USD", a.Currency)

	// Per-user reports: one row per actor over the range.
	seedActors(s)
	day := admin.ReportParams{StartingAt: march.AddDate(0, 0, 1), EndingAt: march.AddDate(0, 0, 2)}
	users := collect(t, c.Reports.UserUsageReport(ctx, admin.ReportParams{StartingAt: day.StartingAt, EndingAt: day.EndingAt, Filters: map[string][]string{"actor_ids": {"user_a", "user_b"}}, Limit: 1}))
	require.Len(t, users, 2)
	assert.JSONEq(t, `"user_b"`, string(users[0].Actor), "ranked by requests")
	assert.Equal(t, int64(7), users[0].Requests)
	assert.Equal(t, int64(3), users[1].Requests)
	assert.Equal(t, day.StartingAt, users[0].StartingAt.UTC())
	assert.Equal(t, day.EndingAt, users[0].EndingAt.UTC())
	costs := collect(t, c.Reports.UserCostReport(ctx, admin.ReportParams{StartingAt: day.StartingAt, EndingAt: day.EndingAt, Filters: map[string][]string{"actor_ids": {"user_a", "user_b"}}}))
	require.Len(t, costs, 2)
	assert.JSONEq(t, `"user_a"`, string(costs[0].Actor), "ranked by spend")
	assert.Equal(t, admin.Decimal("0.255"), costs[0].Amount)
	assert.Equal(t, admin.Decimal("0.125"), costs[1].Amount)
}

func TestReportPages(t *testing.T) {
	s, c := fake(t)
	seedUsage(s)
	p := admin.ReportParams{StartingAt: march, EndingAt: march.AddDate(0, 0, 10), BucketWidth: admin.BucketDay, Limit: 4}
	page, err := c.Reports.UsageReportPage(ctx, p)
	require.NoError(t, err)
	require.Len(t, page.Data, 4)
	require.NotNil(t, page.DataRefreshedAt, "data_refreshed_at is surfaced")
	assert.False(t, page.DataRefreshedAt.IsZero())
	assert.True(t, page.HasMore)
	require.NotNil(t, page.NextPage)
	n := len(page.Data)
	for page.HasMore {
		p.Page = *page.NextPage
		page, err = c.Reports.UsageReportPage(ctx, p)
		require.NoError(t, err)
		n += len(page.Data)
	}
	assert.Equal(t, 10, n)
	assert.Nil(t, page.NextPage)

	up, err := c.Reports.UsagePage(ctx, admin.ReportParams{StartingAt: march, EndingAt: march.AddDate(0, 1, 0), GroupBy: []string{admin.DimModel}, Limit: 1})
	require.NoError(t, err)
	require.Len(t, up.Data, 1)
	assert.NotNil(t, up.DataRefreshedAt)
	assert.True(t, up.HasMore)
	reqs := s.Requests()
	assert.Contains(t, reqs[len(reqs)-1].Header.Get("Vendor-Beta"), "analytics-usage-cost-2026-08-24")
	cp, err := c.Reports.CostPage(ctx, admin.ReportParams{StartingAt: march, EndingAt: march.AddDate(0, 1, 0)})
	require.NoError(t, err)
	require.Len(t, cp.Data, 1)
	assert.Equal(t, admin.Decimal("1.420"), cp.Data[0].Cost.Amount)
	assert.False(t, cp.HasMore)
	ucp, err := c.Reports.UserCostReportPage(ctx, admin.ReportParams{StartingAt: march, EndingAt: march.AddDate(0, 1, 0)})
	require.NoError(t, err)
	assert.NotNil(t, ucp.DataRefreshedAt)
	uup, err := c.Reports.UserUsageReportPage(ctx, admin.ReportParams{StartingAt: march, EndingAt: march.AddDate(0, 1, 0)})
	require.NoError(t, err)
	assert.Len(t, uup.Data, 1)
	cbp, err := c.Reports.CostReportPage(ctx, admin.ReportParams{StartingAt: march, EndingAt: march.AddDate(0, 1, 0)})
	require.NoError(t, err)
	assert.Len(t, cbp.Data, 1)

	// Invalid params: the field, nothing sent.
	before := len(s.Requests())
	_, err = c.Reports.UserUsageReportPage(ctx, admin.ReportParams{StartingAt: march, BucketWidth: admin.BucketDay})
	assert.Equal(t, "bucket_width", fieldOf(err))
	_, err = c.Reports.UsagePage(ctx, admin.ReportParams{})
	assert.Equal(t, "starting_at", fieldOf(err))
	assert.Len(t, s.Requests(), before)
}

func TestLegacyReportValidation(t *testing.T) {
	s, c := fake(t)
	end := march.Add(time.Hour)
	for _, tc := range []struct {
		name  string
		err   error
		field string
	}{
		{"usage needs starting_at", firstErr(c.Reports.UsageReport(ctx, admin.ReportParams{})), "starting_at"},
		{"ending_at equal", firstErr(c.Reports.CostReport(ctx, admin.ReportParams{StartingAt: march, EndingAt: march})), "ending_at"},
		{"bucket width", firstErr(c.Reports.UsageReport(ctx, admin.ReportParams{StartingAt: march, BucketWidth: "1w"})), "bucket_width"},
		{"per-user usage takes no bucket", firstErr(c.Reports.UserUsageReport(ctx, admin.ReportParams{StartingAt: march, BucketWidth: admin.BucketHour})), "bucket_width"},
		{"per-user cost takes no bucket", firstErr(c.Reports.UserCostReport(ctx, admin.ReportParams{StartingAt: march, BucketWidth: admin.BucketHour})), "bucket_width"},
		{"cost_type is a cost dimension", firstErr(c.Reports.UsageReport(ctx, admin.ReportParams{StartingAt: march, GroupBy: []string{admin.DimCostType}})), "group_by[0]"},
		{"usage order_by", firstErr(c.Reports.UserUsageReport(ctx, admin.ReportParams{StartingAt: march, OrderBy: "amount"})), "order_by"},
		{"filter value", firstErr(c.Reports.UserCostReport(ctx, admin.ReportParams{StartingAt: march, Filters: map[string][]string{"service_tiers": {"gold"}}})), "service_tiers[0]"},
		{"limit 1001", firstErr(c.Reports.CostReport(ctx, admin.ReportParams{StartingAt: march, Limit: 1001})), "limit"},
		{"limit -1", firstErr(c.Reports.UserCostReport(ctx, admin.ReportParams{StartingAt: march, Limit: -1})), "limit"},
	} {
		assert.Equal(t, tc.field, fieldOf(tc.err), tc.name)
	}
	assert.Empty(t, s.Requests(), "nothing sent")
	// The other side of each bound is sent and served.
	for _, err := range []error{
		firstErr(c.Reports.UsageReport(ctx, admin.ReportParams{StartingAt: march, EndingAt: end, BucketWidth: admin.BucketMinute, Limit: 1000})),
		firstErr(c.Reports.CostReport(ctx, admin.ReportParams{StartingAt: march, EndingAt: end, GroupBy: []string{admin.DimCostType}, Limit: 1})),
		firstErr(c.Reports.UserUsageReport(ctx, admin.ReportParams{StartingAt: march, EndingAt: end, OrderBy: "requests"})),
		firstErr(c.Reports.UserCostReport(ctx, admin.ReportParams{StartingAt: march, EndingAt: end, Filters: map[string][]string{"service_tiers": {"batch"}}})),
	} {
		require.NoError(t, err)
	}
	assert.Len(t, s.Requests(), 4)
}

// must is v, panicking on err.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A page whose data_refreshed_at is null gives nil; the last page (no
// next_page) has no more.
func TestReportPageNullRefresh(t *testing.T) {
	srv := reportServer(3, 2)
	defer srv.Close()
	c, err := admin.NewClient(option.WithBaseURL(srv.URL), option.WithHTTPClient(srv.Client()), option.WithAdminKey("test-admin-key"))
	require.NoError(t, err)
	p := admin.ReportParams{StartingAt: march, Limit: 2}
	page, err := c.Reports.CostPage(ctx, p)
	require.NoError(t, err)
	assert.Nil(t, page.DataRefreshedAt)
	require.Len(t, page.Data, 2)
	assert.True(t, page.HasMore)
	p.Page = *page.NextPage
	page, err = c.Reports.CostPage(ctx, p)
	require.NoError(t, err)
	require.Len(t, page.Data, 1)
	assert.False(t, page.HasMore)
	assert.Nil(t, page.NextPage)
}
