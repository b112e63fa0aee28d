package mms

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strconv"
	"time"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// SessionsService creates, retrieves, updates, lists, deletes and
// archives sessions (/v1/sessions); Resources and Threads reach a
// session's resources and threads. Reach it as client.Sessions. Every call
// sends the managed-agents-2026-04-01 beta ([BetaManagedAgents]), merged
// with the caller's betas; option.WithWorkspaceID sends a per-call
// workspace.
type SessionsService struct {
	client *Client
	// Resources adds, retrieves, updates, lists and deletes a session's
	// resources.
	Resources *SessionResourcesService
	// Threads retrieves, lists and archives a session's threads.
	Threads *SessionThreadsService
	// Events sends, lists and streams a session's events.
	Events *SessionEventsService
}

// SessionStatus is where a session is in its life. Unknown values pass
// through.
type SessionStatus string

// The session statuses.
const (
	// SessionStatusRescheduling: recovering from an error; it will run
	// again.
	SessionStatusRescheduling SessionStatus = "rescheduling"
	// SessionStatusRunning: the agent is working.
	SessionStatusRunning SessionStatus = "running"
	// SessionStatusIdle: waiting for input.
	SessionStatusIdle SessionStatus = "idle"
	// SessionStatusTerminated: finished for good.
	SessionStatusTerminated SessionStatus = "terminated"
)

