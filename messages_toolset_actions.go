package mms

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// Typed calls of the computer and browser toolsets ([ComputerToolset],
// [BrowserToolset]). The model calls a toolset member with a tool_use
// block whose toolset_name names the toolset and whose name is the action;
// its input depends on the action. [ToolUseBlock.ComputerAction] and
// [ToolUseBlock.BrowserAction] decode it into one struct per action, and
// [ComputerToolUse] and [BrowserToolUse] build the block back from one.
// The block's wire form and fields stay what they are: the typed view is
// computed from Name and Input on request.
//
// The action tables are codec unions whose key (the action) travels beside
// the value (codec.Union.Outside): each action is a plain record with
// Extra, so members this SDK version does not model survive a round trip,
// and an action it does not know is an Unknown variant holding the input.

// Toolset names: the toolset_name of a toolset member's tool_use block.
const (
	ToolsetNameComputer = "computer"
	ToolsetNameBrowser  = "browser"
)

// ScrollDirection is a scroll action's scroll_direction. Unknown values
// pass through decoding; Validate refuses them.
type ScrollDirection string

// Scroll directions.
const (
	ScrollUp    ScrollDirection = "up"
	ScrollDown  ScrollDirection = "down"
	ScrollLeft  ScrollDirection = "left"
	ScrollRight ScrollDirection = "right"
)

// ReadPageFilter is the filter of a browser read_page action. Unknown
// values pass through decoding; Validate refuses them.
type ReadPageFilter string

// Read page filters.
const (
	ReadPageFilterAll         ReadPageFilter = "all"
	ReadPageFilterInteractive ReadPageFilter = "interactive"
)

// ComputerAction decodes the call's input by its action (Name). The block
// must be a call of the computer toolset (ToolsetName "computer") and Input
// a JSON object; an action this SDK version does not know is an
// [UnknownComputerAction], not an error. Decoding does not check the
// action's rules: call its Validate for that.
func (b ToolUseBlock) ComputerAction() (ComputerAction, error) {
	if err := b.checkToolset(ToolsetNameComputer); err != nil {
		return nil, err
	}
	a, err := computerActionUnion.DecodeAs(b.Name, b.Input)
	if err != nil {
		return nil, fmt.Errorf("mms: computer action %q: %w", b.Name, err)
	}
	return a, nil
}

// BrowserAction decodes the call's input by its action (Name). The block
// must be a call of the browser toolset (ToolsetName "browser") and Input a
// JSON object; an action this SDK version does not know is an
// [UnknownBrowserAction], not an error. Decoding does not check the
// action's rules: call its Validate for that.
func (b ToolUseBlock) BrowserAction() (BrowserAction, error) {
	if err := b.checkToolset(ToolsetNameBrowser); err != nil {
		return nil, err
	}
	a, err := browserActionUnion.DecodeAs(b.Name, b.Input)
	if err != nil {
		return nil, fmt.Errorf("mms: browser action %q: %w", b.Name, err)
	}
	return a, nil
}

func (b ToolUseBlock) checkToolset(toolset string) error {
	if b.ToolsetName != toolset {
		return fmt.Errorf("mms: tool_use %q is not a call of the %s toolset (toolset_name %q)", b.ID, toolset, b.ToolsetName)
	}
	// The codec's decoders leave validation to where bytes enter the SDK.
	if err := codec.Valid(b.Input); err != nil {
		return fmt.Errorf("mms: %s action %q: %w", toolset, b.Name, err)
	}
	if !codec.IsObject(b.Input) {
		return fmt.Errorf("mms: %s action %q: input is not a JSON object", toolset, b.Name)
	}
	return nil
}

// ComputerToolUse builds the tool_use block of a computer toolset call:
// Name is a's action, Input its JSON (members in a's Extra included) and
// ToolsetName "computer". a must pass its Validate. It serves tests and
// fakes that play the model; a client sends back the blocks it received.
func ComputerToolUse(id string, a ComputerAction) (ToolUseBlock, error) {
	var name string
	if u, ok := a.(UnknownComputerAction); ok {
		name = u.Type
	}
	return toolsetToolUse(id, ToolsetNameComputer, name, a, computerActionNames)
}

