package mmstest

import (
	"net/http"
	"slices"
	"strings"
)

// The fake's external keys, federation issuers and rules, and service
// accounts (organization.md §5–8).

func (o *orgStore) federationRoutes() []route {
	a, oa := credAdminKey, credOAuth
	return []route{
		{pattern: "POST /v1/organizations/external_keys", handle: o.with(a, o.createExternalKey)},
		{pattern: "GET /v1/organizations/external_keys", handle: o.with(a, o.listRecs(&o.extKeys, false, nil))},
		{pattern: "GET /v1/organizations/external_keys/{external_key_id}", handle: o.with(a, o.getRec(&o.extKeys))},
		{pattern: "POST /v1/organizations/external_keys/{external_key_id}", handle: o.with(a, o.updateRec(&o.extKeys, []string{"display_name", "geo", "provider_config"}, o.checkExternalKeyUpdate))},
		{pattern: "DELETE /v1/organizations/external_keys/{external_key_id}", handle: o.with(a, o.deleteRec(&o.extKeys, "external_key_deleted", o.keyInUse))},
		{pattern: "POST /v1/organizations/external_keys/{external_key_id}/validate", handle: o.with(a, o.validateExternalKey)},
		{pattern: "POST /v1/organizations/federation_issuers", handle: o.with(oa, o.createIssuer)},
		{pattern: "GET /v1/organizations/federation_issuers", handle: o.with(oa, o.listRecs(&o.issuers, false, nil))},
		{pattern: "GET /v1/organizations/federation_issuers/{federation_issuer_id}", handle: o.with(oa, o.getRec(&o.issuers))},
		{pattern: "POST /v1/organizations/federation_issuers/{federation_issuer_id}", handle: o.with(oa, o.updateRec(&o.issuers, issuerFields, checkIssuer(false)))},
		{pattern: "POST /v1/organizations/federation_issuers/{federation_issuer_id}/archive", handle: o.with(oa, o.archiveRec(&o.issuers, o.issuerInUse))},
		{pattern: "POST /v1/organizations/federation_rules", handle: o.with(oa, o.createRule)},
		{pattern: "GET /v1/organizations/federation_rules", handle: o.with(oa, o.listRecs(&o.rules, false, func(r *http.Request, x rec) bool {
			id := r.URL.Query().Get("issuer_id")
			return id == "" || x["issuer_id"] == id
		}))},
		{pattern: "GET /v1/organizations/federation_rules/{federation_rule_id}", handle: o.with(oa, o.getRec(&o.rules))},
		{pattern: "POST /v1/organizations/federation_rules/{federation_rule_id}", handle: o.with(oa, o.updateRec(&o.rules, ruleUpdateFields, o.checkRule(false)))},
		{pattern: "POST /v1/organizations/federation_rules/{federation_rule_id}/archive", handle: o.with(oa, o.archiveRule)},
		{pattern: "GET /v1/organizations/federation_rules/{federation_rule_id}/workspaces", handle: o.with(oa, o.listRuleWorkspaces)},
		{pattern: "POST /v1/organizations/federation_rules/{federation_rule_id}/workspaces", handle: o.with(oa, o.addRuleWorkspace)},
		{pattern: "DELETE /v1/organizations/federation_rules/{federation_rule_id}/workspaces/{workspace_id}", handle: o.with(oa, o.removeRuleWorkspace)},
		{pattern: "POST /v1/organizations/service_accounts", handle: o.with(oa, o.createAccount)},
		{pattern: "GET /v1/organizations/service_accounts", handle: o.with(oa, o.listRecs(&o.accounts, false, nil))},
		{pattern: "GET /v1/organizations/service_accounts/{service_account_id}", handle: o.with(oa, o.getRec(&o.accounts))},
		{pattern: "POST /v1/organizations/service_accounts/{service_account_id}", handle: o.with(oa, o.updateRec(&o.accounts, []string{"description", "organization_role"}, func(_, b rec) string {
			return inSet(b, "organization_role", "developer", "admin")
		}))},
		{pattern: "POST /v1/organizations/service_accounts/{service_account_id}/archive", handle: o.with(oa, o.archiveRec(&o.accounts, o.accountInUse))},
		{pattern: "GET /v1/organizations/service_accounts/{service_account_id}/workspaces", handle: o.with(oa, o.listAccountWorkspaces)},
		{pattern: "POST /v1/organizations/service_accounts/{service_account_id}/workspaces", handle: o.with(oa, o.addSAMembership(o.accounts.find, "workspace_id"))},
		{pattern: "DELETE /v1/organizations/service_accounts/{service_account_id}/workspaces/{workspace_id}", handle: o.with(oa, o.removeWorkspaceAccount)},
	}
}

