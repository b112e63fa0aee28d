package bedrock

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/bedrock/bedrocktest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
	"github.com/mms-sdk/mms-go/option"
	"github.com/mms-sdk/mms-go/platform"
)

const testModel = "mms-large-1"

// steppingClock advances a second per reading, so each attempt's
// signature has its own X-Amz-Date without the test waiting.
func steppingClock() func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Second)
		return t
	}
}

// bedrockClient returns a client talking to a Bedrock front over mmstest.
func bedrockClient(t *testing.T, frontOpts []bedrocktest.Option, opts ...Option) (*mms.Client, *bedrocktest.Server, *mmstest.Server) {
	t.Helper()
	front := bedrocktest.Front(frontOpts...)
	srv := mmstest.NewServer(mmstest.WithPlatform(front))
	t.Cleanup(srv.Close)
	a := newAdapter(bedrocktest.Config(), env(nil), steppingClock(), opts)
	base := srv.URL
	if a.mantle {
		base += "/" + vendor
	}
	client, err := mms.NewClient(option.WithPlatform(a), option.WithBaseURL(base), option.WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	return client, front, srv
}

func params(prompt string) mms.MessageCreateParams {
	return mms.MessageCreateParams{Model: testModel, MaxTokens: 256, Messages: []mms.MessageParam{mms.UserText(prompt)}}
}

// collect reads a stream to its end or first error.
func collect(stream func(func(mms.MessageStreamEvent, error) bool)) ([]mms.MessageStreamEvent, error) {
	var events []mms.MessageStreamEvent
	for ev, err := range stream {
		if err != nil {
			return events, err
		}
		events = append(events, ev)
	}
	return events, nil
}

// TestCreateAndStreamMatchTheDirectFake: the same prompt gives the same
// typed results through InvokeModel (SigV4, bearer) and Mantle as against
// the fake directly.
func TestCreateAndStreamMatchTheDirectFake(t *testing.T) {
	direct, _ := fakeclient.New(t)
	ctx := context.Background()
	wantMsg, err := direct.Messages.Create(ctx, params("Hello there"))
	if err != nil {
		t.Fatal(err)
	}
	wantEvents, err := collect(direct.Messages.Stream(ctx, params("Hello there")))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		frontOpts []bedrocktest.Option
		opts      []Option
		auth      string
		service   string
	}{
		{"invoke sigv4", nil, nil, "sigv4", "bedrock"},
		{"invoke bearer", []bedrocktest.Option{bedrocktest.WithBearerTokens("api-key")}, []Option{BearerToken("api-key")}, "bearer", "bedrock"},
		{"mantle sigv4", nil, []Option{Mantle()}, "sigv4", "bedrock-mantle"},
		{"mantle bearer", []bedrocktest.Option{bedrocktest.WithBearerTokens("api-key")}, []Option{Mantle(), BearerToken("api-key")}, "bearer", "bedrock-mantle"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client, front, _ := bedrockClient(t, tc.frontOpts, tc.opts...)
			var md option.ResponseMetadata
			msg, err := client.Messages.Create(ctx, params("Hello there"), option.WithResponseMetadata(&md))
			if err != nil {
				t.Fatal(err)
			}
			if md.RequestID == "" || md.PlatformRequestID == "" || md.PlatformRequestID == md.RequestID {
				t.Errorf("request ids: service %q, platform %q", md.RequestID, md.PlatformRequestID)
			}
			if diff := cmp.Diff(wantMsg, msg); diff != "" {
				t.Errorf("Create (-direct +bedrock):\n%s", diff)
			}
			events, err := collect(client.Messages.Stream(ctx, params("Hello there")))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantEvents, events); diff != "" {
				t.Errorf("Stream (-direct +bedrock):\n%s", diff)
			}
			attempts := front.Attempts()
			if len(attempts) != 2 {
				t.Fatalf("%d attempts", len(attempts))
			}
			for _, a := range attempts {
				if a.Auth != tc.auth || a.Service != tc.service {
					t.Errorf("attempt %s %s auth %q service %q", a.Method, a.Path, a.Auth, a.Service)
				}
			}
			if tc.service == "bedrock" && (attempts[0].Path != "/model/"+testModel+"/invoke" || attempts[1].Path != "/model/"+testModel+"/invoke-with-response-stream") {
				t.Errorf("paths %q %q", attempts[0].Path, attempts[1].Path)
			}
		})
	}
}

// TestRetryIsSignedAfresh: a 503 is retried, and the retry carries its own
// X-Amz-Date and signature.
func TestRetryIsSignedAfresh(t *testing.T) {
	client, front, _ := bedrockClient(t, nil)
	front.FailNext(503, "ServiceUnavailableException", "Bedrock is busy")
	if _, err := client.Messages.Create(context.Background(), params("Hi")); err != nil {
		t.Fatal(err)
	}
	a := front.Attempts()
	if len(a) != 2 {
		t.Fatalf("%d attempts, want 2", len(a))
	}
	if a[0].Date == "" || a[0].Date == a[1].Date || a[0].Signature == "" || a[0].Signature == a[1].Signature {
		t.Errorf("attempts share a signature: %q/%q, %q/%q", a[0].Date, a[0].Signature, a[1].Date, a[1].Signature)
	}
}

