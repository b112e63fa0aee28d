package mmstest

import (
	"net/http"
	"slices"
	"strings"
	"time"
)

// The fake's RBAC groups and roles, spend limits and increase requests,
// and analytics (organization.md §14–17).

func (o *orgStore) rbacRoutes() []route {
	a, any := credAdminKey, credAnyKey
	routes := []route{
		{pattern: "POST /v1/organizations/rbac_groups", handle: o.with(a, o.createGroup)},
		{pattern: "GET /v1/organizations/rbac_groups", handle: o.with(a, o.listRecs(&o.groups, false, nil))},
		{pattern: "GET /v1/organizations/rbac_groups/{rbac_group_id}", handle: o.with(a, o.getRec(&o.groups))},
		{pattern: "POST /v1/organizations/rbac_groups/{rbac_group_id}", handle: o.with(a, o.updateRec(&o.groups, []string{"name"}, nil))},
		{pattern: "DELETE /v1/organizations/rbac_groups/{rbac_group_id}", handle: o.with(a, o.deleteRec(&o.groups, "rbac_group_deleted", nil))},
		{pattern: "GET /v1/organizations/rbac_groups/{rbac_group_id}/members", handle: o.with(a, o.listGroupMembers)},
		{pattern: "POST /v1/organizations/rbac_groups/{rbac_group_id}/members", handle: o.with(a, o.addGroupMember)},
		{pattern: "DELETE /v1/organizations/rbac_groups/{rbac_group_id}/members/{user_id}", handle: o.with(a, o.removeGroupMember)},
		{pattern: "GET /v1/organizations/rbac_roles", handle: o.with(a, o.listRecs(&o.roles, false, nil))},
		{pattern: "GET /v1/organizations/rbac_roles/{rbac_role_id}", handle: o.with(a, o.getRec(&o.roles))},
		{pattern: "GET /v1/organizations/rbac_roles/{rbac_role_id}/permissions", handle: o.with(a, o.listPermissions)},
		{pattern: "GET /v1/organizations/spend_limits/effective", handle: o.with(a, o.listEffective)},
		{pattern: "GET /v1/organizations/spend_limit_increase_requests", handle: o.with(a, o.listRecs(&o.increases, false, increaseFilter))},
		{pattern: "GET /v1/organizations/spend_limit_increase_requests/{spend_limit_increase_request_id}", handle: o.with(a, o.getRec(&o.increases))},
		{pattern: "POST /v1/organizations/spend_limit_increase_requests/{spend_limit_increase_request_id}/approve", handle: o.with(a, o.resolveIncrease(true))},
		{pattern: "POST /v1/organizations/spend_limit_increase_requests/{spend_limit_increase_request_id}/deny", handle: o.with(a, o.resolveIncrease(false))},
	}
	for name, rules := range analyticsEndpoints {
		routes = append(routes, route{pattern: "GET /v1/organizations/analytics/" + name, handle: o.with(any, o.analyticsList(name, rules))})
	}
	return routes
}

func (o *orgStore) createGroup(w http.ResponseWriter, r *http.Request) {
	if b, ok := body(w, r, []string{"name"}, "name"); ok {
		o.createRec(w, &o.groups, rec{"name": b["name"], "source_type": "direct", "role_ids": []any{}})
	}
}

func (o *orgStore) listGroupMembers(w http.ResponseWriter, r *http.Request) {
	if recs, ok := o.gather(w, r, o.groups.find, func(g rec) []rec { return childrenOf(o.gMembers.items, "rbac_group_id", recID(g)) }); ok {
		listCursorScheme(w, r, recs, member("user_id"))
	}
}

func (o *orgStore) addGroupMember(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, []string{"user_id"}, "user_id")
	if !ok {
		return
	}
	o.atRec(w, r, o.groups.find, func(g rec) {
		u := byID(o.users, str(b, "user_id"), userID)
		if u == nil {
			bad(w, r, "user_id: no such member")
			return
		}
		i := slices.IndexFunc(o.gMembers.items, func(m rec) bool { return m["rbac_group_id"] == recID(g) && m["user_id"] == u.ID })
		if i < 0 {
			o.gMembers.items = append(o.gMembers.items, rec{"type": "rbac_group_member", "rbac_group_id": recID(g), "user_id": u.ID, "email": u.Email, "created_at": o.stamp()})
			i = len(o.gMembers.items) - 1
		}
		writeJSON(w, http.StatusOK, o.gMembers.items[i])
	})
}

func (o *orgStore) removeGroupMember(w http.ResponseWriter, r *http.Request) {
	user := r.PathValue("user_id")
	o.atRec(w, r, o.groups.find, func(g rec) {
		n := len(o.gMembers.items)
		o.gMembers.items = slices.DeleteFunc(o.gMembers.items, func(m rec) bool { return m["rbac_group_id"] == recID(g) && m["user_id"] == user })
		if n == len(o.gMembers.items) {
			writeError(w, r, http.StatusNotFound, "not_found_error", "rbac group member not found")
			return
		}
		writeJSON(w, http.StatusOK, rec{"type": "rbac_group_member_deleted", "rbac_group_id": recID(g), "user_id": user})
	})
}

