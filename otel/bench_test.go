package otel

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// discard is a span exporter that drops every span: the cost measured is
// the observer's and the SDK's, not an export's.
type discard struct{}

func (discard) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (discard) Shutdown(context.Context) error                             { return nil }

// BenchmarkRoundTrip is the root module's W4 (one Messages.Create against
// a local server answering testdata/bench/w4_message.json) without an
// observer and with this one on the OpenTelemetry SDK, spans batched to
// an exporter that drops them and metrics aggregated for a reader, and on
// the API's no-op providers (what a program gets with no SDK set up).
func BenchmarkRoundTrip(b *testing.B) {
	b.Run("no-observer", func(b *testing.B) { benchRoundTrip(b) })
	b.Run("otel-noop-providers", func(b *testing.B) {
		benchRoundTrip(b, option.WithObserver(NewObserver(
			WithTracerProvider(tracenoop.NewTracerProvider()), WithMeterProvider(metricnoop.NewMeterProvider()))))
	})
	b.Run("otel", func(b *testing.B) {
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(discard{}))
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
		b.Cleanup(func() {
			_ = tp.Shutdown(context.Background())
			_ = mp.Shutdown(context.Background())
		})
		benchRoundTrip(b, option.WithObserver(NewObserver(WithTracerProvider(tp), WithMeterProvider(mp))))
	})
}

func benchRoundTrip(b *testing.B, opts ...option.RequestOption) {
	msg, err := os.ReadFile("../testdata/bench/w4_message.json")
	if err != nil {
		b.Fatal(err)
	}
	clen := strconv.Itoa(len(msg))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", clen)
		w.Write(msg)
	}))
	b.Cleanup(srv.Close)
	c, err := mms.NewClient(append([]option.RequestOption{option.WithAPIKey("sk-bench"),
		option.WithBaseURL(srv.URL), option.WithHTTPClient(srv.Client())}, opts...)...)
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
