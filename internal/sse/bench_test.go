package sse

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// syntheticStream returns a Messages stream of n events shaped like the
// recorded ones.
func syntheticStream(n int) []byte {
	var b bytes.Buffer
	b.WriteString("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"example-model\",\"id\":\"msg_0123456789abcdef\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":17,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,\"output_tokens\":1,\"service_tier\":\"standard\"}}}\n\n")
	b.WriteString("event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n")
	b.WriteString("event: ping\ndata: {\"type\": \"ping\"}\n\n")
	for i := range n - 6 {
		fmt.Fprintf(&b, "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"%s %d\"}}\n\n",
			strings.Repeat("word ", i%16), i)
	}
	b.WriteString("event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n")
	b.WriteString("event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":5000}}\n\n")
	b.WriteString("event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	return b.Bytes()
}

func BenchmarkDecoder(b *testing.B) {
	const events = 5000
	stream := syntheticStream(events)
	r := bytes.NewReader(stream)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		r.Reset(stream)
		d := NewDecoder(r)
		n := 0
		for {
			_, err := d.Next()
			if err == io.EOF {
				break
			}
			require.NoError(b, err)
			n++
		}
		if n != events {
			b.Fatalf("decoded %d events, want %d", n, events)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*events), "ns/event")
}
