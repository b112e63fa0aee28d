package mms

import (
	"encoding/json"
	"time"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// The webhook event catalogue (spec webhooks.md §3, §4): the envelope, the
// union of every event type, and its variants, one per wire type. An event
// names its object by id and never carries the object (see
// [WebhooksService.Fetch]).

// Webhook is one delivery's envelope (the wire type "event").
//
//mms:json type=event
type Webhook struct {
	// ID is the event's id ("whe_…"), unique per event: the key to
	// process an event at most once.
	ID string `json:"id"`
	// CreatedAt is when the event occurred.
	CreatedAt time.Time `json:"created_at"`
	// Data is the event: switch on its concrete type.
	Data WebhookEvent `json:"data"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A WebhookEvent is the data of a webhook delivery: what happened, and the
// id of the object it happened to. Switch on its concrete type; an event
// type this SDK version cannot name is an [UnknownWebhookEvent], never
// dropped. The variants, by family:
//
//   - session.*: [WebhookSessionCreated], [WebhookSessionUpdated],
//     [WebhookSessionPending], [WebhookSessionRunning],
//     [WebhookSessionIdled], [WebhookSessionRequiresAction],
//     [WebhookSessionArchived], [WebhookSessionDeleted],
//     [WebhookSessionStatusRunStarted], [WebhookSessionStatusIdled],
//     [WebhookSessionStatusRescheduled], [WebhookSessionStatusTerminated],
//     [WebhookSessionBudgetReached], [WebhookSessionOutcomeEvaluationEnded],
//     [WebhookSessionThreadCreated], [WebhookSessionThreadIdled],
//     [WebhookSessionThreadTerminated];
//   - agent.*: [WebhookAgentCreated], [WebhookAgentUpdated],
//     [WebhookAgentArchived], [WebhookAgentDeleted];
//   - environment.*: [WebhookEnvironmentCreated],
//     [WebhookEnvironmentUpdated], [WebhookEnvironmentArchived],
//     [WebhookEnvironmentDeleted];
//   - deployment.* and deployment_run.*: [WebhookDeploymentCreated],
//     [WebhookDeploymentUpdated], [WebhookDeploymentPaused],
//     [WebhookDeploymentUnpaused], [WebhookDeploymentArchived],
//     [WebhookDeploymentDeleted], [WebhookDeploymentRunStarted],
//     [WebhookDeploymentRunSucceeded], [WebhookDeploymentRunFailed];
//   - vault.* and vault_credential.*: [WebhookVaultCreated],
//     [WebhookVaultArchived], [WebhookVaultDeleted],
//     [WebhookVaultCredentialCreated], [WebhookVaultCredentialArchived],
//     [WebhookVaultCredentialDeleted],
//     [WebhookVaultCredentialRefreshFailed];
//   - memory_store.*: [WebhookMemoryStoreCreated],
//     [WebhookMemoryStoreArchived], [WebhookMemoryStoreDeleted];
//   - organization events (user_profile.*, external_key.*,
//     external_storage.*), delivered to organization endpoints:
//     [WebhookUserProfileEnforcementActionOpened],
//     [WebhookUserProfileEnforcementActionResolved],
//     [WebhookUserProfileProgramStatusUpdated], [WebhookExternalKeyFailed],
//     [WebhookExternalKeyRecovered], [WebhookExternalStorageFailed],
//     [WebhookExternalStorageRecovered];
//   - anything else: [UnknownWebhookEvent].
type WebhookEvent interface {
	json.Marshaler
	// EventType is the wire type ("session.created"); for
	// UnknownWebhookEvent the payload's own type.
	EventType() string
	// ObjectID is the id of the object the event is about (the data's
	// "id"): a session's for session.*, an agent's for agent.*, and so on.
	ObjectID() string
	isWebhookEvent()
}

var webhookEventUnion = codec.NewUnion[WebhookEvent]("WebhookEvent", UnknownWebhookEvent{}).
	Add("session.created", WebhookSessionCreated{}).
	Add("session.updated", WebhookSessionUpdated{}).
	Add("session.pending", WebhookSessionPending{}).
	Add("session.running", WebhookSessionRunning{}).
	Add("session.idled", WebhookSessionIdled{}).
	Add("session.requires_action", WebhookSessionRequiresAction{}).
	Add("session.archived", WebhookSessionArchived{}).
	Add("session.deleted", WebhookSessionDeleted{}).
	Add("session.status_run_started", WebhookSessionStatusRunStarted{}).
	Add("session.status_idled", WebhookSessionStatusIdled{}).
	Add("session.status_rescheduled", WebhookSessionStatusRescheduled{}).
	Add("session.status_terminated", WebhookSessionStatusTerminated{}).
	Add("session.budget_reached", WebhookSessionBudgetReached{}).
	Add("session.outcome_evaluation_ended", WebhookSessionOutcomeEvaluationEnded{}).
	Add("session.thread_created", WebhookSessionThreadCreated{}).
	Add("session.thread_idled", WebhookSessionThreadIdled{}).
	Add("session.thread_terminated", WebhookSessionThreadTerminated{}).
	Add("agent.created", WebhookAgentCreated{}).
	Add("agent.updated", WebhookAgentUpdated{}).
	Add("agent.archived", WebhookAgentArchived{}).
	Add("agent.deleted", WebhookAgentDeleted{}).
	Add("environment.created", WebhookEnvironmentCreated{}).
	Add("environment.updated", WebhookEnvironmentUpdated{}).
	Add("environment.archived", WebhookEnvironmentArchived{}).
	Add("environment.deleted", WebhookEnvironmentDeleted{}).
	Add("deployment.created", WebhookDeploymentCreated{}).
	Add("deployment.updated", WebhookDeploymentUpdated{}).
	Add("deployment.paused", WebhookDeploymentPaused{}).
	Add("deployment.unpaused", WebhookDeploymentUnpaused{}).
	Add("deployment.archived", WebhookDeploymentArchived{}).
	Add("deployment.deleted", WebhookDeploymentDeleted{}).
	Add("deployment_run.started", WebhookDeploymentRunStarted{}).
	Add("deployment_run.succeeded", WebhookDeploymentRunSucceeded{}).
	Add("deployment_run.failed", WebhookDeploymentRunFailed{}).
	Add("vault.created", WebhookVaultCreated{}).
	Add("vault.archived", WebhookVaultArchived{}).
	Add("vault.deleted", WebhookVaultDeleted{}).
	Add("vault_credential.created", WebhookVaultCredentialCreated{}).
	Add("vault_credential.archived", WebhookVaultCredentialArchived{}).
	Add("vault_credential.deleted", WebhookVaultCredentialDeleted{}).
	Add("vault_credential.refresh_failed", WebhookVaultCredentialRefreshFailed{}).
	Add("memory_store.created", WebhookMemoryStoreCreated{}).
	Add("memory_store.archived", WebhookMemoryStoreArchived{}).
	Add("memory_store.deleted", WebhookMemoryStoreDeleted{}).
	Add("user_profile.enforcement_action_opened", WebhookUserProfileEnforcementActionOpened{}).
	Add("user_profile.enforcement_action_resolved", WebhookUserProfileEnforcementActionResolved{}).
	Add("user_profile.program_status_updated", WebhookUserProfileProgramStatusUpdated{}).
	Add("external_key.failed", WebhookExternalKeyFailed{}).
	Add("external_key.recovered", WebhookExternalKeyRecovered{}).
	Add("external_storage.failed", WebhookExternalStorageFailed{}).
	Add("external_storage.recovered", WebhookExternalStorageRecovered{})

// UnknownWebhookEvent keeps an event type this SDK version cannot name:
// Raw is the data as it came, and MarshalJSON writes it back.
type UnknownWebhookEvent struct {
	// Type is the data's "type".
	Type string
	Raw  json.RawMessage
}

// ObjectID returns the data's "id" member, or "" when it has none.
func (u UnknownWebhookEvent) ObjectID() string { return rawStringMember(u.Raw, "id") }

// WebhookSessionCreated is the event session.created. Session created.
type WebhookSessionCreated struct {
	// ID is the session id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookSessionUpdated is the event session.updated. Session fields changed.
type WebhookSessionUpdated struct {
	// ID is the session id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookSessionPending is the event session.pending. The session is pending.
type WebhookSessionPending struct {
	// ID is the session id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookSessionRunning is the event session.running. The session is running.
type WebhookSessionRunning struct {
	// ID is the session id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookSessionIdled is the event session.idled. The session went idle.
type WebhookSessionIdled struct {
	// ID is the session id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookSessionRequiresAction is the event session.requires_action. The session requires action.
type WebhookSessionRequiresAction struct {
	// ID is the session id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookSessionArchived is the event session.archived. The session was archived.
type WebhookSessionArchived struct {
	// ID is the session id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookSessionDeleted is the event session.deleted. The session was deleted; a Get returns 404.
type WebhookSessionDeleted struct {
	// ID is the session id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookSessionStatusRunStarted is the event session.status_run_started. Agent execution started; fires on every transition to running (the stream's session.status_running).
type WebhookSessionStatusRunStarted struct {
	// ID is the session id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookSessionStatusIdled is the event session.status_idled. The agent awaits input (a tool permission, a new user message); fires each time the session goes idle, for any reason (the stream's session.status_idle).
type WebhookSessionStatusIdled struct {
	// ID is the session id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookSessionStatusRescheduled is the event session.status_rescheduled. A transient error; the session retries automatically.
type WebhookSessionStatusRescheduled struct {
	// ID is the session id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookSessionStatusTerminated is the event session.status_terminated. The session terminated: an unrecoverable error, or archived.
type WebhookSessionStatusTerminated struct {
	// ID is the session id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookSessionBudgetReached is the event session.budget_reached. The session reached its budget and paused; at most once per budget value, re-armed when the budget changes.
type WebhookSessionBudgetReached struct {
	// ID is the session id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookSessionOutcomeEvaluationEnded is the event session.outcome_evaluation_ended. An outcome evaluation finished (see the session's outcome_evaluations).
type WebhookSessionOutcomeEvaluationEnded struct {
	// ID is the session id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookSessionThreadCreated is the event session.thread_created. A multiagent thread opened (the coordinator called another agent).
type WebhookSessionThreadCreated struct {
	// ID is the session id.
	ID string `json:"id"`
	// SessionThreadID is the thread's id.
	SessionThreadID string `json:"session_thread_id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookSessionThreadIdled is the event session.thread_idled. An agent in a multiagent session waits for input.
type WebhookSessionThreadIdled struct {
	// ID is the session id.
	ID string `json:"id"`
	// SessionThreadID is the thread's id.
	SessionThreadID string `json:"session_thread_id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookSessionThreadTerminated is the event session.thread_terminated. A multiagent thread was archived.
type WebhookSessionThreadTerminated struct {
	// ID is the session id.
	ID string `json:"id"`
	// SessionThreadID is the thread's id.
	SessionThreadID string `json:"session_thread_id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookAgentCreated is the event agent.created. The agent was created.
type WebhookAgentCreated struct {
	// ID is the agent id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookAgentUpdated is the event agent.updated. The agent was updated.
type WebhookAgentUpdated struct {
	// ID is the agent id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookAgentArchived is the event agent.archived. The agent was archived.
type WebhookAgentArchived struct {
	// ID is the agent id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookAgentDeleted is the event agent.deleted. The agent was deleted; a Get returns 404.
type WebhookAgentDeleted struct {
	// ID is the agent id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookEnvironmentCreated is the event environment.created. The environment was created.
type WebhookEnvironmentCreated struct {
	// ID is the environment id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookEnvironmentUpdated is the event environment.updated. The environment was updated.
type WebhookEnvironmentUpdated struct {
	// ID is the environment id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookEnvironmentArchived is the event environment.archived. The environment was archived.
type WebhookEnvironmentArchived struct {
	// ID is the environment id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookEnvironmentDeleted is the event environment.deleted. The environment was deleted; a Get returns 404.
type WebhookEnvironmentDeleted struct {
	// ID is the environment id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookDeploymentCreated is the event deployment.created. The deployment was created.
type WebhookDeploymentCreated struct {
	// ID is the deployment id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookDeploymentUpdated is the event deployment.updated. The deployment was updated.
type WebhookDeploymentUpdated struct {
	// ID is the deployment id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookDeploymentPaused is the event deployment.paused. The deployment was paused (its paused_reason says why).
type WebhookDeploymentPaused struct {
	// ID is the deployment id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookDeploymentUnpaused is the event deployment.unpaused. The deployment was unpaused.
type WebhookDeploymentUnpaused struct {
	// ID is the deployment id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookDeploymentArchived is the event deployment.archived. The deployment was archived.
type WebhookDeploymentArchived struct {
	// ID is the deployment id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookDeploymentDeleted is the event deployment.deleted. The deployment was deleted; a Get returns 404.
type WebhookDeploymentDeleted struct {
	// ID is the deployment id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookDeploymentRunStarted is the event deployment_run.started. A scheduled or manual run started.
type WebhookDeploymentRunStarted struct {
	// ID is the deployment run (drun_…) id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookDeploymentRunSucceeded is the event deployment_run.succeeded. The run succeeded (its session_id names the session).
type WebhookDeploymentRunSucceeded struct {
	// ID is the deployment run (drun_…) id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookDeploymentRunFailed is the event deployment_run.failed. The run could not create a session (its error says why).
type WebhookDeploymentRunFailed struct {
	// ID is the deployment run (drun_…) id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookVaultCreated is the event vault.created. The vault was created.
type WebhookVaultCreated struct {
	// ID is the vault id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookVaultArchived is the event vault.archived. The vault was archived.
type WebhookVaultArchived struct {
	// ID is the vault id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookVaultDeleted is the event vault.deleted. The vault was deleted; a Get returns 404.
type WebhookVaultDeleted struct {
	// ID is the vault id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookVaultCredentialCreated is the event vault_credential.created. The credential was created.
type WebhookVaultCredentialCreated struct {
	// ID is the credential id.
	ID string `json:"id"`
	// VaultID is the credential's vault.
	VaultID string `json:"vault_id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookVaultCredentialArchived is the event vault_credential.archived. The credential was archived.
type WebhookVaultCredentialArchived struct {
	// ID is the credential id.
	ID string `json:"id"`
	// VaultID is the credential's vault.
	VaultID string `json:"vault_id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookVaultCredentialDeleted is the event vault_credential.deleted. The credential was deleted; a Get returns 404.
type WebhookVaultCredentialDeleted struct {
	// ID is the credential id.
	ID string `json:"id"`
	// VaultID is the credential's vault.
	VaultID string `json:"vault_id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookVaultCredentialRefreshFailed is the event vault_credential.refresh_failed. An MCP OAuth refresh failed (validate the credential to see why).
type WebhookVaultCredentialRefreshFailed struct {
	// ID is the credential id.
	ID string `json:"id"`
	// VaultID is the credential's vault.
	VaultID string `json:"vault_id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookMemoryStoreCreated is the event memory_store.created. The memory store was created.
type WebhookMemoryStoreCreated struct {
	// ID is the memory store id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookMemoryStoreArchived is the event memory_store.archived. The memory store was archived.
type WebhookMemoryStoreArchived struct {
	// ID is the memory store id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookMemoryStoreDeleted is the event memory_store.deleted. The memory store was deleted; a Get returns 404.
type WebhookMemoryStoreDeleted struct {
	// ID is the memory store id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// WorkspaceID is the workspace's id.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookUserProfileEnforcementActionOpened is the event user_profile.enforcement_action_opened. An enforcement action was opened on the profile.
type WebhookUserProfileEnforcementActionOpened struct {
	// ID is the user profile id.
	ID string `json:"id"`
	// EnforcementActionID is the action's id ("enac_…").
	EnforcementActionID string `json:"enforcement_action_id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookUserProfileEnforcementActionResolved is the event user_profile.enforcement_action_resolved. The enforcement action was resolved.
type WebhookUserProfileEnforcementActionResolved struct {
	// ID is the user profile id.
	ID string `json:"id"`
	// EnforcementActionID is the action's id ("enac_…").
	EnforcementActionID string `json:"enforcement_action_id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookUserProfileProgramStatusUpdated is the event user_profile.program_status_updated. The profile's standing in a program (cyber verification, say) changed.
type WebhookUserProfileProgramStatusUpdated struct {
	// ID is the user profile id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookExternalKeyFailed is the event external_key.failed. A customer-managed key stopped working.
type WebhookExternalKeyFailed struct {
	// ID is the external key (ekey_…) id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookExternalKeyRecovered is the event external_key.recovered. The customer-managed key works again.
type WebhookExternalKeyRecovered struct {
	// ID is the external key (ekey_…) id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookExternalStorageFailed is the event external_storage.failed. The storage bucket failed the service's check.
type WebhookExternalStorageFailed struct {
	// ID is the External Storage (estrg_…) id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookExternalStorageRecovered is the event external_storage.recovered. The storage bucket passes the check again.
type WebhookExternalStorageRecovered struct {
	// ID is the External Storage (estrg_…) id.
	ID string `json:"id"`
	// OrganizationID is the organization's id.
	OrganizationID string `json:"organization_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}
