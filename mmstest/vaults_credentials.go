package mmstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The credential endpoints under /v1/vaults/{vault_id}/credentials
// ("vcrd_…" ids), with the service's rules:
//
//   - Create: display_name 1–255 or null, auth required, metadata as for
//     vaults. auth by type: mcp_oauth (mcp_server_url 1–2047 and
//     access_token 1–8192 required; expires_at null or an RFC 3339 time
//     after the server's clock; refresh null or {client_id 1–1024,
//     refresh_token 1–4096, token_endpoint 1–2047, token_endpoint_auth
//     required; resource, scope optional}); static_bearer (mcp_server_url
//     1–2047, token 1–8192);
//     environment_variable (secret_name, secret_value, networking
//     required; injection_location {body, header} optional).
//     token_endpoint_auth is none, or client_secret_basic /
//     client_secret_post with client_secret (1–512). networking is unrestricted
//     or limited with allowed_hosts (at most 16, each a host name, an
//     IPv4 address or *.domain). Unknown members anywhere are a 400.
//     One active credential per mcp_server_url / secret_name per vault
//     (409), at most 20 active credentials per vault (400), none in an
//     archived vault (400).
//   - Update: display_name (null clears), metadata patch, auth whose type
//     must be the stored one (400); access_token, expires_at, refresh
//     (null removes it; refresh_token, scope, token_endpoint_auth, where
//     none is refused and client_secret optional), token, secret_value,
//     networking (replaced whole), injection_location (merged per field).
//     The immutable members (mcp_server_url, secret_name, client_id,
//     token_endpoint, resource) are refused by name (400). Archived
//     credentials cannot be updated (400).
//   - Archive purges the secrets and frees the server URL or secret name;
//     delete removes the credential; both answer as the service does.
//   - mcp_oauth_validate (mcp_oauth only, else 400) answers a validation
//     record by this rule: a live access token (held, and expires_at
//     absent or after the clock) is "valid"; an expired one with a held
//     refresh token refreshes ("succeeded"; the expiry is not moved) and
//     is "valid"; otherwise "invalid", with the MCP probe's 401 and the
//     refresh status no_refresh_token.
//
// Write-only secrets are kept only so tests can ask, through
// [Server.VaultCredentialHoldsSecret], whether one arrived; no answer
// carries them.

// Credential limits.
const (
	maxVaultCredentials = 20
	maxAllowedHosts     = 16
)

// storedCredential is a credential: its record and its secrets.
type storedCredential struct {
	rec credentialWire
	// secrets maps each write-only member's path (access_token,
	// refresh.refresh_token, refresh.token_endpoint_auth.client_secret,
	// token, secret_value) to its value; nil once purged.
	secrets map[string]string
}

// key is what must be unique among a vault's active credentials.
func (c *storedCredential) key() string {
	if c.rec.Auth.SecretName != "" {
		return "secret_name " + c.rec.Auth.SecretName
	}
	return "mcp_server_url " + c.rec.Auth.MCPServerURL
}

// archive archives the credential (recordTimes.archive) and drops its
// secrets.
func (c *storedCredential) archive(now time.Time) {
	if c.rec.ArchivedAt == nil {
		c.rec.archive(now)
		c.secrets = nil
	}
}

// credentialWire is the credential record.
type credentialWire struct {
	ID          string            `json:"id"`
	Type        string            `json:"type"`
	VaultID     string            `json:"vault_id"`
	DisplayName *string           `json:"display_name"`
	Auth        authWire          `json:"auth"`
	Metadata    map[string]string `json:"metadata"`
	recordTimes
}

// authWire is a record's auth: no secret has a field here.
type authWire struct {
	Type              string          `json:"type"`
	MCPServerURL      string          `json:"mcp_server_url,omitempty"`
	ExpiresAt         *string         `json:"expires_at,omitempty"`
	Refresh           *refreshWire    `json:"refresh,omitempty"`
	SecretName        string          `json:"secret_name,omitempty"`
	Networking        json.RawMessage `json:"networking,omitempty"`
	InjectionLocation *injectionWire  `json:"injection_location,omitempty"`
}

