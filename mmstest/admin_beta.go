package mmstest

// The Organization API's beta-only families other than reports and
// webhooks (organization.md §19.1, §19.3–19.7), each answering 404 without
// its beta as the service does: Google data controls, External Storage,
// telemetry destinations (this file), plugins and marketplaces (admin_beta_plugins.go), the
// coding CLI's managed settings and the Slack integration
// (admin_beta_tag.go).

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// orgBeta is the beta families' state, under orgStore.mu.
type orgBeta struct {
	storage, destinations coll
	google                map[string]rec            // project number → data controls
	destHeaders           map[string]map[string]any // destination → header values (never returned)
	lastTest              map[string]time.Time      // destination → its last test
	plugins               pluginState               // admin_beta_plugins.go
	tag                   tagState                  // admin_beta_tag.go
}

// betaRoutes sets up the beta families' state and returns their routes;
// the server calls it once, when it builds its route table.
func (o *orgStore) betaRoutes() []route {
	b := &o.beta
	b.storage = coll{prefix: "estrg_", typ: "external_storage", param: "external_storage_id", what: "external storage"}
	b.destinations = coll{prefix: "tdest_", typ: "telemetry_destination", param: "destination_id", what: "telemetry destination"}
	b.google, b.destHeaders, b.lastTest = map[string]rec{}, map[string]map[string]any{}, map[string]time.Time{}
	a := credAdminKey
	efs, tel := wire.BetaExternalStorage, wire.BetaTelemetryDestinations
	const st, td = "/v1/organizations/external_storage", "/v1/organizations/telemetry_destinations"
	routes := []route{
		{pattern: "GET /v1/organizations/providers/google/projects/{project_number}/data_controls", handle: o.gated(wire.BetaGoogleDataControls, a, o.getWith(o.findGoogle))},
		{pattern: "POST /v1/organizations/providers/google/projects/{project_number}/data_controls", handle: o.gated(wire.BetaGoogleDataControls, credAnyKey, o.updateGoogle)},
		{pattern: "POST " + st, handle: o.gated(efs, a, o.registerStorage)},
		{pattern: "GET " + st, handle: o.gated(efs, a, o.listRecs(&b.storage, false, storageFilter))},
		{pattern: "GET " + st + "/{external_storage_id}", handle: o.gated(efs, a, o.getRec(&b.storage))},
		{pattern: "POST " + st + "/{external_storage_id}", handle: o.gated(efs, a, o.updateRec(&b.storage, []string{"display_name"}, func(_, body rec) string {
			if _, ok := body["display_name"]; !ok {
				return "display_name: Field required"
			}
			return ""
		}))},
		{pattern: "DELETE " + st + "/{external_storage_id}", handle: o.gated(efs, a, o.deleteRec(&b.storage, "external_storage_deleted", storageInUse))},
		{pattern: "POST " + st + "/{external_storage_id}/activate", handle: o.gated(efs, a, o.activateStorage)},
		{pattern: "POST " + td, handle: o.gated(tel, a, o.createDestination)},
		{pattern: "GET " + td, handle: o.gated(tel, a, o.listRecs(&b.destinations, false, destinationFilter))},
		{pattern: "GET " + td + "/{destination_id}", handle: o.gated(tel, a, o.getRec(&b.destinations))},
		{pattern: "POST " + td + "/{destination_id}", handle: o.gated(tel, a, o.updateDestination)},
		{pattern: "DELETE " + td + "/{destination_id}", handle: o.gated(tel, a, o.deleteRec(&b.destinations, "telemetry_destination_deleted", nil))},
		{pattern: "POST " + td + "/{destination_id}/test", handle: o.gated(tel, a, o.testDestination)},
		{pattern: "GET " + td + "/{destination_id}/workspaces", handle: o.gated(tel, a, o.destinationWorkspaces)},
		{pattern: "POST " + td + "/{destination_id}/workspaces/{workspace_id}", handle: o.gated(tel, a, o.destinationWorkspace(true))},
		{pattern: "DELETE " + td + "/{destination_id}/workspaces/{workspace_id}", handle: o.gated(tel, a, o.destinationWorkspace(false))},
	}
	return slices.Concat(routes, o.pluginRoutes(), o.tagRoutes(), o.complianceRoutes())
}

// gated is h behind the credential check of kind and the beta: without
// it the service answers 404 as if the endpoint were absent.
func (o *orgStore) gated(beta string, kind orgCred, h http.HandlerFunc) http.HandlerFunc {
	return o.with(kind, func(w http.ResponseWriter, r *http.Request) {
		if needBeta(w, r, beta) {
			h(w, r)
		}
	})
}

