package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// The request schema's bounds of issue 27 §5 (and the bounds where the SDK
// was stricter than the schema), each tried just inside and one past its
// limit: the SDK's Validate must accept the first and refuse the second
// naming the field and the rule (TestSchemaRulesValidate), and the fake
// must refuse the second with a 400 invalid_request_error naming the field
// when the request bypasses the SDK's checks (Client.Do with the params'
// JSON), and take the first (TestSchemaRulesFake).

type validator interface{ Validate() error }

// schemaRule is one bound: in is at it, out one past it.
type schemaRule struct {
	name    string
	field   string // the SDK's field path
	rule    string // part of the SDK's rule text
	in, out validator
	// send is the fake's endpoint for the params; nil for an SDK-only row.
	send func(f *ruleFixture) (method, path string)
	// fakeField is what the fake's message names; "" derives it from
	// field ("a[0].b" → "a.0.b").
	fakeField string
	// fakeRule is how the fake's message goes on after the field; ""
	// means a length rule ("String should have …").
	fakeRule string
	// inErr, when set, is part of the error the fake gives the in params
	// for a reason other than the rule (an id at its bound names nothing
	// that exists); "" means the fake accepts them.
	inErr string
}

// Repeated runes: n copies of "é" counts n characters and 2n bytes, so a
// bound counted in bytes would refuse it.
func runes(n int) string   { return strings.Repeat("é", n) }
func letters(n int) string { return strings.Repeat("a", n) }

var schemaTool = mms.InputSchema(`{"type":"object"}`)

func agentWith(f func(p *mms.AgentCreateParams)) mms.AgentCreateParams {
	p := mms.AgentCreateParams{Name: "a", Model: mms.AgentModel("m")}
	f(&p)
	return p
}

func agentMCP(url, configName string) mms.AgentCreateParams {
	return agentWith(func(p *mms.AgentCreateParams) {
		p.MCPServers = []mms.AgentMCPServer{{Name: "s", URL: url}}
		p.Tools = []mms.AgentTool{mms.AgentMCPToolset{MCPServerName: "s", Configs: []mms.AgentMCPToolConfig{{Name: configName}}}}
	})
}

func sessionWith(f func(p *mms.SessionCreateParams)) func(*ruleFixture) mms.SessionCreateParams {
	return func(fx *ruleFixture) mms.SessionCreateParams {
		p := mms.SessionCreateParams{Agent: mms.SessionAgentID(fx.agentID), EnvironmentID: fx.envID}
		f(&p)
		return p
	}
}

func repo(f func(r *mms.GitHubRepositoryResourceParams)) []mms.SessionResourceParams {
	r := mms.GitHubRepositoryResourceParams{URL: "https://github.com/o/r", AuthorizationToken: mms.NewSecret("t")}
	f(&r)
	return []mms.SessionResourceParams{r}
}

func events(e mms.SessionEventParams) mms.SessionEventSendParams {
	return mms.SessionEventSendParams{Events: []mms.SessionEventParams{e}}
}

func bearer(token string) mms.VaultCredentialCreateParams {
	return mms.VaultCredentialCreateParams{Auth: mms.StaticBearerAuthParams{MCPServerURL: "https://mcp.example", Token: mms.NewSecret(token)}}
}

func oauthRefresh(f func(r *mms.MCPOAuthRefreshParams)) mms.VaultCredentialCreateParams {
	r := mms.MCPOAuthRefreshParams{ClientID: "c", RefreshToken: mms.NewSecret("r"), TokenEndpoint: "https://auth.example/token",
		TokenEndpointAuth: mms.TokenEndpointAuthClientSecretBasic{ClientSecret: mms.NewSecret("s")}}
	f(&r)
	return mms.VaultCredentialCreateParams{Auth: mms.MCPOAuthAuthParams{MCPServerURL: "https://mcp.example", AccessToken: mms.NewSecret("a"), Refresh: r}}
}

// sessionRule is a schemaRule on a session create body, built against the
// fixture's agent and environment (the SDK side uses placeholder ids).
type sessionRule struct {
	name, field, rule string
	in, out           func(*ruleFixture) mms.SessionCreateParams
	inErr             string
}

