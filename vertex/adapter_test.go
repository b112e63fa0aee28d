package vertex

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/platform"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"
)

// staticSource hands out tokens from a list, one per call, counting calls.
type staticSource struct {
	tokens []*oauth2.Token
	calls  int
	err    error
}

func (s *staticSource) Token() (*oauth2.Token, error) {
	if s.err != nil {
		return nil, s.err
	}
	t := s.tokens[s.calls%len(s.tokens)]
	s.calls++
	return t, nil
}

func hourToken(v string) *oauth2.Token {
	return &oauth2.Token{AccessToken: v, TokenType: "Bearer", Expiry: time.Now().Add(time.Hour)}
}

// clearEnv unsets the package's environment variables for t.
func clearEnv(t *testing.T) {
	for _, env := range []string{EnvRegion, EnvProjectID, EnvBaseURL} {
		t.Setenv(env, "")
	}
}

// newTestAdapter is an adapter with a token source, and no environment.
func newTestAdapter(t *testing.T, region, project string, opts ...Option) *adapter {
	t.Helper()
	clearEnv(t)
	if len(opts) == 0 {
		opts = []Option{WithTokenSource(&staticSource{tokens: []*oauth2.Token{hourToken("tok")}})}
	}
	return newAdapter(region, project, opts)
}

