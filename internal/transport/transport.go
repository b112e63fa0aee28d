// Package transport is mms-go's one request pipeline: URL and headers,
// client-side pacing, the middleware chain, retries with backoff, per-attempt
// timeouts, logging with secrets redacted, and the hand-over of response
// metadata. Every call of every service, and the raw Client.Do, goes
// through Do.
package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/mms-sdk/mms-go/observe"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// Request is one logical call; Do may send it several times.
type Request struct {
	Method string
	Path   string     // escaped path below the base URL, e.g. "/v1/files/file_1"
	Query  url.Values // may be nil

	// Body is the encoded body; nil for none. It is replayable as is.
	Body []byte
	// BodyStream, when Body is nil, supplies a streamed body; Size is its
	// length or -1. GetBody, if set, returns a fresh copy for a retry; a
	// stream without GetBody is sent once and never retried.
	BodyStream io.Reader
	GetBody    func() (io.Reader, error)
	Size       int64

	ContentType string // default application/json when there is a body
	Accept      string // default application/json

	// Betas are the betas the endpoint needs; they are merged with the
	// client's and the call's and can only be dropped via OmitBetas.
	Betas []string

	// Stream leaves the response body open for the caller; otherwise Do
	// reads it whole inside the attempt (so a timeout while reading retries).
	Stream bool
	// DefaultTimeout is the per-attempt timeout when the caller set none.
	DefaultTimeout time.Duration
	// Tokens is the client-side rate limiter's estimate for this request.
	Tokens int
	// Model is the model of a Messages call (create, stream, count
	// tokens), for a platform adapter's path; "" otherwise.
	Model string
	// Operation, when set, is told about each attempt (package observe).
	Operation observe.Operation
	// Retry is the request's retry class (retry.go); the zero value
	// classes it by method, so an unclassed POST is Creating.
	Retry Retry
	// Removes, for a delete or an archive, makes an "already gone" answer
	// to a resend a success (see Removal).
	Removes Removal
	// Secrets, when set, returns the secrets in Params (the values of
	// their mms.Secret fields), for a Scrubber. It is called only when an
	// error is built.
	Secrets func(params any) []string
	Params  any
}

// Response is a successful (2xx) answer.
type Response struct {
	*http.Response
	// Bytes is the whole body when the request was not a stream.
	Bytes []byte
	// RequestID is the response's request-id header.
	RequestID string
	// Attempts is how many attempts the call took.
	Attempts int
	// PlatformRequestID is the platform's own request id (see
	// platform.Adapter.RequestIDHeader); "" without a platform.
	PlatformRequestID string
	// Scrub hides the secrets this attempt carried, in what the response
	// brings back later (a stream's "error" event); nil changes nothing.
	Scrub *Scrubber
	// Resent is true when the call succeeded on the evidence of a resend:
	// a delete or archive (Request.Removes) was sent again after an
	// attempt whose outcome was lost, and the answer (a 404, or "already
	// archived") says that attempt did it. The status is that answer's;
	// Bytes is empty.
	Resent bool
}

// errAttemptTimeout is the cancel cause of an attempt that ran out of time.
var errAttemptTimeout = errors.New("attempt timed out")

