package mms

import (
	"context"
	"fmt"
	"iter"
	"testing"
	"time"
)

// TestSessionStreamSeenBounded: a session stream whose connection stays
// up for a long time checkpoints (lists from its watermark) whenever its
// ids have doubled, so it keeps the ids of about its last ten minutes of
// processed events; it still refuses a repeat inside that window, an old
// event by its time, and a repeat of an event without a processed time.
// A thread stream keeps every id and never checkpoints.
func TestSessionStreamSeenBounded(t *testing.T) {
	start := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	event := func(i int) SessionEvent {
		return AgentMessageEvent{ID: fmt.Sprintf("sevt_%d", i), ProcessedAt: start.Add(time.Duration(i) * time.Second).Format(time.RFC3339Nano)}
	}
	const n = 20_000 // one event a second: five and a half hours
	for _, thread := range []bool{false, true} {
		t.Run(fmt.Sprint("thread=", thread), func(t *testing.T) {
			var stored []SessionEvent
			lists := 0
			st := &sessionStream{seen: map[string]time.Time{}, policy: ReconnectPolicy{}.withDefaults()}
			st.list = func(_ context.Context, since time.Time) iter.Seq2[SessionEvent, error] {
				lists++
				return func(yield func(SessionEvent, error) bool) {
					for _, ev := range stored {
						if !processedTime(ev).Before(since) && !yield(ev, nil) {
							return
						}
					}
				}
			}
			yielded := map[string]int{}
			st.yield = func(ev SessionEvent, err error) bool {
				if err != nil {
					t.Fatal(err)
				}
				yielded[ev.EventID()]++
				return true
			}
			if thread {
				st.threadID = "sthr_1"
			}
			ctx := context.Background()
			live := func(ev SessionEvent) {
				t.Helper()
				if done, err := st.live(ctx, ev); done || err != nil {
					t.Fatalf("live(%s): %v %v", ev.EventID(), done, err)
				}
			}
			queued := AgentMessageEvent{ID: "sevt_queued"} // no processed time
			live(queued)
			biggest := 0
			for i := range n {
				stored = append(stored, event(i))
				live(event(i))
				biggest = max(biggest, len(st.seen))
				if i > 0 {
					live(event(i - 1)) // a repeat
				}
			}
			live(event(n - 500))
			live(event(3)) // long before the watermark
			live(queued)
			for i := range n {
				if id := fmt.Sprintf("sevt_%d", i); yielded[id] != 1 {
					t.Fatalf("%s yielded %d times", id, yielded[id])
				}
			}
			if yielded["sevt_queued"] != 1 {
				t.Errorf("the queued event yielded %d times", yielded["sevt_queued"])
			}
			if thread {
				if len(st.seen) != n+1 || lists != 0 {
					t.Errorf("a thread stream holds %d ids, want all %d, and listed %d times", len(st.seen), n+1, lists)
				}
				return
			}
			// Ten minutes is 600 events here; a checkpoint at twice the
			// size keeps at most about 2 × max(600, 1024).
			if biggest > 2*minPruneAt+2 {
				t.Errorf("the seen set grew to %d ids", biggest)
			}
			if lists < n/(2*minPruneAt) || lists > n/400 {
				t.Errorf("%d checkpoints for %d events", lists, n)
			}
		})
	}
}
