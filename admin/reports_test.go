package admin_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

var march = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

func seedUsage(s *mmstest.Server) {
	for i, u := range []struct {
		ws, model, amount string
		req               int64
	}{
		{"wrkspc_a", "mms-large-1", "0.10", 1}, {"wrkspc_a", "mms-large-1", "0.205", 2}, {"wrkspc_a", "mms-small-1", "0.01", 5},
		{"wrkspc_b", "mms-large-1", "1.005", 3}, {"wrkspc_b", "mms-small-1", "0.1", 1},
	} {
		s.Org().AddUsage(mmstest.UsageRecord{Time: march.Add(time.Duration(i) * 25 * time.Hour), Group: map[string]string{"workspace_id": u.ws, "model": u.model},
			Requests: u.req, UncachedInputTokens: 100 * u.req, OutputTokens: 10 * u.req, Amount: u.amount, ListAmount: u.amount})
	}
}

func TestCostReport(t *testing.T) {
	s, c := fake(t)
	seedUsage(s)
	group := []string{admin.DimWorkspaceID, admin.DimModel}
	rows := collect(t, c.Reports.Cost(ctx, admin.ReportParams{StartingAt: march, EndingAt: march.AddDate(0, 1, 0), GroupBy: group, Limit: 1}))
	require.Len(t, rows, 4)
	byKey := map[string]admin.CostRow{}
	for _, r := range rows {
		byKey[*r.Group.WorkspaceID+"/"+*r.Group.Model] = r
	}
	assert.Equal(t, admin.Decimal("0.305"), byKey["wrkspc_a/mms-large-1"].Cost.Amount, "exact sum of 0.10 and 0.205")
	assert.Equal(t, int64(3), byKey["wrkspc_a/mms-large-1"].Cost.Requests)
	assert.Equal(t, "USD", rows[0].Cost.Currency)
	assert.Equal(t, admin.Decimal("1.005"), rows[0].Cost.Amount, "ranked by spend")
	reqs := s.Requests()
	assert.Contains(t, reqs[len(reqs)-1].Header.Get("Vendor-Beta"), "analytics-usage-cost-2026-08-24")

	// Flattened for CSV, amounts exactly as sent.
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	require.NoError(t, w.Write(admin.CostColumns(group)))
	for rec, err := range admin.Flatten(c.Reports.Cost(ctx, admin.ReportParams{StartingAt: march, EndingAt: march.AddDate(0, 1, 0), GroupBy: group}), group) {
		require.NoError(t, err)
		require.NoError(t, w.Write(rec))
	}
	w.Flush()
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	require.Len(t, lines, 5)
	assert.Equal(t, "starting_at,ending_at,workspace_id,model,amount,list_amount,currency,requests", string(lines[0]))
	assert.Contains(t, buf.String(), "wrkspc_a,mms-large-1,0.305,0.305,USD,3")

	// Daily buckets.
	daily := collect(t, c.Reports.Usage(ctx, admin.ReportParams{StartingAt: march, EndingAt: march.AddDate(0, 0, 10), BucketWidth: admin.BucketDay}))
	require.Len(t, daily, 5)
	assert.Equal(t, 24*time.Hour, daily[0].EndingAt.Sub(daily[0].StartingAt))
	assert.Equal(t, int64(100), daily[0].Usage.UncachedInputTokens)
	assert.Equal(t, int64(110), daily[0].Usage.TotalTokens)
	one := collect(t, c.Reports.Usage(ctx, admin.ReportParams{StartingAt: march, EndingAt: march.AddDate(0, 1, 0), Filters: map[string][]string{"workspace_ids": {"wrkspc_b"}}}))
	require.Len(t, one, 1)
	assert.Equal(t, int64(4), one[0].Usage.Requests)
	recs := collect(t, admin.Flatten(c.Reports.Usage(ctx, admin.ReportParams{StartingAt: march, EndingAt: march.AddDate(0, 1, 0)}), nil))
	require.Len(t, recs, 1)
	assert.Len(t, recs[0], len(admin.UsageColumns(nil)))
}

