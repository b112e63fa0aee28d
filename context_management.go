package mms

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/mms-sdk/mms-go/internal/codec"
)

func init() {
	codec.Objects(ContextManagement{}, TokensCountContextManagement{})
	codec.Register(ClearToolUsesEdit{}, codec.Spec{Type: clearToolUsesType})
	codec.Register(CompactEdit{}, codec.Spec{Type: compactType})
}

// ContextManagement is the beta context_management request member: edits the
// server applies to the conversation before the model sees it (clearing old
// tool results or thinking, compaction). Beta-only: it needs
// context-management-2025-06-27.
type ContextManagement struct {
	// Edits run in order.
	Edits ContextEdits `json:"edits,omitzero"`
	// Explicit holds members the decoded JSON carried with a value that
	// decodes to zero (null, "", false); encoding writes them back while
	// their field is unset. Leave it nil.
	Extra map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes the context management member.
func (c *ContextManagement) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, c) }

// MarshalJSON writes the context management member.
func (c ContextManagement) MarshalJSON() ([]byte, error) { return marshalRequest(c) }

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
type ContextEdits []ContextEdit

// UnmarshalJSON decodes a JSON array of edits.
func (e *ContextEdits) UnmarshalJSON(data []byte) error {
	v, err := codec.DecodeArray(data, decodeContextEdit)
	*e = v
	return err
}

// decodeContextEdit decodes one edit. JSON null is an error.
func decodeContextEdit(data []byte) (ContextEdit, error) {
	return decodeConfigUnion(data, "context edit", contextEdits, func(typ string, raw json.RawMessage) ContextEdit {
		return UnknownContextEdit{Type: typ, Raw: raw}
	})
}

// contextEdits decodes the [ContextEdit] variants by wire type.
var contextEdits = map[string]func([]byte) (ContextEdit, error){
	clearToolUsesType: configVariant[ContextEdit, ClearToolUsesEdit],
	clearThinkingType: configVariant[ContextEdit, ClearThinkingEdit],
	compactType:       configVariant[ContextEdit, CompactEdit],
}

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
// trigger, 0 otherwise; request-constraints.md), units the known units.
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
type ClearToolInputs struct {
	// All clears every tool's input. Ignored when Tools is non-nil.
	All bool
	// Tools clears the inputs of these tools only.
	Tools []string
}

// MarshalJSON writes Tools as an array when non-nil, else All as a bool.
func (c ClearToolInputs) MarshalJSON() ([]byte, error) {
	if c.Tools != nil {
		return codec.Marshal(c.Tools)
	}
	return codec.Marshal(c.All)
}

// UnmarshalJSON accepts a bool or an array of tool names.
func (c *ClearToolInputs) UnmarshalJSON(data []byte) error {
	data = trimJSONSpace(data)
	switch {
	case rawIsNull(data):
		return nil
	case len(data) > 0 && data[0] == '[':
		*c = ClearToolInputs{Tools: []string{}}
		return json.Unmarshal(data, &c.Tools)
	}
	*c = ClearToolInputs{}
	return json.Unmarshal(data, &c.All)
}

// ClearToolUsesEdit clears old tool uses and results once the context passes
// Trigger (wire type clear_tool_uses_20250919).
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
	// Explicit holds members the decoded JSON carried with a value that
	// decodes to zero (null, "", false); encoding writes them back while
	// their field is unset. Leave it nil.
	Extra map[string]json.RawMessage `json:"-"`
}

func (ClearToolUsesEdit) isContextEdit() {}

// UnmarshalJSON decodes the edit.
func (e *ClearToolUsesEdit) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, e) }

// MarshalJSON writes the edit with its type.
func (e ClearToolUsesEdit) MarshalJSON() ([]byte, error) { return marshalRequest(e) }

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
type ClearThinkingEdit struct {
	// Keep says which thinking to keep: [ThinkingKeepTurns] or
	// [ThinkingKeepAll]. Nil leaves it to the service.
	Keep ThinkingKeep `json:"keep,omitzero"`
}

func (ClearThinkingEdit) isContextEdit() {}

// UnmarshalJSON decodes the edit and its keep union.
func (e *ClearThinkingEdit) UnmarshalJSON(data []byte) error {
	if rawIsNull(data) {
		return nil
	}
	if !json.Valid(data) {
		return fmt.Errorf("mms: %s edit: malformed JSON", clearThinkingType)
	}
	*e = ClearThinkingEdit{}
	var keep []byte
	err := codec.EachMember(data, func(key string, value []byte) error {
		if key == "keep" {
			keep = value
		}
		return nil
	})
	if err != nil || keep == nil {
		return err
	}
	e.Keep, err = decodeThinkingKeep(keep)
	return err
}

