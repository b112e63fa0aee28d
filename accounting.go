package mms

import (
	"errors"
	"fmt"
	"iter"
	"math"
)

// Accounting: the priority capacity a response burns at the service's
// rates, and what its tokens cost by a price table the program supplies.

// PriorityParams is what the priority rates of a usage depend on beyond its
// token counts.
type PriorityParams struct {
	// Geo is the request's inference_geo ("us", "global", or "" for the
	// workspace default). A usage that reports its own InferenceGeo uses
	// that instead.
	Geo string
	// Model46OrLater says the model is version 4.6 or later. Model ids are
	// opaque to the SDK (it parses none), so the program, which chose the
	// model, says so.
	Model46OrLater bool
}

// Priority rates in hundredths of a priority token per token, so that a
// burn is computed exactly in integers.
const (
	rateBase         = 100 // input and output tokens, unless rateUSFrom46 applies
	rateUSFrom46     = 110 // input and output of US-only inference on models 4.6 or later
	rateCacheRead    = 10
	rateCacheWrite5m = 125
	rateCacheWrite1h = 200
)

// UsageBreakdown splits a figure by token kind: the priority tokens a usage
// burns ([Usage.PriorityBurn]) or what it costs ([PriceTable.UsageCost]).
// Total is the sum of the kinds.
type UsageBreakdown struct {
	Input        float64 // non-cached input tokens
	Output       float64 // output tokens, thinking included
	CacheRead    float64
	CacheWrite5m float64 // cache writes with the 5-minute lifetime
	CacheWrite1h float64 // cache writes with the 1-hour lifetime
	Total        float64
}

// Add returns the kind-by-kind sum of b and o, for totals over many
// responses.
func (b UsageBreakdown) Add(o UsageBreakdown) UsageBreakdown {
	return UsageBreakdown{
		Input:        b.Input + o.Input,
		Output:       b.Output + o.Output,
		CacheRead:    b.CacheRead + o.CacheRead,
		CacheWrite5m: b.CacheWrite5m + o.CacheWrite5m,
		CacheWrite1h: b.CacheWrite1h + o.CacheWrite1h,
		Total:        b.Total + o.Total,
	}
}

// tokenCounts is a usage reduced to the token kinds accounting prices.
type tokenCounts struct {
	input, output, cacheRead, write5m, write1h int64
}

// counts reduces u. Cache writes the cache_creation split does not cover
// (no split, or a split short of cache_creation_input_tokens) count as
// 5-minute writes, the default lifetime.
func (u Usage) counts() tokenCounts {
	c := tokenCounts{input: int64(u.InputTokens), output: int64(u.OutputTokens)}
	if u.CacheReadInputTokens != nil {
		c.cacheRead = int64(*u.CacheReadInputTokens)
	}
	if u.CacheCreation != nil {
		c.write5m, c.write1h = int64(u.CacheCreation.Ephemeral5mInputTokens), int64(u.CacheCreation.Ephemeral1hInputTokens)
	}
	if u.CacheCreationInputTokens != nil {
		c.write5m += max(int64(*u.CacheCreationInputTokens)-c.write5m-c.write1h, 0)
	}
	return c
}

// counts reduces a session's usage.
func (u SessionUsage) counts() tokenCounts {
	c := tokenCounts{input: int64(u.InputTokens), output: int64(u.OutputTokens), cacheRead: int64(u.CacheReadInputTokens)}
	if u.CacheCreation != nil {
		c.write5m, c.write1h = int64(u.CacheCreation.Ephemeral5mInputTokens), int64(u.CacheCreation.Ephemeral1hInputTokens)
	}
	return c
}

// priorityBurn applies the rates. The figures are exact in hundredths, so
// each float64 is the one nearest the exact value.
func (c tokenCounts) priorityBurn(geo string, model46OrLater bool) UsageBreakdown {
	io := int64(rateBase)
	if geo == "us" && model46OrLater {
		io = rateUSFrom46
	}
	in, out := c.input*io, c.output*io
	read, w5, w1 := c.cacheRead*rateCacheRead, c.write5m*rateCacheWrite5m, c.write1h*rateCacheWrite1h
	h := func(n int64) float64 { return float64(n) / 100 }
	return UsageBreakdown{Input: h(in), Output: h(out), CacheRead: h(read), CacheWrite5m: h(w5), CacheWrite1h: h(w1),
		Total: h(in + out + read + w5 + w1)}
}

// PriorityBurn is the priority capacity the usage's tokens burn at the
// service's rates, in priority tokens: cache reads 0.1 each, cache writes
// 1.25 (5-minute lifetime) or 2 (1-hour), input and output 1.1 for US-only
// inference (geo "us") on a model 4.6 or later and 1 otherwise. The geo is
// u.InferenceGeo when the response reports one, else p.Geo.
//
// The service draws this from a priority commitment only for a response it
// served at the priority tier (u.ServiceTier is [ServiceTierPriority]); for
// any other it is what the response would have burned.
func (u Usage) PriorityBurn(p PriorityParams) UsageBreakdown {
	geo := p.Geo
	if u.InferenceGeo != nil && *u.InferenceGeo != "" {
		geo = *u.InferenceGeo
	}
	return u.counts().priorityBurn(geo, p.Model46OrLater)
}