// checkProvider checks a provider_config; "" when fine.
func checkProvider(p any) string {
	m, ok := p.(map[string]any)
	if !ok {
		return "provider_config: must be an object"
	}
	need := map[string][]string{"aws": {"kms_arn"}, "gcp": {"key_name"}, "azure": {"key_name", "tenant_id", "vault_uri"}}
	allowed := map[string][]string{"aws": {"type", "kms_arn", "region"}, "gcp": {"type", "key_name"}, "azure": {"type", "key_name", "tenant_id", "vault_uri", "client_id"}}
	t := str(m, "type")
	if need[t] == nil {
		return "provider_config.type: must be aws, gcp or azure"
	}
	for k := range m {
		if !slices.Contains(allowed[t], k) {
			return "provider_config." + k + ": Extra inputs are not permitted"
		}
	}
	for _, k := range need[t] {
		if str(m, k) == "" {
			return "provider_config." + k + ": Field required"
		}
	}
	if t == "aws" && !strings.HasPrefix(str(m, "kms_arn"), "arn:") {
		return "provider_config.kms_arn: must be a KMS key ARN"
	}
	if t == "azure" && !strings.HasPrefix(str(m, "vault_uri"), "https://") {
		return "provider_config.vault_uri: must be an https URI"
	}
	return ""
}

func (o *orgStore) createExternalKey(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, []string{"provider_config", "display_name", "geo", "user_profile_id"}, "provider_config")
	if !ok {
		return
	}
	if refused(w, r, checkProvider(b["provider_config"])) || refused(w, r, inSet(b, "geo", "us")) {
		return
	}
	o.createRec(w, &o.extKeys, rec{"provider_config": b["provider_config"], "display_name": b["display_name"], "geo": "us",
		"user_profile_id": b["user_profile_id"], "attachment": rec{"type": "unattached"}})
}

// keyInUse refuses changing or deleting a key a workspace references.
func (o *orgStore) keyInUse(x rec) string {
	for _, ws := range o.spaces.items {
		if ws["external_key_id"] == recID(x) {
			return "external_key_in_workspace_policy: a workspace references the key"
		}
	}
	return ""
}

func (o *orgStore) checkExternalKeyUpdate(cur, b rec) string {
	if p, ok := b["provider_config"]; ok {
		if msg := checkProvider(p); msg != "" {
			return msg
		}
	}
	if msg := inSet(b, "geo", "us"); msg != "" {
		return msg
	}
	if _, ok := b["provider_config"]; ok {
		return o.keyInUse(cur)
	}
	return ""
}

func (o *orgStore) validateExternalKey(w http.ResponseWriter, r *http.Request) {
	if noBody(w, r) {
		o.atRec(w, r, o.extKeys.find, func(rec) {
			writeJSON(w, http.StatusOK, rec{"type": "external_key_validation", "status": "success", "error": nil})
		})
	}
}

var issuerFields = []string{"name", "issuer_url", "jwks", "check_jti", "max_jwt_lifetime_seconds", "jwks_polling_disabled"}