// MarshalJSON writes the edit with its type.
func (e ClearThinkingEdit) MarshalJSON() ([]byte, error) {
	type plain ClearThinkingEdit
	return codec.MarshalObject(clearThinkingType, plain(e), nil)
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

// decodeThinkingKeep decodes an object or the string "all". JSON null gives
// nil.
func decodeThinkingKeep(data []byte) (ThinkingKeep, error) {
	if !json.Valid(data) {
		return nil, fmt.Errorf("mms: thinking keep: malformed JSON")
	}
	trimmed := trimJSONSpace(data)
	switch {
	case rawIsNull(data):
		return nil, nil
	case trimmed[0] == '"':
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return nil, err
		}
		if s == "all" {
			return ThinkingKeepAll{Bare: true}, nil
		}
		return UnknownThinkingKeep{Raw: codec.Clone(data)}, nil
	}
	typ, err := codec.PeekType(data)
	if err != nil {
		return nil, err
	}
	switch typ {
	case "thinking_turns":
		return codec.Decode[ThinkingKeepTurns](data)
	case "all":
		return codec.Decode[ThinkingKeepAll](data)
	}
	return UnknownThinkingKeep{Type: typ, Raw: codec.Clone(data)}, nil
}

// ThinkingKeepTurns keeps the thinking of the last Value assistant turns.
type ThinkingKeepTurns struct {
	// Value is the number of turns; at least 1.
	Value int `json:"value"`
}

func (ThinkingKeepTurns) isThinkingKeep() {}

// UnmarshalJSON decodes {"type":"thinking_turns","value":n}.
func (k *ThinkingKeepTurns) UnmarshalJSON(data []byte) error {
	type plain ThinkingKeepTurns
	return json.Unmarshal(data, (*plain)(k))
}

// MarshalJSON writes {"type":"thinking_turns","value":n}.
func (k ThinkingKeepTurns) MarshalJSON() ([]byte, error) {
	type plain ThinkingKeepTurns
	return codec.MarshalObject("thinking_turns", plain(k), nil)
}

// ThinkingKeepAll keeps all thinking.
type ThinkingKeepAll struct {
	// Bare writes the shorthand string "all" instead of {"type":"all"};
	// decoding sets it when the wire used the string.
	Bare bool
}

func (ThinkingKeepAll) isThinkingKeep() {}

// UnmarshalJSON accepts {"type":"all"} or "all".
func (k *ThinkingKeepAll) UnmarshalJSON(data []byte) error {
	data = trimJSONSpace(data)
	if rawIsNull(data) {
		return nil
	}
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		*k = ThinkingKeepAll{Bare: true}
		return nil
	}
	*k = ThinkingKeepAll{}
	return codec.EachMember(data, func(string, []byte) error { return nil })
}

// MarshalJSON writes {"type":"all"}, or "all" when Bare.
func (k ThinkingKeepAll) MarshalJSON() ([]byte, error) {
	if k.Bare {
		return []byte(`"all"`), nil
	}
	return []byte(`{"type":"all"}`), nil
}

// UnknownThinkingKeep holds a keep value this SDK version cannot name. Raw
// is written back verbatim.
type UnknownThinkingKeep struct {
	// Type is the object's "type" ("" for a string).
	Type string
	Raw  json.RawMessage
}

func (UnknownThinkingKeep) isThinkingKeep() {}

// MarshalJSON writes Raw unchanged.
func (k UnknownThinkingKeep) MarshalJSON() ([]byte, error) { return k.Raw, nil }

// CompactEdit summarises earlier context into a compaction block once the
// input passes Trigger (wire type compact_20260112).
type CompactEdit struct {
	// Trigger is the input-token threshold (150,000 by default).
	Trigger *ContextAmount `json:"trigger,omitzero"`
	// Instructions guide the summary.
	Instructions string `json:"instructions,omitzero"`
	// PauseAfterCompaction ends the turn after compacting (stop reason
	// "compaction").
	PauseAfterCompaction bool `json:"pause_after_compaction,omitzero"`
	// Explicit holds members the decoded JSON carried with a value that
	// decodes to zero (null, "", false); encoding writes them back while
	// their field is unset. Leave it nil.
	Extra map[string]json.RawMessage `json:"-"`
}

func (CompactEdit) isContextEdit() {}

// UnmarshalJSON decodes the edit.
func (e *CompactEdit) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, e) }

// MarshalJSON writes the edit with its type.
func (e CompactEdit) MarshalJSON() ([]byte, error) { return marshalRequest(e) }

func (e CompactEdit) validate(path string) error {
	return e.Trigger.validate(path+".trigger", 1, ContextUnitInputTokens)
}

// UnknownContextEdit holds an edit type this SDK version cannot name. Raw is
// written back verbatim.
type UnknownContextEdit struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownContextEdit) isContextEdit() {}

// MarshalJSON writes Raw unchanged.
func (e UnknownContextEdit) MarshalJSON() ([]byte, error) { return e.Raw, nil }

func (e UnknownContextEdit) validate(path string) error {
	if !rawIsObject(e.Raw) {
		return invalid(path, "must hold a JSON object")
	}
	return nil
}

// TokensCountContextManagement is count_tokens' context_management member.
// Like every response type it keeps what it does not model, so a decoded
// count re-encodes to the JSON it came from.
type TokensCountContextManagement struct {
	// OriginalInputTokens is the count before the context edits ran.
	OriginalInputTokens int `json:"original_input_tokens"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes the member, keeping unknown members in Extra.
func (c *TokensCountContextManagement) UnmarshalJSON(data []byte) error {
	return unmarshalJSON(data, c)
}

// MarshalJSON writes the member with Extra.
func (c TokensCountContextManagement) MarshalJSON() ([]byte, error) { return marshalJSON(c) }
