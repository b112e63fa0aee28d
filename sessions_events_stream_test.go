package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// The reconnecting session stream against a scripted service whose every
// connection does what the test says: which stored events exist when it
// opens, which it sends (repeated, reordered, previews), and how it ends.

// streamConn is the script of one stream connection.
type streamConn struct {
	status int      // answer this error status instead of a stream
	stored int      // log events stored (listable) once this connection opens
	send   []int    // log indexes sent, in this order
	raw    []string // then these raw SSE events (previews, pings, errors)
	end    string   // "eof" (clean end), "cut" (abort), "stall", "" (stay open)
}

// sessionScript is a scripted session: its event log and its connections.
type sessionScript struct {
	t      *testing.T
	log    []string // stored events, JSON, in processed order
	mu     sync.Mutex
	conns  []streamConn
	opens  int // stream requests so far
	lists  []string
	stored int
	ts     *httptest.Server
}

// fakeEvent is a stored event of the scripted log: ids evt_<i>, processed
// times that repeat (two events per second) so that the gap list's
// inclusive bound matters.
func fakeEvent(i int, typ string) string {
	ts := time.Date(2026, 11, 24, 10, 0, i/2, 0, time.UTC).Format(time.RFC3339Nano)
	if typ == "agent.message" {
		return fmt.Sprintf(`{"type":"agent.message","id":"evt_%d","content":[{"type":"text","text":"m%d"}],"processed_at":%q}`, i, i, ts)
	}
	return fmt.Sprintf(`{"type":%q,"id":"evt_%d","processed_at":%q}`, typ, i, ts)
}

// messageLog is n agent messages, then session.status_terminated.
func messageLog(n int) []string {
	var log []string
	for i := range n {
		log = append(log, fakeEvent(i, "agent.message"))
	}
	return append(log, fakeEvent(n, "session.status_terminated"))
}

func newSessionScript(t *testing.T, log []string, conns ...streamConn) *sessionScript {
	s := &sessionScript{t: t, log: log, conns: conns}
	s.ts = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.ts.Close)
	return s
}

func (s *sessionScript) client(t *testing.T, opts ...option.RequestOption) *mms.Client {
	base := []option.RequestOption{option.WithAPIKey(testKey), option.WithBaseURL(s.ts.URL), option.WithMaxRetries(0)}
	c, err := mms.NewClient(append(base, opts...)...)
	require.NoError(t, err)
	return c
}

func (s *sessionScript) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case strings.HasSuffix(r.URL.Path, "/stream"):
		s.stream(w, r)
	case strings.HasSuffix(r.URL.Path, "/events"):
		s.list(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (s *sessionScript) stream(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.opens >= len(s.conns) {
		s.mu.Unlock()
		s.t.Errorf("stream connection %d was not scripted", s.opens+1)
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"no more"}}`, 400)
		return
	}
	c := s.conns[s.opens]
	s.opens++
	s.stored = max(s.stored, c.stored)
	s.mu.Unlock()
	if c.status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(c.status)
		fmt.Fprintf(w, `{"type":"error","error":{"type":"api_error","message":"status %d"}}`, c.status)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(200)
	f := w.(http.Flusher)
	f.Flush()
	for _, i := range c.send {
		var ev struct{ Type string }
		json.Unmarshal([]byte(s.log[i]), &ev)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.Type, s.log[i])
		f.Flush()
	}
	for _, raw := range c.raw {
		fmt.Fprint(w, raw)
		f.Flush()
	}
	switch c.end {
	case "eof":
	case "cut":
		panic(http.ErrAbortHandler)
	default: // stall, or stay open
		<-r.Context().Done()
	}
}

// list serves the event list: created_at[gte] against processed_at,
// order, limit, and offsets as page tokens.
func (s *sessionScript) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	s.lists = append(s.lists, r.URL.RawQuery)
	events := append([]string(nil), s.log[:s.stored]...)
	s.mu.Unlock()
	if gte := q.Get("created_at[gte]"); gte != "" {
		bound, err := time.Parse(time.RFC3339Nano, gte)
		if err != nil {
			s.t.Errorf("created_at[gte] %q: %v", gte, err)
		}
		var kept []string
		for _, e := range events {
			var ev struct {
				ProcessedAt time.Time `json:"processed_at"`
			}
			json.Unmarshal([]byte(e), &ev)
			if !ev.ProcessedAt.Before(bound) {
				kept = append(kept, e)
			}
		}
		events = kept
	}
	if q.Get("order") == "desc" {
		for i, j := 0, len(events)-1; i < j; i, j = i+1, j-1 {
			events[i], events[j] = events[j], events[i]
		}
	}
	start, _ := strconv.Atoi(q.Get("page"))
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit == 0 {
		limit = 20
	}
	start = min(start, len(events))
	end := min(start+limit, len(events))
	next := "null"
	if end < len(events) {
		next = strconv.Quote(strconv.Itoa(end))
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"data":[%s],"next_page":%s}`, strings.Join(events[start:end], ","), next)
}

