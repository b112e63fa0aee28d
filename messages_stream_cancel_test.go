package mms

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStreamNothingAfterCancel (issue 27 §2): the caller cancels at the
// second event while hundreds more are already received; the next value
// is the context's error, nothing follows it, and the connection is
// released.
func TestStreamNothingAfterCancel(t *testing.T) {
	noLeaks(t)
	s := newSSEServer(t, func(w http.ResponseWriter, r *http.Request) {
		// One write: the client holds all of it at once.
		var b strings.Builder
		b.WriteString("event: message_start\ndata: " + sseStart + "\n\n")
		b.WriteString("event: content_block_start\ndata: " + sseBlockStart + "\n\n")
		for range 720 {
			b.WriteString("event: content_block_delta\ndata: " + sseText(0, "x") + "\n\n")
		}
		startSSE(w).raw(b.String())
		<-r.Context().Done()
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var events []MessageStreamEvent
	var errs []error
	for ev, err := range s.client.Messages.Stream(ctx, streamParams("hi")) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if len(errs) > 0 {
			t.Fatalf("event %T after the error", ev)
		}
		events = append(events, ev)
		if len(events) == 2 {
			cancel()
			time.Sleep(20 * time.Millisecond) // the old stream handed over what was buffered meanwhile
		}
	}
	assert.Len(t, events, 2)
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], context.Canceled)
	assert.NotErrorIs(t, errs[0], ErrStreamTruncated)
	waitFor(t, "the connection to be released", func() bool { return s.busy() == 0 })
}
