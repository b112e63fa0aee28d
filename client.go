package mms

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/mms-sdk/mms-go/observe"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// Environment variables NewClient reads when no option says otherwise.
const (
	EnvAPIKey    = "VENDOR_API_KEY"
	EnvAuthToken = "VENDOR_AUTH_TOKEN"
	EnvBaseURL   = "VENDOR_BASE_URL"
	// EnvCustomHeaders holds extra headers for every request, one
	// "Name: value" per line; option.WithHeader wins over a line naming
	// the same header.
	EnvCustomHeaders = "VENDOR_CUSTOM_HEADERS"
)

// Client is the entry point of the SDK. Its services mirror the URL tree of
// the service. A Client is safe for concurrent use; build one and share it.
type Client struct {
	// Messages sends messages (/v1/messages), streams them and counts
	// their tokens.
	Messages *MessagesService
	// Models lists and retrieves models (/v1/models).
	Models *ModelsService
	// Files uploads, lists, retrieves, downloads and deletes files
	// (/v1/files), sending the Files beta by default.
	Files *FilesService
	// Skills creates, lists, retrieves and deletes skills and their
	// versions (/v1/skills), sending the Skills beta by default.
	Skills *SkillsService
	// Agents creates, retrieves, updates, lists and archives agents and
	// lists their versions (/v1/agents), sending the managed-agents beta.
	Agents *AgentsService
	// Environments creates, retrieves, updates, lists, archives and
	// deletes environments (/v1/environments) and serves the work queue of
	// self-hosted ones (Environments.Work), sending the managed-agents beta.
	Environments *EnvironmentsService
	// Vaults creates, retrieves, updates, lists, archives and deletes
	// vaults and their credentials (/v1/vaults), sending the
	// managed-agents beta.
	Vaults *VaultsService
	// Sessions creates, retrieves, updates, lists, deletes and archives
	// sessions (/v1/sessions) and reaches their resources and threads,
	// sending the managed-agents beta.
	Sessions *SessionsService
	// UserProfiles creates, retrieves, updates and lists user profiles and
	// mints their enrollment links (/v1/user_profiles), sending the
	// user-profiles beta.
	UserProfiles *UserProfilesService
	// Tunnels creates, retrieves, lists and archives MCP tunnels, reveals
	// and rotates their tokens and manages their CA certificates
	// (/v1/tunnels), sending the mcp-tunnels beta.
	Tunnels *TunnelsService
	// MemoryStores creates, retrieves, updates, lists, archives and
	// deletes memory stores (/v1/memory_stores), their memories
	// (MemoryStores.Memories) and versions (MemoryStores.Versions),
	// sending the agent-memory beta instead of the managed-agents one.
	MemoryStores *MemoryStoresService
	// Webhooks verifies and decodes webhook deliveries, serves them as an
	// http.Handler and fetches the objects their events name.
	Webhooks *WebhooksService
	// Deployments creates, retrieves, updates, lists, archives, pauses,
	// unpauses and runs deployments (/v1/deployments) and reads their runs
	// (Deployments.Runs, /v1/deployment_runs), sending the managed-agents
	// beta.
	Deployments *DeploymentsService
	// Dreams creates, retrieves, lists, archives and cancels dreams
	// (/v1/dreams), sending the dreaming beta.
	Dreams *DreamsService

	cfg *config.Config
	// admin marks the client package admin sends through (admin_bridge.go): its
	// calls may carry an admin key.
	admin bool
}

// NewClient builds a client from options, with defaults from the
// environment; explicit options win over it. The credential is the first
// of: an option (WithAPIKey, WithAuthToken, WithTokenSource, WithFederation,
// WithProfile), $VENDOR_API_KEY, $VENDOR_AUTH_TOKEN, the profile
// $VENDOR_PROFILE names, federation from $VENDOR_FEDERATION_RULE_ID,
// $VENDOR_ORGANIZATION_ID and $VENDOR_IDENTITY_TOKEN_FILE (or
// $VENDOR_IDENTITY_TOKEN), and the active profile of the configuration
// directory. The base URL is option.WithBaseURL, else the profile's, else
// $VENDOR_BASE_URL. $VENDOR_CUSTOM_HEADERS adds headers to every request
// (see EnvCustomHeaders). NewClient fails, naming the problem, when an option is
// invalid, when two credentials are given together, when no credential or
// no base URL is found (the service publishes no default address), or when
// a federation or profile cannot be used.
func NewClient(opts ...option.RequestOption) (*Client, error) {
	cfg, err := newConfig(opts, false)
	if err != nil {
		return nil, err
	}
	c := &Client{cfg: cfg}
	c.initServices()
	return c, nil
}

