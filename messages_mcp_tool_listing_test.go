package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

var trackerServer = mms.MCPServers{{Name: "tracker", URL: "https://mcp.example.com/tracker"}}

// mcpParams is a request offering the tracker MCP server's tools.
func mcpParams(tools mms.Tools, msgs ...mms.MessageParam) mms.MessageCreateParams {
	if len(msgs) == 0 {
		msgs = []mms.MessageParam{mms.UserText("hi")}
	}
	return mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 64, Messages: msgs, MCPServers: trackerServer, Tools: tools}
}

func listedTool(name string) mms.MCPListedTool {
	return mms.MCPListedTool{Name: name, InputSchema: mms.InputSchema(`{"type":"object"}`)}
}

// wantInvalid requires a *ValidationError naming field.
func wantInvalid(t *testing.T, err error, field string) {
	t.Helper()
	var ve *mms.ValidationError
	require.True(t, errors.As(err, &ve), "want a *ValidationError for %s, got %v", field, err)
	assert.Equal(t, field, ve.Field, "%v", err)
}

// sendRaw sends p unvalidated, with betas, so the fake judges it.
func sendRaw(t *testing.T, c *mms.Client, p mms.MessageCreateParams, betas ...string) error {
	t.Helper()
	var raw json.RawMessage
	var opts []option.RequestOption
	for _, b := range betas {
		opts = append(opts, option.WithBeta(b))
	}
	return c.Do(context.Background(), http.MethodPost, "/v1/messages", &p, &raw, opts...)
}

// TestMCPToolListingBlockRules: the request form of an mcp_tool_listing
// block sent back, each rule on both sides, in the SDK (before sending)
// and in the fake (the same body, unvalidated).
func TestMCPToolListingBlockRules(t *testing.T) {
	tests := []struct {
		name      string
		block     mms.MCPToolListingBlock
		field     string // SDK field; "" accepts
		fakeField string
	}{
		{"valid", mms.MCPToolListingBlock{MCPServerName: "tracker", Tools: []mms.MCPListedTool{listedTool("list_issues")}}, "", ""},
		{"no tools", mms.MCPToolListingBlock{MCPServerName: "tracker", Tools: []mms.MCPListedTool{}}, "", ""},
		{"empty schema object", mms.MCPToolListingBlock{MCPServerName: "tracker",
			Tools: []mms.MCPListedTool{{Name: "a", InputSchema: mms.InputSchema(`{}`)}}}, "", ""},
		{"server name empty", mms.MCPToolListingBlock{Tools: []mms.MCPListedTool{}},
			"messages[1].content[0].mcp_server_name", "messages.1.content.0.mcp_server_name"},
		{"tools nil", mms.MCPToolListingBlock{MCPServerName: "tracker"},
			"messages[1].content[0].tools", "messages.1.content.0.tools"},
		{"tool name empty", mms.MCPToolListingBlock{MCPServerName: "tracker", Tools: []mms.MCPListedTool{listedTool("")}},
			"messages[1].content[0].tools[0].name", "messages.1.content.0.tools.0.name"},
		{"schema missing", mms.MCPToolListingBlock{MCPServerName: "tracker", Tools: []mms.MCPListedTool{{Name: "a"}}},
			"messages[1].content[0].tools[0].input_schema", "messages.1.content.0.tools.0.input_schema"},
		{"schema not an object", mms.MCPToolListingBlock{MCPServerName: "tracker",
			Tools: []mms.MCPListedTool{{Name: "a", InputSchema: mms.InputSchema(`["x"]`)}}},
			"messages[1].content[0].tools[0].input_schema", "messages.1.content.0.tools.0.input_schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mcpParams(mms.Tools{mms.MCPToolset{MCPServerName: "tracker"}}, mms.UserText("hi"),
				mms.AssistantMessage(tt.block, mms.TextBlock{Text: "listed"}), mms.UserText("go on"))
			c, srv := newFake(t)
			_, err := c.Messages.Create(context.Background(), p)
			if tt.field == "" {
				require.NoError(t, err)
				reqs := srv.Requests()
				require.Len(t, reqs, 1)
				assert.Contains(t, reqs[0].Header.Get(wire.HeaderBeta), "mcp-client-2025-11-20")
				return
			}
			wantInvalid(t, err, tt.field)
			assert.Empty(t, srv.Requests(), "nothing is sent")
			wantFakeRefusal(t, sendRaw(t, c, p, "mcp-client-2025-11-20"), tt.fakeField)
		})
	}
}

