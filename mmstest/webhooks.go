package mmstest

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Webhooks: with WithWebhooks, the fake POSTs a signed delivery (spec
// webhooks.md: the Standard Webhooks scheme, an "event" envelope naming the
// object by id) to a test's URL for what happens in it, so a receiver can
// be tested offline. The signing is written here from the spec, apart from
// the SDK's verifier, so the two check each other.

// DefaultWebhookSecret is the signing secret of WithWebhooks when it is
// given none ("whsec_" and standard base64, as the service's secrets).
const DefaultWebhookSecret = "whsec_bW1zdGVzdC13ZWJob29rLXNpZ25pbmcta2V5"

// WebhookWorkspaceID is the workspace_id of the fake's managed-agents
// events (the fake has one workspace).
const WebhookWorkspaceID = "wrkspc_01000000000000000000000001"

// webhookAttempts bounds the attempts of one delivery that is not answered
// with a 2xx; webhookBackoff is the real-time wait before the second.
const (
	webhookAttempts = 5
	webhookBackoff  = 10 * time.Millisecond
)

// WithWebhooks makes the server deliver webhooks to url, signed with each
// of secrets (DefaultWebhookSecret when none is given; several sign each
// delivery once each, as while a secret is rotated). A malformed secret
// panics in NewServer, without quoting it.
//
// Events, each delivered after the request or the session step that
// causes it:
//
//   - session.created, session.updated, session.archived, session.deleted
//     (the session endpoints); session.status_run_started,
//     session.status_idled, session.status_rescheduled,
//     session.status_terminated and session.thread_idled as the session's
//     turn engine reaches those states, and session.budget_reached when a
//     turn stops at the budget; session.thread_terminated (a thread
//     archived);
//   - agent.created, agent.updated, agent.archived;
//   - environment.created, environment.updated, environment.archived,
//     environment.deleted;
//   - vault.created, vault.archived, vault.deleted;
//     vault_credential.created, vault_credential.archived,
//     vault_credential.deleted;
//   - memory_store.created, memory_store.archived, memory_store.deleted;
//   - any other event through Server.DeliverWebhook.
//
// A delivery not answered with a 2xx is sent again, with the same
// webhook-id and body, up to 5 attempts in all with a short backoff; one
// answered with a 2xx is sent again WithWebhookRedeliveries times, as the
// service may. Deliveries go one at a time, in order. The envelope's
// created_at follows the server's clock (WithClock); the webhook-timestamp
// header is real time, since the receiver checks it against its own
// clock. Server.WaitWebhooks waits for them, Server.WebhookDeliveries
// lists the attempts, and Server.RotateWebhookSecret changes the secrets.
func WithWebhooks(url string, secrets ...string) Option {
	return func(c *config) {
		if len(secrets) == 0 {
			secrets = []string{DefaultWebhookSecret}
		}
		keys, err := webhookKeys(secrets)
		if err != nil {
			panic("mmstest: WithWebhooks: " + err.Error())
		}
		c.webhookURL, c.webhookKeys = url, keys
	}
}

// WithWebhookRedeliveries makes the server send every delivery that was
// answered with a 2xx n more times (same webhook-id, same body, a fresh
// timestamp), so a test sees its receiver drop redeliveries. Default 0.
func WithWebhookRedeliveries(n int) Option {
	return func(c *config) { c.webhookRedeliveries = max(n, 0) }
}

// webhookKeys decodes signing secrets into HMAC keys; the error names a
// secret by position only.
func webhookKeys(secrets []string) ([][]byte, error) {
	keys := make([][]byte, 0, len(secrets))
	for i, s := range secrets {
		k, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, "whsec_"))
		if err != nil || len(k) == 0 {
			return nil, fmt.Errorf("secret %d is not a webhook signing secret (whsec_ followed by standard base64)", i+1)
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// WebhookDelivery is one attempt to deliver an event, as
// Server.WebhookDeliveries lists it.
type WebhookDelivery struct {
	// ID is the webhook-id header: the same for every attempt and
	// redelivery of one event.
	ID string
	// EventID is the envelope's id ("whe_…"), EventType and ObjectID its
	// data's type and id.
	EventID, EventType, ObjectID string
	// Attempt counts the attempts of this delivery from 1; redeliveries
	// after a 2xx count on.
	Attempt int
	// Redelivery marks a copy sent after a 2xx (WithWebhookRedeliveries).
	Redelivery bool
	// Status is the receiver's answer; 0 when the request failed.
	Status int
	// Err is why the request failed, when it did.
	Err string
}

// webhookSender delivers the server's events, one at a time, in order.
type webhookSender struct {
	srv *Server
	url string
	hc  *http.Client
	ctx context.Context // ends when the server closes, so Close never waits on a receiver

	mu      sync.Mutex
	keys    [][]byte
	queue   []*webhookEvent
	pending int           // events queued or being delivered
	idle    chan struct{} // closed while pending is 0
	wake    chan struct{}
	history []WebhookDelivery
}

// webhookEvent is one event to deliver.
type webhookEvent struct {
	id, eventID, typ, objectID string
	body                       []byte
}

func newWebhookSender(s *Server) *webhookSender {
	w := &webhookSender{srv: s, url: s.cfg.webhookURL, keys: s.cfg.webhookKeys,
		hc: &http.Client{Timeout: 30 * time.Second}, wake: make(chan struct{}, 1), idle: make(chan struct{})}
	close(w.idle)
	ctx, cancel := context.WithCancel(context.Background())
	w.ctx = ctx
	go func() { <-s.done; cancel() }()
	go w.run()
	return w
}

// emit queues an event about objectID; members are the data's members
// beyond type, id, organization_id and workspace_id.
func (s *Server) emitWebhook(typ, objectID string, members map[string]string) {
	w := s.webhooks
	if w == nil || objectID == "" {
		return
	}
	data := map[string]string{"type": typ, "id": objectID, "organization_id": s.cfg.organizationID}
	if !organizationEvent(typ) {
		data["workspace_id"] = WebhookWorkspaceID
	}
	for k, v := range members {
		data[k] = v
	}
	ev := &webhookEvent{id: s.newID("msg_"), eventID: s.newID("whe_"), typ: typ, objectID: objectID}
	ev.body = encodeJSON(map[string]any{"type": "event", "id": ev.eventID,
		"created_at": s.now().UTC().Format(time.RFC3339Nano), "data": data})
	withLock(&w.mu, func() {
		if w.pending == 0 {
			w.idle = make(chan struct{})
		}
		w.pending++
		w.queue = append(w.queue, ev)
	})
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// organizationEvent reports the event types of organization endpoints,
// which carry no workspace_id (spec webhooks.md §4.2).
func organizationEvent(typ string) bool {
	family, _, _ := strings.Cut(typ, ".")
	return family == "user_profile" || family == "external_key" || family == "external_storage"
}

// DeliverWebhook delivers an event of any type about objectID, with the
// extra data members given (session_thread_id, vault_id,
// enforcement_action_id, …), as the fake delivers its own: for the events
// the fake does not cause (deployments, organization events). It fails
// when WithWebhooks was not given or the type is not family.action.
func (s *Server) DeliverWebhook(eventType, objectID string, members map[string]string) error {
	if s.webhooks == nil {
		return errors.New("mmstest: DeliverWebhook: the server has no WithWebhooks")
	}
	if f, a, ok := strings.Cut(eventType, "."); !ok || f == "" || a == "" || objectID == "" {
		return fmt.Errorf("mmstest: DeliverWebhook: %q about %q is not an event (family.action about an id)", eventType, objectID)
	}
	s.emitWebhook(eventType, objectID, members)
	return nil
}

// RotateWebhookSecret replaces the signing secrets, as regenerating an
// endpoint's secret does: every attempt from now on, of queued and retried
// deliveries too, is signed with the new secrets only. Give two (the old
// and the new) to sign with both.
func (s *Server) RotateWebhookSecret(secrets ...string) error {
	if s.webhooks == nil {
		return errors.New("mmstest: RotateWebhookSecret: the server has no WithWebhooks")
	}
	if len(secrets) == 0 {
		return errors.New("mmstest: RotateWebhookSecret: no secret given")
	}
	keys, err := webhookKeys(secrets)
	if err != nil {
		return fmt.Errorf("mmstest: RotateWebhookSecret: %w", err)
	}
	withLock(&s.webhooks.mu, func() { s.webhooks.keys = keys })
	return nil
}

// WaitWebhooks waits until every event so far has been delivered (or has
// used up its attempts), or ctx ends. Without WithWebhooks it returns nil.
func (s *Server) WaitWebhooks(ctx context.Context) error {
	if s.webhooks == nil {
		return nil
	}
	idle := locked(&s.webhooks.mu, func() chan struct{} { return s.webhooks.idle })
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.done:
		return errors.New("mmstest: WaitWebhooks: the server is closed")
	}
}

// WebhookDeliveries returns every delivery attempt so far, in order.
func (s *Server) WebhookDeliveries() []WebhookDelivery {
	if s.webhooks == nil {
		return nil
	}
	s.webhooks.mu.Lock()
	defer s.webhooks.mu.Unlock()
	return append([]WebhookDelivery(nil), s.webhooks.history...)
}

func (w *webhookSender) run() {
	for {
		select {
		case <-w.wake:
		case <-w.srv.done:
			return
		}
		for ev := w.next(); ev != nil; ev = w.next() {
			w.deliver(ev)
			withLock(&w.mu, func() {
				if w.pending--; w.pending == 0 {
					close(w.idle)
				}
			})
		}
	}
}

// next takes the first queued event, nil when none is.
func (w *webhookSender) next() *webhookEvent {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.queue) == 0 {
		return nil
	}
	ev := w.queue[0]
	w.queue = w.queue[1:]
	return ev
}

// deliver sends ev until a 2xx or the attempts run out, then its
// redeliveries.
func (w *webhookSender) deliver(ev *webhookEvent) {
	attempt := 0
	for delay := webhookBackoff; attempt < webhookAttempts; delay *= 2 {
		attempt++
		if w.attempt(ev, attempt, false) {
			break
		}
		if attempt == webhookAttempts || !w.sleep(delay) {
			return
		}
	}
	for range w.srv.cfg.webhookRedeliveries {
		attempt++
		w.attempt(ev, attempt, true)
	}
}

// sleep waits d, or returns false when the server closes.
func (w *webhookSender) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-w.srv.done:
		return false
	}
}

