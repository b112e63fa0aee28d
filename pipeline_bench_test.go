package mms_test

import (
	"context"
	"fmt"
	"github.com/mms-sdk/mms-go/observe"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// The pipeline benchmarks do what the side-by-side harness's W4 and W5 do
// (../shared/bench), against httptest, so the per-call and per-page costs can
// be profiled here: go test -run '^$' -bench Pipeline -cpuprofile cpu.out.
// BenchmarkCreatePhases (pipeline_phases_bench_test.go) splits W4 without
// the network into its phases.

// benchMessage is a ~1.8 KB reply, a text block and a tool call, as W4's.
func benchMessage(b *testing.B) []byte {
	msg, err := os.ReadFile("testdata/bench/w4_message.json")
	require.NoError(b, err)
	return msg
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

func benchClient(b *testing.B, h http.HandlerFunc, cred ...option.RequestOption) *mms.Client {
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	if len(cred) == 0 {
		cred = []option.RequestOption{option.WithAPIKey("sk-bench")}
	}
	c, err := mms.NewClient(append(cred, option.WithBaseURL(srv.URL), option.WithHTTPClient(srv.Client()))...)
	require.NoError(b, err)
	return c
}

// BenchmarkPipelineCreate is W4: one Messages.Create per op, with an API
// key and with a cached token source (the bearer resolved per attempt).
func BenchmarkPipelineCreate(b *testing.B) {
	b.Run("key", func(b *testing.B) { benchCreate(b) })
	b.Run("token-source", func(b *testing.B) {
		src := option.TokenSourceFunc(func(context.Context) (*option.Token, error) {
			return &option.Token{AccessToken: option.NewSecret("tok-bench"), Expiry: time.Now().Add(time.Hour)}, nil
		})
		benchCreate(b, option.WithTokenSource(src))
	})
	// The hook's own cost: an observer that does nothing.
	b.Run("nop-observer", func(b *testing.B) { benchCreate(b, option.WithAPIKey("sk-bench"), option.WithObserver(nopObserver{})) })
}

// nopObserver observes nothing.
type nopObserver struct{}

func (nopObserver) Start(ctx context.Context, _ observe.Op) (context.Context, observe.Operation) {
	return ctx, observe.Nop{}
}

func benchCreate(b *testing.B, cred ...option.RequestOption) {
	msg := benchMessage(b)
	clen := strconv.Itoa(len(msg))
	c := benchClient(b, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", clen)
		w.Write(msg)
	}, cred...)
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
			require.NoError(b, err)
			n++
		}
		if n != 10000 {
			b.Fatalf("listed %d models, want 10000", n)
		}
	}
}
