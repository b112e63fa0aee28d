package mcp_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	mmsmcp "github.com/mms-sdk/mms-go/mcp"
	"github.com/mms-sdk/mms-go/mcp/internal/mcpserver"
)

// tools returns the session's tools by name.
func tools(t *testing.T, cs *mcp.ClientSession, opts *mmsmcp.Options) map[string]*mmsmcp.Tool {
	t.Helper()
	list, err := mmsmcp.Tools(context.Background(), cs, opts)
	require.NoError(t, err)
	byName := map[string]*mmsmcp.Tool{}
	for _, rt := range list {
		tool := rt.(*mmsmcp.Tool)
		byName[tool.MCP.Name] = tool
	}
	return byName
}

func TestToolsDefinitions(t *testing.T) {
	cs := connect(t, nil)
	list, err := mmsmcp.Tools(context.Background(), cs, &mmsmcp.Options{NamePrefix: "srv_"})
	require.NoError(t, err)
	var names []string
	for _, rt := range list {
		def, err := rt.Definition()
		require.NoError(t, err)
		names = append(names, def.Name)
	}
	assert.ElementsMatch(t, []string{"srv_broken", "srv_echo", "srv_fail", "srv_fail_image", "srv_hang",
		"srv_huge", "srv_mixed", "srv_structured", "srv_weather"}, names)

	// The input schema is the server's, passed through.
	echo := tools(t, cs, nil)["echo"]
	def, err := echo.Definition()
	require.NoError(t, err)
	assert.Equal(t, "echo", def.Name)
	assert.Equal(t, "Echoes the text", def.Description)
	var schema map[string]any
	require.NoError(t, json.Unmarshal(def.InputSchema, &schema))
	assert.Equal(t, echo.MCP.InputSchema, schema)
	assert.Equal(t, "object", schema["type"])
	assert.Contains(t, schema["properties"], "text")
}

func TestToolDefinitionErrors(t *testing.T) {
	cs := connect(t, nil)
	object := map[string]any{"type": "object"}
	long := strings.Repeat("a", 128)
	tests := []struct {
		name    string
		tool    *mcp.Tool
		rename  string
		wantErr string // "" for none
	}{
		{name: "valid", tool: &mcp.Tool{Name: "ok", InputSchema: object}},
		{name: "128 characters", tool: &mcp.Tool{Name: long, InputSchema: object}},
		{name: "129 characters", tool: &mcp.Tool{Name: long + "a", InputSchema: object}, wantErr: "1 to 128 characters"},
		{name: "a dot", tool: &mcp.Tool{Name: "fs.read", InputSchema: object}, wantErr: `set Tool.Name to rename the MCP tool "fs.read"`},
		{name: "a dot, renamed", tool: &mcp.Tool{Name: "fs.read", InputSchema: object}, rename: "fs_read"},
		{name: "no schema", tool: &mcp.Tool{Name: "ok"}, wantErr: "no input schema"},
		{name: "schema not an object", tool: &mcp.Tool{Name: "ok", InputSchema: []any{1}}, wantErr: "input schema"},
		{name: "title as description", tool: &mcp.Tool{Name: "ok", Title: "Does things", InputSchema: object}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := mmsmcp.NewTool(cs, tt.tool, nil)
			if tt.rename != "" {
				tool.Name = tt.rename
			}
			def, err := tool.Definition()
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tool.Name, def.Name)
			assert.JSONEq(t, `{"type":"object"}`, string(def.InputSchema))
			assert.Equal(t, tt.tool.Description+tt.tool.Title, def.Description)
		})
	}

	_, err := mmsmcp.NewTool(nil, &mcp.Tool{Name: "ok", InputSchema: object}, nil).Definition()
	require.ErrorContains(t, err, "the session is nil")
	_, err = mmsmcp.NewTool(cs, nil, nil).Definition()
	require.ErrorContains(t, err, "the MCP tool is nil")
	_, err = mmsmcp.Tools(context.Background(), nil, nil)
	require.ErrorContains(t, err, "the session is nil")
}

