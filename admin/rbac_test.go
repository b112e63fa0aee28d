package admin_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

func TestRBAC(t *testing.T) {
	s, c := fake(t)
	u := s.Org().AddUser("r@example.com", "R", "user")
	g, err := c.RBACGroups.Create(ctx, admin.RBACGroupParams{Name: "eng"})
	require.NoError(t, err)
	assert.Equal(t, "direct", g.SourceType)
	g, err = c.RBACGroups.Update(ctx, g.ID, admin.RBACGroupParams{Name: "engineering"})
	require.NoError(t, err)
	assert.Equal(t, "engineering", g.Name)
	_, err = c.RBACGroups.Get(ctx, g.ID)
	require.NoError(t, err)
	require.Len(t, collect(t, c.RBACGroups.List(ctx, admin.CursorListParams{})), 1)
	m, err := c.RBACGroups.Members.Add(ctx, g.ID, admin.RBACGroupMemberAddParams{UserID: u})
	require.NoError(t, err)
	assert.Equal(t, "r@example.com", m.Email)
	require.Len(t, collect(t, c.RBACGroups.Members.List(ctx, g.ID, admin.CursorListParams{})), 1)
	md, err := c.RBACGroups.Members.Delete(ctx, g.ID, u)
	require.NoError(t, err)
	assert.Equal(t, u, md.UserID)
	gd, err := c.RBACGroups.Delete(ctx, g.ID)
	require.NoError(t, err)
	assert.Equal(t, g.ID, gd.ID)
	_, err = c.RBACGroups.Create(ctx, admin.RBACGroupParams{})
	assert.Equal(t, "name", fieldOf(err))

	role := s.Org().AddRBACRole("Developer", "built_in",
		mmstest.RBACPermission{Action: "chat", Resource: map[string]any{"type": "organization", "organization_id": mmstest.DefaultOrganizationID}},
		mmstest.RBACPermission{Action: "use", Resource: map[string]any{"type": "connector_tool", "connector_id": "c1", "tool_name": "t"}},
		mmstest.RBACPermission{Action: "grant", Resource: map[string]any{"type": "future_thing", "x": 1}})
	r, err := c.RBACRoles.Get(ctx, role)
	require.NoError(t, err)
	assert.Equal(t, "built_in", r.Source.Type)
	require.Len(t, collect(t, c.RBACRoles.List(ctx, admin.CursorListParams{})), 1)
	perms := collect(t, c.RBACRoles.Permissions.List(ctx, role, admin.CursorListParams{Limit: 2}))
	require.Len(t, perms, 3)
	assert.Equal(t, admin.OrganizationResource{OrganizationID: mmstest.DefaultOrganizationID}, perms[0].Resource)
	assert.Equal(t, admin.ConnectorToolResource{ConnectorID: "c1", ToolName: "t"}, perms[1].Resource)
	unk, ok := perms[2].Resource.(admin.UnknownPermissionResource)
	require.True(t, ok, "%T", perms[2].Resource)
	assert.Equal(t, "future_thing", unk.Type)
	assert.JSONEq(t, `{"type":"future_thing","x":1}`, string(unk.Raw))
}

