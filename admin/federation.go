package admin

import (
	"context"
	"encoding/json"
	"iter"
	"net/url"
	"strings"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/option"
)

// FederationIssuersService manages the OIDC issuers of workload identity
// federation (/v1/organizations/federation_issuers). OAuth org:admin only:
// an admin key is refused before sending.
type FederationIssuersService struct{ c *Client }

// A JWKS is where an issuer's signing keys come from: [JWKSDiscovery],
// [JWKSExplicitURL], [JWKSInline] or [UnknownJWKS].
type JWKS interface {
	json.Marshaler
	isJWKS()
}

var jwksUnion = codec.NewUnion[JWKS]("JWKS", UnknownJWKS{}).
	Add("discovery", JWKSDiscovery{}).
	Add("explicit_url", JWKSExplicitURL{}).
	Add("inline", JWKSInline{})

// JWKSDiscovery finds the keys by OIDC discovery (the wire type
// "discovery").
type JWKSDiscovery struct {
	// DiscoveryBase overrides the issuer URL as the discovery base.
	DiscoveryBase *string `json:"discovery_base,omitzero"`
	// CACertPEM is a custom CA for the fetch.
	CACertPEM *string `json:"ca_cert_pem,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// JWKSExplicitURL fetches the keys from a URL (the wire type
// "explicit_url").
type JWKSExplicitURL struct {
	// URL is the JWKS document's address. Required.
	URL string `json:"url"`
	// CACertPEM is a custom CA for the fetch.
	CACertPEM *string `json:"ca_cert_pem,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// JWKSInline holds the keys (the wire type "inline").
type JWKSInline struct {
	// Keys are JWK objects, passed through as JSON. At least one.
	Keys []json.RawMessage `json:"keys"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownJWKS keeps a JWKS kind this SDK version cannot name.
type UnknownJWKS struct {
	Type string
	Raw  json.RawMessage
}

func validateJWKS(j JWKS) error {
	switch v := j.(type) {
	case JWKSExplicitURL:
		if u, err := url.Parse(v.URL); err != nil || u.Scheme != "https" || u.Host == "" {
			return invalid("jwks.url", "must be an https URL, got %q", v.URL)
		}
	case JWKSInline:
		if len(v.Keys) == 0 {
			return invalid("jwks.keys", "must hold at least one key")
		}
	case UnknownJWKS:
		return invalid("jwks", "the type %q is not one this SDK version can send", v.Type)
	}
	return nil
}

// maxJWTLifetime is the largest max_jwt_lifetime_seconds (49 h).
const maxJWTLifetime = 176400

// FederationIssuer is an issuer's record (the wire type
// "federation_issuer").
//
//mms:json type=federation_issuer
type FederationIssuer struct {
	// ID identifies the issuer ("fdis_…").
	ID string `json:"id"`
	// Name is the issuer's slug.
	Name string `json:"name"`
	// IssuerURL equals the JWT iss exactly.
	IssuerURL string `json:"issuer_url"`
	// JWKS is where the signing keys come from.
	JWKS JWKS `json:"jwks"`
	// CheckJTI makes each jti single-use.
	CheckJTI bool `json:"check_jti"`
	// MaxJWTLifetimeSeconds bounds the iat→exp spread.
	MaxJWTLifetimeSeconds int `json:"max_jwt_lifetime_seconds"`
	// PollStatus is the key fetcher's state; nil for none.
	PollStatus json.RawMessage `json:"poll_status"`
	// JWKSPollingDisabledAt is set when polling paused after failures.
	JWKSPollingDisabledAt *time.Time `json:"jwks_polling_disabled_at"`
	// CreatedAt, UpdatedAt and ArchivedAt (nil while live) are its times.
	CreatedAt  time.Time  `json:"created_at"`
	UpdatedAt  time.Time  `json:"updated_at"`
	ArchivedAt *time.Time `json:"archived_at"`
	// The actors ("user_…"/"svac_…") that created, updated and archived it.
	CreatedByActorID  *string `json:"created_by_actor_id"`
	UpdatedByActorID  *string `json:"updated_by_actor_id"`
	ArchivedByActorID *string `json:"archived_by_actor_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// FederationIssuerCreateParams are the parameters of
// [FederationIssuersService.Create].
//
//mms:json
type FederationIssuerCreateParams struct {
	// Name is a unique slug. Required.
	Name string `json:"name"`
	// IssuerURL must equal the JWT iss. Required.
	IssuerURL string `json:"issuer_url"`
	// JWKS defaults to discovery.
	JWKS JWKS `json:"jwks,omitzero"`
	// CheckJTI defaults to true; set false to turn it off.
	CheckJTI *bool `json:"check_jti,omitzero"`
	// MaxJWTLifetimeSeconds is 1–176,400 (default 3600).
	MaxJWTLifetimeSeconds int `json:"max_jwt_lifetime_seconds,omitzero"`
}

func validateIssuerFields(name, issuer string, j JWKS, life int, create bool) error {
	if create || name != "" {
		if err := validateSlug("name", name); err != nil {
			return err
		}
	}
	if create || issuer != "" {
		if u, err := url.Parse(issuer); err != nil || u.Scheme == "" || u.Host == "" {
			return invalid("issuer_url", "must be an absolute URL, got %q", issuer)
		}
	}
	if j != nil {
		if err := validateJWKS(j); err != nil {
			return err
		}
	}
	if life != 0 && (life < 1 || life > maxJWTLifetime) {
		return invalid("max_jwt_lifetime_seconds", "must be between 1 and %d, got %d", maxJWTLifetime, life)
	}
	return nil
}

// Validate reports a name that is not a slug, an issuer URL that is not
// absolute, a bad JWKS, or a lifetime outside 1–176,400.
func (p FederationIssuerCreateParams) Validate() error {
	return validateIssuerFields(p.Name, p.IssuerURL, p.JWKS, p.MaxJWTLifetimeSeconds, true)
}

// FederationIssuerUpdateParams are the parameters of
// [FederationIssuersService.Update]; zero fields are unchanged.
//
//mms:json
type FederationIssuerUpdateParams struct {
	// Name, IssuerURL, JWKS (replaced whole), CheckJTI and
	// MaxJWTLifetimeSeconds as on create.
	Name                  string `json:"name,omitzero"`
	IssuerURL             string `json:"issuer_url,omitzero"`
	JWKS                  JWKS   `json:"jwks,omitzero"`
	CheckJTI              *bool  `json:"check_jti,omitzero"`
	MaxJWTLifetimeSeconds int    `json:"max_jwt_lifetime_seconds,omitzero"`
	// JWKSPollingDisabled set to false re-enables polling the system
	// paused; false is the only value accepted.
	JWKSPollingDisabled *bool `json:"jwks_polling_disabled,omitzero"`
}

// Validate reports the rules of create for the fields set, and
// JWKSPollingDisabled set to true.
func (p FederationIssuerUpdateParams) Validate() error {
	if p.JWKSPollingDisabled != nil && *p.JWKSPollingDisabled {
		return invalid("jwks_polling_disabled", "only false is accepted (re-enabling polling)")
	}
	return validateIssuerFields(p.Name, p.IssuerURL, p.JWKS, p.MaxJWTLifetimeSeconds, false)
}

// ArchivableListParams are the parameters of cursor lists of archivable
// records.
type ArchivableListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// IncludeArchived lists archived records too.
	IncludeArchived bool
}

// Validate reports Limit outside 1–1000.
func (p ArchivableListParams) Validate() error { return validateLimit(p.Limit, 1000) }

func (p ArchivableListParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	setBool(a.query, "include_archived", p.IncludeArchived)
	return a
}

func (s *FederationIssuersService) all() endpoint[FederationIssuer] {
	return ep[FederationIssuer](s.c, adminbridge.OAuth, "/federation_issuers")
}

func (s *FederationIssuersService) at(id string) endpoint[FederationIssuer] {
	return s.all().id("federation_issuer_id", id)
}

// Create registers an issuer. Creating: after an unknown outcome the error
// matches mms.ErrMaybeApplied (a duplicate name is a 409).
func (s *FederationIssuersService) Create(ctx context.Context, p FederationIssuerCreateParams, opts ...option.RequestOption) (*FederationIssuer, error) {
	return s.all().post(ctx, p, opts)
}

// Get retrieves an issuer.
func (s *FederationIssuersService) Get(ctx context.Context, issuerID string, opts ...option.RequestOption) (*FederationIssuer, error) {
	return s.at(issuerID).get(ctx, opts)
}

// Update changes an issuer; archived issuers cannot change.
func (s *FederationIssuersService) Update(ctx context.Context, issuerID string, p FederationIssuerUpdateParams, opts ...option.RequestOption) (*FederationIssuer, error) {
	return s.at(issuerID).update(ctx, p, opts)
}

// List iterates over the issuers (cursor scheme).
func (s *FederationIssuersService) List(ctx context.Context, p ArchivableListParams, opts ...option.RequestOption) iter.Seq2[FederationIssuer, error] {
	return s.all().list(ctx, adminbridge.Cursor, p, opts)
}

// Archive archives an issuer (idempotent); refused while a live rule uses it.
func (s *FederationIssuersService) Archive(ctx context.Context, issuerID string, opts ...option.RequestOption) (*FederationIssuer, error) {
	return s.at(issuerID).archive(ctx, opts)
}

// FederationRulesService manages federation rules
// (/v1/organizations/federation_rules; OAuth org:admin only).
type FederationRulesService struct {
	c *Client
	// Workspaces lists, enables and disables a rule's workspaces.
	Workspaces *FederationRuleWorkspacesService
}

// RuleMatch is what a rule requires of an identity token.
//
//mms:json
type RuleMatch struct {
	// SubjectPrefix matches sub exactly, or as a prefix when it ends in *.
	SubjectPrefix *string `json:"subject_prefix,omitzero"`
	// Claims match top-level string claims exactly.
	Claims map[string]string `json:"claims,omitzero"`
	// Condition is a boolean CEL expression over claims.
	Condition *string `json:"condition,omitzero"`
	// Audience matches aud exactly (any element).
	Audience *string `json:"audience,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// validate checks the rules of a match a request sends.
func (m RuleMatch) validate() error {
	hasPrefix := m.SubjectPrefix != nil && *m.SubjectPrefix != ""
	if hasPrefix && strings.Trim(*m.SubjectPrefix, "*") == "" {
		return invalid("match.subject_prefix", "must not be a wildcard only, got %q", *m.SubjectPrefix)
	}
	hasCond := m.Condition != nil && *m.Condition != ""
	if hasCond && strings.TrimSpace(*m.Condition) == "true" {
		return invalid("match.condition", "must not be the constant true")
	}
	if !hasPrefix && len(m.Claims) == 0 && !hasCond {
		return invalid("match", "needs at least one of subject_prefix, claims and condition (audience alone is not enough)")
	}
	return nil
}

// RuleTarget is the service account a rule's tokens act as (the wire type
// "service_account").
//
//mms:json type=service_account
type RuleTarget struct {
	// ServiceAccountID is the account. Required.
	ServiceAccountID string `json:"service_account_id"`
	// ServiceAccountName is read-only (ignored on writes).
	ServiceAccountName string `json:"service_account_name,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// FederationRule is a rule's record (the wire type "federation_rule").
//
//mms:json type=federation_rule
type FederationRule struct {
	// ID identifies the rule ("fdrl_…").
	ID string `json:"id"`
	// Name is the rule's slug.
	Name string `json:"name"`
	// IssuerID and IssuerName name the issuer (immutable).
	IssuerID   string `json:"issuer_id"`
	IssuerName string `json:"issuer_name"`
	// Match is what tokens must satisfy.
	Match RuleMatch `json:"match"`
	// Target is the service account minted tokens act as.
	Target RuleTarget `json:"target"`
	// OAuthScope is the space-separated scopes minted tokens get.
	OAuthScope string `json:"oauth_scope"`
	// Description describes the rule.
	Description *string `json:"description"`
	// AppliesToAllWorkspaces enables it for every workspace.
	AppliesToAllWorkspaces bool `json:"applies_to_all_workspaces"`
	// WorkspaceIDs are the explicit enablements.
	WorkspaceIDs []string `json:"workspace_ids"`
	// TokenLifetimeSeconds caps minted tokens' lifetime.
	TokenLifetimeSeconds int `json:"token_lifetime_seconds"`
	// Attributes are the beta record's attributes: not yet supported, so
	// always null.
	Attributes map[string]json.RawMessage `json:"attributes,omitzero"`
	// WorkspaceID is the beta record's legacy single workspace.
	WorkspaceID *string `json:"workspace_id,omitzero"`
	// CreatedAt, UpdatedAt and ArchivedAt (nil while live) are its times.
	CreatedAt  time.Time  `json:"created_at"`
	UpdatedAt  time.Time  `json:"updated_at"`
	ArchivedAt *time.Time `json:"archived_at"`
	// The actors that created, updated and archived it.
	CreatedByActorID  *string `json:"created_by_actor_id"`
	UpdatedByActorID  *string `json:"updated_by_actor_id"`
	ArchivedByActorID *string `json:"archived_by_actor_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// FederationRuleCreateParams are the parameters of
// [FederationRulesService.Create].
//
//mms:json
type FederationRuleCreateParams struct {
	// Name is a unique slug. Required.
	Name string `json:"name"`
	// IssuerID is the issuer. Required.
	IssuerID string `json:"issuer_id"`
	// Match is what tokens must satisfy. Required.
	Match RuleMatch `json:"match"`
	// Target is the service account. Required.
	Target RuleTarget `json:"target"`
	// OAuthScope is the scopes minted tokens get. Required.
	OAuthScope string `json:"oauth_scope"`
	// Description describes the rule.
	Description string `json:"description,omitzero"`
	// WorkspaceID enables the rule for one workspace; required unless
	// AppliesToAllWorkspaces.
	WorkspaceID string `json:"workspace_id,omitzero"`
	// AppliesToAllWorkspaces enables it everywhere, future workspaces too.
	AppliesToAllWorkspaces bool `json:"applies_to_all_workspaces,omitzero"`
	// TokenLifetimeSeconds is 60–86,400 (default 3600).
	TokenLifetimeSeconds int `json:"token_lifetime_seconds,omitzero"`
}

func validateLifetime(n int) error {
	if n != 0 && (n < 60 || n > 86400) {
		return invalid("token_lifetime_seconds", "must be between 60 and 86400, got %d", n)
	}
	return nil
}

// Validate reports a name that is not a slug, a missing issuer, target or
// scope, a match that pins nothing, a missing workspace without
// AppliesToAllWorkspaces, or a token lifetime outside 60–86,400.
func (p FederationRuleCreateParams) Validate() error {
	if err := validateSlug("name", p.Name); err != nil {
		return err
	}
	if err := required("issuer_id", p.IssuerID); err != nil {
		return err
	}
	if err := p.Match.validate(); err != nil {
		return err
	}
	if err := required("target.service_account_id", p.Target.ServiceAccountID); err != nil {
		return err
	}
	if err := required("oauth_scope", strings.TrimSpace(p.OAuthScope)); err != nil {
		return err
	}
	if p.WorkspaceID == "" && !p.AppliesToAllWorkspaces {
		return invalid("workspace_id", "is required unless applies_to_all_workspaces is true")
	}
	return validateLifetime(p.TokenLifetimeSeconds)
}

// FederationRuleUpdateParams are the parameters of
// [FederationRulesService.Update]; nil and zero fields are unchanged.
//
//mms:json
type FederationRuleUpdateParams struct {
	// Name renames the rule (a slug).
	Name string `json:"name,omitzero"`
	// Match and Target replace the rule's whole.
	Match  *RuleMatch  `json:"match,omitzero"`
	Target *RuleTarget `json:"target,omitzero"`
	// OAuthScope replaces the scopes.
	OAuthScope string `json:"oauth_scope,omitzero"`
	// Description sets the description.
	Description *string `json:"description,omitzero"`
	// WorkspaceID replaces the single enablement.
	WorkspaceID string `json:"workspace_id,omitzero"`
	// AppliesToAllWorkspaces switches the all-workspaces mode.
	AppliesToAllWorkspaces *bool `json:"applies_to_all_workspaces,omitzero"`
	// TokenLifetimeSeconds is 60–86,400.
	TokenLifetimeSeconds int `json:"token_lifetime_seconds,omitzero"`
}

// Validate reports the rules of create for the fields set.
func (p FederationRuleUpdateParams) Validate() error {
	if p.Name != "" {
		if err := validateSlug("name", p.Name); err != nil {
			return err
		}
	}
	if p.Match != nil {
		if err := p.Match.validate(); err != nil {
			return err
		}
	}
	if p.Target != nil {
		if err := required("target.service_account_id", p.Target.ServiceAccountID); err != nil {
			return err
		}
	}
	return validateLifetime(p.TokenLifetimeSeconds)
}

// FederationRuleListParams are the parameters of
// [FederationRulesService.List] (cursor scheme).
type FederationRuleListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// IncludeArchived lists archived rules too.
	IncludeArchived bool
	// IssuerID lists only the issuer's rules.
	IssuerID string
}

// Validate reports Limit outside 1–1000.
func (p FederationRuleListParams) Validate() error { return validateLimit(p.Limit, 1000) }

func (p FederationRuleListParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	setBool(a.query, "include_archived", p.IncludeArchived)
	setString(a.query, "issuer_id", p.IssuerID)
	return a
}

func (s *FederationRulesService) all() endpoint[FederationRule] {
	return ep[FederationRule](s.c, adminbridge.OAuth, "/federation_rules")
}

func (s *FederationRulesService) at(id string) endpoint[FederationRule] {
	return s.all().id("federation_rule_id", id)
}

// Create creates a rule. Creating: after an unknown outcome the error
// matches mms.ErrMaybeApplied.
func (s *FederationRulesService) Create(ctx context.Context, p FederationRuleCreateParams, opts ...option.RequestOption) (*FederationRule, error) {
	return s.all().post(ctx, p, opts)
}

// Get retrieves a rule.
func (s *FederationRulesService) Get(ctx context.Context, ruleID string, opts ...option.RequestOption) (*FederationRule, error) {
	return s.at(ruleID).get(ctx, opts)
}

// Update changes a rule; archived rules cannot change.
func (s *FederationRulesService) Update(ctx context.Context, ruleID string, p FederationRuleUpdateParams, opts ...option.RequestOption) (*FederationRule, error) {
	return s.at(ruleID).update(ctx, p, opts)
}

// List iterates over the rules (cursor scheme).
func (s *FederationRulesService) List(ctx context.Context, p FederationRuleListParams, opts ...option.RequestOption) iter.Seq2[FederationRule, error] {
	return s.all().list(ctx, adminbridge.Cursor, p, opts)
}

// Archive archives a rule: exchange stops at once; idempotent.
func (s *FederationRulesService) Archive(ctx context.Context, ruleID string, opts ...option.RequestOption) (*FederationRule, error) {
	return s.at(ruleID).archive(ctx, opts)
}

// FederationRuleWorkspacesService lists, enables and disables the
// workspaces of a rule (…/federation_rules/{id}/workspaces).
type FederationRuleWorkspacesService struct{ c *Client }

// RuleWorkspace is a rule's enablement for a workspace (the wire type
// "federation_rule_workspace").
//
//mms:json type=federation_rule_workspace
type RuleWorkspace struct {
	// FederationRuleID and WorkspaceID name the enablement.
	FederationRuleID string `json:"federation_rule_id"`
	WorkspaceID      string `json:"workspace_id"`
	// WorkspaceName is nil in Add's answer.
	WorkspaceName *string `json:"workspace_name"`
	// CreatedAt and CreatedByActorID record it.
	CreatedAt        time.Time `json:"created_at"`
	CreatedByActorID *string   `json:"created_by_actor_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// RuleWorkspaceDeleted is the answer to
// [FederationRuleWorkspacesService.Delete].
//
//mms:json type=federation_rule_workspace_deleted
type RuleWorkspaceDeleted struct {
	// FederationRuleID and WorkspaceID name the removed enablement.
	FederationRuleID string `json:"federation_rule_id"`
	WorkspaceID      string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// RuleWorkspaceAddParams are the parameters of
// [FederationRuleWorkspacesService.Add].
//
//mms:json
type RuleWorkspaceAddParams struct {
	// WorkspaceID is the workspace to enable. Required.
	WorkspaceID string `json:"workspace_id"`
}

// Validate reports a missing workspace id.
func (p RuleWorkspaceAddParams) Validate() error { return required("workspace_id", p.WorkspaceID) }

func (s *FederationRuleWorkspacesService) all(ruleID string) endpoint[RuleWorkspace] {
	return ep[RuleWorkspace](s.c, adminbridge.OAuth, "/federation_rules").id("federation_rule_id", ruleID).sub("/workspaces")
}

// List iterates over a rule's explicit enablements (all in one page).
func (s *FederationRuleWorkspacesService) List(ctx context.Context, ruleID string, p CursorListParams, opts ...option.RequestOption) iter.Seq2[RuleWorkspace, error] {
	return s.all(ruleID).list(ctx, adminbridge.Cursor, p, opts)
}

// Add enables the rule for a workspace; idempotent.
func (s *FederationRuleWorkspacesService) Add(ctx context.Context, ruleID string, p RuleWorkspaceAddParams, opts ...option.RequestOption) (*RuleWorkspace, error) {
	return s.all(ruleID).update(ctx, p, opts)
}

// Delete disables the rule for a workspace; idempotent.
func (s *FederationRuleWorkspacesService) Delete(ctx context.Context, ruleID, workspaceID string, opts ...option.RequestOption) (*RuleWorkspaceDeleted, error) {
	return as[RuleWorkspaceDeleted](s.all(ruleID).id("workspace_id", workspaceID)).delete(ctx, opts)
}
