package mmstest

import (
	"net/http"
	"time"
)

// routes is the Organization API's part of the route table (routes.go).
func (o *orgStore) routes() []route {
	a := credAdminKey
	return append([]route{
		{pattern: "GET /v1/organizations/me", handle: o.with(a, o.getMe)},
		{pattern: "GET /v1/organizations/api_keys", handle: o.with(a, o.listAPIKeys)},
		{pattern: "GET /v1/organizations/api_keys/{api_key_id}", handle: o.with(a, o.getAPIKey)},
		{pattern: "POST /v1/organizations/api_keys/{api_key_id}", handle: o.with(a, o.updateAPIKey)},
	}, o.allRoutes()...)
}

// getMe serves GET /v1/organizations/me.
func (o *orgStore) getMe(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"type": "organization", "id": o.s.cfg.organizationID, "name": "Test Organization"})
}

// apiKeyWire is an API key's record.
type apiKeyWire struct {
	ID             string         `json:"id"`
	Type           string         `json:"type"`
	Name           string         `json:"name"`
	PartialKeyHint string         `json:"partial_key_hint"`
	Status         string         `json:"status"`
	CreatedAt      string         `json:"created_at"`
	ExpiresAt      *string        `json:"expires_at"`
	CreatedBy      map[string]any `json:"created_by"`
	Principal      map[string]any `json:"principal"`
	Scope          map[string]any `json:"scope"`
}

// APIKeySeed describes an API key AddAPIKey adds.
type APIKeySeed struct {
	Name string
	// WorkspaceID is the key's workspace; "" makes an organization-scoped
	// key bound to CreatedByUserID's user.
	WorkspaceID string
	// Status defaults to "active".
	Status string
	// CreatedAt defaults to the server clock's now.
	CreatedAt time.Time
	// ExpiresAt is nil for never.
	ExpiresAt *time.Time
	// CreatedByUserID records who made it; "" for not recorded.
	CreatedByUserID string
}

// AddAPIKey adds an API key and returns its id.
func (g *Org) AddAPIKey(k APIKeySeed) string {
	id := g.o.s.newID("apikey_")
	rec := &apiKeyWire{ID: id, Type: "api_key", Name: k.Name, PartialKeyHint: "sk-mms-…" + id[len(id)-4:], Status: k.Status}
	if rec.Status == "" {
		rec.Status = "active"
	}
	rec.CreatedAt = g.o.stamp()
	if !k.CreatedAt.IsZero() {
		rec.CreatedAt = k.CreatedAt.UTC().Format(time.RFC3339)
	}
	if k.ExpiresAt != nil {
		e := k.ExpiresAt.UTC().Format(time.RFC3339)
		rec.ExpiresAt = &e
	}
	if k.CreatedByUserID != "" {
		rec.CreatedBy = map[string]any{"id": k.CreatedByUserID, "type": "user"}
	}
	if k.WorkspaceID != "" {
		rec.Scope = map[string]any{"type": "workspace", "workspace_id": k.WorkspaceID}
	} else {
		rec.Scope = map[string]any{"type": "organization"}
		rec.Principal = map[string]any{"type": "user_actor", "user_id": k.CreatedByUserID}
	}
	withLock(&g.o.mu, func() { g.o.apiKeys = append(g.o.apiKeys, rec) })
	return id
}

// APIKeyStatus returns the status of the key with id, "" when unknown.
func (g *Org) APIKeyStatus(id string) string {
	return locked(&g.o.mu, func() string {
		if k := byID(g.o.apiKeys, id, apiKeyID); k != nil {
			return k.Status
		}
		return ""
	})
}

func apiKeyID(k *apiKeyWire) string { return k.ID }

// listAPIKeys serves GET /v1/organizations/api_keys (id scheme; filters
// status, workspace_id, created_by_user_id).
func (o *orgStore) listAPIKeys(w http.ResponseWriter, r *http.Request) {
	if !queryIn(w, r, "status", "active", "inactive", "archived", "expired") {
		return
	}
	q := r.URL.Query()
	recs := copiesOf(&o.mu, &o.apiKeys, func(k *apiKeyWire) bool {
		st, ws, u := q.Get("status"), q.Get("workspace_id"), q.Get("created_by_user_id")
		return (st == "" || k.Status == st) && (ws == "" || k.Scope["workspace_id"] == ws) && (u == "" || k.CreatedBy["id"] == u)
	})
	listIDScheme(w, r, recs, apiKeyID, "apikey_")
}

// findAPIKey is the path's API key, answering 404; o.mu held.
func (o *orgStore) findAPIKey(w http.ResponseWriter, r *http.Request) *apiKeyWire {
	if k := byID(o.apiKeys, r.PathValue("api_key_id"), apiKeyID); found(w, r, k, "api key") {
		return k
	}
	return nil
}

// getAPIKey serves GET /v1/organizations/api_keys/{api_key_id}.
func (o *orgStore) getAPIKey(w http.ResponseWriter, r *http.Request) {
	withFound(&o.mu, w, r, o.findAPIKey, func(k *apiKeyWire) { writeJSON(w, http.StatusOK, k) })
}

// updateAPIKey serves POST /v1/organizations/api_keys/{api_key_id}:
// {name?, status?} with status active, inactive or archived.
func (o *orgStore) updateAPIKey(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name   *string `json:"name"`
		Status *string `json:"status"`
	}
	if badBody(w, r, &body) {
		return
	}
	if body.Status != nil && !oneOfStr(*body.Status, "active", "inactive", "archived") {
		bad(w, r, "status: Input should be 'active', 'inactive' or 'archived'")
		return
	}
	withFound(&o.mu, w, r, o.findAPIKey, func(k *apiKeyWire) {
		if body.Name != nil {
			k.Name = *body.Name
		}
		if body.Status != nil {
			k.Status = *body.Status
		}
		writeJSON(w, http.StatusOK, k)
	})
}

// oneOfStr reports whether v is one of allowed.
func oneOfStr(v string, allowed ...string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}
