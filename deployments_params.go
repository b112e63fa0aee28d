package mms

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// Limits of a deployment's create and update bodies
// (internal/wire/limits.go).
const (
	maxDeploymentResources = wire.MaxDeploymentResources
	maxDeploymentVaultIDs  = wire.MaxDeploymentVaultIDs
)

// DeploymentCreateParams are the parameters of [DeploymentsService.Create].
//
//mms:json
type DeploymentCreateParams struct {
	// Name names the deployment. Required.
	Name string `json:"name"`
	// Agent is the agent to run: [SessionAgentID] (pins its latest
	// version) or [SessionAgentRef] (a version, or the latest when
	// Version is nil). Required; the agent must exist and not be archived.
	Agent DeploymentAgentParams `json:"agent"`
	// EnvironmentID is the environment the sessions run in. Required.
	EnvironmentID string `json:"environment_id"`
	// InitialEvents are 1 to 50 events sent to each session right after
	// it is created: user.message, user.define_outcome and
	// system.message (at most one, last, right after a user.message).
	// Required.
	InitialEvents []DeploymentInitialEvent `json:"initial_events"`
	// Description describes the deployment; "" sends none.
	Description string `json:"description,omitzero"`
	// Resources are at most 500 resources mounted in each session. A
	// repository's AuthorizationToken is needed for a private repository
	// only; a zero token is not sent.
	Resources []SessionResourceParams `json:"resources,omitzero"`
	// VaultIDs are at most 50 vaults whose credentials the sessions may
	// use.
	VaultIDs []string `json:"vault_ids,omitzero"`
	// Metadata is at most 16 pairs, keys of at most 64 characters, values
	// of at most 512.
	Metadata map[string]string `json:"metadata,omitzero"`
	// Schedule makes the deployment fire on its own; nil runs it only on
	// demand ([DeploymentsService.Run]).
	Schedule *DeploymentScheduleParams `json:"schedule,omitzero"`
	// Budget is copied onto each session at its creation; nil leaves the
	// sessions uncapped. Unlike a session's own budget, a deployment's
	// amount is in minor units: an integer decimal string, "2500" being
	// $25.00 ([DeploymentBudgetCents] builds one). The agent's model must
	// have a public list price.
	Budget *SessionBudget `json:"budget,omitzero"`
}

// DeploymentBudgetCents returns a deployment budget of cents US cents
// (minor units: 2500 is $25.00).
func DeploymentBudgetCents(cents int64) SessionBudget {
	return SessionBudget{MaxListCost: SessionCost{Amount: fmt.Sprint(cents), Currency: "USD"}}
}

// DeploymentScheduleParams is the cron schedule of a create or update
// request (the wire type "cron").
//
//mms:json type=cron
type DeploymentScheduleParams struct {
	// Expression is a 5-field POSIX cron expression: minute hour
	// day-of-month month day-of-week (0–7, 0 and 7 both Sunday), each a
	// "*", values, ranges, lists and steps. Seconds or year fields, L, W,
	// #, ? and shortcuts such as @daily are refused. Required.
	Expression string `json:"expression"`
	// Timezone is the IANA zone the expression is read in, such as "UTC"
	// or "Europe/Paris". Required; the service checks the name.
	Timezone string `json:"timezone"`
}

// A DeploymentAgentParams names a deployment's agent: [SessionAgentID]
// (its latest version, sent as a bare id) or [SessionAgentRef]; a form
// this SDK version cannot name decodes to [UnknownDeploymentAgentParams].
type DeploymentAgentParams interface {
	json.Marshaler
	isDeploymentAgentParams()
	validate(path string) error
}

var deploymentAgentParamsUnion = codec.NewUnion[DeploymentAgentParams]("DeploymentAgentParams", UnknownDeploymentAgentParams{}).
	Add("agent", SessionAgentRef{}).
	BareString(func(s string) DeploymentAgentParams { return SessionAgentID(s) })

