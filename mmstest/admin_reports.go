package mmstest

import (
	"encoding/base64"
	"math/big"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The usage and cost reports (organization.md §19.2): tests seed usage
// records; each request buckets them by time_bucket_width (one bucket over
// the range without it), groups them by group_by[], sums them (amounts
// exactly) and pages the rows with the report cursor (data, next_page,
// has_more, data_refreshed_at). The legacy reports (no beta) take
// bucket_width and answer buckets of results (usage_report, cost_report)
// or rows per actor over the range (user_usage_report, user_cost_report).

// UsageRecord is one seeded piece of usage and its cost.
type UsageRecord struct {
	// Time is when the usage happened.
	Time time.Time
	// Group holds the record's dimensions by name ("workspace_id",
	// "model", "api_key_id", "product", "service_tier", …, and for cost
	// "cost_type", "token_type").
	Group map[string]string
	// Token and request counts.
	Requests, UncachedInputTokens, CacheReadInputTokens, OutputTokens int64
	// Amount and ListAmount are decimal strings ("12.345"); Currency
	// defaults to USD.
	Amount, ListAmount, Currency string
}

// AddUsage seeds usage records for the reports.
func (g *Org) AddUsage(recs ...UsageRecord) {
	withLock(&g.o.mu, func() { g.o.usage = append(g.o.usage, recs...) })
}

func (o *orgStore) reportRoutes() []route {
	any := credAnyKey
	return []route{
		{pattern: "GET /v1/organizations/analytics/usage", handle: o.with(any, o.report(false))},
		{pattern: "GET /v1/organizations/analytics/cost", handle: o.with(any, o.report(true))},
		{pattern: "GET /v1/organizations/analytics/usage_report", handle: o.with(any, o.legacyReport(false, true))},
		{pattern: "GET /v1/organizations/analytics/cost_report", handle: o.with(any, o.legacyReport(true, true))},
		{pattern: "GET /v1/organizations/analytics/user_usage_report", handle: o.with(any, o.legacyReport(false, false))},
		{pattern: "GET /v1/organizations/analytics/user_cost_report", handle: o.with(any, o.legacyReport(true, false))},
	}
}

var reportDims = []string{"actor", "actor_type", "agent_id", "api_key_id", "claude_tag_category", "claude_tag_user_id", "context_window",
	"deployment_id", "environment_id", "inference_geo", "model", "organization_id", "product", "rbac_group_id", "service_tier",
	"session_id", "slack_channel_id", "speed", "user_profile_id", "workspace_id"}

// reportFilterDims maps a filter parameter to its dimension.
var reportFilterDims = map[string]string{"actor_ids": "actor", "actor_types": "actor_type", "agent_ids": "agent_id", "api_key_ids": "api_key_id",
	"claude_tag_categories": "claude_tag_category", "claude_tag_user_ids": "claude_tag_user_id", "context_windows": "context_window",
	"deployment_ids": "deployment_id", "environment_ids": "environment_id", "inference_geos": "inference_geo", "models": "model",
	"organization_ids": "organization_id", "products": "product", "rbac_group_ids": "rbac_group_id", "service_tiers": "service_tier",
	"session_ids": "session_id", "slack_channel_ids": "slack_channel_id", "speeds": "speed", "user_profile_ids": "user_profile_id",
	"workspace_ids": "workspace_id"}

var bucketWidths = map[string]time.Duration{"1m": time.Minute, "1h": time.Hour, "1d": 24 * time.Hour}

// reportRow is one bucket of one group, summed.
type reportRow struct {
	start, end          time.Time
	group               []string
	req, unc, read, out int64
	amount, list        *big.Rat
	scale, listScale    int
	currency            string
}

func decimalScale(s string) int {
	if _, f, ok := strings.Cut(s, "."); ok {
		return len(f)
	}
	return 0
}

// reportQuery is a report request's parsed query.
type reportQuery struct {
	start, end    time.Time
	width         time.Duration
	groupBy       []string
	filters       map[string][]string
	limit, offset int
}

// parseReport parses and checks a report's query; widthKey is
// time_bucket_width (new reports), bucket_width (legacy bucket reports) or
// "" (per-user reports: one range). It answers 400 and false when bad.
func (o *orgStore) parseReport(w http.ResponseWriter, r *http.Request, cost bool, widthKey string) (*reportQuery, bool) {
	q := r.URL.Query()
	start, err := time.Parse(time.RFC3339, q.Get("starting_at"))
	if err != nil {
		bad(w, r, "starting_at: Field required (an RFC 3339 date-time)")
		return nil, false
	}
	end := o.s.now()
	if e := q.Get("ending_at"); e != "" {
		if end, err = time.Parse(time.RFC3339, e); err != nil || !end.After(start) {
			bad(w, r, "ending_at: must be a date-time after starting_at")
			return nil, false
		}
	}
	rq := &reportQuery{start: start, end: end, width: end.Sub(start), filters: map[string][]string{}}
	if wv := q.Get(widthKey); widthKey != "" && wv != "" {
		d, ok := bucketWidths[wv]
		if !ok {
			bad(w, r, widthKey+": Input should be '1m', '1h' or '1d'")
			return nil, false
		}
		rq.width = d
	}
	dims := reportDims
	if cost {
		dims = append(slices.Clone(reportDims), "cost_type", "token_type")
	}
	rq.groupBy = q["group_by[]"]
	if !queryIn(w, r, "group_by", dims...) || !queryIn(w, r, "order", "asc", "desc") {
		return nil, false
	}
	known := []string{"starting_at", "ending_at", "group_by[]", "order", "order_by", "limit", "page", "exclude_deleted_users"}
	if widthKey != "" {
		known = append(known, widthKey)
	}
	for k, vs := range q {
		name := strings.TrimSuffix(k, "[]")
		if dim, ok := reportFilterDims[name]; ok && strings.HasSuffix(k, "[]") {
			rq.filters[dim] = vs
		} else if !slices.Contains(known, k) {
			bad(w, r, k+": unknown query parameter")
			return nil, false
		}
	}
	if rq.limit, err = queryLimit(q, maxPageLimit); err != nil {
		bad(w, r, err.Error())
		return nil, false
	}
	if p := q.Get("page"); p != "" {
		raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(p, "page_"))
		n, err2 := strconv.Atoi(string(raw))
		if err != nil || err2 != nil || n < 0 || !strings.HasPrefix(p, "page_") {
			bad(w, r, badPageToken(q).Error())
			return nil, false
		}
		rq.offset = n
	}
	return rq, true
}

