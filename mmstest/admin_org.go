package mmstest

import (
	"net/http"
	"net/mail"
	"regexp"
	"slices"
	"strings"
)

// The fake's users, invites, workspaces (members, service-account
// memberships, rate limits), organization rate limits and compliance
// settings (organization.md §9–13).

func (o *orgStore) orgRoutes() []route {
	a, oa := credAdminKey, credOAuth
	return []route{
		{pattern: "GET /v1/organizations/users", handle: o.with(a, o.listUsers)},
		{pattern: "GET /v1/organizations/users/{user_id}", handle: o.with(a, o.getUser)},
		{pattern: "POST /v1/organizations/users/{user_id}", handle: o.with(a, o.updateUser)},
		{pattern: "DELETE /v1/organizations/users/{user_id}", handle: o.with(a, o.deleteUser)},
		{pattern: "POST /v1/organizations/invites", handle: o.with(a, o.createInvite)},
		{pattern: "GET /v1/organizations/invites", handle: o.with(a, o.listRecs(&o.invites, true, inviteFilter))},
		{pattern: "GET /v1/organizations/invites/{invite_id}", handle: o.with(a, o.getRec(&o.invites))},
		{pattern: "DELETE /v1/organizations/invites/{invite_id}", handle: o.with(a, o.deleteRec(&o.invites, "invite_deleted", func(x rec) string {
			if x["status"] != "pending" {
				return "only pending invites can be deleted"
			}
			return ""
		}))},
		{pattern: "POST /v1/organizations/workspaces", handle: o.with(a, o.createWorkspace)},
		{pattern: "GET /v1/organizations/workspaces", handle: o.with(a, o.listRecs(&o.spaces, true, workspaceFilter))},
		{pattern: "GET /v1/organizations/workspaces/{workspace_id}", handle: o.with(a, o.getRec(&o.spaces))},
		{pattern: "POST /v1/organizations/workspaces/{workspace_id}", handle: o.with(a, o.updateRec(&o.spaces, workspaceUpdateFields, checkWorkspace(true)))},
		{pattern: "POST /v1/organizations/workspaces/{workspace_id}/archive", handle: o.with(a, o.archiveRec(&o.spaces, nil))},
		{pattern: "GET /v1/organizations/workspaces/{workspace_id}/members", handle: o.with(a, o.listMembers)},
		{pattern: "POST /v1/organizations/workspaces/{workspace_id}/members", handle: o.with(a, o.addMember)},
		{pattern: "GET /v1/organizations/workspaces/{workspace_id}/members/{user_id}", handle: o.with(a, o.roleMember(false, wsRoles, o.findMember))},
		{pattern: "POST /v1/organizations/workspaces/{workspace_id}/members/{user_id}", handle: o.with(a, o.roleMember(true, wsRoles, o.findMember))},
		{pattern: "DELETE /v1/organizations/workspaces/{workspace_id}/members/{user_id}", handle: o.with(a, o.removeMember)},
		{pattern: "GET /v1/organizations/workspaces/{workspace_id}/service_accounts", handle: o.with(oa, o.listWorkspaceAccounts)},
		{pattern: "POST /v1/organizations/workspaces/{workspace_id}/service_accounts", handle: o.with(oa, o.addSAMembership(o.spaces.find, "service_account_id"))},
		{pattern: "GET /v1/organizations/workspaces/{workspace_id}/service_accounts/{service_account_id}", handle: o.with(oa, o.roleMember(false, addableRoles, o.findSAMember))},
		{pattern: "POST /v1/organizations/workspaces/{workspace_id}/service_accounts/{service_account_id}", handle: o.with(oa, o.roleMember(true, addableRoles, o.findSAMember))},
		{pattern: "DELETE /v1/organizations/workspaces/{workspace_id}/service_accounts/{service_account_id}", handle: o.with(oa, o.removeWorkspaceAccount)},
		{pattern: "GET /v1/organizations/workspaces/{workspace_id}/rate_limits", handle: o.with(a, o.listWorkspaceLimits)},
		{pattern: "POST /v1/organizations/workspaces/{workspace_id}/rate_limits/{rate_limit_id}", handle: o.with(a, o.setWorkspaceLimits)},
		{pattern: "GET /v1/organizations/rate_limits", handle: o.with(a, o.listRateLimits)},
		{pattern: "GET /v1/organizations/compliance_settings", handle: o.with(a, o.getCompliance)},
		{pattern: "POST /v1/organizations/compliance_settings", handle: o.with(a, o.setCompliance)},
	}
}