func checkIssuer(create bool) func(cur, b rec) string {
	return func(cur, b rec) string {
		if n, ok := b["name"]; ok || create {
			if s, _ := n.(string); !isSlug(s) {
				return "name: must be a slug of lowercase letters, digits and hyphens"
			}
		}
		if u, ok := b["issuer_url"]; ok || create {
			if s, _ := u.(string); !strings.Contains(s, "://") {
				return "issuer_url: must be an absolute URL"
			}
		}
		if v, ok := b["jwks_polling_disabled"]; ok && v != false {
			return "jwks_polling_disabled: only false is accepted"
		}
		if n, ok := b["max_jwt_lifetime_seconds"]; ok {
			if v, err := numberOf(n); err != nil || v < 1 || v > 176400 {
				return "max_jwt_lifetime_seconds: must be between 1 and 176400"
			}
		}
		if j, ok := b["jwks"].(map[string]any); ok {
			switch str(j, "type") {
			case "discovery":
			case "explicit_url":
				if !strings.HasPrefix(str(j, "url"), "https://") {
					return "jwks.url: must be an https URL"
				}
			case "inline":
				if keys, _ := j["keys"].([]any); len(keys) == 0 {
					return "jwks.keys: at least one key"
				}
			default:
				return "jwks.type: must be discovery, explicit_url or inline"
			}
		}
		delete(b, "jwks_polling_disabled")
		return ""
	}
}

// numberOf reads a JSON number member.
func numberOf(v any) (int64, error) {
	n, ok := v.(interface{ Int64() (int64, error) })
	if !ok {
		return 0, errNotNumber
	}
	return n.Int64()
}

var errNotNumber = errorString("not a number")

type errorString string

func (e errorString) Error() string { return string(e) }

// nameTaken answers 409 when a live record of c is named name: "<what>
// with this name exists".
func nameTaken(w http.ResponseWriter, r *http.Request, c *coll, name any, what string) bool {
	taken := slices.ContainsFunc(c.items, func(x rec) bool { return x["name"] == name && x["archived_at"] == nil })
	if taken {
		writeError(w, r, http.StatusConflict, "conflict_error", what+" with this name exists")
	}
	return taken
}

func (o *orgStore) createIssuer(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, issuerFields[:5], "name", "issuer_url")
	if !ok {
		return
	}
	if refused(w, r, checkIssuer(true)(nil, b)) {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if nameTaken(w, r, &o.issuers, b["name"], "an issuer") {
		return
	}
	x := rec{"name": b["name"], "issuer_url": b["issuer_url"], "jwks": rec{"type": "discovery"}, "check_jti": true,
		"max_jwt_lifetime_seconds": 3600, "poll_status": nil, "jwks_polling_disabled_at": nil, "archived_at": nil,
		"created_by_actor_id": nil, "updated_by_actor_id": nil, "archived_by_actor_id": nil}
	for _, k := range []string{"jwks", "check_jti", "max_jwt_lifetime_seconds"} {
		if v, ok := b[k]; ok {
			x[k] = v
		}
	}
	writeJSON(w, http.StatusOK, o.add(&o.issuers, x, "created_at", "updated_at"))
}

func (o *orgStore) issuerInUse(x rec) string {
	for _, rl := range o.rules.items {
		if rl["issuer_id"] == recID(x) && rl["archived_at"] == nil {
			return "a live federation rule references the issuer"
		}
	}
	return ""
}

var ruleUpdateFields = []string{"name", "match", "target", "oauth_scope", "description", "workspace_id", "applies_to_all_workspaces", "token_lifetime_seconds"}

