package admin_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/mmstest"
)

func TestExternalKeys(t *testing.T) {
	s, c := fake(t)
	k, err := c.ExternalKeys.Create(ctx, admin.ExternalKeyCreateParams{ProviderConfig: admin.AWSKeyProvider{KMSARN: "arn:aws:kms:us-east-1:1:key/abc"}, DisplayName: "main"})
	require.NoError(t, err)
	assert.Equal(t, "unattached", k.Attachment.Type)
	aws, ok := k.ProviderConfig.(admin.AWSKeyProvider)
	require.True(t, ok, "%T", k.ProviderConfig)
	assert.Equal(t, "arn:aws:kms:us-east-1:1:key/abc", aws.KMSARN)
	g, err := c.ExternalKeys.Create(ctx, admin.ExternalKeyCreateParams{ProviderConfig: admin.GCPKeyProvider{KeyName: "projects/p/keys/k"}})
	require.NoError(t, err)
	up, err := c.ExternalKeys.Update(ctx, g.ID, admin.ExternalKeyUpdateParams{DisplayName: "gcp"})
	require.NoError(t, err)
	assert.Equal(t, "gcp", *up.DisplayName)
	v, err := c.ExternalKeys.Validate(ctx, k.ID)
	require.NoError(t, err)
	assert.Equal(t, "success", v.Status)
	got, err := c.ExternalKeys.Get(ctx, k.ID)
	require.NoError(t, err)
	assert.Equal(t, k.ID, got.ID)
	require.Len(t, collect(t, c.ExternalKeys.List(ctx, admin.CursorListParams{Limit: 1})), 2)
	d, err := c.ExternalKeys.Delete(ctx, g.ID)
	require.NoError(t, err)
	assert.Equal(t, g.ID, d.ID)

	for _, tc := range []struct {
		p     admin.ExternalKeyCreateParams
		field string
	}{
		{admin.ExternalKeyCreateParams{}, "provider_config"},
		{admin.ExternalKeyCreateParams{ProviderConfig: admin.AWSKeyProvider{KMSARN: "alias/x"}}, "provider_config.kms_arn"},
		{admin.ExternalKeyCreateParams{ProviderConfig: admin.AzureKeyProvider{KeyName: "k", TenantID: "t", VaultURI: "http://v"}}, "provider_config.vault_uri"},
		{admin.ExternalKeyCreateParams{ProviderConfig: admin.AzureKeyProvider{KeyName: "k", VaultURI: "https://v"}}, "provider_config.tenant_id"},
		{admin.ExternalKeyCreateParams{ProviderConfig: admin.GCPKeyProvider{KeyName: "k"}, Geo: "eu"}, "geo"},
	} {
		_, err := c.ExternalKeys.Create(ctx, tc.p)
		assert.Equal(t, tc.field, fieldOf(err), "%v", err)
	}
	_, _ = s, json.Valid
}

func TestOAuthOnlyFamilies(t *testing.T) {
	s, c := fake(t) // admin key
	before := len(s.Requests())
	_, err := c.ServiceAccounts.Create(ctx, admin.ServiceAccountCreateParams{Name: "ci"})
	require.ErrorIs(t, err, admin.ErrCredential)
	require.ErrorIs(t, firstErr(c.FederationIssuers.List(ctx, admin.ArchivableListParams{})), admin.ErrCredential)
	require.ErrorIs(t, firstErr(c.Workspaces.ServiceAccounts.List(ctx, "wrkspc_1", admin.CursorListParams{})), admin.ErrCredential)
	assert.NotContains(t, err.Error(), mmstest.DefaultAdminKey)
	assert.Len(t, s.Requests(), before, "an admin key is refused before sending")
	// A token without org:admin reaches the service, which refuses it.
	tc, err := admin.NewClient(append(s.AdminClientOptions()[:2:2], optionToken(mmstest.DefaultAuthToken))...)
	require.NoError(t, err)
	_, err = tc.ServiceAccounts.Get(ctx, "svac_1")
	var apiErr *mms.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 403, apiErr.StatusCode)
	// …and the fake refuses an org:admin token on the admin-key families.
	oc := oauthClient(t, s)
	_, err = oc.Organization.Get(ctx)
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 403, apiErr.StatusCode)
}

