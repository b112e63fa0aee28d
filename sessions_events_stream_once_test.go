package mms_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// Issue 27 §2: the session event stream yields every stored event exactly
// once, each preview at most once, gives up after a bounded number of
// failures, and yields nothing after a cancel.

// secondLog is n agent messages processed one a second (evt_0 …), then
// session.status_terminated: no two share a processed time.
func secondLog(n int) []string {
	var log []string
	for i := range n + 1 {
		log = append(log, fakeEvent(2*i, "agent.message"))
	}
	log[n] = fakeEvent(2*n, "session.status_terminated")
	for i := range log {
		log[i] = strings.Replace(log[i], fmt.Sprintf(`"evt_%d"`, 2*i), fmt.Sprintf(`"evt_%d"`, i), 1)
	}
	return log
}

// sseRaw is one server-sent event.
func sseRaw(data string) string {
	var name string
	if i := strings.Index(data, `"type":"`); i >= 0 {
		name, _, _ = strings.Cut(data[i+8:], `"`)
	}
	return "event: " + name + "\ndata: " + data + "\n\n"
}

// TestSessionStreamOutOfOrderThenReset: stored e1, e2, e3; the connection
// carries e1, e3 and is reset; the list holds e1…e4 when the stream comes
// back. The gap is listed from the low watermark (before e1), not from the
// newest time seen (e3's), so e2 comes, and nothing comes twice.
func TestSessionStreamOutOfOrderThenReset(t *testing.T) {
	log := secondLog(4) // evt_0 … evt_3, evt_4 terminates
	for _, history := range []bool{false, true} {
		t.Run(fmt.Sprint("history=", history), func(t *testing.T) {
			s := newSessionScript(t, log,
				streamConn{stored: 0, send: []int{0, 2}, end: "cut"},
				streamConn{stored: 5},
			)
			got, err := streamIDs(s.client(t).Sessions.Events.Stream(context.Background(), "sesn_1",
				mms.SessionEventStreamParams{IncludeHistory: history, Reconnect: fastReconnect}))
			require.NoError(t, err)
			want := []string{"evt_0", "evt_2", "evt_1", "evt_3", "evt_4"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSessionStreamStoredOnceProperty: whatever order the connections
// deliver the stored events in, and wherever they are cut, every stored
// event comes out exactly once.
func TestSessionStreamStoredOnceProperty(t *testing.T) {
	const n = 10
	log := secondLog(n)
	seed := uint64(1)
	rnd := func(k int) int { // xorshift: deterministic, no shared state
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return int(seed % uint64(k))
	}
	for round := range 60 {
		var conns []streamConn
		stored := 0
		for len(conns) < 4 {
			stored = min(n, stored+rnd(4))
			c := streamConn{stored: rnd(stored + 1), end: "cut"} // the list may lag behind the connection
			for range rnd(6) {
				c.send = append(c.send, rnd(n)) // any stored event, in any order, repeated
			}
			conns = append(conns, c)
		}
		conns = append(conns, streamConn{stored: n + 1})
		t.Run(fmt.Sprint(round), func(t *testing.T) {
			s := newSessionScript(t, log, conns...)
			got, err := streamIDs(s.client(t).Sessions.Events.Stream(context.Background(), "sesn_1",
				mms.SessionEventStreamParams{IncludeHistory: true, Reconnect: fastReconnect}))
			require.NoError(t, err, "script %+v", conns)
			count := map[string]int{}
			for _, id := range got {
				count[id]++
			}
			for _, id := range eventIDs(0, n+1) {
				if count[id] != 1 {
					t.Fatalf("script %+v: %s yielded %d times in %v", conns, id, count[id], got)
				}
			}
			if len(got) != n+1 {
				t.Fatalf("script %+v: %v", conns, got)
			}
		})
	}
}

// previewIDs ranges over the stream, naming each element: the event id of
// a stored event, "start:<id>" and "delta:<id>:<text>" for previews.
func previewIDs(seq func(func(mms.SessionEvent, error) bool)) ([]string, error) {
	var got []string
	for ev, err := range seq {
		if err != nil {
			return got, err
		}
		switch ev := ev.(type) {
		case mms.SessionEventStart:
			got = append(got, "start:"+ev.Event.ID)
		case mms.SessionEventDelta:
			text := ""
			if d, ok := ev.Delta.(mms.SessionContentDelta); ok {
				if tb, ok := d.Content.(mms.TextBlock); ok {
					text = tb.Text
				}
			}
			got = append(got, "delta:"+ev.PendingEventID+":"+text)
		default:
			got = append(got, ev.EventID())
		}
	}
	return got, nil
}

// TestSessionStreamPreviewsOnce: connections that re-send earlier events
// with their previews. Each preview is yielded at most once, and none for
// an event already yielded.
func TestSessionStreamPreviewsOnce(t *testing.T) {
	log := secondLog(2) // evt_0, evt_1, evt_2 terminates
	start := func(id string) string {
		return sseRaw(`{"type":"event_start","event":{"type":"agent.message","id":"` + id + `"}}`)
	}
	delta := func(id, text string) string {
		return sseRaw(`{"type":"event_delta","event_id":"` + id + `","delta":{"type":"content_delta","index":0,"content":{"type":"text","text":"` + text + `"}}}`)
	}
	s := newSessionScript(t, log,
		// evt_0 with its previews, then the previews of evt_1 begin.
		streamConn{stored: 0, raw: []string{start("evt_0"), delta("evt_0", "m0"), sseRaw(log[0]),
			start("evt_1"), delta("evt_1", "a"), delta("evt_1", "b")}, end: "cut"},
		// Re-sends evt_0 with its previews (already yielded), and
		// evt_1's from the start, one fragment further.
		streamConn{stored: 1, raw: []string{start("evt_0"), delta("evt_0", "m0"), sseRaw(log[0]),
			start("evt_1"), delta("evt_1", "a"), delta("evt_1", "b"), delta("evt_1", "c")}, end: "cut"},
		// The same again, one more fragment: only "d" is new.
		streamConn{stored: 1, raw: []string{start("evt_1"), delta("evt_1", "a"), delta("evt_1", "b"), delta("evt_1", "c"), delta("evt_1", "d")}, end: "cut"},
		// evt_1 is stored now: the gap list yields it, and its previews
		// that follow on the connection are refused.
		streamConn{stored: 2, raw: []string{start("evt_1"), delta("evt_1", "a"), delta("evt_1", "b"), delta("evt_1", "c"),
			delta("evt_1", "d"), delta("evt_1", "e"), sseRaw(log[1]), sseRaw(log[2])}},
	)
	got, err := previewIDs(s.client(t).Sessions.Events.Stream(context.Background(), "sesn_1",
		mms.SessionEventStreamParams{EventDeltas: []string{"agent.message"}, Reconnect: fastReconnect}))
	require.NoError(t, err)
	want := []string{"start:evt_0", "delta:evt_0:m0", "evt_0", "start:evt_1", "delta:evt_1:a", "delta:evt_1:b",
		"delta:evt_1:c", "delta:evt_1:d", "evt_1", "evt_2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// failingStreams is a session whose stream answers every request with
// status, and whose event list is empty; it counts the stream requests.
func failingStreams(t *testing.T, status int) (*mms.Client, *atomic.Int64) {
	var opens atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/stream") {
			opens.Add(1)
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"type":"error","error":{"type":"api_error","message":"status %d"}}`, status)
			return
		}
		fmt.Fprint(w, `{"data":[],"next_page":null}`)
	}))
	t.Cleanup(ts.Close)
	c, err := mms.NewClient(option.WithAPIKey(testKey), option.WithBaseURL(ts.URL), option.WithMaxRetries(0))
	require.NoError(t, err)
	return c, &opens
}

// TestSessionStreamGivesUp: a server that answers 500 to every
// connection. The default policy gives up after 10 failed reconnects
// (11 requests) with an error wrapping ErrReconnectGaveUp and the last
// *mms.Error; GiveUpAfter bounds the time; ReconnectForever keeps trying
// until the context ends.
func TestSessionStreamGivesUp(t *testing.T) {
	fast := func(r mms.ReconnectPolicy) mms.ReconnectPolicy {
		r.InitialDelay, r.MaxDelay = time.Millisecond, 2*time.Millisecond
		return r
	}
	tests := []struct {
		name          string
		policy        mms.ReconnectPolicy
		ctxTimeout    time.Duration
		gaveUp        bool
		opens         func(int64) bool
		message       string
		minDuration   time.Duration
		maxDurationOK time.Duration
	}{
		{"the default bound", fast(mms.ReconnectPolicy{}), 5 * time.Second, true,
			func(n int64) bool { return n == 1+mms.DefaultReconnectAttempts }, "10 reconnects in a row failed", 0, 5 * time.Second},
		{"MaxAttempts 3", fast(mms.ReconnectPolicy{MaxAttempts: 3}), 5 * time.Second, true,
			func(n int64) bool { return n == 4 }, "3 reconnects in a row failed", 0, 5 * time.Second},
		{"GiveUpAfter", fast(mms.ReconnectPolicy{MaxAttempts: 1_000_000, GiveUpAfter: 80 * time.Millisecond}), 5 * time.Second, true,
			func(n int64) bool { return n > 1 && n < 1_000_000 }, "no progress for", 80 * time.Millisecond, 2 * time.Second},
		{"ReconnectForever", fast(mms.ReconnectPolicy{MaxAttempts: mms.ReconnectForever}), 300 * time.Millisecond, false,
			func(n int64) bool { return n > 1+mms.DefaultReconnectAttempts }, "", 300 * time.Millisecond, 5 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, opens := failingStreams(t, http.StatusInternalServerError)
			ctx, cancel := context.WithTimeout(context.Background(), tt.ctxTimeout)
			defer cancel()
			began := time.Now()
			got, err := streamIDs(c.Sessions.Events.Stream(ctx, "sesn_1", mms.SessionEventStreamParams{Reconnect: tt.policy}))
			took := time.Since(began)
			assert.Empty(t, got)
			require.Error(t, err)
			if tt.gaveUp {
				require.ErrorIs(t, err, mms.ErrReconnectGaveUp)
				var apiErr *mms.Error
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, 500, apiErr.StatusCode)
				assert.Contains(t, err.Error(), tt.message)
				assert.NotErrorIs(t, err, context.DeadlineExceeded)
			} else {
				require.ErrorIs(t, err, context.DeadlineExceeded)
				assert.NotErrorIs(t, err, mms.ErrReconnectGaveUp)
			}
			if n := opens.Load(); !tt.opens(n) {
				t.Errorf("%d stream requests", n)
			}
			if took < tt.minDuration || took > tt.maxDurationOK {
				t.Errorf("the stream ended after %v", took)
			}
		})
	}
}

// TestSessionStreamProgressResetsBound: each connection delivers one new
// event and ends; the stream is making progress, so MaxAttempts 1 does not
// end it.
func TestSessionStreamProgressResetsBound(t *testing.T) {
	log := messageLog(4)
	var conns []streamConn
	for i := range 5 {
		conns = append(conns, streamConn{stored: i, send: []int{i}, end: "eof"})
	}
	s := newSessionScript(t, log, conns...)
	got, err := streamIDs(s.client(t).Sessions.Events.Stream(context.Background(), "sesn_1",
		mms.SessionEventStreamParams{Reconnect: mms.ReconnectPolicy{MaxAttempts: 1, InitialDelay: time.Millisecond}}))
	require.NoError(t, err)
	if diff := cmp.Diff(eventIDs(0, 5), got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestSessionStreamNothingAfterCancel: the caller cancels at the second
// event while many more are already received (on the connection, or on
// the gap list's page); the next value is the context's error and nothing
// follows it, and the connection is released.
func TestSessionStreamNothingAfterCancel(t *testing.T) {
	log := messageLog(60)
	var burst strings.Builder // sent in one write: all of it is buffered by the client at once
	for _, ev := range log[:60] {
		burst.WriteString(sseRaw(ev))
	}
	tests := []struct {
		name    string
		history bool
		conn    streamConn
	}{
		{"buffered on the connection", false, streamConn{stored: 0, raw: []string{burst.String()}}},
		{"on the gap list's page", true, streamConn{stored: 60}},
	}
	for _, thread := range []bool{false, true} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s/thread=%v", tt.name, thread), func(t *testing.T) {
				nothingAfterCancel(t, log, tt.conn, tt.history, thread)
			})
		}
	}
}

func nothingAfterCancel(t *testing.T, log []string, conn streamConn, history, thread bool) {
	opt := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, opt) }) // after the server's and the transport's cleanups
	s := newSessionScript(t, log, conn)
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	c := s.client(t, option.WithHTTPClient(&http.Client{Transport: tr}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := mms.SessionEventStreamParams{IncludeHistory: history}
	seq := c.Sessions.Events.Stream(ctx, "sesn_1", p)
	if thread {
		seq = c.Sessions.Threads.Events.Stream(ctx, "sesn_1", "sthr_1", p)
	}
	var events []string
	var errs []error
	for ev, err := range seq {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if len(errs) > 0 {
			t.Fatalf("event %s after the error", ev.EventID())
		}
		events = append(events, ev.EventID())
		if len(events) == 2 {
			cancel()
			// Give the bytes time to arrive: the old stream handed over
			// what was buffered.
			time.Sleep(20 * time.Millisecond)
		}
	}
	assert.Equal(t, eventIDs(0, 2), events)
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], context.Canceled)
}

// TestSessionStreamReorderedAgainstFake: the fake delivers the stored
// events in swapped pairs (mmstest.StreamFault.Reorder) and cuts four
// connections after their first event, so the event waiting for its pair
// is never written on them. Every stored event of three turns still
// comes out exactly once.
func TestSessionStreamReorderedAgainstFake(t *testing.T) {
	var tick atomic.Int64 // every reading of the clock is a microsecond later: no two events share a processed time
	base := time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC)
	srv := mmstest.NewServer(mmstest.WithClock(func() time.Time { return base.Add(time.Duration(tick.Add(1)) * time.Microsecond) }),
		// A held event waits for the next one, or for a ping that cuts.
		mmstest.WithSessionEventDelay(time.Millisecond), mmstest.WithSessionPingInterval(20*time.Millisecond))
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0))
	ctx := context.Background()
	a, err := c.Agents.Create(ctx, mms.AgentCreateParams{Name: "worker", Model: mms.AgentModel("m")})
	require.NoError(t, err)
	env, err := c.Environments.Create(ctx, mms.EnvironmentCreateParams{Name: "env"})
	require.NoError(t, err)
	sess, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(a.ID), EnvironmentID: env.ID})
	require.NoError(t, err)
	srv.InjectStreamFault(mmstest.StreamFault{Path: "/v1/sessions/", Reorder: true, CutAfterEvents: 1, Times: 4})

	const turns = 3
	send(t, c, sess.ID, mms.NewUserMessageEvent("message 0"))
	var got []string
	idle := 0
	for ev, err := range c.Sessions.Events.Stream(ctx, sess.ID, mms.SessionEventStreamParams{IncludeHistory: true, Reconnect: fastReconnect}) {
		require.NoError(t, err, "after %v", got)
		got = append(got, ev.EventID())
		if st, ok := ev.(mms.SessionStatusIdleEvent); ok {
			if _, end := st.StopReason.(mms.SessionEndTurn); end {
				if idle++; idle == turns {
					require.NoError(t, srv.TerminateSession(sess.ID))
				} else {
					send(t, c, sess.ID, mms.NewUserMessageEvent(fmt.Sprintf("message %d", idle)))
				}
			}
		}
	}
	var want []string
	for _, e := range fakeLog(t, srv, sess.ID) {
		want = append(want, e.ID)
	}
	slices.Sort(want)
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("streamed events differ from the fake's log (-log +streamed):\n%s", diff)
	}
}
