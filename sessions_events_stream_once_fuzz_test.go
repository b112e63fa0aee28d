package mms

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"testing"
	"time"
)

// FuzzSessionStreamOnce drives the exactly-once state through connections
// made from the input, against a stored log whose processed times repeat
// (two events a second): each connection opens with more events stored
// (the gap list sees them), more are stored while it is up, and it
// delivers any stored events, in any order, repeated, then drops; some
// connections also replay the previews of the log's last event from its
// start. Whatever the script: every stored event is yielded exactly once,
// the previews yielded are a prefix of that event's fragments, once each,
// and none comes after the event.
func FuzzSessionStreamOnce(f *testing.F) {
	f.Add([]byte{1, 0, 3, 2, 0, 1, 5, 4, 4, 9})
	f.Add([]byte{0, 3, 7, 6, 5, 4, 3, 2, 1, 0, 2, 2, 2})
	f.Add([]byte{3, 3, 3, 3, 200, 100, 50, 25, 12, 6, 3, 1})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, script []byte) {
		const n = 24
		base := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
		var log []SessionEvent
		for i := range n {
			log = append(log, AgentMessageEvent{ID: fmt.Sprintf("sevt_%d", i), ProcessedAt: base.Add(time.Duration(i/2) * time.Second).Format(time.RFC3339Nano)})
		}
		pending := log[n-1].EventID() // its previews come before it is stored
		var frags []string
		for i := range 16 {
			frags = append(frags, fmt.Sprintf("f%d", i))
		}
		next := func() int {
			if len(script) == 0 {
				return 0
			}
			b := int(script[0])
			script = script[1:]
			return b
		}
		stored := 0
		st := &sessionStream{seen: map[string]time.Time{}, policy: ReconnectPolicy{}.withDefaults(), history: true}
		st.list = func(_ context.Context, since time.Time) iter.Seq2[SessionEvent, error] {
			return func(yield func(SessionEvent, error) bool) {
				for _, ev := range log[:stored] {
					if !processedTime(ev).Before(since) && !yield(ev, nil) {
						return
					}
				}
			}
		}
		count := map[string]int{}
		var previews []string
		st.yield = func(ev SessionEvent, err error) bool {
			if err != nil {
				t.Fatal(err)
			}
			switch ev := ev.(type) {
			case SessionEventStart:
				previews = append(previews, "start")
			case SessionEventDelta:
				if count[pending] > 0 {
					t.Fatalf("a preview after its event")
				}
				previews = append(previews, ev.Delta.(SessionContentDelta).Content.(TextBlock).Text)
			default:
				count[ev.EventID()]++
			}
			return true
		}
		ctx := context.Background()
		check := func(done bool, err error) {
			t.Helper()
			if done || err != nil {
				t.Fatalf("done %v, err %v", done, err)
			}
		}
		replayed := 0 // the most fragments a connection has sent
		for conns := 0; len(script) > 0 && conns < 10; conns++ {
			stored = min(n, stored+next()%4)
			st.previews.reconnected()
			check(st.fill(ctx))
			stored = min(n, stored+next()%4) // stored while the connection is up
			for range next() % 8 {
				if stored > 0 {
					check(st.live(ctx, log[next()%stored]))
				}
			}
			if b := next(); b%3 == 0 { // the previews of the pending event, from its start
				m := b / 3 % (len(frags) + 1)
				check(st.live(ctx, SessionEventStart{Event: SessionEventRef{Type: "agent.message", ID: pending}}))
				for _, text := range frags[:m] {
					check(st.live(ctx, SessionEventDelta{PendingEventID: pending, Delta: SessionContentDelta{Content: TextBlock{Text: text}}}))
				}
				if count[pending] == 0 {
					replayed = max(replayed, m)
				}
			}
		}
		stored = n
		check(st.fill(ctx))
		for _, ev := range log {
			if count[ev.EventID()] != 1 {
				t.Fatalf("%s yielded %d times", ev.EventID(), count[ev.EventID()])
			}
		}
		var want []string
		if len(previews) > 0 {
			want = append([]string{"start"}, frags[:replayed]...)
		}
		if !slices.Equal(want, previews) {
			t.Fatalf("previews %v, want %v", previews, want)
		}
	})
}