func TestBaseURL(t *testing.T) {
	tests := []struct {
		name, region, project string
		env                   map[string]string
		want, wantErr         string
	}{
		{name: "global", region: "global", project: "p", want: "https://aiplatform.googleapis.com"},
		{name: "us multi-region", region: "us", project: "p", want: "https://aiplatform.us.rep.googleapis.com"},
		{name: "eu multi-region", region: "eu", project: "p", want: "https://aiplatform.eu.rep.googleapis.com"},
		{name: "regional", region: "us-east5", project: "p", want: "https://us-east5-aiplatform.googleapis.com"},
		{name: "regional europe", region: "europe-west1", project: "p", want: "https://europe-west1-aiplatform.googleapis.com"},
		{name: "region from env", project: "p", env: map[string]string{EnvRegion: "asia-southeast1"}, want: "https://asia-southeast1-aiplatform.googleapis.com"},
		{name: "argument wins over env", region: "global", project: "p", env: map[string]string{EnvRegion: "us-east5"}, want: "https://aiplatform.googleapis.com"},
		{name: "base URL env with /v1", region: "us-east5", project: "p", env: map[string]string{EnvBaseURL: "https://proxy.example/v1/"}, want: "https://proxy.example"},
		{name: "base URL env without /v1", region: "us-east5", project: "p", env: map[string]string{EnvBaseURL: "https://proxy.example"}, want: "https://proxy.example"},
		{name: "no region", project: "p", wantErr: "vertex: no region: pass one to WithProject or set $CLOUD_ML_REGION"},
		{name: "no project", region: "us-east5", wantErr: "vertex: no project: pass one to WithProject or set $VENDOR_VERTEX_PROJECT_ID"},
		{name: "project from env", region: "global", env: map[string]string{EnvProjectID: "p"}, want: "https://aiplatform.googleapis.com"},
		{name: "region with a host delimiter", region: "evil.com/x", project: "p", wantErr: "URL delimiter"},
		{name: "region with a dot", region: "evil.com", project: "p", wantErr: `region "evil.com" is not a Vertex AI region`},
		{name: "upper-case region", region: "US-EAST5", project: "p", wantErr: "is not a Vertex AI region"},
		{name: "project with a slash", region: "global", project: "p/q", wantErr: "URL delimiter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clearEnv(t)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			a := newAdapter(tt.region, tt.project, []Option{WithTokenSource(&staticSource{tokens: []*oauth2.Token{hourToken("tok")}})})
			got, err := a.BaseURL()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("BaseURL() = %q, %v; want error containing %q", got, err, tt.wantErr)
				}
				// The configuration error also refuses every call.
				if perr := a.Prepare(&platform.Request{Endpoint: platform.Messages, Model: "m", Query: url.Values{}}); perr == nil {
					t.Error("Prepare accepted a call on a bad configuration")
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("BaseURL() = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestPrepare(t *testing.T) {
	const base = "/v1/projects/proj/locations/us-east5/publishers/vendor/models/"
	version := Edit(platform.Edit{Name: "vendor_version", Value: json.RawMessage(`"vertex-2023-10-16"`), IfAbsent: true})
	tests := []struct {
		name      string
		in        platform.Request
		wantPath  string
		wantQuery url.Values
		wantEdits []Edit
		wantLimit int64
	}{
		{
			name:     "create",
			in:       platform.Request{Endpoint: platform.Messages, Method: "POST", Path: "/v1/messages", Model: "mms-large-1@20250101", HasJSONBody: true, MaxBodySize: 32 << 20},
			wantPath: base + "mms-large-1@20250101:rawPredict", wantQuery: url.Values{},
			wantEdits: []Edit{{Name: "model"}, version}, wantLimit: MaxBodySize,
		},
		{
			name:     "stream, betas in the query dropped",
			in:       platform.Request{Endpoint: platform.Messages, Method: "POST", Path: "/v1/messages", Query: url.Values{"beta": {"true"}, "other": {"1"}}, Model: "m", Stream: true, HasJSONBody: true, MaxBodySize: 32 << 20},
			wantPath: base + "m:streamRawPredict", wantQuery: url.Values{"other": {"1"}},
			wantEdits: []Edit{{Name: "model"}, version}, wantLimit: MaxBodySize,
		},
		{
			name:     "model with a slash and a colon",
			in:       platform.Request{Endpoint: platform.Messages, Method: "POST", Path: "/v1/messages", Model: "a/b:c", HasJSONBody: true, MaxBodySize: 32 << 20},
			wantPath: base + "a%2Fb:c:rawPredict", wantQuery: url.Values{},
			wantEdits: []Edit{{Name: "model"}, version}, wantLimit: MaxBodySize,
		},
		{
			name:     "count tokens keeps the model",
			in:       platform.Request{Endpoint: platform.CountTokens, Method: "POST", Path: "/v1/messages/count_tokens", Model: "m", HasJSONBody: true, MaxBodySize: 32 << 20},
			wantPath: base + "count-tokens:rawPredict", wantQuery: url.Values{},
			wantEdits: []Edit{version}, wantLimit: MaxBodySize,
		},
		{
			name:     "a lower limit stays",
			in:       platform.Request{Endpoint: platform.Messages, Method: "POST", Path: "/v1/messages", Model: "m", HasJSONBody: true, MaxBodySize: 1000},
			wantPath: base + "m:rawPredict", wantQuery: url.Values{},
			wantEdits: []Edit{{Name: "model"}, version}, wantLimit: 1000,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newTestAdapter(t, "us-east5", "proj")
			r := tt.in
			if r.Query == nil {
				r.Query = url.Values{}
			}
			if err := a.Prepare(&r); err != nil {
				t.Fatal(err)
			}
			if r.Path != tt.wantPath || r.MaxBodySize != tt.wantLimit {
				t.Errorf("path %q limit %d; want %q %d", r.Path, r.MaxBodySize, tt.wantPath, tt.wantLimit)
			}
			if diff := cmp.Diff(tt.wantQuery, r.Query); diff != "" {
				t.Errorf("query (-want +got):\n%s", diff)
			}
			var got []Edit
			for _, e := range r.Edits() {
				got = append(got, Edit(e))
			}
			if diff := cmp.Diff(tt.wantEdits, got); diff != "" {
				t.Errorf("edits (-want +got):\n%s", diff)
			}
		})
	}
}

// Edit is platform.Edit with a comparable value for cmp.
type Edit struct {
	Name     string
	Value    json.RawMessage
	IfAbsent bool
}

func TestPrepareRefusesWhatVertexLacks(t *testing.T) {
	tests := []struct {
		endpoint     platform.Endpoint
		method, path string
	}{
		{platform.Batches, "POST", "/v1/messages/batches"},
		{platform.Models, "GET", "/v1/models"},
		{platform.Files, "POST", "/v1/files"},
		{platform.Skills, "GET", "/v1/skills"},
		{platform.Other, "POST", "/v1/agents"},
	}
	for _, tt := range tests {
		t.Run(string(tt.endpoint), func(t *testing.T) {
			a := newTestAdapter(t, "global", "proj")
			err := a.Prepare(&platform.Request{Endpoint: tt.endpoint, Method: tt.method, Path: tt.path, Query: url.Values{}})
			var ue *platform.UnsupportedError
			if !errors.Is(err, platform.ErrUnsupported) || !errors.As(err, &ue) || ue.Platform != "Google Vertex AI" {
				t.Fatalf("err = %v; want a *platform.UnsupportedError for Google Vertex AI", err)
			}
			if !strings.Contains(err.Error(), tt.path) {
				t.Errorf("err %q does not name %s", err, tt.path)
			}
		})
	}
	t.Run("messages without a model", func(t *testing.T) {
		a := newTestAdapter(t, "global", "proj")
		if err := a.Prepare(&platform.Request{Endpoint: platform.Messages, Method: "POST", Path: "/v1/messages", Query: url.Values{}}); err == nil {
			t.Fatal("no error")
		}
	})
}

func TestAuthenticate(t *testing.T) {
	authorize := func(t *testing.T, a *adapter) string {
		t.Helper()
		req := httptest.NewRequest("POST", "https://x/v1/p", nil)
		if err := a.Authenticate(context.Background(), req, nil); err != nil {
			t.Fatal(err)
		}
		return req.Header.Get("Authorization")
	}
	t.Run("a valid token is reused", func(t *testing.T) {
		src := &staticSource{tokens: []*oauth2.Token{hourToken("one"), hourToken("two")}}
		a := newTestAdapter(t, "global", "p", WithTokenSource(src))
		got := []string{authorize(t, a), authorize(t, a)}
		if diff := cmp.Diff([]string{"Bearer one", "Bearer one"}, got); diff != "" || src.calls != 1 {
			t.Errorf("headers (-want +got):\n%s; calls %d", diff, src.calls)
		}
	})
	t.Run("an expired token is renewed", func(t *testing.T) {
		expired := &oauth2.Token{AccessToken: "old", Expiry: time.Now().Add(-time.Minute)}
		src := &staticSource{tokens: []*oauth2.Token{expired, hourToken("new")}}
		a := newTestAdapter(t, "global", "p", WithTokenSource(src))
		// The source's first token is already expired: the cache asks again
		// at once on the next attempt.
		got := []string{authorize(t, a), authorize(t, a), authorize(t, a)}
		if diff := cmp.Diff([]string{"Bearer old", "Bearer new", "Bearer new"}, got); diff != "" {
			t.Errorf("headers (-want +got):\n%s", diff)
		}
	})
	t.Run("a 401 drops the cached token", func(t *testing.T) {
		src := &staticSource{tokens: []*oauth2.Token{hourToken("revoked"), hourToken("fresh")}}
		a := newTestAdapter(t, "global", "p", WithTokenSource(src))
		first := authorize(t, a)
		resp := &http.Response{StatusCode: 401, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(`{"error":{"code":401,"message":"expired","status":"UNAUTHENTICATED"}}`))}
		if _, err := a.Response(resp, &platform.Request{}); err != nil {
			t.Fatal(err)
		}
		if got := []string{first, authorize(t, a)}; !cmp.Equal(got, []string{"Bearer revoked", "Bearer fresh"}) {
			t.Errorf("headers %q", got)
		}
	})
	t.Run("a source error is the call's error", func(t *testing.T) {
		a := newTestAdapter(t, "global", "p", WithTokenSource(&staticSource{err: errors.New("metadata server unreachable")}))
		err := a.Authenticate(context.Background(), httptest.NewRequest("POST", "https://x/", nil), nil)
		if err == nil || !strings.Contains(err.Error(), "vertex: no access token: metadata server unreachable") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("the credentials' project is the default", func(t *testing.T) {
		creds := &google.Credentials{ProjectID: "from-creds", TokenSource: &staticSource{tokens: []*oauth2.Token{hourToken("c")}}}
		a := newTestAdapter(t, "global", "", WithCredentials(creds))
		r := &platform.Request{Endpoint: platform.CountTokens, Query: url.Values{}}
		if err := a.Prepare(r); err != nil || !strings.HasPrefix(r.Path, "/v1/projects/from-creds/") {
			t.Errorf("path %q, err %v", r.Path, err)
		}
		if got := authorize(t, a); got != "Bearer c" {
			t.Errorf("Authorization %q", got)
		}
	})
	t.Run("nil options are configuration errors", func(t *testing.T) {
		for _, o := range []Option{WithTokenSource(nil), WithCredentials(nil)} {
			a := newTestAdapter(t, "global", "p", o)
			if _, err := a.BaseURL(); err == nil {
				t.Error("BaseURL accepted a nil credential option")
			}
		}
	})
}

// TestApplicationDefaultCredentials runs the ADC lookup on a service
// account file whose token endpoint is a test server: the token the
// endpoint grants is the one sent.
func TestApplicationDefaultCredentials(t *testing.T) {
	t.Run("missing credentials are BaseURL's error", func(t *testing.T) {
		a := newTestAdapter(t, "global", "p", func(*settings) {})
		t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", filepath.Join(t.TempDir(), "missing.json"))
		_, err := a.BaseURL()
		if err == nil || !strings.Contains(err.Error(), "vertex: no Google Application Default Credentials") {
			t.Fatalf("err = %v", err)
		}
	})

	var grants int
	tokenServer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil || r.Form.Get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" || r.Form.Get("assertion") == "" {
			http.Error(w, "bad grant", http.StatusBadRequest)
			return
		}
		grants++
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"access_token":"ya29.from-adc","token_type":"Bearer","expires_in":3600}`)
	}))
	defer tokenServer.Close()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	file, _ := json.Marshal(map[string]string{
		"type": "service_account", "project_id": "p", "private_key_id": "k1", "private_key": string(keyPEM),
		"client_email": "sa@p.iam.gserviceaccount.com", "client_id": "1", "token_uri": tokenServer.URL + "/token",
	})
	path := filepath.Join(t.TempDir(), "sa.json")
	if err := os.WriteFile(path, file, 0o600); err != nil {
		t.Fatal(err)
	}

	a := newTestAdapter(t, "global", "p", func(*settings) {})
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", path)
	if _, err := a.BaseURL(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		req := httptest.NewRequest("POST", "https://x/", nil)
		if err := a.Authenticate(context.Background(), req, nil); err != nil {
			t.Fatal(err)
		}
		if got := req.Header.Get("Authorization"); got != "Bearer ya29.from-adc" {
			t.Errorf("Authorization %q", got)
		}
	}
	if grants != 1 {
		t.Errorf("%d grants for two attempts; want 1 (the token is cached)", grants)
	}
}

func TestResponse(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		body     string
		wantBody string
	}{
		{name: "google 503", status: 503, body: `{"error":{"code":503,"message":"The service is currently unavailable.","status":"UNAVAILABLE"}}`,
			wantBody: `{"type":"error","error":{"type":"api_error","message":"The service is currently unavailable. (Vertex AI UNAVAILABLE)"}}`},
		{name: "google 429", status: 429, body: `{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}`,
			wantBody: `{"type":"error","error":{"type":"rate_limit_error","message":"Quota exceeded (Vertex AI RESOURCE_EXHAUSTED)"}}`},
		{name: "google 404 in an array", status: 404, body: `[{"error":{"code":404,"message":"no such model","status":"NOT_FOUND"}}]`,
			wantBody: `{"type":"error","error":{"type":"not_found_error","message":"no such model (Vertex AI NOT_FOUND)"}}`},
		{name: "google 413", status: 413, body: `{"error":{"code":413,"message":"too big"}}`,
			wantBody: `{"type":"error","error":{"type":"request_too_large","message":"too big"}}`},
		{name: "google 504", status: 504, body: `{"error":{"code":504,"message":"late","status":"DEADLINE_EXCEEDED"}}`,
			wantBody: `{"type":"error","error":{"type":"timeout_error","message":"late (Vertex AI DEADLINE_EXCEEDED)"}}`},
		{name: "google 409 is an invalid request", status: 409, body: `{"error":{"code":409,"message":"conflict","status":"ABORTED"}}`,
			wantBody: `{"type":"error","error":{"type":"invalid_request_error","message":"conflict (Vertex AI ABORTED)"}}`},
		{name: "service error passes", status: 529, body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			wantBody: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`},
		{name: "html passes", status: 502, body: `<html>bad gateway</html>`, wantBody: `<html>bad gateway</html>`},
		{name: "success passes", status: 200, body: `{"id":"msg_1"}`, wantBody: `{"id":"msg_1"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newTestAdapter(t, "global", "p")
			resp := &http.Response{StatusCode: tt.status, Header: http.Header{"Content-Type": {"text/plain"}}, Body: io.NopCloser(strings.NewReader(tt.body))}
			got, err := a.Response(resp, &platform.Request{})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(got.Body)
			if string(b) != tt.wantBody {
				t.Errorf("body %s; want %s", b, tt.wantBody)
			}
			if tt.status >= 400 && got.ContentLength != int64(len(b)) {
				t.Errorf("ContentLength %d for %d bytes", got.ContentLength, len(b))
			}
		})
	}
	t.Run("an error body over the bound passes whole", func(t *testing.T) {
		a := newTestAdapter(t, "global", "p")
		big := `{"error":{"message":"` + strings.Repeat("x", 1<<20) + `"}}`
		resp := &http.Response{StatusCode: 500, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(big))}
		got, err := a.Response(resp, &platform.Request{})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(got.Body)
		if !bytes.Equal(b, []byte(big)) {
			t.Errorf("body changed: %d bytes, want %d", len(b), len(big))
		}
	})
}
