package mms_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// TestWebhooksFromTheFake runs the SDK's handler behind the fake's
// deliveries: every delivery verifies (the fake signs independently of the
// SDK), redeliveries reach fn once, a rotated secret keeps verifying when
// the handler knows both, and Fetch returns the object each event names.
func TestWebhooksFromTheFake(t *testing.T) {
	const rotated = "whsec_cm90YXRlZC1zZWNyZXQtb2YtdGhlLXRlc3Q="
	var (
		mu      sync.Mutex
		events  []mms.WebhookEvent
		fetched = map[string]string{} // event type -> Go type Fetch returned, or the error
		c       *mms.Client
	)
	handler := func(ctx context.Context, wh *mms.Webhook) error {
		obj, err := c.Webhooks.Fetch(ctx, wh.Data)
		mu.Lock()
		defer mu.Unlock()
		events = append(events, wh.Data)
		if err != nil {
			fetched[wh.Data.EventType()] = err.Error()
		} else {
			fetched[wh.Data.EventType()] = reflect.TypeOf(obj).String()
		}
		return nil
	}
	var h http.Handler
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(recv.Close)
	srv := mmstest.NewServer(mmstest.WithWebhooks(recv.URL), mmstest.WithWebhookRedeliveries(1))
	t.Cleanup(srv.Close)
	c = filesClient(t, srv)
	h = c.Webhooks.Handler(handler, option.WithWebhookSecret(mmstest.DefaultWebhookSecret, rotated))
	ctx := context.Background()
	wait := func() {
		t.Helper()
		wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		require.NoError(t, srv.WaitWebhooks(wctx))
	}

	agent, err := c.Agents.Create(ctx, mms.AgentCreateParams{Name: "a", Model: mms.AgentModel("m")})
	require.NoError(t, err)
	env, err := c.Environments.Create(ctx, mms.EnvironmentCreateParams{Name: "e"})
	require.NoError(t, err)
	_, err = c.Vaults.Create(ctx, mms.VaultCreateParams{DisplayName: "v"})
	require.NoError(t, err)
	wait()
	require.NoError(t, srv.RotateWebhookSecret(rotated))
	_, err = c.MemoryStores.Create(ctx, mms.MemoryStoreCreateParams{Name: "m"})
	require.NoError(t, err)
	sess, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(agent.ID), EnvironmentID: env.ID})
	require.NoError(t, err)
	_, err = c.Environments.Delete(ctx, env.ID)
	require.NoError(t, err)
	require.NoError(t, srv.DeliverWebhook("external_storage.failed", "estrg_1", nil))
	wait()

	for _, d := range srv.WebhookDeliveries() {
		assert.Equal(t, http.StatusNoContent, d.Status, "%s attempt %d", d.EventType, d.Attempt)
	}
	mu.Lock()
	defer mu.Unlock()
	var types []string
	for _, ev := range events {
		types = append(types, ev.EventType())
	}
	assert.Equal(t, []string{"agent.created", "environment.created", "vault.created", "memory_store.created",
		"session.created", "environment.deleted", "external_storage.failed"}, types, "each event once, redeliveries dropped")
	assert.Equal(t, map[string]string{
		"agent.created":           "*mms.Agent",
		"environment.created":     "*mms.Environment",
		"vault.created":           "*mms.Vault",
		"memory_store.created":    "*mms.MemoryStore",
		"session.created":         "*mms.Session",
		"environment.deleted":     "mms: the webhook event names no object this client can fetch: environment.deleted: the object is gone",
		"external_storage.failed": "mms: the webhook event names no object this client can fetch: external_storage.failed: this client has no service for external_storage objects",
	}, fetched)
	assert.Equal(t, mms.WebhookSessionCreated{ID: sess.ID, OrganizationID: mmstest.DefaultOrganizationID,
		WorkspaceID: mmstest.WebhookWorkspaceID}, events[4])
}

// TestWebhookFetchRefusesBeforeSending: the events Fetch cannot follow
// fail with ErrWebhookNoObject without a request.
func TestWebhookFetchRefusesBeforeSending(t *testing.T) {
	srv := mmstest.NewServer()
	t.Cleanup(srv.Close)
	c := filesClient(t, srv)
	for _, ev := range []mms.WebhookEvent{nil, mms.WebhookSessionDeleted{ID: "sesn_1"},
		mms.WebhookExternalKeyFailed{ID: "ekey_1"}, mms.UnknownWebhookEvent{Type: "skill.created", Raw: []byte(`{"type":"skill.created","id":"s"}`)}} {
		obj, err := c.Webhooks.Fetch(context.Background(), ev)
		require.True(t, errors.Is(err, mms.ErrWebhookNoObject), "%v", err)
		assert.Nil(t, obj)
	}
	assert.Empty(t, srv.Requests())

	obj, err := c.Webhooks.Fetch(context.Background(), mms.WebhookVaultCredentialCreated{ID: "vcrd_1", VaultID: "vlt_1"})
	var apiErr *mms.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusNotFound, apiErr.StatusCode)
	assert.Nil(t, obj, "a failed Get is a nil any, not a nil pointer in one")
	require.Len(t, srv.Requests(), 1)
	assert.Equal(t, "/v1/vaults/vlt_1/credentials/vcrd_1", srv.Requests()[0].Path)

	// Deployments and their runs are fetched with the Deployments service.
	for _, tt := range []struct {
		ev   mms.WebhookEvent
		path string
	}{
		{mms.WebhookDeploymentPaused{ID: "depl_1"}, "/v1/deployments/depl_1"},
		{mms.WebhookDeploymentRunFailed{ID: "drun_1"}, "/v1/deployment_runs/drun_1"},
	} {
		srv.ResetRequests()
		_, err := c.Webhooks.Fetch(context.Background(), tt.ev)
		require.ErrorAs(t, err, &apiErr)
		require.Len(t, srv.Requests(), 1)
		assert.Equal(t, tt.path, srv.Requests()[0].Path)
	}
}
