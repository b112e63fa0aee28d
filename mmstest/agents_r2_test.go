package mmstest

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// TestAgentsR2Rules: the R2 rules of an agent body, each on both sides:
// 256 tools, 20 predefined agents per list, the multiagent_20261001 and
// execution_identity shapes.
func TestAgentsR2Rules(t *testing.T) {
	s := newTestServer(t)
	base := agentOK(t, s, "POST", "/v1/agents", `{"name":"base","model":"m"}`)
	tools := func(n int) string {
		var parts []string
		for i := range n {
			parts = append(parts, fmt.Sprintf(`{"type":"custom","name":"t%d","description":"d","input_schema":{"type":"object"}}`, i))
		}
		return `"tools":[` + strings.Join(parts, ",") + `]`
	}
	ids := func(n int) string { return `[` + strings.TrimSuffix(strings.Repeat(`"`+base.ID+`",`, n), ",") + `]` }
	multi := func(inner string) string {
		return `{"name":"a","model":"m","multiagent":{"type":"multiagent_20261001"` + inner + `}}`
	}
	for _, tt := range []struct {
		name, body, msg string // msg "" = accepted
	}{
		{"256 tools", `{"name":"a","model":"m",` + tools(wire.MaxAgentTools) + `}`, ""},
		{"257 tools", `{"name":"a","model":"m",` + tools(wire.MaxAgentTools+1) + `}`, "tools: at most 256"},
		{"bare multiagent_20261001", multi(``), ""},
		{"20 subagents", multi(`,"subagents":{"type":"enabled","predefined_agents":` + ids(20) + `}`), ""},
		{"21 subagents", multi(`,"subagents":{"type":"enabled","predefined_agents":` + ids(21) + `}`), "multiagent.subagents.predefined_agents: List should have at most 20"},
		{"20 workflows", multi(`,"workflows":{"type":"enabled","predefined_agents":` + ids(20) + `}`), ""},
		{"21 workflows", multi(`,"workflows":{"type":"enabled","predefined_agents":` + ids(21) + `}`), "multiagent.workflows.predefined_agents"},
		{"unknown predefined agent", multi(`,"subagents":{"type":"enabled","predefined_agents":["agent_nope"]}`), "Agent not found"},
		{"predefined version 2 of 1", multi(`,"subagents":{"type":"enabled","predefined_agents":[{"type":"agent","id":"` + base.ID + `","version":2}]}`), "no version 2"},
		{"predefined advisor", multi(`,"subagents":{"type":"enabled","predefined_agents":[{"type":"advisor","model":"x"}]}`), "predefined_agents.0"},
		{"disabled with agents", multi(`,"subagents":{"type":"disabled","predefined_agents":["` + base.ID + `"]}`), "must be empty"},
		{"advisor without model", multi(`,"advisor":{"type":"enabled"}`), "multiagent.advisor.model: Field required"},
		{"advisor disabled with model", multi(`,"advisor":{"type":"disabled","model":"x"}`), "multiagent.advisor.model"},
		{"inline bad type", multi(`,"workflows":{"type":"enabled","inline_agents":{"type":"maybe"}}`), "multiagent.workflows.inline_agents.type"},
		{"unknown member", multi(`,"planner":{}`), "multiagent.planner: Extra inputs"},
		{"advisor on coordinator", `{"name":"a","model":"m","multiagent":{"type":"coordinator","agents":[],"advisor":{"type":"disabled"}}}`, "multiagent.advisor: Extra inputs"},
		{"aws role", `{"name":"a","model":"m","execution_identity":{"type":"aws_role","role_arn":"arn"}}`, ""},
		{"aws role without arn", `{"name":"a","model":"m","execution_identity":{"type":"aws_role"}}`, "execution_identity.role_arn: Field required"},
		{"service account with arn", `{"name":"a","model":"m","execution_identity":{"type":"service_account","role_arn":"arn"}}`, "execution_identity.role_arn"},
		{"unknown identity", `{"name":"a","model":"m","execution_identity":{"type":"gcp"}}`, "execution_identity.type"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := agentCall(t, s, "POST", "/v1/agents", tt.body)
			if tt.msg == "" {
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("%d %s", resp.StatusCode, body)
				}
				return
			}
			wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, tt.msg)
		})
	}
}

// TestAgentsR2Record: the record of a multiagent_20261001 agent carries
// every member with its defaults and resolved versions; the identity
// defaults to service_account and an update's null restores it.
func TestAgentsR2Record(t *testing.T) {
	s := newTestServer(t)
	base := agentOK(t, s, "POST", "/v1/agents", `{"name":"base","model":"m"}`)
	if got := string(base.ExecutionIdentity); got != `{"type":"service_account"}` {
		t.Errorf("default identity %s", got)
	}
	a := agentOK(t, s, "POST", "/v1/agents", `{"name":"a","model":"m","execution_identity":{"type":"aws_role","role_arn":"arn"},`+
		`"multiagent":{"type":"multiagent_20261001","subagents":{"type":"enabled","predefined_agents":["`+base.ID+`",{"type":"self"}]}}}`)
	want := `{"advisor":{"type":"disabled"},"subagents":{"inline_agents":{"type":"enabled"},"predefined_agents":[{"id":"` + base.ID +
		`","type":"agent","version":1},{"type":"self"}],"type":"enabled"},"type":"multiagent_20261001",` +
		`"workflows":{"inline_agents":{"type":"enabled"},"predefined_agents":[],"type":"enabled"}}`
	if got := strings.TrimSpace(string(a.Multiagent)); got != want {
		t.Errorf("multiagent\n got %s\nwant %s", got, want)
	}
	up := agentOK(t, s, "POST", "/v1/agents/"+a.ID, `{"version":1,"execution_identity":null}`)
	if got := string(up.ExecutionIdentity); got != `{"type":"service_account"}` || up.Version != 2 {
		t.Errorf("after null: %s v%d", got, up.Version)
	}
	kept := agentOK(t, s, "POST", "/v1/agents/"+a.ID, `{"version":2,"name":"b"}`)
	if string(kept.ExecutionIdentity) != string(up.ExecutionIdentity) || string(kept.Multiagent) != string(up.Multiagent) {
		t.Errorf("an update without the members changed them: %s %s", kept.ExecutionIdentity, kept.Multiagent)
	}
}

// TestSessionR2Queries: the events list's types[] is a closed enum
// (workflow_run.* included) and the thread list takes statuses[].
func TestSessionR2Queries(t *testing.T) {
	s, a := sessionFixture(t)
	sess := newSession(t, s, a.ID, testEnvID)
	for _, tt := range []struct {
		path   string
		status int
	}{
		{"/events?types[]=user.message&types[]=workflow_run.status_ended", http.StatusOK},
		{"/events?types[]=session.usage", http.StatusOK},
		{"/events?types[]=user.message&types[]=agent.nap", http.StatusBadRequest},
		{"/threads?statuses[]=running&statuses[]=terminated", http.StatusOK},
		{"/threads?statuses[]=rescheduling", http.StatusOK},
		{"/threads?statuses[]=sleeping", http.StatusBadRequest},
	} {
		resp, body := agentCall(t, s, "GET", "/v1/sessions/"+sess.ID+tt.path, "")
		if resp.StatusCode != tt.status {
			t.Errorf("%s: %d, want %d: %s", tt.path, resp.StatusCode, tt.status, body)
		}
	}
}
