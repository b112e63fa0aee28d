package mms

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/codec"

	"github.com/stretchr/testify/require"
)

// future is an unknown member every fixture may carry in Extra.
var future = map[string]json.RawMessage{"x_future": json.RawMessage(`{"a":[1,"b"]}`)}

type unionCase[T any] struct {
	typ string // wire "type"; "" for an array
	v   T
}

// testUnion checks that each variant encodes with its "type", decodes back
// to itself through the union decoder, and that an unknown type round-trips
// its raw bytes.
func testUnion[T json.Marshaler](t *testing.T, decode func([]byte) (T, error), cases []unionCase[T]) {
	t.Helper()
	for _, c := range cases {
		name := c.typ
		if name == "" {
			name = "array"
		}
		t.Run(name+"/"+reflect.TypeOf(c.v).Name(), func(t *testing.T) {
			data, err := json.Marshal(c.v)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			if c.typ == "" {
				if !codec.IsArray(data) {
					t.Fatalf("want an array, got %s", data)
				}
			} else if typ, err := codec.PeekType(data); err != nil || typ != c.typ {
				t.Fatalf("type = %q (%v), want %q in %s", typ, err, c.typ, data)
			}
			got, err := decode(data)
			if err != nil {
				t.Fatalf("decode %s: %v", data, err)
			}
			if diff := cmp.Diff(c.v, got); diff != "" {
				t.Fatalf("round trip (-want +got):\n%s\nJSON: %s", diff, data)
			}
		})
	}
	t.Run("unknown", func(t *testing.T) {
		raw := []byte(`{ "type": "x_future_type", "z": [1, {"y": null}] }`)
		got, err := decode(raw)
		require.NoError(t, err)
		if name := reflect.TypeOf(got).Name(); !strings.HasPrefix(name, "Unknown") {
			t.Fatalf("decoded to %s, want the Unknown variant", name)
		}
		if typ := reflect.ValueOf(got).FieldByName("Type").String(); typ != "x_future_type" {
			t.Errorf("Type = %q", typ)
		}
		enc, err := got.MarshalJSON()
		if err != nil || !bytes.Equal(enc, raw) {
			t.Errorf("MarshalJSON = %s, %v; want the raw bytes", enc, err)
		}
	})
}

var (
	imageBase64 = Base64ImageSource{MediaType: ImageMediaTypePNG, Data: "iVBORw0KGgo=", Extra: future}
	pdfBase64   = Base64PDFSource{MediaType: MediaTypePDF, Data: "JVBERi0xLjQK"}
	directUse   = DirectCaller{}
)

