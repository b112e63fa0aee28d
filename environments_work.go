package mms

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"iter"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// EnvironmentWorkService is the work queue of a self-hosted environment
// (/v1/environments/{environment_id}/work): a worker polls for a work
// item (a session to run, or a health check), acknowledges it, keeps its
// lease with heartbeats and stops it. Reach it as
// client.Environments.Work. Every call sends the managed-agents beta.
type EnvironmentWorkService struct {
	client *Client
}

// WorkState is a work item's state. Unknown values pass through.
type WorkState string

// The states, in the order an item goes through them.
const (
	WorkStateQueued   WorkState = "queued"
	WorkStateStarting WorkState = "starting"
	WorkStateActive   WorkState = "active"
	WorkStateStopping WorkState = "stopping"
	WorkStateStopped  WorkState = "stopped"
)

// Work is a work item of a self-hosted environment's queue (the wire type
// "work"). Members this SDK version does not model are kept in Extra.
//
//mms:json type=work
type Work struct {
	// ID identifies the item.
	ID string `json:"id"`
	// EnvironmentID is the environment whose queue holds it.
	EnvironmentID string `json:"environment_id"`
	// State is where the item is in its life.
	State WorkState `json:"state"`
	// Data is what to do: [WorkSession], [WorkHealthcheck] or
	// [UnknownWorkData].
	Data WorkData `json:"data"`
	// Metadata is the worker's key-value pairs (see
	// [EnvironmentWorkService.Update]).
	Metadata map[string]string `json:"metadata"`
	// Secret is the credential the worker runs the item with; nil when
	// null. fmt and slog print it as "<redacted>"; see
	// [Work.SessionCredentials].
	Secret *Secret `json:"secret"`
	// CreatedAt is an RFC 3339 string.
	CreatedAt string `json:"created_at"`
	// The moments of the item's life; nil until they happen.
	AcknowledgedAt    *string `json:"acknowledged_at"`
	StartedAt         *string `json:"started_at"`
	LatestHeartbeatAt *string `json:"latest_heartbeat_at"`
	StopRequestedAt   *string `json:"stop_requested_at"`
	StoppedAt         *string `json:"stopped_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkSecret is the decoded [Work.Secret].
type WorkSecret struct {
	// SessionsToken authenticates the worker's calls for the session.
	SessionsToken Secret `json:"sessions_token"`
	// APIBaseURL is the base URL to call; "" when not given.
	APIBaseURL string `json:"api_base_url,omitempty"`
}

// errNoWorkSecret is the error of SessionCredentials on a work item
// without a secret.
var errNoWorkSecret = errors.New("mms: the work item carries no secret")

// SessionCredentials decodes Secret, base64url-encoded JSON
// {sessions_token, api_base_url?} (padded or not). Its errors never quote
// the secret.
func (w Work) SessionCredentials() (WorkSecret, error) {
	if w.Secret == nil || w.Secret.IsZero() {
		return WorkSecret{}, errNoWorkSecret
	}
	s := strings.TrimRight(w.Secret.Reveal(), "=")
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return WorkSecret{}, errors.New("mms: the work item's secret is not base64url")
	}
	var out WorkSecret
	if err := json.Unmarshal(raw, &out); err != nil {
		return WorkSecret{}, errors.New("mms: the work item's secret is not a JSON object of credentials")
	}
	if out.SessionsToken.IsZero() {
		return WorkSecret{}, errors.New("mms: the work item's secret has no sessions_token")
	}
	return out, nil
}

// A WorkData is what a work item asks for: [WorkSession],
// [WorkHealthcheck] or [UnknownWorkData].
type WorkData interface {
	json.Marshaler
	isWorkData()
}

var workDataUnion = codec.NewUnion[WorkData]("WorkData", UnknownWorkData{}).
	Add("session", WorkSession{}).
	Add("healthcheck", WorkHealthcheck{})

// WorkSession asks the worker to run a session (the wire type "session").
type WorkSession struct {
	// ID is the session's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkHealthcheck asks the worker to prove it is alive (the wire type
// "healthcheck").
type WorkHealthcheck struct {
	// ID identifies the check.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownWorkData keeps a kind of work this SDK version cannot name.
type UnknownWorkData struct {
	Type string
	Raw  json.RawMessage
}

// WorkHeartbeat is the answer of [EnvironmentWorkService.Heartbeat] (the
// wire type "work_heartbeat").
//
//mms:json type=work_heartbeat
type WorkHeartbeat struct {
	// LastHeartbeat is when the service recorded this heartbeat (RFC 3339).
	LastHeartbeat string `json:"last_heartbeat"`
	// LeaseExtended reports whether the lease was extended.
	LeaseExtended bool `json:"lease_extended"`
	// State is the item's state.
	State WorkState `json:"state"`
	// TTLSeconds is how long the lease now lasts without a heartbeat.
	TTLSeconds int `json:"ttl_seconds"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WorkQueueStats is the answer of [EnvironmentWorkService.Stats] (the wire
// type "work_queue_stats").
//
//mms:json type=work_queue_stats
type WorkQueueStats struct {
	// Depth is the number of queued items.
	Depth int `json:"depth"`
	// Pending is the number of items taken but not yet stopped.
	Pending int `json:"pending"`
	// OldestQueuedAt is when the oldest queued item was queued; nil when
	// none is.
	OldestQueuedAt *string `json:"oldest_queued_at"`
	// WorkersPolling is the number of workers polling now; nil when the
	// service does not say.
	WorkersPolling *int `json:"workers_polling"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// EnvironmentWorkPollParams are the parameters of
// [EnvironmentWorkService.Poll].
type EnvironmentWorkPollParams struct {
	// BlockMS is how long the service may wait for work before answering
	// that there is none (block_ms); nil leaves its default, Ptr(0) asks
	// for no wait.
	BlockMS *int
	// ReclaimOlderThanMS lets the poll take an item another worker took
	// more than this long ago and did not keep alive
	// (reclaim_older_than_ms); nil leaves the service's rule.
	ReclaimOlderThanMS *int
	// WorkerID names the polling worker (the Vendor-Worker-ID header); ""
	// sends none.
	WorkerID string
}

// Validate reports the first rule the params break: a negative BlockMS or
// ReclaimOlderThanMS, or a WorkerID that cannot be a header value.
func (p EnvironmentWorkPollParams) Validate() error {
	if p.BlockMS != nil && *p.BlockMS < 0 {
		return invalid("block_ms", "must not be negative, got %d", *p.BlockMS)
	}
	if p.ReclaimOlderThanMS != nil && *p.ReclaimOlderThanMS < 0 {
		return invalid("reclaim_older_than_ms", "must not be negative, got %d", *p.ReclaimOlderThanMS)
	}
	if strings.ContainsAny(p.WorkerID, "\r\n\x00") {
		return invalid("worker_id", "must not contain CR, LF or NUL")
	}
	return nil
}

// Poll asks for the next work item of a self-hosted environment (GET
// /v1/environments/{environment_id}/work/poll). The service holds the
// request up to BlockMS waiting for work; when none comes it answers
// without a body (204), and Poll returns (nil, nil).
//
// The wait counts against the attempt's timeout: with
// option.WithRequestTimeout set (on the client or the call), BlockMS must
// be shorter than it, or Poll refuses the params before sending instead of
// timing out on every empty poll. Without a request timeout (the default)
// a poll lasts as long as the service holds it or ctx allows.
func (s *EnvironmentWorkService) Poll(ctx context.Context, environmentID string, p EnvironmentWorkPollParams, opts ...option.RequestOption) (*Work, error) {
	seg, err := pathID("environment_id", environmentID)
	if err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	call := s.client.newCall(opts)
	var q url.Values
	if p.BlockMS != nil {
		if rt := call.requestTimeout(); rt > 0 && time.Duration(*p.BlockMS)*time.Millisecond >= rt {
			return nil, invalid("block_ms", "must be shorter than the request timeout (%v, option.WithRequestTimeout), got %dms", rt, *p.BlockMS)
		}
		q = queryInt(q, "block_ms", *p.BlockMS)
	}
	if p.ReclaimOlderThanMS != nil {
		q = queryInt(q, "reclaim_older_than_ms", *p.ReclaimOlderThanMS)
	}
	if p.WorkerID != "" {
		call = s.client.newCall(append(opts[:len(opts):len(opts)], option.WithHeader(wire.HeaderWorkerID, p.WorkerID)))
	}
	var out Work
	r := &request{method: http.MethodGet, path: "/v1/environments/" + seg + "/work/poll", query: q,
		betas: managedAgentsBetas, out: &out, emptyOK: true}
	resp, err := call.send(ctx, r)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(resp.Bytes)) == 0 {
		return nil, nil // no work came within BlockMS
	}
	return &out, nil
}

// Get retrieves a work item (GET
// /v1/environments/{environment_id}/work/{work_id}).
func (s *EnvironmentWorkService) Get(ctx context.Context, environmentID, workID string, opts ...option.RequestOption) (*Work, error) {
	return s.at(environmentID, workID).get(ctx, opts)
}

// WorkUpdateParams are the parameters of [EnvironmentWorkService.Update].
//
//mms:json
type WorkUpdateParams struct {
	// Metadata upserts (a value) and deletes (nil) keys. Required: make
	// it with MetadataPatch{}.Set(...).
	Metadata MetadataPatch `json:"metadata"`
}

// Validate reports the first rule the params break: no metadata, or
// metadata past 16 pairs, 64-character keys or 512-character values.
func (p WorkUpdateParams) Validate() error {
	if p.Metadata == nil {
		return invalid("metadata", "is required")
	}
	return p.Metadata.validate("metadata")
}

// Update changes a work item's metadata (POST
// /v1/environments/{environment_id}/work/{work_id}).
func (s *EnvironmentWorkService) Update(ctx context.Context, environmentID, workID string, p WorkUpdateParams, opts ...option.RequestOption) (*Work, error) {
	return s.at(environmentID, workID).update(ctx, p, opts)
}

// Ack acknowledges a polled work item, making it active (POST
// …/work/{work_id}/ack).
func (s *EnvironmentWorkService) Ack(ctx context.Context, environmentID, workID string, opts ...option.RequestOption) (*Work, error) {
	return s.at(environmentID, workID).action(ctx, "/ack", nil, opts)
}

// WorkHeartbeatParams are the parameters of
// [EnvironmentWorkService.Heartbeat].
//
//mms:json
type WorkHeartbeatParams struct {
	// DesiredTTLSeconds asks for a lease of this many seconds; nil leaves
	// the service's default.
	DesiredTTLSeconds *int `json:"desired_ttl_seconds,omitzero"`
	// ExpectedLastHeartbeat, when set, makes the heartbeat conditional:
	// the lease is extended only if the item's last heartbeat is this one
	// (a LastHeartbeat answered before), so two workers cannot both hold
	// it.
	ExpectedLastHeartbeat string `json:"expected_last_heartbeat,omitzero"`
}

// Validate reports a DesiredTTLSeconds below 1.
func (p WorkHeartbeatParams) Validate() error {
	if p.DesiredTTLSeconds != nil && *p.DesiredTTLSeconds < 1 {
		return invalid("desired_ttl_seconds", "must be at least 1, got %d", *p.DesiredTTLSeconds)
	}
	return nil
}

// Heartbeat keeps a work item's lease (POST …/work/{work_id}/heartbeat).
// The params go in the query (desired_ttl_seconds,
// expected_last_heartbeat), as the service reads them; the body is empty.
func (s *EnvironmentWorkService) Heartbeat(ctx context.Context, environmentID, workID string, p WorkHeartbeatParams, opts ...option.RequestOption) (*WorkHeartbeat, error) {
	return as[WorkHeartbeat](s.at(environmentID, workID)).checked(p).withQuery(p.query()).action(ctx, "/heartbeat", nil, opts)
}

// WorkStopParams are the parameters of [EnvironmentWorkService.Stop].
//
//mms:json
type WorkStopParams struct {
	// Force stops the item at once instead of asking its worker to wind
	// it down.
	Force bool `json:"force,omitzero"`
}

// Validate returns nil: a stop has nothing to check client-side.
func (p WorkStopParams) Validate() error { return nil }

// Stop stops a work item (POST …/work/{work_id}/stop): it goes to
// stopping, or with Force straight to stopped.
func (s *EnvironmentWorkService) Stop(ctx context.Context, environmentID, workID string, p WorkStopParams, opts ...option.RequestOption) (*Work, error) {
	return s.at(environmentID, workID).action(ctx, "/stop", p, opts)
}

// Stats reports the queue's depth and activity (GET
// /v1/environments/{environment_id}/work/stats).
func (s *EnvironmentWorkService) Stats(ctx context.Context, environmentID string, opts ...option.RequestOption) (*WorkQueueStats, error) {
	return as[WorkQueueStats](s.all(environmentID)).sub("/stats").get(ctx, opts)
}

// WorkListParams are the parameters of [EnvironmentWorkService.List] and
// [EnvironmentWorkService.ListPage].
type WorkListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
}

// Validate reports the first rule the params break: Limit outside 1–100
// when set.
func (p WorkListParams) Validate() error { return validateLimit(p.Limit, 100) }

func (p WorkListParams) listArgs() listArgs {
	return listArgs{query: limitQuery(p.Limit), start: listPos{page: p.Page}}
}

// List iterates over an environment's work items (GET
// /v1/environments/{environment_id}/work, cursor scheme), fetching pages
// as it goes. Nothing is sent before the loop starts; an error is yielded
// once, last.
func (s *EnvironmentWorkService) List(ctx context.Context, environmentID string, p WorkListParams, opts ...option.RequestOption) iter.Seq2[Work, error] {
	return s.all(environmentID).list(ctx, p, opts)
}

// ListPage fetches one page of an environment's work items.
func (s *EnvironmentWorkService) ListPage(ctx context.Context, environmentID string, p WorkListParams, opts ...option.RequestOption) (*Page[Work], error) {
	return s.all(environmentID).listPage(ctx, p, opts)
}

// requestTimeout is the per-attempt timeout the caller set, 0 for none.
func (cl call) requestTimeout() time.Duration {
	if cl.cfg == nil {
		return 0
	}
	return cl.cfg.RequestTimeout
}

// all is an environment's work queue's endpoint
// (/v1/environments/{environment_id}/work).
func (s *EnvironmentWorkService) all(environmentID string) endpoint[Work] {
	return managedEndpoint[Work](s.client, "/v1/environments").id("environment_id", environmentID).sub("/work")
}

// at is one work item's endpoint
// (/v1/environments/{environment_id}/work/{work_id}).
func (s *EnvironmentWorkService) at(environmentID, workID string) endpoint[Work] {
	return s.all(environmentID).id("work_id", workID)
}
