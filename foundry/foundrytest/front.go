// Package foundrytest puts Microsoft Foundry's wire in front of the
// mmstest fake, so the foundry adapter can be tested end to end with no
// Azure account:
//
//	tokens := foundrytest.NewTokenSource()
//	front := &foundrytest.Front{APIKeys: []string{"k"}, Tokens: tokens}
//	srv := mmstest.NewServer(mmstest.WithPlatform(front))
//
// The front serves the service's paths below /vendor, accepts an x-api-key
// it knows or a bearer token its token source minted (not both), and sets
// an apim-request-id on every answer.
package foundrytest

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// The names the front uses, as the foundry adapter does.
const (
	PathPrefix      = "/vendor"
	HeaderRequestID = "Apim-Request-Id"
)

// TokenSource is a fake Microsoft Entra ID token source: each Token call
// mints a new token, which the fronts that use it accept. Safe for
// concurrent use.
type TokenSource struct {
	mu     sync.Mutex
	minted []string
}

// NewTokenSource returns a token source that has minted nothing yet.
func NewTokenSource() *TokenSource { return &TokenSource{} }

// Token mints a new token; its signature fits foundry.TokenSource.
func (s *TokenSource) Token(context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tok := fmt.Sprintf("entra-fake-token-%d", len(s.minted)+1)
	s.minted = append(s.minted, tok)
	return tok, nil
}

// valid reports whether s minted tok.
func (s *TokenSource) valid(tok string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return tok != "" && slices.Contains(s.minted, tok)
}

// Front is Foundry in front of the fake. Set its fields before the server
// starts; its methods are safe for concurrent use.
type Front struct {
	// APIKeys are the resource keys accepted in x-api-key.
	APIKeys []string
	// Tokens minted the bearer tokens the front accepts.
	Tokens *TokenSource

	mu    sync.Mutex
	fail  []int
	creds []string
	ids   int
}

// FailNext answers the next authenticated requests, one per status, with
// that status instead of passing them to the service: 529 as the service's
// overloaded error, any other status as Azure's front end does
// ({"error":{"code","message"}}).
func (f *Front) FailNext(statuses ...int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail = append(f.fail, statuses...)
}

// Credentials returns the credential of every request the front
// authenticated, in order: the bearer token, or "x-api-key".
func (f *Front) Credentials() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.creds)
}

// ServePlatform implements mmstest.PlatformFront.
func (f *Front) ServePlatform(w http.ResponseWriter, r *http.Request, service http.Handler) {
	f.mu.Lock()
	f.ids++
	w.Header().Set(HeaderRequestID, fmt.Sprintf("00000000-0000-4000-8000-%012d", f.ids))
	f.mu.Unlock()
	rest, ok := strings.CutPrefix(r.URL.Path, PathPrefix)
	if !ok || !strings.HasPrefix(rest, "/") {
		writeAzureError(w, http.StatusNotFound, "404", "Resource not found")
		return
	}
	cred, ok := f.authenticate(r)
	if !ok {
		writeAzureError(w, http.StatusUnauthorized, "401", "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.")
		return
	}
	f.mu.Lock()
	f.creds = append(f.creds, cred)
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
		writeAzureError(w, injected, fmt.Sprint(injected), http.StatusText(injected))
		return
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path, r2.URL.RawPath = rest, ""
	r2.Header.Del("Authorization")
	r2.Header.Del("X-Api-Key")
	service.ServeHTTP(w, r2)
}

// authenticate checks exactly one credential: an x-api-key or a bearer
// token.
func (f *Front) authenticate(r *http.Request) (string, bool) {
	keys, hasKey := r.Header["X-Api-Key"]
	auth, hasAuth := r.Header["Authorization"]
	switch {
	case hasKey && !hasAuth:
		return "x-api-key", len(keys) == 1 && oneOf(keys[0], f.APIKeys)
	case hasAuth && !hasKey && len(auth) == 1:
		scheme, tok, _ := strings.Cut(auth[0], " ")
		return tok, strings.EqualFold(scheme, "Bearer") && f.Tokens != nil && f.Tokens.valid(tok)
	}
	return "", false
}

// oneOf reports whether secret is one of accepted, in constant time per
// candidate. An empty secret never matches.
func oneOf(secret string, accepted []string) bool {
	found := 0
	for _, a := range accepted {
		found |= subtle.ConstantTimeCompare([]byte(secret), []byte(a))
	}
	return secret != "" && found == 1
}

// writeAzureError answers as Azure's API Management front end does.
func writeAzureError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]string{"code": code, "message": msg}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}
