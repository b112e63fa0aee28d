package mmstest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"

	"github.com/stretchr/testify/require"
)

func TestErrorTypeForStatus(t *testing.T) {
	want := map[int]string{
		400: wire.ErrInvalidRequest, 401: wire.ErrAuthentication, 402: wire.ErrBilling, 403: wire.ErrPermission,
		404: wire.ErrNotFound, 408: wire.ErrInvalidRequest, 409: wire.ErrInvalidRequest, 413: wire.ErrRequestTooLarge,
		422: wire.ErrInvalidRequest, 429: wire.ErrRateLimit, 500: wire.ErrAPI, 502: wire.ErrAPI, 503: wire.ErrAPI,
		504: wire.ErrTimeout, 529: wire.ErrOverloaded,
	}
	for status, errType := range want {
		if got := errorTypeForStatus(status); got != errType {
			t.Errorf("errorTypeForStatus(%d) = %q, want %q", status, got, errType)
		}
	}
}

func TestFaultStatuses(t *testing.T) {
	s := newTestServer(t)
	statuses := []int{529, 500, 429, 408, 401}
	s.InjectFault(Fault{Path: "/v1/models", Statuses: statuses, RetryAfter: "2", RetryAfterMs: "1500", ShouldRetry: "true"})
	for _, status := range statuses {
		resp, body := get(t, s, "/v1/models")
		wantError(t, resp, body, status, errorTypeForStatus(status), "")
		for name, v := range map[string]string{"Retry-After": "2", "Retry-After-Ms": "1500", "X-Should-Retry": "true"} {
			if got := resp.Header.Get(name); got != v {
				t.Errorf("status %d: %s = %q, want %q", status, name, got, v)
			}
		}
	}
	resp, body := get(t, s, "/v1/models")
	if resp.StatusCode != 200 || resp.Header.Get("Retry-After") != "" {
		t.Fatalf("after the statuses: %d %v %s", resp.StatusCode, resp.Header, body)
	}
}

func TestFaultMatching(t *testing.T) {
	tests := []struct {
		name  string
		fault Fault
		req   string // "METHOD path" of the request
		hit   bool
	}{
		{name: "any method, prefix", fault: Fault{Path: "/v1/models"}, req: "GET /v1/models/mms-small-1", hit: true},
		{name: "empty path matches all", fault: Fault{}, req: "GET /v1/models", hit: true},
		{name: "method matches", fault: Fault{Method: "GET", Path: "/v1/models"}, req: "GET /v1/models", hit: true},
		{name: "method differs", fault: Fault{Method: "POST", Path: "/v1/models"}, req: "GET /v1/models", hit: false},
		{name: "path differs", fault: Fault{Path: "/v1/models/"}, req: "GET /v1/models", hit: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			tt.fault.Statuses = []int{503}
			s.InjectFault(tt.fault)
			method, path, _ := strings.Cut(tt.req, " ")
			resp, _ := send(t, s, newReq(t, s, method, path, nil))
			if hit := resp.StatusCode == 503; hit != tt.hit {
				t.Errorf("status %d, want fault hit = %v", resp.StatusCode, tt.hit)
			}
		})
	}
}

func TestFaultOrder(t *testing.T) {
	s := newTestServer(t)
	s.InjectFault(Fault{Path: "/v1/models", Statuses: []int{503}})
	s.InjectFault(Fault{Path: "/v1/models", Statuses: []int{500}})

	// A request refused by an earlier rule does not consume the fault.
	req := newReq(t, s, http.MethodGet, "/v1/models", nil)
	req.Header.Set(wire.HeaderAPIKey, "wrong-key-value")
	resp, _ := send(t, s, req)
	if resp.StatusCode != 401 {
		t.Fatalf("bad key: status %d, want 401", resp.StatusCode)
	}
	for _, want := range []int{503, 500, 200} { // first injected first
		if resp, _ := get(t, s, "/v1/models"); resp.StatusCode != want {
			t.Errorf("status %d, want %d", resp.StatusCode, want)
		}
	}

	s.InjectFault(Fault{Statuses: []int{503}})
	s.ClearFaults()
	if resp, _ := get(t, s, "/v1/models"); resp.StatusCode != 200 {
		t.Errorf("after ClearFaults: status %d", resp.StatusCode)
	}
}

