package mms

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/url"
	"reflect"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// agentMCPServerSpec gives AgentMCPServer's "type" its own codec.
var agentMCPServerSpec = codec.Spec{Fields: map[string]codec.FieldCodec{"type": mcpServerType}}

// AgentsService creates, retrieves, updates, lists and archives agents
// (/v1/agents); Versions lists an agent's versions. Reach it as
// client.Agents. Every call sends the managed-agents-2026-04-01 beta
// ([BetaManagedAgents]), merged with the caller's betas.
type AgentsService struct {
	client *Client
	// Versions lists the versions of an agent.
	Versions *AgentVersionsService
}

// Agent is an agent's record, one version of it (the wire type "agent").
// Members this SDK version does not model are kept in Extra, so
// json.Marshal writes a reply back without loss.
//
//mms:json type=agent
type Agent struct {
	// ID identifies the agent ("agent_…"); every version shares it.
	ID string `json:"id"`
	// Name is the agent's name.
	Name string `json:"name"`
	// Description says what the agent does; nil when null.
	Description *string `json:"description"`
	// System is the agent's system prompt; nil when null.
	System *string `json:"system"`
	// Model is the model the agent runs on, with its settings.
	Model ModelConfig `json:"model"`
	// Tools are the agent's toolsets and custom tools.
	Tools []AgentTool `json:"tools"`
	// MCPServers are the MCP servers its MCP toolsets use.
	MCPServers []AgentMCPServer `json:"mcp_servers"`
	// Skills are the skills the agent may use.
	Skills []AgentSkill `json:"skills"`
	// Multiagent is the coordinator roster or the multiagent_20261001
	// config; nil when null.
	Multiagent *AgentMultiagent `json:"multiagent"`
	// ExecutionIdentity is the identity the agent runs as; nil when
	// absent or null.
	ExecutionIdentity *ExecutionIdentity `json:"execution_identity"`
	// Metadata is the caller's key-value pairs.
	Metadata map[string]string `json:"metadata"`
	// Version starts at 1 and grows by one with every change.
	Version int `json:"version"`
	// CreatedAt and UpdatedAt are RFC 3339 strings as the service sent
	// them (see [Agent.Created]).
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// ArchivedAt is when the agent was archived; nil while it is not.
	ArchivedAt *string `json:"archived_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Created parses CreatedAt.
func (a Agent) Created() (time.Time, error) { return time.Parse(time.RFC3339Nano, a.CreatedAt) }

// ModelSpeed is the model's output speed mode. Unknown values pass through.
type ModelSpeed string

// The speed modes.
const (
	ModelSpeedStandard ModelSpeed = "standard"
	ModelSpeedFast     ModelSpeed = "fast"
)

// ModelConfig is an agent's model as records carry it.
//
//mms:json
type ModelConfig struct {
	// ID is the model id.
	ID string `json:"id"`
	// Effort is the effort setting; nil when the model's default applies.
	Effort *ModelEffort `json:"effort,omitzero"`
	// Speed is the speed mode; "" when not sent.
	Speed ModelSpeed `json:"speed,omitzero"`
	// InferenceGeo is where inference runs; "" when not sent.
	InferenceGeo string `json:"inference_geo,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ModelEffort is the effort object of a [ModelConfig].
//
//mms:json
type ModelEffort struct {
	// Type is the effort level.
	Type Effort `json:"type"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Params returns the config as params, for sending it back in an update.
func (m ModelConfig) Params() ModelConfigParams {
	p := ModelConfigParams{ID: m.ID, Speed: m.Speed, InferenceGeo: m.InferenceGeo}
	if m.Effort != nil {
		p.Effort = m.Effort.Type
	}
	return p
}

// ModelConfigParams is the model of a create or update request. With only
// ID set it is sent as the bare id string; otherwise as an object, the
// effort as its bare level (the service accepts {type: level} too, and
// both decode here).
//
//mms:json spec=modelConfigParamsSpec()
type ModelConfigParams struct {
	// ID is the model id. Required.
	ID string `json:"id"`
	// Effort is the effort level; "" leaves the model's default.
	Effort Effort `json:"effort,omitzero"`
	// Speed is the speed mode; "" leaves the default.
	Speed ModelSpeed `json:"speed,omitzero"`
	// InferenceGeo is where inference runs; "" leaves the default.
	InferenceGeo string `json:"inference_geo,omitzero"`
}

// Validate reports a missing model id, named "model.id" as the agent
// params name it.
func (p ModelConfigParams) Validate() error {
	if p.ID == "" {
		return invalid("model.id", "is required")
	}
	return nil
}

// AgentModel returns the [ModelConfigParams] of an agent or session naming
// the model id alone, sent as the bare id string. (The Models API's record
// of a model is [ModelInfo].)
func AgentModel(id string) ModelConfigParams { return ModelConfigParams{ID: id} }

// Model returns [ModelConfigParams] naming the model id alone.
//
// Deprecated: use AgentModel; the name Model reads as the Models API's
// record, which is [ModelInfo].
func Model(id string) ModelConfigParams { return AgentModel(id) }

// modelConfigParamsSpec sends the model as a bare id when only ID is set,
// and reads an effort given as a bare level or as {"type": level}.
func modelConfigParamsSpec() codec.Spec {
	spec := stringOrObject("ID", func(m ModelConfigParams) bool {
		return m.Effort == "" && m.Speed == "" && m.InferenceGeo == ""
	})
	spec.Fields = map[string]codec.FieldCodec{"effort": {
		Encode: func(e *codec.Encoder, parent reflect.Value) error {
			e.String(parent.FieldByName("Effort").String())
			return nil
		},
		Decode: func(value []byte, parent reflect.Value) error {
			if codec.IsObject(value) {
				value = codec.Member(value, "type")
			}
			level, err := codec.Unquote(codec.TrimSpace(value))
			parent.FieldByName("Effort").SetString(level)
			return err
		},
	}}
	return spec
}

// AgentMCPServer is an MCP server an agent reaches over HTTP.
//
//mms:json spec=agentMCPServerSpec
type AgentMCPServer struct {
	// Type is the server's kind: "url", the only one the service
	// documents, which an empty Type sends. A record's other kinds are
	// kept here, so they go back as they came.
	Type string `json:"type"`
	// Name identifies the server among the agent's; an mcp_toolset names
	// it. Required, unique.
	Name string `json:"name"`
	// URL is the server's endpoint, at most 2,048 characters. Required.
	URL string `json:"url,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// mcpServerType writes an empty AgentMCPServer.Type as "url".
var mcpServerType = codec.FieldCodec{
	Encode: func(e *codec.Encoder, parent reflect.Value) error {
		t := cmp.Or(parent.FieldByName("Type").String(), "url")
		e.String(t)
		return nil
	},
	Decode: func(value []byte, parent reflect.Value) error {
		t, err := codec.Unquote(codec.TrimSpace(value))
		parent.FieldByName("Type").SetString(t)
		return err
	},
	Omit: func(*codec.Encoder, reflect.Value) bool { return false },
}

// AgentSkill is a skill an agent may use.
//
//mms:json
type AgentSkill struct {
	// Type is custom (a skill created with [SkillsService.Create]) or
	// vendor (built in).
	Type SkillSource `json:"type"`
	// SkillID identifies the skill, 1 to 64 characters. Required.
	SkillID string `json:"skill_id"`
	// Version pins a version; nil in params means the latest. When set
	// in params it must not be empty.
	Version *string `json:"version,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AgentMultiagent makes an agent work with others. Its Type is
// [MultiagentCoordinator] (what an empty Type sends), a roster in Agents,
// or [Multiagent20261001], with Advisor, Subagents and Workflows (each
// optional in params; records carry all three).
//
//mms:json spec=agentMultiagentSpec
type AgentMultiagent struct {
	// Type is the kind; "" sends coordinator.
	Type MultiagentType `json:"type"`
	// Agents is the coordinator's roster; nil for multiagent_20261001.
	Agents []RosterEntry `json:"agents,omitzero"`
	// Advisor, Subagents and Workflows are the multiagent_20261001
	// members; nil leaves the service's defaults (advisor disabled,
	// subagents and workflows enabled).
	Advisor   *MultiagentAdvisor `json:"advisor,omitzero"`
	Subagents *MultiagentSpawn   `json:"subagents,omitzero"`
	Workflows *MultiagentSpawn   `json:"workflows,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A RosterEntry is one member of a coordinator's roster: [RosterAgentID]
// (params only: an agent id, its latest version), [RosterAgent],
// [RosterSelf], [RosterAdvisor] or [UnknownRosterEntry].
type RosterEntry interface {
	json.Marshaler
	isRosterEntry()
}

var rosterEntryUnion = codec.NewUnion[RosterEntry]("RosterEntry", UnknownRosterEntry{}).
	Add("agent", RosterAgent{}).
	Add("self", RosterSelf{}).
	Add("advisor", RosterAdvisor{}).
	BareString(func(s string) RosterEntry { return RosterAgentID(s) })

// RosterAgentID names an agent of the roster by id alone (its latest
// version), 1 to 128 characters; it is sent as a bare string.
type RosterAgentID string

// RosterAgent is an agent of the roster (the wire type "agent").
type RosterAgent struct {
	// ID is the agent's id, at most 128 characters. Required.
	ID string `json:"id"`
	// Version pins the agent's version; nil means the latest (records
	// always carry it).
	Version *int `json:"version,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// RosterSelf is the coordinator itself (the wire type "self").
type RosterSelf struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// RosterAdvisor is an advisor model of the roster (the wire type
// "advisor").
type RosterAdvisor struct {
	// Model is the advisor's model id. Required.
	Model string `json:"model"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownRosterEntry keeps a roster entry this SDK version cannot name.
type UnknownRosterEntry struct {
	Type string
	Raw  json.RawMessage
}

func (RosterAgentID) isRosterEntry() {}

// MarshalJSON writes the id as a JSON string.
func (id RosterAgentID) MarshalJSON() ([]byte, error) { return json.Marshal(string(id)) }

// AgentCreateParams are the parameters of [AgentsService.Create].
//
//mms:json
type AgentCreateParams struct {
	// Name is the agent's name, 1 to 256 characters. Required.
	Name string `json:"name"`
	// Model is the model, e.g. mms.AgentModel("model-id"). Required.
	Model ModelConfigParams `json:"model"`
	// Description says what the agent does, at most 2,048 characters.
	Description string `json:"description,omitzero"`
	// System is the system prompt; at most 100,000 characters.
	System string `json:"system,omitzero"`
	// Tools are the toolsets and custom tools, at most 256.
	Tools []AgentTool `json:"tools,omitzero"`
	// MCPServers are at most 20 servers with unique names, each named by
	// an mcp_toolset of Tools.
	MCPServers []AgentMCPServer `json:"mcp_servers,omitzero"`
	// Skills are the skills the agent may use (skill ids of 1 to 64
	// characters, versions not empty).
	Skills []AgentSkill `json:"skills,omitzero"`
	// Multiagent makes the agent a coordinator (agent ids of at most 128
	// characters); nil sends none.
	Multiagent *AgentMultiagent `json:"multiagent,omitzero"`
	// ExecutionIdentity is the identity the agent runs as; nil (or
	// service_account) is the default.
	ExecutionIdentity *ExecutionIdentity `json:"execution_identity,omitzero"`
	// Metadata is at most 16 pairs, keys of at most 64 characters, values
	// of at most 512.
	Metadata map[string]string `json:"metadata,omitzero"`
}

// AgentUpdateParams are the parameters of [AgentsService.Update]. Version
// is required; any other zero field keeps the agent's value. The [Update] fields tell keep (zero), set
// ([Set]) and clear ([Clear]) apart; lists are replaced whole.
//
//mms:json
type AgentUpdateParams struct {
	// Version is the agent's current version (Agent.Version), 1 or more.
	// Required: the service applies the update only to that version, so
	// an agent changed since it was read is not overwritten.
	Version int `json:"version"`
	// Name replaces the name (at most 256 characters); it cannot be
	// cleared.
	Name string `json:"name,omitzero"`
	// Description and System replace or clear the description (at most
	// 2,048 characters) and the system prompt (at most 100,000).
	Description Update[string] `json:"description,omitzero"`
	System      Update[string] `json:"system,omitzero"`
	// Model replaces the model; it cannot be cleared.
	Model ModelConfigParams `json:"model,omitzero"`
	// Tools, MCPServers and Skills replace or clear their lists.
	Tools      Update[[]AgentTool]      `json:"tools,omitzero"`
	MCPServers Update[[]AgentMCPServer] `json:"mcp_servers,omitzero"`
	Skills     Update[[]AgentSkill]     `json:"skills,omitzero"`
	// Multiagent replaces or clears the roster.
	Multiagent Update[AgentMultiagent] `json:"multiagent,omitzero"`
	// ExecutionIdentity replaces the identity whole; Clear (null) restores
	// the default, as service_account does.
	ExecutionIdentity Update[ExecutionIdentity] `json:"execution_identity,omitzero"`
	// Metadata upserts and deletes keys; others are kept.
	Metadata MetadataPatch `json:"metadata,omitzero"`
}

// Limits of an agent's create and update bodies, shared with the fake
// (internal/wire/limits.go): the schema's lengths, counted in characters.
const (
	maxAgentSystemLen     = wire.MaxAgentSystemLen
	maxAgentMCPServers    = wire.MaxAgentMCPServers
	maxAgentMCPServerName = wire.MaxAgentMCPServerName
)

// Validate reports the first rule the params break: a name not of 1–256
// characters, a missing model, a description over 2,048 characters, a
// system prompt over 100,000, more than 256 tools, a bad custom tool (name
// 1–128 of [a-zA-Z0-9_-], description 1–1,024, an object input schema), an
// mcp_toolset config name not of 1–128 characters, more than 20 MCP
// servers, a server without URL, with a URL over 2,048 characters or with
// a name not of 1–255 characters, a name used twice or not named by an
// mcp_toolset, a toolset naming no server, a skill id not of 1–64
// characters or an empty skill version, a roster agent id not of 1–128
// characters, a multiagent member its kind does not have, a
// multiagent_20261001 switch without type, an enabled advisor without
// model, more than 20 predefined agents in subagents or workflows, an
// execution identity without type or an aws_role without role_arn, or
// metadata past 16 pairs, 64-character keys or 512-character values.
func (p AgentCreateParams) Validate() error {
	if err := validateLength("name", p.Name, 1, wire.MaxAgentNameLen); err != nil {
		return err
	}
	if p.Model.ID == "" {
		return invalid("model.id", "is required")
	}
	if err := validateLength("description", p.Description, 0, wire.MaxAgentDescriptionLen); err != nil {
		return err
	}
	if err := validateLength("system", p.System, 0, maxAgentSystemLen); err != nil {
		return err
	}
	if err := validateAgentTools(p.Tools, p.MCPServers); err != nil {
		return err
	}
	if err := validateSkills("skills", p.Skills); err != nil {
		return err
	}
	if err := validateRoster(p.Multiagent); err != nil {
		return err
	}
	if err := p.ExecutionIdentity.validate("execution_identity"); err != nil {
		return err
	}
	return validateMetadata("metadata", p.Metadata)
}

// Validate reports the first rule the params break, as
// [AgentCreateParams.Validate] does for the fields sent: a missing version,
// a name over 256 characters, a model without id, a description or system
// prompt too long, bad tools, servers, skills or roster, and, when the
// update sets both, tools and MCP servers that do not match. A server list
// sent alone is checked against nothing: the agent's toolsets are the
// service's to compare.
func (p AgentUpdateParams) Validate() error {
	if p.Version < 1 {
		return invalid("version", "is required: the agent's current version, 1 or more, got %d", p.Version)
	}
	if err := validateLength("name", p.Name, 0, wire.MaxAgentNameLen); err != nil {
		return err
	}
	if p.Model != (ModelConfigParams{}) && p.Model.ID == "" {
		return invalid("model.id", "is required when model is set")
	}
	if v, ok := p.Description.Value(); ok {
		if err := validateLength("description", v, 0, wire.MaxAgentDescriptionLen); err != nil {
			return err
		}
	}
	if v, ok := p.System.Value(); ok {
		if err := validateLength("system", v, 0, maxAgentSystemLen); err != nil {
			return err
		}
	}
	tools, setTools := p.Tools.Value()
	servers, setServers := p.MCPServers.Value()
	if err := validateToolList(tools); err != nil {
		return err
	}
	if err := validateMCPServers(servers); err != nil {
		return err
	}
	if setTools && setServers {
		if err := validateServerRefs(tools, servers); err != nil {
			return err
		}
	}
	if skills, ok := p.Skills.Value(); ok {
		if err := validateSkills("skills", skills); err != nil {
			return err
		}
	}
	if m, ok := p.Multiagent.Value(); ok {
		if err := validateRoster(&m); err != nil {
			return err
		}
	}
	if x, ok := p.ExecutionIdentity.Value(); ok {
		if err := x.validate("execution_identity"); err != nil {
			return err
		}
	}
	return p.Metadata.validate("metadata")
}

// validateAgentTools checks a tool list, a server list and how they
// refer to each other.
func validateAgentTools(tools []AgentTool, servers []AgentMCPServer) error {
	if err := validateToolList(tools); err != nil {
		return err
	}
	if err := validateMCPServers(servers); err != nil {
		return err
	}
	return validateServerRefs(tools, servers)
}

func validateToolList(tools []AgentTool) error {
	if err := validateCount("tools", len(tools), maxAgentTools, "tools"); err != nil {
		return err
	}
	return validateEach("tools", tools)
}

func validateMCPServers(servers []AgentMCPServer) error {
	if err := validateCount("mcp_servers", len(servers), maxAgentMCPServers, "servers"); err != nil {
		return err
	}
	seen := make(map[string]bool, len(servers))
	for i, s := range servers {
		path := fmt.Sprintf("mcp_servers[%d]", i)
		switch {
		case s.Name == "":
			return invalid(path+".name", "is required")
		case utf8.RuneCountInString(s.Name) > maxAgentMCPServerName:
			return validateLength(path+".name", s.Name, 1, maxAgentMCPServerName)
		case s.URL == "":
			return invalid(path+".url", "is required")
		case utf8.RuneCountInString(s.URL) > wire.MaxAgentMCPServerURLLen:
			return validateLength(path+".url", s.URL, 1, wire.MaxAgentMCPServerURLLen)
		case seen[s.Name]:
			return invalid(path+".name", "must be unique, %q is used twice", s.Name)
		}
		seen[s.Name] = true
	}
	return nil
}

// validateServerRefs checks that every server is named by an mcp_toolset
// and every mcp_toolset names a server.
func validateServerRefs(tools []AgentTool, servers []AgentMCPServer) error {
	used := map[string]bool{}
	for i, t := range tools {
		ts, ok := t.(AgentMCPToolset)
		if !ok {
			continue
		}
		if !hasServer(servers, ts.MCPServerName) {
			return invalid(fmt.Sprintf("tools[%d].mcp_server_name", i), "must name one of mcp_servers, got %q", ts.MCPServerName)
		}
		used[ts.MCPServerName] = true
	}
	for i, s := range servers {
		if !used[s.Name] {
			return invalid(fmt.Sprintf("mcp_servers[%d]", i), "must be referenced by an mcp_toolset in tools, %q is not", s.Name)
		}
	}
	return nil
}

func hasServer(servers []AgentMCPServer, name string) bool {
	for _, s := range servers {
		if s.Name == name {
			return true
		}
	}
	return false
}

// validateSkills checks each skill's id (1–64 characters) and, when set,
// its version (not empty).
func validateSkills(path string, skills []AgentSkill) error {
	for i, s := range skills {
		p := fmt.Sprintf("%s[%d]", path, i)
		if err := validateLength(p+".skill_id", s.SkillID, 1, wire.MaxSkillIDLen); err != nil {
			return err
		}
		if s.Version != nil && *s.Version == "" {
			return invalid(p+".version", "must not be empty when set (nil means the latest)")
		}
	}
	return nil
}

// validateRoster checks the roster's required ids (at most 128
// characters) and models.
func validateRoster(m *AgentMultiagent) error {
	if m == nil {
		return nil
	}
	if err := validateMultiagentForm(m); err != nil {
		return err
	}
	for i, e := range m.Agents {
		path := fmt.Sprintf("multiagent.agents[%d]", i)
		switch e := e.(type) {
		case nil:
			return invalid(path, "must not be nil")
		case RosterAgentID:
			if err := validateLength(path, string(e), 1, wire.MaxAgentIDLen); err != nil {
				return err
			}
		case RosterAgent:
			if e.ID == "" {
				return invalid(path+".id", "is required")
			}
			if err := validateLength(path+".id", e.ID, 1, wire.MaxAgentIDLen); err != nil {
				return err
			}
			if e.Version != nil && *e.Version < 1 {
				return invalid(path+".version", "must be at least 1, got %d", *e.Version)
			}
		case RosterAdvisor:
			if e.Model == "" {
				return invalid(path+".model", "is required")
			}
		}
	}
	return nil
}

// Create creates an agent, its version 1 (POST /v1/agents). The params are
// checked first (see [AgentCreateParams.Validate]); a *ValidationError
// means nothing was sent.
func (s *AgentsService) Create(ctx context.Context, p AgentCreateParams, opts ...option.RequestOption) (*Agent, error) {
	return s.all().post(ctx, p, opts)
}

// Get retrieves the latest version of an agent (GET /v1/agents/{agent_id}).
// [AgentsService.GetVersion] retrieves an older one.
func (s *AgentsService) Get(ctx context.Context, agentID string, opts ...option.RequestOption) (*Agent, error) {
	return s.GetVersion(ctx, agentID, AgentGetParams{}, opts...)
}

// AgentGetParams are the parameters of [AgentsService.GetVersion].
type AgentGetParams struct {
	// Version is the version to retrieve (1 or more); 0 retrieves the
	// latest.
	Version int
}

// Validate reports a Version below 0.
func (p AgentGetParams) Validate() error {
	if p.Version < 0 {
		return invalid("version", "must be at least 1, or 0 for the latest, got %d", p.Version)
	}
	return nil
}

// GetVersion retrieves one version of an agent (GET
// /v1/agents/{agent_id}?version=n).
func (s *AgentsService) GetVersion(ctx context.Context, agentID string, p AgentGetParams, opts ...option.RequestOption) (*Agent, error) {
	e := s.at(agentID).checked(p)
	if p.Version > 0 {
		e.query = url.Values{"version": {strconv.Itoa(p.Version)}}
	}
	return e.get(ctx, opts)
}

// Update changes an agent, making a new version (POST
// /v1/agents/{agent_id}). p.Version, required, makes the update
// conditional: the service refuses it (an *Error, status 409 from the
// fake) when the agent has moved past that version.
func (s *AgentsService) Update(ctx context.Context, agentID string, p AgentUpdateParams, opts ...option.RequestOption) (*Agent, error) {
	return s.at(agentID).update(ctx, p, opts)
}

// Archive archives an agent (POST /v1/agents/{agent_id}/archive): it is
// kept, with ArchivedAt set, and listed only with IncludeArchived. There
// is no delete for agents.
func (s *AgentsService) Archive(ctx context.Context, agentID string, opts ...option.RequestOption) (*Agent, error) {
	return s.at(agentID).action(ctx, "/archive", nil, opts)
}

// AgentListParams are the parameters of [AgentsService.List] and
// [AgentsService.ListPage].
type AgentListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
	// IncludeArchived lists archived agents too.
	IncludeArchived bool
	// CreatedAfter and CreatedBefore, when not zero, keep agents created
	// at or after, and at or before, these times (created_at[gte] and
	// created_at[lte]).
	CreatedAfter, CreatedBefore time.Time
}

// Validate reports the first rule the params break: Limit outside 1–100
// when set, or CreatedAfter later than CreatedBefore.
func (p AgentListParams) Validate() error {
	if err := validateCreatedRange(p.CreatedAfter, p.CreatedBefore); err != nil {
		return err
	}
	return validateLimit(p.Limit, 100)
}

func (p AgentListParams) listArgs() listArgs {
	a := archivedListArgs(p.Limit, p.Page, p.IncludeArchived)
	setCreatedRange(a.query, p.CreatedAfter, p.CreatedBefore)
	return a
}

// List iterates over the agents (their latest versions), fetching pages
// as it goes (GET /v1/agents, cursor scheme). Nothing is sent before the
// loop starts; ranging again lists again from p.Page; an error is yielded
// once, last.
func (s *AgentsService) List(ctx context.Context, p AgentListParams, opts ...option.RequestOption) iter.Seq2[Agent, error] {
	return s.all().list(ctx, p, opts)
}

// ListPage fetches one page of agents (GET /v1/agents). Continue with Page
// set to the page's *NextPage while it is not nil.
func (s *AgentsService) ListPage(ctx context.Context, p AgentListParams, opts ...option.RequestOption) (*Page[Agent], error) {
	return s.all().listPage(ctx, p, opts)
}

// all is the agents' endpoint (/v1/agents).
func (s *AgentsService) all() endpoint[Agent] { return managedEndpoint[Agent](s.client, "/v1/agents") }

// at is one agent's endpoint (/v1/agents/{agent_id}).
func (s *AgentsService) at(agentID string) endpoint[Agent] {
	return s.all().id("agent_id", agentID)
}