// Do sends req, retrying as the retry policy says, and returns a 2xx
// response or an error; errs builds the errors callers match.
func Do(ctx context.Context, cfg *config.Config, req *Request, errs Errors) (*Response, error) {
	if cfg.BaseURL == nil {
		return nil, errors.New("mms: no base URL configured")
	}
	if cfg.Platform == nil { // a platform checks its own limit (preparePlatform)
		if err := checkSize(req, errs); err != nil {
			return nil, err
		}
	}
	betas, err := requestBetas(cfg, req)
	if err != nil {
		return nil, err
	}
	if err := checkBearerOrigin(cfg, req); err != nil {
		return nil, err
	}
	if err := checkAdminPath(cfg, req); err != nil {
		return nil, err
	}
	target := buildURL(cfg.BaseURL, req.Path, req.Query)
	header := buildHeader(cfg, req, betas)
	client := cfg.HTTPClient
	if client == nil {
		client = http.DefaultClient
	}
	last := withRedirectPolicy(client, cfg.BaseURL, req, errs).Do
	if cfg.Platform != nil {
		pc, err := preparePlatform(cfg, req, betas, header, errs)
		if err != nil {
			return nil, err
		}
		last = pc.link(cfg, last)
	}
	send := chain(cfg.Middleware, last)
	// Each attempt starts from the header built above. Only a middleware,
	// net/http adding a cookie jar's cookies, or a bearer token resolved
	// per attempt writes to a request's header; then each attempt gets a
	// copy.
	copyHeader := len(cfg.Middleware) > 0 || client.Jar != nil || cfg.Bearer != nil || cfg.Platform != nil

	class := req.class()
	var lastErr error
	var delay time.Duration
	retries, renewed := 0, false
	spent := 0         // what this call's retries took from the retry budget
	uncertain := false // an earlier attempt may have taken effect
	for attempt := 1; ; attempt++ {
		if attempt > 1 {
			logRetry(cfg, req, attempt, delay, lastErr)
			if err := sleep(ctx, delay); err != nil {
				return nil, fmt.Errorf("%w (gave up waiting to retry: %w)", lastErr, err)
			}
		}
		if cfg.Limiter != nil {
			if err := cfg.Limiter.Wait(ctx, req.Tokens); err != nil {
				return nil, joinLast(lastErr, fmt.Errorf("mms: waiting for the client-side rate limit: %w", err))
			}
		}
		h := header
		if copyHeader {
			h = header.Clone()
		}
		token, err := bearerToken(ctx, cfg, req)
		if err != nil {
			return nil, joinLast(lastErr, err)
		}
		if token != "" {
			h.Set(wire.HeaderAuthorization, "Bearer "+token)
		}
		started := time.Now()
		resp, fl, err := attempt1(ctx, cfg, req, target, h, send, attempt, errs)
		if err == nil {
			observeAttempt(req, attempt, target, started, resp, nil, false)
			cfg.RetryBudget.Succeeded(spent)
			return resp, nil
		}
		if uncertain && resp != nil && alreadyGone(req.Removes, resp.StatusCode, fl.body) {
			// A resent delete or archive answered "not there": the attempt
			// whose answer was lost did it.
			observeAttempt(req, attempt, target, started, resp, nil, false)
			resp.Resent, resp.Body = true, http.NoBody
			report(cfg, resp)
			cfg.RetryBudget.Succeeded(spent)
			return resp, nil
		}
		err = redactErr(err, NewScrubber(cfg, req, h)) // before it is logged or returned
		switch {
		case fl.fate == unknown:
			uncertain = true
			if class == Creating {
				err = fmt.Errorf("%w; %w", err, errs.MaybeApplied(req.Method, req.Path))
			}
		case uncertain && class == Idempotent && (fl.status == http.StatusConflict || fl.status == http.StatusPreconditionFailed):
			// A resent update whose precondition (a version, a hash, a
			// heartbeat) no longer holds: the attempt whose answer was
			// lost may be what changed it.
			err = fmt.Errorf("%w; %w", err, errs.MaybeApplied(req.Method, req.Path))
		}
		if !fl.replayable && fl.withBody().mayRetry(class) {
			err = fmt.Errorf("%w; %w", err, errs.NotReplayable())
		}
		lastErr = err
		if renewable(cfg, resp, token, req) && !renewed {
			// A 401 for a cached token: drop it (if no one has yet), get a
			// new one and send once more, at once.
			observeAttempt(req, attempt, target, started, resp, err, true)
			renewed, delay = true, 0
			cfg.Bearer.Invalidate(token)
			continue
		}
		if !fl.mayRetry(class) || retries >= cfg.MaxRetries {
			observeAttempt(req, attempt, target, started, resp, err, false)
			return nil, err
		}
		cost, ok := cfg.RetryBudget.Take(fl.timeout)
		if !ok {
			observeAttempt(req, attempt, target, started, resp, err, false)
			return nil, fmt.Errorf("%w; %w", err, errs.RetryBudget())
		}
		spent += cost
		observeAttempt(req, attempt, target, started, resp, err, true)
		retries++
		delay = retryDelay(resp, retries-1)
	}
}