func schemaRules() []schemaRule {
	post := func(path string) func(*ruleFixture) (string, string) {
		return func(*ruleFixture) (string, string) { return http.MethodPost, path }
	}
	at := func(path func(*ruleFixture) string) func(*ruleFixture) (string, string) {
		return func(f *ruleFixture) (string, string) { return http.MethodPost, path(f) }
	}
	sessionEvents := at(func(f *ruleFixture) string { return "/v1/sessions/" + f.session(false) + "/events" })
	selfHostedEvents := at(func(f *ruleFixture) string { return "/v1/sessions/" + f.session(true) + "/events" })
	credentials := at(func(f *ruleFixture) string { return "/v1/vaults/" + f.vault() + "/credentials" })
	bearerCredential := at(func(f *ruleFixture) string {
		v := f.vault()
		return "/v1/vaults/" + v + "/credentials/" + f.credential(v, bearer("t"))
	})
	oauthCredential := at(func(f *ruleFixture) string {
		v := f.vault()
		return "/v1/vaults/" + v + "/credentials/" + f.credential(v, oauthRefresh(func(*mms.MCPOAuthRefreshParams) {}))
	})
	profile := at(func(f *ruleFixture) string { return "/v1/user_profiles/" + f.profile() })
	roster := func(e mms.RosterEntry) mms.AgentCreateParams {
		return agentWith(func(p *mms.AgentCreateParams) { p.Multiagent = &mms.AgentMultiagent{Agents: []mms.RosterEntry{e}} })
	}
	skill := func(id string, version *string) mms.AgentCreateParams {
		return agentWith(func(p *mms.AgentCreateParams) {
			p.Skills = []mms.AgentSkill{{Type: mms.SkillSource("custom"), SkillID: id, Version: version}}
		})
	}
	custom := func(desc string) mms.AgentCreateParams {
		return agentWith(func(p *mms.AgentCreateParams) {
			p.Tools = []mms.AgentTool{mms.AgentCustomTool{Name: "t", Description: desc, InputSchema: schemaTool}}
		})
	}
	confirm := func(id, deny string) mms.SessionEventSendParams {
		return events(mms.UserToolConfirmationEventParams{ToolUseID: id, Result: mms.ToolConfirmationDeny, DenyMessage: deny})
	}
	outcome := func(rubric string) mms.SessionEventSendParams {
		return events(mms.NewDefineOutcomeEvent("d", mms.TextRubric{Content: rubric}))
	}
	document := func(src mms.DocumentSource) mms.SessionEventSendParams {
		return events(mms.NewUserMessageEventBlocks(mms.DocumentBlock{Source: src}))
	}
	profileUpdate := func(f func(p *mms.UserProfileUpdateParams)) mms.UserProfileUpdateParams {
		var p mms.UserProfileUpdateParams
		f(&p)
		return p
	}
	rules := []schemaRule{
		// Agents.
		{name: "agent name", field: "name", rule: "1 to 256 characters",
			in: agentWith(func(p *mms.AgentCreateParams) { p.Name = runes(256) }), out: agentWith(func(p *mms.AgentCreateParams) { p.Name = runes(257) }),
			send: post("/v1/agents")},
		{name: "agent description", field: "description", rule: "at most 2048 characters",
			in:   agentWith(func(p *mms.AgentCreateParams) { p.Description = runes(2048) }),
			out:  agentWith(func(p *mms.AgentCreateParams) { p.Description = runes(2049) }),
			send: post("/v1/agents")},
		{name: "agent update description", field: "description", rule: "at most 2048 characters",
			in:   mms.AgentUpdateParams{Version: 1, Description: mms.Set(runes(2048))},
			out:  mms.AgentUpdateParams{Version: 1, Description: mms.Set(runes(2049))},
			send: at(func(f *ruleFixture) string { return "/v1/agents/" + f.agentID })},
		{name: "custom tool description", field: "tools[0].description", rule: "1 to 1024 characters",
			in: custom(runes(1024)), out: custom(runes(1025)), send: post("/v1/agents")},
		{name: "MCP server url", field: "mcp_servers[0].url", rule: "1 to 2048 characters",
			in: agentMCP(letters(2048), "c"), out: agentMCP(letters(2049), "c"), send: post("/v1/agents")},
		{name: "mcp_toolset config name", field: "tools[0].configs[0].name", rule: "1 to 128 characters",
			in: agentMCP("https://mcp.example", runes(128)), out: agentMCP("https://mcp.example", runes(129)), send: post("/v1/agents")},
		{name: "skill_id", field: "skills[0].skill_id", rule: "1 to 64 characters",
			in: skill(runes(64), nil), out: skill(runes(65), nil), send: post("/v1/agents")},
		{name: "skill version empty", field: "skills[0].version", rule: "must not be empty",
			in: skill("s", mms.Ptr("1")), out: skill("s", mms.Ptr("")), send: post("/v1/agents")},
		{name: "roster agent id", field: "multiagent.agents[0]", rule: "1 to 128 characters",
			in: roster(mms.RosterAgentID(runes(128))), out: roster(mms.RosterAgentID(runes(129))), send: post("/v1/agents")},
		{name: "roster agent object id", field: "multiagent.agents[0].id", rule: "1 to 128 characters",
			in: roster(mms.RosterAgent{ID: runes(128)}), out: roster(mms.RosterAgent{ID: runes(129)}), send: post("/v1/agents")},

		// Environments.
		{name: "environment name", field: "name", rule: "1 to 256 characters",
			in: mms.EnvironmentCreateParams{Name: runes(256)}, out: mms.EnvironmentCreateParams{Name: runes(257)}, send: post("/v1/environments")},
		{name: "environment description", field: "description", rule: "at most 1024 characters",
			in:   mms.EnvironmentCreateParams{Name: "e", Description: runes(1024)},
			out:  mms.EnvironmentCreateParams{Name: "e", Description: runes(1025)},
			send: post("/v1/environments")},
		{name: "environment update description", field: "description", rule: "at most 1024 characters",
			in:   mms.EnvironmentUpdateParams{Description: mms.Set(runes(1024))},
			out:  mms.EnvironmentUpdateParams{Description: mms.Set(runes(1025))},
			send: at(func(f *ruleFixture) string { return "/v1/environments/" + f.envID })},
		{name: "environments list limit", field: "limit", rule: "between 1 and 1000",
			in: mms.EnvironmentListParams{Limit: 1000}, out: mms.EnvironmentListParams{Limit: 1001},
			send:     func(*ruleFixture) (string, string) { return http.MethodGet, "/v1/environments" },
			fakeRule: "Input should be between 1 and 1000"},

		// Sessions.
		{name: "session update title", field: "title", rule: "1 to 500 characters",
			in: mms.SessionUpdateParams{Title: mms.Set(runes(500))}, out: mms.SessionUpdateParams{Title: mms.Set(runes(501))},
			send: at(func(f *ruleFixture) string { return "/v1/sessions/" + f.session(false) })},
		{name: "session update title empty", field: "title", rule: "must not be empty",
			in: mms.SessionUpdateParams{Title: mms.Set("t")}, out: mms.SessionUpdateParams{Title: mms.Set("")},
			send: at(func(f *ruleFixture) string { return "/v1/sessions/" + f.session(false) })},
		{name: "resource update token", field: "authorization_token", rule: "1 to 4096 characters",
			in:   mms.SessionResourceUpdateParams{AuthorizationToken: mms.NewSecret(letters(4096))},
			out:  mms.SessionResourceUpdateParams{AuthorizationToken: mms.NewSecret(letters(4097))},
			send: at(func(f *ruleFixture) string { s, r := f.repository(); return "/v1/sessions/" + s + "/resources/" + r })},
		{name: "resource add file_id", field: "resource.file_id", rule: "1 to 128 characters",
			in: mms.FileResourceParams{FileID: letters(128)}, out: mms.FileResourceParams{FileID: letters(129)},
			send:      at(func(f *ruleFixture) string { return "/v1/sessions/" + f.session(false) + "/resources" }),
			fakeField: "body.file_id", inErr: "File not found"},

		// Events.
		{name: "confirmation tool_use_id", field: "events[0].tool_use_id", rule: "1 to 128 characters",
			in: confirm(letters(128), ""), out: confirm(letters(129), ""), send: sessionEvents, inErr: "no tool call"},
		{name: "deny_message", field: "events[0].deny_message", rule: "at most 10000 characters",
			in: confirm("toolu_1", runes(10_000)), out: confirm("toolu_1", runes(10_001)), send: sessionEvents, inErr: "no tool call"},
		{name: "custom_tool_use_id", field: "events[0].custom_tool_use_id", rule: "1 to 128 characters",
			in:   events(mms.NewCustomToolResultEvent(letters(128), "ok")),
			out:  events(mms.NewCustomToolResultEvent(letters(129), "ok")),
			send: sessionEvents, inErr: "no tool call"},
		{name: "tool result tool_use_id", field: "events[0].tool_use_id", rule: "1 to 128 characters",
			in:   events(mms.NewToolResultEvent(letters(128), "ok", false)),
			out:  events(mms.NewToolResultEvent(letters(129), "ok", false)),
			send: selfHostedEvents, inErr: "no tool call"},
		{name: "rubric content", field: "events[0].rubric.content", rule: "1 to 262144 characters",
			in: outcome(letters(262_144)), out: outcome(letters(262_145)), send: sessionEvents},
		{name: "document content source", field: "events[0].content[0].source", rule: "not content",
			in:   document(mms.PlainTextSource{MediaType: "text/plain", Data: "text"}),
			out:  document(mms.ContentSource{Content: mms.ContentBlocks{mms.TextBlock{Text: "text"}}}),
			send: sessionEvents, fakeField: "events.0.content.0.source.type", fakeRule: "Input should be 'base64', 'text', 'url' or 'file'"},

		// Credentials.
		{name: "static bearer token", field: "auth.token", rule: "at most 8192 characters",
			in: bearer(letters(8192)), out: bearer(letters(8193)), send: credentials},
		{name: "static bearer token update", field: "auth.token", rule: "at most 8192 characters",
			in:   mms.VaultCredentialUpdateParams{Auth: mms.StaticBearerAuthUpdateParams{Token: mms.NewSecret(letters(8192))}},
			out:  mms.VaultCredentialUpdateParams{Auth: mms.StaticBearerAuthUpdateParams{Token: mms.NewSecret(letters(8193))}},
			send: bearerCredential},
		{name: "client_secret", field: "auth.refresh.token_endpoint_auth.client_secret", rule: "at most 512 characters",
			in: oauthRefresh(func(r *mms.MCPOAuthRefreshParams) {
				r.TokenEndpointAuth = mms.TokenEndpointAuthClientSecretPost{ClientSecret: mms.NewSecret(letters(512))}
			}),
			out: oauthRefresh(func(r *mms.MCPOAuthRefreshParams) {
				r.TokenEndpointAuth = mms.TokenEndpointAuthClientSecretPost{ClientSecret: mms.NewSecret(letters(513))}
			}),
			send: credentials},
		{name: "refresh_token", field: "auth.refresh.refresh_token", rule: "at most 4096 characters",
			in:   oauthRefresh(func(r *mms.MCPOAuthRefreshParams) { r.RefreshToken = mms.NewSecret(letters(4096)) }),
			out:  oauthRefresh(func(r *mms.MCPOAuthRefreshParams) { r.RefreshToken = mms.NewSecret(letters(4097)) }),
			send: credentials},
		{name: "refresh_token update", field: "auth.refresh.refresh_token", rule: "at most 4096 characters",
			in: mms.VaultCredentialUpdateParams{Auth: mms.MCPOAuthAuthUpdateParams{
				Refresh: mms.Set(mms.MCPOAuthRefreshUpdateParams{RefreshToken: mms.NewSecret(letters(4096))})}},
			out: mms.VaultCredentialUpdateParams{Auth: mms.MCPOAuthAuthUpdateParams{
				Refresh: mms.Set(mms.MCPOAuthRefreshUpdateParams{RefreshToken: mms.NewSecret(letters(4097))})}},
			send: oauthCredential},
		{name: "client_secret update", field: "auth.refresh.token_endpoint_auth.client_secret", rule: "at most 512 characters",
			in: mms.VaultCredentialUpdateParams{Auth: mms.MCPOAuthAuthUpdateParams{Refresh: mms.Set(mms.MCPOAuthRefreshUpdateParams{
				TokenEndpointAuth: mms.TokenEndpointAuthClientSecretBasic{ClientSecret: mms.NewSecret(letters(512))}})}},
			out: mms.VaultCredentialUpdateParams{Auth: mms.MCPOAuthAuthUpdateParams{Refresh: mms.Set(mms.MCPOAuthRefreshUpdateParams{
				TokenEndpointAuth: mms.TokenEndpointAuthClientSecretBasic{ClientSecret: mms.NewSecret(letters(513))}})}},
			send: oauthCredential},
		{name: "token_endpoint", field: "auth.refresh.token_endpoint", rule: "1 to 2047 characters",
			in:   oauthRefresh(func(r *mms.MCPOAuthRefreshParams) { r.TokenEndpoint = letters(2047) }),
			out:  oauthRefresh(func(r *mms.MCPOAuthRefreshParams) { r.TokenEndpoint = letters(2048) }),
			send: credentials},

		// User profiles.
		{name: "profile update name empty", field: "name", rule: "must not be empty",
			in:  profileUpdate(func(p *mms.UserProfileUpdateParams) { p.Name = mms.Set("n") }),
			out: profileUpdate(func(p *mms.UserProfileUpdateParams) { p.Name = mms.Set("") }), send: profile},
		{name: "profile update external_id empty", field: "external_id", rule: "must not be empty",
			in:  profileUpdate(func(p *mms.UserProfileUpdateParams) { p.ExternalID = mms.Set("x") }),
			out: profileUpdate(func(p *mms.UserProfileUpdateParams) { p.ExternalID = mms.Set("") }), send: profile},
		{name: "profile relationship", field: "relationship", rule: `must be "external", "resold" or "internal"`,
			in:   mms.UserProfileCreateParams{Relationship: mms.UserProfileRelationshipResold},
			out:  mms.UserProfileCreateParams{Relationship: "partner"},
			send: post("/v1/user_profiles"), fakeRule: "Input should be 'external', 'resold' or 'internal'"},
		{name: "profile update relationship", field: "relationship", rule: `must be "external", "resold" or "internal"`,
			in:  profileUpdate(func(p *mms.UserProfileUpdateParams) { p.Relationship = mms.Set(mms.UserProfileRelationshipInternal) }),
			out: profileUpdate(func(p *mms.UserProfileUpdateParams) { p.Relationship = mms.Set(mms.UserProfileRelationship("partner")) }), send: profile,
			fakeRule: "Input should be 'external', 'resold' or 'internal'"},
	}
	return rules
}