// TestMCPToolsetPinnedTools: mcp_toolset.tools rules on both sides, and
// the betas a pinned toolset sends.
func TestMCPToolsetPinnedTools(t *testing.T) {
	name128 := strings.Repeat("n", 128)
	tests := []struct {
		name      string
		tools     []mms.MCPListedTool
		field     string
		fakeField string
	}{
		{"valid", []mms.MCPListedTool{listedTool("list_issues"), listedTool("close_issue")}, "", ""},
		{"empty list", []mms.MCPListedTool{}, "", ""},
		{"name of 128", []mms.MCPListedTool{listedTool(name128)}, "", ""},
		{"name with a dot (MCP names are the server's)", []mms.MCPListedTool{listedTool("issues.list")}, "", ""},
		{"name of 129", []mms.MCPListedTool{listedTool(name128 + "n")}, "tools[0].tools[0].name", "tools.0.tools.0.name"},
		{"name empty", []mms.MCPListedTool{listedTool("")}, "tools[0].tools[0].name", "tools.0.tools.0.name"},
		{"duplicate", []mms.MCPListedTool{listedTool("a"), listedTool("b"), listedTool("a")},
			"tools[0].tools[2].name", "tools.0.tools.2.name"},
		{"schema missing", []mms.MCPListedTool{{Name: "a"}}, "tools[0].tools[0].input_schema", "tools.0.tools.0.input_schema"},
		{"schema not an object", []mms.MCPListedTool{{Name: "a", InputSchema: mms.InputSchema(`"x"`)}},
			"tools[0].tools[0].input_schema", "tools.0.tools.0.input_schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mcpParams(mms.Tools{mms.MCPToolset{MCPServerName: "tracker", Tools: tt.tools}})
			c, srv := newFake(t)
			_, err := c.Messages.Create(context.Background(), p)
			if tt.field == "" {
				require.NoError(t, err)
				reqs := srv.Requests()
				require.Len(t, reqs, 1)
				beta := reqs[0].Header.Get(wire.HeaderBeta)
				assert.Contains(t, beta, "mcp-client-2025-11-20")
				assert.Contains(t, beta, "mcp-client-2026-09-15")
				assert.Contains(t, string(reqs[0].Body), `"tools":[`)
				return
			}
			wantInvalid(t, err, tt.field)
			assert.Empty(t, srv.Requests(), "nothing is sent")
			wantFakeRefusal(t, sendRaw(t, c, p, "mcp-client-2026-09-15"), tt.fakeField)
		})
	}

	t.Run("unpinned sends only the toolset beta", func(t *testing.T) {
		c, srv := newFake(t)
		_, err := c.Messages.Create(context.Background(), mcpParams(mms.Tools{mms.MCPToolset{MCPServerName: "tracker"}}))
		require.NoError(t, err)
		beta := srv.Requests()[0].Header.Get(wire.HeaderBeta)
		assert.NotContains(t, beta, "mcp-client-2026-09-15")
		assert.NotContains(t, string(srv.Requests()[0].Body), `"tools":[{"name"`)
	})
	t.Run("the fake refuses pinned tools without their beta", func(t *testing.T) {
		c, _ := newFake(t)
		p := mcpParams(mms.Tools{mms.MCPToolset{MCPServerName: "tracker", Tools: []mms.MCPListedTool{listedTool("a")}}})
		wantFakeRefusal(t, sendRaw(t, c, p, "mcp-client-2025-11-20"), "tools.0.tools")
	})
}

// TestMCPToolListingPin: Pin copies a listing into a toolset.
func TestMCPToolListingPin(t *testing.T) {
	listing := mms.MCPToolListingBlock{MCPServerName: "tracker", Tools: []mms.MCPListedTool{
		{Name: "list_issues", Description: "List issues.", InputSchema: mms.InputSchema(`{"type":"object","properties":{}}`)},
		listedTool("close_issue"),
	}}
	cfg := &mms.ToolsetConfig{DeferLoading: mms.Ptr(false)}

	ts, err := listing.Pin(mms.MCPToolset{DefaultConfig: cfg})
	require.NoError(t, err)
	assert.Equal(t, "tracker", ts.MCPServerName, "filled in from the listing")
	assert.Same(t, cfg, ts.DefaultConfig, "the rest of the toolset is kept")
	if d := cmp.Diff(listing.Tools, ts.Tools); d != "" {
		t.Errorf("pinned tools (-want +got):\n%s", d)
	}
	listing.Tools[0].InputSchema[1] = 'X' // the copy does not share the listing's memory
	listing.Tools[1].Name = "changed"
	assert.Equal(t, `{"type":"object","properties":{}}`, string(ts.Tools[0].InputSchema))
	assert.Equal(t, "close_issue", ts.Tools[1].Name)

	_, err = listing.Pin(mms.MCPToolset{MCPServerName: "docs"})
	require.ErrorContains(t, err, `the listing is of MCP server "tracker", the toolset of "docs"`)
	_, err = mms.MCPToolListingBlock{}.Pin(mms.MCPToolset{MCPServerName: "docs"})
	require.ErrorContains(t, err, "the listing has no mcp_server_name")
}

