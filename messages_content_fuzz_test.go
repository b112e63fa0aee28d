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

// fuzzDecoder checks a union decoder on arbitrary input: no panic, even on
// malformed JSON (the codec validates once where bytes enter the SDK, so a
// decoder reached directly must only be lenient, never panic). On valid
// JSON: an Unknown result re-encodes to exactly the input; a known result
// encodes, decodes again, and encodes to the same JSON (a fixed point).
func fuzzDecoder[T json.Marshaler](f *testing.F, decode func([]byte) (T, error), seeds ...string) {
	f.Helper()
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"type":"x_future","a":[1,{"b":null}]}`))
	f.Add([]byte(`{"type":null}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := decode(data)
		if err != nil || !json.Valid(data) {
			return
		}
		rv := reflect.ValueOf(v)
		if !rv.IsValid() {
			t.Fatalf("decoded %q to a nil union value without an error", data)
		}
		enc, err := v.MarshalJSON()
		if strings.HasPrefix(rv.Type().Name(), "Unknown") {
			if err != nil || !bytes.Equal(enc, data) {
				t.Fatalf("unknown variant re-encodes %q, %v; want the input %q", enc, err, data)
			}
			return
		}
		if err != nil {
			t.Fatalf("encode of decoded %q: %v", data, err)
		}
		enc1, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("json.Marshal of decoded %q: %v", data, err)
		}
		v2, err := decode(enc1)
		if err != nil {
			t.Fatalf("re-decode of %s: %v", enc1, err)
		}
		enc2, err := json.Marshal(v2)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		if diff := cmp.Diff(jsonAny(t, enc1), jsonAny(t, enc2)); diff != "" {
			t.Fatalf("not a fixed point:\n%s\n%s\n%s", enc1, enc2, diff)
		}
	})
}

func FuzzContentBlock(f *testing.F) {
	var seeds []string
	for _, c := range contentBlockCases() {
		b, _ := json.Marshal(c.v)
		seeds = append(seeds, string(b))
	}
	seeds = append(seeds,
		`{"type":"text","text":"a","citations":null}`,
		`{"type":"tool_result","tool_use_id":"t","content":"x"}`,
		`{"type":"web_search_tool_result","tool_use_id":"s","content":[{"type":"other"}]}`)
	fuzzDecoder(f, contentBlockUnion.Decode, seeds...)
}

func FuzzCitation(f *testing.F) {
	fuzzDecoder(f, citationUnion.Decode,
		`{"type":"char_location","cited_text":"c","document_index":0,"document_title":null,"start_char_index":0,"end_char_index":1,"file_id":null}`,
		`{"type":"page_location","cited_text":"c","document_index":0,"document_title":"t","start_page_number":1,"end_page_number":2}`,
		`{"type":"content_block_location","cited_text":"c","document_index":0,"document_title":null,"start_block_index":0,"end_block_index":1}`,
		`{"type":"web_search_result_location","cited_text":"c","encrypted_index":"e","title":null,"url":"u"}`,
		`{"type":"search_result_location","cited_text":"c","search_result_index":0,"source":"s","start_block_index":0,"end_block_index":1,"title":null}`)
}

func FuzzImageSource(f *testing.F) {
	fuzzDecoder(f, imageSourceUnion.Decode,
		`{"type":"base64","media_type":"image/png","data":"AA=="}`,
		`{"type":"url","url":"u"}`,
		`{"type":"file","file_id":"f"}`)
}

func FuzzDocumentSource(f *testing.F) {
	fuzzDecoder(f, documentSourceUnion.Decode,
		`{"type":"base64","media_type":"application/pdf","data":"AA=="}`,
		`{"type":"text","media_type":"text/plain","data":"x"}`,
		`{"type":"content","content":"x"}`,
		`{"type":"content","content":[{"type":"text","text":"a"},{"type":"image","source":{"type":"url","url":"u"}}]}`,
		`{"type":"url","url":"u"}`,
		`{"type":"file","file_id":"f"}`)
}