func (SessionAgentID) isDeploymentAgentParams() {}

// UnknownDeploymentAgentParams keeps an agent form this SDK version
// cannot name.
type UnknownDeploymentAgentParams struct {
	Type string
	Raw  json.RawMessage
}

// A DeploymentInitialEvent is an event a deployment sends to each of its
// sessions, in params and records alike: [UserMessageEventParams],
// [UserDefineOutcomeEventParams], [SystemMessageEventParams] or
// [UnknownDeploymentInitialEvent]. [NewUserMessageEvent],
// [NewDefineOutcomeEvent] and [NewSystemMessageEvent] build them.
type DeploymentInitialEvent interface {
	json.Marshaler
	isDeploymentInitialEvent()
	validate(path string) error
}

var deploymentInitialEventUnion = codec.NewUnion[DeploymentInitialEvent]("DeploymentInitialEvent", UnknownDeploymentInitialEvent{}).
	Add("user.message", UserMessageEventParams{}).
	Add("user.define_outcome", UserDefineOutcomeEventParams{}).
	Add("system.message", SystemMessageEventParams{})

// UnknownDeploymentInitialEvent keeps an event kind this SDK version
// cannot name.
type UnknownDeploymentInitialEvent struct {
	Type string
	Raw  json.RawMessage
}

// Validate reports the first rule the params break: a missing name,
// agent, environment id or initial event; an agent id that is empty or
// over 128 characters or a version below 1; more than 50 initial events,
// a nil one, one breaking its own rules (see
// [SessionEventSendParams.Validate]), or a system.message that is not the
// last event or does not follow a user.message; more than 500 resources
// or one breaking its rules (see [GitHubRepositoryResourceParams] — whose
// token may be left out here —, [FileResourceParams],
// [MemoryStoreResourceParams]); more than 50 vault ids or an empty one;
// metadata past 16 pairs, 64-character keys or 512-character values; a
// schedule whose expression is not a 5-field cron expression or without a
// timezone; a budget whose amount is not an integer string of minor units
// or whose currency is not USD.
func (p DeploymentCreateParams) Validate() error {
	if p.Name == "" {
		return invalid("name", "is required")
	}
	if p.Agent == nil {
		return invalid("agent", "is required")
	}
	if err := p.Agent.validate("agent"); err != nil {
		return err
	}
	if err := requiredID("environment_id", p.EnvironmentID); err != nil {
		return err
	}
	if len(p.InitialEvents) == 0 {
		return invalid("initial_events", "must hold at least one event")
	}
	return validateDeploymentParts(p.InitialEvents, p.Resources, p.VaultIDs, p.Metadata, p.Schedule, p.Budget)
}

// validateDeploymentParts checks the members create and update share;
// nil members (left out) pass.
func validateDeploymentParts(events []DeploymentInitialEvent, resources []SessionResourceParams, vaultIDs []string,
	metadata map[string]string, schedule *DeploymentScheduleParams, budget *SessionBudget) error {
	if err := validateInitialEvents(events); err != nil {
		return err
	}
	if err := validateDeploymentResources(resources); err != nil {
		return err
	}
	if err := validateCount("vault_ids", len(vaultIDs), maxDeploymentVaultIDs, "ids"); err != nil {
		return err
	}
	if err := requiredIDs("vault_ids", vaultIDs); err != nil {
		return err
	}
	if err := validateMetadata("metadata", metadata); err != nil {
		return err
	}
	if schedule != nil {
		if err := schedule.validate("schedule"); err != nil {
			return err
		}
	}
	if budget != nil {
		return validateDeploymentBudget("budget", *budget)
	}
	return nil
}