type refreshWire struct {
	ClientID          string   `json:"client_id"`
	TokenEndpoint     string   `json:"token_endpoint"`
	TokenEndpointAuth typeOnly `json:"token_endpoint_auth"`
	Resource          *string  `json:"resource"`
	Scope             *string  `json:"scope"`
}

type injectionWire struct {
	Body   *bool `json:"body,omitempty"`
	Header *bool `json:"header,omitempty"`
}

// credentialBody is a create or update body.
type credentialBody struct {
	DisplayName json.RawMessage `json:"display_name"`
	Auth        json.RawMessage `json:"auth"`
	Metadata    json.RawMessage `json:"metadata"`
}

// authBody holds every auth member any kind accepts; which are allowed
// depends on the kind and on create or update (authMembers).
type authBody struct {
	Type              string          `json:"type"`
	MCPServerURL      *string         `json:"mcp_server_url"`
	AccessToken       *string         `json:"access_token"`
	ExpiresAt         json.RawMessage `json:"expires_at"`
	Refresh           json.RawMessage `json:"refresh"`
	Token             *string         `json:"token"`
	SecretName        *string         `json:"secret_name"`
	SecretValue       *string         `json:"secret_value"`
	Networking        json.RawMessage `json:"networking"`
	InjectionLocation json.RawMessage `json:"injection_location"`
}

type refreshBody struct {
	ClientID          *string         `json:"client_id"`
	RefreshToken      *string         `json:"refresh_token"`
	TokenEndpoint     *string         `json:"token_endpoint"`
	TokenEndpointAuth json.RawMessage `json:"token_endpoint_auth"`
	Resource          json.RawMessage `json:"resource"`
	Scope             json.RawMessage `json:"scope"`
}

type tokenEndpointAuthBody struct {
	Type         string  `json:"type"`
	ClientSecret *string `json:"client_secret"`
}

type networkingBody struct {
	Type         string   `json:"type"`
	AllowedHosts []string `json:"allowed_hosts"`
}

// authMembers lists the members each kind accepts on create and on
// update; the immutable ones are refused by name on update.
var authMembers = map[string][2][]string{
	"mcp_oauth":            {{"mcp_server_url", "access_token", "expires_at", "refresh"}, {"access_token", "expires_at", "refresh"}},
	"static_bearer":        {{"mcp_server_url", "token"}, {"token"}},
	"environment_variable": {{"secret_name", "secret_value", "networking", "injection_location"}, {"secret_value", "networking", "injection_location"}},
}

var immutableMembers = []string{"mcp_server_url", "secret_name", "client_id", "token_endpoint", "resource"}