func TestServiceAccountsAndFederation(t *testing.T) {
	s, _ := fake(t)
	c := oauthClient(t, s)
	ws := s.Org().AddWorkspace("prod")
	sa, err := c.ServiceAccounts.Create(ctx, admin.ServiceAccountCreateParams{Name: "ci-bot", Description: "CI"})
	require.NoError(t, err)
	assert.Equal(t, admin.ServiceAccountDeveloper, sa.OrganizationRole)
	_, err = c.ServiceAccounts.Create(ctx, admin.ServiceAccountCreateParams{Name: "ci-bot"})
	var apiErr *mms.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 409, apiErr.StatusCode)
	assert.NotErrorIs(t, err, mms.ErrMaybeApplied, "a first attempt refused is not ambiguous")
	sa2, err := c.ServiceAccounts.Update(ctx, sa.ID, admin.ServiceAccountUpdateParams{Description: ptr("new")})
	require.NoError(t, err)
	assert.Equal(t, "new", *sa2.Description)
	got, err := c.ServiceAccounts.Get(ctx, sa.ID)
	require.NoError(t, err)
	assert.Equal(t, "ci-bot", got.Name)

	m, err := c.ServiceAccounts.Workspaces.Add(ctx, sa.ID, admin.ServiceAccountWorkspaceAddParams{WorkspaceID: ws, WorkspaceRole: admin.WorkspaceRoleDeveloper})
	require.NoError(t, err)
	assert.Equal(t, ws, m.WorkspaceID)
	require.Len(t, collect(t, c.ServiceAccounts.Workspaces.List(ctx, sa.ID, admin.CursorListParams{})), 1)
	wm, err := c.Workspaces.ServiceAccounts.Update(ctx, ws, sa.ID, admin.MembershipRoleParams{WorkspaceRole: admin.WorkspaceRoleAdmin})
	require.NoError(t, err)
	assert.Equal(t, admin.WorkspaceRoleAdmin, wm.WorkspaceRole)
	wm, err = c.Workspaces.ServiceAccounts.Get(ctx, ws, sa.ID)
	require.NoError(t, err)
	assert.Equal(t, admin.WorkspaceRoleAdmin, wm.WorkspaceRole)
	require.Len(t, collect(t, c.Workspaces.ServiceAccounts.List(ctx, ws, admin.CursorListParams{})), 1)
	del, err := c.Workspaces.ServiceAccounts.Delete(ctx, ws, sa.ID)
	require.NoError(t, err)
	assert.Equal(t, sa.ID, del.ServiceAccountID)
	_, err = c.Workspaces.ServiceAccounts.Add(ctx, ws, admin.WorkspaceServiceAccountAddParams{ServiceAccountID: sa.ID, WorkspaceRole: admin.WorkspaceRoleUser})
	require.NoError(t, err)
	_, err = c.ServiceAccounts.Workspaces.Delete(ctx, sa.ID, ws)
	require.NoError(t, err)
	assert.Empty(t, collect(t, c.Workspaces.ServiceAccounts.List(ctx, ws, admin.CursorListParams{})))

	iss, err := c.FederationIssuers.Create(ctx, admin.FederationIssuerCreateParams{Name: "gha", IssuerURL: "https://token.actions.example.com",
		JWKS: admin.JWKSInline{Keys: []json.RawMessage{json.RawMessage(`{"kty":"RSA","n":"x","e":"AQAB"}`)}}})
	require.NoError(t, err)
	assert.IsType(t, admin.JWKSInline{}, iss.JWKS)
	assert.True(t, iss.CheckJTI)
	iss, err = c.FederationIssuers.Update(ctx, iss.ID, admin.FederationIssuerUpdateParams{MaxJWTLifetimeSeconds: 600, JWKSPollingDisabled: ptr(false)})
	require.NoError(t, err)
	assert.Equal(t, 600, iss.MaxJWTLifetimeSeconds)
	_, err = c.FederationIssuers.Get(ctx, iss.ID)
	require.NoError(t, err)
	rule, err := c.FederationRules.Create(ctx, admin.FederationRuleCreateParams{Name: "deploy", IssuerID: iss.ID,
		Match: admin.RuleMatch{SubjectPrefix: ptr("repo:acme/app:*")}, Target: admin.RuleTarget{ServiceAccountID: sa.ID},
		OAuthScope: "workspace:inference", WorkspaceID: ws})
	require.NoError(t, err)
	assert.Equal(t, []string{ws}, rule.WorkspaceIDs)
	assert.Equal(t, "gha", rule.IssuerName)
	rws := collect(t, c.FederationRules.Workspaces.List(ctx, rule.ID, admin.CursorListParams{}))
	require.Len(t, rws, 1)
	assert.Equal(t, "prod", *rws[0].WorkspaceName)
	ws2 := s.Org().AddWorkspace("staging")
	added, err := c.FederationRules.Workspaces.Add(ctx, rule.ID, admin.RuleWorkspaceAddParams{WorkspaceID: ws2})
	require.NoError(t, err)
	assert.Nil(t, added.WorkspaceName)
	_, err = c.FederationRules.Workspaces.Delete(ctx, rule.ID, ws2)
	require.NoError(t, err)
	rule, err = c.FederationRules.Update(ctx, rule.ID, admin.FederationRuleUpdateParams{TokenLifetimeSeconds: 600})
	require.NoError(t, err)
	assert.Equal(t, 600, rule.TokenLifetimeSeconds)
	_, err = c.FederationRules.Get(ctx, rule.ID)
	require.NoError(t, err)
	require.Len(t, collect(t, c.FederationRules.List(ctx, admin.FederationRuleListParams{IssuerID: iss.ID})), 1)

	_, err = c.FederationIssuers.Archive(ctx, iss.ID)
	require.ErrorAs(t, err, &apiErr, "a live rule references the issuer")
	_, err = c.ServiceAccounts.Archive(ctx, sa.ID)
	require.ErrorAs(t, err, &apiErr, "a live rule targets the account")
	rule, err = c.FederationRules.Archive(ctx, rule.ID)
	require.NoError(t, err)
	assert.NotNil(t, rule.ArchivedAt)
	assert.Empty(t, rule.WorkspaceIDs)
	_, err = c.FederationIssuers.Archive(ctx, iss.ID)
	require.NoError(t, err)
	a, err := c.ServiceAccounts.Archive(ctx, sa.ID)
	require.NoError(t, err)
	again, err := c.ServiceAccounts.Archive(ctx, sa.ID)
	require.NoError(t, err)
	assert.Equal(t, a.ArchivedAt, again.ArchivedAt, "archiving is idempotent")
	assert.Empty(t, collect(t, c.ServiceAccounts.List(ctx, admin.ArchivableListParams{})))
	require.Len(t, collect(t, c.ServiceAccounts.List(ctx, admin.ArchivableListParams{IncludeArchived: true})), 1)
	require.Len(t, collect(t, c.FederationIssuers.List(ctx, admin.ArchivableListParams{IncludeArchived: true})), 1)
}