func TestToolRun(t *testing.T) {
	cs := connect(t, nil)
	byName := tools(t, cs, nil)
	png := base64.StdEncoding.EncodeToString(mcpserver.PNG)
	title := func(s string) *string { return &s }
	tests := []struct {
		tool  string
		input string
		want  mms.ContentBlocks
	}{
		{tool: "echo", input: `{"text":"hi"}`, want: mms.ContentBlocks{mms.TextBlock{Text: "echo: hi"}}},
		// The SDK fills in a structured result's content with its JSON.
		{tool: "weather", input: `{"city":"Paris"}`, want: mms.ContentBlocks{mms.TextBlock{Text: `{"celsius":18,"city":"Paris"}`}}},
		// Structured content alone is sent as its JSON.
		{tool: "structured", input: ``, want: mms.ContentBlocks{mms.TextBlock{Text: `{"ok":true}`}}},
		{tool: "mixed", input: `{}`, want: mms.ContentBlocks{
			mms.TextBlock{Text: "here"},
			mms.ImageFromBase64(mms.ImageMediaTypePNG, png),
			mms.TextBlock{Text: "[MCP image content (image/bmp, 2 bytes) not included: the Messages API takes JPEG, PNG, GIF and WebP images only]"},
			mms.TextBlock{Text: "[MCP audio content (audio/wav, 4 bytes) not included: the Messages API has no audio block]"},
			mms.TextBlock{Text: `[MCP resource link: file:///big.csv name="big.csv" type=text/csv size=42]`},
			mms.DocumentBlock{Source: mms.PlainTextSource{MediaType: "text/plain", Data: "notes"}, Title: title("file:///notes.txt")},
			mms.DocumentBlock{Source: mms.Base64PDFSource{MediaType: "application/pdf", Data: base64.StdEncoding.EncodeToString(mcpserver.PDF)}, Title: title("file:///doc.pdf")},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			got, err := byName[tt.tool].Run(context.Background(), json.RawMessage(tt.input))
			require.NoError(t, err)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("content (-want +got):\n%s", d)
			}
		})
	}
}

func TestToolRunErrors(t *testing.T) {
	cs := connect(t, nil)
	byName := tools(t, cs, nil)
	ctx := context.Background()

	// A tool error is a *ToolError: the server's text, for is_error.
	_, err := byName["fail"].Run(ctx, json.RawMessage(`{}`))
	var toolErr *mmsmcp.ToolError
	require.ErrorAs(t, err, &toolErr)
	assert.Equal(t, "the disk is full", err.Error())
	assert.Equal(t, "fail", toolErr.Tool)

	// Its other content is kept, and named in the text.
	_, err = byName["fail_image"].Run(ctx, json.RawMessage(`{}`))
	require.ErrorAs(t, err, &toolErr)
	assert.Equal(t, "rendering failed\n[an image]", err.Error())
	require.Len(t, toolErr.Content, 2)
	assert.IsType(t, mms.ImageBlock{}, toolErr.Content[1])
	assert.Equal(t, "the MCP tool x failed without saying why", (&mmsmcp.ToolError{Tool: "x"}).Error())

	// A protocol error is not a tool error: it wraps the JSON-RPC error.
	_, err = byName["broken"].Run(ctx, json.RawMessage(`{}`))
	require.Error(t, err)
	assert.False(t, errors.As(err, &toolErr))
	var rpcErr *jsonrpc.Error
	require.ErrorAs(t, err, &rpcErr)
	assert.Contains(t, err.Error(), "calling tool broken")
	assert.Contains(t, err.Error(), "the backend is down")

	// So is a tool the server does not have.
	gone := mmsmcp.NewTool(cs, &mcp.Tool{Name: "gone", InputSchema: map[string]any{"type": "object"}}, nil)
	_, err = gone.Run(ctx, nil)
	require.ErrorAs(t, err, &rpcErr)
	assert.Contains(t, err.Error(), `unknown tool "gone"`)

	// Input the server's schema refuses is a tool error (the SDK's server
	// says so in an isError result), so the model can correct it.
	_, err = byName["echo"].Run(ctx, json.RawMessage(`{"text":3}`))
	require.ErrorAs(t, err, &toolErr)
	assert.Contains(t, err.Error(), `validating "arguments"`)

	// A closed session.
	cs2 := connect(t, nil)
	echo := tools(t, cs2, nil)["echo"]
	require.NoError(t, cs2.Close())
	_, err = echo.Run(ctx, json.RawMessage(`{"text":"hi"}`))
	require.ErrorIs(t, err, mcp.ErrConnectionClosed)
}

