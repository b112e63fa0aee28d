// Package option holds the functional options of mms-go. Every option works
// both on mms.NewClient (for all calls) and on a single call (for that call
// only, on top of the client's settings):
//
//	client, err := mms.NewClient(option.WithAPIKey(os.Getenv("MY_KEY")), option.WithMaxRetries(4))
//	if err != nil {
//		return err
//	}
//	params := mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 1024, Messages: []mms.MessageParam{mms.UserText("Hello")}}
//	msg, err := client.Messages.Create(ctx, params, option.WithBeta("context-1m-2025-08-07"))
//
// Options validate their arguments; a bad one makes NewClient, or the call,
// return an error before anything is sent.
package option

import (
	"context"
	"errors"
	"fmt"
	"github.com/mms-sdk/mms-go/observe"
	"github.com/mms-sdk/mms-go/platform"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/ratelimit"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// A RequestOption configures a client, when given to mms.NewClient, or a
// single call, when given to a service method (on top of the client's
// settings, for that call only). The With functions of this package make
// them; a nil RequestOption is ignored. An option that returns an error
// fails NewClient, or the call before anything is sent.
type RequestOption func(*config.Config) error

// Middleware wraps every HTTP attempt (retries included) of a call. It may
// inspect or change the request, call next, and inspect the response.
// Middlewares run in the order given: the first is the outermost.
type Middleware func(req *http.Request, next MiddlewareNext) (*http.Response, error)

// MiddlewareNext continues the middleware chain: the next middleware, or,
// after the last one, the HTTP attempt itself.
type MiddlewareNext func(req *http.Request) (*http.Response, error)

func fail(format string, args ...any) error { return fmt.Errorf("option: "+format, args...) }

// WithAPIKey authenticates with an API key, sent as x-api-key. It replaces a
// bearer token set earlier (on the client, when given per call).
func WithAPIKey(key string) RequestOption {
	return func(c *config.Config) error {
		if strings.TrimSpace(key) == "" {
			return fail("WithAPIKey: the key is empty")
		}
		if err := transport.CheckHeaderValue(key); err != nil {
			return fail("WithAPIKey: the key %w", err)
		}
		c.SetCredential("WithAPIKey", func(c *config.Config) { c.APIKey = key })
		return nil
	}
}

// WithAuthToken authenticates with a bearer token, sent as
// "Authorization: Bearer <token>". It replaces an API key set earlier.
func WithAuthToken(token string) RequestOption {
	return func(c *config.Config) error {
		if strings.TrimSpace(token) == "" {
			return fail("WithAuthToken: the token is empty")
		}
		if err := transport.CheckHeaderValue(token); err != nil {
			return fail("WithAuthToken: the token %w", err)
		}
		c.SetCredential("WithAuthToken", func(c *config.Config) { c.AuthToken = token })
		return nil
	}
}

// WithBaseURL sets the service address, e.g. "https://api.example.com". A
// path prefix is kept ("https://proxy.example.com/mms" + "/v1/messages").
func WithBaseURL(base string) RequestOption {
	return func(c *config.Config) error {
		u, err := transport.ParseBaseURL(base)
		if err != nil {
			return err
		}
		c.BaseURL = u
		return nil
	}
}

// WithVersion sets the vendor-version header (default "2023-06-01").
func WithVersion(version string) RequestOption {
	return func(c *config.Config) error {
		if strings.TrimSpace(version) == "" {
			return fail("WithVersion: the version is empty")
		}
		if err := transport.CheckHeaderValue(version); err != nil {
			return fail("WithVersion: %q %w", version, err)
		}
		c.Version = version
		return nil
	}
}

// WithBeta adds beta names to the vendor-beta header. Betas from the client,
// the call and the endpoint are merged into one de-duplicated list.
func WithBeta(names ...string) RequestOption {
	return func(c *config.Config) error {
		for _, n := range names {
			n = strings.TrimSpace(n)
			if n == "" || strings.ContainsAny(n, ", ") {
				return fail("WithBeta: %q is not a beta name", n)
			}
			if err := transport.CheckHeaderValue(n); err != nil {
				return fail("WithBeta: %q %w", n, err)
			}
			c.Betas = append(c.Betas, n)
		}
		return nil
	}
}

// WithoutEndpointBeta stops the SDK from adding an endpoint's own beta name
// (the Files and Skills betas, which the service may accept without them).
func WithoutEndpointBeta(names ...string) RequestOption {
	return func(c *config.Config) error {
		c.OmitBetas = append(c.OmitBetas, names...)
		return nil
	}
}

// WithHeader sets an extra request header. It cannot set credentials (use
// WithAPIKey or WithAuthToken, which keep them out of logs and errors); a
// vendor-beta header given here is merged with the other betas.
func WithHeader(key, value string) RequestOption {
	return func(c *config.Config) error {
		canon := http.CanonicalHeaderKey(strings.TrimSpace(key))
		if canon == "" {
			return fail("WithHeader: the header name is empty")
		}
		if err := transport.CheckHeaderName(canon); err != nil {
			return fail("WithHeader: %q %w", canon, err)
		}
		switch canon {
		case wire.HeaderAPIKey, wire.HeaderAuthorization:
			return fail("WithHeader: %s carries a credential; use WithAPIKey or WithAuthToken", canon)
		case wire.HeaderBeta:
			// A header's value may be a secret: its errors name the
			// header, never the value (WithBeta's quote the name).
			for _, n := range strings.Split(value, ",") {
				if n = strings.TrimSpace(n); n == "" || strings.ContainsAny(n, ", ") || transport.CheckHeaderValue(n) != nil {
					return fail("WithHeader: the value of %s is not a comma-separated list of beta names", canon)
				}
			}
			return WithBeta(strings.Split(value, ",")...)(c)
		}
		if err := transport.CheckHeaderValue(value); err != nil {
			return fail("WithHeader: the value of %s %w", canon, err) // not quoted: it may be a secret
		}
		if c.Header == nil {
			c.Header = make(http.Header)
		}
		c.Header.Set(canon, value)
		return nil
	}
}

// WithHTTPClient sends requests through hc (its Transport, Jar and
// CheckRedirect). Its Timeout, if any, bounds every attempt. hc is not
// modified: the SDK sends through a copy whose CheckRedirect first refuses
// redirects to another origin and of non-idempotent methods (an
// *mms.RedirectError), then asks hc's CheckRedirect.
func WithHTTPClient(hc *http.Client) RequestOption {
	return func(c *config.Config) error {
		if hc == nil {
			return fail("WithHTTPClient: the client is nil")
		}
		c.HTTPClient = hc
		return nil
	}
}

// WithMaxRetries sets how many times a failed attempt is retried (default
// 2, so 3 attempts; 0 disables retries). Which failures are retried
// depends on the request: reads, deletes, archives, updates and Messages
// calls after any retryable failure; requests that create something
// (batches, sessions, sent events, agents, uploads, …) only when the
// failed attempt provably took no effect (see mms.ErrMaybeApplied).
// Retries also draw on the client's retry budget ([WithRetryBudget]).
func WithMaxRetries(n int) RequestOption {
	return func(c *config.Config) error {
		if n < 0 {
			return fail("WithMaxRetries: %d is negative", n)
		}
		c.MaxRetries = n
		return nil
	}
}

// WithRequestTimeout bounds each attempt (not the whole call: retries get a
// fresh timeout). For streams it bounds the wait for the response headers;
// use WithStreamIdleTimeout for the stream itself.
func WithRequestTimeout(d time.Duration) RequestOption {
	return func(c *config.Config) error {
		if d <= 0 {
			return fail("WithRequestTimeout: %v is not positive", d)
		}
		c.RequestTimeout = d
		return nil
	}
}

// WithMaxResponseSize caps the body of a non-streaming success response at
// n bytes (default 64 MiB, more than ten times the largest real reply). A
// larger body fails the call with an *mms.ResponseTooLargeError after at
// most n+1 bytes were read (a compressed body counts decompressed). Streams
// and file downloads are read by the caller and not capped.
func WithMaxResponseSize(n int64) RequestOption {
	return func(c *config.Config) error {
		if n <= 0 {
			return fail("WithMaxResponseSize: %d is not positive", n)
		}
		c.MaxResponseSize = n
		return nil
	}
}

// WithStreamIdleTimeout fails a stream that receives no bytes at all (pings
// included) for d, and closes its connection.
func WithStreamIdleTimeout(d time.Duration) RequestOption {
	return func(c *config.Config) error {
		if d <= 0 {
			return fail("WithStreamIdleTimeout: %v is not positive", d)
		}
		c.StreamIdle = d
		return nil
	}
}

// WithMiddleware appends middlewares; see [Middleware] for the order.
func WithMiddleware(mw ...Middleware) RequestOption {
	return func(c *config.Config) error {
		for _, m := range mw {
			if m == nil {
				return fail("WithMiddleware: nil middleware")
			}
		}
		for _, m := range mw {
			c.Middleware = append(c.Middleware, func(r *http.Request, next config.MiddlewareNext) (*http.Response, error) {
				return m(r, next)
			})
		}
		return nil
	}
}

// WithUserProfileID attributes requests to a user profile: it sends
// vendor-user-profile-id and adds the user-profiles beta (unless a dated
// user-profiles-* beta is already given, which then stands for it).
func WithUserProfileID(id string) RequestOption {
	return func(c *config.Config) error {
		if strings.TrimSpace(id) == "" {
			return fail("WithUserProfileID: the id is empty")
		}
		if err := transport.CheckHeaderValue(id); err != nil {
			return fail("WithUserProfileID: %q %w", id, err)
		}
		c.UserProfileID = id
		return nil
	}
}

// WithWorkspaceID sends vendor-workspace-id.
func WithWorkspaceID(id string) RequestOption {
	return func(c *config.Config) error {
		if strings.TrimSpace(id) == "" {
			return fail("WithWorkspaceID: the id is empty")
		}
		if err := transport.CheckHeaderValue(id); err != nil {
			return fail("WithWorkspaceID: %q %w", id, err)
		}
		c.WorkspaceID = id
		return nil
	}
}

// WithLogger logs each attempt at debug level (method, URL, status, request
// id, timing) and retries at info level, with credentials and cookies
// redacted. Without it the SDK logs nothing.
func WithLogger(l *slog.Logger) RequestOption {
	return func(c *config.Config) error {
		if l == nil {
			return fail("WithLogger: the logger is nil")
		}
		c.Logger = l
		return nil
	}
}

// WithRateLimit paces requests on the client side: at most requestsPerMinute
// requests and tokensPerMinute tokens (input estimated from the body before
// sending, corrected from the response's usage after). Either may be 0 for
// no limit. The limiter also pauses when the server's vendor-ratelimit-*
// headers say a bucket is empty until its reset time. Give it to NewClient so
// all calls share one budget.
func WithRateLimit(requestsPerMinute, tokensPerMinute int) RequestOption {
	return func(c *config.Config) error {
		if requestsPerMinute < 0 || tokensPerMinute < 0 {
			return fail("WithRateLimit: limits must not be negative")
		}
		if requestsPerMinute == 0 && tokensPerMinute == 0 {
			return fail("WithRateLimit: give a requests or a tokens limit")
		}
		c.Limiter = ratelimit.New(requestsPerMinute, tokensPerMinute)
		return nil
	}
}

// Waiter is anything that can pace requests; *rate.Limiter from
// golang.org/x/time/rate satisfies it.
type Waiter interface {
	Wait(ctx context.Context) error
}

// WithRateLimiter paces requests with w (one Wait per attempt), for callers
// who share a limiter across clients or processes.
func WithRateLimiter(w Waiter) RequestOption {
	return func(c *config.Config) error {
		if w == nil {
			return fail("WithRateLimiter: the limiter is nil")
		}
		c.Limiter = ratelimit.FromWaiter(w)
		return nil
	}
}

// WithResponseMetadata stores the response metadata of the call in *dst:
// request id, organization, rate-limit buckets, retry-after, attempts. It is
// filled for failed calls too, when a response arrived. It is a per-call
// option: NewClient refuses it, since the client's concurrent calls would
// all write the one *dst.
//
//	var md mms.ResponseMetadata
//	msg, err := client.Messages.Create(ctx, p, option.WithResponseMetadata(&md))
func WithResponseMetadata(dst *ResponseMetadata) RequestOption {
	return func(c *config.Config) error {
		if dst == nil {
			return errors.New("option: WithResponseMetadata: dst is nil")
		}
		c.MetadataInto = func(status int, h http.Header, attempts int, platformRequestID string, resent bool) {
			*dst = parseMetadata(status, h, attempts)
			dst.PlatformRequestID, dst.Resent = platformRequestID, resent
		}
		return nil
	}
}

// WithPlatform makes the client talk to a partner or cloud platform through
// adapter (see package platform). Programs get the option from the
// platform's module (bedrock.WithConfig, vertex.WithProject, …) rather than
// calling this. It is a client option; with it, the client sends none of
// the service's own credentials (no $VENDOR_API_KEY, no profile): the
// adapter authenticates.
func WithPlatform(adapter platform.Adapter) RequestOption {
	return func(c *config.Config) error {
		if adapter == nil {
			return errors.New("option: WithPlatform: adapter is nil")
		}
		c.Platform = adapter
		return nil
	}
}

// WithObserver reports every operation of the client, or of the call, to
// obs (see package observe): its parameters, HTTP attempts, outcome and
// stream events. A call's observer replaces the client's. Without one the
// client does no observing work.
func WithObserver(obs observe.Observer) RequestOption {
	return func(c *config.Config) error {
		if obs == nil {
			return errors.New("option: WithObserver: obs is nil")
		}
		c.Observer = obs
		return nil
	}
}
