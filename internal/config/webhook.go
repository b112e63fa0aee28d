package config

import (
	"encoding/base64"
	"errors"
	"strings"
	"time"
)

// Webhook holds what verifying webhook deliveries needs (option.WithWebhook…).
type Webhook struct {
	// Keys are the HMAC keys of the secrets given, decoded; nil when none
	// was given (the root then reads $VENDOR_WEBHOOK_SIGNING_KEY).
	Keys [][]byte
	// Tolerance is the largest allowed distance between a delivery's
	// timestamp and the clock; 0 means the default (5 minutes).
	Tolerance time.Duration
	// MaxBody is the largest body accepted; 0 means the default.
	MaxBody int64
	// DedupSize is how many delivery ids a webhook handler remembers; 0
	// means the default.
	DedupSize int
}

// errWebhookSecret says what a webhook secret must look like, and never
// quotes the value.
var errWebhookSecret = errors.New("is not a webhook signing secret (whsec_ followed by standard base64)")

// WebhookKey decodes a signing secret into its HMAC key: the whsec_ prefix
// (optional, as the Standard Webhooks library allows) stripped, the rest
// standard base64. The error never holds the secret.
func WebhookKey(secret string) ([]byte, error) {
	s := strings.TrimPrefix(secret, "whsec_")
	if s == "" {
		return nil, errWebhookSecret
	}
	key, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(key) == 0 {
		return nil, errWebhookSecret
	}
	return key, nil
}
