package mms

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/internal/codec"
)

func TestToolChoiceVariants(t *testing.T) {
	cases := []struct {
		name string
		in   ToolChoice
		json string
	}{
		{"auto", ToolChoiceAuto{}, `{"type":"auto"}`},
		{"auto single", ToolChoiceAuto{DisableParallelToolUse: true}, `{"type":"auto","disable_parallel_tool_use":true}`},
		{"auto explicit false", ToolChoiceAuto{Explicit: map[string]json.RawMessage{"disable_parallel_tool_use": json.RawMessage("false")}},
			`{"type":"auto","disable_parallel_tool_use":false}`},
		{"any", ToolChoiceAny{DisableParallelToolUse: true}, `{"type":"any","disable_parallel_tool_use":true}`},
		{"tool", ToolChoiceTool{Name: "get_weather"}, `{"type":"tool","name":"get_weather"}`},
		{"tool single", ToolChoiceTool{Name: "f", DisableParallelToolUse: true}, `{"type":"tool","name":"f","disable_parallel_tool_use":true}`},
		{"none", ToolChoiceNone{}, `{"type":"none"}`},
		{"unknown", UnknownToolChoice{Type: "some", Raw: json.RawMessage(`{"type":"some","names":["a", "b"]}`)}, `{"type":"some","names":["a","b"]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := codec.Marshal(c.in)
			if err != nil {
				t.Fatal(err)
			}
			rcJSONEqual(t, got, []byte(c.json))
			raw := []byte(c.json)
			if u, ok := c.in.(UnknownToolChoice); ok {
				raw = u.Raw
			}
			back, err := decodeToolChoice(raw)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(c.in, back); d != "" {
				t.Errorf("decode (-want +got):\n%s", d)
			}
		})
	}
	if c, err := decodeToolChoice([]byte(" null ")); c != nil || err != nil {
		t.Errorf("null decoded to %#v, %v; want nil, nil", c, err)
	}
	for _, bad := range []string{`{}`, `[]`, `"auto"`, `{"type":"tool","name":5}`, `{"type":"x",}`} {
		if c, err := decodeToolChoice([]byte(bad)); err == nil {
			t.Errorf("decodeToolChoice(%s) = %#v, want an error", bad, c)
		}
	}
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
		c, err := decodeToolChoice(data)
		if err != nil || c == nil {
			return
		}
		_ = c.validate("tool_choice")
		if u, ok := c.(UnknownToolChoice); ok {
			if string(u.Raw) != string(data) {
				t.Fatalf("unknown raw %q, input %q", u.Raw, data)
			}
			return
		}
		rcStableEncoding(t, c, decodeToolChoice)
	})
}