func FuzzCaller(f *testing.F) {
	fuzzDecoder(f, callerUnion.Decode,
		`{"type":"direct"}`,
		`{"type":"code_execution_20250825","tool_id":"srvtoolu_1"}`,
		`{"type":"code_execution_20260120","tool_id":"srvtoolu_1"}`)
}

func FuzzToolChangeRef(f *testing.F) {
	fuzzDecoder(f, toolChangeRefUnion.Decode,
		`{"type":"tool_reference","name":"n"}`,
		`{"type":"mcp_tool_reference","server_name":"s","name":"n"}`,
		`{"type":"mcp_toolset_reference","server_name":"s"}`)
}

func FuzzBrowserStateChange(f *testing.F) {
	fuzzDecoder(f, browserStateChangeUnion.Decode,
		`{"type":"tab_opened","tab_id":"1"}`,
		`{"type":"download_started","download_id":"d","url":"u"}`,
		`{"type":"download_completed","download_id":"d","url":"u","path":null,"size_bytes":3}`,
		`{"type":"download_failed","download_id":"d","url":"u","error":"x"}`)
}

func FuzzWebSearchToolResultContent(f *testing.F) {
	fuzzDecoder(f, webSearchToolResultContentUnion.Decode,
		`[{"type":"web_search_result","encrypted_content":"e","page_age":null,"title":"t","url":"u"}]`,
		`[{"type":"web_search_result_v2"}]`,
		`{"type":"web_search_tool_result_error","error_code":"unavailable"}`)
}

func FuzzWebFetchToolResultContent(f *testing.F) {
	fuzzDecoder(f, webFetchToolResultContentUnion.Decode,
		`{"type":"web_fetch_result","url":"u","retrieved_at":null,"content":{"type":"document","source":{"type":"text","media_type":"text/plain","data":"x"},"title":null,"citations":null}}`,
		`{"type":"web_fetch_tool_result_error","error_code":"url_not_accessible"}`)
}

func FuzzCodeExecutionToolResultContent(f *testing.F) {
	fuzzDecoder(f, codeExecutionToolResultContentUnion.Decode,
		`{"type":"code_execution_result","stdout":"","stderr":"","return_code":0,"content":[{"type":"code_execution_output","file_id":"f"}],"abort_reason":null}`,
		`{"type":"encrypted_code_execution_result","encrypted_stdout":"x","stderr":"","return_code":0,"content":[]}`,
		`{"type":"code_execution_tool_result_error","error_code":"unavailable"}`)
}

func FuzzBashCodeExecutionToolResultContent(f *testing.F) {
	fuzzDecoder(f, bashCodeExecutionToolResultContentUnion.Decode,
		`{"type":"bash_code_execution_result","stdout":"","stderr":"","return_code":0,"content":[{"type":"bash_code_execution_output","file_id":"f"}]}`,
		`{"type":"bash_code_execution_tool_result_error","error_code":"output_file_too_large"}`)
}

func FuzzTextEditorCodeExecutionToolResultContent(f *testing.F) {
	fuzzDecoder(f, textEditorCodeExecutionToolResultContentUnion.Decode,
		`{"type":"text_editor_code_execution_view_result","content":"x","file_type":"text","num_lines":null,"start_line":1,"total_lines":null}`,
		`{"type":"text_editor_code_execution_create_result","is_file_update":false}`,
		`{"type":"text_editor_code_execution_str_replace_result","lines":null,"new_lines":1,"new_start":null,"old_lines":null,"old_start":null}`,
		`{"type":"text_editor_code_execution_tool_result_error","error_code":"file_not_found","error_message":null}`)
}

func FuzzToolSearchToolResultContent(f *testing.F) {
	fuzzDecoder(f, toolSearchToolResultContentUnion.Decode,
		`{"type":"tool_search_tool_search_result","tool_references":[{"type":"tool_reference","tool_name":"a"}]}`,
		`{"type":"tool_search_tool_result_error","error_code":"unavailable","error_message":null}`)
}

func FuzzAdvisorToolResultContent(f *testing.F) {
	fuzzDecoder(f, advisorToolResultContentUnion.Decode,
		`{"type":"advisor_result","text":"t","stop_reason":"end_turn"}`,
		`{"type":"advisor_redacted_result","encrypted_content":"e","stop_reason":null}`,
		`{"type":"advisor_tool_result_error","error_code":"overloaded"}`)
}

