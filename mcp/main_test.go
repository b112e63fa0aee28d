package mcp_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mms-sdk/mms-go/mcp/internal/mcpserver"
)

// TestMain fails the package if a test leaves a goroutine behind (a
// session, a transport, a hung call).
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// connect starts the test server over the SDK's in-memory transport and
// returns a client session to it; both end with the test.
func connect(t *testing.T, hooks *mcpserver.Hooks) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(hooks).Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mms-go-test", Version: "v1"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, cs.Close())
		_ = ss.Wait() // the server side ends when the client closes
	})
	return cs
}