func TestToolRunHangs(t *testing.T) {
	started, ended := make(chan struct{}, 2), make(chan struct{}, 2)
	cs := connect(t, &mcpserver.Hooks{
		HangStarted: func() { started <- struct{}{} },
		HangEnded:   func() { ended <- struct{}{} },
	})
	hang := tools(t, cs, nil)["hang"]

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	begin := time.Now()
	_, err := hang.Run(ctx, json.RawMessage(`{}`))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(begin), 5*time.Second)
	<-started
	select { // the SDK tells the server the call is cancelled
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the server's handler was not cancelled")
	}

	// A cancelled context too; the session still works afterwards.
	ctx, cancel = context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	_, err = hang.Run(ctx, json.RawMessage(`{}`))
	require.ErrorIs(t, err, context.Canceled)
	got, err := tools(t, cs, nil)["echo"].Run(context.Background(), json.RawMessage(`{"text":"still here"}`))
	require.NoError(t, err)
	assert.Equal(t, mms.ContentBlocks{mms.TextBlock{Text: "echo: still here"}}, got)
}

func TestToolRunHugeResult(t *testing.T) {
	cs := connect(t, nil)
	img := mms.ImageFromBase64(mms.ImageMediaTypePNG, base64.StdEncoding.EncodeToString(mcpserver.PNG))
	imgSize := len(base64.StdEncoding.EncodeToString(mcpserver.PNG)) // 24
	const max = 100
	x := func(n int) mms.TextBlock { return mms.TextBlock{Text: strings.Repeat("x", n)} }
	marker := func(total, omitted int) mms.TextBlock {
		s := mmsmcp.TruncationMarker + ": the tool returned " + itoa(total) + " bytes, over the limit of 100"
		if omitted > 0 {
			s += "; " + itoa(omitted) + " more content block(s) left out"
		}
		return mms.TextBlock{Text: s + "]"}
	}
	tests := []struct {
		name  string
		bytes int
		max   int
		want  mms.ContentBlocks
	}{
		{name: "at the limit", bytes: max - imgSize, max: max, want: mms.ContentBlocks{x(max - imgSize), img}},
		{name: "one byte over: the image is left out", bytes: max - imgSize + 1, max: max,
			want: mms.ContentBlocks{x(max - imgSize + 1), marker(max+1, 1)}},
		{name: "text over the limit is cut", bytes: 1000, max: max,
			want: mms.ContentBlocks{x(max), marker(1000+imgSize, 1)}},
		{name: "no bound", bytes: 1000, max: -1, want: mms.ContentBlocks{x(1000), img}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			huge := tools(t, cs, &mmsmcp.Options{MaxResultBytes: tt.max})["huge"]
			got, err := huge.Run(context.Background(), json.RawMessage(`{"bytes":`+itoa(tt.bytes)+`}`))
			require.NoError(t, err)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("content (-want +got):\n%s", d)
			}
		})
	}

	// The default bound: 3 MiB of text arrive, 1 MiB is kept.
	huge := tools(t, cs, nil)["huge"]
	got, err := huge.Run(context.Background(), json.RawMessage(`{"bytes":3145728}`))
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Len(t, got[0].(mms.TextBlock).Text, mmsmcp.DefaultMaxResultBytes)
	assert.True(t, strings.HasPrefix(got[1].(mms.TextBlock).Text, mmsmcp.TruncationMarker))
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
