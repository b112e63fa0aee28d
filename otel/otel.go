// Package otel is an observer (observe.Observer) for the mms client that
// emits OpenTelemetry spans and metrics by the GenAI semantic conventions:
//
//	client, err := mms.NewClient(option.WithObserver(otel.NewObserver()))
//
// A Create or a Stream is a client span "chat {model}"; a tool-runner turn
// is an "invoke_agent" span whose children are the turn's chat span and
// an "execute_tool {tool}" span per tool call; every HTTP attempt is a
// child client span of its operation, so retries show with their timing
// and cause. The metrics are gen_ai.client.operation.duration,
// gen_ai.client.token.usage and, for streams,
// gen_ai.client.operation.time_to_first_chunk.
//
// The provider attribute (gen_ai.system, or gen_ai.provider.name with the
// latest conventions) is "vendor". gen_ai.usage.input_tokens follows the
// conventions' rule for providers that report cache tokens apart: it
// includes the tokens read from and written to the prompt cache.
package otel

import (
	"context"
	"errors"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/observe"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// ProviderName is the value of gen_ai.system / gen_ai.provider.name.
const ProviderName = "vendor"

// scope names the tracer and the meter.
const scope = "github.com/mms-sdk/mms-go/otel"

// The conventions' bucket boundaries.
var (
	durationBuckets = []float64{0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92}
	tokenBuckets    = []float64{1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864}
	// ttfcBuckets are borrowed from the conventions' server-side
	// gen_ai.server.time_to_first_token.
	ttfcBuckets = []float64{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}
)

// observer is immutable once built, so operations from many goroutines
// share it.
type observer struct {
	tracer   trace.Tracer
	duration metric.Float64Histogram
	tokens   metric.Int64Histogram
	ttfc     metric.Float64Histogram
	names    names
	content  bool
}

// NewObserver returns an observer that emits spans and metrics by the
// GenAI semantic conventions. Without WithSemconv, the names are chosen by
// OTEL_SEMCONV_STABILITY_OPT_IN (gen_ai_latest_experimental) when the
// observer is made.
func NewObserver(opts ...Option) observe.Observer {
	c := config{}
	for _, o := range opts {
		o(&c)
	}
	if c.tp == nil {
		c.tp = otel.GetTracerProvider()
	}
	if c.mp == nil {
		c.mp = otel.GetMeterProvider()
	}
	if c.semconv == 0 {
		c.semconv = semconvFromEnv()
	}
	meter := c.mp.Meter(scope, metric.WithInstrumentationVersion(mms.Version))
	o := &observer{
		tracer:  c.tp.Tracer(scope, trace.WithInstrumentationVersion(mms.Version)),
		names:   namesFor(c.semconv),
		content: c.recordContent,
	}
	// The API's instruments never fail to be made; an SDK that reports an
	// error still returns a working no-op instrument, so the errors are
	// dropped (otel.Handle has seen them).
	o.duration, _ = meter.Float64Histogram("gen_ai.client.operation.duration",
		metric.WithUnit("s"), metric.WithDescription("GenAI operation duration."),
		metric.WithExplicitBucketBoundaries(durationBuckets...))
	o.tokens, _ = meter.Int64Histogram("gen_ai.client.token.usage",
		metric.WithUnit("{token}"), metric.WithDescription("Number of input and output tokens used."),
		metric.WithExplicitBucketBoundaries(tokenBuckets...))
	o.ttfc, _ = meter.Float64Histogram("gen_ai.client.operation.time_to_first_chunk",
		metric.WithUnit("s"), metric.WithDescription("Time to receive the first chunk of a streamed response."),
		metric.WithExplicitBucketBoundaries(ttfcBuckets...))
	return o
}

// Start begins the operation's span under ctx's span.
func (o *observer) Start(ctx context.Context, op observe.Op) (context.Context, observe.Operation) {
	opName, spanName, kind := o.spanShape(op)
	attrs := make([]attribute.KeyValue, 0, 16)
	switch op.Kind {
	case observe.Chat, observe.CountTokens, observe.AgentTurn, observe.ExecuteTool:
		attrs = append(attrs, attribute.String(keyOperation, opName))
	default:
		// Not a GenAI operation: no gen_ai.* attribute claims it is one.
		attrs = append(attrs, attribute.String(keyKind, opName))
	}
	attrs = append(attrs, attribute.String(keyMethod, op.Name))
	switch op.Kind {
	case observe.Chat, observe.CountTokens:
		attrs = append(attrs, o.names.provider.String(ProviderName))
		attrs = appendRequest(attrs, op)
	case observe.AgentTurn:
		attrs = append(attrs, o.names.provider.String(ProviderName))
		if op.Model != "" {
			attrs = append(attrs, attribute.String(keyRequestModel, op.Model))
		}
		if op.Iteration > 0 {
			attrs = append(attrs, attribute.Int(keyIteration, op.Iteration))
		}
	case observe.ExecuteTool:
		attrs = append(attrs,
			attribute.String(keyToolName, op.ToolName),
			attribute.String(keyToolCallID, op.ToolCallID),
			attribute.String(keyToolType, "function"))
	}
	ctx, span := o.tracer.Start(ctx, spanName, trace.WithSpanKind(kind), trace.WithAttributes(attrs...))
	p := &operation{o: o, ctx: ctx, span: span, op: op, opName: opName, start: time.Now(), recording: span.IsRecording()}
	if p.recording {
		p.late = make([]attribute.KeyValue, 0, 16)
		// Content is encoded only for a span that keeps it; a turn's is its
		// chat's.
		if o.content && op.Kind != observe.AgentTurn {
			p.late = appendInputContent(p.late, op)
		}
	}
	return ctx, p
}

// spanShape gives the operation name, the span name and the span kind.
// Operations the conventions do not cover are client spans named by the
// HTTP conventions: the method and the path with its ids replaced
// ("GET /v1/sessions/{id}/events/stream"), so span names stay few.
func (o *observer) spanShape(op observe.Op) (opName, spanName string, kind trace.SpanKind) {
	switch op.Kind {
	case observe.Chat, observe.CountTokens:
		opName = string(op.Kind)
		if op.Model == "" {
			return opName, opName, trace.SpanKindClient
		}
		return opName, opName + " " + op.Model, trace.SpanKindClient
	case observe.AgentTurn:
		// The tool runner is in-process: the conventions' INTERNAL kind.
		return "invoke_agent", "invoke_agent", trace.SpanKindInternal
	case observe.ExecuteTool:
		return "execute_tool", "execute_tool " + op.ToolName, trace.SpanKindInternal
	}
	if op.Path == "" {
		return string(op.Kind), op.Name, trace.SpanKindClient
	}
	return string(op.Kind), op.Method + " " + route(op.Path), trace.SpanKindClient
}

// route replaces the path segments that hold a digit (ids, model names;
// not the version) with {id}.
func route(path string) string {
	var sb strings.Builder
	sb.Grow(len(path))
	for i, seg := range strings.Split(path, "/") {
		if i > 0 {
			sb.WriteByte('/')
		}
		if i == 1 || !strings.ContainsAny(seg, "0123456789") {
			sb.WriteString(seg) // i == 1 is the version: /v1/...
		} else {
			sb.WriteString("{id}")
		}
	}
	return sb.String()
}

// appendRequest adds the request parameters the conventions name.
func appendRequest(attrs []attribute.KeyValue, op observe.Op) []attribute.KeyValue {
	if op.Model != "" {
		attrs = append(attrs, attribute.String(keyRequestModel, op.Model))
	}
	if op.MaxTokens > 0 {
		attrs = append(attrs, attribute.Int(keyMaxTokens, op.MaxTokens))
	}
	if op.Temperature != nil {
		attrs = append(attrs, attribute.Float64(keyTemperature, *op.Temperature))
	}
	if op.TopP != nil {
		attrs = append(attrs, attribute.Float64(keyTopP, *op.TopP))
	}
	if op.TopK != nil {
		// The conventions type top_k as a double.
		attrs = append(attrs, attribute.Float64(keyTopK, float64(*op.TopK)))
	}
	if len(op.StopSequences) > 0 {
		attrs = append(attrs, attribute.StringSlice(keyStopSequences, op.StopSequences))
	}
	if op.ServiceTier != "" {
		attrs = append(attrs, attribute.String(keyRequestServiceTier, op.ServiceTier))
	}
	return attrs
}

// operation is one span and the state its metrics need. The client calls
// an operation's methods one after another, never at once.
type operation struct {
	o      *observer
	ctx    context.Context
	span   trace.Span
	op     observe.Op
	opName string
	start  time.Time

	server        string
	port          int
	responseModel string
	events        int
	// recording is false for a span sampled out (or a no-op tracer): the
	// operation then builds no span attributes and no attempt spans, and
	// records only the metrics.
	recording bool
	// late are the span attributes learnt after its start, set at once at
	// its end (one growth of the span's attributes, not one per call).
	late []attribute.KeyValue
}

// Attempt records the HTTP attempt as a child client span, backdated to
// its start: the HTTP conventions make each resend its own span, and a
// span keeps the attempt's timing and the backoff between attempts
// visible, which a span event would not.
func (p *operation) Attempt(a observe.Attempt) {
	host, port := hostPort(a.URL)
	if p.server == "" && host != "" {
		p.server, p.port = host, port
		if p.recording {
			p.late = append(p.late, attribute.String(keyServerAddress, host), attribute.Int(keyServerPort, port))
		}
	}
	if !p.recording {
		return
	}
	attrs := make([]attribute.KeyValue, 0, 10)
	attrs = append(attrs,
		attribute.String(keyHTTPMethod, a.Method),
		attribute.String(keyURLFull, a.URL),
		attribute.String(keyServerAddress, host),
		attribute.Int(keyServerPort, port))
	if a.Number > 1 {
		attrs = append(attrs, attribute.Int(keyResendCount, a.Number-1))
	}
	if a.StatusCode > 0 {
		attrs = append(attrs, attribute.Int(keyHTTPStatus, a.StatusCode))
	}
	if a.RequestID != "" {
		attrs = append(attrs, attribute.String(keyRequestID, a.RequestID))
	}
	if a.PlatformRequestID != "" {
		attrs = append(attrs, attribute.String(keyPlatformRequestID, a.PlatformRequestID))
	}
	if a.Err != nil {
		attrs = append(attrs, attribute.String(keyErrorType, attemptErrorType(a)), attribute.Bool(keyRetry, a.Retry))
	}
	_, span := p.o.tracer.Start(p.ctx, a.Method, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithTimestamp(a.Start), trace.WithAttributes(attrs...))
	if a.Err != nil {
		span.SetStatus(codes.Error, a.Err.Error())
	}
	span.End(trace.WithTimestamp(a.Start.Add(a.Duration)))
}

// Event counts stream events; the first one of a chat stream is its time
// to first chunk. A session stream's events become span events (a chat
// stream's deltas are too many for that).
func (p *operation) Event(name string) {
	p.events++
	switch {
	case p.op.Kind == observe.SessionStream && p.recording:
		p.span.AddEvent(name)
	case p.events == 1 && p.op.Kind == observe.Chat:
		ttfc := time.Since(p.start).Seconds()
		if p.o.names.latest && p.recording {
			p.late = append(p.late, attribute.Float64(keyTTFC, ttfc))
		}
		p.o.ttfc.Record(p.ctx, ttfc, metric.WithAttributeSet(p.metricSet()))
	}
}

// Result records the response's attributes and, for a chat, its token
// usage metric.
func (p *operation) Result(r observe.Result) {
	p.responseModel = r.ResponseModel
	u := r.Usage
	// The conventions count cached input as input for this kind of provider.
	input := u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens
	if p.recording {
		p.resultAttrs(r, input)
	}
	// The turn's chat child records the tokens: a turn does not count them twice.
	if p.op.Kind == observe.Chat {
		p.o.tokens.Record(p.ctx, int64(input), metric.WithAttributeSet(p.metricSet(attribute.String(keyTokenType, "input"))))
		p.o.tokens.Record(p.ctx, int64(u.OutputTokens), metric.WithAttributeSet(p.metricSet(attribute.String(keyTokenType, "output"))))
	}
}

// resultAttrs adds r's span attributes; input is the input tokens, cache
// included.
func (p *operation) resultAttrs(r observe.Result, input int) {
	n, u := p.o.names, r.Usage
	if r.ResponseID != "" {
		p.late = append(p.late, attribute.String(keyResponseID, r.ResponseID))
	}
	if r.ResponseModel != "" {
		p.late = append(p.late, attribute.String(keyResponseModel, r.ResponseModel))
	}
	if len(r.StopReasons) > 0 {
		p.late = append(p.late, attribute.StringSlice(keyFinishReasons, r.StopReasons))
	}
	if p.op.Kind == observe.CountTokens {
		// A count uses no tokens: the count is not gen_ai.usage.
		p.late = append(p.late, attribute.Int(keyCountedTokens, u.InputTokens))
		return
	}
	if p.op.Kind == observe.ExecuteTool {
		if p.o.content {
			if s, ok := contentString(r.Response); ok {
				p.late = append(p.late, attribute.String(keyToolResult, s))
			}
		}
		return
	}
	p.late = append(p.late,
		attribute.Int(keyInputTokens, input),
		attribute.Int(keyOutputTokens, u.OutputTokens),
		n.cacheRead.Int(u.CacheReadInputTokens),
		n.cacheCreation.Int(u.CacheCreationInputTokens))
	if u.ThinkingTokens > 0 {
		p.late = append(p.late, attribute.Int(keyThinkingTokens, u.ThinkingTokens))
	}
	if r.ServiceTier != "" {
		p.late = append(p.late, attribute.String(keyResponseServiceTier, r.ServiceTier))
	}
	if r.InferenceGeo != "" {
		p.late = append(p.late, attribute.String(keyInferenceGeo, r.InferenceGeo))
	}
	if p.o.content && p.op.Kind != observe.AgentTurn {
		p.late = appendOutputContent(p.late, r.Response)
	}
}

// End sets the span's late attributes and status, ends it and records the
// operation's duration.
func (p *operation) End(err error) {
	var errType attribute.KeyValue
	if err != nil {
		errType = attribute.String(keyErrorType, errorType(err))
	}
	if p.recording {
		if err != nil {
			p.late = append(p.late, errType)
			p.span.SetStatus(codes.Error, err.Error())
		}
		if p.events > 0 {
			p.late = append(p.late, attribute.Int(keyEventCount, p.events))
		}
		if len(p.late) > 0 {
			p.span.SetAttributes(p.late...)
		}
	}
	if p.op.Kind == observe.Chat || p.op.Kind == observe.CountTokens {
		set := p.metricSet()
		if err != nil {
			set = p.metricSet(errType)
		}
		p.o.duration.Record(p.ctx, time.Since(p.start).Seconds(), metric.WithAttributeSet(set))
	}
	p.span.End()
}

// metricSet is the conventions' metric attributes known so far, and extra
// (at most one).
func (p *operation) metricSet(extra ...attribute.KeyValue) attribute.Set {
	var buf [8]attribute.KeyValue
	attrs := append(buf[:0], attribute.String(keyOperation, p.opName), p.o.names.provider.String(ProviderName))
	if p.op.Model != "" {
		attrs = append(attrs, attribute.String(keyRequestModel, p.op.Model))
	}
	if p.responseModel != "" {
		attrs = append(attrs, attribute.String(keyResponseModel, p.responseModel))
	}
	if p.server != "" {
		attrs = append(attrs, attribute.String(keyServerAddress, p.server), attribute.Int(keyServerPort, p.port))
	}
	return attribute.NewSet(append(attrs, extra...)...)
}

// hostPort splits a URL's host, with the scheme's default port.
func hostPort(raw string) (string, int) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", 0
	}
	host, port := u.Hostname(), u.Port()
	if port != "" {
		n, _ := strconv.Atoi(port)
		return host, n
	}
	if u.Scheme == "http" {
		return host, 80
	}
	return host, 443
}

// errorType classifies an operation's error with few values: the
// service's error type (its status code when the body had none),
// "validation_error", "canceled", "timeout", or "_OTHER".
func errorType(err error) string {
	var apiErr *mms.Error
	var valErr *mms.ValidationError
	var netErr net.Error
	switch {
	case errors.As(err, &apiErr):
		if apiErr.Type != "" {
			return apiErr.Type
		}
		return strconv.Itoa(apiErr.StatusCode)
	case errors.As(err, &valErr):
		return "validation_error"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.As(err, &netErr) && netErr.Timeout():
		return "timeout"
	}
	return "_OTHER"
}

// attemptErrorType is the HTTP conventions' error.type: the status code
// when there was an answer.
func attemptErrorType(a observe.Attempt) string {
	if a.StatusCode >= 400 {
		return strconv.Itoa(a.StatusCode)
	}
	return errorType(a.Err)
}
