package mms

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/option"
)

// The secrets of the webhook tests: the SDK's own test secret and a second
// one, as while a secret is rotated.
const (
	testWebhookSecret  = "whsec_ZW52LWtleQ=="
	otherWebhookSecret = "whsec_c2Vjb25kLXdlYmhvb2sta2V5LTEyMzQ1Njc4OTA="
)

// webhookNow is the tests' clock.
var webhookNow = time.Unix(1767225600, 0)

// webhookClient is a client that only verifies (it never sends), on the
// tests' clock.
func webhookClient(t testing.TB, opts ...option.RequestOption) *Client {
	t.Helper()
	base := []option.RequestOption{option.WithAPIKey("k"), option.WithBaseURL("http://127.0.0.1:1"),
		WithNowForTest(func() time.Time { return webhookNow })}
	c, err := NewClient(append(base, opts...)...)
	require.NoError(t, err)
	return c
}

// signWebhook returns the headers of a delivery of body signed with each
// secret, written from the spec (webhooks.md §2.3) independently of the
// SDK's verifier.
func signWebhook(id string, ts int64, body []byte, secrets ...string) http.Header {
	var sigs []string
	for _, s := range secrets {
		key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, "whsec_"))
		if err != nil {
			panic(err)
		}
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(id + "." + strconv.FormatInt(ts, 10) + "." + string(body)))
		sigs = append(sigs, "v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	}
	h := http.Header{}
	h.Set("webhook-id", id)
	h.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	h.Set("webhook-signature", strings.Join(sigs, " "))
	return h
}

const sampleWebhookBody = `{"type":"event","id":"whe_1","created_at":"2026-01-01T00:00:00Z","data":{"type":"session.created","id":"sesn_1","organization_id":"org_1","workspace_id":"wrkspc_1"}}`

