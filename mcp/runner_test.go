package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	mmsmcp "github.com/mms-sdk/mms-go/mcp"
	"github.com/mms-sdk/mms-go/mmstest"
)

// TestToolRunnerWithMCPTools runs the root tool runner against mmstest,
// scripted to call MCP tools: a result, a tool error and a protocol error
// become tool_result blocks, the last two marked is_error.
func TestToolRunnerWithMCPTools(t *testing.T) {
	cs := connect(t, nil)
	tools, err := mmsmcp.Tools(context.Background(), cs, nil)
	require.NoError(t, err)

	srv := mmstest.NewServer(mmstest.WithScript(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{
			{Name: "echo", Input: `{"text":"hello"}`},
			{Name: "fail", Input: `{}`},
			{Name: "broken", Input: `{}`},
		}},
		mmstest.Turn{Text: "Done."},
	))
	defer srv.Close()
	client, err := mms.NewClient(srv.ClientOptions()...)
	require.NoError(t, err)
	runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{
		Params: mms.MessageCreateParams{
			Model:     "mms-large-1",
			MaxTokens: 1024,
			Messages:  []mms.MessageParam{mms.UserText("Use the tools.")},
		},
		Tools: tools,
	})
	var calls []mms.ToolCall
	for turn, err := range runner.Turns(context.Background()) {
		require.NoError(t, err)
		calls = append(calls, turn.Calls...)
	}
	require.Len(t, calls, 3)

	assert.Equal(t, mms.ToolResult(calls[0].Use.ID, "echo: hello", false), calls[0].Result)
	assert.NoError(t, calls[0].Err)

	assert.Equal(t, mms.ToolResult(calls[1].Use.ID, "the disk is full", true), calls[1].Result)
	var toolErr *mmsmcp.ToolError
	assert.ErrorAs(t, calls[1].Err, &toolErr)

	require.NotNil(t, calls[2].Result.IsError)
	assert.True(t, *calls[2].Result.IsError)
	var rpcErr *jsonrpc.Error
	assert.ErrorAs(t, calls[2].Err, &rpcErr)
	assert.False(t, errors.As(calls[2].Err, &toolErr))

	assert.Equal(t, "Done.", runner.Message().Text())
	// The results went to the service in the second request.
	msgs := runner.Messages()
	require.Len(t, msgs, 4)
	assert.Len(t, msgs[2].Content, 3)
}

// TestToolRunnerTimesOutAHungMCPTool: the runner's ToolTimeout ends a call
// the MCP server never answers, as an is_error result.
func TestToolRunnerTimesOutAHungMCPTool(t *testing.T) {
	cs := connect(t, nil)
	tools, err := mmsmcp.Tools(context.Background(), cs, nil)
	require.NoError(t, err)
	srv := mmstest.NewServer(mmstest.WithScript(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "hang", Input: `{}`}}},
		mmstest.Turn{Text: "It timed out."},
	))
	defer srv.Close()
	client, err := mms.NewClient(srv.ClientOptions()...)
	require.NoError(t, err)
	runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{
		Params: mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 1024,
			Messages: []mms.MessageParam{mms.UserText("Wait.")}},
		Tools:       tools,
		ToolTimeout: 100 * time.Millisecond,
	})
	var calls []mms.ToolCall
	for turn, err := range runner.Turns(context.Background()) {
		require.NoError(t, err)
		calls = append(calls, turn.Calls...)
	}
	require.Len(t, calls, 1)
	assert.ErrorIs(t, calls[0].Err, context.DeadlineExceeded)
	require.NotNil(t, calls[0].Result.IsError)
	assert.True(t, *calls[0].Result.IsError)
}

// TestCommandTransport builds internal/testserver and talks to it over the
// SDK's command transport: the same mapping as in memory, and a hung call
// ends with its context.
func TestCommandTransport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin := filepath.Join(t.TempDir(), "testserver")
	build := exec.Command("go", "build", "-o", bin, "./internal/testserver")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)

	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "mms-go-test", Version: "v1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin)}, nil)
	require.NoError(t, err)
	defer cs.Close() // an error: the server is gone by then

	byName := tools(t, cs, &mmsmcp.Options{MaxResultBytes: 1000})
	require.Len(t, byName, 10)

	got, err := byName["echo"].Run(ctx, json.RawMessage(`{"text":"over stdio"}`))
	require.NoError(t, err)
	assert.Equal(t, mms.ContentBlocks{mms.TextBlock{Text: "echo: over stdio"}}, got)

	_, err = byName["fail"].Run(ctx, json.RawMessage(`{}`))
	var toolErr *mmsmcp.ToolError
	require.ErrorAs(t, err, &toolErr)

	_, err = byName["broken"].Run(ctx, json.RawMessage(`{}`))
	var rpcErr *jsonrpc.Error
	require.ErrorAs(t, err, &rpcErr)

	got, err = byName["huge"].Run(ctx, json.RawMessage(`{"bytes":100000}`))
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Len(t, got[0].(mms.TextBlock).Text, 1000)

	hctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	_, err = byName["hang"].Run(hctx, json.RawMessage(`{}`))
	require.ErrorIs(t, err, context.DeadlineExceeded)

	blocks, err := mmsmcp.ResourceContent(ctx, cs, "file:///notes.txt")
	require.NoError(t, err)
	require.Len(t, blocks, 1)
	msgs, err := mmsmcp.Prompt(ctx, cs, "review", map[string]string{"code": "x"})
	require.NoError(t, err)
	assert.Len(t, msgs, 3)

	// A server that dies in the middle of a call: an error, not a result.
	_, err = byName["exit"].Run(ctx, json.RawMessage(`{}`))
	require.Error(t, err)
	assert.False(t, errors.As(err, &toolErr))
	assert.Contains(t, err.Error(), "calling tool exit")
	_, err = byName["echo"].Run(ctx, json.RawMessage(`{"text":"anyone?"}`))
	require.Error(t, err)
}