// AddGoogleProject records that the organization proved it owns the
// Google Cloud project, with both data controls disabled.
func (g *Org) AddGoogleProject(projectNumber string) {
	withLock(&g.o.mu, func() {
		g.o.beta.google[projectNumber] = rec{"type": "google_managed_project_data_controls", "project_number": projectNumber,
			"cmek":    rec{"type": "disabled", "retired_keys": []any{}},
			"storage": rec{"type": "disabled", "retired_buckets": []any{}}, "updated_at": g.o.stamp()}
	})
}

func (o *orgStore) findGoogle(w http.ResponseWriter, r *http.Request) rec {
	x := o.beta.google[r.PathValue("project_number")]
	if x == nil {
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "project not found: the organization has not proved it owns it")
	}
	return x
}

// updateGoogle serves POST …/data_controls: a user or service-account
// credential only (a plain admin key is 403); omitted controls and regions
// are unchanged.
func (o *orgStore) updateGoogle(w http.ResponseWriter, r *http.Request) {
	if k := r.Header.Get(wire.HeaderAPIKey); k != "" && oneOf(k, o.s.cfg.adminKeys) {
		writeError(w, r, http.StatusForbidden, wire.ErrPermission, "data controls are updated with a user or service-account credential, not an admin API key")
		return
	}
	if b, ok := body(w, r, []string{"cmek", "storage"}); ok {
		o.atRec(w, r, o.findGoogle, func(x rec) { o.setGoogle(w, r, x, b) })
	}
}

// setGoogle applies an update body b to the data controls x; o.mu held.
func (o *orgStore) setGoogle(w http.ResponseWriter, r *http.Request, x, b rec) {
	for _, c := range []struct{ key, regions, retired string }{{"cmek", "external_key_ids", "retired_keys"}, {"storage", "buckets", "retired_buckets"}} {
		v, ok := b[c.key]
		if !ok {
			continue
		}
		u, _ := v.(rec)
		cur, _ := x[c.key].(rec)
		m, _ := u[c.regions].(rec)
		switch str(u, "type") {
		case "disabled":
			if len(m) > 0 {
				bad(w, r, c.key+"."+c.regions+": not allowed when disabled")
				return
			}
			x[c.key] = rec{"type": "disabled", c.retired: []any{}}
		case "enabled":
			if len(m) == 0 && str(cur, "type") != "enabled" {
				bad(w, r, c.key+"."+c.regions+": name at least one region")
				return
			}
			regions, status := rec{}, rec{}
			if str(cur, "type") == "enabled" {
				for k, v := range cur[c.regions].(rec) {
					regions[k], status[k] = v, rec{"type": "active"}
				}
			}
			for k, v := range m {
				regions[k], status[k] = v, rec{"type": "active"}
			}
			x[c.key] = rec{"type": "enabled", c.regions: regions, "status": status, c.retired: []any{}}
		default:
			bad(w, r, c.key+".type: Input should be 'enabled' or 'disabled'")
			return
		}
	}
	x["updated_at"] = o.stamp()
	writeJSON(w, http.StatusOK, x)
}

func storageFilter(r *http.Request, x rec) bool {
	ps := r.URL.Query()["user_profile_ids[]"]
	return len(ps) == 0 || slices.Contains(ps, str(x, "user_profile_id"))
}

// registerStorage serves POST /external_storage: pending until activated.
func (o *orgStore) registerStorage(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, []string{"provider_config", "display_name", "user_profile_id"}, "provider_config")
	if !ok {
		return
	}
	pc, _ := b["provider_config"].(rec)
	var fields []string
	switch str(pc, "type") {
	case "aws":
		fields = []string{"type", "account_id", "bucket_name", "region"}
		if a := str(pc, "account_id"); len(a) != 12 || strings.Trim(a, "0123456789") != "" {
			bad(w, r, "provider_config.account_id: must be a 12-digit AWS account id")
			return
		}
	case "gcp":
		fields = []string{"type", "project_number", "bucket_name", "region"}
	default:
		bad(w, r, "provider_config.type: Input should be 'aws' or 'gcp'")
		return
	}
	for k := range pc {
		if !slices.Contains(fields, k) {
			bad(w, r, "provider_config."+k+": Extra inputs are not permitted")
			return
		}
	}
	for _, k := range fields {
		if str(pc, k) == "" {
			bad(w, r, "provider_config."+k+": Field required")
			return
		}
	}
	x := rec{"display_name": b["display_name"], "provider_config": pc, "status": rec{"type": "pending_configuration"},
		"setup_template_version": "2026-10-01", "user_profile_id": b["user_profile_id"]}
	o.createRec(w, &o.beta.storage, x)
}

