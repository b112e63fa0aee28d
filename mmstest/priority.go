package mmstest

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"

	"golang.org/x/time/rate"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// Priority capacity: a commitment per model, drawn by Messages requests
// with service_tier auto (the default) at the service's burn rates.

// PriorityCommitment is a priority-tier commitment on one model: two token
// buckets, input and output, that refill at the given rates per minute on
// the server's clock and hold at most one minute's worth.
type PriorityCommitment struct {
	// Model is the model id the commitment covers (a request naming an
	// alias of it is covered too).
	Model string
	// InputTokensPerMinute and OutputTokensPerMinute are the buckets'
	// sizes and refill rates, in priority tokens.
	InputTokensPerMinute  int
	OutputTokensPerMinute int
	// Model46OrLater says the model is version 4.6 or later: its US-only
	// inference (inference_geo "us") burns input and output at 1.1.
	Model46OrLater bool
}

// WithPriorityCommitment adds a priority commitment. A Messages create on
// its model with service_tier auto (or none) is eligible: its response
// carries the vendor-priority-{input,output}-tokens-{limit,remaining,reset}
// headers, and it is served at the priority tier (usage.service_tier
// "priority") when both buckets hold what the reply burns, which they
// then give; otherwise it is served at "standard" and draws nothing. The
// burn is the service's: input 1 (1.1 for US-only inference on a 4.6 or
// later model), cache read 0.1, cache write 1.25 (5-minute) or 2 (1-hour)
// into the input bucket, output 1 (or 1.1) into the output bucket, each
// bucket's sum rounded up to a whole token. Requests with service_tier
// standard_only, count_tokens and batch requests never draw.
func WithPriorityCommitment(c PriorityCommitment) Option {
	return func(cfg *config) {
		if cfg.priority == nil {
			cfg.priority = &priorityState{byModel: map[string]*commitment{}}
		}
		cfg.priority.byModel[c.Model] = &commitment{
			PriorityCommitment: c,
			input:              newBucket(c.InputTokensPerMinute),
			output:             newBucket(c.OutputTokensPerMinute),
		}
	}
}

// priorityState holds the commitments of one server.
type priorityState struct {
	mu      sync.Mutex // drawing from both buckets and reading them is one step
	byModel map[string]*commitment
}

type commitment struct {
	PriorityCommitment
	input, output *rate.Limiter
}

func newBucket(perMinute int) *rate.Limiter {
	perMinute = max(perMinute, 0)
	return rate.NewLimiter(rate.Limit(float64(perMinute)/60), perMinute)
}

// Header name prefixes of the two priority buckets.
const (
	priorityInputPrefix  = wire.PriorityPrefix + "Input-Tokens-"
	priorityOutputPrefix = wire.PriorityPrefix + "Output-Tokens-"
)

// batchRequestKey marks the requests a batch runs through the Messages
// handler (batches.go): batch requests are served at the batch tier.
type batchRequestKey struct{}

// drawPriority applies the commitment, if any, to an answered create
// request: it sets the reply's service tier and the priority headers on h.
// A batch's request is served at the batch tier and draws nothing.
func (s *Server) drawPriority(h http.Header, r *http.Request, p *msgParams, rep *reply) {
	if r.Context().Value(batchRequestKey{}) != nil {
		rep.serviceTier = "batch"
		return
	}
	st := s.cfg.priority
	if st == nil {
		return
	}
	c := st.byModel[p.model.ID]
	if c == nil {
		return
	}
	var tier string
	if raw, ok := p.members["service_tier"]; ok && json.Unmarshal(raw, &tier) == nil && tier == "standard_only" {
		return
	}
	in, out := priorityBurn(rep.message(p).Usage, c.Model46OrLater)
	now := s.now()
	st.mu.Lock()
	defer st.mu.Unlock()
	rep.serviceTier = "standard"
	if c.input.TokensAt(now) >= float64(in) && c.output.TokensAt(now) >= float64(out) {
		c.input.AllowN(now, in)
		c.output.AllowN(now, out)
		rep.serviceTier = "priority"
	}
	setBucketHeaders(h, priorityInputPrefix, now, c.InputTokensPerMinute, c.input)
	setBucketHeaders(h, priorityOutputPrefix, now, c.OutputTokensPerMinute, c.output)
}

// priorityBurn is what a reply's usage burns from the input and output
// buckets, each rounded up to a whole token. The rates are in hundredths.
func priorityBurn(u usageWire, model46OrLater bool) (input, output int) {
	io := 100
	if u.InferenceGeo == "us" && model46OrLater {
		io = 110
	}
	in := u.InputTokens*io + u.CacheReadInputTokens*10 + u.CacheCreation.Ephemeral5m*125 + u.CacheCreation.Ephemeral1h*200
	return ceilDiv(in, 100), ceilDiv(u.OutputTokens*io, 100)
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// withBatchMark marks r as a batch's request.
func withBatchMark(r *http.Request) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), batchRequestKey{}, true))
}
