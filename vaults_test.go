package mms_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

const (
	testVaultJSON = `{"id":"vlt_1","type":"vault","display_name":"v","metadata":{},` +
		`"created_at":"2026-04-02T10:00:00Z","updated_at":"2026-04-02T10:00:00Z","archived_at":null}`
	testCredentialJSON = `{"id":"vcrd_1","type":"vault_credential","vault_id":"vlt_1","display_name":null,` +
		`"auth":{"type":"static_bearer","mcp_server_url":"https://mcp.example"},"metadata":{},` +
		`"created_at":"2026-04-02T10:00:00Z","updated_at":"2026-04-02T10:00:00Z","archived_at":null}`
	testValidationJSON = `{"type":"vault_credential_validation","credential_id":"vcrd_1","vault_id":"vlt_1",` +
		`"validated_at":"2026-04-02T10:00:00Z","status":"valid","has_refresh_token":false,"mcp_probe":null,"refresh":null}`
)

// future is an expiry the SDK's clock sees as ahead.
var future = time.Now().Add(24 * time.Hour).UTC().Truncate(time.Second)

// TestVaultsWire checks every vaults operation against a scripted server.
func TestVaultsWire(t *testing.T) {
	page := `{"data":[` + testVaultJSON + `],"next_page":null}`
	runWireCases(t, []wireCase{
		{"create", reply{body: testVaultJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Vaults.Create(ctx, mms.VaultCreateParams{DisplayName: "v", Metadata: map[string]string{"k": "v"}})
			return err
		}, "POST", "/v1/vaults", "", `{"display_name":"v","metadata":{"k":"v"}}`, nil},
		{"get", reply{body: testVaultJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Vaults.Get(ctx, "vlt_1")
			return err
		}, "GET", "/v1/vaults/vlt_1", "", "", nil},
		{"update", reply{body: testVaultJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Vaults.Update(ctx, "vlt_1", mms.VaultUpdateParams{DisplayName: mms.Set("w"), Metadata: mms.MetadataPatch{}.Delete("k").Set("n", "1")})
			return err
		}, "POST", "/v1/vaults/vlt_1", "", `{"display_name":"w","metadata":{"k":null,"n":"1"}}`, nil},
		{"update clears name", reply{body: testVaultJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Vaults.Update(ctx, "vlt_1", mms.VaultUpdateParams{DisplayName: mms.Clear[string]()})
			return err
		}, "POST", "/v1/vaults/vlt_1", "", `{"display_name":null}`, nil},
		{"archive", reply{body: testVaultJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Vaults.Archive(ctx, "vlt_1")
			return err
		}, "POST", "/v1/vaults/vlt_1/archive", "", "", nil},
		{"delete", reply{body: `{"id":"vlt_1","type":"vault_deleted"}`}, func(ctx context.Context, c *mms.Client) error {
			d, err := c.Vaults.Delete(ctx, "vlt_1")
			if err == nil && d.ID != "vlt_1" {
				err = fmt.Errorf("deleted %+v", d)
			}
			return err
		}, "DELETE", "/v1/vaults/vlt_1", "", "", nil},
		{"list", reply{body: page}, func(ctx context.Context, c *mms.Client) error {
			return drain(c.Vaults.List(ctx, mms.VaultListParams{Limit: 5, IncludeArchived: true, Page: mms.Cursor{Token: "page_x"}}))
		}, "GET", "/v1/vaults", "include_archived=true&limit=5&page=page_x", "", nil},
		{"list page", reply{body: page}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Vaults.ListPage(ctx, mms.VaultListParams{})
			return err
		}, "GET", "/v1/vaults", "", "", nil},
	})
}