// newConfig is NewClient's configuration: options over the environment,
// the credential chain, the base URL. For package admin (admin true) an
// admin key (option.WithAdminKey, else $VENDOR_ADMIN_KEY) comes first in
// the chain and a platform is refused; for the root an admin key is
// refused, since it must never reach a non-admin endpoint.
func newConfig(opts []option.RequestOption, admin bool) (*config.Config, error) {
	cfg := config.Default()
	cfg.UserAgent = userAgent
	envHeaders, err := customHeaders(os.Getenv(EnvCustomHeaders))
	if err != nil {
		return nil, err
	}
	if err := config.Apply(cfg, append(envHeaders, opts...)); err != nil {
		return nil, err
	}
	cfg.Observer = guardObserver(cfg.Observer, cfg.Logger)
	if cfg.MetadataInto != nil {
		// A client's calls run concurrently: one destination shared by all
		// of them would be a data race, so this option only works per call.
		return nil, errors.New("mms: option.WithResponseMetadata is a per-call option: pass it to each call, with its own destination, not to NewClient")
	}
	if !admin && cfg.AdminKey != "" {
		return nil, errAdminKeyHere
	}
	if admin && cfg.Platform != nil {
		return nil, errors.New("admin: the Organization API is not served through a partner platform: option.WithPlatform cannot be used with admin.NewClient")
	}
	if cfg.Platform != nil {
		if err := setUpPlatform(cfg); err != nil {
			return nil, err
		}
		return cfg, nil
	}
	plan, err := chooseCredential(cfg, admin)
	if err != nil {
		return nil, err
	}
	if cfg.BaseURL == nil {
		from, env := "$"+EnvBaseURL, os.Getenv(EnvBaseURL)
		if plan.profile != nil && plan.profile.baseURL() != "" {
			from, env = plan.profile.label+" base_url", plan.profile.baseURL()
		}
		if env == "" {
			return nil, fmt.Errorf("mms: no base URL: the service publishes no default address; set $%s or pass option.WithBaseURL", EnvBaseURL)
		}
		u, err := transport.ParseBaseURL(env)
		if err != nil {
			return nil, fmt.Errorf("mms: %s: %w", from, err)
		}
		cfg.BaseURL = u
	}
	if err := plan.apply(cfg); err != nil {
		return nil, err
	}
	cfg.FinishBearer()
	return cfg, nil
}

// errAdminKeyHere refuses an admin key given to the root client.
var errAdminKeyHere = errors.New("mms: option.WithAdminKey is for the Organization API client (admin.NewClient): an admin key is never sent to other endpoints; use option.WithAPIKey here")

// initServices wires the per-resource services to the client.
func (c *Client) initServices() {
	c.Messages = &MessagesService{client: c, Batches: &BatchesService{client: c}}
	c.Models = &ModelsService{client: c}
	c.Files = &FilesService{client: c}
	c.Skills = &SkillsService{client: c, Versions: &SkillVersionsService{client: c}}
	c.Agents = &AgentsService{client: c, Versions: &AgentVersionsService{client: c}}
	c.Environments = &EnvironmentsService{client: c, Work: &EnvironmentWorkService{client: c}}
	c.Vaults = &VaultsService{client: c, Credentials: &VaultCredentialsService{client: c}}
	c.MemoryStores = newMemoryStoresService(c)
	c.Sessions = &SessionsService{client: c, Resources: &SessionResourcesService{client: c},
		Threads: &SessionThreadsService{client: c, Events: &SessionThreadEventsService{client: c}},
		Events:  &SessionEventsService{client: c}}
	c.UserProfiles = &UserProfilesService{client: c}
	c.Tunnels = &TunnelsService{client: c, Certificates: &TunnelCertificatesService{client: c}}
	c.Webhooks = newWebhooksService(c)
	c.Deployments = &DeploymentsService{client: c, Runs: &DeploymentRunsService{client: c}}
	c.Dreams = &DreamsService{client: c}
}