// RBACPermission is one grant AddRBACRole gives a role: an action on a
// resource ({type, …ids} as the wire writes it).
type RBACPermission struct {
	Action   string
	Resource map[string]any
}

// AddRBACRole adds a read-only role (source "built_in" or "custom") and
// returns its id.
func (g *Org) AddRBACRole(displayName, source string, perms ...RBACPermission) string {
	return locked(&g.o.mu, func() string {
		x := g.o.add(&g.o.roles, rec{"display_name": displayName, "source": rec{"type": source}}, "created_at", "updated_at")
		for _, p := range perms {
			g.o.perms[recID(x)] = append(g.o.perms[recID(x)], rec{"type": "rbac_role_permission", "action": p.Action, "resource": p.Resource})
		}
		return recID(x)
	})
}

func (o *orgStore) listPermissions(w http.ResponseWriter, r *http.Request) {
	recs, ok := o.gather(w, r, o.roles.find, func(x rec) []rec {
		var recs []rec
		for i, p := range o.perms[recID(x)] {
			y := copyRec(p)
			y["id"] = seqKey(i) // a position for paging (writeRows)
			recs = append(recs, y)
		}
		return recs
	})
	if ok {
		writeRows(w, r, recs)
	}
}

// writeRows answers a cursor page of rows whose "id" is only their place
// (a seqKey or a row id the wire does not show): it orders and pages
// them, and is left out of the answer.
func writeRows(w http.ResponseWriter, r *http.Request, recs []rec) {
	page, err := pageByCursorAs(recs, orderByID(recID, false), r.URL.Query(), maxPageLimit, func(y rec) rec {
		z := copyRec(y)
		delete(z, "id")
		return z
	})
	writePage(w, r, page, err)
}

// AddSpendSummary adds a row of spend_limits/effective: a user's limit of
// a period (amount "" for no limit) and spend so far, both decimal strings
// in minor units.
func (g *Org) AddSpendSummary(userID, period, amount, spend string) {
	withLock(&g.o.mu, func() {
		var amt any
		if amount != "" {
			amt = amount
		}
		g.o.effective = append(g.o.effective, rec{"id": g.o.s.newID("row_"), "actor": rec{"type": "user_actor", "user_id": userID, "deleted": false},
			"spend_limit_id": nil, "period": period, "amount": amt, "currency": "USD", "period_to_date_spend": spend,
			"scope": rec{"type": "user", "user_id": userID}, "source": rec{"type": "organization"}})
	})
}

func (o *orgStore) listEffective(w http.ResponseWriter, r *http.Request) {
	if !queryIn(w, r, "period", "daily", "weekly", "monthly") {
		return
	}
	q := r.URL.Query()
	if len(q["user_ids[]"]) > 100 {
		bad(w, r, "user_ids: at most 100")
		return
	}
	writeRows(w, r, o.keep(&o.effective, func(x rec) bool {
		return inQuery(q["period[]"], str(x, "period")) && inQuery(q["user_ids[]"], str(x["actor"].(rec), "user_id"))
	}))
}

// keep is a copy of each record of *items keep keeps, read with o.mu
// held.
func (o *orgStore) keep(items *[]rec, keep func(x rec) bool) []rec {
	return locked(&o.mu, func() []rec {
		var recs []rec
		for _, x := range *items {
			if keep(x) {
				recs = append(recs, copyRec(x))
			}
		}
		return recs
	})
}

// inQuery reports v one of a list filter's values (any v when the query
// names none).
func inQuery(vals []string, v string) bool { return len(vals) == 0 || slices.Contains(vals, v) }

// AddIncreaseRequest adds a pending spend-limit increase request of a
// user for a period and returns its id.
func (g *Org) AddIncreaseRequest(userID, period string) string {
	return locked(&g.o.mu, func() string {
		return recID(g.o.add(&g.o.increases, rec{"actor": rec{"type": "user_actor", "user_id": userID, "deleted": false}, "period": period,
			"status": "pending", "resolved_at": nil, "resolved_by": nil, "spend_summary": nil}, "created_at"))
	})
}

func increaseFilter(r *http.Request, x rec) bool {
	q := r.URL.Query()
	return inQuery(q["status[]"], str(x, "status")) && inQuery(q["actor_ids[]"], str(x["actor"].(rec), "user_id"))
}