// validateInitialEvents checks at most 50 events, each by its own rules,
// and the place of a system.message: last, right after a user.message.
func validateInitialEvents(events []DeploymentInitialEvent) error {
	if err := validateCount("initial_events", len(events), maxInitialEvents, "events"); err != nil {
		return err
	}
	for i, e := range events {
		path := fmt.Sprintf("initial_events[%d]", i)
		if e == nil {
			return invalid(path, "must not be nil")
		}
		if _, ok := e.(SystemMessageEventParams); ok {
			if i != len(events)-1 {
				return invalid(path, "a system.message must be the last initial event (at most one)")
			}
			if _, ok := previous(events, i).(UserMessageEventParams); !ok {
				return invalid(path, "a system.message must directly follow the user.message it accompanies")
			}
		}
		if err := e.validate(path); err != nil {
			return err
		}
	}
	return nil
}

// previous is events[i-1], nil for the first.
func previous(events []DeploymentInitialEvent, i int) DeploymentInitialEvent {
	if i == 0 {
		return nil
	}
	return events[i-1]
}

// validateDeploymentResources checks at most 500 resources, each by the
// sessions' rules except that a repository's token may be left out (a
// public repository needs none).
func validateDeploymentResources(resources []SessionResourceParams) error {
	if err := validateCount("resources", len(resources), maxDeploymentResources, "resources"); err != nil {
		return err
	}
	for i, r := range resources {
		path := fmt.Sprintf("resources[%d]", i)
		if r == nil {
			return invalid(path, "must not be nil")
		}
		if g, ok := r.(GitHubRepositoryResourceParams); ok && g.AuthorizationToken.IsZero() {
			// Checked with a stand-in token, which is never sent: the
			// other rules still apply.
			g.AuthorizationToken = NewSecret("-")
			r = g
		}
		if err := r.validate(path); err != nil {
			return err
		}
	}
	return nil
}

// validate checks the cron expression (wire.ParseCron, the grammar the
// fake reads too) and that a timezone is given.
func (s DeploymentScheduleParams) validate(path string) error {
	if s.Expression == "" {
		return invalid(path+".expression", "is required")
	}
	if _, err := wire.ParseCron(s.Expression); err != nil {
		return invalid(path+".expression", "%v", err)
	}
	if s.Timezone == "" {
		return invalid(path+".timezone", "is required (an IANA zone such as \"UTC\")")
	}
	return nil
}

// validateDeploymentBudget checks a deployment's budget: an amount of
// minor units (digits only) in USD.
func validateDeploymentBudget(path string, b SessionBudget) error {
	a := b.MaxListCost.Amount
	if !isDigits(a) {
		return invalid(path+".max_list_cost.amount", "must be an integer string of minor units such as \"2500\" ($25.00), got %q", a)
	}
	if b.MaxListCost.Currency != "USD" {
		return invalid(path+".max_list_cost.currency", "must be \"USD\", got %q", b.MaxListCost.Currency)
	}
	return nil
}

// isDigits reports whether s is ASCII digits only.
func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// DeploymentUpdateParams are the parameters of [DeploymentsService.Update].
// A zero member keeps the deployment's value; lists replace the whole
// list.
//
//mms:json
type DeploymentUpdateParams struct {
	// Name renames the deployment; "" keeps the name (it cannot be
	// cleared).
	Name string `json:"name,omitzero"`
	// Description replaces ([Set]) or clears ([Clear]) the description.
	Description Update[string] `json:"description,omitzero"`
	// Agent re-pins the agent: [SessionAgentID] to its latest version,
	// [SessionAgentRef] to a version; nil keeps it.
	Agent DeploymentAgentParams `json:"agent,omitzero"`
	// EnvironmentID moves the deployment; "" keeps it.
	EnvironmentID string `json:"environment_id,omitzero"`
	// InitialEvents replace the events: 1 to 50, as in create; nil keeps
	// them (they cannot be cleared).
	InitialEvents []DeploymentInitialEvent `json:"initial_events,omitzero"`
	// Resources replace the resources ([Set], at most 500) or clear them
	// ([Clear], or Set of an empty list).
	Resources Update[[]SessionResourceParams] `json:"resources,omitzero"`
	// VaultIDs replace the vaults ([Set], at most 50) or clear them.
	VaultIDs Update[[]string] `json:"vault_ids,omitzero"`
	// Schedule replaces the schedule ([Set]) or removes it ([Clear]: the
	// deployment then runs only on demand).
	Schedule Update[DeploymentScheduleParams] `json:"schedule,omitzero"`
	// Budget replaces the budget ([Set]) or removes it ([Clear]: sessions
	// created afterwards are uncapped).
	Budget Update[SessionBudget] `json:"budget,omitzero"`
	// Metadata upserts and deletes keys; others are kept (the stored bag
	// holds at most 16).
	Metadata MetadataPatch `json:"metadata,omitzero"`
}

