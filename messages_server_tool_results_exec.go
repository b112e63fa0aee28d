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

func (EncryptedCodeExecutionResult) validate(string) error { return nil }

// CodeExecutionOutput is a {"type":"code_execution_output"} file written by
// executed code; download it with the Files API.
//
//mms:json type=code_execution_output
type CodeExecutionOutput struct {
	FileID string `json:"file_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CodeExecutionToolResultError is a "code_execution_tool_result_error": the
// code could not run.
type CodeExecutionToolResultError struct {
	// ErrorCode says what went wrong; unknown codes pass through.
	ErrorCode ToolErrorCode `json:"error_code"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (v CodeExecutionToolResultError) validate(path string) error { return toolError(v).validate(path) }

// UnknownCodeExecutionToolResultContent holds code execution content this version cannot name; Raw is written back
// verbatim.
type UnknownCodeExecutionToolResultContent struct {
	Type string
	Raw  json.RawMessage
}

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

func (BashCodeExecutionResult) validate(string) error { return nil }

// BashCodeExecutionOutput is a {"type":"bash_code_execution_output"} file
// written by a bash command; download it with the Files API.
//
//mms:json type=bash_code_execution_output
type BashCodeExecutionOutput struct {
	FileID string `json:"file_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// BashCodeExecutionToolResultError is a
// "bash_code_execution_tool_result_error": the command could not run.
type BashCodeExecutionToolResultError struct {
	// ErrorCode says what went wrong; unknown codes pass through.
	ErrorCode ToolErrorCode `json:"error_code"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (v BashCodeExecutionToolResultError) validate(path string) error {
	return toolError(v).validate(path)
}

// UnknownBashCodeExecutionToolResultContent holds bash code execution content this version cannot name; Raw is written back
// verbatim.
type UnknownBashCodeExecutionToolResultContent struct {
	Type string
	Raw  json.RawMessage
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

func (TextEditorCodeExecutionViewResult) validate(string) error { return nil }

// TextEditorCodeExecutionCreateResult is a
// "text_editor_code_execution_create_result": a file was written.
type TextEditorCodeExecutionCreateResult struct {
	// IsFileUpdate is true when an existing file was overwritten.
	IsFileUpdate bool `json:"is_file_update"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

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

func (AdvisorRedactedResult) validate(string) error { return nil }

// AdvisorToolResultError is an "advisor_tool_result_error": the advisor
// call failed.
type AdvisorToolResultError struct {
	// ErrorCode says what went wrong; unknown codes pass through.
	ErrorCode ToolErrorCode `json:"error_code"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (v AdvisorToolResultError) validate(path string) error { return toolError(v).validate(path) }

// UnknownAdvisorToolResultContent holds advisor content this version cannot name; Raw is written back
// verbatim.
type UnknownAdvisorToolResultContent struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownAdvisorToolResultContent) validate(string) error { return nil }
