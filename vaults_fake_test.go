package mms_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// fakeNow is the fake's clock in these tests: before the SDK's, so an
// expiry the SDK accepts is ahead of both.
var fakeNow = time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC)

// TestVaultsAgainstFake runs every vaults operation against mmstest.
func TestVaultsAgainstFake(t *testing.T) {
	now := fakeNow
	srv := mmstest.NewServer(mmstest.WithClock(func() time.Time { return now }))
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0))
	ctx := context.Background()

	v, err := c.Vaults.Create(ctx, mms.VaultCreateParams{DisplayName: "prod", Metadata: map[string]string{"team": "a", "old": "x"}})
	require.NoError(t, err)
	if !strings.HasPrefix(v.ID, "vlt_") || v.DisplayName != "prod" || v.ArchivedAt != nil {
		t.Fatalf("created %+v", v)
	}
	if _, err := v.Created(); err != nil {
		t.Errorf("Created: %v", err)
	}
	now = now.Add(time.Minute)
	u, err := c.Vaults.Update(ctx, v.ID, mms.VaultUpdateParams{DisplayName: mms.Set("p2"), Metadata: mms.MetadataPatch{}.Delete("old").Set("team", "b")})
	if err != nil || u.DisplayName != "p2" || !cmp.Equal(u.Metadata, map[string]string{"team": "b"}) {
		t.Fatalf("updated %+v %v", u, err)
	}
	if u, err := c.Vaults.Update(ctx, v.ID, mms.VaultUpdateParams{DisplayName: mms.Clear[string]()}); err != nil || u.DisplayName != "p2" {
		t.Errorf("cleared name: %+v %v", u, err)
	}
	if g, err := c.Vaults.Get(ctx, v.ID); err != nil || g.DisplayName != "p2" {
		t.Errorf("Get: %+v %v", g, err)
	}
	now = now.Add(time.Minute)
	w, err := c.Vaults.Create(ctx, mms.VaultCreateParams{DisplayName: "second"})
	require.NoError(t, err)
	if ar, err := c.Vaults.Archive(ctx, v.ID); err != nil || ar.ArchivedAt == nil {
		t.Fatalf("Archive: %+v %v", ar, err)
	}
	list := func(p mms.VaultListParams) []string {
		t.Helper()
		var ids []string
		for x, err := range c.Vaults.List(ctx, p) {
			require.NoError(t, err)
			ids = append(ids, x.ID)
		}
		return ids
	}
	if got := list(mms.VaultListParams{}); !cmp.Equal(got, []string{w.ID}) {
		t.Errorf("list %v", got)
	}
	if got := list(mms.VaultListParams{IncludeArchived: true, Limit: 1}); !cmp.Equal(got, []string{w.ID, v.ID}) {
		t.Errorf("list archived %v", got)
	}
	if d, err := c.Vaults.Delete(ctx, w.ID); err != nil || d.ID != w.ID {
		t.Errorf("Delete: %+v %v", d, err)
	}
	if _, err := c.Vaults.Get(ctx, w.ID); !errors.Is(err, mms.ErrNotFound) {
		t.Errorf("Get deleted: %v", err)
	}
	var apiErr *mms.Error
	if _, err := c.Vaults.Get(ctx, v.ID, option.WithoutEndpointBeta(mms.BetaManagedAgents)); !errors.As(err, &apiErr) || apiErr.StatusCode != 400 {
		t.Errorf("without the beta: %v", err)
	}
}