// aggregate sums the seeded usage of rq's range and filters into rows
// keyed by bucket start and the values of groupBy.
func (o *orgStore) aggregate(rq *reportQuery, groupBy []string) map[string]*reportRow {
	o.mu.Lock()
	defer o.mu.Unlock()
	rows := map[string]*reportRow{}
	for _, u := range o.usage {
		if u.Time.Before(rq.start) || !u.Time.Before(rq.end) {
			continue
		}
		keep := true
		for dim, vals := range rq.filters {
			keep = keep && slices.Contains(vals, u.Group[dim])
		}
		if !keep {
			continue
		}
		bs := rq.start.Add(u.Time.Sub(rq.start) / rq.width * rq.width)
		vals := make([]string, len(groupBy))
		for i, d := range groupBy {
			vals[i] = u.Group[d]
		}
		key := bs.Format(time.RFC3339Nano) + "\x00" + strings.Join(vals, "\x00")
		row := rows[key]
		if row == nil {
			be := bs.Add(rq.width)
			if be.After(rq.end) {
				be = rq.end
			}
			row = &reportRow{start: bs, end: be, group: vals, amount: new(big.Rat), list: new(big.Rat), currency: "USD"}
			rows[key] = row
		}
		row.req += u.Requests
		row.unc += u.UncachedInputTokens
		row.read += u.CacheReadInputTokens
		row.out += u.OutputTokens
		if a, ok := new(big.Rat).SetString(u.Amount); ok {
			row.amount.Add(row.amount, a)
			row.scale = max(row.scale, decimalScale(u.Amount))
		}
		if a, ok := new(big.Rat).SetString(u.ListAmount); ok {
			row.list.Add(row.list, a)
			row.listScale = max(row.listScale, decimalScale(u.ListAmount))
		}
		if u.Currency != "" {
			row.currency = u.Currency
		}
	}
	return rows
}

// rankBySpend orders keys by bucket, then by spend, highest first.
func rankBySpend(rows map[string]*reportRow, keys []string) {
	sort.SliceStable(keys, func(i, j int) bool {
		a, b := rows[keys[i]], rows[keys[j]]
		if !a.start.Equal(b.start) {
			return a.start.Before(b.start)
		}
		return a.amount.Cmp(b.amount) > 0
	})
}

