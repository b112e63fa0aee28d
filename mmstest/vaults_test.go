package mmstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// vaultOK sends a managed-agents request that must succeed and decodes
// the answer into a T.
func vaultOK[T any](t *testing.T, s *Server, method, path, body string) T {
	t.Helper()
	resp, b := agentCall(t, s, method, path, body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// listIDs lists every page of path (newest first) and returns the ids.
func listIDs(t *testing.T, s *Server, path string) []string {
	t.Helper()
	var ids []string
	page := ""
	for {
		p := vaultOK[cursorPage[struct{ ID string }]](t, s, "GET", path+page, "")
		for _, d := range p.Data {
			ids = append(ids, d.ID)
		}
		if p.NextPage == nil {
			return ids
		}
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		page = sep + "page=" + *p.NextPage
	}
}

func TestVaultsRequireBeta(t *testing.T) {
	s := newTestServer(t)
	resp, body := send(t, s, newReq(t, s, http.MethodGet, "/v1/vaults", nil))
	wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, wire.BetaManagedAgents)
}

func TestVaultsLifecycle(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	v := vaultOK[vaultWire](t, s, "POST", "/v1/vaults", `{"display_name":"prod","metadata":{"k":"v","gone":"x"}}`)
	if !strings.HasPrefix(v.ID, "vlt_") || v.Type != "vault" || v.ArchivedAt != nil || v.DisplayName != "prod" {
		t.Fatalf("created %+v", v)
	}
	path := "/v1/vaults/" + v.ID
	clock.Advance(time.Minute)
	u := vaultOK[vaultWire](t, s, "POST", path, `{"display_name":"p2","metadata":{"gone":null,"n":"1"}}`)
	if u.DisplayName != "p2" || !cmp.Equal(u.Metadata, map[string]string{"k": "v", "n": "1"}) || u.UpdatedAt == v.UpdatedAt {
		t.Fatalf("updated %+v", u)
	}
	if n := vaultOK[vaultWire](t, s, "POST", path, `{"display_name":null}`); n.DisplayName != "p2" {
		t.Errorf("display_name null changed the name: %+v", n)
	}
	for body, msg := range map[string]string{
		`{}`:                  "display_name: Field required",
		`{"display_name":""}`: "display_name",
		`{"display_name":"` + strings.Repeat("n", 256) + `"}`: "at most 255", // one over
		`{"display_name":"a","extra":1}`:                      "extra: Extra inputs",
		`{"display_name":"a","metadata":{"k":null}}`:          "metadata.k",
	} {
		resp, b := agentCall(t, s, "POST", "/v1/vaults", body)
		if !strings.Contains(msg, "at most") {
			wantError(t, resp, b, http.StatusBadRequest, wire.ErrInvalidRequest, msg)
		} else {
			wantError(t, resp, b, http.StatusBadRequest, wire.ErrInvalidRequest, "1 to 255")
		}
	}
	vaultOK[vaultWire](t, s, "POST", "/v1/vaults", `{"display_name":"`+strings.Repeat("n", 255)+`"}`)

	clock.Advance(time.Minute)
	ar := vaultOK[vaultWire](t, s, "POST", path+"/archive", "")
	if ar.ArchivedAt == nil {
		t.Fatalf("archived %+v", ar)
	}
	resp, b := agentCall(t, s, "POST", path, `{"display_name":"x"}`)
	wantError(t, resp, b, http.StatusBadRequest, wire.ErrInvalidRequest, "archived")
	if ids := listIDs(t, s, "/v1/vaults?limit=1"); len(ids) != 1 || ids[0] == v.ID {
		t.Errorf("default list %v", ids)
	}
	if ids := listIDs(t, s, "/v1/vaults?include_archived=true&limit=1"); len(ids) != 2 || ids[1] != v.ID {
		t.Errorf("include_archived list %v (newest first)", ids)
	}
	d := vaultOK[deletedWire](t, s, "DELETE", path, "")
	if d != (deletedWire{ID: v.ID, Type: "vault_deleted"}) {
		t.Errorf("deleted %+v", d)
	}
	resp, b = agentCall(t, s, "GET", path, "")
	wantError(t, resp, b, http.StatusNotFound, wire.ErrNotFound, v.ID)
}

// TestVaultUsable is the integration hook the sessions' vault_ids check
// calls.
func TestVaultUsable(t *testing.T) {
	s := newTestServer(t)
	a := vaultOK[vaultWire](t, s, "POST", "/v1/vaults", `{"display_name":"a"}`)
	b := vaultOK[vaultWire](t, s, "POST", "/v1/vaults", `{"display_name":"b"}`)
	c := vaultOK[vaultWire](t, s, "POST", "/v1/vaults", `{"display_name":"c"}`)
	vaultOK[vaultWire](t, s, "POST", "/v1/vaults/"+b.ID+"/archive", "")
	vaultOK[deletedWire](t, s, "DELETE", "/v1/vaults/"+c.ID, "")
	for id, want := range map[string]bool{a.ID: true, b.ID: false, c.ID: false, "vlt_nope": false, "": false} {
		if got := s.vaults.usable(id); got != want {
			t.Errorf("usable(%q) = %v, want %v", id, got, want)
		}
	}
}

const oauthAuth = `{"type":"mcp_oauth","mcp_server_url":"https://mcp.example/a","access_token":"at-1",` +
	`"expires_at":"2026-07-01T13:00:00Z","refresh":{"client_id":"cid","refresh_token":"rt-1","token_endpoint":"https://auth.example/token",` +
	`"token_endpoint_auth":{"type":"client_secret_post","client_secret":"cs-1"},"scope":"read"}}`

func credBody(auth string) string { return `{"auth":` + auth + `}` }

// TestVaultCredentialsNeverEchoSecrets: every kind is accepted, answers
// without any secret, and the secrets arrived.
func TestVaultCredentialsNeverEchoSecrets(t *testing.T) {
	s := newTestServer(t, WithClock(newFakeClock().Now))
	v := vaultOK[vaultWire](t, s, "POST", "/v1/vaults", `{"display_name":"v"}`)
	base := "/v1/vaults/" + v.ID + "/credentials"
	for _, tt := range []struct {
		auth    string
		secrets map[string]string
		want    string
	}{
		{oauthAuth, map[string]string{"access_token": "at-1", "refresh.refresh_token": "rt-1", "refresh.token_endpoint_auth.client_secret": "cs-1"},
			`{"type":"mcp_oauth","mcp_server_url":"https://mcp.example/a","expires_at":"2026-07-01T13:00:00Z","refresh":{"client_id":"cid",` +
				`"token_endpoint":"https://auth.example/token","token_endpoint_auth":{"type":"client_secret_post"},"resource":null,"scope":"read"}}`},
		{`{"type":"static_bearer","mcp_server_url":"https://mcp.example/b","token":"tok-1"}`, map[string]string{"token": "tok-1"},
			`{"type":"static_bearer","mcp_server_url":"https://mcp.example/b"}`},
		{`{"type":"environment_variable","secret_name":"API_KEY","secret_value":"sv-1","networking":{"type":"limited","allowed_hosts":["api.example.com","*.example.org","10.0.0.1"]},"injection_location":{"header":true}}`,
			map[string]string{"secret_value": "sv-1"},
			`{"type":"environment_variable","secret_name":"API_KEY","networking":{"type":"limited","allowed_hosts":["api.example.com","*.example.org","10.0.0.1"]},"injection_location":{"header":true}}`},
	} {
		resp, body := agentCall(t, s, "POST", base, `{"display_name":"c","auth":`+tt.auth+`}`)
		if resp.StatusCode != 200 {
			t.Fatalf("create: %d %s", resp.StatusCode, body)
		}
		for _, secret := range tt.secrets {
			if strings.Contains(string(body), secret) {
				t.Errorf("answer echoes a secret: %s", body)
			}
		}
		var c credentialWire
		if err := json.Unmarshal(body, &c); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(c.ID, "vcrd_") || c.Metadata == nil || c.VaultID != v.ID || c.Type != "vault_credential" || string(encodeJSON(c.Auth)) != tt.want {
			t.Errorf("record %s\nauth want %s", body, tt.want)
		}
		for member, value := range tt.secrets {
			if !s.VaultCredentialHoldsSecret(c.ID, member, value) || s.VaultCredentialHoldsSecret(c.ID, member, value+"x") {
				t.Errorf("%s: secret %s not held as sent", c.ID, member)
			}
		}
		for _, path := range []string{base + "/" + c.ID, base} {
			_, got := agentCall(t, s, "GET", path, "")
			for _, secret := range tt.secrets {
				if strings.Contains(string(got), secret) {
					t.Errorf("GET %s echoes a secret: %s", path, got)
				}
			}
		}
		ar := vaultOK[credentialWire](t, s, "POST", base+"/"+c.ID+"/archive", "")
		for member, value := range tt.secrets {
			if s.VaultCredentialHoldsSecret(c.ID, member, value) {
				t.Errorf("archive kept %s", member)
			}
		}
		if ar.ArchivedAt == nil {
			t.Errorf("archived %+v", ar)
		}
	}
}

// TestVaultCredentialRules: each rule the SDK validates is enforced, on
// both sides of its limit where it has one.
func TestVaultCredentialRules(t *testing.T) {
	s := newTestServer(t, WithClock(newFakeClock().Now))
	v := vaultOK[vaultWire](t, s, "POST", "/v1/vaults", `{"display_name":"v"}`)
	base := "/v1/vaults/" + v.ID + "/credentials"
	n := 0
	bearer := func(url string) string {
		return `{"type":"static_bearer","mcp_server_url":"` + url + `","token":"t"}`
	}
	uniq := func() string { n++; return fmt.Sprintf("https://u%d.example", n) }
	env := func(networking string) string {
		n++
		return fmt.Sprintf(`{"type":"environment_variable","secret_name":"S%d","secret_value":"v","networking":%s}`, n, networking)
	}
	hosts := func(k int, h string) string {
		return `{"type":"limited","allowed_hosts":[` + strings.TrimSuffix(strings.Repeat(`"`+h+`",`, k), ",") + `]}`
	}
	oauth := func(extra string) string {
		return `{"type":"mcp_oauth","mcp_server_url":"` + uniq() + `","access_token":"a"` + extra + `}`
	}
	refresh := func(members string) string { return oauth(`,"refresh":{` + members + `}`) }
	const full = `"client_id":"c","refresh_token":"r","token_endpoint":"https://t"`
	for _, tt := range []struct {
		name, body, msg string // msg "" when accepted
	}{
		{"no auth", `{}`, "auth: Field required"},
		{"display name 255", `{"display_name":"` + strings.Repeat("d", 255) + `","auth":` + bearer(uniq()) + `}`, ""},
		{"display name 256", `{"display_name":"` + strings.Repeat("d", 256) + `","auth":` + bearer(uniq()) + `}`, "display_name"},
		{"unknown kind", credBody(`{"type":"magic"}`), "auth.type"},
		{"unknown member", credBody(`{"type":"static_bearer","mcp_server_url":"https://x","token":"t","x":1}`), "auth.x"},
		{"url 2047", credBody(bearer("https://" + strings.Repeat("u", 2039))), ""},
		{"url 2048", credBody(bearer("https://" + strings.Repeat("u", 2040))), "auth.mcp_server_url"},
		{"no url", credBody(`{"type":"static_bearer","token":"t"}`), "auth.mcp_server_url: Field required"},
		{"no token", credBody(`{"type":"static_bearer","mcp_server_url":"https://nt"}`), "auth.token: Field required"},
		{"access token 8192", credBody(`{"type":"mcp_oauth","mcp_server_url":"` + uniq() + `","access_token":"` + strings.Repeat("a", 8192) + `"}`), ""},
		{"access token 8193", credBody(`{"type":"mcp_oauth","mcp_server_url":"` + uniq() + `","access_token":"` + strings.Repeat("a", 8193) + `"}`), "auth.access_token"},
		{"no access token", credBody(`{"type":"mcp_oauth","mcp_server_url":"https://na"}`), "auth.access_token: Field required"},
		{"expired", credBody(oauth(`,"expires_at":"2026-07-01T12:00:00Z"`)), "auth.expires_at: must be in the future"},
		{"expires later", credBody(oauth(`,"expires_at":"2026-07-01T12:00:01Z"`)), ""},
		{"expires null", credBody(oauth(`,"expires_at":null,"refresh":null`)), ""},
		{"refresh full", credBody(refresh(full + `,"token_endpoint_auth":{"type":"none"},"resource":null`)), ""},
		{"client id 1024", credBody(refresh(`"client_id":"` + strings.Repeat("c", 1024) + `","refresh_token":"r","token_endpoint":"t","token_endpoint_auth":{"type":"none"}`)), ""},
		{"client id 1025", credBody(refresh(`"client_id":"` + strings.Repeat("c", 1025) + `","refresh_token":"r","token_endpoint":"t","token_endpoint_auth":{"type":"none"}`)), "client_id"},
		{"no refresh token", credBody(refresh(`"client_id":"c","token_endpoint":"t","token_endpoint_auth":{"type":"none"}`)), "refresh_token: Field required"},
		{"no endpoint auth", credBody(refresh(full)), "token_endpoint_auth: Field required"},
		{"basic without secret", credBody(refresh(full + `,"token_endpoint_auth":{"type":"client_secret_basic"}`)), "client_secret: Field required"},
		{"none with secret", credBody(refresh(full + `,"token_endpoint_auth":{"type":"none","client_secret":"s"}`)), "client_secret"},
		{"no networking", credBody(`{"type":"environment_variable","secret_name":"N","secret_value":"v"}`), "auth.networking: Field required"},
		{"no secret value", credBody(`{"type":"environment_variable","secret_name":"N","networking":{"type":"unrestricted"}}`), "auth.secret_value"},
		{"unrestricted", credBody(env(`{"type":"unrestricted"}`)), ""},
		{"unrestricted with hosts", credBody(env(`{"type":"unrestricted","allowed_hosts":[]}`)), "allowed_hosts: Extra"},
		{"16 hosts", credBody(env(hosts(16, "a.example"))), ""},
		{"17 hosts", credBody(env(hosts(17, "a.example"))), "at most 16"},
		{"host with port", credBody(env(hosts(1, "a.example:443"))), "allowed_hosts.0"},
		{"host with scheme", credBody(env(hosts(1, "https://a.example"))), "allowed_hosts.0"},
		{"host with path", credBody(env(hosts(1, "a.example/x"))), "allowed_hosts.0"},
		{"ipv6", credBody(env(hosts(1, "::1"))), "allowed_hosts.0"},
		{"bad ipv4", credBody(env(hosts(1, "300.1.1.1"))), "allowed_hosts.0"},
		{"wildcard", credBody(env(hosts(1, "*.example.com"))), ""},
		{"wildcard ip", credBody(env(hosts(1, "*.10.0.0.1"))), "allowed_hosts.0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := agentCall(t, s, "POST", base, tt.body)
			if tt.msg == "" {
				if resp.StatusCode != 200 {
					t.Fatalf("%d %s", resp.StatusCode, body)
				}
				return
			}
			wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, tt.msg)
		})
	}
}

