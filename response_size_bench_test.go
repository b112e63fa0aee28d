package mms_test

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// BenchmarkLargeReply receives a 300 MB reply and reports, per byte of the
// body, what the call allocated in total (alloc-x) and the highest heap
// sampled during it above the heap before it (peak-x, sampled every 100 µs,
// so a lower bound of the true peak; alloc-x bounds it from above).
func BenchmarkLargeReply(b *testing.B) {
	const size = 300_000_000
	text := bytes.Repeat([]byte("x"), size-200)
	message := func() []byte {
		var buf bytes.Buffer
		buf.WriteString(`{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"`)
		buf.Write(text)
		buf.WriteString(`"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
		return buf.Bytes()
	}()
	params := mms.MessageCreateParams{Model: "m", MaxTokens: 1, Messages: []mms.MessageParam{mms.UserText("hi")}}
	for _, bc := range []struct {
		name, framing string
		call          func(c *mms.Client) error
	}{
		{"Do/raw/length", "length", func(c *mms.Client) error {
			var raw json.RawMessage
			return c.Do(context.Background(), "GET", "/v1/x", nil, &raw)
		}},
		{"Do/raw/chunked", "chunked", func(c *mms.Client) error {
			var raw json.RawMessage
			return c.Do(context.Background(), "GET", "/v1/x", nil, &raw)
		}},
		{"Messages.Create/length", "length", func(c *mms.Client) error {
			_, err := c.Messages.Create(context.Background(), params)
			return err
		}},
		{"Messages.Create/chunked", "chunked", func(c *mms.Client) error {
			_, err := c.Messages.Create(context.Background(), params)
			return err
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := newBodyServer(b, message, bc.framing)
			c := s.client(b, option.WithMaxResponseSize(512<<20))
			var allocX, peakX float64
			for b.Loop() {
				var err error
				a, p := measureHeap(func() { err = bc.call(c) })
				require.NoError(b, err)
				allocX += float64(a) / float64(len(message))
				peakX += float64(p) / float64(len(message))
			}
			b.ReportMetric(allocX/float64(b.N), "alloc-x")
			b.ReportMetric(peakX/float64(b.N), "peak-x")
		})
	}
}

// measureHeap runs f and returns the bytes it allocated and the highest
// heap (live and not yet swept objects) sampled above the heap before it.
func measureHeap(f func()) (alloc, peak uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	runtime.GC()
	base := read()
	var max uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			if h := read(); h > max {
				max = h
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	close(done)
	wg.Wait()
	if max > base {
		peak = max - base
	}
	return after.TotalAlloc - before.TotalAlloc, peak
}
