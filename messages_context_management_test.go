package mms

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/internal/codec"

	"github.com/stretchr/testify/require"
)

func TestContextEditVariants(t *testing.T) {
	rcRoundTrip(t, []rcCase[ContextEdit]{
		{"clear tool uses",
			ClearToolUsesEdit{
				Trigger:         &ContextAmount{Type: ContextUnitInputTokens, Value: 30000},
				Keep:            &ContextAmount{Type: ContextUnitToolUses, Value: 3},
				ClearAtLeast:    &ContextAmount{Type: ContextUnitInputTokens, Value: 5000},
				ClearToolInputs: &ClearToolInputs{Tools: []string{"web_search"}},
				ExcludeTools:    []string{"memory"},
			},
			`{"type":"clear_tool_uses_20250919","trigger":{"type":"input_tokens","value":30000},"keep":{"type":"tool_uses","value":3},"clear_at_least":{"type":"input_tokens","value":5000},"clear_tool_inputs":["web_search"],"exclude_tools":["memory"]}`},
		{"clear tool uses bool inputs", ClearToolUsesEdit{ClearToolInputs: &ClearToolInputs{All: true}},
			`{"type":"clear_tool_uses_20250919","clear_tool_inputs":true}`},
		{"clear tool uses false inputs", ClearToolUsesEdit{ClearToolInputs: &ClearToolInputs{}},
			`{"type":"clear_tool_uses_20250919","clear_tool_inputs":false}`},
		{"clear tool uses empty input list", ClearToolUsesEdit{ClearToolInputs: &ClearToolInputs{Tools: []string{}}},
			`{"type":"clear_tool_uses_20250919","clear_tool_inputs":[]}`},
		{"clear tool uses nulls", ClearToolUsesEdit{Extra: map[string]json.RawMessage{
			"clear_at_least": json.RawMessage("null"), "clear_tool_inputs": json.RawMessage("null"), "exclude_tools": json.RawMessage("null")}},
			`{"type":"clear_tool_uses_20250919","clear_at_least":null,"clear_tool_inputs":null,"exclude_tools":null}`},
		{"clear thinking turns", ClearThinkingEdit{Keep: ThinkingKeepTurns{Value: 2}},
			`{"type":"clear_thinking_20251015","keep":{"type":"thinking_turns","value":2}}`},
		{"clear thinking all", ClearThinkingEdit{Keep: ThinkingKeepAll{}},
			`{"type":"clear_thinking_20251015","keep":{"type":"all"}}`},
		{"clear thinking all string", ClearThinkingEdit{Keep: ThinkingKeepAll{Bare: true}},
			`{"type":"clear_thinking_20251015","keep":"all"}`},
		{"clear thinking future keep", ClearThinkingEdit{Keep: UnknownThinkingKeep{Type: "recent", Raw: json.RawMessage(`{"type":"recent","n":1}`)}},
			`{"type":"clear_thinking_20251015","keep":{"type":"recent","n":1}}`},
		{"clear thinking future keep string", ClearThinkingEdit{Keep: UnknownThinkingKeep{Raw: json.RawMessage(`"none"`)}},
			`{"type":"clear_thinking_20251015","keep":"none"}`},
		{"clear thinking default", ClearThinkingEdit{}, `{"type":"clear_thinking_20251015"}`},
		{"compact", CompactEdit{Trigger: &ContextAmount{Type: ContextUnitInputTokens, Value: 50000}},
			`{"type":"compact_20260112","trigger":{"type":"input_tokens","value":50000}}`},
		{"compact full", CompactEdit{Instructions: "Keep the numbers.", PauseAfterCompaction: true},
			`{"type":"compact_20260112","instructions":"Keep the numbers.","pause_after_compaction":true}`},
		{"compact explicit", CompactEdit{Extra: map[string]json.RawMessage{"trigger": json.RawMessage("null"), "instructions": json.RawMessage("null"), "pause_after_compaction": json.RawMessage("false")}},
			`{"type":"compact_20260112","trigger":null,"instructions":null,"pause_after_compaction":false}`},
		{"unknown", UnknownContextEdit{Type: "forget_20990101", Raw: json.RawMessage(`{"type":"forget_20990101","all":true}`)},
			`{"type":"forget_20990101","all":true}`},
	}, contextEditUnion.Decode)
	rcWantDecodeErrors(t, contextEditUnion.Decode, `null`, `{}`, `{"type":"clear_thinking_20251015","keep":5}`,
		`{"type":"clear_thinking_20251015","keep":{"type":"thinking_turns","value":"x"}}`,
		`{"type":"clear_tool_uses_20250919","clear_tool_inputs":"yes"}`, `{"type":"clear_thinking_20251015","keep":"all",}`)
}