func TestInjectFaultRejectsNonErrorStatus(t *testing.T) {
	s := newTestServer(t)
	defer func() {
		if recover() == nil {
			t.Error("InjectFault accepted status 200")
		}
	}()
	s.InjectFault(Fault{Statuses: []int{200}})
}

func TestFaultLatency(t *testing.T) {
	s := newTestServer(t)
	const latency = 100 * time.Millisecond
	s.InjectFault(Fault{Path: "/v1/models", Latency: latency, Times: 1})
	start := time.Now()
	if resp, _ := get(t, s, "/v1/models"); resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if elapsed := time.Since(start); elapsed < latency {
		t.Errorf("answered after %v, want at least %v", elapsed, latency)
	}
	start = time.Now()
	get(t, s, "/v1/models")
	if elapsed := time.Since(start); elapsed >= latency {
		t.Errorf("Times: 1 fault still delayed the second request (%v)", elapsed)
	}
}

func TestFaultLatencyCancelled(t *testing.T) {
	s := newTestServer(t)
	s.InjectFault(Fault{Latency: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := s.Client().Do(newReq(t, s, http.MethodGet, "/v1/models", nil).WithContext(ctx))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want deadline exceeded", err)
	}
	// The handler must have given up too, or Close would wait for an hour
	// (and goleak would report it).
	start := time.Now()
	s.Close()
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("Close took %v", elapsed)
	}
}

func TestFaultLatencyAbortedByClose(t *testing.T) {
	s := NewServer()
	s.InjectFault(Fault{Latency: time.Hour})
	errc := make(chan error, 1)
	go func() {
		resp, err := s.Client().Do(newReq(t, s, http.MethodGet, "/v1/models", nil))
		if err == nil {
			resp.Body.Close()
			err = errors.New("got a response: " + resp.Status)
		}
		errc <- err
	}()
	for len(s.Requests()) == 0 {
		time.Sleep(time.Millisecond)
	}
	s.Close()
	if err := <-errc; err == nil || strings.Contains(err.Error(), "got a response") {
		t.Errorf("a request cut by Close got %v, want a transport error", err)
	}
}

// rawGet sends a GET on a raw connection and returns every byte received
// until the server closes the connection.
func rawGet(t *testing.T, s *Server, path string) []byte {
	t.Helper()
	conn := dial(t, s)
	if _, err := io.WriteString(conn, rawHead(http.MethodGet, path, "Connection: close\r\n")); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(conn)
	require.NoError(t, err)
	return got
}

func TestFaultDropAfterBytes(t *testing.T) {
	s := newTestServer(t)
	full := rawGet(t, s, "/v1/models/mms-small-1")
	headEnd := bytes.Index(full, []byte("\r\n\r\n")) + 4

	const status = "HTTP/1.1 200 OK\r\n"
	for _, n := range []int{10, headEnd + 5} {
		s.InjectFault(Fault{Path: "/v1/models/", DropAfterBytes: n, Times: 1})
		got := rawGet(t, s, "/v1/models/mms-small-1")
		if k := min(n, len(status)); len(got) != n || string(got[:k]) != status[:k] {
			t.Errorf("DropAfterBytes %d: received %d bytes: %q", n, len(got), got)
		}
	}

	// Through net/http: the cut is visible as an error, in the head or the body.
	s.InjectFault(Fault{Path: "/v1/models/", DropAfterBytes: 10, Times: 1})
	if _, err := s.Client().Do(newReq(t, s, http.MethodGet, "/v1/models/mms-small-1", nil)); err == nil {
		t.Error("cut inside the head: no error")
	}
	s.InjectFault(Fault{Path: "/v1/models/", DropAfterBytes: headEnd + 5, Times: 1})
	resp, err := s.Client().Do(newReq(t, s, http.MethodGet, "/v1/models/mms-small-1", nil))
	require.NoError(t, err)
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("cut inside the body: read error %v, want unexpected EOF", err)
	}
	if resp, _ := get(t, s, "/v1/models/mms-small-1"); resp.StatusCode != 200 {
		t.Errorf("after the faults: status %d", resp.StatusCode)
	}
}