// checkRule checks a rule body; o.mu held.
func (o *orgStore) checkRule(create bool) func(cur, b rec) string {
	return func(cur, b rec) string {
		if n, ok := b["name"]; ok || create {
			if s, _ := n.(string); !isSlug(s) {
				return "name: must be a slug"
			}
		}
		if m, ok := b["match"]; ok || create {
			mm, _ := m.(map[string]any)
			prefix, cond := str(mm, "subject_prefix"), str(mm, "condition")
			claims, _ := mm["claims"].(map[string]any)
			switch {
			case prefix != "" && strings.Trim(prefix, "*") == "":
				return "match.subject_prefix: must not be a wildcard only"
			case strings.TrimSpace(cond) == "true":
				return "match.condition: must not be the constant true"
			case prefix == "" && cond == "" && len(claims) == 0:
				return "match: needs subject_prefix, claims or condition"
			}
		}
		if t, ok := b["target"]; ok || create {
			tm, _ := t.(map[string]any)
			if str(tm, "type") != "service_account" || lookup(o.accounts.items, str(tm, "service_account_id")) == nil {
				return "target: the service account must exist in the organization"
			}
			delete(tm, "service_account_name")
		}
		if n, ok := b["token_lifetime_seconds"]; ok {
			if v, err := numberOf(n); err != nil || v < 60 || v > 86400 {
				return "token_lifetime_seconds: must be between 60 and 86400"
			}
		}
		if create && str(b, "workspace_id") == "" && b["applies_to_all_workspaces"] != true {
			return "workspace_id: required unless applies_to_all_workspaces"
		}
		return ""
	}
}

func (o *orgStore) createRule(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, append([]string{"issuer_id"}, ruleUpdateFields...), "name", "issuer_id", "match", "target", "oauth_scope")
	if !ok {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if refused(w, r, o.checkRule(true)(nil, b)) {
		return
	}
	issuer := lookup(o.issuers.items, b["issuer_id"])
	if issuer == nil {
		bad(w, r, "issuer_id: no such issuer in the organization")
		return
	}
	if nameTaken(w, r, &o.rules, b["name"], "a rule") {
		return
	}
	x := rec{"name": b["name"], "issuer_id": b["issuer_id"], "issuer_name": issuer["name"], "match": b["match"], "target": b["target"],
		"oauth_scope": b["oauth_scope"], "description": b["description"], "applies_to_all_workspaces": b["applies_to_all_workspaces"] == true,
		"workspace_ids": []any{}, "token_lifetime_seconds": 3600, "archived_at": nil,
		"created_by_actor_id": nil, "updated_by_actor_id": nil, "archived_by_actor_id": nil}
	if v, ok := b["token_lifetime_seconds"]; ok {
		x["token_lifetime_seconds"] = v
	}
	x = o.add(&o.rules, x, "created_at", "updated_at")
	if ws := str(b, "workspace_id"); ws != "" {
		x["workspace_ids"] = []any{ws}
		o.ruleWS.items = append(o.ruleWS.items, rec{"type": "federation_rule_workspace", "federation_rule_id": recID(x), "workspace_id": ws,
			"workspace_name": nil, "created_at": o.stamp(), "created_by_actor_id": nil})
	}
	writeJSON(w, http.StatusOK, x)
}

func (o *orgStore) archiveRule(w http.ResponseWriter, r *http.Request) {
	o.archiveRec(&o.rules, func(x rec) string {
		x["workspace_ids"] = []any{}
		o.ruleWS.items = slices.DeleteFunc(o.ruleWS.items, func(y rec) bool { return y["federation_rule_id"] == recID(x) })
		return ""
	})(w, r)
}

func (o *orgStore) listRuleWorkspaces(w http.ResponseWriter, r *http.Request) {
	recs, ok := o.gather(w, r, o.rules.find, func(x rec) []rec {
		recs := childrenOf(o.ruleWS.items, "federation_rule_id", recID(x))
		for _, y := range recs {
			if ws := lookup(o.spaces.items, y["workspace_id"]); ws != nil {
				y["workspace_name"] = ws["name"]
			}
		}
		return recs
	})
	if ok {
		writeJSON(w, http.StatusOK, cursorPage[rec]{Data: append([]rec{}, recs...)}) // all in one page, next_page null
	}
}