func TestSpendLimits(t *testing.T) {
	s, c := fake(t)
	u := s.Org().AddUser("s@example.com", "S", "user")
	s.Org().AddSpendSummary(u, admin.PeriodMonthly, "50000", "1234.567")
	s.Org().AddSpendSummary(u, admin.PeriodDaily, "", "0")
	rows := collect(t, c.SpendLimits.Effective(ctx, admin.EffectiveSpendLimitParams{Limit: 1}))
	require.Len(t, rows, 2)
	assert.Equal(t, admin.Decimal("1234.567"), rows[0].PeriodToDateSpend)
	require.NotNil(t, rows[0].Amount)
	assert.Equal(t, admin.Decimal("50000"), *rows[0].Amount)
	assert.Nil(t, rows[1].Amount, "no limit for the period")
	assert.Equal(t, admin.SpendUserActor{UserID: u}, rows[0].Actor)
	assert.Equal(t, admin.UserScope{UserID: u}, rows[0].Scope)
	monthly := collect(t, c.SpendLimits.Effective(ctx, admin.EffectiveSpendLimitParams{Periods: []string{admin.PeriodMonthly}}))
	require.Len(t, monthly, 1)

	id := s.Org().AddIncreaseRequest(u, admin.PeriodMonthly)
	req, err := c.SpendLimitIncreaseRequests.Get(ctx, id)
	require.NoError(t, err)
	assert.Equal(t, "pending", req.Status)
	require.Len(t, collect(t, c.SpendLimitIncreaseRequests.List(ctx, admin.IncreaseRequestListParams{Statuses: []string{"pending"}})), 1)
	ok, err := c.SpendLimitIncreaseRequests.Approve(ctx, id, admin.IncreaseApproveParams{Amount: "75000", SuppressNotification: true})
	require.NoError(t, err)
	assert.Equal(t, "approved", ok.Status)
	require.NotNil(t, ok.SpendLimit)
	assert.Equal(t, admin.Decimal("75000"), *ok.SpendLimit.Amount)
	assert.Equal(t, admin.PeriodMonthly, ok.SpendLimit.Period)
	_, err = c.SpendLimitIncreaseRequests.Deny(ctx, id, admin.IncreaseDenyParams{})
	require.Error(t, err, "an approved request cannot be denied")
	id2 := s.Org().AddIncreaseRequest(u, admin.PeriodDaily)
	no, err := c.SpendLimitIncreaseRequests.Deny(ctx, id2, admin.IncreaseDenyParams{})
	require.NoError(t, err)
	assert.Equal(t, "denied", no.Status)

	for _, tc := range []struct {
		p     admin.IncreaseApproveParams
		field string
	}{
		{admin.IncreaseApproveParams{}, "amount"},
		{admin.IncreaseApproveParams{Amount: "12.50"}, "amount"},
		{admin.IncreaseApproveParams{Amount: "-1"}, "amount"},
		{admin.IncreaseApproveParams{Amount: "1", Period: "yearly"}, "period"},
	} {
		_, err := c.SpendLimitIncreaseRequests.Approve(ctx, id2, tc.p)
		assert.Equal(t, tc.field, fieldOf(err), "%v", err)
	}
	assert.Equal(t, "user_ids", fieldOf(firstErr(c.SpendLimits.Effective(ctx, admin.EffectiveSpendLimitParams{UserIDs: make([]string, 101)}))))
	assert.Equal(t, "period[0]", fieldOf(firstErr(c.SpendLimits.Effective(ctx, admin.EffectiveSpendLimitParams{Periods: []string{"hourly"}}))))
}