func TestFaultDropStatuses(t *testing.T) {
	s := newTestServer(t)
	s.InjectFault(Fault{Statuses: []int{503, 529}, DropAfterBytes: 30, RetryAfter: "1"})
	for _, status := range []string{"503", "529"} {
		if got := rawGet(t, s, "/v1/models"); len(got) != 30 || !bytes.HasPrefix(got, []byte("HTTP/1.1 "+status)) {
			t.Errorf("received %q, want 30 bytes of a %s response", got, status)
		}
	}
	if resp, _ := get(t, s, "/v1/models"); resp.StatusCode != 200 {
		t.Errorf("after the statuses: status %d", resp.StatusCode)
	}
}

// TestFailNext checks the one-line fault: one failure per status on the
// matching path only, then normal answers; no status means one 500.
func TestFailNext(t *testing.T) {
	s := newTestServer(t)
	s.FailNext("/v1/models/", 529, 503)
	s.FailNext("/v1/files")
	var got []int
	for _, path := range []string{"/v1/files", "/v1/models/mms-small-1", "/v1/models/mms-small-1", "/v1/files", "/v1/models/mms-small-1"} {
		resp, _ := get(t, s, path)
		got = append(got, resp.StatusCode)
	}
	if want := []int{500, 529, 503, 200, 200}; !slices.Equal(got, want) {
		t.Errorf("statuses %v, want %v", got, want)
	}
	defer func() {
		if recover() == nil {
			t.Error("FailNext(path, 200) did not panic")
		}
	}()
	s.FailNext("/v1/models", 200)
}

// TestFaultAfterApply: an AfterApply status is answered after the request
// took effect (the vault exists), a plain one before (nothing stored); the
// x-should-retry header rides on either.
func TestFaultAfterApply(t *testing.T) {
	s := newTestServer(t)
	count := func() int {
		resp, body := agentCall(t, s, "GET", "/v1/vaults", "")
		require.Equal(t, 200, resp.StatusCode, string(body))
		var page struct{ Data []json.RawMessage }
		require.NoError(t, json.Unmarshal(body, &page))
		return len(page.Data)
	}
	s.InjectFault(Fault{Method: "POST", Path: "/v1/vaults", Statuses: []int{500}})
	resp, body := agentCall(t, s, "POST", "/v1/vaults", `{"display_name":"before"}`)
	wantError(t, resp, body, 500, wire.ErrAPI, "")
	require.Equal(t, 0, count(), "a plain status fault applied the request")

	s.InjectFault(Fault{Method: "POST", Path: "/v1/vaults", Statuses: []int{500, 503}, AfterApply: true, ShouldRetry: "false"})
	for i, status := range []int{500, 503} {
		resp, body = agentCall(t, s, "POST", "/v1/vaults", `{"display_name":"after"}`)
		wantError(t, resp, body, status, errorTypeForStatus(status), "")
		require.Equal(t, "false", resp.Header.Get("X-Should-Retry"))
		require.NotEmpty(t, resp.Header.Get("Request-Id"))
		require.Equal(t, i+1, count(), "the request did not take effect before its error")
	}
	resp, body = agentCall(t, s, "POST", "/v1/vaults", `{"display_name":"normal"}`)
	require.Equal(t, 200, resp.StatusCode, string(body))
	require.Equal(t, 3, count())
}

// TestFaultAfterApplyDropped: AfterApply with DropAfterBytes cuts the
// error answer of an applied request.
func TestFaultAfterApplyDropped(t *testing.T) {
	s := newTestServer(t)
	s.InjectFault(Fault{Method: "POST", Path: "/v1/vaults", Statuses: []int{500}, AfterApply: true, DropAfterBytes: 12})
	req := newReq(t, s, "POST", "/v1/vaults", strings.NewReader(`{"display_name":"x"}`))
	req.Header.Set(wire.HeaderContentType, "application/json")
	req.Header.Set(wire.HeaderBeta, wire.BetaManagedAgents)
	if resp, err := s.Client().Do(req); err == nil {
		resp.Body.Close()
		t.Fatal("the answer was not cut")
	}
	resp, body := agentCall(t, s, "GET", "/v1/vaults", "")
	require.Equal(t, 200, resp.StatusCode)
	require.Contains(t, string(body), `"display_name":"x"`)
}
