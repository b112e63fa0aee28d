package admin

import (
	"context"
	"encoding/json"
	"iter"
	"strings"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/option"
)

// AnalyticsService lists the Enterprise activity analytics
// (/v1/organizations/analytics/…; an API key with scope read:analytics,
// or an admin key). Every list is in the cursor scheme.
type AnalyticsService struct{ c *Client }

// AnalyticsParams are the parameters of the analytics lists. Give Date
// (one day) or StartingDate (a range, one row per entity), not both.
type AnalyticsParams struct {
	// Date is one UTC day, "YYYY-MM-DD", not before 2026-01-01.
	Date string
	// StartingDate (inclusive) and EndingDate (exclusive, at most 366 days
	// later; default today) give a range.
	StartingDate, EndingDate string
	// Filters are "dimension:value" (at most 100); repeat a dimension for OR.
	Filters []string
	// GroupBy adds dimensions to the rows (at most 100).
	GroupBy []string
	// Order is "asc" or "desc"; OrderBy the sort column or a metric.
	Order, OrderBy string
	// Limit is the page size, 1–1000 (default 100).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
}

// analyticsRules are what one endpoint accepts.
type analyticsRules struct {
	path            string
	filters, groups []string
	needDate        bool // artifacts
	needStart       bool // summaries
	noRange         bool // artifacts: date only
	noGroupOrder    bool // summaries, artifacts: no group_by/order
	anyDims         bool // AnalyticsParams.Validate: any dimension passes
}

// Validate reports the rules every analytics list shares: Date with
// StartingDate, neither of them, dates not YYYY-MM-DD or before
// 2026-01-01, EndingDate without StartingDate, not after it or more than
// 366 days later, a filter not dimension:value, more than 100 filters or
// groupings, an order other than asc and desc, Limit outside 1–1000. Each
// list also checks its own dimensions and required date.
func (p AnalyticsParams) Validate() error {
	return analyticsRules{anyDims: true}.validate(p)
}

const dateLayout = "2006-01-02"

var firstAnalyticsDay = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func (r analyticsRules) validate(p AnalyticsParams) error {
	parse := func(field, v string) (time.Time, error) {
		t, err := time.Parse(dateLayout, v)
		if err != nil {
			return t, invalid(field, "must be a date YYYY-MM-DD, got %q", v)
		}
		if t.Before(firstAnalyticsDay) {
			return t, invalid(field, "must not be before 2026-01-01, got %q", v)
		}
		return t, nil
	}
	switch {
	case p.Date != "" && p.StartingDate != "":
		return invalid("date", "give date or starting_date, not both")
	case r.needDate && p.Date == "":
		return invalid("date", "is required")
	case r.needStart && p.StartingDate == "":
		return invalid("starting_date", "is required")
	case r.noRange && p.StartingDate != "":
		return invalid("starting_date", "is not accepted here: give date")
	case !r.needDate && !r.needStart && p.Date == "" && p.StartingDate == "":
		return invalid("date", "give date or starting_date")
	case p.EndingDate != "" && p.StartingDate == "":
		return invalid("ending_date", "needs starting_date")
	}
	if p.Date != "" {
		if _, err := parse("date", p.Date); err != nil {
			return err
		}
	}
	if p.StartingDate != "" {
		start, err := parse("starting_date", p.StartingDate)
		if err != nil {
			return err
		}
		if p.EndingDate != "" {
			end, err := parse("ending_date", p.EndingDate)
			if err != nil {
				return err
			}
			if !end.After(start) {
				return invalid("ending_date", "must be after starting_date")
			}
			if end.Sub(start) > 366*24*time.Hour {
				return invalid("ending_date", "must be at most 366 days after starting_date")
			}
		}
	}
	if err := maxItems("filter", len(p.Filters), 100); err != nil {
		return err
	}
	for i, f := range p.Filters {
		dim, val, ok := strings.Cut(f, ":")
		if !ok || val == "" {
			return invalid("filter["+itoa(i)+"]", "must be dimension:value, got %q", f)
		}
		if !r.anyDims && !contains(r.filters, dim) {
			return invalid("filter["+itoa(i)+"]", "the dimension %q is not one of %q", dim, r.filters)
		}
	}
	if err := maxItems("group_by", len(p.GroupBy), 100); err != nil {
		return err
	}
	if r.noGroupOrder && (p.Order != "" || p.OrderBy != "") {
		return invalid("order", "is not accepted here")
	}
	if !r.anyDims {
		if err := eachOneOf("group_by", p.GroupBy, r.groups...); err != nil {
			return err
		}
	}
	if err := oneOf("order", p.Order, "asc", "desc"); err != nil {
		return err
	}
	return validateLimit(p.Limit, 1000)
}

// analyticsParams is the listParams of one endpoint.
type analyticsParams struct {
	AnalyticsParams
	rules analyticsRules
}

func (p analyticsParams) Validate() error { return p.rules.validate(p.AnalyticsParams) }

func (p analyticsParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	setString(a.query, "date", p.Date)
	setString(a.query, "starting_date", p.StartingDate)
	setString(a.query, "ending_date", p.EndingDate)
	addArray(a.query, "filter", p.Filters)
	addArray(a.query, "group_by", p.GroupBy)
	setString(a.query, "order", p.Order)
	setString(a.query, "order_by", p.OrderBy)
	return a
}

