package mms

import (
	"bytes"
	"cmp"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/option"
)

// EnvWebhookSigningKey holds the webhook signing secret when no
// option.WithWebhookSecret gives one; several secrets (while one is
// rotated) are separated by spaces.
const EnvWebhookSigningKey = "VENDOR_WEBHOOK_SIGNING_KEY"

// The webhook defaults (spec webhooks.md §2.3); options change them.
const (
	// DefaultWebhookTolerance is how far a delivery's timestamp may be
	// from the receiver's clock, either way: the Standard Webhooks
	// default, which the service's SDKs keep.
	DefaultWebhookTolerance = 5 * time.Minute
	// DefaultWebhookMaxBody is the largest delivery body accepted.
	// Deliveries carry ids only (a few hundred bytes).
	DefaultWebhookMaxBody = 1 << 20
	// DefaultWebhookDedupSize is how many recent deliveries a webhook
	// handler remembers to drop redeliveries.
	DefaultWebhookDedupSize = 10_000
)

// The headers of a delivery (spec webhooks.md §2.1), canonical form.
const (
	headerWebhookID        = "Webhook-Id"
	headerWebhookTimestamp = "Webhook-Timestamp"
	headerWebhookSignature = "Webhook-Signature"
)

// ErrWebhookSignature matches every error of a delivery that failed
// verification: a missing header, a timestamp that is not decimal seconds
// or is outside the tolerance, no matching signature. Each of those is
// also its own error below, so errors.Is tells them apart. A body over the
// bound ([ErrWebhookBodyTooLarge]) and a missing or malformed secret
// ([ErrWebhookNoSecret]) are not verification failures and do not match.
var ErrWebhookSignature = errors.New("mms: webhook delivery failed verification")

// The verification failures, each matching [ErrWebhookSignature].
var (
	// ErrWebhookMissingHeader: webhook-id, webhook-timestamp or
	// webhook-signature is absent or empty.
	ErrWebhookMissingHeader error = &webhookFailure{"a webhook header is missing"}
	// ErrWebhookInvalidTimestamp: webhook-timestamp is not decimal Unix
	// seconds.
	ErrWebhookInvalidTimestamp error = &webhookFailure{"webhook-timestamp is not decimal Unix seconds"}
	// ErrWebhookTimestampTooOld: webhook-timestamp is further in the past
	// than the tolerance (a replay, or a delivery held up).
	ErrWebhookTimestampTooOld error = &webhookFailure{"webhook-timestamp is older than the tolerance"}
	// ErrWebhookTimestampTooNew: webhook-timestamp is further in the
	// future than the tolerance (a clock out of step).
	ErrWebhookTimestampTooNew error = &webhookFailure{"webhook-timestamp is further in the future than the tolerance"}
	// ErrWebhookNoMatchingSignature: no v1 entry of webhook-signature is
	// the HMAC of the delivery under any configured secret.
	ErrWebhookNoMatchingSignature error = &webhookFailure{"no webhook-signature entry matches"}
)

// ErrWebhookBodyTooLarge is the error of a delivery body larger than the
// bound (option.WithWebhookMaxBody, default [DefaultWebhookMaxBody]),
// refused before any verification work. It does not match
// [ErrWebhookSignature].
var ErrWebhookBodyTooLarge = errors.New("mms: webhook body is larger than the bound")

// ErrWebhookNoSecret is the error of verifying without a usable signing
// secret: none given by option.WithWebhookSecret or
// $VENDOR_WEBHOOK_SIGNING_KEY, or the variable's value is not a secret. It
// is the receiver's configuration, not the delivery, that is wrong, so it
// does not match [ErrWebhookSignature].
var ErrWebhookNoSecret = errors.New("mms: no webhook signing secret")

// webhookFailure is a verification failure: its own error, and
// ErrWebhookSignature for errors.Is.
type webhookFailure struct{ msg string }

func (e *webhookFailure) Error() string { return "mms: " + e.msg }

