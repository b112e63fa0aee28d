package admin

import (
	"context"
	"encoding/json"
	"iter"
	"slices"
	"strconv"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// ReportsService reads the usage and cost reports
// (/v1/organizations/analytics/usage, /cost; beta
// analytics-usage-cost-2026-08-24, sent by the SDK; a read:analytics API
// key or an admin key). Rows come in time buckets, one per group_by
// combination; the lists page on their own (the report cursor: next_page
// while has_more), one page in memory at a time. It also reads the legacy
// reports (usage_report, user_usage_report, cost_report, user_cost_report;
// no beta), and each report one page at a time (…Page methods, a
// [ReportPage] with the page's data_refreshed_at).
type ReportsService struct{ c *Client }

// The time bucket widths.
const (
	BucketMinute = "1m"
	BucketHour   = "1h"
	BucketDay    = "1d"
)

// The report dimensions: group_by values and ReportGroup members.
const (
	DimActor             = "actor"
	DimActorType         = "actor_type"
	DimAgentID           = "agent_id"
	DimAPIKeyID          = "api_key_id"
	DimClaudeTagCategory = "claude_tag_category"
	DimClaudeTagUserID   = "claude_tag_user_id"
	DimContextWindow     = "context_window"
	DimDeploymentID      = "deployment_id"
	DimEnvironmentID     = "environment_id"
	DimInferenceGeo      = "inference_geo"
	DimModel             = "model"
	DimOrganizationID    = "organization_id"
	DimProduct           = "product"
	DimRBACGroupID       = "rbac_group_id"
	DimServiceTier       = "service_tier"
	DimSessionID         = "session_id"
	DimSlackChannelID    = "slack_channel_id"
	DimSpeed             = "speed"
	DimUserProfileID     = "user_profile_id"
	DimWorkspaceID       = "workspace_id"
	// Cost reports only.
	DimCostType  = "cost_type"
	DimTokenType = "token_type"
)

var usageDims = []string{DimActor, DimActorType, DimAgentID, DimAPIKeyID, DimClaudeTagCategory, DimClaudeTagUserID, DimContextWindow,
	DimDeploymentID, DimEnvironmentID, DimInferenceGeo, DimModel, DimOrganizationID, DimProduct, DimRBACGroupID, DimServiceTier,
	DimSessionID, DimSlackChannelID, DimSpeed, DimUserProfileID, DimWorkspaceID}

var costDims = append(slices.Clone(usageDims), DimCostType, DimTokenType)

// reportFilters are the filter query parameters (each key[]) and, where
// the spec lists them, their values (nil: any).
var reportFilters = map[string][]string{
	"actor_ids": nil, "actor_types": {"user_actor", "service_account_actor", "federated_actor", "api_actor"},
	"agent_ids": nil, "api_key_ids": nil,
	"claude_tag_categories": {"dm", "engaged", "monitoring", "proactive", "scheduled"}, "claude_tag_user_ids": nil,
	"context_windows": {"0-200k", "200k-1M"}, "deployment_ids": nil, "environment_ids": nil,
	"inference_geos": {"global", "us", "not_available"}, "models": nil, "organization_ids": nil,
	"products": {"messages_api", "message_batches_api", "managed_agents_api", "claude_console", "chat", "chat_cowork_unified",
		"claude_code", "claude_design", "claude_in_chrome", "claude_tag", "cowork", "office_agent"},
	"rbac_group_ids": nil, "service_tiers": {"standard", "priority", "priority_on_demand", "batch", "flex", "flex_discount"},
	"session_ids": nil, "slack_channel_ids": nil, "speeds": nil, "user_profile_ids": nil, "workspace_ids": nil,
}

// ReportParams are the parameters of [ReportsService.Usage] and
// [ReportsService.Cost].
type ReportParams struct {
	// StartingAt is the range's start. Required.
	StartingAt time.Time
	// EndingAt is its end; zero leaves it to the service (now).
	EndingAt time.Time
	// BucketWidth is BucketMinute, BucketHour or BucketDay; "" gives one
	// bucket over the range.
	BucketWidth string
	// GroupBy are the dimensions of each row (Dim… constants).
	GroupBy []string
	// Order is "asc" or "desc"; OrderBy ranks rows (usage: requests,
	// uncached_input_tokens, output_tokens, total_tokens, time).
	Order, OrderBy string
	// Limit is the page size, 1–1000; 0 leaves it to the service.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// ExcludeDeletedUsers leaves out members who left.
	ExcludeDeletedUsers bool
	// Filters keep rows whose dimension is among the values, keyed by the
	// query name without "[]": "workspace_ids", "models", "api_key_ids",
	// "products", "service_tiers", … (organization.md §19.2).
	Filters map[string][]string
}

func (p ReportParams) validate(dims []string, orderBy []string) error {
	if p.StartingAt.IsZero() {
		return invalid("starting_at", "is required")
	}
	if !p.EndingAt.IsZero() && !p.EndingAt.After(p.StartingAt) {
		return invalid("ending_at", "must be after starting_at")
	}
	if err := oneOf("time_bucket_width", p.BucketWidth, BucketMinute, BucketHour, BucketDay); err != nil {
		return err
	}
	if err := eachOneOf("group_by", p.GroupBy, dims...); err != nil {
		return err
	}
	if err := oneOf("order", p.Order, "asc", "desc"); err != nil {
		return err
	}
	if err := oneOf("order_by", p.OrderBy, orderBy...); err != nil {
		return err
	}
	for _, k := range sortedKeys(p.Filters) {
		allowed, ok := reportFilters[k]
		if !ok {
			return invalid("filters."+k, "is not a report filter")
		}
		for i, v := range p.Filters[k] {
			f := k + "[" + itoa(i) + "]"
			if v == "" {
				return invalid(f, "must not be empty")
			}
			if allowed != nil && !contains(allowed, v) {
				return invalid(f, "must be one of %q, got %q", allowed, v)
			}
		}
	}
	return validateLimit(p.Limit, 1000)
}

func (p ReportParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	a.query.Set("starting_at", p.StartingAt.UTC().Format(time.RFC3339))
	if !p.EndingAt.IsZero() {
		a.query.Set("ending_at", p.EndingAt.UTC().Format(time.RFC3339))
	}
	setString(a.query, "time_bucket_width", p.BucketWidth)
	addArray(a.query, "group_by", p.GroupBy)
	setString(a.query, "order", p.Order)
	setString(a.query, "order_by", p.OrderBy)
	setBool(a.query, "exclude_deleted_users", p.ExcludeDeletedUsers)
	for _, k := range sortedKeys(p.Filters) {
		addArray(a.query, k, p.Filters[k])
	}
	return a
}

// Validate reports the rules both reports share: no StartingAt, EndingAt
// not after it, an unknown bucket width, dimension, order or filter (or
// filter value), Limit outside 1–1000. Usage also refuses the cost-only
// dimensions and checks OrderBy.
func (p ReportParams) Validate() error { return p.validate(costDims, nil) }

// usageParams and costParams are the listParams of each report.
type usageParams struct{ ReportParams }
type costParams struct{ ReportParams }

var usageOrderBy = []string{"requests", "uncached_input_tokens", "output_tokens", "total_tokens", "time"}

func (p usageParams) Validate() error { return p.validate(usageDims, usageOrderBy) }
func (p costParams) Validate() error  { return p.validate(costDims, nil) }

// ReportGroup is the dimensions of a report row: each set when the
// report was grouped by it (nil otherwise, or when not applicable).
//
//mms:json
type ReportGroup struct {
	// Actor is who made the requests, as the service describes it.
	Actor             json.RawMessage `json:"actor,omitzero"`
	ActorType         *string         `json:"actor_type,omitzero"`
	AgentID           *string         `json:"agent_id,omitzero"`
	APIKeyID          *string         `json:"api_key_id,omitzero"`
	ClaudeTagCategory *string         `json:"claude_tag_category,omitzero"`
	ClaudeTagUserID   *string         `json:"claude_tag_user_id,omitzero"`
	ContextWindow     *string         `json:"context_window,omitzero"`
	DeploymentID      *string         `json:"deployment_id,omitzero"`
	EnvironmentID     *string         `json:"environment_id,omitzero"`
	InferenceGeo      *string         `json:"inference_geo,omitzero"`
	Model             *string         `json:"model,omitzero"`
	OrganizationID    *string         `json:"organization_id,omitzero"`
	Product           *string         `json:"product,omitzero"`
	RBACGroupID       *string         `json:"rbac_group_id,omitzero"`
	ServiceTier       *string         `json:"service_tier,omitzero"`
	SessionID         *string         `json:"session_id,omitzero"`
	SlackChannelID    *string         `json:"slack_channel_id,omitzero"`
	Speed             *string         `json:"speed,omitzero"`
	UserProfileID     *string         `json:"user_profile_id,omitzero"`
	WorkspaceID       *string         `json:"workspace_id,omitzero"`
	// CostType and TokenType are set in cost reports only.
	CostType  *string `json:"cost_type,omitzero"`
	TokenType *string `json:"token_type,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Value returns the dimension's value as text ("" when unset; the actor
// as its compact JSON).
func (g ReportGroup) Value(dim string) string {
	if dim == DimActor {
		return string(g.Actor)
	}
	var p *string
	switch dim {
	case DimActorType:
		p = g.ActorType
	case DimAgentID:
		p = g.AgentID
	case DimAPIKeyID:
		p = g.APIKeyID
	case DimClaudeTagCategory:
		p = g.ClaudeTagCategory
	case DimClaudeTagUserID:
		p = g.ClaudeTagUserID
	case DimContextWindow:
		p = g.ContextWindow
	case DimDeploymentID:
		p = g.DeploymentID
	case DimEnvironmentID:
		p = g.EnvironmentID
	case DimInferenceGeo:
		p = g.InferenceGeo
	case DimModel:
		p = g.Model
	case DimOrganizationID:
		p = g.OrganizationID
	case DimProduct:
		p = g.Product
	case DimRBACGroupID:
		p = g.RBACGroupID
	case DimServiceTier:
		p = g.ServiceTier
	case DimSessionID:
		p = g.SessionID
	case DimSlackChannelID:
		p = g.SlackChannelID
	case DimSpeed:
		p = g.Speed
	case DimUserProfileID:
		p = g.UserProfileID
	case DimWorkspaceID:
		p = g.WorkspaceID
	case DimCostType:
		p = g.CostType
	case DimTokenType:
		p = g.TokenType
	}
	if p == nil {
		return ""
	}
	return *p
}

// CacheCreation counts cache-write input tokens by lifetime.
//
//mms:json
type CacheCreation struct {
	Ephemeral5mInputTokens int64 `json:"ephemeral_5m_input_tokens"`
	Ephemeral1hInputTokens int64 `json:"ephemeral_1h_input_tokens"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ServerToolUse counts server tool requests.
//
//mms:json
type ServerToolUse struct {
	WebSearchRequests int64 `json:"web_search_requests"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ReportUsage is a row's usage.
//
//mms:json
type ReportUsage struct {
	Requests             int64         `json:"requests"`
	UncachedInputTokens  int64         `json:"uncached_input_tokens"`
	CacheReadInputTokens int64         `json:"cache_read_input_tokens"`
	CacheCreation        CacheCreation `json:"cache_creation"`
	OutputTokens         int64         `json:"output_tokens"`
	TotalTokens          int64         `json:"total_tokens"`
	ServerToolUse        ServerToolUse `json:"server_tool_use"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UsageRow is one row of the usage report: a time bucket of one group.
//
//mms:json
type UsageRow struct {
	// StartingAt and EndingAt bound the bucket.
	StartingAt time.Time `json:"starting_at"`
	EndingAt   time.Time `json:"ending_at"`
	// Group is the row's dimensions.
	Group ReportGroup `json:"group"`
	// Usage is the row's usage.
	Usage ReportUsage `json:"usage"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ReportCost is a row's cost: exact decimals, never float64.
//
//mms:json
type ReportCost struct {
	// Amount is what was charged; ListAmount at list price.
	Amount     Decimal `json:"amount"`
	ListAmount Decimal `json:"list_amount"`
	// Currency is the ISO 4217 code.
	Currency string `json:"currency"`
	// Requests is the number of requests.
	Requests int64 `json:"requests"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CostRow is one row of the cost report.
//
//mms:json
type CostRow struct {
	// StartingAt and EndingAt bound the bucket.
	StartingAt time.Time `json:"starting_at"`
	EndingAt   time.Time `json:"ending_at"`
	// Group is the row's dimensions (cost adds cost_type and token_type).
	Group ReportGroup `json:"group"`
	// Cost is the row's cost.
	Cost ReportCost `json:"cost"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Usage iterates over the usage report's rows (GET
// /v1/organizations/analytics/usage), paging as it goes.
func (s *ReportsService) Usage(ctx context.Context, p ReportParams, opts ...option.RequestOption) iter.Seq2[UsageRow, error] {
	return ep[UsageRow](s.c, adminbridge.AnyKey, "/analytics/usage").beta(wire.BetaAnalyticsUsageCost).list(ctx, adminbridge.Cursor, usageParams{p}, opts)
}

// Cost iterates over the cost report's rows (GET
// /v1/organizations/analytics/cost), ranked by spend, paging as it goes.
func (s *ReportsService) Cost(ctx context.Context, p ReportParams, opts ...option.RequestOption) iter.Seq2[CostRow, error] {
	return ep[CostRow](s.c, adminbridge.AnyKey, "/analytics/cost").beta(wire.BetaAnalyticsUsageCost).list(ctx, adminbridge.Cursor, costParams{p}, opts)
}

// UsageColumns are the CSV columns of usage rows grouped by groupBy:
// starting_at, ending_at, the dimensions, then the counters.
func UsageColumns(groupBy []string) []string {
	return slices.Concat([]string{"starting_at", "ending_at"}, groupBy, []string{"requests", "uncached_input_tokens", "cache_read_input_tokens",
		"cache_creation_5m_input_tokens", "cache_creation_1h_input_tokens", "output_tokens", "total_tokens", "web_search_requests"})
}

// Values is the row as UsageColumns(groupBy) lays it out.
func (r UsageRow) Values(groupBy []string) []string {
	out := make([]string, 0, 10+len(groupBy))
	out = append(out, r.StartingAt.UTC().Format(time.RFC3339), r.EndingAt.UTC().Format(time.RFC3339))
	for _, d := range groupBy {
		out = append(out, r.Group.Value(d))
	}
	u := r.Usage
	for _, n := range []int64{u.Requests, u.UncachedInputTokens, u.CacheReadInputTokens, u.CacheCreation.Ephemeral5mInputTokens,
		u.CacheCreation.Ephemeral1hInputTokens, u.OutputTokens, u.TotalTokens, u.ServerToolUse.WebSearchRequests} {
		out = append(out, strconv.FormatInt(n, 10))
	}
	return out
}

// CostColumns are the CSV columns of cost rows grouped by groupBy.
func CostColumns(groupBy []string) []string {
	return slices.Concat([]string{"starting_at", "ending_at"}, groupBy, []string{"amount", "list_amount", "currency", "requests"})
}

// Values is the row as CostColumns(groupBy) lays it out; amounts are
// written exactly as the service sent them.
func (r CostRow) Values(groupBy []string) []string {
	out := make([]string, 0, 6+len(groupBy))
	out = append(out, r.StartingAt.UTC().Format(time.RFC3339), r.EndingAt.UTC().Format(time.RFC3339))
	for _, d := range groupBy {
		out = append(out, r.Group.Value(d))
	}
	return append(out, string(r.Cost.Amount), string(r.Cost.ListAmount), r.Cost.Currency, strconv.FormatInt(r.Cost.Requests, 10))
}

// Flatten turns a report's rows into records laid out as the matching
// Columns (e.g. for encoding/csv), one row in memory at a time; an error
// is yielded once, last.
func Flatten[R interface {
	Values(groupBy []string) []string
}](rows iter.Seq2[R, error], groupBy []string) iter.Seq2[[]string, error] {
	return func(yield func([]string, error) bool) {
		for r, err := range rows {
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(r.Values(groupBy), nil) {
				return
			}
		}
	}
}
