package mmstest

import (
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"slices"
	"strconv"
)

// Mid-conversation system messages and inline tool definitions
// (api-version-2026-10-21 §5.3, §5.4). The request form
// (messages_schema.go) accepts role "system", clear_at and a message's
// output_config (each behind its beta), a tool_definition as
// tool_addition.tool (behind inline-tools-2026-09-15) and only references
// as tool_removal.tool. What the form cannot say per role is checked here:
//
//   - clear_at and output_config only on a system message;
//   - a system message's content is an array (no string shorthand) of text,
//     tool_addition and tool_removal blocks, empty only when output_config
//     sets something;
//   - an inline mcp_toolset definition also needs mcp-client-2026-09-15;
//   - a request needs one user or assistant message besides its system
//     messages.
//
// A system message is not a turn: the conversation rules and the reply
// (turns, messages_check.go) skip it, so it neither splits nor ends a user
// turn. Its JSON counts toward input tokens like every message. An inline
// definition whose name repeats a declared tool's or an earlier
// definition's is a 400 with error_code tool_name_conflict.

// Beta values of these pieces.
const (
	betaSystemClearAt       = "mid-conversation-system-clear-at-2026-08-21"
	betaMessageOutputConfig = "mid-conversation-output-config-2026-07-01"
	betaInlineTools         = "inline-tools-2026-09-15"
	betaInlineMCPToolset    = "mcp-client-2026-09-15"
)

// systemBlockTypes are the block types a system message takes.
var systemBlockTypes = []string{"text", "tool_addition", "tool_removal"}

// messageMembers are the members of a message these rules read.
type messageMembers struct {
	Role         string          `json:"role"`
	Content      json.RawMessage `json:"content"`
	ClearAt      json.RawMessage `json:"clear_at"`
	OutputConfig json.RawMessage `json:"output_config"`
}

// toolChangeMembers are the members of a content block these rules read.
type toolChangeMembers struct {
	Type string `json:"type"`
	Tool *struct {
		Type       string          `json:"type"`
		Definition json.RawMessage `json:"definition"`
	} `json:"tool"`
}

// definitionName is how a tool definition is named for uniqueness: its
// name, or, for an MCP toolset, its server.
type definitionName struct {
	Type          string `json:"type"`
	Name          string `json:"name"`
	MCPServerName string `json:"mcp_server_name"`
}

func (d definitionName) key() string {
	if d.Type == "mcp_toolset" {
		return "mcp_toolset " + d.MCPServerName
	}
	return d.Name
}

// systemMessageRules checks a Messages body (at prefix: "" or
// "requests.3.params.") that passed the request form; betas are the
// request's vendor-beta values.
func systemMessageRules(body []byte, prefix string, betas []string) *apiError {
	var messages json.RawMessage
	for name, raw := range jsonMembers(body) {
		if name == "messages" {
			messages = raw
		}
	}
	turns := 0
	i := -1
	for raw := range jsonElements(messages) {
		i++
		var m messageMembers
		_ = json.Unmarshal(raw, &m) // an object, as the form checked
		path := prefix + "messages." + strconv.Itoa(i)
		if m.Role != "system" {
			turns++
			switch {
			case m.ClearAt != nil:
				return invalid("%s.clear_at: Extra inputs are not permitted (clear_at is for system messages only)", path)
			case m.OutputConfig != nil:
				return invalid("%s.output_config: Extra inputs are not permitted (output_config is for system messages only)", path)
			}
		} else if err := checkSystemContent(path, m); err != nil {
			return err
		}
		for j, d := range inlineDefinitions(m.Content) {
			if d.Type == "mcp_toolset" && !slices.Contains(betas, betaInlineMCPToolset) {
				return invalid("%s.content.%d.tool.definition: an inline 'mcp_toolset' requires the vendor-beta header value `%s`",
					path, j, betaInlineMCPToolset)
			}
		}
	}
	if turns == 0 && i >= 0 { // none at all is the schema's (or a thread continuation's)
		return invalid("%smessages: at least one user or assistant message is required besides system messages", prefix)
	}
	return nil
}

