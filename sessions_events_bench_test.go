package mms

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// syntheticSessionStream is a session stream of n events as the service
// sends them with agent.message previews: per message an event_start, 23
// text fragments and the final agent.message, then
// session.status_terminated.
func syntheticSessionStream(n int) []byte {
	var b bytes.Buffer
	write := func(typ, data string) { fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", typ, data) }
	const perMessage = 25
	ts := `"processed_at":"2026-04-02T10:00:00.123456Z"`
	for m := 0; m < (n-1)/perMessage; m++ {
		id := fmt.Sprintf("sevt_01000000000000000%05d", m)
		write("event_start", `{"type":"event_start","event":{"type":"agent.message","id":"`+id+`"}}`)
		for range perMessage - 2 {
			write("event_delta", `{"type":"event_delta","event_id":"`+id+`","delta":{"type":"content_delta","index":0,"content":{"type":"text","text":"word "}}}`)
		}
		write("agent.message", `{"type":"agent.message","id":"`+id+`","content":[{"type":"text","text":"`+strings.Repeat("word ", perMessage-2)+`"}],`+ts+`}`)
	}
	write("session.status_terminated", `{"type":"session.status_terminated","id":"sevt_end",`+ts+`}`)
	return b.Bytes()
}

const benchSessionEvents = 5001

// BenchmarkSessionStreamAccumulate is the session stream's own work per
// event, from bytes: SSE decoding, the typed event, the id check and the
// accumulator (the counterpart of BenchmarkStreamAccumulate).
func BenchmarkSessionStreamAccumulate(b *testing.B) {
	stream := syntheticSessionStream(benchSessionEvents)
	r := bytes.NewReader(stream)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	m0 := mallocs()
	for b.Loop() {
		r.Reset(stream)
		conn := newEventReader(context.Background(), &eventConn{body: io.NopCloser(r), resp: &transport.Response{}}, decodeSessionEvent)
		st := &sessionStream{seen: map[string]time.Time{}}
		var acc SessionEventAccumulator
		n := 0
		for {
			ev, err := conn.next(context.Background())
			if err == io.EOF {
				break
			}
			require.NoError(b, err)
			if st.admit(ev) {
				acc.Add(ev)
			}
			n++
		}
		if n != benchSessionEvents {
			b.Fatalf("%d events", n)
		}
	}
	reportPerEvent(b, m0, benchSessionEvents)
}

// BenchmarkSessionEventsStreamHTTP is the whole path a program takes:
// Sessions.Events.Stream over HTTP (the live stream's first list
// included), with the accumulator.
func BenchmarkSessionEventsStreamHTTP(b *testing.B) {
	stream := syntheticSessionStream(benchSessionEvents)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/stream") {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write(stream)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"data":[],"next_page":null}`)
	}))
	defer srv.Close()
	c, err := NewClient(option.WithAPIKey("k"), option.WithBaseURL(srv.URL))
	require.NoError(b, err)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	m0 := mallocs()
	for b.Loop() {
		var acc SessionEventAccumulator
		n := 0
		for ev, err := range c.Sessions.Events.Stream(context.Background(), "sesn_1", SessionEventStreamParams{EventDeltas: []string{"agent.message"}}) {
			require.NoError(b, err)
			acc.Add(ev)
			n++
		}
		if n != benchSessionEvents {
			b.Fatalf("%d events", n)
		}
	}
	reportPerEvent(b, m0, benchSessionEvents)
}
