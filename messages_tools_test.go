package mms

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/internal/codec"

	"github.com/stretchr/testify/require"
)

// rcJSONEqual fails t unless got and want are the same JSON value.
func rcJSONEqual(t *testing.T, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("want is not JSON: %v\n%s", err, want)
	}
	if d := cmp.Diff(w, g); d != "" {
		t.Errorf("JSON mismatch (-want +got):\n%s\ngot: %s", d, got)
	}
}

// rcWantInvalid fails t unless err is a *ValidationError for field and rule.
func rcWantInvalid(t *testing.T, err error, field, rule string) {
	t.Helper()
	if field == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v, want a *ValidationError for %s", err, field)
	}
	if ve.Field != field || ve.Rule != rule {
		t.Errorf("got %s: %s\nwant %s: %s", ve.Field, ve.Rule, field, rule)
	}
	if !errors.Is(err, ErrInvalidParams) {
		t.Errorf("errors.Is(err, ErrInvalidParams) = false")
	}
}

func TestToolVariants(t *testing.T) {
	schema := InputSchema(`{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"integer"}},"required":["z"]}`)
	cases := []struct {
		name string
		in   Tool   // what a user writes
		json string // its encoding
		out  Tool   // its decoding (in, when nil)
	}{
		{
			name: "custom",
			in: CustomTool{
				Name: "get_weather", Description: "Weather now.", InputSchema: schema,
				EagerInputStreaming: Ptr(false), AllowedCallers: []AllowedCaller{AllowedCallerDirect},
				CacheControl: &CacheControl{TTL: CacheTTL1h}, DeferLoading: Ptr(true),
				InputExamples: []json.RawMessage{json.RawMessage(`{"z":"Paris"}`)}, Strict: Ptr(true),
			},
			json: `{"type":"custom","name":"get_weather","description":"Weather now.","input_schema":{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"integer"}},"required":["z"]},"eager_input_streaming":false,"allowed_callers":["direct"],"cache_control":{"type":"ephemeral","ttl":"1h"},"defer_loading":true,"input_examples":[{"z":"Paris"}],"strict":true}`,
		},
		{
			name: "custom without type",
			in:   CustomTool{Name: "f", InputSchema: InputSchema(`{"type":"object"}`), OmitType: true},
			json: `{"name":"f","input_schema":{"type":"object"}}`,
		},
		{
			name: "bash",
			in:   BashTool{Version: Bash20250124, InputExamples: []json.RawMessage{json.RawMessage(`{"command":"ls"}`)}},
			json: `{"type":"bash_20250124","name":"bash","input_examples":[{"command":"ls"}]}`,
			out:  BashTool{Version: Bash20250124, Name: "bash", InputExamples: []json.RawMessage{json.RawMessage(`{"command":"ls"}`)}},
		},
		{
			name: "text editor with max_characters",
			in:   TextEditorTool{Version: TextEditor20250728, MaxCharacters: Ptr(10000)},
			json: `{"type":"text_editor_20250728","name":"str_replace_based_edit_tool","max_characters":10000}`,
			out:  TextEditorTool{Version: TextEditor20250728, Name: "str_replace_based_edit_tool", MaxCharacters: Ptr(10000)},
		},
		{
			name: "computer",
			in:   ComputerTool{Version: Computer20251124, DisplayWidthPx: 1280, DisplayHeightPx: 800, DisplayNumber: Ptr(0), EnableZoom: true},
			json: `{"type":"computer_20251124","name":"computer","display_width_px":1280,"display_height_px":800,"display_number":0,"enable_zoom":true}`,
			out:  ComputerTool{Version: Computer20251124, Name: "computer", DisplayWidthPx: 1280, DisplayHeightPx: 800, DisplayNumber: Ptr(0), EnableZoom: true},
		},
		{
			name: "web search",
			in: WebSearchTool{Version: WebSearch20260318, AllowedDomains: []string{"go.dev"}, MaxUses: Ptr(3),
				UserLocation: &UserLocation{City: "Paris", Country: "FR", Timezone: "Europe/Paris"}, ResponseInclusion: ResponseInclusionExcluded},
			json: `{"type":"web_search_20260318","name":"web_search","allowed_domains":["go.dev"],"max_uses":3,"user_location":{"type":"approximate","city":"Paris","country":"FR","timezone":"Europe/Paris"},"response_inclusion":"excluded"}`,
			out: WebSearchTool{Version: WebSearch20260318, Name: "web_search", AllowedDomains: []string{"go.dev"}, MaxUses: Ptr(3),
				UserLocation: &UserLocation{City: "Paris", Country: "FR", Timezone: "Europe/Paris"}, ResponseInclusion: ResponseInclusionExcluded},
		},
		{
			name: "web fetch",
			in: WebFetchTool{Version: WebFetch20260318, BlockedDomains: []string{"example.com"}, MaxContentTokens: Ptr(5000),
				Citations: &WebFetchCitations{Enabled: true}, UseCache: Ptr(false), ResponseInclusion: ResponseInclusionFull},
			json: `{"type":"web_fetch_20260318","name":"web_fetch","blocked_domains":["example.com"],"max_content_tokens":5000,"citations":{"enabled":true},"use_cache":false,"response_inclusion":"full"}`,
			out: WebFetchTool{Version: WebFetch20260318, Name: "web_fetch", BlockedDomains: []string{"example.com"}, MaxContentTokens: Ptr(5000),
				Citations: &WebFetchCitations{Enabled: true}, UseCache: Ptr(false), ResponseInclusion: ResponseInclusionFull},
		},
		{
			name: "advisor",
			in:   AdvisorTool{Version: Advisor20260301, Model: "m-large", MaxTokens: Ptr(1024), MaxUses: Ptr(2), Caching: &CacheControl{}},
			json: `{"type":"advisor_20260301","name":"advisor","model":"m-large","max_tokens":1024,"max_uses":2,"caching":{"type":"ephemeral"}}`,
			out:  AdvisorTool{Version: Advisor20260301, Name: "advisor", Model: "m-large", MaxTokens: Ptr(1024), MaxUses: Ptr(2), Caching: &CacheControl{}},
		},
		{
			name: "computer toolset",
			in: ComputerToolset{Version: ComputerToolset20260801, Configs: map[string]*ToolsetConfig{
				"zoom": {Enabled: Ptr(false)}, "screenshot": nil}},
			json: `{"type":"computer_toolset_20260801","configs":{"screenshot":null,"zoom":{"enabled":false}}}`,
		},
		{
			name: "browser toolset",
			in: BrowserToolset{Version: BrowserToolset20260801, Configs: map[string]*ToolsetConfig{"navigate": {DeferLoading: Ptr(false)}},
				CacheControl: &CacheControl{}},
			json: `{"type":"browser_toolset_20260801","configs":{"navigate":{"defer_loading":false}},"cache_control":{"type":"ephemeral"}}`,
		},
		{
			name: "mcp toolset",
			in: MCPToolset{MCPServerName: "wiki", DefaultConfig: &ToolsetConfig{Enabled: Ptr(false)},
				Configs: map[string]*ToolsetConfig{"ask": {Enabled: Ptr(true), DeferLoading: Ptr(true)}}},
			json: `{"type":"mcp_toolset","mcp_server_name":"wiki","default_config":{"enabled":false},"configs":{"ask":{"enabled":true,"defer_loading":true}}}`,
		},
	}
	// Every versioned type encodes with its type and fixed name.
	versioned := []struct {
		tool Tool
		typ  string
		name string
	}{
		{BashTool{Version: Bash20250124}, "bash_20250124", "bash"},
		{BashTool{Version: Bash20241022}, "bash_20241022", "bash"},
		{CodeExecutionTool{Version: CodeExecution20250522}, "code_execution_20250522", "code_execution"},
		{CodeExecutionTool{Version: CodeExecution20250825}, "code_execution_20250825", "code_execution"},
		{CodeExecutionTool{Version: CodeExecution20260120}, "code_execution_20260120", "code_execution"},
		{CodeExecutionTool{Version: CodeExecution20260521}, "code_execution_20260521", "code_execution"},
		{MemoryTool{Version: Memory20250818}, "memory_20250818", "memory"},
		{TextEditorTool{Version: TextEditor20250124}, "text_editor_20250124", "str_replace_editor"},
		{TextEditorTool{Version: TextEditor20250429}, "text_editor_20250429", "str_replace_based_edit_tool"},
		{TextEditorTool{Version: TextEditor20250728}, "text_editor_20250728", "str_replace_based_edit_tool"},
		{TextEditorTool{Version: TextEditor20241022}, "text_editor_20241022", "str_replace_editor"},
		{ComputerTool{Version: Computer20241022, DisplayWidthPx: 1, DisplayHeightPx: 2}, "computer_20241022", "computer"},
		{ComputerTool{Version: Computer20250124, DisplayWidthPx: 1, DisplayHeightPx: 2}, "computer_20250124", "computer"},
		{ComputerTool{Version: Computer20251124, DisplayWidthPx: 1, DisplayHeightPx: 2}, "computer_20251124", "computer"},
		{WebSearchTool{Version: WebSearch20250305}, "web_search_20250305", "web_search"},
		{WebSearchTool{Version: WebSearch20260209}, "web_search_20260209", "web_search"},
		{WebSearchTool{Version: WebSearch20260318}, "web_search_20260318", "web_search"},
		{WebFetchTool{Version: WebFetch20250910}, "web_fetch_20250910", "web_fetch"},
		{WebFetchTool{Version: WebFetch20260209}, "web_fetch_20260209", "web_fetch"},
		{WebFetchTool{Version: WebFetch20260309}, "web_fetch_20260309", "web_fetch"},
		{WebFetchTool{Version: WebFetch20260318}, "web_fetch_20260318", "web_fetch"},
		{ToolSearchTool{Version: ToolSearchBM25}, "tool_search_tool_bm25", "tool_search_tool_bm25"},
		{ToolSearchTool{Version: ToolSearchBM25_20251119}, "tool_search_tool_bm25_20251119", "tool_search_tool_bm25"},
		{ToolSearchTool{Version: ToolSearchRegex}, "tool_search_tool_regex", "tool_search_tool_regex"},
		{ToolSearchTool{Version: ToolSearchRegex20251119}, "tool_search_tool_regex_20251119", "tool_search_tool_regex"},
		{AdvisorTool{Version: Advisor20260301, Model: "m"}, "advisor_20260301", "advisor"},
	}
	// The rows above cover every wire type of the tools union, so a version
	// added to toolFamilies without a row here fails.
	covered := map[string]bool{"computer_toolset_20260801": true, "browser_toolset_20260801": true, "mcp_toolset": true}
	for _, v := range versioned {
		covered[v.typ] = true
	}
	for typ := range toolUnion.Types() {
		if !covered[typ] {
			t.Errorf("tool type %q has no test row", typ)
		}
	}
	for _, v := range versioned {
		b, err := codec.Marshal(v.tool)
		if err != nil {
			t.Fatalf("%s: %v", v.typ, err)
		}
		var members map[string]json.RawMessage
		if err := json.Unmarshal(b, &members); err != nil {
			t.Fatal(err)
		}
		if got := string(members["type"]); got != `"`+v.typ+`"` {
			t.Errorf("%s: type = %s", v.typ, got)
		}
		if got := string(members["name"]); got != `"`+v.name+`"` {
			t.Errorf("%s: name = %s, want %q", v.typ, got, v.name)
		}
		cases = append(cases, struct {
			name string
			in   Tool
			json string
			out  Tool
		}{name: v.typ, in: v.tool, json: string(b), out: rcWithName(v.tool, v.name)})
		if err := v.tool.validate("tools[0]"); err != nil {
			t.Errorf("%s: minimal tool invalid: %v", v.typ, err)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := c.out
			if want == nil {
				want = c.in
			}
			rcCheckRoundTrip(t, c.in, c.json, want, toolUnion.Decode)
		})
	}
}