// TestVaultCredentialsWire checks every credentials operation, and each
// auth kind's request body, against a scripted server.
func TestVaultCredentialsWire(t *testing.T) {
	page := `{"data":[` + testCredentialJSON + `],"next_page":null}`
	create := func(auth mms.VaultCredentialAuthParams) func(context.Context, *mms.Client) error {
		return func(ctx context.Context, c *mms.Client) error {
			_, err := c.Vaults.Credentials.Create(ctx, "vlt_1", mms.VaultCredentialCreateParams{Auth: auth})
			return err
		}
	}
	update := func(p mms.VaultCredentialUpdateParams) func(context.Context, *mms.Client) error {
		return func(ctx context.Context, c *mms.Client) error {
			_, err := c.Vaults.Credentials.Update(ctx, "vlt_1", "vcrd_1", p)
			return err
		}
	}
	exp := future.Format(time.RFC3339)
	const base = "/v1/vaults/vlt_1/credentials"
	runWireCases(t, []wireCase{
		{"create mcp_oauth", reply{body: testCredentialJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Vaults.Credentials.Create(ctx, "vlt_1", mms.VaultCredentialCreateParams{DisplayName: "gh", Metadata: map[string]string{"k": "v"},
				Auth: mms.MCPOAuthAuthParams{MCPServerURL: "https://mcp.example", AccessToken: mms.NewSecret("at"), ExpiresAt: future,
					Refresh: mms.MCPOAuthRefreshParams{ClientID: "cid", RefreshToken: mms.NewSecret("rt"), TokenEndpoint: "https://t.example",
						TokenEndpointAuth: mms.TokenEndpointAuthClientSecretBasic{ClientSecret: mms.NewSecret("cs")}, Resource: "https://r", Scope: "read"}}})
			return err
		}, "POST", base, "", `{"display_name":"gh","metadata":{"k":"v"},"auth":{"type":"mcp_oauth","mcp_server_url":"https://mcp.example",` +
			`"access_token":"at","expires_at":"` + exp + `","refresh":{"client_id":"cid","refresh_token":"rt","token_endpoint":"https://t.example",` +
			`"token_endpoint_auth":{"type":"client_secret_basic","client_secret":"cs"},"resource":"https://r","scope":"read"}}}`, nil},
		{"create mcp_oauth public client", reply{body: testCredentialJSON}, create(mms.MCPOAuthAuthParams{MCPServerURL: "u", AccessToken: mms.NewSecret("at"),
			Refresh: mms.MCPOAuthRefreshParams{ClientID: "c", RefreshToken: mms.NewSecret("r"), TokenEndpoint: "t", TokenEndpointAuth: mms.TokenEndpointAuthNone{}}}),
			"POST", base, "", `{"auth":{"type":"mcp_oauth","mcp_server_url":"u","access_token":"at","refresh":{"client_id":"c","refresh_token":"r",` +
				`"token_endpoint":"t","token_endpoint_auth":{"type":"none"}}}}`, nil},
		{"create static_bearer", reply{body: testCredentialJSON}, create(mms.StaticBearerAuthParams{MCPServerURL: "u", Token: mms.NewSecret("tok")}),
			"POST", base, "", `{"auth":{"type":"static_bearer","mcp_server_url":"u","token":"tok"}}`, nil},
		{"create environment_variable", reply{body: testCredentialJSON}, create(mms.EnvironmentVariableAuthParams{SecretName: "K", SecretValue: mms.NewSecret("sv"),
			Networking:        mms.CredentialNetworkingLimited{AllowedHosts: []string{"api.example.com", "*.example.org", "10.0.0.1"}},
			InjectionLocation: &mms.CredentialInjectionLocation{Header: mms.Ptr(true), Body: mms.Ptr(false)}}),
			"POST", base, "", `{"auth":{"type":"environment_variable","secret_name":"K","secret_value":"sv","networking":{"type":"limited",` +
				`"allowed_hosts":["api.example.com","*.example.org","10.0.0.1"]},"injection_location":{"body":false,"header":true}}}`, nil},
		{"get", reply{body: testCredentialJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Vaults.Credentials.Get(ctx, "vlt_1", "vcrd_1")
			return err
		}, "GET", base + "/vcrd_1", "", "", nil},
		{"update mcp_oauth", reply{body: testCredentialJSON}, update(mms.VaultCredentialUpdateParams{DisplayName: mms.Clear[string](),
			Metadata: mms.MetadataPatch{}.Delete("k"),
			Auth: mms.MCPOAuthAuthUpdateParams{AccessToken: mms.NewSecret("at2"), ExpiresAt: mms.Clear[time.Time](), Refresh: mms.Set(mms.MCPOAuthRefreshUpdateParams{
				RefreshToken: mms.NewSecret("rt2"), Scope: mms.Clear[string](), TokenEndpointAuth: mms.TokenEndpointAuthClientSecretPost{}})}}),
			"POST", base + "/vcrd_1", "", `{"display_name":null,"metadata":{"k":null},"auth":{"type":"mcp_oauth","access_token":"at2",` +
				`"expires_at":null,"refresh":{"refresh_token":"rt2","scope":null,"token_endpoint_auth":{"type":"client_secret_post"}}}}`, nil},
		{"update mcp_oauth expiry, clear refresh", reply{body: testCredentialJSON}, update(mms.VaultCredentialUpdateParams{
			Auth: mms.MCPOAuthAuthUpdateParams{ExpiresAt: mms.Set(future), Refresh: mms.Clear[mms.MCPOAuthRefreshUpdateParams]()}}),
			"POST", base + "/vcrd_1", "", `{"auth":{"type":"mcp_oauth","expires_at":"` + exp + `","refresh":null}}`, nil},
		{"update static_bearer", reply{body: testCredentialJSON}, update(mms.VaultCredentialUpdateParams{DisplayName: mms.Set("n"),
			Auth: mms.StaticBearerAuthUpdateParams{Token: mms.NewSecret("t2")}}),
			"POST", base + "/vcrd_1", "", `{"display_name":"n","auth":{"type":"static_bearer","token":"t2"}}`, nil},
		{"update environment_variable", reply{body: testCredentialJSON}, update(mms.VaultCredentialUpdateParams{
			Auth: mms.EnvironmentVariableAuthUpdateParams{SecretValue: mms.NewSecret("v2"), Networking: mms.Set[mms.CredentialNetworking](mms.CredentialNetworkingUnrestricted{}),
				InjectionLocation: &mms.CredentialInjectionLocation{Body: mms.Ptr(true)}}}),
			"POST", base + "/vcrd_1", "", `{"auth":{"type":"environment_variable","secret_value":"v2","networking":{"type":"unrestricted"},"injection_location":{"body":true}}}`, nil},
		{"update environment_variable clears networking", reply{body: testCredentialJSON}, update(mms.VaultCredentialUpdateParams{
			Auth: mms.EnvironmentVariableAuthUpdateParams{Networking: mms.Clear[mms.CredentialNetworking]()}}),
			"POST", base + "/vcrd_1", "", `{"auth":{"type":"environment_variable","networking":null}}`, nil},
		{"empty update", reply{body: testCredentialJSON}, update(mms.VaultCredentialUpdateParams{}), "POST", base + "/vcrd_1", "", `{}`, nil},
		{"archive", reply{body: testCredentialJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Vaults.Credentials.Archive(ctx, "vlt_1", "vcrd_1")
			return err
		}, "POST", base + "/vcrd_1/archive", "", "", nil},
		{"delete", reply{body: `{"id":"vcrd_1","type":"vault_credential_deleted"}`}, func(ctx context.Context, c *mms.Client) error {
			d, err := c.Vaults.Credentials.Delete(ctx, "vlt_1", "vcrd_1")
			if err == nil && d.ID != "vcrd_1" {
				err = fmt.Errorf("deleted %+v", d)
			}
			return err
		}, "DELETE", base + "/vcrd_1", "", "", nil},
		{"validate", reply{body: testValidationJSON}, func(ctx context.Context, c *mms.Client) error {
			v, err := c.Vaults.Credentials.ValidateMCPOAuth(ctx, "vlt_1", "vcrd_1")
			if err == nil && v.Status != mms.VaultCredentialValid {
				err = fmt.Errorf("validation %+v", v)
			}
			return err
		}, "POST", base + "/vcrd_1/mcp_oauth_validate", "", "", nil},
		{"list", reply{body: page}, func(ctx context.Context, c *mms.Client) error {
			return drain(c.Vaults.Credentials.List(ctx, "vlt_1", mms.VaultCredentialListParams{Limit: 3, IncludeArchived: true}))
		}, "GET", base, "include_archived=true&limit=3", "", nil},
		{"list page, escaped id", reply{body: page}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Vaults.Credentials.ListPage(ctx, "vlt 1", mms.VaultCredentialListParams{Page: mms.Cursor{Token: "page_y"}})
			return err
		}, "GET", "/v1/vaults/vlt 1/credentials", "page=page_y", "", nil},
	})
}

