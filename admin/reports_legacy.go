package admin

import (
	"context"
	"encoding/json"
	"iter"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// The legacy reports (organization.md §19.2, no beta): usage_report and
// cost_report in time buckets of bucket_width, user_usage_report and
// user_cost_report in rows per user over the range. They take
// [ReportParams]; the bucket reports send BucketWidth as bucket_width, the
// per-user reports refuse it.

// legacyParams are the listParams of one legacy report.
type legacyParams struct {
	ReportParams
	dims, orderBy []string
	buckets       bool // usage_report, cost_report: bucket_width accepted
}

func (p legacyParams) Validate() error {
	if !p.buckets && p.BucketWidth != "" {
		return invalid("bucket_width", "is not accepted by the per-user reports")
	}
	if err := oneOf("bucket_width", p.BucketWidth, BucketMinute, BucketHour, BucketDay); err != nil {
		return err // named as sent, before validate names it time_bucket_width
	}
	return p.validate(p.dims, p.orderBy)
}

func (p legacyParams) listArgs() listArgs {
	a := p.ReportParams.listArgs()
	if w := a.query.Get("time_bucket_width"); w != "" {
		a.query.Del("time_bucket_width")
		a.query.Set("bucket_width", w)
	}
	return a
}

// LegacyUsageRow is one result of a usage report bucket, or one row of
// the per-user usage report (ranked). The dimension members are set per
// group_by (nil otherwise).
//
//mms:json
type LegacyUsageRow struct {
	// StartingAt and EndingAt bound the row's range: set on per-user rows,
	// zero in a bucket's results (the bucket bounds them).
	StartingAt time.Time `json:"starting_at,omitzero"`
	EndingAt   time.Time `json:"ending_at,omitzero"`
	// Actor is who made the requests, as the service describes it.
	Actor json.RawMessage `json:"actor,omitzero"`
	// The counters.
	Requests             int64         `json:"requests"`
	UncachedInputTokens  int64         `json:"uncached_input_tokens"`
	CacheReadInputTokens int64         `json:"cache_read_input_tokens"`
	CacheCreation        CacheCreation `json:"cache_creation"`
	OutputTokens         int64         `json:"output_tokens"`
	TotalTokens          int64         `json:"total_tokens"`
	ServerToolUse        ServerToolUse `json:"server_tool_use"`
	// The dimensions.
	Model             *string `json:"model,omitzero"`
	Product           *string `json:"product,omitzero"`
	Speed             *string `json:"speed,omitzero"`
	ContextWindow     *string `json:"context_window,omitzero"`
	InferenceGeo      *string `json:"inference_geo,omitzero"`
	RBACGroupID       *string `json:"rbac_group_id,omitzero"`
	SlackChannelID    *string `json:"slack_channel_id,omitzero"`
	ClaudeTagCategory *string `json:"claude_tag_category,omitzero"`
	ClaudeTagUserID   *string `json:"claude_tag_user_id,omitzero"`
	// Extra keeps what this SDK version does not model (other dimensions
	// such as workspace_id); see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// LegacyCostRow is one result of a cost report bucket, or one row of the
// per-user cost report: amounts are exact decimals, never float64.
//
//mms:json
type LegacyCostRow struct {
	// StartingAt and EndingAt bound the row's range: set on per-user rows,
	// zero in a bucket's results.
	StartingAt time.Time `json:"starting_at,omitzero"`
	EndingAt   time.Time `json:"ending_at,omitzero"`
	// Actor is who made the requests, as the service describes it.
	Actor json.RawMessage `json:"actor,omitzero"`
	// Amount is what was charged; ListAmount at list price.
	Amount     Decimal `json:"amount"`
	ListAmount Decimal `json:"list_amount"`
	// Currency is the ISO 4217 code.
	Currency string `json:"currency"`
	// Requests is the number of requests.
	Requests int64 `json:"requests"`
	// CostType (tokens, web_search, code_execution, session_usage) and
	// TokenType are set when grouped by them.
	CostType  *string `json:"cost_type,omitzero"`
	TokenType *string `json:"token_type,omitzero"`
	// The dimensions.
	Model             *string `json:"model,omitzero"`
	Product           *string `json:"product,omitzero"`
	Speed             *string `json:"speed,omitzero"`
	ContextWindow     *string `json:"context_window,omitzero"`
	InferenceGeo      *string `json:"inference_geo,omitzero"`
	RBACGroupID       *string `json:"rbac_group_id,omitzero"`
	SlackChannelID    *string `json:"slack_channel_id,omitzero"`
	ClaudeTagCategory *string `json:"claude_tag_category,omitzero"`
	ClaudeTagUserID   *string `json:"claude_tag_user_id,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UsageBucket is one time bucket of the usage report.
//
//mms:json
type UsageBucket struct {
	// StartingAt and EndingAt bound the bucket.
	StartingAt time.Time `json:"starting_at"`
	EndingAt   time.Time `json:"ending_at"`
	// Results are the bucket's rows, one per group_by combination.
	Results []LegacyUsageRow `json:"results"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CostBucket is one time bucket of the cost report.
//
//mms:json
type CostBucket struct {
	// StartingAt and EndingAt bound the bucket.
	StartingAt time.Time `json:"starting_at"`
	EndingAt   time.Time `json:"ending_at"`
	// Results are the bucket's rows, one per group_by combination.
	Results []LegacyCostRow `json:"results"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

var (
	usageReportEP = func(c *Client) endpoint[UsageBucket] {
		return ep[UsageBucket](c, adminbridge.AnyKey, "/analytics/usage_report")
	}
	costReportEP = func(c *Client) endpoint[CostBucket] {
		return ep[CostBucket](c, adminbridge.AnyKey, "/analytics/cost_report")
	}
	userUsageReportEP = func(c *Client) endpoint[LegacyUsageRow] {
		return ep[LegacyUsageRow](c, adminbridge.AnyKey, "/analytics/user_usage_report")
	}
	userCostReportEP = func(c *Client) endpoint[LegacyCostRow] {
		return ep[LegacyCostRow](c, adminbridge.AnyKey, "/analytics/user_cost_report")
	}
)

func usageReportParams(p ReportParams) legacyParams {
	return legacyParams{ReportParams: p, dims: usageDims, orderBy: usageOrderBy, buckets: true}
}
func costReportParams(p ReportParams) legacyParams {
	return legacyParams{ReportParams: p, dims: costDims, buckets: true}
}
func userUsageReportParams(p ReportParams) legacyParams {
	return legacyParams{ReportParams: p, dims: usageDims, orderBy: usageOrderBy}
}
func userCostReportParams(p ReportParams) legacyParams {
	return legacyParams{ReportParams: p, dims: costDims}
}

// UsageReport iterates over the legacy usage report's time buckets (GET
// /v1/organizations/analytics/usage_report; no beta; Enterprise), paging
// as it goes. BucketWidth is sent as bucket_width.
func (s *ReportsService) UsageReport(ctx context.Context, p ReportParams, opts ...option.RequestOption) iter.Seq2[UsageBucket, error] {
	return usageReportEP(s.c).list(ctx, adminbridge.Cursor, usageReportParams(p), opts)
}

// UserUsageReport iterates over the legacy per-user usage report's rows
// (GET /v1/organizations/analytics/user_usage_report; no beta), ranked,
// paging as it goes. BucketWidth must be empty.
func (s *ReportsService) UserUsageReport(ctx context.Context, p ReportParams, opts ...option.RequestOption) iter.Seq2[LegacyUsageRow, error] {
	return userUsageReportEP(s.c).list(ctx, adminbridge.Cursor, userUsageReportParams(p), opts)
}

// CostReport iterates over the legacy cost report's time buckets (GET
// /v1/organizations/analytics/cost_report; no beta), paging as it goes.
func (s *ReportsService) CostReport(ctx context.Context, p ReportParams, opts ...option.RequestOption) iter.Seq2[CostBucket, error] {
	return costReportEP(s.c).list(ctx, adminbridge.Cursor, costReportParams(p), opts)
}

// UserCostReport iterates over the legacy per-user cost report's rows
// (GET /v1/organizations/analytics/user_cost_report; no beta), paging as
// it goes. BucketWidth must be empty.
func (s *ReportsService) UserCostReport(ctx context.Context, p ReportParams, opts ...option.RequestOption) iter.Seq2[LegacyCostRow, error] {
	return userCostReportEP(s.c).list(ctx, adminbridge.Cursor, userCostReportParams(p), opts)
}

// ReportPage is one page of a report, for callers who keep their own
// position (continue with the params' Page set to *NextPage while
// HasMore), with the page's data_refreshed_at, which the iterators do not
// give.
type ReportPage[T any] struct {
	mms.Page[T]
	// DataRefreshedAt is when the report's data was last refreshed; nil
	// when the service sent null or nothing.
	DataRefreshedAt *time.Time
}

// reportPageWire is a report page as the service sends it.
type reportPageWire[T any] struct {
	Data            []T        `json:"data"`
	HasMore         *bool      `json:"has_more"`
	NextPage        *string    `json:"next_page"`
	DataRefreshedAt *time.Time `json:"data_refreshed_at"`
}

// reportPage fetches the one page at p's start: a single GET (safe),
// the paging left to the caller, so the root's driver is not involved.
func reportPage[T any](ctx context.Context, e endpoint[T], p listParams, opts []option.RequestOption) (*ReportPage[T], error) {
	if e.err == nil {
		e.err = p.Validate()
	}
	if e.err != nil {
		return nil, e.err
	}
	a := p.listArgs()
	if a.page != "" {
		a.query.Set("page", a.page)
	}
	w, err := as[reportPageWire[T]](e).getQuery(ctx, a.query, opts)
	if err != nil {
		return nil, err
	}
	out := &ReportPage[T]{Page: mms.Page[T]{Data: w.Data}, DataRefreshedAt: w.DataRefreshedAt}
	if w.NextPage != nil && *w.NextPage != "" {
		out.NextPage = &mms.Cursor{Token: *w.NextPage}
	}
	out.HasMore = out.NextPage != nil && (w.HasMore == nil || *w.HasMore)
	return out, nil
}

// UsagePage fetches one page of the usage report (see [ReportsService.Usage]).
func (s *ReportsService) UsagePage(ctx context.Context, p ReportParams, opts ...option.RequestOption) (*ReportPage[UsageRow], error) {
	return reportPage(ctx, ep[UsageRow](s.c, adminbridge.AnyKey, "/analytics/usage").beta(wire.BetaAnalyticsUsageCost), usageParams{p}, opts)
}

// CostPage fetches one page of the cost report (see [ReportsService.Cost]).
func (s *ReportsService) CostPage(ctx context.Context, p ReportParams, opts ...option.RequestOption) (*ReportPage[CostRow], error) {
	return reportPage(ctx, ep[CostRow](s.c, adminbridge.AnyKey, "/analytics/cost").beta(wire.BetaAnalyticsUsageCost), costParams{p}, opts)
}

// UsageReportPage fetches one page of the legacy usage report.
func (s *ReportsService) UsageReportPage(ctx context.Context, p ReportParams, opts ...option.RequestOption) (*ReportPage[UsageBucket], error) {
	return reportPage(ctx, usageReportEP(s.c), usageReportParams(p), opts)
}

// UserUsageReportPage fetches one page of the legacy per-user usage report.
func (s *ReportsService) UserUsageReportPage(ctx context.Context, p ReportParams, opts ...option.RequestOption) (*ReportPage[LegacyUsageRow], error) {
	return reportPage(ctx, userUsageReportEP(s.c), userUsageReportParams(p), opts)
}

// CostReportPage fetches one page of the legacy cost report.
func (s *ReportsService) CostReportPage(ctx context.Context, p ReportParams, opts ...option.RequestOption) (*ReportPage[CostBucket], error) {
	return reportPage(ctx, costReportEP(s.c), costReportParams(p), opts)
}

// UserCostReportPage fetches one page of the legacy per-user cost report.
func (s *ReportsService) UserCostReportPage(ctx context.Context, p ReportParams, opts ...option.RequestOption) (*ReportPage[LegacyCostRow], error) {
	return reportPage(ctx, userCostReportEP(s.c), userCostReportParams(p), opts)
}
