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
//
//mms:json request
type ToolChoiceAuto struct {
	// DisableParallelToolUse makes the model call at most one tool.
	DisableParallelToolUse bool `json:"disable_parallel_tool_use,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (ToolChoiceAuto) validate(string) error { return nil }

// ToolChoiceAny makes the model use some tool.
//
//mms:json request
type ToolChoiceAny struct {
	// DisableParallelToolUse makes the model call exactly one tool.
	DisableParallelToolUse bool `json:"disable_parallel_tool_use,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (ToolChoiceAny) validate(string) error { return nil }

// ToolChoiceTool makes the model use the tool called Name.
//
//mms:json request
type ToolChoiceTool struct {
	// Name is the tool to use. Required.
	Name string `json:"name"`
	// DisableParallelToolUse makes the model call only that tool, once.
	DisableParallelToolUse bool `json:"disable_parallel_tool_use,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (c ToolChoiceTool) validate(path string) error {
	if c.Name == "" {
		return invalid(path+".name", "must not be empty")
	}
	return nil
}

// ToolChoiceNone forbids tool use.
//
//mms:json request
type ToolChoiceNone struct{}

func (ToolChoiceNone) validate(string) error { return nil }

// UnknownToolChoice holds a tool_choice type this SDK version cannot name.
// Raw is written back verbatim.
type UnknownToolChoice struct {
	Type string
	Raw  json.RawMessage
}

func (c UnknownToolChoice) validate(path string) error {
	if !codec.IsObject(c.Raw) {
		return invalid(path, "must hold a JSON object")
	}
	return nil
}