func contentBlockCases() []unionCase[ContentBlock] {
	return []unionCase[ContentBlock]{
		{"text", TextBlock{Text: "hi", Citations: Citations{CharLocationCitation{CitedText: "c", DocumentTitle: Ptr("T"), EndCharIndex: 3, FileID: Ptr("file_1")}}, CacheControl: &CacheControl{TTL: CacheTTL1h}, Extra: future}},
		{"text", TextBlock{Text: "plain"}},
		{"image", ImageBlock{Source: imageBase64, Transformations: &ImageTransformations{OversizedImage: OversizedImageError}, CacheControl: &CacheControl{}, Extra: future}},
		{"image", ImageFromURL("https://e.com/a.png")},
		{"image", ImageFromFile("file_img")},
		{"document", DocumentBlock{Source: pdfBase64, Citations: &CitationsConfig{Enabled: Ptr(true)}, Context: "ctx", Title: Ptr("Report"), Extra: future}},
		{"document", TextDocument("some text")},
		{"document", DocumentBlock{Source: ContentSource{Content: ContentBlocks{TextBlock{Text: "a"}, ImageFromURL("u")}}}},
		{"document", DocumentBlock{Source: ContentSource{Content: ContentBlocks{TextBlock{Text: "as string"}}, StringContent: true}}},
		{"document", PDFFromURL("https://e.com/a.pdf")},
		{"document", DocumentFromFile("file_doc")},
		{"search_result", SearchResultBlock{Content: ContentBlocks{TextBlock{Text: "r"}}, Source: "https://e.com", Title: "R", Citations: &CitationsConfig{Enabled: Ptr(false)}, Extra: future}},
		{"thinking", ThinkingBlock{Thinking: "hmm", Signature: "sig==", Extra: future}},
		{"redacted_thinking", RedactedThinkingBlock{Data: "enc"}},
		{"tool_use", ToolUseBlock{ID: "toolu_1", Name: "get", Input: json.RawMessage(`{"z":1,"a":{"y":2,"b":3}}`), Caller: CodeExecution20250825Caller{ToolID: "srvtoolu_1"}, ToolsetName: "browser", Extra: future}},
		{"tool_use", ToolUseBlock{ID: "toolu_2", Name: "get", Input: json.RawMessage(`{}`), Caller: directUse}},
		{"server_tool_use", ServerToolUseBlock{ID: "srvtoolu_1", Name: ServerToolNameWebSearch, Input: json.RawMessage(`{"query":"q"}`), Caller: directUse, Extra: future}},
		{"tool_result", ToolResultBlock{ToolUseID: "toolu_1", Content: ContentBlocks{TextBlock{Text: "42"}, ImageFromURL("u"), ToolReferenceBlock{ToolName: "t"}, BrowserStateBlock{Tabs: []BrowserTab{{TabID: "1", Title: "t", URL: "u", Active: true}}}}, IsError: Ptr(false), ToolsetName: "browser", Extra: future}},
		{"tool_result", ToolResult("toolu_2", "plain answer", true)},
		{"tool_result", ToolResultBlock{ToolUseID: "toolu_3", Content: ContentBlocks{}}},
		{"tool_reference", ToolReferenceBlock{ToolName: "deferred_tool", Extra: future}},
		{"browser_state", BrowserStateBlock{
			Tabs:         []BrowserTab{{TabID: "1", Title: "a", URL: "u1"}, {TabID: "2", Title: "b", URL: "u2", Active: true, Extra: future}},
			StateChanges: BrowserStateChanges{TabOpenedChange{TabID: "2"}, DownloadCompletedChange{DownloadID: "d", URL: "u", Path: Ptr("/tmp/x"), SizeBytes: Ptr(int64(7))}},
		}},
		{"web_search_tool_result", WebSearchToolResultBlock{ToolUseID: "srvtoolu_1", Content: WebSearchResults{{EncryptedContent: "e", PageAge: Ptr("1 day"), Title: "t", URL: "u", Extra: future}, {EncryptedContent: "e2", Title: "t2", URL: "u2"}}, Caller: directUse, Extra: future}},
		{"web_search_tool_result", WebSearchToolResultBlock{ToolUseID: "srvtoolu_2", Content: WebSearchToolResultError{ErrorCode: ToolErrorCodeMaxUsesExceeded}}},
		{"web_fetch_tool_result", WebFetchToolResultBlock{ToolUseID: "srvtoolu_3", Content: WebFetchResult{URL: "u", Content: TextDocument("page"), RetrievedAt: Ptr("2025-01-01T00:00:00Z")}}},
		{"code_execution_tool_result", CodeExecutionToolResultBlock{ToolUseID: "srvtoolu_4", Content: CodeExecutionResult{Stdout: "out", ReturnCode: 1, Content: []CodeExecutionOutput{{FileID: "file_o"}}}}},
		{"bash_code_execution_tool_result", BashCodeExecutionToolResultBlock{ToolUseID: "srvtoolu_5", Content: BashCodeExecutionResult{Stdout: "ok", Content: []BashCodeExecutionOutput{}}}},
		{"text_editor_code_execution_tool_result", TextEditorCodeExecutionToolResultBlock{ToolUseID: "srvtoolu_6", Content: TextEditorCodeExecutionCreateResult{IsFileUpdate: true}}},
		{"tool_search_tool_result", ToolSearchToolResultBlock{ToolUseID: "srvtoolu_7", Content: ToolSearchToolSearchResult{ToolReferences: []ToolReferenceBlock{{ToolName: "a"}}}}},
		{"advisor_tool_result", AdvisorToolResultBlock{ToolUseID: "srvtoolu_8", Content: AdvisorResult{Text: "do x", StopReason: StopReasonEndTurn}}},
		{"container_upload", ContainerUploadBlock{FileID: "file_c", Extra: future}},
		{"mcp_tool_use", MCPToolUseBlock{ID: "mcptoolu_1", Name: "ask", ServerName: "wiki", Input: json.RawMessage(`{"q":"x"}`), Extra: future}},
		{"mcp_tool_result", MCPToolResultBlock{ToolUseID: "mcptoolu_1", Content: ContentBlocks{TextBlock{Text: "answer"}}, IsError: Ptr(false)}},
		{"mcp_tool_result", MCPToolResultBlock{ToolUseID: "mcptoolu_2", Content: ContentBlocks{TextBlock{Text: "as string"}}, StringContent: true}},
		{"compaction", CompactionBlock{Content: Ptr("summary"), EncryptedContent: Ptr("enc"), Extra: future}},
		{"fallback", FallbackBlock{From: FallbackModel{Model: "a"}, To: FallbackModel{Model: "b"}, Trigger: &FallbackTrigger{Type: "refusal", Category: RefusalCategoryCyber}, Extra: future}},
		{"tool_addition", ToolAdditionBlock{Tool: MCPToolRef{ServerName: "s", Name: "n"}}},
		{"tool_removal", ToolRemovalBlock{Tool: ToolRef{Name: "n"}, Extra: future}},
		{"mcp_tool_listing", MCPToolListingBlock{MCPServerName: "wiki", Tools: []MCPListedTool{{Name: "ask", Description: "Ask.",
			InputSchema: InputSchema(`{"type":"object"}`), Extra: future}}, Extra: future}},
	}
}

