package mmstest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/wire"

	"github.com/stretchr/testify/require"
)

func TestAuth(t *testing.T) {
	const wrongKey, wrongToken = "sk-wrong-secret-key", "wrong-secret-token"
	tests := []struct {
		name    string
		opts    []Option
		headers map[string]string // "" deletes the header
		status  int
		msg     string
	}{
		{name: "valid key", status: 200},
		{name: "valid bearer token", headers: map[string]string{wire.HeaderAPIKey: "", "Authorization": "Bearer " + DefaultAuthToken}, status: 200},
		{name: "bearer scheme is case-insensitive", headers: map[string]string{wire.HeaderAPIKey: "", "Authorization": "bearer " + DefaultAuthToken}, status: 200},
		{name: "wrong key", headers: map[string]string{wire.HeaderAPIKey: wrongKey}, status: 401, msg: "invalid x-api-key"},
		{name: "empty key", headers: map[string]string{wire.HeaderAPIKey: " "}, status: 401, msg: "invalid x-api-key"},
		{name: "key wins over a valid token", headers: map[string]string{wire.HeaderAPIKey: wrongKey, "Authorization": "Bearer " + DefaultAuthToken}, status: 401, msg: "invalid x-api-key"},
		{name: "valid key ignores a wrong token", headers: map[string]string{"Authorization": "Bearer " + wrongToken}, status: 200},
		{name: "wrong token", headers: map[string]string{wire.HeaderAPIKey: "", "Authorization": "Bearer " + wrongToken}, status: 401, msg: "invalid bearer token"},
		{name: "token without Bearer scheme", headers: map[string]string{wire.HeaderAPIKey: "", "Authorization": "Basic " + DefaultAuthToken}, status: 401, msg: "invalid bearer token"},
		{name: "missing credentials", headers: map[string]string{wire.HeaderAPIKey: ""}, status: 401, msg: "missing credentials"},
		{name: "WithAPIKeys replaces the default key", opts: []Option{WithAPIKeys("other-key")}, status: 401, msg: "invalid x-api-key"},
		{name: "WithAPIKeys key accepted", opts: []Option{WithAPIKeys("other-key")}, headers: map[string]string{wire.HeaderAPIKey: "other-key"}, status: 200},
		{name: "WithAuthTokens replaces the default token", opts: []Option{WithAuthTokens("other-token")}, headers: map[string]string{wire.HeaderAPIKey: "", "Authorization": "Bearer " + DefaultAuthToken}, status: 401, msg: "invalid bearer token"},
		{name: "WithAuthTokens token accepted", opts: []Option{WithAuthTokens("other-token")}, headers: map[string]string{wire.HeaderAPIKey: "", "Authorization": "Bearer other-token"}, status: 200},
		// Authentication comes before every other rule.
		{name: "auth before version", headers: map[string]string{wire.HeaderAPIKey: wrongKey, wire.HeaderVersion: ""}, status: 401, msg: "invalid x-api-key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t, tt.opts...)
			req := newReq(t, s, http.MethodGet, "/v1/models", nil)
			setHeaders(req, tt.headers)
			resp, body := send(t, s, req)
			if tt.status == 200 {
				if resp.StatusCode != 200 {
					t.Fatalf("status = %d: %s", resp.StatusCode, body)
				}
				return
			}
			wantError(t, resp, body, tt.status, wire.ErrAuthentication, tt.msg)
		})
	}
}