// Session is a session's record (the wire type "session"). Members this
// SDK version does not model are kept in Extra, so json.Marshal writes a
// reply back without loss.
//
//mms:json type=session
type Session struct {
	// ID identifies the session ("sesn_…").
	ID string `json:"id"`
	// Status is the session's status.
	Status SessionStatus `json:"status"`
	// Agent is the agent as it was when the session was created, with
	// the session's overrides applied.
	Agent SessionAgent `json:"agent"`
	// EnvironmentID is the environment the session runs in.
	EnvironmentID string `json:"environment_id"`
	// Title is the session's title; nil when null.
	Title *string `json:"title"`
	// Metadata is the caller's key-value pairs.
	Metadata map[string]string `json:"metadata"`
	// Resources are the repositories, files and memory stores mounted in
	// the session.
	Resources []SessionResource `json:"resources"`
	// VaultIDs name the vaults whose credentials the agent may use; empty
	// when none.
	VaultIDs []string `json:"vault_ids"`
	// OutcomeEvaluations has one entry per user.define_outcome.
	OutcomeEvaluations []OutcomeEvaluation `json:"outcome_evaluations"`
	// Stats are the session's running and wall times.
	Stats SessionStats `json:"stats"`
	// Usage is what the session has used so far.
	Usage SessionUsage `json:"usage"`
	// Budget is the session's spending limit; nil when null or absent (a
	// session created without one), and written back as it came.
	Budget *SessionBudget `json:"budget"`
	// DeploymentID is the deployment the session was created from; nil
	// when absent or null.
	DeploymentID *string `json:"deployment_id,omitzero"`
	// CreatedAt and UpdatedAt are RFC 3339 strings as the service sent
	// them (see [Session.Created]).
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// ArchivedAt is when the session was archived; nil while it is not.
	ArchivedAt *string `json:"archived_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Created parses CreatedAt.
func (s Session) Created() (time.Time, error) { return time.Parse(time.RFC3339Nano, s.CreatedAt) }

// SessionAgent is the snapshot of a session's agent (the wire type
// "agent"): one version of it, with the session's overrides applied.
//
//mms:json type=agent
type SessionAgent struct {
	// ID and Version name the agent version the snapshot was taken from.
	ID      string `json:"id"`
	Version int    `json:"version"`
	// Name is the agent's name.
	Name string `json:"name"`
	// Description and System are nil when null.
	Description *string `json:"description"`
	System      *string `json:"system"`
	// Model is the model the session runs on.
	Model ModelConfig `json:"model"`
	// Tools, MCPServers and Skills are the agent's, as overridden.
	Tools      []AgentTool      `json:"tools"`
	MCPServers []AgentMCPServer `json:"mcp_servers"`
	Skills     []AgentSkill     `json:"skills"`
	// Multiagent is the coordinator's roster or the multiagent_20261001
	// config, each agent resolved to its snapshot; nil when null.
	Multiagent *SessionMultiagent `json:"multiagent"`
	// ExecutionIdentity is the identity the agent runs as; nil when absent
	// or null.
	ExecutionIdentity *ExecutionIdentity `json:"execution_identity"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionMultiagent is a session agent's multiagent member: Type
// [MultiagentCoordinator] with the roster in Agents, or
// [Multiagent20261001] with Advisor, Subagents and Workflows.
//
//mms:json spec=agentMultiagentSpec
type SessionMultiagent struct {
	// Type is the kind; "" sends coordinator.
	Type MultiagentType `json:"type"`
	// Agents are the coordinator roster's members; nil for
	// multiagent_20261001.
	Agents []ThreadAgent `json:"agents,omitzero"`
	// Advisor, Subagents and Workflows are the multiagent_20261001
	// members, their predefined agents resolved to snapshots.
	Advisor   *MultiagentAdvisor      `json:"advisor,omitzero"`
	Subagents *SessionMultiagentSpawn `json:"subagents,omitzero"`
	Workflows *SessionMultiagentSpawn `json:"workflows,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A ThreadAgent is a member of a session's roster and the agent of a
// session thread: [SessionThreadAgent], [RosterAdvisor],
// [SessionThreadInlineAgent] or [UnknownThreadAgent].
type ThreadAgent interface {
	json.Marshaler
	isThreadAgent()
}

var threadAgentUnion = codec.NewUnion[ThreadAgent]("ThreadAgent", UnknownThreadAgent{}).
	Add("agent", SessionThreadAgent{}).
	Add("advisor", RosterAdvisor{}).
	Add("inline", SessionThreadInlineAgent{})

// SessionThreadAgent is an agent of a session's roster (the wire type
// "agent"): a [SessionAgent] without a roster of its own.
type SessionThreadAgent struct {
	// ID and Version name the agent version.
	ID      string `json:"id"`
	Version int    `json:"version"`
	// Name is the agent's name.
	Name string `json:"name"`
	// Description and System are nil when null.
	Description *string `json:"description"`
	System      *string `json:"system"`
	// Model is the agent's model.
	Model ModelConfig `json:"model"`
	// Tools, MCPServers and Skills are the agent's.
	Tools      []AgentTool      `json:"tools"`
	MCPServers []AgentMCPServer `json:"mcp_servers"`
	Skills     []AgentSkill     `json:"skills"`
	// ExecutionIdentity is the identity the agent runs as; nil when absent
	// or null.
	ExecutionIdentity *ExecutionIdentity `json:"execution_identity"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownThreadAgent keeps a roster member this SDK version cannot name.
type UnknownThreadAgent struct {
	Type string
	Raw  json.RawMessage
}

// SessionUsage is what a session (or a thread) has used so far. Absent
// counts are 0.
//
//mms:json
type SessionUsage struct {
	InputTokens          int `json:"input_tokens,omitzero"`
	OutputTokens         int `json:"output_tokens,omitzero"`
	CacheReadInputTokens int `json:"cache_read_input_tokens,omitzero"`
	// CacheCreation splits the cache writes by lifetime; nil when absent.
	CacheCreation *SessionCacheCreation `json:"cache_creation,omitzero"`
	// ActiveSeconds is the running time.
	ActiveSeconds float64 `json:"active_seconds,omitzero"`
	// ListCost is the cost at list prices; nil when absent or null.
	ListCost *SessionCost `json:"list_cost,omitzero"`
	// ServerToolUse counts server tool requests; nil when absent or null.
	ServerToolUse *SessionServerToolUse `json:"server_tool_use,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionCacheCreation splits a session's cache writes by lifetime.
//
//mms:json
type SessionCacheCreation struct {
	Ephemeral1hInputTokens int `json:"ephemeral_1h_input_tokens,omitzero"`
	Ephemeral5mInputTokens int `json:"ephemeral_5m_input_tokens,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionCost is an amount of money: a decimal string, as "12.50", and
// its currency ("USD", the only one the service documents).
//
//mms:json
type SessionCost struct {
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionServerToolUse counts a session's server tool requests.
//
//mms:json
type SessionServerToolUse struct {
	WebFetchRequests  int `json:"web_fetch_requests,omitzero"`
	WebSearchRequests int `json:"web_search_requests,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionStats are a session's times, in seconds.
//
//mms:json
type SessionStats struct {
	// ActiveSeconds is the running time, idle time excluded.
	ActiveSeconds float64 `json:"active_seconds,omitzero"`
	// DurationSeconds is the wall time since creation.
	DurationSeconds float64 `json:"duration_seconds,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionBudget caps what a session may spend at list prices (the wire
// type "limit"). [BudgetUSD] builds one.
//
//mms:json type=limit
type SessionBudget struct {
	// MaxListCost is the cap.
	MaxListCost SessionCost `json:"max_list_cost"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// BudgetUSD returns a budget of amount US dollars, a decimal string such
// as "25" or "12.50".
func BudgetUSD(amount string) SessionBudget {
	return SessionBudget{MaxListCost: SessionCost{Amount: amount, Currency: "USD"}}
}

// OutcomeResult is where an outcome's evaluation stands. Unknown values
// pass through.
type OutcomeResult string

// The outcome results: pending, running and evaluating go on; the others
// are final. needs_revision appears on span events.
const (
	OutcomeResultPending              OutcomeResult = "pending"
	OutcomeResultRunning              OutcomeResult = "running"
	OutcomeResultEvaluating           OutcomeResult = "evaluating"
	OutcomeResultSatisfied            OutcomeResult = "satisfied"
	OutcomeResultMaxIterationsReached OutcomeResult = "max_iterations_reached"
	OutcomeResultFailed               OutcomeResult = "failed"
	OutcomeResultInterrupted          OutcomeResult = "interrupted"
	OutcomeResultNeedsRevision        OutcomeResult = "needs_revision"
)

// OutcomeEvaluation is where one user.define_outcome stands (the wire
// type "outcome_evaluation").
//
//mms:json type=outcome_evaluation
type OutcomeEvaluation struct {
	// OutcomeID identifies the outcome.
	OutcomeID string `json:"outcome_id"`
	// Description is the outcome's description.
	Description string `json:"description"`
	// Iteration counts the attempts from 0.
	Iteration int `json:"iteration"`
	// Result is the evaluation's state.
	Result OutcomeResult `json:"result"`
	// Explanation is the grader's reasoning; nil when null.
	Explanation *string `json:"explanation"`
	// CompletedAt is when the evaluation ended; nil while it has not.
	CompletedAt *string `json:"completed_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionDeleted is the answer of [SessionsService.Delete] (the wire type
// "session_deleted").
//
//mms:json type=session_deleted
type SessionDeleted struct {
	// ID is the deleted session's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionCreateParams are the parameters of [SessionsService.Create].
//
//mms:json
type SessionCreateParams struct {
	// Agent is the agent to run: [SessionAgentID] (its latest version),
	// [SessionAgentRef] (a version) or [SessionAgentWithOverrides].
	// Required. An agent id is at most 128 characters.
	Agent SessionAgentParams `json:"agent"`
	// EnvironmentID is the environment to run in, at most 128 characters.
	// Required.
	EnvironmentID string `json:"environment_id"`
	// Title is the session's title, at most 500 characters; "" sends
	// none.
	Title string `json:"title,omitzero"`
	// Metadata is at most 16 pairs, keys of at most 64 characters, values
	// of at most 512.
	Metadata map[string]string `json:"metadata,omitzero"`
	// Resources are mounted in the session: [GitHubRepositoryResourceParams],
	// [FileResourceParams], [MemoryStoreResourceParams].
	Resources []SessionResourceParams `json:"resources,omitzero"`
	// VaultIDs name vaults whose credentials the agent may use. They can
	// only be given here: an update cannot change them.
	VaultIDs []string `json:"vault_ids,omitzero"`
	// InitialEvents are at most 50 user.message and user.define_outcome
	// events, processed in order (e.g. mms.NewUserMessageEvent("hi")).
	InitialEvents []SessionEventParams `json:"initial_events,omitzero"`
	// Budget caps the session's spending (mms.BudgetUSD("25")); nil sends
	// none. A budget cannot be added later.
	Budget *SessionBudget `json:"budget,omitzero"`
}

// A SessionAgentParams names a session's agent: [SessionAgentID],
// [SessionAgentRef] or [SessionAgentWithOverrides]; a value this SDK
// version cannot name decodes to [UnknownSessionAgentParams].
type SessionAgentParams interface {
	json.Marshaler
	isSessionAgentParams()
	validate(path string) error
}

var sessionAgentParamsUnion = codec.NewUnion[SessionAgentParams]("SessionAgentParams", UnknownSessionAgentParams{}).
	Add("agent", SessionAgentRef{}).
	Add("agent_with_overrides", SessionAgentWithOverrides{}).
	BareString(func(s string) SessionAgentParams { return SessionAgentID(s) })

// SessionAgentID names an agent by id alone (at most 128 characters): its
// latest version. It is sent as a bare string.
type SessionAgentID string

// SessionAgentRef names an agent, optionally a version of it (the wire
// type "agent").
//
//mms:json request
type SessionAgentRef struct {
	// ID is the agent's id, at most 128 characters. Required.
	ID string `json:"id"`
	// Version pins the version; nil means the latest.
	Version *int `json:"version,omitzero"`
}

// SessionAgentWithOverrides runs an agent with some of its values
// replaced for this session only (the wire type "agent_with_overrides").
// Lists replace the agent's whole; nil keeps the agent's.
//
//mms:json request
type SessionAgentWithOverrides struct {
	// ID is the agent's id, at most 128 characters. Required.
	ID string `json:"id"`
	// Version pins the version; nil means the latest.
	Version *int `json:"version,omitzero"`
	// Model replaces the model; zero keeps the agent's.
	Model ModelConfigParams `json:"model,omitzero"`
	// System replaces ([Set], at most 100,000 characters) or clears
	// ([Clear]) the system prompt.
	System Update[string] `json:"system,omitzero"`
	// Tools, MCPServers and Skills replace the agent's lists (rules as
	// in [AgentCreateParams]).
	Tools      []AgentTool      `json:"tools,omitzero"`
	MCPServers []AgentMCPServer `json:"mcp_servers,omitzero"`
	Skills     []AgentSkill     `json:"skills,omitzero"`
}

// UnknownSessionAgentParams keeps an agent form this SDK version cannot
// name.
type UnknownSessionAgentParams struct {
	Type string
	Raw  json.RawMessage
}

func (SessionAgentID) isSessionAgentParams() {}

// MarshalJSON writes the id as a JSON string.
func (id SessionAgentID) MarshalJSON() ([]byte, error) { return json.Marshal(string(id)) }

func (id SessionAgentID) validate(path string) error { return validateAgentID(path, string(id)) }
func (a SessionAgentRef) validate(path string) error { return validateAgentRef(path, a.ID, a.Version) }
func validateAgentRef(path, id string, version *int) error {
	if err := validateAgentID(path+".id", id); err != nil {
		return err
	}
	if version != nil && *version < 1 {
		return invalid(path+".version", "must be at least 1, got %d", *version)
	}
	return nil
}

func (a SessionAgentWithOverrides) validate(path string) error {
	if err := validateAgentRef(path, a.ID, a.Version); err != nil {
		return err
	}
	if a.Model != (ModelConfigParams{}) && a.Model.ID == "" {
		return invalid(path+".model.id", "is required when model is set")
	}
	if v, ok := a.System.Value(); ok {
		if err := validateLength(path+".system", v, 0, maxAgentSystemLen); err != nil {
			return err
		}
	}
	if err := validateToolList(a.Tools); err != nil {
		return prefixField(path, err)
	}
	if err := validateMCPServers(a.MCPServers); err != nil {
		return prefixField(path, err)
	}
	if a.Tools != nil && a.MCPServers != nil {
		if err := validateServerRefs(a.Tools, a.MCPServers); err != nil {
			return prefixField(path, err)
		}
	}
	return validateSkills(path+".skills", a.Skills)
}

// validateAgentID reports an agent id that is empty or over 128
// characters.
func validateAgentID(path, id string) error {
	if err := requiredID(path, id); err != nil {
		return err
	}
	return validateLength(path, id, 1, wire.MaxAgentIDLen)
}

// prefixField puts path in front of a *ValidationError's field (the
// agents' tool checks name fields from the agent's top level).
func prefixField(path string, err error) error {
	if ve, ok := err.(*ValidationError); ok {
		return &ValidationError{Field: path + "." + ve.Field, Rule: ve.Rule}
	}
	return err
}

// requiredID reports an empty id.
func requiredID(path, id string) error {
	if id == "" {
		return invalid(path, "is required")
	}
	return nil
}

// requiredIDs reports the first empty id of a list (path is the list's,
// e.g. "vault_ids").
func requiredIDs(path string, ids []string) error {
	for i, id := range ids {
		if err := requiredID(fmt.Sprintf("%s[%d]", path, i), id); err != nil {
			return err
		}
	}
	return nil
}

// Limits of a session's create body (internal/wire/limits.go).
const (
	maxInitialEvents       = wire.MaxInitialEvents
	maxResourceInstruction = wire.MaxResourceInstruction
)

// Validate reports the first rule the params break: a missing agent, id
// or environment id, an agent id or environment id over 128 characters, an
// agent version below 1, an override's system prompt past 100,000
// characters or bad override tools or skills (as
// [AgentCreateParams.Validate]), a title over 500 characters, metadata
// past 16 pairs, 64-character keys or 512-character values, a resource
// breaking its rules (see [GitHubRepositoryResourceParams],
// [FileResourceParams], [MemoryStoreResourceParams]), an empty vault id,
// more than 50 initial events or one other than user.message and
// user.define_outcome (checked as [SessionEventSendParams.Validate] checks
// them), or a budget whose amount is not a decimal string or whose
// currency is not USD.
func (p SessionCreateParams) Validate() error {
	if p.Agent == nil {
		return invalid("agent", "is required")
	}
	if err := p.Agent.validate("agent"); err != nil {
		return err
	}
	if err := requiredID("environment_id", p.EnvironmentID); err != nil {
		return err
	}
	if err := validateLength("environment_id", p.EnvironmentID, 1, wire.MaxEnvironmentIDLen); err != nil {
		return err
	}
	if err := validateLength("title", p.Title, 0, wire.MaxSessionTitleLen); err != nil {
		return err
	}
	if err := validateMetadata("metadata", p.Metadata); err != nil {
		return err
	}
	if err := validateEach("resources", p.Resources); err != nil {
		return err
	}
	if err := requiredIDs("vault_ids", p.VaultIDs); err != nil {
		return err
	}
	if err := validateCount("initial_events", len(p.InitialEvents), maxInitialEvents, "events"); err != nil {
		return err
	}
	for i, e := range p.InitialEvents {
		path := fmt.Sprintf("initial_events[%d]", i)
		switch e.(type) {
		case UserMessageEventParams, UserDefineOutcomeEventParams:
		case nil:
			return invalid(path, "must not be nil")
		default:
			return invalid(path, "must be a user.message or a user.define_outcome")
		}
		if err := e.validate(path); err != nil {
			return err
		}
	}
	if p.Budget != nil {
		return p.Budget.validate("budget")
	}
	return nil
}

// validate checks the amount (a non-negative decimal string) and the
// currency (USD).
func (b SessionBudget) validate(path string) error {
	if !isDecimal(b.MaxListCost.Amount) {
		return invalid(path+".max_list_cost.amount", "must be a decimal string such as \"12.50\", got %q", b.MaxListCost.Amount)
	}
	if b.MaxListCost.Currency != "USD" {
		return invalid(path+".max_list_cost.currency", "must be \"USD\", got %q", b.MaxListCost.Currency)
	}
	return nil
}

// isDecimal reports whether s is digits with at most one '.' between
// digits.
func isDecimal(s string) bool {
	digits, dot := 0, -1
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && dot < 0 && digits > 0:
			dot = i
		default:
			return false
		}
	}
	return digits > 0 && dot != len(s)-1
}

// SessionUpdateParams are the parameters of [SessionsService.Update]. A
// zero field keeps the session's value. There is no vault_ids: the service
// rejects changing a session's vaults.
//
//mms:json
type SessionUpdateParams struct {
	// Title replaces ([Set], 1 to 500 characters) or clears ([Clear],
	// which sends null) the title.
	Title Update[string] `json:"title,omitzero"`
	// Metadata upserts and deletes keys; others are kept.
	Metadata MetadataPatch `json:"metadata,omitzero"`
	// Agent replaces the agent's tools or MCP servers from the next turn;
	// the session must be idle. nil sends none.
	Agent *SessionAgentUpdate `json:"agent,omitzero"`
	// Budget replaces ([Set]) or removes ([Clear], for good) the budget.
	// A session created without one cannot get one.
	Budget Update[SessionBudget] `json:"budget,omitzero"`
}

// SessionAgentUpdate replaces a session agent's lists, each whole; nil
// keeps it.
//
//mms:json request
type SessionAgentUpdate struct {
	Tools      []AgentTool      `json:"tools,omitzero"`
	MCPServers []AgentMCPServer `json:"mcp_servers,omitzero"`
}

// Validate reports the first rule the params break: a title set to ""
// (use [Clear]) or to more than 500 characters, metadata past 16 keys,
// 64-character keys or 512-character values, the agent's tools or MCP
// servers broken as in [AgentUpdateParams.Validate], or a budget set with
// a bad amount or currency.
func (p SessionUpdateParams) Validate() error {
	if v, ok := p.Title.Value(); ok {
		if v == "" {
			return invalid("title", "must not be empty when set (Clear sends null)")
		}
		if err := validateLength("title", v, 1, wire.MaxSessionTitleLen); err != nil {
			return err
		}
	}
	if err := p.Metadata.validate("metadata"); err != nil {
		return err
	}
	if a := p.Agent; a != nil {
		if err := validateToolList(a.Tools); err != nil {
			return prefixField("agent", err)
		}
		if err := validateMCPServers(a.MCPServers); err != nil {
			return prefixField("agent", err)
		}
		if a.Tools != nil && a.MCPServers != nil {
			if err := validateServerRefs(a.Tools, a.MCPServers); err != nil {
				return prefixField("agent", err)
			}
		}
	}
	if b, ok := p.Budget.Value(); ok {
		return b.validate("budget")
	}
	return nil
}

// Create creates a session (POST /v1/sessions). The params are checked
// first (see [SessionCreateParams.Validate]); a *ValidationError means
// nothing was sent.
func (s *SessionsService) Create(ctx context.Context, p SessionCreateParams, opts ...option.RequestOption) (*Session, error) {
	return s.all().post(ctx, p, opts)
}

// Get retrieves a session (GET /v1/sessions/{session_id}).
func (s *SessionsService) Get(ctx context.Context, sessionID string, opts ...option.RequestOption) (*Session, error) {
	return s.at(sessionID).get(ctx, opts)
}

// Update changes a session's title, metadata, agent tools or budget (POST
// /v1/sessions/{session_id}).
func (s *SessionsService) Update(ctx context.Context, sessionID string, p SessionUpdateParams, opts ...option.RequestOption) (*Session, error) {
	return s.at(sessionID).update(ctx, p, opts)
}

// Archive archives a session (POST /v1/sessions/{session_id}/archive): it
// is kept, with ArchivedAt set, and listed only with IncludeArchived.
func (s *SessionsService) Archive(ctx context.Context, sessionID string, opts ...option.RequestOption) (*Session, error) {
	return s.at(sessionID).action(ctx, "/archive", nil, opts)
}

// Delete deletes a session (DELETE /v1/sessions/{session_id}).
func (s *SessionsService) Delete(ctx context.Context, sessionID string, opts ...option.RequestOption) (*SessionDeleted, error) {
	return as[SessionDeleted](s.at(sessionID)).delete(ctx, opts)
}

// SessionListParams are the parameters of [SessionsService.List] and
// [SessionsService.ListPage]. The list is bidirectional: a page has a
// NextPage and a PrevPage, each valid only with the order it was issued
// under.
type SessionListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage or
	// PrevPage. A cursor issued under another Order is refused before
	// sending.
	Page Cursor
	// FollowPrevPage makes List walk from Page along each page's PrevPage
	// (towards the start of the list) instead of NextPage. Each page's
	// sessions still come in Order.
	FollowPrevPage bool
	// Order sorts by creation time: ListOrderDesc (the default, newest
	// first) or ListOrderAsc.
	Order ListOrder
	// AgentID keeps the sessions of one agent; AgentVersion (needs
	// AgentID) of one version of it.
	AgentID      string
	AgentVersion int
	// DeploymentID keeps the sessions created from one deployment.
	DeploymentID string
	// MemoryStoreID keeps the sessions that mount one memory store.
	MemoryStoreID string
	// IncludeArchived lists archived sessions too.
	IncludeArchived bool
	// Statuses keeps the sessions in any of these statuses (statuses[]).
	Statuses []SessionStatus
	// CreatedGT, CreatedGTE, CreatedLT and CreatedLTE, when not zero,
	// bound the creation time (created_at[gt], [gte], [lt], [lte]).
	CreatedGT, CreatedGTE, CreatedLT, CreatedLTE time.Time
}

// Validate reports the first rule the params break: Limit outside 1–100
// when set, an Order other than asc and desc, AgentVersion below 0 or set
// without AgentID, or an empty status.
func (p SessionListParams) Validate() error {
	if err := validateLimitOrder(p.Limit, 100, p.Order); err != nil {
		return err
	}
	switch {
	case p.AgentVersion < 0:
		return invalid("agent_version", "must be at least 1, got %d", p.AgentVersion)
	case p.AgentVersion > 0 && p.AgentID == "":
		return invalid("agent_version", "can only be used with agent_id")
	}
	return validateFilled("statuses", p.Statuses)
}

func (p SessionListParams) listArgs() listArgs {
	a := archivedListArgs(p.Limit, p.Page, p.IncludeArchived)
	a.order = setOrder(a.query, p.Order, ListOrderDesc)
	a.start.backward = p.FollowPrevPage
	setStrings(a.query, map[string]string{"agent_id": p.AgentID, "deployment_id": p.DeploymentID, "memory_store_id": p.MemoryStoreID})
	if p.AgentVersion > 0 {
		a.query.Set("agent_version", strconv.Itoa(p.AgentVersion))
	}
	addQueryArray(a.query, "statuses", p.Statuses)
	setTimeFilters(a.query, "created_at", p.CreatedGT, p.CreatedGTE, p.CreatedLT, p.CreatedLTE)
	return a
}

// List iterates over the sessions, fetching pages as it goes (GET
// /v1/sessions): from p.Page along next_page, or along prev_page with
// p.FollowPrevPage. Nothing is sent before the loop starts; ranging again
// lists again from p.Page; an error is yielded once, last.
func (s *SessionsService) List(ctx context.Context, p SessionListParams, opts ...option.RequestOption) iter.Seq2[Session, error] {
	return s.all().list(ctx, p, opts)
}

// ListPage fetches one page of sessions (GET /v1/sessions). Continue with
// Page set to the page's *NextPage, or go back with *PrevPage.
func (s *SessionsService) ListPage(ctx context.Context, p SessionListParams, opts ...option.RequestOption) (*Page[Session], error) {
	return s.all().listPage(ctx, p, opts)
}

// Validate returns nil: an agent this SDK version does not model has
// nothing to check client-side.
func (UnknownSessionAgentParams) Validate() error { return nil }

// all is the sessions' endpoint (/v1/sessions).
func (s *SessionsService) all() endpoint[Session] {
	return managedEndpoint[Session](s.client, "/v1/sessions")
}

// at is one session's endpoint (/v1/sessions/{session_id}).
func (s *SessionsService) at(sessionID string) endpoint[Session] {
	return sessionAt[Session](s.client, sessionID)
}

// sessionAt is one session's endpoint (/v1/sessions/{session_id})
// answering a T, the base of its events', threads' and resources' paths.
func sessionAt[T any](c *Client, sessionID string) endpoint[T] {
	return managedEndpoint[T](c, "/v1/sessions").id("session_id", sessionID)
}
