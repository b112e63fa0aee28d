package mms

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEvaluationPolicyVerdict: R2's evaluation policies give the verdict
// the runner acts on; before, an always_allow call read as "ask" and
// waited for a confirmation that never came.
func TestEvaluationPolicyVerdict(t *testing.T) {
	for _, tt := range []struct {
		name, members, want string
	}{
		{"always_allow", `"evaluation":{"type":"always_allow"},"evaluated_permission":"allow"`, PermissionAllow},
		{"always_allow alone", `"evaluation":{"type":"always_allow"}`, PermissionAllow},
		{"always_ask", `"evaluation":{"type":"always_ask"},"evaluated_permission":"ask"`, PermissionAsk},
		{"auto allow", `"evaluation":{"type":"auto","evaluated_permission":{"type":"allow"}},"evaluated_permission":"allow"`, PermissionAllow},
		{"auto deny", `"evaluation":{"type":"auto","evaluated_permission":{"type":"deny","reason_code":"high_risk"}},"evaluated_permission":"deny"`, PermissionDeny},
		{"auto without verdict", `"evaluation":{"type":"auto"}`, PermissionAsk},
		{"flat deny wins over always_allow", `"evaluation":{"type":"always_allow"},"evaluated_permission":"deny"`, PermissionDeny},
		{"older bare verdict", `"evaluation":{"type":"ask","reason_code":"indeterminate"}`, PermissionAsk},
		{"unknown policy", `"evaluation":{"type":"sometimes"}`, PermissionAsk},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, typ := range []string{"agent.tool_use", "agent.mcp_tool_use"} {
				ev, err := sessionEventUnion.Decode([]byte(`{"type":"` + typ + `","id":"sevt_1","name":"bash","mcp_server_name":"s","input":{},` + tt.members + `}`))
				require.NoError(t, err)
				got := ev.(interface{ Permission() string }).Permission()
				assert.Equal(t, tt.want, got, typ)
			}
		})
	}
	auto := &ToolPermission{Type: EvaluationAuto, Extra: map[string]json.RawMessage{"evaluated_permission": json.RawMessage(`{"type":"deny","reason_code":"r"}`)}}
	assert.Equal(t, &ToolPermission{Type: PermissionDeny, ReasonCode: "r"}, auto.EvaluatedVerdict())
	assert.Nil(t, (*ToolPermission)(nil).EvaluatedVerdict())
}
