package mms

import (
	"encoding/json"
	"reflect"
)

// Mid-conversation system messages: a MessageParam whose Role is RoleSystem
// (api-version-2026-10-21 §5.3). Its content is a list of text,
// tool_addition and tool_removal blocks; two members exist only on it,
// clear_at and output_config. The pieces pair with these betas, which the
// params add by themselves:
//
//	piece                                          beta
//	role "system" with text blocks                 none (GA)
//	tool_addition / tool_removal blocks (any role) mid-conversation-tool-changes-2026-07-01 (inferred)
//	clear_at                                       mid-conversation-system-clear-at-2026-08-21 (inferred)
//	output_config on a message                     mid-conversation-output-config-2026-07-01 (inferred)
//	tool_addition.tool of type tool_definition     inline-tools-2026-09-15, plus the definition's
//	                                               own betas; an mcp_toolset also mcp-client-2026-09-15

// Beta names that mid-conversation system messages and inline tools switch on.
const (
	betaToolChanges         = "mid-conversation-tool-changes-2026-07-01"
	betaSystemClearAt       = "mid-conversation-system-clear-at-2026-08-21"
	betaMessageOutputConfig = "mid-conversation-output-config-2026-07-01"
	betaInlineTools         = "inline-tools-2026-09-15"
	// betaMCPClient20260915 is the MCP client generation of inline
	// mcp_toolset definitions and of pinned toolset tools
	// (mcp_toolset.tools); the spec infers it.
	betaMCPClient20260915 = "mcp-client-2026-09-15"
)

// ClearAt says how long a system message's text stays visible (beta).
// Unknown values pass through.
type ClearAt string

// ClearAt values.
const (
	// ClearAtNever keeps the message visible for the rest of the
	// conversation (the service's default).
	ClearAtNever ClearAt = "never"
	// ClearAtNextUserMessage shows the message only for the user turn it
	// follows: once a later user message exists, the service hides it. Keep
	// sending it unchanged; do not remove it from the history.
	ClearAtNextUserMessage ClearAt = "next_user_message"
)

