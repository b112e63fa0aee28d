package mms

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/testutil"

	"github.com/stretchr/testify/require"
)

// bigMessageJSON builds a ~1 MB reply mixing text with citations, thinking,
// tool use and web search results.
func bigMessageJSON() []byte {
	var sb strings.Builder
	sb.WriteString(`{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[`)
	for i := 0; sb.Len() < 1<<20; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"type":"thinking","thinking":"%s","signature":"%s"},`, strings.Repeat("think ", 200), strings.Repeat("c2ln", 100))
		fmt.Fprintf(&sb, `{"type":"server_tool_use","id":"srvtoolu_%d","name":"web_search","input":{"query":"q%d"}},`, i, i)
		fmt.Fprintf(&sb, `{"type":"web_search_tool_result","tool_use_id":"srvtoolu_%d","content":[`, i)
		for j := 0; j < 5; j++ {
			if j > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, `{"type":"web_search_result","url":"https://e.com/%d","title":"T","page_age":null,"encrypted_content":"%s"}`, j, strings.Repeat("ZW5j", 300))
		}
		sb.WriteString(`]},`)
		fmt.Fprintf(&sb, `{"type":"text","text":"%s","citations":[{"type":"web_search_result_location","cited_text":"x","encrypted_index":"e","title":null,"url":"https://e.com/1"}]},`, strings.Repeat("word ", 100))
		fmt.Fprintf(&sb, `{"type":"tool_use","id":"toolu_%d","name":"get","input":{"b":1,"a":[1,2,3]},"caller":{"type":"direct"}}`, i)
	}
	sb.WriteString(`],"stop_reason":"end_turn","stop_sequence":null,"stop_details":null,"usage":{"input_tokens":1,"output_tokens":2,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"service_tier":"standard"}}`)
	return []byte(sb.String())
}

func BenchmarkDecodeMessage1MB(b *testing.B) {
	data := bigMessageJSON()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := codec.Decode[Message](data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeRecordedWebSearch(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(recordedDir(b), "messages", "pydantic__pause_turn_web_search.json"))
	require.NoError(b, err)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := codec.Decode[Message](data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeMessage1MB(b *testing.B) {
	msg, err := codec.Decode[Message](bigMessageJSON())
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := codec.Marshal(msg); err != nil {
			b.Fatal(err)
		}
	}
}

const largePayload = 8 << 20 // 8 MiB of base64

func largeDocumentParam() MessageParam {
	return UserMessage(PDFFromBase64(strings.Repeat("QUJD", largePayload/4)), TextBlock{Text: "Summarize."})
}

// BenchmarkEncodeLargeDocument measures a user turn carrying an 8 MiB
// base64 PDF, encoded as the client does (codec.Marshal of the turn).
func BenchmarkEncodeLargeDocument(b *testing.B) {
	p := largeDocumentParam()
	b.SetBytes(largePayload)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := codec.Marshal(p); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLargeDocumentCopies pins the number of payload copies on the request
// path: MessageParam.MarshalJSON writes an 8 MiB base64 payload straight
// into its result (one copy), for a document block and for an image inside
// a tool_result alike.
func TestLargeDocumentCopies(t *testing.T) {
	screenshot := UserMessage(ToolResultBlocks("toolu_1", false, ImageFromBase64(ImageMediaTypePNG, strings.Repeat("QUJD", largePayload/4))))
	for name, p := range map[string]MessageParam{"document": largeDocumentParam(), "tool_result image": screenshot} {
		var out []byte
		n := testutil.Allocated(func() {
			var err error
			out, err = p.MarshalJSON()
			require.NoError(t, err)
		})
		if !json.Valid(out) || len(out) < largePayload {
			t.Fatalf("%s: bad JSON (%d bytes)", name, len(out))
		}
		copies := float64(n) / largePayload
		t.Logf("%s: MessageParam.MarshalJSON allocates %.2f payloads", name, copies)
		if copies > 1.2 {
			t.Errorf("%s: MessageParam.MarshalJSON allocates %.2f payloads; want 1", name, copies)
		}
		n = testutil.Allocated(func() {
			if _, err := codec.Marshal(p); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: codec.Marshal(MessageParam) allocates %.2f payloads", name, float64(n)/largePayload)
	}
}
