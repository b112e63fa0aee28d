package auth

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// counter is a Fetch minting tok-1, tok-2, … living life (0: no expiry),
// blocked while gate is held.
type counter struct {
	n    atomic.Int32
	gate sync.RWMutex
	c    *clock
	life time.Duration
	fail atomic.Bool
}

func (f *counter) fetch(context.Context) (Token, error) {
	f.gate.RLock()
	defer f.gate.RUnlock()
	n := f.n.Add(1)
	if f.fail.Load() {
		return Token{}, errors.New("down")
	}
	t := Token{Value: fmt.Sprintf("tok-%d", n)}
	if f.life > 0 {
		t.Expiry = f.c.now().Add(f.life)
	}
	return t, nil
}

func TestCacheWindows(t *testing.T) {
	c := &clock{t: time.Unix(1e9, 0)}
	f := &counter{c: c, life: time.Hour}
	cache := NewCache(f.fetch, c.now, true)
	ctx := context.Background()
	tok := func() string {
		v, err := cache.Token(ctx)
		require.NoError(t, err)
		return v
	}
	for range 2 {
		if tok() != "tok-1" {
			t.Fatal("not cached")
		}
	}
	c.add(time.Hour - FreshWindow - time.Second) // 121 s left: fresh
	if tok() != "tok-1" || f.n.Load() != 1 {
		t.Fatal("refreshed while fresh")
	}
	c.add(2 * time.Second) // 119 s left: advisory
	if tok() != "tok-1" {
		t.Fatal("advisory window did not use the cached token")
	}
	for f.n.Load() != 2 || tok() != "tok-2" {
		time.Sleep(time.Millisecond)
	}
	c.add(time.Hour - MandatoryWindow) // 30 s left: mandatory
	if tok() != "tok-3" {
		t.Fatal("mandatory window did not fetch first")
	}
}

func TestCacheSingleFlightAndInvalidate(t *testing.T) {
	c := &clock{t: time.Unix(1e9, 0)}
	f := &counter{c: c, life: time.Hour}
	cache := NewCache(f.fetch, c.now, true)
	f.gate.Lock()
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if v, err := cache.Token(context.Background()); err != nil || v != "tok-1" {
				t.Errorf("%q %v", v, err)
			}
		}()
	}
	time.Sleep(10 * time.Millisecond)
	f.gate.Unlock()
	wg.Wait()
	if f.n.Load() != 1 {
		t.Fatalf("%d fetches", f.n.Load())
	}
	cache.Invalidate("tok-0") // not the cached token: kept
	if v, _ := cache.Token(context.Background()); v != "tok-1" {
		t.Fatal("a stale invalidation dropped the token")
	}
	cache.Invalidate("tok-1")
	cache.Invalidate("tok-1")
	if v, _ := cache.Token(context.Background()); v != "tok-2" || f.n.Load() != 2 {
		t.Fatalf("%q after invalidation, %d fetches", v, f.n.Load())
	}
}

func TestCacheWaiterCancelAndFailure(t *testing.T) {
	c := &clock{t: time.Unix(1e9, 0)}
	f := &counter{c: c}
	cache := NewCache(f.fetch, c.now, false)
	f.gate.Lock()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := cache.Token(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	f.gate.Unlock()
	waitIdle(cache) // the abandoned fetch still finishes
	// No expiry and not kept: every call fetches.
	for i := range 2 {
		v, _ := cache.Token(context.Background())
		if want := fmt.Sprintf("tok-%d", i+2); v != want {
			t.Errorf("%q, want %q", v, want)
		}
	}
	f.fail.Store(true)
	if _, err := cache.Token(context.Background()); err == nil {
		t.Error("a failed fetch returned no error")
	}
}

func TestCacheBackgroundFailurePauses(t *testing.T) {
	c := &clock{t: time.Unix(1e9, 0)}
	f := &counter{c: c, life: time.Hour}
	cache := NewCache(f.fetch, c.now, true)
	cache.Token(context.Background())
	f.fail.Store(true)
	c.add(time.Hour - time.Minute)
	cache.Token(context.Background())
	for f.n.Load() != 2 {
		time.Sleep(time.Millisecond)
	}
	waitIdle(cache)
	cache.Token(context.Background()) // within RetryPause: no new attempt
	if f.n.Load() != 2 {
		t.Fatalf("%d fetches inside the pause", f.n.Load())
	}
	c.add(RetryPause)
	f.fail.Store(false)
	cache.Token(context.Background())
	for f.n.Load() != 3 {
		time.Sleep(time.Millisecond)
	}
}

// waitIdle waits until no fetch is under way.
func waitIdle(c *Cache) {
	for {
		c.mu.Lock()
		done := c.flight == nil
		c.mu.Unlock()
		if done {
			return
		}
		time.Sleep(time.Millisecond)
	}
}