func TestContentBlockUnion(t *testing.T) {
	testUnion(t, contentBlockUnion.Decode, contentBlockCases())
}

func TestImageSourceUnion(t *testing.T) {
	testUnion(t, imageSourceUnion.Decode, []unionCase[ImageSource]{
		{"base64", imageBase64},
		{"base64", Base64ImageSource{MediaType: ImageMediaTypeJPEG, Data: "/9j/"}},
		{"url", URLImageSource{URL: "https://e.com/a.png", Extra: future}},
		{"file", FileImageSource{FileID: "file_1"}},
	})
}

func TestDocumentSourceUnion(t *testing.T) {
	testUnion(t, documentSourceUnion.Decode, []unionCase[DocumentSource]{
		{"base64", pdfBase64},
		{"base64", Base64PDFSource{MediaType: MediaTypePDF, Data: "JVBE", Extra: future}},
		{"text", PlainTextSource{MediaType: MediaTypePlainText, Data: "hello\n\"world\"", Extra: future}},
		{"content", ContentSource{Content: ContentBlocks{TextBlock{Text: "a"}}, Extra: future}},
		{"content", ContentSource{Content: ContentBlocks{TextBlock{Text: "s"}}, StringContent: true}},
		{"url", URLPDFSource{URL: "https://e.com/a.pdf"}},
		{"file", FileDocumentSource{FileID: "file_1", Extra: future}},
	})
}

func TestCitationUnion(t *testing.T) {
	testUnion(t, citationUnion.Decode, []unionCase[Citation]{
		{"char_location", CharLocationCitation{CitedText: "c", DocumentIndex: 1, StartCharIndex: 2, EndCharIndex: 3, FileID: Ptr("file_1"), Extra: future}},
		{"page_location", PageLocationCitation{CitedText: "c", DocumentTitle: Ptr("T"), StartPageNumber: 1, EndPageNumber: 2}},
		{"content_block_location", ContentBlockLocationCitation{CitedText: "c", StartBlockIndex: 0, EndBlockIndex: 1, FileID: Ptr("file_2")}},
		{"web_search_result_location", WebSearchResultLocationCitation{CitedText: "c", EncryptedIndex: "e", Title: Ptr("t"), URL: "u", Extra: future}},
		{"search_result_location", SearchResultLocationCitation{CitedText: "c", SearchResultIndex: 2, Source: "s", StartBlockIndex: 0, EndBlockIndex: 1}},
	})
}

func TestCallerUnion(t *testing.T) {
	testUnion(t, callerUnion.Decode, []unionCase[Caller]{
		{"direct", DirectCaller{}},
		{"direct", DirectCaller{Extra: future}},
		{"code_execution_20250825", CodeExecution20250825Caller{ToolID: "srvtoolu_1"}},
		{"code_execution_20260120", CodeExecution20260120Caller{ToolID: "srvtoolu_2", Extra: future}},
	})
}

func TestToolChangeRefUnion(t *testing.T) {
	testUnion(t, toolChangeRefUnion.Decode, []unionCase[ToolChangeRef]{
		{"tool_reference", ToolRef{Name: "n", Extra: future}},
		{"mcp_tool_reference", MCPToolRef{ServerName: "s", Name: "n"}},
		{"mcp_toolset_reference", MCPToolsetRef{ServerName: "s"}},
		{"tool_definition", ToolDefinitionRef{Definition: CustomTool{Name: "n", InputSchema: InputSchema(`{"type":"object"}`)}}},
		{"tool_definition", ToolDefinitionRef{Definition: MCPToolset{MCPServerName: "s"}}},
	})
}

func TestBrowserStateChangeUnion(t *testing.T) {
	testUnion(t, browserStateChangeUnion.Decode, []unionCase[BrowserStateChange]{
		{"tab_opened", TabOpenedChange{TabID: "1", Extra: future}},
		{"download_started", DownloadStartedChange{DownloadID: "d", URL: "u"}},
		{"download_completed", DownloadCompletedChange{DownloadID: "d", URL: "u", Path: Ptr("/p"), SizeBytes: Ptr(int64(0))}},
		{"download_completed", DownloadCompletedChange{DownloadID: "d", URL: "u"}},
		{"download_failed", DownloadFailedChange{DownloadID: "d", URL: "u", Error: Ptr("boom")}},
	})
}

