package mms

import (
	"encoding/json"
	"strings"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// A Caller says who invoked a tool: the model itself, or code it ran in the
// code-execution tool. Variants: [DirectCaller],
// [CodeExecution20250825Caller], [CodeExecution20260120Caller] and
// [UnknownCaller].
type Caller interface {
	json.Marshaler
	isCaller()
	requestForm() Caller
	validate(path string) error
}

func decodeCaller(data []byte) (Caller, error) {
	typ, err := codec.PeekType(data)
	if err != nil {
		return nil, err
	}
	var c Caller
	switch typ {
	case "direct":
		c, err = codec.Decode[DirectCaller](data)
	case "code_execution_20250825":
		c, err = codec.Decode[CodeExecution20250825Caller](data)
	case "code_execution_20260120":
		c, err = codec.Decode[CodeExecution20260120Caller](data)
	default:
		return unknownOf(typ, data, newUnknownCaller)
	}
	return settle(c, err, typ, data, newUnknownCaller)
}

// DirectCaller is the {"type":"direct"} caller: the model called the tool
// itself (the default).
type DirectCaller struct {
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (DirectCaller) isCaller() {}

// UnmarshalJSON decodes the caller, keeping unknown members in Extra.
func (c *DirectCaller) UnmarshalJSON(data []byte) error {
	type plain DirectCaller
	return decodeObject(data, (*plain)(c), &c.Extra)
}

// MarshalJSON writes {"type":"direct"} and Extra.
func (c DirectCaller) MarshalJSON() ([]byte, error) {
	type plain DirectCaller
	return marshalObject("direct", plain(c), c.Extra)
}

func (c DirectCaller) requestForm() Caller {
	c.Extra = requestExtra[DirectCaller](c.Extra)
	return c
}

func (DirectCaller) validate(string) error { return nil }

// CodeExecution20250825Caller is the "code_execution_20250825" caller: code
// run by that code-execution tool version called the tool.
type CodeExecution20250825Caller struct {
	// ToolID is the server_tool_use id of the code execution
	// (^srvtoolu_[a-zA-Z0-9_]+$).
	ToolID string `json:"tool_id"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (CodeExecution20250825Caller) isCaller() {}

// UnmarshalJSON decodes the caller, keeping unknown members in Extra.
func (c *CodeExecution20250825Caller) UnmarshalJSON(data []byte) error {
	type plain CodeExecution20250825Caller
	return decodeObject(data, (*plain)(c), &c.Extra)
}

// MarshalJSON writes the caller with "type":"code_execution_20250825".
func (c CodeExecution20250825Caller) MarshalJSON() ([]byte, error) {
	type plain CodeExecution20250825Caller
	return marshalObject("code_execution_20250825", plain(c), c.Extra)
}

func (c CodeExecution20250825Caller) requestForm() Caller {
	c.Extra = requestExtra[CodeExecution20250825Caller](c.Extra)
	return c
}

func (c CodeExecution20250825Caller) validate(path string) error {
	return validateCallerToolID(path, c.ToolID)
}

// CodeExecution20260120Caller is the "code_execution_20260120" caller: code
// run by that code-execution tool version called the tool.
type CodeExecution20260120Caller struct {
	// ToolID is the server_tool_use id of the code execution.
	ToolID string `json:"tool_id"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (CodeExecution20260120Caller) isCaller() {}

// UnmarshalJSON decodes the caller, keeping unknown members in Extra.
func (c *CodeExecution20260120Caller) UnmarshalJSON(data []byte) error {
	type plain CodeExecution20260120Caller
	return decodeObject(data, (*plain)(c), &c.Extra)
}

// MarshalJSON writes the caller with "type":"code_execution_20260120".
func (c CodeExecution20260120Caller) MarshalJSON() ([]byte, error) {
	type plain CodeExecution20260120Caller
	return marshalObject("code_execution_20260120", plain(c), c.Extra)
}

func (c CodeExecution20260120Caller) requestForm() Caller {
	c.Extra = requestExtra[CodeExecution20260120Caller](c.Extra)
	return c
}

func (c CodeExecution20260120Caller) validate(path string) error {
	return validateCallerToolID(path, c.ToolID)
}

// validateCallerToolID checks ^srvtoolu_[a-zA-Z0-9_]+$.
func validateCallerToolID(path, id string) error {
	rest, ok := strings.CutPrefix(id, "srvtoolu_")
	if ok && rest != "" && !strings.Contains(rest, "-") && isIDString(rest) {
		return nil
	}
	return invalid(path+".tool_id", "must match ^srvtoolu_[a-zA-Z0-9_]+$, got %q", id)
}

// UnknownCaller holds a caller type this version cannot name; Raw is written
// back verbatim.
type UnknownCaller struct {
	Type string
	Raw  json.RawMessage
}

func newUnknownCaller(typ string, raw json.RawMessage) Caller {
	return UnknownCaller{Type: typ, Raw: raw}
}

func (UnknownCaller) isCaller() {}

// MarshalJSON returns Raw unchanged.
func (c UnknownCaller) MarshalJSON() ([]byte, error) { return rawJSON(c.Type, c.Raw) }

func (c UnknownCaller) requestForm() Caller { return c }
func (UnknownCaller) validate(string) error { return nil }
