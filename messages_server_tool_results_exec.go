package mms

// The result blocks of the code-execution server tools (code execution,
// bash and text-editor code execution), the tool search and the advisor.
// The shared shapes (toolResult, toolError) are in
// messages_server_tool_results.go.

import (
	"encoding/json"
	"fmt"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// ---------------------------------------------------------------------------
// code_execution_tool_result

// CodeExecutionToolResultBlock is a "code_execution_tool_result" block:
// the result of a code_execution server tool call.
type CodeExecutionToolResultBlock struct {
	// ToolUseID is the ID of the server_tool_use block answered
	// (^srvtoolu_[a-zA-Z0-9_]+$).
	ToolUseID string `json:"tool_use_id"`
	// Content is the result or an error.
	Content      CodeExecutionToolResultContent `json:"content"`
	CacheControl *CacheControl                  `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (CodeExecutionToolResultBlock) isContentBlock() {}

// UnmarshalJSON decodes the block, keeping unknown members in Extra.
func (b *CodeExecutionToolResultBlock) UnmarshalJSON(data []byte) error {
	return unmarshalJSON(data, b)
}

// MarshalJSON writes the block with "type":"code_execution_tool_result" and Extra.
func (b CodeExecutionToolResultBlock) MarshalJSON() ([]byte, error) { return marshalJSON(b) }

func (b CodeExecutionToolResultBlock) validate(path string) error {
	return toolResult[CodeExecutionToolResultContent](b).validate(path)
}

// A CodeExecutionToolResultContent is the content of a
// [CodeExecutionToolResultBlock]. Variants: [CodeExecutionResult],
// [EncryptedCodeExecutionResult], [CodeExecutionToolResultError] and
// [UnknownCodeExecutionToolResultContent].
type CodeExecutionToolResultContent interface {
	json.Marshaler
	isCodeExecutionToolResultContent()
	validate(path string) error
}

var codeExecutionToolResultContentUnion = codec.NewUnion[CodeExecutionToolResultContent]("CodeExecutionToolResultContent", UnknownCodeExecutionToolResultContent{}).
	Add("code_execution_result", CodeExecutionResult{}).
	Add("encrypted_code_execution_result", EncryptedCodeExecutionResult{}).
	Add("code_execution_tool_result_error", CodeExecutionToolResultError{})

// CodeExecutionResult is a "code_execution_result": what the code printed
// and the files it wrote.
type CodeExecutionResult struct {
	Stdout     string `json:"stdout"`
	Stderr     string `json:"stderr"`
	ReturnCode int    `json:"return_code"`
	// Content lists the files the code wrote.
	Content []CodeExecutionOutput `json:"content"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (CodeExecutionResult) isCodeExecutionToolResultContent() {}

// UnmarshalJSON decodes the value, keeping unknown members in Extra.
func (v *CodeExecutionResult) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, v) }

// MarshalJSON writes the value with "type":"code_execution_result" and Extra.
func (v CodeExecutionResult) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (CodeExecutionResult) validate(string) error { return nil }

// EncryptedCodeExecutionResult is an "encrypted_code_execution_result": like
// [CodeExecutionResult] with stdout encrypted. Send it back unchanged.
type EncryptedCodeExecutionResult struct {
	EncryptedStdout string `json:"encrypted_stdout"`
	Stderr          string `json:"stderr"`
	ReturnCode      int    `json:"return_code"`
	// Content lists the files the code wrote.
	Content []CodeExecutionOutput `json:"content"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (EncryptedCodeExecutionResult) isCodeExecutionToolResultContent() {}

// UnmarshalJSON decodes the value, keeping unknown members in Extra.
func (v *EncryptedCodeExecutionResult) UnmarshalJSON(data []byte) error {
	return unmarshalJSON(data, v)
}

// MarshalJSON writes the value with "type":"encrypted_code_execution_result" and Extra.
func (v EncryptedCodeExecutionResult) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (EncryptedCodeExecutionResult) validate(string) error { return nil }

// CodeExecutionOutput is a {"type":"code_execution_output"} file written by
// executed code; download it with the Files API.
type CodeExecutionOutput struct {
	FileID string `json:"file_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes the output, keeping unknown members in Extra. Any
// "type" other than "code_execution_output" is an error (the enclosing union
// keeps such content as its Unknown variant).
func (o *CodeExecutionOutput) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, o) }

