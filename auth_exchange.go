package mms

// The token exchange (POST /v1/oauth/token) and the federation source.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/auth"
	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// MaxIdentityTokenSize is the longest identity token the SDK sends; a
// longer one is refused before the exchange, as the service's SDKs do.
const MaxIdentityTokenSize = 16384

// maxIdentityFile bounds what is read of an identity token file.
const maxIdentityFile = 1 << 20

// The grant types of the exchange.
const (
	grantJWTBearer = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	grantRefresh   = "refresh_token"
)

// maxDescription bounds the error_description an error carries.
const maxDescription = 2000

// exchanger posts token requests to {base URL}/v1/oauth/token. It never
// follows a redirect (the body holds the assertion or refresh token) and
// sends no credential header.
type exchanger struct {
	tokenURL   string
	hc         *http.Client
	userAgent  string
	logger     *slog.Logger
	maxRetries int
	timeout    time.Duration // per attempt
	now        func() time.Time
}

// defaultExchangeTimeout bounds an exchange attempt when the client sets no
// request timeout.
const defaultExchangeTimeout = 30 * time.Second

// newExchanger pins the exchange to cfg's base URL (without userinfo), and
// refuses a base URL the assertion may not travel to.
func newExchanger(cfg *config.Config) (*exchanger, error) {
	u := *cfg.BaseURL
	u.User = nil
	if err := checkExchangeURL(&u); err != nil {
		return nil, err
	}
	u.Path += "/v1/oauth/token"
	hc := http.DefaultClient
	if cfg.HTTPClient != nil {
		hc = cfg.HTTPClient
	}
	noRedirect := *hc
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	timeout := cmp.Or(cfg.RequestTimeout, defaultExchangeTimeout)
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	return &exchanger{tokenURL: u.String(), hc: &noRedirect, userAgent: cfg.UserAgent, logger: cfg.Logger,
		maxRetries: cfg.MaxRetries, timeout: timeout, now: now}, nil
}