// Is makes every verification failure match ErrWebhookSignature.
func (e *webhookFailure) Is(target error) bool { return target == ErrWebhookSignature }

// WebhooksService verifies and decodes webhook deliveries (spec
// webhooks.md: the Standard Webhooks scheme), serves them as an
// http.Handler ([WebhooksService.Handler]) and fetches the object an event
// names ([WebhooksService.Fetch]). It sends nothing to the service except
// in Fetch. Reach it as client.Webhooks. The organization's webhook
// endpoints are managed through package admin.
type WebhooksService struct {
	client *Client
	// envKeys are the keys of $VENDOR_WEBHOOK_SIGNING_KEY, read when the
	// client was built; envErr says why the variable is unusable.
	envKeys [][]byte
	envErr  error
}

func newWebhooksService(c *Client) *WebhooksService {
	s := &WebhooksService{client: c}
	if v := strings.Fields(os.Getenv(EnvWebhookSigningKey)); len(v) > 0 {
		for i, secret := range v {
			k, err := config.WebhookKey(secret)
			if err != nil {
				s.envKeys, s.envErr = nil, fmt.Errorf("%w: secret %d of $%s %w", ErrWebhookNoSecret, i+1, EnvWebhookSigningKey, err)
				break
			}
			s.envKeys = append(s.envKeys, k)
		}
	}
	return s
}

// webhookSettings is what one verification uses, resolved from the
// client's configuration and the call's options.
type webhookSettings struct {
	keys      [][]byte
	tolerance time.Duration
	maxBody   int64
	dedup     int
	now       func() time.Time
}

func (s *WebhooksService) settings(opts []option.RequestOption) (webhookSettings, error) {
	cfg := s.client.cfg
	if len(opts) > 0 {
		cfg = cfg.Clone()
		if err := config.Apply(cfg, opts); err != nil {
			return webhookSettings{}, err
		}
	}
	w := webhookSettings{keys: cfg.Webhook.Keys, tolerance: cfg.Webhook.Tolerance, maxBody: cfg.Webhook.MaxBody,
		dedup: cfg.Webhook.DedupSize, now: cfg.Now}
	if w.keys == nil {
		if s.envErr != nil {
			return w, s.envErr
		}
		w.keys = s.envKeys
	}
	if len(w.keys) == 0 {
		return w, fmt.Errorf("%w: pass option.WithWebhookSecret or set $%s", ErrWebhookNoSecret, EnvWebhookSigningKey)
	}
	w.tolerance = cmp.Or(w.tolerance, DefaultWebhookTolerance)
	w.maxBody = cmp.Or(w.maxBody, DefaultWebhookMaxBody)
	w.dedup = cmp.Or(w.dedup, DefaultWebhookDedupSize)
	if w.now == nil {
		w.now = time.Now
	}
	return w, nil
}

// Unwrap verifies a webhook delivery and decodes it. payload is the body
// exactly as received (before any parsing or re-encoding) and header the
// request's headers. The checks run in the spec's order, and the body is
// parsed only once it is proven authentic:
//
//   - the body is at most the bound (option.WithWebhookMaxBody), else
//     [ErrWebhookBodyTooLarge];
//   - webhook-id, webhook-timestamp and webhook-signature are present, else
//     [ErrWebhookMissingHeader];
//   - the timestamp is decimal Unix seconds ([ErrWebhookInvalidTimestamp])
//     within the tolerance of the clock (option.WithWebhookTolerance,
//     default 5 minutes; [ErrWebhookTimestampTooOld],
//     [ErrWebhookTimestampTooNew]);
//   - one v1 entry of webhook-signature is HMAC-SHA256 of
//     "{id}.{timestamp}.{body}" under one of the secrets, compared in
//     constant time, else [ErrWebhookNoMatchingSignature]. Entries of
//     other versions are skipped.
//
// The secrets are option.WithWebhookSecret's (on the client or this
// call), else $VENDOR_WEBHOOK_SIGNING_KEY's; without one, Unwrap fails
// with [ErrWebhookNoSecret]. Every verification failure matches
// [ErrWebhookSignature]; no error holds a secret. A verified body that is
// not an event envelope is an error matching none of these.
func (s *WebhooksService) Unwrap(payload []byte, header http.Header, opts ...option.RequestOption) (*Webhook, error) {
	w, err := s.settings(opts)
	if err != nil {
		return nil, err
	}
	if err := w.verify(payload, header); err != nil {
		return nil, err
	}
	return decodeWebhook(payload)
}

