package mms_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
	"github.com/mms-sdk/mms-go/option"
	"github.com/mms-sdk/mms-go/platform"

	"github.com/stretchr/testify/require"
)

// testCloud is a platform adapter written against the seam with the
// standard library only, in the shape of the real ones: the model in the
// path, body members moved, a signature over the body on every attempt,
// its own stream framing (a JSON line per event) and error bodies.
type testCloud struct {
	base    string
	baseErr error
	limit   int64
	nonce   atomic.Int64
	nilBody atomic.Int64 // Authenticate calls given a nil body
}

func (c *testCloud) Name() string             { return "Test Cloud" }
func (c *testCloud) BaseURL() (string, error) { return c.base, c.baseErr }
func (c *testCloud) RequestIDHeader() string  { return "X-Cloud-Request-Id" }
func (c *testCloud) unsupported(r *platform.Request) error {
	return &platform.UnsupportedError{Platform: c.Name(), Endpoint: r.Endpoint, Method: r.Method, Path: r.Path}
}

func (c *testCloud) Prepare(r *platform.Request) error {
	switch r.Endpoint {
	case platform.Models:
		return nil
	case platform.Messages:
	default:
		return c.unsupported(r)
	}
	verb := "invoke"
	if r.Stream {
		verb = "invoke-stream"
	}
	r.Path = "/model/" + url.PathEscape(r.Model) + "/" + verb
	r.DeleteMember("model")
	r.DeleteMember("stream")
	r.SetDefaultMember("vendor_version", json.RawMessage(`"cloud-2024-01-01"`))
	if len(r.Betas) > 0 {
		b, _ := json.Marshal(r.Betas)
		r.SetMember("vendor_beta", b)
		r.Header.Del("Vendor-Beta")
	}
	if c.limit > 0 {
		r.MaxBodySize = c.limit
	}
	return nil
}

// Authenticate signs the body with a nonce, so each attempt's signature
// differs.
func (c *testCloud) Authenticate(ctx context.Context, req *http.Request, body []byte) error {
	if body == nil {
		c.nilBody.Add(1)
	}
	sum := sha256.Sum256(body)
	req.Header.Set("X-Cloud-Signature", fmt.Sprintf("%s/%d", hex.EncodeToString(sum[:]), c.nonce.Add(1)))
	req.Header.Set("X-Amz-Security-Token", "session-secret-123")
	return nil
}

// Response turns the cloud's error bodies and its line framing into the
// service's shapes.
func (c *testCloud) Response(resp *http.Response, r *platform.Request) (*http.Response, error) {
	if resp.StatusCode >= 400 {
		var e struct{ Message string }
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if json.Unmarshal(b, &e) == nil && e.Message != "" {
			typ := map[int]string{429: "rate_limit_error", 503: "overloaded_error"}[resp.StatusCode]
			if typ == "" {
				typ = "api_error"
			}
			b, _ = json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": e.Message}})
		}
		resp.Body = io.NopCloser(bytes.NewReader(b))
		return resp, nil
	}
	if resp.Header.Get("Content-Type") != "application/x-cloud-lines" {
		return resp, nil
	}
	pr, pw := io.Pipe()
	framed := resp.Body
	go func() {
		defer framed.Close()
		sc := bufio.NewScanner(framed)
		for sc.Scan() {
			var line struct {
				Bytes     []byte `json:"bytes"`
				Exception string `json:"exception"`
			}
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
				pw.CloseWithError(err)
				return
			}
			if line.Exception != "" {
				fmt.Fprintf(pw, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":%q}}\n\n", line.Exception)
				continue
			}
			var ev struct{ Type string }
			_ = json.Unmarshal(line.Bytes, &ev)
			fmt.Fprintf(pw, "event: %s\ndata: %s\n\n", ev.Type, line.Bytes)
		}
		pw.CloseWithError(sc.Err())
	}()
	resp.Body = pr
	resp.Header.Set("Content-Type", "text/event-stream")
	resp.ContentLength = -1
	return resp, nil
}

// cloudFront is testCloud's side of mmstest: it checks the signature and
// the body rules, rewrites to the service's shape, and frames the answer.
type cloudFront struct {
	mu         sync.Mutex
	signatures []string
	paths      []string
	failNext   []int // statuses to answer next, in order
	exception  int   // > 0: an exception line after this many events
}