// TestVaultsWorkspaceAndBeta: a per-call workspace arrives as its header,
// and a client-level beta header is merged with the endpoint's.
func TestVaultsWorkspaceAndBeta(t *testing.T) {
	srv := newScriptServer(t, reply{body: testCredentialJSON})
	c := newTestClient(t, srv, option.WithHeader("vendor-beta", "files-api-2025-04-14"))
	if _, err := c.Vaults.Credentials.Get(context.Background(), "vlt_1", "vcrd_1", option.WithWorkspaceID("wrkspc_9")); err != nil {
		t.Fatal(err)
	}
	r := srv.requests()[0]
	if w := r.header.Get("Vendor-Workspace-Id"); w != "wrkspc_9" {
		t.Errorf("workspace header %q", w)
	}
	if b := r.header.Values("Vendor-Beta"); !cmp.Equal(b, []string{"files-api-2025-04-14," + mms.BetaManagedAgents}) {
		t.Errorf("vendor-beta %q", b)
	}
}

// checkValidation: field "" wants success (one request sent), else a
// *ValidationError for field, nothing sent, and no secret in the message.
func checkVaultValidation(t *testing.T, err error, field string, sent int, secrets ...string) {
	t.Helper()
	checkAgentValidation(t, err, field, sent)
	for _, s := range secrets {
		if err != nil && strings.Contains(err.Error(), s) {
			t.Errorf("error shows a secret: %v", err)
		}
	}
}