// TestErrorsAreTyped: Bedrock's error answers become *mms.Error with the
// service's type and the message kept.
func TestErrorsAreTyped(t *testing.T) {
	client, front, _ := bedrockClient(t, nil)
	front.FailNext(429, "ThrottlingException", "Too many requests, please wait")
	_, err := client.Messages.Create(context.Background(), params("Hi"), option.WithMaxRetries(0))
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 429 || apiErr.Type != "rate_limit_error" ||
		apiErr.Message != "Too many requests, please wait" || !errors.Is(err, mms.ErrRateLimited) || apiErr.PlatformRequestID == "" {
		t.Fatalf("err = %#v", err)
	}
	_, err = client.Messages.Create(context.Background(), mms.MessageCreateParams{Model: "no-such-model", MaxTokens: 8,
		Messages: []mms.MessageParam{mms.UserText("Hi")}})
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 404 || apiErr.Type != "not_found_error" || !errors.Is(err, mms.ErrNotFound) ||
		apiErr.RequestID == "" || apiErr.PlatformRequestID == "" || !strings.Contains(err.Error(), apiErr.PlatformRequestID) {
		t.Fatalf("err = %#v", err)
	}
}

// TestStreamFailures: an exception frame and the service's own error
// event mid-stream both end the stream with *mms.Error after the events
// before them.
func TestStreamFailures(t *testing.T) {
	for _, tc := range []struct {
		name    string
		inject  func(*bedrocktest.Server, *mmstest.Server)
		events  int
		errType string
		message string
	}{
		{"exception frame", func(f *bedrocktest.Server, _ *mmstest.Server) {
			f.ExceptionAfter(3, "throttlingException", "Too many tokens, please wait")
		}, 3, "rate_limit_error", "Too many tokens, please wait"},
		{"model stream exception", func(f *bedrocktest.Server, _ *mmstest.Server) {
			f.ExceptionAfter(2, "modelStreamErrorException", "The model stopped")
		}, 2, "api_error", "The model stopped"},
		{"the service's error event", func(_ *bedrocktest.Server, s *mmstest.Server) {
			s.InjectStreamFault(mmstest.StreamFault{Path: "/v1/messages", ErrorAfterEvents: 2, Times: 1})
		}, 2, "overloaded_error", "Overloaded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client, front, srv := bedrockClient(t, nil)
			tc.inject(front, srv)
			events, err := collect(client.Messages.Stream(context.Background(), params("Tell me a story")))
			var apiErr *mms.Error
			if !errors.As(err, &apiErr) || apiErr.Type != tc.errType || apiErr.Message != tc.message {
				t.Fatalf("err = %#v", err)
			}
			if len(events) != tc.events {
				t.Errorf("%d events before the error, want %d", len(events), tc.events)
			}
		})
	}
}

// TestRefusedBeforeSending: endpoints InvokeModel lacks, and a body over
// 20 MB, fail without a request reaching the front.
func TestRefusedBeforeSending(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		opts []Option
		call func(*mms.Client) error
		is   error
	}{
		{"count_tokens", nil, func(c *mms.Client) error {
			_, err := c.Messages.CountTokens(ctx, mms.MessageCountTokensParams{Model: testModel, Messages: []mms.MessageParam{mms.UserText("Hi")}})
			return err
		}, platform.ErrUnsupported},
		{"batches", nil, func(c *mms.Client) error {
			_, err := c.Messages.Batches.Create(ctx, mms.BatchCreateParams{Requests: []mms.BatchRequest{{CustomID: "a", Params: params("Hi")}}})
			return err
		}, platform.ErrUnsupported},
		{"models", nil, func(c *mms.Client) error {
			_, err := c.Models.ListPage(ctx, mms.ModelListParams{})
			return err
		}, platform.ErrUnsupported},
		{"mantle count_tokens", []Option{Mantle()}, func(c *mms.Client) error {
			_, err := c.Messages.CountTokens(ctx, mms.MessageCountTokensParams{Model: testModel, Messages: []mms.MessageParam{mms.UserText("Hi")}})
			return err
		}, platform.ErrUnsupported},
		{"body over 20 MB", nil, func(c *mms.Client) error {
			_, err := c.Messages.Create(ctx, params(strings.Repeat("a", MaxBodySize)))
			return err
		}, mms.ErrRequestTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client, front, _ := bedrockClient(t, nil, tc.opts...)
			err := tc.call(client)
			if !errors.Is(err, tc.is) {
				t.Fatalf("err = %v, want %v", err, tc.is)
			}
			var tooLarge *mms.RequestTooLargeError
			if errors.Is(tc.is, mms.ErrRequestTooLarge) && !errors.As(err, &tooLarge) {
				t.Errorf("err %T is not a *mms.RequestTooLargeError", err)
			}
			if n := len(front.Attempts()); n != 0 {
				t.Errorf("the front saw %d requests", n)
			}
		})
	}
}

// TestWithConfig: the public option, with the environment's bearer token
// taking precedence over the config's credentials.
func TestWithConfig(t *testing.T) {
	front := bedrocktest.Front(bedrocktest.WithBearerTokens("env-key"))
	srv := mmstest.NewServer(mmstest.WithPlatform(front))
	t.Cleanup(srv.Close)
	t.Setenv(EnvBearerToken, "env-key")
	client, err := mms.NewClient(WithConfig(bedrocktest.Config()), option.WithBaseURL(srv.URL), option.WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Messages.Create(context.Background(), params("Hi")); err != nil {
		t.Fatal(err)
	}
	if a := front.Attempts(); len(a) != 1 || a[0].Auth != "bearer" {
		t.Errorf("attempts %+v", a)
	}

	// A configuration that cannot work is NewClient's error.
	t.Setenv(EnvBearerToken, "")
	if _, err := mms.NewClient(WithConfig(bedrocktest.Config(), BearerToken(""))); err == nil || !strings.Contains(err.Error(), "token is empty") {
		t.Errorf("NewClient err = %v", err)
	}
}
