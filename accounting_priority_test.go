package mms_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// hiParams is a request whose fake reply uses 15 input and 3 output tokens.
var hiParams = mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 100, Messages: []mms.MessageParam{mms.UserText("Hi")}}

// TestPriorityHeadersFromFake: the typed priority buckets of
// ResponseMetadata equal the fake's commitment arithmetic, and the reply's
// burn-down is what the fake drew.
func TestPriorityHeadersFromFake(t *testing.T) {
	now := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	srv := mmstest.NewServer(mmstest.WithClock(func() time.Time { return now }), mmstest.WithPriorityCommitment(
		mmstest.PriorityCommitment{Model: "mms-large-1", InputTokensPerMinute: 600, OutputTokensPerMinute: 60, Model46OrLater: true}))
	t.Cleanup(srv.Close)
	c := filesClient(t, srv)
	p := hiParams
	p.InferenceGeo = "us"
	var md mms.ResponseMetadata
	msg, err := c.Messages.Create(context.Background(), p, option.WithResponseMetadata(&md))
	require.NoError(t, err)
	if msg.Usage.InputTokens != 15 || msg.Usage.OutputTokens != 3 || msg.Usage.ServiceTier != mms.ServiceTierPriority {
		t.Fatalf("usage %+v, want 15 in, 3 out, priority", msg.Usage)
	}
	burn := msg.Usage.PriorityBurn(mms.PriorityParams{Model46OrLater: true}) // geo from the usage
	if diff := cmp.Diff(mms.UsageBreakdown{Input: 16.5, Output: 3.3, Total: 19.8}, burn); diff != "" {
		t.Errorf("burn (-want +got):\n%s", diff)
	}
	// The fake draws each bucket's burn rounded up: 17 of 600 (10 a second:
	// full again in 1.7s, the reset rounded up to 2s), 4 of 60 (1 a second:
	// 4s).
	in, okIn := md.PriorityInputTokens()
	out, okOut := md.PriorityOutputTokens()
	want := []any{mms.RateLimit{Limit: 600, Remaining: 583, Reset: now.Add(2 * time.Second)}, true,
		mms.RateLimit{Limit: 60, Remaining: 56, Reset: now.Add(4 * time.Second)}, true}
	if diff := cmp.Diff(want, []any{in, okIn, out, okOut}); diff != "" {
		t.Errorf("priority buckets (-want +got):\n%s", diff)
	}

	// standard_only: no priority headers.
	p.ServiceTier = mms.ServiceTierStandardOnly
	if _, err := c.Messages.Create(context.Background(), p, option.WithResponseMetadata(&md)); err != nil {
		t.Fatal(err)
	}
	if _, ok := md.PriorityInputTokens(); ok {
		t.Error("standard_only response carried priority headers")
	}
	if _, ok := md.PriorityOutputTokens(); ok {
		t.Error("standard_only response carried priority headers")
	}
}

// TestPriorityPacing: after a response whose priority bucket is empty, a
// client with WithPriorityPacing waits for its reset (here held back past a
// short deadline, the request never sent); a client without it sends at
// once. Per call, the option paces by the client limiter's knowledge.
func TestPriorityPacing(t *testing.T) {
	messageCalls := func(srv *mmstest.Server) int {
		n := 0
		for _, r := range srv.Requests() {
			if r.Path == "/v1/messages" {
				n++
			}
		}
		return n
	}
	tests := []struct {
		name      string
		client    []option.RequestOption
		call      []option.RequestOption
		heldBack  bool
		wantCalls int
	}{
		{"no pacing", nil, nil, false, 2},
		{"rate limit without priority pacing", []option.RequestOption{option.WithRateLimit(6000, 0)}, nil, false, 2},
		{"priority pacing alone", []option.RequestOption{option.WithPriorityPacing()}, nil, true, 1},
		{"after a rate limit", []option.RequestOption{option.WithRateLimit(6000, 0), option.WithPriorityPacing()}, nil, true, 1},
		{"per call", []option.RequestOption{option.WithRateLimit(6000, 0)}, []option.RequestOption{option.WithPriorityPacing()}, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The fake's clock is the wall clock at the start, frozen: the
			// reset it reports (15 of 15 input tokens drawn: 60s) is real.
			start := time.Now()
			srv := mmstest.NewServer(mmstest.WithClock(func() time.Time { return start }), mmstest.WithPriorityCommitment(
				mmstest.PriorityCommitment{Model: "mms-large-1", InputTokensPerMinute: 15, OutputTokensPerMinute: 60}))
			t.Cleanup(srv.Close)
			c := filesClient(t, srv, append(tt.client, option.WithMaxRetries(0))...)
			var md mms.ResponseMetadata
			msg, err := c.Messages.Create(context.Background(), hiParams, option.WithResponseMetadata(&md))
			require.NoError(t, err)
			if in, _ := md.PriorityInputTokens(); msg.Usage.ServiceTier != mms.ServiceTierPriority || in.Remaining != 0 {
				t.Fatalf("first call: tier %q, input bucket %+v; want priority, 0 remaining", msg.Usage.ServiceTier, in)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			_, err = c.Messages.Create(ctx, hiParams, tt.call...)
			if got := err != nil; got != tt.heldBack {
				t.Errorf("second call held back = %v (err %v), want %v", got, err, tt.heldBack)
			}
			if got := messageCalls(srv); got != tt.wantCalls {
				t.Errorf("calls = %d, want %d", got, tt.wantCalls)
			}
		})
	}
}
