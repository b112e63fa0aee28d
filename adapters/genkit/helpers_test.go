package mmsgenkit_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/firebase/genkit/go/genkit"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	mms "github.com/mms-sdk/mms-go"
	mmsgenkit "github.com/mms-sdk/mms-go/adapters/genkit"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const (
	testModel = "mms-large-1"
	modelName = "mms/" + testModel
)

// newGenkit is Genkit with the plugin against a fresh fake.
func newGenkit(t *testing.T, opts ...mmstest.Option) (*genkit.Genkit, *mmstest.Server) {
	t.Helper()
	client, srv := fakeclient.New(t, opts...)
	// genkit.Init watches for signals until its context ends.
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	g := genkit.Init(ctx, genkit.WithPlugins(&mmsgenkit.Plugin{Client: client, MaxTokens: 2048}))
	return g, srv
}

// sent decodes the bodies of the Messages requests the fake received.
func sent(t *testing.T, srv *mmstest.Server) []mms.MessageCreateParams {
	t.Helper()
	var out []mms.MessageCreateParams
	for _, r := range srv.Requests() {
		if r.Path != "/v1/messages" {
			continue
		}
		var p mms.MessageCreateParams
		require.NoError(t, json.Unmarshal(r.Body, &p), "%s", r.Body)
		out = append(out, p)
	}
	return out
}

// newClient is a client against a fresh fake.
func newClient(t *testing.T, opts ...mmstest.Option) (*mms.Client, *mmstest.Server) {
	t.Helper()
	return fakeclient.New(t, opts...)
}