// strictMembers decodes raw (an object) into v, refusing members not in
// allowed (and "type"), each named with prefix.
func strictMembers(prefix string, raw json.RawMessage, allowed []string, v any) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return fmt.Errorf("%s: Input should be an object", prefix)
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		switch {
		case k == "type" || slices.Contains(allowed, k):
		case slices.Contains(immutableMembers, k):
			return fmt.Errorf("%s.%s: cannot be changed; archive the credential and create a new one", prefix, k)
		default:
			return fmt.Errorf("%s.%s: Extra inputs are not permitted", prefix, k)
		}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("%s: %v", prefix, strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// required checks a required string member: present, a string, of 1 to
// max characters (0: no limit). The message never holds the value.
func required(field string, s *string, max int) error {
	switch {
	case s == nil:
		return fmt.Errorf("%s: Field required", field)
	case *s == "":
		return fmt.Errorf("%s: String should have at least 1 character", field)
	case max > 0 && textLen(*s) > max:
		return fmt.Errorf("%s: String should have at most %d characters, got %d", field, max, textLen(*s))
	}
	return nil
}

// optionalString decodes a member that may be absent, null or a string.
func optionalString(field string, raw json.RawMessage) (*string, error) {
	if raw == nil || isNullJSON(raw) {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("%s: Input should be a valid string", field)
	}
	return &s, nil
}

// applyAuth applies a create (cur zero) or update auth body to the record's
// auth and the secrets, checking every rule.
func (st *vaultStore) applyAuth(raw json.RawMessage, cur *authWire, secrets map[string]string, create bool) error {
	var head typeOnly
	if err := json.Unmarshal(raw, &head); err != nil {
		return fmt.Errorf("auth: Input should be an object")
	}
	members, ok := authMembers[head.Type]
	if !ok {
		return fmt.Errorf("auth.type: Input should be 'mcp_oauth', 'static_bearer' or 'environment_variable', got %q", head.Type)
	}
	if !create && head.Type != cur.Type {
		return fmt.Errorf("auth.type: the credential is %s, not %s", cur.Type, head.Type)
	}
	allowed := members[1]
	if create {
		allowed = members[0]
	}
	var b authBody
	if err := strictMembers("auth", raw, allowed, &b); err != nil {
		return err
	}
	cur.Type = head.Type
	switch head.Type {
	case "mcp_oauth":
		return st.applyMCPOAuth(&b, cur, secrets, create)
	case "static_bearer":
		if create {
			if err := required("auth.mcp_server_url", b.MCPServerURL, wire.MaxCredentialServerURLLen); err != nil {
				return err
			}
			cur.MCPServerURL = *b.MCPServerURL
		}
		return setSecret(secrets, "token", "auth.token", b.Token, wire.MaxStaticBearerTokenLen, create)
	}
	return applyEnvironmentVariable(&b, cur, secrets, create)
}

// setSecret stores a write-only member: required on create, optional on
// update.
func setSecret(secrets map[string]string, key, field string, v *string, max int, create bool) error {
	if v == nil && !create {
		return nil
	}
	if err := required(field, v, max); err != nil {
		return err
	}
	secrets[key] = *v
	return nil
}

func (st *vaultStore) applyMCPOAuth(b *authBody, cur *authWire, secrets map[string]string, create bool) error {
	if create {
		if err := required("auth.mcp_server_url", b.MCPServerURL, wire.MaxCredentialServerURLLen); err != nil {
			return err
		}
		cur.MCPServerURL = *b.MCPServerURL
	}
	if err := setSecret(secrets, "access_token", "auth.access_token", b.AccessToken, wire.MaxAccessTokenLen, create); err != nil {
		return err
	}
	if b.ExpiresAt != nil {
		exp, err := optionalString("auth.expires_at", b.ExpiresAt)
		if err != nil {
			return err
		}
		if exp != nil {
			t, err := time.Parse(time.RFC3339Nano, *exp)
			if err != nil {
				return fmt.Errorf("auth.expires_at: Input should be a valid datetime")
			}
			if !t.After(st.srv.now()) {
				return fmt.Errorf("auth.expires_at: must be in the future")
			}
		}
		cur.ExpiresAt = exp
	}
	if b.Refresh == nil {
		return nil
	}
	if isNullJSON(b.Refresh) {
		cur.Refresh = nil
		delete(secrets, "refresh.refresh_token")
		delete(secrets, "refresh.token_endpoint_auth.client_secret")
		return nil
	}
	return applyRefresh(b.Refresh, cur, secrets, create)
}

func applyRefresh(raw json.RawMessage, cur *authWire, secrets map[string]string, create bool) error {
	allowed := []string{"refresh_token", "scope", "token_endpoint_auth"}
	if create {
		allowed = []string{"client_id", "refresh_token", "token_endpoint", "token_endpoint_auth", "resource", "scope"}
	}
	var b refreshBody
	if err := strictMembers("auth.refresh", raw, allowed, &b); err != nil {
		return err
	}
	if cur.Refresh == nil {
		if !create {
			return fmt.Errorf("auth.refresh: the credential has no refresh configuration to update")
		}
		cur.Refresh = &refreshWire{}
	}
	rf := cur.Refresh
	if create {
		if err := required("auth.refresh.client_id", b.ClientID, wire.MaxClientIDLen); err != nil {
			return err
		}
		if err := required("auth.refresh.token_endpoint", b.TokenEndpoint, wire.MaxTokenEndpointLen); err != nil {
			return err
		}
		if b.TokenEndpointAuth == nil {
			return fmt.Errorf("auth.refresh.token_endpoint_auth: Field required")
		}
		rf.ClientID, rf.TokenEndpoint = *b.ClientID, *b.TokenEndpoint
		var err error
		if rf.Resource, err = optionalString("auth.refresh.resource", b.Resource); err != nil {
			return err
		}
	}
	if err := setSecret(secrets, "refresh.refresh_token", "auth.refresh.refresh_token", b.RefreshToken, wire.MaxRefreshTokenLen, create); err != nil {
		return err
	}
	if b.Scope != nil {
		var err error
		if rf.Scope, err = optionalString("auth.refresh.scope", b.Scope); err != nil {
			return err
		}
	}
	if b.TokenEndpointAuth == nil {
		return nil
	}
	var ta tokenEndpointAuthBody
	if err := strictMembers("auth.refresh.token_endpoint_auth", b.TokenEndpointAuth, []string{"client_secret"}, &ta); err != nil {
		return err
	}
	switch ta.Type {
	case "none":
		if !create {
			return fmt.Errorf("auth.refresh.token_endpoint_auth.type: 'none' cannot be set by an update")
		}
		if ta.ClientSecret != nil {
			return fmt.Errorf("auth.refresh.token_endpoint_auth.client_secret: Extra inputs are not permitted")
		}
		delete(secrets, "refresh.token_endpoint_auth.client_secret")
	case "client_secret_basic", "client_secret_post":
		if err := setSecret(secrets, "refresh.token_endpoint_auth.client_secret", "auth.refresh.token_endpoint_auth.client_secret",
			ta.ClientSecret, wire.MaxClientSecretLen, create); err != nil {
			return err
		}
	default:
		return fmt.Errorf("auth.refresh.token_endpoint_auth.type: Input should be 'none', 'client_secret_basic' or 'client_secret_post', got %q", ta.Type)
	}
	rf.TokenEndpointAuth = typeOnly{Type: ta.Type}
	return nil
}

func applyEnvironmentVariable(b *authBody, cur *authWire, secrets map[string]string, create bool) error {
	if create {
		if err := required("auth.secret_name", b.SecretName, 0); err != nil {
			return err
		}
		cur.SecretName = *b.SecretName
		if b.Networking == nil {
			return fmt.Errorf("auth.networking: Field required")
		}
	}
	if err := setSecret(secrets, "secret_value", "auth.secret_value", b.SecretValue, 0, create); err != nil {
		return err
	}
	if b.Networking != nil {
		if isNullJSON(b.Networking) {
			if create {
				return fmt.Errorf("auth.networking: Input should be an object")
			}
			// Cleared: this fake falls back to the environment's policy.
			b.Networking = json.RawMessage(`{"type":"unrestricted"}`)
		}
		n, err := checkNetworking(b.Networking)
		if err != nil {
			return err
		}
		cur.Networking = n
	}
	if b.InjectionLocation != nil {
		var in injectionWire
		if err := strictMembers("auth.injection_location", b.InjectionLocation, []string{"body", "header"}, &in); err != nil {
			return err
		}
		if cur.InjectionLocation == nil {
			cur.InjectionLocation = &injectionWire{}
		}
		if in.Body != nil {
			cur.InjectionLocation.Body = in.Body
		}
		if in.Header != nil {
			cur.InjectionLocation.Header = in.Header
		}
	}
	return nil
}

// checkNetworking checks a networking object and returns its record form.
func checkNetworking(raw json.RawMessage) (json.RawMessage, error) {
	var head typeOnly
	_ = json.Unmarshal(raw, &head)
	var n networkingBody
	switch head.Type {
	case "unrestricted":
		if err := strictMembers("auth.networking", raw, nil, &n); err != nil {
			return nil, err
		}
		return encodeJSON(typeOnly{Type: "unrestricted"}), nil
	case "limited":
		if err := strictMembers("auth.networking", raw, []string{"allowed_hosts"}, &n); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("auth.networking.type: Input should be 'unrestricted' or 'limited', got %q", head.Type)
	}
	if n.AllowedHosts == nil {
		return nil, fmt.Errorf("auth.networking.allowed_hosts: Field required")
	}
	if len(n.AllowedHosts) > maxAllowedHosts {
		return nil, fmt.Errorf("auth.networking.allowed_hosts: at most %d hosts are allowed, got %d", maxAllowedHosts, len(n.AllowedHosts))
	}
	for i, h := range n.AllowedHosts {
		if !allowedHost(h) {
			return nil, fmt.Errorf("auth.networking.allowed_hosts.%d: %q is not a host name, IPv4 address or *.domain", i, h)
		}
	}
	return encodeJSON(n), nil
}

// allowedHost reports whether h is a DNS name, an IPv4 address or
// *.name.
func allowedHost(h string) bool {
	h, wildcard := strings.CutPrefix(h, "*.")
	if a, err := netip.ParseAddr(h); err == nil {
		return a.Is4() && !wildcard
	}
	labels := strings.Split(h, ".")
	if len(h) == 0 || len(h) > 253 || strings.Trim(labels[len(labels)-1], "0123456789") == "" {
		return false
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || strings.HasPrefix(l, "-") || strings.HasSuffix(l, "-") ||
			strings.Trim(strings.ToLower(l), "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			return false
		}
	}
	return true
}

// lookupCredential returns the vault and credential named by the path, or
// answers 404 and returns nil. st.mu must be held.
func (st *vaultStore) lookupCredential(w http.ResponseWriter, r *http.Request) (*vaultWire, *storedCredential) {
	v := st.lookupVault(w, r)
	if v == nil {
		return nil, nil
	}
	id := r.PathValue("credential_id")
	i := slices.IndexFunc(st.creds, func(c *storedCredential) bool { return c.rec.ID == id && c.rec.VaultID == v.ID })
	if i < 0 {
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "Credential not found: "+id)
		return nil, nil
	}
	return v, st.creds[i]
}