// allRoutes is every Organization API route but the API keys'.
func (o *orgStore) allRoutes() []route {
	return slices.Concat(o.orgRoutes(), o.federationRoutes(), o.rbacRoutes(), o.reportRoutes(), o.webhookRoutes(), o.spendRoutes())
}

var (
	assignableRoles = []string{"user", "developer", "billing", "claude_code_user", "managed"}
	allOrgRoles     = []string{"user", "developer", "billing", "admin", "claude_code_user", "managed", "membership_admin", "owner", "primary_owner"}
	wsRoles         = []string{"workspace_user", "workspace_developer", "workspace_restricted_developer", "workspace_admin", "workspace_billing"}
	addableRoles    = wsRoles[:4]
)

func userID(u *orgUser) string { return u.ID }

func (o *orgStore) listUsers(w http.ResponseWriter, r *http.Request) {
	if !queryIn(w, r, "roles", allOrgRoles...) {
		return
	}
	q := r.URL.Query()
	recs := copiesOf(&o.mu, &o.users, func(u *orgUser) bool {
		return (q.Get("email") == "" || strings.EqualFold(q.Get("email"), u.Email)) && inQuery(q["roles[]"], u.Role)
	})
	listIDScheme(w, r, recs, userID, "user_")
}

func (o *orgStore) findUser(w http.ResponseWriter, r *http.Request) *orgUser {
	u := byID(o.users, r.PathValue("user_id"), userID)
	if !found(w, r, u, "user") {
		return nil
	}
	return u
}

func (o *orgStore) getUser(w http.ResponseWriter, r *http.Request) {
	withFound(&o.mu, w, r, o.findUser, func(u *orgUser) { writeJSON(w, http.StatusOK, u) })
}

func (o *orgStore) updateUser(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, []string{"role"}, "role")
	if !ok || refused(w, r, inSet(b, "role", assignableRoles...)) {
		return
	}
	withFound(&o.mu, w, r, o.findUser, func(u *orgUser) {
		u.Role = str(b, "role")
		writeJSON(w, http.StatusOK, u)
	})
}

func (o *orgStore) deleteUser(w http.ResponseWriter, r *http.Request) {
	withFound(&o.mu, w, r, o.findUser, func(u *orgUser) {
		if len(o.users) == 1 {
			writeCodedError(w, r, http.StatusBadRequest, "cannot_remove_last_member", "the last member cannot be removed")
			return
		}
		o.users = slices.DeleteFunc(o.users, func(x *orgUser) bool { return x == u })
		o.members.items = slices.DeleteFunc(o.members.items, func(m rec) bool { return m["user_id"] == u.ID })
		writeDeleted(w, u.ID, "user_deleted")
	})
}

func inviteFilter(r *http.Request, x rec) bool {
	q := r.URL.Query()
	if q.Get("email") != "" && !strings.EqualFold(q.Get("email"), str(x, "email")) || !inQuery(q["roles[]"], str(x, "role")) {
		return false
	}
	statuses := q["statuses[]"]
	if len(statuses) == 0 {
		statuses = []string{"pending", "accepted", "expired"}
	}
	return slices.Contains(statuses, str(x, "status"))
}

func (o *orgStore) createInvite(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, []string{"email", "role", "rbac_group_ids"}, "email", "role")
	if !ok {
		return
	}
	if a, err := mail.ParseAddress(str(b, "email")); err != nil || a.Address != str(b, "email") {
		bad(w, r, "email: value is not a valid email address")
		return
	}
	if refused(w, r, inSet(b, "role", assignableRoles...)) {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, u := range o.users {
		if strings.EqualFold(u.Email, str(b, "email")) {
			writeCodedError(w, r, http.StatusBadRequest, "already_member", "the address belongs to a member")
			return
		}
	}
	for _, x := range o.invites.items {
		if strings.EqualFold(str(x, "email"), str(b, "email")) && x["status"] == "pending" {
			writeCodedError(w, r, http.StatusBadRequest, "invite_already_exists", "a pending invite exists for the address")
			return
		}
	}
	groups, _ := b["rbac_group_ids"].([]any)
	if groups == nil {
		groups = []any{}
	}
	now := o.s.now().UTC()
	x := o.add(&o.invites, rec{"email": b["email"], "role": b["role"], "status": "pending", "rbac_group_ids": groups,
		"invited_at": now.Format(timeLayout), "expires_at": now.Add(21 * 24 * 3600e9).Format(timeLayout), "accepted_at": nil})
	writeJSON(w, http.StatusOK, x)
}