func TestWebSearchToolResultContentUnion(t *testing.T) {
	testUnion(t, webSearchToolResultContentUnion.Decode, []unionCase[WebSearchToolResultContent]{
		{"", WebSearchResults{{EncryptedContent: "e", Title: "t", URL: "u", Extra: future}}},
		{"", WebSearchResults{}},
		{"web_search_tool_result_error", WebSearchToolResultError{ErrorCode: ToolErrorCodeQueryTooLong, Extra: future}},
	})
}

func TestWebFetchToolResultContentUnion(t *testing.T) {
	testUnion(t, webFetchToolResultContentUnion.Decode, []unionCase[WebFetchToolResultContent]{
		{"web_fetch_result", WebFetchResult{URL: "u", Content: DocumentBlock{Source: pdfBase64, Title: Ptr("t"), Citations: &CitationsConfig{Enabled: Ptr(true)}}, Extra: future}},
		{"web_fetch_result", WebFetchResult{URL: "u", Content: TextDocument("t")}},
		{"web_fetch_tool_result_error", WebFetchToolResultError{ErrorCode: ToolErrorCodeContentTooLarge}},
	})
}

func TestCodeExecutionToolResultContentUnion(t *testing.T) {
	testUnion(t, codeExecutionToolResultContentUnion.Decode, []unionCase[CodeExecutionToolResultContent]{
		{"code_execution_result", CodeExecutionResult{Stdout: "o", Stderr: "e", ReturnCode: 2, Content: []CodeExecutionOutput{{FileID: "f", Extra: future}}, Extra: future}},
		{"encrypted_code_execution_result", EncryptedCodeExecutionResult{EncryptedStdout: "x", Content: []CodeExecutionOutput{}}},
		{"code_execution_tool_result_error", CodeExecutionToolResultError{ErrorCode: ToolErrorCodeExecutionTimeExceeded}},
	})
}

func TestBashCodeExecutionToolResultContentUnion(t *testing.T) {
	testUnion(t, bashCodeExecutionToolResultContentUnion.Decode, []unionCase[BashCodeExecutionToolResultContent]{
		{"bash_code_execution_result", BashCodeExecutionResult{Stdout: "o", ReturnCode: 1, Content: []BashCodeExecutionOutput{{FileID: "f"}}, Extra: future}},
		{"bash_code_execution_tool_result_error", BashCodeExecutionToolResultError{ErrorCode: ToolErrorCodeOutputFileTooLarge}},
	})
}

func TestTextEditorCodeExecutionToolResultContentUnion(t *testing.T) {
	testUnion(t, textEditorCodeExecutionToolResultContentUnion.Decode, []unionCase[TextEditorCodeExecutionToolResultContent]{
		{"text_editor_code_execution_view_result", TextEditorCodeExecutionViewResult{Content: "x", FileType: TextEditorFileTypeText, NumLines: Ptr(1), StartLine: Ptr(1), TotalLines: Ptr(1)}},
		{"text_editor_code_execution_view_result", TextEditorCodeExecutionViewResult{Content: "img", FileType: TextEditorFileTypeImage, Extra: future}},
		{"text_editor_code_execution_create_result", TextEditorCodeExecutionCreateResult{}},
		{"text_editor_code_execution_str_replace_result", TextEditorCodeExecutionStrReplaceResult{Lines: []string{"a", "b"}, NewLines: Ptr(2), NewStart: Ptr(3), OldLines: Ptr(1), OldStart: Ptr(3)}},
		{"text_editor_code_execution_str_replace_result", TextEditorCodeExecutionStrReplaceResult{}},
		{"text_editor_code_execution_tool_result_error", TextEditorCodeExecutionToolResultError{ErrorCode: ToolErrorCodeFileNotFound, ErrorMessage: Ptr("no such file")}},
	})
}

func TestToolSearchToolResultContentUnion(t *testing.T) {
	testUnion(t, toolSearchToolResultContentUnion.Decode, []unionCase[ToolSearchToolResultContent]{
		{"tool_search_tool_search_result", ToolSearchToolSearchResult{ToolReferences: []ToolReferenceBlock{{ToolName: "a"}, {ToolName: "b", Extra: future}}}},
		{"tool_search_tool_search_result", ToolSearchToolSearchResult{ToolReferences: []ToolReferenceBlock{}}},
		{"tool_search_tool_result_error", ToolSearchToolResultError{ErrorCode: ToolErrorCodeUnavailable, ErrorMessage: Ptr("down")}},
		{"tool_search_tool_result_error", ToolSearchToolResultError{ErrorCode: ToolErrorCodeUnavailable}},
	})
}

