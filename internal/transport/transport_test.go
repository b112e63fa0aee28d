package transport

import (
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/config"
)

func TestRetryAfterSources(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
		ok     bool
	}{
		{"ms wins", map[string]string{"retry-after-ms": "1500.5", "retry-after": "9"}, 1500500 * time.Microsecond, true},
		{"float seconds", map[string]string{"retry-after": "0.25"}, 250 * time.Millisecond, true},
		{"http date", map[string]string{"retry-after": now.Add(4 * time.Second).Format(http.TimeFormat)}, 4 * time.Second, true},
		{"garbage", map[string]string{"retry-after": "soon"}, 0, false},
		{"none", nil, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			got, ok := RetryAfter(h, now)
			if got != tt.want || ok != tt.ok {
				t.Errorf("RetryAfter = %v %v, want %v %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestRetryAfterUnrepresentable feeds waits a time.Duration cannot hold:
// each is reported absent (ok false), never clamped to the largest or
// smallest Duration, and the retry uses the backoff, as for any delay
// outside (0, 60 s]. An unusable retry-after-ms leaves the word to
// retry-after.
func TestRetryAfterUnrepresentable(t *testing.T) {
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
		ok     bool
	}{
		{"ms NaN", map[string]string{"retry-after-ms": "NaN"}, 0, false},
		{"ms NaN falls back to retry-after", map[string]string{"retry-after-ms": "NaN", "retry-after": "2"}, 2 * time.Second, true},
		{"ms +Inf", map[string]string{"retry-after-ms": "+Inf"}, 0, false},
		{"ms +Inf falls back to retry-after", map[string]string{"retry-after-ms": "+Inf", "retry-after": "2"}, 2 * time.Second, true},
		{"ms -Inf", map[string]string{"retry-after-ms": "-Inf"}, 0, false},
		{"ms 1e308", map[string]string{"retry-after-ms": "1e308"}, 0, false},
		{"ms -1e308", map[string]string{"retry-after-ms": "-1e308"}, 0, false},
		{"ms huge int", map[string]string{"retry-after-ms": "9223372036854775807"}, 0, false},
		{"ms just over MaxInt64 ns", map[string]string{"retry-after-ms": "9223372036854.775808"}, 0, false},
		{"ms negative is no wait", map[string]string{"retry-after-ms": "-5"}, 0, true},
		{"ms near the largest that fits", map[string]string{"retry-after-ms": "9000000000000"}, 9000000000000 * time.Millisecond, true},
		{"s NaN", map[string]string{"retry-after": "NaN"}, 0, false},
		{"s nan", map[string]string{"retry-after": "nan"}, 0, false},
		{"s +Inf", map[string]string{"retry-after": "+Inf"}, 0, false},
		{"s Infinity", map[string]string{"retry-after": "Infinity"}, 0, false},
		{"s -Inf", map[string]string{"retry-after": "-Inf"}, 0, false},
		{"s 1e308", map[string]string{"retry-after": "1e308"}, 0, false},
		{"s MaxInt64", map[string]string{"retry-after": "9223372036854775807"}, 0, false},
		{"s 1e10", map[string]string{"retry-after": "1e10"}, 0, false},
		{"s largest that fits", map[string]string{"retry-after": "9223372036"}, 9223372036 * time.Second, true},
		{"s negative is no wait", map[string]string{"retry-after": "-3"}, 0, true},
		{"date far ahead", map[string]string{"retry-after": "Fri, 31 Dec 9999 23:59:59 GMT"}, 0, false},
		{"date in the past", map[string]string{"retry-after": "Mon, 01 Jan 2001 00:00:00 GMT"}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			got, ok := RetryAfter(h, time.Now())
			if got != tt.want || ok != tt.ok {
				t.Errorf("RetryAfter = %v (%d) %v, want %v %v", got, int64(got), ok, tt.want, tt.ok)
			}
			if got == math.MaxInt64 || got == math.MinInt64 {
				t.Errorf("RetryAfter = %d: an extreme Duration", int64(got))
			}
			d := retryDelay(&Response{Response: &http.Response{Header: h}}, 0)
			want := tt.want
			if want <= 0 || want > time.Minute {
				want = 500 * time.Millisecond // the first backoff, minus jitter
				if d > want || d < want*3/4 {
					t.Errorf("retry delay = %v, want the backoff", d)
				}
				return
			}
			if d != want {
				t.Errorf("retry delay = %v, want %v", d, want)
			}
		})
	}
}

// TestHeaderCount: a count a bucket header cannot hold is absent, not
// clamped (strconv.ParseInt answers MaxInt64 with its range error).
func TestHeaderCount(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"50", 50, true}, {" 0 ", 0, true}, {"9223372036854775807", math.MaxInt64, true},
		{"9223372036854775808", 0, false}, {"-1", 0, false}, {"-9223372036854775809", 0, false},
		{"1e3", 0, false}, {"NaN", 0, false}, {"", 0, false},
	}
	for _, tt := range tests {
		got, ok := HeaderCount(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("HeaderCount(%q) = %d %v, want %d %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRetryDelayBounds(t *testing.T) {
	for n, base := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second, 8 * time.Second} {
		for range 200 {
			d := backoff(n)
			if d > base || d < base*3/4 {
				t.Fatalf("backoff(%d) = %v, want in [%v, %v]", n, d, base*3/4, base)
			}
		}
	}
	over := &Response{Response: &http.Response{Header: http.Header{"Retry-After": {"61"}}}}
	if d := retryDelay(over, 0); d > 500*time.Millisecond {
		t.Errorf("retry-after 61 s gave %v, want the backoff", d)
	}
	zero := &Response{Response: &http.Response{Header: http.Header{"Retry-After": {"0"}}}}
	if d := retryDelay(zero, 1); d < 750*time.Millisecond {
		t.Errorf("retry-after 0 gave %v, want the backoff", d)
	}
}

func TestRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"https://api.example.com/v1", "https://api.example.com/v1"},
		{"https://u:p@api.example.com", "https://[redacted]@api.example.com"},
		{"https://u@api.example.com:8443/x?y=@z", "https://[redacted]@api.example.com:8443/x?y=@z"},
		{"https://u:p%40q@h/a", "https://[redacted]@h/a"},
		{"https://u:p@q@h", "https://[redacted]@h"},
		{`Post "http://u:***@127.0.0.1:1/v1/messages": EOF`, `Post "http://[redacted]@127.0.0.1:1/v1/messages": EOF`},
		{`Get "http://u:***@h": EOF`, `Get "http://[redacted]@h": EOF`},
		{"a http://x:y@h1/ and https://z@h2", "a http://[redacted]@h1/ and https://[redacted]@h2"},
		{"mail me at a@b.example", "mail me at a@b.example"},
		{"https://h/path@x", "https://h/path@x"},
		{"https://h mail a@b", "https://h mail a@b"},
		{"ends with ://", "ends with ://"},
	}
	for _, tt := range tests {
		if got := RedactURL(tt.in); got != tt.want {
			t.Errorf("RedactURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMergeBetas(t *testing.T) {
	tests := []struct {
		name     string
		cfg      config.Config
		endpoint []string
		want     []string
	}{
		{"empty", config.Config{}, nil, nil},
		{"order and dedup", config.Config{Betas: []string{"a", "b", "a", " c "}}, []string{"b", "e"}, []string{"a", "b", "c", "e"}},
		{"omit endpoint beta", config.Config{OmitBetas: []string{"e"}}, []string{"e"}, nil},
		{"omit cannot drop a caller beta", config.Config{Betas: []string{"e"}, OmitBetas: []string{"e"}}, []string{"e"}, []string{"e"}},
		{"profile adds user-profiles", config.Config{UserProfileID: "p"}, nil, []string{"user-profiles"}},
		{"dated profile beta replaces", config.Config{UserProfileID: "p", Betas: []string{"user-profiles-2026-08-18"}}, nil, []string{"user-profiles-2026-08-18"}},
		{"endpoint user-profiles kept", config.Config{}, []string{"user-profiles"}, []string{"user-profiles"}},
		{"dated beta replaces endpoint user-profiles", config.Config{Betas: []string{"user-profiles-2026-08-18"}}, []string{"a", "user-profiles"}, []string{"user-profiles-2026-08-18", "a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(tt.want, MergeBetas(&tt.cfg, tt.endpoint)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestAdminKeyOnlyOnAdminPaths: an admin key alone reaches the
// Organization API and compliance review prefixes and nothing else (a
// look-alike path included); with another credential the guard stays out.
func TestAdminKeyOnlyOnAdminPaths(t *testing.T) {
	admin := &config.Config{AdminKey: "sk-admin-secret"}
	tests := []struct {
		path string
		ok   bool
	}{
		{"/v1/organizations/me", true},
		{"/v1/organizations/api_keys/k", true},
		{"/v1/compliance/review/cases", true},
		{"/v1/compliance/review/items/msg_1", true},
		{"/v1/compliance/review", false},
		{"/v1/compliance/other", false},
		{"/v1/compliance/reviewx/cases", false},
		{"/v1/organizations", false},
		{"/v1/messages", false},
		{"/v1/models/m", false},
		{"/v2/compliance/review/cases", false},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			err := checkAdminPath(admin, &Request{Method: http.MethodGet, Path: tt.path})
			if (err == nil) != tt.ok {
				t.Fatalf("checkAdminPath(%q) = %v, want ok=%v", tt.path, err, tt.ok)
			}
			if err != nil && strings.Contains(err.Error(), admin.AdminKey) {
				t.Fatalf("the error shows the key: %v", err)
			}
		})
	}
	if err := checkAdminPath(&config.Config{AdminKey: "k", APIKey: "a"}, &Request{Method: http.MethodGet, Path: "/v1/messages"}); err != nil {
		t.Fatalf("with an API key the guard stays out: %v", err)
	}
}
