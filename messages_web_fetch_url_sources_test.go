package mms_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/wire"
)

func only(names ...string) mms.URLSourceFilterOnly {
	f := mms.URLSourceFilterOnly{Tools: []mms.ToolRef{}}
	for _, n := range names {
		f.Tools = append(f.Tools, mms.ToolRef{Name: n})
	}
	return f
}

// TestWebFetchURLSourcesRules: url_sources rules on both sides (SDK before
// sending, the fake on the same body), GA on every web_fetch version.
func TestWebFetchURLSourcesRules(t *testing.T) {
	lookup := mms.CustomTool{Name: "lookup", InputSchema: mms.InputSchema(`{"type":"object"}`)}
	fetch := func(v mms.WebFetchVersion, s *mms.URLSources) mms.WebFetchTool {
		return mms.WebFetchTool{Version: v, URLSources: s}
	}
	tests := []struct {
		name      string
		tools     mms.Tools
		field     string // "" accepts
		fakeField string
	}{
		{"every source kind", mms.Tools{lookup, mms.WebSearchTool{Version: mms.WebSearch20260209}, fetch(mms.WebFetch20260318,
			&mms.URLSources{UserInput: mms.URLSourceFilterNone{}, ClientToolResults: mms.URLSourceFilterExcept{Tools: []mms.ToolRef{{Name: "lookup"}}},
				ServerToolResults: only("web_search")})}, "", ""},
		{"20250910", mms.Tools{fetch(mms.WebFetch20250910, &mms.URLSources{UserInput: mms.URLSourceFilterAll{}})}, "", ""},
		{"20260209", mms.Tools{fetch(mms.WebFetch20260209, &mms.URLSources{ClientToolResults: mms.URLSourceFilterNone{}})}, "", ""},
		{"20260309", mms.Tools{fetch(mms.WebFetch20260309, &mms.URLSources{ServerToolResults: mms.URLSourceFilterAll{}})}, "", ""},
		{"empty url_sources", mms.Tools{fetch(mms.WebFetch20260318, &mms.URLSources{})}, "", ""},
		{"names its own fixed name", mms.Tools{fetch(mms.WebFetch20260318, &mms.URLSources{ServerToolResults: only("web_fetch")})}, "", ""},
		{"names a toolset member", mms.Tools{mms.ComputerToolset{Version: mms.ComputerToolset20260801},
			fetch(mms.WebFetch20260318, &mms.URLSources{ClientToolResults: only("screenshot")})}, "", ""},
		{"empty only list", mms.Tools{fetch(mms.WebFetch20260318, &mms.URLSources{ClientToolResults: only()})}, "", ""},
		{"undeclared tool", mms.Tools{lookup, fetch(mms.WebFetch20260318, &mms.URLSources{ServerToolResults: only("web_search")})},
			"tools[1].url_sources.server_tool_results.tools[0].name", "tools.1.url_sources.server_tool_results.tools.0.name"},
		{"undeclared in except", mms.Tools{fetch(mms.WebFetch20260318, &mms.URLSources{ClientToolResults: mms.URLSourceFilterExcept{
			Tools: []mms.ToolRef{{Name: "lookup"}}}})},
			"tools[0].url_sources.client_tool_results.tools[0].name", "tools.0.url_sources.client_tool_results.tools.0.name"},
		{"user_input only", mms.Tools{lookup, fetch(mms.WebFetch20260318, &mms.URLSources{UserInput: only("lookup")})},
			"tools[1].url_sources.user_input.type", "tools.1.url_sources.user_input"},
		{"filter without tools", mms.Tools{fetch(mms.WebFetch20260318, &mms.URLSources{ClientToolResults: mms.URLSourceFilterExcept{}})},
			"tools[0].url_sources.client_tool_results.tools", "tools.0.url_sources.client_tool_results.tools"},
		{"reference without a name", mms.Tools{fetch(mms.WebFetch20260318, &mms.URLSources{ServerToolResults: only("")})},
			"tools[0].url_sources.server_tool_results.tools[0].name", "tools.0.url_sources.server_tool_results.tools.0.name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 64, Messages: []mms.MessageParam{mms.UserText("hi")}, Tools: tt.tools}
			c, srv := newFake(t)
			_, err := c.Messages.Create(context.Background(), p)
			if tt.field == "" {
				require.NoError(t, err)
				reqs := srv.Requests()
				require.Len(t, reqs, 1)
				assert.Empty(t, reqs[0].Header.Get(wire.HeaderBeta), "url_sources is GA")
				assert.Contains(t, string(reqs[0].Body), `"url_sources":{`)
				return
			}
			wantInvalid(t, err, tt.field)
			assert.Empty(t, srv.Requests(), "nothing is sent")
			wantFakeRefusal(t, sendRaw(t, c, p), tt.fakeField)
		})
	}
}

