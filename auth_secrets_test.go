package mms_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// TestNoCredentialSecretInErrorsOrLogs drives every credential path —
// federation (success, renewal after 401, refused and failing exchanges
// whose server echoes the assertion, an oversized identity token, plain
// http), token sources (failing, panicking), profiles (refresh, a spent
// refresh token, bad files) — with a debug logger, and scans every error
// string and log line for the assertion, the minted access tokens, the
// refresh tokens and the panicking source's value.
func TestNoCredentialSecretInErrorsOrLogs(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var errs []error
	e := newFedEnv(t)
	c := e.client(t, option.WithLogger(logger))
	errs = append(errs, get(c))
	e.srv.RevokeTokens()
	errs = append(errs, get(c))
	e.srv.FailTokenExchanges(
		mmstest.ExchangeFailure{Status: 401, Code: "invalid_grant", Description: "bad assertion " + fedAssertion},
		mmstest.ExchangeFailure{Status: 503, Code: "temporarily_unavailable", Description: fedAssertion},
		mmstest.ExchangeFailure{Status: 503, Code: fedAssertion},
		mmstest.ExchangeFailure{Status: 503, Code: "x", Description: "y"},
	)
	e.clock.Advance(fedLifetime)
	errs = append(errs, get(c), get(c, option.WithMaxRetries(1)))
	if err := os.WriteFile(e.file, []byte(fedAssertion+strings.Repeat("x", mms.MaxIdentityTokenSize)), 0o600); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(fedLifetime)
	errs = append(errs, get(c))
	_, err := mms.NewClient(option.WithBaseURL("http://api.example.com"), option.WithLogger(logger),
		option.WithFederation(option.Federation{RuleID: "r", OrganizationID: "o", IdentityToken: func(context.Context) (string, error) { return fedAssertion, nil }}))
	errs = append(errs, err)

	const sourceSecret = "tok-SECRET-source"
	for _, src := range []option.TokenSourceFunc{
		func(context.Context) (*option.Token, error) { panic(sourceSecret) },
		func(context.Context) (*option.Token, error) { panic(fmt.Errorf("wrapped %s", sourceSecret)) },
		func(context.Context) (*option.Token, error) {
			return &option.Token{AccessToken: option.NewSecret(sourceSecret + "\n")}, nil
		},
	} {
		c, err := mms.NewClient(option.WithBaseURL(e.srv.URL), option.WithTokenSource(src), option.WithLogger(logger))
		require.NoError(t, err)
		errs = append(errs, get(c))
	}
	srcOK := option.TokenSourceFunc(func(context.Context) (*option.Token, error) {
		return &option.Token{AccessToken: option.NewSecret(sourceSecret)}, nil
	})
	c2, err := mms.NewClient(option.WithBaseURL(e.srv.URL), option.WithTokenSource(srcOK), option.WithLogger(logger))
	require.NoError(t, err)
	errs = append(errs, get(c2), get(c2, option.WithBaseURL("https://elsewhere.example")))

	dir := t.TempDir()
	writeJSONFile(t, dir, "configs/me.json", map[string]any{"base_url": e.srv.URL,
		"authentication": map[string]any{"type": "user_oauth", "client_id": "c"}}, 0o600)
	rt := e.srv.IssueRefreshToken("c")
	writeJSONFile(t, dir, "credentials/me.json", map[string]any{"access_token": "expired", "expires_at": 1, "refresh_token": rt}, 0o600)
	profileGet := func() error {
		pc, err := mms.NewClient(option.WithProfile("me"), option.WithConfigDir(dir), option.WithLogger(logger), mms.WithNowForTest(e.clock.Now))
		require.NoError(t, err)
		return get(pc)
	}
	errs = append(errs, profileGet())
	writeJSONFile(t, dir, "credentials/me.json", map[string]any{"access_token": "expired", "expires_at": 1, "refresh_token": rt}, 0o600)
	errs = append(errs, profileGet())
	writeJSONFile(t, dir, "credentials/me.json", map[string]any{"access_token": fedAssertion}, 0o644)
	errs = append(errs, profileGet())
	os.WriteFile(filepath.Join(dir, "credentials", "me.json"), []byte("{"+fedAssertion), 0o600)
	errs = append(errs, profileGet())

	secrets := []string{fedAssertion, sourceSecret, rt, mmstest.DefaultAPIKey}
	for _, r := range e.srv.Requests() {
		if a := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "); a != "" {
			secrets = append(secrets, a)
		}
	}
	for i, err := range errs {
		if err == nil {
			if i > 1 && i != 11 {
				t.Errorf("path %d did not fail", i)
			}
			continue
		}
		var te *mms.TokenExchangeError
		if errors.As(err, &te) {
			for _, s := range []string{te.Code, te.Description, te.URI} {
				scanSecrets(t, "error field", s, secrets)
			}
		}
		scanSecrets(t, "error", err.Error(), secrets)
		scanSecrets(t, "error %v", fmt.Sprintf("%+v %#v", err, err), secrets)
	}
	if !strings.Contains(logs.String(), "mms token exchange") {
		t.Error("the exchange is not logged")
	}
	for _, line := range strings.Split(logs.String(), "\n") {
		scanSecrets(t, "log line", line, secrets)
	}
}

func scanSecrets(t *testing.T, what, text string, secrets []string) {
	t.Helper()
	for _, s := range secrets {
		if s != "" && strings.Contains(text, s) {
			t.Errorf("%s shows a secret (%.12s…): %.300s", what, s, text)
		}
	}
}
