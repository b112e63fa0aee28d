package mms

import (
	"encoding/json"
	"testing"

	"github.com/mms-sdk/mms-go/internal/codec"
)

func TestOutputConfigRoundTrip(t *testing.T) {
	rcRoundTrip(t, []rcCase[OutputConfig]{
		{"empty", OutputConfig{}, `{}`},
		{"effort", OutputConfig{Effort: EffortXHigh}, `{"effort":"xhigh"}`},
		{"future effort", OutputConfig{Effort: "ludicrous"}, `{"effort":"ludicrous"}`},
		{"format", OutputConfig{Format: &OutputFormat{Schema: json.RawMessage(`{"type":"object","properties":{"b":{},"a":{}}}`)}},
			`{"format":{"type":"json_schema","schema":{"type":"object","properties":{"b":{},"a":{}}}}}`},
		{"task budget", OutputConfig{Effort: EffortLow, TaskBudget: &TaskBudget{Total: 100000, Remaining: Ptr(0)}},
			`{"effort":"low","task_budget":{"type":"tokens","total":100000,"remaining":0}}`},
		{"nulls", OutputConfig{Extra: map[string]json.RawMessage{"effort": json.RawMessage("null"), "format": json.RawMessage("null"), "task_budget": json.RawMessage("null")}},
			`{"effort":null,"format":null,"task_budget":null}`},
		{"null remaining", OutputConfig{TaskBudget: &TaskBudget{Total: 5, Extra: map[string]json.RawMessage{"remaining": json.RawMessage("null")}}},
			`{"task_budget":{"type":"tokens","total":5,"remaining":null}}`},
	}, rcUnmarshal[OutputConfig])
	// The schema's key order survives byte for byte.
	in := `{"format":{"type":"json_schema","schema":{"z":1,"a":{"<":"&"}}}}`
	var oc OutputConfig
	if err := json.Unmarshal([]byte(in), &oc); err != nil {
		t.Fatal(err)
	}
	if b, _ := codec.Marshal(oc); string(b) != in {
		t.Errorf("re-encoded %s, want %s", b, in)
	}
	// A format or budget of another type is refused, not re-typed.
	rcWantDecodeErrors(t, rcUnmarshal[OutputConfig],
		`{"format":{"type":"regex","pattern":"a+"}}`, `{"task_budget":{"type":"dollars","total":5}}`)
}

func TestOutputConfigValidate(t *testing.T) {
	cases := []struct {
		name  string
		cfg   *OutputConfig
		field string
		rule  string
	}{
		{"nil", nil, "", ""},
		{"ok", &OutputConfig{Effort: EffortMax, Format: &OutputFormat{Schema: json.RawMessage(`{}`)}, TaskBudget: &TaskBudget{Total: 1024, Remaining: Ptr(1024)}}, "", ""},
		{"schema missing", &OutputConfig{Format: &OutputFormat{}}, "output_config.format.schema", "must be a JSON object"},
		{"schema not object", &OutputConfig{Format: &OutputFormat{Schema: json.RawMessage(`true`)}}, "output_config.format.schema", "must be a JSON object"},
		{"budget zero", &OutputConfig{TaskBudget: &TaskBudget{}}, "output_config.task_budget.total", "must be at least 1024, got 0"},
		{"remaining above total", &OutputConfig{TaskBudget: &TaskBudget{Total: 1024, Remaining: Ptr(1025)}}, "output_config.task_budget.remaining", "must be between 0 and total (1024), got 1025"},
		{"remaining negative", &OutputConfig{TaskBudget: &TaskBudget{Total: 1024, Remaining: Ptr(-1)}}, "output_config.task_budget.remaining", "must be between 0 and total (1024), got -1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rcWantInvalid(t, c.cfg.validate("output_config"), c.field, c.rule)
		})
	}
	rcWantInvalid(t, (&OutputFormat{}).validate("output_format"), "output_format.schema", "must be a JSON object")
}

func TestOutputBetas(t *testing.T) {
	if got := (&OutputConfig{TaskBudget: &TaskBudget{Total: 1}, Format: &OutputFormat{}}).betas(); got != nil {
		t.Errorf("OutputConfig betas = %v, want none", got)
	}
	var none *OutputFormat
	if got := none.betas(); got != nil {
		t.Errorf("nil OutputFormat betas = %v", got)
	}
	rcWantBetas(t, []string{"structured-outputs-2025-12-15"}, (&OutputFormat{Schema: json.RawMessage(`{}`)}).betas())
}

func FuzzDecodeOutputConfig(f *testing.F) {
	for _, s := range []string{`{"effort":"high"}`, `{"format":{"type":"json_schema","schema":{}},"task_budget":{"type":"tokens","total":1,"remaining":null}}`,
		`{"effort":null,"format":null}`, `null`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var c OutputConfig
		if err := json.Unmarshal(data, &c); err != nil {
			return
		}
		_ = c.validate("output_config")
		rcStableEncoding(t, c, codec.Decode[OutputConfig])
	})
}
