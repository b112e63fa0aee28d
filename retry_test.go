package mms_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

// fast makes a scripted failure ask for a 1 ms retry delay.
var fast = map[string]string{"Retry-After-Ms": "1"}

func TestRetryConditions(t *testing.T) {
	errBody := `{"type":"error","error":{"type":"api_error","message":"boom"}}`
	tests := []struct {
		name         string
		first        reply
		wantAttempts int
	}{
		{"408 retried", reply{status: 408, header: fast, body: errBody}, 2},
		{"409 retried", reply{status: 409, header: fast, body: errBody}, 2},
		{"429 retried", reply{status: 429, header: fast, body: errBody}, 2},
		{"500 retried", reply{status: 500, header: fast, body: errBody}, 2},
		{"503 retried", reply{status: 503, header: fast, body: errBody}, 2},
		{"529 retried", reply{status: 529, header: fast, body: errBody}, 2},
		{"400 not retried", reply{status: 400, header: fast, body: errBody}, 1},
		{"401 not retried", reply{status: 401, header: fast, body: errBody}, 1},
		{"404 not retried", reply{status: 404, header: fast, body: errBody}, 1},
		{"x-should-retry true on 400", reply{status: 400, header: map[string]string{"Retry-After-Ms": "1", "X-Should-Retry": "true"}, body: errBody}, 2},
		{"x-should-retry false on 503", reply{status: 503, header: map[string]string{"Retry-After-Ms": "1", "X-Should-Retry": "false"}, body: errBody}, 1},
		{"dropped connection retried", reply{drop: true}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScriptServer(t, tt.first)
			c := newTestClient(t, s)
			var md mms.ResponseMetadata
			err := c.Do(context.Background(), "POST", "/v1/messages", map[string]int{"a": 1}, nil, option.WithResponseMetadata(&md))
			if got := len(s.requests()); got != tt.wantAttempts {
				t.Fatalf("attempts = %d, want %d (err %v)", got, tt.wantAttempts, err)
			}
			if tt.wantAttempts == 2 {
				if err != nil {
					t.Fatalf("retry did not succeed: %v", err)
				}
				if md.Attempts != 2 {
					t.Errorf("metadata attempts = %d", md.Attempts)
				}
				if !bytes.Equal(s.requests()[0].body, s.requests()[1].body) && !tt.first.drop {
					t.Error("retry sent a different body")
				}
				return
			}
			var apiErr *mms.Error
			if !errors.As(err, &apiErr) || apiErr.Attempts != 1 {
				t.Fatalf("err = %v, want *mms.Error after 1 attempt", err)
			}
		})
	}
}

