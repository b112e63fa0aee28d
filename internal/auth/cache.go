// Package auth holds the token cache every bearer-token source runs
// behind: the refresh windows, single flight and 401 invalidation the
// service's SDKs agree on (spec auth-oauth.md §4). The sources themselves
// (a program's TokenSource, the federation exchange, profiles) live in the
// root package and package option.
package auth

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Token is a bearer token and its expiry (zero: none known).
type Token struct {
	Value  string
	Expiry time.Time
}

// Fetch gets a new token (an exchange, a refresh, a program's source).
type Fetch func(ctx context.Context) (Token, error)

// The windows of spec §4: a token with more than FreshWindow left is used
// as is; inside it (but above MandatoryWindow) it is still used while one
// background fetch renews it; inside MandatoryWindow a caller waits for a
// new one. A failed background fetch is not tried again for RetryPause.
const (
	FreshWindow     = 120 * time.Second
	MandatoryWindow = 30 * time.Second
	RetryPause      = 5 * time.Second
	// flightTimeout bounds one fetch, which runs detached from the callers
	// waiting for it (one caller giving up must not fail the others).
	flightTimeout = 2 * time.Minute
)

// Cache holds one token and renews it. It is safe for concurrent use.
type Cache struct {
	fetch Fetch
	now   func() time.Time
	// keepUnexpiring caches a token without an expiry until it is
	// invalidated (the federation exchange's rule); otherwise such a token
	// is fetched again for every attempt (a program's source, which may
	// cache on its own).
	keepUnexpiring bool

	mu      sync.Mutex
	tok     Token
	have    bool
	flight  *flight   // the fetch under way, if any
	retryAt time.Time // no background fetch before this
}

type flight struct {
	done chan struct{}
	tok  Token
	err  error
}

// NewCache returns a cache over fetch; now is its clock (nil: time.Now).
func NewCache(fetch Fetch, now func() time.Time, keepUnexpiring bool) *Cache {
	if now == nil {
		now = time.Now
	}
	return &Cache{fetch: fetch, now: now, keepUnexpiring: keepUnexpiring}
}

// Token returns a token fit to send now: the cached one while it has more
// than MandatoryWindow left (starting one background renewal inside
// FreshWindow), else a new one, fetched once however many callers wait.
func (c *Cache) Token(ctx context.Context) (string, error) {
	c.mu.Lock()
	if c.have {
		switch left := c.tok.Expiry.Sub(c.now()); {
		case c.tok.Expiry.IsZero():
			if c.keepUnexpiring {
				v := c.tok.Value
				c.mu.Unlock()
				return v, nil
			}
		case left > FreshWindow:
			v := c.tok.Value
			c.mu.Unlock()
			return v, nil
		case left > MandatoryWindow:
			v := c.tok.Value
			if c.flight == nil && !c.now().Before(c.retryAt) {
				c.start(ctx, true)
			}
			c.mu.Unlock()
			return v, nil
		}
	}
	f := c.flight
	if f == nil {
		f = c.start(ctx, false)
	}
	c.mu.Unlock()
	select {
	case <-f.done:
		if f.err != nil {
			return "", f.err
		}
		return f.tok.Value, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// start begins a fetch; c.mu is held.
func (c *Cache) start(ctx context.Context, background bool) *flight {
	f := &flight{done: make(chan struct{})}
	c.flight = f
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), flightTimeout)
	go func() {
		defer cancel()
		tok, err := c.fetch(fctx)
		if err == nil && tok.Value == "" {
			err = errors.New("the token source returned an empty token")
		}
		c.mu.Lock()
		f.tok, f.err = tok, err
		if err == nil {
			c.tok, c.have = tok, true
		} else if background {
			c.retryAt = c.now().Add(RetryPause)
		}
		c.flight = nil
		c.mu.Unlock()
		close(f.done)
	}()
	return f
}

// Held returns the token the cache holds or last held ("" when none): a
// source that fails may quote it in its error, which the caller scrubs.
func (c *Cache) Held() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.tok.Value
}

// Invalidate drops failed if it is still the cached token, so that the
// next Token fetches a new one. A token already replaced (by a concurrent
// caller's renewal) is left alone: a burst of 401s for one token causes one
// fetch, not one per request.
func (c *Cache) Invalidate(failed string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.have && c.tok.Value == failed {
		c.have = false
	}
}