func TestAdvisorToolResultContentUnion(t *testing.T) {
	testUnion(t, advisorToolResultContentUnion.Decode, []unionCase[AdvisorToolResultContent]{
		{"advisor_result", AdvisorResult{Text: "t", StopReason: StopReasonMaxTokens}},
		{"advisor_result", AdvisorResult{Text: "t"}},
		{"advisor_redacted_result", AdvisorRedactedResult{EncryptedContent: "e", StopReason: StopReasonEndTurn, Extra: future}},
		{"advisor_tool_result_error", AdvisorToolResultError{ErrorCode: ToolErrorCodePromptTooLong}},
	})
}

func TestIterationUsageUnion(t *testing.T) {
	cc := &CacheCreation{Ephemeral5mInputTokens: 1, Ephemeral1hInputTokens: 2}
	testUnion(t, iterationUsageUnion.Decode, []unionCase[IterationUsage]{
		{"message", MessageIterationUsage{InputTokens: 1, OutputTokens: 2, CacheCreation: cc, Model: "m"}},
		{"message", MessageIterationUsage{InputTokens: 1}},
		{"compaction", CompactionIterationUsage{InputTokens: 3, CacheCreation: cc, Extra: future}},
		{"advisor_message", AdvisorMessageIterationUsage{OutputTokens: 4, Model: "adv"}},
		{"fallback_message", FallbackMessageIterationUsage{CacheReadInputTokens: 5, Model: "fb"}},
	})
}

func TestFallbackCreditStatusUnion(t *testing.T) {
	testUnion(t, fallbackCreditStatusUnion.Decode, []unionCase[FallbackCreditStatus]{
		{"redeemed", FallbackCreditRedeemed{}},
		{"not_applied", FallbackCreditNotApplied{Reason: "expired", RemoveToRedeem: []string{"tools"}, Extra: future}},
		{"not_applied", FallbackCreditNotApplied{Reason: "body_mismatch"}},
	})
}

func TestAppliedEditUnion(t *testing.T) {
	testUnion(t, appliedEditUnion.Decode, []unionCase[AppliedEdit]{
		{"clear_tool_uses_20250919", AppliedClearToolUses{ClearedInputTokens: 100, ClearedToolUses: 2}},
		{"clear_thinking_20251015", AppliedClearThinking{ClearedInputTokens: 50, ClearedThinkingTurns: 1, Extra: future}},
	})
}

func TestCacheMissUnion(t *testing.T) {
	testUnion(t, cacheMissUnion.Decode, []unionCase[CacheMiss]{
		{"model_changed", CacheMissModelChanged{CacheMissedInputTokens: 1}},
		{"system_changed", CacheMissSystemChanged{CacheMissedInputTokens: 2}},
		{"tools_changed", CacheMissToolsChanged{CacheMissedInputTokens: 3, Extra: future}},
		{"messages_changed", CacheMissMessagesChanged{CacheMissedInputTokens: 4}},
		{"previous_message_not_found", CacheMissPreviousMessageNotFound{}},
		{"unavailable", CacheMissUnavailable{}},
	})
}

// TestRequestFormDropsExtra: every block fixture, sent in a MessageParam,
// loses its unknown members and response-only fields, and keeps the rest.
func TestRequestFormDropsExtra(t *testing.T) {
	for _, c := range contentBlockCases() {
		t.Run(c.typ, func(t *testing.T) {
			enc, err := json.Marshal(MessageParam{Role: RoleAssistant, Content: ContentBlocks{c.v}})
			require.NoError(t, err)
			for _, bad := range []string{"x_future", "file_1", "file_2"} {
				if bytes.Contains(enc, []byte(bad)) {
					t.Errorf("request form carries %q: %s", bad, enc)
				}
			}
			var back MessageParam
			if err := json.Unmarshal(enc, &back); err != nil {
				t.Fatal(err)
			}
			if len(back.Content) != 1 {
				t.Fatalf("content = %v", back.Content)
			}
			if diff := cmp.Diff(requestFormOf(c.v), back.Content[0]); diff != "" {
				t.Errorf("request form round trip (-want +got):\n%s", diff)
			}
		})
	}
}