// TestWebhookVerificationRules checks every rule of the scheme on both
// sides of its bound: the body bound, each header, the timestamp's form,
// each side of the tolerance (default and configured), and the signature
// entries.
func TestWebhookVerificationRules(t *testing.T) {
	body := []byte(sampleWebhookBody)
	now := webhookNow.Unix()
	signed := func(ts int64) http.Header { return signWebhook("msg_1", ts, body, testWebhookSecret) }
	with := func(h http.Header, k, v string) http.Header { h = h.Clone(); h.Set(k, v); return h }
	without := func(k string) http.Header { h := signed(now); h.Del(k); return h }
	sig := signed(now).Get("webhook-signature")
	tests := []struct {
		name   string
		body   []byte
		header http.Header
		opts   []option.RequestOption
		want   error // nil: verified
	}{
		{"valid", body, signed(now), nil, nil},
		{"body at the bound", body, signed(now), []option.RequestOption{option.WithWebhookMaxBody(int64(len(body)))}, nil},
		{"body one byte over the bound", body, signed(now), []option.RequestOption{option.WithWebhookMaxBody(int64(len(body) - 1))}, ErrWebhookBodyTooLarge},
		{"no webhook-id", body, without("webhook-id"), nil, ErrWebhookMissingHeader},
		{"empty webhook-id", body, with(signed(now), "webhook-id", ""), nil, ErrWebhookMissingHeader},
		{"no webhook-timestamp", body, without("webhook-timestamp"), nil, ErrWebhookMissingHeader},
		{"no webhook-signature", body, without("webhook-signature"), nil, ErrWebhookMissingHeader},
		{"timestamp not a number", body, with(signed(now), "webhook-timestamp", "soon"), nil, ErrWebhookInvalidTimestamp},
		{"timestamp with a sign", body, with(signed(now), "webhook-timestamp", "+"+strconv.FormatInt(now, 10)), nil, ErrWebhookInvalidTimestamp},
		{"timestamp in milliseconds", body, signed(now * 1000), nil, ErrWebhookTimestampTooNew},
		{"timestamp with a fraction", body, with(signed(now), "webhook-timestamp", strconv.FormatInt(now, 10)+".0"), nil, ErrWebhookInvalidTimestamp},
		{"5 minutes old", body, signed(now - 300), nil, nil},
		{"5 minutes 1 second old", body, signed(now - 301), nil, ErrWebhookTimestampTooOld},
		{"5 minutes ahead", body, signed(now + 300), nil, nil},
		{"5 minutes 1 second ahead", body, signed(now + 301), nil, ErrWebhookTimestampTooNew},
		{"10 seconds old, tolerance 10s", body, signed(now - 10), []option.RequestOption{option.WithWebhookTolerance(10 * time.Second)}, nil},
		{"11 seconds old, tolerance 10s", body, signed(now - 11), []option.RequestOption{option.WithWebhookTolerance(10 * time.Second)}, ErrWebhookTimestampTooOld},
		{"11 seconds ahead, tolerance 10s", body, signed(now + 11), []option.RequestOption{option.WithWebhookTolerance(10 * time.Second)}, ErrWebhookTimestampTooNew},
		{"one byte of the body changed", []byte(strings.Replace(sampleWebhookBody, "sesn_1", "sesn_2", 1)), signed(now), nil, ErrWebhookNoMatchingSignature},
		{"another delivery id", body, with(signed(now), "webhook-id", "msg_2"), nil, ErrWebhookNoMatchingSignature},
		{"another timestamp, in tolerance", body, with(signed(now), "webhook-timestamp", strconv.FormatInt(now-1, 10)), nil, ErrWebhookNoMatchingSignature},
		{"signed with another secret", body, signWebhook("msg_1", now, body, otherWebhookSecret), nil, ErrWebhookNoMatchingSignature},
		{"the right digest under v1a is skipped", body, with(signed(now), "webhook-signature", "v1a,"+strings.TrimPrefix(sig, "v1,")), nil, ErrWebhookNoMatchingSignature},
		{"the right digest without a version", body, with(signed(now), "webhook-signature", strings.TrimPrefix(sig, "v1,")), nil, ErrWebhookNoMatchingSignature},
		{"the right digest, truncated", body, with(signed(now), "webhook-signature", sig[:len(sig)-2]), nil, ErrWebhookNoMatchingSignature},
		{"several entries, the last matches", body, with(signed(now), "webhook-signature", "v1a,AAAA nocomma v1,AAAA "+sig), nil, nil},
		{"several entries, none matches", body, with(signed(now), "webhook-signature", "v1a,AAAA nocomma v1,AAAA"), nil, ErrWebhookNoMatchingSignature},
		{"signed with the old and new secrets", body, signWebhook("msg_1", now, body, otherWebhookSecret, testWebhookSecret), nil, nil},
		{"rotation: signed with the second of two secrets", body, signWebhook("msg_1", now, body, otherWebhookSecret),
			[]option.RequestOption{option.WithWebhookSecret(testWebhookSecret, otherWebhookSecret)}, nil},
		{"a call's secret replaces the client's", body, signed(now), []option.RequestOption{option.WithWebhookSecret(otherWebhookSecret)}, ErrWebhookNoMatchingSignature},
		{"header names in lower case in a map built by hand", body, http.Header{"webhook-id": {"msg_1"},
			"webhook-timestamp": {strconv.FormatInt(now, 10)}, "webhook-signature": {sig}}, nil, nil},
	}
	c := webhookClient(t, option.WithWebhookSecret(testWebhookSecret))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wh, err := c.Webhooks.Unwrap(tt.body, tt.header, tt.opts...)
			if tt.want == nil {
				require.NoError(t, err)
				assert.Equal(t, "whe_1", wh.ID)
				return
			}
			require.ErrorIs(t, err, tt.want)
			assert.Nil(t, wh)
			assert.Equal(t, tt.want != ErrWebhookBodyTooLarge, errors.Is(err, ErrWebhookSignature), "matches ErrWebhookSignature")
			for _, other := range []error{ErrWebhookMissingHeader, ErrWebhookInvalidTimestamp, ErrWebhookTimestampTooOld,
				ErrWebhookTimestampTooNew, ErrWebhookNoMatchingSignature, ErrWebhookBodyTooLarge, ErrWebhookNoSecret} {
				if other != tt.want {
					assert.NotErrorIs(t, err, other)
				}
			}
			assertNoWebhookSecret(t, err.Error())
		})
	}
}

