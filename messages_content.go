package mms

// This file holds the ContentBlock union: the blocks of MessageParam.Content
// and Message.Content, which are one Go type (ContentBlocks) so that a reply
// goes back into the next request unchanged. The tool-result and server
// tool-result blocks live in messages_tool_result.go and
// messages_server_tool_results*.go.
//
// Two encoding modes share one codec:
//   - response mode is plain json.Marshal: every modelled field plus Extra, so
//     a decoded reply re-encodes to the JSON it came from;
//   - request mode is what MessageParam (and the other request types) write:
//     each block's requestForm() copy drops Extra and the response-only
//     fields, recursively.
//
// Null memory: a field modelled as optional (omitzero) cannot tell "absent"
// from an explicit null. When the wire carried a null for such a field,
// decoding records it in Extra as null, so the value re-encodes exactly; a
// field that is set later wins over that recorded null. Request mode keeps
// those nulls for modelled request fields (they are accepted there) and drops
// the rest of Extra.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"unicode/utf8"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// A ContentBlock is one block of message content, in a request
// ([MessageParam].Content) or in a response ([Message].Content). Variants:
// [TextBlock], [ImageBlock], [DocumentBlock], [SearchResultBlock],
// [ThinkingBlock], [RedactedThinkingBlock], [ToolUseBlock],
// [ServerToolUseBlock], [ToolResultBlock], [ToolReferenceBlock],
// [BrowserStateBlock], [WebSearchToolResultBlock], [WebFetchToolResultBlock],
// [CodeExecutionToolResultBlock], [BashCodeExecutionToolResultBlock],
// [TextEditorCodeExecutionToolResultBlock], [ToolSearchToolResultBlock],
// [AdvisorToolResultBlock], [ContainerUploadBlock], [MCPToolUseBlock],
// [MCPToolResultBlock], [CompactionBlock], [FallbackBlock],
// [ToolAdditionBlock], [ToolRemovalBlock], [MCPToolListingBlock] and
// [UnknownContentBlock].
//
// ContentBlocks also types the nested block lists (tool_result, mcp_tool_result
// and search_result content, a content document source); validation limits
// each position to the block types the service accepts there.
type ContentBlock interface {
	json.Marshaler
	isContentBlock()
	validate(path string) error
}

// ContentBlocks is a list of content blocks. It owns the union decoding, so
// structs holding it need no custom code.
//
//mms:json
type ContentBlocks []ContentBlock

// validate checks every block; allowed, when non-nil, limits the block types.
func (c ContentBlocks) validate(path string, allowed func(ContentBlock) bool, where string) error {
	for i, b := range c {
		p := fmt.Sprintf("%s[%d]", path, i)
		if b == nil {
			return invalid(p, "must not be nil")
		}
		if allowed != nil && !allowed(b) {
			return invalid(p+".type", "%s is not allowed in %s", blockTypeName(b), where)
		}
		if err := b.validate(p); err != nil {
			return err
		}
	}
	return nil
}

