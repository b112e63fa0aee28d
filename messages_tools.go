package mms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// Request configuration: tools, tool_choice, thinking, output_config,
// output_format, metadata, context_management and mcp_servers.
//
// These types only ever travel in requests: their MarshalJSON writes the
// request form (codec.MarshalRequest).
//
// Extra. A decoded request must re-encode to the JSON it came from, but Go's
// zero values cannot say "this member was there": "max_uses": null,
// "description": "" and "disable_parallel_tool_use": false all decode to the
// zero value that omitzero leaves out. Every type with such members carries
// an Extra field (see [Extra]) that remembers them. A value of a type this
// version cannot name decodes to the union's Unknown variant, whose raw JSON
// goes back verbatim.
//
// Betas. Pieces that the service accepts only with a vendor-beta value report
// it from an unexported betas() method ([Tools], [ContextManagement],
// [MCPServers], [OutputFormat]), so the params code can add it by itself.
// The spec pairs them so:
//
//	piece                                       beta                            source
//	tools: bash_20241022, text_editor_20241022,
//	       computer_20241022                    computer-use-2024-10-22 (inferred)
//	tools: computer_20250124                    computer-use-2025-01-24 (inferred)
//	tools: computer_20251124                    none named (beta-only tool)
//	tools: advisor_20260301                     advisor-tool-2026-03-01 (inferred)
//	tools: mcp_toolset                          mcp-client-2025-11-20 (inferred)
//	tools: mcp_toolset with pinned tools        also mcp-client-2026-09-15 (inferred)
//	tools: computer/browser toolsets            none (GA in the newer SDK)
//	tools: code_execution_20250522              none (GA; the SDK enum also has
//	                                            code-execution-2025-05-22)
//	mcp_servers, no tool_configuration          mcp-client-2025-11-20 (inferred)
//	mcp_servers using tool_configuration        mcp-client-2025-04-04 (inferred: the
//	                                            field predates mcp_toolset)
//	context_management                          context-management-2025-06-27 (inferred)
//	output_format (top level, deprecated)       structured-outputs-2025-12-15, (inferred)
//	output_config (task_budget included)        none identified
//	speed (top-level param, not here)           fast-mode-2026-02-01 (inferred)
//	tool_choice, thinking, metadata             none                            GA

// Beta names reported by betas() methods of request configuration types.
const (
	betaComputerUse20241022 = "computer-use-2024-10-22"
	betaComputerUse20250124 = "computer-use-2025-01-24"
	betaAdvisorTool         = "advisor-tool-2026-03-01"
	betaMCPClient20250404   = "mcp-client-2025-04-04"
	betaMCPClient20251120   = "mcp-client-2025-11-20"
	betaContextManagement   = "context-management-2025-06-27"
	betaStructuredOutputs   = "structured-outputs-2025-12-15"
)

// A Tool is one entry of a request's tools list. Variants: [CustomTool],
// [BashTool], [CodeExecutionTool], [MemoryTool], [TextEditorTool],
// [ComputerTool], [WebSearchTool], [WebFetchTool], [ToolSearchTool],
// [AdvisorTool], [ComputerToolset], [BrowserToolset], [MCPToolset] and
// [UnknownTool].
type Tool interface {
	isTool()
	// validate reports the first rule the tool breaks, path naming it
	// ("tools[2]").
	validate(path string) error
	// betas lists the vendor-beta values the tool needs (nil for none).
	betas() []string
}

// Tools is a request's tools list. It decodes each entry into its [Tool]
// variant.
//
//mms:json request
type Tools []Tool

// validate checks every tool; path is the list's own ("tools").
func (ts Tools) validate(path string) error {
	for i, t := range ts {
		p := fmt.Sprintf("%s[%d]", path, i)
		if t == nil {
			return invalid(p, "must not be nil")
		}
		if err := t.validate(p); err != nil {
			return err
		}
	}
	return checkURLSourceTools(path, ts)
}

// betas lists the beta values the tools need, each once, in order of first
// use.
func (ts Tools) betas() []string {
	var out []string
	for _, t := range ts {
		if t == nil {
			continue
		}
		out = appendNew(out, t.betas()...)
	}
	return out
}

// toolUnion decodes the [Tool] variants: the versioned tool families
// (toolFamilies, messages_tools_server.go), the toolsets, and custom tools, whose
// "type" the wire makes optional (decodeCustomTool).
var toolUnion = newToolUnion()

