package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// TestBillingPolicy: bill_to user_profile needs the profile header (the SDK
// refuses before sending, the fake answers 400 alike); with it, or with
// bill_to self, the request goes with its beta.
func TestBillingPolicy(t *testing.T) {
	ctx := context.Background()
	p := mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 64, Messages: []mms.MessageParam{mms.UserText("hi")},
		BillingPolicy: &mms.BillingPolicy{BillTo: mms.BillToUserProfile}}

	c, srv := newFake(t)
	_, err := c.Messages.Create(ctx, p)
	var ve *mms.ValidationError
	require.True(t, errors.As(err, &ve), "%v", err)
	assert.Equal(t, "billing_policy.bill_to", ve.Field)
	_, err = c.Messages.CountTokens(ctx, mms.MessageCountTokensParams{Model: p.Model, Messages: p.Messages, BillingPolicy: p.BillingPolicy})
	require.True(t, errors.As(err, &ve), "%v", err)
	assert.Empty(t, srv.Requests())

	var raw json.RawMessage
	err = c.Do(ctx, http.MethodPost, "/v1/messages", &p, &raw, option.WithBeta("user-profiles-billing-2026-10-01"))
	wantFakeRefusal(t, err, "billing_policy.bill_to")

	for _, tt := range []struct {
		name string
		bp   *mms.BillingPolicy
		opts []option.RequestOption
	}{
		{"self", &mms.BillingPolicy{BillTo: mms.BillToSelf}, nil},
		{"user profile with the header", &mms.BillingPolicy{BillTo: mms.BillToUserProfile}, []option.RequestOption{option.WithUserProfileID("uprof_1")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := newFake(t)
			q := p
			q.BillingPolicy = tt.bp
			_, err := c.Messages.Create(ctx, q, tt.opts...)
			require.NoError(t, err)
			reqs := srv.Requests()
			require.Len(t, reqs, 1)
			assert.Contains(t, reqs[0].Header.Get(wire.HeaderBeta), "user-profiles-billing-2026-10-01")
			assert.Contains(t, string(reqs[0].Body), `"billing_policy":{"type":"billing_policy","bill_to":"`+string(tt.bp.BillTo)+`"}`)
		})
	}
}
