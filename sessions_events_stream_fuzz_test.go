package mms_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
)

// FuzzSessionStreamReconnect drives the reconnecting stream through
// connections made from the input: each one opens with more events stored
// (those stored while the client was away), sends some already-delivered
// events again in any order, then a run of new events in order, and ends
// cleanly, cut, or answered with a retryable status. Whatever the script,
// every stored event comes out once, in order.
func FuzzSessionStreamReconnect(f *testing.F) {
	f.Add([]byte{3, 0, 2, 5, 1, 0, 9})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{7, 3, 1, 2, 200, 4, 4, 4, 9, 9, 1, 2, 3})
	f.Add([]byte{255, 254, 253, 1, 1, 1})
	f.Fuzz(func(t *testing.T, script []byte) {
		const n = 12 // messages; evt_12 terminates
		log := messageLog(n)
		var conns []streamConn
		next := func() int {
			if len(script) == 0 {
				return 0
			}
			b := int(script[0])
			script = script[1:]
			return b
		}
		stored, sent := 0, 0 // events stored and events sent live so far
		for len(script) > 0 && len(conns) < 8 {
			c := streamConn{}
			switch b := next(); {
			case b%7 == 6:
				conns = append(conns, streamConn{status: []int{408, 429, 500, 529}[b%4]})
				continue
			default:
				stored = min(n, max(stored, sent)+b%3) // some stored while away
			}
			c.stored = stored
			for range next() % 4 { // replays of delivered events
				if stored > 0 {
					c.send = append(c.send, next()%stored)
				}
			}
			from := stored
			for range next() % 5 { // new events, in order
				if from < n {
					c.send = append(c.send, from)
					from++
				}
			}
			sent = from
			c.end = []string{"eof", "cut"}[next()%2]
			conns = append(conns, c)
		}
		last := streamConn{stored: max(stored, sent)}
		for i := last.stored; i <= n; i++ {
			last.send = append(last.send, i)
		}
		conns = append(conns, last)
		s := newSessionScript(t, log, conns...)
		got, err := streamIDs(s.client(t).Sessions.Events.Stream(context.Background(), "sesn_1",
			mms.SessionEventStreamParams{IncludeHistory: true, Reconnect: fastReconnect}))
		if err != nil {
			t.Fatalf("script %+v: after %v: %v", conns, got, err)
		}
		if diff := cmp.Diff(eventIDs(0, n+1), got); diff != "" {
			t.Fatalf("script %+v: events (-want +got):\n%s", conns, diff)
		}
	})
}