func (o *orgStore) resolveIncrease(approve bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		fields := []string{"suppress_notification"}
		var need []string
		if approve {
			fields, need = append(fields, "amount", "period"), []string{"amount"}
		}
		b, ok := body(w, r, fields, need...)
		if !ok {
			return
		}
		if approve {
			a := str(b, "amount")
			if a == "" || strings.Trim(a, "0123456789") != "" {
				bad(w, r, "amount: must be an integer string of minor units")
				return
			}
			if refused(w, r, inSet(b, "period", "daily", "weekly", "monthly")) {
				return
			}
		}
		o.atRec(w, r, o.increases.find, func(x rec) {
			if !approve && x["status"] == "approved" {
				bad(w, r, "an approved request cannot be denied")
				return
			}
			out := copyRec(x)
			if approve {
				period := str(b, "period")
				if period == "" {
					period = str(x, "period")
				}
				actor, _ := x["actor"].(rec)
				out["spend_limit"] = rec{"id": o.s.newID("spl_"), "type": "spend_limit", "scope": rec{"type": "user", "user_id": actor["user_id"]},
					"period": period, "amount": b["amount"], "currency": "USD", "is_enabled": true, "created_at": o.stamp(), "updated_at": o.stamp()}
				x["status"] = "approved"
			} else {
				x["status"] = "denied"
			}
			if x["resolved_at"] == nil {
				x["resolved_at"] = o.stamp()
			}
			out["status"], out["resolved_at"] = x["status"], x["resolved_at"]
			writeJSON(w, http.StatusOK, out)
		})
	}
}

// analyticsEndpoint is what one analytics list accepts.
type analyticsEndpoint struct{ filters, groups []string }

var analyticsEndpoints = map[string]analyticsEndpoint{
	"summaries":          {filters: []string{"rbac_group_id"}},
	"users":              {filters: []string{"project_id", "rbac_group_id", "user_id"}, groups: []string{"rbac_group_id"}},
	"apps/chat/projects": {filters: []string{"project_id", "rbac_group_id", "user_id"}, groups: []string{"rbac_group_id", "user_id"}},
	"connectors":         {filters: []string{"connector_name", "product", "rbac_group_id", "user_id"}, groups: []string{"product", "rbac_group_id", "user_id"}},
	"plugins":            {filters: []string{"plugin_name", "product", "rbac_group_id", "user_id"}, groups: []string{"product", "rbac_group_id", "user_id"}},
	"skills":             {filters: []string{"product", "rbac_group_id", "share_status", "skill_name", "user_id"}, groups: []string{"product", "rbac_group_id", "user_id"}},
	"artifacts":          {filters: []string{"artifact_type", "is_shared", "product", "rbac_group_id", "user_id"}, groups: []string{"product", "rbac_group_id", "user_id"}},
}

// AddAnalyticsRows adds rows an analytics list returns (endpoint is the
// path after /v1/organizations/analytics/, e.g. "skills"); a filter
// "dimension:value" keeps the rows whose member dimension equals value.
func (g *Org) AddAnalyticsRows(endpoint string, rows ...map[string]any) {
	withLock(&g.o.mu, func() {
		for _, row := range rows {
			x := copyRec(row)
			x["id"] = seqKey(len(g.o.analytics[endpoint]))
			g.o.analytics[endpoint] = append(g.o.analytics[endpoint], x)
		}
	})
}

func (o *orgStore) analyticsList(name string, e analyticsEndpoint) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		date, start, end := q.Get("date"), q.Get("starting_date"), q.Get("ending_date")
		parse := func(s string) bool {
			t, err := time.Parse("2006-01-02", s)
			return err == nil && !t.Before(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
		}
		switch {
		case date != "" && start != "":
			bad(w, r, "date: use date or starting_date, not both")
			return
		case name == "artifacts" && date == "", name == "summaries" && start == "", date == "" && start == "":
			bad(w, r, "date or starting_date is required")
			return
		case date != "" && !parse(date), start != "" && !parse(start), end != "" && (start == "" || !parse(end)):
			bad(w, r, "dates must be YYYY-MM-DD, not before 2026-01-01 (ending_date only with starting_date)")
			return
		}
		if len(q["filter[]"]) > 100 || len(q["group_by[]"]) > 100 {
			bad(w, r, "filter and group_by take at most 100 entries")
			return
		}
		if !queryIn(w, r, "group_by", e.groups...) || !queryIn(w, r, "order", "asc", "desc") {
			return
		}
		filters := map[string][]string{}
		for _, f := range q["filter[]"] {
			dim, val, ok := strings.Cut(f, ":")
			if !ok || !slices.Contains(e.filters, dim) {
				bad(w, r, "filter: unsupported dimension in "+f)
				return
			}
			filters[dim] = append(filters[dim], val)
		}
		rows := locked(&o.mu, func() []rec { return slices.Clone(o.analytics[name]) })
		writeRows(w, r, slices.DeleteFunc(rows, func(x rec) bool {
			for dim, vals := range filters { // OR within a dimension, AND across
				if !slices.Contains(vals, str(x, dim)) {
					return true
				}
			}
			return false
		}))
	}
}
