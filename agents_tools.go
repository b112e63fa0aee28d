package mms

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// The tools of an agent: the toolsets and custom tools of Agent.Tools, the
// per-tool configs of a toolset, and the permission policies. Records and
// params share these types: an agent's tools go back into an update as they
// are.

// An AgentTool is one entry of an agent's tools: [AgentToolset20260401],
// [AgentMCPToolset], [AgentCustomTool] or [UnknownAgentTool].
type AgentTool interface {
	json.Marshaler
	isAgentTool()
	validate(path string) error
}

var agentToolUnion = codec.NewUnion[AgentTool]("AgentTool", UnknownAgentTool{}).
	Add("agent_toolset_20260401", AgentToolset20260401{}).
	Add("mcp_toolset", AgentMCPToolset{}).
	Add("custom", AgentCustomTool{})

// AgentToolset20260401 is the built-in toolset (the wire type
// "agent_toolset_20260401"): bash, file editing and reading, glob, grep,
// web fetch and web search, executed by the service.
type AgentToolset20260401 struct {
	// DefaultConfig applies to every tool of the set that Configs does not
	// name; nil leaves the service's default.
	DefaultConfig *AgentToolsetDefaultConfig `json:"default_config,omitzero"`
	// Configs configures single tools of the set.
	Configs []AgentToolConfig `json:"configs,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AgentMCPToolset exposes the tools of one of the agent's MCP servers
// (the wire type "mcp_toolset").
type AgentMCPToolset struct {
	// MCPServerName names an entry of the agent's MCP servers. Required.
	MCPServerName string `json:"mcp_server_name"`
	// DefaultConfig applies to every tool of the server that Configs does
	// not name; nil leaves the service's default.
	DefaultConfig *AgentToolsetDefaultConfig `json:"default_config,omitzero"`
	// Configs configures single tools of the server, by name.
	Configs []AgentMCPToolConfig `json:"configs,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AgentCustomTool is a tool the API client executes (the wire type
// "custom"): the session asks for it with an agent.custom_tool_use event.
type AgentCustomTool struct {
	// Name is 1 to 128 characters from [a-zA-Z0-9_-].
	Name string `json:"name"`
	// Description tells the model what the tool does; 1 to 1,024
	// characters (the schema's bound; the spec's table says 4,096).
	Description string `json:"description"`
	// InputSchema is the JSON Schema of the tool's input; its "type" must
	// be "object".
	InputSchema InputSchema `json:"input_schema"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownAgentTool keeps a tool type this SDK version cannot name; it is
// sent back as it came.
type UnknownAgentTool struct {
	Type string
	Raw  json.RawMessage
}

// AgentToolsetDefaultConfig is the default_config of a toolset.
//
//mms:json
type AgentToolsetDefaultConfig struct {
	// Enabled switches the tools on or off; nil leaves the default.
	Enabled *bool `json:"enabled,omitzero"`
	// PermissionPolicy says whether a call needs a confirmation; nil
	// leaves the default.
	PermissionPolicy PermissionPolicy `json:"permission_policy,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AgentMCPToolConfig configures one tool of an MCP toolset.
//
//mms:json
type AgentMCPToolConfig struct {
	// Name is the tool's name on its MCP server, 1 to 128 characters.
	// Required.
	Name string `json:"name"`
	// Enabled switches the tool on or off; nil leaves the default.
	Enabled *bool `json:"enabled,omitzero"`
	// PermissionPolicy says whether a call needs a confirmation; nil
	// leaves the default.
	PermissionPolicy PermissionPolicy `json:"permission_policy,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A PermissionPolicy says whether the agent may run a tool on its own:
// [AlwaysAllowPolicy], [AlwaysAskPolicy], [AutoPolicy] or
// [UnknownPermissionPolicy] (which the service's newer policies decode
// to; treat it as "ask").
type PermissionPolicy interface {
	json.Marshaler
	isPermissionPolicy()
}

var permissionPolicyUnion = codec.NewUnion[PermissionPolicy]("PermissionPolicy", UnknownPermissionPolicy{}).
	Add("always_allow", AlwaysAllowPolicy{}).
	Add("always_ask", AlwaysAskPolicy{}).
	Add("auto", AutoPolicy{})

// AlwaysAllowPolicy runs the tool without asking (the wire type
// "always_allow").
type AlwaysAllowPolicy struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AlwaysAskPolicy asks the client to confirm each call (the wire type
// "always_ask").
type AlwaysAskPolicy struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AutoPolicy lets the service decide per call (the wire type "auto").
type AutoPolicy struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownPermissionPolicy keeps a policy this SDK version cannot name.
type UnknownPermissionPolicy struct {
	Type string
	Raw  json.RawMessage
}

// An AgentToolConfig configures one tool of the built-in toolset. Its
// variants are named for the tool: [BashToolConfig], [EditToolConfig],
// [ReadToolConfig], [WriteToolConfig], [GlobToolConfig], [GrepToolConfig],
// [WebFetchToolConfig], [WebSearchToolConfig], and
// [UnknownAgentToolConfig]. A record names the tool twice, in "type" and
// "name"; the request form has only "name" (its schema defines no "type"),
// so the request encoding writes "name" alone and the response encoding
// both. A config that carries only "name" decodes by it, and one whose
// "name" differs from its "type" decodes as Unknown, so nothing is lost.
type AgentToolConfig interface {
	json.Marshaler
	isAgentToolConfig()
}

type toolConfigVariant struct {
	name    string
	variant AgentToolConfig
}

// toolConfigVariants lists the built-in tools' config types by name.
//
//mms:variants AgentToolConfig
var toolConfigVariants = []toolConfigVariant{
	{"bash", BashToolConfig{}}, {"edit", EditToolConfig{}}, {"read", ReadToolConfig{}},
	{"write", WriteToolConfig{}}, {"glob", GlobToolConfig{}}, {"grep", GrepToolConfig{}},
	{"web_fetch", WebFetchToolConfig{}}, {"web_search", WebSearchToolConfig{}},
}

var agentToolConfigUnion = func() *codec.Union[AgentToolConfig] {
	u := codec.NewUnion[AgentToolConfig]("AgentToolConfig", UnknownAgentToolConfig{})
	for _, v := range toolConfigVariants {
		u.AddSpec(v.name, v.variant, codec.Spec{Const: map[string]string{"name": v.name}, RequestOmitsType: true})
	}
	// The request form of a config has no "type", whichever the tool.
	codec.Register(UnknownAgentToolConfig{}, codec.Spec{RequestOmitsType: true})
	return u.Custom(decodeToolConfigByName)
}()

// decodeToolConfigByName decodes a config without "type" (the params
// form may omit it) by its "name".
func decodeToolConfigByName(data []byte) (AgentToolConfig, bool, error) {
	if codec.Member(data, "type") != nil {
		return nil, false, nil
	}
	raw := codec.Member(data, "name")
	if raw == nil {
		return nil, false, nil
	}
	name, err := codec.Unquote(codec.TrimSpace(raw))
	if err != nil {
		return nil, false, nil
	}
	i := slices.IndexFunc(toolConfigVariants, func(v toolConfigVariant) bool { return v.name == name })
	if i < 0 {
		return UnknownAgentToolConfig{Type: name, Raw: codec.Clone(data)}, true, nil
	}
	v := reflect.New(reflect.TypeOf(toolConfigVariants[i].variant)).Elem()
	if err := codec.DecodeStruct(data, v); err != nil {
		return nil, true, fmt.Errorf("%s config: %w", name, err)
	}
	return v.Interface().(AgentToolConfig), true, nil
}

// BashToolConfig configures the bash tool ("bash").
type BashToolConfig struct {
	// Enabled switches the tool on or off; nil leaves the default.
	Enabled *bool `json:"enabled,omitzero"`
	// PermissionPolicy says whether a call needs a confirmation; nil
	// leaves the default.
	PermissionPolicy PermissionPolicy `json:"permission_policy,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// EditToolConfig configures the file edit tool ("edit"); fields as in
// [BashToolConfig].
type EditToolConfig struct {
	Enabled          *bool            `json:"enabled,omitzero"`
	PermissionPolicy PermissionPolicy `json:"permission_policy,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ReadToolConfig configures the file read tool ("read"); fields as in
// [BashToolConfig].
type ReadToolConfig struct {
	Enabled          *bool            `json:"enabled,omitzero"`
	PermissionPolicy PermissionPolicy `json:"permission_policy,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WriteToolConfig configures the file write tool ("write"); fields as in
// [BashToolConfig].
type WriteToolConfig struct {
	Enabled          *bool            `json:"enabled,omitzero"`
	PermissionPolicy PermissionPolicy `json:"permission_policy,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// GlobToolConfig configures the glob tool ("glob"); fields as in
// [BashToolConfig].
type GlobToolConfig struct {
	Enabled          *bool            `json:"enabled,omitzero"`
	PermissionPolicy PermissionPolicy `json:"permission_policy,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// GrepToolConfig configures the grep tool ("grep"); fields as in
// [BashToolConfig].
type GrepToolConfig struct {
	Enabled          *bool            `json:"enabled,omitzero"`
	PermissionPolicy PermissionPolicy `json:"permission_policy,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebFetchToolConfig configures the web fetch tool ("web_fetch").
type WebFetchToolConfig struct {
	Enabled          *bool            `json:"enabled,omitzero"`
	PermissionPolicy PermissionPolicy `json:"permission_policy,omitzero"`
	// AllowedDomains and BlockedDomains restrict the hosts fetched.
	AllowedDomains []string `json:"allowed_domains,omitzero"`
	BlockedDomains []string `json:"blocked_domains,omitzero"`
	// MaxContentTokens caps a fetched page's tokens; nil leaves no cap.
	MaxContentTokens *int `json:"max_content_tokens,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebSearchToolConfig configures the web search tool ("web_search").
type WebSearchToolConfig struct {
	Enabled          *bool            `json:"enabled,omitzero"`
	PermissionPolicy PermissionPolicy `json:"permission_policy,omitzero"`
	// AllowedDomains and BlockedDomains restrict the results' hosts.
	AllowedDomains []string `json:"allowed_domains,omitzero"`
	BlockedDomains []string `json:"blocked_domains,omitzero"`
	// UserLocation localises the results; nil sends none.
	UserLocation *UserLocation `json:"user_location,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownAgentToolConfig keeps a tool config this SDK version cannot
// name. It is sent back as it came, less its "type" member in a request
// (a config's request form has none).
type UnknownAgentToolConfig struct {
	Type string
	Raw  json.RawMessage
}

// The limits of an agent's tools (internal/wire/limits.go).
const (
	maxAgentTools           = wire.MaxAgentTools
	maxAgentToolDescription = wire.MaxCustomToolDescLength
)

func (t AgentMCPToolset) validate(path string) error {
	if t.MCPServerName == "" {
		return invalid(path+".mcp_server_name", "is required")
	}
	for i, c := range t.Configs {
		p := fmt.Sprintf("%s.configs[%d].name", path, i)
		if c.Name == "" {
			return invalid(p, "is required")
		}
		if err := validateLength(p, c.Name, 1, wire.MaxMCPToolConfigNameLen); err != nil {
			return err
		}
	}
	return nil
}

func (t AgentCustomTool) validate(path string) error {
	if err := validateLength(path+".name", t.Name, 1, maxToolNameLen); err != nil {
		return err
	}
	if !isIDString(t.Name) {
		return invalid(path+".name", "must match ^[a-zA-Z0-9_-]{1,%d}$, got %q", maxToolNameLen, t.Name)
	}
	if err := validateLength(path+".description", t.Description, 1, maxAgentToolDescription); err != nil {
		return err
	}
	return t.InputSchema.validate(path + ".input_schema")
}
