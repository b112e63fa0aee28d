package mms_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

func TestRateLimitPacesRequests(t *testing.T) {
	s := newScriptServer(t)
	// 600 per minute = 10 per second with a burst of 10: requests 11 and 12
	// must wait about 100 ms each.
	c := newTestClient(t, s, option.WithRateLimit(600, 0))
	start := time.Now()
	for range 12 {
		if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if took := time.Since(start); took < 150*time.Millisecond {
		t.Errorf("12 requests at 10/s with burst 10 took %v, want ≥ 150ms", took)
	}
}

func TestRateLimitWaitRespectsContext(t *testing.T) {
	s := newScriptServer(t)
	c := newTestClient(t, s, option.WithRateLimit(1, 0)) // one per minute
	if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := c.Do(ctx, "GET", "/v1/models", nil, nil)
	if err == nil {
		t.Fatal("second request was not held back")
	}
	if took := time.Since(start); took > 10*time.Second { // vs the one-minute wait
		t.Errorf("cancel took %v to return", took)
	}
	if n := len(s.requests()); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

func TestRateLimitHonoursServerHeaders(t *testing.T) {
	reset := time.Now().Add(1200 * time.Millisecond).UTC().Format(time.RFC3339Nano)
	s := newScriptServer(t, reply{header: map[string]string{
		"Vendor-Ratelimit-Requests-Remaining": "0", "Vendor-Ratelimit-Requests-Reset": reset,
	}, body: `{}`})
	c := newTestClient(t, s, option.WithRateLimit(6000, 0))
	if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < 500*time.Millisecond {
		t.Errorf("request after an empty server bucket went after %v, want a pause until reset", took)
	}
}

func TestWithRateLimiterUsesCallerLimiter(t *testing.T) {
	s := newScriptServer(t)
	lim := rate.NewLimiter(rate.Every(time.Hour), 1)
	c := newTestClient(t, s, option.WithRateLimiter(lim))
	if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := c.Do(ctx, "GET", "/v1/models", nil, nil); err == nil {
		t.Fatalf("err = %v, want the limiter to refuse within the deadline", err)
	}
}

// TestRateLimitCorrectedFromStreamUsage: a stream whose usage is far above
// the client's estimate charges the difference, holding back the next call.
func TestRateLimitCorrectedFromStreamUsage(t *testing.T) {
	const sse = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":5000,\"output_tokens\":1}}}\n\n" +
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":1000}}\n\n" +
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	s := newScriptServer(t, reply{header: map[string]string{"Content-Type": "text/event-stream"}, body: sse})
	c := newTestClient(t, s, option.WithRateLimit(0, 6000)) // 100 tokens/s, burst 6000
	p := mms.MessageCreateParams{Model: "m", MaxTokens: 10, Messages: []mms.MessageParam{mms.UserText("hi")}}
	for _, err := range c.Messages.Stream(context.Background(), p) {
		require.NoError(t, err)
	}
	// 6000 tokens were used against a ~30-token estimate: the bucket is in
	// debt, so a request now waits well beyond 100 ms.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := c.Do(ctx, "POST", "/v1/messages/count_tokens", map[string]string{"model": strings.Repeat("m", 400)}, nil); err == nil {
		t.Fatal("the call after an under-estimated stream was not held back")
	}
}
