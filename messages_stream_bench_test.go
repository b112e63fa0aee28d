package mms

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/sse"
)

// benchStreamEvents is the size of the synthetic stream.
const benchStreamEvents = 5000

// syntheticMessageStream returns a Messages stream of n events shaped like
// the recorded ones: message_start, a text block of n-6 text deltas (with a
// ping), message_delta, message_stop. It is the stream of
// internal/sse's BenchmarkDecoder.
func syntheticMessageStream(n int) []byte {
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

// accumulateStream is what a Stream caller does with the body: SSE decode,
// event decode, accumulate.
func accumulateStream(r io.Reader) (*Message, int, error) {
	dec := sse.NewDecoder(r)
	var acc MessageAccumulator
	n := 0
	for {
		sev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, n, err
		}
		ev, err := decodeMessageStreamEvent(sev.Type, sev.Data)
		if err != nil {
			return nil, n, err
		}
		if err := acc.Add(ev); err != nil {
			return nil, n, err
		}
		n++
	}
	return acc.Message(), n, nil
}

// reportPerEvent adds ns/event, events/s and allocs/event (from the heap's
// malloc count over the timed loop) for perOp events an iteration.
func reportPerEvent(b *testing.B, mallocs0 uint64, perOp int) {
	events := float64(b.N) * float64(perOp)
	b.ReportMetric(float64(mallocs()-mallocs0)/events, "allocs/event")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/events, "ns/event")
	b.ReportMetric(events/b.Elapsed().Seconds(), "events/s")
}

func mallocs() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs
}

// BenchmarkStreamAccumulate accumulates a 5,000-event stream held in
// memory: SSE decoder, event decoder, MessageAccumulator, final Message.
func BenchmarkStreamAccumulate(b *testing.B) {
	stream := syntheticMessageStream(benchStreamEvents)
	r := bytes.NewReader(stream)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	m0 := mallocs()
	for b.Loop() {
		r.Reset(stream)
		msg, n, err := accumulateStream(r)
		if err != nil || n != benchStreamEvents || msg.Usage.OutputTokens != 5000 {
			b.Fatalf("%d events, %v", n, err)
		}
	}
	reportPerEvent(b, m0, benchStreamEvents)
}

// BenchmarkStreamAccumulateFloor is the floor to compare with: read the
// same bytes line by line with bufio.Scanner and json.Unmarshal each data
// line into a minimal struct, concatenating the text. No unknown-member
// keeping, no unions, no validation of the event order.
func BenchmarkStreamAccumulateFloor(b *testing.B) {
	stream := syntheticMessageStream(benchStreamEvents)
	r := bytes.NewReader(stream)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	m0 := mallocs()
	for b.Loop() {
		r.Reset(stream)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 64<<10), 32<<20)
		var text strings.Builder
		n := 0
		for sc.Scan() {
			line, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: "))
			if !ok {
				continue
			}
			var ev struct {
				Type  string
				Index int
				Delta struct{ Type, Text string }
			}
			if err := json.Unmarshal(line, &ev); err != nil {
				b.Fatal(err)
			}
			if ev.Type == "content_block_delta" && ev.Delta.Type == "text_delta" {
				text.WriteString(ev.Delta.Text)
			}
			n++
		}
		if n != benchStreamEvents || text.Len() == 0 {
			b.Fatalf("%d events", n)
		}
	}
	reportPerEvent(b, m0, benchStreamEvents)
}
