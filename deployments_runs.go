package mms

import (
	"context"
	"encoding/json"
	"iter"
	"strconv"
	"time"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// DeploymentRunsService retrieves and lists deployment runs
// (/v1/deployment_runs): the append-only record of each execution of a
// deployment, saying whether a session was created or why not (it does
// not follow the session afterwards). Reach it as
// client.Deployments.Runs; [DeploymentsService.Run] starts one. Every
// call sends the managed-agents-2026-04-01 beta ([BetaManagedAgents]).
type DeploymentRunsService struct {
	client *Client
}

// DeploymentRun is a run's record (the wire type "deployment_run").
// Exactly one of SessionID and Error is set.
//
//mms:json type=deployment_run
type DeploymentRun struct {
	// ID identifies the run ("drun_…").
	ID string `json:"id"`
	// DeploymentID is the deployment that ran.
	DeploymentID string `json:"deployment_id"`
	// Agent is the agent version at the time of the run.
	Agent DeploymentAgent `json:"agent"`
	// TriggerContext says what started the run: a
	// [DeploymentScheduleTrigger] or a [DeploymentManualTrigger].
	TriggerContext DeploymentRunTrigger `json:"trigger_context"`
	// SessionID is the session the run created; nil when it failed.
	SessionID *string `json:"session_id"`
	// Error is why no session was created; nil when one was.
	Error *DeploymentError `json:"error"`
	// CreatedAt is when the record was stored (RFC 3339).
	CreatedAt string `json:"created_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Created parses CreatedAt.
func (r DeploymentRun) Created() (time.Time, error) {
	return time.Parse(time.RFC3339Nano, r.CreatedAt)
}

// A DeploymentRunTrigger says what started a run:
// [DeploymentScheduleTrigger], [DeploymentManualTrigger] or
// [UnknownDeploymentRunTrigger].
type DeploymentRunTrigger interface {
	json.Marshaler
	isDeploymentRunTrigger()
}

var deploymentRunTriggerUnion = codec.NewUnion[DeploymentRunTrigger]("DeploymentRunTrigger", UnknownDeploymentRunTrigger{}).
	Add("schedule", DeploymentScheduleTrigger{}).
	Add("manual", DeploymentManualTrigger{})

// DeploymentScheduleTrigger: the schedule fired (the wire type
// "schedule"). A deployment has at most one run per ScheduledAt.
type DeploymentScheduleTrigger struct {
	// ScheduledAt is the UTC instant the cron expression matched, before
	// the schedule's jitter (RFC 3339).
	ScheduledAt string `json:"scheduled_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// DeploymentManualTrigger: [DeploymentsService.Run] started the run (the
// wire type "manual").
type DeploymentManualTrigger struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownDeploymentRunTrigger keeps a trigger this SDK version cannot
// name.
type UnknownDeploymentRunTrigger struct {
	Type string
	Raw  json.RawMessage
}

// DeploymentTriggerType filters runs by what started them.
type DeploymentTriggerType string

// The trigger types.
const (
	DeploymentTriggerSchedule DeploymentTriggerType = "schedule"
	DeploymentTriggerManual   DeploymentTriggerType = "manual"
)

// Get retrieves a run (GET /v1/deployment_runs/{deployment_run_id}).
func (s *DeploymentRunsService) Get(ctx context.Context, runID string, opts ...option.RequestOption) (*DeploymentRun, error) {
	return s.all().id("deployment_run_id", runID).get(ctx, opts)
}

// DeploymentRunListParams are the parameters of
// [DeploymentRunsService.List] and [DeploymentRunsService.ListPage].
type DeploymentRunListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage; the
	// service refuses an invalid or expired one (400).
	Page Cursor
	// DeploymentID keeps one deployment's runs; "" lists those of every
	// deployment of the workspace. An unknown id lists nothing.
	DeploymentID string
	// TriggerType keeps the runs started one way.
	TriggerType DeploymentTriggerType
	// HasError, when set, keeps the failed runs (true) or those that
	// created a session (false).
	HasError *bool
	// CreatedGT, CreatedGTE, CreatedLT and CreatedLTE, when not zero,
	// bound the creation time (created_at[gt], [gte], [lt], [lte]).
	CreatedGT, CreatedGTE, CreatedLT, CreatedLTE time.Time
}

// Validate reports the first rule the params break: Limit outside 1–1000
// when set.
func (p DeploymentRunListParams) Validate() error {
	return validateLimit(p.Limit, wire.MaxDeploymentRunListLimit)
}

func (p DeploymentRunListParams) listArgs() listArgs {
	q := limitQuery(p.Limit)
	setStrings(q, map[string]string{"deployment_id": p.DeploymentID, "trigger_type": string(p.TriggerType)})
	if p.HasError != nil {
		q.Set("has_error", strconv.FormatBool(*p.HasError))
	}
	setTimeFilters(q, "created_at", p.CreatedGT, p.CreatedGTE, p.CreatedLT, p.CreatedLTE)
	return listArgs{query: q, start: listPos{page: p.Page}}
}

// List iterates over the runs, newest first, fetching pages as it goes
// (GET /v1/deployment_runs, cursor scheme). Nothing is sent before the
// loop starts; ranging again lists again from p.Page; an error is yielded
// once, last.
func (s *DeploymentRunsService) List(ctx context.Context, p DeploymentRunListParams, opts ...option.RequestOption) iter.Seq2[DeploymentRun, error] {
	return s.all().list(ctx, p, opts)
}

// ListPage fetches one page of runs (GET /v1/deployment_runs). Continue
// with Page set to the page's *NextPage while it is not nil.
func (s *DeploymentRunsService) ListPage(ctx context.Context, p DeploymentRunListParams, opts ...option.RequestOption) (*Page[DeploymentRun], error) {
	return s.all().listPage(ctx, p, opts)
}

// all is the runs' endpoint (/v1/deployment_runs).
func (s *DeploymentRunsService) all() endpoint[DeploymentRun] {
	return managedEndpoint[DeploymentRun](s.client, "/v1/deployment_runs")
}
