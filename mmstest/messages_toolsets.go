package mmstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// The computer and browser toolsets: scripted calls of their members, and
// the rules on browser_state blocks.
//
// A toolset's calls come back as tool_use blocks with toolset_name and the
// action as name. The spec does not say that the service refuses a
// toolset tool_use sent back in an assistant turn whose toolset the
// request does not declare, or whose action its configs disable; the fake
// accepts both, as it accepts an echoed call of a custom tool the request
// no longer defines.

// toolsetMembers lists each toolset's members by toolset_name.
var toolsetMembers = map[string]string{"computer": computerToolsetMembers, "browser": browserToolsetMembers}

// toolsetCall builds the tool_use block of a scripted toolset call, or
// says why the request cannot carry it.
func (s *Server) toolsetCall(p *msgParams, c ToolCall) (replyBlock, string) {
	members, ok := toolsetMembers[c.Toolset]
	if !ok {
		return replyBlock{}, fmt.Sprintf("Toolset %q is not computer or browser", c.Toolset)
	}
	at := slices.IndexFunc(p.Tools, func(t toolParam) bool {
		return t.Type != nil && strings.HasPrefix(*t.Type, c.Toolset+"_toolset_")
	})
	if at < 0 {
		return replyBlock{}, fmt.Sprintf("the request declares no %s toolset", c.Toolset)
	}
	if !slices.Contains(strings.Fields(members), c.Name) {
		return replyBlock{}, fmt.Sprintf("%q is not an action of the %s toolset", c.Name, c.Toolset)
	}
	if cfg := p.Tools[at].Configs[c.Name]; cfg != nil && cfg.Enabled != nil && !*cfg.Enabled {
		return replyBlock{}, fmt.Sprintf("the request's %s toolset disables %s (configs.%s.enabled is false)", c.Toolset, c.Name, c.Name)
	}
	in := c.Input
	if in == "" {
		in = "{}"
	}
	var input bytes.Buffer
	if json.Compact(&input, []byte(in)) != nil || jsonKind([]byte(in)) != '{' {
		return replyBlock{}, "Input is not a JSON object"
	}
	return replyBlock{typ: "tool_use", id: s.newID("toolu_"), name: c.Name, input: input.Bytes(), toolset: c.Toolset}, ""
}

// browserStateParam holds what the rules read of a tool_result's content
// block.
type browserStateParam struct {
	Type string `json:"type"`
	Tabs []struct {
		Active bool `json:"active"`
	} `json:"tabs"`
	StateChanges json.RawMessage `json:"state_changes"`
}

// checkBrowserStates applies the browser_state rules to the tool results
// of a user turn: only in a non-error tool_result answering a browser
// toolset call of the turn before, at most one per result, exactly one
// active tab when there are tabs, and state_changes omitted rather than
// empty.
func checkBrowserStates(t turn, prev *turn) *apiError {
	toolsets := map[string]string{}
	if prev != nil {
		for _, b := range prev.blocks {
			if b.b.Type == "tool_use" {
				toolsets[b.b.ID] = b.b.ToolsetName
			}
		}
	}
	for _, r := range t.blocks {
		if r.b.Type != "tool_result" || jsonKind(r.b.Content) != '[' {
			continue
		}
		var content []browserStateParam
		_ = json.Unmarshal(r.b.Content, &content) // checked by the request form
		states := 0
		for i, c := range content {
			if c.Type != "browser_state" {
				continue
			}
			path := fmt.Sprintf("%s.content.%d", r.path(), i)
			switch states++; {
			case r.b.IsError:
				return invalid("%s: browser_state is not allowed in a tool_result with is_error true", path)
			case states > 1:
				return invalid("%s: a tool_result may hold at most one browser_state block", path)
			case toolsets[r.b.ToolUseID] != "browser":
				return invalid("%s: browser_state is only allowed in a tool_result answering a browser toolset call", path)
			}
			active := 0
			for _, tab := range c.Tabs {
				if tab.Active {
					active++
				}
			}
			if len(c.Tabs) > 0 && active != 1 {
				return invalid("%s.tabs: exactly one tab must be active, found %d", path, active)
			}
			if bytes.Equal(bytes.TrimSpace(c.StateChanges), []byte("[]")) {
				return invalid("%s.state_changes: omit state_changes instead of sending an empty list", path)
			}
		}
	}
	return nil
}