// TestVaultCredentialLimits: one active credential per key (409) until
// archived, at most 20 per vault, kind and immutable members on update,
// vault archive cascading, hard delete.
func TestVaultCredentialLimits(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	v := vaultOK[vaultWire](t, s, "POST", "/v1/vaults", `{"display_name":"v"}`)
	base := "/v1/vaults/" + v.ID + "/credentials"
	first := vaultOK[credentialWire](t, s, "POST", base, credBody(oauthAuth))
	resp, body := agentCall(t, s, "POST", base, credBody(`{"type":"static_bearer","mcp_server_url":"https://mcp.example/a","token":"t"}`))
	wantError(t, resp, body, http.StatusConflict, wire.ErrInvalidRequest, "https://mcp.example/a")
	// Updates: kind, immutable members, none, merge.
	for body, msg := range map[string]string{
		credBody(`{"type":"static_bearer","token":"x"}`):                                   "the credential is mcp_oauth",
		credBody(`{"type":"mcp_oauth","mcp_server_url":"https://other"}`):                  "mcp_server_url: cannot be changed",
		credBody(`{"type":"mcp_oauth","refresh":{"client_id":"x"}}`):                       "client_id: cannot be changed",
		credBody(`{"type":"mcp_oauth","refresh":{"token_endpoint_auth":{"type":"none"}}}`): "'none' cannot be set",
		credBody(`{"type":"mcp_oauth","expires_at":"2026-07-01T11:00:00Z"}`):               "must be in the future",
	} {
		resp, b := agentCall(t, s, "POST", base+"/"+first.ID, body)
		wantError(t, resp, b, http.StatusBadRequest, wire.ErrInvalidRequest, msg)
	}
	u := vaultOK[credentialWire](t, s, "POST", base+"/"+first.ID, `{"display_name":null,"metadata":{"a":"b"},"auth":{"type":"mcp_oauth","access_token":"at-2",`+
		`"expires_at":null,"refresh":{"refresh_token":"rt-2","scope":null,"token_endpoint_auth":{"type":"client_secret_basic"}}}}`)
	if u.DisplayName != nil || u.Auth.ExpiresAt != nil || u.Auth.Refresh.Scope != nil || u.Auth.Refresh.TokenEndpointAuth.Type != "client_secret_basic" ||
		u.Auth.Refresh.ClientID != "cid" || u.Metadata["a"] != "b" {
		t.Errorf("updated %+v %+v", u, u.Auth.Refresh)
	}
	if !s.VaultCredentialHoldsSecret(first.ID, "access_token", "at-2") || !s.VaultCredentialHoldsSecret(first.ID, "refresh.token_endpoint_auth.client_secret", "cs-1") {
		t.Error("update: secrets not replaced or kept as sent")
	}
	// Archive frees the key.
	vaultOK[credentialWire](t, s, "POST", base+"/"+first.ID+"/archive", "")
	resp, body = agentCall(t, s, "POST", base+"/"+first.ID, credBody(`{"type":"mcp_oauth","access_token":"x"}`))
	wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, "archived")
	second := vaultOK[credentialWire](t, s, "POST", base, credBody(`{"type":"static_bearer","mcp_server_url":"https://mcp.example/a","token":"t"}`))
	// Environment variable update: networking replaced, null falls back to
	// unrestricted, injection_location merged.
	envc := vaultOK[credentialWire](t, s, "POST", base, credBody(`{"type":"environment_variable","secret_name":"K","secret_value":"v","networking":{"type":"unrestricted"},"injection_location":{"body":true}}`))
	e := vaultOK[credentialWire](t, s, "POST", base+"/"+envc.ID, credBody(`{"type":"environment_variable","networking":{"type":"limited","allowed_hosts":["h"]},"injection_location":{"header":false}}`))
	if string(e.Auth.Networking) != `{"type":"limited","allowed_hosts":["h"]}` || *e.Auth.InjectionLocation.Body != true || *e.Auth.InjectionLocation.Header != false {
		t.Errorf("env update %s %+v", e.Auth.Networking, e.Auth.InjectionLocation)
	}
	resp, body = agentCall(t, s, "POST", base+"/"+envc.ID, credBody(`{"type":"environment_variable","secret_name":"K2"}`))
	wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, "secret_name: cannot be changed")
	// 20 active credentials at most (2 active now).
	for i := range 18 {
		vaultOK[credentialWire](t, s, "POST", base, credBody(fmt.Sprintf(`{"type":"static_bearer","mcp_server_url":"https://n%d","token":"t"}`, i)))
	}
	resp, body = agentCall(t, s, "POST", base, credBody(`{"type":"static_bearer","mcp_server_url":"https://n21","token":"t"}`))
	wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, "at most 20")
	if ids := listIDs(t, s, base+"?limit=7"); len(ids) != 20 || ids[19] != second.ID {
		t.Errorf("list: %d ids, last %v", len(ids), ids[len(ids)-1])
	}
	if ids := listIDs(t, s, base+"?include_archived=true"); len(ids) != 21 || ids[20] != first.ID {
		t.Errorf("list archived: %d", len(ids))
	}
	// Delete is hard; archiving the vault archives the rest.
	d := vaultOK[deletedWire](t, s, "DELETE", base+"/"+second.ID, "")
	if d != (deletedWire{ID: second.ID, Type: "vault_credential_deleted"}) {
		t.Errorf("deleted %+v", d)
	}
	resp, body = agentCall(t, s, "GET", base+"/"+second.ID, "")
	wantError(t, resp, body, http.StatusNotFound, wire.ErrNotFound, second.ID)
	vaultOK[vaultWire](t, s, "POST", "/v1/vaults/"+v.ID+"/archive", "")
	if ids := listIDs(t, s, base); len(ids) != 0 {
		t.Errorf("after vault archive: %d active", len(ids))
	}
	if s.VaultCredentialHoldsSecret(envc.ID, "secret_value", "v") {
		t.Error("vault archive kept a secret")
	}
	resp, body = agentCall(t, s, "POST", base, credBody(`{"type":"static_bearer","mcp_server_url":"https://late","token":"t"}`))
	wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, "archived")
	resp, body = agentCall(t, s, "GET", "/v1/vaults/vlt_nope/credentials", "")
	wantError(t, resp, body, http.StatusNotFound, wire.ErrNotFound, "vlt_nope")
}