func newToolUnion() *codec.Union[Tool] {
	u := codec.NewUnion[Tool]("Tool", UnknownTool{}).
		Custom(decodeCustomTool).
		Add(mcpToolsetType, MCPToolset{})
	seen := map[reflect.Type]bool{}
	for _, f := range toolFamilies {
		if t := reflect.TypeOf(f.tool); !seen[t] {
			seen[t] = true
			// Registered before Add, whose empty Spec then leaves the hook be.
			codec.Register(f.tool, versionedTool)
		}
		for _, v := range f.versions {
			u.Add(v, f.tool)
		}
	}
	return u
}

// decodeCustomTool decodes a custom tool: an object whose "type" is
// "custom", or has none (or null) and has a "name" or "input_schema", as the
// wire allows. An object with neither a type nor those members becomes an
// [UnknownTool] with an empty Type; any other type is left to the table.
func decodeCustomTool(data []byte) (Tool, bool, error) {
	var typ []byte
	looksCustom := false
	err := codec.EachMember(data, func(key string, value []byte) error {
		switch key {
		case "type":
			typ = value
		case "name", "input_schema":
			looksCustom = true
		}
		return nil
	})
	switch {
	case err != nil:
		return nil, false, err
	case typ != nil && !codec.IsNull(typ):
		if string(typ) != `"custom"` {
			return nil, false, nil
		}
	case !looksCustom:
		if !json.Valid(data) {
			return nil, false, fmt.Errorf("mms: tool without a type: malformed JSON")
		}
		return UnknownTool{Raw: codec.Clone(data)}, true, nil
	}
	var t CustomTool
	return t, true, codec.UnmarshalOwned(data, &t)
}

// UnknownTool holds a tool type this SDK version cannot name. Raw is written
// back verbatim.
type UnknownTool struct {
	// Type is the wire "type" ("" when the object had none).
	Type string
	// Raw is the whole tool object.
	Raw json.RawMessage
}

func (UnknownTool) betas() []string { return nil }

func (t UnknownTool) validate(path string) error {
	if !codec.IsObject(t.Raw) {
		return invalid(path, "must hold a JSON object")
	}
	return nil
}

