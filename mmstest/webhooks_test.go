package mmstest

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// received is one request a test receiver got.
type received struct {
	header http.Header
	body   []byte
}

// webhookReceiver is a test's endpoint: it records every request and
// answers status(n) to the nth (from 1).
func webhookReceiver(t *testing.T, status func(n int) int) (*httptest.Server, func() []received) {
	var mu sync.Mutex
	var got []received
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, received{r.Header.Clone(), b})
		n := len(got)
		mu.Unlock()
		w.WriteHeader(status(n))
	}))
	t.Cleanup(srv.Close)
	return srv, func() []received {
		mu.Lock()
		defer mu.Unlock()
		return append([]received(nil), got...)
	}
}

// signedBy reports whether one v1 entry of the delivery's signature is
// HMAC-SHA256 of id.timestamp.body under secret.
func signedBy(r received, secret string) bool {
	key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(r.header.Get("webhook-id") + "." + r.header.Get("webhook-timestamp") + "." + string(r.body)))
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, s := range strings.Fields(r.header.Get("webhook-signature")) {
		if s == want {
			return true
		}
	}
	return false
}

func waitWebhooks(t *testing.T, s *Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, s.WaitWebhooks(ctx))
}

// envelope decodes a delivery's body.
func envelope(t *testing.T, r received) (id, typ string, data map[string]string) {
	var e struct {
		ID        string
		Type      string
		CreatedAt string `json:"created_at"`
		Data      map[string]string
	}
	require.NoError(t, json.Unmarshal(r.body, &e))
	require.Equal(t, "event", e.Type)
	_, err := time.Parse(time.RFC3339Nano, e.CreatedAt)
	require.NoError(t, err)
	return e.ID, e.Data["type"], e.Data
}

// TestWebhookRoutesExist: every endpoint the webhook table names is a
// route of the fake.
func TestWebhookRoutesExist(t *testing.T) {
	s := newTestServer(t)
	for pattern := range webhookRoutes {
		assert.Contains(t, s.routeByPattern, pattern)
	}
}

// TestWebhooksDeliverWhatHappens: the resource endpoints and the session
// engine cause signed deliveries of the spec's events, in order, each
// with the organization and (for managed-agents events) workspace ids.
func TestWebhooksDeliverWhatHappens(t *testing.T) {
	recv, got := webhookReceiver(t, func(int) int { return http.StatusNoContent })
	s := newTestServer(t, WithWebhooks(recv.URL))
	a := agentOK(t, s, "POST", "/v1/agents", `{"name":"a","model":"m"}`)
	agentOK(t, s, "POST", "/v1/agents/"+a.ID, `{"version":1,"name":"b"}`)
	env := envOK(t, s, "POST", "/v1/environments", `{"name":"cloud"}`)
	sess := newSession(t, s, a.ID, env.ID)
	waitWebhooks(t, s)
	sendOK(t, s, sess.ID, msg("hello"))
	require.Eventually(t, func() bool {
		waitWebhooks(t, s)
		for _, r := range got() {
			if _, typ, _ := envelope(t, r); typ == "session.status_idled" {
				return true
			}
		}
		return false
	}, 10*time.Second, 10*time.Millisecond)
	agentOK(t, s, "POST", "/v1/agents/"+a.ID+"/archive", ``)
	resp, _ := agentCall(t, s, "DELETE", "/v1/sessions/"+sess.ID, "")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	waitWebhooks(t, s)

	type row struct{ Type, ID string }
	var rows []row
	ids := map[string]bool{}
	for _, r := range got() {
		assert.True(t, signedBy(r, DefaultWebhookSecret))
		id, typ, data := envelope(t, r)
		assert.False(t, ids[id], "event ids are unique")
		ids[id] = true
		assert.Equal(t, DefaultOrganizationID, data["organization_id"])
		assert.Equal(t, WebhookWorkspaceID, data["workspace_id"])
		rows = append(rows, row{typ, data["id"]})
	}
	want := []row{{"agent.created", a.ID}, {"agent.updated", a.ID}, {"environment.created", env.ID},
		{"session.created", sess.ID}, {"session.status_run_started", sess.ID}, {"session.status_idled", sess.ID},
		{"agent.archived", a.ID}, {"session.deleted", sess.ID}}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("deliveries (-want +got):\n%s", diff)
	}
}

