package mmstest

// The Organization (Admin) API (organization.md): an organization with
// users, invites, workspaces and their members, API keys, service
// accounts, federation, limits, RBAC and reports, which tests seed through
// Server.Org. Credentials follow organization.md §1: most operations take
// an admin key only; federation, service accounts and workspace
// service-account memberships take only an OAuth token with scope
// org:admin (WithOrgAdminTokens); analytics and reports also take an API
// key. An admin key authenticates nothing outside /v1/organizations/.

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// DefaultAdminKey is the admin key the server accepts in x-api-key on the
// Organization API unless WithAdminKeys replaces the accepted keys.
const DefaultAdminKey = "mms-test-admin-key"

// DefaultOrgAdminToken is the bearer token the server treats as an OAuth
// access token with scope org:admin unless WithOrgAdminTokens replaces
// them.
const DefaultOrgAdminToken = "mms-test-org-admin-token"

// WithAdminKeys replaces the admin keys the Organization API accepts.
func WithAdminKeys(keys ...string) Option {
	return func(c *config) { c.adminKeys = append([]string(nil), keys...) }
}

// WithOrgAdminTokens replaces the bearer tokens that carry scope
// org:admin (accepted everywhere a bearer token is, and the only
// credential of the OAuth-only families).
func WithOrgAdminTokens(tokens ...string) Option {
	return func(c *config) { c.orgAdminTokens = append([]string(nil), tokens...) }
}

// AdminClientOptions returns the options that point an admin client
// (admin.NewClient) at the server with its first admin key.
func (s *Server) AdminClientOptions() []option.RequestOption {
	opts := []option.RequestOption{option.WithBaseURL(s.URL), option.WithHTTPClient(s.Client())}
	if len(s.cfg.adminKeys) > 0 {
		opts = append(opts, option.WithAdminKey(s.cfg.adminKeys[0]))
	}
	return opts
}

// orgPathPrefix is the Organization API's path prefix.
const orgPathPrefix = "/v1/organizations/"

// orgCred is what credential an operation accepts (organization.md §1).
type orgCred uint8

const (
	credAdminKey orgCred = iota // an admin key only
	credOAuth                   // an org:admin bearer token only
	credAnyKey                  // an API key, an admin key or a token
)

// allows answers 403 permission_error unless r carries a credential kind
// accepts; checkAuth already proved the credential valid.
func (o *orgStore) allows(w http.ResponseWriter, r *http.Request, kind orgCred) bool {
	cfg := &o.s.cfg
	key := r.Header.Get(wire.HeaderAPIKey)
	admin := key != "" && oneOf(key, cfg.adminKeys)
	orgAdmin := key == "" && oneOf(bearerToken(r.Header.Get(wire.HeaderAuthorization)), cfg.orgAdminTokens)
	var ok bool
	var msg string
	switch kind {
	case credAdminKey:
		ok, msg = admin, "this operation requires an admin API key"
	case credOAuth:
		ok, msg = orgAdmin, "this operation requires an OAuth access token with scope org:admin; admin API keys are not accepted"
	default:
		ok = true
	}
	if !ok {
		writeError(w, r, http.StatusForbidden, wire.ErrPermission, msg)
	}
	return ok
}

// with wraps h with the credential check of kind.
func (o *orgStore) with(kind orgCred, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if o.allows(w, r, kind) {
			h(w, r)
		}
	}
}

// needBeta answers 404 (as if the endpoint were absent) unless r sends
// beta, as the service does for its beta-only extras.
func needBeta(w http.ResponseWriter, r *http.Request, beta string) bool {
	if hasBeta(betaNames(r.Header), beta) {
		return true
	}
	writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "Not Found")
	return false
}

// orgStore is the organization's state; every handler holds mu.
type orgStore struct {
	s  *Server
	mu sync.Mutex

	beta   orgBeta     // admin_beta*.go: the beta-only families
	review reviewState // admin_compliance.go: compliance review

	users   []*orgUser
	apiKeys []*apiKeyWire
	// The record families (admin_coll.go), by file: admin_org.go,
	// admin_federation.go, admin_rbac.go.
	invites, spaces, members, accounts, saMembers, extKeys, issuers, rules, ruleWS,
	groups, gMembers, roles, increases, webhooks, limitsSet coll
	limits     []rec                     // organization rate limits
	wsLimits   map[string]map[string]rec // workspace → rate_limit_id → overrides {type: value}
	compliance string
	perms      map[string][]rec // role → permissions
	effective  []rec            // spend_limits/effective rows
	analytics  map[string][]rec // analytics endpoint → rows
	usage      []UsageRecord    // the reports' records (admin_reports.go)
}