// Validate reports the first rule the params break: an agent set but
// broken (as in create), initial events given but empty or broken (as in
// create), resources or vault ids set and broken (as in create), a
// schedule set and broken, a budget set and broken, or a bad metadata
// patch.
func (p DeploymentUpdateParams) Validate() error {
	if p.Agent != nil {
		if err := p.Agent.validate("agent"); err != nil {
			return err
		}
	}
	if p.InitialEvents != nil && len(p.InitialEvents) == 0 {
		return invalid("initial_events", "must hold at least one event when set (they cannot be cleared)")
	}
	resources, _ := p.Resources.Value()
	vaultIDs, _ := p.VaultIDs.Value()
	var schedule *DeploymentScheduleParams
	if s, ok := p.Schedule.Value(); ok {
		schedule = &s
	}
	var budget *SessionBudget
	if b, ok := p.Budget.Value(); ok {
		budget = &b
	}
	if err := validateDeploymentParts(p.InitialEvents, resources, vaultIDs, nil, schedule, budget); err != nil {
		return err
	}
	return p.Metadata.validate("metadata")
}

// DeploymentListParams are the parameters of [DeploymentsService.List]
// and [DeploymentsService.ListPage].
type DeploymentListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
	// AgentID keeps the deployments of one agent.
	AgentID string
	// IncludeArchived lists archived deployments too.
	IncludeArchived bool
	// Status keeps the deployments in one status; it cannot be combined
	// with IncludeArchived.
	Status DeploymentStatus
	// CreatedGTE and CreatedLTE, when not zero, bound the creation time,
	// both inclusive (created_at[gte], created_at[lte]).
	CreatedGTE, CreatedLTE time.Time
}

// Validate reports the first rule the params break: Limit outside 1–100
// when set, or Status together with IncludeArchived.
func (p DeploymentListParams) Validate() error {
	if err := validateLimit(p.Limit, wire.MaxDeploymentListLimit); err != nil {
		return err
	}
	if p.Status != "" && p.IncludeArchived {
		return invalid("status", "cannot be combined with include_archived")
	}
	return nil
}

func (p DeploymentListParams) listArgs() listArgs {
	a := archivedListArgs(p.Limit, p.Page, p.IncludeArchived)
	setStrings(a.query, map[string]string{"agent_id": p.AgentID, "status": string(p.Status)})
	setCreatedRange(a.query, p.CreatedGTE, p.CreatedLTE)
	return a
}

// Validate returns nil: an agent form this SDK version does not model has
// nothing to check client-side.
func (UnknownDeploymentAgentParams) Validate() error { return nil }

// Validate returns nil: an event this SDK version does not model has
// nothing to check client-side.
func (UnknownDeploymentInitialEvent) Validate() error { return nil }

// Validate reports the first rule the schedule breaks (see
// [DeploymentScheduleParams.Expression]).
func (s DeploymentScheduleParams) Validate() error { return s.validate("schedule") }

// LogValue prints the params for slog with the repository tokens redacted
// (slog's JSON handler would otherwise marshal them, tokens and all).
func (p DeploymentCreateParams) LogValue() slog.Value { return logRedacted(p) }

// LogValue prints the params for slog with the repository tokens redacted.
func (p DeploymentUpdateParams) LogValue() slog.Value { return logRedacted(p) }
