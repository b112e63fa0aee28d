package mmstest

import (
	"encoding/json"
	"fmt"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The multiagent_20261001 form of an agent's multiagent member and the
// execution_identity member (agents.md "Additions from R2" §A):
//
//   - multiagent {type:"multiagent_20261001", advisor?, subagents?,
//     workflows?}: advisor {type:"enabled", model} | {type:"disabled"}
//     (default disabled); subagents and workflows {type:"enabled",
//     predefined_agents?, inline_agents?} | {type:"disabled"} (default
//     enabled), predefined_agents at most 20 of an agent id, {type:"agent",
//     id, version?} or {type:"self"}, inline_agents {type:"enabled"}
//     (default) | {type:"disabled"}. The record carries all three members,
//     each predefined agent resolved to {type:"agent", id, version} (self
//     kept); a session snapshot resolves them to full agent snapshots. An
//     agent id naming no agent is a 400.
//   - execution_identity {type:"service_account"} | {type:"aws_role",
//     role_arn}: null, absent (create) or service_account is the default,
//     which the record spells {type:"service_account"}; an update replaces
//     it whole.

const multiagent20261001 = "multiagent_20261001"

// multiagentType is the type of a multiagent member ("" for null or
// absent, or a member without a string type).
func multiagentType(raw json.RawMessage) string {
	var m struct {
		Type string `json:"type"`
	}
	if raw == nil || isNullJSON(raw) || json.Unmarshal(raw, &m) != nil {
		return ""
	}
	return m.Type
}

// multiagentBody is a multiagent_20261001 member as sent.
type multiagentBody struct {
	Type      string          `json:"type"`
	Advisor   json.RawMessage `json:"advisor"`
	Subagents json.RawMessage `json:"subagents"`
	Workflows json.RawMessage `json:"workflows"`
}

type advisorBody struct {
	Type  string  `json:"type"`
	Model *string `json:"model"`
}

type spawnBody struct {
	Type             string            `json:"type"`
	PredefinedAgents []json.RawMessage `json:"predefined_agents"`
	InlineAgents     json.RawMessage   `json:"inline_agents"`
}

// predefinedEntry is one predefined agent as sent.
type predefinedEntry struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Version *int   `json:"version"`
}

// resolveAgentFunc gives the latest version of an agent, or false when no
// agent has the id.
type resolveAgentFunc func(id string) (version int, ok bool)

// recordMultiagent checks a multiagent_20261001 member and returns it as
// the record holds it, every member present, predefined agents resolved
// by resolve.
func recordMultiagent(raw json.RawMessage, resolve resolveAgentFunc) (json.RawMessage, error) {
	var b multiagentBody
	if err := strictDecode("multiagent", raw, &b); err != nil {
		return nil, err
	}
	advisor := map[string]any{"type": "disabled"}
	if b.Advisor != nil && !isNullJSON(b.Advisor) {
		var a advisorBody
		if err := strictDecode("multiagent.advisor", b.Advisor, &a); err != nil {
			return nil, err
		}
		switch {
		case a.Type == "enabled" && (a.Model == nil || *a.Model == ""):
			return nil, invalid("multiagent.advisor.model: Field required")
		case a.Type == "enabled":
			advisor = map[string]any{"type": "enabled", "model": *a.Model}
		case a.Type == "disabled" && a.Model != nil:
			return nil, invalid("multiagent.advisor.model: Extra inputs are not permitted")
		case a.Type != "disabled":
			return nil, invalid("multiagent.advisor.type: Input should be 'enabled' or 'disabled'")
		}
	}
	out := map[string]any{"type": multiagent20261001, "advisor": advisor}
	for _, m := range []struct {
		name string
		raw  json.RawMessage
	}{{"subagents", b.Subagents}, {"workflows", b.Workflows}} {
		rec, err := recordSpawn("multiagent."+m.name, m.raw, resolve)
		if err != nil {
			return nil, err
		}
		out[m.name] = rec
	}
	return encodeJSON(out), nil
}