// MarshalJSON writes the output with "type":"code_execution_output".
func (o CodeExecutionOutput) MarshalJSON() ([]byte, error) { return marshalJSON(o) }

// CodeExecutionToolResultError is a "code_execution_tool_result_error": the
// code could not run.
type CodeExecutionToolResultError struct {
	// ErrorCode says what went wrong; unknown codes pass through.
	ErrorCode ToolErrorCode `json:"error_code"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (CodeExecutionToolResultError) isCodeExecutionToolResultContent() {}

// UnmarshalJSON decodes the value, keeping unknown members in Extra.
func (v *CodeExecutionToolResultError) UnmarshalJSON(data []byte) error {
	return unmarshalJSON(data, v)
}

// MarshalJSON writes the value with "type":"code_execution_tool_result_error" and Extra.
func (v CodeExecutionToolResultError) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (v CodeExecutionToolResultError) validate(path string) error { return toolError(v).validate(path) }

// UnknownCodeExecutionToolResultContent holds code execution content this version cannot name; Raw is written back
// verbatim.
type UnknownCodeExecutionToolResultContent struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownCodeExecutionToolResultContent) isCodeExecutionToolResultContent() {}

// MarshalJSON returns Raw unchanged.
func (v UnknownCodeExecutionToolResultContent) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (UnknownCodeExecutionToolResultContent) validate(string) error { return nil }

// ---------------------------------------------------------------------------
// bash_code_execution_tool_result

// BashCodeExecutionToolResultBlock is a "bash_code_execution_tool_result"
// block: the result of a bash command run by the code-execution tool.
type BashCodeExecutionToolResultBlock struct {
	// ToolUseID is the ID of the server_tool_use block answered
	// (^srvtoolu_[a-zA-Z0-9_]+$).
	ToolUseID string `json:"tool_use_id"`
	// Content is the result or an error.
	Content      BashCodeExecutionToolResultContent `json:"content"`
	CacheControl *CacheControl                      `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (BashCodeExecutionToolResultBlock) isContentBlock() {}

// UnmarshalJSON decodes the block, keeping unknown members in Extra.
func (b *BashCodeExecutionToolResultBlock) UnmarshalJSON(data []byte) error {
	return unmarshalJSON(data, b)
}

// MarshalJSON writes the block with "type":"bash_code_execution_tool_result" and Extra.
func (b BashCodeExecutionToolResultBlock) MarshalJSON() ([]byte, error) { return marshalJSON(b) }

func (b BashCodeExecutionToolResultBlock) validate(path string) error {
	return toolResult[BashCodeExecutionToolResultContent](b).validate(path)
}

// A BashCodeExecutionToolResultContent is the content of a
// [BashCodeExecutionToolResultBlock]. Variants: [BashCodeExecutionResult],
// [BashCodeExecutionToolResultError] and
// [UnknownBashCodeExecutionToolResultContent].
type BashCodeExecutionToolResultContent interface {
	json.Marshaler
	isBashCodeExecutionToolResultContent()
	validate(path string) error
}

var bashCodeExecutionToolResultContentUnion = codec.NewUnion[BashCodeExecutionToolResultContent]("BashCodeExecutionToolResultContent", UnknownBashCodeExecutionToolResultContent{}).
	Add("bash_code_execution_result", BashCodeExecutionResult{}).
	Add("bash_code_execution_tool_result_error", BashCodeExecutionToolResultError{})

// BashCodeExecutionResult is a "bash_code_execution_result": what the
// command printed and the files it wrote.
type BashCodeExecutionResult struct {
	Stdout     string `json:"stdout"`
	Stderr     string `json:"stderr"`
	ReturnCode int    `json:"return_code"`
	// Content lists the files the command wrote.
	Content []BashCodeExecutionOutput `json:"content"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (BashCodeExecutionResult) isBashCodeExecutionToolResultContent() {}

// UnmarshalJSON decodes the value, keeping unknown members in Extra.
func (v *BashCodeExecutionResult) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, v) }

// MarshalJSON writes the value with "type":"bash_code_execution_result" and Extra.
func (v BashCodeExecutionResult) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (BashCodeExecutionResult) validate(string) error { return nil }

// BashCodeExecutionOutput is a {"type":"bash_code_execution_output"} file
// written by a bash command; download it with the Files API.
type BashCodeExecutionOutput struct {
	FileID string `json:"file_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes the output, keeping unknown members in Extra. Any
// "type" other than "bash_code_execution_output" is an error (the enclosing
// union keeps such content as its Unknown variant).
func (o *BashCodeExecutionOutput) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, o) }