// activeCredentials returns vaultID's credentials that are not archived;
// st.mu is held.
func (st *vaultStore) activeCredentials(vaultID string) []*storedCredential {
	var out []*storedCredential
	for _, c := range st.creds {
		if c.rec.VaultID == vaultID && c.rec.ArchivedAt == nil {
			out = append(out, c)
		}
	}
	return out
}

// createCredential serves POST /v1/vaults/{vault_id}/credentials.
func (st *vaultStore) createCredential(w http.ResponseWriter, r *http.Request) {
	var b credentialBody
	if badBody(w, r, &b) {
		return
	}
	c := &storedCredential{secrets: map[string]string{}}
	var err error
	switch {
	case b.Auth == nil:
		err = fmt.Errorf("auth: Field required")
	case b.DisplayName != nil:
		c.rec.DisplayName, err = displayName(b.DisplayName, true)
	}
	if err == nil {
		c.rec.Metadata, err = patchMetadata(nil, b.Metadata, true, false)
	}
	if err == nil {
		err = st.applyAuth(b.Auth, &c.rec.Auth, c.secrets, true)
	}
	if err != nil {
		badRequest(w, r, err)
		return
	}
	withFound(&st.mu, w, r, st.lookupVault, func(v *vaultWire) {
		active := st.activeCredentials(v.ID)
		switch {
		case v.ArchivedAt != nil:
			badRequest(w, r, fmt.Errorf("archived vaults cannot hold new credentials: %s", v.ID))
			return
		case len(active) >= maxVaultCredentials:
			badRequest(w, r, fmt.Errorf("a vault holds at most %d credentials", maxVaultCredentials))
			return
		case slices.ContainsFunc(active, func(o *storedCredential) bool { return o.key() == c.key() }):
			writeError(w, r, http.StatusConflict, wire.ErrInvalidRequest,
				fmt.Sprintf("the vault already holds an active credential for %s", c.key()))
			return
		}
		ts := st.srv.now().UTC().Format(fileTimeLayout)
		c.rec.ID, c.rec.Type, c.rec.VaultID, c.rec.CreatedAt, c.rec.UpdatedAt = st.srv.newID("vcrd_"), "vault_credential", v.ID, ts, ts
		st.creds = append(st.creds, c)
		writeJSON(w, http.StatusOK, c.rec)
	})
}