// TestMCPToolListingConversation: the fake (scripted) answers with a
// listing; the listing decodes typed, streams complete from its
// content_block_start, is sent back unchanged and then reused, and pinned
// into the toolset it stops the service asking again.
func TestMCPToolListingConversation(t *testing.T) {
	ctx := context.Background()
	listing := mmstest.MCPToolListing{ServerName: "tracker", Tools: []mmstest.MCPTool{
		{Name: "list_issues", Description: "List issues.", InputSchema: `{"type":"object","properties":{"state":{"type":"string"}}}`},
	}}
	want := mms.MCPToolListingBlock{MCPServerName: "tracker", Tools: []mms.MCPListedTool{{Name: "list_issues",
		Description: "List issues.", InputSchema: mms.InputSchema(`{"type":"object","properties":{"state":{"type":"string"}}}`)}}}
	c, srv := newFake(t)
	srv.Script(mmstest.Turn{MCPToolListings: []mmstest.MCPToolListing{listing}, Text: "one"},
		mmstest.Turn{MCPToolListings: []mmstest.MCPToolListing{listing}, Text: "two"},
		mmstest.Turn{MCPToolListings: []mmstest.MCPToolListing{listing}, Text: "three"},
		mmstest.Turn{MCPToolListings: []mmstest.MCPToolListing{listing}, Text: "four"})
	toolset := mms.MCPToolset{MCPServerName: "tracker"}
	p := mcpParams(mms.Tools{toolset})

	msg, err := c.Messages.Create(ctx, p)
	require.NoError(t, err)
	require.Len(t, msg.Content, 2)
	got, ok := msg.Content[0].(mms.MCPToolListingBlock)
	require.True(t, ok, "%T", msg.Content[0])
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("listing (-want +got):\n%s", d)
	}

	// Streaming: complete in content_block_start, accumulated as it came.
	acc := &mms.MessageAccumulator{}
	var start mms.ContentBlock
	for ev, err := range c.Messages.Stream(ctx, p) {
		require.NoError(t, err)
		require.NoError(t, acc.Add(ev))
		switch ev := ev.(type) {
		case mms.ContentBlockStartEvent:
			if _, ok := ev.ContentBlock.(mms.MCPToolListingBlock); ok {
				start = ev.ContentBlock
			}
		case mms.ContentBlockDeltaEvent:
			assert.NotEqual(t, 0, ev.Index, "a listing takes no deltas")
		}
	}
	if d := cmp.Diff(mms.ContentBlock(want), start); d != "" {
		t.Errorf("content_block_start (-want +got):\n%s", d)
	}
	streamed := acc.Message()
	require.Len(t, streamed.Content, 2)
	if d := cmp.Diff(mms.ContentBlock(want), streamed.Content[0]); d != "" {
		t.Errorf("accumulated (-want +got):\n%s", d)
	}

	// Sent back: accepted, and the service reuses it (no new listing).
	q := p
	q.Messages = append(q.Messages, msg.ToParam(), mms.UserText("go on"))
	again, err := c.Messages.Create(ctx, q)
	require.NoError(t, err)
	require.Len(t, again.Content, 1)
	assert.Equal(t, "three", again.Content[0].(mms.TextBlock).Text)

	// Pinned: the server is not asked.
	pinned, err := got.Pin(toolset)
	require.NoError(t, err)
	r := mcpParams(mms.Tools{pinned})
	last, err := c.Messages.Create(ctx, r)
	require.NoError(t, err)
	require.Len(t, last.Content, 1)
	assert.Equal(t, "four", last.Content[0].(mms.TextBlock).Text)
	reqs := srv.Requests()
	assert.Contains(t, string(reqs[len(reqs)-1].Body),
		`"tools":[{"type":"mcp_toolset","mcp_server_name":"tracker","tools":[{"name":"list_issues","description":"List issues.",`+
			`"input_schema":{"type":"object","properties":{"state":{"type":"string"}}}}]}]`)
}

// TestMCPToolListingRoundTrip: the block decodes from the wire typed and
// re-encodes as it came, explicit nulls and unknown members included; its
// request form drops the unknown members and keeps the nulls.
func TestMCPToolListingRoundTrip(t *testing.T) {
	in := `{"type":"mcp_tool_listing","mcp_server_name":"tracker","x_new":1,"tools":[` +
		`{"name":"a","description":null,"input_schema":{"type":"object","z":1,"a":2}},{"name":"b","input_schema":{}}]}`
	var blocks mms.ContentBlocks
	require.NoError(t, json.Unmarshal([]byte("["+in+"]"), &blocks))
	b, ok := blocks[0].(mms.MCPToolListingBlock)
	require.True(t, ok, "%T", blocks[0])
	assert.Equal(t, "tracker", b.MCPServerName)
	require.Len(t, b.Tools, 2)
	assert.Equal(t, `{"type":"object","z":1,"a":2}`, string(b.Tools[0].InputSchema), "key order kept")
	out, err := json.Marshal(b)
	require.NoError(t, err)
	assert.JSONEq(t, in, string(out))

	req, err := json.Marshal(mms.AssistantMessage(b))
	require.NoError(t, err)
	assert.JSONEq(t, `{"role":"assistant","content":[{"type":"mcp_tool_listing","mcp_server_name":"tracker","tools":[`+
		`{"name":"a","description":null,"input_schema":{"type":"object","z":1,"a":2}},{"name":"b","input_schema":{}}]}]}`, string(req))

	empty, err := json.Marshal(mms.MCPToolListingBlock{MCPServerName: "s", Tools: []mms.MCPListedTool{}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"mcp_tool_listing","mcp_server_name":"s","tools":[]}`, string(empty))
}
