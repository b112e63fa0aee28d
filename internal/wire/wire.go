// Package wire holds the facts of the wire protocol that both the client and
// the fake service (mmstest) must agree on: header names, the API version,
// beta names, and the request size limits. Keeping them in one place means
// the fake can never drift from the SDK.
package wire

import (
	"encoding/json"
	"strings"
)

// Header names. Go canonicalises header keys, so these are the lookup spellings.
const (
	HeaderAPIKey         = "X-Api-Key"
	HeaderAuthorization  = "Authorization"
	HeaderVersion        = "Vendor-Version"
	HeaderBeta           = "Vendor-Beta"
	HeaderUserProfileID  = "Vendor-User-Profile-Id"
	HeaderWorkspaceID    = "Vendor-Workspace-Id"
	HeaderWorkerID       = "Vendor-Worker-Id"
	HeaderOrganizationID = "Vendor-Organization-Id"
	HeaderRequestID      = "Request-Id"
	HeaderRetryAfter     = "Retry-After"
	HeaderRetryAfterMs   = "Retry-After-Ms"
	HeaderShouldRetry    = "X-Should-Retry"
	HeaderRetryCount     = "X-Stainless-Retry-Count"
	HeaderTimeout        = "X-Stainless-Timeout"
	HeaderUserAgent      = "User-Agent"
	HeaderContentType    = "Content-Type"

	// RateLimitPrefix and PriorityPrefix start the rate-limit header families
	// (vendor-ratelimit-requests-limit, vendor-priority-input-tokens-reset, ...).
	RateLimitPrefix = "Vendor-Ratelimit-"
	PriorityPrefix  = "Vendor-Priority-"
)

// API versions (the vendor-version header). DefaultVersion is what a
// client sends unless option.WithVersion says otherwise; Version20261021
// refuses sampling parameters and some block placements (VersionRefuses).
const (
	DefaultVersion  = "2023-06-01"
	Version20261021 = "2026-10-21"
)

// KnownVersion reports whether v is an API version the service serves.
func KnownVersion(v string) bool { return v == DefaultVersion || v == Version20261021 }

// VersionRefuses reports whether version v carries the request refusals
// of 2026-10-21 (api-version-2026-10-21.md §2). Versions are dates, so a
// later one compares greater; the fake serves only the two known ones.
func VersionRefuses(v string) bool { return v >= Version20261021 }

// SamplingParams are the top-level members 2026-10-21 refuses in a
// Messages body, even at their default values.
var SamplingParams = []string{"temperature", "top_p", "top_k"}

// Beta names that endpoints require or that options add.
const (
	BetaManagedAgents  = "managed-agents-2026-04-01"
	BetaAgentMemory    = "agent-memory-2026-07-22"
	BetaMCPTunnels     = "mcp-tunnels-2026-06-22"
	BetaFiles          = "files-api-2025-04-14"
	BetaSkills         = "skills-2025-10-02"
	BetaMessageBatches = "message-batches-2024-09-24"
	// BetaDreaming goes with every /v1/dreams request
	// (deployments-dreams-compliance.md).
	BetaDreaming = "dreaming-2026-04-21"
	// BetaUserProfiles is the value the seed names; a dated value supplied by
	// the caller replaces it (see README "Known disagreements").
	BetaUserProfiles = "user-profiles"
	// BetaOAuth goes with every request carrying an OAuth access token
	// (minted by /v1/oauth/token or from a token source); the token
	// exchange also sends BetaOIDCFederation for the jwt-bearer grant.
	BetaOAuth          = "oauth-2025-04-20"
	BetaOIDCFederation = "oidc-federation-2026-04-01"
)

// KnownBetas lists every beta name the service is documented to accept.
var KnownBetas = []string{
	"message-batches-2024-09-24", "prompt-caching-2024-07-31", "computer-use-2024-10-22",
	"computer-use-2025-01-24", "pdfs-2024-09-25", "token-counting-2024-11-01",
	"token-efficient-tools-2025-02-19", "output-128k-2025-02-19", "files-api-2025-04-14",
	"mcp-client-2025-04-04", "mcp-client-2025-11-20", "dev-full-thinking-2025-05-14",
	"interleaved-thinking-2025-05-14", "code-execution-2025-05-22", "extended-cache-ttl-2025-04-11",
	"context-1m-2025-08-07", "context-management-2025-06-27", "model-context-window-exceeded-2025-08-26",
	"skills-2025-10-02", "fast-mode-2026-02-01", "output-300k-2026-03-24", "user-profiles-2026-03-24",
	"advisor-tool-2026-03-01", "managed-agents-2026-04-01", "cache-diagnosis-2026-04-07",
	"dreaming-2026-04-21", "thinking-token-count-2026-05-13", "server-side-fallback-2026-06-01",
	"fallback-credit-2026-06-01", "agent-memory-2026-07-22", "user-profiles-2026-08-18",
	"server-side-fallback-2026-07-01", "fallback-credit-2026-07-01",
	"mid-conversation-tool-changes-2026-07-01", "mcp-tunnels-2026-06-22",
	"oauth-2025-04-20", "oidc-federation-2026-04-01", "structured-outputs-2025-12-15",
	"user-profiles", "user-profiles-2026-09-04",
	// New in the official SDK's list with API version 2026-10-21
	// (api-version-2026-10-21.md §3.2).
	"compact-2026-01-12", "compact-2026-09-04", "computer-use-2025-11-24",
	"structured-outputs-2025-11-13", "task-budgets-2026-03-13", "thinking-display-updates-2026-08-18",
	"mid-conversation-output-config-2026-07-01", "thinking-binding-controls-2026-08-01",
	"mid-conversation-system-clear-at-2026-08-21", "inline-tools-2026-09-15", "mcp-client-2026-09-15",
	"ce-plugins-2026-09-01", "spend-limit-reads-2026-09-26", "telemetry-destinations-2026-08-11",
	"webhooks-2026-10-07", "admin-user-sign-out-2026-10-08", "message-threads-2026-08-12",
	"analytics-usage-cost-2026-08-24", "experimental-claude-tag-2026-10-21",
	"ce-claude-code-managed-settings-2026-10-06", "efs-2026-10-01", "google-managed-data-controls-2026-09-01",
	"user-profiles-billing-2026-10-01", "ce-user-management-2026-07-13",
}