// sessionRules are the session create body's bounds; they need the
// fixture's agent and environment.
func sessionRules() []sessionRule {
	return []sessionRule{
		{name: "environment_id", field: "environment_id", rule: "1 to 128 characters", inErr: "Environment not found",
			in:  sessionWith(func(p *mms.SessionCreateParams) { p.EnvironmentID = letters(128) }),
			out: sessionWith(func(p *mms.SessionCreateParams) { p.EnvironmentID = letters(129) })},
		{name: "agent id", field: "agent", rule: "1 to 128 characters", inErr: "Agent not found",
			in:  sessionWith(func(p *mms.SessionCreateParams) { p.Agent = mms.SessionAgentID(letters(128)) }),
			out: sessionWith(func(p *mms.SessionCreateParams) { p.Agent = mms.SessionAgentID(letters(129)) })},
		{name: "agent ref id", field: "agent.id", rule: "1 to 128 characters", inErr: "Agent not found",
			in:  sessionWith(func(p *mms.SessionCreateParams) { p.Agent = mms.SessionAgentRef{ID: letters(128)} }),
			out: sessionWith(func(p *mms.SessionCreateParams) { p.Agent = mms.SessionAgentRef{ID: letters(129)} })},
		{name: "title", field: "title", rule: "at most 500 characters",
			in:  sessionWith(func(p *mms.SessionCreateParams) { p.Title = runes(500) }),
			out: sessionWith(func(p *mms.SessionCreateParams) { p.Title = runes(501) })},
		{name: "repository url", field: "resources[0].url", rule: "1 to 2048 characters",
			in: sessionWith(func(p *mms.SessionCreateParams) {
				p.Resources = repo(func(r *mms.GitHubRepositoryResourceParams) { r.URL = letters(2048) })
			}),
			out: sessionWith(func(p *mms.SessionCreateParams) {
				p.Resources = repo(func(r *mms.GitHubRepositoryResourceParams) { r.URL = letters(2049) })
			})},
		{name: "repository token", field: "resources[0].authorization_token", rule: "1 to 4096 characters",
			in: sessionWith(func(p *mms.SessionCreateParams) {
				p.Resources = repo(func(r *mms.GitHubRepositoryResourceParams) { r.AuthorizationToken = mms.NewSecret(letters(4096)) })
			}),
			out: sessionWith(func(p *mms.SessionCreateParams) {
				p.Resources = repo(func(r *mms.GitHubRepositoryResourceParams) { r.AuthorizationToken = mms.NewSecret(letters(4097)) })
			})},
		{name: "checkout sha", field: "resources[0].checkout.sha", rule: "at least 7 characters",
			in: sessionWith(func(p *mms.SessionCreateParams) {
				p.Resources = repo(func(r *mms.GitHubRepositoryResourceParams) { r.Checkout = mms.CommitCheckout{SHA: "abcdef1"} })
			}),
			out: sessionWith(func(p *mms.SessionCreateParams) {
				p.Resources = repo(func(r *mms.GitHubRepositoryResourceParams) { r.Checkout = mms.CommitCheckout{SHA: "abcdef"} })
			})},
		{name: "checkout branch", field: "resources[0].checkout.name", rule: "1 to 255 characters",
			in: sessionWith(func(p *mms.SessionCreateParams) {
				p.Resources = repo(func(r *mms.GitHubRepositoryResourceParams) { r.Checkout = mms.BranchCheckout{Name: runes(255)} })
			}),
			out: sessionWith(func(p *mms.SessionCreateParams) {
				p.Resources = repo(func(r *mms.GitHubRepositoryResourceParams) { r.Checkout = mms.BranchCheckout{Name: runes(256)} })
			})},
		{name: "file_id", field: "resources[0].file_id", rule: "1 to 128 characters", inErr: "File not found",
			in: sessionWith(func(p *mms.SessionCreateParams) {
				p.Resources = []mms.SessionResourceParams{mms.FileResourceParams{FileID: letters(128)}}
			}),
			out: sessionWith(func(p *mms.SessionCreateParams) {
				p.Resources = []mms.SessionResourceParams{mms.FileResourceParams{FileID: letters(129)}}
			})},
	}
}

