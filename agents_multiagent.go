package mms

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// The multiagent_20261001 form of an agent's multiagent member (advisor,
// subagents, workflows) and the execution identity an agent runs under.
// Both ride on [AgentMultiagent], [SessionMultiagent] and the agent
// records; the coordinator form is in agents.go.

// MultiagentType is the kind of an agent's multiagent member. Unknown
// values pass through.
type MultiagentType string

// The multiagent kinds.
const (
	// MultiagentCoordinator is the roster form ([AgentMultiagent.Agents]);
	// an empty Type sends it.
	MultiagentCoordinator MultiagentType = "coordinator"
	// Multiagent20261001 is the advisor, subagents and workflows form,
	// which the service recommends over the coordinator.
	Multiagent20261001 MultiagentType = "multiagent_20261001"
)

// The enabled/disabled switch of [MultiagentAdvisor], [MultiagentSpawn]
// and [MultiagentInlineAgents].
const (
	MultiagentEnabled  = "enabled"
	MultiagentDisabled = "disabled"
)

// agentMultiagentSpec writes an empty Type as "coordinator", so a roster
// built without one goes out as it always did.
var agentMultiagentSpec = codec.Spec{Fields: map[string]codec.FieldCodec{"type": defaultTypeField(string(MultiagentCoordinator))}}