// TestURLSourcesDeclaredByUnknownTool: a tool type this SDK version cannot
// name still declares its "name" (the SDK cannot tell; the service can).
func TestURLSourcesDeclaredByUnknownTool(t *testing.T) {
	var ts mms.Tools
	require.NoError(t, json.Unmarshal([]byte(`[{"type":"future_tool_20270101","name":"future"},`+
		`{"type":"web_fetch_20260318","name":"web_fetch","url_sources":{"server_tool_results":{"type":"only",`+
		`"tools":[{"type":"tool_reference","name":"future"}]}}}]`), &ts))
	p := mms.MessageCreateParams{Model: "m", MaxTokens: 1, Messages: []mms.MessageParam{mms.UserText("hi")}, Tools: ts}
	require.NoError(t, p.Validate())
	p.Tools = ts[1:]
	wantInvalid(t, p.Validate(), "tools[0].url_sources.server_tool_results.tools[0].name")
}

// TestURLSourcesRoundTrip: url_sources decodes into typed filters and
// re-encodes as it came; unknown filter types and members are kept.
func TestURLSourcesRoundTrip(t *testing.T) {
	in := `[{"type":"web_fetch_20260309","name":"web_fetch","use_cache":false,"url_sources":{` +
		`"user_input":{"type":"none"},` +
		`"client_tool_results":{"type":"except","tools":[{"type":"tool_reference","name":"lookup"}]},` +
		`"server_tool_results":{"type":"only","tools":[{"type":"tool_reference","name":"web_search"}]}}},` +
		`{"type":"web_fetch_20250910","name":"web_fetch","url_sources":{"user_input":{"type":"all"},` +
		`"client_tool_results":{"type":"some_future_filter","x":1},"server_tool_results":null}}]`
	var ts mms.Tools
	require.NoError(t, json.Unmarshal([]byte(in), &ts))
	require.Len(t, ts, 2)
	want := &mms.URLSources{UserInput: mms.URLSourceFilterNone{},
		ClientToolResults: mms.URLSourceFilterExcept{Tools: []mms.ToolRef{{Name: "lookup"}}},
		ServerToolResults: mms.URLSourceFilterOnly{Tools: []mms.ToolRef{{Name: "web_search"}}}}
	got := ts[0].(mms.WebFetchTool).URLSources
	if d := cmp.Diff(want, got, cmp.Transformer("noEmptyExtra", func(m map[string]json.RawMessage) map[string]json.RawMessage {
		if len(m) == 0 {
			return nil
		}
		return m
	})); d != "" {
		t.Errorf("decoded (-want +got):\n%s", d)
	}
	second := ts[1].(mms.WebFetchTool).URLSources
	assert.IsType(t, mms.URLSourceFilterAll{}, second.UserInput)
	unknown, ok := second.ClientToolResults.(mms.UnknownURLSourceFilter)
	require.True(t, ok, "%T", second.ClientToolResults)
	assert.Equal(t, "some_future_filter", unknown.Type)

	out, err := json.Marshal(ts)
	require.NoError(t, err)
	assert.JSONEq(t, in, string(out))
}
