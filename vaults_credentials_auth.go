package mms

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/netip"
	"reflect"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// A credential's auth comes in three forms, each a union on "type"
// (mcp_oauth, static_bearer, environment_variable): the record's
// [VaultCredentialAuth], which never holds a secret (the service does not
// return them); the create request's [VaultCredentialAuthParams]; and the
// update request's [VaultCredentialAuthUpdateParams], whose members are all
// optional and which holds only what can change. Every write-only secret of
// a request is a [Secret].

// The auth kinds.
const (
	CredentialAuthMCPOAuth            = "mcp_oauth"
	CredentialAuthStaticBearer        = "static_bearer"
	CredentialAuthEnvironmentVariable = "environment_variable"
)

// Limits of the auth members (the lengths in internal/wire/limits.go,
// shared with the fake).
const (
	maxMCPServerURLLen = wire.MaxCredentialServerURLLen
	maxAccessTokenLen  = wire.MaxAccessTokenLen
	maxClientIDLen     = wire.MaxClientIDLen
	maxAllowedHosts    = 16
)

// A VaultCredentialAuth is a credential record's auth: [MCPOAuthAuth],
// [StaticBearerAuth], [EnvironmentVariableAuth] or [UnknownCredentialAuth].
type VaultCredentialAuth interface {
	json.Marshaler
	isVaultCredentialAuth()
}

var vaultCredentialAuthUnion = codec.NewUnion[VaultCredentialAuth]("VaultCredentialAuth", UnknownCredentialAuth{}).
	Add(CredentialAuthMCPOAuth, MCPOAuthAuth{}).
	Add(CredentialAuthStaticBearer, StaticBearerAuth{}).
	Add(CredentialAuthEnvironmentVariable, EnvironmentVariableAuth{})

