package mms

import (
	"encoding/json"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// OutputConfig shapes the model's output: reasoning effort, a JSON Schema the
// response text must match, and (beta) a token budget across contexts.
//
//mms:json request
type OutputConfig struct {
	// Effort is the reasoning effort.
	Effort Effort `json:"effort,omitzero"`
	// Format makes the response text JSON matching a schema.
	Format *OutputFormat `json:"format,omitzero"`
	// TaskBudget is a total token budget across contexts. Beta-only; the
	// spec names no beta value for it.
	TaskBudget *TaskBudget `json:"task_budget,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// validate checks the format and task budget; path is "output_config".
func (c *OutputConfig) validate(path string) error {
	if c == nil {
		return nil
	}
	if err := c.Format.validate(path + ".format"); err != nil {
		return err
	}
	return c.TaskBudget.validate(path + ".task_budget")
}

// betas returns nothing: output_config is GA, and the spec identifies no
// beta value for task_budget.
func (c *OutputConfig) betas() []string { return nil }

// Effort is a reasoning effort level. Unknown values pass through.
type Effort string

// Effort levels.
const (
	EffortLow    Effort = "low"
	EffortMedium Effort = "medium"
	EffortHigh   Effort = "high"
	EffortXHigh  Effort = "xhigh"
	EffortMax    Effort = "max"
)

// OutputFormat asks for structured output: the response text is JSON that
// matches Schema. It is the value of output_config.format, and of the
// deprecated beta top-level output_format (never send both).
//
//mms:json request type=json_schema
type OutputFormat struct {
	// Schema is the JSON Schema, kept as raw JSON so its key order
	// survives. Required.
	Schema json.RawMessage `json:"schema"`
}

// validate checks that the schema is a JSON object.
func (f *OutputFormat) validate(path string) error {
	if f != nil && !codec.IsObject(f.Schema) {
		return invalid(path+".schema", "must be a JSON object")
	}
	return nil
}

// betas returns the beta the deprecated top-level output_format member needs
// (structured-outputs-2025-12-15, inferred from spec and). The params
// code asks only for the top-level member: output_config.format is GA.
func (f *OutputFormat) betas() []string {
	if f == nil {
		return nil
	}
	return []string{betaStructuredOutputs}
}

// TaskBudget is a total token budget across contexts (beta).
//
//mms:json request type=tokens
type TaskBudget struct {
	// Total is the whole budget in tokens; at least 1024. Required.
	Total int `json:"total"`
	// Remaining is what is left of it; nil means Total.
	Remaining *int `json:"remaining,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// minTaskBudget is the least task budget total (the service's request schema,
// BetaTokenTaskBudget).
const minTaskBudget = 1024

func (b *TaskBudget) validate(path string) error {
	if b == nil {
		return nil
	}
	if err := validateAtLeast(path+".total", b.Total, minTaskBudget); err != nil {
		return err
	}
	if r := b.Remaining; r != nil && (*r < 0 || *r > b.Total) {
		return invalid(path+".remaining", "must be between 0 and total (%d), got %d", b.Total, *r)
	}
	return nil
}
