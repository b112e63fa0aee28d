package mms

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/testutil"
)

// largeRequest is a Create request carrying an 8 MiB base64 PDF.
func largeRequest() *MessageCreateParams {
	return &MessageCreateParams{Model: "m", MaxTokens: 1024, Messages: []MessageParam{largeDocumentParam()}}
}

// BenchmarkEncodeRequest8MiBDocument encodes a whole Create body the way
// the client does. Bytes allocated per op, divided by the 8 MiB payload, is
// the figure BENCHMARKS.md reports.
func BenchmarkEncodeRequest8MiBDocument(b *testing.B) {
	p := largeRequest()
	b.SetBytes(largePayload)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := encodeRequestBody(p); err != nil {
			b.Fatal(err)
		}
	}
}

// encodeRequestBody is the Create path.
func encodeRequestBody(p *MessageCreateParams) ([]byte, error) { return encodeMessageBody(p, "") }

func TestEncodeMessageBodyLargePayloads(t *testing.T) {
	big := strings.Repeat("QUJD", largePayload/4)
	text := strings.Repeat("line \"quoted\"\n", 10000)
	p := &MessageCreateParams{Model: "m", MaxTokens: 5, Messages: []MessageParam{
		UserMessage(PDFFromBase64(big), TextBlock{Text: "Summarize."}),
		AssistantText("ok"),
		UserMessage(ToolResultBlocks("toolu_1", false, TextDocument(text), ImageFromBase64(ImageMediaTypePNG, big)), TextBlock{Text: text}),
	}}
	before, _ := codec.Marshal(p)
	got, err := encodeMessageBody(p, `"stream":true`)
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	json.Unmarshal(before, &want)
	want["stream"] = true
	var gotAny any
	if err := json.Unmarshal(got, &gotAny); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(any(want), gotAny); d != "" {
		t.Errorf("spliced body differs (-want +got):\n%.2000s", d)
	}
	if after, _ := codec.Marshal(p); string(after) != string(before) {
		t.Error("the caller's params were modified")
	}
	large := largeRequest()
	n := testutil.Allocated(func() { encodeMessageBody(large, "") })
	if ratio := float64(n) / largePayload; ratio > 1.5 {
		t.Errorf("encoding an 8 MiB document allocates %.2f× the payload, want ≤ 1.5×", ratio)
	}
}
