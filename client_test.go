package mms_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

func TestHeaders(t *testing.T) {
	tests := []struct {
		name   string
		client []option.RequestOption
		call   []option.RequestOption
		path   string
		body   any
		want   map[string]string // "" means the header must be absent
	}{
		{
			name: "defaults with key",
			path: "/v1/models",
			want: map[string]string{
				"X-Api-Key": testKey, "Authorization": "", "Vendor-Version": "2023-06-01",
				"Vendor-Beta": "", "Content-Type": "", "Accept": "application/json",
			},
		},
		{
			name:   "bearer token replaces key per call",
			call:   []option.RequestOption{option.WithAuthToken("tok-SECRET")},
			path:   "/v1/models",
			want:   map[string]string{"X-Api-Key": "", "Authorization": "Bearer tok-SECRET"},
			client: nil,
		},
		{
			name: "version override and body content type",
			call: []option.RequestOption{option.WithVersion("2099-01-01")},
			path: "/v1/messages/count_tokens",
			body: map[string]any{"a": 1},
			want: map[string]string{"Vendor-Version": "2099-01-01", "Content-Type": "application/json"},
		},
		{
			name:   "client and call betas merged, de-duplicated, one header",
			client: []option.RequestOption{option.WithBeta("a-1", "b-2")},
			call:   []option.RequestOption{option.WithBeta("b-2", "c-3")},
			path:   "/v1/messages",
			want:   map[string]string{"Vendor-Beta": "a-1,b-2,c-3"},
		},
		{
			name: "endpoint beta added",
			path: "/v1/agents",
			want: map[string]string{"Vendor-Beta": "managed-agents-2026-04-01"},
		},
		{
			name: "user header cannot drop the endpoint beta",
			call: []option.RequestOption{option.WithHeader("vendor-beta", "x-1, y-2")},
			path: "/v1/sessions",
			want: map[string]string{"Vendor-Beta": "x-1,y-2,managed-agents-2026-04-01"},
		},
		{
			name: "user profile sends its header and beta",
			call: []option.RequestOption{option.WithUserProfileID("prof_1")},
			path: "/v1/messages",
			want: map[string]string{"Vendor-User-Profile-Id": "prof_1", "Vendor-Beta": "user-profiles"},
		},
		{
			name: "dated user-profiles beta stands for the plain one",
			call: []option.RequestOption{option.WithUserProfileID("prof_1"), option.WithBeta("user-profiles-2026-03-24")},
			path: "/v1/messages",
			want: map[string]string{"Vendor-Beta": "user-profiles-2026-03-24"},
		},
		{
			name: "workspace and extra header",
			call: []option.RequestOption{option.WithWorkspaceID("wrkspc_1"), option.WithHeader("x-trace", "t1")},
			path: "/v1/models",
			want: map[string]string{"Vendor-Workspace-Id": "wrkspc_1", "X-Trace": "t1"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScriptServer(t)
			c := newTestClient(t, s, tt.client...)
			if err := c.Do(context.Background(), "POST", tt.path, tt.body, nil, tt.call...); err != nil {
				t.Fatal(err)
			}
			got := s.requests()[0].header
			for k, want := range tt.want {
				if v := got.Get(k); v != want {
					t.Errorf("%s = %q, want %q", k, v, want)
				}
				if len(got.Values(k)) > 1 {
					t.Errorf("%s sent %d times", k, len(got.Values(k)))
				}
			}
			ua := got.Get("User-Agent")
			if !strings.HasPrefix(ua, "mms-go/"+mms.Version+" ") || !strings.Contains(ua, runtime.Version()) {
				t.Errorf("User-Agent = %q, want mms-go/%s with %s", ua, mms.Version, runtime.Version())
			}
		})
	}
}

func TestEndpointBetaCanBeSwitchedOff(t *testing.T) {
	s := newScriptServer(t)
	c := newTestClient(t, s)
	err := c.Do(context.Background(), "GET", "/v1/agents", nil, nil,
		option.WithoutEndpointBeta("managed-agents-2026-04-01"))
	require.NoError(t, err)
	if b := s.requests()[0].header.Get("Vendor-Beta"); b != "" {
		t.Errorf("Vendor-Beta = %q, want none", b)
	}
}

func TestURLBuilding(t *testing.T) {
	s := newScriptServer(t)
	c, err := mms.NewClient(option.WithAPIKey(testKey), option.WithBaseURL(s.URL+"/prefix/"))
	require.NoError(t, err)
	if err := c.Do(context.Background(), "GET", "/v1/files/a%2Fb?ids[]=x&ids[]=y&limit=2", nil, nil); err != nil {
		t.Fatal(err)
	}
	r := s.requests()[0]
	if r.path != "/prefix/v1/files/a/b" {
		t.Errorf("path = %q", r.path)
	}
	if r.query != "ids%5B%5D=x&ids%5B%5D=y&limit=2" {
		t.Errorf("query = %q", r.query)
	}
}

