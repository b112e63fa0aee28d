package mms_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
)

// errorCode is the error_code of an *mms.Error, or "".
func errorCode(err error) mms.ErrorCode {
	var e *mms.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// TestSessionBudgetRulesAgainstFake: R2's budget rules with their codes:
// no budget for a model without a list price, none added after create or
// after removal, none at or below the cost spent; raising works.
func TestSessionBudgetRulesAgainstFake(t *testing.T) {
	f := newSessionFake(t)
	c, ctx := f.c, context.Background()
	unpriced, err := c.Agents.Create(ctx, mms.AgentCreateParams{Name: "u", Model: mms.AgentModel("unpriced-1")})
	require.NoError(t, err)
	budget := mms.Ptr(mms.BudgetUSD("10"))
	_, err = c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(unpriced.ID), EnvironmentID: f.env, Budget: budget})
	assert.Equal(t, mms.ErrorCodeModelNotBudgetable, errorCode(err))
	_, err = c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(unpriced.ID), EnvironmentID: f.env})
	require.NoError(t, err, "no budget, no list price needed")

	plain, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(f.agent.ID), EnvironmentID: f.env})
	require.NoError(t, err)
	_, err = c.Sessions.Update(ctx, plain.ID, mms.SessionUpdateParams{Budget: mms.Set(mms.BudgetUSD("5"))})
	assert.Equal(t, mms.ErrorCodeBudgetCreateOnly, errorCode(err))

	s, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(f.agent.ID), EnvironmentID: f.env, Budget: budget})
	require.NoError(t, err)
	_, err = c.Sessions.Update(ctx, s.ID, mms.SessionUpdateParams{Budget: mms.Set(mms.BudgetUSD("0"))})
	assert.Equal(t, mms.ErrorCodeBudgetNotRaised, errorCode(err), "0 is not above the cost spent (0)")
	up, err := c.Sessions.Update(ctx, s.ID, mms.SessionUpdateParams{Budget: mms.Set(mms.BudgetUSD("0.01"))})
	require.NoError(t, err)
	assert.Equal(t, "0.01", up.Budget.MaxListCost.Amount)
	up, err = c.Sessions.Update(ctx, s.ID, mms.SessionUpdateParams{Budget: mms.Clear[mms.SessionBudget]()})
	require.NoError(t, err)
	assert.Nil(t, up.Budget)
	_, err = c.Sessions.Update(ctx, s.ID, mms.SessionUpdateParams{Budget: mms.Set(mms.BudgetUSD("20"))})
	assert.Equal(t, mms.ErrorCodeBudgetCreateOnly, errorCode(err), "removal is one-way")
}