func TestReportValidation(t *testing.T) {
	s, c := fake(t)
	for _, tc := range []struct {
		p     admin.ReportParams
		field string
	}{
		{admin.ReportParams{}, "starting_at"},
		{admin.ReportParams{StartingAt: march, EndingAt: march}, "ending_at"},
		{admin.ReportParams{StartingAt: march, BucketWidth: "1w"}, "time_bucket_width"},
		{admin.ReportParams{StartingAt: march, GroupBy: []string{"cost_type"}}, "group_by[0]"},
		{admin.ReportParams{StartingAt: march, OrderBy: "amount"}, "order_by"},
		{admin.ReportParams{StartingAt: march, Filters: map[string][]string{"colors": {"x"}}}, "filters.colors"},
		{admin.ReportParams{StartingAt: march, Filters: map[string][]string{"products": {"tv"}}}, "products[0]"},
		{admin.ReportParams{StartingAt: march, Limit: 1001}, "limit"},
	} {
		assert.Equal(t, tc.field, fieldOf(firstErr(c.Reports.Usage(ctx, tc.p))), "%+v", tc.p)
	}
	// cost_type is a cost dimension.
	assert.Empty(t, fieldOf(firstErr(c.Reports.Cost(ctx, admin.ReportParams{StartingAt: march, EndingAt: march.Add(time.Hour), GroupBy: []string{"cost_type"}}))))
	assert.Len(t, s.Requests(), 1)
	// The fake answers 404 without the beta, as the service does.
	req, _ := http.NewRequest("GET", s.URL+"/v1/organizations/analytics/usage?starting_at=2026-03-01T00:00:00Z", nil)
	req.Header.Set("X-Api-Key", mmstest.DefaultAdminKey)
	req.Header.Set("Vendor-Version", "2023-06-01")
	resp, err := s.Client().Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

func TestDecimal(t *testing.T) {
	for _, tc := range []struct {
		in   []admin.Decimal
		want admin.Decimal
	}{
		{nil, "0"},
		{[]admin.Decimal{"0.1", "0.2"}, "0.3"},
		{[]admin.Decimal{"1.005", "2"}, "3.005"},
		{[]admin.Decimal{"-0.5", "0.25", ""}, "-0.25"},
		{[]admin.Decimal{"1e2", "0.01"}, "100.01"},
		{[]admin.Decimal{"99999999999999999999.999", "0.001"}, "100000000000000000000.000"},
	} {
		got, err := admin.SumDecimals(tc.in...)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got, "%v", tc.in)
	}
	_, err := admin.SumDecimals("1/3")
	require.Error(t, err)
	var d admin.Decimal
	require.NoError(t, json.Unmarshal([]byte(`12.3400`), &d))
	assert.Equal(t, admin.Decimal("12.3400"), d, "a JSON number keeps its text")
	require.NoError(t, json.Unmarshal([]byte(`"0.001"`), &d))
	assert.Equal(t, admin.Decimal("0.001"), d)
	require.Error(t, json.Unmarshal([]byte(`"abc"`), &d))
	b, err := json.Marshal(admin.Decimal("5.10"))
	require.NoError(t, err)
	assert.Equal(t, `"5.10"`, string(b))
	var row admin.CostRow
	require.NoError(t, json.Unmarshal([]byte(`{"starting_at":"2026-03-01T00:00:00Z","ending_at":"2026-03-02T00:00:00Z","group":{"model":"m"},"cost":{"amount":0.30000000000000004,"list_amount":"1","currency":"USD","requests":1},"new_member":true}`), &row))
	assert.Equal(t, admin.Decimal("0.30000000000000004"), row.Cost.Amount, "a number is kept digit for digit, never through float64")
	back, err := json.Marshal(row)
	require.NoError(t, err)
	assert.Contains(t, string(back), `"new_member":true`, "unknown members round-trip")
}

// reportServer serves a usage report of n one-minute buckets in pages of
// per, generated on the fly (nothing stored), so the client's memory is
// what a benchmark sees.
func reportServer(n, per int) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		off, _ := strconv.Atoi(r.URL.Query().Get("page"))
		end := min(off+per, n)
		var b bytes.Buffer
		b.WriteString(`{"data":[`)
		for i := off; i < end; i++ {
			if i > off {
				b.WriteByte(',')
			}
			t0 := march.Add(time.Duration(i) * time.Minute)
			fmt.Fprintf(&b, `{"starting_at":%q,"ending_at":%q,"group":{"workspace_id":"wrkspc_%d","model":"mms-large-1"},"cost":{"amount":"%d.%03d","list_amount":"%d.%03d","currency":"USD","requests":%d}}`,
				t0.Format(time.RFC3339), t0.Add(time.Minute).Format(time.RFC3339), i%7, i%100, i%1000, i%100, i%1000, i%13)
		}
		fmt.Fprintf(&b, `],"has_more":%t,"next_page":`, end < n)
		if end < n {
			fmt.Fprintf(&b, `"%d"`, end)
		} else {
			b.WriteString("null")
		}
		b.WriteString(`,"data_refreshed_at":null}`)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b.Bytes())
	}))
}

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// A report of 100,000 buckets pages through with flat memory: the heap in
// use while iterating stays within a bound far below the report's size.
func TestReportOf100kBucketsFlatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("pages through 100,000 buckets")
	}
	const n, per = 100_000, 1000
	srv := reportServer(n, per)
	defer srv.Close()
	c, err := admin.NewClient(option.WithBaseURL(srv.URL), option.WithHTTPClient(srv.Client()), option.WithAdminKey("bench-admin-key"))
	require.NoError(t, err)
	base := heapInUse()
	var peak uint64
	count := 0
	total := admin.Decimal("0")
	for row, err := range c.Reports.Cost(ctx, admin.ReportParams{StartingAt: march, BucketWidth: admin.BucketMinute, Limit: per}) {
		require.NoError(t, err)
		count++
		if count%10_000 == 0 {
			peak = max(peak, heapInUse())
		}
		if count%1000 == 0 { // sums stay exact through the run
			total, err = total.Add(row.Cost.Amount)
			require.NoError(t, err)
		}
	}
	require.Equal(t, n, count)
	growth := int64(peak) - int64(base)
	t.Logf("100,000 buckets: heap in use grew at most %d KiB over the start (%d KiB)", growth>>10, base>>10)
	assert.Less(t, growth, int64(4<<20), "memory must not grow with the report")
}

func BenchmarkReport100kBuckets(b *testing.B) {
	const n, per = 100_000, 1000
	srv := reportServer(n, per)
	defer srv.Close()
	c, err := admin.NewClient(option.WithBaseURL(srv.URL), option.WithHTTPClient(srv.Client()), option.WithAdminKey("bench-admin-key"))
	require.NoError(b, err)
	b.ReportAllocs()
	var peak uint64
	for b.Loop() {
		count := 0
		for _, err := range c.Reports.Cost(ctx, admin.ReportParams{StartingAt: march, BucketWidth: admin.BucketMinute, Limit: per}) {
			if err != nil {
				b.Fatal(err)
			}
			count++
			if count%25_000 == 0 {
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapInuse)
			}
		}
		if count != n {
			b.Fatalf("%d buckets", count)
		}
	}
	b.ReportMetric(float64(peak>>10), "peak-heap-KiB")
}
