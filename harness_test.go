package mms_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

const testKey = "sk-test-SECRET-0123456789"

// reply is one scripted answer of a scriptServer.
type reply struct {
	status int
	header map[string]string
	body   string
	hang   bool // never answer (until the request's context ends)
	drop   bool // close the connection without an answer
}

// seen is what a scriptServer received.
type seen struct {
	method, path, query string
	header              http.Header
	body                []byte
}

// scriptServer answers requests from a script, then 200 {} forever.
type scriptServer struct {
	*httptest.Server
	mu      sync.Mutex
	script  []reply
	got     []seen
	release chan struct{}
}

func newScriptServer(t *testing.T, script ...reply) *scriptServer {
	t.Helper()
	s := &scriptServer{script: script, release: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() { close(s.release); s.Close() })
	return s
}

func (s *scriptServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.got = append(s.got, seen{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), body})
	rep := reply{status: 200, body: `{}`}
	if len(s.script) > 0 {
		rep, s.script = s.script[0], s.script[1:]
	}
	s.mu.Unlock()
	switch {
	case rep.hang:
		select {
		case <-r.Context().Done():
		case <-s.release:
		}
		return
	case rep.drop:
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Request-Id", "req_test")
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	if rep.status == 0 {
		rep.status = 200
	}
	w.WriteHeader(rep.status)
	io.WriteString(w, rep.body)
}

func (s *scriptServer) requests() []seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seen(nil), s.got...)
}

// newTestClient builds a client on s with fast retries.
func newTestClient(t *testing.T, s *scriptServer, opts ...option.RequestOption) *mms.Client {
	t.Helper()
	base := []option.RequestOption{option.WithAPIKey(testKey), option.WithBaseURL(s.URL)}
	c, err := mms.NewClient(append(base, opts...)...)
	require.NoError(t, err)
	return c
}