// MarshalJSON writes the output with "type":"bash_code_execution_output".
func (o BashCodeExecutionOutput) MarshalJSON() ([]byte, error) { return marshalJSON(o) }

// BashCodeExecutionToolResultError is a
// "bash_code_execution_tool_result_error": the command could not run.
type BashCodeExecutionToolResultError struct {
	// ErrorCode says what went wrong; unknown codes pass through.
	ErrorCode ToolErrorCode `json:"error_code"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (BashCodeExecutionToolResultError) isBashCodeExecutionToolResultContent() {}

// UnmarshalJSON decodes the value, keeping unknown members in Extra.
func (v *BashCodeExecutionToolResultError) UnmarshalJSON(data []byte) error {
	return unmarshalJSON(data, v)
}

// MarshalJSON writes the value with "type":"bash_code_execution_tool_result_error" and Extra.
func (v BashCodeExecutionToolResultError) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (v BashCodeExecutionToolResultError) validate(path string) error {
	return toolError(v).validate(path)
}

// UnknownBashCodeExecutionToolResultContent holds bash code execution content this version cannot name; Raw is written back
// verbatim.
type UnknownBashCodeExecutionToolResultContent struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownBashCodeExecutionToolResultContent) isBashCodeExecutionToolResultContent() {}

// MarshalJSON returns Raw unchanged.
func (v UnknownBashCodeExecutionToolResultContent) MarshalJSON() ([]byte, error) {
	return marshalJSON(v)
}

func (UnknownBashCodeExecutionToolResultContent) validate(string) error { return nil }

// ---------------------------------------------------------------------------
// text_editor_code_execution_tool_result

// TextEditorCodeExecutionToolResultBlock is a
// "text_editor_code_execution_tool_result" block: the result of a file
// operation in the code-execution container.
type TextEditorCodeExecutionToolResultBlock struct {
	// ToolUseID is the ID of the server_tool_use block answered
	// (^srvtoolu_[a-zA-Z0-9_]+$).
	ToolUseID string `json:"tool_use_id"`
	// Content is the result or an error.
	Content      TextEditorCodeExecutionToolResultContent `json:"content"`
	CacheControl *CacheControl                            `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (TextEditorCodeExecutionToolResultBlock) isContentBlock() {}

// UnmarshalJSON decodes the block, keeping unknown members in Extra.
func (b *TextEditorCodeExecutionToolResultBlock) UnmarshalJSON(data []byte) error {
	return unmarshalJSON(data, b)
}

// MarshalJSON writes the block with "type":"text_editor_code_execution_tool_result" and Extra.
func (b TextEditorCodeExecutionToolResultBlock) MarshalJSON() ([]byte, error) { return marshalJSON(b) }

func (b TextEditorCodeExecutionToolResultBlock) validate(path string) error {
	return toolResult[TextEditorCodeExecutionToolResultContent](b).validate(path)
}

// A TextEditorCodeExecutionToolResultContent is the content of a
// [TextEditorCodeExecutionToolResultBlock]. Variants:
// [TextEditorCodeExecutionViewResult], [TextEditorCodeExecutionCreateResult],
// [TextEditorCodeExecutionStrReplaceResult],
// [TextEditorCodeExecutionToolResultError] and
// [UnknownTextEditorCodeExecutionToolResultContent].
type TextEditorCodeExecutionToolResultContent interface {
	json.Marshaler
	isTextEditorCodeExecutionToolResultContent()
	validate(path string) error
}

var textEditorCodeExecutionToolResultContentUnion = codec.NewUnion[TextEditorCodeExecutionToolResultContent]("TextEditorCodeExecutionToolResultContent", UnknownTextEditorCodeExecutionToolResultContent{}).
	Add("text_editor_code_execution_view_result", TextEditorCodeExecutionViewResult{}).
	Add("text_editor_code_execution_create_result", TextEditorCodeExecutionCreateResult{}).
	Add("text_editor_code_execution_str_replace_result", TextEditorCodeExecutionStrReplaceResult{}).
	Add("text_editor_code_execution_tool_result_error", TextEditorCodeExecutionToolResultError{})

// TextEditorFileType is the kind of file a view result shows. Unknown
// values pass through.
type TextEditorFileType string

// File types of a view result.
const (
	TextEditorFileTypeText  TextEditorFileType = "text"
	TextEditorFileTypeImage TextEditorFileType = "image"
	TextEditorFileTypePDF   TextEditorFileType = "pdf"
)

// TextEditorCodeExecutionViewResult is a
// "text_editor_code_execution_view_result": the viewed file's content.
type TextEditorCodeExecutionViewResult struct {
	Content  string             `json:"content"`
	FileType TextEditorFileType `json:"file_type"`
	// NumLines, StartLine and TotalLines are nil when null.
	NumLines   *int `json:"num_lines"`
	StartLine  *int `json:"start_line"`
	TotalLines *int `json:"total_lines"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (TextEditorCodeExecutionViewResult) isTextEditorCodeExecutionToolResultContent() {}

// UnmarshalJSON decodes the value, keeping unknown members in Extra.
func (v *TextEditorCodeExecutionViewResult) UnmarshalJSON(data []byte) error {
	return unmarshalJSON(data, v)
}

// MarshalJSON writes the value with "type":"text_editor_code_execution_view_result" and Extra.
func (v TextEditorCodeExecutionViewResult) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (TextEditorCodeExecutionViewResult) validate(string) error { return nil }

// TextEditorCodeExecutionCreateResult is a
// "text_editor_code_execution_create_result": a file was written.
type TextEditorCodeExecutionCreateResult struct {
	// IsFileUpdate is true when an existing file was overwritten.
	IsFileUpdate bool `json:"is_file_update"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (TextEditorCodeExecutionCreateResult) isTextEditorCodeExecutionToolResultContent() {}

// UnmarshalJSON decodes the value, keeping unknown members in Extra.
func (v *TextEditorCodeExecutionCreateResult) UnmarshalJSON(data []byte) error {
	return unmarshalJSON(data, v)
}

// MarshalJSON writes the value with "type":"text_editor_code_execution_create_result" and Extra.
func (v TextEditorCodeExecutionCreateResult) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (TextEditorCodeExecutionCreateResult) validate(string) error { return nil }

// TextEditorCodeExecutionStrReplaceResult is a
// "text_editor_code_execution_str_replace_result": a replacement was made.
type TextEditorCodeExecutionStrReplaceResult struct {
	// Lines is the changed region (nil: null).
	Lines []string `json:"lines"`
	// NewLines, NewStart, OldLines and OldStart are nil when null.
	NewLines *int `json:"new_lines"`
	NewStart *int `json:"new_start"`
	OldLines *int `json:"old_lines"`
	OldStart *int `json:"old_start"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (TextEditorCodeExecutionStrReplaceResult) isTextEditorCodeExecutionToolResultContent() {}

// UnmarshalJSON decodes the value, keeping unknown members in Extra.
func (v *TextEditorCodeExecutionStrReplaceResult) UnmarshalJSON(data []byte) error {
	return unmarshalJSON(data, v)
}

// MarshalJSON writes the value with "type":"text_editor_code_execution_str_replace_result" and Extra.
func (v TextEditorCodeExecutionStrReplaceResult) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (TextEditorCodeExecutionStrReplaceResult) validate(string) error { return nil }

// TextEditorCodeExecutionToolResultError is a
// "text_editor_code_execution_tool_result_error": the operation failed.
type TextEditorCodeExecutionToolResultError struct {
	// ErrorCode says what went wrong; unknown codes pass through.
	ErrorCode ToolErrorCode `json:"error_code"`
	// ErrorMessage explains the error (nil: null).
	ErrorMessage *string `json:"error_message"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (TextEditorCodeExecutionToolResultError) isTextEditorCodeExecutionToolResultContent() {}

// UnmarshalJSON decodes the value, keeping unknown members in Extra.
func (v *TextEditorCodeExecutionToolResultError) UnmarshalJSON(data []byte) error {
	return unmarshalJSON(data, v)
}

// MarshalJSON writes the value with "type":"text_editor_code_execution_tool_result_error" and Extra.
func (v TextEditorCodeExecutionToolResultError) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (v TextEditorCodeExecutionToolResultError) validate(path string) error {
	if v.ErrorCode == "" {
		return invalid(path+".error_code", "must not be empty")
	}
	return nil
}

// UnknownTextEditorCodeExecutionToolResultContent holds text editor content this version cannot name; Raw is written back
// verbatim.
type UnknownTextEditorCodeExecutionToolResultContent struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownTextEditorCodeExecutionToolResultContent) isTextEditorCodeExecutionToolResultContent() {}

// MarshalJSON returns Raw unchanged.
func (v UnknownTextEditorCodeExecutionToolResultContent) MarshalJSON() ([]byte, error) {
	return marshalJSON(v)
}

func (UnknownTextEditorCodeExecutionToolResultContent) validate(string) error { return nil }

// ---------------------------------------------------------------------------
// tool_search_tool_result

// ToolSearchToolResultBlock is a "tool_search_tool_result" block: the
// deferred tools a tool search found.
type ToolSearchToolResultBlock struct {
	// ToolUseID is the ID of the server_tool_use block answered
	// (^srvtoolu_[a-zA-Z0-9_]+$).
	ToolUseID string `json:"tool_use_id"`
	// Content is the result or an error.
	Content      ToolSearchToolResultContent `json:"content"`
	CacheControl *CacheControl               `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (ToolSearchToolResultBlock) isContentBlock() {}

// UnmarshalJSON decodes the block, keeping unknown members in Extra.
func (b *ToolSearchToolResultBlock) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, b) }

// MarshalJSON writes the block with "type":"tool_search_tool_result" and Extra.
func (b ToolSearchToolResultBlock) MarshalJSON() ([]byte, error) { return marshalJSON(b) }

func (b ToolSearchToolResultBlock) validate(path string) error {
	return toolResult[ToolSearchToolResultContent](b).validate(path)
}

// A ToolSearchToolResultContent is the content of a
// [ToolSearchToolResultBlock]. Variants: [ToolSearchToolSearchResult],
// [ToolSearchToolResultError] and [UnknownToolSearchToolResultContent].
type ToolSearchToolResultContent interface {
	json.Marshaler
	isToolSearchToolResultContent()
	validate(path string) error
}

var toolSearchToolResultContentUnion = codec.NewUnion[ToolSearchToolResultContent]("ToolSearchToolResultContent", UnknownToolSearchToolResultContent{}).
	Add("tool_search_tool_search_result", ToolSearchToolSearchResult{}).
	Add("tool_search_tool_result_error", ToolSearchToolResultError{})

// ToolSearchToolSearchResult is a "tool_search_tool_search_result": the
// tools found.
type ToolSearchToolSearchResult struct {
	ToolReferences []ToolReferenceBlock `json:"tool_references"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (ToolSearchToolSearchResult) isToolSearchToolResultContent() {}

// UnmarshalJSON decodes the value, keeping unknown members in Extra.
func (v *ToolSearchToolSearchResult) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, v) }

// MarshalJSON writes the value with "type":"tool_search_tool_search_result" and Extra.
func (v ToolSearchToolSearchResult) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (v ToolSearchToolSearchResult) validate(path string) error {
	for i, r := range v.ToolReferences {
		if err := r.validate(fmt.Sprintf("%s.tool_references[%d]", path, i)); err != nil {
			return err
		}
	}
	return nil
}

// ToolSearchToolResultError is a "tool_search_tool_result_error": the
// search failed.
type ToolSearchToolResultError struct {
	// ErrorCode says what went wrong; unknown codes pass through.
	ErrorCode ToolErrorCode `json:"error_code"`
	// ErrorMessage explains the error (nil: absent or null). Response only:
	// request encoding drops it.
	ErrorMessage *string `json:"error_message,omitzero" mms:"response"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (ToolSearchToolResultError) isToolSearchToolResultContent() {}

// UnmarshalJSON decodes the value, keeping unknown members in Extra.
func (v *ToolSearchToolResultError) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, v) }

// MarshalJSON writes the value with "type":"tool_search_tool_result_error" and Extra.
func (v ToolSearchToolResultError) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (v ToolSearchToolResultError) validate(path string) error {
	if v.ErrorCode == "" {
		return invalid(path+".error_code", "must not be empty")
	}
	return nil
}

// UnknownToolSearchToolResultContent holds tool search content this version cannot name; Raw is written back
// verbatim.
type UnknownToolSearchToolResultContent struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownToolSearchToolResultContent) isToolSearchToolResultContent() {}

// MarshalJSON returns Raw unchanged.
func (v UnknownToolSearchToolResultContent) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (UnknownToolSearchToolResultContent) validate(string) error { return nil }

// ---------------------------------------------------------------------------
// advisor_tool_result (beta)

// AdvisorToolResultBlock is an "advisor_tool_result" block: the advisor
// model's answer (beta).
type AdvisorToolResultBlock struct {
	// ToolUseID is the ID of the server_tool_use block answered
	// (^srvtoolu_[a-zA-Z0-9_]+$).
	ToolUseID string `json:"tool_use_id"`
	// Content is the result or an error.
	Content      AdvisorToolResultContent `json:"content"`
	CacheControl *CacheControl            `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (AdvisorToolResultBlock) isContentBlock() {}

// UnmarshalJSON decodes the block, keeping unknown members in Extra.
func (b *AdvisorToolResultBlock) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, b) }

