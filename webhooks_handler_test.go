package mms

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/option"
)

// webhookDelivery is a signed request carrying the envelope of event
// eventID under delivery id.
func webhookDelivery(id, eventID string) *http.Request {
	body := strings.Replace(sampleWebhookBody, `"id":"whe_1"`, fmt.Sprintf("%q:%q", "id", eventID), 1)
	r := httptest.NewRequest(http.MethodPost, "/webhooks", strings.NewReader(body))
	for k, v := range signWebhook(id, webhookNow.Unix(), []byte(body), testWebhookSecret) {
		r.Header[k] = v
	}
	return r
}

// serve sends r to h and returns the status.
func serve(h http.Handler, r *http.Request) int {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec.Code
}

// TestWebhookHandlerAnswers checks the handler's answer to each kind of
// delivery and that fn runs exactly when it should.
func TestWebhookHandlerAnswers(t *testing.T) {
	c := webhookClient(t, option.WithWebhookSecret(testWebhookSecret))
	var calls []string
	fail := map[string]bool{}
	h := c.Webhooks.Handler(func(_ context.Context, wh *Webhook) error {
		calls = append(calls, wh.ID)
		if fail[wh.ID] {
			return errors.New("the database is down")
		}
		return nil
	}, option.WithWebhookMaxBody(1024))

	assert.Equal(t, http.StatusNoContent, serve(h, webhookDelivery("msg_1", "whe_1")))
	assert.Equal(t, http.StatusNoContent, serve(h, webhookDelivery("msg_1", "whe_1")), "a redelivery")
	assert.Equal(t, http.StatusNoContent, serve(h, webhookDelivery("msg_9", "whe_1")), "the same event under another delivery id")
	assert.Equal(t, []string{"whe_1"}, calls)

	fail["whe_2"] = true
	assert.Equal(t, http.StatusInternalServerError, serve(h, webhookDelivery("msg_2", "whe_2")))
	assert.Equal(t, http.StatusInternalServerError, serve(h, webhookDelivery("msg_2", "whe_2")), "a failure is not remembered")
	fail["whe_2"] = false
	assert.Equal(t, http.StatusNoContent, serve(h, webhookDelivery("msg_2", "whe_2")))
	assert.Equal(t, http.StatusNoContent, serve(h, webhookDelivery("msg_2", "whe_2")))
	assert.Equal(t, []string{"whe_1", "whe_2", "whe_2", "whe_2"}, calls)

	bad := webhookDelivery("msg_3", "whe_3")
	bad.Header.Set("webhook-signature", "v1,AAAA")
	assert.Equal(t, http.StatusUnauthorized, serve(h, bad))
	stale := webhookDelivery("msg_3", "whe_3")
	stale.Header.Set("webhook-timestamp", fmt.Sprint(webhookNow.Unix()-301))
	assert.Equal(t, http.StatusUnauthorized, serve(h, stale))
	missing := webhookDelivery("msg_3", "whe_3")
	missing.Header.Del("webhook-id")
	assert.Equal(t, http.StatusUnauthorized, serve(h, missing))

	large := strings.Repeat(" ", 1025)
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(large))
	for k, v := range signWebhook("msg_4", webhookNow.Unix(), []byte(large), testWebhookSecret) {
		r.Header[k] = v
	}
	assert.Equal(t, http.StatusRequestEntityTooLarge, serve(h, r))
	at := strings.Repeat(" ", 1024)
	r = httptest.NewRequest(http.MethodPost, "/", strings.NewReader(at))
	for k, v := range signWebhook("msg_4", webhookNow.Unix(), []byte(at), testWebhookSecret) {
		r.Header[k] = v
	}
	assert.Equal(t, http.StatusBadRequest, serve(h, r), "at the bound: verified, then not an envelope")

	assert.Equal(t, http.StatusMethodNotAllowed, serve(h, httptest.NewRequest(http.MethodGet, "/", nil)))
	assert.Equal(t, []string{"whe_1", "whe_2", "whe_2", "whe_2"}, calls, "no refused delivery reached fn")
}

// TestWebhookHandlerWithoutSecret: every delivery is a 500 (retried by the
// service) while no secret is configured.
func TestWebhookHandlerWithoutSecret(t *testing.T) {
	t.Setenv(EnvWebhookSigningKey, "")
	h := webhookClient(t).Webhooks.Handler(func(context.Context, *Webhook) error {
		t.Error("fn called")
		return nil
	})
	assert.Equal(t, http.StatusInternalServerError, serve(h, webhookDelivery("msg_1", "whe_1")))
}

// TestWebhookHandlerInFlight: a redelivery while fn still handles the
// event is answered 409 (not 2xx, which could lose the event), and fn is
// not called twice at once; a panic in fn releases the event.
func TestWebhookHandlerInFlight(t *testing.T) {
	c := webhookClient(t, option.WithWebhookSecret(testWebhookSecret))
	entered, release := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	calls := 0
	h := c.Webhooks.Handler(func(_ context.Context, wh *Webhook) error {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		switch n {
		case 1:
			close(entered)
			<-release
		case 2:
			panic("handler bug")
		}
		return nil
	})
	done := make(chan int)
	go func() { done <- serve(h, webhookDelivery("msg_1", "whe_1")) }()
	<-entered
	assert.Equal(t, http.StatusConflict, serve(h, webhookDelivery("msg_1", "whe_1")))
	assert.Equal(t, http.StatusConflict, serve(h, webhookDelivery("msg_2", "whe_1")), "the same event under another delivery id")
	close(release)
	assert.Equal(t, http.StatusNoContent, <-done)

	assert.Panics(t, func() { serve(h, webhookDelivery("msg_5", "whe_5")) })
	assert.Equal(t, http.StatusNoContent, serve(h, webhookDelivery("msg_5", "whe_5")), "released after the panic")
	assert.Equal(t, 3, calls)
}

// TestWebhookHandlerDedupBound: the handler remembers the last n handled
// deliveries; the n+1th back is handled again.
func TestWebhookHandlerDedupBound(t *testing.T) {
	c := webhookClient(t, option.WithWebhookSecret(testWebhookSecret))
	calls := 0
	h := c.Webhooks.Handler(func(context.Context, *Webhook) error { calls++; return nil }, option.WithWebhookDedupSize(2))
	for _, id := range []string{"1", "2", "3"} {
		require.Equal(t, http.StatusNoContent, serve(h, webhookDelivery("msg_"+id, "whe_"+id)))
	}
	require.Equal(t, 3, calls)
	serve(h, webhookDelivery("msg_3", "whe_3")) // remembered: the last
	serve(h, webhookDelivery("msg_2", "whe_2")) // remembered: second to last
	assert.Equal(t, 3, calls, "the last 2 are remembered")
	serve(h, webhookDelivery("msg_1", "whe_1"))
	assert.Equal(t, 4, calls, "the third back was forgotten")
	hh := h.(*webhookHandler)
	assert.Len(t, hh.seen.done, 4, "two entries of two keys")
	assert.Equal(t, 2, hh.seen.order.Len())
	assert.Empty(t, hh.seen.inFlight)
}
