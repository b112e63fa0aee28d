package mms

import (
	"encoding/json"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// A ThinkingConfig switches the model's extended thinking on or off.
// Variants: [ThinkingConfigEnabled], [ThinkingConfigAdaptive],
// [ThinkingConfigDisabled] and [UnknownThinkingConfig].
//
// A params struct checks the budget against max_tokens with
// validateThinkingBudget.
type ThinkingConfig interface {
	isThinkingConfig()
	validate(path string) error
}

var thinkingConfigUnion = codec.NewUnion[ThinkingConfig]("ThinkingConfig", UnknownThinkingConfig{}).
	Add("enabled", ThinkingConfigEnabled{}).
	Add("adaptive", ThinkingConfigAdaptive{}).
	Add("disabled", ThinkingConfigDisabled{})

// ThinkingDisplay says how thinking is returned. Unknown values pass through.
type ThinkingDisplay string

// Thinking display modes.
const (
	// ThinkingDisplaySummarized (the default) returns summarised thinking.
	ThinkingDisplaySummarized ThinkingDisplay = "summarized"
	// ThinkingDisplayOmitted returns thinking blocks with empty text but a
	// valid signature, for multi-turn continuity.
	ThinkingDisplayOmitted ThinkingDisplay = "omitted"
)

// MinThinkingBudget is the smallest budget_tokens the service accepts.
const MinThinkingBudget = 1024

// ThinkingConfigEnabled turns on thinking with a fixed token budget. Some of
// the newest models prefer [ThinkingConfigAdaptive].
//
//mms:json request
type ThinkingConfigEnabled struct {
	// BudgetTokens caps the thinking tokens: at least MinThinkingBudget and
	// less than max_tokens. Required.
	BudgetTokens int `json:"budget_tokens"`
	// Display says how thinking is returned (summarized by default).
	Display ThinkingDisplay `json:"display,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (c ThinkingConfigEnabled) validate(path string) error {
	if c.BudgetTokens < MinThinkingBudget {
		return invalid(path+".budget_tokens", "must be at least %d, got %d", MinThinkingBudget, c.BudgetTokens)
	}
	return nil
}

// ThinkingConfigAdaptive lets the model choose how much to think.
//
//mms:json request
type ThinkingConfigAdaptive struct {
	// Display says how thinking is returned (summarized by default).
	Display ThinkingDisplay `json:"display,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (ThinkingConfigAdaptive) validate(string) error { return nil }

// ThinkingConfigDisabled turns thinking off.
//
//mms:json request
type ThinkingConfigDisabled struct{}

func (ThinkingConfigDisabled) validate(string) error { return nil }

// UnknownThinkingConfig holds a thinking type this SDK version cannot name.
// Raw is written back verbatim.
type UnknownThinkingConfig struct {
	Type string
	Raw  json.RawMessage
}

func (c UnknownThinkingConfig) validate(path string) error {
	if !codec.IsObject(c.Raw) {
		return invalid(path, "must hold a JSON object")
	}
	return nil
}

// validateThinkingBudget checks the rule that needs max_tokens: an enabled
// budget must be less than it. path names the thinking member ("thinking").
func validateThinkingBudget(t ThinkingConfig, maxTokens int, path string) error {
	if c, ok := t.(ThinkingConfigEnabled); ok && c.BudgetTokens >= maxTokens {
		return invalid(path+".budget_tokens", "must be less than max_tokens (%d), got %d", maxTokens, c.BudgetTokens)
	}
	return nil
}