// decodeWebhook decodes a verified delivery body.
func decodeWebhook(payload []byte) (*Webhook, error) {
	if err := codec.Valid(payload); err != nil {
		return nil, fmt.Errorf("mms: the verified webhook body is not valid JSON: %w", err)
	}
	wh := new(Webhook)
	if err := wh.UnmarshalJSON(bytes.TrimSpace(payload)); err != nil {
		return nil, fmt.Errorf("mms: the verified webhook body is not an event envelope: %w", err)
	}
	return wh, nil
}

// verify checks a delivery against the settings (see Unwrap).
func (w *webhookSettings) verify(payload []byte, header http.Header) error {
	if int64(len(payload)) > w.maxBody {
		return fmt.Errorf("%w: %d bytes, the bound is %d", ErrWebhookBodyTooLarge, len(payload), w.maxBody)
	}
	id, ts, sigs := headerValue(header, headerWebhookID), headerValue(header, headerWebhookTimestamp), headerValue(header, headerWebhookSignature)
	for _, h := range []struct{ name, v string }{{"webhook-id", id}, {"webhook-timestamp", ts}, {"webhook-signature", sigs}} {
		if h.v == "" {
			return fmt.Errorf("%w: %s", ErrWebhookMissingHeader, h.name)
		}
	}
	sent, ok := parseUnixSeconds(ts)
	if !ok {
		return ErrWebhookInvalidTimestamp
	}
	now := w.now().Unix()
	tol := int64(w.tolerance / time.Second)
	switch {
	case sent < now-tol:
		return fmt.Errorf("%w: %ds before the clock, the tolerance is %v", ErrWebhookTimestampTooOld, now-sent, w.tolerance)
	case sent > now+tol:
		return fmt.Errorf("%w: %ds after the clock, the tolerance is %v", ErrWebhookTimestampTooNew, sent-now, w.tolerance)
	}
	var sum [sha256.Size]byte
	for _, key := range w.keys {
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(id))
		mac.Write([]byte{'.'})
		mac.Write([]byte(ts))
		mac.Write([]byte{'.'})
		mac.Write(payload)
		if signatureMatches(sigs, mac.Sum(sum[:0])) {
			return nil
		}
	}
	return ErrWebhookNoMatchingSignature
}

// signatureMatches reports whether one v1 entry of the space-separated
// header value is want, base64-encoded; entries without a comma or of
// another version are skipped. Each candidate is compared in constant time.
func signatureMatches(header string, want []byte) bool {
	var got [sha256.Size + 3]byte // room for a decoded 44-character value
	found := false
	for entry := range strings.SplitSeq(header, " ") {
		version, sig, ok := strings.Cut(entry, ",")
		if !ok || version != "v1" || base64.StdEncoding.DecodedLen(len(sig)) > len(got) {
			continue
		}
		n, err := base64.StdEncoding.Decode(got[:], []byte(sig))
		if err == nil && hmac.Equal(got[:n], want) {
			found = true // keep going: the time taken does not depend on which entry matched
		}
	}
	return found
}

// parseUnixSeconds parses decimal digits only (no sign, no space), as
// the header is sent.
func parseUnixSeconds(s string) (int64, bool) {
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// headerValue returns the header's first value: by its canonical key,
// else (a map built by hand, as from a serverless event) by a
// case-insensitive search.
func headerValue(h http.Header, canonical string) string {
	if v := h[canonical]; len(v) > 0 {
		return v[0]
	}
	for k, v := range h {
		if len(v) > 0 && strings.EqualFold(k, canonical) {
			return v[0]
		}
	}
	return ""
}
