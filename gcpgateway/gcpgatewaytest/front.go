// Package gcpgatewaytest puts the Google Cloud gateway's wire in front of
// the mmstest fake, so the gcpgateway adapter can be tested end to end
// with no Google Cloud account:
//
//	tokens := gcpgatewaytest.NewTokenSource()
//	front := &gcpgatewaytest.Front{Project: "p", Workspace: "wrkspc_1", Tokens: tokens}
//	srv := mmstest.NewServer(mmstest.WithPlatform(front))
//
// The front serves the service's paths below the workspace's invoke path,
// accepts only bearer tokens its token source minted, and refuses a
// vendor-workspace-id header or an x-api-key, as the gateway does.
package gcpgatewaytest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// TokenSource is a fake OAuth2 token source: each Token call mints a new
// token, which the fronts that use it accept. Safe for concurrent use.
type TokenSource struct {
	mu     sync.Mutex
	minted []string
}

// NewTokenSource returns a token source that has minted nothing yet.
func NewTokenSource() *TokenSource { return &TokenSource{} }

// Token mints a new access token, valid for an hour.
func (s *TokenSource) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tok := fmt.Sprintf("ya29.fake-token-%d", len(s.minted)+1)
	s.minted = append(s.minted, tok)
	return &oauth2.Token{AccessToken: tok, TokenType: "Bearer", Expiry: time.Now().Add(time.Hour)}, nil
}

// valid reports whether s minted tok.
func (s *TokenSource) valid(tok string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return tok != "" && slices.Contains(s.minted, tok)
}

// Front is the Google Cloud gateway in front of the fake. Set its fields
// before the server starts; its methods are safe for concurrent use.
type Front struct {
	// Project, Location (default "global") and Workspace make the invoke
	// path the front serves.
	Project, Location, Workspace string
	// Tokens minted the bearer tokens the front accepts.
	Tokens *TokenSource

	mu     sync.Mutex
	fail   []int
	tokens []string
}

// FailNext answers the next authenticated requests, one per status, with
// that status instead of passing them to the service: 529 as the service's
// overloaded error, any other status as Google's front end does (the
// Google error envelope).
func (f *Front) FailNext(statuses ...int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail = append(f.fail, statuses...)
}

// SeenTokens returns the bearer token of every request the front
// authenticated, in order.
func (f *Front) SeenTokens() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.tokens)
}

// ServePlatform implements mmstest.PlatformFront.
func (f *Front) ServePlatform(w http.ResponseWriter, r *http.Request, service http.Handler) {
	loc := f.Location
	if loc == "" {
		loc = "global"
	}
	prefix := "/v1alpha/projects/" + f.Project + "/locations/" + loc + "/workspaces/" + f.Workspace + "/invoke"
	rest, ok := strings.CutPrefix(r.URL.Path, prefix)
	if !ok || !strings.HasPrefix(rest, "/") {
		writeGoogleError(w, http.StatusNotFound, "NOT_FOUND", "the requested URL was not found on this server")
		return
	}
	scheme, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") || f.Tokens == nil || !f.Tokens.valid(tok) {
		writeGoogleError(w, http.StatusUnauthorized, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected OAuth 2 access token.")
		return
	}
	for _, h := range []string{"Vendor-Workspace-Id", "X-Api-Key"} {
		if _, ok := r.Header[h]; ok {
			writeGoogleError(w, http.StatusBadRequest, "INVALID_ARGUMENT", strings.ToLower(h)+": header is not accepted; the workspace is in the URL")
			return
		}
	}
	f.mu.Lock()
	f.tokens = append(f.tokens, tok)
	var injected int
	if len(f.fail) > 0 {
		injected, f.fail = f.fail[0], f.fail[1:]
	}
	f.mu.Unlock()
	switch {
	case injected == 529:
		writeJSON(w, injected, map[string]any{"type": "error", "error": map[string]string{"type": "overloaded_error", "message": "Overloaded"}})
		return
	case injected != 0:
		writeGoogleError(w, injected, "UNAVAILABLE", http.StatusText(injected))
		return
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path, r2.URL.RawPath = rest, ""
	r2.Header.Del("Authorization")
	service.ServeHTTP(w, r2)
}

// writeGoogleError answers with Google's error envelope.
func writeGoogleError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"code": status, "message": msg, "status": code}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}
