package mms

import (
	"encoding/json"
	"fmt"
	"log/slog"
)

// MCPServers is the beta mcp_servers request member: at most 20 remote MCP
// servers the model may use in this request. Beta-only: it needs mcp-client-2025-11-20,
// or mcp-client-2025-04-04 when a server uses ToolConfiguration (the older
// generation's field, which [MCPToolset] replaced).
type MCPServers []MCPServerDefinition

// maxMCPServers is the most servers one request may list (Create and
// count_tokens alike).
const maxMCPServers = 20

// validate checks the count and every server; path is "mcp_servers".
func (s MCPServers) validate(path string) error {
	if err := validateCount(path, len(s), maxMCPServers, "servers"); err != nil {
		return err
	}
	for i := range s {
		if err := s[i].validate(fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return err
		}
	}
	return nil
}

// betas returns the mcp-client beta the servers need (nil for none).
func (s MCPServers) betas() []string {
	if len(s) == 0 {
		return nil
	}
	for _, d := range s {
		if d.ToolConfiguration != nil {
			return []string{betaMCPClient20250404}
		}
	}
	return []string{betaMCPClient20251120}
}

// An MCPServerDefinition is a remote MCP server reached by URL (wire type
// "url"). Its tools are offered through an [MCPToolset] naming it, or (older
// beta) through ToolConfiguration.
//
//mms:json request type=url
type MCPServerDefinition struct {
	// Name identifies the server in mcp_toolset.mcp_server_name and
	// mcp_tool_use.server_name. Required.
	Name string `json:"name"`
	// URL is the server's endpoint. Required.
	URL string `json:"url"`
	// AuthorizationToken is a bearer token the service forwards to the MCP
	// server: a [Secret], so no fmt verb, log line or error shows it.
	AuthorizationToken Secret `json:"authorization_token,omitzero"`
	// ToolConfiguration enables the server's tools and picks which
	// (mcp-client-2025-04-04 generation).
	ToolConfiguration *MCPToolConfiguration `json:"tool_configuration,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// String describes the server without its authorization token.
func (d MCPServerDefinition) String() string {
	token := ""
	if !d.AuthorizationToken.IsZero() {
		token = " authorization_token:<redacted>"
	}
	return fmt.Sprintf("{name:%q url:%q%s}", d.Name, d.URL, token)
}

func (d *MCPServerDefinition) validate(path string) error {
	if d.Name == "" {
		return invalid(path+".name", "must not be empty")
	}
	if d.URL == "" {
		return invalid(path+".url", "must not be empty")
	}
	return nil
}

// MCPToolConfiguration enables an MCP server's tools and restricts them to
// AllowedTools (mcp-client-2025-04-04 generation; newer requests use an
// [MCPToolset]).
//
//mms:json request
type MCPToolConfiguration struct {
	// Enabled switches the server's tools on or off; nil leaves the
	// default.
	Enabled *bool `json:"enabled,omitzero"`
	// AllowedTools lists the tools the model may call; nil allows all.
	AllowedTools []string `json:"allowed_tools,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// LogValue is String, for slog: its JSON handler would otherwise marshal
// the definition, token and all.
func (d MCPServerDefinition) LogValue() slog.Value { return slog.StringValue(d.String()) }