// defaultTypeField writes an empty Type field as def and reads the member
// as it came.
func defaultTypeField(def string) codec.FieldCodec {
	return codec.FieldCodec{
		Encode: func(e *codec.Encoder, parent reflect.Value) error {
			t := parent.FieldByName("Type").String()
			if t == "" {
				t = def
			}
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
}

// MultiagentAdvisor lets the primary thread consult another model
// mid-turn: Type [MultiagentEnabled] with Model, or [MultiagentDisabled]
// (the default). [AdvisorEnabled] and [AdvisorDisabled] build one.
//
//mms:json
type MultiagentAdvisor struct {
	// Type is enabled or disabled; other values pass through.
	Type string `json:"type"`
	// Model is the advisor's model id; required when enabled, "" when
	// disabled.
	Model string `json:"model,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AdvisorEnabled returns an advisor running on model.
func AdvisorEnabled(model string) *MultiagentAdvisor {
	return &MultiagentAdvisor{Type: MultiagentEnabled, Model: model}
}

// AdvisorDisabled returns the disabled advisor.
func AdvisorDisabled() *MultiagentAdvisor { return &MultiagentAdvisor{Type: MultiagentDisabled} }

// MultiagentSpawn is the subagents or workflows member of an agent's
// multiagent_20261001 config: Type [MultiagentEnabled] (the default), with
// the agents it may spawn, or [MultiagentDisabled]. The subagent and
// workflow lists are independent.
//
//mms:json
type MultiagentSpawn struct {
	// Type is enabled or disabled; other values pass through.
	Type string `json:"type"`
	// PredefinedAgents are at most 20 agents it may start: a
	// [RosterAgentID] (params only), a [RosterAgent] or [RosterSelf]. nil
	// or empty means none; records resolve each entry to a [RosterAgent]
	// with its version.
	PredefinedAgents []RosterEntry `json:"predefined_agents,omitzero"`
	// InlineAgents says whether the agent may define agents inline; nil
	// leaves the default (enabled).
	InlineAgents *MultiagentInlineAgents `json:"inline_agents,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SpawnEnabled returns an enabled subagents or workflows member that may
// start agents.
func SpawnEnabled(agents ...RosterEntry) *MultiagentSpawn {
	return &MultiagentSpawn{Type: MultiagentEnabled, PredefinedAgents: agents}
}

// SpawnDisabled returns a disabled subagents or workflows member.
func SpawnDisabled() *MultiagentSpawn { return &MultiagentSpawn{Type: MultiagentDisabled} }

// MultiagentInlineAgents says whether an agent may define agents inline
// (Type [MultiagentEnabled], the default, or [MultiagentDisabled]).
//
//mms:json
type MultiagentInlineAgents struct {
	// Type is enabled or disabled; other values pass through.
	Type string `json:"type"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionMultiagentSpawn is the subagents or workflows member of a session
// agent's multiagent_20261001 config: its predefined agents are full agent
// snapshots.
//
//mms:json
type SessionMultiagentSpawn struct {
	// Type is enabled or disabled; other values pass through.
	Type string `json:"type"`
	// PredefinedAgents are the agents it may start, each resolved to its
	// snapshot ([SessionThreadAgent]).
	PredefinedAgents []ThreadAgent `json:"predefined_agents,omitzero"`
	// InlineAgents says whether the agent may define agents inline; nil
	// when absent.
	InlineAgents *MultiagentInlineAgents `json:"inline_agents,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ExecutionIdentityType is the kind of an [ExecutionIdentity]. Unknown
// values pass through.
type ExecutionIdentityType string

// The execution identities.
const (
	// ExecutionIdentityServiceAccount is the vendor-managed default.
	ExecutionIdentityServiceAccount ExecutionIdentityType = "service_account"
	// ExecutionIdentityAWSRole runs the agent as an AWS role (RoleARN).
	ExecutionIdentityAWSRole ExecutionIdentityType = "aws_role"
)

// ExecutionIdentity is the identity an agent's tools run as:
// service_account (the default) or aws_role with RoleARN.
// [ServiceAccountIdentity] and [AWSRoleIdentity] build one.
//
//mms:json
type ExecutionIdentity struct {
	// Type is the kind. Required.
	Type ExecutionIdentityType `json:"type"`
	// RoleARN is the AWS role's ARN; required for aws_role, "" otherwise.
	RoleARN string `json:"role_arn,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ServiceAccountIdentity returns the default, vendor-managed identity.
func ServiceAccountIdentity() *ExecutionIdentity {
	return &ExecutionIdentity{Type: ExecutionIdentityServiceAccount}
}

// AWSRoleIdentity returns the identity of the AWS role roleARN.
func AWSRoleIdentity(roleARN string) *ExecutionIdentity {
	return &ExecutionIdentity{Type: ExecutionIdentityAWSRole, RoleARN: roleARN}
}

// validate checks the identity's type and role ARN.
func (x *ExecutionIdentity) validate(path string) error {
	if x == nil {
		return nil
	}
	switch x.Type {
	case "":
		return invalid(path+".type", "is required (service_account or aws_role)")
	case ExecutionIdentityAWSRole:
		if x.RoleARN == "" {
			return invalid(path+".role_arn", "is required for aws_role")
		}
	case ExecutionIdentityServiceAccount:
		if x.RoleARN != "" {
			return invalid(path+".role_arn", "is only for aws_role")
		}
	}
	return nil
}

// validateMultiagentForm checks the members of m that its Type does not
// have: a coordinator carries no advisor, subagents or workflows, and a
// multiagent_20261001 config no roster. For the newer form it checks the
// members too.
func validateMultiagentForm(m *AgentMultiagent) error {
	switch m.Type {
	case "", MultiagentCoordinator:
		switch {
		case m.Advisor != nil:
			return invalid("multiagent.advisor", "is only for multiagent_20261001, not coordinator")
		case m.Subagents != nil:
			return invalid("multiagent.subagents", "is only for multiagent_20261001, not coordinator")
		case m.Workflows != nil:
			return invalid("multiagent.workflows", "is only for multiagent_20261001, not coordinator")
		}
		return nil
	case Multiagent20261001:
	default:
		return nil // an unknown kind is the service's to judge
	}
	if m.Agents != nil {
		return invalid("multiagent.agents", "is only for coordinator; multiagent_20261001 names its agents in subagents and workflows")
	}
	if a := m.Advisor; a != nil {
		switch {
		case a.Type == "":
			return invalid("multiagent.advisor.type", "is required (enabled or disabled)")
		case a.Type == MultiagentEnabled && a.Model == "":
			return invalid("multiagent.advisor.model", "is required when the advisor is enabled")
		case a.Type == MultiagentDisabled && a.Model != "":
			return invalid("multiagent.advisor.model", "must be empty when the advisor is disabled")
		}
	}
	if err := m.Subagents.validate("multiagent.subagents"); err != nil {
		return err
	}
	return m.Workflows.validate("multiagent.workflows")
}

// validate checks a subagents or workflows member: its type, at most 20
// predefined agents (ids of 1–128 characters, versions of 1 or more, no
// advisor) and the inline switch's type.
func (s *MultiagentSpawn) validate(path string) error {
	if s == nil {
		return nil
	}
	if s.Type == "" {
		return invalid(path+".type", "is required (enabled or disabled)")
	}
	if s.Type == MultiagentDisabled && len(s.PredefinedAgents) > 0 {
		return invalid(path+".predefined_agents", "must be empty when %s is disabled", path)
	}
	if err := validateCount(path+".predefined_agents", len(s.PredefinedAgents), wire.MaxPredefinedAgents, "agents"); err != nil {
		return err
	}
	for i, e := range s.PredefinedAgents {
		p := fmt.Sprintf("%s.predefined_agents[%d]", path, i)
		switch e := e.(type) {
		case nil:
			return invalid(p, "must not be nil")
		case RosterAgentID:
			if err := validateLength(p, string(e), 1, wire.MaxAgentIDLen); err != nil {
				return err
			}
		case RosterAgent:
			if err := validateLength(p+".id", e.ID, 1, wire.MaxAgentIDLen); err != nil {
				return err
			}
			if e.Version != nil && *e.Version < 1 {
				return invalid(p+".version", "must be at least 1, got %d", *e.Version)
			}
		case RosterAdvisor:
			return invalid(p, "must be an agent id, an agent or self; the advisor is multiagent.advisor")
		}
	}
	if s.InlineAgents != nil && s.InlineAgents.Type == "" {
		return invalid(path+".inline_agents.type", "is required (enabled or disabled)")
	}
	return nil
}
