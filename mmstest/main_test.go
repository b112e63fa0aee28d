package mmstest

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/mms-sdk/mms-go/internal/fixtures"
	"github.com/mms-sdk/mms-go/internal/wire"

	"github.com/stretchr/testify/require"
)

// TestMain fails the run if a test leaves goroutines behind, e.g. a handler
// stuck in an injected latency after Close, and ends with a line naming
// the tests that ran without ../shared, if any.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		fixtures.Report(os.Stderr)
		os.Exit(code)
	}))
}

// newTestServer starts a server that the test closes on cleanup.
func newTestServer(t *testing.T, opts ...Option) *Server {
	t.Helper()
	s := NewServer(opts...)
	t.Cleanup(s.Close)
	return s
}

// newReq builds a request to s that passes the rules: a valid API key and
// the API version.
func newReq(t *testing.T, s *Server, method, path string, body io.Reader) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, s.URL+path, body)
	require.NoError(t, err)
	req.Header.Set(wire.HeaderAPIKey, DefaultAPIKey)
	req.Header.Set(wire.HeaderVersion, wire.DefaultVersion)
	return req
}

// send performs req and checks what every response must satisfy (see
// checkResponse).
func send(t *testing.T, s *Server, req *http.Request) (*http.Response, []byte) {
	t.Helper()
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", req.Method, req.URL.Path, err)
	}
	checkResponse(t, req.Header, resp, body)
	return resp, body
}

// get sends a GET that passes the rules.
func get(t *testing.T, s *Server, path string) (*http.Response, []byte) {
	t.Helper()
	return send(t, s, newReq(t, s, http.MethodGet, path, nil))
}

// checkResponse checks the invariants of every response: a req_ request id,
// the organization header, the standard error body carrying the same request
// id on errors, and no credential of the request anywhere in the response.
func checkResponse(t *testing.T, reqHeader http.Header, resp *http.Response, body []byte) {
	t.Helper()
	id := resp.Header.Get(wire.HeaderRequestID)
	if !strings.HasPrefix(id, "req_") {
		t.Errorf("request-id header = %q, want req_...", id)
	}
	if resp.Header.Get(wire.HeaderOrganizationID) == "" {
		t.Error("missing vendor-organization-id header")
	}
	if resp.StatusCode >= 400 {
		e := decodeError(t, body)
		if e.RequestID != id {
			t.Errorf("error body request_id = %q, header = %q", e.RequestID, id)
		}
		if e.Error.Type != errorTypeForStatus(resp.StatusCode) && !isMemoryConflict(resp.StatusCode, e.Error.Type) {
			t.Errorf("status %d with error type %q", resp.StatusCode, e.Error.Type)
		}
	}
	secrets := []string{reqHeader.Get(wire.HeaderAPIKey), bearerToken(reqHeader.Get(wire.HeaderAuthorization))}
	for _, secret := range secrets {
		if len(secret) < 4 {
			continue
		}
		if strings.Contains(string(body), secret) {
			t.Errorf("response body echoes a credential: %s", body)
		}
		for name, values := range resp.Header {
			if slices.ContainsFunc(values, func(v string) bool { return strings.Contains(v, secret) }) {
				t.Errorf("response header %s echoes a credential", name)
			}
		}
	}
}

// decodeError decodes an error body, failing unless it has exactly the
// service's shape.
func decodeError(t *testing.T, body []byte) errorBody {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	var e errorBody
	if err := dec.Decode(&e); err != nil {
		t.Fatalf("error body %s: %v", body, err)
	}
	if e.Type != "error" || e.Error.Type == "" || e.Error.Message == "" {
		t.Errorf("error body %s lacks type, error.type or error.message", body)
	}
	return e
}

// wantError checks an error answer's status, type and message fragment.
func wantError(t *testing.T, resp *http.Response, body []byte, status int, errType, msgPart string) {
	t.Helper()
	if resp.StatusCode != status {
		t.Fatalf("status = %d, want %d; body %s", resp.StatusCode, status, body)
	}
	e := decodeError(t, body)
	if e.Error.Type != errType || !strings.Contains(e.Error.Message, msgPart) {
		t.Errorf("error = %+v, want type %q with message containing %q", e.Error, errType, msgPart)
	}
}

// fakeClock is a settable clock for WithClock.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
