package admin_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/admin"
)

// row decodes a JSON object into a map for seeding the fake.
func row(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(s), &m))
	return m
}

// The analytics lists answer the typed records of organization.md §14.3,
// nested metrics included; what the SDK does not model stays in Extra.
func TestAnalyticsTypedRows(t *testing.T) {
	s, c := fake(t)
	day := admin.AnalyticsParams{Date: "2026-03-01"}
	s.Org().AddAnalyticsRows("users", row(t, `{"user":{"type":"user","id":"user_1","email_address":"a@example.com"},
		"chat_metrics":{"message_count":5,"thinking_message_count":1,"distinct_conversation_count":2,"distinct_skills_used_count":null},
		"claude_code_metrics":{"core_metrics":{"commit_count":3,"pull_request_count":1,"distinct_session_count":4,"artifacts_created_count":0,"lines_of_code":{"added_count":120,"removed_count":7}},
			"tool_actions":{"edit_tool":{"accepted_count":9,"rejected_count":2},"multi_edit_tool":{"accepted_count":0,"rejected_count":0},"notebook_edit_tool":{"accepted_count":0,"rejected_count":0},"write_tool":{"accepted_count":1,"rejected_count":0}}},
		"cowork_metrics":{"message_count":2,"action_count":6,"distinct_plugins_used_count":1},
		"office_metrics":{"excel":{"message_count":4,"distinct_session_count":1}},
		"science_metrics":{"message_count":1,"delegation_count":2,"remote_compute_job_count":3},
		"chat_cowork_unified_metrics":{"chat":{"message_count":8},"sessions":{"action_count":3}},
		"claude_tag_metrics":{"active_day_count":2,"active_message_count":11},
		"web_search_count":6,"last_activity_date":"2026-03-01","new_metrics":{"x":1}}`))
	users := collect(t, c.Analytics.Users(ctx, day))
	require.Len(t, users, 1)
	u := users[0]
	assert.Equal(t, "a@example.com", u.User.EmailAddress)
	assert.Equal(t, int64(5), u.ChatMetrics.MessageCount)
	assert.Equal(t, int64(2), *u.ChatMetrics.DistinctConversationCount)
	assert.Nil(t, u.ChatMetrics.DistinctSkillsUsedCount, "null stays nil")
	assert.Equal(t, int64(120), u.ClaudeCodeMetrics.CoreMetrics.LinesOfCode.AddedCount)
	assert.Equal(t, int64(9), u.ClaudeCodeMetrics.ToolActions.EditTool.AcceptedCount)
	assert.Equal(t, int64(6), u.CoworkMetrics.ActionCount)
	assert.Equal(t, int64(4), u.OfficeMetrics.Excel.MessageCount)
	assert.Nil(t, u.OfficeMetrics.Word)
	assert.Equal(t, int64(3), u.ScienceMetrics.RemoteComputeJobCount)
	assert.Equal(t, int64(8), u.ChatCoworkUnifiedMetrics.Chat.MessageCount)
	assert.Equal(t, int64(11), u.ClaudeTagMetrics.ActiveMessageCount)
	assert.Nil(t, u.DesignMetrics)
	assert.Equal(t, int64(6), u.WebSearchCount)
	assert.Equal(t, "2026-03-01", *u.LastActivityDate)
	assert.JSONEq(t, `{"x":1}`, string(u.Extra["new_metrics"]), "unknown members kept")
	back, err := json.Marshal(u)
	require.NoError(t, err)
	assert.Contains(t, string(back), `"new_metrics":{"x":1}`)

	s.Org().AddAnalyticsRows("apps/chat/projects", row(t, `{"project_id":"claude_proj_1","project_name":"Q1","created_at":"2026-02-01T10:00:00Z",
		"created_by":{"type":"user","id":"user_1","email_address":"a@example.com"},"message_count":40,"distinct_user_count":3,"distinct_conversation_count":null}`))
	projects := collect(t, c.Analytics.ChatProjects(ctx, day))
	require.Len(t, projects, 1)
	assert.Equal(t, "claude_proj_1", projects[0].ProjectID)
	assert.Equal(t, "user_1", projects[0].CreatedBy.ID)
	assert.Equal(t, int64(40), projects[0].MessageCount)
	assert.Nil(t, projects[0].DistinctConversationCount)

	s.Org().AddAnalyticsRows("connectors", row(t, `{"connector_name":"drive","connector_display_name":"Drive","distinct_user_count":4,
		"individual_auth_distinct_user_count":3,"managed_auth_distinct_user_count":1,"read_call_count":10,"write_call_count":2,"unclassified_call_count":0,
		"chat_metrics":{"distinct_conversation_connector_used_count":5},"cowork_metrics":{"distinct_session_connector_used_count":2},
		"office_metrics":{"word":{"distinct_session_connector_used_count":1}},"chat_cowork_unified_metrics":{"chat":{"distinct_conversation_connector_used_count":1},"sessions":{"distinct_session_connector_used_count":1}},"product":"chat"}`))
	conns := collect(t, c.Analytics.Connectors(ctx, day))
	require.Len(t, conns, 1)
	assert.Equal(t, int64(10), conns[0].ReadCallCount)
	assert.Equal(t, int64(5), *conns[0].ChatMetrics.DistinctConversationConnectorUsedCount)
	assert.Equal(t, int64(1), *conns[0].OfficeMetrics.Word.DistinctSessionConnectorUsedCount)
	assert.Equal(t, int64(1), *conns[0].ChatCoworkUnifiedMetrics.Sessions.DistinctSessionConnectorUsedCount)
	assert.Equal(t, "chat", *conns[0].Product)

	s.Org().AddAnalyticsRows("plugins", row(t, `{"plugin_name":"third-party","plugin_id":null,"install_count":2,"invocation_count":9,"distinct_user_count":2,
		"claude_code_metrics":{"distinct_session_plugin_used_count":3}}`))
	plugins := collect(t, c.Analytics.Plugins(ctx, day))
	require.Len(t, plugins, 1)
	assert.Nil(t, plugins[0].PluginID)
	assert.Equal(t, int64(9), plugins[0].InvocationCount)
	assert.Equal(t, int64(3), *plugins[0].ClaudeCodeMetrics.DistinctSessionPluginUsedCount)

	s.Org().AddAnalyticsRows("skills", row(t, `{"skill_name":"pdf","skill_display_name":"PDF","share_status":"organization","enable_count":5,"invocation_count":12,
		"distinct_user_count":3,"attributed_list_price":"1.230","estimated_overage_spend":0.30000000000000004,"currency":"USD",
		"chat_metrics":{"distinct_conversation_skill_used_count":4}}`))
	skills := collect(t, c.Analytics.Skills(ctx, day))
	require.Len(t, skills, 1)
	assert.Equal(t, admin.Decimal("1.230"), skills[0].AttributedListPrice)
	assert.Equal(t, admin.Decimal("0.30000000000000004"), skills[0].EstimatedOverageSpend, "amounts are exact, never float64")
	assert.Equal(t, "organization", *skills[0].ShareStatus)
	assert.Equal(t, int64(4), *skills[0].ChatMetrics.DistinctConversationSkillUsedCount)

	s.Org().AddAnalyticsRows("artifacts", row(t, `{"artifact_type":"text/html","is_shared":true,"artifacts_created_count":7,"published_artifacts_created_count":2,"distinct_user_count":null}`))
	arts := collect(t, c.Analytics.Artifacts(ctx, day))
	require.Len(t, arts, 1)
	assert.True(t, arts[0].IsShared)
	assert.Equal(t, int64(2), arts[0].PublishedArtifactsCreatedCount)
	assert.Nil(t, arts[0].DistinctUserCount)

	s.Org().AddAnalyticsRows("summaries", row(t, `{"starting_at":"2026-03-01T00:00:00Z","ending_at":"2026-03-02T00:00:00Z","daily_active_user_count":1,
		"cowork_daily_active_user_count":4,"cowork_weekly_active_user_count":5,"cowork_monthly_active_user_count":6,"science_entitled_user_count":2}`))
	sum := collect(t, c.Analytics.Summaries(ctx, admin.AnalyticsParams{StartingDate: "2026-03-01", EndingDate: "2026-03-02"}))
	require.Len(t, sum, 1)
	assert.Equal(t, 6, sum[0].CoworkMonthlyActiveUserCount)
	assert.JSONEq(t, `2`, string(sum[0].Extra["science_entitled_user_count"]))
}