func newOrgStore(s *Server) *orgStore {
	return &orgStore{s: s, compliance: "disabled", limits: defaultRateLimits(), wsLimits: map[string]map[string]rec{},
		perms: map[string][]rec{}, analytics: map[string][]rec{},
		invites:   coll{prefix: "invite_", typ: "invite", param: "invite_id", what: "invite"},
		spaces:    coll{prefix: "wrkspc_", typ: "workspace", param: "workspace_id", what: "workspace"},
		accounts:  coll{prefix: "svac_", typ: "service_account", param: "service_account_id", what: "service account"},
		extKeys:   coll{prefix: "ekey_", typ: "external_key", param: "external_key_id", what: "external key"},
		issuers:   coll{prefix: "fdis_", typ: "federation_issuer", param: "federation_issuer_id", what: "federation issuer"},
		rules:     coll{prefix: "fdrl_", typ: "federation_rule", param: "federation_rule_id", what: "federation rule"},
		groups:    coll{prefix: "rbac_group_", typ: "rbac_group", param: "rbac_group_id", what: "rbac group"},
		roles:     coll{prefix: "rbac_role_", typ: "rbac_role", param: "rbac_role_id", what: "rbac role"},
		limitsSet: coll{prefix: "spl_", typ: "spend_limit", param: "spend_limit_id", what: "spend limit"},
		webhooks:  coll{prefix: "whep_", typ: "webhook_endpoint", param: "webhook_endpoint_id", what: "webhook endpoint"},
		increases: coll{prefix: "slir_", typ: "spend_limit_increase_request", param: "spend_limit_increase_request_id", what: "spend limit increase request"},
	}
}

// Org is the handle tests seed the fake's organization through.
type Org struct{ o *orgStore }

// Org returns the server's organization for seeding.
func (s *Server) Org() *Org { return &Org{o: s.org} }

// stamp is the server clock's now as the service writes timestamps.
func (o *orgStore) stamp() string { return o.s.now().UTC().Format(time.RFC3339) }

// orgUser is a member (the wire type "user").
type orgUser struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	Email   string `json:"email"`
	Name    string `json:"name"`
	Role    string `json:"role"`
	AddedAt string `json:"added_at"`
}

// AddUser adds a member with an organization role ("user", "developer",
// "admin", …) and returns its id.
func (g *Org) AddUser(email, name, role string) string {
	id := g.o.s.newID("user_")
	withLock(&g.o.mu, func() {
		g.o.users = append(g.o.users, &orgUser{ID: id, Type: "user", Email: email, Name: name, Role: role, AddedAt: g.o.stamp()})
	})
	return id
}

// found answers 404 naming what when x is nil.
func found[T any](w http.ResponseWriter, r *http.Request, x *T, what string) bool {
	if x == nil {
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, what+" not found")
		return false
	}
	return true
}

// bad answers 400 invalid_request_error with msg.
func bad(w http.ResponseWriter, r *http.Request, msg string) {
	writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, msg)
}

// listIDScheme answers an id-scheme page of recs (newest first by id).
func listIDScheme[T any](w http.ResponseWriter, r *http.Request, recs []T, idOf func(T) string, prefix string) {
	page, err := pageByID(recs, idOf, r.URL.Query(), prefix)
	writePage(w, r, page, err)
}

// listCursorScheme answers a cursor page of recs, newest first by id.
func listCursorScheme[T any](w http.ResponseWriter, r *http.Request, recs []T, idOf func(T) string) {
	page, err := pageByCursor(recs, newestByID(idOf), r.URL.Query(), maxPageLimit)
	writePage(w, r, page, err)
}

// queryIn answers 400 unless every value of key (and key[]) is allowed.
func queryIn(w http.ResponseWriter, r *http.Request, key string, allowed ...string) bool {
	q := r.URL.Query()
	for _, v := range append(q[key], q[key+"[]"]...) {
		if !slices.Contains(allowed, v) {
			bad(w, r, key+": Input should be one of "+strings.Join(allowed, ", ")+", got "+v)
			return false
		}
	}
	return true
}
