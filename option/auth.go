package option

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/auth"
	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// Token is a bearer token and its expiry, what a [TokenSource] returns.
// fmt and slog print it with the token redacted.
//
//	return &option.Token{AccessToken: option.NewSecret(tok), Expiry: exp}, nil
type Token struct {
	// AccessToken is sent as "Authorization: Bearer <AccessToken>". It is
	// a [Secret], so no fmt verb prints it.
	AccessToken Secret
	// Expiry is when the token stops working; zero when unknown. A token
	// with an expiry is cached and renewed before it (see WithTokenSource);
	// one without is asked for again on every attempt.
	Expiry time.Time
}

// String returns the token with its value redacted.
func (t Token) String() string {
	exp := "no expiry"
	if !t.Expiry.IsZero() {
		exp = "expires " + t.Expiry.Format(time.RFC3339)
	}
	return "Token{<redacted>, " + exp + "}"
}

// GoString is String, for %#v.
func (t Token) GoString() string { return t.String() }

// Format prints String for every verb.
func (t Token) Format(f fmt.State, _ rune) { fmt.Fprint(f, t.String()) }

// LogValue is String, for slog.
func (t Token) LogValue() slog.Value { return slog.StringValue(t.String()) }

// TokenSource supplies bearer tokens, like golang.org/x/oauth2's
// TokenSource (without the dependency): a Kubernetes projected token, a
// cloud metadata server, a secret manager, or a program's own OAuth flow.
type TokenSource interface {
	// Token returns a valid token. It is called from many goroutines, but
	// never by two at once for the same client (see WithTokenSource).
	Token(ctx context.Context) (*Token, error)
}

// TokenSourceFunc adapts a function to a TokenSource.
type TokenSourceFunc func(ctx context.Context) (*Token, error)

// Token calls f.
func (f TokenSourceFunc) Token(ctx context.Context) (*Token, error) { return f(ctx) }

// WithTokenSource authenticates with bearer tokens from src, resolved for
// every attempt, so a retry after a renewal carries the new token. The
// tokens are OAuth access tokens: requests carrying them get the
// oauth-2025-04-20 beta. A token with an Expiry is cached: used as is while
// more than 120 s remain, renewed in the background from 120 s to 30 s
// before it, and fetched before sending inside 30 s, with one call of src
// at a time however many requests wait. A 401 answer drops the token (if it
// is still the cached one), asks src again and resends once. The token is
// sent only to the origin of the base URL it was configured with: a call
// with another base URL fails before sending unless it gives its own
// source. It replaces any other credential.
func WithTokenSource(src TokenSource) RequestOption {
	return func(c *config.Config) error {
		if src == nil {
			return fail("WithTokenSource: the source is nil")
		}
		fetch := func(ctx context.Context) (auth.Token, error) {
			t, err := callSource(ctx, src)
			if err != nil {
				return auth.Token{}, err
			}
			return auth.Token{Value: t.AccessToken.Reveal(), Expiry: t.Expiry}, nil
		}
		c.SetCredential("WithTokenSource", func(c *config.Config) {
			c.Bearer = &config.Bearer{Beta: wire.BetaOAuth, Source: "option.WithTokenSource",
				Fetch: fetch}
		})
		return nil
	}
}

// callSource asks src for a token and checks that it can be sent. A panic
// in src becomes an error that names its type only (its value may hold a
// secret).
func callSource(ctx context.Context, src TokenSource) (t *Token, err error) {
	defer func() {
		if p := recover(); p != nil {
			t, err = nil, fmt.Errorf("mms: the token source panicked (%T)", p)
		}
	}()
	t, err = src.Token(ctx)
	switch {
	case err != nil:
		return nil, fmt.Errorf("mms: the token source failed: %w", err)
	case t == nil || strings.TrimSpace(t.AccessToken.Reveal()) == "":
		return nil, errors.New("mms: the token source returned no token")
	}
	if err := transport.CheckHeaderValue(t.AccessToken.Reveal()); err != nil {
		return nil, fmt.Errorf("mms: the token from the token source %w", err)
	}
	return t, nil
}

// Federation configures workload identity federation: the client exchanges
// an identity token from the workload's identity provider (a Kubernetes
// projected service-account token, a cloud's OIDC token) for short-lived
// access tokens at POST {base URL}/v1/oauth/token, and renews them before
// they expire. The fields mirror the VENDOR_* variables NewClient reads
// when no credential option is given.
type Federation struct {
	// RuleID is the federation rule configured in the console. Required.
	RuleID string
	// OrganizationID is the target organization. Required.
	OrganizationID string
	// ServiceAccountID and WorkspaceID are optional; a workspace is needed
	// when the rule spans several workspaces.
	ServiceAccountID string
	WorkspaceID      string
	// The identity token comes from exactly one of these: a file, re-read
	// for every exchange so a rotated projected token is picked up
	// (whitespace trimmed); an environment variable, read for every
	// exchange; or a function. Tokens over 16,384 bytes are refused.
	IdentityTokenFile string
	IdentityTokenEnv  string
	IdentityToken     func(ctx context.Context) (string, error)
}

// WithFederation authenticates with tokens minted by workload identity
// federation (see [Federation]). The exchange is sent only over https (or
// http to a loopback address) to the base URL's origin, and the minted
// token only to that origin; requests carrying it get the oauth-2025-04-20
// beta. Tokens are cached and renewed as WithTokenSource describes. It is a
// client option: the client's calls share its token, so NewClient takes it
// and a call refuses it.
func WithFederation(f Federation) RequestOption {
	return func(c *config.Config) error {
		n := 0
		for _, set := range []bool{f.IdentityTokenFile != "", f.IdentityTokenEnv != "", f.IdentityToken != nil} {
			if set {
				n++
			}
		}
		switch {
		case strings.TrimSpace(f.RuleID) == "":
			return fail("WithFederation: RuleID is empty")
		case strings.TrimSpace(f.OrganizationID) == "":
			return fail("WithFederation: OrganizationID is empty")
		case n != 1:
			return fail("WithFederation: give exactly one of IdentityTokenFile, IdentityTokenEnv and IdentityToken (%d given)", n)
		}
		fed := config.Federation(f)
		c.SetCredential("WithFederation", func(c *config.Config) { c.Federation = &fed })
		return nil
	}
}

// WithProfile authenticates with the named profile of the configuration
// directory (configs/<name>.json and its credentials file): a federation
// profile exchanges its identity token, a user OAuth profile uses its
// access token and refreshes it with its refresh token. The profile's base
// URL, organization and workspace apply unless other options set them. It
// is a client option.
func WithProfile(name string) RequestOption {
	return func(c *config.Config) error {
		if err := config.CheckProfileName(name); err != nil {
			return fail("WithProfile: %w", err)
		}
		c.SetCredential("WithProfile", func(c *config.Config) { c.Profile = name })
		return nil
	}
}

// WithConfigDir sets the configuration directory profiles are read from
// (default $VENDOR_CONFIG_DIR, else the platform's user configuration
// directory + "/vendor").
func WithConfigDir(dir string) RequestOption {
	return func(c *config.Config) error {
		if strings.TrimSpace(dir) == "" {
			return fail("WithConfigDir: the directory is empty")
		}
		c.ConfigDir = dir
		return nil
	}
}
