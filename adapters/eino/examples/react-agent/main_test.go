package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// TestRun runs the example's agent against mmstest: a tool call, then the
// answer.
func TestRun(t *testing.T) {
	client, srv := fakeclient.New(t, mmstest.WithScript(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Paris"}`}}},
		mmstest.Turn{Text: "Sunny."},
	))
	var out strings.Builder
	require.NoError(t, run(context.Background(), client, &out))
	assert.Contains(t, out.String(), "Sunny.\n[stop reason end_turn")
	assert.Contains(t, out.String(), "request req_")
	assert.Len(t, srv.Requests(), 2)
}

// TestMain runs main itself, offline.
func TestMainRuns(t *testing.T) {
	main()
}