func TestFederationValidation(t *testing.T) {
	s, _ := fake(t)
	c := oauthClient(t, s)
	rule := func(mut func(*admin.FederationRuleCreateParams)) error {
		p := admin.FederationRuleCreateParams{Name: "r", IssuerID: "fdis_1", Match: admin.RuleMatch{Claims: map[string]string{"a": "b"}},
			Target: admin.RuleTarget{ServiceAccountID: "svac_1"}, OAuthScope: "workspace:inference", AppliesToAllWorkspaces: true}
		mut(&p)
		_, err := c.FederationRules.Create(ctx, p)
		return err
	}
	for _, tc := range []struct {
		name, field string
		err         error
	}{
		{"slug", "name", func() error {
			_, err := c.ServiceAccounts.Create(ctx, admin.ServiceAccountCreateParams{Name: "CI Bot"})
			return err
		}()},
		{"sa role", "organization_role", func() error {
			_, err := c.ServiceAccounts.Create(ctx, admin.ServiceAccountCreateParams{Name: "ci", OrganizationRole: "owner"})
			return err
		}()},
		{"issuer url", "issuer_url", func() error {
			_, err := c.FederationIssuers.Create(ctx, admin.FederationIssuerCreateParams{Name: "i", IssuerURL: "not a url"})
			return err
		}()},
		{"lifetime 0 passes, 176401", "max_jwt_lifetime_seconds", func() error {
			_, err := c.FederationIssuers.Create(ctx, admin.FederationIssuerCreateParams{Name: "i", IssuerURL: "https://i", MaxJWTLifetimeSeconds: 176401})
			return err
		}()},
		{"explicit url", "jwks.url", func() error {
			_, err := c.FederationIssuers.Create(ctx, admin.FederationIssuerCreateParams{Name: "i", IssuerURL: "https://i", JWKS: admin.JWKSExplicitURL{URL: "http://k"}})
			return err
		}()},
		{"polling true", "jwks_polling_disabled", func() error {
			_, err := c.FederationIssuers.Update(ctx, "fdis_1", admin.FederationIssuerUpdateParams{JWKSPollingDisabled: ptr(true)})
			return err
		}()},
		{"wildcard", "match.subject_prefix", rule(func(p *admin.FederationRuleCreateParams) { p.Match = admin.RuleMatch{SubjectPrefix: ptr("*")} })},
		{"audience only", "match", rule(func(p *admin.FederationRuleCreateParams) { p.Match = admin.RuleMatch{Audience: ptr("a")} })},
		{"true", "match.condition", rule(func(p *admin.FederationRuleCreateParams) { p.Match = admin.RuleMatch{Condition: ptr(" true ")} })},
		{"no workspace", "workspace_id", rule(func(p *admin.FederationRuleCreateParams) { p.AppliesToAllWorkspaces = false })},
		{"lifetime 59", "token_lifetime_seconds", rule(func(p *admin.FederationRuleCreateParams) { p.TokenLifetimeSeconds = 59 })},
		{"lifetime 86401", "token_lifetime_seconds", rule(func(p *admin.FederationRuleCreateParams) { p.TokenLifetimeSeconds = 86401 })},
		{"no target", "target.service_account_id", rule(func(p *admin.FederationRuleCreateParams) { p.Target = admin.RuleTarget{} })},
	} {
		assert.Equal(t, tc.field, fieldOf(tc.err), "%s: %v", tc.name, tc.err)
	}
	assert.Empty(t, s.Requests())
	// The limits' other sides reach the service (which then judges ids).
	for _, n := range []int{60, 86400} {
		err := rule(func(p *admin.FederationRuleCreateParams) { p.TokenLifetimeSeconds = n })
		assert.Empty(t, fieldOf(err), "%d: %v", n, err)
	}
}
