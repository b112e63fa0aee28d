package mms

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/testutil"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// callKinds are the service calls whose option handling the tests below
// check, each run once against the fake with the per-call options given.
var callKinds = []struct {
	name string
	run  func(ctx context.Context, c *Client, srv *mmstest.Server, opts ...option.RequestOption) error
}{
	{"Create", func(ctx context.Context, c *Client, srv *mmstest.Server, opts ...option.RequestOption) error {
		_, err := c.Messages.Create(ctx, callParams(), opts...)
		return err
	}},
	{"Create with a body user profile", func(ctx context.Context, c *Client, srv *mmstest.Server, opts ...option.RequestOption) error {
		p := callParams()
		p.UserProfileID = "prof_1"
		_, err := c.Messages.Create(ctx, p, opts...)
		return err
	}},
	{"Stream", func(ctx context.Context, c *Client, srv *mmstest.Server, opts ...option.RequestOption) error {
		return drain(c.Messages.Stream(ctx, callParams(), opts...))
	}},
	{"CountTokens", func(ctx context.Context, c *Client, srv *mmstest.Server, opts ...option.RequestOption) error {
		_, err := c.Messages.CountTokens(ctx, MessageCountTokensParams{Model: "mms-large-1",
			Messages: []MessageParam{UserText("hi")}}, opts...)
		return err
	}},
	{"Models.List over pages", func(ctx context.Context, c *Client, srv *mmstest.Server, opts ...option.RequestOption) error {
		return drain(c.Models.List(ctx, ModelListParams{Limit: 1}, opts...))
	}},
	{"Batches.Create", func(ctx context.Context, c *Client, srv *mmstest.Server, opts ...option.RequestOption) error {
		_, err := c.Messages.Batches.Create(ctx, BatchCreateParams{Requests: []BatchRequest{{CustomID: "a", Params: callParams()}}}, opts...)
		return err
	}},
	{"Batches.List over pages", func(ctx context.Context, c *Client, srv *mmstest.Server, opts ...option.RequestOption) error {
		for _, id := range []string{"a", "b"} {
			if _, err := c.Messages.Batches.Create(ctx, BatchCreateParams{Requests: []BatchRequest{{CustomID: id, Params: callParams()}}}); err != nil {
				return err
			}
		}
		return drain(c.Messages.Batches.List(ctx, BatchListParams{Limit: 1}, opts...))
	}},
	{"Batches.Wait over polls", func(ctx context.Context, c *Client, srv *mmstest.Server, opts ...option.RequestOption) error {
		b, err := c.Messages.Batches.Create(ctx, BatchCreateParams{Requests: []BatchRequest{{CustomID: "a", Params: callParams()}}})
		if err != nil {
			return err
		}
		srv.ResetRequests()
		if _, err = c.Messages.Batches.Wait(ctx, b.ID, BatchWaitParams{PollInterval: time.Millisecond}, opts...); err != nil {
			return err
		}
		if n := len(srv.Requests()); n < 2 {
			return fmt.Errorf("Wait polled %d times; the test needs at least 2", n)
		}
		return nil
	}},
	{"Batches.Results", func(ctx context.Context, c *Client, srv *mmstest.Server, opts ...option.RequestOption) error {
		b, err := c.Messages.Batches.Create(ctx, BatchCreateParams{Requests: []BatchRequest{{CustomID: "a", Params: callParams()}}})
		if err != nil {
			return err
		}
		if _, err = c.Messages.Batches.Wait(ctx, b.ID, BatchWaitParams{PollInterval: time.Millisecond}); err != nil {
			return err
		}
		return drain(c.Messages.Batches.Results(ctx, b.ID, opts...))
	}},
	{"Files.Upload", func(ctx context.Context, c *Client, srv *mmstest.Server, opts ...option.RequestOption) error {
		_, err := c.Files.Upload(ctx, FileUploadParams{Reader: strings.NewReader("hello"), Filename: "a.txt"}, opts...)
		return err
	}},
}

func callParams() MessageCreateParams {
	return MessageCreateParams{Model: "mms-large-1", MaxTokens: 64, Messages: []MessageParam{UserText("hello there")}}
}

func drain[T any](seq iter.Seq2[T, error]) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

// callFake starts mmstest and a client on it. Batches take an hour on the
// fake's clock, which moves 40 minutes after each request: a batch ends on
// the second request after its creation.
func callFake(t *testing.T) (*Client, *mmstest.Server) {
	t.Helper()
	clock := testutil.NewClock(time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC))
	srv := mmstest.NewServer(mmstest.WithClock(clock.Now), mmstest.WithBatchProcessingTime(time.Hour))
	t.Cleanup(srv.Close)
	tick := option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(r)
		clock.Advance(40 * time.Minute)
		return resp, err
	})
	c, err := NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL), tick)
	require.NoError(t, err)
	return c, srv
}