// secretToken is a secret long enough to break the access token limit,
// recognisable in any message.
var secretToken = mms.NewSecret("SeCrEt-" + strings.Repeat("x", 8190))

func hostsOf(n int, h string) mms.CredentialNetworkingLimited {
	hs := make([]string, n)
	for i := range hs {
		hs[i] = h
	}
	return mms.CredentialNetworkingLimited{AllowedHosts: hs}
}

// TestVaultCredentialCreateValidation: each create rule on both sides of
// its limit; nothing sent on failure, and no message holds a secret.
func TestVaultCredentialCreateValidation(t *testing.T) {
	oauth := func(a mms.MCPOAuthAuthParams) mms.VaultCredentialCreateParams {
		if a.MCPServerURL == "" {
			a.MCPServerURL = "https://mcp.example"
		}
		if a.AccessToken.IsZero() {
			a.AccessToken = mms.NewSecret("SeCrEt-at")
		}
		return mms.VaultCredentialCreateParams{Auth: a}
	}
	refresh := func(r mms.MCPOAuthRefreshParams) mms.VaultCredentialCreateParams {
		return oauth(mms.MCPOAuthAuthParams{Refresh: r})
	}
	full := func(tea mms.TokenEndpointAuthParams) mms.MCPOAuthRefreshParams {
		return mms.MCPOAuthRefreshParams{ClientID: "c", RefreshToken: mms.NewSecret("SeCrEt-rt"), TokenEndpoint: "https://t", TokenEndpointAuth: tea}
	}
	env := func(n mms.CredentialNetworking) mms.VaultCredentialCreateParams {
		return mms.VaultCredentialCreateParams{Auth: mms.EnvironmentVariableAuthParams{SecretName: "K", SecretValue: mms.NewSecret("SeCrEt-sv"), Networking: n}}
	}
	bearer := mms.StaticBearerAuthParams{MCPServerURL: "https://b", Token: mms.NewSecret("SeCrEt-t")}
	for _, tt := range []struct {
		name  string
		p     mms.VaultCredentialCreateParams
		field string
	}{
		{"no auth", mms.VaultCredentialCreateParams{}, "auth"},
		{"display name 255", mms.VaultCredentialCreateParams{DisplayName: strings.Repeat("d", 255), Auth: bearer}, ""},
		{"display name 256", mms.VaultCredentialCreateParams{DisplayName: strings.Repeat("d", 256), Auth: bearer}, "display_name"},
		{"metadata 17 pairs", mms.VaultCredentialCreateParams{Auth: bearer, Metadata: func() map[string]string {
			m := map[string]string{}
			for i := range 17 {
				m[fmt.Sprint(i)] = "v"
			}
			return m
		}()}, "metadata"},
		{"metadata value 512", mms.VaultCredentialCreateParams{Auth: bearer, Metadata: map[string]string{"k": strings.Repeat("v", 512)}}, ""},
		{"metadata value 513", mms.VaultCredentialCreateParams{Auth: bearer, Metadata: map[string]string{"k": strings.Repeat("v", 513)}}, "metadata.k"},
		{"url 2047", oauth(mms.MCPOAuthAuthParams{MCPServerURL: strings.Repeat("u", 2047)}), ""},
		{"url 2048", oauth(mms.MCPOAuthAuthParams{MCPServerURL: strings.Repeat("u", 2048)}), "auth.mcp_server_url"},
		{"no url", mms.VaultCredentialCreateParams{Auth: mms.MCPOAuthAuthParams{AccessToken: mms.NewSecret("SeCrEt-at")}}, "auth.mcp_server_url"},
		{"no access token", mms.VaultCredentialCreateParams{Auth: mms.MCPOAuthAuthParams{MCPServerURL: "u"}}, "auth.access_token"},
		{"access token 8192", oauth(mms.MCPOAuthAuthParams{AccessToken: mms.NewSecret(secretToken.Reveal()[:8192])}), ""},
		{"access token 8193", oauth(mms.MCPOAuthAuthParams{AccessToken: mms.NewSecret(secretToken.Reveal()[:8193])}), "auth.access_token"},
		{"expired", oauth(mms.MCPOAuthAuthParams{ExpiresAt: time.Now().Add(-time.Minute)}), "auth.expires_at"},
		{"expires later", oauth(mms.MCPOAuthAuthParams{ExpiresAt: future}), ""},
		{"refresh full", refresh(full(mms.TokenEndpointAuthNone{})), ""},
		{"client id 1024", refresh(mms.MCPOAuthRefreshParams{ClientID: strings.Repeat("c", 1024), RefreshToken: mms.NewSecret("r"), TokenEndpoint: "t",
			TokenEndpointAuth: mms.TokenEndpointAuthNone{}}), ""},
		{"client id 1025", refresh(mms.MCPOAuthRefreshParams{ClientID: strings.Repeat("c", 1025), RefreshToken: mms.NewSecret("r"), TokenEndpoint: "t",
			TokenEndpointAuth: mms.TokenEndpointAuthNone{}}), "auth.refresh.client_id"},
		{"no client id", refresh(mms.MCPOAuthRefreshParams{RefreshToken: mms.NewSecret("r"), TokenEndpoint: "t", TokenEndpointAuth: mms.TokenEndpointAuthNone{}}), "auth.refresh.client_id"},
		{"no refresh token", refresh(mms.MCPOAuthRefreshParams{ClientID: "c", TokenEndpoint: "t", TokenEndpointAuth: mms.TokenEndpointAuthNone{}}), "auth.refresh.refresh_token"},
		{"no token endpoint", refresh(mms.MCPOAuthRefreshParams{ClientID: "c", RefreshToken: mms.NewSecret("r"), TokenEndpointAuth: mms.TokenEndpointAuthNone{}}), "auth.refresh.token_endpoint"},
		{"no endpoint auth", refresh(full(nil)), "auth.refresh.token_endpoint_auth"},
		{"basic without secret", refresh(full(mms.TokenEndpointAuthClientSecretBasic{})), "auth.refresh.token_endpoint_auth.client_secret"},
		{"basic with secret", refresh(full(mms.TokenEndpointAuthClientSecretBasic{ClientSecret: mms.NewSecret("SeCrEt-cs")})), ""},
		{"post without secret", refresh(full(mms.TokenEndpointAuthClientSecretPost{})), "auth.refresh.token_endpoint_auth.client_secret"},
		{"post with secret", refresh(full(mms.TokenEndpointAuthClientSecretPost{ClientSecret: mms.NewSecret("SeCrEt-cs")})), ""},
		{"bearer", mms.VaultCredentialCreateParams{Auth: bearer}, ""},
		{"bearer no token", mms.VaultCredentialCreateParams{Auth: mms.StaticBearerAuthParams{MCPServerURL: "u"}}, "auth.token"},
		{"bearer url 2048", mms.VaultCredentialCreateParams{Auth: mms.StaticBearerAuthParams{MCPServerURL: strings.Repeat("u", 2048), Token: mms.NewSecret("t")}}, "auth.mcp_server_url"},
		{"env no name", mms.VaultCredentialCreateParams{Auth: mms.EnvironmentVariableAuthParams{SecretValue: mms.NewSecret("v"), Networking: mms.CredentialNetworkingUnrestricted{}}}, "auth.secret_name"},
		{"env no value", mms.VaultCredentialCreateParams{Auth: mms.EnvironmentVariableAuthParams{SecretName: "K", Networking: mms.CredentialNetworkingUnrestricted{}}}, "auth.secret_value"},
		{"env no networking", mms.VaultCredentialCreateParams{Auth: mms.EnvironmentVariableAuthParams{SecretName: "K", SecretValue: mms.NewSecret("SeCrEt-sv")}}, "auth.networking"},
		{"unrestricted", env(mms.CredentialNetworkingUnrestricted{}), ""},
		{"16 hosts", env(hostsOf(16, "a.example")), ""},
		{"17 hosts", env(hostsOf(17, "a.example")), "auth.networking.allowed_hosts"},
		{"ipv4", env(hostsOf(1, "10.1.2.3")), ""},
		{"wildcard", env(hostsOf(1, "*.example.com")), ""},
		{"single label", env(hostsOf(1, "localhost")), ""},
		{"scheme", env(hostsOf(1, "https://a.example")), "auth.networking.allowed_hosts[0]"},
		{"port", env(hostsOf(1, "a.example:443")), "auth.networking.allowed_hosts[0]"},
		{"path", env(hostsOf(1, "a.example/x")), "auth.networking.allowed_hosts[0]"},
		{"ipv6", env(hostsOf(1, "::1")), "auth.networking.allowed_hosts[0]"},
		{"bracketed ipv6", env(hostsOf(1, "[::1]")), "auth.networking.allowed_hosts[0]"},
		{"bad ipv4", env(hostsOf(1, "300.1.1.1")), "auth.networking.allowed_hosts[0]"},
		{"wildcard ip", env(hostsOf(1, "*.10.0.0.1")), "auth.networking.allowed_hosts[0]"},
		{"bare wildcard", env(hostsOf(1, "*")), "auth.networking.allowed_hosts[0]"},
		{"empty host", env(hostsOf(1, "")), "auth.networking.allowed_hosts[0]"},
		{"label hyphen", env(hostsOf(1, "-a.example")), "auth.networking.allowed_hosts[0]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{body: testCredentialJSON})
			c := newTestClient(t, srv)
			_, err := c.Vaults.Credentials.Create(context.Background(), "vlt_1", tt.p)
			checkVaultValidation(t, err, tt.field, len(srv.requests()), "SeCrEt")
		})
	}
}

