package mmstest

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"

	"github.com/stretchr/testify/require"
)

// tokenPost posts a token request with betas and returns status and body.
func tokenPost(t *testing.T, s *Server, betas, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("POST", s.URL+"/v1/oauth/token", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if betas != "" {
		req.Header.Set(wire.HeaderBeta, betas)
	}
	resp, err := s.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s", b)
	}
	if resp.Header.Get(wire.HeaderRequestID) == "" {
		t.Error("no request-id")
	}
	return resp.StatusCode, m
}

// apiGet sends GET /v1/models with a bearer token and betas.
func apiGet(t *testing.T, s *Server, token, betas string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", s.URL+"/v1/models", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set(wire.HeaderVersion, wire.DefaultVersion)
	if betas != "" {
		req.Header.Set(wire.HeaderBeta, betas)
	}
	resp, err := s.Client().Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	return resp.StatusCode
}

const fedBetas = "oauth-2025-04-20,oidc-federation-2026-04-01"

func TestTokenEndpointJWTBearer(t *testing.T) {
	clock := NewManualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	s := NewServer(WithManualClock(clock), WithTokenLifetime(5*time.Minute),
		WithFederationRule(FederationRule{ID: "r1", OrganizationID: "o1", Accept: func(a string) bool { return a == "good" }}),
		WithFederationRule(FederationRule{ID: "r2", OrganizationID: "o1", WorkspaceIDs: []string{"w1", "w2"}}))
	defer s.Close()
	body := func(extra string) string {
		return `{"grant_type":"urn:ietf:params:oauth:grant-type:jwt-bearer","assertion":"good","federation_rule_id":"r1","organization_id":"o1"` + extra + `}`
	}
	for _, tt := range []struct {
		name, betas, body string
		status            int
		code              string
	}{
		{"ok", fedBetas, body(""), 200, ""},
		{"ok with optional members", fedBetas, body(`,"service_account_id":"sa","workspace_id":"w"`), 200, ""},
		{"no oauth beta", "oidc-federation-2026-04-01", body(""), 400, "invalid_request"},
		{"no federation beta", "oauth-2025-04-20", body(""), 400, "invalid_request"},
		{"unknown member", fedBetas, body(`,"scope":"x"`), 400, "invalid_request"},
		{"missing assertion", fedBetas, `{"grant_type":"urn:ietf:params:oauth:grant-type:jwt-bearer","federation_rule_id":"r1","organization_id":"o1"}`, 400, "invalid_request"},
		{"assertion at the limit", fedBetas, strings.Replace(body(""), `"good"`, `"`+strings.Repeat("a", 16384)+`"`, 1), 401, "invalid_grant"},
		{"assertion over the limit", fedBetas, strings.Replace(body(""), `"good"`, `"`+strings.Repeat("a", 16385)+`"`, 1), 400, "invalid_request"},
		{"assertion refused", fedBetas, strings.Replace(body(""), "good", "bad", 1), 401, "invalid_grant"},
		{"wrong organization", fedBetas, strings.Replace(body(""), `"o1"`, `"o2"`, 1), 401, "invalid_grant"},
		{"multi-workspace rule without workspace", fedBetas, strings.Replace(body(""), `"r1"`, `"r2"`, 1), 401, "invalid_grant"},
		{"multi-workspace rule with workspace", fedBetas, strings.Replace(body(`,"workspace_id":"w2"`), `"r1"`, `"r2"`, 1), 200, ""},
		{"unknown grant", fedBetas, `{"grant_type":"password"}`, 400, "unsupported_grant_type"},
		{"not JSON", fedBetas, `nope`, 400, "invalid_request"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, m := tokenPost(t, s, tt.betas, tt.body)
			if status != tt.status || tt.code != "" && m["error"] != tt.code {
				t.Fatalf("%d %v, want %d %s", status, m, tt.status, tt.code)
			}
			if status == 200 && (m["token_type"] != "Bearer" || m["expires_in"] != float64(300) || !strings.HasPrefix(m["access_token"].(string), mintedPrefix)) {
				t.Errorf("answer %v", m)
			}
		})
	}

	_, m := tokenPost(t, s, fedBetas, body(""))
	tok := m["access_token"].(string)
	if got := apiGet(t, s, tok, wire.BetaOAuth); got != 200 {
		t.Errorf("fresh token: %d", got)
	}
	if got := apiGet(t, s, tok, ""); got != 401 {
		t.Errorf("without the oauth beta: %d", got)
	}
	clock.Advance(5*time.Minute - time.Second)
	if got := apiGet(t, s, tok, wire.BetaOAuth); got != 200 {
		t.Errorf("a second before expiry: %d", got)
	}
	clock.Advance(time.Second)
	if got := apiGet(t, s, tok, wire.BetaOAuth); got != 401 {
		t.Errorf("expired: %d", got)
	}
	_, m = tokenPost(t, s, fedBetas, body(""))
	s.RevokeTokens()
	if got := apiGet(t, s, m["access_token"].(string), wire.BetaOAuth); got != 401 {
		t.Errorf("revoked: %d", got)
	}
	if got := apiGet(t, s, "mms-oauth-made-up", wire.BetaOAuth); got != 401 {
		t.Errorf("made up: %d", got)
	}
}

func TestTokenEndpointRefreshAndFailures(t *testing.T) {
	s := NewServer()
	defer s.Close()
	rt := s.IssueRefreshToken("c1")
	refresh := func(tok, client string) (int, map[string]any) {
		return tokenPost(t, s, wire.BetaOAuth, `{"grant_type":"refresh_token","refresh_token":"`+tok+`","client_id":"`+client+`"}`)
	}
	if status, m := refresh(rt, "c2"); status != 400 || m["error"] != "invalid_grant" {
		t.Errorf("other client: %d %v", status, m)
	}
	status, m := refresh(rt, "c1")
	if status != 200 || m["refresh_token"] == rt || m["refresh_token"] == nil {
		t.Fatalf("refresh: %d %v", status, m)
	}
	if status, m := refresh(rt, "c1"); status != 400 || m["error"] != "invalid_grant" {
		t.Errorf("spent token: %d %v", status, m)
	}
	if status, _ := refresh(m["refresh_token"].(string), "c1"); status != 200 {
		t.Errorf("rotated token: %d", status)
	}

	before := s.TokenExchanges()
	s.FailTokenExchanges(ExchangeFailure{Status: 503, Code: "temporarily_unavailable", Description: "try later"})
	if status, m := refresh("x", "c1"); status != 503 || m["error_description"] != "try later" {
		t.Errorf("injected failure: %d %v", status, m)
	}
	if got := s.TokenExchanges() - before; got != 1 {
		t.Errorf("counted %d", got)
	}
}
