package mms

import (
	"encoding/json"
)

// The span.* events: the start and end of each model request and of
// each outcome evaluation.

// SpanModelRequestStartEvent marks the start of a model request (the wire
// type "span.model_request_start").
type SpanModelRequestStartEvent struct {
	// ID identifies the event ("sevt_…"); the request's end names it.
	ID string `json:"id"`
	// ProcessedAt is when the service processed the event (RFC 3339).
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SpanModelRequestEndEvent marks the end of a model request (the wire type
// "span.model_request_end"). Previews of the request that never got their
// final event are void from here on.
type SpanModelRequestEndEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// ModelRequestStartID is the id of the request's start event.
	ModelRequestStartID string `json:"model_request_start_id"`
	// IsError reports a failed request; nil when null or absent.
	IsError *bool `json:"is_error,omitzero"`
	// ModelUsage is what the request used.
	ModelUsage SpanModelUsage `json:"model_usage"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SpanModelUsage is what one model request, or one outcome evaluation,
// used.
//
//mms:json
type SpanModelUsage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	// Speed is the speed mode the request ran in; "" when absent.
	Speed ModelSpeed `json:"speed,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SpanOutcomeEvaluationStartEvent marks the start of an outcome's
// evaluation (the wire type "span.outcome_evaluation_start").
type SpanOutcomeEvaluationStartEvent struct {
	// ID identifies the event; the evaluation's end names it.
	ID string `json:"id"`
	// OutcomeID is the outcome evaluated.
	OutcomeID string `json:"outcome_id"`
	// Iteration counts the attempts from 0.
	Iteration int `json:"iteration"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SpanOutcomeEvaluationOngoingEvent says an outcome's evaluation goes on
// (the wire type "span.outcome_evaluation_ongoing").
type SpanOutcomeEvaluationOngoingEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// OutcomeID is the outcome evaluated.
	OutcomeID string `json:"outcome_id"`
	// Iteration counts the attempts from 0.
	Iteration int `json:"iteration"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SpanOutcomeEvaluationEndEvent marks the end of an outcome's evaluation
// (the wire type "span.outcome_evaluation_end").
type SpanOutcomeEvaluationEndEvent struct {
	// ID identifies the event.
	ID string `json:"id"`
	// OutcomeID is the outcome evaluated.
	OutcomeID string `json:"outcome_id"`
	// Iteration counts the attempts from 0.
	Iteration int `json:"iteration"`
	// OutcomeEvaluationStartID is the id of the evaluation's start event.
	OutcomeEvaluationStartID string `json:"outcome_evaluation_start_id"`
	// Result is the verdict (e.g. satisfied, needs_revision).
	Result OutcomeResult `json:"result"`
	// Explanation is the grader's reasoning; "" when null or absent.
	Explanation string `json:"explanation,omitzero"`
	// Usage is what the evaluation used.
	Usage SpanModelUsage `json:"usage"`
	// ProcessedAt is when the service processed the event.
	ProcessedAt string `json:"processed_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (e *SpanOutcomeEvaluationOngoingEvent) UnmarshalJSON(d []byte) error {
	return unmarshalJSON(d, e)
}
