package mms

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/testutil"

	"github.com/stretchr/testify/require"
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
	require.NoError(t, err)
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

// The W3 shape of the side-by-side harness (../shared/bench): a 2.7 MB
// Create body of 200 turns with thinking, tool_use and tool_result blocks, a
// system prompt, 10 tools with JSON schemas and one 2 MB base64 image. The
// floor is encoding/json on plain structs of the same shape, tool inputs as
// json.RawMessage and schemas as maps, as the harness's floor-stdlib has
// them.

type w3Request struct {
	Model     string      `json:"model"`
	MaxTokens int         `json:"max_tokens"`
	System    []w3Block   `json:"system,omitempty"`
	Messages  []w3Message `json:"messages"`
	Tools     []struct {
		Name        string         `json:"name"`
		Description string         `json:"description,omitempty"`
		InputSchema map[string]any `json:"input_schema"`
	} `json:"tools,omitempty"`
	ToolChoice *struct {
		Type string `json:"type"`
	} `json:"tool_choice,omitempty"`
}

type w3Message struct {
	Role    string    `json:"role"`
	Content []w3Block `json:"content"`
}

type w3Block struct {
	Type   string `json:"type"`
	Text   string `json:"text,omitempty"`
	Source *struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	} `json:"source,omitempty"`
	Thinking     string          `json:"thinking,omitempty"`
	Signature    string          `json:"signature,omitempty"`
	ID           string          `json:"id,omitempty"`
	Name         string          `json:"name,omitempty"`
	Input        json.RawMessage `json:"input,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	Content      []w3Block       `json:"content,omitempty"`
	IsError      *bool           `json:"is_error,omitempty"`
	CacheControl *struct {
		Type string `json:"type"`
	} `json:"cache_control,omitempty"`
}

// w3Body generates the request's JSON deterministically.
func w3Body() []byte {
	r := rand.New(rand.NewPCG(3, 3))
	words := strings.Fields(`the a of to and in is that for it as with request response stream token model
		decoder encoder buffer gradient kernel Zürich café naïve 東京 서울 Москва “quoted” — … € 🙂 ≤ π`)
	punct := []string{".", ",", ` "quoted"`, " <tag>", " a&b", " \\path", ".\n\n", "\t"}
	text := func(n int) string {
		var b strings.Builder
		for b.Len() < n {
			b.WriteString(words[r.IntN(len(words))])
			if r.IntN(10) == 0 {
				b.WriteString(punct[r.IntN(len(punct))])
			}
			b.WriteByte(' ')
		}
		return b.String()
	}
	alnum := func(n int) string {
		const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
		b := make([]byte, n)
		for i := range b {
			b[i] = chars[r.IntN(len(chars))]
		}
		return string(b)
	}
	var value func(depth int) any
	value = func(depth int) any {
		switch x := r.IntN(100); {
		case x < 25 && depth > 0:
			m := map[string]any{}
			for i, n := 0, 3+r.IntN(5); i < n; i++ {
				m[fmt.Sprintf("%s_%d", words[r.IntN(len(words))], i)] = value(depth - 1)
			}
			return m
		case x < 40 && depth > 0:
			return []any{value(depth - 1), value(depth - 1), value(depth - 1)}
		case x < 70:
			return text(4 + r.IntN(50))
		case x < 85:
			return r.IntN(200000) - 100000
		default:
			return r.IntN(2) == 0
		}
	}
	raw := func(v any) json.RawMessage { b, _ := json.Marshal(v); return b }
	req := w3Request{Model: "claude-sonnet-4-5-20250929", MaxTokens: 8192,
		System: []w3Block{{Type: "text", Text: text(6000)}, {Type: "text", Text: text(2000)}}}
	req.Tools = make([]struct {
		Name        string         `json:"name"`
		Description string         `json:"description,omitempty"`
		InputSchema map[string]any `json:"input_schema"`
	}, 10)
	for i := range req.Tools {
		props := map[string]any{}
		for j := 0; j < 5; j++ {
			props[fmt.Sprintf("p%d", j)] = map[string]any{"type": "string", "description": text(40),
				"items": map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "integer"}}}}
		}
		req.Tools[i].Name = fmt.Sprintf("tool_%d", i)
		req.Tools[i].Description = text(400)
		req.Tools[i].InputSchema = map[string]any{"type": "object", "properties": props, "required": []string{"p0", "p1"}}
	}
	var pending []string
	for turn := 0; turn < 200; turn++ {
		m := w3Message{Role: "user"}
		if turn%2 == 0 {
			for _, id := range pending {
				isErr := r.IntN(10) == 0
				m.Content = append(m.Content, w3Block{Type: "tool_result", ToolUseID: id, IsError: &isErr,
					Content: []w3Block{{Type: "text", Text: text(200 + r.IntN(1300))}}})
			}
			pending = nil
			if turn == 0 {
				m.Content = append(m.Content, w3Block{Type: "image", Source: &struct {
					Type      string `json:"type"`
					MediaType string `json:"media_type"`
					Data      string `json:"data"`
				}{"base64", "image/png", alnum(2 << 20)}})
			}
			m.Content = append(m.Content, w3Block{Type: "text", Text: text(50 + r.IntN(750))})
		} else {
			m.Role = "assistant"
			if r.IntN(10) < 4 {
				m.Content = append(m.Content, w3Block{Type: "thinking", Thinking: text(200 + r.IntN(800)), Signature: alnum(400)})
			}
			m.Content = append(m.Content, w3Block{Type: "text", Text: text(100 + r.IntN(1100))})
			if turn < 199 {
				id := "toolu_" + alnum(24)
				m.Content = append(m.Content, w3Block{Type: "tool_use", ID: id, Name: "tool_1", Input: raw(value(3))})
				pending = append(pending, id)
			}
		}
		req.Messages = append(req.Messages, m)
	}
	return raw(req)
}

// BenchmarkEncodeRequestW3 compares MarshalJSON on the W3 request with the
// encoding/json floor.
func BenchmarkEncodeRequestW3(b *testing.B) {
	body := w3Body()
	var floor w3Request
	p := new(MessageCreateParams)
	if err := json.Unmarshal(body, &floor); err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(body, p); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		encode func() ([]byte, error)
	}{
		{"floor-stdlib", func() ([]byte, error) { return json.Marshal(&floor) }},
		{"MarshalJSON", p.MarshalJSON},
		{"json.Marshal", func() ([]byte, error) { return json.Marshal(p) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.encode(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEncodeRequestSmallBlocks encodes 400 turns of short blocks: the
// encoder's cost per value, with almost no string bytes to copy.
func BenchmarkEncodeRequestSmallBlocks(b *testing.B) {
	p := &MessageCreateParams{Model: "m", MaxTokens: 5}
	for i := range 200 {
		p.Messages = append(p.Messages,
			UserMessage(TextBlock{Text: fmt.Sprint("hello ", i)}, ToolResultBlocks("toolu_1", false, TextBlock{Text: "r"})),
			AssistantText("ok"))
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEncodeRequestAllocs: the encoder allocates per document, not per
// value (a message's block content used to be boxed once per message: 300
// allocations here). The bound leaves room for a pooled buffer dropped and
// regrown, as the race detector's sync.Pool does at random.
func TestEncodeRequestAllocs(t *testing.T) {
	p := &MessageCreateParams{Model: "m", MaxTokens: 5}
	for range 100 {
		p.Messages = append(p.Messages,
			UserMessage(TextBlock{Text: "hello"}, ToolResultBlocks("toolu_1", false, TextBlock{Text: "r"})),
			AssistantText("ok"), UserText("shorthand"))
	}
	p.MarshalJSON() // warm the encoders and the pool
	if n := testing.AllocsPerRun(20, func() { p.MarshalJSON() }); n > 20 {
		t.Errorf("MarshalJSON of %d messages allocates %.0f times, want at most 20", len(p.Messages), n)
	}
}
