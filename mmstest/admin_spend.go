package mmstest

import (
	"net/http"
	"strings"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The beta extras of spend limits and users (organization.md §19.1):
// spend limits retrieve / list (beta spend-limit-reads-2026-09-26) / set
// (an upsert on scope and period) / delete, and a member's sign-out (beta
// admin-user-sign-out-2026-10-08).

func (o *orgStore) spendRoutes() []route {
	a := credAdminKey
	return []route{
		{pattern: "GET /v1/organizations/spend_limits", handle: o.with(a, func(w http.ResponseWriter, r *http.Request) {
			if needBeta(w, r, wire.BetaSpendLimitReads) {
				o.listRecs(&o.limitsSet, false, spendLimitFilter)(w, r)
			}
		})},
		{pattern: "GET /v1/organizations/spend_limits/{spend_limit_id}", handle: o.with(a, o.getRec(&o.limitsSet))},
		{pattern: "POST /v1/organizations/spend_limits", handle: o.with(a, o.setSpendLimit)},
		{pattern: "DELETE /v1/organizations/spend_limits/{spend_limit_id}", handle: o.with(a, o.deleteRec(&o.limitsSet, "spend_limit_deleted", func(x rec) string {
			if s, _ := x["scope"].(map[string]any); s["type"] == "usage_tier" {
				return "the usage tier limit cannot be deleted"
			}
			return ""
		}))},
		{pattern: "POST /v1/organizations/users/{user_id}/sign_out", handle: o.with(a, o.signOut)},
	}
}

func spendLimitFilter(r *http.Request, x rec) bool {
	q := r.URL.Query()
	scope, _ := x["scope"].(map[string]any)
	if st := q["scope_type[]"]; len(st) > 0 && !oneOfStr(str(scope, "type"), st...) {
		return false
	}
	return q.Get("workspace_id") == "" || scope["workspace_id"] == q.Get("workspace_id")
}

func (o *orgStore) setSpendLimit(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, []string{"amount", "scope", "period"}, "amount", "scope")
	if !ok {
		return
	}
	amount := str(b, "amount")
	scope, _ := b["scope"].(map[string]any)
	switch {
	case amount == "" || strings.Trim(amount, "0123456789") != "":
		bad(w, r, "amount: must be an integer string of minor units")
		return
	case !oneOfStr(str(scope, "type"), "user", "organization", "workspace"):
		bad(w, r, "scope.type: must be user, organization or workspace")
		return
	case str(scope, "type") == "user" && str(scope, "user_id") == "", str(scope, "type") == "workspace" && str(scope, "workspace_id") == "":
		bad(w, r, "scope: the id of the scope is required")
		return
	}
	if refused(w, r, inSet(b, "period", "daily", "weekly", "monthly")) {
		return
	}
	period := str(b, "period")
	if period == "" {
		period = "monthly"
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, x := range o.limitsSet.items {
		if s, _ := x["scope"].(map[string]any); encodeJSONString(s) == encodeJSONString(scope) && x["period"] == period {
			x["amount"], x["updated_at"] = amount, o.stamp()
			writeJSON(w, http.StatusOK, x)
			return
		}
	}
	x := o.add(&o.limitsSet, rec{"scope": scope, "period": period, "amount": amount, "currency": "USD", "is_enabled": true}, "created_at", "updated_at")
	writeJSON(w, http.StatusOK, x)
}

func encodeJSONString(v any) string { return string(encodeJSON(v)) }

func (o *orgStore) signOut(w http.ResponseWriter, r *http.Request) {
	if !needBeta(w, r, wire.BetaAdminUserSignOut) || !noBody(w, r) {
		return
	}
	withFound(&o.mu, w, r, o.findUser, func(u *orgUser) {
		if u.Role == "primary_owner" {
			writeCodedError(w, r, http.StatusBadRequest, "cannot_sign_out_primary_owner", "the primary owner cannot be signed out")
			return
		}
		writeJSON(w, http.StatusOK, u)
	})
}