// Do sends a request through the same pipeline as the typed services (auth,
// version, betas, retries, rate limits, errors) for endpoints the SDK has not
// typed yet. path is below the base URL and may carry a query
// ("/v1/models?limit=5"). Retries follow the method: GET, HEAD, PUT and
// DELETE are retried after any retryable failure; a POST is treated as
// creating something (retried only when the failed attempt provably took
// no effect; see ErrMaybeApplied) unless its path is one the SDK knows:
// the Messages endpoints (retried as reads are) and the record actions of
// endpoint.go's table (archive, cancel, …). body is nil, a []byte or json.RawMessage sent as is,
// an io.Reader sent as a stream (not retried), or any other value encoded as
// JSON. out is nil (the body is discarded), a *[]byte or *json.RawMessage
// receiving the raw body, or any value decoded from JSON. Endpoint betas the
// path needs (managed agents, memory stores, tunnels) are added.
func (c *Client) Do(ctx context.Context, method, path string, body, out any, opts ...option.RequestOption) error {
	p, rawQuery, _ := strings.Cut(path, "?")
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return fmt.Errorf("mms: Do: query of %q: %w", path, err)
	}
	r := &request{method: strings.ToUpper(method), path: p, query: q, out: out, retry: retryOfPath(strings.ToUpper(method), p)}
	if beta := wire.RequiredBeta(p); beta != "" {
		r.betas = []string{beta}
	}
	switch b := body.(type) {
	case nil:
	case []byte:
		r.raw = b
	case json.RawMessage:
		r.raw = b
	case io.Reader:
		r.stream, r.size = b, -1
	default:
		r.body = b
	}
	_, err = c.newCall(opts).send(ctx, r)
	return err
}

// request describes one call of a service method.
type request struct {
	method, path string
	query        url.Values
	body         any    // encoded as JSON
	raw          []byte // sent as is (takes precedence over body)
	stream       io.Reader
	getBody      func() (io.Reader, error)
	size         int64
	contentType  string
	accept       string
	betas        []string
	out          any  // decode target; nil discards
	emptyOK      bool // an answer without a body (a 204) leaves out as it is
	streaming    bool // leave the response body open
	timeout      time.Duration
	model        string // a Messages call's model, for a platform adapter
	// retry is the request's retry class; the zero value classes it by
	// method, so a POST nobody classed is creating (see endpoint.go).
	retry transport.Retry
	// removes marks a delete or archive: an "already gone" answer to a
	// resend is its success (transport.Removal).
	removes transport.Removal
}

// call is one call of a service method with its options applied. A method
// makes one with newCall, which applies the option list, reads what it needs
// from it (the idle timeout, the user profile) and sends every request of the
// call (each page of a list, each poll) through its send. send exists only
// on a call and takes no options, so the pipeline never applies them again.
type call struct {
	cfg *config.Config
	err error // a bad option: send returns it and sends nothing
}

// newCall applies opts on top of the client's configuration (a copy is made
// only when there are options).
func (c *Client) newCall(opts []option.RequestOption) call {
	if len(opts) == 0 {
		return call{cfg: c.cfg}
	}
	cfg := c.cfg.Clone()
	cfg.Platform = nil // to see whether a call option sets one
	if err := config.Apply(cfg, opts); err != nil {
		return call{err: err}
	}
	cfg.Observer = guardObserver(cfg.Observer, cfg.Logger)
	if cfg.AdminKey != "" && !c.admin {
		return call{err: errAdminKeyHere}
	}
	if cfg.Federation != nil || cfg.Profile != "" {
		return call{err: errors.New("mms: option.WithFederation and option.WithProfile are client options: the client's calls share the token they give; pass them to NewClient")}
	}
	if cfg.Platform != nil {
		return call{err: errors.New("mms: option.WithPlatform (and the platform modules' options) are client options: pass them to NewClient")}
	}
	if cfg.RetryBudget != nil && cfg.RetryBudget != c.cfg.RetryBudget {
		return call{err: errors.New("mms: option.WithRetryBudget is a client option: the budget is shared by the client's calls; pass it to NewClient (a call may use option.WithoutRetryBudget)")}
	}
	cfg.Platform = c.cfg.Platform
	if cfg.Platform != nil && (cfg.APIKey != "" || cfg.AuthToken != "" || cfg.Bearer != nil) {
		return call{err: fmt.Errorf("mms: %s authenticates every request: a call cannot add the service's own credential", cfg.Platform.Name())}
	}
	return call{cfg: cfg}
}

