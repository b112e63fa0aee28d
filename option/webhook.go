package option

import (
	"time"

	"github.com/mms-sdk/mms-go/internal/config"
)

// WithWebhookSecret sets the signing secrets webhook deliveries are
// verified with (client.Webhooks.Unwrap and Handler), replacing
// $VENDOR_WEBHOOK_SIGNING_KEY and any secrets given before. A secret is
// "whsec_" followed by standard base64, as the service returns it (the
// prefix may be left out). A delivery is authentic when it is signed with
// any of them, so while a secret is rotated give both the old and the new
// one. A malformed secret is an error naming its position, never its value.
func WithWebhookSecret(secrets ...string) RequestOption {
	return func(c *config.Config) error {
		if len(secrets) == 0 {
			return fail("WithWebhookSecret: no secret given")
		}
		keys := make([][]byte, 0, len(secrets))
		for i, s := range secrets {
			k, err := config.WebhookKey(s)
			if err != nil {
				return fail("WithWebhookSecret: secret %d %w", i+1, err)
			}
			keys = append(keys, k)
		}
		c.Webhook.Keys = keys
		return nil
	}
}

// WithWebhookTolerance sets how far a delivery's webhook-timestamp may be
// from the receiver's clock, in the past or the future (default 5 minutes,
// the Standard Webhooks default the service's SDKs keep), counted in whole
// seconds as the header is. A delivery outside it is refused as a replay
// or a clock problem.
func WithWebhookTolerance(d time.Duration) RequestOption {
	return func(c *config.Config) error {
		if d <= 0 {
			return fail("WithWebhookTolerance: %v is not positive", d)
		}
		c.Webhook.Tolerance = d
		return nil
	}
}

// WithWebhookMaxBody sets the largest webhook delivery body accepted, in
// bytes (default 1 MiB; deliveries carry ids only and are far smaller).
// A larger body is refused before any verification work.
func WithWebhookMaxBody(n int64) RequestOption {
	return func(c *config.Config) error {
		if n <= 0 {
			return fail("WithWebhookMaxBody: %d is not positive", n)
		}
		c.Webhook.MaxBody = n
		return nil
	}
}

// WithWebhookDedupSize sets how many recent deliveries a webhook handler
// (client.Webhooks.Handler) remembers to drop redeliveries (default
// 10,000); the oldest is forgotten first.
func WithWebhookDedupSize(n int) RequestOption {
	return func(c *config.Config) error {
		if n <= 0 {
			return fail("WithWebhookDedupSize: %d is not positive", n)
		}
		c.Webhook.DedupSize = n
		return nil
	}
}