// placeholders stands in for the fixture on the SDK side, where ids only
// need to be there.
var placeholders = &ruleFixture{agentID: "agent_1", envID: "env_1"}

func TestSchemaRulesValidate(t *testing.T) {
	check := func(t *testing.T, field, rule string, in, out validator) {
		require.NoError(t, in.Validate(), "at the bound")
		err := out.Validate()
		var ve *mms.ValidationError
		require.True(t, errors.As(err, &ve), "past the bound: %v", err)
		assert.Equal(t, field, ve.Field)
		assert.Contains(t, ve.Rule, rule)
	}
	for _, r := range schemaRules() {
		t.Run(r.name, func(t *testing.T) { check(t, r.field, r.rule, r.in, r.out) })
	}
	for _, r := range sessionRules() {
		t.Run("session "+r.name, func(t *testing.T) { check(t, r.field, r.rule, r.in(placeholders), r.out(placeholders)) })
	}
}

// fakePath is the fake's name for an SDK field path: list positions as
// dotted numbers.
var listIndex = regexp.MustCompile(`\[(\d+)\]`)

func fakePath(field string) string { return listIndex.ReplaceAllString(field, ".$1") }

func TestSchemaRulesFake(t *testing.T) {
	srv := mmstest.NewServer()
	t.Cleanup(srv.Close)
	f := newRuleFixture(t, filesClient(t, srv, option.WithMaxRetries(0)))
	for _, r := range schemaRules() {
		t.Run(r.name, func(t *testing.T) {
			fakeField := r.fakeField
			if fakeField == "" {
				fakeField = fakePath(r.field)
			}
			fakeRule := r.fakeRule
			if fakeRule == "" {
				fakeRule = "String should have"
			}
			method, path := r.send(f)
			f.check(t, method, path, r.in, "", r.inErr, false)
			f.check(t, method, path, r.out, fakeField+": "+fakeRule, "", true)
		})
	}
	for _, r := range sessionRules() {
		t.Run("session "+r.name, func(t *testing.T) {
			f.check(t, http.MethodPost, "/v1/sessions", r.in(f), "", r.inErr, false)
			f.check(t, http.MethodPost, "/v1/sessions", r.out(f), fakePath(r.field)+": String should have", "", true)
		})
	}
}