// checkSystemContent applies the content rules of one system message.
func checkSystemContent(path string, m messageMembers) *apiError {
	if jsonKind(m.Content) != '[' {
		return invalid("%s.content: Input should be a valid list (a system message takes an array of blocks)", path)
	}
	n := 0
	for block := range jsonElements(m.Content) {
		var b struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(block, &b)
		if !slices.Contains(systemBlockTypes, b.Type) {
			return invalid("%s.content.%d: Input tag '%s' found using 'type' does not match any of the expected tags: %s",
				path, n, b.Type, quoteList(systemBlockTypes, "or"))
		}
		n++
	}
	if n == 0 && !nonEmptyObject(m.OutputConfig) {
		return invalid("%s: a system message needs content or an output_config setting", path)
	}
	return nil
}

// nonEmptyObject reports whether raw is an object with a member.
func nonEmptyObject(raw []byte) bool {
	if jsonKind(raw) != '{' {
		return false
	}
	for range jsonMembers(raw) {
		return true
	}
	return false
}

// turnMessage reports whether a message is a turn of the conversation (a
// user or assistant message), not a system message.
func turnMessage(m turnParam) bool { return m.Role != "system" }

// checkInlineToolNames refuses an inline tool definition whose name is
// already taken by a declared tool or an earlier definition
// (tool_name_conflict).
func (p *msgParams) checkInlineToolNames() *apiError {
	taken := map[string]bool{}
	var declared []definitionName
	_ = json.Unmarshal(p.members["tools"], &declared)
	for _, d := range declared {
		taken[d.key()] = true
	}
	for i, m := range p.Messages {
		for j, d := range inlineDefinitions(m.Content) {
			k := d.key()
			if k == "" {
				continue // a toolset without a name: nothing to collide with
			}
			if taken[k] {
				return coded(http.StatusBadRequest, "tool_name_conflict", fmt.Sprintf("messages.%d.content.%d.tool.definition: tool name %q "+
					"is already defined by the request's tools or an earlier tool_definition", i, j, k), nil)
			}
			taken[k] = true
		}
	}
	return nil
}

// checkMessageEffort applies the model's effort levels to the effort of
// each system message's output_config, as checkModel does to the
// request's.
func (p *msgParams) checkMessageEffort(caps *ModelCapabilities) *apiError {
	var messages []messageMembers
	_ = json.Unmarshal(p.members["messages"], &messages)
	e := caps.Effort
	levels := map[string]bool{"low": e.Low.Supported, "medium": e.Medium.Supported, "high": e.High.Supported,
		"max": e.Max.Supported, "xhigh": e.XHigh != nil && e.XHigh.Supported}
	for i, m := range messages {
		var oc struct {
			Effort *string `json:"effort"`
		}
		if m.Role != "system" || json.Unmarshal(m.OutputConfig, &oc) != nil || oc.Effort == nil {
			continue
		}
		if !e.Supported {
			return invalid("messages.%d.output_config.effort: This model does not support the effort parameter.", i)
		}
		if !levels[*oc.Effort] {
			return invalid("messages.%d.output_config.effort: This model does not support effort level '%s'.", i, *oc.Effort)
		}
	}
	return nil
}

// inlineDefinitions yields the tool definitions of a message's
// tool_addition blocks, each with its block's index.
func inlineDefinitions(content json.RawMessage) iter.Seq2[int, definitionName] {
	return func(yield func(int, definitionName) bool) {
		if jsonKind(content) != '[' {
			return
		}
		j := -1
		for block := range jsonElements(content) {
			j++
			var b toolChangeMembers
			_ = json.Unmarshal(block, &b)
			if b.Type != "tool_addition" || b.Tool == nil || b.Tool.Type != "tool_definition" {
				continue
			}
			var d definitionName
			_ = json.Unmarshal(b.Tool.Definition, &d)
			if !yield(j, d) {
				return
			}
		}
	}
}
