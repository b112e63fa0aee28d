package mms_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// TestTokenSourcePerAttempt: the credential is resolved for every attempt,
// so a retry after a renewal carries the new token, with the oauth beta.
func TestTokenSourcePerAttempt(t *testing.T) {
	s := newScriptServer(t, reply{status: 503, header: fast})
	var n atomic.Int32
	src := option.TokenSourceFunc(func(context.Context) (*option.Token, error) {
		return &option.Token{AccessToken: option.NewSecret(fmt.Sprintf("tok-%d", n.Add(1)))}, nil // no expiry: asked every attempt
	})
	c := newBearerClient(t, s, option.WithTokenSource(src), option.WithBeta("context-1m-2025-08-07"))
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	got := s.requests()
	if len(got) != 2 {
		t.Fatalf("%d attempts", len(got))
	}
	for i, want := range []string{"Bearer tok-1", "Bearer tok-2"} {
		if a := got[i].header.Get("Authorization"); a != want {
			t.Errorf("attempt %d: Authorization %q, want %q", i+1, a, want)
		}
		if got[i].header.Get("X-Api-Key") != "" {
			t.Errorf("attempt %d also sent x-api-key", i+1)
		}
		if b := got[i].header.Get("Vendor-Beta"); b != "context-1m-2025-08-07,oauth-2025-04-20" {
			t.Errorf("attempt %d: vendor-beta %q", i+1, b)
		}
	}
}

// newBearerClient is a client of s with no static credential.
func newBearerClient(t *testing.T, s *scriptServer, opts ...option.RequestOption) *mms.Client {
	t.Helper()
	c, err := mms.NewClient(append([]option.RequestOption{option.WithBaseURL(s.URL)}, opts...)...)
	require.NoError(t, err)
	return c
}

// TestTokenSourceCachesByExpiry: a token with an expiry is cached while
// more than 120 s remain, and fetched again inside 30 s.
func TestTokenSourceCachesByExpiry(t *testing.T) {
	clock := mmstest.NewManualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	var n atomic.Int32
	src := option.TokenSourceFunc(func(context.Context) (*option.Token, error) {
		return &option.Token{AccessToken: option.NewSecret(fmt.Sprintf("tok-%d", n.Add(1))), Expiry: clock.Now().Add(time.Hour)}, nil
	})
	s := newScriptServer(t)
	c := newBearerClient(t, s, option.WithTokenSource(src), mms.WithNowForTest(clock.Now))
	for range 3 {
		if err := get(c); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(time.Hour - 10*time.Second)
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	var sent []string
	for _, r := range s.requests() {
		sent = append(sent, r.header.Get("Authorization"))
	}
	if want := "Bearer tok-1,Bearer tok-1,Bearer tok-1,Bearer tok-2"; strings.Join(sent, ",") != want {
		t.Errorf("sent %v, want %s", sent, want)
	}
}

// TestTokenSourceFailures: a failing, panicking or empty source fails the
// call before anything is sent, without the source's secret.
func TestTokenSourceFailures(t *testing.T) {
	const secret = "tok-SECRET-in-panic"
	for _, tt := range []struct {
		name string
		src  option.TokenSourceFunc
		want string
	}{
		{"error", func(context.Context) (*option.Token, error) { return nil, errors.New("metadata server down") }, "metadata server down"},
		{"panic", func(context.Context) (*option.Token, error) { panic(secret) }, "panicked (string)"},
		{"nil token", func(context.Context) (*option.Token, error) { return nil, nil }, "no token"},
		{"empty token", func(context.Context) (*option.Token, error) { return &option.Token{}, nil }, "no token"},
		{"line break", func(context.Context) (*option.Token, error) {
			return &option.Token{AccessToken: option.NewSecret("a\nb")}, nil
		}, "line break"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newScriptServer(t)
			c := newBearerClient(t, s, option.WithTokenSource(tt.src))
			err := get(c)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), secret) {
				t.Fatalf("err = %v, want it to say %q", err, tt.want)
			}
			if len(s.requests()) != 0 {
				t.Error("a request was sent")
			}
		})
	}
}