// recordSpawn checks a subagents or workflows member and returns its
// record form.
func recordSpawn(field string, raw json.RawMessage, resolve resolveAgentFunc) (map[string]any, error) {
	s := spawnBody{Type: "enabled"}
	if raw != nil && !isNullJSON(raw) {
		s.Type = ""
		if err := strictDecode(field, raw, &s); err != nil {
			return nil, err
		}
	}
	if s.Type != "enabled" && s.Type != "disabled" {
		return nil, invalid("%s.type: Input should be 'enabled' or 'disabled'", field)
	}
	if s.Type == "disabled" && len(s.PredefinedAgents) > 0 {
		return nil, invalid("%s.predefined_agents: must be empty when %s is disabled", field, field)
	}
	if len(s.PredefinedAgents) > wire.MaxPredefinedAgents {
		return nil, invalid("%s.predefined_agents: List should have at most %d items after validation, not %d",
			field, wire.MaxPredefinedAgents, len(s.PredefinedAgents))
	}
	agents := []any{}
	for i, e := range s.PredefinedAgents {
		path := fmt.Sprintf("%s.predefined_agents.%d", field, i)
		var entry predefinedEntry
		if json.Unmarshal(e, &entry.ID) == nil {
			entry.Type = "agent"
		} else {
			if err := strictDecode(path, e, &entry); err != nil {
				return nil, err
			}
			path += ".id"
		}
		switch entry.Type {
		case "self":
			agents = append(agents, map[string]any{"type": "self"})
			continue
		case "agent":
		default:
			return nil, invalid("%s.type: Input should be 'agent' or 'self'", path)
		}
		if n := textLen(entry.ID); n < 1 || n > wire.MaxAgentIDLen {
			return nil, invalid("%s: String should have 1 to %d characters", path, wire.MaxAgentIDLen)
		}
		latest, ok := resolve(entry.ID)
		if !ok {
			return nil, invalid("%s: Agent not found: %s", path, entry.ID)
		}
		v := latest
		if entry.Version != nil {
			if *entry.Version < 1 || *entry.Version > latest {
				return nil, invalid("%s: Agent %s has no version %d", path, entry.ID, *entry.Version)
			}
			v = *entry.Version
		}
		agents = append(agents, map[string]any{"type": "agent", "id": entry.ID, "version": v})
	}
	inline := map[string]any{"type": "enabled"}
	if s.InlineAgents != nil && !isNullJSON(s.InlineAgents) {
		var in struct {
			Type string `json:"type"`
		}
		if err := strictDecode(field+".inline_agents", s.InlineAgents, &in); err != nil {
			return nil, err
		}
		if in.Type != "enabled" && in.Type != "disabled" {
			return nil, invalid("%s.inline_agents.type: Input should be 'enabled' or 'disabled'", field)
		}
		inline["type"] = in.Type
	}
	return map[string]any{"type": s.Type, "predefined_agents": agents, "inline_agents": inline}, nil
}

// defaultExecutionIdentity is the record's spelling of the default.
var defaultExecutionIdentity = json.RawMessage(`{"type":"service_account"}`)

// recordExecutionIdentity checks an execution_identity member and returns
// it as the record holds it: null and service_account as the default.
func recordExecutionIdentity(raw json.RawMessage) (json.RawMessage, error) {
	if raw == nil || isNullJSON(raw) {
		return defaultExecutionIdentity, nil
	}
	var x struct {
		Type    string  `json:"type"`
		RoleARN *string `json:"role_arn"`
	}
	if err := strictDecode("execution_identity", raw, &x); err != nil {
		return nil, err
	}
	switch x.Type {
	case "service_account":
		if x.RoleARN != nil {
			return nil, invalid("execution_identity.role_arn: Extra inputs are not permitted")
		}
		return defaultExecutionIdentity, nil
	case "aws_role":
		if x.RoleARN == nil || *x.RoleARN == "" {
			return nil, invalid("execution_identity.role_arn: Field required")
		}
		return encodeJSON(map[string]string{"type": "aws_role", "role_arn": *x.RoleARN}), nil
	}
	return nil, invalid("execution_identity.type: Input should be 'service_account' or 'aws_role'")
}

// latestVersion is a resolveAgentFunc over st's agents; st.mu must be
// held.
func (st *agentStore) latestVersion(id string) (int, bool) {
	for _, a := range st.agents {
		if a.latest().ID == id {
			return a.latest().Version, true
		}
	}
	return 0, false
}

// latestVersionLocked is latestVersion taking st.mu.
func (st *agentStore) latestVersionLocked(id string) (int, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.latestVersion(id)
}

// snapshotMultiagent resolves a multiagent_20261001 record for a session
// snapshot: each predefined agent becomes its snapshot (self the
// coordinator's). It returns the member and the subagents' snapshots, the
// threads a session starts with.
func (st *sessionStore) snapshotMultiagent(coord agentWire) (json.RawMessage, []json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(coord.Multiagent, &m); err != nil {
		return nil, nil, invalid("agent.multiagent: %v", err)
	}
	var roster []json.RawMessage
	for _, name := range []string{"subagents", "workflows"} {
		var s map[string]json.RawMessage
		if err := json.Unmarshal(m[name], &s); err != nil {
			return nil, nil, invalid("agent.multiagent.%s: %v", name, err)
		}
		var entries []predefinedEntry
		_ = json.Unmarshal(s["predefined_agents"], &entries)
		snaps := []json.RawMessage{}
		for _, e := range entries {
			snap := snapshotOf(coord)
			if e.Type != "self" {
				v := 0
				if e.Version != nil {
					v = *e.Version
				}
				a, err := st.findAgentVersion(e.ID, v)
				if err != nil {
					return nil, nil, err
				}
				snap = snapshotOf(a)
			}
			snaps = append(snaps, encodeJSON(snap))
		}
		s["predefined_agents"] = encodeJSON(snaps)
		m[name] = encodeJSON(s)
		if name == "subagents" {
			roster = snaps
		}
	}
	return encodeJSON(m), roster, nil
}

// checkCoordinatorMembers refuses the multiagent_20261001 members on a
// coordinator.
func checkCoordinatorMembers(raw json.RawMessage) error {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil // checkRoster reports it
	}
	for _, name := range []string{"advisor", "subagents", "workflows"} {
		if _, ok := m[name]; ok {
			return fmt.Errorf("multiagent.%s: Extra inputs are not permitted", name)
		}
	}
	return nil
}