const timeLayout = "2006-01-02T15:04:05Z07:00"

var hexColour = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

var workspaceUpdateFields = []string{"name", "display_color", "tags", "data_residency", "external_key_id", "user_profile_id"}

// checkWorkspace checks a workspace body (create or update) against the
// record cur (nil on create).
func checkWorkspace(update bool) func(cur, b rec) string {
	return func(cur, b rec) string {
		if c, ok := b["display_color"]; ok {
			if s, _ := c.(string); !hexColour.MatchString(s) {
				return "display_color: must be a hex colour"
			}
		}
		if tags, ok := b["tags"].(map[string]any); ok {
			for k := range tags {
				if strings.HasPrefix(strings.ToLower(k), "vendor") {
					return "tags: keys may not begin with 'vendor'"
				}
			}
		}
		if d, ok := b["data_residency"].(map[string]any); ok {
			for k := range d {
				if !slices.Contains([]string{"workspace_geo", "allowed_inference_geos", "default_inference_geo"}, k) || update && k == "workspace_geo" {
					return "data_residency." + k + ": Extra inputs are not permitted"
				}
			}
			if msg := inSet(d, "workspace_geo", "us"); msg != "" {
				return "data_residency." + msg
			}
			if msg := inSet(d, "default_inference_geo", "global", "us"); msg != "" {
				return "data_residency." + msg
			}
			allowed, _ := d["allowed_inference_geos"].([]any)
			if s, isStr := d["allowed_inference_geos"].(string); isStr && s != "unrestricted" {
				return "data_residency.allowed_inference_geos: must be 'unrestricted' or a list"
			}
			for _, g := range allowed {
				if g != "global" && g != "us" {
					return "data_residency.allowed_inference_geos: unknown geo"
				}
			}
			if def, ok := d["default_inference_geo"].(string); ok && allowed != nil && !slices.Contains(allowed, any(def)) {
				return "data_residency.default_inference_geo: must be one of the allowed inference geos"
			}
			if cur != nil {
				old, _ := cur["data_residency"].(map[string]any)
				merged := map[string]any{}
				for k, v := range old {
					merged[k] = v
				}
				for k, v := range d {
					merged[k] = v
				}
				b["data_residency"] = merged
			}
		}
		if cur != nil {
			for _, k := range []string{"external_key_id", "user_profile_id"} {
				if v, ok := b[k]; ok && cur[k] != nil && cur[k] != v {
					return k + ": is write-once and cannot be replaced"
				}
			}
		}
		return ""
	}
}

func workspaceFilter(r *http.Request, x rec) bool {
	q := r.URL.Query()
	if x["is_default"] == true && q.Get("include_default") != "true" {
		return false
	}
	if ids := q["ids[]"]; len(ids) > 0 && !slices.Contains(ids, recID(x)) {
		return false
	}
	return true
}

func (o *orgStore) createWorkspace(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, workspaceUpdateFields, "name")
	if ok && !refused(w, r, checkWorkspace(false)(nil, b)) {
		withLock(&o.mu, func() { writeJSON(w, http.StatusOK, o.newWorkspace(b)) })
	}
}

// newWorkspace stores a workspace from a create body; o.mu held.
func (o *orgStore) newWorkspace(b rec) rec {
	d, _ := b["data_residency"].(map[string]any)
	res := map[string]any{"workspace_geo": "us", "allowed_inference_geos": "unrestricted", "default_inference_geo": "global"}
	for k, v := range d {
		res[k] = v
	}
	tags, _ := b["tags"].(map[string]any)
	if tags == nil {
		tags = map[string]any{}
	}
	color := str(b, "display_color")
	if color == "" {
		color = "#6C5BB9"
	}
	x := rec{"name": b["name"], "display_color": color, "tags": tags, "data_residency": res,
		"external_key_id": b["external_key_id"], "user_profile_id": b["user_profile_id"], "archived_at": nil}
	x = o.add(&o.spaces, x, "created_at")
	x["compartment_id"] = "cmpt_" + strings.TrimPrefix(recID(x), "wrkspc_")
	return x
}