// costRec and usageRec are a row's cost and usage members.
func (row *reportRow) costRec() rec {
	return rec{"amount": row.amount.FloatString(row.scale), "list_amount": row.list.FloatString(row.listScale), "currency": row.currency, "requests": row.req}
}

func (row *reportRow) usageRec() rec {
	return rec{"requests": row.req, "uncached_input_tokens": row.unc, "cache_read_input_tokens": row.read,
		"cache_creation": rec{"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0}, "output_tokens": row.out,
		"total_tokens": row.unc + row.read + row.out, "server_tool_use": rec{"web_search_requests": 0}}
}

// writeReportPage answers the items from rq's offset, with the report
// cursor.
func (o *orgStore) writeReportPage(w http.ResponseWriter, rq *reportQuery, n int, item func(i int) rec) {
	from := min(rq.offset, n)
	to := min(from+rq.limit, n)
	data := make([]rec, 0, to-from)
	for i := from; i < to; i++ {
		data = append(data, item(i))
	}
	page := rec{"data": data, "has_more": to < n, "next_page": nil, "data_refreshed_at": o.stamp()}
	if to < n {
		page["next_page"] = "page_" + base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(to)))
	}
	writeJSON(w, http.StatusOK, page)
}

func (o *orgStore) report(cost bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !needBeta(w, r, wire.BetaAnalyticsUsageCost) {
			return
		}
		rq, ok := o.parseReport(w, r, cost, "time_bucket_width")
		if !ok {
			return
		}
		rows := o.aggregate(rq, rq.groupBy)
		keys := sortedKeys(rows)
		if cost { // ranked by spend within each bucket
			rankBySpend(rows, keys)
		}
		o.writeReportPage(w, rq, len(keys), func(i int) rec {
			row := rows[keys[i]]
			group := rec{}
			for i, d := range rq.groupBy {
				group[d] = row.group[i]
			}
			x := rec{"starting_at": row.start.UTC().Format(time.RFC3339), "ending_at": row.end.UTC().Format(time.RFC3339), "group": group}
			if cost {
				x["cost"] = row.costRec()
			} else {
				x["usage"] = row.usageRec()
			}
			return x
		})
	}
}

// legacyReport serves a legacy report (no beta): buckets of results when
// buckets, else one row per actor (and group_by combination) over the
// range, ranked by spend (cost) or requests (usage). A result carries its
// dimensions and counters as members.
func (o *orgStore) legacyReport(cost, buckets bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		widthKey := ""
		if buckets {
			widthKey = "bucket_width"
		}
		rq, ok := o.parseReport(w, r, cost, widthKey)
		if !ok {
			return
		}
		groupBy := rq.groupBy
		if !buckets && !slices.Contains(groupBy, "actor") {
			groupBy = append([]string{"actor"}, groupBy...)
		}
		rows := o.aggregate(rq, groupBy)
		keys := sortedKeys(rows)
		if cost {
			rankBySpend(rows, keys)
		} else if !buckets {
			sort.SliceStable(keys, func(i, j int) bool { return rows[keys[i]].req > rows[keys[j]].req })
		}
		result := func(row *reportRow, span bool) rec {
			x := row.usageRec()
			if cost {
				x = row.costRec()
			}
			for i, d := range groupBy {
				x[d] = row.group[i]
			}
			if span {
				x["starting_at"], x["ending_at"] = row.start.UTC().Format(time.RFC3339), row.end.UTC().Format(time.RFC3339)
			}
			return x
		}
		if !buckets {
			o.writeReportPage(w, rq, len(keys), func(i int) rec { return result(rows[keys[i]], true) })
			return
		}
		// One bucket per width from the start, empty ones included,
		// computed per page (a long range of minutes is never listed).
		n := int((rq.end.Sub(rq.start) + rq.width - 1) / rq.width)
		byStart := map[time.Time][]rec{}
		for _, k := range keys {
			row := rows[k]
			byStart[row.start] = append(byStart[row.start], result(row, false))
		}
		o.writeReportPage(w, rq, n, func(i int) rec {
			bs := rq.start.Add(time.Duration(i) * rq.width)
			end := bs.Add(rq.width)
			if end.After(rq.end) {
				end = rq.end
			}
			res := byStart[bs]
			if res == nil {
				res = []rec{}
			}
			return rec{"starting_at": bs.UTC().Format(time.RFC3339), "ending_at": end.UTC().Format(time.RFC3339), "results": res}
		})
	}
}
