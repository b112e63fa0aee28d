// Package fakeclient sets up an mms client against an in-process
// mmstest.Server in one line of a test:
//
//	client, srv := fakeclient.New(t)
//
// The server takes the test's options (mmstest.WithScript for the model's
// turns, mmstest.WithClock, ...), closes when the test ends, and the client
// carries its URL, API key and HTTP client. It lives apart from mmstest
// because mmstest must not import the SDK (the SDK's own tests import
// mmstest).
package fakeclient

import (
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
)

// New starts an mmstest.Server configured by opts, closes it on tb's
// cleanup, and returns a client wired to it. A client that cannot be built
// fails the test with tb.Fatal.
func New(tb testing.TB, opts ...mmstest.Option) (*mms.Client, *mmstest.Server) {
	tb.Helper()
	srv := mmstest.NewServer(opts...)
	tb.Cleanup(srv.Close)
	client, err := mms.NewClient(srv.ClientOptions()...)
	if err != nil {
		tb.Fatalf("fakeclient: %v", err)
	}
	return client, srv
}