// TestVaultCredentialValidate pins the fake's validation rule.
func TestVaultCredentialValidate(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	v := vaultOK[vaultWire](t, s, "POST", "/v1/vaults", `{"display_name":"v"}`)
	base := "/v1/vaults/" + v.ID + "/credentials"
	withRefresh := vaultOK[credentialWire](t, s, "POST", base, credBody(oauthAuth))
	plain := vaultOK[credentialWire](t, s, "POST", base, credBody(`{"type":"mcp_oauth","mcp_server_url":"https://p","access_token":"a","expires_at":"2026-07-01T13:00:00Z"}`))
	bearer := vaultOK[credentialWire](t, s, "POST", base, credBody(`{"type":"static_bearer","mcp_server_url":"https://b","token":"t"}`))
	validate := func(id string) validationWire {
		return vaultOK[validationWire](t, s, "POST", base+"/"+id+"/mcp_oauth_validate", "")
	}
	if got := validate(plain.ID); got.Status != "valid" || got.HasRefreshToken || got.MCPProbe != nil || got.Refresh != nil ||
		got.Type != "vault_credential_validation" || got.CredentialID != plain.ID || got.VaultID != v.ID {
		t.Errorf("live token: %+v", got)
	}
	clock.Advance(2 * time.Hour)
	if got := validate(withRefresh.ID); got.Status != "valid" || !got.HasRefreshToken || got.Refresh == nil || got.Refresh.Status != "succeeded" {
		t.Errorf("expired with refresh: %+v", got)
	}
	if got := validate(plain.ID); got.Status != "invalid" || got.MCPProbe == nil || got.MCPProbe.HTTPResponse.StatusCode != 401 ||
		got.Refresh == nil || got.Refresh.Status != "no_refresh_token" {
		t.Errorf("expired without refresh: %+v", got)
	}
	vaultOK[credentialWire](t, s, "POST", base+"/"+withRefresh.ID+"/archive", "")
	if got := validate(withRefresh.ID); got.Status != "invalid" || got.HasRefreshToken {
		t.Errorf("archived: %+v", got)
	}
	resp, body := agentCall(t, s, "POST", base+"/"+bearer.ID+"/mcp_oauth_validate", "")
	wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, "only mcp_oauth")
}
