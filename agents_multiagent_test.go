package mms_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
)

// predefined returns n predefined agents, agent ids "agent_0"….
func predefined(n int) []mms.RosterEntry {
	out := make([]mms.RosterEntry, n)
	for i := range out {
		out[i] = mms.RosterAgentID(fmt.Sprintf("agent_%d", i))
	}
	return out
}

// TestMultiagentAndIdentityValidation: the multiagent_20261001 and
// execution_identity rules, each on both sides, refused before sending.
func TestMultiagentAndIdentityValidation(t *testing.T) {
	ok := func(m *mms.AgentMultiagent, x *mms.ExecutionIdentity) mms.AgentCreateParams {
		return mms.AgentCreateParams{Name: "a", Model: mms.AgentModel("m"), Multiagent: m, ExecutionIdentity: x}
	}
	v2 := func(f func(m *mms.AgentMultiagent)) *mms.AgentMultiagent {
		m := &mms.AgentMultiagent{Type: mms.Multiagent20261001}
		f(m)
		return m
	}
	for _, tt := range []struct {
		name  string
		p     mms.AgentCreateParams
		field string
	}{
		{"bare multiagent_20261001", ok(v2(func(*mms.AgentMultiagent) {}), nil), ""},
		{"20 predefined subagents", ok(v2(func(m *mms.AgentMultiagent) { m.Subagents = mms.SpawnEnabled(predefined(20)...) }), nil), ""},
		{"21 predefined subagents", ok(v2(func(m *mms.AgentMultiagent) { m.Subagents = mms.SpawnEnabled(predefined(21)...) }), nil),
			"multiagent.subagents.predefined_agents"},
		{"20 predefined workflows", ok(v2(func(m *mms.AgentMultiagent) { m.Workflows = mms.SpawnEnabled(predefined(20)...) }), nil), ""},
		{"21 predefined workflows", ok(v2(func(m *mms.AgentMultiagent) { m.Workflows = mms.SpawnEnabled(predefined(21)...) }), nil),
			"multiagent.workflows.predefined_agents"},
		{"20 each, lists independent", ok(v2(func(m *mms.AgentMultiagent) {
			m.Subagents, m.Workflows = mms.SpawnEnabled(predefined(20)...), mms.SpawnEnabled(predefined(20)...)
		}), nil), ""},
		{"predefined id 128", ok(v2(func(m *mms.AgentMultiagent) {
			m.Subagents = mms.SpawnEnabled(mms.RosterAgent{ID: strings.Repeat("a", 128), Version: mms.Ptr(1)}, mms.RosterSelf{})
		}), nil), ""},
		{"predefined id 129", ok(v2(func(m *mms.AgentMultiagent) {
			m.Subagents = mms.SpawnEnabled(mms.RosterAgent{ID: strings.Repeat("a", 129)})
		}), nil), "multiagent.subagents.predefined_agents[0].id"},
		{"predefined version 0", ok(v2(func(m *mms.AgentMultiagent) {
			m.Subagents = mms.SpawnEnabled(mms.RosterAgent{ID: "a", Version: mms.Ptr(0)})
		}), nil), "multiagent.subagents.predefined_agents[0].version"},
		{"predefined advisor", ok(v2(func(m *mms.AgentMultiagent) { m.Workflows = mms.SpawnEnabled(mms.RosterAdvisor{Model: "x"}) }), nil),
			"multiagent.workflows.predefined_agents[0]"},
		{"disabled with agents", ok(v2(func(m *mms.AgentMultiagent) {
			m.Subagents = &mms.MultiagentSpawn{Type: mms.MultiagentDisabled, PredefinedAgents: predefined(1)}
		}), nil), "multiagent.subagents.predefined_agents"},
		{"disabled", ok(v2(func(m *mms.AgentMultiagent) { m.Subagents = mms.SpawnDisabled() }), nil), ""},
		{"spawn without type", ok(v2(func(m *mms.AgentMultiagent) { m.Subagents = &mms.MultiagentSpawn{} }), nil), "multiagent.subagents.type"},
		{"inline without type", ok(v2(func(m *mms.AgentMultiagent) {
			m.Subagents = &mms.MultiagentSpawn{Type: mms.MultiagentEnabled, InlineAgents: &mms.MultiagentInlineAgents{}}
		}), nil), "multiagent.subagents.inline_agents.type"},
		{"advisor enabled", ok(v2(func(m *mms.AgentMultiagent) { m.Advisor = mms.AdvisorEnabled("big") }), nil), ""},
		{"advisor without model", ok(v2(func(m *mms.AgentMultiagent) { m.Advisor = mms.AdvisorEnabled("") }), nil), "multiagent.advisor.model"},
		{"advisor disabled with model", ok(v2(func(m *mms.AgentMultiagent) {
			m.Advisor = &mms.MultiagentAdvisor{Type: mms.MultiagentDisabled, Model: "x"}
		}), nil), "multiagent.advisor.model"},
		{"advisor without type", ok(v2(func(m *mms.AgentMultiagent) { m.Advisor = &mms.MultiagentAdvisor{} }), nil), "multiagent.advisor.type"},
		{"roster on multiagent_20261001", ok(v2(func(m *mms.AgentMultiagent) { m.Agents = predefined(1) }), nil), "multiagent.agents"},
		{"advisor on coordinator", ok(&mms.AgentMultiagent{Agents: predefined(1), Advisor: mms.AdvisorDisabled()}, nil), "multiagent.advisor"},
		{"subagents on coordinator", ok(&mms.AgentMultiagent{Type: mms.MultiagentCoordinator, Subagents: mms.SpawnDisabled()}, nil), "multiagent.subagents"},
		{"service account", ok(nil, mms.ServiceAccountIdentity()), ""},
		{"aws role", ok(nil, mms.AWSRoleIdentity("arn:aws:iam::1:role/r")), ""},
		{"aws role without arn", ok(nil, mms.AWSRoleIdentity("")), "execution_identity.role_arn"},
		{"service account with arn", ok(nil, &mms.ExecutionIdentity{Type: mms.ExecutionIdentityServiceAccount, RoleARN: "arn"}),
			"execution_identity.role_arn"},
		{"identity without type", ok(nil, &mms.ExecutionIdentity{}), "execution_identity.type"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{body: testAgentJSON})
			c := newTestClient(t, srv)
			_, err := c.Agents.Create(context.Background(), tt.p)
			checkAgentValidation(t, err, tt.field, len(srv.requests()))
		})
	}
	for _, tt := range []struct {
		name  string
		p     mms.AgentUpdateParams
		field string
	}{
		{"clear identity", mms.AgentUpdateParams{Version: 1, ExecutionIdentity: mms.Clear[mms.ExecutionIdentity]()}, ""},
		{"set aws role", mms.AgentUpdateParams{Version: 1, ExecutionIdentity: mms.Set(*mms.AWSRoleIdentity("arn"))}, ""},
		{"aws role without arn", mms.AgentUpdateParams{Version: 1, ExecutionIdentity: mms.Set(mms.ExecutionIdentity{Type: mms.ExecutionIdentityAWSRole})},
			"execution_identity.role_arn"},
		{"21 predefined", mms.AgentUpdateParams{Version: 1, Multiagent: mms.Set(mms.AgentMultiagent{Type: mms.Multiagent20261001,
			Subagents: mms.SpawnEnabled(predefined(21)...)})}, "multiagent.subagents.predefined_agents"},
	} {
		t.Run("update "+tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{body: testAgentJSON})
			c := newTestClient(t, srv)
			_, err := c.Agents.Update(context.Background(), "agent_1", tt.p)
			checkAgentValidation(t, err, tt.field, len(srv.requests()))
		})
	}
}