func TestNewClientEnvironment(t *testing.T) {
	const srv = "@" // stands for the test server's URL
	tests := []struct {
		name       string
		env        map[string]string
		opts       []option.RequestOption
		withBase   bool   // add option.WithBaseURL(server)
		wantErr    string // substring; "" means success
		wantHeader [2]string
	}{
		{"env key and base", map[string]string{"VENDOR_API_KEY": "envkey", "VENDOR_BASE_URL": srv}, nil, false, "", [2]string{"X-Api-Key", "envkey"}},
		{"env token", map[string]string{"VENDOR_AUTH_TOKEN": "envtok", "VENDOR_BASE_URL": srv}, nil, false, "", [2]string{"Authorization", "Bearer envtok"}},
		{"explicit key wins over env token", map[string]string{"VENDOR_AUTH_TOKEN": "envtok", "VENDOR_BASE_URL": srv},
			[]option.RequestOption{option.WithAPIKey("optkey")}, false, "", [2]string{"X-Api-Key", "optkey"}},
		{"explicit base wins over env", map[string]string{"VENDOR_API_KEY": "k", "VENDOR_BASE_URL": "http://nowhere.invalid"},
			nil, true, "", [2]string{"X-Api-Key", "k"}},
		{"no credential", map[string]string{"VENDOR_BASE_URL": srv}, nil, false, "VENDOR_API_KEY", [2]string{}},
		{"no base URL names the variable", map[string]string{"VENDOR_API_KEY": "k"}, nil, false, "VENDOR_BASE_URL", [2]string{}},
		{"no base URL names the option", map[string]string{"VENDOR_API_KEY": "k"}, nil, false, "option.WithBaseURL", [2]string{}},
		{"bad env base URL", map[string]string{"VENDOR_API_KEY": "k", "VENDOR_BASE_URL": "::nope"}, nil, false, "VENDOR_BASE_URL", [2]string{}},
		{"env key wins over env token", map[string]string{"VENDOR_API_KEY": "k", "VENDOR_AUTH_TOKEN": "t", "VENDOR_BASE_URL": srv}, nil, false, "", [2]string{"X-Api-Key", "k"}},
		{"empty key", nil, []option.RequestOption{option.WithAPIKey("")}, true, "key is empty", [2]string{}},
		{"key and token", nil, []option.RequestOption{option.WithAPIKey("k"), option.WithAuthToken("t")}, true, "WithAPIKey and WithAuthToken were given together", [2]string{}},
		{"base URL does not parse", nil, []option.RequestOption{option.WithAPIKey("k"), option.WithBaseURL("http://[::1")}, false, "does not parse", [2]string{}},
		{"base URL not absolute", nil, []option.RequestOption{option.WithAPIKey("k"), option.WithBaseURL("/v1")}, false, "absolute", [2]string{}},
		{"negative retries", nil, []option.RequestOption{option.WithAPIKey("k"), option.WithMaxRetries(-1)}, true, "negative", [2]string{}},
		{"response metadata is per call only", nil, []option.RequestOption{option.WithAPIKey("k"), option.WithResponseMetadata(new(mms.ResponseMetadata))}, true, "per-call option", [2]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScriptServer(t)
			for _, k := range []string{"VENDOR_API_KEY", "VENDOR_AUTH_TOKEN", "VENDOR_BASE_URL"} {
				v := tt.env[k]
				if v == srv {
					v = s.URL
				}
				t.Setenv(k, v)
			}
			opts := tt.opts
			if tt.withBase {
				opts = append(append([]option.RequestOption{}, opts...), option.WithBaseURL(s.URL))
			}
			c, err := mms.NewClient(opts...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
				}
				return
			}
			require.NoError(t, err)
			if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil); err != nil {
				t.Fatal(err)
			}
			h := s.requests()[0].header
			if got := h.Get(tt.wantHeader[0]); got != tt.wantHeader[1] {
				t.Errorf("%s = %q, want %q", tt.wantHeader[0], got, tt.wantHeader[1])
			}
			if h.Get("X-Api-Key") != "" && h.Get("Authorization") != "" {
				t.Error("both credentials sent")
			}
		})
	}
}