// requestBetas merges the request's betas (adding the OAuth beta for a
// token source's token) and refuses a memory-store request that would carry
// the managed-agents beta: the service answers 400 to the pair.
func requestBetas(cfg *config.Config, req *Request) ([]string, error) {
	endpoint := req.Betas
	if cfg.Bearer != nil && cfg.Bearer.Beta != "" {
		endpoint = append(slices.Clip(endpoint), cfg.Bearer.Beta)
	}
	betas := MergeBetas(cfg, endpoint)
	if strings.HasPrefix(req.Path, "/v1/memory_stores") && slices.Contains(betas, wire.BetaManagedAgents) {
		return nil, fmt.Errorf("mms: %s %s: memory store endpoints take the %s beta instead of %s, and the service refuses the two together; remove %s from option.WithBeta (the managed-agents services add it themselves)",
			req.Method, req.Path, wire.BetaAgentMemory, wire.BetaManagedAgents, wire.BetaManagedAgents)
	}
	return betas, nil
}

// checkBearerOrigin refuses to send a token source's token to an origin
// other than the base URL it was configured with (a call's own base URL).
func checkBearerOrigin(cfg *config.Config, req *Request) error {
	b := cfg.Bearer
	if b == nil || b.Origin == nil || sameOrigin(b.Origin, cfg.BaseURL) {
		return nil
	}
	return fmt.Errorf("mms: %s %s: the bearer token from %s is only sent to %s, not to this call's base URL %s; give the call its own credential",
		req.Method, req.Path, b.Source, originOf(b.Origin), originOf(cfg.BaseURL))
}

func originOf(u *url.URL) string { return u.Scheme + "://" + u.Host }

// bearerToken resolves the token source's token for one attempt ("" when
// the client uses a static credential).
func bearerToken(ctx context.Context, cfg *config.Config, req *Request) (string, error) {
	if cfg.Bearer == nil {
		return "", nil
	}
	tok, err := cfg.Bearer.Token(ctx)
	if err != nil {
		// A source may quote a credential in its error: the client's, the
		// request's, or the token it held before.
		sc := NewScrubber(cfg, req, nil)
		if cfg.Bearer.Held != nil {
			sc.build()
			sc.add([]string{cfg.Bearer.Held()})
		}
		return "", fmt.Errorf("mms: %s %s: no bearer token from %s: %w", req.Method, req.Path, cfg.Bearer.Source, sc.Err(err))
	}
	return tok, nil
}

// renewable reports whether a failed attempt was a 401 for a token the
// source can renew, with a body that can be sent again.
func renewable(cfg *config.Config, resp *Response, token string, req *Request) bool {
	if token == "" || resp == nil || resp.StatusCode != http.StatusUnauthorized || cfg.Bearer.Invalidate == nil {
		return false
	}
	return req.BodyStream == nil || req.GetBody != nil
}

