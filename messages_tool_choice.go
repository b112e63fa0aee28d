package mms

import (
	"encoding/json"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// A ToolChoice says how the model may use the request's tools. Variants:
// [ToolChoiceAuto], [ToolChoiceAny], [ToolChoiceTool], [ToolChoiceNone] and
// [UnknownToolChoice].
type ToolChoice interface {
	isToolChoice()
	validate(path string) error
}

var toolChoiceUnion = codec.NewUnion[ToolChoice]("ToolChoice", UnknownToolChoice{}).
	Add("auto", ToolChoiceAuto{}).
	Add("any", ToolChoiceAny{}).
	Add("tool", ToolChoiceTool{}).
	Add("none", ToolChoiceNone{})

// ToolChoiceAuto lets the model decide whether to use tools (the default).
type ToolChoiceAuto struct {
	// DisableParallelToolUse makes the model call at most one tool.
	DisableParallelToolUse bool `json:"disable_parallel_tool_use,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (ToolChoiceAuto) isToolChoice()         {}
func (ToolChoiceAuto) validate(string) error { return nil }

// UnmarshalJSON decodes the choice.
func (c *ToolChoiceAuto) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, c) }

// MarshalJSON writes the choice with "type":"auto".
func (c ToolChoiceAuto) MarshalJSON() ([]byte, error) { return marshalRequest(c) }

// ToolChoiceAny makes the model use some tool.
type ToolChoiceAny struct {
	// DisableParallelToolUse makes the model call exactly one tool.
	DisableParallelToolUse bool `json:"disable_parallel_tool_use,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (ToolChoiceAny) isToolChoice()         {}
func (ToolChoiceAny) validate(string) error { return nil }

// UnmarshalJSON decodes the choice.
func (c *ToolChoiceAny) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, c) }

// MarshalJSON writes the choice with "type":"any".
func (c ToolChoiceAny) MarshalJSON() ([]byte, error) { return marshalRequest(c) }

// ToolChoiceTool makes the model use the tool called Name.
type ToolChoiceTool struct {
	// Name is the tool to use. Required.
	Name string `json:"name"`
	// DisableParallelToolUse makes the model call only that tool, once.
	DisableParallelToolUse bool `json:"disable_parallel_tool_use,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (ToolChoiceTool) isToolChoice() {}

// UnmarshalJSON decodes the choice.
func (c *ToolChoiceTool) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, c) }

// MarshalJSON writes the choice with "type":"tool".
func (c ToolChoiceTool) MarshalJSON() ([]byte, error) { return marshalRequest(c) }

func (c ToolChoiceTool) validate(path string) error {
	if c.Name == "" {
		return invalid(path+".name", "must not be empty")
	}
	return nil
}

// ToolChoiceNone forbids tool use.
type ToolChoiceNone struct{}

func (ToolChoiceNone) isToolChoice()         {}
func (ToolChoiceNone) validate(string) error { return nil }

// UnmarshalJSON accepts the choice; it has no members besides its type.
func (c *ToolChoiceNone) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, c) }

// MarshalJSON writes {"type":"none"}.
func (c ToolChoiceNone) MarshalJSON() ([]byte, error) { return marshalRequest(c) }

// UnknownToolChoice holds a tool_choice type this SDK version cannot name.
// Raw is written back verbatim.
type UnknownToolChoice struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownToolChoice) isToolChoice() {}

// MarshalJSON writes Raw unchanged.
func (c UnknownToolChoice) MarshalJSON() ([]byte, error) { return marshalJSON(c) }

func (c UnknownToolChoice) validate(path string) error {
	if !codec.IsObject(c.Raw) {
		return invalid(path, "must hold a JSON object")
	}
	return nil
}