// TestTokenSourceErrorScrubbed: a source that fails quoting the token it
// gave before (a refresh error naming the expired token) does not put it
// into the call's error.
func TestTokenSourceErrorScrubbed(t *testing.T) {
	clock := mmstest.NewManualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	const held = "tok-HELD-first-secret"
	var n atomic.Int32
	src := option.TokenSourceFunc(func(context.Context) (*option.Token, error) {
		if n.Add(1) == 1 {
			return &option.Token{AccessToken: option.NewSecret(held), Expiry: clock.Now().Add(time.Hour)}, nil
		}
		return nil, fmt.Errorf("refresh of %s refused; escaped %q", held, held)
	})
	s := newScriptServer(t)
	c := newBearerClient(t, s, option.WithTokenSource(src), mms.WithNowForTest(clock.Now))
	require.NoError(t, get(c))
	clock.Advance(time.Hour)
	err := get(c)
	require.Error(t, err)
	require.NotContains(t, err.Error(), "HELD", "the held token is scrubbed")
	require.Contains(t, err.Error(), "refresh of [redacted] refused")
}

// TestTokenFormatRedacted: fmt and slog never print a Token's value.
func TestTokenFormatRedacted(t *testing.T) {
	tok := option.Token{AccessToken: option.NewSecret("tok-SECRET-fmt"), Expiry: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("t", "token", tok, "ptr", &tok)
	out := fmt.Sprintf("%v %+v %#v %s %q", tok, tok, tok, tok, &tok) + buf.String()
	if strings.Contains(out, "SECRET") || !strings.Contains(out, "2026-01-01") {
		t.Errorf("printed %s", out)
	}
}

// TestBearerOnlyToItsOrigin: a token source's token never reaches another
// origin: not with a per-call base URL, not through a redirect.
func TestBearerOnlyToItsOrigin(t *testing.T) {
	var otherHits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		otherHits.Add(1)
		w.Write([]byte(`{}`))
	}))
	defer other.Close()
	src := option.TokenSourceFunc(func(context.Context) (*option.Token, error) {
		return &option.Token{AccessToken: option.NewSecret("tok-origin")}, nil
	})

	s := newScriptServer(t, reply{status: 307, header: map[string]string{"Location": other.URL + "/v1/models"}})
	c := newBearerClient(t, s, option.WithTokenSource(src))
	err := get(c)
	var re *mms.RedirectError
	if !errors.As(err, &re) {
		t.Errorf("redirect to another origin: err = %v, want *mms.RedirectError", err)
	}
	err = get(c, option.WithBaseURL(other.URL))
	if err == nil || !strings.Contains(err.Error(), "only sent to") {
		t.Errorf("per-call base URL: err = %v", err)
	}
	if otherHits.Load() != 0 {
		t.Fatalf("the other origin got %d requests", otherHits.Load())
	}
	// A call that gives its own source with its own base URL may go there.
	if err := get(c, option.WithBaseURL(other.URL), option.WithTokenSource(src)); err != nil || otherHits.Load() != 1 {
		t.Errorf("own source and base URL: err = %v, hits %d", err, otherHits.Load())
	}
}