// setHeaders sets each header, deleting those given as "".
func setHeaders(req *http.Request, headers map[string]string) {
	for k, v := range headers {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
}

func TestVersionAndBetas(t *testing.T) {
	tests := []struct {
		name    string
		path    string
		version string   // "-" omits the header
		betas   []string // one header line each
		status  int
		msg     string
	}{
		{name: "missing version", version: "-", status: 400, msg: "vendor-version: header is required"},
		{name: "version 2026-10-21", version: "2026-10-21", status: 200},
		{name: "wrong version", version: "2024-01-01", status: 400, msg: `"2024-01-01" is not a valid version`},
		{name: "version before beta", version: "2024-01-01", betas: []string{"nope-2020-01-01"}, status: 400, msg: "not a valid version"},
		{name: "known beta", betas: []string{wire.BetaFiles}, status: 200},
		{name: "comma-separated betas", betas: []string{wire.BetaFiles + ", " + wire.BetaSkills + ","}, status: 200},
		{name: "repeated beta lines", betas: []string{wire.BetaFiles, wire.BetaSkills}, status: 200},
		{name: "unknown beta in list", betas: []string{wire.BetaFiles + ",nope-2020-01-01"}, status: 400, msg: "`nope-2020-01-01`"},
		{name: "unknown beta in repeated lines", betas: []string{wire.BetaFiles, " nope-2020-01-01 "}, status: 400, msg: "`nope-2020-01-01`"},
		{name: "memory stores reject managed agents", path: "/v1/memory_stores", betas: []string{wire.BetaManagedAgents, wire.BetaAgentMemory}, status: 400, msg: "cannot be combined"},
		{name: "memory stores reject managed agents in one line", path: "/v1/memory_stores/x", betas: []string{wire.BetaAgentMemory + "," + wire.BetaManagedAgents}, status: 400, msg: "cannot be combined"},
		{name: "memory stores require agent memory", path: "/v1/memory_stores", betas: []string{wire.BetaManagedAgents}, status: 400, msg: wire.BetaAgentMemory},
		{name: "memory stores with agent memory pass the rules", path: "/v1/memory_stores", betas: []string{wire.BetaAgentMemory}, status: 200},
		{name: "agents require managed agents", path: "/v1/agents", status: 400, msg: wire.BetaManagedAgents},
		{name: "agents with managed agents pass the rules", path: "/v1/agents", betas: []string{wire.BetaManagedAgents}, status: 200},
		{name: "tunnels require mcp tunnels", path: "/v1/tunnels", betas: []string{wire.BetaFiles}, status: 400, msg: wire.BetaMCPTunnels},
		{name: "combination allowed elsewhere", path: "/v1/agents", betas: []string{wire.BetaManagedAgents, wire.BetaAgentMemory}, status: 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			path := tt.path
			if path == "" {
				path = "/v1/models"
			}
			req := newReq(t, s, http.MethodGet, path, nil)
			switch tt.version {
			case "-":
				req.Header.Del(wire.HeaderVersion)
			case "":
			default:
				req.Header.Set(wire.HeaderVersion, tt.version)
			}
			for _, b := range tt.betas {
				req.Header.Add(wire.HeaderBeta, b)
			}
			resp, body := send(t, s, req)
			switch tt.status {
			case 200:
				if resp.StatusCode != 200 {
					t.Fatalf("status = %d: %s", resp.StatusCode, body)
				}
			case 404:
				wantError(t, resp, body, 404, wire.ErrNotFound, "Not Found")
			default:
				wantError(t, resp, body, tt.status, wire.ErrInvalidRequest, tt.msg)
			}
		})
	}
}

func TestRouting(t *testing.T) {
	s := newTestServer(t)
	resp, body := send(t, s, newReq(t, s, http.MethodGet, "/v1/no-such-endpoint", nil))
	wantError(t, resp, body, 404, wire.ErrNotFound, "/v1/no-such-endpoint")

	resp, body = send(t, s, newReq(t, s, http.MethodDelete, "/v1/models", nil))
	wantError(t, resp, body, 405, wire.ErrInvalidRequest, "Method Not Allowed")
	if allow := resp.Header.Get("Allow"); !strings.Contains(allow, "GET") {
		t.Errorf("Allow = %q, want GET listed", allow)
	}
}

// dial opens a raw connection to s, for requests net/http's client would not
// send as written.
func dial(t *testing.T, s *Server) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	return conn
}

// rawHead is the head of a raw request that passes the auth and version rules.
func rawHead(method, path, extra string) string {
	return fmt.Sprintf("%s %s HTTP/1.1\r\nHost: mms.test\r\nX-Api-Key: %s\r\nVendor-Version: %s\r\n%s\r\n",
		method, path, DefaultAPIKey, wire.DefaultVersion, extra)
}