// TestVaultCredentialUpdateValidation: the update rules on both sides,
// and the path ids of every method.
func TestVaultCredentialUpdateValidation(t *testing.T) {
	for _, tt := range []struct {
		name  string
		p     mms.VaultCredentialUpdateParams
		field string
	}{
		{"empty", mms.VaultCredentialUpdateParams{}, ""},
		{"display name cleared", mms.VaultCredentialUpdateParams{DisplayName: mms.Clear[string]()}, ""},
		{"display name empty", mms.VaultCredentialUpdateParams{DisplayName: mms.Set("")}, "display_name"},
		{"display name 256", mms.VaultCredentialUpdateParams{DisplayName: mms.Set(strings.Repeat("d", 256))}, "display_name"},
		{"display name 255", mms.VaultCredentialUpdateParams{DisplayName: mms.Set(strings.Repeat("d", 255))}, ""},
		{"metadata value 513", mms.VaultCredentialUpdateParams{Metadata: mms.MetadataPatch{}.Set("k", strings.Repeat("v", 513))}, "metadata.k"},
		{"access token 8192", mms.VaultCredentialUpdateParams{Auth: mms.MCPOAuthAuthUpdateParams{AccessToken: mms.NewSecret(secretToken.Reveal()[:8192])}}, ""},
		{"access token 8193", mms.VaultCredentialUpdateParams{Auth: mms.MCPOAuthAuthUpdateParams{AccessToken: mms.NewSecret(secretToken.Reveal()[:8193])}}, "auth.access_token"},
		{"expired", mms.VaultCredentialUpdateParams{Auth: mms.MCPOAuthAuthUpdateParams{ExpiresAt: mms.Set(time.Now().Add(-time.Second))}}, "auth.expires_at"},
		{"zero expiry", mms.VaultCredentialUpdateParams{Auth: mms.MCPOAuthAuthUpdateParams{ExpiresAt: mms.Set(time.Time{})}}, "auth.expires_at"},
		{"expires later", mms.VaultCredentialUpdateParams{Auth: mms.MCPOAuthAuthUpdateParams{ExpiresAt: mms.Set(future)}}, ""},
		{"expiry cleared", mms.VaultCredentialUpdateParams{Auth: mms.MCPOAuthAuthUpdateParams{ExpiresAt: mms.Clear[time.Time]()}}, ""},
		{"endpoint auth none", mms.VaultCredentialUpdateParams{Auth: mms.MCPOAuthAuthUpdateParams{Refresh: mms.Set(mms.MCPOAuthRefreshUpdateParams{
			TokenEndpointAuth: mms.TokenEndpointAuthNone{}})}}, "auth.refresh.token_endpoint_auth.type"},
		{"basic without secret", mms.VaultCredentialUpdateParams{Auth: mms.MCPOAuthAuthUpdateParams{Refresh: mms.Set(mms.MCPOAuthRefreshUpdateParams{
			TokenEndpointAuth: mms.TokenEndpointAuthClientSecretBasic{}})}}, ""},
		{"17 hosts", mms.VaultCredentialUpdateParams{Auth: mms.EnvironmentVariableAuthUpdateParams{Networking: mms.Set[mms.CredentialNetworking](hostsOf(17, "h"))}},
			"auth.networking.allowed_hosts"},
		{"16 hosts", mms.VaultCredentialUpdateParams{Auth: mms.EnvironmentVariableAuthUpdateParams{Networking: mms.Set[mms.CredentialNetworking](hostsOf(16, "h"))}}, ""},
		{"nil networking", mms.VaultCredentialUpdateParams{Auth: mms.EnvironmentVariableAuthUpdateParams{Networking: mms.Set[mms.CredentialNetworking](nil)}}, "auth.networking"},
		{"bearer", mms.VaultCredentialUpdateParams{Auth: mms.StaticBearerAuthUpdateParams{Token: mms.NewSecret("SeCrEt")}}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{body: testCredentialJSON})
			c := newTestClient(t, srv)
			_, err := c.Vaults.Credentials.Update(context.Background(), "vlt_1", "vcrd_1", tt.p)
			checkVaultValidation(t, err, tt.field, len(srv.requests()), "SeCrEt")
		})
	}
	for _, tt := range []struct {
		name  string
		p     mms.VaultUpdateParams
		field string
	}{
		{"vault display name 256", mms.VaultUpdateParams{DisplayName: mms.Set(strings.Repeat("d", 256))}, "display_name"},
		{"vault display name 255", mms.VaultUpdateParams{DisplayName: mms.Set(strings.Repeat("d", 255))}, ""},
		{"vault metadata key 65", mms.VaultUpdateParams{Metadata: mms.MetadataPatch{}.Delete(strings.Repeat("k", 65))}, "metadata"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{body: testVaultJSON})
			c := newTestClient(t, srv)
			_, err := c.Vaults.Update(context.Background(), "vlt_1", tt.p)
			checkVaultValidation(t, err, tt.field, len(srv.requests()))
		})
	}
	for _, tt := range []struct {
		name  string
		p     mms.VaultCreateParams
		field string
	}{
		{"vault no name", mms.VaultCreateParams{}, "display_name"},
		{"vault name 255", mms.VaultCreateParams{DisplayName: strings.Repeat("é", 255)}, ""},
		{"vault name 256", mms.VaultCreateParams{DisplayName: strings.Repeat("é", 256)}, "display_name"},
		{"vault metadata key 64", mms.VaultCreateParams{DisplayName: "v", Metadata: map[string]string{strings.Repeat("k", 64): "v"}}, ""},
		{"vault metadata key 65", mms.VaultCreateParams{DisplayName: "v", Metadata: map[string]string{strings.Repeat("k", 65): "v"}}, "metadata"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{body: testVaultJSON})
			c := newTestClient(t, srv)
			_, err := c.Vaults.Create(context.Background(), tt.p)
			checkVaultValidation(t, err, tt.field, len(srv.requests()))
		})
	}

	srv := newScriptServer(t)
	c := newTestClient(t, srv)
	ctx := context.Background()
	cr := c.Vaults.Credentials
	bearer := mms.VaultCredentialCreateParams{Auth: mms.StaticBearerAuthParams{MCPServerURL: "u", Token: mms.NewSecret("t")}}
	for name, tt := range map[string]struct {
		call  func() error
		field string
	}{
		"vault get":        {func() error { _, err := c.Vaults.Get(ctx, ""); return err }, "vault_id"},
		"vault update":     {func() error { _, err := c.Vaults.Update(ctx, "..", mms.VaultUpdateParams{}); return err }, "vault_id"},
		"vault archive":    {func() error { _, err := c.Vaults.Archive(ctx, ""); return err }, "vault_id"},
		"vault delete":     {func() error { _, err := c.Vaults.Delete(ctx, "."); return err }, "vault_id"},
		"vault limit 101":  {func() error { _, err := c.Vaults.ListPage(ctx, mms.VaultListParams{Limit: 101}); return err }, "limit"},
		"vault list limit": {func() error { return drain(c.Vaults.List(ctx, mms.VaultListParams{Limit: -1})) }, "limit"},
		"cred create":      {func() error { _, err := cr.Create(ctx, "", bearer); return err }, "vault_id"},
		"cred get vault":   {func() error { _, err := cr.Get(ctx, "", "vcrd_1"); return err }, "vault_id"},
		"cred get":         {func() error { _, err := cr.Get(ctx, "vlt_1", ""); return err }, "credential_id"},
		"cred update": {func() error {
			_, err := cr.Update(ctx, "vlt_1", "..", mms.VaultCredentialUpdateParams{})
			return err
		}, "credential_id"},
		"cred archive":  {func() error { _, err := cr.Archive(ctx, "vlt_1", ""); return err }, "credential_id"},
		"cred delete":   {func() error { _, err := cr.Delete(ctx, "vlt_1", ""); return err }, "credential_id"},
		"cred validate": {func() error { _, err := cr.ValidateMCPOAuth(ctx, "vlt_1", ""); return err }, "credential_id"},
		"cred list":     {func() error { return drain(cr.List(ctx, "", mms.VaultCredentialListParams{})) }, "vault_id"},
		"cred page":     {func() error { _, err := cr.ListPage(ctx, "", mms.VaultCredentialListParams{}); return err }, "vault_id"},
		"cred list limit": {func() error {
			_, err := cr.ListPage(ctx, "vlt_1", mms.VaultCredentialListParams{Limit: 101})
			return err
		}, "limit"},
	} {
		var ve *mms.ValidationError
		if err := tt.call(); !errors.As(err, &ve) || ve.Field != tt.field {
			t.Errorf("%s: %v, want a ValidationError for %s", name, err, tt.field)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}