// TestWebhooksRetryAndRedeliver: a delivery answered with an error is
// sent again (same id and body) until a 2xx, then redelivered as asked;
// one never answered with a 2xx stops after 5 attempts.
func TestWebhooksRetryAndRedeliver(t *testing.T) {
	recv, got := webhookReceiver(t, func(n int) int {
		if n <= 2 {
			return http.StatusInternalServerError
		}
		return http.StatusOK
	})
	s := newTestServer(t, WithWebhooks(recv.URL), WithWebhookRedeliveries(2))
	require.NoError(t, s.DeliverWebhook("deployment.paused", "depl_1", nil))
	waitWebhooks(t, s)
	rs := got()
	require.Len(t, rs, 5)
	for _, r := range rs {
		assert.Equal(t, rs[0].header.Get("webhook-id"), r.header.Get("webhook-id"))
		assert.Equal(t, string(rs[0].body), string(r.body))
	}
	var statuses []int
	var redeliveries []bool
	for _, d := range s.WebhookDeliveries() {
		statuses, redeliveries = append(statuses, d.Status), append(redeliveries, d.Redelivery)
		assert.Equal(t, "deployment.paused", d.EventType)
		assert.Equal(t, "depl_1", d.ObjectID)
	}
	assert.Equal(t, []int{500, 500, 200, 200, 200}, statuses)
	assert.Equal(t, []bool{false, false, false, true, true}, redeliveries)

	down, downGot := webhookReceiver(t, func(int) int { return http.StatusServiceUnavailable })
	s2 := newTestServer(t, WithWebhooks(down.URL))
	require.NoError(t, s2.DeliverWebhook("user_profile.program_status_updated", "uprof_1", nil))
	waitWebhooks(t, s2)
	require.Len(t, downGot(), webhookAttempts)
	_, _, data := envelope(t, downGot()[0])
	assert.NotContains(t, data, "workspace_id", "organization events carry none")
}

// TestWebhooksRotatedSecret: after RotateWebhookSecret, deliveries are
// signed with the new secrets only; several sign each delivery once each.
func TestWebhooksRotatedSecret(t *testing.T) {
	const newSecret = "whsec_bmV3LXNlY3JldC1hZnRlci1yb3RhdGlvbg=="
	recv, got := webhookReceiver(t, func(int) int { return http.StatusOK })
	s := newTestServer(t, WithWebhooks(recv.URL))
	require.NoError(t, s.DeliverWebhook("vault.created", "vlt_1", nil))
	waitWebhooks(t, s)
	require.NoError(t, s.RotateWebhookSecret(DefaultWebhookSecret, newSecret))
	require.NoError(t, s.DeliverWebhook("vault.archived", "vlt_1", nil))
	waitWebhooks(t, s)
	require.NoError(t, s.RotateWebhookSecret(newSecret))
	require.NoError(t, s.DeliverWebhook("vault.deleted", "vlt_1", nil))
	waitWebhooks(t, s)
	rs := got()
	require.Len(t, rs, 3)
	assert.Equal(t, [][2]bool{{true, false}, {true, true}, {false, true}}, [][2]bool{
		{signedBy(rs[0], DefaultWebhookSecret), signedBy(rs[0], newSecret)},
		{signedBy(rs[1], DefaultWebhookSecret), signedBy(rs[1], newSecret)},
		{signedBy(rs[2], DefaultWebhookSecret), signedBy(rs[2], newSecret)}})
	assert.Len(t, strings.Fields(rs[1].header.Get("webhook-signature")), 2)

	err := s.RotateWebhookSecret("whsec_not*base64")
	require.ErrorContains(t, err, "secret 1 is not a webhook signing secret")
	assert.NotContains(t, err.Error(), "not*base64")
}

// TestWebhooksOff: without WithWebhooks nothing is delivered and the
// webhook methods say so.
func TestWebhooksOff(t *testing.T) {
	s := newTestServer(t)
	require.Error(t, s.DeliverWebhook("vault.created", "vlt_1", nil))
	require.Error(t, s.RotateWebhookSecret(DefaultWebhookSecret))
	require.NoError(t, s.WaitWebhooks(context.Background()))
	assert.Nil(t, s.WebhookDeliveries())
	on := newTestServer(t, WithWebhooks("http://127.0.0.1:1"))
	for _, bad := range [][2]string{{"vault", "vlt_1"}, {"vault.created", ""}, {".x", "id"}} {
		assert.Error(t, on.DeliverWebhook(bad[0], bad[1], nil), fmt.Sprint(bad))
	}
	assert.Panics(t, func() { NewServer(WithWebhooks("http://127.0.0.1:1", "whsec_%%%")) })
}

// TestWebhooksBudgetReached: a turn that stops at the session's budget
// causes session.status_idled, then session.budget_reached.
func TestWebhooksBudgetReached(t *testing.T) {
	recv, got := webhookReceiver(t, func(int) int { return http.StatusOK })
	s := newTestServer(t, WithWebhooks(recv.URL))
	a := agentOK(t, s, "POST", "/v1/agents", `{"name":"a","model":"m"}`)
	env := envOK(t, s, "POST", "/v1/environments", `{"name":"cloud"}`)
	sess := sessionOK(t, s, "POST", "/v1/sessions", `{"agent":"`+a.ID+`","environment_id":"`+env.ID+`","budget":{"type":"limit","max_list_cost":{"amount":"0.00006","currency":"USD"}}}`)
	sendOK(t, s, sess.ID, msg("hello"))
	var types []string
	require.Eventually(t, func() bool {
		waitWebhooks(t, s)
		types = nil
		for _, r := range got() {
			_, typ, data := envelope(t, r)
			if data["id"] == sess.ID {
				types = append(types, typ)
			}
		}
		return len(types) > 0 && types[len(types)-1] == "session.budget_reached"
	}, 10*time.Second, 10*time.Millisecond)
	assert.Equal(t, []string{"session.created", "session.status_run_started", "session.status_idled", "session.budget_reached"}, types)
}
