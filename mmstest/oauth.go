package mmstest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The token endpoint, POST /v1/oauth/token, and the access tokens it mints.
//
//   - The jwt-bearer grant (workload identity federation) needs the
//     oauth-2025-04-20 and oidc-federation-2026-04-01 betas and a body of
//     exactly grant_type, assertion (≤ 16,384 bytes), federation_rule_id,
//     organization_id, and optionally service_account_id and workspace_id.
//     The rule must be one WithFederationRule configured, for its
//     organization, accepting the assertion; a rule spanning several
//     workspaces needs workspace_id naming one of them. Refusals are 401
//     invalid_grant; a malformed request is 400 invalid_request (or
//     unsupported_grant_type).
//   - The refresh grant needs the oauth-2025-04-20 beta and grant_type,
//     refresh_token and client_id; the token must come from
//     IssueRefreshToken for that client and is rotated: the answer carries
//     a new refresh_token and the old one is then refused (400
//     invalid_grant).
//   - Answers are {access_token, token_type: "Bearer", expires_in} with the
//     WithTokenLifetime lifetime on the server's clock. The endpoint takes
//     no credential and no vendor-version, as on the service. Errors are
//     OAuth bodies {error, error_description} with the request-id header.
//   - A minted token authenticates API requests until it expires on the
//     server's clock or RevokeTokens; an expired or revoked one is a 401
//     authentication_error. A request carrying one must also carry the
//     oauth-2025-04-20 beta (401 otherwise, as the service answers).
//
// FailTokenExchanges makes the next exchanges fail; TokenExchanges counts
// the exchanges that reached the endpoint.

// DefaultTokenLifetime is how long a minted access token lives unless
// WithTokenLifetime changes it.
const DefaultTokenLifetime = time.Hour

// FederationRule is a federation rule the token endpoint honours.
type FederationRule struct {
	// ID is the rule's id (federation_rule_id).
	ID string
	// OrganizationID is the organization the rule belongs to.
	OrganizationID string
	// WorkspaceIDs are the workspaces the rule spans; with more than one,
	// an exchange must name one in workspace_id.
	WorkspaceIDs []string
	// Accept reports whether the rule accepts an identity token; nil
	// accepts any.
	Accept func(assertion string) bool
}

// WithFederationRule adds a federation rule to the token endpoint.
func WithFederationRule(r FederationRule) Option {
	return func(c *config) { c.federationRules = append(c.federationRules, r) }
}

// WithTokenLifetime sets the lifetime of minted access tokens (default
// DefaultTokenLifetime; a value of 0 or less keeps it). Their expires_in is
// the lifetime in whole seconds.
func WithTokenLifetime(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.tokenLifetime = d
		}
	}
}

// ExchangeFailure is what FailTokenExchanges answers with.
type ExchangeFailure struct {
	// Status is the HTTP status (e.g. 401, 503).
	Status int
	// Code and Description are the OAuth error and error_description.
	Code, Description string
}

// oauthState is the token endpoint's state (Server.oauth).
type oauthState struct {
	mu        sync.Mutex
	minted    map[string]time.Time // access token -> expiry
	refresh   map[string]string    // refresh token -> client id
	exchanges int
	failures  []ExchangeFailure
}

// countExchange counts a request to the token endpoint and takes the next
// injected failure, if any.
func (o *oauthState) countExchange() *ExchangeFailure {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.exchanges++
	if len(o.failures) == 0 {
		return nil
	}
	fail := o.failures[0]
	o.failures = o.failures[1:]
	return &fail
}

// redeemRefresh consumes the refresh token tok if it was issued to client
// (rotation: it is good once), reporting whether it was.
func (o *oauthState) redeemRefresh(tok, client string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if c, ok := o.refresh[tok]; !ok || c != client {
		return false
	}
	delete(o.refresh, tok)
	return true
}

// TokenExchanges returns how many requests reached the token endpoint.
func (s *Server) TokenExchanges() int {
	s.oauth.mu.Lock()
	defer s.oauth.mu.Unlock()
	return s.oauth.exchanges
}

// FailTokenExchanges makes the next len(failures) exchanges answer with
// these failures, in order, before any other check.
func (s *Server) FailTokenExchanges(failures ...ExchangeFailure) {
	s.oauth.mu.Lock()
	defer s.oauth.mu.Unlock()
	s.oauth.failures = append(s.oauth.failures, failures...)
}

// RevokeTokens makes every access token minted so far fail with 401, as if
// the service had revoked them before their expiry.
func (s *Server) RevokeTokens() {
	s.oauth.mu.Lock()
	defer s.oauth.mu.Unlock()
	clear(s.oauth.minted)
}

// IssueRefreshToken returns a new refresh token for clientID, as an
// interactive login would leave in a profile's credentials file.
func (s *Server) IssueRefreshToken(clientID string) string {
	tok := "mms-refresh-" + s.newID("rt_")
	s.oauth.mu.Lock()
	defer s.oauth.mu.Unlock()
	s.oauth.refresh[tok] = clientID
	return tok
}

