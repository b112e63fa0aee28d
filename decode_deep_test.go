package mms

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// deepMessageJSON returns a reply of about size bytes whose JSON nests
// exactly depth levels (objects and arrays, the message itself included).
// kind "tool_result" and "mcp_tool_result" chain blocks of that type, each
// holding the next in its content, with the payload (small text blocks) in
// the innermost one; "tool_use" nests the input of one tool_use block, with
// the payload spread over its levels.
func deepMessageJSON(kind string, depth, size int) []byte {
	var b strings.Builder
	b.WriteString(`{"id":"msg_deep","type":"message","role":"assistant","model":"m","content":[`)
	switch kind {
	case "tool_use":
		levels := depth - 4 // message, content, block, input
		pad := strings.Repeat("p", max(size/(levels+1), 1))
		b.WriteString(`{"type":"tool_use","id":"toolu_1","name":"get","input":{"pad":"` + pad + `"`)
		for range levels {
			b.WriteString(`,"k":{"pad":"` + pad + `"`)
		}
		b.WriteString(strings.Repeat("}", levels) + `}}`)
	default:
		// Message and content are 2 levels, each chained block 2 more
		// (itself and its content), the leaf 2 (image and source) or 1.
		levels := (depth - 3) / 2
		for range levels {
			b.WriteString(`{"type":"` + kind + `","tool_use_id":"toolu_1","content":[`)
		}
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, `{"type":"text","text":"line %d of the tool's long answer"},`, i)
		}
		if depth%2 == 0 {
			b.WriteString(`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}`)
		} else {
			b.WriteString(`{"type":"text","text":"leaf"}`)
		}
		b.WriteString(strings.Repeat("]}", levels))
	}
	b.WriteString(`],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":2}}`)
	return []byte(b.String())
}

// chainDepth follows a deep message down and returns the JSON depth it
// reached, checking the leaf.
func chainDepth(t *testing.T, kind string, m *Message) int {
	t.Helper()
	if len(m.Content) != 1 {
		t.Fatalf("%d top-level blocks, want 1", len(m.Content))
	}
	depth := 2
	if kind == "tool_use" {
		in := m.Content[0].(ToolUseBlock).Input
		depth += 2 + strings.Count(string(in), `"k":{`)
		if !strings.HasSuffix(string(in), strings.Repeat("}", depth-4)+"}") {
			t.Errorf("the input is cut: …%s", in[max(len(in)-20, 0):])
		}
		return depth
	}
	blocks := m.Content
	for {
		var next ContentBlocks
		switch b := blocks[len(blocks)-1].(type) {
		case ToolResultBlock:
			next = b.Content
		case MCPToolResultBlock:
			next = b.Content
		case ImageBlock:
			if _, ok := b.Source.(Base64ImageSource); !ok {
				t.Errorf("the leaf's source is %T", b.Source)
			}
			return depth + 2
		case TextBlock:
			if b.Text != "leaf" {
				t.Errorf("the leaf says %q", b.Text)
			}
			return depth + 1
		default:
			t.Fatalf("level %d: unexpected %T", depth, b)
		}
		if len(next) < 1 {
			t.Fatalf("level %d: no content", depth)
		}
		blocks, depth = next, depth+2
	}
}

// TestDeepMessage: a reply nested up to the 10,000-level limit decodes,
// through the codec and through Messages.Create; one level more is a depth
// error naming the limit, not "not valid JSON".
func TestDeepMessage(t *testing.T) {
	const size = 64 << 10
	for _, kind := range []string{"tool_result", "mcp_tool_result", "tool_use"} {
		for _, depth := range []int{100, 1001, codec.MaxDepth, codec.MaxDepth + 1} {
			t.Run(fmt.Sprintf("%s/%d", kind, depth), func(t *testing.T) {
				body := deepMessageJSON(kind, depth, size)
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					io.Copy(io.Discard, r.Body)
					w.Header().Set("Content-Type", "application/json")
					w.Write(body)
				}))
				defer srv.Close()
				c, err := NewClient(option.WithAPIKey("k"), option.WithBaseURL(srv.URL), option.WithMaxRetries(0))
				require.NoError(t, err)
				msg, err := c.Messages.Create(context.Background(), MessageCreateParams{
					Model: "m", MaxTokens: 1, Messages: []MessageParam{UserText("hi")},
				})
				if depth > codec.MaxDepth {
					if !errors.Is(err, codec.ErrTooDeep) || !strings.Contains(err.Error(), "10000") || strings.Contains(err.Error(), "not valid JSON") {
						t.Fatalf("Create: %v; want a depth error naming the limit", err)
					}
					return
				}
				if err != nil {
					t.Fatalf("Create: %v", err)
				}
				if got := chainDepth(t, kind, msg); got != depth {
					t.Errorf("Create: reached depth %d, want %d", got, depth)
				}
				direct, err := codec.Decode[Message](body)
				if err != nil {
					t.Fatalf("codec.Decode: %v", err)
				}
				if got := chainDepth(t, kind, &direct); got != depth {
					t.Errorf("codec.Decode: reached depth %d, want %d", got, depth)
				}
			})
		}
	}
}

// BenchmarkDecodeDeep5MB decodes a 5 MB reply whose tool_result blocks nest
// the JSON 100, 1,000 and 10,000 levels deep: the time must depend on the
// size, not the depth. "client" adds the validation pass of the client's
// response decoding.
func BenchmarkDecodeDeep5MB(b *testing.B) {
	for _, path := range []string{"codec", "client"} {
		for _, depth := range []int{100, 1000, codec.MaxDepth} {
			b.Run(fmt.Sprintf("%s/depth=%d", path, depth), func(b *testing.B) {
				data := deepMessageJSON("tool_result", depth, 5<<20)
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					var m Message
					var err error
					if path == "codec" {
						err = m.UnmarshalJSON(data)
					} else {
						err = decodeInto(data, &m)
					}
					require.NoError(b, err)
				}
			})
		}
	}
}
