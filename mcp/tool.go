package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxResultBytes is the default bound on a tool result's content:
// 1 MiB of text, or of base64 for images and PDFs.
const DefaultMaxResultBytes = 1 << 20

// Options configure the tools [Tools] and [NewTool] make. The zero value
// (or nil) is the default.
type Options struct {
	// NamePrefix is put before each MCP tool's name to make the name the
	// model sees (for instance "github_" when tools of several servers
	// share one runner and their names could clash).
	NamePrefix string
	// MaxResultBytes bounds a tool result's content, counted as the bytes
	// of its text and the base64 of its images and PDFs (default
	// [DefaultMaxResultBytes]; negative: no bound). A larger result is
	// truncated, not refused: the blocks that fit are kept, a text block
	// that does not fit is cut, and a text block starting with
	// [TruncationMarker] says how large the result was and how many
	// blocks were left out. The result as received is bounded by the
	// transport (the SDK's stdio and command transports refuse a message
	// over [mcp.DefaultMaxLineLength]).
	MaxResultBytes int
}

// Tools lists the tools of session (every page) and returns a tool runner
// tool for each, in the server's order. Give them to
// [mms.ToolRunnerParams].Tools.
func Tools(ctx context.Context, session *mcp.ClientSession, opts *Options) ([]mms.RunnableTool, error) {
	if session == nil {
		return nil, errors.New("mcp: the session is nil")
	}
	var tools []mms.RunnableTool
	for t, err := range session.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("mcp: listing tools: %w", err)
		}
		tools = append(tools, NewTool(session, t, opts))
	}
	return tools, nil
}

// Tool is a tool runner tool ([mms.RunnableTool]) that calls one tool of
// an MCP server through a client session.
//
// Its definition is the MCP tool's: the name (with [Options].NamePrefix),
// the description (or the title when there is none) and the input schema,
// passed through as JSON. A call sends the model's input as the MCP call's
// arguments and maps the result:
//   - text becomes text blocks (empty text is left out);
//   - JPEG, PNG, GIF and WebP images become image blocks;
//   - embedded resources become documents or images by media type (see
//     [ResourceContent]);
//   - what the Messages API has no block for (audio, images of other
//     types, binary resources of other types, resource links) becomes a
//     text block describing it, starting with "[MCP ";
//   - a result with no content but structured content sends its JSON as
//     text;
//   - a result the server marked as an error is a *[ToolError], which the
//     runner sends as an is_error result;
//   - a protocol error (an unknown tool, a failing server, a closed
//     session) or the context's end is returned as an error wrapping the
//     SDK's, which the runner also sends as an is_error result (its
//     [mms.ToolCall].Err tells the two apart).
//
// A Tool is safe for concurrent use, as the session is.
type Tool struct {
	// Session is the MCP client session the calls go through.
	Session *mcp.ClientSession
	// MCP is the tool as the server listed it.
	MCP *mcp.Tool
	// Name is the name the model sees: 1 to 128 characters from
	// [a-zA-Z0-9_-]. NewTool sets it to the MCP name with the prefix; set
	// it to rename a tool whose MCP name the Messages API does not take.
	Name string
	// MaxResultBytes bounds a result's content, as [Options] describes.
	MaxResultBytes int
}

// NewTool returns the tool runner tool calling t through session.
func NewTool(session *mcp.ClientSession, t *mcp.Tool, opts *Options) *Tool {
	if opts == nil {
		opts = &Options{}
	}
	tool := &Tool{Session: session, MCP: t, MaxResultBytes: opts.MaxResultBytes}
	if t != nil {
		tool.Name = opts.NamePrefix + t.Name
	}
	return tool
}

// toolName is the rule the Messages API has for a client tool's name.
var toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,128}$`)

// Definition returns the tool as the Messages request sends it, or why it
// cannot be sent: no session or MCP tool, a name the Messages API does
// not take, or an input schema that is not a JSON object.
func (t *Tool) Definition() (mms.CustomTool, error) {
	switch {
	case t.Session == nil:
		return mms.CustomTool{}, fmt.Errorf("mcp: tool %q: the session is nil", t.Name)
	case t.MCP == nil:
		return mms.CustomTool{}, fmt.Errorf("mcp: tool %q: the MCP tool is nil", t.Name)
	case !toolName.MatchString(t.Name):
		return mms.CustomTool{}, fmt.Errorf("mcp: tool %q: the name must be 1 to 128 characters from [a-zA-Z0-9_-] (set Tool.Name to rename the MCP tool %q)", t.Name, t.MCP.Name)
	case t.MCP.InputSchema == nil:
		return mms.CustomTool{}, fmt.Errorf("mcp: tool %q: the MCP tool has no input schema", t.Name)
	}
	schema, err := mms.NewInputSchema(t.MCP.InputSchema)
	if err != nil {
		return mms.CustomTool{}, fmt.Errorf("mcp: tool %q: input schema: %w", t.Name, err)
	}
	desc := t.MCP.Description
	if desc == "" {
		desc = t.MCP.Title
	}
	return mms.CustomTool{Name: t.Name, Description: desc, InputSchema: schema}, nil
}

// Run calls the MCP tool with input as its arguments and maps the result
// as [Tool] describes. It returns when the call does or ctx ends; the SDK
// then tells the server the call is cancelled.
func (t *Tool) Run(ctx context.Context, input json.RawMessage) (mms.ContentBlocks, error) {
	if t.Session == nil || t.MCP == nil {
		return nil, fmt.Errorf("mcp: tool %q: no session or MCP tool", t.Name)
	}
	var args any = map[string]any{}
	if len(input) > 0 {
		args = input
	}
	res, err := t.Session.CallTool(ctx, &mcp.CallToolParams{Name: t.MCP.Name, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("mcp: calling tool %s: %w", t.MCP.Name, err)
	}
	if res.NeedsInput() {
		// Only with the SDK's automatic multi round-trip handling turned
		// off: the tool runner cannot answer the server's requests.
		return nil, fmt.Errorf("mcp: calling tool %s: the server asks for input (input_required), which the tool runner cannot give", t.MCP.Name)
	}
	content, err := contentBlocks(res.Content)
	if err != nil {
		return nil, fmt.Errorf("mcp: the result of tool %s: %w", t.MCP.Name, err)
	}
	if len(res.Content) == 0 && res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return nil, fmt.Errorf("mcp: the structured result of tool %s: %w", t.MCP.Name, err)
		}
		content = mms.ContentBlocks{mms.TextBlock{Text: string(b)}}
	}
	max := t.MaxResultBytes
	if max == 0 {
		max = DefaultMaxResultBytes
	}
	if max > 0 {
		content = truncate(content, max)
	}
	if res.IsError {
		return nil, &ToolError{Tool: t.MCP.Name, Content: content}
	}
	return content, nil
}

// ToolError is the error of a call the MCP server answered with a result
// marked as an error (isError): the tool ran and failed, as opposed to a
// protocol error. The tool runner sends its text as an is_error result.
type ToolError struct {
	// Tool is the MCP tool's name.
	Tool string
	// Content is the error result's content, converted as a successful
	// result's would be.
	Content mms.ContentBlocks
}

// Error is the result's text, which the model reads: its text blocks and
// plain-text documents one per line, other blocks named by kind.
func (e *ToolError) Error() string {
	if s := text(e.Content); s != "" {
		return s
	}
	return fmt.Sprintf("the MCP tool %s failed without saying why", e.Tool)
}
