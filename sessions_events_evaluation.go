package mms

import "encoding/json"

// The R2 evaluation member of agent.tool_use and agent.mcp_tool_use:
// {type:"always_allow"} | {type:"always_ask"} | {type:"auto",
// evaluated_permission:{type:"allow"|"ask"|"deny", reason_code?}}.

// The evaluation types of [AgentToolUseEvent.Evaluation].
const (
	EvaluationAlwaysAllow = "always_allow"
	EvaluationAlwaysAsk   = "always_ask"
	EvaluationAuto        = "auto"
)

// evaluationVerdict reads an evaluation member as a verdict:
// always_allow allows, always_ask asks, auto gives its
// evaluated_permission (ask when it has none); a bare verdict (allow, ask,
// deny, as older services send) is itself. nil stays nil.
func evaluationVerdict(p *ToolPermission) *ToolPermission {
	if p == nil {
		return nil
	}
	switch p.Type {
	case EvaluationAlwaysAllow:
		return &ToolPermission{Type: PermissionAllow}
	case EvaluationAlwaysAsk:
		return &ToolPermission{Type: PermissionAsk}
	case EvaluationAuto:
		var inner ToolPermission
		if raw, ok := p.Extra["evaluated_permission"]; ok && json.Unmarshal(raw, &inner) == nil && inner.Type != "" {
			return &inner
		}
		return &ToolPermission{Type: PermissionAsk}
	}
	return p
}

// EvaluatedVerdict returns the verdict an evaluation carries (see
// [AgentToolUseEvent.Evaluation]): allow for always_allow, ask for
// always_ask, the nested evaluated_permission for auto; a bare verdict as
// it is; nil for nil.
func (p *ToolPermission) EvaluatedVerdict() *ToolPermission { return evaluationVerdict(p) }
