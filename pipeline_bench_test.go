package mms_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

// The pipeline benchmarks do what the side-by-side harness's W4 and W5 do
// (../shared/bench), against httptest, so the per-call and per-page costs can
// be profiled here: go test -run '^$' -bench Pipeline -cpuprofile cpu.out.

// benchMessage is a ~1.8 KB reply: a text block and a tool call, as W4's.
func benchMessage() string {
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 25)
	return `{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929",` +
		`"content":[{"type":"text","text":"` + text + `","citations":null},` +
		`{"type":"tool_use","id":"toolu_01A09q90qw90lq917835lq9","name":"get_weather",` +
		`"input":{"location":"San Francisco, CA","unit":"celsius","days":3,"include":["wind","humidity"]},"caller":{"type":"direct"}}],` +
		`"stop_reason":"tool_use","stop_sequence":null,"stop_details":null,"container":null,` +
		`"usage":{"input_tokens":412,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,` +
		`"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},` +
		`"output_tokens":318,"service_tier":"standard","inference_geo":"global"}}`
}

// benchModelPages returns 100 pages of 100 models, shaped as W5's.
func benchModelPages() [][]byte {
	lines := []string{"haiku", "sonnet", "opus"}
	pages := make([][]byte, 100)
	for p := range pages {
		var b strings.Builder
		b.WriteString(`{"data":[`)
		var first, last string
		for i := range 100 {
			n := p*100 + i
			line := lines[n%3]
			id := fmt.Sprintf("claude-%s-%d-%05d", line, 4+n%3, n)
			if i == 0 {
				first = id
			} else {
				b.WriteByte(',')
			}
			last = id
			fmt.Fprintf(&b, `{"type":"model","id":%q,"display_name":"Claude %s %d.%d build %d","created_at":"2026-%02d-%02dT%02d:00:00Z",`+
				`"lifecycle":"active","line":%q,"max_input_tokens":%d,"max_tokens":%d,"capabilities":{"batch":{"supported":true},`+
				`"citations":{"supported":true},"code_execution":{"supported":%t},"image_input":{"supported":true},`+
				`"pdf_input":{"supported":%t},"structured_outputs":{"supported":%t},"thinking":{"supported":true,`+
				`"types":{"adaptive":{"supported":%t},"enabled":{"supported":true}}}}}`,
				id, line, 4+n%3, n%10, n, 1+n%12, 1+n%28, n%24, line, 200000+1000*(n%5), 32000*(1+n%4),
				n%2 == 0, n%5 != 0, n%3 != 0, n%4 == 0)
		}
		fmt.Fprintf(&b, `],"has_more":%t,"first_id":%q,"last_id":%q}`, p < 99, first, last)
		pages[p] = []byte(b.String())
	}
	return pages
}

func benchClient(b *testing.B, h http.HandlerFunc) *mms.Client {
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	c, err := mms.NewClient(option.WithAPIKey("sk-bench"), option.WithBaseURL(srv.URL), option.WithHTTPClient(srv.Client()))
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkPipelineCreate is W4: one Messages.Create per op.
func BenchmarkPipelineCreate(b *testing.B) {
	msg := benchMessage()
	clen := strconv.Itoa(len(msg))
	c := benchClient(b, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", clen)
		w.Write([]byte(msg))
	})
	p := mms.MessageCreateParams{Model: "claude-sonnet-4-5", MaxTokens: 1024,
		Messages: []mms.MessageParam{mms.UserText("What is the weather in San Francisco?")}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Messages.Create(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPipelineList is W5: 10,000 models over 100 pages per op.
func BenchmarkPipelineList(b *testing.B) {
	pages := benchModelPages()
	next := map[string]int{"": 0}
	for i := range pages {
		next[fmt.Sprintf("claude-%s-%d-%05d", []string{"haiku", "sonnet", "opus"}[(i*100+99)%3], 4+(i*100+99)%3, i*100+99)] = i + 1
	}
	c := benchClient(b, func(w http.ResponseWriter, r *http.Request) {
		i, ok := next[r.URL.Query().Get("after_id")]
		if !ok || i >= len(pages) {
			http.Error(w, "unknown after_id", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(pages[i])))
		w.Write(pages[i])
	})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for _, err := range c.Models.List(ctx, mms.ModelListParams{}) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 10000 {
			b.Fatalf("listed %d models, want 10000", n)
		}
	}
}

// cannedTransport answers every request with the same body, without a
// network, so that BenchmarkPipelineOverhead measures only the SDK's side.
type cannedTransport struct{ body []byte }

func (t cannedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	h := http.Header{"Content-Type": {"application/json"}, "Request-Id": {"req_bench"}}
	return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(bytes.NewReader(t.body)),
		ContentLength: int64(len(t.body)), Request: r}, nil
}

// BenchmarkPipelineOverhead is W4 without the network: Create's own cost.
func BenchmarkPipelineOverhead(b *testing.B) {
	hc := &http.Client{Transport: cannedTransport{[]byte(benchMessage())}}
	c, err := mms.NewClient(option.WithAPIKey("sk-bench"), option.WithBaseURL("http://bench.invalid"), option.WithHTTPClient(hc))
	if err != nil {
		b.Fatal(err)
	}
	p := mms.MessageCreateParams{Model: "claude-sonnet-4-5", MaxTokens: 1024,
		Messages: []mms.MessageParam{mms.UserText("What is the weather in San Francisco?")}}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Messages.Create(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
}