// getCredential serves GET …/credentials/{credential_id}.
func (st *vaultStore) getCredential(w http.ResponseWriter, r *http.Request) {
	withFoundIn(&st.mu, w, r, st.lookupCredential, func(_ *vaultWire, c *storedCredential) {
		writeJSON(w, http.StatusOK, c.rec)
	})
}

// updateCredential serves POST …/credentials/{credential_id}.
func (st *vaultStore) updateCredential(w http.ResponseWriter, r *http.Request) {
	var b credentialBody
	if badBody(w, r, &b) {
		return
	}
	withFoundIn(&st.mu, w, r, st.lookupCredential, func(_ *vaultWire, c *storedCredential) {
		if c.rec.ArchivedAt != nil {
			badRequest(w, r, fmt.Errorf("archived credentials cannot be updated: %s", c.rec.ID))
			return
		}
		next := c.rec
		next.Auth = cloneAuth(c.rec.Auth)
		secrets := maps.Clone(c.secrets)
		var err error
		if b.DisplayName != nil {
			next.DisplayName, err = displayName(b.DisplayName, true)
		}
		if err == nil {
			next.Metadata, err = patchMetadata(c.rec.Metadata, nullAsAbsent(b.Metadata), false, false)
		}
		if err == nil && b.Auth != nil {
			err = st.applyAuth(b.Auth, &next.Auth, secrets, false)
		}
		if err != nil {
			badRequest(w, r, err)
			return
		}
		if !bytes.Equal(encodeJSON(next), encodeJSON(c.rec)) || !maps.Equal(secrets, c.secrets) {
			next.UpdatedAt = st.srv.now().UTC().Format(fileTimeLayout)
		}
		c.rec, c.secrets = next, secrets
		writeJSON(w, http.StatusOK, next)
	})
}

