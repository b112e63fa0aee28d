// Package vertextest puts Google Vertex AI's wire in front of mmstest's fake
// service, so that programs using package vertex are tested end to end
// with no Google Cloud account:
//
//	tokens := &vertextest.TokenSource{}
//	front := vertextest.Front(tokens)
//	srv := mmstest.NewServer(mmstest.WithPlatform(front))
//	client, err := mms.NewClient(
//		vertex.WithProject(vertextest.Region, vertextest.Project, vertex.WithTokenSource(tokens)),
//		option.WithBaseURL(srv.URL), option.WithHTTPClient(srv.Client()))
package vertextest

import (
	"fmt"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// TokenSource is a fake Google token source: every Token call issues a new
// access token valid for Lifetime, and the front accepts only tokens it
// issued and that have not expired. The zero value is ready to use.
type TokenSource struct {
	// Lifetime is how long a token is valid; 0 means an hour. Under ten
	// seconds, oauth2.ReuseTokenSource (which renews a token ten seconds
	// before it expires) asks for a new token for every request.
	Lifetime time.Duration
	// Now is the clock that dates tokens and checks their expiry; nil
	// means time.Now. A fixed clock keeps short-lived tokens valid for the
	// front however slow the test runs.
	Now func() time.Time

	mu     sync.Mutex
	issued map[string]time.Time // token → expiry
}

// Token issues a new access token.
func (s *TokenSource) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.issued == nil {
		s.issued = make(map[string]time.Time)
	}
	life := s.Lifetime
	if life == 0 {
		life = time.Hour
	}
	tok := &oauth2.Token{
		AccessToken: fmt.Sprintf("ya29.vertextest-%d", len(s.issued)+1),
		TokenType:   "Bearer",
		Expiry:      s.now().Add(life),
	}
	s.issued[tok.AccessToken] = tok.Expiry
	return tok, nil
}

// Issued returns how many tokens Token has issued.
func (s *TokenSource) Issued() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.issued)
}

// Expire makes every token issued so far expired for the front (clients
// holding one still think it valid until they are refused).
func (s *TokenSource) Expire() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for tok := range s.issued {
		s.issued[tok] = time.Time{}
	}
}

// expire makes one token expired for the front.
func (s *TokenSource) expire(tok string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.issued[tok]; ok {
		s.issued[tok] = time.Time{}
	}
}

// check says why tok is refused, or "" when it is valid.
func (s *TokenSource) check(tok string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	expiry, ok := s.issued[tok]
	switch {
	case !ok:
		return "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential."
	case !s.now().Before(expiry):
		return "Request had invalid authentication credentials: the access token has expired."
	}
	return ""
}

func (s *TokenSource) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}
