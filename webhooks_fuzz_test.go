package mms

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/mms-sdk/mms-go/option"
)

// FuzzWebhookUnwrap feeds arbitrary bodies and headers to the verifier and
// the decoder. A delivery signed with the secret always verifies (what
// fails after that is decoding, never verification); one with the
// fuzzer's own signature never does. A decoded delivery encodes to valid
// JSON that decodes again to the same encoding, and nothing panics.
func FuzzWebhookUnwrap(f *testing.F) {
	entries, _ := os.ReadDir(webhookGoldenDir)
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(webhookGoldenDir, e.Name()))
		f.Add(data, "msg_1", int64(0), "", true)
	}
	f.Add([]byte(sampleWebhookBody), "msg_1", int64(-301), "", true)
	f.Add([]byte(sampleWebhookBody), "msg_1", int64(0), "v1,AAAA v1a,BBBB nocomma", false)
	f.Add([]byte(`{"type":"event","id":"x","created_at":"2026-01-01T00:00:00Z","data":{"type":"a.b","id":1}}`), "", int64(0), "v1,", true)
	f.Add([]byte(`{"type":"event","data":null}`), "m", int64(0), "", true)
	c := webhookClient(f, option.WithWebhookSecret(testWebhookSecret))
	f.Fuzz(func(t *testing.T, body []byte, id string, skew int64, sig string, sign bool) {
		skew %= 400 // mostly within the tolerance, sometimes outside
		ts := webhookNow.Unix() + skew
		h := signWebhook(id, ts, body, testWebhookSecret)
		if !sign {
			h.Set("webhook-signature", sig)
		}
		wh, err := c.Webhooks.Unwrap(body, h)
		switch {
		case id == "" || (!sign && sig == ""):
			if !errors.Is(err, ErrWebhookMissingHeader) {
				t.Fatalf("missing header: %v", err)
			}
			return
		case skew < -300 || skew > 300:
			if !errors.Is(err, ErrWebhookTimestampTooOld) && !errors.Is(err, ErrWebhookTimestampTooNew) {
				t.Fatalf("skew %d: %v", skew, err)
			}
			return
		case !sign:
			if !errors.Is(err, ErrWebhookNoMatchingSignature) {
				t.Fatalf("forged signature %q verified: %v", sig, err)
			}
			return
		}
		if errors.Is(err, ErrWebhookSignature) || errors.Is(err, ErrWebhookBodyTooLarge) {
			t.Fatalf("a signed delivery failed verification: %v", err)
		}
		if err != nil {
			return // verified, not an envelope
		}
		out, err := json.Marshal(wh)
		if err != nil {
			t.Fatalf("encoding a decoded delivery: %v", err)
		}
		if !json.Valid(out) {
			t.Fatalf("invalid JSON %q", out)
		}
		again, err := c.Webhooks.Unwrap(out, signWebhook("msg_2", webhookNow.Unix(), out, testWebhookSecret))
		if err != nil {
			t.Fatalf("decoding the encoding %s: %v", out, err)
		}
		out2, err := json.Marshal(again)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("not stable:\n%s\n%s (%v)", out, out2, err)
		}
	})
}