func TestContextManagementRoundTrip(t *testing.T) {
	data := `{"edits":[{"type":"clear_thinking_20251015","keep":"all"},{"trigger":{"type":"input_tokens","value":50000},"type":"compact_20260112"}]}`
	var cm ContextManagement
	if err := json.Unmarshal([]byte(data), &cm); err != nil {
		t.Fatal(err)
	}
	want := ContextManagement{Edits: ContextEdits{
		ClearThinkingEdit{Keep: ThinkingKeepAll{Bare: true}},
		CompactEdit{Trigger: &ContextAmount{Type: ContextUnitInputTokens, Value: 50000}},
	}}
	if d := cmp.Diff(want, cm); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	b, err := codec.Marshal(cm)
	require.NoError(t, err)
	rcJSONEqual(t, b, []byte(data))

	if err := json.Unmarshal([]byte(`{"edits":null}`), &cm); err != nil {
		t.Fatal(err)
	}
	b, _ = codec.Marshal(cm)
	rcJSONEqual(t, b, []byte(`{"edits":null}`))
}

func TestContextManagementValidate(t *testing.T) {
	cases := []struct {
		name  string
		edit  ContextEdit
		field string
		rule  string
	}{
		{"clear tool uses ok", ClearToolUsesEdit{Trigger: &ContextAmount{Type: ContextUnitToolUses, Value: 10}}, "", ""},
		{"trigger without unit", ClearToolUsesEdit{Trigger: &ContextAmount{Value: 10}}, "context_management.edits[1].trigger.type", "must be set"},
		{"trigger wrong unit", ClearToolUsesEdit{Trigger: &ContextAmount{Type: ContextUnitThinkingTurns, Value: 1}},
			"context_management.edits[1].trigger.type", `must be "input_tokens" or "tool_uses", got "thinking_turns"`},
		{"trigger future unit", ClearToolUsesEdit{Trigger: &ContextAmount{Type: "seconds", Value: 1}}, "", ""},
		{"keep wrong unit", ClearToolUsesEdit{Keep: &ContextAmount{Type: ContextUnitInputTokens, Value: 1}},
			"context_management.edits[1].keep.type", `must be "tool_uses", got "input_tokens"`},
		{"keep negative", ClearToolUsesEdit{Keep: &ContextAmount{Type: ContextUnitToolUses, Value: -1}},
			"context_management.edits[1].keep.value", "must not be negative, got -1"},
		{"clear_at_least wrong unit", ClearToolUsesEdit{ClearAtLeast: &ContextAmount{Type: ContextUnitToolUses, Value: 1}},
			"context_management.edits[1].clear_at_least.type", `must be "input_tokens", got "tool_uses"`},
		{"compact trigger wrong unit", CompactEdit{Trigger: &ContextAmount{Type: ContextUnitToolUses, Value: 1}},
			"context_management.edits[1].trigger.type", `must be "input_tokens", got "tool_uses"`},
		{"thinking turns negative", ClearThinkingEdit{Keep: ThinkingKeepTurns{Value: -2}},
			"context_management.edits[1].keep.value", "must be at least 1, got -2"},
		{"thinking all", ClearThinkingEdit{Keep: ThinkingKeepAll{}}, "", ""},
		{"unknown edit", UnknownContextEdit{Raw: json.RawMessage(`{"type":"x"}`)}, "", ""},
		{"unknown edit empty", UnknownContextEdit{}, "context_management.edits[1]", "must hold a JSON object"},
		{"nil edit", nil, "context_management.edits[1]", "must not be nil"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cm := &ContextManagement{Edits: ContextEdits{CompactEdit{}, c.edit}}
			rcWantInvalid(t, cm.validate("context_management"), c.field, c.rule)
		})
	}
	var none *ContextManagement
	if err := none.validate("context_management"); err != nil {
		t.Error(err)
	}
}

func TestContextManagementBetas(t *testing.T) {
	var none *ContextManagement
	if got := none.betas(); got != nil {
		t.Errorf("absent context_management betas = %v", got)
	}
	rcWantBetas(t, []string{"context-management-2025-06-27"}, (&ContextManagement{}).betas())
}

func FuzzDecodeContextEdit(f *testing.F) {
	for _, s := range []string{
		`{"type":"clear_tool_uses_20250919","trigger":{"type":"tool_uses","value":3},"clear_tool_inputs":["a"],"exclude_tools":null}`,
		`{"type":"clear_tool_uses_20250919","clear_tool_inputs":false,"clear_at_least":null}`,
		`{"type":"clear_thinking_20251015","keep":"all"}`,
		`{"type":"clear_thinking_20251015","keep":{"type":"thinking_turns","value":1}}`,
		`{"type":"clear_thinking_20251015","keep":{"type":"x"}}`,
		`{"type":"compact_20260112","trigger":null,"instructions":"","pause_after_compaction":false}`,
		`{"type":"other"}`, `null`, `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rcFuzzUnion[ContextEdit, UnknownContextEdit](t, data, contextEditUnion.Decode, func(e ContextEdit) { _ = e.validate("context_management.edits[0]") })
	})
}

func FuzzDecodeThinkingKeep(f *testing.F) {
	for _, s := range []string{`"all"`, `"some"`, "\"\"\f", " \"all\" ", `{"type":"all"}`, `{"type":"thinking_turns","value":4}`, `{"type":"x"}`, `null`, `7`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rcFuzzUnion[ThinkingKeep, UnknownThinkingKeep](t, data, thinkingKeepUnion.Decode, func(ThinkingKeep) {})
	})
}
