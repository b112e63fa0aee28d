package wire

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A deployment's schedule is a 5-field POSIX cron expression (minute, hour,
// day of month, month, day of week; deployments-dreams-compliance.md §1.8).
// The SDK checks it with ParseCron before sending and the fake refuses what
// ParseCron refuses, so both read one grammar: each field is "*" or a
// comma-separated list of values and ranges ("a-b"), each optionally
// stepped ("*/15", "1-31/2"); months and days of the week may be named
// (JAN–DEC, SUN–SAT, any case); day of week is 0–7, 0 and 7 both Sunday.
// Not accepted, as the service does not: seconds or year fields, L, W, #,
// ?, and shortcuts such as @daily.

// Cron is a parsed cron expression: the allowed values of each field.
type Cron struct {
	minute, hour, dom, month, dow uint64 // bit i set: value i allowed
	// domAll and dowAll record a "*" day field: with both restricted, a
	// day matches when either does (cron's rule).
	domAll, dowAll bool
}

// cronField is one field's range and names.
type cronField struct {
	name   string
	lo, hi int
	names  []string // names[i] stands for lo+i
}

var cronFields = [5]cronField{
	{name: "minute", lo: 0, hi: 59},
	{name: "hour", lo: 0, hi: 23},
	{name: "day-of-month", lo: 1, hi: 31},
	{name: "month", lo: 1, hi: 12, names: []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}},
	{name: "day-of-week", lo: 0, hi: 7, names: []string{"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"}},
}

// ParseCron parses a 5-field cron expression; the error says which field
// is wrong and why.
func ParseCron(expr string) (*Cron, error) {
	if strings.HasPrefix(strings.TrimSpace(expr), "@") {
		return nil, fmt.Errorf("shortcuts such as %q are not supported; give 5 fields", strings.TrimSpace(expr))
	}
	fields := strings.Fields(expr)
	if len(fields) != 5 {
		return nil, fmt.Errorf("must have 5 fields (minute hour day-of-month month day-of-week), got %d", len(fields))
	}
	var c Cron
	dst := [5]*uint64{&c.minute, &c.hour, &c.dom, &c.month, &c.dow}
	for i, f := range fields {
		bits, err := cronFields[i].parse(f)
		if err != nil {
			return nil, fmt.Errorf("%s field %q: %v", cronFields[i].name, f, err)
		}
		*dst[i] = bits
	}
	if c.dow&(1<<7) != 0 { // 7 is Sunday too
		c.dow |= 1
	}
	c.domAll, c.dowAll = fields[2] == "*", fields[4] == "*"
	return &c, nil
}

// parse reads one field.
func (cf cronField) parse(f string) (uint64, error) {
	var bits uint64
	for _, part := range strings.Split(f, ",") {
		rng, stepText, stepped := strings.Cut(part, "/")
		step := 1
		if stepped {
			n, err := strconv.Atoi(stepText)
			if err != nil || n < 1 || n > cf.hi {
				return 0, fmt.Errorf("step %q must be a number from 1 to %d", stepText, cf.hi)
			}
			step = n
		}
		lo, hi := cf.lo, cf.hi
		switch {
		case rng == "*":
		case rng == "":
			return 0, fmt.Errorf("empty list element")
		default:
			a, b, isRange := strings.Cut(rng, "-")
			var err error
			if lo, err = cf.value(a); err != nil {
				return 0, err
			}
			hi = lo
			if isRange {
				if hi, err = cf.value(b); err != nil {
					return 0, err
				}
				if hi < lo {
					return 0, fmt.Errorf("range %q ends before it starts", rng)
				}
			} else if stepped {
				hi = cf.hi // "5/15" is 5, 20, 35, 50
			}
		}
		for v := lo; v <= hi; v += step {
			bits |= 1 << v
		}
	}
	return bits, nil
}

// value reads one number or name of the field.
func (cf cronField) value(s string) (int, error) {
	for i, n := range cf.names {
		if strings.EqualFold(s, n) {
			return cf.lo + i, nil
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || s == "" || s[0] == '+' || s[0] == '-' {
		return 0, fmt.Errorf("%q is not a number from %d to %d (L, W, #, ? are not supported)", s, cf.lo, cf.hi)
	}
	if n < cf.lo || n > cf.hi {
		return 0, fmt.Errorf("%d is outside %d–%d", n, cf.lo, cf.hi)
	}
	return n, nil
}

// Next returns the first minute strictly after t, in t's location, that
// the expression matches; the zero time when none comes within 5 years
// (e.g. "0 0 31 2 *").
func (c *Cron) Next(t time.Time) time.Time {
	t = t.Truncate(time.Minute).Add(time.Minute)
	end := t.AddDate(5, 0, 0)
	for t.Before(end) {
		switch {
		case c.month&(1<<uint(t.Month())) == 0:
			t = time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, t.Location())
		case !c.dayMatches(t):
			t = time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, t.Location())
		case c.hour&(1<<uint(t.Hour())) == 0:
			t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour()+1, 0, 0, 0, t.Location())
		case c.minute&(1<<uint(t.Minute())) == 0:
			t = t.Add(time.Minute)
		default:
			return t
		}
	}
	return time.Time{}
}

// dayMatches applies cron's day rule: with both day fields restricted, a
// day matches when either does.
func (c *Cron) dayMatches(t time.Time) bool {
	dom := c.dom&(1<<uint(t.Day())) != 0
	dow := c.dow&(1<<uint(t.Weekday())) != 0
	switch {
	case c.domAll && c.dowAll:
		return true
	case c.domAll:
		return dow
	case c.dowAll:
		return dom
	}
	return dom || dow
}
