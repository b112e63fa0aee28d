package mms_test

import (
	"encoding/json"
	"errors"
	"iter"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mms-sdk/mms-go"

	"github.com/stretchr/testify/require"
)

// usageJSON decodes a usage as the service sends it.
func usageJSON(t *testing.T, s string) mms.Usage {
	t.Helper()
	var u mms.Usage
	if err := json.Unmarshal([]byte(s), &u); err != nil {
		t.Fatal(err)
	}
	return u
}

func TestUsagePriorityBurn(t *testing.T) {
	us46 := mms.PriorityParams{Geo: "us", Model46OrLater: true}
	tests := []struct {
		name  string
		usage string
		p     mms.PriorityParams
		want  mms.UsageBreakdown
	}{
		{"input alone, global", `{"input_tokens":1000,"output_tokens":0}`, mms.PriorityParams{Geo: "global", Model46OrLater: true},
			mms.UsageBreakdown{Input: 1000, Total: 1000}},
		{"output alone, global", `{"input_tokens":0,"output_tokens":250}`, mms.PriorityParams{Model46OrLater: true},
			mms.UsageBreakdown{Output: 250, Total: 250}},
		{"input alone, us, 4.6", `{"input_tokens":1000,"output_tokens":0}`, us46,
			mms.UsageBreakdown{Input: 1100, Total: 1100}},
		{"output alone, us, 4.6", `{"input_tokens":0,"output_tokens":7}`, us46,
			mms.UsageBreakdown{Output: 7.7, Total: 7.7}},
		{"input and output, us, before 4.6", `{"input_tokens":1000,"output_tokens":10}`, mms.PriorityParams{Geo: "us"},
			mms.UsageBreakdown{Input: 1000, Output: 10, Total: 1010}},
		{"cache read alone", `{"input_tokens":0,"output_tokens":0,"cache_read_input_tokens":3}`, us46,
			mms.UsageBreakdown{CacheRead: 0.3, Total: 0.3}},
		{"cache write 5m alone", `{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":4,"cache_creation":{"ephemeral_5m_input_tokens":4,"ephemeral_1h_input_tokens":0}}`, us46,
			mms.UsageBreakdown{CacheWrite5m: 5, Total: 5}},
		{"cache write 1h alone", `{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":9,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":9}}`, us46,
			mms.UsageBreakdown{CacheWrite1h: 18, Total: 18}},
		{"cache write without split counts as 5m", `{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":8,"cache_creation":null}`, us46,
			mms.UsageBreakdown{CacheWrite5m: 10, Total: 10}},
		{"cache write split short of the total: rest at 5m", `{"input_tokens":0,"output_tokens":0,"cache_creation_input_tokens":10,"cache_creation":{"ephemeral_5m_input_tokens":2,"ephemeral_1h_input_tokens":4}}`, us46,
			mms.UsageBreakdown{CacheWrite5m: 7.5, CacheWrite1h: 8, Total: 15.5}},
		{"mixed, us, 4.6", `{"input_tokens":100,"output_tokens":20,"cache_read_input_tokens":1000,"cache_creation_input_tokens":300,"cache_creation":{"ephemeral_5m_input_tokens":200,"ephemeral_1h_input_tokens":100}}`, us46,
			mms.UsageBreakdown{Input: 110, Output: 22, CacheRead: 100, CacheWrite5m: 250, CacheWrite1h: 200, Total: 682}},
		{"mixed, global, 4.6", `{"input_tokens":100,"output_tokens":20,"cache_read_input_tokens":1000,"cache_creation_input_tokens":300,"cache_creation":{"ephemeral_5m_input_tokens":200,"ephemeral_1h_input_tokens":100}}`, mms.PriorityParams{Geo: "global", Model46OrLater: true},
			mms.UsageBreakdown{Input: 100, Output: 20, CacheRead: 100, CacheWrite5m: 250, CacheWrite1h: 200, Total: 670}},
		{"mixed, us, before 4.6", `{"input_tokens":100,"output_tokens":20,"cache_read_input_tokens":1000,"cache_creation_input_tokens":300,"cache_creation":{"ephemeral_5m_input_tokens":200,"ephemeral_1h_input_tokens":100}}`, mms.PriorityParams{Geo: "us"},
			mms.UsageBreakdown{Input: 100, Output: 20, CacheRead: 100, CacheWrite5m: 250, CacheWrite1h: 200, Total: 670}},
		// Rounding: the total is exact, not a sum of rounded parts
		// (1.1+2.2 in float64 is 3.3000000000000003).
		{"total exact", `{"input_tokens":1,"output_tokens":2}`, us46,
			mms.UsageBreakdown{Input: 1.1, Output: 2.2, Total: 3.3}},
		{"odd counts, us, 4.6", `{"input_tokens":3,"output_tokens":1,"cache_read_input_tokens":1,"cache_creation_input_tokens":1,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":1}}`, us46,
			mms.UsageBreakdown{Input: 3.3, Output: 1.1, CacheRead: 0.1, CacheWrite1h: 2, Total: 6.5}},
		// The usage's own geo wins over the request's.
		{"usage geo us wins", `{"input_tokens":10,"output_tokens":10,"inference_geo":"us"}`, mms.PriorityParams{Geo: "global", Model46OrLater: true},
			mms.UsageBreakdown{Input: 11, Output: 11, Total: 22}},
		{"usage geo global wins", `{"input_tokens":10,"output_tokens":10,"inference_geo":"global"}`, us46,
			mms.UsageBreakdown{Input: 10, Output: 10, Total: 20}},
		{"null usage geo: the request's", `{"input_tokens":10,"output_tokens":10,"inference_geo":null}`, us46,
			mms.UsageBreakdown{Input: 11, Output: 11, Total: 22}},
		{"empty", `{"input_tokens":0,"output_tokens":0}`, us46, mms.UsageBreakdown{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := usageJSON(t, tt.usage).PriorityBurn(tt.p)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("PriorityBurn (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSessionUsagePriorityBurn(t *testing.T) {
	u := mms.SessionUsage{InputTokens: 100, OutputTokens: 20, CacheReadInputTokens: 1000,
		CacheCreation: &mms.SessionCacheCreation{Ephemeral5mInputTokens: 200, Ephemeral1hInputTokens: 100}}
	tests := []struct {
		name string
		u    mms.SessionUsage
		p    mms.PriorityParams
		want mms.UsageBreakdown
	}{
		{"us, 4.6", u, mms.PriorityParams{Geo: "us", Model46OrLater: true},
			mms.UsageBreakdown{Input: 110, Output: 22, CacheRead: 100, CacheWrite5m: 250, CacheWrite1h: 200, Total: 682}},
		{"global", u, mms.PriorityParams{Geo: "global", Model46OrLater: true},
			mms.UsageBreakdown{Input: 100, Output: 20, CacheRead: 100, CacheWrite5m: 250, CacheWrite1h: 200, Total: 670}},
		{"no cache creation", mms.SessionUsage{InputTokens: 5}, mms.PriorityParams{Geo: "us", Model46OrLater: true},
			mms.UsageBreakdown{Input: 5.5, Total: 5.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.u.PriorityBurn(tt.p)); diff != "" {
				t.Errorf("PriorityBurn (-want +got):\n%s", diff)
			}
		})
	}
}

// prices: per million tokens; 1 token of each kind costs its price / 1e6.
var testPrices = mms.PriceTable{
	Models: map[string]mms.ModelPrices{
		"mms-large-1": {Input: 3, Output: 15, CacheRead: 0.3, CacheWrite5m: 3.75, CacheWrite1h: 6},
		"mms-small-1": {Input: 1, Output: 5, CacheRead: 0.1, CacheWrite5m: 1.25, CacheWrite1h: 2},
	},
	TierMultipliers: map[mms.ServiceTier]float64{mms.ServiceTierBatch: 0.5, mms.ServiceTierPriority: 1.5},
}

var approx = cmpopts.EquateApprox(1e-12, 0)

func TestMessageCost(t *testing.T) {
	mixed := `"input_tokens":1000000,"output_tokens":200000,"cache_read_input_tokens":2000000,"cache_creation_input_tokens":300000,"cache_creation":{"ephemeral_5m_input_tokens":200000,"ephemeral_1h_input_tokens":100000}`
	full := mms.UsageBreakdown{Input: 3, Output: 3, CacheRead: 0.6, CacheWrite5m: 0.75, CacheWrite1h: 0.6, Total: 7.95}
	scale := func(b mms.UsageBreakdown, f float64) mms.UsageBreakdown {
		return mms.UsageBreakdown{Input: b.Input * f, Output: b.Output * f, CacheRead: b.CacheRead * f,
			CacheWrite5m: b.CacheWrite5m * f, CacheWrite1h: b.CacheWrite1h * f, Total: b.Total * f}
	}
	tests := []struct {
		name, model, usage string
		want               mms.UsageBreakdown
	}{
		{"standard", "mms-large-1", `{` + mixed + `,"service_tier":"standard"}`, full},
		{"null tier", "mms-large-1", `{` + mixed + `,"service_tier":null}`, full},
		{"batch discount", "mms-large-1", `{` + mixed + `,"service_tier":"batch"}`, scale(full, 0.5)},
		{"priority multiplier", "mms-large-1", `{` + mixed + `,"service_tier":"priority"}`, scale(full, 1.5)},
		{"other model", "mms-small-1", `{"input_tokens":500000,"output_tokens":100000,"service_tier":"standard"}`,
			mms.UsageBreakdown{Input: 0.5, Output: 0.5, Total: 1}},
		{"one token", "mms-small-1", `{"input_tokens":1,"output_tokens":0}`, mms.UsageBreakdown{Input: 1e-6, Total: 1e-6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := &mms.Message{Model: tt.model, Usage: usageJSON(t, tt.usage)}
			got, err := testPrices.MessageCost(msg)
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, got, approx); diff != "" {
				t.Errorf("MessageCost (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCostErrors(t *testing.T) {
	neg := mms.PriceTable{Models: map[string]mms.ModelPrices{"m": {Input: 1, CacheWrite1h: -1}}}
	badTier := mms.PriceTable{Models: map[string]mms.ModelPrices{"m": {}}, TierMultipliers: map[mms.ServiceTier]float64{mms.ServiceTierBatch: -0.5}}
	zero := mms.PriceTable{Models: map[string]mms.ModelPrices{"m": {}}, TierMultipliers: map[mms.ServiceTier]float64{mms.ServiceTierBatch: 0}}
	batch := mms.Usage{InputTokens: 1, ServiceTier: mms.ServiceTierBatch}
	if _, err := testPrices.UsageCost("nope", mms.Usage{}); !errors.Is(err, mms.ErrUnpricedModel) {
		t.Errorf("unknown model: err = %v, want ErrUnpricedModel", err)
	}
	var ve *mms.ValidationError
	if _, err := neg.UsageCost("m", mms.Usage{}); !errors.As(err, &ve) || ve.Field != `Models["m"].CacheWrite1h` {
		t.Errorf("negative price: err = %v, want a ValidationError on Models[\"m\"].CacheWrite1h", err)
	}
	if _, err := badTier.UsageCost("m", batch); !errors.As(err, &ve) || ve.Field != `TierMultipliers["batch"]` {
		t.Errorf("negative multiplier: err = %v, want a ValidationError on TierMultipliers[\"batch\"]", err)
	}
	// Both sides of the limit: 0 is a valid price and multiplier.
	if got, err := zero.UsageCost("m", batch); err != nil || got != (mms.UsageBreakdown{}) {
		t.Errorf("zero prices: %v, %v", got, err)
	}
	if _, err := testPrices.MessageCost(nil); err == nil {
		t.Error("nil message: no error")
	}
}

func TestBatchCost(t *testing.T) {
	lines := []string{
		`{"custom_id":"a","result":{"type":"succeeded","message":{"id":"msg_a","type":"message","role":"assistant","model":"mms-large-1","content":[],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1000000,"output_tokens":100000,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"service_tier":"batch"}}}}`,
		`{"custom_id":"b","result":{"type":"errored","error":{"type":"error","error":{"type":"invalid_request_error","message":"bad"},"request_id":null}}}`,
		`{"custom_id":"c","result":{"type":"succeeded","message":{"id":"msg_c","type":"message","role":"assistant","model":"mms-small-1","content":[],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":0,"output_tokens":200000,"cache_creation_input_tokens":0,"cache_read_input_tokens":1000000,"service_tier":"batch"}}}}`,
		`{"custom_id":"d","result":{"type":"expired"}}`,
		`{"custom_id":"e","result":{"type":"canceled"}}`,
	}
	var results []mms.BatchResult
	for _, l := range lines {
		var r mms.BatchResult
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		results = append(results, r)
	}
	seq := func(rs []mms.BatchResult, fail error) iter.Seq2[mms.BatchResult, error] {
		return func(yield func(mms.BatchResult, error) bool) {
			for _, r := range rs {
				if !yield(r, nil) {
					return
				}
			}
			if fail != nil {
				yield(mms.BatchResult{}, fail)
			}
		}
	}
	// a: (3 + 1.5) / 2; c: (1 + 0.1) / 2.
	want := mms.UsageBreakdown{Input: 1.5, Output: 0.75 + 0.5, CacheRead: 0.05, Total: 2.25 + 0.55}
	got, err := testPrices.BatchCost(seq(results, nil))
	require.NoError(t, err)
	if diff := cmp.Diff(want, got, approx); diff != "" {
		t.Errorf("BatchCost (-want +got):\n%s", diff)
	}

	boom := errors.New("boom")
	got, err = testPrices.BatchCost(seq(results[:1], boom))
	if !errors.Is(err, boom) {
		t.Errorf("err = %v, want boom", err)
	}
	if diff := cmp.Diff(mms.UsageBreakdown{Input: 1.5, Output: 0.75, Total: 2.25}, got, approx); diff != "" {
		t.Errorf("total so far (-want +got):\n%s", diff)
	}

	unpriced := mms.PriceTable{Models: map[string]mms.ModelPrices{"mms-large-1": {}}}
	if _, err := unpriced.BatchCost(seq(results, nil)); !errors.Is(err, mms.ErrUnpricedModel) {
		t.Errorf("unpriced model: err = %v, want ErrUnpricedModel", err)
	}
}

func TestSessionCost(t *testing.T) {
	u := mms.SessionUsage{InputTokens: 1_000_000, OutputTokens: 100_000, CacheReadInputTokens: 1_000_000,
		CacheCreation: &mms.SessionCacheCreation{Ephemeral5mInputTokens: 1_000_000, Ephemeral1hInputTokens: 500_000}}
	got, err := testPrices.SessionCost("mms-large-1", u)
	require.NoError(t, err)
	// No tier multiplier: a session reports none.
	want := mms.UsageBreakdown{Input: 3, Output: 1.5, CacheRead: 0.3, CacheWrite5m: 3.75, CacheWrite1h: 3, Total: 11.55}
	if diff := cmp.Diff(want, got, approx); diff != "" {
		t.Errorf("SessionCost (-want +got):\n%s", diff)
	}
	if _, err := testPrices.SessionCost("nope", u); !errors.Is(err, mms.ErrUnpricedModel) {
		t.Errorf("unknown model: err = %v", err)
	}
}

func TestUsageBreakdownAdd(t *testing.T) {
	a := mms.UsageBreakdown{Input: 1, Output: 2, CacheRead: 3, CacheWrite5m: 4, CacheWrite1h: 5, Total: 15}
	want := mms.UsageBreakdown{Input: 2, Output: 4, CacheRead: 6, CacheWrite5m: 8, CacheWrite1h: 10, Total: 30}
	if diff := cmp.Diff(want, a.Add(a)); diff != "" {
		t.Errorf("Add (-want +got):\n%s", diff)
	}
}