// attempt1 makes one attempt. On failure it says what the failure means
// (failure: whether a retry may follow, whether the request may have taken
// effect), and returns the response (headers only) when there was one, for
// the retry delay.
func attempt1(ctx context.Context, cfg *config.Config, req *Request, target string, header http.Header,
	send config.MiddlewareNext, attempt int, errs Errors) (*Response, failure, error) {
	body, replayable, err := bodyFor(req, attempt, errs)
	if err != nil {
		return nil, failure{fate: unsent}, err
	}
	actx, cancel := context.WithCancelCause(ctx)
	var sent sendTrace
	actx = sent.trace(actx)
	timeout := cfg.RequestTimeout
	if timeout == 0 {
		timeout = req.DefaultTimeout
	}
	var timer *time.Timer
	if timeout > 0 {
		timer = time.AfterFunc(timeout, func() { cancel(errAttemptTimeout) })
	}
	stopTimer := func() {
		if timer != nil {
			timer.Stop()
		}
	}
	var stream io.Reader
	if body != nil && req.Body == nil { // a stream: its size is checked as it goes
		stream = &countingReader{r: body, limit: wire.BodyLimit(req.Path), req: req, errs: errs}
		stream = newCancelableBody(actx, stream) // see request_body.go
	}
	hreq, err := http.NewRequestWithContext(actx, req.Method, target, stream)
	if err != nil {
		stopTimer()
		cancel(nil)
		return nil, failure{fate: unsent}, fmt.Errorf("mms: building request: %w", err)
	}
	hreq.Header = header
	if req.Body != nil {
		// A *bytes.Reader in net/http's own NopCloser is a body net/http
		// knows to be in memory: it sends the headers and the body in one
		// write, where for any other reader it flushes the headers first
		// (one more packet, and one more read for the server).
		hreq.Body = io.NopCloser(body)
		hreq.ContentLength = int64(len(req.Body))
	} else if req.BodyStream != nil && req.Size >= 0 {
		hreq.ContentLength = req.Size
	}
	// The standard library may ask for the body again (e.g. on a 307); only
	// offer it when we can make a fresh one.
	hreq.GetBody = nil

	start := time.Now()
	logAttempt(cfg, hreq, attempt)
	hresp, err := send(hreq)
	if err != nil {
		stopTimer()
		cancel(nil)
		err = redactURLError(err)
		fl := failure{fate: sent.fate(), replayable: replayable}
		if f, ok := asFinal(err); ok {
			// A body over the limit, a refused redirect: returned as they
			// are (not in net/http's *url.Error, which quotes the target).
			if fl.fate == unknown && sent.wrote.Load() {
				fl.fate = refused // an answer the SDK would not follow
			}
			return nil, fl, f
		}
		switch {
		case ctx.Err() != nil: // the caller's context ended: no retry
			return nil, fl, fmt.Errorf("mms: %s %s: %w", req.Method, req.Path, ctx.Err())
		case context.Cause(actx) == errAttemptTimeout:
			err = errs.AttemptTimeout(timeout)
			fl.timeout = true
		default:
			fl.timeout = fl.fate == unknown // a connection dropped after writing
		}
		fl.retryable = true
		return nil, fl, fmt.Errorf("mms: %s %s: %w", req.Method, req.Path, err)
	}
	if cfg.Limiter != nil {
		cfg.Limiter.Observe(hresp.Header)
	}
	logResponse(cfg, req, hresp, attempt, time.Since(start))
	resp := &Response{Response: hresp, RequestID: hresp.Header.Get(wire.HeaderRequestID), Attempts: attempt,
		PlatformRequestID: platformRequestID(cfg, hresp.Header), Scrub: NewScrubber(cfg, req, header)}
	if err := unfollowedRedirect(req, cfg.BaseURL, hresp, errs); err != nil {
		hresp.Body.Close()
		stopTimer()
		cancel(nil)
		report(cfg, resp)
		return resp, failure{fate: refused, status: hresp.StatusCode}, err
	}

	if hresp.StatusCode >= 200 && hresp.StatusCode < 300 {
		if req.Stream {
			stopTimer() // the timeout covered the wait for headers
			hresp.Body = &cancelOnClose{ReadCloser: hresp.Body, cancel: func() { cancel(nil) }}
			report(cfg, resp)
			return resp, failure{}, nil
		}
		limit := cfg.MaxResponseSize
		if limit <= 0 {
			limit = config.DefaultMaxResponseSize
		}
		size := hresp.ContentLength
		if req.Method == http.MethodHead {
			size = 0 // the header gives the GET's length; there is no body
		}
		resp.Bytes, err = readBody(hresp.Body, size, limit)
		hresp.Body.Close()
		stopTimer()
		// A success whose body is lost took effect: its fate is unknown
		// to the caller, who does not have the answer.
		fl := failure{fate: unknown, status: hresp.StatusCode, replayable: replayable}
		if errors.Is(err, errOverLimit) {
			cancel(nil)
			report(cfg, resp)
			return nil, fl, errs.ResponseTooLarge(req.Method, req.Path, limit, hresp.ContentLength)
		}
		if err != nil {
			timedOut := context.Cause(actx) == errAttemptTimeout
			cancel(nil)
			if timedOut {
				err = errs.AttemptTimeout(timeout)
			} else if ctx.Err() != nil {
				return nil, fl, fmt.Errorf("mms: reading %s %s: %w", req.Method, req.Path, ctx.Err())
			}
			fl.retryable, fl.timeout = true, true
			return nil, fl, fmt.Errorf("mms: reading %s %s: %w", req.Method, req.Path, err)
		}
		cancel(nil)
		hresp.Body = http.NoBody // read: the bytes are in resp.Bytes
		report(cfg, resp)
		return resp, failure{}, nil
	}

	errBody, _ := io.ReadAll(io.LimitReader(hresp.Body, 1<<20))
	hresp.Body.Close()
	stopTimer()
	cancel(nil)
	report(cfg, resp)
	sc := NewScrubber(cfg, req, header) // a server may echo a secret: scrub before the error is built
	apiErr := errs.API(hresp.StatusCode, sc.Header(hresp.Header), sc.Bytes(errBody), attempt, resp.PlatformRequestID, sc)
	fl := responseFailure(hresp, errBody, replayable)
	fl.body = errBody
	return resp, fl, apiErr
}

