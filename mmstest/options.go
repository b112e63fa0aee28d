package mmstest

import "time"

// Option configures a Server created by NewServer.
type Option func(*config)

// config holds everything the options can change.
type config struct {
	apiKeys           []string
	authTokens        []string
	adminKeys         []string // admin.go
	orgAdminTokens    []string // admin.go
	requestsPerMinute int
	burst             int
	clock             func() time.Time
	manualClock       *ManualClock // set by WithManualClock: waits on the clock end on its Advance
	models            []Model
	organizationID    string
	batchProcessing   time.Duration
	batchOutcomes     func(customID string, submission int) BatchOutcome
	// The session simulator (sessions_sim.go, sessions_stream.go).
	sessionEventDelay   time.Duration
	sessionPingInterval time.Duration
	// The token endpoint (oauth.go).
	federationRules []FederationRule
	tokenLifetime   time.Duration
	// The scripted Messages turns (script.go).
	script []Turn
	// platform fronts the fake with a partner platform's wire (platform.go).
	platform PlatformFront
	// priority holds the WithPriorityCommitment commitments (priority.go).
	priority *priorityState
	// The webhook deliveries (webhooks.go): none while webhookURL is "".
	webhookURL          string
	webhookKeys         [][]byte
	webhookRedeliveries int
	// How long a dream stays pending, then running (dreams.go).
	dreamPending, dreamRunning time.Duration
}

func defaultConfig() config {
	return config{
		apiKeys:         []string{DefaultAPIKey},
		authTokens:      []string{DefaultAuthToken},
		adminKeys:       []string{DefaultAdminKey},
		orgAdminTokens:  []string{DefaultOrgAdminToken},
		clock:           time.Now,
		models:          DefaultModels(),
		organizationID:  DefaultOrganizationID,
		batchProcessing: DefaultBatchProcessingTime,
		dreamPending:    DefaultDreamPendingTime,
		dreamRunning:    DefaultDreamRunningTime,

		sessionPingInterval: DefaultSessionPingInterval,
		tokenLifetime:       DefaultTokenLifetime,
	}
}

// WithAPIKeys replaces the API keys accepted in the x-api-key header.
// With no keys, every request authenticated by x-api-key is refused.
func WithAPIKeys(keys ...string) Option {
	return func(c *config) { c.apiKeys = append([]string(nil), keys...) }
}

// WithAuthTokens replaces the tokens accepted as "Authorization: Bearer <token>".
// With no tokens, every request authenticated by a bearer token is refused,
// except a self-hosted work item's sessions_token on its own session's
// endpoints.
func WithAuthTokens(tokens ...string) Option {
	return func(c *config) { c.authTokens = append([]string(nil), tokens...) }
}

// WithServerRateLimit makes the server refuse requests beyond a limit, with
// the service's 429 rate_limit_error and retry-after: a token bucket that
// refills at requestsPerMinute and holds at most burst requests (a burst
// below 1 counts as 1). A requestsPerMinute of zero or less disables rate
// limiting, the default. The bucket follows the WithClock clock, so a fixed
// clock never refills it. It is the server's limit; option.WithRateLimit is
// the client's own pacing.
func WithServerRateLimit(requestsPerMinute, burst int) Option {
	return func(c *config) {
		c.requestsPerMinute = requestsPerMinute
		c.burst = max(burst, 1)
	}
}

// WithRateLimit is WithServerRateLimit.
//
// Deprecated: use WithServerRateLimit; the name clashed with the client's
// option.WithRateLimit, which paces requests instead of refusing them.
func WithRateLimit(requestsPerMinute, burst int) Option {
	return WithServerRateLimit(requestsPerMinute, burst)
}

// WithClock sets the clock the server reads for timestamps, rate limiting and
// any time-based state, so tests can control time. The default is time.Now.
func WithClock(now func() time.Time) Option {
	return func(c *config) { c.clock, c.manualClock = now, nil }
}

// WithModels replaces the models the models endpoints serve. The list endpoint
// returns them newest CreatedAt first, as the service does; models with equal
// CreatedAt keep their given order.
func WithModels(models []Model) Option {
	return func(c *config) { c.models = append([]Model(nil), models...) }
}

// WithOrganizationID sets the vendor-organization-id header value sent on
// every response.
func WithOrganizationID(id string) Option {
	return func(c *config) { c.organizationID = id }
}

// WithBatchProcessingTime sets how long, on the server's clock, a batch
// takes to process (default DefaultBatchProcessingTime); a negative d counts
// as 0. SetBatchProcessingTime changes it later, for batches created
// afterwards.
func WithBatchProcessingTime(d time.Duration) Option {
	return func(c *config) { c.batchProcessing = max(d, 0) }
}

// WithBatchOutcomes sets the function that picks the outcome of each batch
// request (see Server.SetBatchOutcomes).
func WithBatchOutcomes(f func(customID string, submission int) BatchOutcome) Option {
	return func(c *config) { c.batchOutcomes = f }
}

// DefaultSessionPingInterval is how often a session event stream sends a
// ping unless WithSessionPingInterval changes it.
const DefaultSessionPingInterval = 15 * time.Second

// WithSessionEventDelay makes a session's turn engine wait d, in real
// time, before each event (and preview) it emits, so that tests can watch
// a turn unfold or break a stream in the middle of one. The default, 0,
// emits them as fast as it can.
func WithSessionEventDelay(d time.Duration) Option {
	return func(c *config) { c.sessionEventDelay = max(d, 0) }
}

// WithSessionPingInterval sets how often, in real time, a session event
// stream sends a ping event (default DefaultSessionPingInterval). A value
// of 0 or less keeps the default.
func WithSessionPingInterval(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.sessionPingInterval = d
		}
	}
}

// The default lifecycle of a dream on the server's clock (WithDreamTimes).
const (
	DefaultDreamPendingTime = 200 * time.Millisecond
	DefaultDreamRunningTime = 800 * time.Millisecond
)

// WithDreamTimes sets how long, on the server's clock, a dream stays
// pending and then running before it completes (defaults
// DefaultDreamPendingTime and DefaultDreamRunningTime); a negative value
// counts as 0.
func WithDreamTimes(pending, running time.Duration) Option {
	return func(c *config) { c.dreamPending, c.dreamRunning = max(pending, 0), max(running, 0) }
}