// attempt POSTs ev once, signed with the current keys, and records it.
func (w *webhookSender) attempt(ev *webhookEvent, n int, redelivery bool) bool {
	keys := locked(&w.mu, func() [][]byte { return w.keys })
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sigs := make([]string, 0, len(keys))
	for _, k := range keys {
		mac := hmac.New(sha256.New, k)
		mac.Write([]byte(ev.id + "." + ts + "."))
		mac.Write(ev.body)
		sigs = append(sigs, "v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	}
	rec := WebhookDelivery{ID: ev.id, EventID: ev.eventID, EventType: ev.typ, ObjectID: ev.objectID, Attempt: n, Redelivery: redelivery}
	req, err := http.NewRequestWithContext(w.ctx, http.MethodPost, w.url, bytes.NewReader(ev.body))
	if err == nil {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("webhook-id", ev.id)
		req.Header.Set("webhook-timestamp", ts)
		req.Header.Set("webhook-signature", strings.Join(sigs, " "))
		var resp *http.Response
		if resp, err = w.hc.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
			resp.Body.Close()
			rec.Status = resp.StatusCode
		}
	}
	if err != nil {
		rec.Err = err.Error()
	}
	withLock(&w.mu, func() { w.history = append(w.history, rec) })
	return rec.Status >= 200 && rec.Status < 300
}

// webhookRoute is an endpoint whose success causes an event: its type,
// and the path value naming the object ("" when the object is the one the
// answer returns, a create), with data members taken from path values.
type webhookRoute struct {
	typ, idFrom string
	members     map[string]string // data member -> path value
}

// webhookRoutes are the endpoints that cause events (spec webhooks.md §4.1).
var webhookRoutes = map[string]webhookRoute{
	"POST /v1/sessions":                      {typ: "session.created"},
	"POST /v1/sessions/{session_id}":         {typ: "session.updated", idFrom: "session_id"},
	"POST /v1/sessions/{session_id}/archive": {typ: "session.archived", idFrom: "session_id"},
	"DELETE /v1/sessions/{session_id}":       {typ: "session.deleted", idFrom: "session_id"},
	"POST /v1/sessions/{session_id}/threads/{thread_id}/archive": {typ: "session.thread_terminated", idFrom: "session_id",
		members: map[string]string{"session_thread_id": "thread_id"}},
	"POST /v1/agents":                                {typ: "agent.created"},
	"POST /v1/agents/{agent_id}":                     {typ: "agent.updated", idFrom: "agent_id"},
	"POST /v1/agents/{agent_id}/archive":             {typ: "agent.archived", idFrom: "agent_id"},
	"POST /v1/environments":                          {typ: "environment.created"},
	"POST /v1/environments/{environment_id}":         {typ: "environment.updated", idFrom: "environment_id"},
	"POST /v1/environments/{environment_id}/archive": {typ: "environment.archived", idFrom: "environment_id"},
	"DELETE /v1/environments/{environment_id}":       {typ: "environment.deleted", idFrom: "environment_id"},
	"POST /v1/vaults":                                {typ: "vault.created"},
	"POST /v1/vaults/{vault_id}/archive":             {typ: "vault.archived", idFrom: "vault_id"},
	"DELETE /v1/vaults/{vault_id}":                   {typ: "vault.deleted", idFrom: "vault_id"},
	"POST /v1/vaults/{vault_id}/credentials": {typ: "vault_credential.created",
		members: map[string]string{"vault_id": "vault_id"}},
	"POST /v1/vaults/{vault_id}/credentials/{credential_id}/archive": {typ: "vault_credential.archived", idFrom: "credential_id",
		members: map[string]string{"vault_id": "vault_id"}},
	"DELETE /v1/vaults/{vault_id}/credentials/{credential_id}": {typ: "vault_credential.deleted", idFrom: "credential_id",
		members: map[string]string{"vault_id": "vault_id"}},
	"POST /v1/memory_stores":                           {typ: "memory_store.created"},
	"POST /v1/memory_stores/{memory_store_id}/archive": {typ: "memory_store.archived", idFrom: "memory_store_id"},
	"DELETE /v1/memory_stores/{memory_store_id}":       {typ: "memory_store.deleted", idFrom: "memory_store_id"},
}

// withWebhook wraps the handler of an endpoint that causes an event: after
// a 2xx answer, the event is queued.
func (s *Server) withWebhook(pattern string, h http.HandlerFunc) http.HandlerFunc {
	wr, ok := webhookRoutes[pattern]
	if !ok || s.webhooks == nil {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) {
		cw := &capturingWriter{ResponseWriter: w, keep: wr.idFrom == ""}
		h(cw, r)
		if cw.status/100 != 2 {
			return
		}
		id := r.PathValue(wr.idFrom)
		if wr.idFrom == "" {
			var created struct{ ID string }
			if json.Unmarshal(cw.body.Bytes(), &created) != nil {
				return
			}
			id = created.ID
		}
		members := map[string]string{}
		for m, pv := range wr.members {
			members[m] = r.PathValue(pv)
		}
		s.emitWebhook(wr.typ, id, members)
	}
}

// capturingWriter records the status and, when keep is set, the body.
type capturingWriter struct {
	http.ResponseWriter
	status int
	keep   bool
	body   bytes.Buffer
}

func (c *capturingWriter) WriteHeader(status int) {
	if c.status == 0 {
		c.status = status
	}
	c.ResponseWriter.WriteHeader(status)
}

func (c *capturingWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	if c.keep {
		c.body.Write(b)
	}
	return c.ResponseWriter.Write(b)
}

// sessionWebhooks maps the session's own status events to the webhook
// events they cause (spec webhooks.md §4.1 gives the stream counterparts).
var sessionWebhooks = map[string]string{
	"session.status_running":     "session.status_run_started",
	"session.status_idle":        "session.status_idled",
	"session.status_rescheduled": "session.status_rescheduled",
	"session.status_terminated":  "session.status_terminated",
	"session.thread_status_idle": "session.thread_idled",
}

// sessionWebhook queues the webhook event a stored session event causes,
// if any.
func (s *Server) sessionWebhook(sessionID string, ev *storedEvent) {
	typ, ok := sessionWebhooks[ev.typ]
	if !ok || s.webhooks == nil {
		return
	}
	var members map[string]string
	if th, ok := ev.m["session_thread_id"].(string); ok && strings.HasPrefix(typ, "session.thread_") {
		members = map[string]string{"session_thread_id": th}
	}
	s.emitWebhook(typ, sessionID, members)
	if reason, ok := ev.m["stop_reason"].(map[string]any); ok && reason["type"] == "budget_reached" {
		s.emitWebhook("session.budget_reached", sessionID, nil) // the engine stops once per budget
	}
}
