package otel

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// rig is a client against mmstest observed by an otel observer whose
// spans and metrics the test reads.
type rig struct {
	client *mms.Client
	srv    *mmstest.Server
	spans  *tracetest.InMemoryExporter
	reader *sdkmetric.ManualReader
	tp     *sdktrace.TracerProvider
	host   string
	port   int
}

func newRig(t *testing.T, opts []Option, srvOpts ...mmstest.Option) *rig {
	t.Helper()
	return newSampledRig(t, sdktrace.AlwaysSample(), opts, srvOpts...)
}

// newSampledRig is newRig whose tracer samples with sampler.
func newSampledRig(t *testing.T, sampler sdktrace.Sampler, opts []Option, srvOpts ...mmstest.Option) *rig {
	t.Helper()
	r := &rig{spans: tracetest.NewInMemoryExporter(), reader: sdkmetric.NewManualReader()}
	r.tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(r.spans), sdktrace.WithSampler(sampler))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(r.reader))
	t.Cleanup(func() {
		_ = r.tp.Shutdown(context.Background())
		_ = mp.Shutdown(context.Background())
	})
	obs := NewObserver(append([]Option{WithTracerProvider(r.tp), WithMeterProvider(mp)}, opts...)...)
	r.srv = mmstest.NewServer(srvOpts...)
	t.Cleanup(r.srv.Close)
	client, err := mms.NewClient(append(r.srv.ClientOptions(), option.WithObserver(obs))...)
	if err != nil {
		t.Fatal(err)
	}
	r.client = client
	r.host, r.port = hostPort(r.srv.URL)
	return r
}

// caller starts the span the test calls the client under, as a program
// would: the observer's spans must be its children.
func (r *rig) caller(ctx context.Context) (context.Context, trace.Span) {
	return r.tp.Tracer("test").Start(ctx, "caller")
}

// named returns the ended spans called name, in the order they ended.
func (r *rig) named(name string) []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, s := range r.spans.GetSpans() {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// one returns the only ended span called name.
func (r *rig) one(t *testing.T, name string) tracetest.SpanStub {
	t.Helper()
	got := r.named(name)
	if len(got) != 1 {
		t.Fatalf("%d spans named %q, want 1 (all: %v)", len(got), name, spanNames(r.spans.GetSpans()))
	}
	return got[0]
}

// children returns the spans whose parent is s, in the order they ended.
func (r *rig) children(s tracetest.SpanStub) []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, c := range r.spans.GetSpans() {
		if c.Parent.SpanID() == s.SpanContext.SpanID() {
			out = append(out, c)
		}
	}
	return out
}

func spanNames(spans tracetest.SpanStubs) []string {
	names := make([]string, len(spans))
	for i, s := range spans {
		names[i] = s.Name
	}
	return names
}

// attrs turns attributes into a map for cmp.
func attrs(kvs []attribute.KeyValue) map[string]any {
	m := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.AsInterface()
	}
	return m
}

// checkAttrs compares a span's attributes with want, after dropping the
// keys in skip (values a test cannot predict: they are checked apart).
func checkAttrs(t *testing.T, s tracetest.SpanStub, want map[string]any, skip ...string) {
	t.Helper()
	got := attrs(s.Attributes)
	for _, k := range skip {
		if _, ok := got[k]; !ok {
			t.Errorf("span %q lacks %s", s.Name, k)
		}
		delete(got, k)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("span %q attributes (-want +got):\n%s", s.Name, diff)
	}
}

// histogram is one data point of a histogram metric.
type histogram struct {
	attrs map[string]any
	count uint64
	sum   float64
}

// histograms collects the metric called name.
func (r *rig) histograms(t *testing.T, name string) []histogram {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	var out []histogram
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			switch d := m.Data.(type) {
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					out = append(out, histogram{attrs(p.Attributes.ToSlice()), p.Count, p.Sum})
				}
			case metricdata.Histogram[int64]:
				for _, p := range d.DataPoints {
					out = append(out, histogram{attrs(p.Attributes.ToSlice()), p.Count, float64(p.Sum)})
				}
			}
		}
	}
	return out
}

// bounds returns the bucket boundaries of the metric called name.
func (r *rig) bounds(t *testing.T, name string) []float64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			switch d := m.Data.(type) {
			case metricdata.Histogram[float64]:
				return d.DataPoints[0].Bounds
			case metricdata.Histogram[int64]:
				return d.DataPoints[0].Bounds
			}
		}
	}
	t.Fatalf("no metric %s", name)
	return nil
}