func TestPerCallOptionErrorSendsNothing(t *testing.T) {
	s := newScriptServer(t)
	c := newTestClient(t, s)
	err := c.Do(context.Background(), "GET", "/v1/models", nil, nil, option.WithMaxRetries(-3))
	if err == nil || !strings.Contains(err.Error(), "negative") {
		t.Fatalf("err = %v", err)
	}
	if n := len(s.requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

func TestWithHeaderRefusesCredentials(t *testing.T) {
	for _, h := range []string{"x-api-key", "Authorization"} {
		_, err := mms.NewClient(option.WithAPIKey("k"), option.WithBaseURL("http://x"), option.WithHeader(h, "v"))
		if err == nil {
			t.Errorf("WithHeader(%q) accepted", h)
		}
	}
}

func TestMiddlewareOrder(t *testing.T) {
	s := newScriptServer(t, reply{status: 503, header: map[string]string{"Retry-After-Ms": "1"}})
	var trace []string
	mw := func(name string) option.Middleware {
		return func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
			trace = append(trace, name+">")
			resp, err := next(r)
			trace = append(trace, "<"+name)
			return resp, err
		}
	}
	c := newTestClient(t, s, option.WithMiddleware(mw("client")))
	if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil, option.WithMiddleware(mw("call1"), mw("call2"))); err != nil {
		t.Fatal(err)
	}
	one := []string{"client>", "call1>", "call2>", "<call2", "<call1", "<client"}
	want := append(append([]string{}, one...), one...) // once per attempt
	if d := cmp.Diff(want, trace); d != "" {
		t.Errorf("middleware order (-want +got):\n%s", d)
	}
}

func TestDoDecodes(t *testing.T) {
	s := newScriptServer(t, reply{body: `{"id":"x","n":3}`}, reply{body: `{"raw":true}`})
	c := newTestClient(t, s)
	var out struct {
		ID string `json:"id"`
		N  int    `json:"n"`
	}
	if err := c.Do(context.Background(), "GET", "/v1/thing", nil, &out); err != nil {
		t.Fatal(err)
	}
	if out.ID != "x" || out.N != 3 {
		t.Errorf("out = %+v", out)
	}
	var raw []byte
	if err := c.Do(context.Background(), "POST", "/v1/thing", []byte(`{"a":"<b>"}`), &raw); err != nil {
		t.Fatal(err)
	}
	if string(raw) != `{"raw":true}` || string(s.requests()[1].body) != `{"a":"<b>"}` {
		t.Errorf("raw = %s, sent %s", raw, s.requests()[1].body)
	}
}

func TestJSONBodyNotHTMLEscaped(t *testing.T) {
	s := newScriptServer(t)
	c := newTestClient(t, s)
	if err := c.Do(context.Background(), "POST", "/v1/x", map[string]string{"q": "a<b>&c"}, nil); err != nil {
		t.Fatal(err)
	}
	if got := string(s.requests()[0].body); got != `{"q":"a<b>&c"}` {
		t.Errorf("body = %s", got)
	}
}

func TestErrorsIsAndAs(t *testing.T) {
	s := newScriptServer(t, reply{status: 404, body: `{"type":"error","error":{"type":"not_found_error","message":"model: nope"},"request_id":"req_body"}`})
	c := newTestClient(t, s)
	err := c.Do(context.Background(), "GET", "/v1/models/nope", nil, nil)
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v, want *mms.Error", err)
	}
	if !errors.Is(err, mms.ErrNotFound) || errors.Is(err, mms.ErrRateLimited) {
		t.Errorf("sentinel mismatch for %v", err)
	}
	if apiErr.RequestID != "req_test" { // header wins over body
		t.Errorf("RequestID = %q", apiErr.RequestID)
	}
	if want := "mms: 404 not_found_error: model: nope (request-id req_test)"; apiErr.Error() != want {
		t.Errorf("Error() = %q, want %q", apiErr.Error(), want)
	}
	if apiErr.Attempts != 1 || apiErr.Metadata().RequestID != "req_test" {
		t.Errorf("attempts %d, metadata %+v", apiErr.Attempts, apiErr.Metadata())
	}
}

// writeCounter counts the writes a connection makes.
type writeCounter struct {
	net.Conn
	writes *atomic.Int32
}

func (c writeCounter) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

// TestJSONRequestIsOneWrite: a JSON body goes out with its headers in one
// write (one packet), as net/http does for bodies it knows to be in memory;
// a streamed body has its headers flushed first, so the server can answer
// them early.
func TestJSONRequestIsOneWrite(t *testing.T) {
	tests := []struct {
		name     string
		body     any
		oneWrite bool
	}{
		{"no body", nil, true},
		{"JSON body", map[string]string{"a": "b"}, true},
		{"raw JSON body", []byte(`{"a":"b"}`), true},
		{"streamed body", strings.NewReader(`{"a":"b"}`), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScriptServer(t)
			var writes atomic.Int32
			dialer := &net.Dialer{}
			hc := &http.Client{Transport: &http.Transport{
				DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
					conn, err := dialer.DialContext(ctx, network, addr)
					return writeCounter{conn, &writes}, err
				},
			}}
			c := newTestClient(t, s, option.WithHTTPClient(hc))
			if err := c.Do(context.Background(), "POST", "/v1/messages/count_tokens", tt.body, nil); err != nil {
				t.Fatal(err)
			}
			if n := writes.Load(); (n == 1) != tt.oneWrite {
				t.Errorf("the request took %d writes; one write: %v, want %v", n, n == 1, tt.oneWrite)
			}
		})
	}
}