// SetExternalStorageStatus sets a storage's status type ("available",
// "active", "draining"), as its use by workspaces would.
func (g *Org) SetExternalStorageStatus(id, status string) {
	withLock(&g.o.mu, func() {
		if x := lookup(g.o.beta.storage.items, id); x != nil {
			x["status"] = rec{"type": status, "healthy": true, "last_checked_at": g.o.stamp()}
			if status == "draining" {
				x["status"].(rec)["removal_started"] = false
			}
		}
	})
}

// storageInUse refuses deleting active storage; draining storage starts
// its removal and is refused too (a 400).
func storageInUse(x rec) string {
	st, _ := x["status"].(rec)
	switch str(st, "type") {
	case "active":
		return "external storage is in use: remove it from every workspace's policy first"
	case "draining":
		st = copyRec(st)
		st["removal_started"] = true
		x["status"] = st
		return "external storage is draining: its removal started; delete it again later"
	}
	return ""
}

// activateStorage serves POST …/activate: pending → available; others
// unchanged.
func (o *orgStore) activateStorage(w http.ResponseWriter, r *http.Request) {
	if !noBody(w, r) {
		return
	}
	o.atRec(w, r, o.beta.storage.find, func(x rec) {
		if st, _ := x["status"].(rec); str(st, "type") == "pending_configuration" {
			x["status"] = rec{"type": "available", "healthy": true, "last_checked_at": o.stamp()}
			x["updated_at"] = o.stamp()
		}
		writeJSON(w, http.StatusOK, x)
	})
}

var destinationFields = []string{"endpoint_url", "workspaces", "display_name", "headers", "traces"}

func destinationFilter(r *http.Request, x rec) bool {
	ids := r.URL.Query()["workspace_ids[]"]
	if len(ids) == 0 {
		return true
	}
	ws, _ := x["workspaces"].(rec)
	listed, _ := ws["workspace_ids"].([]any)
	for _, id := range ids {
		in := slices.Contains(listed, any(id))
		switch str(ws, "type") {
		case "all":
			return true
		case "include":
			if in {
				return true
			}
		case "exclude":
			if !in {
				return true
			}
		}
	}
	return false
}

// checkDestination checks the members of a create or update body.
func checkDestination(b rec) string {
	if v, ok := b["endpoint_url"]; ok {
		s, _ := v.(string)
		if u, err := url.Parse(s); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return "endpoint_url: must be an absolute http or https URL"
		}
	}
	if v, ok := b["workspaces"]; ok {
		ws, _ := v.(rec)
		ids, _ := ws["workspace_ids"].([]any)
		switch str(ws, "type") {
		case "all":
			if len(ids) > 0 {
				return "workspaces.workspace_ids: not allowed for all"
			}
		case "include", "exclude":
			if len(ids) > 1000 {
				return "workspaces.workspace_ids: at most 1000 workspaces"
			}
		default:
			return "workspaces.type: Input should be 'all', 'include' or 'exclude'"
		}
	}
	if v, ok := b["traces"]; ok {
		t, _ := v.(rec)
		if msg := inSet(t, "content_mode", "metadata_only", "content"); msg != "" {
			return "traces." + msg
		}
	}
	return ""
}

// setDestination writes a body's members into x, keeping header values
// aside; o.mu held.
func (o *orgStore) setDestination(x, b rec) {
	id := recID(x)
	if u, ok := b["endpoint_url"]; ok {
		if old, _ := url.Parse(str(x, "endpoint_url")); old != nil && x["endpoint_url"] != nil {
			if nu, _ := url.Parse(u.(string)); nu.Host != old.Host {
				delete(o.beta.destHeaders, id) // a new host or port drops the registered headers
			}
		}
	}
	if h, ok := b["headers"].(rec); ok {
		o.beta.destHeaders[id] = h
	}
	for _, k := range []string{"endpoint_url", "workspaces", "display_name", "traces"} {
		if v, ok := b[k]; ok {
			x[k] = v
		}
	}
	x["header_names"] = sortedKeys(o.beta.destHeaders[id])
}

