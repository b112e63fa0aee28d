package mms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// clearToolInputsSpec writes ClearToolInputs as a list of tool names or
// a bool, and reads either.
var clearToolInputsSpec = codec.Spec{
	Encode: func(e *codec.Encoder, v reflect.Value) error {
		c := v.Interface().(ClearToolInputs)
		if c.Tools != nil {
			return e.Any(c.Tools)
		}
		return e.Any(c.All)
	},
	Decode: func(data []byte, v reflect.Value) error {
		c := ClearToolInputs{}
		defer func() { v.Set(reflect.ValueOf(c)) }()
		if len(data) > 0 && data[0] == '[' {
			c.Tools = []string{}
			return json.Unmarshal(data, &c.Tools)
		}
		return json.Unmarshal(data, &c.All)
	},
}

// ContextManagement is the beta context_management request member: edits the
// server applies to the conversation before the model sees it (clearing old
// tool results or thinking, compaction). Beta-only: it needs
// context-management-2025-06-27.
//
//mms:json request
type ContextManagement struct {
	// Edits run in order.
	Edits ContextEdits `json:"edits,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// validate checks every edit; path is "context_management".
func (c *ContextManagement) validate(path string) error {
	if c == nil {
		return nil
	}
	for i, e := range c.Edits {
		p := fmt.Sprintf("%s.edits[%d]", path, i)
		if e == nil {
			return invalid(p, "must not be nil")
		}
		if err := e.validate(p); err != nil {
			return err
		}
	}
	return nil
}

// betas returns the beta context_management needs.
func (c *ContextManagement) betas() []string {
	if c == nil {
		return nil
	}
	return []string{betaContextManagement}
}

// A ContextEdit is one entry of context_management.edits. Variants:
// [ClearToolUsesEdit], [ClearThinkingEdit], [CompactEdit] and
// [UnknownContextEdit].
type ContextEdit interface {
	isContextEdit()
	validate(path string) error
}

// ContextEdits is a list of context edits. It decodes each entry into its
// [ContextEdit] variant.
//
//mms:json request
type ContextEdits []ContextEdit

var contextEditUnion = codec.NewUnion[ContextEdit]("ContextEdit", UnknownContextEdit{}).
	Add(clearToolUsesType, ClearToolUsesEdit{}).
	Add(clearThinkingType, ClearThinkingEdit{}).
	Add(compactType, CompactEdit{})

// Wire types of the context edits.
const (
	clearToolUsesType = "clear_tool_uses_20250919"
	clearThinkingType = "clear_thinking_20251015"
	compactType       = "compact_20260112"
)

// ContextUnit is what a [ContextAmount] counts. Unknown values pass through.
type ContextUnit string

// Units of context amounts.
const (
	ContextUnitInputTokens   ContextUnit = "input_tokens"
	ContextUnitToolUses      ContextUnit = "tool_uses"
	ContextUnitThinkingTurns ContextUnit = "thinking_turns"
)

// A ContextAmount is a quantity in a context edit: Value input tokens, tool
// uses or thinking turns. On the wire it is {"type": unit, "value": n}.
type ContextAmount struct {
	// Type is the unit. Required.
	Type ContextUnit `json:"type"`
	// Value is the count: at least 1 in a trigger, not negative in keep
	// and clear_at_least. Required.
	Value int `json:"value"`
}

// validate checks the amount: min is the least value allowed here (1 for a
// trigger, 0 otherwise; the service's request schema), units the known units.
func (a *ContextAmount) validate(path string, min int, units ...ContextUnit) error {
	if a == nil {
		return nil
	}
	switch a.Type {
	case "":
		return invalid(path+".type", "must be set")
	case ContextUnitInputTokens, ContextUnitToolUses, ContextUnitThinkingTurns:
		if !containsUnit(units, a.Type) {
			return invalid(path+".type", "must be %s, got %q", unitList(units), a.Type)
		}
	}
	return validateAtLeast(path+".value", a.Value, min)
}

func containsUnit(units []ContextUnit, u ContextUnit) bool {
	for _, x := range units {
		if x == u {
			return true
		}
	}
	return false
}

func unitList(units []ContextUnit) string {
	var b bytes.Buffer
	for i, u := range units {
		if i > 0 {
			b.WriteString(" or ")
		}
		fmt.Fprintf(&b, "%q", u)
	}
	return b.String()
}

// ClearToolInputs says which tool inputs a [ClearToolUsesEdit] clears along
// with the results: all of them (All) or those of the named tools (Tools).
// On the wire it is a bool or an array of tool names.
//
//mms:json request spec=clearToolInputsSpec
type ClearToolInputs struct {
	// All clears every tool's input. Ignored when Tools is non-nil.
	All bool
	// Tools clears the inputs of these tools only.
	Tools []string
}

// ClearToolUsesEdit clears old tool uses and results once the context passes
// Trigger (wire type clear_tool_uses_20250919).
//
//mms:json request
type ClearToolUsesEdit struct {
	// Trigger starts clearing: input tokens or tool uses.
	Trigger *ContextAmount `json:"trigger,omitzero"`
	// Keep is how many recent tool uses to keep (unit tool_uses).
	Keep *ContextAmount `json:"keep,omitzero"`
	// ClearAtLeast is the fewest input tokens to clear when clearing runs.
	ClearAtLeast *ContextAmount `json:"clear_at_least,omitzero"`
	// ClearToolInputs also clears tool inputs.
	ClearToolInputs *ClearToolInputs `json:"clear_tool_inputs,omitzero"`
	// ExcludeTools names tools whose uses are never cleared.
	ExcludeTools []string `json:"exclude_tools,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (e ClearToolUsesEdit) validate(path string) error {
	if err := e.Trigger.validate(path+".trigger", 1, ContextUnitInputTokens, ContextUnitToolUses); err != nil {
		return err
	}
	if err := e.Keep.validate(path+".keep", 0, ContextUnitToolUses); err != nil {
		return err
	}
	return e.ClearAtLeast.validate(path+".clear_at_least", 0, ContextUnitInputTokens)
}