// BrowserToolUse builds the tool_use block of a browser toolset call: Name
// is a's action, Input its JSON (members in a's Extra included) and
// ToolsetName "browser". a must pass its Validate. It serves tests and
// fakes that play the model; a client sends back the blocks it received.
func BrowserToolUse(id string, a BrowserAction) (ToolUseBlock, error) {
	var name string
	if u, ok := a.(UnknownBrowserAction); ok {
		name = u.Type
	}
	return toolsetToolUse(id, ToolsetNameBrowser, name, a, browserActionNames)
}

// toolsetAction is what ComputerAction and BrowserAction share.
type toolsetAction interface {
	json.Marshaler
	Validate() error
}

func toolsetToolUse(id, toolset, name string, a toolsetAction, names map[reflect.Type]string) (ToolUseBlock, error) {
	if v := reflect.ValueOf(a); a != nil && v.Kind() == reflect.Pointer && !v.IsNil() {
		a = v.Elem().Interface().(toolsetAction) // a pointer to an action stands for it
	}
	if a == nil || reflect.ValueOf(a).Kind() == reflect.Pointer {
		return ToolUseBlock{}, fmt.Errorf("mms: %s tool use: the action must not be nil, got %T", toolset, a)
	}
	if name == "" {
		name = names[reflect.TypeOf(a)]
	}
	if name == "" {
		return ToolUseBlock{}, invalid("name", "an unknown %s action needs its Type", toolset)
	}
	if err := a.Validate(); err != nil {
		return ToolUseBlock{}, err
	}
	in, err := a.MarshalJSON()
	if err != nil {
		return ToolUseBlock{}, fmt.Errorf("mms: %s action %q: %w", toolset, name, err)
	}
	return ToolUseBlock{ID: id, Name: name, Input: in, ToolsetName: toolset}, nil
}

// actionNames inverts an action table: the action of each variant type.
func actionNames(types map[string]reflect.Type) map[reflect.Type]string {
	out := make(map[reflect.Type]string, len(types))
	for name, t := range types {
		out[t] = name
	}
	return out
}

// The checks the actions share. Paths start at "input", the member of the
// tool_use block that holds the action.

// missing reports whether a required member was absent or null on the
// wire: decoding records either in Extra (as absent, or as null), since
// the field alone cannot tell them from a zero.
func missing(extra map[string]json.RawMessage, member string) bool {
	v, ok := extra[member]
	return ok && (v == nil || codec.IsNull(v))
}

func requireText(member, value string) error {
	if value == "" {
		return invalid("input."+member, "is required")
	}
	return nil
}

func requireInt(extra map[string]json.RawMessage, member string, value, min int) error {
	if missing(extra, member) {
		return invalid("input."+member, "is required")
	}
	if value < min {
		return invalid("input."+member, "must be >= %d, got %d", min, value)
	}
	return nil
}

func requireNumber(extra map[string]json.RawMessage, member string, value float64) error {
	if missing(extra, member) {
		return invalid("input."+member, "is required")
	}
	if value < 0 {
		return invalid("input."+member, "must be >= 0, got %s", strconv.FormatFloat(value, 'g', -1, 64))
	}
	return nil
}

// checkInts checks a coordinate ([x, y]) or region ([x1, y1, x2, y2]);
// required says whether nil is refused.
func checkInts(member string, v []int, n int, required bool) error {
	switch {
	case v == nil && !required:
		return nil
	case v == nil:
		return invalid("input."+member, "is required")
	case len(v) != n:
		return invalid("input."+member, "must have %d integers, got %d", n, len(v))
	}
	for i, x := range v {
		if x < 0 {
			return invalid(fmt.Sprintf("input.%s[%d]", member, i), "must be >= 0, got %d", x)
		}
	}
	return nil
}

func checkOptionalMin(member string, v *int, min int) error {
	if v != nil && *v < min {
		return invalid("input."+member, "must be >= %d, got %d", min, *v)
	}
	return nil
}

func checkScrollDirection(d ScrollDirection) error {
	switch d {
	case ScrollUp, ScrollDown, ScrollLeft, ScrollRight:
		return nil
	case "":
		return invalid("input.scroll_direction", "is required")
	}
	return invalid("input.scroll_direction", "must be up, down, left or right, got %q", d)
}

// checkNoInput refuses every member: the action takes no input.
func checkNoInput(action string, extra map[string]json.RawMessage) error {
	if len(extra) == 0 {
		return nil
	}
	return invalid("input."+slices.Sorted(maps.Keys(extra))[0], "%s takes no input", action)
}