func TestRetriesExhausted(t *testing.T) {
	s := newScriptServer(t,
		reply{status: 529, header: fast}, reply{status: 529, header: fast},
		reply{status: 529, header: fast, body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`})
	c := newTestClient(t, s)
	err := c.Do(context.Background(), "GET", "/v1/models", nil, nil)
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || apiErr.Attempts != 3 || !errors.Is(err, mms.ErrOverloaded) {
		t.Fatalf("err = %v (attempts %d), want overloaded after 3 attempts", err, apiErr.Attempts)
	}
	if n := len(s.requests()); n != 3 {
		t.Errorf("requests = %d", n)
	}
}

func TestMaxRetriesZero(t *testing.T) {
	s := newScriptServer(t, reply{status: 500, header: fast})
	c := newTestClient(t, s, option.WithMaxRetries(0))
	if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil); err == nil {
		t.Fatal("want error")
	}
	if n := len(s.requests()); n != 1 {
		t.Errorf("requests = %d", n)
	}
}

// httpDateIn3s in a table stands for an HTTP date 3 s after the subtest starts.
const httpDateIn3s = "<http date in 3s>"

// TestRetryDelay checks which header decides the wait, by timing a retry
// against a context deadline rather than by asserting durations.
func TestRetryDelay(t *testing.T) {
	tests := []struct {
		name    string
		header  map[string]string
		maxWait time.Duration // the retry must happen within this
		minWait time.Duration
	}{
		// Upper bounds are far below the competing delay (30 s, 120 s) but
		// generous, so a loaded machine does not fail them.
		{"retry-after-ms wins over retry-after", map[string]string{"Retry-After-Ms": "5", "Retry-After": "30"}, 10 * time.Second, 0},
		{"retry-after seconds", map[string]string{"Retry-After": "0.05"}, 10 * time.Second, 40 * time.Millisecond},
		{"retry-after over 60s falls back to backoff", map[string]string{"Retry-After": "120"}, 10 * time.Second, 300 * time.Millisecond},
		{"retry-after HTTP date", map[string]string{"Retry-After": httpDateIn3s}, 10 * time.Second, time.Second},
		{"no header: backoff 0.5s minus jitter", nil, 10 * time.Second, 370 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			header := map[string]string{}
			for k, v := range tt.header {
				if v == httpDateIn3s { // HTTP dates have whole seconds: 2–3 s from now
					v = time.Now().Add(3 * time.Second).UTC().Format(http.TimeFormat)
				}
				header[k] = v
			}
			s := newScriptServer(t, reply{status: 429, header: header})
			c := newTestClient(t, s)
			ctx, cancel := context.WithTimeout(context.Background(), tt.maxWait)
			defer cancel()
			start := time.Now()
			if err := c.Do(ctx, "GET", "/v1/models", nil, nil); err != nil {
				t.Fatalf("retry did not happen in time: %v", err)
			}
			if took := time.Since(start); took < tt.minWait {
				t.Errorf("retried after %v, want at least %v", took, tt.minWait)
			}
		})
	}
}

func TestContextEndsWhileWaitingKeepsAPIError(t *testing.T) {
	s := newScriptServer(t, reply{status: 429, header: map[string]string{"Retry-After": "30"},
		body: `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"},"request_id":"req_x"}`})
	c := newTestClient(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := c.Do(ctx, "GET", "/v1/models", nil, nil)
	if time.Since(start) > 10*time.Second { // vs the 30 s retry-after
		t.Fatal("did not return promptly")
	}
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || apiErr.Type != "rate_limit_error" {
		t.Errorf("errors.As *mms.Error failed: %v", err)
	}
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, mms.ErrRateLimited) {
		t.Errorf("errors.Is failed: %v", err)
	}
}

func TestNonReplayableBodyNotRetried(t *testing.T) {
	s := newScriptServer(t, reply{status: 503, header: fast})
	c := newTestClient(t, s)
	body := io.MultiReader(strings.NewReader(`{"a":`), strings.NewReader(`1}`)) // no Seek
	err := c.Do(context.Background(), "POST", "/v1/messages", body, nil)
	if err == nil || !errors.Is(err, mms.ErrNotReplayable) {
		t.Fatalf("err = %v, want ErrNotReplayable", err)
	}
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 {
		t.Errorf("the API error is lost: %v", err)
	}
	if n := len(s.requests()); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

func TestTimedOutAttemptRetried(t *testing.T) {
	s := newScriptServer(t, reply{hang: true})
	c := newTestClient(t, s, option.WithRequestTimeout(100*time.Millisecond))
	var md mms.ResponseMetadata
	if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil, option.WithResponseMetadata(&md)); err != nil {
		t.Fatalf("err = %v", err)
	}
	if n := len(s.requests()); n != 2 || md.Attempts != 2 {
		t.Errorf("requests = %d, attempts = %d, want 2", n, md.Attempts)
	}
}

func TestAllAttemptsTimeOut(t *testing.T) {
	s := newScriptServer(t, reply{hang: true}, reply{hang: true})
	c := newTestClient(t, s, option.WithRequestTimeout(50*time.Millisecond), option.WithMaxRetries(1))
	err := c.Do(context.Background(), "GET", "/v1/models", nil, nil)
	var te *mms.AttemptTimeoutError
	if !errors.As(err, &te) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want AttemptTimeoutError", err)
	}
}

func TestCallerCancelNotRetried(t *testing.T) {
	s := newScriptServer(t, reply{hang: true})
	c := newTestClient(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	err := c.Do(ctx, "GET", "/v1/models", nil, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	if n := len(s.requests()); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

func TestSizeLimitsSendNothing(t *testing.T) {
	tests := []struct {
		path  string
		size  int
		limit int64
	}{
		{"/v1/messages", 32<<20 + 1, 32 << 20},
		{"/v1/messages/count_tokens", 32<<20 + 1, 32 << 20},
		{"/v1/agents", 32<<20 + 1, 32 << 20},
		{"/v1/sessions", 32<<20 + 1, 32 << 20},
		{"/v1/environments", 32<<20 + 1, 32 << 20},
		{"/v1/messages/batches", 256<<20 + 1, 256 << 20},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			s := newScriptServer(t)
			var sent int
			c := newTestClient(t, s, option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
				sent++
				return next(r)
			}))
			err := c.Do(context.Background(), "POST", tt.path, make([]byte, tt.size), nil)
			var tl *mms.RequestTooLargeError
			if !errors.As(err, &tl) || tl.Limit != tt.limit || tl.Size != int64(tt.size) {
				t.Fatalf("err = %v, want RequestTooLargeError{%d, %d}", err, tt.size, tt.limit)
			}
			if !errors.Is(err, mms.ErrRequestTooLarge) {
				t.Error("does not match ErrRequestTooLarge")
			}
			if !strings.Contains(err.Error(), "nothing was sent") {
				t.Errorf("message %q", err)
			}
			if sent != 0 || len(s.requests()) != 0 {
				t.Errorf("%d attempts, %d requests reached the server", sent, len(s.requests()))
			}
		})
	}
}

