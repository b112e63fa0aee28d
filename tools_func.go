package mms

// Typed tools: a client tool built from a Go function, its input schema
// derived from the function's input type.

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// A RunnableTool is a client tool a [ToolRunner] can run: its definition,
// sent in the request's tools, and the code that answers one call.
// [NewTool] makes one from a Go function; implement the interface for
// anything else (a tool whose schema is written by hand, a proxy to
// another process).
type RunnableTool interface {
	// Definition returns the tool as the request sends it. An error (a
	// schema that cannot be derived, for instance) stops the runner
	// before it sends anything.
	Definition() (CustomTool, error)
	// Run answers one call. input is the call's JSON object as the model
	// wrote it. The returned blocks are the tool_result's content (text,
	// images, documents, search results); an error becomes an is_error
	// result carrying the error's text, which the model reads.
	Run(ctx context.Context, input json.RawMessage) (ContentBlocks, error)
}

// A BuiltinTool is a [RunnableTool] that the request sends as one of the
// service's client-run tools rather than as a custom tool: a [ToolRunner]
// sends ToolParam in place of Definition, and answers the calls of that
// tool's name with Run. [MemoryDir] is one.
type BuiltinTool interface {
	RunnableTool
	// ToolParam is the tool as the request sends it.
	ToolParam() Tool
}

// FuncTool is a [RunnableTool] made by [NewTool] from a Go function.
type FuncTool[In, Out any] struct {
	// Tool is the definition sent. NewTool sets Name, Description and
	// InputSchema (derived from In); set the other fields (Strict,
	// CacheControl, InputExamples, …) before the runner starts.
	Tool CustomTool
	// Func answers a call with the input decoded into an In.
	Func func(context.Context, In) (Out, error)

	err error // why In has no input schema
}

// NewTool returns a tool named name that runs fn. Its input schema is
// [SchemaFor] In, which must be a struct or a map (a tool's input is a JSON
// object). A call's input is checked against that schema and decoded into
// an In; input that does not match is answered with an is_error result
// naming the offending member (a [ToolInputError]), so the model can
// correct it, and fn is not called.
//
// Out becomes the result's content: a string is its text (an empty one
// sends no content), a [ContentBlock] or [ContentBlocks] is sent as it is
// (images, documents, search results), and any other value is sent as its
// JSON encoding. An error from fn becomes an is_error result with the
// error's text.
//
// A schema In cannot have is not a panic: [FuncTool.Definition] reports it,
// and a runner given the tool fails before sending anything.
func NewTool[In, Out any](name, description string, fn func(context.Context, In) (Out, error)) *FuncTool[In, Out] {
	t := &FuncTool[In, Out]{Tool: CustomTool{Name: name, Description: description}, Func: fn}
	switch k := reflect.TypeFor[In]().Kind(); k {
	case reflect.Struct, reflect.Map:
		schema, err := SchemaFor[In]()
		t.Tool.InputSchema, t.err = InputSchema(schema), err
	default:
		t.err = fmt.Errorf("the input type %v is a %v: a tool's input is a JSON object, so use a struct or a map", reflect.TypeFor[In](), k)
	}
	return t
}

// Definition returns t.Tool, or why it cannot be sent: no input schema for
// In, a nil Func, or a definition that breaks a request rule.
func (t *FuncTool[In, Out]) Definition() (CustomTool, error) {
	switch {
	case t.err != nil:
		return CustomTool{}, fmt.Errorf("mms: tool %q: %w", t.Tool.Name, t.err)
	case t.Func == nil:
		return CustomTool{}, invalid("tool "+t.Tool.Name+".Func", "must not be nil")
	}
	return t.Tool, nil
}

// Run decodes input into an In (a mismatch is a *[ToolInputError]), calls
// Func and encodes its result as described at [NewTool].
func (t *FuncTool[In, Out]) Run(ctx context.Context, input json.RawMessage) (ContentBlocks, error) {
	in, err := decodeSchemaValue[In](input)
	if err != nil {
		return nil, &ToolInputError{Tool: t.Tool.Name, Err: err}
	}
	out, err := t.Func(ctx, in)
	if err != nil {
		return nil, err
	}
	return ToolContent(out)
}

// ToolInputError reports a call whose input does not match the tool's
// input schema. Its text, which the model reads, names the member and the
// rule.
type ToolInputError struct {
	Tool string
	Err  error
}

// Error names the tool and what is wrong with its input.
func (e *ToolInputError) Error() string {
	return fmt.Sprintf("invalid input for tool %s: %v", e.Tool, e.Err)
}

// Unwrap returns Err.
func (e *ToolInputError) Unwrap() error { return e.Err }

// ToolContent encodes a tool's output as tool_result content, as
// [NewTool] describes: a string is text ("" is no content), content blocks
// pass through, anything else is its JSON encoding as text.
func ToolContent(out any) (ContentBlocks, error) {
	switch v := out.(type) {
	case string:
		if v == "" {
			return nil, nil
		}
		return ContentBlocks{TextBlock{Text: v}}, nil
	case ContentBlocks:
		return v, nil
	case []ContentBlock:
		return ContentBlocks(v), nil
	case ContentBlock:
		return ContentBlocks{v}, nil
	}
	b, err := codec.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("mms: encoding the tool's result: %w", err)
	}
	return ContentBlocks{TextBlock{Text: string(b)}}, nil
}
