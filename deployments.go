package mms

import (
	"context"
	"encoding/json"
	"iter"
	"time"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/option"
)

// DeploymentsService creates, retrieves, updates, lists and archives
// deployments (/v1/deployments), pauses and unpauses their schedules and
// runs them now; Runs reads the record of each run
// (/v1/deployment_runs). A deployment binds an agent, pinned to a version,
// to an environment, vaults, resources, initial events and an optional
// cron schedule, so that sessions are created from it on the schedule or
// on demand. Reach it as client.Deployments. Every call sends the
// managed-agents-2026-04-01 beta ([BetaManagedAgents]), merged with the
// caller's betas; option.WithWorkspaceID picks the workspace per call.
// There is no delete: archive a deployment instead.
type DeploymentsService struct {
	client *Client
	// Runs retrieves and lists the deployments' runs.
	Runs *DeploymentRunsService
}

// DeploymentStatus is whether a deployment's schedule fires. Unknown
// values pass through.
type DeploymentStatus string

// The deployment statuses. An archived deployment reports active, with
// ArchivedAt set.
const (
	// DeploymentActive: the schedule fires and runs can start.
	DeploymentActive DeploymentStatus = "active"
	// DeploymentPaused: the schedule's fires are suppressed; runs started
	// with [DeploymentsService.Run] still happen.
	DeploymentPaused DeploymentStatus = "paused"
)