func TestStreamedBodyOverLimitAborted(t *testing.T) {
	s := newScriptServer(t)
	c := newTestClient(t, s)
	body := io.LimitReader(zeros{}, 32<<20+10)
	err := c.Do(context.Background(), "POST", "/v1/messages", body, nil)
	var tl *mms.RequestTooLargeError
	if !errors.As(err, &tl) || !tl.Sent {
		t.Fatalf("err = %v, want RequestTooLargeError mid-stream", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestEachAttemptStartsFromTheCallsHeader: what writes to a request's
// header during an attempt (a cookie jar, a middleware) reaches neither
// the next attempt nor the client's configuration.
func TestEachAttemptStartsFromTheCallsHeader(t *testing.T) {
	fail := reply{status: 500, header: fast, body: `{}`}
	tests := []struct {
		name   string
		client func(s *scriptServer) []option.RequestOption
		call   []option.RequestOption
		check  func(t *testing.T, got []seen) // the two attempts, then a plain call
	}{
		{"cookie jar", func(s *scriptServer) []option.RequestOption {
			jar, _ := cookiejar.New(nil)
			u, _ := url.Parse(s.URL)
			jar.SetCookies(u, []*http.Cookie{{Name: "a", Value: "1"}})
			return []option.RequestOption{option.WithHTTPClient(&http.Client{Jar: jar})}
		}, nil, func(t *testing.T, got []seen) {
			for i, r := range got {
				if c := r.header.Values("Cookie"); len(c) != 1 || c[0] != "a=1" {
					t.Errorf("request %d: Cookie %q, want [a=1]", i, c)
				}
			}
		}},
		{"middleware adding a header", nil, []option.RequestOption{option.WithMiddleware(
			func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
				r.Header.Add("X-Attempt", "x")
				return next(r)
			})}, func(t *testing.T, got []seen) {
			for i, want := range []int{1, 1, 0} {
				if n := len(got[i].header.Values("X-Attempt")); n != want {
					t.Errorf("request %d: %d X-Attempt values, want %d", i, n, want)
				}
			}
		}},
		{"middleware changing a client header in place", func(*scriptServer) []option.RequestOption {
			first := true
			return []option.RequestOption{option.WithHeader("X-Custom", "orig"), option.WithMiddleware(
				func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
					if first {
						r.Header["X-Custom"][0] = "changed"
						first = false
					}
					return next(r)
				})}
		}, nil, func(t *testing.T, got []seen) {
			for i, want := range []string{"changed", "orig", "orig"} {
				if v := got[i].header.Get("X-Custom"); v != want {
					t.Errorf("request %d: X-Custom %q, want %q", i, v, want)
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScriptServer(t, fail)
			var opts []option.RequestOption
			if tt.client != nil {
				opts = tt.client(s)
			}
			c := newTestClient(t, s, opts...)
			if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil, tt.call...); err != nil {
				t.Fatal(err)
			}
			if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil); err != nil {
				t.Fatal(err)
			}
			got := s.requests()
			if len(got) != 3 {
				t.Fatalf("%d requests, want 3", len(got))
			}
			tt.check(t, got)
		})
	}
}
