// Package platformtest helps test a platform adapter (package platform)
// end to end against mmstest: the Messages calls every adapter must
// answer exactly as the service does, and what the service itself answers.
package platformtest

import (
	"context"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
)

// The requests MessagesCalls sends.
var (
	CreateParams = mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 64, Messages: []mms.MessageParam{mms.UserText("Hello there")}}
	CountParams  = mms.MessageCountTokensParams{Model: "mms-large-1", Messages: []mms.MessageParam{mms.UserText("Hello there")}}
)

// Results is what the three Messages calls return.
type Results struct {
	Message *mms.Message
	Events  []mms.MessageStreamEvent
	Count   *mms.MessageTokensCount
}

// MessagesCalls sends CreateParams with Create and with Stream, and
// CountParams with CountTokens, on c; a failure fails tb.
func MessagesCalls(tb testing.TB, c *mms.Client) Results {
	tb.Helper()
	ctx := context.Background()
	var r Results
	var err error
	if r.Message, err = c.Messages.Create(ctx, CreateParams); err != nil {
		tb.Fatalf("Create: %v", err)
	}
	for ev, err := range c.Messages.Stream(ctx, CreateParams) {
		if err != nil {
			tb.Fatalf("Stream: %v", err)
		}
		r.Events = append(r.Events, ev)
	}
	if r.Count, err = c.Messages.CountTokens(ctx, CountParams); err != nil {
		tb.Fatalf("CountTokens: %v", err)
	}
	return r
}

// Direct returns MessagesCalls' results from a fresh fake of the service
// itself, for an adapter's results to equal.
func Direct(tb testing.TB) Results {
	tb.Helper()
	srv := mmstest.NewServer()
	defer srv.Close()
	c, err := mms.NewClient(srv.ClientOptions()...)
	if err != nil {
		tb.Fatal(err)
	}
	return MessagesCalls(tb, c)
}
