package mms

// This file holds the shapes the server tool result blocks share, and the
// web search and web fetch result blocks with the unions of their content;
// the code-execution, tool search and advisor results are in
// messages_server_tool_results_exec.go.

import (
	"encoding/json"
	"fmt"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// ToolErrorCode is the error_code of a server tool's error result. Unknown
// codes pass through.
type ToolErrorCode string

// Error codes of the server tools (each tool uses a subset).
const (
	ToolErrorCodeInvalidToolInput       ToolErrorCode = "invalid_tool_input"
	ToolErrorCodeUnavailable            ToolErrorCode = "unavailable"
	ToolErrorCodeMaxUsesExceeded        ToolErrorCode = "max_uses_exceeded"
	ToolErrorCodeTooManyRequests        ToolErrorCode = "too_many_requests"
	ToolErrorCodeQueryTooLong           ToolErrorCode = "query_too_long"
	ToolErrorCodeRequestTooLarge        ToolErrorCode = "request_too_large"
	ToolErrorCodeURLTooLong             ToolErrorCode = "url_too_long"
	ToolErrorCodeURLNotAllowed          ToolErrorCode = "url_not_allowed"
	ToolErrorCodeURLNotInPriorContext   ToolErrorCode = "url_not_in_prior_context"
	ToolErrorCodeURLNotAccessible       ToolErrorCode = "url_not_accessible"
	ToolErrorCodeUnsupportedContentType ToolErrorCode = "unsupported_content_type"
	ToolErrorCodeContentTooLarge        ToolErrorCode = "content_too_large"
	ToolErrorCodeExecutionTimeExceeded  ToolErrorCode = "execution_time_exceeded"
	ToolErrorCodeOutputFileTooLarge     ToolErrorCode = "output_file_too_large"
	ToolErrorCodeFileNotFound           ToolErrorCode = "file_not_found"
	ToolErrorCodePromptTooLong          ToolErrorCode = "prompt_too_long"
	ToolErrorCodeOverloaded             ToolErrorCode = "overloaded"
	ToolErrorCodeModelNotFound          ToolErrorCode = "model_not_found"
)

// toolResultContent is what the content union of a server tool result
// block provides.
type toolResultContent[C any] interface {
	json.Marshaler
	validate(path string) error
}

// toolResult is the shape of the server tool result blocks without a
// caller: each converts itself to it (same fields, same tags) for
// validation. A field added to one of those blocks goes here too (or the
// block gets its own validate); the conversions do not compile otherwise.
type toolResult[C toolResultContent[C]] struct {
	ToolUseID    string        `json:"tool_use_id"`
	Content      C             `json:"content"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (r toolResult[C]) validate(path string) error {
	if err := validateServerToolResult(path, r.ToolUseID, r.Content); err != nil {
		return err
	}
	return r.CacheControl.validate(path + ".cache_control")
}

// callerToolResult is [toolResult] with the caller member (web search and
// web fetch).
type callerToolResult[C toolResultContent[C]] struct {
	ToolUseID    string        `json:"tool_use_id"`
	Content      C             `json:"content"`
	Caller       Caller        `json:"caller,omitzero"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (r callerToolResult[C]) validate(path string) error {
	if err := validateServerToolResult(path, r.ToolUseID, r.Content); err != nil {
		return err
	}
	if r.Caller != nil {
		if err := r.Caller.validate(path + ".caller"); err != nil {
			return err
		}
	}
	return r.CacheControl.validate(path + ".cache_control")
}

// toolError is the shape of the server tools' error variants that carry
// only an error code: each converts itself to it for validation.
type toolError struct {
	ErrorCode ToolErrorCode `json:"error_code"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (e toolError) validate(path string) error {
	if e.ErrorCode == "" {
		return invalid(path+".error_code", "must not be empty")
	}
	return nil
}

// validateServerToolResult checks what every server tool result block
// needs: the answered server tool call's id and some content.
func validateServerToolResult[C interface{ validate(string) error }](path, toolUseID string, content C) error {
	if err := checkServerToolID(path+".tool_use_id", toolUseID); err != nil {
		return err
	}
	if any(content) == nil {
		return invalid(path+".content", "is required")
	}
	return content.validate(path + ".content")
}

// ---------------------------------------------------------------------------
// web_search_tool_result

// WebSearchToolResultBlock is a "web_search_tool_result" block: the
// results of a web_search server tool call.
type WebSearchToolResultBlock struct {
	// ToolUseID is the ID of the server_tool_use block answered
	// (^srvtoolu_[a-zA-Z0-9_]+$).
	ToolUseID string `json:"tool_use_id"`
	// Content is the result or an error.
	Content WebSearchToolResultContent `json:"content"`
	// Caller says who invoked the tool (nil: not stated).
	Caller       Caller        `json:"caller,omitzero"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (b WebSearchToolResultBlock) validate(path string) error {
	return callerToolResult[WebSearchToolResultContent](b).validate(path)
}

// A WebSearchToolResultContent is the content of a
// [WebSearchToolResultBlock]. Variants: [WebSearchResults],
// [WebSearchToolResultError] and [UnknownWebSearchToolResultContent].
type WebSearchToolResultContent interface {
	json.Marshaler
	isWebSearchToolResultContent()
	validate(path string) error
}

// webSearchToolResultContentUnion is the table of WebSearchToolResultContent;
// the success content is an array, not an object with a "type".
var webSearchToolResultContentUnion = codec.NewUnion[WebSearchToolResultContent]("WebSearchToolResultContent", UnknownWebSearchToolResultContent{}).
	Add("web_search_tool_result_error", WebSearchToolResultError{}).
	Custom(func(data []byte) (WebSearchToolResultContent, bool, error) {
		if !codec.IsArray(data) {
			return nil, false, nil
		}
		var r WebSearchResults
		return r, true, unmarshalJSON(data, &r)
	})

// WebSearchResults is the successful content of a web search: a JSON array
// of results.
//
//mms:json
type WebSearchResults []WebSearchResult

func (WebSearchResults) isWebSearchToolResultContent() {}

func (r WebSearchResults) validate(path string) error {
	for i, x := range r {
		if x.URL == "" {
			return invalid(fmt.Sprintf("%s[%d].url", path, i), "must not be empty")
		}
	}
	return nil
}

// WebSearchResult is one {"type":"web_search_result"} entry of
// [WebSearchResults].
//
//mms:json type=web_search_result
type WebSearchResult struct {
	// EncryptedContent carries the page content for later turns; send it
	// back unchanged.
	EncryptedContent string `json:"encrypted_content"`
	// PageAge is how old the page is, e.g. "2 days ago" (nil: null).
	PageAge *string `json:"page_age"`
	Title   string  `json:"title"`
	URL     string  `json:"url"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebSearchToolResultError is a "web_search_tool_result_error": the search
// failed.
type WebSearchToolResultError struct {
	// ErrorCode says what went wrong; unknown codes pass through.
	ErrorCode ToolErrorCode `json:"error_code"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (v WebSearchToolResultError) validate(path string) error { return toolError(v).validate(path) }

// UnknownWebSearchToolResultContent holds web search content this version cannot name; Raw is written back
// verbatim.
type UnknownWebSearchToolResultContent struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownWebSearchToolResultContent) validate(string) error { return nil }

// ---------------------------------------------------------------------------
// web_fetch_tool_result

// WebFetchToolResultBlock is a "web_fetch_tool_result" block: the result
// of a web_fetch server tool call.
type WebFetchToolResultBlock struct {
	// ToolUseID is the ID of the server_tool_use block answered
	// (^srvtoolu_[a-zA-Z0-9_]+$).
	ToolUseID string `json:"tool_use_id"`
	// Content is the result or an error.
	Content WebFetchToolResultContent `json:"content"`
	// Caller says who invoked the tool (nil: not stated).
	Caller       Caller        `json:"caller,omitzero"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (b WebFetchToolResultBlock) validate(path string) error {
	return callerToolResult[WebFetchToolResultContent](b).validate(path)
}

// A WebFetchToolResultContent is the content of a [WebFetchToolResultBlock].
// Variants: [WebFetchResult], [WebFetchToolResultError] and
// [UnknownWebFetchToolResultContent].
type WebFetchToolResultContent interface {
	json.Marshaler
	isWebFetchToolResultContent()
	validate(path string) error
}

var webFetchToolResultContentUnion = codec.NewUnion[WebFetchToolResultContent]("WebFetchToolResultContent", UnknownWebFetchToolResultContent{}).
	Add("web_fetch_result", WebFetchResult{}).
	Add("web_fetch_tool_result_error", WebFetchToolResultError{})

// WebFetchResult is a "web_fetch_result": the fetched page as a document.
type WebFetchResult struct {
	URL string `json:"url"`
	// Content is the fetched document (a base64 PDF or plain text source).
	Content DocumentBlock `json:"content"`
	// RetrievedAt is when the page was fetched (nil: null).
	RetrievedAt *string `json:"retrieved_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (v WebFetchResult) validate(path string) error {
	if v.URL == "" {
		return invalid(path+".url", "must not be empty")
	}
	return v.Content.validate(path + ".content")
}

// WebFetchToolResultError is a "web_fetch_tool_result_error": the fetch
// failed.
type WebFetchToolResultError struct {
	// ErrorCode says what went wrong; unknown codes pass through.
	ErrorCode ToolErrorCode `json:"error_code"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (v WebFetchToolResultError) validate(path string) error { return toolError(v).validate(path) }

// UnknownWebFetchToolResultContent holds web fetch content this version cannot name; Raw is written back
// verbatim.
type UnknownWebFetchToolResultContent struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownWebFetchToolResultContent) validate(string) error { return nil }