func TestSizeLimitByContentLength(t *testing.T) {
	for _, path := range []string{"/v1/messages", "/v1/messages/batches", "/v1/files"} {
		t.Run(path, func(t *testing.T) {
			t.Parallel() // each waits out the server's lingering close
			s := newTestServer(t)
			limit := wire.BodyLimit(path)
			// The head declares one byte over the limit and no body byte is
			// ever sent: an answer at all proves the server read none.
			conn := dial(t, s)
			head := rawHead(http.MethodPost, path, fmt.Sprintf("Content-Type: application/json\r\nContent-Length: %d\r\n", limit+1))
			if _, err := io.WriteString(conn, head); err != nil {
				t.Fatal(err)
			}
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			checkResponse(t, http.Header{}, resp, body)
			wantError(t, resp, body, 413, wire.ErrRequestTooLarge, fmt.Sprint(limit))
			if !resp.Close {
				t.Error("413 response does not close the connection")
			}
			if reqs := s.Requests(); len(reqs) != 1 || reqs[0].BodySize != 0 || reqs[0].Body != nil {
				t.Errorf("logged %+v, want one request with no body read", reqs)
			}
		})
	}
}

func TestSizeLimitChunked(t *testing.T) {
	s := newTestServer(t)
	limit := wire.BodyLimit("/v1/messages")
	conn := dial(t, s)
	written := make(chan struct{})
	go func() {
		defer close(written)
		// The server stops reading at the limit; the failed writes that
		// follow are expected and end this goroutine.
		if _, err := io.WriteString(conn, rawHead(http.MethodPost, "/v1/messages", "Transfer-Encoding: chunked\r\n")); err != nil {
			return
		}
		chunk := make([]byte, 1<<20)
		for sent := int64(0); sent <= limit; sent += int64(len(chunk)) {
			if _, err := fmt.Fprintf(conn, "%x\r\n%s\r\n", len(chunk), chunk); err != nil {
				return
			}
		}
		_, _ = io.WriteString(conn, "0\r\n\r\n")
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	conn.Close()
	<-written
	wantError(t, resp, body, 413, wire.ErrRequestTooLarge, fmt.Sprint(limit))
	if reqs := s.Requests(); len(reqs) != 1 || reqs[0].BodySize > limit {
		t.Errorf("logged %d requests, want one with at most %d body bytes", len(reqs), limit)
	}
}

func TestSizeLimitBoundary(t *testing.T) {
	s := newTestServer(t)
	limit := wire.BodyLimit("/v1/messages")
	resp, body := send(t, s, newReq(t, s, http.MethodPost, "/v1/messages", bytes.NewReader(make([]byte, limit))))
	if resp.StatusCode == 413 {
		t.Fatalf("a body of exactly the limit was refused: %s", body)
	}
	if got := s.Requests()[0].BodySize; got != limit {
		t.Errorf("BodySize = %d, want %d", got, limit)
	}
}

func TestRequestLog(t *testing.T) {
	s := newTestServer(t)
	big := bytes.Repeat([]byte("x"), 2*maxLoggedBody)
	req := newReq(t, s, http.MethodPost, "/v1/no-such-endpoint?a=1", bytes.NewReader(big))
	req.Header.Set("X-Custom", "v")
	resp, _ := send(t, s, req)
	get(t, s, "/v1/models")

	reqs := s.Requests()
	if len(reqs) != 2 {
		t.Fatalf("logged %d requests, want 2", len(reqs))
	}
	r := reqs[0]
	if r.Method != http.MethodPost || r.Path != "/v1/no-such-endpoint" || r.RawQuery != "a=1" ||
		r.Header.Get("X-Custom") != "v" || r.RequestID != resp.Header.Get(wire.HeaderRequestID) {
		t.Errorf("logged %s %s?%s id %s, header %v", r.Method, r.Path, r.RawQuery, r.RequestID, r.Header)
	}
	if len(r.Body) != maxLoggedBody || r.BodySize != int64(len(big)) {
		t.Errorf("logged body of %d bytes with BodySize %d, want %d and %d", len(r.Body), r.BodySize, maxLoggedBody, len(big))
	}
	r.Header.Set("X-Custom", "changed")
	r.Body[0] = 'y'
	if again := s.Requests()[0]; again.Header.Get("X-Custom") != "v" || again.Body[0] != 'x' {
		t.Error("changing a returned Request changed the log")
	}
	s.ResetRequests()
	if n := len(s.Requests()); n != 0 {
		t.Errorf("after ResetRequests, %d requests logged", n)
	}
}