// PriorityBurn is what the session's tokens burn at the priority rates (see
// [Usage.PriorityBurn]), with p.Geo as the geo: a session's usage reports
// neither a geo nor a service tier, so this is an upper bound of what the
// session drew from a priority commitment.
func (u SessionUsage) PriorityBurn(p PriorityParams) UsageBreakdown {
	return u.counts().priorityBurn(p.Geo, p.Model46OrLater)
}

// ErrUnpricedModel is returned (wrapped) by the [PriceTable] methods for a
// model the table does not list.
var ErrUnpricedModel = errors.New("mms: model not in the price table")

// PriceTable is what tokens cost, as the program knows it: the SDK ships no
// prices. Money is float64 in the program's currency.
type PriceTable struct {
	// Models maps a model id, as responses report it ([Message.Model]), to
	// its prices.
	Models map[string]ModelPrices
	// TierMultipliers scales the cost of a response by the tier that served
	// it (usage.service_tier): {ServiceTierBatch: 0.5} halves batch results.
	// A tier the map does not list, and session usage (which reports no
	// tier), costs the prices as they are.
	TierMultipliers map[ServiceTier]float64
}

// ModelPrices is the price of one million tokens of each kind.
type ModelPrices struct {
	Input        float64 // non-cached input
	Output       float64 // output, thinking included
	CacheRead    float64
	CacheWrite5m float64
	CacheWrite1h float64
}

// UsageCost is what u cost on model.
func (t PriceTable) UsageCost(model string, u Usage) (UsageBreakdown, error) {
	return t.cost(model, u.ServiceTier, u.counts())
}

// MessageCost is what a reply cost: its usage on the model that served it.
func (t PriceTable) MessageCost(m *Message) (UsageBreakdown, error) {
	if m == nil {
		return UsageBreakdown{}, errors.New("mms: MessageCost: the message is nil")
	}
	return t.UsageCost(m.Model, m.Usage)
}

// BatchCost is the total cost of a batch's succeeded results (errored,
// canceled and expired requests cost nothing), as
// client.Messages.Batches.Results yields them. It stops at the first error,
// which it returns with the total so far.
func (t PriceTable) BatchCost(results iter.Seq2[BatchResult, error]) (UsageBreakdown, error) {
	var total UsageBreakdown
	for r, err := range results {
		if err != nil {
			return total, err
		}
		ok, isOK := r.Result.(SucceededBatchResult)
		if !isOK {
			continue
		}
		c, err := t.MessageCost(&ok.Message)
		if err != nil {
			return total, fmt.Errorf("mms: batch result %q: %w", r.CustomID, err)
		}
		total = total.Add(c)
	}
	return total, nil
}

// SessionCost is what a session's usage cost on model (the model its agent
// ran).
func (t PriceTable) SessionCost(model string, u SessionUsage) (UsageBreakdown, error) {
	return t.cost(model, "", u.counts())
}

func (t PriceTable) cost(model string, tier ServiceTier, c tokenCounts) (UsageBreakdown, error) {
	p, ok := t.Models[model]
	if !ok {
		return UsageBreakdown{}, fmt.Errorf("%w: %q", ErrUnpricedModel, model)
	}
	mult := 1.0
	if m, ok := t.TierMultipliers[tier]; ok && tier != "" {
		if !(m >= 0) || math.IsInf(m, 1) {
			return UsageBreakdown{}, invalid(fmt.Sprintf("TierMultipliers[%q]", tier), "must be a finite number ≥ 0")
		}
		mult = m
	}
	for _, f := range []struct {
		name  string
		price float64
	}{{"Input", p.Input}, {"Output", p.Output}, {"CacheRead", p.CacheRead}, {"CacheWrite5m", p.CacheWrite5m}, {"CacheWrite1h", p.CacheWrite1h}} {
		if !(f.price >= 0) || math.IsInf(f.price, 1) {
			return UsageBreakdown{}, invalid(fmt.Sprintf("Models[%q].%s", model, f.name), "must be a finite number ≥ 0")
		}
	}
	each := func(tokens int64, price float64) float64 { return float64(tokens) * price * mult / 1e6 }
	b := UsageBreakdown{Input: each(c.input, p.Input), Output: each(c.output, p.Output), CacheRead: each(c.cacheRead, p.CacheRead),
		CacheWrite5m: each(c.write5m, p.CacheWrite5m), CacheWrite1h: each(c.write1h, p.CacheWrite1h)}
	b.Total = b.Input + b.Output + b.CacheRead + b.CacheWrite5m + b.CacheWrite1h
	return b, nil
}

// Validate returns nil: the priority inputs are the program's statements,
// used as given, so there is nothing to check client-side.
func (p PriorityParams) Validate() error { return nil }