// fastReconnect makes the waits short.
var fastReconnect = mms.ReconnectPolicy{InitialDelay: time.Millisecond, MaxDelay: 4 * time.Millisecond}

// collect ranges over the stream, returning the ids (type for events
// without one) and the final error.
func streamIDs(seq func(func(mms.SessionEvent, error) bool)) ([]string, error) {
	var got []string
	for ev, err := range seq {
		if err != nil {
			return got, err
		}
		id := ev.EventID()
		if id == "" {
			id = ev.EventType()
		}
		got = append(got, id)
	}
	return got, nil
}

func eventIDs(from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, "evt_"+strconv.Itoa(i))
	}
	return out
}

func TestSessionStreamExactlyOnce(t *testing.T) {
	log := messageLog(9) // evt_0 … evt_8, evt_9 terminates
	tests := []struct {
		name    string
		history bool
		pre     int // events stored before the stream starts
		conns   []streamConn
		want    []string
	}{
		{"one connection", false, 0, []streamConn{{send: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}}, eventIDs(0, 10)},
		{"cut, then the gap is listed", false, 0, []streamConn{
			{send: []int{0, 1, 2}, end: "cut"},
			{send: []int{6, 7}, stored: 6, end: "eof"}, // 3-5 stored while away
			{send: []int{9}, stored: 9},                // 8 stored while away
		}, eventIDs(0, 10)},
		{"repeated and reordered across a reconnect", false, 0, []streamConn{
			{send: []int{0, 1, 2, 3}, end: "cut"},
			{send: []int{3, 1, 2, 5, 4, 5, 6, 7, 8, 9}, stored: 5},
		}, eventIDs(0, 10)},
		{"reconnect answered 429 then 529", false, 0, []streamConn{
			{send: []int{0, 1}, end: "eof"},
			{status: 429},
			{status: 529},
			{send: []int{4, 5, 6, 7, 8, 9}, stored: 4},
		}, eventIDs(0, 10)},
		{"408 and 409 are not final", false, 0, []streamConn{
			{status: 408}, {status: 409}, {send: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, stored: 0},
		}, eventIDs(0, 10)},
		{"history first, then live", true, 5, []streamConn{
			{send: []int{5, 6, 7, 8, 9}, stored: 5},
		}, eventIDs(0, 10)},
		{"live starts after the stored events", false, 5, []streamConn{
			{send: []int{5, 6, 7, 8, 9}, stored: 5},
		}, eventIDs(5, 10)},
		{"the terminal event ends the stream from the gap list", false, 0, []streamConn{
			{send: []int{0}, end: "cut"},
			{send: nil, stored: 10},
		}, eventIDs(0, 10)},
		{"a session that already ended: nothing, no connection", false, 10, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSessionScript(t, log, tt.conns...)
			c := s.client(t)
			s.stored = tt.pre
			got, err := streamIDs(c.Sessions.Events.Stream(context.Background(), "sesn_1",
				mms.SessionEventStreamParams{IncludeHistory: tt.history, Reconnect: fastReconnect}))
			if err != nil {
				t.Fatalf("after %v: %v", got, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if s.opens != len(tt.conns) {
				t.Errorf("%d connections, want %d", s.opens, len(tt.conns))
			}
		})
	}
}

func TestSessionStreamFinalFailures(t *testing.T) {
	log := messageLog(3)
	errorEvent := "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"busy\"}}\n\n"
	tests := []struct {
		name   string
		policy mms.ReconnectPolicy
		conns  []streamConn
		want   []string
		status int // of the *mms.Error, 0 for another error
	}{
		{"404 on reconnect", fastReconnect, []streamConn{{send: []int{0}, stored: 1, end: "cut"}, {status: 404}}, eventIDs(0, 1), 404},
		{"400 on the first connection", fastReconnect, []streamConn{{status: 400}}, nil, 400},
		{"an error event", fastReconnect, []streamConn{{send: []int{0, 1}, stored: 2, raw: []string{errorEvent}}}, eventIDs(0, 2), 200},
		{"disabled", mms.ReconnectPolicy{Disabled: true}, []streamConn{{send: []int{0}, stored: 1, end: "eof"}}, eventIDs(0, 1), 0},
		{"max attempts", mms.ReconnectPolicy{MaxAttempts: 2, InitialDelay: time.Millisecond}, []streamConn{
			{send: []int{0}, stored: 1, end: "eof"}, {status: 503}, {status: 503},
		}, eventIDs(0, 1), 503},
		{"an undecodable event", fastReconnect, []streamConn{{send: []int{0}, stored: 1, raw: []string{"event: agent.message\ndata: {\"type\":\"agent.message\",\"id\":\n\n"}}}, eventIDs(0, 1), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSessionScript(t, log, tt.conns...)
			got, err := streamIDs(s.client(t).Sessions.Events.Stream(context.Background(), "sesn_1",
				mms.SessionEventStreamParams{Reconnect: tt.policy}))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			var apiErr *mms.Error
			switch {
			case err == nil:
				t.Fatal("no error")
			case tt.status != 0 && (!errors.As(err, &apiErr) || apiErr.StatusCode != tt.status):
				t.Fatalf("error %v, want an *mms.Error with status %d", err, tt.status)
			case tt.status == 0 && errors.As(err, &apiErr):
				t.Fatalf("error %v, want no *mms.Error", err)
			}
			if s.opens != len(tt.conns) {
				t.Errorf("%d connections, want %d", s.opens, len(tt.conns))
			}
		})
	}
}