func (f *cloudFront) ServePlatform(w http.ResponseWriter, r *http.Request, service http.Handler) {
	body, _ := io.ReadAll(r.Body)
	sum := sha256.Sum256(body)
	sig := r.Header.Get("X-Cloud-Signature")
	f.mu.Lock()
	f.signatures = append(f.signatures, sig)
	f.paths = append(f.paths, r.URL.Path)
	var fail int
	if len(f.failNext) > 0 {
		fail, f.failNext = f.failNext[0], f.failNext[1:]
	}
	f.mu.Unlock()
	w.Header().Set("X-Cloud-Request-Id", fmt.Sprintf("cloud-%d", len(f.signatures)))
	refuse := func(status int, msg string) {
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"message":%q}`, msg)
	}
	if !strings.HasPrefix(sig, hex.EncodeToString(sum[:])+"/") {
		refuse(403, "signature does not match")
		return
	}
	if fail != 0 {
		refuse(fail, "the cloud is busy")
		return
	}
	if strings.HasPrefix(r.URL.Path, "/v1/models") {
		service.ServeHTTP(w, r)
		return
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(body, &members) != nil || members["vendor_version"] == nil || members["model"] != nil || members["stream"] != nil {
		refuse(400, "body rules broken")
		return
	}
	rest, _ := strings.CutPrefix(r.URL.Path, "/model/")
	model, verb, _ := strings.Cut(rest, "/")
	delete(members, "vendor_version")
	members["model"], _ = json.Marshal(model)
	if verb == "invoke-stream" {
		members["stream"] = json.RawMessage("true")
	}
	inner := r.Clone(r.Context())
	inner.URL.Path, inner.URL.RawPath = "/v1/messages", ""
	if betas := members["vendor_beta"]; betas != nil {
		var list []string
		_ = json.Unmarshal(betas, &list)
		inner.Header.Set("Vendor-Beta", strings.Join(list, ","))
		delete(members, "vendor_beta")
	}
	b, _ := json.Marshal(members)
	inner.Body, inner.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
	rec := httptest.NewRecorder()
	service.ServeHTTP(rec, inner)
	if verb != "invoke-stream" || rec.Code != 200 {
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
		return
	}
	w.Header().Set("Content-Type", "application/x-cloud-lines")
	events := 0
	for _, block := range strings.Split(rec.Body.String(), "\n\n") {
		_, data, ok := strings.Cut(block, "data: ")
		if !ok {
			continue
		}
		if f.exception > 0 && events == f.exception {
			fmt.Fprintf(w, `{"exception":"model stream error"}`+"\n")
			return
		}
		line, _ := json.Marshal(map[string]any{"bytes": []byte(data)})
		w.Write(append(line, '\n'))
		events++
	}
}

// cloudClient returns a client on testCloud against a fake fronted by f.
func cloudClient(t *testing.T, f *cloudFront, cloud *testCloud, opts ...option.RequestOption) (*mms.Client, *mmstest.Server) {
	t.Helper()
	srv := mmstest.NewServer(mmstest.WithPlatform(f))
	t.Cleanup(srv.Close)
	if cloud == nil {
		cloud = &testCloud{}
	}
	if cloud.base == "" {
		cloud.base = srv.URL
	}
	client, err := mms.NewClient(append([]option.RequestOption{option.WithPlatform(cloud), option.WithHTTPClient(srv.Client())}, opts...)...)
	require.NoError(t, err)
	return client, srv
}

var cloudParams = mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 200, Messages: []mms.MessageParam{mms.UserText("Hello, cloud")}}

// The same typed results on the platform as on the service itself.
func TestPlatformCreateAndStreamMatchDirect(t *testing.T) {
	ctx := context.Background()
	direct, _ := fakeclient.New(t)
	want, err := direct.Messages.Create(ctx, cloudParams)
	require.NoError(t, err)
	f := &cloudFront{}
	client, srv := cloudClient(t, f, nil)
	var md mms.ResponseMetadata
	got, err := client.Messages.Create(ctx, cloudParams, option.WithResponseMetadata(&md))
	require.NoError(t, err)
	ignoreIDs := cmp.FilterPath(func(p cmp.Path) bool { return p.String() == "ID" }, cmp.Ignore())
	if diff := cmp.Diff(want, got, ignoreIDs); diff != "" {
		t.Errorf("Create on the platform (-direct +platform):\n%s", diff)
	}
	if md.PlatformRequestID != "cloud-1" || md.RequestID == "" {
		t.Errorf("metadata request ids %q, %q", md.RequestID, md.PlatformRequestID)
	}

	var acc mms.MessageAccumulator
	for ev, err := range client.Messages.Stream(ctx, cloudParams, option.WithBeta("context-management-2025-06-27")) {
		if err == nil {
			err = acc.Add(ev)
		}
		require.NoError(t, err)
	}
	if diff := cmp.Diff(want, acc.Message(), ignoreIDs); diff != "" {
		t.Errorf("Stream on the platform (-direct +platform):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"/model/mms-large-1/invoke", "/model/mms-large-1/invoke-stream"}, f.paths); diff != "" {
		t.Errorf("platform paths (-want +got):\n%s", diff)
	}
	reqs := srv.Requests()
	if got := reqs[len(reqs)-1].Header.Get("Vendor-Beta"); got != "context-management-2025-06-27" {
		t.Errorf("the beta moved into the body did not reach the service: %q", got)
	}
}

// A retried attempt is authenticated again; a call that fails for good is
// an *mms.Error with both request ids.
func TestPlatformRetryAuthenticatesAgain(t *testing.T) {
	f := &cloudFront{failNext: []int{503}}
	client, _ := cloudClient(t, f, nil)
	if _, err := client.Messages.Create(context.Background(), cloudParams); err != nil {
		t.Fatal(err)
	}
	if len(f.signatures) != 2 || f.signatures[0] == f.signatures[1] {
		t.Errorf("signatures %q: want two, different", f.signatures)
	}

	f.failNext = []int{503, 503, 503}
	_, err := client.Messages.Create(context.Background(), cloudParams)
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || !errors.Is(err, mms.ErrOverloaded) ||
		apiErr.PlatformRequestID != "cloud-5" || !strings.Contains(err.Error(), "platform request-id cloud-5") {
		t.Errorf("err = %v (%+v)", err, apiErr)
	}
}

// An exception mid-stream is an *mms.Error after the events before it.
func TestPlatformStreamException(t *testing.T) {
	f := &cloudFront{exception: 3}
	client, _ := cloudClient(t, f, nil)
	events := 0
	var apiErr *mms.Error
	for _, err := range client.Messages.Stream(context.Background(), cloudParams) {
		if err != nil {
			if !errors.As(err, &apiErr) {
				t.Fatalf("err = %v", err)
			}
			break
		}
		events++
	}
	if events != 3 || apiErr == nil || apiErr.Message != "model stream error" || apiErr.PlatformRequestID != "cloud-1" {
		t.Errorf("%d events, err %+v", events, apiErr)
	}
}

// What the platform lacks, and what is over its limit, is refused before
// anything is sent.
func TestPlatformRefusesBeforeSending(t *testing.T) {
	f := &cloudFront{}
	client, _ := cloudClient(t, f, &testCloud{limit: 1000}, option.WithBaseURL("http://127.0.0.1:1"))
	ctx := context.Background()
	_, err := client.Messages.CountTokens(ctx, mms.MessageCountTokensParams{Model: "mms-large-1", Messages: cloudParams.Messages})
	var unsupported *platform.UnsupportedError
	if !errors.Is(err, platform.ErrUnsupported) || !errors.As(err, &unsupported) || unsupported.Endpoint != platform.CountTokens ||
		!strings.Contains(err.Error(), "Test Cloud") {
		t.Errorf("count tokens: %v", err)
	}
	for _, err := range client.Messages.Batches.List(ctx, mms.BatchListParams{}) {
		if !errors.Is(err, platform.ErrUnsupported) {
			t.Errorf("batches: %v", err)
		}
		break
	}
	big := cloudParams
	big.Messages = []mms.MessageParam{mms.UserText(strings.Repeat("x", 1000))}
	_, err = client.Messages.Create(ctx, big)
	var tooLarge *mms.RequestTooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.Limit != 1000 {
		t.Errorf("over the limit: %v", err)
	}
	small := cloudParams
	small.Messages = []mms.MessageParam{mms.UserText(strings.Repeat("x", 850))}
	_, err = client.Messages.Create(ctx, small) // under the limit: sent (and the address refuses it)
	if errors.As(err, &tooLarge) || err == nil {
		t.Errorf("under the limit: %v", err)
	}
	if len(f.signatures) != 0 {
		t.Errorf("the front saw %d requests", len(f.signatures))
	}
}

// Middleware sees the request in the service's shape; other endpoints the
// platform offers go through unchanged.
func TestPlatformMiddlewareSeesServiceShape(t *testing.T) {
	var seen []string
	mw := option.WithMiddleware(func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		var b []byte
		if req.Body != nil {
			b, _ = io.ReadAll(req.Body)
			req.Body = io.NopCloser(bytes.NewReader(b))
		}
		seen = append(seen, req.URL.Path+" "+string(b[:min(len(b), 22)]))
		return next(req)
	})
	f := &cloudFront{}
	cloud := &testCloud{}
	client, _ := cloudClient(t, f, cloud, mw)
	if _, err := client.Messages.Create(context.Background(), cloudParams); err != nil {
		t.Fatal(err)
	}
	for _, err := range client.Models.List(context.Background(), mms.ModelListParams{}) {
		require.NoError(t, err)
		break
	}
	if diff := cmp.Diff([]string{`/v1/messages {"model":"mms-large-1"`, "/v1/models "}, seen); diff != "" {
		t.Errorf("middleware saw (-want +got):\n%s", diff)
	}
	if n := cloud.nilBody.Load(); n != 0 {
		t.Errorf("Authenticate got a nil body %d times; want an empty one for a GET", n)
	}
}

func TestPlatformClientSetUp(t *testing.T) {
	t.Setenv("VENDOR_API_KEY", "sk-should-not-be-used")
	t.Setenv("VENDOR_BASE_URL", "https://api.example.com")
	cloud := &testCloud{base: "https://cloud.example.com/base"}
	c, err := mms.NewClient(option.WithPlatform(cloud))
	require.NoError(t, err)
	var seen http.Header
	var host string
	_ = c.Do(context.Background(), "GET", "/v1/models", nil, nil, option.WithMiddleware(func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		seen, host = req.Header.Clone(), req.URL.String()
		return nil, errors.New("stop")
	}))
	if seen.Get("X-Api-Key") != "" || host != "https://cloud.example.com/base/v1/models" {
		t.Errorf("sent to %s with x-api-key %q", host, seen.Get("X-Api-Key"))
	}

	for _, tt := range []struct {
		name string
		opts []option.RequestOption
		want string
	}{
		{"api key", []option.RequestOption{option.WithPlatform(cloud), option.WithAPIKey("k")}, "WithAPIKey cannot be used with Test Cloud"},
		{"token", []option.RequestOption{option.WithAuthToken("t"), option.WithPlatform(cloud)}, "WithAuthToken cannot be used"},
		{"bad config", []option.RequestOption{option.WithPlatform(&testCloud{baseErr: errors.New("no region")})}, "Test Cloud: no region"},
		{"nil", []option.RequestOption{option.WithPlatform(nil)}, "adapter is nil"},
	} {
		if _, err := mms.NewClient(tt.opts...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
	_, err = c.Models.Get(context.Background(), "m", option.WithPlatform(cloud))
	if err == nil || !strings.Contains(err.Error(), "client option") {
		t.Errorf("per-call platform: %v", err)
	}
	_, err = c.Models.Get(context.Background(), "m", option.WithAPIKey("k"))
	if err == nil || !strings.Contains(err.Error(), "cannot add the service's own credential") {
		t.Errorf("per-call key: %v", err)
	}
}

// The debug log shows each attempt as the platform gets it, credentials
// redacted.
func TestPlatformLogged(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	client, _ := cloudClient(t, &cloudFront{}, nil, option.WithLogger(logger))
	if _, err := client.Messages.Create(context.Background(), cloudParams); err != nil {
		t.Fatal(err)
	}
	log := buf.String()
	if !strings.Contains(log, `msg="mms platform request" platform="Test Cloud" method=POST url=`) ||
		!strings.Contains(log, "/model/mms-large-1/invoke") || strings.Contains(log, "session-secret-123") {
		t.Errorf("log:\n%s", log)
	}
}

// The root module links the standard library and golang.org/x/time only:
// the platform seam brings no dependency.
func TestRootDependencies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".", "./option", "./platform").Output()
	require.NoError(t, err)
	var third []string
	for _, p := range strings.Fields(string(out)) {
		if !strings.HasPrefix(p, "github.com/mms-sdk/mms-go") {
			third = append(third, p)
		}
	}
	slices.Sort(third)
	if diff := cmp.Diff([]string{"golang.org/x/time/rate"}, slices.Compact(third)); diff != "" {
		t.Errorf("non-standard dependencies (-want +got):\n%s", diff)
	}
}