func TestAnalytics(t *testing.T) {
	s, _ := fake(t)
	// Analytics accept a plain API key (scope read:analytics).
	c, err := admin.NewClient(append(s.ClientOptions(), option.WithMaxRetries(0))...)
	require.NoError(t, err)
	s.Org().AddAnalyticsRows("skills",
		map[string]any{"skill_name": "pdf", "invocation_count": 12, "distinct_user_count": 3, "product": "chat"},
		map[string]any{"skill_name": "xlsx", "invocation_count": 4, "distinct_user_count": 1, "product": "cowork"})
	s.Org().AddAnalyticsRows("summaries", map[string]any{"starting_at": "2026-03-01T00:00:00Z", "ending_at": "2026-03-02T00:00:00Z",
		"daily_active_user_count": 10, "weekly_active_user_count": 20, "monthly_active_user_count": 30, "assigned_seat_count": 40,
		"pending_invite_count": nil, "daily_adoption_rate": 25.5, "weekly_adoption_rate": 50, "monthly_adoption_rate": 75, "chat_daily_active_user_count": 9})
	rows := collect(t, c.Analytics.Skills(ctx, admin.AnalyticsParams{Date: "2026-03-01", Limit: 1}))
	require.Len(t, rows, 2)
	assert.Equal(t, int64(12), rows[0].InvocationCount)
	assert.Equal(t, "pdf", rows[0].SkillName)
	assert.Equal(t, int64(3), *rows[0].DistinctUserCount)
	chat := collect(t, c.Analytics.Skills(ctx, admin.AnalyticsParams{Date: "2026-03-01", Filters: []string{"product:chat"}}))
	require.Len(t, chat, 1)
	sum := collect(t, c.Analytics.Summaries(ctx, admin.AnalyticsParams{StartingDate: "2026-03-01", EndingDate: "2026-03-08"}))
	require.Len(t, sum, 1)
	assert.Equal(t, 10, sum[0].DailyActiveUserCount)
	assert.Equal(t, 25.5, *sum[0].DailyAdoptionRate)
	assert.Nil(t, sum[0].PendingInviteCount)
	assert.Contains(t, sum[0].Extra, "chat_daily_active_user_count")
	for _, list := range []func() error{
		func() error { return firstErr(c.Analytics.Users(ctx, admin.AnalyticsParams{Date: "2026-03-01"})) },
		func() error {
			return firstErr(c.Analytics.ChatProjects(ctx, admin.AnalyticsParams{Date: "2026-03-01"}))
		},
		func() error { return firstErr(c.Analytics.Connectors(ctx, admin.AnalyticsParams{Date: "2026-03-01"})) },
		func() error {
			return firstErr(c.Analytics.Plugins(ctx, admin.AnalyticsParams{StartingDate: "2026-03-01"}))
		},
		func() error {
			return firstErr(c.Analytics.Artifacts(ctx, admin.AnalyticsParams{Date: "2026-03-01", GroupBy: []string{"product"}}))
		},
	} {
		require.NoError(t, list())
	}
	before := len(s.Requests())
	for _, tc := range []struct {
		err   error
		field string
	}{
		{firstErr(c.Analytics.Skills(ctx, admin.AnalyticsParams{})), "date"},
		{firstErr(c.Analytics.Skills(ctx, admin.AnalyticsParams{Date: "2026-03-01", StartingDate: "2026-03-01"})), "date"},
		{firstErr(c.Analytics.Skills(ctx, admin.AnalyticsParams{Date: "2025-12-31"})), "date"},
		{firstErr(c.Analytics.Skills(ctx, admin.AnalyticsParams{Date: "03/01/2026"})), "date"},
		{firstErr(c.Analytics.Skills(ctx, admin.AnalyticsParams{StartingDate: "2026-01-01", EndingDate: "2027-01-03"})), "ending_date"},
		{firstErr(c.Analytics.Skills(ctx, admin.AnalyticsParams{Date: "2026-03-01", EndingDate: "2026-03-02"})), "ending_date"},
		{firstErr(c.Analytics.Skills(ctx, admin.AnalyticsParams{Date: "2026-03-01", Filters: []string{"model:x"}})), "filter[0]"},
		{firstErr(c.Analytics.Skills(ctx, admin.AnalyticsParams{Date: "2026-03-01", GroupBy: []string{"skill_name"}})), "group_by[0]"},
		{firstErr(c.Analytics.Skills(ctx, admin.AnalyticsParams{Date: "2026-03-01", Order: "up"})), "order"},
		{firstErr(c.Analytics.Artifacts(ctx, admin.AnalyticsParams{StartingDate: "2026-03-01"})), "date"},
		{firstErr(c.Analytics.Summaries(ctx, admin.AnalyticsParams{Date: "2026-03-01"})), "starting_date"},
		{firstErr(c.Analytics.Users(ctx, admin.AnalyticsParams{Date: "2026-03-01", Limit: 1001})), "limit"},
	} {
		assert.Equal(t, tc.field, fieldOf(tc.err), "%v", tc.err)
	}
	assert.Len(t, s.Requests(), before)
	// 366 days is the limit's other side.
	require.NoError(t, firstErr(c.Analytics.Skills(ctx, admin.AnalyticsParams{StartingDate: "2026-01-01", EndingDate: "2027-01-02"})))
}