// report hands the final response's metadata to option.WithResponseMetadata.
func report(cfg *config.Config, r *Response) {
	if cfg.MetadataInto != nil {
		cfg.MetadataInto(r.StatusCode, r.Header, r.Attempts, r.PlatformRequestID, r.Resent)
	}
}

// checkSize refuses a body over its endpoint's limit before anything is sent.
func checkSize(req *Request, errs Errors) error {
	size := int64(len(req.Body))
	if req.Body == nil {
		size = req.Size
	}
	if limit := wire.BodyLimit(req.Path); size > limit {
		return errs.RequestTooLarge(req.Method, req.Path, size, limit, false)
	}
	return nil
}

// bodyFor returns the body for an attempt and whether it can be sent again.
func bodyFor(req *Request, attempt int, errs Errors) (io.Reader, bool, error) {
	switch {
	case req.Body != nil:
		return bytes.NewReader(req.Body), true, nil
	case req.BodyStream == nil:
		return nil, true, nil
	case attempt == 1:
		return req.BodyStream, req.GetBody != nil, nil
	case req.GetBody != nil:
		r, err := req.GetBody()
		if err != nil {
			return nil, false, fmt.Errorf("mms: rewinding the request body for a retry: %w", err)
		}
		return r, true, nil
	}
	return nil, false, errs.NotReplayable()
}

// countingReader counts the bytes handed to the HTTP client, and stops a
// stream of unknown size at the endpoint's limit.
type countingReader struct {
	r     io.Reader
	n     int64
	limit int64
	req   *Request
	errs  Errors
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.limit {
		return n, &final{c.errs.RequestTooLarge(c.req.Method, c.req.Path, c.n, c.limit, true)}
	}
	return n, err
}