// createDestination serves POST /telemetry_destinations (≤ 10).
func (o *orgStore) createDestination(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, destinationFields, "endpoint_url", "workspaces")
	if !ok || refused(w, r, checkDestination(b)) {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.beta.destinations.items) >= 10 {
		bad(w, r, "an organization has at most 10 telemetry destinations")
		return
	}
	x := o.add(&o.beta.destinations, rec{"display_name": nil, "traces": rec{"enabled": true, "content_mode": "metadata_only"},
		"state": rec{"type": "enabled"}, "delivery_health": rec{"last_success_at": nil, "last_error": nil, "last_error_at": nil}}, "created_at", "updated_at")
	o.setDestination(x, b)
	writeJSON(w, http.StatusOK, x)
}

// updateDestination serves POST /telemetry_destinations/{id}: at least
// one field.
func (o *orgStore) updateDestination(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, destinationFields)
	if !ok {
		return
	}
	if len(b) == 0 {
		bad(w, r, "an update must change at least one field")
		return
	}
	if !refused(w, r, checkDestination(b)) {
		o.atRec(w, r, o.beta.destinations.find, func(x rec) {
			o.setDestination(x, b)
			x["updated_at"] = o.stamp()
			writeJSON(w, http.StatusOK, x)
		})
	}
}

// testDestination serves POST …/test: one test span, at most one test per
// 10 s; a host under .invalid fails to connect.
func (o *orgStore) testDestination(w http.ResponseWriter, r *http.Request) {
	if !noBody(w, r) {
		return
	}
	o.atRec(w, r, o.beta.destinations.find, func(x rec) {
		now := o.s.now()
		if last, ok := o.beta.lastTest[recID(x)]; ok && now.Sub(last) < 10*time.Second {
			writeError(w, r, http.StatusTooManyRequests, wire.ErrRateLimit, "a destination can be tested once every 10 seconds")
			return
		}
		o.beta.lastTest[recID(x)] = now
		result := rec{"type": "success"}
		if u, _ := url.Parse(str(x, "endpoint_url")); u != nil && strings.HasSuffix(u.Hostname(), ".invalid") {
			result = rec{"type": "failure", "error": "could not connect to " + u.Host}
		}
		writeJSON(w, http.StatusOK, rec{"result": result})
	})
}

// destinationOf finds the destination of an include or exclude list,
// answering 404 or 400; o.mu held.
func (o *orgStore) destinationOf(w http.ResponseWriter, r *http.Request) rec {
	x := o.beta.destinations.find(w, r)
	if ws, _ := x["workspaces"].(rec); x != nil && str(ws, "type") == "all" {
		bad(w, r, "this destination exports every workspace: it has no workspace list")
		return nil
	}
	return x
}

func (o *orgStore) destinationWorkspaces(w http.ResponseWriter, r *http.Request) {
	recs, ok := o.gather(w, r, o.destinationOf, func(x rec) []rec {
		var recs []rec
		ws, _ := x["workspaces"].(rec)
		ids, _ := ws["workspace_ids"].([]any)
		for _, id := range ids {
			recs = append(recs, rec{"type": "telemetry_destination_workspace", "workspace_id": id})
		}
		return recs
	})
	if ok {
		listCursorScheme(w, r, recs, member("workspace_id"))
	}
}

// destinationWorkspace adds (idempotent, ≤ 1,000) or removes (404 when
// not listed) a workspace.
func (o *orgStore) destinationWorkspace(add bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if add && !noBody(w, r) {
			return
		}
		o.atRec(w, r, o.destinationOf, func(x rec) { o.setDestinationWorkspace(w, r, x, add) })
	}
}

// setDestinationWorkspace adds or removes the path's workspace in the
// list of destination x; o.mu held.
func (o *orgStore) setDestinationWorkspace(w http.ResponseWriter, r *http.Request, x rec, add bool) {
	ws, _ := x["workspaces"].(rec)
	id := r.PathValue("workspace_id")
	ids, _ := ws["workspace_ids"].([]any)
	in := slices.Contains(ids, any(id))
	switch {
	case add && !in && len(ids) >= 1000:
		bad(w, r, "a destination lists at most 1000 workspaces")
		return
	case add && !in:
		nw := copyRec(ws) // a fresh map: a page being written holds the old one
		nw["workspace_ids"] = append(slices.Clip(ids), id)
		x["workspaces"] = nw
	case !add && !in:
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "workspace is not in the destination's list")
		return
	case !add:
		nw := copyRec(ws)
		nw["workspace_ids"] = slices.DeleteFunc(slices.Clone(ids), func(v any) bool { return v == any(id) })
		x["workspaces"] = nw
		writeDeleted(w, id, "telemetry_destination_workspace_deleted")
		return
	}
	x["updated_at"] = o.stamp()
	writeJSON(w, http.StatusOK, rec{"type": "telemetry_destination_workspace", "workspace_id": id})
}
