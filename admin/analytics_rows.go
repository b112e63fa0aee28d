package admin

import (
	"encoding/json"
	"time"
)

// The analytics row records of organization.md §14.3, one per list.
// Counters that cannot be computed on aggregated rows (distinct counts)
// are pointers, nil when the service sends null; metric objects an
// endpoint or product does not send are nil. Extra keeps members this
// SDK version does not model.

// ActivityUser is the user a row is about.
//
//mms:json
type ActivityUser struct {
	// Type is "user".
	Type string `json:"type"`
	// ID is the user's id; EmailAddress their email.
	ID           string `json:"id"`
	EmailAddress string `json:"email_address"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ChatMetrics are a user's chat counters.
//
//mms:json
type ChatMetrics struct {
	MessageCount                       int64  `json:"message_count"`
	ThinkingMessageCount               int64  `json:"thinking_message_count"`
	DistinctConversationCount          *int64 `json:"distinct_conversation_count"`
	DistinctFilesUploadedCount         *int64 `json:"distinct_files_uploaded_count"`
	DistinctArtifactsCreatedCount      *int64 `json:"distinct_artifacts_created_count"`
	DistinctProjectsCreatedCount       *int64 `json:"distinct_projects_created_count"`
	DistinctProjectsUsedCount          *int64 `json:"distinct_projects_used_count"`
	DistinctSharedArtifactsViewedCount *int64 `json:"distinct_shared_artifacts_viewed_count"`
	SharedConversationsViewedCount     int64  `json:"shared_conversations_viewed_count"`
	ConnectorsUsedCount                int64  `json:"connectors_used_count"`
	DistinctConnectorsUsedCount        *int64 `json:"distinct_connectors_used_count"`
	DistinctSkillsUsedCount            *int64 `json:"distinct_skills_used_count"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// LinesOfCode counts lines added and removed.
//
//mms:json
type LinesOfCode struct {
	AddedCount   int64 `json:"added_count"`
	RemovedCount int64 `json:"removed_count"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CodeCoreMetrics are the coding CLI's core counters.
//
//mms:json
type CodeCoreMetrics struct {
	CommitCount           int64       `json:"commit_count"`
	PullRequestCount      int64       `json:"pull_request_count"`
	DistinctSessionCount  *int64      `json:"distinct_session_count"`
	ArtifactsCreatedCount int64       `json:"artifacts_created_count"`
	LinesOfCode           LinesOfCode `json:"lines_of_code"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ToolActionCounts counts a tool's proposed actions by outcome.
//
//mms:json
type ToolActionCounts struct {
	AcceptedCount int64 `json:"accepted_count"`
	RejectedCount int64 `json:"rejected_count"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CodeToolActions are the coding CLI's editing tools' actions.
//
//mms:json
type CodeToolActions struct {
	EditTool         ToolActionCounts `json:"edit_tool"`
	MultiEditTool    ToolActionCounts `json:"multi_edit_tool"`
	NotebookEditTool ToolActionCounts `json:"notebook_edit_tool"`
	WriteTool        ToolActionCounts `json:"write_tool"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CodeMetrics are a user's coding-CLI counters.
//
//mms:json
type CodeMetrics struct {
	CoreMetrics CodeCoreMetrics `json:"core_metrics"`
	ToolActions CodeToolActions `json:"tool_actions"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CoworkMetrics are a user's cowork (agent session) counters.
//
//mms:json
type CoworkMetrics struct {
	MessageCount                int64  `json:"message_count"`
	ActionCount                 int64  `json:"action_count"`
	DispatchTurnCount           int64  `json:"dispatch_turn_count"`
	DistinctSessionCount        *int64 `json:"distinct_session_count"`
	ArtifactsCreatedCount       int64  `json:"artifacts_created_count"`
	FileEditCount               int64  `json:"file_edit_count"`
	SessionsWithFileEditsCount  int64  `json:"sessions_with_file_edits_count"`
	EditToolCount               int64  `json:"edit_tool_count"`
	MultiEditToolCount          int64  `json:"multi_edit_tool_count"`
	NotebookEditToolCount       int64  `json:"notebook_edit_tool_count"`
	WriteToolCount              int64  `json:"write_tool_count"`
	ConnectorsUsedCount         int64  `json:"connectors_used_count"`
	DistinctConnectorsUsedCount *int64 `json:"distinct_connectors_used_count"`
	PluginsUsedCount            int64  `json:"plugins_used_count"`
	DistinctPluginsUsedCount    *int64 `json:"distinct_plugins_used_count"`
	SkillsUsedCount             int64  `json:"skills_used_count"`
	DistinctSkillsUsedCount     *int64 `json:"distinct_skills_used_count"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// DesignMetrics are a user's design-product counters.
//
//mms:json
type DesignMetrics struct {
	MessageCount                 int64  `json:"message_count"`
	DistinctSessionCount         *int64 `json:"distinct_session_count"`
	DistinctProjectsCreatedCount *int64 `json:"distinct_projects_created_count"`
	DistinctProjectsUsedCount    *int64 `json:"distinct_projects_used_count"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// OfficeAppMetrics are a user's counters in one office application.
//
//mms:json
type OfficeAppMetrics struct {
	MessageCount                int64  `json:"message_count"`
	DistinctSessionCount        *int64 `json:"distinct_session_count"`
	ConnectorsUsedCount         int64  `json:"connectors_used_count"`
	DistinctConnectorsUsedCount *int64 `json:"distinct_connectors_used_count"`
	SkillsUsedCount             int64  `json:"skills_used_count"`
	DistinctSkillsUsedCount     *int64 `json:"distinct_skills_used_count"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// OfficeMetrics are a user's office-agent counters per application.
//
//mms:json
type OfficeMetrics struct {
	Excel      *OfficeAppMetrics `json:"excel,omitzero"`
	Outlook    *OfficeAppMetrics `json:"outlook,omitzero"`
	PowerPoint *OfficeAppMetrics `json:"powerpoint,omitzero"`
	Word       *OfficeAppMetrics `json:"word,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ScienceMetrics are a user's science-product counters.
//
//mms:json
type ScienceMetrics struct {
	MessageCount          int64  `json:"message_count"`
	DistinctSessionCount  *int64 `json:"distinct_session_count"`
	DelegationCount       int64  `json:"delegation_count"`
	RemoteComputeJobCount int64  `json:"remote_compute_job_count"`
	SkillsUsedCount       int64  `json:"skills_used_count"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnifiedMetrics are the unified chat-and-cowork product's counters.
//
//mms:json
type UnifiedMetrics struct {
	Chat     *ChatMetrics   `json:"chat,omitzero"`
	Sessions *CoworkMetrics `json:"sessions,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ClaudeTagMetrics are a user's Slack-integration counters.
//
//mms:json
type ClaudeTagMetrics struct {
	ActiveDayCount     int64 `json:"active_day_count"`
	ActiveMessageCount int64 `json:"active_message_count"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UserActivity is one row of [AnalyticsService.Users].
//
//mms:json
type UserActivity struct {
	// User is the row's user; nil on aggregated (grouped) rows.
	User *ActivityUser `json:"user"`
	// Per-product metrics; nil when not sent.
	ChatMetrics              *ChatMetrics      `json:"chat_metrics,omitzero"`
	ClaudeCodeMetrics        *CodeMetrics      `json:"claude_code_metrics,omitzero"`
	CoworkMetrics            *CoworkMetrics    `json:"cowork_metrics,omitzero"`
	DesignMetrics            *DesignMetrics    `json:"design_metrics,omitzero"`
	OfficeMetrics            *OfficeMetrics    `json:"office_metrics,omitzero"`
	ScienceMetrics           *ScienceMetrics   `json:"science_metrics,omitzero"`
	ChatCoworkUnifiedMetrics *UnifiedMetrics   `json:"chat_cowork_unified_metrics,omitzero"`
	ClaudeTagMetrics         *ClaudeTagMetrics `json:"claude_tag_metrics,omitzero"`
	// WebSearchCount counts web searches.
	WebSearchCount int64 `json:"web_search_count"`
	// DistinctUserCount is set on grouped rows only.
	DistinctUserCount *int64 `json:"distinct_user_count,omitzero"`
	// LastActivityDate is the user's last active day, "YYYY-MM-DD".
	LastActivityDate *string `json:"last_activity_date,omitzero"`
	// RBACGroupID and RBACGroupName are set per group_by.
	RBACGroupID   *string `json:"rbac_group_id,omitzero"`
	RBACGroupName *string `json:"rbac_group_name,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ProjectActivity is one row of [AnalyticsService.ChatProjects].
//
//mms:json
type ProjectActivity struct {
	// ProjectID is the project's id (claude_proj_…); ProjectName its name.
	ProjectID   string `json:"project_id"`
	ProjectName string `json:"project_name"`
	// CreatedAt and CreatedBy describe the project's creation when known.
	CreatedAt *time.Time    `json:"created_at,omitzero"`
	CreatedBy *ActivityUser `json:"created_by,omitzero"`
	// The counters.
	MessageCount              int64  `json:"message_count"`
	DistinctUserCount         *int64 `json:"distinct_user_count"`
	DistinctConversationCount *int64 `json:"distinct_conversation_count,omitzero"`
	// RBACGroupID, RBACGroupName and UserID are set per group_by.
	RBACGroupID   *string `json:"rbac_group_id,omitzero"`
	RBACGroupName *string `json:"rbac_group_name,omitzero"`
	UserID        *string `json:"user_id,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ConversationUse counts distinct conversations that used the row's
// connector or skill (whichever member the service sends is set).
//
//mms:json
type ConversationUse struct {
	DistinctConversationConnectorUsedCount *int64 `json:"distinct_conversation_connector_used_count,omitzero"`
	DistinctConversationSkillUsedCount     *int64 `json:"distinct_conversation_skill_used_count,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SessionUse counts distinct sessions that used the row's connector,
// plugin or skill (whichever member the service sends is set).
//
//mms:json
type SessionUse struct {
	DistinctSessionConnectorUsedCount *int64 `json:"distinct_session_connector_used_count,omitzero"`
	DistinctSessionPluginUsedCount    *int64 `json:"distinct_session_plugin_used_count,omitzero"`
	DistinctSessionSkillUsedCount     *int64 `json:"distinct_session_skill_used_count,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// OfficeUse is [SessionUse] per office application.
//
//mms:json
type OfficeUse struct {
	Excel      *SessionUse `json:"excel,omitzero"`
	Outlook    *SessionUse `json:"outlook,omitzero"`
	PowerPoint *SessionUse `json:"powerpoint,omitzero"`
	Word       *SessionUse `json:"word,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnifiedUse is the unified chat-and-cowork product's use counts.
//
//mms:json
type UnifiedUse struct {
	Chat     *ConversationUse `json:"chat,omitzero"`
	Sessions *SessionUse      `json:"sessions,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ConnectorActivity is one row of [AnalyticsService.Connectors].
//
//mms:json
type ConnectorActivity struct {
	// ConnectorName is normalized (it may be an opaque id);
	// ConnectorDisplayName is for people.
	ConnectorName        string `json:"connector_name"`
	ConnectorDisplayName string `json:"connector_display_name"`
	// The user counts; nil where not computable.
	DistinctUserCount               *int64 `json:"distinct_user_count"`
	IndividualAuthDistinctUserCount *int64 `json:"individual_auth_distinct_user_count"`
	ManagedAuthDistinctUserCount    *int64 `json:"managed_auth_distinct_user_count"`
	// The call counts.
	ReadCallCount         int64 `json:"read_call_count"`
	WriteCallCount        int64 `json:"write_call_count"`
	UnclassifiedCallCount int64 `json:"unclassified_call_count"`
	// Per-product use.
	ChatMetrics              *ConversationUse `json:"chat_metrics,omitzero"`
	ClaudeCodeMetrics        *SessionUse      `json:"claude_code_metrics,omitzero"`
	CoworkMetrics            *SessionUse      `json:"cowork_metrics,omitzero"`
	OfficeMetrics            *OfficeUse       `json:"office_metrics,omitzero"`
	ChatCoworkUnifiedMetrics *UnifiedUse      `json:"chat_cowork_unified_metrics,omitzero"`
	// Product, RBACGroupID, RBACGroupName and UserID are set per group_by.
	Product       *string `json:"product,omitzero"`
	RBACGroupID   *string `json:"rbac_group_id,omitzero"`
	RBACGroupName *string `json:"rbac_group_name,omitzero"`
	UserID        *string `json:"user_id,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// PluginActivity is one row of [AnalyticsService.Plugins].
//
//mms:json
type PluginActivity struct {
	// PluginName is the plugin's name ("third-party": the aggregate of
	// unnamed plugins); PluginID is nil for redacted third-party ids.
	PluginName string  `json:"plugin_name"`
	PluginID   *string `json:"plugin_id,omitzero"`
	// The counters.
	InstallCount      int64  `json:"install_count"`
	InvocationCount   int64  `json:"invocation_count"`
	DistinctUserCount *int64 `json:"distinct_user_count"`
	// Per-product use.
	ClaudeCodeMetrics        *SessionUse `json:"claude_code_metrics,omitzero"`
	CoworkMetrics            *SessionUse `json:"cowork_metrics,omitzero"`
	ChatCoworkUnifiedMetrics *SessionUse `json:"chat_cowork_unified_metrics,omitzero"`
	// Product, RBACGroupID, RBACGroupName and UserID are set per group_by.
	Product       *string `json:"product,omitzero"`
	RBACGroupID   *string `json:"rbac_group_id,omitzero"`
	RBACGroupName *string `json:"rbac_group_name,omitzero"`
	UserID        *string `json:"user_id,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// SkillActivity is one row of [AnalyticsService.Skills].
//
//mms:json
type SkillActivity struct {
	// SkillName and SkillDisplayName name the skill.
	SkillName        string `json:"skill_name"`
	SkillDisplayName string `json:"skill_display_name"`
	// ShareStatus is "private", "organization" or "public"; nil for
	// coding-CLI or office-only skills.
	ShareStatus *string `json:"share_status"`
	// The counters.
	EnableCount       int64  `json:"enable_count"`
	InvocationCount   int64  `json:"invocation_count"`
	DistinctUserCount *int64 `json:"distinct_user_count"`
	// AttributedListPrice and EstimatedOverageSpend are exact decimals in
	// Currency ("" when null).
	AttributedListPrice   Decimal `json:"attributed_list_price"`
	EstimatedOverageSpend Decimal `json:"estimated_overage_spend"`
	Currency              string  `json:"currency"`
	// Per-product use.
	ChatMetrics              *ConversationUse `json:"chat_metrics,omitzero"`
	ClaudeCodeMetrics        *SessionUse      `json:"claude_code_metrics,omitzero"`
	CoworkMetrics            *SessionUse      `json:"cowork_metrics,omitzero"`
	OfficeMetrics            *OfficeUse       `json:"office_metrics,omitzero"`
	ChatCoworkUnifiedMetrics *UnifiedUse      `json:"chat_cowork_unified_metrics,omitzero"`
	// Product, RBACGroupID, RBACGroupName and UserID are set per group_by.
	Product       *string `json:"product,omitzero"`
	RBACGroupID   *string `json:"rbac_group_id,omitzero"`
	RBACGroupName *string `json:"rbac_group_name,omitzero"`
	UserID        *string `json:"user_id,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ArtifactActivity is one row of [AnalyticsService.Artifacts].
//
//mms:json
type ArtifactActivity struct {
	// ArtifactType is a canonical MIME type or "other".
	ArtifactType string `json:"artifact_type"`
	// IsShared reports whether the artifacts were shared.
	IsShared bool `json:"is_shared"`
	// The counters.
	ArtifactsCreatedCount          int64  `json:"artifacts_created_count"`
	PublishedArtifactsCreatedCount int64  `json:"published_artifacts_created_count"`
	DistinctUserCount              *int64 `json:"distinct_user_count"`
	// Product, RBACGroupID, RBACGroupName and UserID are set per group_by.
	Product       *string `json:"product,omitzero"`
	RBACGroupID   *string `json:"rbac_group_id,omitzero"`
	RBACGroupName *string `json:"rbac_group_name,omitzero"`
	UserID        *string `json:"user_id,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}
