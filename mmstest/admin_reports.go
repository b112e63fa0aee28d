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
// has_more, data_refreshed_at).

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

func (o *orgStore) report(cost bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !needBeta(w, r, wire.BetaAnalyticsUsageCost) {
			return
		}
		q := r.URL.Query()
		start, err := time.Parse(time.RFC3339, q.Get("starting_at"))
		if err != nil {
			bad(w, r, "starting_at: Field required (an RFC 3339 date-time)")
			return
		}
		end := o.s.now()
		if e := q.Get("ending_at"); e != "" {
			if end, err = time.Parse(time.RFC3339, e); err != nil || !end.After(start) {
				bad(w, r, "ending_at: must be a date-time after starting_at")
				return
			}
		}
		width := end.Sub(start)
		if wv := q.Get("time_bucket_width"); wv != "" {
			d, ok := bucketWidths[wv]
			if !ok {
				bad(w, r, "time_bucket_width: Input should be '1m', '1h' or '1d'")
				return
			}
			width = d
		}
		dims := reportDims
		if cost {
			dims = append(slices.Clone(reportDims), "cost_type", "token_type")
		}
		groupBy := q["group_by[]"]
		if !queryIn(w, r, "group_by", dims...) || !queryIn(w, r, "order", "asc", "desc") {
			return
		}
		filters := map[string][]string{}
		for k, vs := range q {
			name := strings.TrimSuffix(k, "[]")
			if dim, ok := reportFilterDims[name]; ok && strings.HasSuffix(k, "[]") {
				filters[dim] = vs
			} else if !slices.Contains([]string{"starting_at", "ending_at", "time_bucket_width", "group_by[]", "order", "order_by", "limit", "page", "exclude_deleted_users"}, k) {
				bad(w, r, k+": unknown query parameter")
				return
			}
		}
		limit, err := queryLimit(q, maxPageLimit)
		if err != nil {
			bad(w, r, err.Error())
			return
		}
		offset := 0
		if p := q.Get("page"); p != "" {
			raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(p, "page_"))
			n, err2 := strconv.Atoi(string(raw))
			if err != nil || err2 != nil || n < 0 || !strings.HasPrefix(p, "page_") {
				bad(w, r, badPageToken(q).Error())
				return
			}
			offset = n
		}
		o.mu.Lock()
		rows := map[string]*reportRow{}
		for _, u := range o.usage {
			if u.Time.Before(start) || !u.Time.Before(end) {
				continue
			}
			keep := true
			for dim, vals := range filters {
				keep = keep && slices.Contains(vals, u.Group[dim])
			}
			if !keep {
				continue
			}
			bs := start.Add(u.Time.Sub(start) / width * width)
			vals := make([]string, len(groupBy))
			for i, d := range groupBy {
				vals[i] = u.Group[d]
			}
			key := bs.Format(time.RFC3339Nano) + "\x00" + strings.Join(vals, "\x00")
			row := rows[key]
			if row == nil {
				be := bs.Add(width)
				if be.After(end) {
					be = end
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
		o.mu.Unlock()
		keys := sortedKeys(rows)
		if cost { // ranked by spend within each bucket
			sort.SliceStable(keys, func(i, j int) bool {
				a, b := rows[keys[i]], rows[keys[j]]
				if !a.start.Equal(b.start) {
					return a.start.Before(b.start)
				}
				return a.amount.Cmp(b.amount) > 0
			})
		}
		from := min(offset, len(keys))
		to := min(from+limit, len(keys))
		data := make([]rec, 0, to-from)
		for _, k := range keys[from:to] {
			row := rows[k]
			group := rec{}
			for i, d := range groupBy {
				group[d] = row.group[i]
			}
			x := rec{"starting_at": row.start.UTC().Format(time.RFC3339), "ending_at": row.end.UTC().Format(time.RFC3339), "group": group}
			if cost {
				x["cost"] = rec{"amount": row.amount.FloatString(row.scale), "list_amount": row.list.FloatString(row.listScale), "currency": row.currency, "requests": row.req}
			} else {
				x["usage"] = rec{"requests": row.req, "uncached_input_tokens": row.unc, "cache_read_input_tokens": row.read,
					"cache_creation": rec{"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0}, "output_tokens": row.out,
					"total_tokens": row.unc + row.read + row.out, "server_tool_use": rec{"web_search_requests": 0}}
			}
			data = append(data, x)
		}
		page := rec{"data": data, "has_more": to < len(keys), "next_page": nil, "data_refreshed_at": o.stamp()}
		if to < len(keys) {
			page["next_page"] = "page_" + base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(to)))
		}
		writeJSON(w, http.StatusOK, page)
	}
}