func FuzzIterationUsage(f *testing.F) {
	fuzzDecoder(f, iterationUsageUnion.Decode,
		`{"type":"message","input_tokens":1,"output_tokens":2,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":null}`,
		`{"type":"advisor_message","input_tokens":1,"output_tokens":2,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"model":"m"}`)
}

func FuzzFallbackCreditStatus(f *testing.F) {
	fuzzDecoder(f, fallbackCreditStatusUnion.Decode,
		`{"type":"redeemed"}`,
		`{"type":"not_applied","reason":"expired","remove_to_redeem":null}`)
}

func FuzzAppliedEdit(f *testing.F) {
	fuzzDecoder(f, appliedEditUnion.Decode,
		`{"type":"clear_tool_uses_20250919","cleared_input_tokens":1,"cleared_tool_uses":2}`,
		`{"type":"clear_thinking_20251015","cleared_input_tokens":1,"cleared_thinking_turns":2}`)
}

func FuzzCacheMiss(f *testing.F) {
	fuzzDecoder(f, cacheMissUnion.Decode,
		`{"type":"model_changed","cache_missed_input_tokens":5}`,
		`{"type":"previous_message_not_found"}`)
}

// FuzzMessage decodes whole replies: no panic, and the encoding is a fixed
// point.
func FuzzMessage(f *testing.F) {
	fuzzDecoder(f, func(data []byte) (Message, error) { return codec.Decode[Message](data) },
		`{"id":"m","type":"message","role":"assistant","model":"x","content":[{"type":"text","text":"hi","citations":null}],"stop_reason":"end_turn","stop_sequence":null,"stop_details":null,"usage":{"input_tokens":1,"output_tokens":1,"cache_creation_input_tokens":null,"cache_read_input_tokens":null,"service_tier":"standard","iterations":[{"type":"compaction","input_tokens":1,"output_tokens":1,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":null}]},"container":null,"diagnostics":{"cache_miss_reason":{"type":"unavailable"}}}`,
		`{"id":"m","type":"message","role":"assistant","model":"x","content":[],"stop_reason":"refusal","stop_sequence":null,"stop_details":{"type":"refusal","category":null,"explanation":"x","fallback_credit_token":"t"},"usage":{"input_tokens":1,"output_tokens":1,"fallback_credit":{"status":{"type":"redeemed"}}},"context_management":{"applied_edits":[{"type":"clear_thinking_20251015","cleared_input_tokens":1,"cleared_thinking_turns":1}]}}`)
}

// FuzzMessageParam decodes request turns; the request encoding is a fixed
// point too.
func FuzzMessageParam(f *testing.F) {
	fuzzDecoder(f, func(data []byte) (MessageParam, error) {
		var p MessageParam
		err := json.Unmarshal(data, &p)
		return p, err
	},
		`{"role":"user","content":"hi"}`,
		`{"role":"assistant","content":[{"type":"text","text":"a","x":1},{"type":"tool_use","id":"t","name":"n","input":{"b":1,"a":2}}]}`,
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA"}}]}]}`)
}

// fuzzRecord fuzzes the JSON decoder of a record type T from seeds:
// see checkRecordRoundTrip.
func fuzzRecord[T any](f *testing.F, seeds ...[]byte) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(checkRecordRoundTrip[T])
}

// checkRecordRoundTrip requires whatever decodes as a T to encode, decode
// again and encode to the same JSON.
func checkRecordRoundTrip[T any](t *testing.T, data []byte) {
	var a T
	if !json.Valid(data) || json.Unmarshal(data, &a) != nil {
		return
	}
	enc, err := json.Marshal(a)
	if err != nil {
		t.Fatalf("encode of decoded %q: %v", data, err)
	}
	var b T
	if err := json.Unmarshal(enc, &b); err != nil {
		t.Fatalf("re-decode of %s: %v", enc, err)
	}
	enc2, err := json.Marshal(b)
	require.NoError(t, err)
	requireJSONEqual(t, enc, enc2)
}
