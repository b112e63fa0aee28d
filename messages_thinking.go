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
type ThinkingConfigEnabled struct {
	// BudgetTokens caps the thinking tokens: at least MinThinkingBudget and
	// less than max_tokens. Required.
	BudgetTokens int `json:"budget_tokens"`
	// Display says how thinking is returned (summarized by default).
	Display ThinkingDisplay `json:"display,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (ThinkingConfigEnabled) isThinkingConfig() {}

// UnmarshalJSON decodes the config.
func (c *ThinkingConfigEnabled) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, c) }

// MarshalJSON writes the config with "type":"enabled".
func (c ThinkingConfigEnabled) MarshalJSON() ([]byte, error) { return marshalRequest(c) }

func (c ThinkingConfigEnabled) validate(path string) error {
	if c.BudgetTokens < MinThinkingBudget {
		return invalid(path+".budget_tokens", "must be at least %d, got %d", MinThinkingBudget, c.BudgetTokens)
	}
	return nil
}

// ThinkingConfigAdaptive lets the model choose how much to think.
type ThinkingConfigAdaptive struct {
	// Display says how thinking is returned (summarized by default).
	Display ThinkingDisplay `json:"display,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (ThinkingConfigAdaptive) isThinkingConfig()     {}
func (ThinkingConfigAdaptive) validate(string) error { return nil }

// UnmarshalJSON decodes the config.
func (c *ThinkingConfigAdaptive) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, c) }

// MarshalJSON writes the config with "type":"adaptive".
func (c ThinkingConfigAdaptive) MarshalJSON() ([]byte, error) { return marshalRequest(c) }

// ThinkingConfigDisabled turns thinking off.
type ThinkingConfigDisabled struct{}

func (ThinkingConfigDisabled) isThinkingConfig()     {}
func (ThinkingConfigDisabled) validate(string) error { return nil }

// UnmarshalJSON accepts the config; it has no members besides its type.
func (c *ThinkingConfigDisabled) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, c) }

// MarshalJSON writes {"type":"disabled"}.
func (c ThinkingConfigDisabled) MarshalJSON() ([]byte, error) { return marshalRequest(c) }

// UnknownThinkingConfig holds a thinking type this SDK version cannot name.
// Raw is written back verbatim.
type UnknownThinkingConfig struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownThinkingConfig) isThinkingConfig() {}

// MarshalJSON writes Raw unchanged.
func (c UnknownThinkingConfig) MarshalJSON() ([]byte, error) { return marshalJSON(c) }

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