func TestSessionStreamStallReconnects(t *testing.T) {
	log := messageLog(4)
	s := newSessionScript(t, log,
		streamConn{send: []int{0, 1}, stored: 2, end: "stall"},
		streamConn{send: []int{3, 4}, stored: 3},
	)
	got, err := streamIDs(s.client(t, option.WithStreamIdleTimeout(50*time.Millisecond)).Sessions.Events.Stream(
		context.Background(), "sesn_1", mms.SessionEventStreamParams{Reconnect: fastReconnect}))
	require.NoError(t, err)
	if diff := cmp.Diff(eventIDs(0, 5), got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestSessionStreamPreviewsAndEventsWithoutID(t *testing.T) {
	log := messageLog(2)
	interrupt := `{"type":"user.interrupt","id":"","processed_at":null}`
	start := `{"type":"event_start","event":{"type":"agent.message","id":"evt_1"}}`
	delta := `{"type":"event_delta","event_id":"evt_1","delta":{"type":"content_delta","index":0,"content":{"type":"text","text":"m"}}}`
	sse := func(name, data string) string { return "event: " + name + "\ndata: " + data + "\n\n" }
	// The log: evt_0, the interrupt (stored without an id, still queued),
	// evt_1, evt_2 (terminates).
	log = append(log[:1], append([]string{interrupt}, log[1:]...)...)
	s := newSessionScript(t, log,
		streamConn{send: []int{0, 1}, stored: 1, raw: []string{sse("ping", `{"type":"ping"}`), sse("event_start", start), sse("event_delta", delta)}, end: "cut"},
		streamConn{send: []int{1, 2, 3}, stored: 2},
	)
	got, err := streamIDs(s.client(t).Sessions.Events.Stream(context.Background(), "sesn_1",
		mms.SessionEventStreamParams{EventDeltas: []string{"agent.message"}, Reconnect: fastReconnect}))
	require.NoError(t, err)
	// The interrupt has no id: it cannot be recognised when the new
	// connection sends it again, so it comes twice; the previews come
	// once; the ping not at all.
	want := []string{"evt_0", "user.interrupt", "event_start", "event_delta", "user.interrupt", "evt_1", "evt_2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if len(s.lists) == 0 || !strings.Contains(s.lists[len(s.lists)-1], "created_at%5Bgte%5D=") {
		t.Errorf("gap lists %q, want a created_at[gte] bound", s.lists)
	}
}

func TestSessionStreamCancelReturnsAtOnce(t *testing.T) {
	tests := []struct {
		name  string
		conns []streamConn
	}{
		{"while reading", []streamConn{{send: []int{0}, stored: 1}}},
		{"while waiting to reconnect", []streamConn{{send: []int{0}, stored: 1, end: "eof"}, {status: 503}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSessionScript(t, messageLog(3), tt.conns...)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var got []string
			var err error
			for ev, e := range s.client(t).Sessions.Events.Stream(ctx, "sesn_1",
				mms.SessionEventStreamParams{Reconnect: mms.ReconnectPolicy{InitialDelay: time.Hour}}) {
				if e != nil {
					err = e
					break
				}
				got = append(got, ev.EventID())
				cancel() // after the first event
			}
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("error %v, want context.Canceled", err)
			}
			if !cmp.Equal(got, []string{"evt_0"}) {
				t.Errorf("events %v", got)
			}
		})
	}
}

func TestSessionStreamBreakAndReuse(t *testing.T) {
	s := newSessionScript(t, messageLog(3), streamConn{send: []int{0, 1, 2, 3}, stored: 0})
	seq := s.client(t).Sessions.Events.Stream(context.Background(), "sesn_1", mms.SessionEventStreamParams{})
	for range seq {
		break
	}
	for _, err := range seq {
		if err == nil || !strings.Contains(err.Error(), "only once") {
			t.Fatalf("second range: %v", err)
		}
	}
}

func TestSessionStreamParamsValidation(t *testing.T) {
	c, err := mms.NewClient(option.WithAPIKey(testKey), option.WithBaseURL("http://127.0.0.1:1"))
	require.NoError(t, err)
	tests := []struct {
		name  string
		id    string
		p     mms.SessionEventStreamParams
		field string
	}{
		{"empty session id", "", mms.SessionEventStreamParams{}, "session_id"},
		{"empty event_deltas value", "sesn_1", mms.SessionEventStreamParams{EventDeltas: []string{""}}, "event_deltas[0]"},
		{"negative give-up time", "sesn_1", mms.SessionEventStreamParams{Reconnect: mms.ReconnectPolicy{GiveUpAfter: -time.Nanosecond}}, "Reconnect.GiveUpAfter"},
		{"negative delay", "sesn_1", mms.SessionEventStreamParams{Reconnect: mms.ReconnectPolicy{ResetAfter: -1}}, "Reconnect"},
		{"initial above max", "sesn_1", mms.SessionEventStreamParams{Reconnect: mms.ReconnectPolicy{InitialDelay: 2 * time.Second, MaxDelay: time.Second}}, "Reconnect.InitialDelay"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := streamIDs(c.Sessions.Events.Stream(context.Background(), tt.id, tt.p))
			var verr *mms.ValidationError
			if !errors.As(err, &verr) || verr.Field != tt.field {
				t.Fatalf("error %v, want a ValidationError for %s", err, tt.field)
			}
		})
	}
	// Equal delays, and every bound at its limit, pass; so does a negative
	// MaxAttempts (ReconnectForever).
	for _, r := range []mms.ReconnectPolicy{
		{InitialDelay: time.Second, MaxDelay: time.Second},
		{MaxAttempts: mms.ReconnectForever, GiveUpAfter: 0},
		{MaxAttempts: -7},
	} {
		s := newSessionScript(t, messageLog(0), streamConn{send: []int{0}})
		if _, err := streamIDs(s.client(t).Sessions.Events.Stream(context.Background(), "sesn_1", mms.SessionEventStreamParams{
			EventDeltas: []string{"agent.message"}, Reconnect: r,
		})); err != nil {
			t.Fatal(err)
		}
	}
}