// send runs r through the pipeline and decodes the answer into r.out.
func (cl call) send(ctx context.Context, r *request) (_ *transport.Response, err error) {
	if cl.err != nil {
		return nil, cl.err
	}
	if r.raw == nil && r.body != nil {
		var err error
		if r.raw, err = codec.MarshalRequest(r.body); err != nil {
			return nil, fmt.Errorf("mms: encoding %s %s: %w", r.method, r.path, err)
		}
	}
	var op observe.Operation
	if cl.cfg.Observer != nil {
		if op = opFrom(ctx); op == nil { // a call no operation covers yet: observed on its own
			ctx, op = startOp(ctx, cl.cfg.Observer, observe.Op{Kind: observe.Other, Name: r.method + " " + r.path, Method: r.method, Path: r.path})
			defer func(o observe.Operation) { o.End(err) }(op)
		}
	}
	budget := cl.budget(r)
	treq := &transport.Request{
		Method: r.method, Path: r.path, Query: r.query,
		Body: r.raw, BodyStream: r.stream, GetBody: r.getBody, Size: r.size,
		ContentType: r.contentType, Accept: r.accept, Betas: r.betas,
		Stream: r.streaming, DefaultTimeout: r.timeout, Tokens: budget.estimate, Model: r.model,
		Operation: op, Retry: r.retry, Removes: r.removes, Secrets: secretsIn, Params: r.body,
	}
	resp, err := transport.Do(ctx, cl.cfg, treq, pipelineErrors{})
	if err != nil {
		return nil, err
	}
	if resp.Resent || r.streaming || r.out == nil || r.emptyOK && len(bytes.TrimSpace(resp.Bytes)) == 0 {
		return resp, nil // a Resent answer has no body: see endpoint.removed
	}
	if err := decodeInto(resp.Bytes, r.out); err != nil {
		return nil, fmt.Errorf("mms: decoding the response of %s %s (request-id %s): %w", r.method, r.path, resp.RequestID, err)
	}
	if u, ok := r.out.(interface{ billedTokens() int }); ok {
		budget.correct(u.billedTokens())
	}
	return resp, nil
}

// tokenBudget is a call's charge on the client-side token limit: the
// estimate the limiter waits for before each attempt, and its correction
// from what the reply says was billed (after decoding a reply, or at a
// stream's message_stop). The zero value (no limiter) does nothing.
type tokenBudget struct {
	limiter  config.Limiter
	estimate int
}

// budget returns r's charge, once r's body is encoded. A JSON body counts a
// token per four bytes: a coarse estimate the reply corrects. A streamed body
// (file and skill uploads, batch creation) counts none: its bytes are not
// input billed by this call (a file counts when a message uses it, a batch
// when it is processed), and its size may be unknown.
func (cl call) budget(r *request) tokenBudget {
	return tokenBudget{limiter: cl.cfg.Limiter, estimate: len(r.raw) / 4}
}

// correct tells the limiter what the reply reported as billed.
func (b tokenBudget) correct(actual int) {
	if b.limiter != nil {
		b.limiter.Correct(b.estimate, actual)
	}
}

// decodeInto decodes a response body into out. Types with their own decoder
// get it called directly after one validation pass, skipping the second
// scan encoding/json makes before calling an UnmarshalJSON method.
func decodeInto(data []byte, out any) error {
	switch o := out.(type) {
	case *[]byte:
		*o = data
		return nil
	case *json.RawMessage:
		*o = data
		return nil
	case json.Unmarshaler:
		// The SDK's decoders skip encoding/json's per-level validation;
		// this is the one pass over the bytes that checks them.
		if err := codec.Valid(data); errors.Is(err, codec.ErrTooDeep) {
			return fmt.Errorf("the body cannot be decoded: %w", err)
		} else if err != nil {
			return fmt.Errorf("the body is not valid JSON: %q", excerpt(data))
		}
		return o.UnmarshalJSON(bytes.TrimSpace(data))
	}
	return json.Unmarshal(data, out)
}

// setUpPlatform finishes a client configured for a partner platform: the
// adapter authenticates, so the service's own credentials are refused, and
// the base URL is the adapter's unless option.WithBaseURL set one.
func setUpPlatform(cfg *config.Config) error {
	name := cfg.Platform.Name()
	for _, c := range []struct {
		set    bool
		option string
	}{
		{cfg.APIKey != "", "WithAPIKey"}, {cfg.AuthToken != "", "WithAuthToken"}, {cfg.Bearer != nil, "WithTokenSource"},
		{cfg.Federation != nil, "WithFederation"}, {cfg.Profile != "", "WithProfile"},
	} {
		if c.set {
			return fmt.Errorf("mms: option.%s cannot be used with %s: the platform's adapter authenticates every request", c.option, name)
		}
	}
	base, err := cfg.Platform.BaseURL()
	if err != nil {
		return fmt.Errorf("mms: %s: %w", name, err)
	}
	if cfg.BaseURL != nil {
		return nil
	}
	u, err := transport.ParseBaseURL(base)
	if err != nil {
		return fmt.Errorf("mms: %s: base URL: %w", name, err)
	}
	cfg.BaseURL = u
	return nil
}