// A CustomTool is a tool the client defines and runs: the model calls it with
// a tool_use block whose input matches InputSchema, and the client answers
// with a tool_result.
//
//mms:json request spec=customToolSpec
type CustomTool struct {
	// Name appears in tool_use.name; 1 to 128 characters from
	// [a-zA-Z0-9_-].
	Name string `json:"name"`
	// Description tells the model what the tool does and when to use it.
	Description string `json:"description,omitzero"`
	// InputSchema is the JSON Schema of the tool's input; its "type" must
	// be "object". Required.
	InputSchema InputSchema `json:"input_schema"`
	// EagerInputStreaming streams the tool input without buffering (true),
	// never (false), or leaves it to the beta headers (nil).
	EagerInputStreaming *bool `json:"eager_input_streaming,omitzero"`
	// AllowedCallers limits who may invoke the tool.
	AllowedCallers []AllowedCaller `json:"allowed_callers,omitzero"`
	// CacheControl sets a prompt-cache breakpoint after this tool.
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// DeferLoading keeps the tool out of the initial prompt until a tool
	// search returns a reference to it.
	DeferLoading *bool `json:"defer_loading,omitzero"`
	// InputExamples are example inputs, each a JSON object.
	InputExamples []json.RawMessage `json:"input_examples,omitzero"`
	// Strict guarantees schema-valid tool names and inputs.
	Strict *bool `json:"strict,omitzero"`

	// OmitType leaves out "type":"custom", which the wire makes optional.
	// Decoding sets it when the object had no type (or a null one), so the
	// tool re-encodes in the form it came in.
	OmitType bool `json:"-"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (CustomTool) isTool()         {}
func (CustomTool) betas() []string { return nil }

// customToolSpec writes "type":"custom" first unless OmitType is set, and
// on decode sets OmitType when the object had no type or a null one (kept
// in Extra, so it goes back as it came).
var customToolSpec = codec.Spec{
	Encode: func(e *codec.Encoder, v reflect.Value) error {
		if v.FieldByName("OmitType").Bool() {
			return e.StructAs("", v)
		}
		return e.StructAs(customToolType, v)
	},
	Decode: func(data []byte, v reflect.Value) error {
		if err := codec.DecodeStruct(data, v); err != nil {
			return err
		}
		t := v.Addr().Interface().(*CustomTool)
		typ, ok := t.Extra["type"]
		switch {
		case !ok || codec.IsNull(typ):
			t.OmitType = true
			return nil
		case string(typ) != `"`+customToolType+`"`:
			return fmt.Errorf("%w: tool type %s", codec.ErrOtherType, typ)
		}
		delete(t.Extra, "type")
		if len(t.Extra) == 0 {
			t.Extra = nil
		}
		return nil
	},
}

// customToolType is the optional wire type of a [CustomTool].
const customToolType = "custom"

// maxToolNameLen bounds a custom tool's name (the service's request schema,
// BetaTool).
const maxToolNameLen = 128

func (t CustomTool) validate(path string) error {
	if err := validateLength(path+".name", t.Name, 1, maxToolNameLen); err != nil {
		return err
	}
	if !isIDString(t.Name) {
		return invalid(path+".name", "must match ^[a-zA-Z0-9_-]{1,%d}$, got %q", maxToolNameLen, t.Name)
	}
	if err := t.InputSchema.validate(path + ".input_schema"); err != nil {
		return err
	}
	return validateToolCommon(path, t.CacheControl, t.InputExamples)
}

// InputSchema is a tool's input JSON Schema, kept as raw JSON so that its key
// order (which users see in prompts) survives a round trip. Build one from a
// literal, InputSchema(`{"type":"object","properties":{...}}`), or from a Go
// value with [NewInputSchema].
type InputSchema json.RawMessage

// NewInputSchema encodes v (a struct or map describing the schema) into an
// InputSchema. It fails unless v encodes as a JSON object.
func NewInputSchema(v any) (InputSchema, error) {
	b, err := codec.Marshal(v)
	if err != nil {
		return nil, err
	}
	if !codec.IsObject(b) {
		return nil, fmt.Errorf("mms: input schema %T does not encode as a JSON object", v)
	}
	return InputSchema(b), nil
}

// MarshalJSON writes the schema unchanged (null when empty).
func (s InputSchema) MarshalJSON() ([]byte, error) {
	if len(s) == 0 {
		return []byte("null"), nil
	}
	return s, nil
}

// UnmarshalJSON keeps a copy of the schema's JSON, which must be well
// formed (the codec does not validate what it hands on raw).
func (s *InputSchema) UnmarshalJSON(data []byte) error {
	if !json.Valid(data) {
		return fmt.Errorf("mms: input_schema is not valid JSON")
	}
	*s = InputSchema(bytes.Clone(data))
	return nil
}

// validate checks that the schema is an object whose "type" is "object".
func (s InputSchema) validate(path string) error {
	if len(codec.TrimSpace(s)) == 0 {
		return invalid(path, "must be set")
	}
	if !codec.IsObject(s) {
		return invalid(path, "must be a JSON object")
	}
	var typ string
	raw := codec.Member(s, "type")
	if raw == nil || json.Unmarshal(raw, &typ) != nil || typ != "object" {
		return invalid(path+".type", `must be "object"`)
	}
	return nil
}

// AllowedCaller names who may invoke a tool. Unknown values pass through.
type AllowedCaller string

// Callers a tool can allow.
const (
	AllowedCallerDirect                AllowedCaller = "direct"
	AllowedCallerCodeExecution20250825 AllowedCaller = "code_execution_20250825"
	AllowedCallerCodeExecution20260120 AllowedCaller = "code_execution_20260120"
	AllowedCallerCodeExecution20260521 AllowedCaller = "code_execution_20260521"
)

// validateToolCommon checks the fields most tool entries share.
func validateToolCommon(path string, cc *CacheControl, examples []json.RawMessage) error {
	if err := cc.validate(path + ".cache_control"); err != nil {
		return err
	}
	for i, ex := range examples {
		if !codec.IsObject(ex) {
			return invalid(fmt.Sprintf("%s.input_examples[%d]", path, i), "must be a JSON object")
		}
	}
	return nil
}

// validatePositive reports a set value that is not greater than zero.
func validatePositive(path string, v *int) error {
	if v != nil && *v <= 0 {
		return invalid(path, "must be greater than 0, got %d", *v)
	}
	return nil
}

// validateAtLeast reports v below min.
func validateAtLeast(path string, v, min int) error {
	switch {
	case v >= min:
		return nil
	case min == 0:
		return invalid(path, "must not be negative, got %d", v)
	}
	return invalid(path, "must be at least %d, got %d", min, v)
}

// appendNew appends each of names not yet in list.
func appendNew(list []string, names ...string) []string {
	for _, n := range names {
		if !slices.Contains(list, n) {
			list = append(list, n)
		}
	}
	return list
}
