package mms

import (
	"encoding/json"
	"testing"
)

func TestToolChoiceVariants(t *testing.T) {
	rcRoundTrip(t, []rcCase[ToolChoice]{
		{"auto", ToolChoiceAuto{}, `{"type":"auto"}`},
		{"auto single", ToolChoiceAuto{DisableParallelToolUse: true}, `{"type":"auto","disable_parallel_tool_use":true}`},
		{"auto explicit false", ToolChoiceAuto{Extra: map[string]json.RawMessage{"disable_parallel_tool_use": json.RawMessage("false")}},
			`{"type":"auto","disable_parallel_tool_use":false}`},
		{"any", ToolChoiceAny{DisableParallelToolUse: true}, `{"type":"any","disable_parallel_tool_use":true}`},
		{"tool", ToolChoiceTool{Name: "get_weather"}, `{"type":"tool","name":"get_weather"}`},
		{"tool single", ToolChoiceTool{Name: "f", DisableParallelToolUse: true}, `{"type":"tool","name":"f","disable_parallel_tool_use":true}`},
		{"none", ToolChoiceNone{}, `{"type":"none"}`},
		{"unknown", UnknownToolChoice{Type: "some", Raw: json.RawMessage(`{"type":"some","names":["a", "b"]}`)}, `{"type":"some","names":["a", "b"]}`},
	}, toolChoiceUnion.Decode)
	// A null tool_choice member is absent; a bare null is no choice.
	var p MessageCountTokensParams
	if err := json.Unmarshal([]byte(`{"model":"m","messages":[],"tool_choice": null }`), &p); p.ToolChoice != nil || err != nil {
		t.Errorf("null decoded to %#v, %v; want nil, nil", p.ToolChoice, err)
	}
	rcWantDecodeErrors(t, toolChoiceUnion.Decode, `null`, `{}`, `[]`, `"auto"`, `{"type":"tool","name":5}`, `{"type":"x",}`)
}

func TestToolChoiceValidate(t *testing.T) {
	cases := []struct {
		name   string
		choice ToolChoice
		field  string
		rule   string
	}{
		{"auto", ToolChoiceAuto{DisableParallelToolUse: true}, "", ""},
		{"any", ToolChoiceAny{}, "", ""},
		{"none", ToolChoiceNone{}, "", ""},
		{"tool", ToolChoiceTool{Name: "f"}, "", ""},
		{"tool without name", ToolChoiceTool{}, "tool_choice.name", "must not be empty"},
		{"unknown", UnknownToolChoice{Raw: json.RawMessage(`{"type":"x"}`)}, "", ""},
		{"unknown without raw", UnknownToolChoice{}, "tool_choice", "must hold a JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rcWantInvalid(t, c.choice.validate("tool_choice"), c.field, c.rule)
		})
	}
}

func FuzzDecodeToolChoice(f *testing.F) {
	for _, s := range []string{`{"type":"auto"}`, `{"type":"any","disable_parallel_tool_use":false}`,
		`{"type":"tool","name":"f","disable_parallel_tool_use":null}`, `{"type":"none"}`, `{"type":"other","x":1}`, `null`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rcFuzzUnion[ToolChoice, UnknownToolChoice](t, data, toolChoiceUnion.Decode, func(c ToolChoice) { _ = c.validate("tool_choice") })
	})
}
