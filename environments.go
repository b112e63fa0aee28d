package mms

import (
	"context"
	"encoding/json"
	"iter"
	"net/url"
	"strconv"
	"time"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// EnvironmentsService creates, retrieves, updates, lists, archives and
// deletes environments (/v1/environments), the containers sessions run
// in; Work is the work queue of a self-hosted environment. Reach it as
// client.Environments. Every call sends the managed-agents-2026-04-01 beta
// ([BetaManagedAgents]), merged with the caller's betas, and takes
// option.WithWorkspaceID for a per-request workspace.
type EnvironmentsService struct {
	client *Client
	// Work polls and manages the work items of a self-hosted environment.
	Work *EnvironmentWorkService
}

// EnvironmentScope says who sees an environment. Unknown values pass
// through.
type EnvironmentScope string

// The scopes.
const (
	// EnvironmentScopeOrganization: the whole organization.
	EnvironmentScopeOrganization EnvironmentScope = "organization"
	// EnvironmentScopeAccount: the owning account only.
	EnvironmentScopeAccount EnvironmentScope = "account"
)

// Environment is an environment's record (the wire type "environment").
// Members this SDK version does not model are kept in Extra, so
// json.Marshal writes a reply back without loss.
//
//mms:json type=environment
type Environment struct {
	// ID identifies the environment ("env_…").
	ID string `json:"id"`
	// Name is the environment's name.
	Name string `json:"name"`
	// Description is nil when null.
	Description *string `json:"description"`
	// Config is [CloudEnvironmentConfig], [SelfHostedEnvironmentConfig] or
	// [UnknownEnvironmentConfig].
	Config EnvironmentConfig `json:"config"`
	// Metadata is the caller's key-value pairs.
	Metadata map[string]string `json:"metadata"`
	// Scope is the visibility; "" when the service did not send it.
	Scope EnvironmentScope `json:"scope,omitzero"`
	// CreatedAt and UpdatedAt are RFC 3339 strings as the service sent
	// them (see [Environment.Created]).
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// ArchivedAt is when the environment was archived; nil while it is
	// not.
	ArchivedAt *string `json:"archived_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Created parses CreatedAt.
func (e Environment) Created() (time.Time, error) { return time.Parse(time.RFC3339Nano, e.CreatedAt) }

// EnvironmentDeleted is the answer of [EnvironmentsService.Delete] (the
// wire type "environment_deleted").
//
//mms:json type=environment_deleted
type EnvironmentDeleted struct {
	// ID is the deleted environment's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// An EnvironmentConfig is what an environment runs on:
// [CloudEnvironmentConfig] (a container the service runs),
// [SelfHostedEnvironmentConfig] (workers of the caller's, fed by the work
// queue) or [UnknownEnvironmentConfig]. Records and params share these
// types; in an update, the sub-fields a cloud config leaves out keep their
// values.
type EnvironmentConfig interface {
	json.Marshaler
	isEnvironmentConfig()
	validate(path string) error
}

var environmentConfigUnion = codec.NewUnion[EnvironmentConfig]("EnvironmentConfig", UnknownEnvironmentConfig{}).
	Add("cloud", CloudEnvironmentConfig{}).
	Add("self_hosted", SelfHostedEnvironmentConfig{})

// CloudEnvironmentConfig is a container run by the service (the wire type
// "cloud").
type CloudEnvironmentConfig struct {
	// Networking is [UnrestrictedNetworking], [LimitedNetworking] or
	// [UnknownEnvironmentNetworking]; nil in params leaves it out (the
	// service's default on create, the current value on update).
	Networking EnvironmentNetworking `json:"networking,omitzero"`
	// Packages are installed in the container; nil in params leaves them
	// out.
	Packages *EnvironmentPackages `json:"packages,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SelfHostedEnvironmentConfig is an environment whose sessions run on the
// caller's workers, which take them from the work queue (the wire type
// "self_hosted"; see [EnvironmentWorkService]).
type SelfHostedEnvironmentConfig struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownEnvironmentConfig keeps a config type this SDK version cannot
// name; it is sent back as it came.
type UnknownEnvironmentConfig struct {
	Type string
	Raw  json.RawMessage
}

func (c CloudEnvironmentConfig) validate(path string) error {
	switch n := c.Networking.(type) {
	case LimitedNetworking:
		if err := validateFilled(path+".networking.allowed_hosts", n.AllowedHosts); err != nil {
			return err
		}
	}
	if c.Packages == nil {
		return nil
	}
	for _, l := range c.Packages.lists() {
		if err := validateFilled(path+".packages."+l.name, l.pkgs); err != nil {
			return err
		}
	}
	return nil
}

// An EnvironmentNetworking is a cloud container's network access:
// [UnrestrictedNetworking], [LimitedNetworking] or
// [UnknownEnvironmentNetworking].
type EnvironmentNetworking interface {
	json.Marshaler
	isEnvironmentNetworking()
}

var environmentNetworkingUnion = codec.NewUnion[EnvironmentNetworking]("EnvironmentNetworking", UnknownEnvironmentNetworking{}).
	Add("unrestricted", UnrestrictedNetworking{}).
	Add("limited", LimitedNetworking{})

// UnrestrictedNetworking allows every outbound connection (the wire type
// "unrestricted").
type UnrestrictedNetworking struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// LimitedNetworking allows connections to the listed hosts only (the wire
// type "limited").
type LimitedNetworking struct {
	// AllowedHosts are the hosts the container may reach; each must be a
	// non-empty string.
	AllowedHosts []string `json:"allowed_hosts,omitzero"`
	// AllowMCPServers also allows the agent's MCP servers; nil leaves the
	// default (false).
	AllowMCPServers *bool `json:"allow_mcp_servers,omitzero"`
	// AllowPackageManagers also allows the package registries; nil leaves
	// the default (false).
	AllowPackageManagers *bool `json:"allow_package_managers,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownEnvironmentNetworking keeps a networking type this SDK version
// cannot name.
type UnknownEnvironmentNetworking struct {
	Type string
	Raw  json.RawMessage
}

// EnvironmentPackages are the packages a cloud container installs, per
// package manager, each pinned in the manager's own syntax if wanted
// (e.g. "pkg==1.0.0" for pip). In params a nil list is left out (kept on
// update) and an empty, non-nil list is sent as [] (no packages).
//
//mms:json
type EnvironmentPackages struct {
	// Type is "packages" when the service sends it; params may leave it
	// empty (the member is optional).
	Type  string   `json:"type,omitzero"`
	Apt   []string `json:"apt,omitzero"`
	Cargo []string `json:"cargo,omitzero"`
	Gem   []string `json:"gem,omitzero"`
	Go    []string `json:"go,omitzero"`
	Npm   []string `json:"npm,omitzero"`
	Pip   []string `json:"pip,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

type packageList struct {
	name string
	pkgs []string
}

func (p EnvironmentPackages) lists() []packageList {
	return []packageList{{"apt", p.Apt}, {"cargo", p.Cargo}, {"gem", p.Gem}, {"go", p.Go}, {"npm", p.Npm}, {"pip", p.Pip}}
}

// EnvironmentCreateParams are the parameters of
// [EnvironmentsService.Create].
//
//mms:json
type EnvironmentCreateParams struct {
	// Name is the environment's name, 1 to 256 characters. Required.
	Name string `json:"name"`
	// Description says what the environment is for, at most 1,024
	// characters; "" sends none.
	Description string `json:"description,omitzero"`
	// Config is the environment's kind; nil leaves the service's default
	// (a cloud container).
	Config EnvironmentConfig `json:"config,omitzero"`
	// Scope is the visibility, meaningful for self-hosted environments;
	// "" leaves the organization's default.
	Scope EnvironmentScope `json:"scope,omitzero"`
	// Metadata is at most 16 pairs, keys of at most 64 characters, values
	// of at most 512.
	Metadata map[string]string `json:"metadata,omitzero"`
}

// EnvironmentUpdateParams are the parameters of
// [EnvironmentsService.Update]. A zero field keeps the environment's
// value.
//
//mms:json
type EnvironmentUpdateParams struct {
	// Name replaces the name, at most 256 characters (the spec lets an
	// update send null, which keeps it, so "" here does the same).
	Name string `json:"name,omitzero"`
	// Description replaces ([Set], at most 1,024 characters) or clears
	// ([Clear]) the description.
	Description Update[string] `json:"description,omitzero"`
	// Config changes the config: a [CloudEnvironmentConfig] keeps the
	// sub-fields it leaves out (send only Networking, or only
	// Packages.Pip); [Clear] sends null, which the service takes as the
	// default config.
	Config Update[EnvironmentConfig] `json:"config,omitzero"`
	// Scope replaces the scope; [Clear] sends null (the organization's
	// default).
	Scope Update[EnvironmentScope] `json:"scope,omitzero"`
	// Metadata upserts and deletes keys (a nil value, or "" as the
	// service also accepts, deletes); others are kept.
	Metadata MetadataPatch `json:"metadata,omitzero"`
}

// Validate reports the first rule the params break: a missing name or one
// over 256 characters, a description over 1,024 characters, a cloud config
// with an empty allowed host or package name, or metadata past 16 pairs,
// 64-character keys or 512-character values.
func (p EnvironmentCreateParams) Validate() error {
	if p.Name == "" {
		return invalid("name", "is required")
	}
	if err := validateLength("name", p.Name, 1, wire.MaxEnvironmentNameLen); err != nil {
		return err
	}
	if err := validateLength("description", p.Description, 0, wire.MaxEnvironmentDescriptionLen); err != nil {
		return err
	}
	if p.Config != nil {
		if err := p.Config.validate("config"); err != nil {
			return err
		}
	}
	return validateMetadata("metadata", p.Metadata)
}

// Validate reports the first rule the params break, as
// [EnvironmentCreateParams.Validate] does for the fields sent.
func (p EnvironmentUpdateParams) Validate() error {
	if err := validateLength("name", p.Name, 0, wire.MaxEnvironmentNameLen); err != nil {
		return err
	}
	if v, ok := p.Description.Value(); ok {
		if err := validateLength("description", v, 0, wire.MaxEnvironmentDescriptionLen); err != nil {
			return err
		}
	}
	if c, ok := p.Config.Value(); ok {
		if c == nil {
			return invalid("config", "must not be nil when set; use Clear to reset it")
		}
		if err := c.validate("config"); err != nil {
			return err
		}
	}
	return p.Metadata.validate("metadata")
}

// Create creates an environment (POST /v1/environments). The params are
// checked first; a *ValidationError means nothing was sent.
func (s *EnvironmentsService) Create(ctx context.Context, p EnvironmentCreateParams, opts ...option.RequestOption) (*Environment, error) {
	return s.all().post(ctx, p, opts)
}

// Get retrieves an environment (GET /v1/environments/{environment_id}).
func (s *EnvironmentsService) Get(ctx context.Context, environmentID string, opts ...option.RequestOption) (*Environment, error) {
	return s.at(environmentID).get(ctx, opts)
}

// Update changes an environment (POST /v1/environments/{environment_id}).
func (s *EnvironmentsService) Update(ctx context.Context, environmentID string, p EnvironmentUpdateParams, opts ...option.RequestOption) (*Environment, error) {
	return s.at(environmentID).update(ctx, p, opts)
}

// Archive archives an environment (POST
// /v1/environments/{environment_id}/archive): it is kept, with ArchivedAt
// set, and listed only with IncludeArchived.
func (s *EnvironmentsService) Archive(ctx context.Context, environmentID string, opts ...option.RequestOption) (*Environment, error) {
	return s.at(environmentID).action(ctx, "/archive", nil, opts)
}

// Delete deletes an environment (DELETE
// /v1/environments/{environment_id}). The service answers
// {id, type: "environment_deleted"} or, as its docs say, 204 with no body;
// both give an [EnvironmentDeleted] naming environmentID.
func (s *EnvironmentsService) Delete(ctx context.Context, environmentID string, opts ...option.RequestOption) (*EnvironmentDeleted, error) {
	e := as[EnvironmentDeleted](s.at(environmentID))
	e.emptyOK = true
	d, err := e.delete(ctx, opts)
	if err == nil && d.ID == "" {
		d.ID = environmentID // a 204 names no environment
	}
	return d, err
}

// EnvironmentListParams are the parameters of [EnvironmentsService.List]
// and [EnvironmentsService.ListPage].
type EnvironmentListParams struct {
	// Limit is the page size, 1–1,000 (the schema's bound: the spec
	// names none for this list); 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
	// IncludeArchived lists archived environments too.
	IncludeArchived bool
}

// Validate reports the first rule the params break: Limit outside 1–1,000
// when set.
func (p EnvironmentListParams) Validate() error {
	return validateLimit(p.Limit, wire.MaxEnvironmentListLimit)
}

func (p EnvironmentListParams) listArgs() listArgs {
	return archivedListArgs(p.Limit, p.Page, p.IncludeArchived)
}

// List iterates over the environments, fetching pages as it goes (GET
// /v1/environments, cursor scheme). Nothing is sent before the loop
// starts; an error is yielded once, last.
func (s *EnvironmentsService) List(ctx context.Context, p EnvironmentListParams, opts ...option.RequestOption) iter.Seq2[Environment, error] {
	return s.all().list(ctx, p, opts)
}

// ListPage fetches one page of environments (GET /v1/environments).
// Continue with Page set to the page's *NextPage while it is not nil.
func (s *EnvironmentsService) ListPage(ctx context.Context, p EnvironmentListParams, opts ...option.RequestOption) (*Page[Environment], error) {
	return s.all().listPage(ctx, p, opts)
}

// queryInt sets key to n in q, making q when needed.
func queryInt(q url.Values, key string, n int) url.Values {
	if q == nil {
		q = url.Values{}
	}
	q.Set(key, strconv.Itoa(n))
	return q
}

// all is the environments' endpoint (/v1/environments).
func (s *EnvironmentsService) all() endpoint[Environment] {
	return managedEndpoint[Environment](s.client, "/v1/environments")
}

// at is one environment's endpoint (/v1/environments/{environment_id}).
func (s *EnvironmentsService) at(environmentID string) endpoint[Environment] {
	return s.all().id("environment_id", environmentID)
}