// MarshalJSON writes the block with "type":"advisor_tool_result" and Extra.
func (b AdvisorToolResultBlock) MarshalJSON() ([]byte, error) { return marshalJSON(b) }

func (b AdvisorToolResultBlock) validate(path string) error {
	return toolResult[AdvisorToolResultContent](b).validate(path)
}

// An AdvisorToolResultContent is the content of an [AdvisorToolResultBlock].
// Variants: [AdvisorResult], [AdvisorRedactedResult], [AdvisorToolResultError]
// and [UnknownAdvisorToolResultContent].
type AdvisorToolResultContent interface {
	json.Marshaler
	isAdvisorToolResultContent()
	validate(path string) error
}

var advisorToolResultContentUnion = codec.NewUnion[AdvisorToolResultContent]("AdvisorToolResultContent", UnknownAdvisorToolResultContent{}).
	Add("advisor_result", AdvisorResult{}).
	Add("advisor_redacted_result", AdvisorRedactedResult{}).
	Add("advisor_tool_result_error", AdvisorToolResultError{})

// AdvisorResult is an "advisor_result": the advice as text.
type AdvisorResult struct {
	Text string `json:"text"`
	// StopReason is why the advisor stopped (empty: absent or null).
	// Response only: request encoding drops it.
	StopReason StopReason `json:"stop_reason,omitzero" mms:"response"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (AdvisorResult) isAdvisorToolResultContent() {}

// UnmarshalJSON decodes the value, keeping unknown members in Extra.
func (v *AdvisorResult) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, v) }

// MarshalJSON writes the value with "type":"advisor_result" and Extra.
func (v AdvisorResult) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (AdvisorResult) validate(string) error { return nil }

// AdvisorRedactedResult is an "advisor_redacted_result": the advice,
// encrypted. Send it back unchanged.
type AdvisorRedactedResult struct {
	EncryptedContent string `json:"encrypted_content"`
	// StopReason is why the advisor stopped (empty: absent or null).
	// Response only: request encoding drops it.
	StopReason StopReason `json:"stop_reason,omitzero" mms:"response"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (AdvisorRedactedResult) isAdvisorToolResultContent() {}

// UnmarshalJSON decodes the value, keeping unknown members in Extra.
func (v *AdvisorRedactedResult) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, v) }