// AddWorkspace adds a workspace named name and returns its id.
func (g *Org) AddWorkspace(name string) string {
	return locked(&g.o.mu, func() string { return recID(g.o.newWorkspace(rec{"name": name})) })
}

// AddWorkspaceMember adds userID to a workspace with a role.
func (g *Org) AddWorkspaceMember(workspaceID, userID, role string) {
	withLock(&g.o.mu, func() {
		g.o.members.items = append(g.o.members.items, rec{"type": "workspace_member", "workspace_id": workspaceID, "user_id": userID, "workspace_role": role})
	})
}

func (o *orgStore) listMembers(w http.ResponseWriter, r *http.Request) {
	if recs, ok := o.gather(w, r, o.spaces.find, func(ws rec) []rec { return childrenOf(o.members.items, "workspace_id", recID(ws)) }); ok {
		listIDScheme(w, r, recs, member("user_id"), "user_")
	}
}

func (o *orgStore) findMember(w http.ResponseWriter, r *http.Request) rec {
	for _, m := range o.members.items {
		if m["workspace_id"] == r.PathValue("workspace_id") && m["user_id"] == r.PathValue("user_id") {
			return m
		}
	}
	writeError(w, r, http.StatusNotFound, "not_found_error", "workspace member not found")
	return nil
}

func (o *orgStore) addMember(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, []string{"user_id", "workspace_role"}, "user_id", "workspace_role")
	if !ok || refused(w, r, inSet(b, "workspace_role", addableRoles...)) {
		return
	}
	o.atRec(w, r, o.liveWorkspace, func(ws rec) {
		switch {
		case byID(o.users, str(b, "user_id"), userID) == nil:
			bad(w, r, "user_id: no such member of the organization")
		case slices.ContainsFunc(o.members.items, func(m rec) bool { return m["workspace_id"] == recID(ws) && m["user_id"] == b["user_id"] }):
			bad(w, r, "user_id: already a member of the workspace")
		default:
			m := rec{"type": "workspace_member", "workspace_id": recID(ws), "user_id": b["user_id"], "workspace_role": b["workspace_role"]}
			o.members.items = append(o.members.items, m)
			writeJSON(w, http.StatusOK, m)
		}
	})
}

// roleMember serves GET (and, with update, POST {workspace_role}, one of
// roles) of the membership find names (find answers its 404): a user's
// or a service account's membership of a workspace.
func (o *orgStore) roleMember(update bool, roles []string, find func(http.ResponseWriter, *http.Request) rec) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var b rec
		if update {
			var ok bool
			if b, ok = body(w, r, []string{"workspace_role"}, "workspace_role"); !ok || refused(w, r, inSet(b, "workspace_role", roles...)) {
				return
			}
		}
		o.atRec(w, r, find, func(m rec) {
			if update {
				m["workspace_role"] = b["workspace_role"]
			}
			writeJSON(w, http.StatusOK, m)
		})
	}
}

func (o *orgStore) removeMember(w http.ResponseWriter, r *http.Request) {
	o.atRec(w, r, o.findMember, func(m rec) {
		o.members.items = slices.DeleteFunc(o.members.items, func(x rec) bool {
			return x["workspace_id"] == m["workspace_id"] && x["user_id"] == m["user_id"]
		})
		writeJSON(w, http.StatusOK, rec{"type": "workspace_member_deleted", "workspace_id": m["workspace_id"], "user_id": m["user_id"]})
	})
}

func (o *orgStore) getCompliance(w http.ResponseWriter, r *http.Request) {
	o.mu.Lock()
	defer o.mu.Unlock()
	writeJSON(w, http.StatusOK, rec{"type": "compliance_settings", "state": rec{"type": o.compliance}})
}

func (o *orgStore) setCompliance(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, []string{"state"}, "state")
	if !ok {
		return
	}
	state, isStr := b["state"].(string) // the shorthand
	if m, isObj := b["state"].(map[string]any); isObj && len(m) == 1 {
		state, isStr = m["type"].(string)
	}
	if !isStr || state != "enabled" && state != "disabled" {
		bad(w, r, "state: must be 'enabled' or 'disabled' (or {type})")
		return
	}
	withLock(&o.mu, func() { o.compliance = state })
	o.getCompliance(w, r)
}
