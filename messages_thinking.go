package mms

import (
	"encoding/json"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// A ThinkingConfig switches the model's extended thinking on or off.
// Variants: [ThinkingConfigEnabled], [ThinkingConfigAdaptive],
// [ThinkingConfigBetweenTools], [ThinkingConfigDisabled] and
// [UnknownThinkingConfig].
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
	Add("between_tools", ThinkingConfigBetweenTools{}).
	Add("disabled", ThinkingConfigDisabled{})

// Beta names the thinking controls switch on (added automatically).
const (
	betaThinkingDisplayUpdates = "thinking-display-updates-2026-08-18"
	betaThinkingBinding        = "thinking-binding-controls-2026-08-01"
)

// ThinkingDisplay says how thinking is returned. Unknown values pass through.
type ThinkingDisplay string

// Thinking display modes.
const (
	// ThinkingDisplaySummarized (the default) returns summarised thinking.
	ThinkingDisplaySummarized ThinkingDisplay = "summarized"
	// ThinkingDisplayOmitted returns thinking blocks with empty text but a
	// valid signature, for multi-turn continuity.
	ThinkingDisplayOmitted ThinkingDisplay = "omitted"
	// ThinkingDisplayUpdates (beta) returns progress updates instead of the
	// thinking; the request adds its beta.
	ThinkingDisplayUpdates ThinkingDisplay = "updates"
)

// ThinkingBlockBinding (beta) says what happens when a thinking block sent
// back fails the conversation check (it was made in another conversation,
// or earlier messages changed). The request adds its beta; the reply's
// Message.InputTransformations reports each block the check touched.
type ThinkingBlockBinding struct {
	// PrefixMismatchBehavior is PrefixMismatchError (the default: a 400)
	// or PrefixMismatchDropBlock (drop the block and go on).
	PrefixMismatchBehavior PrefixMismatchBehavior `json:"prefix_mismatch_behavior,omitzero"`
}

// PrefixMismatchBehavior is a [ThinkingBlockBinding] choice. Unknown values
// pass through.
type PrefixMismatchBehavior string

// The prefix mismatch behaviours.
const (
	PrefixMismatchError     PrefixMismatchBehavior = "error"
	PrefixMismatchDropBlock PrefixMismatchBehavior = "drop_block"
)

// thinkingBetas lists the betas a thinking config's controls need.
func thinkingBetas(t ThinkingConfig) []string {
	var display ThinkingDisplay
	var binding *ThinkingBlockBinding
	switch c := t.(type) {
	case ThinkingConfigEnabled:
		display, binding = c.Display, c.BlockBinding
	case ThinkingConfigAdaptive:
		display, binding = c.Display, c.BlockBinding
	}
	var out []string
	if display == ThinkingDisplayUpdates {
		out = append(out, betaThinkingDisplayUpdates)
	}
	if binding != nil {
		out = append(out, betaThinkingBinding)
	}
	return out
}

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
	// BlockBinding (beta) handles thinking blocks that fail the
	// conversation check.
	BlockBinding *ThinkingBlockBinding `json:"block_binding,omitzero"`
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
	// BlockBinding (beta) handles thinking blocks that fail the
	// conversation check.
	BlockBinding *ThinkingBlockBinding `json:"block_binding,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (ThinkingConfigAdaptive) validate(string) error { return nil }

// ThinkingConfigBetweenTools has the model think between tool calls (the
// type carries no member).
//
//mms:json request
type ThinkingConfigBetweenTools struct{}

func (ThinkingConfigBetweenTools) validate(string) error { return nil }

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