// MarshalJSON writes the value with "type":"advisor_redacted_result" and Extra.
func (v AdvisorRedactedResult) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (AdvisorRedactedResult) validate(string) error { return nil }

// AdvisorToolResultError is an "advisor_tool_result_error": the advisor
// call failed.
type AdvisorToolResultError struct {
	// ErrorCode says what went wrong; unknown codes pass through.
	ErrorCode ToolErrorCode `json:"error_code"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (AdvisorToolResultError) isAdvisorToolResultContent() {}

// UnmarshalJSON decodes the value, keeping unknown members in Extra.
func (v *AdvisorToolResultError) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, v) }

// MarshalJSON writes the value with "type":"advisor_tool_result_error" and Extra.
func (v AdvisorToolResultError) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (v AdvisorToolResultError) validate(path string) error { return toolError(v).validate(path) }

// UnknownAdvisorToolResultContent holds advisor content this version cannot name; Raw is written back
// verbatim.
type UnknownAdvisorToolResultContent struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownAdvisorToolResultContent) isAdvisorToolResultContent() {}

// MarshalJSON returns Raw unchanged.
func (v UnknownAdvisorToolResultContent) MarshalJSON() ([]byte, error) { return marshalJSON(v) }

func (UnknownAdvisorToolResultContent) validate(string) error { return nil }