// Deployment is a deployment's record (the wire type "deployment").
// Members this SDK version does not model are kept in Extra, so
// json.Marshal writes a reply back without loss.
//
//mms:json type=deployment
type Deployment struct {
	// ID identifies the deployment.
	ID string `json:"id"`
	// Name is the deployment's name.
	Name string `json:"name"`
	// Description is nil when it has none.
	Description *string `json:"description"`
	// Agent is the agent the deployment runs, always at a concrete
	// version.
	Agent DeploymentAgent `json:"agent"`
	// EnvironmentID is the environment the sessions run in.
	EnvironmentID string `json:"environment_id"`
	// InitialEvents are sent to each session right after it is created.
	InitialEvents []DeploymentInitialEvent `json:"initial_events"`
	// Resources are mounted in each session, without their write-only
	// credentials.
	Resources []DeploymentResource `json:"resources"`
	// VaultIDs name the vaults whose credentials the sessions may use.
	VaultIDs []string `json:"vault_ids"`
	// Metadata is the caller's key-value pairs.
	Metadata map[string]string `json:"metadata"`
	// Schedule is the cron schedule; nil when the deployment runs only
	// on demand.
	Schedule *DeploymentSchedule `json:"schedule"`
	// Status says whether the schedule fires (see [DeploymentStatus]).
	Status DeploymentStatus `json:"status"`
	// PausedReason says why a paused deployment is paused: a
	// [DeploymentPausedManual] or a [DeploymentPausedError]; nil exactly
	// when Status is not paused.
	PausedReason DeploymentPausedReason `json:"paused_reason"`
	// Budget caps what each session created from the deployment may
	// spend; nil when none is set (the member is then absent).
	Budget *SessionBudget `json:"budget,omitzero"`
	// CreatedAt and UpdatedAt are RFC 3339 strings as the service sent
	// them (see [Deployment.Created]).
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// ArchivedAt is when the deployment was archived; nil while it is not.
	ArchivedAt *string `json:"archived_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Created parses CreatedAt.
func (d Deployment) Created() (time.Time, error) { return time.Parse(time.RFC3339Nano, d.CreatedAt) }

// DeploymentAgent is the agent version a deployment or one of its runs
// names (the wire type "agent").
//
//mms:json type=agent
type DeploymentAgent struct {
	// ID is the agent's id.
	ID string `json:"id"`
	// Version is the agent's version.
	Version int `json:"version"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// DeploymentSchedule is a deployment's cron schedule as records carry it
// (the wire type "cron").
//
//mms:json type=cron
type DeploymentSchedule struct {
	// Expression is the 5-field cron expression.
	Expression string `json:"expression"`
	// Timezone is the IANA zone the expression is read in.
	Timezone string `json:"timezone"`
	// UpcomingRunsAt are up to 5 next fires (RFC 3339), also while the
	// deployment is paused (what it would do unpaused); empty once it is
	// archived. Each fire starts at or shortly after its time (a small
	// per-schedule jitter).
	UpcomingRunsAt []string `json:"upcoming_runs_at"`
	// LastRunAt is the start of the last scheduled run; nil until one
	// completes. Runs started with [DeploymentsService.Run] leave it.
	LastRunAt *string `json:"last_run_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A DeploymentPausedReason says why a deployment is paused:
// [DeploymentPausedManual], [DeploymentPausedError] or
// [UnknownDeploymentPausedReason].
type DeploymentPausedReason interface {
	json.Marshaler
	isDeploymentPausedReason()
}

var deploymentPausedReasonUnion = codec.NewUnion[DeploymentPausedReason]("DeploymentPausedReason", UnknownDeploymentPausedReason{}).
	Add("manual", DeploymentPausedManual{}).
	Add("error", DeploymentPausedError{})

// DeploymentPausedManual: [DeploymentsService.Pause] paused the deployment
// (the wire type "manual").
type DeploymentPausedManual struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// DeploymentPausedError: a scheduled run failed with an error that pauses
// the deployment (the wire type "error"), such as an archived environment
// or agent.
type DeploymentPausedError struct {
	// Error is the run's error; its Message may be empty.
	Error DeploymentError `json:"error"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownDeploymentPausedReason keeps a reason this SDK version cannot
// name.
type UnknownDeploymentPausedReason struct {
	Type string
	Raw  json.RawMessage
}

// DeploymentErrorType is the type of a run's error. Unknown values pass
// through; match on the message for those.
type DeploymentErrorType string

// The run error types. All but the last two also pause a deployment when
// a scheduled run meets them.
const (
	DeploymentErrorEnvironmentArchived            DeploymentErrorType = "environment_archived_error"
	DeploymentErrorAgentArchived                  DeploymentErrorType = "agent_archived_error"
	DeploymentErrorEnvironmentNotFound            DeploymentErrorType = "environment_not_found_error"
	DeploymentErrorVaultNotFound                  DeploymentErrorType = "vault_not_found_error"
	DeploymentErrorVaultArchived                  DeploymentErrorType = "vault_archived_error"
	DeploymentErrorFileNotFound                   DeploymentErrorType = "file_not_found_error"
	DeploymentErrorMemoryStoreArchived            DeploymentErrorType = "memory_store_archived_error"
	DeploymentErrorSkillNotFound                  DeploymentErrorType = "skill_not_found_error"
	DeploymentErrorSessionResourceNotFound        DeploymentErrorType = "session_resource_not_found_error"
	DeploymentErrorWorkspaceArchived              DeploymentErrorType = "workspace_archived_error"
	DeploymentErrorOrganizationDisabled           DeploymentErrorType = "organization_disabled_error"
	DeploymentErrorSelfHostedResourcesUnsupported DeploymentErrorType = "self_hosted_resources_unsupported_error"
	DeploymentErrorMCPEgressBlocked               DeploymentErrorType = "mcp_egress_blocked_error"
	DeploymentErrorUnknown                        DeploymentErrorType = "unknown_error"
	DeploymentErrorSessionRateLimited             DeploymentErrorType = "session_rate_limited_error"
	DeploymentErrorSessionCreationRejected        DeploymentErrorType = "session_creation_rejected_error"
)

// DeploymentError is why a run created no session, or why a deployment
// paused itself.
//
//mms:json
type DeploymentError struct {
	// Type is the error's type.
	Type DeploymentErrorType `json:"type"`
	// Message explains it; "" when the service sent none (a paused
	// reason's error carries only its type).
	Message string `json:"message,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A DeploymentResource is a resource of a deployment's record:
// [DeploymentRepositoryResource], [DeploymentFileResource],
// [DeploymentMemoryStoreResource] or [UnknownDeploymentResource]. The
// params are the sessions' ([SessionResourceParams]).
type DeploymentResource interface {
	json.Marshaler
	isDeploymentResource()
}

var deploymentResourceUnion = codec.NewUnion[DeploymentResource]("DeploymentResource", UnknownDeploymentResource{}).
	Add("github_repository", DeploymentRepositoryResource{}).
	Add("file", DeploymentFileResource{}).
	Add("memory_store", DeploymentMemoryStoreResource{})

// DeploymentRepositoryResource is a GitHub repository each session clones
// (the wire type "github_repository"). Its token is never returned.
type DeploymentRepositoryResource struct {
	// URL is the repository's URL.
	URL string `json:"url"`
	// MountPath is where it goes; nil when null (the default,
	// /workspace/<repo-name>).
	MountPath *string `json:"mount_path"`
	// Checkout is the branch or commit; nil when null (the default
	// branch).
	Checkout RepositoryCheckout `json:"checkout"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// DeploymentFileResource is an uploaded file mounted in each session (the
// wire type "file").
type DeploymentFileResource struct {
	// FileID names the file.
	FileID string `json:"file_id"`
	// MountPath is where it goes; nil when null (the default,
	// /mnt/session/uploads/<file_id>).
	MountPath *string `json:"mount_path"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// DeploymentMemoryStoreResource is a memory store each session uses (the
// wire type "memory_store").
type DeploymentMemoryStoreResource struct {
	// MemoryStoreID names the store.
	MemoryStoreID string `json:"memory_store_id"`
	// Access is read_write or read_only; "" when null or absent.
	Access MemoryStoreAccess `json:"access,omitzero"`
	// Instructions tell the agent how to use the store; nil when null.
	Instructions *string `json:"instructions"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownDeploymentResource keeps a resource kind this SDK version cannot
// name.
type UnknownDeploymentResource struct {
	Type string
	Raw  json.RawMessage
}

// Create creates a deployment (POST /v1/deployments). The params are
// checked first (see [DeploymentCreateParams.Validate]); a
// *ValidationError means nothing was sent. A failed attempt is sent again
// only when it provably made nothing (no connection, a 429); otherwise the
// error matches [ErrMaybeApplied]: list the deployments before creating
// again.
func (s *DeploymentsService) Create(ctx context.Context, p DeploymentCreateParams, opts ...option.RequestOption) (*Deployment, error) {
	return s.all().post(ctx, p, opts)
}

// Get retrieves a deployment (GET /v1/deployments/{deployment_id}).
func (s *DeploymentsService) Get(ctx context.Context, deploymentID string, opts ...option.RequestOption) (*Deployment, error) {
	return s.at(deploymentID).get(ctx, opts)
}

// Update changes a deployment (POST /v1/deployments/{deployment_id});
// members left zero keep their values (see [DeploymentUpdateParams]).
func (s *DeploymentsService) Update(ctx context.Context, deploymentID string, p DeploymentUpdateParams, opts ...option.RequestOption) (*Deployment, error) {
	return s.at(deploymentID).update(ctx, p, opts)
}

// Archive archives a deployment (POST
// /v1/deployments/{deployment_id}/archive): its schedule stops for good
// and the record is kept, with ArchivedAt set. Archiving again returns
// the record.
func (s *DeploymentsService) Archive(ctx context.Context, deploymentID string, opts ...option.RequestOption) (*Deployment, error) {
	return s.at(deploymentID).action(ctx, "/archive", nil, opts)
}

// Pause suppresses a deployment's scheduled fires (POST
// /v1/deployments/{deployment_id}/pause); the answer is paused, with a
// [DeploymentPausedManual] reason. [DeploymentsService.Run] still works.
func (s *DeploymentsService) Pause(ctx context.Context, deploymentID string, opts ...option.RequestOption) (*Deployment, error) {
	return s.at(deploymentID).action(ctx, "/pause", nil, opts)
}

// Unpause lets a paused deployment's schedule fire again (POST
// /v1/deployments/{deployment_id}/unpause), whatever paused it.
func (s *DeploymentsService) Unpause(ctx context.Context, deploymentID string, opts ...option.RequestOption) (*Deployment, error) {
	return s.at(deploymentID).action(ctx, "/unpause", nil, opts)
}

// Run runs a deployment now (POST /v1/deployments/{deployment_id}/run),
// paused or not, and returns the run's record (its TriggerContext a
// [DeploymentManualTrigger]): its SessionID when a session was created,
// its Error when not. Each call starts a run, so a failed attempt is sent
// again only when it provably started nothing; otherwise the error
// matches [ErrMaybeApplied]: list the deployment's runs before running it
// again.
func (s *DeploymentsService) Run(ctx context.Context, deploymentID string, opts ...option.RequestOption) (*DeploymentRun, error) {
	return as[DeploymentRun](s.at(deploymentID)).action(ctx, "/run", nil, opts)
}

// List iterates over the deployments, newest first, fetching pages as it
// goes (GET /v1/deployments, cursor scheme). Nothing is sent before the
// loop starts; ranging again lists again from p.Page; an error is yielded
// once, last.
func (s *DeploymentsService) List(ctx context.Context, p DeploymentListParams, opts ...option.RequestOption) iter.Seq2[Deployment, error] {
	return s.all().list(ctx, p, opts)
}

// ListPage fetches one page of deployments (GET /v1/deployments).
// Continue with Page set to the page's *NextPage while it is not nil.
func (s *DeploymentsService) ListPage(ctx context.Context, p DeploymentListParams, opts ...option.RequestOption) (*Page[Deployment], error) {
	return s.all().listPage(ctx, p, opts)
}

// all is the deployments' endpoint (/v1/deployments).
func (s *DeploymentsService) all() endpoint[Deployment] {
	return managedEndpoint[Deployment](s.client, "/v1/deployments")
}

// at is one deployment's endpoint (/v1/deployments/{deployment_id}).
func (s *DeploymentsService) at(deploymentID string) endpoint[Deployment] {
	return s.all().id("deployment_id", deploymentID)
}