// IsKnownBeta reports whether name is a documented beta name.
func IsKnownBeta(name string) bool {
	for _, b := range KnownBetas {
		if b == name {
			return true
		}
	}
	return false
}

// Size limits on request bodies. The spec says "MB"; we read it as MiB, the
// larger reading, so the SDK never refuses a body the service would take.
const (
	MiB                = 1 << 20
	LimitDefault int64 = 32 * MiB  // messages, count_tokens, agents, sessions, environments
	LimitBatches int64 = 256 * MiB // POST /v1/messages/batches
	LimitFiles   int64 = 500 * MiB // POST /v1/files (and skill uploads)
)

// BodyLimit returns the request-body size limit for a request path
// ("/v1/messages", "/v1/messages/batches", ...).
func BodyLimit(path string) int64 {
	switch {
	case strings.HasPrefix(path, "/v1/messages/batches"):
		return LimitBatches
	case strings.HasPrefix(path, "/v1/files"), strings.HasPrefix(path, "/v1/skills"):
		return LimitFiles
	default:
		return LimitDefault
	}
}

// RequiredBeta returns the beta name an endpoint family needs, or "".
// Files and Skills betas are added by the services (switchable), not here.
func RequiredBeta(path string) string {
	switch {
	case strings.HasPrefix(path, "/v1/memory_stores"):
		return BetaAgentMemory
	case strings.HasPrefix(path, "/v1/agents"), strings.HasPrefix(path, "/v1/sessions"),
		strings.HasPrefix(path, "/v1/environments"), strings.HasPrefix(path, "/v1/vaults"),
		strings.HasPrefix(path, "/v1/deployments"), strings.HasPrefix(path, "/v1/deployment_runs"):
		return BetaManagedAgents
	case strings.HasPrefix(path, "/v1/dreams"):
		return BetaDreaming
	case strings.HasPrefix(path, "/v1/tunnels"):
		return BetaMCPTunnels
	case strings.HasPrefix(path, "/v1/user_profiles"):
		return BetaUserProfiles // a dated user-profiles-* value stands for it
	}
	return ""
}

// Error types of the error body ({"type":"error","error":{"type":...}}).
const (
	ErrInvalidRequest  = "invalid_request_error"
	ErrAuthentication  = "authentication_error"
	ErrBilling         = "billing_error"
	ErrPermission      = "permission_error"
	ErrNotFound        = "not_found_error"
	ErrRequestTooLarge = "request_too_large"
	ErrRateLimit       = "rate_limit_error"
	ErrAPI             = "api_error"
	ErrTimeout         = "timeout_error"
	ErrOverloaded      = "overloaded_error"

	// The memory stores' own error types (HTTP 409).
	ErrMemoryPreconditionFailed = "memory_precondition_failed_error"
	ErrMemoryPathConflict       = "memory_path_conflict_error"
	ErrConflict                 = "conflict_error"
)

// FinalConflict reports whether an error answer is a 409 that a retry
// cannot fix: a failed content_sha256 precondition or a path already in
// use meets the same state when sent again, so these are not retried
// although 409 otherwise is.
func FinalConflict(status int, body []byte) bool {
	if status != 409 {
		return false
	}
	var b struct {
		Error struct {
			Type string `json:"type"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &b) != nil {
		return false
	}
	return b.Error.Type == ErrMemoryPreconditionFailed || b.Error.Type == ErrMemoryPathConflict
}

// errorTypes are the statuses with an error type of their own.
var errorTypes = map[int]string{
	401: ErrAuthentication,
	402: ErrBilling,
	403: ErrPermission,
	404: ErrNotFound,
	413: ErrRequestTooLarge,
	429: ErrRateLimit,
	504: ErrTimeout,
	529: ErrOverloaded,
}

// ErrorTypeForStatus is the error type the service answers a status with
// (the spec's table): another 4xx is invalid_request_error, another 5xx
// api_error.
func ErrorTypeForStatus(status int) string {
	if t, ok := errorTypes[status]; ok {
		return t
	}
	if status >= 500 {
		return ErrAPI
	}
	return ErrInvalidRequest
}
