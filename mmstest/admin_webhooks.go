package mmstest

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The organization's webhook endpoints (webhooks.md §7): beta
// webhooks-2026-10-07 (404 without it), at most 32, id-scheme list (limit
// up to 100, order by creation, newest first by default). The signing
// secret is returned by create and regenerate only.

var orgWebhookEvents = []string{"external_key.failed", "external_key.recovered", "external_storage.failed", "external_storage.recovered",
	"user_profile.enforcement_action_opened", "user_profile.enforcement_action_resolved", "user_profile.program_status_updated"}

func (o *orgStore) webhookRoutes() []route {
	a := credAdminKey
	wh := func(h http.HandlerFunc) http.HandlerFunc {
		return o.with(a, func(w http.ResponseWriter, r *http.Request) {
			if needBeta(w, r, wire.BetaAdminWebhooks) {
				h(w, r)
			}
		})
	}
	return []route{
		{pattern: "POST /v1/organizations/webhooks", handle: wh(o.createWebhook)},
		{pattern: "GET /v1/organizations/webhooks", handle: wh(o.listWebhooks)},
		{pattern: "GET /v1/organizations/webhooks/{webhook_endpoint_id}", handle: wh(o.getRec(&o.webhooks))},
		{pattern: "POST /v1/organizations/webhooks/{webhook_endpoint_id}", handle: wh(o.updateRec(&o.webhooks, []string{"url", "name", "description", "enabled_events", "state"}, checkWebhook))},
		{pattern: "DELETE /v1/organizations/webhooks/{webhook_endpoint_id}", handle: wh(o.deleteRec(&o.webhooks, "webhook_endpoint_deleted", nil))},
		{pattern: "POST /v1/organizations/webhooks/{webhook_endpoint_id}/regenerate_signing_secret", handle: wh(o.regenerateSecret)},
	}
}

func newSigningSecret() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return "whsec_" + base64.RawStdEncoding.EncodeToString(b)
}

// checkWebhook checks a create or update body; an empty enabled_events
// on update leaves the set unchanged.
func checkWebhook(cur, b rec) string {
	if v, ok := b["url"]; ok {
		s, _ := v.(string)
		if u, err := url.Parse(s); err != nil || u.Scheme != "https" || u.Host == "" {
			return "url: must be an https URL"
		}
	}
	if v, ok := b["enabled_events"]; ok {
		evs, _ := v.([]any)
		if len(evs) == 0 && cur != nil {
			delete(b, "enabled_events")
		}
		if len(evs) == 0 && cur == nil {
			return "enabled_events: at least one event type"
		}
		for _, e := range evs {
			if s, _ := e.(string); !slices.Contains(orgWebhookEvents, s) {
				return "enabled_events: unknown event type"
			}
		}
	}
	if msg := inSet(b, "state", "enabled", "disabled"); msg != "" {
		return msg
	}
	if b["state"] == "enabled" {
		b["disabled_reason"] = ""
	}
	return ""
}

func (o *orgStore) createWebhook(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, []string{"url", "enabled_events", "name", "description"}, "url", "enabled_events")
	if !ok {
		return
	}
	if msg := checkWebhook(nil, b); msg != "" {
		bad(w, r, msg)
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.webhooks.items) >= 32 {
		bad(w, r, "an organization has at most 32 webhook endpoints")
		return
	}
	x := rec{"url": b["url"], "enabled_events": b["enabled_events"], "name": str(b, "name"), "description": str(b, "description"),
		"state": "enabled", "disabled_reason": ""}
	x = o.add(&o.webhooks, x, "created_at", "updated_at")
	delete(x, "type") // the record has no type member
	out := copyRec(x)
	out["signing_secret"] = newSigningSecret()
	writeJSON(w, http.StatusOK, out)
}

func (o *orgStore) listWebhooks(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if !queryIn(w, r, "order", "asc", "desc") {
		return
	}
	if limit, err := queryLimit(q, 100); err != nil || limit > 100 {
		bad(w, r, "limit: Input should be between 1 and 100")
		return
	}
	recs := locked(&o.mu, func() []rec {
		recs := make([]rec, 0, len(o.webhooks.items))
		for _, x := range o.webhooks.items {
			recs = append(recs, copyRec(x))
		}
		return recs
	})
	if q.Get("order") == "asc" { // pageByID pages newest first; reverse the ids' order
		page, err := pageByID(slices.Clone(recs), recID, q, "")
		writePage(w, r, page, err)
		return
	}
	listIDScheme(w, r, recs, recID, o.webhooks.prefix)
}

func (o *orgStore) regenerateSecret(w http.ResponseWriter, r *http.Request) {
	if !noBody(w, r) {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.webhooks.find(w, r) != nil {
		writeJSON(w, http.StatusOK, rec{"signing_secret": newSigningSecret()})
	}
}
