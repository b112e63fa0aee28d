package mmstest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
)

// The fake's rate limits (organization.md §11.5, §12) and workspace
// service-account memberships (§11.4).

// defaultRateLimits are the organization's limits until a test adds more.
func defaultRateLimits() []rec {
	return []rec{
		{"type": "rate_limit", "id": "ratelimit_0100000000000000000000001", "group": rec{"type": "model_group", "id": "rlg_01large", "display_name": "Large models"},
			"limits": []rec{{"type": "requests_per_minute", "value": 4000}, {"type": "input_tokens_per_minute_cache_aware", "value": 2000000}, {"type": "output_tokens_per_minute", "value": 400000}},
			"models": []string{"mms-large-1", "mms-large"}},
		{"type": "rate_limit", "id": "ratelimit_0100000000000000000000002", "group": rec{"type": "batch", "id": "rlg_01batch"},
			"limits": []rec{{"type": "requests_per_minute", "value": 1000}}, "models": nil},
	}
}

var limiterTypeNames = []string{"requests_per_minute", "tokens_per_minute", "input_tokens_per_minute", "input_tokens_per_minute_cache_aware",
	"output_tokens_per_minute", "tokens_per_day", "tool_uses_per_second", "fast_itpmca", "fast_otpm"}

var groupTypeNames = []string{"model_group", "batch", "token_count", "files", "skills", "web_search"}

// limitsPage answers a rate-limit list: limit omitted means everything in
// one page with next_page null.
func limitsPage(w http.ResponseWriter, r *http.Request, recs []rec) {
	if !r.URL.Query().Has("limit") {
		writeJSON(w, http.StatusOK, cursorPage[rec]{Data: append([]rec{}, recs...)})
		return
	}
	page, err := pageByCursor(recs, orderByID(recID, false), r.URL.Query(), maxPageLimit)
	writePage(w, r, page, err)
}

// inGroup reports a limit of the query's group_type (any when absent).
func inGroup(q url.Values, x rec) bool {
	g, _ := x["group"].(rec)
	return q.Get("group_type") == "" || str(g, "type") == q.Get("group_type")
}

func (o *orgStore) listRateLimits(w http.ResponseWriter, r *http.Request) {
	if !queryIn(w, r, "group_type", groupTypeNames...) {
		return
	}
	q := r.URL.Query()
	recs := o.keep(&o.limits, func(x rec) bool {
		models, _ := x["models"].([]string)
		return inGroup(q, x) && (q.Get("model") == "" || slices.Contains(models, q.Get("model")))
	})
	if q.Get("model") != "" && len(recs) == 0 {
		writeError(w, r, http.StatusNotFound, "not_found_error", "no rate limits for model "+q.Get("model"))
		return
	}
	limitsPage(w, r, recs)
}

// workspaceLimit is a workspace's view of an organization entry; o.mu held.
func (o *orgStore) workspaceLimit(ws string, x rec, inherited bool) (rec, bool) {
	over := o.wsLimits[ws][recID(x)]
	var limits []rec
	orgLimits, _ := x["limits"].([]rec)
	for _, l := range orgLimits {
		t := str(l, "type")
		if v, ok := over[t]; ok {
			limits = append(limits, rec{"type": t, "value": v, "org_limit": l["value"], "source": rec{"type": "workspace"}})
		} else if inherited {
			limits = append(limits, rec{"type": t, "value": l["value"], "org_limit": l["value"], "source": rec{"type": "organization"}})
		}
	}
	for _, t := range sortedKeys(over) { // overrides of a limiter the organization does not limit
		if !slices.ContainsFunc(orgLimits, func(l rec) bool { return str(l, "type") == t }) {
			limits = append(limits, rec{"type": t, "value": over[t], "org_limit": nil, "source": rec{"type": "workspace"}})
		}
	}
	if len(limits) == 0 {
		return nil, false
	}
	return rec{"type": "workspace_rate_limit", "id": recID(x), "workspace_id": ws, "rate_limit_id": recID(x), "group": x["group"], "models": x["models"], "limits": limits}, true
}

func (o *orgStore) listWorkspaceLimits(w http.ResponseWriter, r *http.Request) {
	if !queryIn(w, r, "group_type", groupTypeNames...) {
		return
	}
	q := r.URL.Query()
	recs, ok := o.gather(w, r, o.spaces.find, func(ws rec) []rec {
		var recs []rec
		for _, x := range o.limits {
			if v, ok := o.workspaceLimit(recID(ws), x, q.Get("include_inherited") == "true"); ok && inGroup(q, x) {
				recs = append(recs, v)
			}
		}
		return recs
	})
	if ok {
		limitsPage(w, r, recs)
	}
}

