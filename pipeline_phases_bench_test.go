package mms

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"testing"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// BenchmarkCreatePhases splits one Messages.Create (W4 without the network)
// into its phases, to tell the pipeline's share from the codec's.
func BenchmarkCreatePhases(b *testing.B) {
	reply, err := os.ReadFile("testdata/bench/w4_message.json") // as W4's
	require.NoError(b, err)
	p := MessageCreateParams{Model: "claude-sonnet-4-5", MaxTokens: 1024,
		Messages: []MessageParam{UserText("What is the weather in San Francisco?")}}
	body, err := encodeMessageBody(&p, "")
	require.NoError(b, err)
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		h := http.Header{"Content-Type": {"application/json"}, "Request-Id": {"req_bench"}}
		return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(bytes.NewReader(reply)),
			ContentLength: int64(len(reply)), Request: r}, nil
	})}
	c, err := NewClient(option.WithAPIKey("sk-bench"), option.WithBaseURL("http://bench.invalid"), option.WithHTTPClient(hc))
	require.NoError(b, err)
	ctx := context.Background()
	b.Run("validate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := p.Validate(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := encodeMessageBody(&p, ""); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pipeline", func(b *testing.B) { // the transport, up to the reply's bytes
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.newCall(nil).send(ctx, &request{method: http.MethodPost, path: "/v1/messages", raw: body,
				timeout: nonStreamingTimeout(p.MaxTokens)}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("valid", func(b *testing.B) { // decode's validation pass alone
		b.ReportAllocs()
		for b.Loop() {
			if err := codec.Valid(reply); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("decode", func(b *testing.B) { // the validation pass and Message's decoder
		b.ReportAllocs()
		for b.Loop() {
			var m Message
			if err := decodeInto(reply, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("create", func(b *testing.B) { // all of it
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.Messages.Create(ctx, p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