// cancelOnClose ends the attempt's context when a streamed body is closed,
// which releases the connection.
type cancelOnClose struct {
	io.ReadCloser
	cancel func()
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

func chain(mw []config.Middleware, last config.MiddlewareNext) config.MiddlewareNext {
	next := last
	for i := len(mw) - 1; i >= 0; i-- {
		m, n := mw[i], next
		next = func(r *http.Request) (*http.Response, error) { return m(r, n) }
	}
	return next
}

func buildURL(base *url.URL, path string, q url.Values) string {
	u := *base
	u.Path = base.Path + path
	u.RawPath = ""
	if unescaped, err := url.PathUnescape(u.Path); err == nil && (unescaped != u.Path || strings.ContainsAny(u.Path, "!'()*")) {
		// path carries escaped segments, or sub-delimiters net/url would
		// escape (wire.PathSegment leaves them as they are): send it as
		// written.
		u.RawPath = u.Path
		u.Path = unescaped
	}
	if len(q) > 0 {
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// buildHeader sets every header the service needs: exactly one credential,
// version, the merged betas, profile and workspace, content type, accept,
// user agent, then the caller's extra headers. The values share one
// backing array (each capped, so an append cannot reach its neighbour).
func buildHeader(cfg *config.Config, req *Request, betas []string) http.Header {
	h := make(http.Header, 8+len(cfg.Header))
	vals := make([]string, 0, 8)
	set := func(key, value string) { // key is canonical
		vals = append(vals, value)
		h[key] = vals[len(vals)-1 : len(vals) : len(vals)]
	}
	if cfg.APIKey != "" {
		set(wire.HeaderAPIKey, cfg.APIKey)
	} else if cfg.AdminKey != "" { // checkAdminPath let it through
		set(wire.HeaderAPIKey, cfg.AdminKey)
	} else if cfg.AuthToken != "" {
		set(wire.HeaderAuthorization, "Bearer "+cfg.AuthToken)
	}
	set(wire.HeaderVersion, cfg.Version)
	if cfg.UserAgent != "" {
		set(wire.HeaderUserAgent, cfg.UserAgent)
	}
	accept := req.Accept
	if accept == "" {
		accept = "application/json"
	}
	set("Accept", accept)
	if req.Body != nil || req.BodyStream != nil {
		ct := req.ContentType
		if ct == "" {
			ct = "application/json"
		}
		set(wire.HeaderContentType, ct)
	}
	for k, v := range cfg.Header {
		h[k] = v[:len(v):len(v)] // not written to: see copyHeader in Do
	}
	if cfg.UserProfileID != "" {
		set(wire.HeaderUserProfileID, cfg.UserProfileID)
	}
	if cfg.WorkspaceID != "" {
		set(wire.HeaderWorkspaceID, cfg.WorkspaceID)
	}
	if len(betas) > 0 {
		set(wire.HeaderBeta, strings.Join(betas, ","))
	}
	return h
}

// MergeBetas returns the one de-duplicated beta list of a request: the
// client's and call's betas, the endpoint's (unless switched off with
// OmitBetas), and the user-profiles beta when a profile id is set (header
// or, via the endpoint list, body) and no dated user-profiles-* beta stands
// for it.
func MergeBetas(cfg *config.Config, endpoint []string) []string {
	var out []string
	// Under 2026-10-21 the Files and Skills endpoint betas are deprecated
	// and user profiles are GA: those endpoints send none and get the GA
	// shapes; a caller's own value (option.WithBeta) still selects the old
	// ones.
	gaOnly := wire.VersionRefuses(CallVersion(cfg))
	add := func(b string) {
		if b = strings.TrimSpace(b); b != "" && !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	for _, b := range cfg.Betas {
		add(b)
	}
	profiles := cfg.UserProfileID != ""
	for _, b := range endpoint {
		switch {
		case slices.Contains(cfg.OmitBetas, b):
		case gaOnly && (b == wire.BetaFiles || b == wire.BetaSkills):
		case b == wire.BetaUserProfiles:
			// added below, unless a dated value stands for it
			profiles = profiles || !gaOnly
		default:
			add(b)
		}
	}
	if profiles && !slices.ContainsFunc(out, func(b string) bool {
		return strings.HasPrefix(b, wire.BetaUserProfiles)
	}) {
		add(wire.BetaUserProfiles)
	}
	return out
}

// CallVersion is the vendor-version a request with cfg sends:
// option.WithHeader's value wins over option.WithVersion's, as in
// buildHeader.
func CallVersion(cfg *config.Config) string {
	if v := cfg.Header.Get(wire.HeaderVersion); v != "" {
		return v
	}
	return cfg.Version
}

// ShouldRetry applies x-should-retry, else the status rule: 408, 409, 429,
// 5xx. The token exchange shares it.
func ShouldRetry(resp *http.Response) bool {
	switch strings.ToLower(strings.TrimSpace(resp.Header.Get(wire.HeaderShouldRetry))) {
	case "true":
		return true
	case "false":
		return false
	}
	s := resp.StatusCode
	return s == 408 || s == 409 || s == 429 || s >= 500
}

// retryDelay is the server's retry-after-ms / retry-after when 0 < d ≤ 60 s,
// else 0.5 s·2ⁿ capped at 8 s minus up to 25 % jitter (n = retries done).
func retryDelay(resp *Response, n int) time.Duration {
	if resp == nil {
		return RetryDelay(nil, n)
	}
	return RetryDelay(resp.Header, n)
}

// RetryDelay is the wait before a retry after an answer with header h (nil
// for none) when n retries were done: the pipeline's rule, shared with the
// token exchange.
func RetryDelay(h http.Header, n int) time.Duration {
	if h != nil {
		if d, ok := RetryAfter(h, time.Now()); ok && d > 0 && d <= time.Minute {
			return d
		}
	}
	return backoff(n)
}

func backoff(n int) time.Duration {
	d := min(500*time.Millisecond<<min(n, 10), 8*time.Second)
	return d - time.Duration(rand.Float64()*0.25*float64(d))
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func joinLast(last, err error) error {
	if last == nil {
		return err
	}
	return fmt.Errorf("%w (%w)", last, err)
}

// FormatAttempts is used in logs: "attempt 2/3".
func FormatAttempts(attempt, maxRetries int) string {
	return strconv.Itoa(attempt) + "/" + strconv.Itoa(maxRetries+1)
}

// observeAttempt reports one attempt to the request's operation, if it is
// observed.
func observeAttempt(req *Request, n int, target string, started time.Time, resp *Response, err error, retry bool) {
	if req.Operation == nil {
		return
	}
	a := observe.Attempt{Number: n, Method: req.Method, URL: RedactURL(target), Start: started,
		Duration: time.Since(started), Err: err, Retry: retry}
	if resp != nil && resp.Response != nil {
		a.StatusCode, a.RequestID, a.PlatformRequestID = resp.StatusCode, resp.RequestID, resp.PlatformRequestID
	}
	req.Operation.Attempt(a)
}

// AdminPathPrefix is the path every Organization (Admin) API operation is
// under.
const AdminPathPrefix = "/v1/organizations/"

// ComplianceReviewPathPrefix is the path every compliance review
// operation is under: they take an admin key too.
const ComplianceReviewPathPrefix = "/v1/compliance/review/"

// AdminPathPrefixes are the only paths an admin key is sent to.
var AdminPathPrefixes = []string{AdminPathPrefix, ComplianceReviewPathPrefix}

// isAdminPath reports whether path is under one of AdminPathPrefixes.
func isAdminPath(path string) bool {
	for _, p := range AdminPathPrefixes {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// checkAdminPath refuses to send an admin key anywhere but the admin
// paths (AdminPathPrefixes): an admin key administers the whole
// organization, so a request of another endpoint (a Do with another path,
// a mistaken service) fails here, before any byte is sent, rather than
// carry it.
func checkAdminPath(cfg *config.Config, req *Request) error {
	if cfg.AdminKey == "" || cfg.APIKey != "" || cfg.AuthToken != "" || cfg.Bearer != nil {
		return nil
	}
	if !isAdminPath(req.Path) {
		return fmt.Errorf("mms: %s %s: an admin key is only sent to the Organization API (%s…) and compliance review (%s…); use an API key or a token for this endpoint",
			req.Method, req.Path, AdminPathPrefix, ComplianceReviewPathPrefix)
	}
	return nil
}