func TestToolSearchErrorMessageIsResponseOnly(t *testing.T) {
	b := ToolSearchToolResultBlock{ToolUseID: "srvtoolu_1", Content: ToolSearchToolResultError{ErrorCode: ToolErrorCodeUnavailable, ErrorMessage: Ptr("down")}}
	resp, _ := json.Marshal(b)
	if !bytes.Contains(resp, []byte(`"error_message":"down"`)) {
		t.Errorf("response form lost error_message: %s", resp)
	}
	req, _ := json.Marshal(UserMessage(b))
	if bytes.Contains(req, []byte("error_message")) {
		t.Errorf("request form carries error_message: %s", req)
	}
	// An explicit null (remembered in Extra) is dropped as well.
	var decoded ToolSearchToolResultBlock
	if err := json.Unmarshal([]byte(`{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"tool_search_tool_result_error","error_code":"unavailable","error_message":null}}`), &decoded); err != nil {
		t.Fatal(err)
	}
	req, _ = json.Marshal(UserMessage(decoded))
	if bytes.Contains(req, []byte("error_message")) {
		t.Errorf("request form carries a null error_message: %s", req)
	}
}

// TestNullMemory: explicit nulls of optional members re-encode as null,
// absent ones stay absent, and a value set later wins.
func TestNullMemory(t *testing.T) {
	cases := []struct{ name, in string }{
		{"text citations null", `{"type":"text","text":"a","citations":null}`},
		{"text citations absent", `{"type":"text","text":"a"}`},
		{"text citations empty", `{"type":"text","text":"a","citations":[]}`},
		{"compaction nulls", `{"type":"compaction","content":null,"encrypted_content":null}`},
		{"document title null", `{"type":"document","source":{"type":"text","media_type":"text/plain","data":"x"},"title":null,"citations":null}`},
		{"citation file_id null", `{"type":"text","text":"a","citations":[{"type":"char_location","cited_text":"a","document_index":0,"document_title":null,"start_char_index":0,"end_char_index":1,"file_id":null}]}`},
		{"tool_result content null", `{"type":"tool_result","tool_use_id":"t","content":null}`},
		{"tool_result string", `{"type":"tool_result","tool_use_id":"t","content":"42"}`},
		{"tool_result empty string", `{"type":"tool_result","tool_use_id":"t","content":""}`},
		{"mcp string", `{"type":"mcp_tool_result","tool_use_id":"t","content":"x","is_error":false}`},
		{"source null", `{"type":"image","source":null}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := contentBlockUnion.Decode([]byte(c.in))
			require.NoError(t, err)
			out, err := json.Marshal(b)
			require.NoError(t, err)
			requireJSONEqual(t, []byte(c.in), out)
		})
	}
	t.Run("set value wins", func(t *testing.T) {
		b, _ := contentBlockUnion.Decode([]byte(`{"type":"text","text":"a","citations":null}`))
		tb := b.(TextBlock)
		tb.Citations = Citations{}
		out, _ := json.Marshal(tb)
		requireJSONEqual(t, []byte(`{"type":"text","text":"a","citations":[]}`), out)
	})
}

func TestMessageParamStringContent(t *testing.T) {
	for _, in := range []string{
		`{"role":"user","content":"hi"}`,
		`{"role":"user","content":""}`,
		`{"role":"assistant","content":[{"type":"text","text":"hi"}]}`,
		`{"role":"user","content":[]}`,
	} {
		var p MessageParam
		if err := json.Unmarshal([]byte(in), &p); err != nil {
			t.Fatal(err)
		}
		out, err := json.Marshal(p)
		require.NoError(t, err)
		if string(out) != in {
			t.Errorf("round trip of %s gave %s", in, out)
		}
	}
	var p MessageParam
	_ = json.Unmarshal([]byte(`{"role":"user","content":"hi"}`), &p)
	if diff := cmp.Diff(MessageParam{Role: RoleUser, Content: ContentBlocks{TextBlock{Text: "hi"}}, StringContent: true}, p); diff != "" {
		t.Errorf("decoded string content (-want +got):\n%s", diff)
	}
	// The shorthand only applies to a single plain text block.
	p.Content = append(p.Content, TextBlock{Text: "more"})
	out, _ := json.Marshal(p)
	if want := `{"role":"user","content":[{"type":"text","text":"hi"},{"type":"text","text":"more"}]}`; string(out) != want {
		t.Errorf("got %s, want %s", out, want)
	}
}

// TestReplyGoesBackUnchanged: Message.Content is ContentBlocks, assignable to
// MessageParam.Content, and the request form of a reply keeps signatures,
// tool inputs (key order), callers, citations and server tool results.
func TestReplyGoesBackUnchanged(t *testing.T) {
	reply := []byte(`{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[` +
		`{"type":"thinking","thinking":"t","signature":"SIG/+=="},` +
		`{"type":"text","text":"see","citations":[{"type":"page_location","cited_text":"c","document_index":0,"document_title":null,"start_page_number":1,"end_page_number":2,"file_id":"file_9"}]},` +
		`{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"q"},"caller":{"type":"direct"}},` +
		`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","url":"u","title":"t","page_age":null,"encrypted_content":"E"}],"caller":{"type":"direct"}},` +
		`{"type":"tool_use","id":"toolu_1","name":"f","input":{"z":1,"a":2},"caller":{"type":"code_execution_20250825","tool_id":"srvtoolu_2"}}` +
		`],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1,"cache_creation_input_tokens":null,"cache_read_input_tokens":null,"service_tier":null}}`)
	msg, err := codec.Decode[Message](reply)
	require.NoError(t, err)
	back, _ := json.Marshal(msg)
	requireJSONEqual(t, reply, back)

	var blocks []ContentBlock = msg.Content // assignable both ways
	p := MessageParam{Role: RoleAssistant, Content: blocks}
	enc, err := json.Marshal(p)
	require.NoError(t, err)
	want := `{"role":"assistant","content":[` +
		`{"type":"thinking","thinking":"t","signature":"SIG/+=="},` +
		`{"type":"text","text":"see","citations":[{"type":"page_location","cited_text":"c","document_index":0,"document_title":null,"start_page_number":1,"end_page_number":2}]},` +
		`{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"q"},"caller":{"type":"direct"}},` +
		`{"type":"web_search_tool_result","tool_use_id":"srvtoolu_1","content":[{"type":"web_search_result","encrypted_content":"E","page_age":null,"title":"t","url":"u"}],"caller":{"type":"direct"}},` +
		`{"type":"tool_use","id":"toolu_1","name":"f","input":{"z":1,"a":2},"caller":{"type":"code_execution_20250825","tool_id":"srvtoolu_2"}}]}`
	if string(enc) != want {
		t.Errorf("request form\n got %s\nwant %s", enc, want)
	}
	if err := p.validate("messages[1]"); err != nil {
		t.Error(err)
	}
	if got := msg.ToolUses(); len(got) != 1 || got[0].ID != "toolu_1" {
		t.Errorf("ToolUses = %v", got)
	}
	if got := msg.Text(); got != "see" {
		t.Errorf("Text = %q", got)
	}
	if diff := cmp.Diff(p, msg.ToParam()); diff != "" {
		t.Errorf("ToParam (-want +got):\n%s", diff)
	}
	var in struct{ Z, A int }
	if err := msg.ToolUses()[0].UnmarshalInput(&in); err != nil || in.Z != 1 || in.A != 2 {
		t.Errorf("UnmarshalInput = %+v, %v", in, err)
	}
}

// TestWrongNestedTypeIsUnknown: a single-type position holding another type
// makes the nearest union Unknown instead of re-typing the value.
func TestWrongNestedTypeIsUnknown(t *testing.T) {
	cases := []struct {
		in   string
		want string
	}{
		{`{"type":"web_search_tool_result","tool_use_id":"s","content":[{"type":"web_search_result_v2","url":"u"}]}`, "UnknownWebSearchToolResultContent"},
		{`{"type":"code_execution_tool_result","tool_use_id":"s","content":{"type":"code_execution_result","stdout":"","stderr":"","return_code":0,"content":[{"type":"other_output","file_id":"f"}]}}`, "UnknownCodeExecutionToolResultContent"},
		{`{"type":"web_fetch_tool_result","tool_use_id":"s","content":{"type":"web_fetch_result","url":"u","content":{"type":"video","x":1}}}`, "UnknownWebFetchToolResultContent"},
		{`{"type":"tool_search_tool_result","tool_use_id":"s","content":{"type":"tool_search_tool_search_result","tool_references":[{"type":"tool_ref_v2"}]}}`, "UnknownToolSearchToolResultContent"},
	}
	for _, c := range cases {
		b, err := contentBlockUnion.Decode([]byte(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		content := reflect.ValueOf(b).FieldByName("Content").Elem()
		if name := content.Type().Name(); name != c.want {
			t.Errorf("content decoded to %s, want %s", name, c.want)
		}
		out, _ := json.Marshal(b)
		requireJSONEqual(t, []byte(c.in), out)
	}
}

func TestHelpers(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n0000")
	img := ImageFromBytes("", png)
	if src := img.Source.(Base64ImageSource); src.MediaType != ImageMediaTypePNG || src.Data != "iVBORw0KGgowMDAw" {
		t.Errorf("ImageFromBytes = %+v", src)
	}
	doc := PDFFromBytes([]byte("%PDF-1.4"))
	if src := doc.Source.(Base64PDFSource); src.MediaType != MediaTypePDF || src.Data != "JVBERi0xLjQ=" {
		t.Errorf("PDFFromBytes = %+v", src)
	}
	enc, _ := json.Marshal(UserMessage(ToolResult("toolu_1", "42", false), ToolResult("toolu_2", "", true)))
	want := `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"42"},{"type":"tool_result","tool_use_id":"toolu_2","is_error":true}]}`
	if string(enc) != want {
		t.Errorf("got %s\nwant %s", enc, want)
	}
	enc, _ = json.Marshal([]MessageParam{UserText("hi"), AssistantText("yo")})
	if want := `[{"role":"user","content":[{"type":"text","text":"hi"}]},{"role":"assistant","content":[{"type":"text","text":"yo"}]}]`; string(enc) != want {
		t.Errorf("got %s", enc)
	}
}

// TestStopReasonNull: the enums whose null is "" write null.
func TestStopReasonNull(t *testing.T) {
	in := `{"type":"message","id":"m","role":"assistant","model":"x","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":null,"cache_read_input_tokens":null,"service_tier":null}}`
	m, err := codec.Decode[Message]([]byte(in))
	require.NoError(t, err)
	if m.StopReason != "" || m.Usage.ServiceTier != "" {
		t.Errorf("null enums decoded to %q, %q", m.StopReason, m.Usage.ServiceTier)
	}
	out, _ := json.Marshal(m)
	requireJSONEqual(t, []byte(in), out)
}

// TestUnionTables decodes a bare {"type":…} with every entry of every union
// decode table, and an unknown type with the union's decoder: variant's and
// unknownAs' assertions would panic on a wrongly listed type.
func TestUnionTables(t *testing.T) {
	tables := map[string]func(t *testing.T){
		"callers":          unionTest(callerUnion.Types(), callerUnion.Decode),
		"citations":        unionTest(citationUnion.Types(), citationUnion.Decode),
		"content blocks":   unionTest(contentBlockUnion.Types(), contentBlockUnion.Decode),
		"tool change refs": unionTest(toolChangeRefUnion.Types(), toolChangeRefUnion.Decode),
		"web search":       unionTest(webSearchToolResultContentUnion.Types(), webSearchToolResultContentUnion.Decode),
		"web fetch":        unionTest(webFetchToolResultContentUnion.Types(), webFetchToolResultContentUnion.Decode),
		"code execution":   unionTest(codeExecutionToolResultContentUnion.Types(), codeExecutionToolResultContentUnion.Decode),
		"bash":             unionTest(bashCodeExecutionToolResultContentUnion.Types(), bashCodeExecutionToolResultContentUnion.Decode),
		"text editor":      unionTest(textEditorCodeExecutionToolResultContentUnion.Types(), textEditorCodeExecutionToolResultContentUnion.Decode),
		"tool search":      unionTest(toolSearchToolResultContentUnion.Types(), toolSearchToolResultContentUnion.Decode),
		"advisor":          unionTest(advisorToolResultContentUnion.Types(), advisorToolResultContentUnion.Decode),
		"image sources":    unionTest(imageSourceUnion.Types(), imageSourceUnion.Decode),
		"document sources": unionTest(documentSourceUnion.Types(), documentSourceUnion.Decode),
		"browser state":    unionTest(browserStateChangeUnion.Types(), browserStateChangeUnion.Decode),
		"iteration usage":  unionTest(iterationUsageUnion.Types(), iterationUsageUnion.Decode),
		"fallback credit":  unionTest(fallbackCreditStatusUnion.Types(), fallbackCreditStatusUnion.Decode),
		"applied edits":    unionTest(appliedEditUnion.Types(), appliedEditUnion.Decode),
		"cache misses":     unionTest(cacheMissUnion.Types(), cacheMissUnion.Decode),
	}
	for name, run := range tables {
		t.Run(name, run)
	}
}

func unionTest[U any](table map[string]reflect.Type, decode func([]byte) (U, error)) func(t *testing.T) {
	return func(t *testing.T) {
		for typ, vt := range table {
			v, err := decode([]byte(`{"type":"` + typ + `"}`))
			if err == nil && (any(v) == nil || reflect.TypeOf(v) != vt) {
				t.Errorf("%s: decoded to %T, want %v", typ, v, vt)
			}
		}
		v, err := decode([]byte(`{"type":"x_future"}`))
		if err != nil || any(v) == nil {
			t.Errorf("unknown type: got %#v, %v", v, err)
		}
	}
}