// tokenAnswer is the exchange's 200 body.
type tokenAnswer struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    *int64 `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
}

// exchange posts body (holding secrets, which errors must not show) with
// betas, retrying as the pipeline does, and returns the token with its
// expiry and the refresh token the answer rotated in, if any.
func (x *exchanger) exchange(ctx context.Context, grant string, body map[string]string, betas string, secrets ...string) (auth.Token, string, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return auth.Token{}, "", err
	}
	shortGrant := "jwt-bearer"
	if grant == grantRefresh {
		shortGrant = grantRefresh
	}
	for attempt := 0; ; attempt++ {
		status, h, answer, err := x.post(ctx, raw, betas)
		retry := err != nil && ctx.Err() == nil
		if err == nil && status != http.StatusOK {
			retry = transport.ShouldRetry(&http.Response{StatusCode: status, Header: h})
			err = exchangeError(status, h, answer, shortGrant, secrets)
		}
		if err == nil {
			return x.parse(h, answer)
		}
		if !retry || attempt >= x.maxRetries {
			return auth.Token{}, "", err
		}
		if err := sleepCtx(ctx, transport.RetryDelay(h, attempt)); err != nil {
			return auth.Token{}, "", fmt.Errorf("%w (gave up waiting to retry: %w)", err, ctx.Err())
		}
	}
}

// post makes one attempt; err is a network error (the answer is read
// whole, up to 1 MiB).
func (x *exchanger) post(ctx context.Context, body []byte, betas string) (int, http.Header, []byte, error) {
	actx, cancel := context.WithTimeout(ctx, x.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, x.tokenURL, bytes.NewReader(body))
	if err != nil {
		return 0, nil, nil, fmt.Errorf("mms: token exchange: %w", err)
	}
	req.Header.Set(wire.HeaderContentType, "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set(wire.HeaderBeta, betas)
	if x.userAgent != "" {
		req.Header.Set(wire.HeaderUserAgent, x.userAgent)
	}
	start := time.Now()
	resp, err := x.hc.Do(req)
	if err != nil {
		// net/http's *url.Error quotes the URL, which has no userinfo
		// (newExchanger dropped it) and no secret.
		return 0, nil, nil, fmt.Errorf("mms: token exchange: %w", err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if x.logger != nil {
		x.logger.LogAttrs(ctx, slog.LevelDebug, "mms token exchange", slog.String("url", x.tokenURL),
			slog.Int("status", resp.StatusCode), slog.String("request_id", resp.Header.Get(wire.HeaderRequestID)),
			slog.Duration("took", time.Since(start)))
	}
	if err != nil {
		return 0, nil, nil, fmt.Errorf("mms: token exchange: reading the answer: %w", err)
	}
	return resp.StatusCode, resp.Header, answer, nil
}

// parse checks a 200 answer: an access token, a Bearer type if any, and
// the expiry (none without expires_in).
func (x *exchanger) parse(h http.Header, answer []byte) (auth.Token, string, error) {
	id := h.Get(wire.HeaderRequestID)
	var a tokenAnswer
	if err := json.Unmarshal(answer, &a); err != nil {
		return auth.Token{}, "", fmt.Errorf("mms: token exchange answered 200 with a body that is not a token (request-id %s)", id)
	}
	switch {
	case strings.TrimSpace(a.AccessToken) == "":
		return auth.Token{}, "", fmt.Errorf("mms: token exchange answered 200 without an access_token (request-id %s)", id)
	case a.TokenType != "" && !strings.EqualFold(a.TokenType, "Bearer"):
		return auth.Token{}, "", fmt.Errorf("mms: token exchange answered token_type %q, not Bearer (request-id %s)", a.TokenType, id)
	case transport.CheckHeaderValue(a.AccessToken) != nil:
		return auth.Token{}, "", fmt.Errorf("mms: token exchange answered an access_token that cannot be sent in a header (request-id %s)", id)
	}
	tok := auth.Token{Value: a.AccessToken}
	if a.ExpiresIn != nil {
		tok.Expiry = x.now().Add(time.Duration(*a.ExpiresIn) * time.Second)
	}
	return tok, a.RefreshToken, nil
}

// exchangeError builds the error of a non-200 answer from the OAuth error
// members only.
func exchangeError(status int, h http.Header, body []byte, grant string, secrets []string) *TokenExchangeError {
	e := &TokenExchangeError{StatusCode: status, RequestID: h.Get(wire.HeaderRequestID), Grant: grant}
	var b struct {
		Error            string `json:"error"`
		ErrorDescription string `json:"error_description"`
		ErrorURI         string `json:"error_uri"`
	}
	if json.Unmarshal(body, &b) == nil {
		e.Code = scrub(b.Error, secrets)
		e.Description = scrub(b.ErrorDescription, secrets)
		e.URI = scrub(b.ErrorURI, secrets)
	}
	return e
}

// scrub cuts server text to maxDescription bytes and hides the secrets
// the request carried, in case the server echoed them.
func scrub(s string, secrets []string) string {
	for _, sec := range secrets {
		if sec != "" {
			s = strings.ReplaceAll(s, sec, "[redacted]")
		}
	}
	if len(s) > maxDescription {
		s = s[:maxDescription] + "…"
	}
	return s
}

// federationSource mints access tokens from identity tokens.
type federationSource struct {
	f config.Federation
	x *exchanger
}

// useFederation gives cfg a bearer of federation-minted tokens, pinned to
// cfg's base URL.
func useFederation(cfg *config.Config, f config.Federation, label string) error {
	x, err := newExchanger(cfg)
	if err != nil {
		return fmt.Errorf("%s: %w", label, err)
	}
	src := &federationSource{f: f, x: x}
	cfg.Bearer = &config.Bearer{Fetch: src.fetch, KeepUnexpiring: true, Beta: wire.BetaOAuth, Source: label}
	return nil
}

// fetch reads the identity token afresh and exchanges it.
func (s *federationSource) fetch(ctx context.Context) (auth.Token, error) {
	assertion, err := readIdentityToken(ctx, s.f)
	if err != nil {
		return auth.Token{}, err
	}
	body := map[string]string{
		"grant_type":         grantJWTBearer,
		"assertion":          assertion,
		"federation_rule_id": s.f.RuleID,
		"organization_id":    s.f.OrganizationID,
	}
	if s.f.ServiceAccountID != "" {
		body["service_account_id"] = s.f.ServiceAccountID
	}
	if s.f.WorkspaceID != "" {
		body["workspace_id"] = s.f.WorkspaceID
	}
	tok, _, err := s.x.exchange(ctx, grantJWTBearer, body, wire.BetaOAuth+","+wire.BetaOIDCFederation, assertion)
	return tok, err
}

// readIdentityToken reads the identity token from its file (whitespace
// trimmed), variable or function, and refuses an empty or oversized one.
func readIdentityToken(ctx context.Context, f config.Federation) (string, error) {
	var tok, from string
	switch {
	case f.IdentityTokenFile != "":
		from = "the identity token file " + f.IdentityTokenFile
		file, err := os.Open(f.IdentityTokenFile)
		if err != nil {
			return "", fmt.Errorf("mms: reading %s: %w", from, err)
		}
		// Read well past the limit, so that whitespace around the token
		// cannot hide a truncation; what is longer is refused below.
		b, err := io.ReadAll(io.LimitReader(file, maxIdentityFile))
		file.Close()
		if err != nil {
			return "", fmt.Errorf("mms: reading %s: %w", from, err)
		}
		tok = string(b)
	case f.IdentityTokenEnv != "":
		from = "$" + f.IdentityTokenEnv
		tok = os.Getenv(f.IdentityTokenEnv)
	default:
		from = "the identity token function"
		var err error
		if tok, err = callIdentityFunc(ctx, f.IdentityToken); err != nil {
			return "", err
		}
	}
	tok = strings.TrimSpace(tok)
	switch {
	case tok == "":
		return "", fmt.Errorf("mms: %s is empty", from)
	case len(tok) > MaxIdentityTokenSize:
		return "", fmt.Errorf("mms: %s holds more than %d bytes; the service refuses longer identity tokens", from, MaxIdentityTokenSize)
	}
	return tok, nil
}

// callIdentityFunc calls a program's identity token function; a panic
// becomes an error naming its type only (its value may hold the token).
func callIdentityFunc(ctx context.Context, fn func(context.Context) (string, error)) (tok string, err error) {
	defer func() {
		if p := recover(); p != nil {
			tok, err = "", fmt.Errorf("mms: the identity token function panicked (%T)", p)
		}
	}()
	tok, err = fn(ctx)
	if err != nil {
		return "", fmt.Errorf("mms: the identity token function failed: %w", err)
	}
	return tok, nil
}
