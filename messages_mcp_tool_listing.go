package mms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// MCP tool listings (beta, MCP client). When a request offers an MCP
// server's tools through an [MCPToolset], the service asks the server for
// its tool list while answering and reports it as an mcp_tool_listing block
// in the reply. Sent back unchanged in the assistant turn, the listing is
// reused instead of asking the MCP server again. The same entries can be
// pinned on the toolset ([MCPToolset].Tools, [MCPToolListingBlock.Pin]): the
// server is then not asked at all.

// MCPToolListingBlock is an "mcp_tool_listing" block: the tools one MCP
// server offered when the service asked it (beta). It arrives complete in
// its content_block_start event when streaming. Send it back unchanged.
type MCPToolListingBlock struct {
	// MCPServerName names the entry of mcp_servers that was asked.
	MCPServerName string `json:"mcp_server_name"`
	// Tools are the server's tools, in the server's order; empty (not nil)
	// for a server without tools.
	Tools []MCPListedTool `json:"tools"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (b MCPToolListingBlock) validate(path string) error {
	if b.MCPServerName == "" {
		return invalid(path+".mcp_server_name", "must not be empty")
	}
	if b.Tools == nil {
		return invalid(path+".tools", "is required (an empty list for a server without tools)")
	}
	for i, t := range b.Tools {
		p := fmt.Sprintf("%s.tools[%d]", path, i)
		if t.Name == "" {
			return invalid(p+".name", "must not be empty")
		}
		if err := t.validateSchema(p + ".input_schema"); err != nil {
			return err
		}
	}
	return nil
}

// Pin returns into with its Tools set to a copy of this listing's tools, so
// that the service uses exactly these tools and does not ask the MCP server
// for its list (see [MCPToolset].Tools). An empty into.MCPServerName is
// filled in from the listing; a different one is an error, as is a listing
// without a server name.
//
//	toolset, err := listing.Pin(mms.MCPToolset{DefaultConfig: cfg})
func (b MCPToolListingBlock) Pin(into MCPToolset) (MCPToolset, error) {
	switch {
	case b.MCPServerName == "":
		return into, fmt.Errorf("mms: pin an MCP tool listing: the listing has no mcp_server_name")
	case into.MCPServerName == "":
		into.MCPServerName = b.MCPServerName
	case into.MCPServerName != b.MCPServerName:
		return into, fmt.Errorf("mms: pin an MCP tool listing: the listing is of MCP server %q, the toolset of %q",
			b.MCPServerName, into.MCPServerName)
	}
	tools := make([]MCPListedTool, len(b.Tools))
	for i, t := range b.Tools {
		tools[i] = MCPListedTool{Name: t.Name, Description: t.Description,
			InputSchema: InputSchema(bytes.Clone(t.InputSchema)), Extra: maps.Clone(t.Extra)}
	}
	into.Tools = tools
	return into, nil
}

// MCPListedTool is one tool of an MCP server: an entry of an
// [MCPToolListingBlock] and of a pinned [MCPToolset].Tools.
//
//mms:json
type MCPListedTool struct {
	// Name is the tool's name on its MCP server. Required.
	Name string `json:"name"`
	// Description says what the tool does, as the server describes it.
	Description string `json:"description,omitzero"`
	// InputSchema is the JSON Schema of the tool's input, a JSON object,
	// kept byte for byte. Required.
	InputSchema InputSchema `json:"input_schema"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// validateSchema requires the input schema to be a JSON object. Unlike a
// custom tool's, its "type" is not checked: the schema is the MCP server's.
func (t MCPListedTool) validateSchema(path string) error {
	if len(codec.TrimSpace(t.InputSchema)) == 0 {
		return invalid(path, "must be set")
	}
	if !codec.IsObject(t.InputSchema) {
		return invalid(path, "must be a JSON object")
	}
	return nil
}

// validatePinned checks an MCP toolset's pinned tools: names of 1 to 128
// characters (the rule for MCP tool names in toolset configs: the names
// are the MCP server's, so the custom tool character set does not apply),
// each once, and input schemas that are JSON objects.
func validatePinned(path string, tools []MCPListedTool) error {
	seen := make(map[string]int, len(tools))
	for i, t := range tools {
		p := fmt.Sprintf("%s[%d]", path, i)
		if err := validateLength(p+".name", t.Name, 1, wire.MaxMCPToolConfigNameLen); err != nil {
			return err
		}
		if j, dup := seen[t.Name]; dup {
			return invalid(p+".name", "%q is already pinned at %s[%d]; each tool once", t.Name, path, j)
		}
		seen[t.Name] = i
		if err := t.validateSchema(p + ".input_schema"); err != nil {
			return err
		}
	}
	return nil
}
