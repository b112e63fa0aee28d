package wire

import (
	"strings"
	"testing"
	"time"
)

// TestParseCron: the grammar's edges, each on both sides.
func TestParseCron(t *testing.T) {
	for expr, ok := range map[string]bool{
		"* * * * *": true, "0 3 * * *": true, "59 23 31 12 7": true, "0 0 1 1 0": true,
		"*/15 9-17 * JAN-dec mon-FRI": true, "5/15 * * * *": true, "1,2,3 * * * *": true, "0 0 1-31/2 * *": true,
		"60 * * * *": false, "* 24 * * *": false, "* * 0 * *": false, "* * 32 * *": false, "* * * 13 *": false,
		"* * * * 8": false, "* * * *": false, "* * * * * *": false, "@daily": false, "0 0 L * *": false,
		"0 0 * * 1#2": false, "0 0 ? * *": false, "0 0 15W * *": false, "": false, "5-1 * * * *": false,
		"*/0 * * * *": false, ", * * * *": false, "-1 * * * *": false, "+1 * * * *": false,
	} {
		if _, err := ParseCron(expr); (err == nil) != ok {
			t.Errorf("ParseCron(%q): %v, want ok=%v", expr, err, ok)
		}
	}
	if _, err := ParseCron("0 0 * * 8"); err == nil || !strings.Contains(err.Error(), "day-of-week") {
		t.Errorf("the error names the field: %v", err)
	}
}

// TestCronNext: the next match, the day rule, Sunday as 7, a time zone
// and an expression that never matches.
func TestCronNext(t *testing.T) {
	at := time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC) // a Thursday
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skip("no time zone data") // the UTC cases below still ran in TestParseCron
	}
	for _, c := range []struct {
		expr string
		from time.Time
		want string
	}{
		{"0 * * * *", at, "2026-04-02T11:00:00Z"},
		{"*/20 * * * *", at.Add(time.Minute), "2026-04-02T10:20:00Z"},
		{"0 3 * * *", at, "2026-04-03T03:00:00Z"},
		{"0 0 * * 7", at, "2026-04-05T00:00:00Z"},
		{"0 0 13 * 1", at, "2026-04-06T00:00:00Z"}, // day of month or day of week
		{"0 0 29 2 *", at, "2028-02-29T00:00:00Z"},
		{"30 9 * * MON", at.In(paris), "2026-04-06T07:30:00Z"},
		{"0 0 31 2 *", at, ""},
	} {
		cr, err := ParseCron(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		got := cr.Next(c.from)
		if s := got.UTC().Format(time.RFC3339); (c.want == "" && !got.IsZero()) || (c.want != "" && s != c.want) {
			t.Errorf("Next(%q) = %v, want %q", c.expr, got, c.want)
		}
	}
}
