package admin_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/admin"
)

func TestWebhookEndpoints(t *testing.T) {
	s, c := fake(t)
	ep, err := c.Webhooks.Create(ctx, admin.WebhookCreateParams{URL: "https://hooks.example.com/mms", EnabledEvents: []string{"external_key.failed"}, Name: "ops"})
	require.NoError(t, err)
	secret := ep.SigningSecret.Reveal()
	assert.True(t, strings.HasPrefix(secret, "whsec_"))
	assert.NotContains(t, fmt.Sprintf("%v %+v", ep, ep), secret, "the secret never prints")
	assert.Equal(t, "enabled", ep.State)
	got, err := c.Webhooks.Get(ctx, ep.ID)
	require.NoError(t, err)
	assert.True(t, got.SigningSecret.IsZero(), "reads never return the secret")
	up, err := c.Webhooks.Update(ctx, ep.ID, admin.WebhookUpdateParams{State: "disabled", EnabledEvents: nil})
	require.NoError(t, err)
	assert.Equal(t, "disabled", up.State)
	assert.Equal(t, []string{"external_key.failed"}, up.EnabledEvents)
	ns, err := c.Webhooks.RegenerateSigningSecret(ctx, ep.ID)
	require.NoError(t, err)
	assert.NotEqual(t, secret, ns.SigningSecret.Reveal())
	ep2, err := c.Webhooks.Create(ctx, admin.WebhookCreateParams{URL: "https://b.example.com", EnabledEvents: admin.WebhookEventTypes})
	require.NoError(t, err)
	desc := collect(t, c.Webhooks.List(ctx, admin.WebhookListParams{Limit: 1}))
	require.Len(t, desc, 2)
	assert.Equal(t, ep2.ID, desc[0].ID, "newest first by default")
	asc := collect(t, c.Webhooks.List(ctx, admin.WebhookListParams{Order: "asc"}))
	assert.Equal(t, ep.ID, asc[0].ID)
	d, err := c.Webhooks.Delete(ctx, ep.ID)
	require.NoError(t, err)
	assert.Equal(t, ep.ID, d.ID)
	reqs := s.Requests()
	for _, r := range reqs {
		assert.Contains(t, r.Header.Get("Vendor-Beta"), "webhooks-2026-10-07", r.Path)
	}
	for _, tc := range []struct {
		err   error
		field string
	}{
		{func() error {
			_, err := c.Webhooks.Create(ctx, admin.WebhookCreateParams{URL: "http://x", EnabledEvents: []string{"external_key.failed"}})
			return err
		}(), "url"},
		{func() error {
			_, err := c.Webhooks.Create(ctx, admin.WebhookCreateParams{URL: "https://x"})
			return err
		}(), "enabled_events"},
		{func() error {
			_, err := c.Webhooks.Create(ctx, admin.WebhookCreateParams{URL: "https://x", EnabledEvents: []string{"message.created"}})
			return err
		}(), "enabled_events[0]"},
		{func() error {
			_, err := c.Webhooks.Update(ctx, "e", admin.WebhookUpdateParams{State: "paused"})
			return err
		}(), "state"},
		{firstErr(c.Webhooks.List(ctx, admin.WebhookListParams{Limit: 101})), "limit"},
	} {
		assert.Equal(t, tc.field, fieldOf(tc.err), "%v", tc.err)
	}
	assert.Len(t, s.Requests(), len(reqs))
	require.NoError(t, firstErr(c.Webhooks.List(ctx, admin.WebhookListParams{Limit: 100})))
}
