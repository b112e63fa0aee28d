package mms

import (
	"encoding/json"
	"testing"
)

func TestURLSourceFilterVariants(t *testing.T) {
	rcRoundTrip(t, []rcCase[URLSourceFilter]{
		{"all", URLSourceFilterAll{}, `{"type":"all"}`},
		{"none", URLSourceFilterNone{}, `{"type":"none"}`},
		{"only", URLSourceFilterOnly{Tools: []ToolRef{{Name: "web_search"}}}, `{"type":"only","tools":[{"type":"tool_reference","name":"web_search"}]}`},
		{"except", URLSourceFilterExcept{Tools: []ToolRef{{Name: "a"}, {Name: "b"}}},
			`{"type":"except","tools":[{"type":"tool_reference","name":"a"},{"type":"tool_reference","name":"b"}]}`},
		{"unknown", UnknownURLSourceFilter{Type: "ranked", Raw: json.RawMessage(`{"type":"ranked","top":3}`)}, `{"type":"ranked","top":3}`},
	}, urlSourceFilterUnion.Decode)
	rcWantDecodeErrors(t, urlSourceFilterUnion.Decode, `null`, `{}`, `1`, `{"type":"only","tools":{}}`)
}

func FuzzDecodeURLSourceFilter(f *testing.F) {
	for _, s := range []string{`{"type":"all"}`, `{"type":"none"}`, `{"type":"only","tools":[{"type":"tool_reference","name":"a"}]}`,
		`{"type":"except","tools":[]}`, `{"type":"later","x":[]}`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rcFuzzUnion[URLSourceFilter, UnknownURLSourceFilter](t, data, urlSourceFilterUnion.Decode, func(u URLSourceFilter) {
			_ = u.validate("url_sources.client_tool_results")
		})
	})
}