func analyticsList[T any](ctx context.Context, s *AnalyticsService, r analyticsRules, p AnalyticsParams, opts []option.RequestOption) iter.Seq2[T, error] {
	return ep[T](s.c, adminbridge.AnyKey, "/analytics"+r.path).list(ctx, adminbridge.Cursor, analyticsParams{p, r}, opts)
}

var (
	summariesRules  = analyticsRules{path: "/summaries", filters: []string{"rbac_group_id"}, needStart: true, noGroupOrder: true}
	usersRules      = analyticsRules{path: "/users", filters: []string{"project_id", "rbac_group_id", "user_id"}, groups: []string{"rbac_group_id"}}
	projectsRules   = analyticsRules{path: "/apps/chat/projects", filters: []string{"project_id", "rbac_group_id", "user_id"}, groups: []string{"rbac_group_id", "user_id"}}
	connectorsRules = analyticsRules{path: "/connectors", filters: []string{"connector_name", "product", "rbac_group_id", "user_id"}, groups: []string{"product", "rbac_group_id", "user_id"}}
	pluginsRules    = analyticsRules{path: "/plugins", filters: []string{"plugin_name", "product", "rbac_group_id", "user_id"}, groups: []string{"product", "rbac_group_id", "user_id"}}
	skillsRules     = analyticsRules{path: "/skills", filters: []string{"product", "rbac_group_id", "share_status", "skill_name", "user_id"}, groups: []string{"product", "rbac_group_id", "user_id"}}
	artifactsRules  = analyticsRules{path: "/artifacts", filters: []string{"artifact_type", "is_shared", "product", "rbac_group_id", "user_id"}, groups: []string{"product", "rbac_group_id", "user_id"}, needDate: true, noRange: true}
)

// ActivitySummary is one day's organization-wide activity.
//
//mms:json
type ActivitySummary struct {
	// StartingAt and EndingAt bound the day (UTC midnights).
	StartingAt time.Time `json:"starting_at"`
	EndingAt   time.Time `json:"ending_at"`
	// Active user counts.
	DailyActiveUserCount   int `json:"daily_active_user_count"`
	WeeklyActiveUserCount  int `json:"weekly_active_user_count"`
	MonthlyActiveUserCount int `json:"monthly_active_user_count"`
	// Seats and invites; nil when filtered by RBAC group.
	AssignedSeatCount  *int `json:"assigned_seat_count"`
	PendingInviteCount *int `json:"pending_invite_count"`
	// Adoption rates in percent; nil when filtered by RBAC group.
	DailyAdoptionRate   *float64 `json:"daily_adoption_rate"`
	WeeklyAdoptionRate  *float64 `json:"weekly_adoption_rate"`
	MonthlyAdoptionRate *float64 `json:"monthly_adoption_rate"`
	// Cowork active user counts.
	CoworkDailyActiveUserCount   int `json:"cowork_daily_active_user_count"`
	CoworkWeeklyActiveUserCount  int `json:"cowork_weekly_active_user_count"`
	CoworkMonthlyActiveUserCount int `json:"cowork_monthly_active_user_count"`
	// Extra keeps the optional per-product counts (chat_…, claude_code_…,
	// science_entitled_user_count, …) and what this SDK version does not
	// model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Summaries iterates over the daily summaries of a range (StartingDate
// required; returned whole).
func (s *AnalyticsService) Summaries(ctx context.Context, p AnalyticsParams, opts ...option.RequestOption) iter.Seq2[ActivitySummary, error] {
	return analyticsList[ActivitySummary](ctx, s, summariesRules, p, opts)
}

// Users iterates over per-user activity (default sort: email).
func (s *AnalyticsService) Users(ctx context.Context, p AnalyticsParams, opts ...option.RequestOption) iter.Seq2[UserActivity, error] {
	return analyticsList[UserActivity](ctx, s, usersRules, p, opts)
}

// ChatProjects iterates over chat project activity.
func (s *AnalyticsService) ChatProjects(ctx context.Context, p AnalyticsParams, opts ...option.RequestOption) iter.Seq2[ProjectActivity, error] {
	return analyticsList[ProjectActivity](ctx, s, projectsRules, p, opts)
}

// Connectors iterates over connector activity.
func (s *AnalyticsService) Connectors(ctx context.Context, p AnalyticsParams, opts ...option.RequestOption) iter.Seq2[ConnectorActivity, error] {
	return analyticsList[ConnectorActivity](ctx, s, connectorsRules, p, opts)
}

// Plugins iterates over plugin activity.
func (s *AnalyticsService) Plugins(ctx context.Context, p AnalyticsParams, opts ...option.RequestOption) iter.Seq2[PluginActivity, error] {
	return analyticsList[PluginActivity](ctx, s, pluginsRules, p, opts)
}

// Skills iterates over skill activity.
func (s *AnalyticsService) Skills(ctx context.Context, p AnalyticsParams, opts ...option.RequestOption) iter.Seq2[SkillActivity, error] {
	return analyticsList[SkillActivity](ctx, s, skillsRules, p, opts)
}

// Artifacts iterates over one day's artifact activity (Date required).
func (s *AnalyticsService) Artifacts(ctx context.Context, p AnalyticsParams, opts ...option.RequestOption) iter.Seq2[ArtifactActivity, error] {
	return analyticsList[ArtifactActivity](ctx, s, artifactsRules, p, opts)
}
