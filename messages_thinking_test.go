package mms

import (
	"encoding/json"
	"testing"
)

func TestThinkingConfigVariants(t *testing.T) {
	rcRoundTrip(t, []rcCase[ThinkingConfig]{
		{"enabled", ThinkingConfigEnabled{BudgetTokens: 2048}, `{"type":"enabled","budget_tokens":2048}`},
		{"enabled display", ThinkingConfigEnabled{BudgetTokens: 1024, Display: ThinkingDisplaySummarized},
			`{"type":"enabled","budget_tokens":1024,"display":"summarized"}`},
		{"enabled null display", ThinkingConfigEnabled{BudgetTokens: 1024, Extra: map[string]json.RawMessage{"display": json.RawMessage("null")}},
			`{"type":"enabled","budget_tokens":1024,"display":null}`},
		{"adaptive", ThinkingConfigAdaptive{}, `{"type":"adaptive"}`},
		{"adaptive omitted", ThinkingConfigAdaptive{Display: ThinkingDisplayOmitted}, `{"type":"adaptive","display":"omitted"}`},
		{"adaptive future display", ThinkingConfigAdaptive{Display: "verbatim"}, `{"type":"adaptive","display":"verbatim"}`},
		{"disabled", ThinkingConfigDisabled{}, `{"type":"disabled"}`},
		{"unknown", UnknownThinkingConfig{Type: "dreaming", Raw: json.RawMessage(`{"type":"dreaming","depth":3}`)}, `{"type":"dreaming","depth":3}`},
	}, thinkingConfigUnion.Decode)
	// A null thinking member is absent; a bare null is no config.
	var p MessageCountTokensParams
	if err := json.Unmarshal([]byte(`{"model":"m","messages":[],"thinking":null}`), &p); p.Thinking != nil || err != nil {
		t.Errorf("null decoded to %#v, %v; want nil, nil", p.Thinking, err)
	}
	rcWantDecodeErrors(t, thinkingConfigUnion.Decode, `null`, `{}`, `1`, `{"type":"enabled","budget_tokens":"many"}`, `{"type":"enabled","budget_tokens":1.5}`)
}

func TestThinkingConfigValidate(t *testing.T) {
	cases := []struct {
		name      string
		cfg       ThinkingConfig
		maxTokens int
		field     string
		rule      string
	}{
		{"enabled ok", ThinkingConfigEnabled{BudgetTokens: 1024}, 4096, "", ""},
		{"budget too small", ThinkingConfigEnabled{BudgetTokens: 1023}, 4096, "thinking.budget_tokens", "must be at least 1024, got 1023"},
		{"budget not below max_tokens", ThinkingConfigEnabled{BudgetTokens: 4096}, 4096, "thinking.budget_tokens", "must be less than max_tokens (4096), got 4096"},
		{"adaptive", ThinkingConfigAdaptive{Display: "anything"}, 1, "", ""},
		{"disabled", ThinkingConfigDisabled{}, 0, "", ""},
		{"unknown", UnknownThinkingConfig{Raw: json.RawMessage(`{"type":"x"}`)}, 0, "", ""},
		{"unknown without raw", UnknownThinkingConfig{}, 0, "thinking", "must hold a JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.cfg.validate("thinking")
			if err == nil {
				err = validateThinkingBudget(c.cfg, c.maxTokens, "thinking")
			}
			rcWantInvalid(t, err, c.field, c.rule)
		})
	}
}

func FuzzDecodeThinkingConfig(f *testing.F) {
	for _, s := range []string{`{"type":"enabled","budget_tokens":1024}`, `{"type":"adaptive","display":null}`,
		`{"type":"disabled"}`, `{"type":"later","x":[]}`, `null`, `{"budget_tokens":5}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rcFuzzUnion[ThinkingConfig, UnknownThinkingConfig](t, data, thinkingConfigUnion.Decode, func(c ThinkingConfig) {
			_ = c.validate("thinking")
			_ = validateThinkingBudget(c, 2000, "thinking")
		})
	})
}