// MCPOAuthAuth is an MCP server's OAuth grant as the record shows it (the
// wire type "mcp_oauth"); the access and refresh tokens are not returned.
type MCPOAuthAuth struct {
	// MCPServerURL is the server the credential is for; sessions match
	// their MCP servers by this URL.
	MCPServerURL string `json:"mcp_server_url"`
	// ExpiresAt is when the access token expires (RFC 3339); nil when
	// absent or null.
	ExpiresAt *string `json:"expires_at,omitzero"`
	// Refresh is how the service refreshes the token; nil when absent or
	// null.
	Refresh *MCPOAuthRefresh `json:"refresh,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// StaticBearerAuth is a fixed bearer token for an MCP server as the record
// shows it (the wire type "static_bearer"); the token is not returned.
type StaticBearerAuth struct {
	// MCPServerURL is the server the credential is for.
	MCPServerURL string `json:"mcp_server_url"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// EnvironmentVariableAuth is a secret a session's sandbox sees as an
// environment variable holding a placeholder, swapped for the value at
// egress to the allowed hosts (the wire type "environment_variable"); the
// value is not returned.
type EnvironmentVariableAuth struct {
	// SecretName is the variable's name.
	SecretName string `json:"secret_name"`
	// Networking says to which hosts the value may go.
	Networking CredentialNetworking `json:"networking"`
	// InjectionLocation says where the placeholder is replaced; nil when
	// absent.
	InjectionLocation *CredentialInjectionLocation `json:"injection_location,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownCredentialAuth keeps an auth kind this SDK version cannot name,
// in any of the three forms; it is sent back as it came.
type UnknownCredentialAuth struct {
	Type string
	Raw  json.RawMessage
}

// MCPOAuthRefresh is the refresh configuration of a record's
// [MCPOAuthAuth]; the refresh token and client secret are not returned.
//
//mms:json
type MCPOAuthRefresh struct {
	// ClientID is the OAuth client's id.
	ClientID string `json:"client_id"`
	// TokenEndpoint is the URL the service refreshes the token at.
	TokenEndpoint string `json:"token_endpoint"`
	// TokenEndpointAuth says how the client authenticates there: only its
	// type.
	TokenEndpointAuth TokenEndpointAuth `json:"token_endpoint_auth"`
	// Resource and Scope are sent with the refresh; nil when absent or
	// null.
	Resource *string `json:"resource,omitzero"`
	Scope    *string `json:"scope,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// The token endpoint's client authentication methods.
const (
	TokenEndpointAuthNoneType              = "none"
	TokenEndpointAuthClientSecretBasicType = "client_secret_basic"
	TokenEndpointAuthClientSecretPostType  = "client_secret_post"
)

// TokenEndpointAuth is a record's token endpoint authentication: its type
// alone ("none", "client_secret_basic", "client_secret_post" or one this
// SDK version does not know).
//
//mms:json
type TokenEndpointAuth struct {
	// Type is the authentication method.
	Type string `json:"type"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CredentialInjectionLocation says where a sandbox's requests have an
// environment variable's placeholder replaced. An update merges it per
// field.
//
//mms:json
type CredentialInjectionLocation struct {
	// Body and Header switch replacement in request bodies and headers;
	// nil leaves the service's choice.
	Body   *bool `json:"body,omitzero"`
	Header *bool `json:"header,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A CredentialNetworking says to which hosts an environment variable's
// value may be sent: [CredentialNetworkingUnrestricted],
// [CredentialNetworkingLimited] or [UnknownCredentialNetworking]. Records
// and params share it.
type CredentialNetworking interface {
	json.Marshaler
	isCredentialNetworking()
}

var credentialNetworkingUnion = codec.NewUnion[CredentialNetworking]("CredentialNetworking", UnknownCredentialNetworking{}).
	Add("unrestricted", CredentialNetworkingUnrestricted{}).
	Add("limited", CredentialNetworkingLimited{})

// CredentialNetworkingUnrestricted leaves the hosts to the environment's
// networking policy (the wire type "unrestricted").
type CredentialNetworkingUnrestricted struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CredentialNetworkingLimited allows the value to go to the listed hosts
// only (the wire type "limited").
type CredentialNetworkingLimited struct {
	// AllowedHosts are at most 16 host names, IPv4 addresses or
	// "*.domain" patterns (which match the subdomains, not the domain);
	// no scheme, port, path or IPv6.
	AllowedHosts []string `json:"allowed_hosts"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownCredentialNetworking keeps a networking kind this SDK version
// cannot name.
type UnknownCredentialNetworking struct {
	Type string
	Raw  json.RawMessage
}

// validateNetworking checks a networking a request sends.
func validateNetworking(path string, n CredentialNetworking) error {
	l, ok := n.(CredentialNetworkingLimited)
	if !ok {
		return nil
	}
	path += ".allowed_hosts"
	if err := validateCount(path, len(l.AllowedHosts), maxAllowedHosts, "hosts"); err != nil {
		return err
	}
	for i, h := range l.AllowedHosts {
		if !validAllowedHost(h) {
			return invalid(fmt.Sprintf("%s[%d]", path, i),
				"must be a host name, an IPv4 address or *.domain, without scheme, port or path, got %q", h)
		}
	}
	return nil
}

// validAllowedHost reports whether h is a host name, an IPv4 address or a
// "*.domain" pattern.
func validAllowedHost(h string) bool {
	if domain, ok := strings.CutPrefix(h, "*."); ok {
		return validHostName(domain)
	}
	if a, err := netip.ParseAddr(h); err == nil {
		return a.Is4()
	}
	return validHostName(h)
}

// validHostName reports whether h is a DNS name: dot-separated labels of
// 1–63 letters, digits and inner hyphens, 253 characters in all, the last
// label not all digits (that would be a malformed IPv4 address).
func validHostName(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	labels := strings.Split(h, ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return strings.Trim(labels[len(labels)-1], "0123456789") != ""
}

// A VaultCredentialAuthParams is the auth of a create request:
// [MCPOAuthAuthParams], [StaticBearerAuthParams],
// [EnvironmentVariableAuthParams] or [UnknownCredentialAuth] (sent as its
// Raw, for a kind this SDK version does not know).
type VaultCredentialAuthParams interface {
	json.Marshaler
	isVaultCredentialAuthParams()
	validate(path string, now time.Time) error
}

var vaultCredentialAuthParamsUnion = codec.NewUnion[VaultCredentialAuthParams]("VaultCredentialAuthParams", UnknownCredentialAuth{}).
	Add(CredentialAuthMCPOAuth, MCPOAuthAuthParams{}).
	Add(CredentialAuthStaticBearer, StaticBearerAuthParams{}).
	Add(CredentialAuthEnvironmentVariable, EnvironmentVariableAuthParams{})

// MCPOAuthAuthParams creates an MCP OAuth credential (the wire type
// "mcp_oauth").
type MCPOAuthAuthParams struct {
	// MCPServerURL is the MCP server's URL, at most 2047 characters.
	// Required; it cannot change later.
	MCPServerURL string `json:"mcp_server_url"`
	// AccessToken is the OAuth access token, at most 8192 characters.
	// Required.
	AccessToken Secret `json:"access_token"`
	// ExpiresAt is when the token expires; it must be in the future. The
	// zero time sends none.
	ExpiresAt time.Time `json:"expires_at,omitzero"`
	// Refresh lets the service refresh the token; the zero value sends
	// none.
	Refresh MCPOAuthRefreshParams `json:"refresh,omitzero"`
}

// StaticBearerAuthParams creates a static bearer credential (the wire type
// "static_bearer").
type StaticBearerAuthParams struct {
	// MCPServerURL is the MCP server's URL, at most 2047 characters.
	// Required; it cannot change later.
	MCPServerURL string `json:"mcp_server_url"`
	// Token is the bearer token, at most 8,192 characters. Required.
	Token Secret `json:"token"`
}

// EnvironmentVariableAuthParams creates an environment variable credential
// (the wire type "environment_variable").
type EnvironmentVariableAuthParams struct {
	// SecretName is the variable's name. Required; it cannot change later.
	SecretName string `json:"secret_name"`
	// SecretValue is the value swapped in at egress. Required.
	SecretValue Secret `json:"secret_value"`
	// Networking says to which hosts the value may go. Required.
	Networking CredentialNetworking `json:"networking"`
	// InjectionLocation says where the placeholder is replaced; nil leaves
	// the service's default.
	InjectionLocation *CredentialInjectionLocation `json:"injection_location,omitzero"`
}

// MCPOAuthRefreshParams is the refresh configuration of a create request.
//
//mms:json
type MCPOAuthRefreshParams struct {
	// ClientID is the OAuth client's id, at most 1024 characters.
	// Required; it cannot change later.
	ClientID string `json:"client_id"`
	// RefreshToken is the refresh token, at most 4,096 characters.
	// Required.
	RefreshToken Secret `json:"refresh_token"`
	// TokenEndpoint is the URL to refresh at, at most 2,047 characters.
	// Required; it cannot change later.
	TokenEndpoint string `json:"token_endpoint"`
	// TokenEndpointAuth is how the client authenticates there. Required.
	TokenEndpointAuth TokenEndpointAuthParams `json:"token_endpoint_auth"`
	// Resource and Scope are sent with each refresh; "" sends none.
	// Resource cannot change later.
	Resource string `json:"resource,omitzero"`
	Scope    string `json:"scope,omitzero"`
}

func (a MCPOAuthAuthParams) validate(path string, now time.Time) error {
	if err := validateServerURL(path, a.MCPServerURL); err != nil {
		return err
	}
	if err := validateAccessToken(path, a.AccessToken, true); err != nil {
		return err
	}
	if err := validateExpiry(path, a.ExpiresAt, now); err != nil {
		return err
	}
	if reflect.ValueOf(a.Refresh).IsZero() {
		return nil
	}
	return a.Refresh.validate(path + ".refresh")
}

func (r MCPOAuthRefreshParams) validate(path string) error {
	switch {
	case r.ClientID == "":
		return invalid(path+".client_id", "is required")
	case r.RefreshToken.IsZero():
		return invalid(path+".refresh_token", "is required")
	case r.TokenEndpoint == "":
		return invalid(path+".token_endpoint", "is required")
	case r.TokenEndpointAuth == nil:
		return invalid(path+".token_endpoint_auth", "is required")
	}
	if err := validateLength(path+".client_id", r.ClientID, 1, maxClientIDLen); err != nil {
		return err
	}
	if err := validateRefreshToken(path, r.RefreshToken); err != nil {
		return err
	}
	if err := validateLength(path+".token_endpoint", r.TokenEndpoint, 1, wire.MaxTokenEndpointLen); err != nil {
		return err
	}
	return r.TokenEndpointAuth.validate(path+".token_endpoint_auth", true)
}

// validateRefreshToken checks a refresh token's length (at most 4,096
// characters; "" is left to the caller); the error names the length only.
func validateRefreshToken(path string, token Secret) error {
	return validateLength(path+".refresh_token", token.Reveal(), 0, wire.MaxRefreshTokenLen)
}

// validateBearerToken checks a static bearer token's length (at most
// 8,192 characters); the error names the length only.
func validateBearerToken(path string, token Secret) error {
	return validateLength(path+".token", token.Reveal(), 0, wire.MaxStaticBearerTokenLen)
}

func (a StaticBearerAuthParams) validate(path string, _ time.Time) error {
	if err := validateServerURL(path, a.MCPServerURL); err != nil {
		return err
	}
	if a.Token.IsZero() {
		return invalid(path+".token", "is required")
	}
	return validateBearerToken(path, a.Token)
}

func (a EnvironmentVariableAuthParams) validate(path string, _ time.Time) error {
	switch {
	case a.SecretName == "":
		return invalid(path+".secret_name", "is required")
	case a.SecretValue.IsZero():
		return invalid(path+".secret_value", "is required")
	case a.Networking == nil:
		return invalid(path+".networking", "is required")
	}
	return validateNetworking(path+".networking", a.Networking)
}

// validate leaves an unknown kind to the service.
func (UnknownCredentialAuth) validate(string, time.Time) error { return nil }

func validateServerURL(path, u string) error {
	return validateLength(path+".mcp_server_url", u, 1, maxMCPServerURLLen)
}

// validateAccessToken checks a token's presence and length; the error
// names the length only.
func validateAccessToken(path string, token Secret, required bool) error {
	if token.IsZero() && !required {
		return nil
	}
	return validateLength(path+".access_token", token.Reveal(), 1, maxAccessTokenLen)
}

// validateExpiry refuses an expiry at or before now (the SDK's clock; the
// service judges by its own). The zero time is "not sent".
func validateExpiry(path string, t, now time.Time) error {
	if !t.IsZero() && !t.After(now) {
		return invalid(path+".expires_at", "must be in the future, got %s", t.UTC().Format(time.RFC3339))
	}
	return nil
}

// A TokenEndpointAuthParams is how an OAuth client authenticates at the
// token endpoint, in a request: [TokenEndpointAuthNone] (create only),
// [TokenEndpointAuthClientSecretBasic], [TokenEndpointAuthClientSecretPost]
// or [UnknownTokenEndpointAuth].
type TokenEndpointAuthParams interface {
	json.Marshaler
	isTokenEndpointAuthParams()
	validate(path string, create bool) error
}

var tokenEndpointAuthParamsUnion = codec.NewUnion[TokenEndpointAuthParams]("TokenEndpointAuthParams", UnknownTokenEndpointAuth{}).
	Add(TokenEndpointAuthNoneType, TokenEndpointAuthNone{}).
	Add(TokenEndpointAuthClientSecretBasicType, TokenEndpointAuthClientSecretBasic{}).
	Add(TokenEndpointAuthClientSecretPostType, TokenEndpointAuthClientSecretPost{})

// TokenEndpointAuthNone is a public client (the wire type "none"); an
// update cannot switch to it.
//
//mms:json request
type TokenEndpointAuthNone struct{}

// TokenEndpointAuthClientSecretBasic sends the client secret with HTTP
// Basic authentication (the wire type "client_secret_basic").
//
//mms:json request
type TokenEndpointAuthClientSecretBasic struct {
	// ClientSecret is required on create, optional on update; at most
	// 512 characters.
	ClientSecret Secret `json:"client_secret,omitzero"`
}

// TokenEndpointAuthClientSecretPost sends the client secret in the form
// body (the wire type "client_secret_post").
//
//mms:json request
type TokenEndpointAuthClientSecretPost struct {
	// ClientSecret is required on create, optional on update; at most
	// 512 characters.
	ClientSecret Secret `json:"client_secret,omitzero"`
}

// UnknownTokenEndpointAuth keeps a method this SDK version cannot name.
type UnknownTokenEndpointAuth struct {
	Type string
	Raw  json.RawMessage
}

func (TokenEndpointAuthNone) validate(path string, create bool) error {
	if !create {
		return invalid(path+".type", "cannot be %q in an update", TokenEndpointAuthNoneType)
	}
	return nil
}

func (t TokenEndpointAuthClientSecretBasic) validate(path string, create bool) error {
	return validateClientSecret(path, t.ClientSecret, create)
}

func (t TokenEndpointAuthClientSecretPost) validate(path string, create bool) error {
	return validateClientSecret(path, t.ClientSecret, create)
}

func (UnknownTokenEndpointAuth) validate(string, bool) error { return nil }

// validateClientSecret checks a client secret's presence (on create) and
// length (at most 512 characters); the error names the length only.
func validateClientSecret(path string, s Secret, create bool) error {
	if create && s.IsZero() {
		return invalid(path+".client_secret", "is required")
	}
	return validateLength(path+".client_secret", s.Reveal(), 0, wire.MaxClientSecretLen)
}

// A VaultCredentialAuthUpdateParams is the auth of an update request:
// [MCPOAuthAuthUpdateParams], [StaticBearerAuthUpdateParams],
// [EnvironmentVariableAuthUpdateParams] or [UnknownCredentialAuth]. Its
// kind must be the credential's. Every member is optional; the members
// that cannot change (the server URL, secret name, client id, token
// endpoint, resource) have no field.
type VaultCredentialAuthUpdateParams interface {
	json.Marshaler
	isVaultCredentialAuthUpdateParams()
	validate(path string, now time.Time) error
}

var vaultCredentialAuthUpdateUnion = codec.NewUnion[VaultCredentialAuthUpdateParams]("VaultCredentialAuthUpdateParams", UnknownCredentialAuth{}).
	Add(CredentialAuthMCPOAuth, MCPOAuthAuthUpdateParams{}).
	Add(CredentialAuthStaticBearer, StaticBearerAuthUpdateParams{}).
	Add(CredentialAuthEnvironmentVariable, EnvironmentVariableAuthUpdateParams{})

// MCPOAuthAuthUpdateParams updates an MCP OAuth credential (the wire type
// "mcp_oauth").
type MCPOAuthAuthUpdateParams struct {
	// AccessToken replaces the token (at most 8192 characters); the zero
	// Secret keeps it.
	AccessToken Secret `json:"access_token,omitzero"`
	// ExpiresAt sets (in the future) or clears the expiry.
	ExpiresAt Update[time.Time] `json:"expires_at,omitzero"`
	// Refresh changes or clears the refresh configuration.
	Refresh Update[MCPOAuthRefreshUpdateParams] `json:"refresh,omitzero"`
}

// MCPOAuthRefreshUpdateParams changes a refresh configuration.
//
//mms:json
type MCPOAuthRefreshUpdateParams struct {
	// RefreshToken replaces the refresh token (at most 4,096 characters);
	// the zero Secret keeps it.
	RefreshToken Secret `json:"refresh_token,omitzero"`
	// Scope sets or clears the scope.
	Scope Update[string] `json:"scope,omitzero"`
	// TokenEndpointAuth replaces the method; it cannot become
	// [TokenEndpointAuthNone], and its client secret may be left out.
	TokenEndpointAuth TokenEndpointAuthParams `json:"token_endpoint_auth,omitzero"`
}

// StaticBearerAuthUpdateParams updates a static bearer credential (the
// wire type "static_bearer").
type StaticBearerAuthUpdateParams struct {
	// Token replaces the token (at most 8,192 characters); the zero Secret
	// keeps it.
	Token Secret `json:"token,omitzero"`
}

// EnvironmentVariableAuthUpdateParams updates an environment variable
// credential (the wire type "environment_variable").
type EnvironmentVariableAuthUpdateParams struct {
	// SecretValue replaces the value; the zero Secret keeps it.
	SecretValue Secret `json:"secret_value,omitzero"`
	// Networking replaces the networking whole, or clears it.
	Networking Update[CredentialNetworking] `json:"networking,omitzero"`
	// InjectionLocation is merged per field; nil keeps it.
	InjectionLocation *CredentialInjectionLocation `json:"injection_location,omitzero"`
}

func (a MCPOAuthAuthUpdateParams) validate(path string, now time.Time) error {
	if err := validateAccessToken(path, a.AccessToken, false); err != nil {
		return err
	}
	if t, ok := a.ExpiresAt.Value(); ok {
		if t.IsZero() {
			return invalid(path+".expires_at", "must not be the zero time; use Clear to remove the expiry")
		}
		if err := validateExpiry(path, t, now); err != nil {
			return err
		}
	}
	if r, ok := a.Refresh.Value(); ok {
		return r.validate(path + ".refresh")
	}
	return nil
}

func (a StaticBearerAuthUpdateParams) validate(path string, _ time.Time) error {
	return validateBearerToken(path, a.Token)
}

func (a EnvironmentVariableAuthUpdateParams) validate(path string, _ time.Time) error {
	if n, ok := a.Networking.Value(); ok {
		if n == nil {
			return invalid(path+".networking", "must not be nil; use Clear to clear it")
		}
		return validateNetworking(path+".networking", n)
	}
	return nil
}

// logRedacted is the LogValue of the params that hold a [Secret]: their
// %+v, where every Secret prints redacted. Without it slog's JSON handler
// would marshal them, and the wire form carries the secrets.
func logRedacted(v any) slog.Value { return slog.StringValue(fmt.Sprintf("%+v", v)) }

// LogValue prints the params for slog with their secrets redacted.
func (a MCPOAuthAuthParams) LogValue() slog.Value { return logRedacted(a) }

// LogValue prints the params for slog with their secrets redacted.
func (a StaticBearerAuthParams) LogValue() slog.Value { return logRedacted(a) }

// LogValue prints the params for slog with their secrets redacted.
func (a EnvironmentVariableAuthParams) LogValue() slog.Value { return logRedacted(a) }

// LogValue prints the params for slog with their secrets redacted.
func (r MCPOAuthRefreshParams) LogValue() slog.Value { return logRedacted(r) }

// LogValue prints the params for slog with their secrets redacted.
func (a MCPOAuthAuthUpdateParams) LogValue() slog.Value { return logRedacted(a) }

// LogValue prints the params for slog with their secrets redacted.
func (r MCPOAuthRefreshUpdateParams) LogValue() slog.Value { return logRedacted(r) }

// LogValue prints the params for slog with their secrets redacted.
func (a StaticBearerAuthUpdateParams) LogValue() slog.Value { return logRedacted(a) }

// LogValue prints the params for slog with their secrets redacted.
func (a EnvironmentVariableAuthUpdateParams) LogValue() slog.Value { return logRedacted(a) }

// LogValue prints the params for slog with their secrets redacted.
func (t TokenEndpointAuthClientSecretBasic) LogValue() slog.Value { return logRedacted(t) }

// LogValue prints the params for slog with their secrets redacted.
func (t TokenEndpointAuthClientSecretPost) LogValue() slog.Value { return logRedacted(t) }

// Exported checks of the credential auth params, their fields named under
// "auth" (and "refresh"), as the create and update params name them; an
// expiry is checked against the current time.

// Validate reports the first rule the auth breaks.
func (a MCPOAuthAuthParams) Validate() error { return a.validate("auth", time.Now()) }

// Validate reports the first rule the refresh settings break.
func (r MCPOAuthRefreshParams) Validate() error { return r.validate("refresh") }

// Validate reports the first rule the auth breaks.
func (a StaticBearerAuthParams) Validate() error { return a.validate("auth", time.Now()) }

// Validate reports the first rule the auth breaks.
func (a EnvironmentVariableAuthParams) Validate() error { return a.validate("auth", time.Now()) }

// Validate reports the first rule the update breaks.
func (a MCPOAuthAuthUpdateParams) Validate() error { return a.validate("auth", time.Now()) }

// Validate reports a token over 8,192 characters ("" keeps the token).
func (a StaticBearerAuthUpdateParams) Validate() error { return a.validate("auth", time.Now()) }

// Validate reports the first rule the update breaks.
func (a EnvironmentVariableAuthUpdateParams) Validate() error { return a.validate("auth", time.Now()) }

// Validate reports a refresh token over 4,096 characters, or a token
// endpoint auth method the update cannot set ([TokenEndpointAuthNone]) or
// with a client secret over 512 characters.
func (r MCPOAuthRefreshUpdateParams) Validate() error { return r.validate("refresh") }

func (r MCPOAuthRefreshUpdateParams) validate(path string) error {
	if err := validateRefreshToken(path, r.RefreshToken); err != nil {
		return err
	}
	if r.TokenEndpointAuth == nil {
		return nil
	}
	return r.TokenEndpointAuth.validate(path+".token_endpoint_auth", false)
}