func (o *orgStore) addRuleWorkspace(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, []string{"workspace_id"}, "workspace_id")
	if !ok {
		return
	}
	o.atRec(w, r, o.rules.find, func(x rec) {
		switch {
		case x["archived_at"] != nil:
			bad(w, r, "the rule is archived")
		case lookup(o.spaces.items, b["workspace_id"]) == nil:
			bad(w, r, "workspace_id: no such workspace")
		default:
			writeJSON(w, http.StatusOK, o.addRuleWS(x, b["workspace_id"]))
		}
	})
}

// addRuleWorkspace adds workspace ws to rule x (idempotent) and returns
// the link; o.mu held.
func (o *orgStore) addRuleWS(x rec, ws any) rec {
	for _, y := range o.ruleWS.items {
		if y["federation_rule_id"] == recID(x) && y["workspace_id"] == ws {
			return y
		}
	}
	y := rec{"type": "federation_rule_workspace", "federation_rule_id": recID(x), "workspace_id": ws,
		"workspace_name": nil, "created_at": o.stamp(), "created_by_actor_id": nil}
	o.ruleWS.items = append(o.ruleWS.items, y)
	ids, _ := x["workspace_ids"].([]any)
	x["workspace_ids"] = append(ids, ws)
	return y
}

func (o *orgStore) removeRuleWorkspace(w http.ResponseWriter, r *http.Request) {
	rule, ws := r.PathValue("federation_rule_id"), r.PathValue("workspace_id")
	withLock(&o.mu, func() {
		o.ruleWS.items = slices.DeleteFunc(o.ruleWS.items, func(y rec) bool { return y["federation_rule_id"] == rule && y["workspace_id"] == ws })
		if x := lookup(o.rules.items, rule); x != nil {
			ids, _ := x["workspace_ids"].([]any)
			x["workspace_ids"] = slices.DeleteFunc(slices.Clone(ids), func(v any) bool { return v == ws })
		}
	})
	writeJSON(w, http.StatusOK, rec{"type": "federation_rule_workspace_deleted", "federation_rule_id": rule, "workspace_id": ws})
}

func (o *orgStore) createAccount(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r, []string{"name", "description", "organization_role"}, "name")
	if !ok {
		return
	}
	if !isSlug(str(b, "name")) {
		bad(w, r, "name: must be a slug")
		return
	}
	if refused(w, r, inSet(b, "organization_role", "developer", "admin")) {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if nameTaken(w, r, &o.accounts, b["name"], "a service account") {
		return
	}
	role := str(b, "organization_role")
	if role == "" {
		role = "developer"
	}
	writeJSON(w, http.StatusOK, o.add(&o.accounts, rec{"name": b["name"], "description": b["description"], "organization_role": role,
		"archived_at": nil, "created_by_actor_id": nil, "updated_by_actor_id": nil, "archived_by_actor_id": nil}, "created_at", "updated_at"))
}

// AddServiceAccount adds a developer service account and returns its id.
func (g *Org) AddServiceAccount(name string) string {
	return locked(&g.o.mu, func() string {
		return recID(g.o.add(&g.o.accounts, rec{"name": name, "description": nil, "organization_role": "developer", "archived_at": nil,
			"created_by_actor_id": nil, "updated_by_actor_id": nil, "archived_by_actor_id": nil}, "created_at", "updated_at"))
	})
}

func (o *orgStore) accountInUse(x rec) string {
	for _, rl := range o.rules.items {
		if t, _ := rl["target"].(map[string]any); t["service_account_id"] == recID(x) && rl["archived_at"] == nil {
			return "a live federation rule targets the service account"
		}
	}
	return ""
}

func (o *orgStore) listAccountWorkspaces(w http.ResponseWriter, r *http.Request) {
	recs, ok := o.gather(w, r, o.accounts.find, func(sa rec) []rec {
		if sa["archived_at"] != nil {
			return nil
		}
		return childrenOf(o.saMembers.items, "service_account_id", recID(sa))
	})
	if ok {
		listCursorScheme(w, r, recs, member("workspace_id"))
	}
}
