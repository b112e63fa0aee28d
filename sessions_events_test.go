package mms_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

const testEventJSON = `{"type":"agent.message","id":"sevt_1","content":[{"type":"text","text":"hi"}],"processed_at":"2026-04-02T10:00:00Z"}`

// TestSessionEventsWire: method, path, query, betas and body of the event
// endpoints.
func TestSessionEventsWire(t *testing.T) {
	at := time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC)
	runWireCases(t, []wireCase{
		{"send", reply{body: `{"data":[` + testEventJSON + `]}`}, func(ctx context.Context, c *mms.Client) error {
			r, err := c.Sessions.Events.Send(ctx, "sesn_1", mms.SessionEventSendParams{Events: []mms.SessionEventParams{
				mms.NewUserMessageEvent("hi"), mms.NewAllowToolEvent("sevt_9"),
			}}, option.WithWorkspaceID("wrkspc_1"))
			if err == nil && (len(r.Data) != 1 || r.Data[0].(mms.AgentMessageEvent).Text() != "hi") {
				err = fmt.Errorf("answer %+v", r)
			}
			return err
		}, "POST", "/v1/sessions/sesn_1/events", "",
			`{"events":[{"type":"user.message","content":[{"type":"text","text":"hi"}]},{"type":"user.tool_confirmation","tool_use_id":"sevt_9","result":"allow"}]}`,
			map[string]string{"Vendor-Workspace-Id": "wrkspc_1"}},
		{"list", reply{body: `{"data":[` + testEventJSON + `],"next_page":null}`}, func(ctx context.Context, c *mms.Client) error {
			return drain(c.Sessions.Events.List(ctx, "sesn_1", mms.SessionEventListParams{
				Limit: 5, Order: mms.ListOrderDesc, Types: []string{"agent.message", "session.status_idle"}, CreatedGTE: at, CreatedLT: at.Add(time.Hour),
			}))
		}, "GET", "/v1/sessions/sesn_1/events",
			"created_at%5Bgte%5D=2026-04-02T10%3A00%3A00Z&created_at%5Blt%5D=2026-04-02T11%3A00%3A00Z&limit=5&order=desc&types%5B%5D=agent.message&types%5B%5D=session.status_idle", "", nil},
		{"list page", reply{body: `{"data":[],"next_page":null}`}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Sessions.Events.ListPage(ctx, "sesn_1", mms.SessionEventListParams{Page: mms.Cursor{Token: "p"}})
			return err
		}, "GET", "/v1/sessions/sesn_1/events", "page=p", "", nil},
		{"thread list", reply{body: `{"data":[` + testEventJSON + `],"next_page":null}`}, func(ctx context.Context, c *mms.Client) error {
			return drain(c.Sessions.Threads.Events.List(ctx, "sesn_1", "sthr_1", mms.SessionThreadEventListParams{Limit: 3}))
		}, "GET", "/v1/sessions/sesn_1/threads/sthr_1/events", "limit=3", "", nil},
		{"thread list page", reply{body: `{"data":[],"next_page":null}`}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Sessions.Threads.Events.ListPage(ctx, "sesn_1", "sthr_1", mms.SessionThreadEventListParams{})
			return err
		}, "GET", "/v1/sessions/sesn_1/threads/sthr_1/events", "", "", nil},
	})
}