// cloneAuth copies the auth's pointed-to parts, so a failed update leaves
// the stored one as it was.
func cloneAuth(a authWire) authWire {
	if a.Refresh != nil {
		rf := *a.Refresh
		a.Refresh = &rf
	}
	if a.InjectionLocation != nil {
		in := *a.InjectionLocation
		a.InjectionLocation = &in
	}
	return a
}

// archiveCredential serves POST …/credentials/{credential_id}/archive.
func (st *vaultStore) archiveCredential(w http.ResponseWriter, r *http.Request) {
	withFoundIn(&st.mu, w, r, st.lookupCredential, func(_ *vaultWire, c *storedCredential) {
		c.archive(st.srv.now())
		writeJSON(w, http.StatusOK, c.rec)
	})
}

// deleteCredential serves DELETE …/credentials/{credential_id}.
func (st *vaultStore) deleteCredential(w http.ResponseWriter, r *http.Request) {
	withFoundIn(&st.mu, w, r, st.lookupCredential, func(_ *vaultWire, c *storedCredential) {
		st.creds = slices.DeleteFunc(st.creds, func(x *storedCredential) bool { return x == c })
		writeDeleted(w, c.rec.ID, "vault_credential_deleted")
	})
}

// listCredentials serves GET /v1/vaults/{vault_id}/credentials, newest
// first.
func (st *vaultStore) listCredentials(w http.ResponseWriter, r *http.Request) {
	listArchivableIn(w, r, &st.mu, st.lookupVault, &st.creds, func(c *storedCredential, v *vaultWire) (credentialWire, *string, bool) {
		return c.rec, c.rec.ArchivedAt, c.rec.VaultID == v.ID
	}, func(c credentialWire) string { return c.ID })
}