// ruleFixture holds what the rules' requests name on the fake.
type ruleFixture struct {
	t       *testing.T
	c       *mms.Client
	agentID string
	envID   string

	mu           sync.Mutex
	selfHostedID string
}

func newRuleFixture(t *testing.T, c *mms.Client) *ruleFixture {
	ctx := context.Background()
	a, err := c.Agents.Create(ctx, mms.AgentCreateParams{Name: "a", Model: mms.AgentModel("m")})
	require.NoError(t, err)
	e, err := c.Environments.Create(ctx, mms.EnvironmentCreateParams{Name: "e"})
	require.NoError(t, err)
	return &ruleFixture{t: t, c: c, agentID: a.ID, envID: e.ID}
}

// session creates an idle session in the cloud environment, or in a
// self-hosted one.
func (f *ruleFixture) session(selfHosted bool) string {
	env := f.envID
	if selfHosted {
		f.mu.Lock()
		if f.selfHostedID == "" {
			e, err := f.c.Environments.Create(context.Background(), mms.EnvironmentCreateParams{Name: "sh", Config: mms.SelfHostedEnvironmentConfig{}})
			require.NoError(f.t, err)
			f.selfHostedID = e.ID
		}
		env = f.selfHostedID
		f.mu.Unlock()
	}
	s, err := f.c.Sessions.Create(context.Background(), mms.SessionCreateParams{Agent: mms.SessionAgentID(f.agentID), EnvironmentID: env})
	require.NoError(f.t, err)
	return s.ID
}

