package mms

import "encoding/json"

// SessionThreadInlineAgent is an unsaved agent defined in a workflow plan
// or at spawn time (the wire type "inline"), the agent of a thread that
// such an agent runs.
type SessionThreadInlineAgent struct {
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
