package mms

import (
	"encoding/json"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// A Caller says who invoked a tool: the model itself, or code it ran in the
// code-execution tool. Variants: [DirectCaller],
// [CodeExecution20250825Caller], [CodeExecution20260120Caller] and
// [UnknownCaller].
type Caller interface {
	json.Marshaler
	isCaller()
	validate(path string) error
}

var callerUnion = codec.NewUnion[Caller]("Caller", UnknownCaller{}).
	Add("direct", DirectCaller{}).
	Add("code_execution_20250825", CodeExecution20250825Caller{}).
	Add("code_execution_20260120", CodeExecution20260120Caller{})

// DirectCaller is the {"type":"direct"} caller: the model called the tool
// itself (the default).
type DirectCaller struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (DirectCaller) validate(string) error { return nil }

// CodeExecution20250825Caller is the "code_execution_20250825" caller: code
// run by that code-execution tool version called the tool.
type CodeExecution20250825Caller struct {
	// ToolID is the server_tool_use id of the code execution
	// (^srvtoolu_[a-zA-Z0-9_]+$).
	ToolID string `json:"tool_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (c CodeExecution20250825Caller) validate(path string) error {
	return toolIDCaller(c).validate(path)
}

// CodeExecution20260120Caller is the "code_execution_20260120" caller: code
// run by that code-execution tool version called the tool.
type CodeExecution20260120Caller struct {
	// ToolID is the server_tool_use id of the code execution.
	ToolID string `json:"tool_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (c CodeExecution20260120Caller) validate(path string) error {
	return toolIDCaller(c).validate(path)
}

// toolIDCaller is the shape of the code-execution callers: each converts
// itself to it for its codec, request form and validation.
type toolIDCaller struct {
	ToolID string `json:"tool_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (c toolIDCaller) validate(path string) error {
	return checkServerToolID(path+".tool_id", c.ToolID)
}

// UnknownCaller holds a caller type this version cannot name; Raw is written
// back verbatim.
type UnknownCaller struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownCaller) validate(string) error { return nil }
