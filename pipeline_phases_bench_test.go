package mms

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/option"
)

// BenchmarkCreatePhases splits one Messages.Create (W4 without the network)
// into its phases, to tell the pipeline's share from the codec's.
func BenchmarkCreatePhases(b *testing.B) {
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 25)
	reply := []byte(`{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929",` +
		`"content":[{"type":"text","text":"` + text + `","citations":null},` +
		`{"type":"tool_use","id":"toolu_01A09q90qw90lq917835lq9","name":"get_weather",` +
		`"input":{"location":"San Francisco, CA","unit":"celsius","days":3,"include":["wind","humidity"]},"caller":{"type":"direct"}}],` +
		`"stop_reason":"tool_use","stop_sequence":null,"stop_details":null,"container":null,` +
		`"usage":{"input_tokens":412,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,` +
		`"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},` +
		`"output_tokens":318,"service_tier":"standard","inference_geo":"global"}}`)
	p := MessageCreateParams{Model: "claude-sonnet-4-5", MaxTokens: 1024,
		Messages: []MessageParam{UserText("What is the weather in San Francisco?")}}
	body, err := encodeMessageBody(&p, "")
	if err != nil {
		b.Fatal(err)
	}
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		h := http.Header{"Content-Type": {"application/json"}, "Request-Id": {"req_bench"}}
		return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(bytes.NewReader(reply)),
			ContentLength: int64(len(reply)), Request: r}, nil
	})}
	c, err := NewClient(option.WithAPIKey("sk-bench"), option.WithBaseURL("http://bench.invalid"), option.WithHTTPClient(hc))
	if err != nil {
		b.Fatal(err)
	}
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
