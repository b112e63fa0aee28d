package mmstest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// cachedSystem is a system member whose one text block, with cache_control
// cc, has a compact JSON form of exactly size bytes.
func cachedSystem(size int, cc string) string {
	block := func(text string) string {
		return `{"type":"text","text":"` + text + `","cache_control":` + cc + `}`
	}
	return `"system":[` + block(strings.Repeat("s", size-len(block("")))) + `]`
}

type cacheWant struct {
	Created, Read, Created5m, Created1h int
}

// TestPromptCache sends request sequences on a controlled clock and checks
// each reply's cache accounting, and that input_tokens counts the rest.
func TestPromptCache(t *testing.T) {
	const big = 4 * 2000 // a 2000-token prefix
	eph, hour := `{"type":"ephemeral"}`, `{"type":"ephemeral","ttl":"1h"}`
	sys := cachedSystem(big, eph)
	sys1h := strings.Replace(sys, eph, hour, 1)
	type step struct {
		advance time.Duration
		body    string
		want    cacheWant
	}
	msgs := `"messages":[{"role":"user","content":"Hi"}]`
	longer := `"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello"},` +
		`{"role":"user","content":[{"type":"text","text":"` + strings.Repeat("m", big) + `","cache_control":` + eph + `}]}]`
	tests := []struct {
		name  string
		steps []step
	}{
		{"write then read", []step{
			{0, create(sys + "," + msgs), cacheWant{Created: 2000, Created5m: 2000}},
			{0, create(sys + "," + msgs), cacheWant{Read: 2000}},
		}},
		{"below the minimum", []step{
			{0, create(cachedSystem(4*MinCacheableTokens-1, eph) + "," + msgs), cacheWant{}},
			{0, create(cachedSystem(4*MinCacheableTokens-1, eph) + "," + msgs), cacheWant{}},
		}},
		{"at the minimum", []step{
			{0, create(cachedSystem(4*MinCacheableTokens, eph) + "," + msgs), cacheWant{Created: MinCacheableTokens, Created5m: MinCacheableTokens}},
		}},
		{"no breakpoint", []step{
			{0, create(`"system":[{"type":"text","text":"` + strings.Repeat("s", big) + `"}],` + msgs), cacheWant{}},
		}},
		{"5m expires", []step{
			{0, create(sys + "," + msgs), cacheWant{Created: 2000, Created5m: 2000}},
			{5*time.Minute - time.Second, create(sys + "," + msgs), cacheWant{Read: 2000}},
			{5*time.Minute - time.Second, create(sys + "," + msgs), cacheWant{Read: 2000}}, // a read refreshed it
			{5 * time.Minute, create(sys + "," + msgs), cacheWant{Created: 2000, Created5m: 2000}},
		}},
		{"1h lives longer", []step{
			{0, create(cachedSystem(big, hour) + "," + msgs), cacheWant{Created: 2000, Created1h: 2000}},
			{59 * time.Minute, create(cachedSystem(big, hour) + "," + msgs), cacheWant{Read: 2000}},
		}},
		{"another model misses", []step{
			{0, create(sys + "," + msgs), cacheWant{Created: 2000, Created5m: 2000}},
			{0, strings.Replace(create(sys+","+msgs), "mms-large-1", "mms-medium-1", 1), cacheWant{Created: 2000, Created5m: 2000}},
		}},
		// The 1h system block is 11 bytes longer than sys (its ttl member);
		// the conversation after it adds 8074 bytes.
		{"a longer conversation reads the prefix and writes the rest", []step{
			{0, create(sys + "," + msgs), cacheWant{Created: 2000, Created5m: 2000}},
			{0, create(sys1h + "," + longer), cacheWant{Read: 2002, Created: 2019, Created5m: 2019}},
			{0, create(sys + "," + longer), cacheWant{Read: 4018}},
		}},
		{"two breakpoints split by lifetime", []step{
			{0, create(sys1h + "," + longer), cacheWant{Created: 4021, Created1h: 2002, Created5m: 2019}},
		}},
		{"automatic caching", []step{
			{0, create(`"cache_control":` + eph + `,"system":"` + strings.Repeat("s", big) + `",` + msgs), cacheWant{Created: 2001, Created5m: 2001}},
			{0, create(`"cache_control":` + eph + `,"system":"` + strings.Repeat("s", big) + `",` + msgs), cacheWant{Read: 2001}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			s := NewServer(WithClock(func() time.Time { return now }))
			defer s.Close()
			for i, st := range tt.steps {
				now = now.Add(st.advance)
				resp, body := post(t, s, messagesPath, st.body)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("step %d: %d %s", i, resp.StatusCode, body)
				}
				var m messageWire
				if err := json.Unmarshal(body, &m); err != nil {
					t.Fatal(err)
				}
				u := m.Usage
				got := cacheWant{u.CacheCreationInputTokens, u.CacheReadInputTokens, u.CacheCreation.Ephemeral5m, u.CacheCreation.Ephemeral1h}
				if d := cmp.Diff(st.want, got); d != "" {
					t.Errorf("step %d: cache usage (-want +got):\n%s", i, d)
				}
				countBody := strings.Replace(st.body, `"max_tokens":2048,`, "", 1)
				_, cb := post(t, s, countPath, countBody)
				var c struct {
					InputTokens int `json:"input_tokens"`
				}
				if err := json.Unmarshal(cb, &c); err != nil {
					t.Fatal(err)
				}
				if u.InputTokens+got.Created+got.Read != c.InputTokens {
					t.Errorf("step %d: input %d + created %d + read %d != count_tokens %d", i, u.InputTokens, got.Created, got.Read, c.InputTokens)
				}
			}
		})
	}
}

// TestPromptCacheStream checks that a stream's message_delta carries the
// cache accounting of message_start, so accumulated usage keeps it.
func TestPromptCacheStream(t *testing.T) {
	s := NewServer()
	defer s.Close()
	body := create(`"stream":true,` + cachedSystem(8000, `{"type":"ephemeral"}`) + `,"messages":[{"role":"user","content":"Hi"}]`)
	for i, want := range []string{`"cache_creation_input_tokens":2000,"cache_read_input_tokens":0`,
		`"cache_creation_input_tokens":0,"cache_read_input_tokens":2000`} {
		_, got := post(t, s, messagesPath, body)
		for _, ev := range []string{"event: message_start", "event: message_delta"} {
			at := strings.Index(string(got), ev)
			if at < 0 || !strings.Contains(strings.SplitN(string(got[at:]), "\n\n", 2)[0], want) {
				t.Errorf("request %d: %s lacks %s:\n%s", i, ev, want, got)
			}
		}
	}
}
