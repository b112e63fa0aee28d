// Package mmstest is an in-process fake of the model-messaging service for
// tests, demos and users' own test suites.
//
// The fake is honest: every request passes through the same rules, in the same
// order, as on the real service (authentication, vendor-version, vendor-beta,
// body size, injected faults, rate limiting, routing), and every answer has the
// real shape, including the request-id header and the error body
// {"type":"error","error":{...},"request_id":"req_..."}. It is also
// deterministic: the same sequence of requests produces the same bodies and
// request ids, so tests can compare responses byte for byte.
//
// File map: server.go (Server, lifecycle, ids), options.go (Option values),
// rules.go (the per-request rule chain), faults.go (InjectFault), ratelimit.go,
// requests.go (the request log), errors.go and json.go (response helpers),
// pagination.go (list paging), routes.go (every endpoint registration) and one
// file per endpoint family (models.go, ...).
package mmstest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// DefaultAPIKey is the API key the server accepts in x-api-key unless
// WithAPIKeys replaces the accepted keys.
const DefaultAPIKey = "mms-test-key"

// DefaultAuthToken is the token the server accepts as "Authorization: Bearer
// <token>" unless WithAuthTokens replaces the accepted tokens.
const DefaultAuthToken = "mms-test-token"

// DefaultOrganizationID is the organization id the server reports in the
// vendor-organization-id header unless WithOrganizationID replaces it.
const DefaultOrganizationID = "00000000-0000-4000-8000-000000000001"

// Server is a running fake of the service, listening on 127.0.0.1.
// Its methods are safe for concurrent use.
type Server struct {
	// URL is the base URL of the server, such as "http://127.0.0.1:41234",
	// without a trailing slash.
	URL string

	cfg     config
	ts      *httptest.Server
	mux     *http.ServeMux
	limiter *rateLimiter // nil when no rate limit is configured
	models  []Model      // newest release first, as the list endpoint returns them
	done    chan struct{}
	closing sync.Once

	mu       sync.Mutex
	counters map[string]uint64 // per id prefix, so ids depend only on the request sequence
	requests []*Request
	faults   []*faultState
}

// NewServer starts a fake server configured by opts. Call Close when done.
func NewServer(opts ...Option) *Server {
	cfg := defaultConfig()
	for _, opt := range opts {
		opt(&cfg)
	}
	s := &Server{
		cfg:      cfg,
		mux:      http.NewServeMux(),
		models:   sortModels(cfg.models),
		done:     make(chan struct{}),
		counters: map[string]uint64{},
	}
	if cfg.requestsPerMinute > 0 {
		s.limiter = newRateLimiter(cfg.requestsPerMinute, cfg.burst)
	}
	s.registerRoutes()
	s.ts = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.ts.URL
	return s
}

// Close stops the server. Requests waiting on an injected Latency are aborted
// first so that Close never waits for them. Close may be called more than once.
func (s *Server) Close() {
	s.closing.Do(func() {
		close(s.done)
		s.ts.Close()
	})
}

// Client returns an HTTP client configured for the server. Its idle
// connections are closed by Close.
func (s *Server) Client() *http.Client {
	return s.ts.Client()
}

// now returns the current time of the configured clock. Endpoints must use it
// (never time.Now) so tests can drive time with WithClock.
func (s *Server) now() time.Time {
	return s.cfg.clock()
}

// newID returns the next id for prefix ("req_", "msg_", ...), shaped like the
// service's ids: the prefix, "01", then a zero-padded per-prefix counter.
// Counters instead of randomness keep the fake deterministic.
func (s *Server) newID(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counters[prefix]++
	return fmt.Sprintf("%s01%022d", prefix, s.counters[prefix])
}

// sleep waits for d, returning false early if the request is cancelled or the
// server is closing. Latency is real time, not the WithClock clock, because it
// exists to exercise clients' timeouts.
func (s *Server) sleep(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	case <-s.done:
		return false
	}
}
