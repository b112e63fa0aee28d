package mmstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// MCP tool listings, pinned MCP toolset tools and web_fetch url_sources.
//
// The fake reaches no MCP server. A scripted Turn stands for what the
// service would have fetched (Turn.MCPToolListings): each listing becomes an
// mcp_tool_listing block of the reply, unless the service would not have
// asked the server: when the request's mcp_toolset pins its tools, or when
// the conversation already holds a listing of that server (sent back, it is
// reused).

// maxMCPToolNameLen bounds a pinned MCP tool's name, as the SDK bounds MCP
// tool names in toolset configs.
var maxMCPToolNameLen = strconv.Itoa(wire.MaxMCPToolConfigNameLen)

// MCPToolListing is the tool list a scripted Turn has the service fetch
// from the MCP server named ServerName (an mcp_servers entry that an
// mcp_toolset of the request uses).
type MCPToolListing struct {
	// ServerName names the MCP server, as in mcp_toolset.mcp_server_name.
	ServerName string
	// Tools are the server's tools, in order.
	Tools []MCPTool
}

// MCPTool is one tool of an [MCPToolListing].
type MCPTool struct {
	// Name is the tool's name.
	Name string
	// Description is the tool's description; "" leaves it out.
	Description string
	// InputSchema is the tool's input JSON Schema, a JSON object; ""
	// stands for {"type":"object"}.
	InputSchema string
}

type mcpListedToolWire struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type mcpListingWire struct {
	Type          string              `json:"type"`
	MCPServerName string              `json:"mcp_server_name"`
	Tools         []mcpListedToolWire `json:"tools"`
}

// toolDecl is what the MCP and url_sources rules read of a tools entry.
type toolDecl struct {
	Type          *string         `json:"type"`
	Name          string          `json:"name"`
	MCPServerName string          `json:"mcp_server_name"`
	Tools         json.RawMessage `json:"tools"`       // mcp_toolset: pinned tools
	URLSources    json.RawMessage `json:"url_sources"` // web_fetch
}

func (t toolDecl) is(typ string) bool { return t.Type != nil && *t.Type == typ }

// toolDecls decodes the request's tools (checked by the request form).
func (p *msgParams) toolDecls() []toolDecl {
	var out []toolDecl
	_ = json.Unmarshal(p.members["tools"], &out)
	return out
}

// checkMCPAndURLSources refuses pinned MCP tools named twice in a toolset
// and url_sources filters naming a tool the request does not declare.
func (p *msgParams) checkMCPAndURLSources() *apiError {
	decls := p.toolDecls()
	for i, t := range decls {
		if !t.is("mcp_toolset") || !present(t.Tools) {
			continue
		}
		var pinned []struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(t.Tools, &pinned)
		seen := map[string]bool{}
		for j, pt := range pinned {
			if seen[pt.Name] {
				return invalid("tools.%d.tools.%d.name: MCP tool names must be unique within a toolset. Duplicate name: %s",
					i, j, pt.Name)
			}
			seen[pt.Name] = true
		}
	}
	var declared map[string]bool
	for i, t := range decls {
		if !present(t.URLSources) {
			continue
		}
		if declared == nil {
			declared = declaredNames(decls)
		}
		var src map[string]*struct {
			Type  string `json:"type"`
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		}
		_ = json.Unmarshal(t.URLSources, &src)
		for _, kind := range []string{"client_tool_results", "server_tool_results"} {
			f := src[kind]
			if f == nil {
				continue
			}
			for j, ref := range f.Tools {
				if !declared[ref.Name] {
					return invalid("tools.%d.url_sources.%s.tools.%d.name: tool `%s` is not declared in `tools` "+
						"(tool_reference_unresolved)", i, kind, j, ref.Name)
				}
			}
		}
	}
	return nil
}

// declaredNames returns the tool names the tools list declares: every
// named entry, and the members of the computer and browser toolsets.
func declaredNames(decls []toolDecl) map[string]bool {
	names := map[string]bool{}
	for _, t := range decls {
		if t.Name != "" {
			names[t.Name] = true
		}
		members := ""
		switch {
		case t.is("computer_toolset_20260801"):
			members = computerToolsetMembers
		case t.is("browser_toolset_20260801"):
			members = browserToolsetMembers
		}
		for _, m := range strings.Fields(members) {
			names[m] = true
		}
	}
	return names
}

// mcpListingBlocks returns the mcp_tool_listing blocks of a scripted turn
// (n is its position): one per listing whose server the service would ask.
// A listing of a server no mcp_toolset of the request uses is the test's
// mistake, a 500.
func (p *msgParams) mcpListingBlocks(listings []MCPToolListing, n int) ([]replyBlock, *apiError) {
	if len(listings) == 0 {
		return nil, nil
	}
	toolsets := map[string]bool{} // server → the toolset pins its tools
	for _, t := range p.toolDecls() {
		if t.is("mcp_toolset") {
			toolsets[t.MCPServerName] = toolsets[t.MCPServerName] || present(t.Tools)
		}
	}
	listed := map[string]bool{} // servers with a listing in the conversation
	for _, m := range p.Messages {
		var blocks []struct {
			Type          string `json:"type"`
			MCPServerName string `json:"mcp_server_name"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue // string content
		}
		for _, b := range blocks {
			if b.Type == "mcp_tool_listing" {
				listed[b.MCPServerName] = true
			}
		}
	}
	var out []replyBlock
	for i, l := range listings {
		pinned, ok := toolsets[l.ServerName]
		if !ok {
			return nil, &apiError{status: http.StatusInternalServerError, errType: wire.ErrAPI, msg: fmt.Sprintf(
				"mmstest: scripted turn %d: MCP tool listing %d: no mcp_toolset of the request uses MCP server %q", n, i, l.ServerName)}
		}
		if pinned || listed[l.ServerName] {
			continue // the service does not ask the server
		}
		listed[l.ServerName] = true
		w := mcpListingWire{Type: "mcp_tool_listing", MCPServerName: l.ServerName, Tools: []mcpListedToolWire{}}
		for j, t := range l.Tools {
			schema := json.RawMessage(`{"type":"object"}`)
			if t.InputSchema != "" {
				if jsonKind([]byte(t.InputSchema)) != '{' || !json.Valid([]byte(t.InputSchema)) {
					return nil, &apiError{status: http.StatusInternalServerError, errType: wire.ErrAPI, msg: fmt.Sprintf(
						"mmstest: scripted turn %d: MCP tool listing %d, tool %d (%s): InputSchema is not a JSON object", n, i, j, t.Name)}
				}
				schema = json.RawMessage(t.InputSchema)
			}
			w.Tools = append(w.Tools, mcpListedToolWire{Name: t.Name, Description: t.Description, InputSchema: schema})
		}
		out = append(out, replyBlock{typ: w.Type, raw: w})
	}
	return out, nil
}
