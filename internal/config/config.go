// Package config holds the settings every option writes and every request
// reads. It is internal so that package option can stay a thin, documented
// surface while the transport sees plain fields.
package config

import (
	"context"
	"fmt"
	"github.com/mms-sdk/mms-go/observe"
	"github.com/mms-sdk/mms-go/platform"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// Middleware wraps one HTTP attempt. Call next to continue the chain.
// option.Middleware, the public type, is adapted to it when applied.
type Middleware func(req *http.Request, next MiddlewareNext) (*http.Response, error)

// MiddlewareNext continues a middleware chain.
type MiddlewareNext = func(req *http.Request) (*http.Response, error)

// Limiter paces requests on the client side (see internal/ratelimit).
type Limiter interface {
	// Wait blocks until a request estimated at tokens may be sent.
	Wait(ctx context.Context, tokens int) error
	// Observe lets the limiter learn from the server's rate-limit headers.
	Observe(h http.Header)
	// Correct replaces an estimate by the tokens the response reported.
	Correct(estimate, actual int)
}

// Config is the complete client or per-call configuration.
type Config struct {
	APIKey    string
	AuthToken string
	// Bearer, when set, gives each attempt its bearer token (a token
	// source; see bearer.go). At most one of APIKey, AuthToken and Bearer
	// is set.
	Bearer *Bearer
	// AdminKey is an Organization (Admin) API key (option.WithAdminKey):
	// the transport sends it in x-api-key, and only to the admin paths
	// (transport.AdminPathPrefixes). Package admin's client sets it; the
	// root's NewClient refuses it.
	AdminKey string
	// Federation and Profile are credentials NewClient builds a Bearer
	// from; they are client options only.
	Federation *Federation
	Profile    string
	// ConfigDir overrides the directory profiles are read from.
	ConfigDir string
	// Now is the clock of token expiry and of webhook timestamps; nil
	// means time.Now. Tests set it.
	Now     func() time.Time
	BaseURL *url.URL
	Version string
	Betas   []string
	Header  http.Header // extra headers from WithHeader
	// UserAgent is set by mms.NewClient from mms.Version (internal packages
	// cannot import the root, which owns the version).
	UserAgent string

	HTTPClient     *http.Client
	MaxRetries     int
	RequestTimeout time.Duration // per attempt; 0 = none
	// MaxResponseSize caps a non-streaming success body; 0 means
	// DefaultMaxResponseSize.
	MaxResponseSize int64
	StreamIdle      time.Duration // streams: longest silence allowed; 0 = none
	Middleware      []Middleware

	UserProfileID string
	WorkspaceID   string
	Logger        *slog.Logger
	Limiter       Limiter

	// MetadataInto receives the status, header, attempts and platform
	// request id of each call's final response, and whether the call
	// succeeded on a resent delete's or archive's "already done" answer
	// (transport.Response.Resent); option.WithResponseMetadata parses them.
	MetadataInto func(status int, h http.Header, attempts int, platformRequestID string, resent bool)

	// RetryBudget is the client's retry budget, shared by its calls; nil
	// when switched off (option.WithoutRetryBudget). Default builds one
	// per client.
	RetryBudget *RetryBudget

	// Observer, when set, sees every operation (option.WithObserver).
	Observer observe.Observer

	// Platform, when set, maps every request onto a partner or cloud
	// platform (option.WithPlatform; a client option).
	Platform platform.Adapter

	// OmitBetas names endpoint betas the caller switched off (Files, Skills).
	OmitBetas []string

	// Webhook configures the verification of webhook deliveries.
	Webhook Webhook

	// Set while applying one list of options: which kinds of credential
	// it gave, to refuse two given together.
	given []string
}

// DefaultMaxResponseSize is the default cap of a non-streaming success
// body. The largest real replies are messages: up to 300k output tokens
// (about 1.2 MB of text) plus server-tool results bounded by a 1M-token
// context (a few MB); list pages of 1,000 items are 1–2 MB. 64 MiB leaves
// more than ten times that, and bounds what one reply can cost.
const DefaultMaxResponseSize = 64 << 20

// Default returns the configuration before options and environment.
func Default() *Config {
	return &Config{Version: wire.DefaultVersion, MaxRetries: 2, RetryBudget: DefaultRetryBudget()}
}

// Clone returns a copy whose slices and maps may be appended to freely.
func (c *Config) Clone() *Config {
	d := *c
	d.Betas = slices.Clip(c.Betas)
	d.Middleware = slices.Clip(c.Middleware)
	d.OmitBetas = slices.Clip(c.OmitBetas)
	d.Header = c.Header.Clone()
	d.Webhook.Keys = slices.Clip(c.Webhook.Keys)
	return &d
}

// SetCredential records an explicitly given credential: option names the
// option that gave it (for the error when two are given) and set writes it.
// Every other credential is dropped, so that a call's credential replaces
// the client's.
func (c *Config) SetCredential(option string, set func(*Config)) {
	if !slices.Contains(c.given, option) {
		c.given = append(c.given, option)
	}
	c.APIKey, c.AuthToken, c.Bearer, c.Federation, c.Profile, c.AdminKey = "", "", nil, nil, "", ""
	set(c)
}

// Apply applies opts (option.RequestOption values) to c in order. A
// credential given in opts replaces the one inherited from the client (so a
// call may switch from a key to a token), but two kinds of credential in
// the same list is an error.
func Apply[O ~func(*Config) error](c *Config, opts []O) error {
	c.given = nil
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(c); err != nil {
			return err
		}
	}
	if len(c.given) > 1 {
		return fmt.Errorf("option: %s were given together; the service takes exactly one credential", strings.Join(c.given, " and "))
	}
	if c.Bearer != nil && c.Bearer.Token == nil && c.BaseURL != nil {
		c.FinishBearer() // a call's own source; NewClient finishes the client's
	}
	return nil
}

// CredentialGiven reports whether the last Apply set a credential.
func (c *Config) CredentialGiven() bool { return len(c.given) > 0 }