// TestCallAppliesOptionsOnce: every call applies its per-call option list
// exactly once, however many requests it makes (pages, polls) and whatever
// it reads from the configuration before sending (Stream, a body user
// profile, the idle timeout of Results).
func TestCallAppliesOptionsOnce(t *testing.T) {
	for _, k := range callKinds {
		t.Run(k.name, func(t *testing.T) {
			c, srv := callFake(t)
			applied := 0
			counting := option.RequestOption(func(*config.Config) error { applied++; return nil })
			if err := k.run(context.Background(), c, srv, counting); err != nil {
				t.Fatal(err)
			}
			if applied != 1 {
				t.Errorf("the per-call option was applied %d times, want 1", applied)
			}
		})
	}
}

// recordingLimiter records what the pipeline asks of a limiter.
type recordingLimiter struct {
	mu       sync.Mutex
	waits    []int    // the tokens of each Wait
	corrects [][2]int // estimate, actual
}

func (l *recordingLimiter) Wait(_ context.Context, tokens int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.waits = append(l.waits, tokens)
	return nil
}

func (l *recordingLimiter) Observe(http.Header) {}

func (l *recordingLimiter) Correct(estimate, actual int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.corrects = append(l.corrects, [2]int{estimate, actual})
}

// limiterOption builds a fresh limiter each time it is applied, as
// option.WithRateLimit does, and records every limiter it built.
func limiterOption(built *[]*recordingLimiter) option.RequestOption {
	return func(c *config.Config) error {
		l := &recordingLimiter{}
		*built = append(*built, l)
		c.Limiter = l
		return nil
	}
}

// TestCallLimiterIsOne: a per-call limiter option yields one limiter, the
// one that is both waited on and corrected from the reply's usage.
func TestCallLimiterIsOne(t *testing.T) {
	for _, kind := range []string{"Create", "Stream"} {
		t.Run(kind, func(t *testing.T) {
			c, _ := callFake(t)
			var built []*recordingLimiter
			var msg *Message
			var err error
			if kind == "Create" {
				msg, err = c.Messages.Create(context.Background(), callParams(), limiterOption(&built))
			} else {
				var acc MessageAccumulator
				for ev, e := range c.Messages.Stream(context.Background(), callParams(), limiterOption(&built)) {
					if err = e; err == nil {
						err = acc.Add(ev)
					}
					if err != nil {
						break
					}
				}
				msg = acc.Message()
			}
			require.NoError(t, err)
			if len(built) != 1 {
				t.Fatalf("%d limiters built, want 1", len(built))
			}
			l := built[0]
			if len(l.waits) != 1 || len(l.corrects) != 1 {
				t.Fatalf("limiter got waits %v and corrections %v, want one of each", l.waits, l.corrects)
			}
			want := [2]int{l.waits[0], msg.Usage.TotalInputTokens() + msg.Usage.OutputTokens}
			if l.corrects[0] != want {
				t.Errorf("Correct(%d, %d), want Correct(%d, %d): the estimate waited for, then the billed usage",
					l.corrects[0][0], l.corrects[0][1], want[0], want[1])
			}
		})
	}
}

// TestTokenBudget: the estimate is a token per four bytes of a JSON body and
// nothing for a streamed one, and correct hands the limiter the estimate
// with the billed count.
func TestTokenBudget(t *testing.T) {
	l := &recordingLimiter{}
	cl := call{cfg: &config.Config{Limiter: l}}
	tests := []struct {
		name string
		r    *request
		want int
	}{
		{"no body", &request{}, 0},
		{"JSON body under four bytes", &request{raw: []byte(`{}`)}, 0},
		{"JSON body", &request{raw: []byte(strings.Repeat("x", 4003))}, 1000},
		{"streamed body of known size", &request{stream: strings.NewReader("data"), size: 4 << 20}, 0},
		{"streamed body of unknown size", &request{stream: strings.NewReader("data"), size: -1}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := cl.budget(tt.r)
			if b.estimate != tt.want {
				t.Errorf("estimate = %d, want %d", b.estimate, tt.want)
			}
		})
	}
	cl.budget(&request{raw: make([]byte, 400)}).correct(250)
	if d := cmp.Diff([][2]int{{100, 250}}, l.corrects); d != "" {
		t.Errorf("corrections (-want +got):\n%s", d)
	}
	tokenBudget{}.correct(10) // no limiter: nothing to do, no panic
}

// TestCallBadOptionSendsNothing: a bad per-call option fails the call
// before anything is sent, for a single request and for a list.
func TestCallBadOptionSendsNothing(t *testing.T) {
	srv := mmstest.NewServer()
	t.Cleanup(srv.Close)
	c, err := NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL))
	require.NoError(t, err)
	bad := option.WithMaxRetries(-1)
	if _, err := c.Models.Get(context.Background(), "m", bad); err == nil || !strings.Contains(err.Error(), "WithMaxRetries") {
		t.Errorf("Get: err = %v, want the option's error", err)
	}
	if err := drain(c.Models.List(context.Background(), ModelListParams{}, bad)); err == nil || !strings.Contains(err.Error(), "WithMaxRetries") {
		t.Errorf("List: err = %v, want the option's error", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}