// validationWire is the answer of mcp_oauth_validate.
type validationWire struct {
	Type            string                 `json:"type"`
	CredentialID    string                 `json:"credential_id"`
	VaultID         string                 `json:"vault_id"`
	ValidatedAt     string                 `json:"validated_at"`
	Status          string                 `json:"status"`
	HasRefreshToken bool                   `json:"has_refresh_token"`
	MCPProbe        *probeWire             `json:"mcp_probe"`
	Refresh         *refreshValidationWire `json:"refresh"`
}

type probeWire struct {
	Method       string            `json:"method"`
	HTTPResponse *httpResponseWire `json:"http_response"`
}

type refreshValidationWire struct {
	Status       string            `json:"status"`
	HTTPResponse *httpResponseWire `json:"http_response"`
}

type httpResponseWire struct {
	StatusCode    int    `json:"status_code"`
	ContentType   string `json:"content_type"`
	Body          string `json:"body"`
	BodyTruncated bool   `json:"body_truncated"`
}

// validateCredential serves POST …/credentials/{credential_id}/mcp_oauth_validate.
func (st *vaultStore) validateCredential(w http.ResponseWriter, r *http.Request) {
	withFoundIn(&st.mu, w, r, st.lookupCredential, func(_ *vaultWire, c *storedCredential) {
		if c.rec.Auth.Type != "mcp_oauth" {
			badRequest(w, r, fmt.Errorf("only mcp_oauth credentials can be validated; %s is %s", c.rec.ID, c.rec.Auth.Type))
			return
		}
		now := st.srv.now()
		out := validationWire{Type: "vault_credential_validation", CredentialID: c.rec.ID, VaultID: c.rec.VaultID,
			ValidatedAt: now.UTC().Format(fileTimeLayout), Status: "invalid"}
		_, hasToken := c.secrets["access_token"]
		_, out.HasRefreshToken = c.secrets["refresh.refresh_token"]
		live := hasToken
		if exp := c.rec.Auth.ExpiresAt; live && exp != nil {
			t, err := time.Parse(time.RFC3339Nano, *exp)
			live = err == nil && t.After(now)
		}
		switch {
		case live:
			out.Status = "valid"
		case out.HasRefreshToken:
			out.Status = "valid"
			out.Refresh = &refreshValidationWire{Status: "succeeded",
				HTTPResponse: &httpResponseWire{StatusCode: 200, ContentType: "application/json", Body: `{"token_type":"Bearer"}`}}
		default:
			out.MCPProbe = &probeWire{Method: "initialize",
				HTTPResponse: &httpResponseWire{StatusCode: 401, ContentType: "application/json", Body: `{"error":"invalid_token"}`}}
			out.Refresh = &refreshValidationWire{Status: "no_refresh_token"}
		}
		writeJSON(w, http.StatusOK, out)
	})
}

// VaultCredentialHoldsSecret reports whether the credential credentialID
// holds value as its write-only member (access_token,
// refresh.refresh_token, refresh.token_endpoint_auth.client_secret, token
// or secret_value): a test can check that a secret arrived, and that an
// archive purged it, without the fake ever handing it back.
func (s *Server) VaultCredentialHoldsSecret(credentialID, member, value string) bool {
	st := s.vaults
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, c := range st.creds {
		if c.rec.ID == credentialID {
			v, ok := c.secrets[member]
			return ok && v == value
		}
	}
	return false
}
