package vertex

import (
	"context"
	"fmt"
	"net/http"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"
)

// Authenticate puts an access token on one attempt. The token is the
// cached one until it expires (oauth2.ReuseTokenSource renews it shortly
// before), so a retry after an expiry carries a new one.
func (a *adapter) Authenticate(_ context.Context, req *http.Request, _ []byte) error {
	ts, err := a.tokens.source()
	if err != nil {
		return err
	}
	tok, err := ts.Token()
	if err != nil {
		return fmt.Errorf("vertex: no access token: %w", err)
	}
	if tok.AccessToken == "" {
		return fmt.Errorf("vertex: the token source gave an empty access token")
	}
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	return nil
}

// source returns the cached token source, looking up Application Default
// Credentials the first time when no option supplied one (from BaseURL, so
// in mms.NewClient). A failed lookup is not remembered.
func (t *tokens) source() (oauth2.TokenSource, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ts != nil {
		return t.ts, nil
	}
	// Not the call's context: the credentials keep the context they were
	// found with for every later token refresh.
	creds, err := google.FindDefaultCredentials(context.Background(), Scope)
	if err != nil {
		return nil, fmt.Errorf("vertex: no Google Application Default Credentials (set $GOOGLE_APPLICATION_CREDENTIALS, run gcloud auth application-default login, or use vertex.WithCredentials or vertex.WithTokenSource): %w", err)
	}
	t.set(creds.TokenSource)
	return t.ts, nil
}

// refused drops the cached token after Vertex refused it (401), so that
// the next call asks the configured source again. A source that caches by
// itself (Application Default Credentials' do) still answers its token
// until that expires.
func (t *tokens) refused() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.base != nil {
		t.ts = oauth2.ReuseTokenSource(nil, t.base)
	}
}