// repository creates a session with a repository resource and returns the
// session's and the resource's ids.
func (f *ruleFixture) repository() (string, string) {
	s, err := f.c.Sessions.Create(context.Background(), mms.SessionCreateParams{Agent: mms.SessionAgentID(f.agentID), EnvironmentID: f.envID,
		Resources: repo(func(*mms.GitHubRepositoryResourceParams) {})})
	require.NoError(f.t, err)
	require.Len(f.t, s.Resources, 1)
	r, ok := s.Resources[0].(mms.GitHubRepositoryResource)
	require.True(f.t, ok, "%T", s.Resources[0])
	return s.ID, r.ID
}

func (f *ruleFixture) vault() string {
	v, err := f.c.Vaults.Create(context.Background(), mms.VaultCreateParams{DisplayName: "v"})
	require.NoError(f.t, err)
	return v.ID
}

func (f *ruleFixture) credential(vaultID string, p mms.VaultCredentialCreateParams) string {
	cr, err := f.c.Vaults.Credentials.Create(context.Background(), vaultID, p)
	require.NoError(f.t, err)
	return cr.ID
}

func (f *ruleFixture) profile() string {
	p, err := f.c.UserProfiles.Create(context.Background(), mms.UserProfileCreateParams{Name: "n"})
	require.NoError(f.t, err)
	return p.ID
}

// check sends p's JSON as is (no client-side check) and asserts the
// answer: refused, a 400 invalid_request_error whose message holds want
// (the field and the rule); or not refused for the rule (success, or an
// error containing inErr).
func (f *ruleFixture) check(t *testing.T, method, path string, p validator, want, inErr string, refused bool) {
	t.Helper()
	var body any
	if l, ok := p.(mms.EnvironmentListParams); ok {
		path += fmt.Sprintf("?limit=%d", l.Limit)
	} else {
		raw, err := json.Marshal(p)
		require.NoError(t, err)
		body = json.RawMessage(raw)
	}
	err := f.c.Do(context.Background(), method, path, body, nil)
	var apiErr *mms.Error
	switch {
	case refused:
		require.True(t, errors.As(err, &apiErr), "past the bound: %v", err)
		assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
		assert.Equal(t, "invalid_request_error", apiErr.Type)
		assert.Contains(t, apiErr.Message, want, "past the bound")
	case inErr == "":
		require.NoError(t, err, "at the bound")
	default:
		require.True(t, errors.As(err, &apiErr), "at the bound: %v", err)
		assert.Contains(t, apiErr.Message, inErr, "at the bound")
	}
}
