package admin_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/admin"
)

func TestSpendLimitExtras(t *testing.T) {
	s, c := fake(t)
	u := s.Org().AddUser("a@example.com", "A", "user")
	l, err := c.SpendLimits.Set(ctx, admin.SpendLimitSetParams{Amount: "5000", Scope: admin.UserScope{UserID: u}, Period: admin.PeriodMonthly})
	require.NoError(t, err)
	assert.Equal(t, admin.Decimal("5000"), *l.Amount)
	again, err := c.SpendLimits.Set(ctx, admin.SpendLimitSetParams{Amount: "6000", Scope: admin.UserScope{UserID: u}, Period: admin.PeriodMonthly})
	require.NoError(t, err)
	assert.Equal(t, l.ID, again.ID, "an upsert on scope and period")
	got, err := c.SpendLimits.Get(ctx, l.ID)
	require.NoError(t, err)
	assert.Equal(t, admin.Decimal("6000"), *got.Amount)
	list := collect(t, c.SpendLimits.List(ctx, admin.SpendLimitListParams{ScopeTypes: []string{"user"}}))
	require.Len(t, list, 1)
	reqs := s.Requests()
	assert.Contains(t, reqs[len(reqs)-1].Header.Get("Vendor-Beta"), "spend-limit-reads-2026-09-26")
	d, err := c.SpendLimits.Delete(ctx, l.ID)
	require.NoError(t, err)
	assert.Equal(t, l.ID, d.ID)
	for _, tc := range []struct {
		p     admin.SpendLimitSetParams
		field string
	}{
		{admin.SpendLimitSetParams{Scope: admin.OrganizationScope{}}, "amount"},
		{admin.SpendLimitSetParams{Amount: "1.5", Scope: admin.OrganizationScope{}}, "amount"},
		{admin.SpendLimitSetParams{Amount: "1"}, "scope"},
		{admin.SpendLimitSetParams{Amount: "1", Scope: admin.SeatTierScope{SeatTier: "x"}}, "scope"},
		{admin.SpendLimitSetParams{Amount: "1", Scope: admin.UserScope{}}, "scope.user_id"},
		{admin.SpendLimitSetParams{Amount: "1", Scope: admin.OrganizationScope{}, Period: "yearly"}, "period"},
	} {
		_, err := c.SpendLimits.Set(ctx, tc.p)
		assert.Equal(t, tc.field, fieldOf(err), "%v", err)
	}
}

func TestUserSignOut(t *testing.T) {
	s, c := fake(t)
	u := s.Org().AddUser("a@example.com", "A", "user")
	owner := s.Org().AddUser("o@example.com", "O", "primary_owner")
	got, err := c.Users.SignOut(ctx, u)
	require.NoError(t, err)
	assert.Equal(t, admin.RoleUser, got.Role)
	_, err = c.Users.SignOut(ctx, owner)
	var apiErr *mms.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 400, apiErr.StatusCode)
	reqs := s.Requests()
	assert.Contains(t, reqs[len(reqs)-1].Header.Get("Vendor-Beta"), "admin-user-sign-out-2026-10-08")
}