// assertNoWebhookSecret fails when s holds a test secret or its key.
func assertNoWebhookSecret(t *testing.T, s string) {
	t.Helper()
	for _, secret := range []string{testWebhookSecret, otherWebhookSecret} {
		b64 := strings.TrimPrefix(secret, "whsec_")
		key, _ := base64.StdEncoding.DecodeString(b64)
		for _, v := range []string{b64, string(key)} {
			assert.NotContains(t, s, v)
		}
	}
}

// TestWebhookSecretConfiguration checks where secrets come from: the
// option (on the client or a call), else $VENDOR_WEBHOOK_SIGNING_KEY
// (several separated by spaces); none, or a malformed one, is
// ErrWebhookNoSecret, naming the secret's position and never its value.
func TestWebhookSecretConfiguration(t *testing.T) {
	body := []byte(sampleWebhookBody)
	h := signWebhook("msg_1", webhookNow.Unix(), body, testWebhookSecret)

	t.Run("none", func(t *testing.T) {
		t.Setenv(EnvWebhookSigningKey, "")
		_, err := webhookClient(t).Webhooks.Unwrap(body, h)
		require.ErrorIs(t, err, ErrWebhookNoSecret)
		assert.NotErrorIs(t, err, ErrWebhookSignature)
	})
	t.Run("environment", func(t *testing.T) {
		t.Setenv(EnvWebhookSigningKey, otherWebhookSecret+" "+testWebhookSecret)
		_, err := webhookClient(t).Webhooks.Unwrap(body, h)
		require.NoError(t, err)
	})
	t.Run("the option wins over the environment", func(t *testing.T) {
		t.Setenv(EnvWebhookSigningKey, testWebhookSecret)
		_, err := webhookClient(t, option.WithWebhookSecret(otherWebhookSecret)).Webhooks.Unwrap(body, h)
		require.ErrorIs(t, err, ErrWebhookNoMatchingSignature)
	})
	t.Run("a call's option with none on the client", func(t *testing.T) {
		t.Setenv(EnvWebhookSigningKey, "")
		_, err := webhookClient(t).Webhooks.Unwrap(body, h, option.WithWebhookSecret(testWebhookSecret))
		require.NoError(t, err)
	})
	t.Run("without the whsec_ prefix", func(t *testing.T) {
		_, err := webhookClient(t, option.WithWebhookSecret(strings.TrimPrefix(testWebhookSecret, "whsec_"))).Webhooks.Unwrap(body, h)
		require.NoError(t, err)
	})
	t.Run("malformed in the environment", func(t *testing.T) {
		t.Setenv(EnvWebhookSigningKey, testWebhookSecret+" whsec_not*base64!")
		_, err := webhookClient(t).Webhooks.Unwrap(body, h)
		require.ErrorIs(t, err, ErrWebhookNoSecret)
		assert.Contains(t, err.Error(), "secret 2 of $"+EnvWebhookSigningKey)
		assert.NotContains(t, err.Error(), "not*base64")
		assertNoWebhookSecret(t, err.Error())
	})
	for _, bad := range []string{"", "whsec_", "whsec_not*base64!", "whsec_ZW52LWtleQ"} {
		t.Run("malformed option "+strconv.Quote(bad), func(t *testing.T) {
			_, err := NewClient(option.WithAPIKey("k"), option.WithBaseURL("http://127.0.0.1:1"), option.WithWebhookSecret(testWebhookSecret, bad))
			require.ErrorContains(t, err, "WithWebhookSecret: secret 2 is not a webhook signing secret")
			if len(bad) > len("whsec_") {
				assert.NotContains(t, err.Error(), bad[len("whsec_"):])
			}
		})
	}
	for _, o := range []option.RequestOption{option.WithWebhookSecret(), option.WithWebhookTolerance(0), option.WithWebhookMaxBody(0), option.WithWebhookDedupSize(0)} {
		_, err := NewClient(option.WithAPIKey("k"), option.WithBaseURL("http://127.0.0.1:1"), o)
		require.Error(t, err)
	}
}

