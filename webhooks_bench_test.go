package mms

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mms-sdk/mms-go/option"
)

// benchWebhookBody is a typical delivery: a session event's envelope.
const benchWebhookBody = `{"type":"event","id":"whe_011CZkZ0000000000011Xyz","created_at":"2026-11-24T10:00:11Z","data":{"type":"session.status_idled","id":"sesn_011CZkZ0000000000011Abc","organization_id":"00000000-0000-4000-8000-000000000001","workspace_id":"wrkspc_011CZkZ0Q3nGxS5KnhmYzT4E"}}`

// BenchmarkWebhookUnwrap verifies and decodes one delivery with the SDK.
func BenchmarkWebhookUnwrap(b *testing.B) {
	c := webhookClient(b, option.WithWebhookSecret(testWebhookSecret))
	body := []byte(benchWebhookBody)
	h := signWebhook("msg_011CZkZ", webhookNow.Unix(), body, testWebhookSecret)
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := c.Webhooks.Unwrap(body, h); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWebhookFloor is the floor: the same checks written with
// crypto/hmac and encoding/json alone (headers, tolerance, one HMAC, the
// signature decoded and compared in constant time, then json.Unmarshal
// into a struct of the envelope's fields).
func BenchmarkWebhookFloor(b *testing.B) {
	secret, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(testWebhookSecret, "whsec_"))
	body := []byte(benchWebhookBody)
	h := signWebhook("msg_011CZkZ", webhookNow.Unix(), body, testWebhookSecret)
	type envelope struct {
		Type      string    `json:"type"`
		ID        string    `json:"id"`
		CreatedAt time.Time `json:"created_at"`
		Data      struct {
			Type           string `json:"type"`
			ID             string `json:"id"`
			OrganizationID string `json:"organization_id"`
			WorkspaceID    string `json:"workspace_id"`
		} `json:"data"`
	}
	floor := func(body []byte, h http.Header) (*envelope, error) {
		id, ts, sig := h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature")
		if id == "" || ts == "" || sig == "" {
			return nil, errors.New("missing")
		}
		sent, err := strconv.ParseInt(ts, 10, 64)
		if now := webhookNow.Unix(); err != nil || sent < now-300 || sent > now+300 {
			return nil, errors.New("timestamp")
		}
		mac := hmac.New(sha256.New, secret)
		mac.Write([]byte(id + "." + ts + "."))
		mac.Write(body)
		want := mac.Sum(nil)
		got, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(sig, "v1,"))
		if err != nil || !hmac.Equal(got, want) {
			return nil, errors.New("signature")
		}
		var e envelope
		return &e, json.Unmarshal(body, &e)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, err := floor(body, h); err != nil {
			b.Fatal(err)
		}
	}
}
