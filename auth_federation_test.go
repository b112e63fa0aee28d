package mms_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

const (
	fedRule = "fdrl_test"
	fedOrg  = "org_test"
	// fedAssertion stands for a workload's OIDC token; secret scans look
	// for it.
	fedAssertion = "eyJ-IDENTITY-SECRET-assertion"
	fedLifetime  = 10 * time.Minute
)

// fedEnv is a fake with a federation rule and a manual clock, and an
// identity token file.
type fedEnv struct {
	srv   *mmstest.Server
	clock *mmstest.ManualClock
	file  string
	// statuses counts the answers the client saw, by status.
	mu       sync.Mutex
	statuses map[int]int
	tokens   map[string]bool // Authorization values sent to the API
}

func newFedEnv(t *testing.T, opts ...mmstest.Option) *fedEnv {
	t.Helper()
	clock := mmstest.NewManualClock(time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC))
	srv := mmstest.NewServer(append([]mmstest.Option{mmstest.WithManualClock(clock), mmstest.WithTokenLifetime(fedLifetime),
		mmstest.WithFederationRule(mmstest.FederationRule{ID: fedRule, OrganizationID: fedOrg,
			Accept: func(a string) bool { return strings.HasPrefix(a, "eyJ") }})}, opts...)...)
	t.Cleanup(srv.Close)
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte("  "+fedAssertion+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return &fedEnv{srv: srv, clock: clock, file: file, statuses: map[int]int{}, tokens: map[string]bool{}}
}

func (e *fedEnv) federation() option.Federation {
	return option.Federation{RuleID: fedRule, OrganizationID: fedOrg, IdentityTokenFile: e.file}
}

// client builds a federated client that records what it sends and gets.
func (e *fedEnv) client(t *testing.T, opts ...option.RequestOption) *mms.Client {
	t.Helper()
	record := func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		e.mu.Lock()
		e.tokens[req.Header.Get("Authorization")] = true
		if resp != nil {
			e.statuses[resp.StatusCode]++
		}
		e.mu.Unlock()
		return resp, err
	}
	c, err := mms.NewClient(append([]option.RequestOption{option.WithBaseURL(e.srv.URL), option.WithHTTPClient(e.srv.Client()),
		option.WithFederation(e.federation()), mms.WithNowForTest(e.clock.Now), option.WithMiddleware(record)}, opts...)...)
	require.NoError(t, err)
	return c
}

// lastAuth is the Authorization of the last API request (not exchange).
func (e *fedEnv) lastAuth() string {
	reqs := e.srv.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if reqs[i].Path != "/v1/oauth/token" {
			return reqs[i].Header.Get("Authorization")
		}
	}
	return ""
}

// get makes one API request.
func get(c *mms.Client, opts ...option.RequestOption) error {
	return c.Do(context.Background(), "GET", "/v1/models", nil, nil, opts...)
}

// TestFederationConcurrentCallersAcrossExpiries: 100 concurrent callers
// across three token lifetimes cause exactly three exchanges, and no
// request goes out with an expired token (none is answered 401).
func TestFederationConcurrentCallersAcrossExpiries(t *testing.T) {
	e := newFedEnv(t)
	c := e.client(t)
	for round := range 3 {
		var wg sync.WaitGroup
		errs := make(chan error, 100)
		for range 100 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- get(c)
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		if got := e.srv.TokenExchanges(); got != round+1 {
			t.Fatalf("after round %d: %d exchanges, want %d", round, got, round+1)
		}
		// Into the last 30 s of the token: the next request must renew first.
		e.clock.Advance(fedLifetime - 29*time.Second)
	}
	if e.statuses[401] != 0 || e.statuses[200] != 300 {
		t.Errorf("answers %v, want 300 × 200 and no 401", e.statuses)
	}
	if len(e.tokens) != 3 {
		t.Errorf("%d distinct tokens sent, want 3", len(e.tokens))
	}
	for tok := range e.tokens {
		if !strings.HasPrefix(tok, "Bearer mms-oauth-") {
			t.Errorf("sent Authorization %q", tok)
		}
	}
}

// TestFederationBackgroundRefresh: inside 120 s of expiry the cached token
// is still sent while one background exchange renews it.
func TestFederationBackgroundRefresh(t *testing.T) {
	e := newFedEnv(t)
	c := e.client(t)
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	first := e.lastAuth()
	e.clock.Advance(fedLifetime - 60*time.Second)
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	if got := e.lastAuth(); got != first {
		t.Errorf("inside the advisory window sent %q, want the cached %q", got, first)
	}
	// The exchange is counted by the server before the client has stored
	// its answer: wait until a request carries the renewed token.
	waitFor(t, func() bool {
		if err := get(c); err != nil {
			t.Fatal(err)
		}
		return e.lastAuth() != first
	})
	if n := e.srv.TokenExchanges(); n != 2 {
		t.Errorf("%d exchanges, want 2", n)
	}
}

// waitFor polls cond (for state a background goroutine changes).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for range 500 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("condition not reached")
}

// TestFederation401Renews: a 401 for a token that still looks valid drops
// it, exchanges once and resends once; a concurrent burst of 401s still
// causes a single exchange.
func TestFederation401Renews(t *testing.T) {
	e := newFedEnv(t)
	c := e.client(t)
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	e.srv.RevokeTokens()
	if err := get(c, option.WithMaxRetries(0)); err != nil {
		t.Fatalf("after a revoked token: %v", err)
	}
	if n := e.srv.TokenExchanges(); n != 2 {
		t.Fatalf("%d exchanges, want 2", n)
	}

	e.srv.RevokeTokens()
	var wg sync.WaitGroup
	var failed atomic.Int32
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if get(c) != nil {
				failed.Add(1)
			}
		}()
	}
	wg.Wait()
	if failed.Load() != 0 {
		t.Errorf("%d callers failed", failed.Load())
	}
	if n := e.srv.TokenExchanges(); n != 3 {
		t.Errorf("a burst of 401s caused %d exchanges, want 1 (3 in all)", n-2)
	}
}

// TestFederationSecond401IsReturned: when the renewed token is refused too,
// the second 401 is the caller's *mms.Error, after exactly one renewal.
func TestFederationSecond401IsReturned(t *testing.T) {
	e := newFedEnv(t)
	revoke := func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		e.srv.RevokeTokens() // every token is revoked before it arrives
		return next(req)
	}
	c := e.client(t, option.WithMiddleware(revoke))
	err := get(c)
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 401 || !errors.Is(err, mms.ErrAuthentication) {
		t.Fatalf("err = %v, want the 401 as *mms.Error", err)
	}
	if n := e.srv.TokenExchanges(); n != 2 {
		t.Errorf("%d exchanges, want 2 (the first and one renewal)", n)
	}
	if n := e.statuses[401]; n != 2 {
		t.Errorf("%d attempts answered 401, want 2 (one resend)", n)
	}
}

// TestFederationTokenStaysAtItsOrigin: a call with another base URL is
// refused before sending, so the minted token never reaches it.
func TestFederationTokenStaysAtItsOrigin(t *testing.T) {
	e := newFedEnv(t)
	other := mmstest.NewServer()
	defer other.Close()
	c := e.client(t)
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	err := get(c, option.WithBaseURL(other.URL))
	if err == nil || !strings.Contains(err.Error(), "is only sent to "+e.srv.URL) {
		t.Errorf("err = %v", err)
	}
	if n := len(other.Requests()); n != 0 {
		t.Errorf("the other origin got %d requests", n)
	}
}
