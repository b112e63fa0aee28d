package mms_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// TestSendOnce: Sessions.Events.SendOnce delivers a message exactly once
// whether the service applied the send and lost the answer (a dropped
// connection, a 500 after applying) or did not apply it (a 500 before),
// and tells an identical message sent earlier from the one it sent.
func TestSendOnce(t *testing.T) {
	tests := []struct {
		name  string
		fault mmstest.Fault
		posts int // sends the service received
	}{
		{"answer dropped after applying", mmstest.Fault{DropAfterBytes: 1, Times: 1}, 1},
		{"500 after applying", mmstest.Fault{Statuses: []int{500}, AfterApply: true}, 1},
		{"500 before applying", mmstest.Fault{Statuses: []int{500}, RetryAfterMs: "1"}, 2},
		{"no fault", mmstest.Fault{Statuses: nil, Times: -1}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, c, id := newSimSession(t, nil)
			ctx := context.Background()
			send(t, c, id, mms.NewUserMessageEvent("yes")) // the same text, earlier
			path := "/v1/sessions/" + id + "/events"
			if tt.fault.Times >= 0 {
				tt.fault.Method, tt.fault.Path = "POST", path
				srv.InjectFault(tt.fault)
			}
			before := countRequests(srv, "POST", path)
			// The fake's client makes no retries; SendOnce follows the call's count.
			res, err := c.Sessions.Events.SendOnce(ctx, id, mms.SessionEventSendParams{Events: []mms.SessionEventParams{mms.NewUserMessageEvent("yes")}},
				option.WithMaxRetries(2))
			require.NoError(t, err)
			require.Len(t, res.Data, 1)
			msg, ok := res.Data[0].(mms.UserMessageEvent)
			require.True(t, ok, "%T", res.Data[0])
			assert.NotEmpty(t, msg.ID)
			assert.Equal(t, tt.posts, countRequests(srv, "POST", path)-before)
			assert.Equal(t, 2, countInLog(srv, id, `"yes"`), "the earlier message and this one, once each")
		})
	}
}

// TestSendWithoutOnceReportsMaybeApplied: the plain Send under the same
// fault is sent once and says the outcome is unknown.
func TestSendWithoutOnceReportsMaybeApplied(t *testing.T) {
	srv, c, id := newSimSession(t, nil)
	path := "/v1/sessions/" + id + "/events"
	srv.InjectFault(mmstest.Fault{Method: "POST", Path: path, DropAfterBytes: 1, Times: 1})
	_, err := c.Sessions.Events.Send(context.Background(), id, mms.SessionEventSendParams{Events: []mms.SessionEventParams{mms.NewUserMessageEvent("hello")}})
	require.ErrorIs(t, err, mms.ErrMaybeApplied)
	assert.Equal(t, 1, countRequests(srv, "POST", path))
	assert.Equal(t, 1, countInLog(srv, id, `"hello"`))
}

// TestSendOnceValidatesFirst: params that break a rule send nothing.
func TestSendOnceValidatesFirst(t *testing.T) {
	_, c, id := newSimSession(t, nil)
	_, err := c.Sessions.Events.SendOnce(context.Background(), id, mms.SessionEventSendParams{})
	require.ErrorIs(t, err, mms.ErrInvalidParams)
}