// ClearThinkingEdit clears thinking blocks of earlier turns (wire type
// clear_thinking_20251015).
//
//mms:json request
type ClearThinkingEdit struct {
	// Keep says which thinking to keep: [ThinkingKeepTurns] or
	// [ThinkingKeepAll]. Nil leaves it to the service.
	Keep ThinkingKeep `json:"keep,omitzero"`
}

func (e ClearThinkingEdit) validate(path string) error {
	if k, ok := e.Keep.(ThinkingKeepTurns); ok {
		if err := validateAtLeast(path+".keep.value", k.Value, 1); err != nil {
			return err
		}
	}
	if k, ok := e.Keep.(UnknownThinkingKeep); ok && !json.Valid(k.Raw) {
		return invalid(path+".keep", "must hold valid JSON")
	}
	return nil
}

// A ThinkingKeep says which thinking a [ClearThinkingEdit] keeps. Variants:
// [ThinkingKeepTurns], [ThinkingKeepAll] and [UnknownThinkingKeep].
type ThinkingKeep interface{ isThinkingKeep() }

var thinkingKeepUnion = codec.NewUnion[ThinkingKeep]("ThinkingKeep", UnknownThinkingKeep{}).
	Custom(decodeThinkingKeepString).
	Add("thinking_turns", ThinkingKeepTurns{}).
	AddSpec("all", ThinkingKeepAll{}, codec.Spec{
		Encode: func(e *codec.Encoder, v reflect.Value) error {
			if v.Interface().(ThinkingKeepAll).Bare {
				e.String("all")
				return nil
			}
			return e.Struct(v)
		},
		Decode: func(data []byte, v reflect.Value) error {
			if string(data) == "null" {
				return nil
			}
			if len(data) > 0 && data[0] == '"' {
				v.Set(reflect.ValueOf(ThinkingKeepAll{Bare: true}))
				return nil
			}
			v.SetZero()
			return codec.DecodeStruct(data, v)
		},
	})

// decodeThinkingKeepString decodes the string form of a keep value: "all"
// is the shorthand of [ThinkingKeepAll], any other string is unknown.
func decodeThinkingKeepString(data []byte) (ThinkingKeep, bool, error) {
	if len(data) == 0 || data[0] != '"' {
		return nil, false, nil
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, true, err
	}
	if s == "all" {
		return ThinkingKeepAll{Bare: true}, true, nil
	}
	return UnknownThinkingKeep{Raw: codec.Clone(data)}, true, nil
}

// ThinkingKeepTurns keeps the thinking of the last Value assistant turns.
//
//mms:json request
type ThinkingKeepTurns struct {
	// Value is the number of turns; at least 1.
	Value int `json:"value"`
}

// ThinkingKeepAll keeps all thinking.
//
//mms:json request
type ThinkingKeepAll struct {
	// Bare writes the shorthand string "all" instead of {"type":"all"};
	// decoding sets it when the wire used the string.
	Bare bool `json:"-"`
}

// UnknownThinkingKeep holds a keep value this SDK version cannot name. Raw
// is written back verbatim.
type UnknownThinkingKeep struct {
	// Type is the object's "type" ("" for a string).
	Type string
	Raw  json.RawMessage
}

// CompactEdit summarises earlier context into a compaction block once the
// input passes Trigger (wire type compact_20260112).
//
//mms:json request
type CompactEdit struct {
	// Trigger is the input-token threshold (150,000 by default).
	Trigger *ContextAmount `json:"trigger,omitzero"`
	// Instructions guide the summary.
	Instructions string `json:"instructions,omitzero"`
	// PauseAfterCompaction ends the turn after compacting (stop reason
	// "compaction").
	PauseAfterCompaction bool `json:"pause_after_compaction,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (e CompactEdit) validate(path string) error {
	return e.Trigger.validate(path+".trigger", 1, ContextUnitInputTokens)
}

// UnknownContextEdit holds an edit type this SDK version cannot name. Raw is
// written back verbatim.
type UnknownContextEdit struct {
	Type string
	Raw  json.RawMessage
}

func (e UnknownContextEdit) validate(path string) error {
	if !codec.IsObject(e.Raw) {
		return invalid(path, "must hold a JSON object")
	}
	return nil
}

// TokensCountContextManagement is count_tokens' context_management member.
// Like every response type it keeps what it does not model, so a decoded
// count re-encodes to the JSON it came from.
//
//mms:json
type TokensCountContextManagement struct {
	// OriginalInputTokens is the count before the context edits ran.
	OriginalInputTokens int `json:"original_input_tokens"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}