// webhookGoldenDir holds one envelope per event type and the odd cases.
var webhookGoldenDir = filepath.Join("testdata", "golden", "webhooks")

// webhookGoldenUnknown lists the fixtures whose event is Unknown.
var webhookGoldenUnknown = map[string]bool{"unknown_event.json": true}

// TestWebhookEventGoldenRoundTrip unwraps every fixture (signed here) and
// checks the variant its type names, the accessors, and that it encodes
// back to the same JSON and decodes again to the same value.
func TestWebhookEventGoldenRoundTrip(t *testing.T) {
	c := webhookClient(t, option.WithWebhookSecret(testWebhookSecret))
	entries, err := os.ReadDir(webhookGoldenDir)
	require.NoError(t, err)
	types := webhookEventUnion.Types()
	for _, e := range entries {
		t.Run(e.Name(), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(webhookGoldenDir, e.Name()))
			require.NoError(t, err)
			wh, err := c.Webhooks.Unwrap(data, signWebhook("msg_"+e.Name(), webhookNow.Unix(), data, testWebhookSecret))
			require.NoError(t, err)
			var want struct {
				ID        string
				CreatedAt time.Time `json:"created_at"`
				Data      struct{ Type, ID string }
			}
			require.NoError(t, json.Unmarshal(data, &want))
			assert.Equal(t, want.ID, wh.ID)
			assert.True(t, want.CreatedAt.Equal(wh.CreatedAt))
			assert.Equal(t, want.Data.Type, wh.Data.EventType())
			assert.Equal(t, want.Data.ID, wh.Data.ObjectID())
			if webhookGoldenUnknown[e.Name()] {
				assert.IsType(t, UnknownWebhookEvent{}, wh.Data)
			} else {
				assert.Equal(t, types[want.Data.Type], reflect.TypeOf(wh.Data))
			}
			out, err := json.Marshal(wh)
			require.NoError(t, err)
			requireJSONEqual(t, data, out)
			var again Webhook
			require.NoError(t, json.Unmarshal(out, &again))
			if diff := cmp.Diff(*wh, again, cmpRawJSON); diff != "" {
				t.Errorf("decoded again (-first +again):\n%s", diff)
			}
		})
	}
}

// TestWebhookGoldensCoverEveryEvent fails while an event type of the
// union has no fixture named after it.
func TestWebhookGoldensCoverEveryEvent(t *testing.T) {
	types := webhookEventUnion.Types()
	require.Len(t, types, 51, "spec webhooks.md §4: 44 managed-agents and 7 organization event types")
	for typ := range types {
		_, err := os.Stat(filepath.Join(webhookGoldenDir, strings.ReplaceAll(typ, ".", "_")+".json"))
		assert.NoError(t, err, typ)
	}
}

// TestWebhookNotAnEnvelope: a verified body that is not an event envelope
// is an error, which is not a verification failure.
func TestWebhookNotAnEnvelope(t *testing.T) {
	c := webhookClient(t, option.WithWebhookSecret(testWebhookSecret))
	for _, body := range []string{`{"type":"event"`, `[]`, `{"type":"message","id":"x"}`, `{"type":"event","id":"x","created_at":"yesterday","data":{}}`} {
		_, err := c.Webhooks.Unwrap([]byte(body), signWebhook("msg_1", webhookNow.Unix(), []byte(body), testWebhookSecret))
		require.Error(t, err, body)
		assert.NotErrorIs(t, err, ErrWebhookSignature, body)
	}
}

// cmpRawJSON compares raw JSON by value, not by its spacing.
var cmpRawJSON = cmp.Comparer(func(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var x, y bytes.Buffer
	return json.Compact(&x, a) == nil && json.Compact(&y, b) == nil && bytes.Equal(x.Bytes(), y.Bytes())
})