// TestVaultCredentialsAgainstFake runs every credentials operation against
// mmstest with every request shape the SDK builds (each auth kind, on
// create and on update): the fake's strict schema accepts them all, holds
// the secrets sent, and never returns one.
func TestVaultCredentialsAgainstFake(t *testing.T) {
	now := fakeNow
	srv := mmstest.NewServer(mmstest.WithClock(func() time.Time { return now }))
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0))
	ctx := context.Background()
	cr := c.Vaults.Credentials
	v, err := c.Vaults.Create(ctx, mms.VaultCreateParams{DisplayName: "v"})
	require.NoError(t, err)

	oauth, err := cr.Create(ctx, v.ID, mms.VaultCredentialCreateParams{DisplayName: "docs", Metadata: map[string]string{"k": "v"},
		Auth: mms.MCPOAuthAuthParams{MCPServerURL: "https://mcp.example/docs", AccessToken: mms.NewSecret("at-1"), ExpiresAt: future,
			Refresh: mms.MCPOAuthRefreshParams{ClientID: "cid", RefreshToken: mms.NewSecret("rt-1"), TokenEndpoint: "https://auth.example/token",
				TokenEndpointAuth: mms.TokenEndpointAuthClientSecretBasic{ClientSecret: mms.NewSecret("cs-1")}, Resource: "https://mcp.example", Scope: "read"}}})
	require.NoError(t, err)
	a, ok := oauth.Auth.(mms.MCPOAuthAuth)
	if !ok || !strings.HasPrefix(oauth.ID, "vcrd_") || oauth.VaultID != v.ID || *oauth.DisplayName != "docs" ||
		a.MCPServerURL != "https://mcp.example/docs" || a.Refresh == nil || a.Refresh.TokenEndpointAuth.Type != mms.TokenEndpointAuthClientSecretBasicType ||
		*a.Refresh.Scope != "read" || a.ExpiresAt == nil {
		t.Fatalf("created %+v %+v", oauth, oauth.Auth)
	}
	for member, value := range map[string]string{"access_token": "at-1", "refresh.refresh_token": "rt-1", "refresh.token_endpoint_auth.client_secret": "cs-1"} {
		if !srv.VaultCredentialHoldsSecret(oauth.ID, member, value) {
			t.Errorf("%s did not arrive", member)
		}
	}
	public, err := cr.Create(ctx, v.ID, mms.VaultCredentialCreateParams{Auth: mms.MCPOAuthAuthParams{MCPServerURL: "https://mcp.example/pub", AccessToken: mms.NewSecret("at"),
		Refresh: mms.MCPOAuthRefreshParams{ClientID: "c", RefreshToken: mms.NewSecret("r"), TokenEndpoint: "https://t", TokenEndpointAuth: mms.TokenEndpointAuthNone{}}}})
	require.NoError(t, err)
	bearer, err := cr.Create(ctx, v.ID, mms.VaultCredentialCreateParams{Auth: mms.StaticBearerAuthParams{MCPServerURL: "https://mcp.example/b", Token: mms.NewSecret("tok-1")}})
	require.NoError(t, err)
	env, err := cr.Create(ctx, v.ID, mms.VaultCredentialCreateParams{Auth: mms.EnvironmentVariableAuthParams{SecretName: "API_KEY", SecretValue: mms.NewSecret("sv-1"),
		Networking:        mms.CredentialNetworkingLimited{AllowedHosts: []string{"api.example.com", "*.example.org"}},
		InjectionLocation: &mms.CredentialInjectionLocation{Header: mms.Ptr(true)}}})
	require.NoError(t, err)
	if e := env.Auth.(mms.EnvironmentVariableAuth); e.SecretName != "API_KEY" ||
		!cmp.Equal(e.Networking.(mms.CredentialNetworkingLimited).AllowedHosts, []string{"api.example.com", "*.example.org"}) {
		t.Errorf("env %+v", e)
	}
	// A second active credential for the same server: 409.
	_, err = cr.Create(ctx, v.ID, mms.VaultCredentialCreateParams{Auth: mms.StaticBearerAuthParams{MCPServerURL: "https://mcp.example/b", Token: mms.NewSecret("t")}})
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 409 {
		t.Errorf("duplicate: %v", err)
	}

	// Updates of every kind.
	now = now.Add(time.Minute)
	u, err := cr.Update(ctx, v.ID, oauth.ID, mms.VaultCredentialUpdateParams{DisplayName: mms.Clear[string](), Metadata: mms.MetadataPatch{}.Delete("k"),
		Auth: mms.MCPOAuthAuthUpdateParams{AccessToken: mms.NewSecret("at-2"), ExpiresAt: mms.Clear[time.Time](),
			Refresh: mms.Set(mms.MCPOAuthRefreshUpdateParams{RefreshToken: mms.NewSecret("rt-2"), Scope: mms.Clear[string](), TokenEndpointAuth: mms.TokenEndpointAuthClientSecretPost{}})}})
	require.NoError(t, err)
	ua := u.Auth.(mms.MCPOAuthAuth)
	if u.DisplayName != nil || len(u.Metadata) != 0 || ua.ExpiresAt != nil || ua.Refresh.Scope != nil ||
		ua.Refresh.TokenEndpointAuth.Type != mms.TokenEndpointAuthClientSecretPostType || ua.Refresh.ClientID != "cid" {
		t.Errorf("updated %+v %+v", u, ua.Refresh)
	}
	if !srv.VaultCredentialHoldsSecret(oauth.ID, "access_token", "at-2") || !srv.VaultCredentialHoldsSecret(oauth.ID, "refresh.token_endpoint_auth.client_secret", "cs-1") {
		t.Error("update: access token not replaced, or client secret not kept")
	}
	if u, err := cr.Update(ctx, v.ID, public.ID, mms.VaultCredentialUpdateParams{
		Auth: mms.MCPOAuthAuthUpdateParams{ExpiresAt: mms.Set(future), Refresh: mms.Clear[mms.MCPOAuthRefreshUpdateParams]()}}); err != nil ||
		u.Auth.(mms.MCPOAuthAuth).Refresh != nil || u.Auth.(mms.MCPOAuthAuth).ExpiresAt == nil {
		t.Errorf("refresh cleared: %+v %v", u, err)
	}
	if _, err := cr.Update(ctx, v.ID, bearer.ID, mms.VaultCredentialUpdateParams{DisplayName: mms.Set("b"),
		Auth: mms.StaticBearerAuthUpdateParams{Token: mms.NewSecret("tok-2")}}); err != nil || !srv.VaultCredentialHoldsSecret(bearer.ID, "token", "tok-2") {
		t.Errorf("bearer update: %v", err)
	}
	e, err := cr.Update(ctx, v.ID, env.ID, mms.VaultCredentialUpdateParams{Auth: mms.EnvironmentVariableAuthUpdateParams{SecretValue: mms.NewSecret("sv-2"),
		Networking: mms.Set[mms.CredentialNetworking](mms.CredentialNetworkingUnrestricted{}), InjectionLocation: &mms.CredentialInjectionLocation{Body: mms.Ptr(true)}}})
	require.NoError(t, err)
	if ea := e.Auth.(mms.EnvironmentVariableAuth); !cmp.Equal(ea.Networking, mms.CredentialNetworking(mms.CredentialNetworkingUnrestricted{})) ||
		*ea.InjectionLocation.Body != true || *ea.InjectionLocation.Header != true {
		t.Errorf("env update %+v", ea)
	}
	if _, err := cr.Update(ctx, v.ID, env.ID, mms.VaultCredentialUpdateParams{Auth: mms.EnvironmentVariableAuthUpdateParams{
		Networking: mms.Clear[mms.CredentialNetworking]()}}); err != nil {
		t.Errorf("networking cleared: %v", err)
	}
	// A kind the credential is not: the service's 400.
	if _, err := cr.Update(ctx, v.ID, env.ID, mms.VaultCredentialUpdateParams{Auth: mms.StaticBearerAuthUpdateParams{Token: mms.NewSecret("x")}}); !errors.As(err, &apiErr) || apiErr.StatusCode != 400 {
		t.Errorf("kind mismatch: %v", err)
	}

	// Validate: a live token is valid; after expiry without refresh, invalid.
	val, err := cr.ValidateMCPOAuth(ctx, v.ID, public.ID)
	if err != nil || val.Status != mms.VaultCredentialValid || val.CredentialID != public.ID || val.VaultID != v.ID || val.HasRefreshToken {
		t.Errorf("validate: %+v %v", val, err)
	}
	now = future.Add(time.Hour)
	val, err = cr.ValidateMCPOAuth(ctx, v.ID, public.ID)
	if err != nil || val.Status != mms.VaultCredentialInvalid || val.MCPProbe == nil || val.MCPProbe.HTTPResponse.StatusCode != 401 ||
		val.Refresh.Status != mms.VaultCredentialRefreshNoRefreshToken {
		t.Errorf("validate expired: %+v %v", val, err)
	}
	now = fakeNow.Add(time.Hour)

	// Get, list (newest first), archive (secret purged, key freed), delete.
	if g, err := cr.Get(ctx, v.ID, bearer.ID); err != nil || *g.DisplayName != "b" {
		t.Errorf("Get: %+v %v", g, err)
	}
	var ids []string
	for x, err := range cr.List(ctx, v.ID, mms.VaultCredentialListParams{Limit: 1}) {
		require.NoError(t, err)
		ids = append(ids, x.ID)
	}
	if !cmp.Equal(ids, []string{env.ID, bearer.ID, public.ID, oauth.ID}) {
		t.Errorf("list %v", ids)
	}
	if ar, err := cr.Archive(ctx, v.ID, bearer.ID); err != nil || ar.ArchivedAt == nil || srv.VaultCredentialHoldsSecret(bearer.ID, "token", "tok-2") {
		t.Errorf("Archive: %+v %v", ar, err)
	}
	if _, err := cr.Create(ctx, v.ID, mms.VaultCredentialCreateParams{Auth: mms.StaticBearerAuthParams{MCPServerURL: "https://mcp.example/b", Token: mms.NewSecret("t")}}); err != nil {
		t.Errorf("key not freed by archive: %v", err)
	}
	if p, err := cr.ListPage(ctx, v.ID, mms.VaultCredentialListParams{IncludeArchived: true, Limit: 10}); err != nil || len(p.Data) != 5 || p.NextPage != nil {
		t.Errorf("ListPage archived: %v %v", p, err)
	}
	if d, err := cr.Delete(ctx, v.ID, oauth.ID); err != nil || d.ID != oauth.ID {
		t.Errorf("Delete: %+v %v", d, err)
	}
	if _, err := cr.Get(ctx, v.ID, oauth.ID); !errors.Is(err, mms.ErrNotFound) {
		t.Errorf("Get deleted: %v", err)
	}
	// Archiving the vault archives its credentials.
	if _, err := c.Vaults.Archive(ctx, v.ID); err != nil {
		t.Fatal(err)
	}
	if p, err := cr.ListPage(ctx, v.ID, mms.VaultCredentialListParams{}); err != nil || len(p.Data) != 0 {
		t.Errorf("after vault archive: %v %v", p, err)
	}
	if srv.VaultCredentialHoldsSecret(env.ID, "secret_value", "sv-2") {
		t.Error("vault archive kept a secret")
	}
}