// TestMultiagentEncoding: an empty Type goes out as coordinator, the
// newer form without a roster, and the identity's null clears.
func TestMultiagentEncoding(t *testing.T) {
	for _, tt := range []struct {
		name string
		v    any
		want string
	}{
		{"coordinator by default", mms.AgentMultiagent{Agents: []mms.RosterEntry{mms.RosterAgentID("a")}}, `{"type":"coordinator","agents":["a"]}`},
		{"multiagent_20261001", mms.AgentMultiagent{Type: mms.Multiagent20261001, Advisor: mms.AdvisorEnabled("big"),
			Subagents: mms.SpawnEnabled(mms.RosterAgentID("a"), mms.RosterSelf{}), Workflows: mms.SpawnDisabled()},
			`{"type":"multiagent_20261001","advisor":{"type":"enabled","model":"big"},` +
				`"subagents":{"type":"enabled","predefined_agents":["a",{"type":"self"}]},"workflows":{"type":"disabled"}}`},
		{"identity cleared", mms.AgentUpdateParams{Version: 2, ExecutionIdentity: mms.Clear[mms.ExecutionIdentity]()},
			`{"version":2,"execution_identity":null}`},
		{"aws role", mms.AgentCreateParams{Name: "a", Model: mms.AgentModel("m"), ExecutionIdentity: mms.AWSRoleIdentity("arn")},
			`{"name":"a","model":"m","execution_identity":{"type":"aws_role","role_arn":"arn"}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := json.Marshal(tt.v)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(out))
		})
	}
}

// TestMultiagentAgainstFake: the fake resolves predefined agents to
// versions in the record, fills the defaults, keeps the identity, and a
// session snapshots the subagents in full; a thread list filters by
// status.
func TestMultiagentAgainstFake(t *testing.T) {
	f := newSessionFake(t)
	c, ctx := f.c, context.Background()
	lead, err := c.Agents.Create(ctx, mms.AgentCreateParams{Name: "lead", Model: mms.AgentModel("m"),
		ExecutionIdentity: mms.AWSRoleIdentity("arn:aws:iam::1:role/lead"),
		Multiagent: &mms.AgentMultiagent{Type: mms.Multiagent20261001, Advisor: mms.AdvisorEnabled("big"),
			Subagents: mms.SpawnEnabled(mms.RosterAgentID(f.agent.ID), mms.RosterSelf{})}})
	require.NoError(t, err)
	m := lead.Multiagent
	require.NotNil(t, m)
	assert.Equal(t, mms.Multiagent20261001, m.Type)
	assert.Equal(t, mms.AdvisorEnabled("big"), m.Advisor)
	require.NotNil(t, m.Subagents)
	assert.Equal(t, []mms.RosterEntry{mms.RosterAgent{ID: f.agent.ID, Version: mms.Ptr(1)}, mms.RosterSelf{}}, m.Subagents.PredefinedAgents)
	assert.Equal(t, &mms.MultiagentInlineAgents{Type: mms.MultiagentEnabled}, m.Subagents.InlineAgents)
	require.NotNil(t, m.Workflows, "the record carries every member")
	assert.Equal(t, mms.MultiagentEnabled, m.Workflows.Type)
	assert.Equal(t, mms.AWSRoleIdentity("arn:aws:iam::1:role/lead"), lead.ExecutionIdentity)
	assert.Empty(t, lead.Extra)

	up, err := c.Agents.Update(ctx, lead.ID, mms.AgentUpdateParams{Version: lead.Version, ExecutionIdentity: mms.Clear[mms.ExecutionIdentity]()})
	require.NoError(t, err)
	assert.Equal(t, mms.ServiceAccountIdentity(), up.ExecutionIdentity, "null restores the default")

	s, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(lead.ID), EnvironmentID: f.env})
	require.NoError(t, err)
	sm := s.Agent.Multiagent
	require.NotNil(t, sm)
	assert.Equal(t, mms.Multiagent20261001, sm.Type)
	require.NotNil(t, sm.Subagents)
	require.Len(t, sm.Subagents.PredefinedAgents, 2)
	worker := sm.Subagents.PredefinedAgents[0].(mms.SessionThreadAgent)
	assert.Equal(t, "worker", worker.Name)
	assert.Equal(t, mms.ServiceAccountIdentity(), worker.ExecutionIdentity)
	assert.Equal(t, "lead", sm.Subagents.PredefinedAgents[1].(mms.SessionThreadAgent).Name)
	assert.Equal(t, mms.ServiceAccountIdentity(), s.Agent.ExecutionIdentity)

	count := func(p mms.SessionThreadListParams) int {
		page, err := c.Sessions.Threads.ListPage(ctx, s.ID, p)
		require.NoError(t, err)
		for _, th := range page.Data {
			assert.Nil(t, th.WorkflowRunID)
			assert.Empty(t, th.Extra)
		}
		return len(page.Data)
	}
	assert.Equal(t, 2, count(mms.SessionThreadListParams{}))
	assert.Equal(t, 2, count(mms.SessionThreadListParams{Statuses: []mms.SessionStatus{mms.SessionStatusIdle}}))
	assert.Equal(t, 0, count(mms.SessionThreadListParams{Statuses: []mms.SessionStatus{mms.SessionStatusRunning, mms.SessionStatusTerminated}}))
	_, err = c.Sessions.Threads.ListPage(ctx, s.ID, mms.SessionThreadListParams{Statuses: []mms.SessionStatus{""}})
	var ve *mms.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, "statuses[0]", ve.Field)
	_, err = c.Sessions.Threads.ListPage(ctx, s.ID, mms.SessionThreadListParams{Statuses: []mms.SessionStatus{"sleeping"}})
	assert.Equal(t, http.StatusBadRequest, apiStatus(err), "the fake knows the statuses")

	_, err = c.Agents.Create(ctx, mms.AgentCreateParams{Name: "x", Model: mms.AgentModel("m"),
		Multiagent: &mms.AgentMultiagent{Type: mms.Multiagent20261001, Workflows: mms.SpawnEnabled(mms.RosterAgentID("agent_missing"))}})
	assert.Equal(t, http.StatusBadRequest, apiStatus(err), "a predefined agent must exist")
}
