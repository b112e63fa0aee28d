package mms

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// Toolsets (spec): one tools entry that stands for a family of member
// tools, each configurable by member name. Toolsets take no name,
// defer_loading, strict or input_examples of their own.

// ToolsetConfig configures one member of a toolset, or (as an MCP toolset's
// DefaultConfig) all of them.
//
//mms:json request
type ToolsetConfig struct {
	// Enabled false withholds the member; nil inherits (enabled by default).
	Enabled *bool `json:"enabled,omitzero"`
	// DeferLoading keeps the member out of the initial prompt; nil inherits
	// (not deferred by default).
	DeferLoading *bool `json:"defer_loading,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// computerToolsetMembers lists the computer toolset's members (spec).
func computerToolsetMembers() []string {
	return []string{
		"cursor_position", "double_click", "hold_key", "key", "left_click", "left_click_drag",
		"left_mouse_down", "left_mouse_up", "middle_click", "mouse_move", "right_click",
		"screenshot", "scroll", "triple_click", "type", "wait", "zoom",
	}
}

// browserToolsetMembers lists the browser toolset's members (spec).
func browserToolsetMembers() []string {
	return []string{
		"close_tab", "double_click", "file_upload", "find", "form_input", "get_page_text",
		"hold_key", "hover", "javascript_exec", "key", "left_click", "left_click_drag",
		"left_mouse_down", "left_mouse_up", "list_tabs", "middle_click", "mouse_move",
		"navigate", "new_tab", "read_console", "read_network", "read_page", "right_click",
		"screenshot", "scroll", "scroll_to", "switch_tab", "triple_click", "type", "wait", "zoom",
	}
}

// validateMemberConfigs applies the computer/browser toolset rules: every
// key names a member, and defer_loading resolves equal on all enabled
// members (unset means enabled and not deferred).
func validateMemberConfigs(path, toolset string, members []string, configs map[string]*ToolsetConfig) error {
	for _, k := range slices.Sorted(maps.Keys(configs)) {
		if !slices.Contains(members, k) {
			return invalid(path+".configs."+k, "is not a member of the %s toolset", toolset)
		}
	}
	first, firstDeferred := "", false
	for _, m := range members {
		c := configs[m]
		if c != nil && c.Enabled != nil && !*c.Enabled {
			continue
		}
		deferred := c != nil && c.DeferLoading != nil && *c.DeferLoading
		if first == "" {
			first, firstDeferred = m, deferred
			continue
		}
		if deferred == firstDeferred {
			continue
		}
		// Blame the member that set defer_loading; the other inherited.
		blame, other, otherVal := m, first, firstDeferred
		if c == nil || c.DeferLoading == nil {
			blame, other, otherVal = first, m, deferred
		}
		return invalid(path+".configs."+blame+".defer_loading",
			"must resolve the same on every enabled member of the %s toolset (%s resolves to %t)",
			toolset, other, otherVal)
	}
	return nil
}

// ComputerToolsetVersion is the wire type of a [ComputerToolset]. Unknown
// values pass through.
type ComputerToolsetVersion string

// Computer toolset versions.
const ComputerToolset20260801 ComputerToolsetVersion = "computer_toolset_20260801"

// A ComputerToolset offers the computer-use actions (screenshot, left_click,
// type, zoom, ...) as member tools that the client executes. Configs tunes
// members by name.
//
//mms:json request
type ComputerToolset struct {
	// Version is the wire type, ComputerToolset20260801. Required.
	Version ComputerToolsetVersion `json:"type"`
	// Configs maps member names ("left_click", "zoom", ...) to their
	// settings. Unknown names are rejected.
	Configs map[string]*ToolsetConfig `json:"configs,omitzero"`
	// AllowedCallers limits who may invoke the members.
	AllowedCallers []AllowedCaller `json:"allowed_callers,omitzero"`
	// CacheControl sets a prompt-cache breakpoint after this toolset.
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (ComputerToolset) betas() []string { return nil }

func (t ComputerToolset) validate(path string) error {
	if t.Version == "" {
		return invalid(path+".type", "must be set")
	}
	if err := validateMemberConfigs(path, "computer", computerToolsetMembers(), t.Configs); err != nil {
		return err
	}
	return t.CacheControl.validate(path + ".cache_control")
}

// BrowserToolsetVersion is the wire type of a [BrowserToolset]. Unknown
// values pass through.
type BrowserToolsetVersion string

// Browser toolset versions.
const BrowserToolset20260801 BrowserToolsetVersion = "browser_toolset_20260801"

// A BrowserToolset offers browser actions (navigate, read_page, left_click,
// new_tab, ...) as member tools that the client executes. Configs tunes
// members by name.
//
//mms:json request
type BrowserToolset struct {
	// Version is the wire type, BrowserToolset20260801. Required.
	Version BrowserToolsetVersion `json:"type"`
	// Configs maps member names ("navigate", "read_page", ...) to their
	// settings. Unknown names are rejected.
	Configs map[string]*ToolsetConfig `json:"configs,omitzero"`
	// AllowedCallers limits who may invoke the members.
	AllowedCallers []AllowedCaller `json:"allowed_callers,omitzero"`
	// CacheControl sets a prompt-cache breakpoint after this toolset.
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (BrowserToolset) betas() []string { return nil }

func (t BrowserToolset) validate(path string) error {
	if t.Version == "" {
		return invalid(path+".type", "must be set")
	}
	if err := validateMemberConfigs(path, "browser", browserToolsetMembers(), t.Configs); err != nil {
		return err
	}
	return t.CacheControl.validate(path + ".cache_control")
}

// mcpToolsetType is the wire type of an [MCPToolset].
const mcpToolsetType = "mcp_toolset"

// An MCPToolset offers the tools of one remote MCP server named in the
// request's mcp_servers. Beta-only: it needs mcp-client-2025-11-20.
//
//mms:json request
type MCPToolset struct {
	// MCPServerName is the name of an entry of mcp_servers; 1 to 255
	// characters. Required.
	MCPServerName string `json:"mcp_server_name"`
	// DefaultConfig applies to every tool of the server.
	DefaultConfig *ToolsetConfig `json:"default_config,omitzero"`
	// Configs overrides DefaultConfig per tool name.
	Configs map[string]*ToolsetConfig `json:"configs,omitzero"`
	// Tools, when set, pins the toolset to exactly these tools (with
	// DefaultConfig and Configs applied): the service does not ask the MCP
	// server for its list. Copy them from an earlier reply's
	// [MCPToolListingBlock] with its Pin method. Names are 1 to 128
	// characters, each once. Adds the beta mcp-client-2026-09-15.
	Tools []MCPListedTool `json:"tools,omitzero"`
	// AllowedCallers limits who may invoke the tools.
	AllowedCallers []AllowedCaller `json:"allowed_callers,omitzero"`
	// CacheControl sets a prompt-cache breakpoint after this toolset.
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (t MCPToolset) betas() []string {
	if t.Tools != nil {
		return []string{betaMCPClient20251120, betaMCPClient20260915}
	}
	return []string{betaMCPClient20251120}
}

// maxMCPServerNameLen bounds mcp_toolset.mcp_server_name
// (the service's request schema, BetaMCPToolset).
const maxMCPServerNameLen = 255

func (t MCPToolset) validate(path string) error {
	if err := validateLength(path+".mcp_server_name", t.MCPServerName, 1, maxMCPServerNameLen); err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(t.Configs)) {
		if k == "" {
			return invalid(fmt.Sprintf("%s.configs[%q]", path, k), "tool name must not be empty")
		}
	}
	if err := validatePinned(path+".tools", t.Tools); err != nil {
		return err
	}
	return t.CacheControl.validate(path + ".cache_control")
}
