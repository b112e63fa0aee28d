package otel

import (
	"os"
	"strings"

	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// Semconv chooses which names of the GenAI semantic conventions the
// observer emits. The conventions are still in development; their
// transition plan asks instrumentations to keep the v1.36.0 names by
// default and to switch to the latest experimental ones on opt-in.
type Semconv int

const (
	// SemconvDefault is v1.36.0 of the GenAI conventions: the provider
	// is gen_ai.system, and the cache token counts, which that version
	// does not define, are mms.usage.* attributes.
	SemconvDefault Semconv = iota + 1
	// SemconvLatestExperimental is the latest experimental GenAI
	// conventions: gen_ai.provider.name, gen_ai.usage.cache_read.input_tokens,
	// gen_ai.usage.cache_creation.input_tokens,
	// gen_ai.response.time_to_first_chunk.
	SemconvLatestExperimental
)

// stabilityEnv is the conventions' opt-in variable: a comma-separated list
// in which gen_ai_latest_experimental selects SemconvLatestExperimental.
const stabilityEnv = "OTEL_SEMCONV_STABILITY_OPT_IN"

// semconvFromEnv reads OTEL_SEMCONV_STABILITY_OPT_IN.
func semconvFromEnv() Semconv {
	for v := range strings.SplitSeq(os.Getenv(stabilityEnv), ",") {
		if strings.TrimSpace(v) == "gen_ai_latest_experimental" {
			return SemconvLatestExperimental
		}
	}
	return SemconvDefault
}

// Option configures NewObserver.
type Option func(*config)

type config struct {
	tp            trace.TracerProvider
	mp            metric.MeterProvider
	recordContent bool
	semconv       Semconv
}

// WithTracerProvider sets where spans go (default: the global provider,
// otel.GetTracerProvider, when NewObserver runs).
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) { c.tp = tp }
}

// WithMeterProvider sets where metrics go (default: the global provider,
// otel.GetMeterProvider, when NewObserver runs).
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) { c.mp = mp }
}

// WithRecordContent records message content (system instructions, input
// and output messages, tool arguments and results) on spans. Off by
// default: content may hold personal or secret data.
func WithRecordContent(on bool) Option {
	return func(c *config) { c.recordContent = on }
}

// WithSemconv chooses the conventions' names explicitly; it overrides
// OTEL_SEMCONV_STABILITY_OPT_IN.
func WithSemconv(s Semconv) Option {
	return func(c *config) { c.semconv = s }
}
