package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestRun runs the example against mmstest: a tool call, then the
// streamed answer.
func TestRun(t *testing.T) {
	client, srv := fakeclient.New(t, mmstest.WithScript(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Paris"}`}}},
		mmstest.Turn{Text: "Sunny."},
	))
	var out strings.Builder
	require.NoError(t, run(context.Background(), client, &out))
	assert.Contains(t, out.String(), "Sunny.\n[finish stop (end_turn)")
	assert.Contains(t, out.String(), "request req_")
	assert.Len(t, srv.Requests(), 2)
}

// TestMainRuns runs main itself, offline.
func TestMainRuns(t *testing.T) {
	main()
}