var contentBlockUnion = codec.NewUnion[ContentBlock]("ContentBlock", UnknownContentBlock{}).
	Add("text", TextBlock{}).
	Add("image", ImageBlock{}).
	Add("document", DocumentBlock{}).
	Add("search_result", SearchResultBlock{}).
	Add("thinking", ThinkingBlock{}).
	Add("redacted_thinking", RedactedThinkingBlock{}).
	Add("tool_use", ToolUseBlock{}).
	Add("server_tool_use", ServerToolUseBlock{}).
	AddSpec("tool_result", ToolResultBlock{}, shorthandContent).
	Add("tool_reference", ToolReferenceBlock{}).
	Add("browser_state", BrowserStateBlock{}).
	Add("web_search_tool_result", WebSearchToolResultBlock{}).
	Add("web_fetch_tool_result", WebFetchToolResultBlock{}).
	Add("code_execution_tool_result", CodeExecutionToolResultBlock{}).
	Add("bash_code_execution_tool_result", BashCodeExecutionToolResultBlock{}).
	Add("text_editor_code_execution_tool_result", TextEditorCodeExecutionToolResultBlock{}).
	Add("tool_search_tool_result", ToolSearchToolResultBlock{}).
	Add("advisor_tool_result", AdvisorToolResultBlock{}).
	Add("container_upload", ContainerUploadBlock{}).
	Add("mcp_tool_use", MCPToolUseBlock{}).
	AddSpec("mcp_tool_result", MCPToolResultBlock{}, shorthandContent).
	AddSpec("compaction", CompactionBlock{}, compactionSpec).
	Add("fallback", FallbackBlock{}).
	Add("tool_addition", ToolAdditionBlock{}).
	Add("tool_removal", ToolRemovalBlock{}).
	Add("mcp_tool_listing", MCPToolListingBlock{})

// UnknownContentBlock holds a block type this version cannot name. Raw is
// written back verbatim in both encoding modes.
type UnknownContentBlock struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownContentBlock) validate(string) error { return nil }

// ---------------------------------------------------------------------------
// text