// MessageOutputConfig is the output_config of a system message (beta): the
// output settings from that point of the conversation on. Unlike the
// top-level [OutputConfig] it has no format (that stays top-level only).
//
//mms:json request
type MessageOutputConfig struct {
	// Effort is the reasoning effort from this message on.
	Effort Effort `json:"effort,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// empty reports whether c sets nothing: the service refuses a system
// message with neither content nor any output setting.
func (c *MessageOutputConfig) empty() bool {
	return c == nil || (c.Effort == "" && len(c.Extra) == 0)
}

// SystemMessage returns a mid-conversation system message holding blocks:
// [TextBlock], [ToolAdditionBlock] and [ToolRemovalBlock] (the tool blocks
// add their beta to the request by themselves). Set ClearAt or
// OutputConfig on the result for the beta members:
//
//	m := mms.SystemMessage(mms.TextBlock{Text: "Answer in French from now on."})
//	m.ClearAt = mms.ClearAtNextUserMessage
func SystemMessage(blocks ...ContentBlock) MessageParam {
	return MessageParam{Role: RoleSystem, Content: ContentBlocks(blocks)}
}

// SystemMessageText returns a mid-conversation system message holding one
// text block. It is written in the array form: the string shorthand is
// not accepted on system messages.
func SystemMessageText(text string) MessageParam {
	return SystemMessage(TextBlock{Text: text})
}

// SystemEffort returns a system message without content that changes the
// reasoning effort from that point on (beta
// mid-conversation-output-config-2026-07-01, added by itself).
func SystemEffort(effort Effort) MessageParam {
	return MessageParam{Role: RoleSystem, Content: ContentBlocks{}, OutputConfig: &MessageOutputConfig{Effort: effort}}
}

// validateSystem checks a system message; path is e.g. "messages[3]".
// Only text, tool_addition and tool_removal blocks (and unknown ones, which
// pass through) are allowed; the content may be empty only when
// output_config sets something. The string shorthand is refused: the
// service documents system content as an array only.
func (p MessageParam) validateSystem(path string) error {
	if p.StringContent {
		if _, ok := stringForm(p.Content, true); ok {
			return invalid(path+".content", "a system message takes a list of blocks, not the string shorthand (clear StringContent, or use mms.SystemMessageText)")
		}
	}
	if len(p.Content) == 0 && p.OutputConfig.empty() {
		return invalid(path+".content", "must not be empty unless output_config sets something")
	}
	return p.Content.validate(path+".content", func(b ContentBlock) bool {
		switch b.(type) {
		case TextBlock, ToolAdditionBlock, ToolRemovalBlock, UnknownContentBlock:
			return true
		}
		return false
	}, "a system message (only text, tool_addition and tool_removal)")
}

// validateSystemOnly refuses the system-only members on a user or assistant
// turn.
func (p MessageParam) validateSystemOnly(path string) error {
	switch {
	case p.ClearAt != "":
		return invalid(path+".clear_at", "is only allowed on a system message (role %q)", RoleSystem)
	case p.OutputConfig != nil:
		return invalid(path+".output_config", "is only allowed on a system message (role %q); the request's output_config sets the whole request", RoleSystem)
	}
	return nil
}

// validateTurns checks what spans messages: a request needs at least one
// user or assistant message (system messages alone give the model nothing
// to answer).
func validateTurns(messages []MessageParam) error {
	if len(messages) == 0 {
		return nil // "must not be empty", or a thread continuation's []
	}
	for _, m := range messages {
		if m.Role != RoleSystem {
			return nil
		}
	}
	return invalid("messages", "must hold at least one user or assistant message, not only system messages")
}

// messagesBetas lists the betas the messages' members and blocks need:
// clear_at, a message's output_config, tool_addition/tool_removal blocks
// and inline tool definitions. It allocates nothing for a conversation
// that uses none of them.
func messagesBetas(messages []MessageParam) []string {
	var out []string
	for _, m := range messages {
		if m.ClearAt != "" {
			out = appendNew(out, betaSystemClearAt)
		}
		if m.OutputConfig != nil {
			out = appendNew(out, betaMessageOutputConfig)
		}
		for _, b := range m.Content {
			var ref ToolChangeRef
			switch b := b.(type) {
			case ToolAdditionBlock:
				ref = b.Tool
			case ToolRemovalBlock:
				ref = b.Tool
			default:
				continue
			}
			out = appendNew(out, betaToolChanges)
			if d, ok := ref.(ToolDefinitionRef); ok {
				out = appendNew(out, d.betas()...)
			}
		}
	}
	return out
}

// ---------------------------------------------------------------------------
// Inline tool definitions (beta inline-tools-2026-09-15)

// ToolDefinitionRef is a {"type":"tool_definition","definition":…} tool
// reference: a tool_addition that defines its tool inline, mid-conversation,
// instead of naming one declared in the request's tools (beta). Definition
// is any entry the request's tools list takes, an [MCPToolset] included,
// and is checked like one. Later tool_reference and mcp_*_reference values
// may name the tool it defines. A [ToolRemovalBlock] takes references
// only, never a definition.
//
//mms:json request
type ToolDefinitionRef struct {
	// Definition is the tool, as in [MessageCreateParams].Tools. Required.
	Definition Tool `json:"definition"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (r ToolDefinitionRef) validate(path string) error {
	if r.Definition == nil {
		return invalid(path+".definition", "is required")
	}
	return r.Definition.validate(path + ".definition")
}

// betas lists the inline-tools beta, the definition's own betas, and for an
// MCP toolset the MCP client beta that inline toolsets need.
func (r ToolDefinitionRef) betas() []string {
	out := []string{betaInlineTools}
	if r.Definition == nil {
		return out
	}
	out = appendNew(out, r.Definition.betas()...)
	switch r.Definition.(type) {
	case MCPToolset, *MCPToolset:
		out = appendNew(out, betaMCPClient20260915)
	}
	return out
}

// validate checks a tool_removal block: its tool must be a reference, not
// an inline definition.
func (b ToolRemovalBlock) validate(path string) error {
	if _, ok := b.Tool.(ToolDefinitionRef); ok {
		return invalid(path+".tool.type", "a tool_removal names a tool by reference (tool_reference, mcp_tool_reference or mcp_toolset_reference), not by a tool_definition")
	}
	return toolChange(b).validate(path)
}

// isSystemMessage reports whether parent, a struct being encoded, is a
// system MessageParam: contentShorthand writes its nil Content as [] (a
// system message that only carries output_config has no blocks, and the
// wire wants an array there, never null).
func isSystemMessage(parent reflect.Value) bool {
	r := parent.FieldByName("Role")
	return r.IsValid() && r.Kind() == reflect.String && r.String() == string(RoleSystem)
}