// mintedStatus says whether token is a minted access token: known, and if
// so whether it is still valid at now.
func (s *Server) mintedStatus(token string) (known, valid bool) {
	s.oauth.mu.Lock()
	defer s.oauth.mu.Unlock()
	exp, ok := s.oauth.minted[token]
	return ok || strings.HasPrefix(token, mintedPrefix), ok && s.now().Before(exp)
}

const mintedPrefix = "mms-oauth-"

// oauthError answers an OAuth error body.
func oauthError(w http.ResponseWriter, status int, code, desc string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

// serveToken serves POST /v1/oauth/token.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request, rec *Request) {
	if fail := s.oauth.countExchange(); fail != nil {
		oauthError(w, fail.Status, fail.Code, fail.Description)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		oauthError(w, http.StatusMethodNotAllowed, "invalid_request", "the token endpoint takes POST")
		return
	}
	raw, readErr := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<10))
	s.setBody(rec, raw)
	var body map[string]string
	if err := json.Unmarshal(raw, &body); readErr != nil || err != nil || body == nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "the body must be a JSON object of strings")
		return
	}
	betas := betaNames(r.Header)
	if !hasBeta(betas, wire.BetaOAuth) {
		oauthError(w, http.StatusBadRequest, "invalid_request", "vendor-beta: the token endpoint requires "+wire.BetaOAuth)
		return
	}
	switch body["grant_type"] {
	case "urn:ietf:params:oauth:grant-type:jwt-bearer":
		if !hasBeta(betas, wire.BetaOIDCFederation) {
			oauthError(w, http.StatusBadRequest, "invalid_request", "vendor-beta: the jwt-bearer grant requires "+wire.BetaOIDCFederation)
			return
		}
		s.federate(w, body)
	case "refresh_token":
		s.refreshGrant(w, body)
	case "":
		oauthError(w, http.StatusBadRequest, "invalid_request", "grant_type: Field required")
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", fmt.Sprintf("grant_type %q is not supported", body["grant_type"]))
	}
}

// checkMembers refuses a body with a member outside allowed or without one
// of required.
func checkMembers(body map[string]string, required, optional []string) error {
	for _, k := range required {
		if strings.TrimSpace(body[k]) == "" {
			return fmt.Errorf("%s: Field required", k)
		}
	}
	for k := range body {
		if !contains(required, k) && !contains(optional, k) {
			return fmt.Errorf("%s: Extra inputs are not permitted", k)
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// federate runs the jwt-bearer grant.
func (s *Server) federate(w http.ResponseWriter, body map[string]string) {
	if err := checkMembers(body, []string{"grant_type", "assertion", "federation_rule_id", "organization_id"},
		[]string{"service_account_id", "workspace_id"}); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	if len(body["assertion"]) > 16384 {
		oauthError(w, http.StatusBadRequest, "invalid_request", "assertion: longer than 16384 bytes")
		return
	}
	var rule *FederationRule
	for i, fr := range s.cfg.federationRules {
		if fr.ID == body["federation_rule_id"] && fr.OrganizationID == body["organization_id"] {
			rule = &s.cfg.federationRules[i]
		}
	}
	ws := body["workspace_id"]
	switch {
	case rule == nil:
		oauthError(w, http.StatusUnauthorized, "invalid_grant", "no such federation rule in this organization")
	case rule.Accept != nil && !rule.Accept(body["assertion"]):
		oauthError(w, http.StatusUnauthorized, "invalid_grant", "the identity token does not match the federation rule")
	case len(rule.WorkspaceIDs) > 1 && ws == "":
		oauthError(w, http.StatusUnauthorized, "invalid_grant", "the federation rule spans several workspaces: name one in workspace_id")
	case ws != "" && len(rule.WorkspaceIDs) > 0 && !contains(rule.WorkspaceIDs, ws):
		oauthError(w, http.StatusUnauthorized, "invalid_grant", "workspace_id is not a workspace of the federation rule")
	default:
		writeJSON(w, http.StatusOK, s.mint(""))
	}
}

// refreshGrant runs the refresh grant, rotating the refresh token.
func (s *Server) refreshGrant(w http.ResponseWriter, body map[string]string) {
	if err := checkMembers(body, []string{"grant_type", "refresh_token", "client_id"}, nil); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	client := body["client_id"]
	if !s.oauth.redeemRefresh(body["refresh_token"], client) {
		oauthError(w, http.StatusBadRequest, "invalid_grant", "the refresh token is invalid, expired or revoked")
		return
	}
	writeJSON(w, http.StatusOK, s.mint(s.IssueRefreshToken(client)))
}

// tokenAnswer is the token endpoint's 200 body.
type tokenAnswer struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token,omitempty"`
}

// mint makes an access token living the configured lifetime.
func (s *Server) mint(refresh string) tokenAnswer {
	tok := mintedPrefix + s.newID("at_")
	withLock(&s.oauth.mu, func() { s.oauth.minted[tok] = s.now().Add(s.cfg.tokenLifetime) })
	return tokenAnswer{AccessToken: tok, TokenType: "Bearer", ExpiresIn: int64(s.cfg.tokenLifetime / time.Second), RefreshToken: refresh}
}