// rcWithName returns the versioned tool t with its Name set.
func rcWithName(t Tool, name string) Tool {
	switch v := t.(type) {
	case BashTool:
		v.Name = name
		return v
	case CodeExecutionTool:
		v.Name = name
		return v
	case MemoryTool:
		v.Name = name
		return v
	case TextEditorTool:
		v.Name = name
		return v
	case ComputerTool:
		v.Name = name
		return v
	case WebSearchTool:
		v.Name = name
		return v
	case WebFetchTool:
		v.Name = name
		return v
	case ToolSearchTool:
		v.Name = name
		return v
	case AdvisorTool:
		v.Name = name
		return v
	}
	panic("rcWithName: not a versioned tool")
}

func TestToolDecodeForms(t *testing.T) {
	cases := []struct {
		name string
		json string
		want Tool
	}{
		{"custom without type", `{"name":"f","input_schema":{"type":"object"}}`,
			CustomTool{Name: "f", InputSchema: InputSchema(`{"type":"object"}`), OmitType: true}},
		{"custom with null type", `{"type":null,"name":"f","input_schema":{"type":"object"}}`,
			CustomTool{Name: "f", InputSchema: InputSchema(`{"type":"object"}`), OmitType: true,
				Extra: map[string]json.RawMessage{"type": json.RawMessage("null")}}},
		{"custom with type", `{"type":"custom","name":"f","input_schema":{"type":"object"}}`,
			CustomTool{Name: "f", InputSchema: InputSchema(`{"type":"object"}`)}},
		{"custom with only input_schema", `{"input_schema":{"type":"object"}}`, // the absent name stays absent
			CustomTool{InputSchema: InputSchema(`{"type":"object"}`), OmitType: true, Extra: map[string]json.RawMessage{"name": nil}}},
		{"decoded name kept", `{"type":"bash_20250124","name":"shell"}`,
			BashTool{Version: Bash20250124, Name: "shell"}},
		{"explicit zeros kept", `{"type":"web_search_20250305","name":"web_search","allowed_domains":null,"max_uses":null,"user_location":null,"cache_control":null}`,
			WebSearchTool{Version: WebSearch20250305, Name: "web_search", Extra: map[string]json.RawMessage{
				"allowed_domains": json.RawMessage("null"), "max_uses": json.RawMessage("null"),
				"user_location": json.RawMessage("null"), "cache_control": json.RawMessage("null")}}},
		{"empty description kept", `{"name":"f","description":"","input_schema":{"type":"object"},"eager_input_streaming":null}`,
			CustomTool{Name: "f", InputSchema: InputSchema(`{"type":"object"}`), OmitType: true, Extra: map[string]json.RawMessage{
				"description": json.RawMessage(`""`), "eager_input_streaming": json.RawMessage("null")}}},
		{"unknown members kept", `{"type":"memory_20250818","name":"memory","future":1}`,
			MemoryTool{Version: Memory20250818, Name: "memory", Extra: map[string]json.RawMessage{"future": json.RawMessage("1")}}},
		{"unknown type", `{"type":"hologram_20300101","name":"holo","x":[1, 2]}`,
			UnknownTool{Type: "hologram_20300101", Raw: json.RawMessage(`{"type":"hologram_20300101","name":"holo","x":[1, 2]}`)}},
		{"unknown without type or name", `{"x":1}`,
			UnknownTool{Raw: json.RawMessage(`{"x":1}`)}},
		{"empty type string", `{"type":"","name":"f"}`,
			UnknownTool{Raw: json.RawMessage(`{"type":"","name":"f"}`)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := toolUnion.Decode([]byte(c.json))
			require.NoError(t, err)
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("decode (-want +got):\n%s", d)
			}
			b, err := codec.Marshal(got)
			require.NoError(t, err)
			want, request := c.json, c.json
			switch c.name {
			case "unknown members kept": // the request form drops them
				request = `{"type":"memory_20250818","name":"memory"}`
			case "custom with null type": // an unmodelled member, as type is absent from CustomTool
				request = `{"name":"f","input_schema":{"type":"object"}}`
			}
			rcJSONEqual(t, b, []byte(want))
			if b, err = json.Marshal(got); err != nil {
				t.Fatal(err)
			}
			rcJSONEqual(t, b, []byte(request))
		})
	}
	for _, bad := range []string{`null`, `[]`, `"bash"`, `{"type":5}`, `{"type":"web_search_20250305","max_uses":"x"}`,
		`{"type":"zzz","a":tru}`, `{"type":"bash_20250124","strict":"yes"}`, `{`} {
		if got, err := toolUnion.Decode([]byte(bad)); err == nil {
			t.Errorf("toolUnion.Decode(%s) = %#v, want an error", bad, got)
		}
	}
}

