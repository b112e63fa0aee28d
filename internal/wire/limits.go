package wire

// Limits the service enforces on request bodies that the SDK checks before
// sending and the fake (mmstest) refuses with the service's 400. They are
// here so both sides read one list: the root package's limit constants are
// these (mmstest_agrees_test.go holds the few it names apart equal to
// them). Lengths count characters (Unicode code points), as the service
// does, unless a comment says bytes. Where the service is stricter than its
// published schema, the comment cites the spec row that says so
// (../shared/spec/*.md); every other bound is the schema's.
const (
	// The metadata member of the managed-agents resources.
	MaxMetadataPairs    = 16
	MaxMetadataKeyLen   = 64  // characters; at least 1
	MaxMetadataValueLen = 512 // characters

	// Agents.
	MaxAgentNameLen         = 256     // characters of name; at least 1
	MaxAgentDescriptionLen  = 2048    // characters of description
	MaxAgentSystemLen       = 100_000 // characters of system
	MaxAgentTools           = 256     // tools across all toolsets (R2; 128 before)
	MaxAgentMCPServers      = 20
	MaxAgentMCPServerName   = 255  // characters
	MaxAgentMCPServerURLLen = 2048 // characters of mcp_servers[].url
	MaxMCPToolConfigNameLen = 128  // characters of an mcp_toolset's configs[].name; at least 1
	MaxCustomToolNameLen    = 128  // characters of [a-zA-Z0-9_-]
	MaxCustomToolDescLength = 1024 // characters of a custom tool's description; at least 1
	MaxSkillIDLen           = 64   // characters of skills[].skill_id; at least 1 (a version, when sent, too)
	MaxAgentIDLen           = 128  // characters of an agent id a roster or a session names
	MaxPredefinedAgents     = 20   // entries of a multiagent_20261001 subagents or workflows predefined_agents list

	// Environments.
	MaxEnvironmentNameLen        = 256  // characters; at least 1
	MaxEnvironmentDescriptionLen = 1024 // characters
	// MaxEnvironmentListLimit is the largest page size of GET
	// /v1/environments (the spec names none, so the schema's).
	MaxEnvironmentListLimit = 1000

	// Message Batches.
	MaxBatchRequests       = 100_000
	MaxBatchCustomIDLength = 64

	// Sessions.
	MaxInitialEvents         = 50
	MaxResourceInstruction   = 4096 // characters of a resource's instructions
	MaxEnvironmentIDLen      = 128  // characters of a session's environment_id
	MaxSessionTitleLen       = 500  // characters of title; at least 1 when sent
	MaxRepositoryURLLen      = 2048 // characters of a github_repository's url
	MaxAuthorizationTokenLen = 4096 // characters of a github_repository's authorization_token
	MinCheckoutSHALen        = 7    // characters of a commit checkout's sha
	MaxCheckoutBranchLen     = 255  // characters of a branch checkout's name
	MaxResourceFileIDLen     = 128  // characters of a file resource's file_id
	MaxEventToolUseIDLen     = 128  // characters of tool_use_id and custom_tool_use_id in sent events
	MaxDenyMessageLen        = 10_000
	MaxRubricContentLen      = 262_144 // characters of a text rubric's content
	// MaxOutcomeIterations caps define_outcome's max_iterations. The
	// service is stricter than its schema here:
	// agents-sessions-environments.md §4.2, row user.define_outcome
	// ("max_iterations (no; default 3, max 20)").
	MaxOutcomeIterations = 20

	// Memory stores.
	MaxMemoryStoreNameLen        = 255
	MaxMemoryStoreDescriptionLen = 1024

	// Vaults and credentials: display_name.
	MaxDisplayNameLen = 255
	// Credential auth members.
	MaxCredentialServerURLLen = 2047 // characters of mcp_server_url
	MaxAccessTokenLen         = 8192 // characters of mcp_oauth's access_token
	MaxStaticBearerTokenLen   = 8192 // characters of static_bearer's token
	MaxClientIDLen            = 1024 // characters of refresh.client_id
	MaxClientSecretLen        = 512  // characters of token_endpoint_auth.client_secret
	MaxRefreshTokenLen        = 4096 // characters of refresh.refresh_token
	MaxTokenEndpointLen       = 2047 // characters of refresh.token_endpoint

	// User profiles: external_id, name, hashes, reference_id.
	MaxUserProfileTextLen = 255

	// Deployments (deployments-dreams-compliance.md §1.3–1.5): 1–50
	// initial events (MaxInitialEvents), at most 500 resources and 50
	// vault ids; list pages of at most 100.
	MaxDeploymentResources = 500
	MaxDeploymentVaultIDs  = 50
	MaxDeploymentListLimit = 100
	// MaxDeploymentRunListLimit is the largest page of GET
	// /v1/deployment_runs (§2.2: "max 1000").
	MaxDeploymentRunListLimit = 1000

	// Dreams (§3.3–3.4).
	MaxDreamSessionIDs      = 100  // session_ids of the sessions input; at least 1, unique
	MaxDreamInstructionsLen = 4096 // characters of instructions; at least 1 when sent
	MaxDreamModelIDLen      = 256  // characters of model.id; at least 1
	MaxDreamListLimit       = 100
)

// EventDocumentSources are the source types a document block of a sent
// session event may have; the Messages API's "content" source is not one
// of them.
var EventDocumentSources = []string{"base64", "text", "url", "file"}

// UserProfileRelationships are the values of a user profile's
// relationship (beta user-profiles-2026-03-24).
var UserProfileRelationships = []string{"external", "resold", "internal"}
