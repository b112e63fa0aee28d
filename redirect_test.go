package mms_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// recorder is an httptest server that answers 200 {} and, on
// /v1/redirect?status=…&to=…, the redirect the query asks for (to=self:
// to the same URL).
type recorder struct {
	*httptest.Server
	mu  sync.Mutex
	got []*http.Request
}

func newRecorder(t *testing.T) *recorder {
	t.Helper()
	r := &recorder{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.got = append(r.got, req.Clone(context.Background()))
		r.mu.Unlock()
		if req.URL.Path == "/v1/redirect" {
			status, _ := strconv.Atoi(req.URL.Query().Get("status"))
			to := req.URL.Query().Get("to")
			if to == "self" {
				to = req.URL.RequestURI()
			}
			w.Header().Set("Location", to)
			w.WriteHeader(status)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{}`))
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *recorder) requests() []*http.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*http.Request(nil), r.got...)
}

func redirectPath(status int, to string) string {
	return "/v1/redirect?" + url.Values{"status": {strconv.Itoa(status)}, "to": {to}}.Encode()
}

// TestRedirectsKeepCredentialsAtHome: a redirect to another origin is never
// followed (so the credential never reaches it), a non-idempotent request is
// never re-sent anywhere, and a same-origin redirect of an idempotent
// request is followed with the credential.
func TestRedirectsKeepCredentialsAtHome(t *testing.T) {
	const token = "tok-SECRET-redirect"
	origin, other := newRecorder(t), newRecorder(t)
	originHost := strings.TrimPrefix(origin.URL, "http://")
	otherHost := strings.TrimPrefix(other.URL, "http://")
	targets := []struct {
		name, to, host string
		sameOrigin     bool
	}{
		{"other origin", other.URL + "/v1/landed", otherHost, false},
		{"other origin with userinfo", "http://evil:SECRET-pw@" + otherHost + "/v1/landed", otherHost, false},
		{"same host, other scheme", "https://" + originHost + "/v1/landed", originHost, false},
		{"same origin, absolute", origin.URL + "/v1/landed", originHost, true},
		{"same origin, relative", "/v1/landed", originHost, true},
	}
	creds := map[string]option.RequestOption{"key": option.WithAPIKey(testKey), "token": option.WithAuthToken(token)}
	for _, status := range []int{301, 302, 303, 307, 308} {
		for _, method := range []string{"GET", "DELETE", "POST"} {
			for _, tg := range targets {
				for credName, cred := range creds {
					name := strings.Join([]string{strconv.Itoa(status), method, tg.name, credName}, "/")
					t.Run(name, func(t *testing.T) {
						before, beforeOther := len(origin.requests()), len(other.requests())
						c, err := mms.NewClient(cred, option.WithBaseURL(origin.URL))
						require.NoError(t, err)
						var body any
						if method == "POST" {
							body = map[string]string{"q": "x"}
						}
						err = c.Do(context.Background(), method, redirectPath(status, tg.to), body, nil)
						if n := len(other.requests()) - beforeOther; n != 0 {
							t.Fatalf("%d requests reached the other origin", n)
						}
						got := origin.requests()[before:]
						if tg.sameOrigin && method != "POST" {
							if err != nil {
								t.Fatalf("same-origin redirect of %s not followed: %v", method, err)
							}
							if len(got) != 2 || got[1].URL.Path != "/v1/landed" {
								t.Fatalf("origin saw %d requests, want the redirect and /v1/landed", len(got))
							}
							if got[1].Header.Get("X-Api-Key")+got[1].Header.Get("Authorization") == "" {
								t.Error("the followed request lost its credential")
							}
							return
						}
						var re *mms.RedirectError
						if !errors.As(err, &re) {
							t.Fatalf("err = %v, want *mms.RedirectError", err)
						}
						if re.StatusCode != status || re.Host != tg.host {
							t.Errorf("RedirectError{%d, %q}, want {%d, %q}", re.StatusCode, re.Host, status, tg.host)
						}
						text := err.Error()
						if !strings.Contains(text, strconv.Itoa(status)) || !strings.Contains(text, tg.host) {
							t.Errorf("error %q does not name the status and the target host", text)
						}
						if strings.Contains(text, "SECRET") {
							t.Errorf("error leaks a secret: %q", text)
						}
						if method == "POST" && !strings.Contains(text, "not idempotent") {
							t.Errorf("error %q does not say why", text)
						}
						if len(got) != 1 {
							t.Errorf("origin saw %d requests, want only the first (no retry, no follow)", len(got))
						}
					})
				}
			}
		}
	}
}

// TestRedirectPolicyLeavesCallerClientAlone: the caller's *http.Client is
// not modified, keeps its Timeout, and its CheckRedirect is still asked
// about redirects the SDK allows (and can refuse them).
func TestRedirectPolicyLeavesCallerClientAlone(t *testing.T) {
	origin, other := newRecorder(t), newRecorder(t)
	var asked int
	refuse := errors.New("caller says no")
	var answer error
	hc := &http.Client{Timeout: time.Minute, CheckRedirect: func(*http.Request, []*http.Request) error {
		asked++
		return answer
	}}
	plain := &http.Client{}
	for _, client := range []*http.Client{hc, plain} {
		c, err := mms.NewClient(option.WithAPIKey(testKey), option.WithBaseURL(origin.URL), option.WithHTTPClient(client))
		require.NoError(t, err)
		if err := c.Do(context.Background(), "GET", redirectPath(302, "/v1/landed"), nil, nil); err != nil {
			t.Fatal(err)
		}
		var re *mms.RedirectError
		if err := c.Do(context.Background(), "GET", redirectPath(302, other.URL), nil, nil); !errors.As(err, &re) {
			t.Fatalf("cross-origin redirect: err = %v", err)
		}
	}
	if asked != 1 {
		t.Errorf("the caller's CheckRedirect was asked %d times, want 1 (same origin only)", asked)
	}
	if plain.CheckRedirect != nil || hc.Timeout != time.Minute || hc.Transport != nil || plain.Jar != nil {
		t.Error("the caller's http.Client was modified")
	}
	_ = hc.CheckRedirect(nil, nil) // still the caller's own function
	if asked != 2 {
		t.Error("the caller's CheckRedirect was replaced")
	}

	answer = refuse
	c, _ := mms.NewClient(option.WithAPIKey(testKey), option.WithBaseURL(origin.URL), option.WithHTTPClient(hc))
	err := c.Do(context.Background(), "GET", redirectPath(307, "/v1/landed"), nil, nil)
	var re *mms.RedirectError
	if !errors.As(err, &re) || !errors.Is(err, refuse) {
		t.Fatalf("err = %v, want a RedirectError wrapping the caller's refusal", err)
	}
	if n := len(other.requests()); n != 0 {
		t.Errorf("%d requests reached the other origin", n)
	}
}

// TestSameOriginRedirectLoopStops: without a CheckRedirect of the caller's,
// net/http's limit of 10 redirects holds, and the call is not retried.
func TestSameOriginRedirectLoopStops(t *testing.T) {
	origin := newRecorder(t)
	loop := redirectPath(302, "self")
	c, err := mms.NewClient(option.WithAPIKey(testKey), option.WithBaseURL(origin.URL))
	require.NoError(t, err)
	err = c.Do(context.Background(), "GET", loop, nil, nil)
	var re *mms.RedirectError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "10 redirects") {
		t.Fatalf("err = %v, want a RedirectError after 10 redirects", err)
	}
	if n := len(origin.requests()); n != 10 {
		t.Errorf("origin saw %d requests, want 10 (as net/http; no retry)", n)
	}
}
