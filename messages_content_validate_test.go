package mms

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestMessageParamValidate: each rule fails with its exact path; the valid
// cases pass.
func TestMessageParamValidate(t *testing.T) {
	obj := json.RawMessage(`{}`)
	user := func(blocks ...ContentBlock) MessageParam { return UserMessage(blocks...) }
	tabs := func(active ...bool) []BrowserTab {
		var out []BrowserTab
		for i, a := range active {
			out = append(out, BrowserTab{TabID: string(rune('a' + i)), URL: "u", Active: a})
		}
		return out
	}
	cases := []struct {
		name  string
		p     MessageParam
		field string // "" = valid
		rule  string // substring of the rule
	}{
		{"valid text", UserText("hi"), "", ""},
		{"valid string form", MessageParam{Role: RoleUser, Content: ContentBlocks{TextBlock{Text: "hi"}}, StringContent: true}, "", ""},
		{"role system", MessageParam{Role: "system", Content: ContentBlocks{TextBlock{Text: "x"}}}, "", ""},
		{"role developer", MessageParam{Role: "developer", Content: ContentBlocks{TextBlock{Text: "x"}}}, "messages[3].role", "must be"},
		{"role empty", MessageParam{Content: ContentBlocks{TextBlock{Text: "x"}}}, "messages[3].role", "must be"},
		{"content missing", MessageParam{Role: RoleUser}, "messages[3].content", "required"},
		{"empty string form", MessageParam{Role: RoleUser, Content: ContentBlocks{TextBlock{}}, StringContent: true}, "messages[3].content", "empty"},
		{"nil block", user(TextBlock{Text: "a"}, nil), "messages[3].content[1]", "nil"},
		{"empty text", user(TextBlock{Text: "a"}, TextBlock{}), "messages[3].content[1].text", "empty"},
		{"bad cache ttl", user(TextBlock{Text: "a", CacheControl: &CacheControl{TTL: "2h"}}), "messages[3].content[0].cache_control.ttl", ""},
		{"tool_reference at top level", user(ToolReferenceBlock{ToolName: "t"}), "messages[3].content[0].type", "not allowed"},
		{"browser_state at top level", user(BrowserStateBlock{Tabs: tabs(true)}), "messages[3].content[0].type", "not allowed"},

		// citations (§3.5)
		{"citation title empty", user(TextBlock{Text: "a", Citations: Citations{CharLocationCitation{DocumentTitle: Ptr("")}}}), "messages[3].content[0].citations[0].document_title", "1 to 500"},
		{"citation title long", user(TextBlock{Text: "a", Citations: Citations{PageLocationCitation{StartPageNumber: 1, DocumentTitle: Ptr(strings.Repeat("é", 501))}}}), "messages[3].content[0].citations[0].document_title", "1 to 500"},
		{"citation title 500 runes ok", user(TextBlock{Text: "a", Citations: Citations{PageLocationCitation{StartPageNumber: 1, DocumentTitle: Ptr(strings.Repeat("é", 500))}}}), "", ""},
		{"citation page 0", user(TextBlock{Text: "a", Citations: Citations{PageLocationCitation{StartPageNumber: 0}}}), "messages[3].content[0].citations[0].start_page_number", ">= 1"},
		{"citation negative char", user(TextBlock{Text: "a", Citations: Citations{CharLocationCitation{StartCharIndex: -1}}}), "messages[3].content[0].citations[0].start_char_index", ">= 0"},
		{"citation negative doc index", user(TextBlock{Text: "a", Citations: Citations{ContentBlockLocationCitation{DocumentIndex: -1}}}), "messages[3].content[0].citations[0].document_index", ">= 0"},
		{"citation negative block", user(TextBlock{Text: "a", Citations: Citations{ContentBlockLocationCitation{StartBlockIndex: -2}}}), "messages[3].content[0].citations[0].start_block_index", ">= 0"},
		{"web citation title long", user(TextBlock{Text: "a", Citations: Citations{WebSearchResultLocationCitation{URL: "u", Title: Ptr(strings.Repeat("x", 513))}}}), "messages[3].content[0].citations[0].title", "1 to 512"},
		{"web citation url empty", user(TextBlock{Text: "a", Citations: Citations{WebSearchResultLocationCitation{}}}), "messages[3].content[0].citations[0].url", "1 to 2048"},
		{"search citation negative", user(TextBlock{Text: "a", Citations: Citations{SearchResultLocationCitation{SearchResultIndex: -1}}}), "messages[3].content[0].citations[0].search_result_index", ">= 0"},

		// images and documents
		{"image no source", user(ImageBlock{}), "messages[3].content[0].source", "required"},
		{"image bad media type", user(ImageFromBase64("image/bmp", "AAAA")), "messages[3].content[0].source.media_type", "image/jpeg"},
		{"image no data", user(ImageFromBase64(ImageMediaTypeGIF, "")), "messages[3].content[0].source.data", "empty"},
		{"image empty url", user(ImageFromURL("")), "messages[3].content[0].source.url", "empty"},
		{"image empty file", user(ImageFromFile("")), "messages[3].content[0].source.file_id", "empty"},
		{"image bad transformation", user(ImageBlock{Source: URLImageSource{URL: "u"}, Transformations: &ImageTransformations{OversizedImage: "crop"}}), "messages[3].content[0].transformations.oversized_image", "downsize"},
		{"pdf media type", user(DocumentBlock{Source: Base64PDFSource{Data: "x"}}), "messages[3].content[0].source.media_type", "application/pdf"},
		{"text doc media type", user(DocumentBlock{Source: PlainTextSource{MediaType: "text/html", Data: "x"}}), "messages[3].content[0].source.media_type", "text/plain"},
		{"document title empty", user(DocumentBlock{Source: URLPDFSource{URL: "u"}, Title: Ptr("")}), "messages[3].content[0].title", "1 to 500"},
		{"document title long", user(DocumentBlock{Source: URLPDFSource{URL: "u"}, Title: Ptr(strings.Repeat("t", 501))}), "messages[3].content[0].title", "1 to 500"},
		{"content source thinking", user(DocumentBlock{Source: ContentSource{Content: ContentBlocks{ThinkingBlock{Signature: "s"}}}}), "messages[3].content[0].source.content[0].type", "not allowed"},
		{"content source empty text", user(DocumentBlock{Source: ContentSource{Content: ContentBlocks{TextBlock{}}}}), "messages[3].content[0].source.content[0].text", "empty"},
		{"search result image", user(SearchResultBlock{Source: "s", Content: ContentBlocks{ImageFromURL("u")}}), "messages[3].content[0].content[0].type", "not allowed"},
		{"search result no source", user(SearchResultBlock{Content: ContentBlocks{TextBlock{Text: "a"}}}), "messages[3].content[0].source", "empty"},
		{"search result no content", user(SearchResultBlock{Source: "s"}), "messages[3].content[0].content", "required"},

		// thinking
		{"thinking no signature", user(ThinkingBlock{Thinking: "t"}), "messages[3].content[0].signature", "empty"},
		{"thinking empty text ok", user(ThinkingBlock{Signature: "s"}), "", ""},
		{"redacted no data", user(RedactedThinkingBlock{}), "messages[3].content[0].data", "empty"},

		// tool_use (§3.2)
		{"tool_use valid", user(ToolUseBlock{ID: "toolu_01-A", Name: "get", Input: obj}), "", ""},
		{"tool_use bad id", user(ToolUseBlock{ID: "toolu 1", Name: "get", Input: obj}), "messages[3].content[0].id", "^[a-zA-Z0-9_-]+$"},
		{"tool_use empty id", user(ToolUseBlock{Name: "get", Input: obj}), "messages[3].content[0].id", "^[a-zA-Z0-9_-]+$"},
		{"tool_use empty name", user(ToolUseBlock{ID: "t", Input: obj}), "messages[3].content[0].name", "1 to 200"},
		{"tool_use long name", user(ToolUseBlock{ID: "t", Name: strings.Repeat("n", 201), Input: obj}), "messages[3].content[0].name", "1 to 200"},
		{"tool_use no input", user(ToolUseBlock{ID: "t", Name: "n"}), "messages[3].content[0].input", "object"},
		{"tool_use array input", user(ToolUseBlock{ID: "t", Name: "n", Input: json.RawMessage(`[1]`)}), "messages[3].content[0].input", "object"},
		{"tool_use bad caller", user(ToolUseBlock{ID: "t", Name: "n", Input: obj, Caller: CodeExecution20250825Caller{ToolID: "toolu_1"}}), "messages[3].content[0].caller.tool_id", "srvtoolu_"},
		{"tool_use caller dash", user(ToolUseBlock{ID: "t", Name: "n", Input: obj, Caller: CodeExecution20260120Caller{ToolID: "srvtoolu_a-b"}}), "messages[3].content[0].caller.tool_id", "srvtoolu_"},
		{"tool_use good caller", user(ToolUseBlock{ID: "t", Name: "n", Input: obj, Caller: CodeExecution20250825Caller{ToolID: "srvtoolu_01_a"}}), "", ""},
		{"toolset_name long", user(ToolUseBlock{ID: "t", Name: "n", Input: obj, ToolsetName: strings.Repeat("a", 65)}), "messages[3].content[0].toolset_name", "1 to 64"},
		{"toolset_name pattern", user(ToolUseBlock{ID: "t", Name: "n", Input: obj, ToolsetName: "a.b"}), "messages[3].content[0].toolset_name", "^[a-zA-Z0-9_-]+$"},
		{"server_tool_use id", user(ServerToolUseBlock{ID: "toolu_1", Name: "web_search", Input: obj}), "messages[3].content[0].id", "srvtoolu_"},
		{"server_tool_use bare prefix", user(ServerToolUseBlock{ID: "srvtoolu_", Name: "web_search", Input: obj}), "messages[3].content[0].id", "srvtoolu_"},
		{"server_tool_use no name", user(ServerToolUseBlock{ID: "srvtoolu_1", Input: obj}), "messages[3].content[0].name", "empty"},
		{"server_tool_use input", user(ServerToolUseBlock{ID: "srvtoolu_1", Name: "x", Input: json.RawMessage(`"q"`)}), "messages[3].content[0].input", "object"},

		// tool_reference
		{"tool_reference empty", user(ToolResultBlocks("t", false, ToolReferenceBlock{})), "messages[3].content[0].content[0].tool_name", "{1,256}"},
		{"tool_reference long", user(ToolResultBlocks("t", false, ToolReferenceBlock{ToolName: strings.Repeat("a", 257)})), "messages[3].content[0].content[0].tool_name", "{1,256}"},
		{"tool_reference pattern", user(ToolResultBlocks("t", false, ToolReferenceBlock{ToolName: "a b"})), "messages[3].content[0].content[0].tool_name", "{1,256}"},
		{"tool_reference 256 ok", user(ToolResultBlocks("t", false, ToolReferenceBlock{ToolName: strings.Repeat("a", 256)})), "", ""},

		// tool_result
		{"tool_result no id", user(ToolResult("", "x", false)), "messages[3].content[0].tool_use_id", "^[a-zA-Z0-9_-]+$"},
		{"tool_result empty string ok", user(ToolResultBlock{ToolUseID: "t", Content: ContentBlocks{TextBlock{}}, StringContent: true}), "", ""},
		{"tool_result thinking", user(ToolResultBlocks("t", false, ThinkingBlock{Signature: "s"})), "messages[3].content[0].content[0].type", "not allowed"},
		{"tool_result nested empty text", user(ToolResultBlocks("t", false, TextBlock{Text: "a"}, TextBlock{})), "messages[3].content[0].content[1].text", "empty"},
		{"tool_result nested image", user(ToolResultBlocks("t", false, ImageFromBase64("image/tiff", "AA"))), "messages[3].content[0].content[0].source.media_type", "image/jpeg"},

		// browser_state (§3.2)
		{"browser_state valid", user(ToolResultBlocks("t", false, BrowserStateBlock{Tabs: tabs(false, true)})), "", ""},
		{"browser_state no tabs ok", user(ToolResultBlocks("t", false, BrowserStateBlock{Tabs: []BrowserTab{}})), "", ""},
		{"browser_state tabs missing", user(ToolResultBlocks("t", false, BrowserStateBlock{})), "messages[3].content[0].content[0].tabs", "required"},
		{"browser_state none active", user(ToolResultBlocks("t", false, BrowserStateBlock{Tabs: tabs(false, false)})), "messages[3].content[0].content[0].tabs", "exactly one"},
		{"browser_state two active", user(ToolResultBlocks("t", false, BrowserStateBlock{Tabs: tabs(true, true)})), "messages[3].content[0].content[0].tabs", "exactly one"},
		{"browser_state tab id", user(ToolResultBlocks("t", false, BrowserStateBlock{Tabs: []BrowserTab{{Active: true}}})), "messages[3].content[0].content[0].tabs[0].tab_id", "empty"},
		{"browser_state twice", user(ToolResultBlocks("t", false, TextBlock{Text: "a"}, BrowserStateBlock{Tabs: tabs(true)}, BrowserStateBlock{Tabs: tabs(true)})), "messages[3].content[0].content[2]", "at most one"},
		{"browser_state in error", user(ToolResultBlocks("t", true, BrowserStateBlock{Tabs: tabs(true)})), "messages[3].content[0].content[0]", "error tool_result"},
		{"browser_state empty changes", user(ToolResultBlocks("t", false, BrowserStateBlock{Tabs: tabs(true), StateChanges: BrowserStateChanges{}})), "messages[3].content[0].content[0].state_changes", "omit"},
		{"browser_state change", user(ToolResultBlocks("t", false, BrowserStateBlock{Tabs: tabs(true), StateChanges: BrowserStateChanges{DownloadFailedChange{DownloadID: "d"}}})), "messages[3].content[0].content[0].state_changes[0].url", "empty"},
		{"browser_state tab change", user(ToolResultBlocks("t", false, BrowserStateBlock{Tabs: tabs(true), StateChanges: BrowserStateChanges{TabOpenedChange{}}})), "messages[3].content[0].content[0].state_changes[0].tab_id", "empty"},

		// server tool results
		{"web search no id", user(WebSearchToolResultBlock{Content: WebSearchResults{}}), "messages[3].content[0].tool_use_id", "^srvtoolu_"},
		{"web search no content", user(WebSearchToolResultBlock{ToolUseID: "srvtoolu_1"}), "messages[3].content[0].content", "required"},
		{"web search result url", user(WebSearchToolResultBlock{ToolUseID: "srvtoolu_1", Content: WebSearchResults{{}}}), "messages[3].content[0].content[0].url", "empty"},
		{"web search error code", user(WebSearchToolResultBlock{ToolUseID: "srvtoolu_1", Content: WebSearchToolResultError{}}), "messages[3].content[0].content.error_code", "empty"},
		{"web fetch doc", user(WebFetchToolResultBlock{ToolUseID: "srvtoolu_1", Content: WebFetchResult{URL: "u"}}), "messages[3].content[0].content.content.source", "required"},
		{"web fetch url", user(WebFetchToolResultBlock{ToolUseID: "srvtoolu_1", Content: WebFetchResult{Content: TextDocument("x")}}), "messages[3].content[0].content.url", "empty"},
		{"code execution error", user(CodeExecutionToolResultBlock{ToolUseID: "srvtoolu_1", Content: CodeExecutionToolResultError{}}), "messages[3].content[0].content.error_code", "empty"},
		{"tool search reference", user(ToolSearchToolResultBlock{ToolUseID: "srvtoolu_1", Content: ToolSearchToolSearchResult{ToolReferences: []ToolReferenceBlock{{ToolName: "ok"}, {}}}}), "messages[3].content[0].content.tool_references[1].tool_name", "{1,256}"},
		{"advisor no content", user(AdvisorToolResultBlock{ToolUseID: "srvtoolu_1"}), "messages[3].content[0].content", "required"},
		{"web caller", user(WebSearchToolResultBlock{ToolUseID: "srvtoolu_1", Content: WebSearchResults{}, Caller: CodeExecution20250825Caller{}}), "messages[3].content[0].caller.tool_id", "srvtoolu_"},

		// the rest
		{"container_upload", user(ContainerUploadBlock{}), "messages[3].content[0].file_id", "empty"},
		{"mcp_tool_use server", user(MCPToolUseBlock{ID: "m", Name: "n", Input: obj}), "messages[3].content[0].server_name", "empty"},
		{"mcp_tool_use input", user(MCPToolUseBlock{ID: "m", Name: "n", ServerName: "s"}), "messages[3].content[0].input", "object"},
		{"mcp_tool_result image", user(MCPToolResultBlock{ToolUseID: "m", Content: ContentBlocks{ImageFromURL("u")}}), "messages[3].content[0].content[0].type", "not allowed"},
		{"mcp_tool_result id", user(MCPToolResultBlock{}), "messages[3].content[0].tool_use_id", "^[a-zA-Z0-9_-]+$"},
		{"fallback to", user(FallbackBlock{From: FallbackModel{Model: "a"}}), "messages[3].content[0].to.model", "empty"},
		{"tool_addition missing", user(ToolAdditionBlock{}), "messages[3].content[0].tool", "required"},
		{"tool_addition ref", user(ToolAdditionBlock{Tool: MCPToolRef{ServerName: "s"}}), "messages[3].content[0].tool.name", "empty"},
		{"tool_removal ref", user(ToolRemovalBlock{Tool: MCPToolsetRef{}}), "messages[3].content[0].tool.server_name", "empty"},
		{"compaction cache", user(CompactionBlock{CacheControl: &CacheControl{TTL: "1d"}}), "messages[3].content[0].cache_control.ttl", ""},
		{"unknown block passes", user(UnknownContentBlock{Type: "future", Raw: json.RawMessage(`{"type":"future"}`)}), "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.p.validate("messages[3]")
			if c.field == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			var ve *ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("error = %v, want a *ValidationError for %s", err, c.field)
			}
			if ve.Field != c.field {
				t.Errorf("Field = %q, want %q (rule %q)", ve.Field, c.field, ve.Rule)
			}
			if !strings.Contains(ve.Rule, c.rule) {
				t.Errorf("Rule = %q, want it to mention %q", ve.Rule, c.rule)
			}
			if !errors.Is(err, ErrInvalidParams) {
				t.Errorf("errors.Is(err, ErrInvalidParams) = false")
			}
		})
	}
}
