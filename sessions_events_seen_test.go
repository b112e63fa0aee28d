package mms

import (
	"fmt"
	"testing"
	"time"
)

// TestSessionStreamSeenBounded: a session stream that runs for a long
// time keeps the ids of about its last ten minutes of processed events,
// still refuses a repeat inside that window, and keeps ids without a
// processed time; a thread stream keeps every id.
func TestSessionStreamSeenBounded(t *testing.T) {
	start := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	event := func(i int) SessionEvent {
		return AgentMessageEvent{ID: fmt.Sprintf("sevt_%d", i), ProcessedAt: start.Add(time.Duration(i) * time.Second).Format(time.RFC3339Nano)}
	}
	const n = 20_000 // one event a second: five and a half hours
	for _, thread := range []bool{false, true} {
		t.Run(fmt.Sprint("thread=", thread), func(t *testing.T) {
			st := &sessionStream{seen: map[string]time.Time{}}
			if thread {
				st.threadID = "sthr_1"
			}
			queued := AgentMessageEvent{ID: "sevt_queued"} // no processed time
			if !st.admit(queued) {
				t.Fatal("the queued event was refused")
			}
			biggest := 0
			for i := range n {
				if !st.admit(event(i)) {
					t.Fatalf("event %d refused", i)
				}
				biggest = max(biggest, len(st.seen))
				if i > 0 && st.admit(event(i-1)) {
					t.Fatalf("event %d admitted twice", i-1)
				}
			}
			if st.admit(event(n-500)) || st.admit(queued) {
				t.Error("a repeat inside the window, or of an event without a processed time, was admitted")
			}
			if thread {
				if len(st.seen) != n+1 {
					t.Errorf("a thread stream holds %d ids, want all %d", len(st.seen), n+1)
				}
				return
			}
			// Ten minutes is 600 events here; pruning at twice the size
			// keeps at most about 2 × max(600, 1024).
			if biggest > 2*minPruneAt+2 {
				t.Errorf("the seen set grew to %d ids", biggest)
			}
		})
	}
}
