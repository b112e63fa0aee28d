package mms_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	mms "github.com/mms-sdk/mms-go"
)

const testThreadJSON = `{"type":"session_thread","id":"sthr_1","session_id":"sesn_1","parent_thread_id":null,` +
	`"agent":{"type":"advisor","model":"m"},"status":"idle","stats":null,"usage":null,` +
	`"created_at":"2026-04-02T10:00:00Z","updated_at":"2026-04-02T10:00:00Z","archived_at":null}`

// TestSessionThreadsWire checks every threads operation against a
// scripted server.
func TestSessionThreadsWire(t *testing.T) {
	runWireCases(t, []wireCase{
		{"get", reply{body: testThreadJSON}, func(ctx context.Context, c *mms.Client) error {
			th, err := c.Sessions.Threads.Get(ctx, "sesn_1", "sthr_1")
			if _, ok := th.Agent.(mms.RosterAdvisor); err == nil && !ok {
				err = fmt.Errorf("agent %#v", th.Agent)
			}
			return err
		}, "GET", "/v1/sessions/sesn_1/threads/sthr_1", "", "", nil},
		{"archive", reply{body: testThreadJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Sessions.Threads.Archive(ctx, "sesn_1", "sthr_1")
			return err
		}, "POST", "/v1/sessions/sesn_1/threads/sthr_1/archive", "", "", nil},
		{"list", reply{body: `{"data":[` + testThreadJSON + `],"next_page":null}`}, func(ctx context.Context, c *mms.Client) error {
			return drain(c.Sessions.Threads.List(ctx, "sesn_1", mms.SessionThreadListParams{Limit: 7}))
		}, "GET", "/v1/sessions/sesn_1/threads", "limit=7", "", nil},
		{"list page", reply{body: `{"data":[],"next_page":null}`}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Sessions.Threads.ListPage(ctx, "sesn_1", mms.SessionThreadListParams{Page: mms.Cursor{Token: "p"}})
			return err
		}, "GET", "/v1/sessions/sesn_1/threads", "page=p", "", nil},
	})
}

// TestSessionThreadsValidation: the required ids and the limit, before
// sending.
func TestSessionThreadsValidation(t *testing.T) {
	srv := newScriptServer(t)
	c := newTestClient(t, srv)
	ctx := context.Background()
	th := c.Sessions.Threads
	for name, tt := range map[string]struct {
		err   error
		field string
	}{
		"get no session":  {func() error { _, err := th.Get(ctx, "", "t"); return err }(), "session_id"},
		"get no thread":   {func() error { _, err := th.Get(ctx, "s", ""); return err }(), "thread_id"},
		"archive dot":     {func() error { _, err := th.Archive(ctx, "s", "."); return err }(), "thread_id"},
		"list no session": {drain(th.List(ctx, "", mms.SessionThreadListParams{})), "session_id"},
		"list limit 101":  {func() error { _, err := th.ListPage(ctx, "s", mms.SessionThreadListParams{Limit: 101}); return err }(), "limit"},
	} {
		var ve *mms.ValidationError
		if !errors.As(tt.err, &ve) || ve.Field != tt.field {
			t.Errorf("%s: %v", name, tt.err)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}