// TestToolOtherNestedType: a member with a fixed type (cache_control is
// always "ephemeral") that carries another type turns the whole tool into an
// UnknownTool, kept verbatim, instead of re-typing it.
func TestToolOtherNestedType(t *testing.T) {
	for _, in := range []string{
		`{"type":"bash_20250124","name":"bash","cache_control":{"type":"persistent"}}`,
		`{"name":"f","input_schema":{"type":"object"},"cache_control":{"type":"persistent"}}`,
		`{"type":"web_search_20250305","name":"web_search","user_location":{"type":"exact","city":"Paris"}}`,
	} {
		got, err := toolUnion.Decode([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		u, ok := got.(UnknownTool)
		if !ok || string(u.Raw) != in {
			t.Errorf("%s decoded to %#v, want an UnknownTool holding it", in, got)
		}
	}
}

func TestToolsList(t *testing.T) {
	data := `[{"name":"f","input_schema":{"type":"object"}},{"type":"code_execution_20260120","name":"code_execution"},{"type":"nope"}]`
	var ts Tools
	if err := json.Unmarshal([]byte(data), &ts); err != nil {
		t.Fatal(err)
	}
	want := Tools{
		CustomTool{Name: "f", InputSchema: InputSchema(`{"type":"object"}`), OmitType: true},
		CodeExecutionTool{Version: CodeExecution20260120, Name: "code_execution"},
		UnknownTool{Type: "nope", Raw: json.RawMessage(`{"type":"nope"}`)},
	}
	if d := cmp.Diff(want, ts); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	b, err := codec.Marshal(ts)
	require.NoError(t, err)
	rcJSONEqual(t, b, []byte(data))

	var empty Tools
	if err := json.Unmarshal([]byte(`[]`), &empty); err != nil || empty == nil || len(empty) != 0 {
		t.Errorf("[] decoded to %#v, %v; want an empty non-nil list", empty, err)
	}
	// A null entry decodes to a nil Tool, which validation refuses.
	var withNull Tools
	if err := json.Unmarshal([]byte(`[{"type":"bash_20250124"},null]`), &withNull); err != nil || len(withNull) != 2 || withNull[1] != nil {
		t.Fatalf("decoded %#v, %v; want a nil second entry", withNull, err)
	}
	var ve *ValidationError
	if err := withNull.validate("tools"); !errors.As(err, &ve) || ve.Field != "tools[1]" {
		t.Errorf("validate = %v, want a ValidationError on tools[1]", err)
	}
}

func TestToolExtraYieldsToSetField(t *testing.T) {
	var ws WebSearchTool
	if err := json.Unmarshal([]byte(`{"type":"web_search_20250305","name":"web_search","max_uses":null}`), &ws); err != nil {
		t.Fatal(err)
	}
	ws.MaxUses = Ptr(4)
	b, err := codec.MarshalRequest(ws)
	require.NoError(t, err)
	rcJSONEqual(t, b, []byte(`{"type":"web_search_20250305","name":"web_search","max_uses":4}`))

	// The request form never adds a member the type does not model.
	ws.Extra = map[string]json.RawMessage{"bogus": json.RawMessage("null")}
	b, err = codec.MarshalRequest(ws)
	require.NoError(t, err)
	rcJSONEqual(t, b, []byte(`{"type":"web_search_20250305","name":"web_search","max_uses":4}`))

	// Invalid JSON in Extra fails encoding instead of corrupting it.
	ws.Extra = map[string]json.RawMessage{"allowed_domains": json.RawMessage("nul")}
	if _, err := codec.MarshalRequest(ws); err == nil {
		t.Error("invalid Extra value encoded without error")
	}
}

func TestToolWithoutVersionFailsToEncode(t *testing.T) {
	for _, tool := range []Tool{BashTool{}, CodeExecutionTool{}, MemoryTool{}, TextEditorTool{}, ComputerTool{},
		WebSearchTool{}, WebFetchTool{}, ToolSearchTool{}, AdvisorTool{}, ComputerToolset{}, BrowserToolset{}} {
		if b, err := codec.Marshal(tool); err == nil {
			t.Errorf("%T without Version encoded as %s", tool, b)
		}
	}
}

func TestInputSchema(t *testing.T) {
	type prop struct {
		Type string `json:"type"`
	}
	s, err := NewInputSchema(struct {
		Type       string          `json:"type"`
		Properties map[string]prop `json:"properties"`
	}{"object", map[string]prop{"q": {"string"}}})
	require.NoError(t, err)
	if got, want := string(s), `{"type":"object","properties":{"q":{"type":"string"}}}`; got != want {
		t.Errorf("NewInputSchema = %s, want %s", got, want)
	}
	if _, err := NewInputSchema([]int{1}); err == nil {
		t.Error("NewInputSchema accepted an array")
	}
	// Key order survives a round trip, and <>& stay unescaped.
	raw := `{"name":"f","input_schema":{"type":"object","properties":{"zeta":{"description":"a<b & c>d"},"alpha":{}}}}`
	tool, err := toolUnion.Decode([]byte(raw))
	require.NoError(t, err)
	b, err := codec.Marshal(tool)
	require.NoError(t, err)
	if string(b) != raw {
		t.Errorf("re-encoded %s\nwant        %s", b, raw)
	}
}

func TestToolValidate(t *testing.T) {
	schema := InputSchema(`{"type":"object"}`)
	cases := []struct {
		name  string
		tool  Tool
		field string
		rule  string
	}{
		{"custom ok", CustomTool{Name: "f", InputSchema: schema}, "", ""},
		{"custom no name", CustomTool{InputSchema: schema}, "tools[2].name", "must not be empty"},
		{"custom long name", CustomTool{Name: rcRepeat("x", 129), InputSchema: schema}, "tools[2].name", "must be 1 to 128 characters, got 129"},
		{"custom no schema", CustomTool{Name: "f"}, "tools[2].input_schema", "must be set"},
		{"custom schema not object", CustomTool{Name: "f", InputSchema: InputSchema(`[1]`)}, "tools[2].input_schema", "must be a JSON object"},
		{"custom schema type", CustomTool{Name: "f", InputSchema: InputSchema(`{"type":"string"}`)}, "tools[2].input_schema.type", `must be "object"`},
		{"custom schema no type", CustomTool{Name: "f", InputSchema: InputSchema(`{"properties":{}}`)}, "tools[2].input_schema.type", `must be "object"`},
		{"custom bad ttl", CustomTool{Name: "f", InputSchema: schema, CacheControl: &CacheControl{TTL: "2h"}}, "tools[2].cache_control.ttl", `must be "5m" or "1h", got "2h"`},
		{"custom example not object", CustomTool{Name: "f", InputSchema: schema, InputExamples: []json.RawMessage{json.RawMessage(`{}`), json.RawMessage(`3`)}}, "tools[2].input_examples[1]", "must be a JSON object"},
		{"no version", BashTool{}, "tools[2].type", "must be set"},
		{"wrong fixed name", BashTool{Version: Bash20250124, Name: "shell"}, "tools[2].name", `must be "bash" for type "bash_20250124", got "shell"`},
		{"unknown version needs name", WebSearchTool{Version: "web_search_20990101"}, "tools[2].name", `must be set for type "web_search_20990101", which this SDK version does not know`},
		{"unknown version with name ok", WebSearchTool{Version: "web_search_20990101", Name: "web_search", ResponseInclusion: "full"}, "", ""},
		{"both domain lists", WebSearchTool{Version: WebSearch20250305, AllowedDomains: []string{"a.com"}, BlockedDomains: []string{}}, "tools[2].allowed_domains", "must not be set together with blocked_domains"},
		{"fetch both domain lists", WebFetchTool{Version: WebFetch20250910, AllowedDomains: []string{}, BlockedDomains: []string{"b.com"}}, "tools[2].allowed_domains", "must not be set together with blocked_domains"},
		{"max_uses zero", WebSearchTool{Version: WebSearch20250305, MaxUses: Ptr(0)}, "tools[2].max_uses", "must be greater than 0, got 0"},
		{"country lower case", WebSearchTool{Version: WebSearch20250305, UserLocation: &UserLocation{Country: "fr"}}, "", ""},
		{"country first letter lower", WebSearchTool{Version: WebSearch20250305, UserLocation: &UserLocation{Country: "fR"}}, "", ""},
		{"country three letters", WebSearchTool{Version: WebSearch20250305, UserLocation: &UserLocation{Country: "FRA"}}, "tools[2].user_location.country", "must be exactly 2 characters, got 3"},
		{"country ok", WebSearchTool{Version: WebSearch20250305, UserLocation: &UserLocation{Country: "FR"}}, "", ""},
		{"search response_inclusion too old", WebSearchTool{Version: WebSearch20260209, ResponseInclusion: ResponseInclusionExcluded}, "tools[2].response_inclusion", "is not supported by web_search_20260209 (needs web_search_20260318 or later)"},
		{"fetch use_cache too old", WebFetchTool{Version: WebFetch20260209, UseCache: Ptr(true)}, "tools[2].use_cache", "is not supported by web_fetch_20260209 (needs web_fetch_20260309 or later)"},
		{"fetch use_cache ok", WebFetchTool{Version: WebFetch20260309, UseCache: Ptr(true)}, "", ""},
		{"fetch response_inclusion too old", WebFetchTool{Version: WebFetch20260309, ResponseInclusion: ResponseInclusionFull}, "tools[2].response_inclusion", "is not supported by web_fetch_20260309 (needs web_fetch_20260318 or later)"},
		{"fetch max_content_tokens", WebFetchTool{Version: WebFetch20250910, MaxContentTokens: Ptr(-1)}, "tools[2].max_content_tokens", "must be greater than 0, got -1"},
		{"fetch bad ttl", WebFetchTool{Version: WebFetch20250910, CacheControl: &CacheControl{TTL: "1d"}}, "tools[2].cache_control.ttl", `must be "5m" or "1h", got "1d"`},
		{"max_characters too old", TextEditorTool{Version: TextEditor20250429, MaxCharacters: Ptr(10)}, "tools[2].max_characters", "is not supported by text_editor_20250429 (needs text_editor_20250728 or later)"},
		{"max_characters zero", TextEditorTool{Version: TextEditor20250728, MaxCharacters: Ptr(0)}, "tools[2].max_characters", "must be greater than 0, got 0"},
		{"text editor wrong name", TextEditorTool{Version: TextEditor20250124, Name: "str_replace_based_edit_tool"}, "tools[2].name", `must be "str_replace_editor" for type "text_editor_20250124", got "str_replace_based_edit_tool"`},
		{"computer width", ComputerTool{Version: Computer20250124, DisplayHeightPx: 10}, "tools[2].display_width_px", "must be greater than 0, got 0"},
		{"computer height", ComputerTool{Version: Computer20250124, DisplayWidthPx: 10}, "tools[2].display_height_px", "must be greater than 0, got 0"},
		{"computer display number", ComputerTool{Version: Computer20250124, DisplayWidthPx: 1, DisplayHeightPx: 1, DisplayNumber: Ptr(-1)}, "tools[2].display_number", "must not be negative, got -1"},
		{"computer zoom too old", ComputerTool{Version: Computer20250124, DisplayWidthPx: 1, DisplayHeightPx: 1, EnableZoom: true}, "tools[2].enable_zoom", "is not supported by computer_20250124 (needs computer_20251124 or later)"},
		{"computer example", ComputerTool{Version: Computer20251124, DisplayWidthPx: 1, DisplayHeightPx: 1, InputExamples: []json.RawMessage{json.RawMessage(`"x"`)}}, "tools[2].input_examples[0]", "must be a JSON object"},
		{"advisor model", AdvisorTool{Version: Advisor20260301}, "tools[2].model", "must not be empty"},
		{"advisor max_tokens", AdvisorTool{Version: Advisor20260301, Model: "m", MaxTokens: Ptr(0)}, "tools[2].max_tokens", "must be greater than 0, got 0"},
		{"advisor caching ttl", AdvisorTool{Version: Advisor20260301, Model: "m", Caching: &CacheControl{TTL: "7m"}}, "tools[2].caching.ttl", `must be "5m" or "1h", got "7m"`},
		{"tool search bad name", ToolSearchTool{Version: ToolSearchRegex, Name: "tool_search_tool_bm25"}, "tools[2].name", `must be "tool_search_tool_regex" for type "tool_search_tool_regex", got "tool_search_tool_bm25"`},
		{"toolset no version", ComputerToolset{}, "tools[2].type", "must be set"},
		{"computer toolset unknown member", ComputerToolset{Version: ComputerToolset20260801, Configs: map[string]*ToolsetConfig{"zoom": {}, "navigate": {}}}, "tools[2].configs.navigate", "is not a member of the computer toolset"},
		{"browser toolset unknown member", BrowserToolset{Version: BrowserToolset20260801, Configs: map[string]*ToolsetConfig{"cursor_position": {}}}, "tools[2].configs.cursor_position", "is not a member of the browser toolset"},
		{"computer toolset one member deferred", ComputerToolset{Version: ComputerToolset20260801, Configs: map[string]*ToolsetConfig{"zoom": {DeferLoading: Ptr(true)}}},
			"tools[2].configs.zoom.defer_loading", "must resolve the same on every enabled member of the computer toolset (cursor_position resolves to false)"},
		{"computer toolset first member deferred", ComputerToolset{Version: ComputerToolset20260801, Configs: map[string]*ToolsetConfig{"cursor_position": {DeferLoading: Ptr(true)}}},
			"tools[2].configs.cursor_position.defer_loading", "must resolve the same on every enabled member of the computer toolset (double_click resolves to false)"},
		{"computer toolset deferred member disabled", ComputerToolset{Version: ComputerToolset20260801, Configs: map[string]*ToolsetConfig{"zoom": {DeferLoading: Ptr(true), Enabled: Ptr(false)}}}, "", ""},
		{"browser toolset all deferred", BrowserToolset{Version: BrowserToolset20260801, Configs: rcAllMembers(browserToolsetMembers(), &ToolsetConfig{DeferLoading: Ptr(true)})}, "", ""},
		{"browser toolset all deferred but one", BrowserToolset{Version: BrowserToolset20260801, Configs: rcWith(rcAllMembers(browserToolsetMembers(), &ToolsetConfig{DeferLoading: Ptr(true)}), "wait", &ToolsetConfig{DeferLoading: Ptr(false)})},
			"tools[2].configs.wait.defer_loading", "must resolve the same on every enabled member of the browser toolset (close_tab resolves to true)"},
		{"browser toolset all deferred but one disabled", BrowserToolset{Version: BrowserToolset20260801, Configs: rcWith(rcAllMembers(browserToolsetMembers(), &ToolsetConfig{DeferLoading: Ptr(true)}), "wait", &ToolsetConfig{Enabled: Ptr(false)})}, "", ""},
		{"toolset bad ttl", BrowserToolset{Version: BrowserToolset20260801, CacheControl: &CacheControl{TTL: "x"}}, "tools[2].cache_control.ttl", `must be "5m" or "1h", got "x"`},
		{"mcp toolset no server", MCPToolset{}, "tools[2].mcp_server_name", "must not be empty"},
		{"mcp toolset any tool names, mixed defer", MCPToolset{MCPServerName: "s", Configs: map[string]*ToolsetConfig{"a": {DeferLoading: Ptr(true)}, "b": nil}}, "", ""},
		{"mcp toolset empty tool name", MCPToolset{MCPServerName: "s", Configs: map[string]*ToolsetConfig{"": {}}}, `tools[2].configs[""]`, "tool name must not be empty"},
		{"unknown ok", UnknownTool{Type: "x", Raw: json.RawMessage(`{"type":"x"}`)}, "", ""},
		{"unknown empty", UnknownTool{}, "tools[2]", "must hold a JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rcWantInvalid(t, c.tool.validate("tools[2]"), c.field, c.rule)
		})
	}

	list := Tools{CustomTool{Name: "f", InputSchema: schema}, nil}
	rcWantInvalid(t, list.validate("tools"), "tools[1]", "must not be nil")
	list = Tools{CustomTool{Name: "f", InputSchema: schema}, WebSearchTool{Version: WebSearch20250305, MaxUses: Ptr(-2)}}
	rcWantInvalid(t, list.validate("tools"), "tools[1].max_uses", "must be greater than 0, got -2")
}

func rcRepeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

func rcAllMembers(members []string, c *ToolsetConfig) map[string]*ToolsetConfig {
	m := make(map[string]*ToolsetConfig)
	for _, k := range members {
		m[k] = c
	}
	return m
}

func rcWith(m map[string]*ToolsetConfig, k string, c *ToolsetConfig) map[string]*ToolsetConfig {
	m[k] = c
	return m
}

func TestToolBetas(t *testing.T) {
	cases := []struct {
		tool Tool
		want []string
	}{
		{CustomTool{}, nil},
		{BashTool{Version: Bash20250124}, nil},
		{BashTool{Version: Bash20241022}, []string{"computer-use-2024-10-22"}},
		{CodeExecutionTool{Version: CodeExecution20250522}, nil},
		{MemoryTool{Version: Memory20250818}, nil},
		{TextEditorTool{Version: TextEditor20250728}, nil},
		{TextEditorTool{Version: TextEditor20241022}, []string{"computer-use-2024-10-22"}},
		{ComputerTool{Version: Computer20241022}, []string{"computer-use-2024-10-22"}},
		{ComputerTool{Version: Computer20250124}, []string{"computer-use-2025-01-24"}},
		{ComputerTool{Version: Computer20251124}, nil},
		{WebSearchTool{Version: WebSearch20260318}, nil},
		{WebFetchTool{Version: WebFetch20260318}, nil},
		{ToolSearchTool{Version: ToolSearchBM25}, nil},
		{AdvisorTool{Version: Advisor20260301}, []string{"advisor-tool-2026-03-01"}},
		{ComputerToolset{Version: ComputerToolset20260801}, nil},
		{BrowserToolset{Version: BrowserToolset20260801}, nil},
		{MCPToolset{MCPServerName: "s"}, []string{"mcp-client-2025-11-20"}},
		{UnknownTool{}, nil},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%T", c.tool), func(t *testing.T) { rcWantBetas(t, c.want, c.tool.betas()) })
	}
	ts := Tools{AdvisorTool{Version: Advisor20260301}, BashTool{Version: Bash20241022}, ComputerTool{Version: Computer20241022}, MCPToolset{}}
	want := []string{"advisor-tool-2026-03-01", "computer-use-2024-10-22", "mcp-client-2025-11-20"}
	if d := cmp.Diff(want, ts.betas()); d != "" {
		t.Errorf("Tools.betas (-want +got):\n%s", d)
	}
	if got := (Tools{CustomTool{}, nil}).betas(); got != nil {
		t.Errorf("betas of GA tools = %v, want nil", got)
	}
}

// FuzzDecodeTool checks that no input panics the tool decoder, that unknown
// types keep their bytes, and that encoding a decoded tool is stable.
func FuzzDecodeTool(f *testing.F) {
	for _, s := range []string{
		`{"name":"f","input_schema":{"type":"object"}}`,
		`{"type":null,"name":"f","description":"","input_schema":null}`,
		`{"type":"custom","name":"f","input_schema":{"type":"object"},"strict":false,"input_examples":[{}]}`,
		`{"type":"web_search_20250305","name":"web_search","allowed_domains":null,"user_location":{"type":"approximate","city":null}}`,
		`{"type":"web_fetch_20260318","citations":{"enabled":false},"use_cache":false}`,
		`{"type":"computer_toolset_20260801","configs":{"zoom":null,"key":{"enabled":null}}}`,
		`{"type":"mcp_toolset","mcp_server_name":"s","default_config":{}}`,
		`{"type":"advisor_20260301","model":"m","caching":null}`,
		`{"type":"text_editor_20250728","max_characters":null}`,
		`{"type":"hologram","a":[1,{"b":null}]}`,
		`{}`, `[]`, `null`, `{"type":7}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rcFuzzUnion[Tool, UnknownTool](t, data, toolUnion.Decode, func(tool Tool) {
			_ = tool.validate("tools[0]")
			_ = tool.betas()
		})
	})
}

// rcStableEncoding checks that v encodes, and that decoding and encoding
// that again gives the same bytes.
func rcStableEncoding[T any](t *testing.T, v T, decode func([]byte) (T, error)) {
	t.Helper()
	first, err := codec.Marshal(v)
	if err != nil {
		t.Fatalf("encode %#v: %v", v, err)
	}
	back, err := decode(first)
	if err != nil {
		t.Fatalf("decode own encoding %s: %v", first, err)
	}
	second, err := codec.Marshal(back)
	if err != nil {
		t.Fatalf("re-encode: %v", err)
	}
	if string(first) != string(second) {
		t.Fatalf("encoding not stable:\n%s\n%s", first, second)
	}
}