func (o *orgStore) setWorkspaceLimits(w http.ResponseWriter, r *http.Request) {
	var b struct {
		Limits []map[string]json.RawMessage `json:"limits"`
	}
	if badBody(w, r, &b) {
		return
	}
	if len(b.Limits) == 0 {
		bad(w, r, "limits: must name at least one limiter")
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	ws := o.spaces.find(w, r)
	if ws == nil {
		return
	}
	x := lookup(o.limits, r.PathValue("rate_limit_id"))
	if x == nil {
		writeError(w, r, http.StatusNotFound, "not_found_error", "rate limit not found")
		return
	}
	over := o.wsLimits[recID(ws)]
	if over == nil {
		over = map[string]rec{}
		o.wsLimits[recID(ws)] = over
	}
	set := over[recID(x)]
	if set == nil {
		set = rec{}
		over[recID(x)] = set
	}
	for _, l := range b.Limits {
		var typ string
		_ = json.Unmarshal(l["type"], &typ)
		raw, hasValue := l["value"]
		var v *int64
		switch {
		case len(l) != 2 || !slices.Contains(limiterTypeNames, typ):
			bad(w, r, "limits: each entry is {type, value} with a known limiter type")
			return
		case !hasValue:
			bad(w, r, "limits.value: Field required (an integer, or null to clear)")
			return
		case json.Unmarshal(raw, &v) != nil || v != nil && *v < 0:
			bad(w, r, "limits.value: must be a non-negative integer or null")
			return
		case v == nil:
			delete(set, typ)
		default:
			set[typ] = *v
		}
	}
	v, _ := o.workspaceLimit(recID(ws), x, true)
	writeJSON(w, http.StatusOK, v)
}

// The workspace side of service-account memberships (shared with
// /service_accounts/{id}/workspaces in admin_federation.go).

// saMember returns the explicit membership, or nil; o.mu held.
func (o *orgStore) saMember(saID, wsID string) rec {
	for _, m := range o.saMembers.items {
		if m["service_account_id"] == saID && m["workspace_id"] == wsID {
			return m
		}
	}
	return nil
}

func (o *orgStore) listWorkspaceAccounts(w http.ResponseWriter, r *http.Request) {
	recs, ok := o.gather(w, r, o.liveWorkspace, func(ws rec) []rec {
		return slices.DeleteFunc(childrenOf(o.saMembers.items, "workspace_id", recID(ws)), func(m rec) bool {
			sa := lookup(o.accounts.items, m["service_account_id"])
			return sa == nil || sa["archived_at"] != nil
		})
	})
	if ok {
		listCursorScheme(w, r, recs, member("service_account_id"))
	}
}

// liveWorkspace is the path's workspace, answering 404, or 400 when it is
// archived; o.mu held.
func (o *orgStore) liveWorkspace(w http.ResponseWriter, r *http.Request) rec {
	ws := o.spaces.find(w, r)
	if ws != nil && ws["archived_at"] != nil {
		bad(w, r, "workspace is archived")
		return nil
	}
	return ws
}

// addMembership adds or replaces an explicit membership; o.mu held; a
// message for a 400 (or "404:…") when refused.
func (o *orgStore) addMembership(saID, wsID, role string) (rec, string) {
	sa, ws := lookup(o.accounts.items, saID), lookup(o.spaces.items, wsID)
	switch {
	case sa == nil:
		return nil, "service_account_id: no such service account"
	case sa["archived_at"] != nil:
		return nil, "service account is archived"
	case ws == nil:
		return nil, "workspace_id: no such workspace"
	case ws["archived_at"] != nil:
		return nil, "workspace is archived"
	case !slices.Contains(addableRoles, role):
		return nil, "workspace_role: Input should be one of " + joinQ(addableRoles)
	}
	if m := o.saMember(saID, wsID); m != nil {
		m["workspace_role"] = role
		return m, ""
	}
	m := rec{"type": "service_account_workspace_member", "service_account_id": saID, "workspace_id": wsID, "workspace_role": role,
		"implicit": false, "created_by_actor_id": nil}
	o.saMembers.items = append(o.saMembers.items, m)
	return m, ""
}

func joinQ(xs []string) string {
	b, _ := json.Marshal(xs)
	return string(b)
}

// addSAMembership serves POST of a service account's membership of a
// workspace from either side: the path names one (find answers its 404),
// the body's member other names the other.
func (o *orgStore) addSAMembership(find func(http.ResponseWriter, *http.Request) rec, other string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, ok := body(w, r, []string{other, "workspace_role"}, other, "workspace_role")
		if !ok {
			return
		}
		id := func(k string) string {
			if k == other {
				return str(b, k)
			}
			return r.PathValue(k)
		}
		o.atRec(w, r, find, func(rec) {
			if m, msg := o.addMembership(id("service_account_id"), id("workspace_id"), str(b, "workspace_role")); !refused(w, r, msg) {
				writeJSON(w, http.StatusOK, m)
			}
		})
	}
}

// findSAMember is the path's service-account membership, answering 404;
// o.mu held.
func (o *orgStore) findSAMember(w http.ResponseWriter, r *http.Request) rec {
	m := o.saMember(r.PathValue("service_account_id"), r.PathValue("workspace_id"))
	if m == nil {
		writeError(w, r, http.StatusNotFound, "not_found_error", "service account membership not found")
	}
	return m
}

func (o *orgStore) removeWorkspaceAccount(w http.ResponseWriter, r *http.Request) {
	sa, ws := r.PathValue("service_account_id"), r.PathValue("workspace_id")
	withLock(&o.mu, func() {
		o.saMembers.items = slices.DeleteFunc(o.saMembers.items, func(x rec) bool {
			return x["service_account_id"] == sa && x["workspace_id"] == ws
		})
	})
	writeJSON(w, http.StatusOK, rec{"type": "service_account_workspace_member_deleted", "service_account_id": sa, "workspace_id": ws})
}