// TextBlock is a "text" block: plain text, with citations in a response.
type TextBlock struct {
	// Text must not be empty in a request.
	Text string `json:"text"`
	// Citations are the sources the model cited for this text. A response
	// may carry them; a request may echo them (without file_id).
	Citations    Citations     `json:"citations,omitzero"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (b TextBlock) validate(path string) error {
	if b.Text == "" {
		return invalid(path+".text", "must not be empty")
	}
	if err := b.Citations.validate(path + ".citations"); err != nil {
		return err
	}
	return b.CacheControl.validate(path + ".cache_control")
}

// ---------------------------------------------------------------------------
// image

// ImageBlock is an "image" block. Build one with [ImageFromBytes],
// [ImageFromBase64], [ImageFromURL] or [ImageFromFile].
type ImageBlock struct {
	// Source is required. (It is encoded last, spliced in without
	// re-encoding, so a large base64 payload is copied as few times as
	// possible.)
	Source ImageSource `json:"source,omitzero"`
	// Transformations says what to do with an oversized image.
	Transformations *ImageTransformations `json:"transformations,omitzero"`
	CacheControl    *CacheControl         `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (b ImageBlock) validate(path string) error {
	if b.Source == nil {
		return invalid(path+".source", "is required")
	}
	if err := b.Source.validate(path + ".source"); err != nil {
		return err
	}
	if t := b.Transformations; t != nil {
		switch t.OversizedImage {
		case "", OversizedImageDownsize, OversizedImageError:
		default:
			return invalid(path+".transformations.oversized_image", "must be %q or %q, got %q", OversizedImageDownsize, OversizedImageError, t.OversizedImage)
		}
	}
	return b.CacheControl.validate(path + ".cache_control")
}

// ImageTransformations controls server-side image handling. An empty value
// is the same as none.
//
//mms:json
type ImageTransformations struct {
	// OversizedImage is OversizedImageDownsize (the default) or
	// OversizedImageError.
	OversizedImage OversizedImage `json:"oversized_image,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// OversizedImage says what happens to an image larger than the model takes.
type OversizedImage string

// Oversized-image policies.
const (
	OversizedImageDownsize OversizedImage = "downsize"
	OversizedImageError    OversizedImage = "error"
)

// ---------------------------------------------------------------------------
// document

// DocumentBlock is a "document" block: a PDF, plain text or custom content
// the model can read and cite. Build one with [PDFFromBytes], [PDFFromURL],
// [DocumentFromFile] or [TextDocument]. A web_fetch result carries one too.
type DocumentBlock struct {
	// Source is required. (It is encoded last, spliced in without
	// re-encoding, so a large base64 payload is copied as few times as
	// possible.)
	Source DocumentSource `json:"source,omitzero"`
	// Citations turns citations on for this document.
	Citations *CitationsConfig `json:"citations,omitzero"`
	// Context is extra text about the document (not cited); at least one
	// character when set.
	Context string `json:"context,omitzero"`
	// Title is the document's title, 1–500 characters when set. A response
	// may carry an explicit null, kept by the null memory (see Extra).
	Title        *string       `json:"title,omitzero"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (b DocumentBlock) validate(path string) error {
	if b.Source == nil {
		return invalid(path+".source", "is required")
	}
	if err := b.Source.validate(path + ".source"); err != nil {
		return err
	}
	if b.Title != nil {
		if n := utf8.RuneCountInString(*b.Title); n < 1 || n > 500 {
			return invalid(path+".title", "must be 1 to 500 characters, got %d", n)
		}
	}
	if b.Context == "" && sentEmpty(b.Extra, "context") {
		return invalid(path+".context", "must be at least 1 character (leave it unset instead)")
	}
	return b.CacheControl.validate(path + ".cache_control")
}

// CitationsConfig is the {"enabled": bool} switch of a document or search
// result (and of the web_fetch tool).
//
//mms:json
type CitationsConfig struct {
	// Enabled turns citations on. Citations are off when it is nil or false.
	Enabled *bool `json:"enabled,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ---------------------------------------------------------------------------
// search_result

// SearchResultBlock is a "search_result" block: a result of the caller's own
// search that the model can cite.
type SearchResultBlock struct {
	// Content holds the result's text blocks (TextBlock only).
	Content ContentBlocks `json:"content"`
	// Source identifies the result (a URL or any id); required.
	Source string `json:"source"`
	// Title is the result's title.
	Title string `json:"title"`
	// Citations turns citations on for this result.
	Citations    *CitationsConfig `json:"citations,omitzero"`
	CacheControl *CacheControl    `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (b SearchResultBlock) validate(path string) error {
	if b.Content == nil {
		return invalid(path+".content", "is required")
	}
	if err := b.Content.validate(path+".content", onlyText, "search_result content"); err != nil {
		return err
	}
	if b.Source == "" {
		return invalid(path+".source", "must not be empty")
	}
	return b.CacheControl.validate(path + ".cache_control")
}

// ---------------------------------------------------------------------------
// thinking

// ThinkingBlock is a "thinking" block. Send it back unchanged, in its
// original position: the signature covers the text.
type ThinkingBlock struct {
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (b ThinkingBlock) validate(path string) error {
	if b.Signature == "" {
		return invalid(path+".signature", "must not be empty")
	}
	return nil
}

// RedactedThinkingBlock is a "redacted_thinking" block: encrypted thinking.
// Send it back unchanged.
type RedactedThinkingBlock struct {
	Data string `json:"data"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (b RedactedThinkingBlock) validate(path string) error {
	if b.Data == "" {
		return invalid(path+".data", "must not be empty")
	}
	return nil
}

// ---------------------------------------------------------------------------
// tool_use and server_tool_use

// ToolUseBlock is a "tool_use" block: the model calls a client tool. Answer
// it with a [ToolResultBlock] carrying the same ID.
type ToolUseBlock struct {
	// ID matches ^[a-zA-Z0-9_-]+$.
	ID string `json:"id"`
	// Name is the tool's name, 1–200 characters.
	Name string `json:"name"`
	// Input is the tool input, a JSON object kept byte for byte (key order
	// included). Use [ToolUseBlock.UnmarshalInput] to decode it.
	Input json.RawMessage `json:"input"`
	// Caller says who invoked the tool (nil: not stated).
	Caller Caller `json:"caller,omitzero"`
	// ToolsetName names the toolset for a toolset member's call.
	ToolsetName  string        `json:"toolset_name,omitzero"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnmarshalInput decodes Input into v.
func (b ToolUseBlock) UnmarshalInput(v any) error { return json.Unmarshal(b.Input, v) }

func (b ToolUseBlock) validate(path string) error {
	if err := checkToolID(path+".id", b.ID); err != nil {
		return err
	}
	if n := utf8.RuneCountInString(b.Name); n < 1 || n > 200 {
		return invalid(path+".name", "must be 1 to 200 characters, got %d", n)
	}
	if !codec.IsObject(b.Input) {
		return invalid(path+".input", "must be a JSON object")
	}
	if b.Caller != nil {
		if err := b.Caller.validate(path + ".caller"); err != nil {
			return err
		}
	}
	if b.ToolsetName != "" || sentEmpty(b.Extra, "toolset_name") {
		if n := len(b.ToolsetName); n > 64 || !isIDString(b.ToolsetName) {
			return invalid(path+".toolset_name", "must be 1 to 64 characters matching ^[a-zA-Z0-9_-]+$, got %q", b.ToolsetName)
		}
	}
	return b.CacheControl.validate(path + ".cache_control")
}

// ServerToolName names a server tool in a server_tool_use block. Unknown
// values pass through.
type ServerToolName string

// Server tool names.
const (
	ServerToolNameWebSearch               ServerToolName = "web_search"
	ServerToolNameWebFetch                ServerToolName = "web_fetch"
	ServerToolNameCodeExecution           ServerToolName = "code_execution"
	ServerToolNameBashCodeExecution       ServerToolName = "bash_code_execution"
	ServerToolNameTextEditorCodeExecution ServerToolName = "text_editor_code_execution"
	ServerToolNameToolSearchToolRegex     ServerToolName = "tool_search_tool_regex"
	ServerToolNameToolSearchToolBM25      ServerToolName = "tool_search_tool_bm25"
	ServerToolNameAdvisor                 ServerToolName = "advisor"
)

// ServerToolUseBlock is a "server_tool_use" block: the model called a tool
// the service runs itself; its result follows as a *_tool_result block.
type ServerToolUseBlock struct {
	// ID matches ^srvtoolu_[a-zA-Z0-9_]+$.
	ID   string         `json:"id"`
	Name ServerToolName `json:"name"`
	// Input is the tool input, a JSON object kept byte for byte.
	Input json.RawMessage `json:"input"`
	// Caller says who invoked the tool (nil: not stated).
	Caller       Caller        `json:"caller,omitzero"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (b ServerToolUseBlock) validate(path string) error {
	if err := checkServerToolID(path+".id", b.ID); err != nil {
		return err
	}
	if b.Name == "" {
		return invalid(path+".name", "must not be empty")
	}
	if !codec.IsObject(b.Input) {
		return invalid(path+".input", "must be a JSON object")
	}
	if b.Caller != nil {
		if err := b.Caller.validate(path + ".caller"); err != nil {
			return err
		}
	}
	return b.CacheControl.validate(path + ".cache_control")
}

// ---------------------------------------------------------------------------
// tool_reference

// ToolReferenceBlock is a "tool_reference" block: it names a deferred tool
// (tool search). It appears in tool_result content and in tool search
// results.
type ToolReferenceBlock struct {
	// ToolName matches ^[a-zA-Z0-9_-]{1,256}$.
	ToolName     string        `json:"tool_name"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (b ToolReferenceBlock) validate(path string) error {
	if n := len(b.ToolName); n < 1 || n > 256 || !isIDString(b.ToolName) {
		return invalid(path+".tool_name", "must match ^[a-zA-Z0-9_-]{1,256}$, got %q", b.ToolName)
	}
	return b.CacheControl.validate(path + ".cache_control")
}

// ---------------------------------------------------------------------------
// container_upload

// ContainerUploadBlock is a "container_upload" block: it makes an uploaded
// file available in the code-execution container.
type ContainerUploadBlock struct {
	FileID       string        `json:"file_id"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (b ContainerUploadBlock) validate(path string) error {
	if b.FileID == "" {
		return invalid(path+".file_id", "must not be empty")
	}
	return b.CacheControl.validate(path + ".cache_control")
}

// ---------------------------------------------------------------------------
// mcp_tool_use and mcp_tool_result (beta: MCP client)

// MCPToolUseBlock is an "mcp_tool_use" block: the model called a tool of a
// remote MCP server (beta).
type MCPToolUseBlock struct {
	// ID matches ^[a-zA-Z0-9_-]+$.
	ID         string `json:"id"`
	Name       string `json:"name"`
	ServerName string `json:"server_name"`
	// Input is the tool input, a JSON object kept byte for byte.
	Input        json.RawMessage `json:"input"`
	CacheControl *CacheControl   `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (b MCPToolUseBlock) validate(path string) error {
	if err := checkToolID(path+".id", b.ID); err != nil {
		return err
	}
	switch {
	case b.Name == "":
		return invalid(path+".name", "must not be empty")
	case b.ServerName == "":
		return invalid(path+".server_name", "must not be empty")
	case !codec.IsObject(b.Input):
		return invalid(path+".input", "must be a JSON object")
	}
	return b.CacheControl.validate(path + ".cache_control")
}

// MCPToolResultBlock is an "mcp_tool_result" block: the result of an
// mcp_tool_use (beta).
type MCPToolResultBlock struct {
	// ToolUseID is the ID of the mcp_tool_use block answered
	// (^[a-zA-Z0-9_-]+$).
	ToolUseID string `json:"tool_use_id"`
	// Content holds text blocks (TextBlock only).
	Content ContentBlocks `json:"content,omitzero"`
	// StringContent selects the wire's string shorthand ("content":"…") for
	// Content when it is a single plain TextBlock; decoding sets it when the
	// wire used the string form. Otherwise the array form is written.
	StringContent bool `json:"-"`
	// IsError marks a failed call.
	IsError      *bool         `json:"is_error,omitzero"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (b MCPToolResultBlock) validate(path string) error {
	if err := checkToolID(path+".tool_use_id", b.ToolUseID); err != nil {
		return err
	}
	// Content the string shorthand cannot carry goes out as an array,
	// StringContent or not, so it is checked as one.
	if _, ok := stringForm(b.Content, b.StringContent); !ok {
		if err := b.Content.validate(path+".content", onlyText, "mcp_tool_result content"); err != nil {
			return err
		}
	}
	return b.CacheControl.validate(path + ".cache_control")
}

// ---------------------------------------------------------------------------
// compaction (beta)

// CompactionBlock is a "compaction" block: a summary of earlier context
// (beta). Send it back as received: the service checks Signature against
// Content and ToolChanges. A block with a summary may only be the first
// block of a conversation (see [FromLatestCompaction]).
type CompactionBlock struct {
	// Content is the summary (nil: absent or null; null in a reply means
	// the summary failed, and the block is then a no-op). The request form
	// always carries the member, as null when nil: the service requires it.
	Content *string `json:"content,omitzero"`
	// EncryptedContent is the encrypted form (nil: absent or null).
	EncryptedContent *string `json:"encrypted_content,omitzero"`
	// Signature signs the summary (beta compact-2026-09-04; nil: absent or
	// null). Send it back verbatim.
	Signature *string `json:"signature,omitzero"`
	// ToolChanges are the tool_addition and tool_removal blocks of the
	// summarized range, which turn the request's tools into the tool set at
	// its end (beta compact-2026-09-04). nil: absent or null (not
	// computed); empty and not nil: no change. Both forms round-trip.
	ToolChanges  ContentBlocks `json:"tool_changes,omitzero"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// compactionSpec writes "content" in every request form, as null when
// Content is nil: the service requires the member.
var compactionSpec = codec.Spec{Fields: map[string]codec.FieldCodec{"content": {
	Encode: func(e *codec.Encoder, v reflect.Value) error { return e.Value(v.FieldByName("Content")) },
	Omit: func(e *codec.Encoder, v reflect.Value) bool {
		return !e.Request() && v.FieldByName("Content").IsNil()
	},
}}}

func (b CompactionBlock) validate(path string) error {
	if b.Signature != nil && *b.Signature == "" {
		return invalid(path+".signature", "must not be empty when set (send the signature received, or none)")
	}
	if err := b.ToolChanges.validate(path+".tool_changes", isToolChangeBlock, "compaction tool_changes (only tool_addition and tool_removal)"); err != nil {
		return err
	}
	return b.CacheControl.validate(path + ".cache_control")
}

// ---------------------------------------------------------------------------
// fallback (beta)

// FallbackBlock is a "fallback" block: from here on a fallback model served
// the turn (beta). Send it back as received.
type FallbackBlock struct {
	From FallbackModel `json:"from"`
	To   FallbackModel `json:"to"`
	// Trigger says why the fallback happened.
	Trigger *FallbackTrigger `json:"trigger,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (b FallbackBlock) validate(path string) error {
	if b.From.Model == "" {
		return invalid(path+".from.model", "must not be empty")
	}
	if b.To.Model == "" {
		return invalid(path+".to.model", "must not be empty")
	}
	return nil
}

// FallbackModel is the {"model": …} end of a fallback.
//
//mms:json
type FallbackModel struct {
	Model string `json:"model"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// FallbackTrigger says why a fallback happened: Type "refusal" with the
// refusal's category (empty when null).
//
//mms:json
type FallbackTrigger struct {
	Type     string          `json:"type"`
	Category RefusalCategory `json:"category"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ---------------------------------------------------------------------------
// tool_addition and tool_removal (beta: mid-conversation tool changes)

// ToolAdditionBlock is a "tool_addition" block: it offers a declared tool,
// or one defined inline ([ToolDefinitionRef]), from this point of the
// conversation on (beta).
type ToolAdditionBlock struct {
	Tool         ToolChangeRef `json:"tool"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (b ToolAdditionBlock) validate(path string) error { return toolChange(b).validate(path) }

// ToolRemovalBlock is a "tool_removal" block: it withdraws a declared tool
// from this point of the conversation on (beta). Its tool is a reference,
// never a [ToolDefinitionRef] (validate is in messages_system.go).
type ToolRemovalBlock struct {
	Tool         ToolChangeRef `json:"tool"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// toolChange is the shape of the tool_addition and tool_removal blocks:
// each converts itself to it for validation.
type toolChange struct {
	Tool         ToolChangeRef `json:"tool"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (c toolChange) validate(path string) error {
	if c.Tool == nil {
		return invalid(path+".tool", "is required")
	}
	if err := c.Tool.validate(path + ".tool"); err != nil {
		return err
	}
	return c.CacheControl.validate(path + ".cache_control")
}

// A ToolChangeRef names the tool a tool_addition or tool_removal block is
// about. Variants: [ToolRef], [MCPToolRef], [MCPToolsetRef],
// [ToolDefinitionRef] (beta, tool_addition only) and [UnknownToolChangeRef].
type ToolChangeRef interface {
	json.Marshaler
	isToolChangeRef()
	validate(path string) error
}

var toolChangeRefUnion = codec.NewUnion[ToolChangeRef]("ToolChangeRef", UnknownToolChangeRef{}).
	Add("tool_reference", ToolRef{}).
	Add("mcp_tool_reference", MCPToolRef{}).
	Add("mcp_toolset_reference", MCPToolsetRef{}).
	Add("tool_definition", ToolDefinitionRef{})

// ToolRef is a {"type":"tool_reference","name":…} reference to a declared
// tool.
type ToolRef struct {
	Name string `json:"name"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (r ToolRef) validate(path string) error {
	if r.Name == "" {
		return invalid(path+".name", "must not be empty")
	}
	return nil
}

// MCPToolRef is an "mcp_tool_reference" to one tool of an MCP server.
type MCPToolRef struct {
	ServerName string `json:"server_name"`
	Name       string `json:"name"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (r MCPToolRef) validate(path string) error {
	if r.ServerName == "" {
		return invalid(path+".server_name", "must not be empty")
	}
	if r.Name == "" {
		return invalid(path+".name", "must not be empty")
	}
	return nil
}

// MCPToolsetRef is an "mcp_toolset_reference" to every tool of an MCP
// server.
type MCPToolsetRef struct {
	ServerName string `json:"server_name"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (r MCPToolsetRef) validate(path string) error {
	if r.ServerName == "" {
		return invalid(path+".server_name", "must not be empty")
	}
	return nil
}

// UnknownToolChangeRef holds a reference type this version cannot name; Raw
// is written back verbatim.
type UnknownToolChangeRef struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownToolChangeRef) validate(string) error { return nil }

// ---------------------------------------------------------------------------
// string-or-array content

// contentShorthand is the codec of a "content" member that is either a
// string (the shorthand for one plain text block) or an array of blocks:
// the struct's StringContent field remembers which, so a decoded value
// re-encodes in the form it came in.
var contentShorthand = codec.FieldCodec{
	Encode: func(e *codec.Encoder, parent reflect.Value) error {
		content := parent.FieldByName("Content")
		if content.IsNil() && isSystemMessage(parent) { // only on the nil path: no cost otherwise
			e.Raw([]byte("[]"))
			return nil
		}
		if !parent.FieldByName("StringContent").Bool() { // before boxing Content, which allocates
			return e.Value(content)
		}
		if s, ok := stringForm(content.Interface().(ContentBlocks), true); ok {
			e.String(s)
			return nil
		}
		return e.Value(content)
	},
	Decode: func(value []byte, parent reflect.Value) error {
		content, isString := parent.FieldByName("Content"), parent.FieldByName("StringContent")
		if len(value) > 0 && value[0] == '"' {
			var s string
			if err := json.Unmarshal(value, &s); err != nil {
				return err
			}
			content.Set(reflect.ValueOf(ContentBlocks{TextBlock{Text: s}}))
			isString.SetBool(true)
			return nil
		}
		isString.SetBool(false)
		return codec.UnmarshalOwned(value, content.Addr().Interface())
	},
}

// shorthandContent is the Spec of the types whose "content" member has the
// string shorthand.
var shorthandContent = codec.Spec{Fields: map[string]codec.FieldCodec{"content": contentShorthand}}

// stringForm reports whether content encodes in the string shorthand: the
// caller asked for it and the content is exactly one plain TextBlock.
func stringForm(c ContentBlocks, isString bool) (string, bool) {
	if !isString || len(c) != 1 {
		return "", false
	}
	t, ok := c[0].(TextBlock)
	if !ok || t.Citations != nil || t.CacheControl != nil || len(t.Extra) != 0 {
		return "", false
	}
	return t.Text, true
}

func onlyText(b ContentBlock) bool {
	_, ok := b.(TextBlock)
	return ok || isUnknownBlock(b)
}

func isUnknownBlock(b ContentBlock) bool {
	_, ok := b.(UnknownContentBlock)
	return ok
}

// blockTypeName returns the wire type of a block, for error messages.
func blockTypeName(b ContentBlock) string {
	if u, ok := b.(UnknownContentBlock); ok {
		return fmt.Sprintf("block type %q", u.Type)
	}
	data, err := b.MarshalJSON()
	if err != nil {
		return fmt.Sprintf("%T", b)
	}
	typ, err := codec.PeekType(data)
	if err != nil {
		return fmt.Sprintf("%T", b)
	}
	return fmt.Sprintf("block type %q", typ)
}
