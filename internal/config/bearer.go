package config

import (
	"context"
	"errors"
	"net/url"
	"regexp"
	"time"

	"github.com/mms-sdk/mms-go/internal/auth"
)

// Bearer gives each attempt of a call its bearer token: a token source,
// usually behind a cache (the root package's tokenCache).
type Bearer struct {
	// Fetch gets a new token; Apply (or NewClient) puts it behind a cache
	// that sets Token and Invalidate. KeepUnexpiring caches a token without
	// an expiry until it is invalidated.
	Fetch          auth.Fetch
	KeepUnexpiring bool
	// Token returns the token for one attempt.
	Token func(ctx context.Context) (string, error)
	// Invalidate drops failed from the cache if it is still the cached
	// token, after the service refused it with a 401; the transport then
	// asks Token again and resends once. Nil when the source cannot renew.
	Invalidate func(failed string)
	// Held returns the token the cache holds or last held, which the
	// transport scrubs from the source's error text; nil when uncached.
	Held func() string
	// Origin is the only origin the token may be sent to; nil binds it to
	// the base URL when the client (or the call giving it) is built.
	Origin *url.URL
	// Beta is added to every request carrying the token
	// (oauth-2025-04-20 for OAuth access tokens).
	Beta string
	// Source names where the token comes from, for errors
	// ("option.WithTokenSource", "federation", "profile \"dev\"").
	Source string
}

// Federation configures the built-in workload identity federation source
// (option.WithFederation, or the VENDOR_* variables).
type Federation struct {
	RuleID           string
	OrganizationID   string
	ServiceAccountID string
	WorkspaceID      string
	// Exactly one of the three identity token sources is set.
	IdentityTokenFile string
	IdentityTokenEnv  string
	IdentityToken     func(ctx context.Context) (string, error)
}

// cacheBearer puts b's Fetch behind a token cache on clock now, unless it
// has one.
func cacheBearer(b *Bearer, now func() time.Time) {
	if b == nil || b.Token != nil || b.Fetch == nil {
		return
	}
	cache := auth.NewCache(b.Fetch, now, b.KeepUnexpiring)
	b.Token, b.Invalidate, b.Held = cache.Token, cache.Invalidate, cache.Held
}

// FinishBearer caches b's fetch (on c's clock) and binds b to c's base URL
// when it has no origin yet. NewClient calls it once the base URL is known;
// Apply calls it for a call's own source.
func (c *Config) FinishBearer() {
	b := c.Bearer
	if b == nil {
		return
	}
	cacheBearer(b, c.Now)
	if b.Origin == nil && c.BaseURL != nil {
		u := *c.BaseURL
		b.Origin = &u
	}
}

var profileName = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// CheckProfileName applies the profile name rule: letters, digits, "_",
// "." and "-", and not "." or "..".
func CheckProfileName(name string) error {
	if !profileName.MatchString(name) || name == "." || name == ".." {
		return errors.New("a profile name is letters, digits, '_', '.' and '-' only, and not '.' or '..'")
	}
	return nil
}