// TestFederationExchangeTransportRule: the assertion goes only over https,
// or http to a loopback host.
func TestFederationExchangeTransportRule(t *testing.T) {
	fed := option.Federation{RuleID: "r", OrganizationID: "o", IdentityToken: func(context.Context) (string, error) { return fedAssertion, nil }}
	for _, tt := range []struct {
		base string
		ok   bool
	}{
		{"http://api.example.com", false},
		{"http://10.0.0.1:8080", false},
		{"http://localhost:1234", true},
		{"http://127.0.0.1:1234", true},
		{"http://[::1]:1234", true},
		{"https://api.example.com", true},
	} {
		_, err := mms.NewClient(option.WithBaseURL(tt.base), option.WithFederation(fed))
		if (err == nil) != tt.ok {
			t.Errorf("%s: err = %v, want ok %v", tt.base, err, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "https") {
			t.Errorf("%s: the error does not say why: %v", tt.base, err)
		}
	}
}

// TestFederationIdentityToken: the file is re-read for every exchange
// (a rotated token is picked up), trimmed, and refused over 16,384 bytes;
// the variable and the function sources work the same.
func TestFederationIdentityToken(t *testing.T) {
	e := newFedEnv(t)
	c := e.client(t)
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(e.file, []byte("eyJ-rotated\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(fedLifetime)
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	var assertions []string
	for _, r := range e.srv.Requests() {
		if r.Path == "/v1/oauth/token" {
			var b map[string]string
			if err := json.Unmarshal(r.Body, &b); err != nil {
				t.Fatal(err)
			}
			assertions = append(assertions, b["assertion"])
			if r.Header.Get("Vendor-Beta") != "oauth-2025-04-20,oidc-federation-2026-04-01" || r.Header.Get("Authorization") != "" ||
				r.Header.Get("X-Api-Key") != "" || r.Header.Get("Vendor-Version") != "" {
				t.Errorf("exchange headers %v", r.Header)
			}
		}
	}
	if want := fedAssertion + ",eyJ-rotated"; strings.Join(assertions, ",") != want {
		t.Errorf("assertions %v, want %s", assertions, want)
	}

	for _, size := range []int{mms.MaxIdentityTokenSize, mms.MaxIdentityTokenSize + 1} {
		e := newFedEnv(t)
		// Leading whitespace must not hide the token's length.
		if err := os.WriteFile(e.file, []byte(strings.Repeat(" ", 200)+"eyJ"+strings.Repeat("a", size-3)+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		err := get(e.client(t))
		if ok := size <= mms.MaxIdentityTokenSize; (err == nil) != ok || !ok && !strings.Contains(err.Error(), "16384") {
			t.Errorf("size %d: err = %v", size, err)
		}
		if want := map[bool]int{true: 1, false: 0}[size <= mms.MaxIdentityTokenSize]; e.srv.TokenExchanges() != want {
			t.Errorf("size %d: %d exchanges, want %d", size, e.srv.TokenExchanges(), want)
		}
	}

	e2 := newFedEnv(t)
	t.Setenv("MY_IDENTITY", fedAssertion)
	for _, f := range []option.Federation{
		{RuleID: fedRule, OrganizationID: fedOrg, IdentityTokenEnv: "MY_IDENTITY"},
		{RuleID: fedRule, OrganizationID: fedOrg, IdentityToken: func(context.Context) (string, error) { return fedAssertion, nil }},
	} {
		c, err := mms.NewClient(option.WithBaseURL(e2.srv.URL), option.WithFederation(f))
		require.NoError(t, err)
		if err := get(c); err != nil {
			t.Error(err)
		}
	}
}

// TestFederationOptionRules: WithFederation checks its fields and is a
// client option only.
func TestFederationOptionRules(t *testing.T) {
	fn := func(context.Context) (string, error) { return "x", nil }
	for _, tt := range []struct {
		f    option.Federation
		want string
	}{
		{option.Federation{OrganizationID: "o", IdentityToken: fn}, "RuleID"},
		{option.Federation{RuleID: "r", IdentityToken: fn}, "OrganizationID"},
		{option.Federation{RuleID: "r", OrganizationID: "o"}, "exactly one"},
		{option.Federation{RuleID: "r", OrganizationID: "o", IdentityToken: fn, IdentityTokenFile: "f"}, "exactly one"},
	} {
		_, err := mms.NewClient(option.WithBaseURL("https://x.example"), option.WithFederation(tt.f))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: err = %v, want %q", tt.f.RuleID, err, tt.want)
		}
	}
	s := newScriptServer(t)
	c := newTestClient(t, s)
	err := get(c, option.WithFederation(option.Federation{RuleID: "r", OrganizationID: "o", IdentityToken: fn}))
	if err == nil || !strings.Contains(err.Error(), "client options") || len(s.requests()) != 0 {
		t.Errorf("per call: err = %v", err)
	}
	if _, err := mms.NewClient(option.WithBaseURL(s.URL), option.WithAPIKey("k"), option.WithFederation(option.Federation{RuleID: "r", OrganizationID: "o", IdentityToken: fn})); err == nil ||
		!strings.Contains(err.Error(), "WithAPIKey and WithFederation were given together") {
		t.Errorf("two credentials: err = %v", err)
	}
}

// TestFederationExchangeErrors: a refused exchange is a
// *mms.TokenExchangeError with the status, request id and OAuth members
// only, any echoed assertion redacted; 5xx answers are retried.
func TestFederationExchangeErrors(t *testing.T) {
	e := newFedEnv(t)
	e.srv.FailTokenExchanges(mmstest.ExchangeFailure{Status: 401, Code: "invalid_grant", Description: "token " + fedAssertion + " rejected"})
	err := get(e.client(t))
	var te *mms.TokenExchangeError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v, want *mms.TokenExchangeError", err)
	}
	if te.StatusCode != 401 || te.Code != "invalid_grant" || !strings.HasPrefix(te.RequestID, "req_") ||
		te.Description != "token [redacted] rejected" || !errors.Is(err, mms.ErrAuthentication) {
		t.Errorf("error %+v", te)
	}
	if strings.Contains(err.Error(), fedAssertion) || !strings.Contains(err.Error(), "workspace id") {
		t.Errorf("message %q", err)
	}

	e = newFedEnv(t)
	e.srv.FailTokenExchanges(mmstest.ExchangeFailure{Status: 503, Code: "temporarily_unavailable"})
	if err := get(e.client(t, option.WithMaxRetries(1))); err != nil {
		t.Errorf("a 503 exchange was not retried: %v", err)
	}
	if n := e.srv.TokenExchanges(); n != 2 {
		t.Errorf("%d exchanges, want 2", n)
	}

	e = newFedEnv(t, mmstest.WithFederationRule(mmstest.FederationRule{ID: "fdrl_multi", OrganizationID: fedOrg, WorkspaceIDs: []string{"ws_a", "ws_b"}}))
	f := e.federation()
	f.RuleID = "fdrl_multi"
	c, err := mms.NewClient(option.WithBaseURL(e.srv.URL), option.WithFederation(f))
	require.NoError(t, err)
	if err := get(c); !errors.As(err, &te) || te.StatusCode != 401 {
		t.Errorf("no workspace on a multi-workspace rule: %v", err)
	}
	f.WorkspaceID = "ws_b"
	c, err = mms.NewClient(option.WithBaseURL(e.srv.URL), option.WithFederation(f))
	require.NoError(t, err)
	if err := get(c); err != nil {
		t.Errorf("with a workspace: %v", err)
	}
}

// TestMemoryStoreBetaConflictRefused: a memory-store request that would
// carry the managed-agents beta is refused before sending, saying why.
func TestMemoryStoreBetaConflictRefused(t *testing.T) {
	s := newScriptServer(t)
	c := newTestClient(t, s, option.WithBeta(mms.BetaManagedAgents))
	err := c.Do(context.Background(), "GET", "/v1/memory_stores", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "agent-memory-2026-07-22 beta instead of managed-agents-2026-04-01") {
		t.Errorf("err = %v", err)
	}
	if len(s.requests()) != 0 {
		t.Error("sent")
	}
	if err := c.Do(context.Background(), "GET", "/v1/agents", nil, nil); err != nil {
		t.Errorf("agents: %v", err)
	}
}

// TestMemoryConflictsNotRetried: a 409 whose type is a memory precondition
// or path conflict is final; another 409 is retried.
func TestMemoryConflictsNotRetried(t *testing.T) {
	for _, tt := range []struct {
		errType  string
		attempts int
	}{
		{"memory_precondition_failed_error", 1},
		{"memory_path_conflict_error", 1},
		{"conflict_error", 2},
	} {
		s := newScriptServer(t, reply{status: 409, header: fast, body: `{"type":"error","error":{"type":"` + tt.errType + `","message":"m"}}`})
		c := newTestClient(t, s, option.WithMaxRetries(1))
		_ = c.Do(context.Background(), "GET", "/v1/memory_stores", nil, nil)
		if n := len(s.requests()); n != tt.attempts {
			t.Errorf("%s: %d attempts, want %d", tt.errType, n, tt.attempts)
		}
	}
}
