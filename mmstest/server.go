package mmstest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/option"
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

	cfg config
	ts  *httptest.Server
	mux *http.ServeMux
	// routeByPattern indexes the route table by mux pattern (routes.go).
	routeByPattern map[string]*route
	limiter        *rateLimiter // nil when no rate limit is configured
	models         []Model      // newest release first, as the list endpoint returns them
	// The stores of the resource endpoints.
	batches      *batchStore
	files        *fileStore
	skills       *skillStore
	agents       *agentStore
	environments *environmentStore
	vaults       *vaultStore
	memoryStores *memoryStoreStore
	sessions     *sessionStore
	userProfiles *userProfileStore
	oauth        oauthState
	tunnels      *tunnelStore
	cache        promptCache    // messages_cache.go
	webhooks     *webhookSender // nil without WithWebhooks (webhooks.go)
	deployments  *deploymentStore
	dreams       *dreamStore
	org          *orgStore // admin.go: the Organization API
	done         chan struct{}
	closing      sync.Once

	mu       sync.Mutex
	counters map[string]uint64 // per id prefix, so ids depend only on the request sequence
	requests []*Request
	faults   []*faultState
	// streamFaults are the InjectStreamFault faults, in injection order.
	streamFaults []*streamFaultState
	// script is the queue of scripted turns; scriptTaken counts those taken.
	script      []Turn
	scriptTaken int
	// containers are the code-execution containers issued (messages_container.go).
	containers map[string]*containerWire
	// threads are the stored message threads by reply id
	// (messages_threads.go).
	threads map[string]*storedThread
}

// NewServer starts a fake server configured by opts. Call Close when done.
func NewServer(opts ...Option) *Server {
	cfg := defaultConfig()
	for _, opt := range opts {
		opt(&cfg)
	}
	s := &Server{
		cfg:        cfg,
		mux:        http.NewServeMux(),
		models:     sortModels(cfg.models),
		done:       make(chan struct{}),
		counters:   map[string]uint64{},
		script:     slices.Clone(cfg.script),
		containers: map[string]*containerWire{},
		oauth:      oauthState{minted: map[string]time.Time{}, refresh: map[string]string{}},
	}
	if cfg.requestsPerMinute > 0 {
		s.limiter = newRateLimiter(cfg.requestsPerMinute, cfg.burst)
	}
	s.batches, s.files, s.skills = newBatchStore(s), newFileStore(s), newSkillStore(s)
	s.agents = &agentStore{srv: s}
	s.environments = &environmentStore{srv: s}
	s.vaults = &vaultStore{srv: s}
	s.memoryStores = &memoryStoreStore{srv: s}
	s.sessions = &sessionStore{srv: s}
	s.userProfiles = &userProfileStore{srv: s}
	s.tunnels = &tunnelStore{srv: s}
	if cfg.webhookURL != "" {
		s.webhooks = newWebhookSender(s)
	}
	s.deployments = &deploymentStore{srv: s}
	s.dreams = &dreamStore{srv: s}
	s.org = newOrgStore(s)
	s.registerRoutes()
	s.ts = httptest.NewServer(s.handler())
	s.URL = s.ts.URL
	return s
}

// Close stops the server. Requests waiting on an injected Latency, open
// session event streams and the session turn engines are stopped first so
// that Close never waits for them. Close may be called more than once.
func (s *Server) Close() {
	s.closing.Do(func() {
		close(s.done)
		s.sessions.shutdown() // the session engines; open streams end on done
		s.ts.Close()
	})
}

// Client returns an HTTP client configured for the server. Its idle
// connections are closed by Close.
func (s *Server) Client() *http.Client {
	return s.ts.Client()
}

// ClientOptions returns the options that point an mms client at the
// server: its URL, its HTTP client, and the first accepted API key (or,
// with none, the first accepted bearer token).
func (s *Server) ClientOptions() []option.RequestOption {
	opts := []option.RequestOption{option.WithBaseURL(s.URL), option.WithHTTPClient(s.Client())}
	switch {
	case len(s.cfg.apiKeys) > 0:
		opts = append(opts, option.WithAPIKey(s.cfg.apiKeys[0]))
	case len(s.cfg.authTokens) > 0:
		opts = append(opts, option.WithAuthToken(s.cfg.authTokens[0]))
	}
	return opts
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