// TestSessionEventStreamWire: the stream request (event_deltas[], the
// beta, the accept header) is sent first, then the history is listed.
func TestSessionEventStreamWire(t *testing.T) {
	terminated := `{"type":"session.status_terminated","id":"sevt_2","processed_at":"2026-04-02T10:00:01Z"}`
	for _, tt := range []struct {
		name   string
		stream func(context.Context, *mms.Client, mms.SessionEventStreamParams) func(func(mms.SessionEvent, error) bool)
		path   string
		list   string
	}{
		{"session", func(ctx context.Context, c *mms.Client, p mms.SessionEventStreamParams) func(func(mms.SessionEvent, error) bool) {
			return c.Sessions.Events.Stream(ctx, "sesn_1", p)
		}, "/v1/sessions/sesn_1/events/stream", "/v1/sessions/sesn_1/events"},
		{"thread", func(ctx context.Context, c *mms.Client, p mms.SessionEventStreamParams) func(func(mms.SessionEvent, error) bool) {
			return c.Sessions.Threads.Events.Stream(ctx, "sesn_1", "sthr_1", p)
		}, "/v1/sessions/sesn_1/threads/sthr_1/stream", "/v1/sessions/sesn_1/threads/sthr_1/events"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t,
				reply{header: map[string]string{"Content-Type": "text/event-stream"}, body: "event: session.status_terminated\ndata: " + terminated + "\n\n"},
				reply{body: `{"data":[` + testEventJSON + `],"next_page":null}`})
			c := newTestClient(t, srv)
			got, err := streamIDs(tt.stream(context.Background(), c, mms.SessionEventStreamParams{
				IncludeHistory: true, EventDeltas: []string{"agent.message", "agent.thinking"}}))
			require.NoError(t, err)
			if !cmp.Equal(got, []string{"sevt_1", "sevt_2"}) {
				t.Errorf("events %v", got)
			}
			reqs := srv.requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests", len(reqs))
			}
			s, l := reqs[0], reqs[1]
			if s.method != "GET" || s.path != tt.path || s.query != "event_deltas%5B%5D=agent.message&event_deltas%5B%5D=agent.thinking" {
				t.Errorf("stream request %s %s ? %s", s.method, s.path, s.query)
			}
			if s.header.Get("Accept") != "text/event-stream" || s.header.Get("Vendor-Beta") != mms.BetaManagedAgents {
				t.Errorf("stream headers %v", s.header)
			}
			if l.path != tt.list || l.query != "limit=100" {
				t.Errorf("history request %s ? %s", l.path, l.query)
			}
		})
	}
}

func TestSessionEventsValidation(t *testing.T) {
	srv := newScriptServer(t)
	c := newTestClient(t, srv)
	ctx := context.Background()
	tests := []struct {
		name  string
		call  func() error
		field string
	}{
		{"send without a session", func() error {
			_, err := c.Sessions.Events.Send(ctx, "", mms.SessionEventSendParams{Events: []mms.SessionEventParams{mms.NewInterruptEvent()}})
			return err
		}, "session_id"},
		{"send nothing", func() error {
			_, err := c.Sessions.Events.Send(ctx, "sesn_1", mms.SessionEventSendParams{})
			return err
		}, "events"},
		{"limit 0 is the default, 101 too many", func() error {
			return drain(c.Sessions.Events.List(ctx, "sesn_1", mms.SessionEventListParams{Limit: 101}))
		}, "limit"},
		{"order", func() error {
			return drain(c.Sessions.Events.List(ctx, "sesn_1", mms.SessionEventListParams{Order: "up"}))
		}, "order"},
		{"empty type", func() error {
			return drain(c.Sessions.Events.List(ctx, "sesn_1", mms.SessionEventListParams{Types: []string{"agent.message", ""}}))
		}, "types[1]"},
		{"cursor of the other order", func() error {
			_, err := c.Sessions.Events.ListPage(ctx, "sesn_1", mms.SessionEventListParams{Page: mms.Cursor{Token: "p", Order: mms.ListOrderDesc}})
			return err
		}, "page"},
		{"thread limit", func() error {
			return drain(c.Sessions.Threads.Events.List(ctx, "sesn_1", "sthr_1", mms.SessionThreadEventListParams{Limit: 101}))
		}, "limit"},
		{"thread id", func() error {
			return drain(c.Sessions.Threads.Events.List(ctx, "sesn_1", "", mms.SessionThreadEventListParams{}))
		}, "thread_id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var verr *mms.ValidationError
			if err := tt.call(); !errors.As(err, &verr) || verr.Field != tt.field {
				t.Fatalf("error %v, want a ValidationError for %s", err, tt.field)
			}
		})
	}
	// The limits themselves pass.
	for _, limit := range []int{1, 100} {
		if _, err := c.Sessions.Events.ListPage(ctx, "sesn_1", mms.SessionEventListParams{Limit: limit, Order: mms.ListOrderAsc}); err != nil {
			t.Errorf("limit %d: %v", limit, err)
		}
	}
	if n := len(srv.requests()); n != 2 {
		t.Errorf("%d requests sent, want only the 2 valid ones", n)
	}
}
