package mms

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// systemPromptSpec writes a SystemPrompt as a string or a list of blocks,
// and reads either.
var systemPromptSpec = codec.Spec{
	Encode: func(e *codec.Encoder, v reflect.Value) error {
		s := v.Interface().(SystemPrompt)
		if s.Blocks == nil {
			e.String(s.Text)
			return nil
		}
		return e.Any(s.Blocks)
	},
	Decode: func(data []byte, v reflect.Value) error {
		s := SystemPrompt{}
		if len(data) > 0 && data[0] == '"' {
			err := json.Unmarshal(data, &s.Text)
			v.Set(reflect.ValueOf(s))
			return err
		}
		if err := codec.UnmarshalOwned(data, &s.Blocks); err != nil {
			return err
		}
		if s.Blocks == nil {
			s.Blocks = []TextBlock{}
		}
		v.Set(reflect.ValueOf(s))
		return nil
	},
}

// containerParamSpec writes a ContainerParam that names only an id as
// that id.
var containerParamSpec = stringOrObject("ID", func(c ContainerParam) bool {
	return c.Skills == nil && c.ID != ""
})

// fallbackCreditTokenSpec writes a FallbackCreditToken without a mode as
// the token.
var fallbackCreditTokenSpec = stringOrObject("Token", func(t FallbackCreditToken) bool { return t.Mode == "" })

// fallbacksSpec writes Fallbacks as "default" or a list of models.
var fallbacksSpec = codec.Spec{
	Encode: func(e *codec.Encoder, v reflect.Value) error {
		switch f := v.Interface().(Fallbacks); {
		case f.Default:
			e.Raw([]byte(`"default"`))
		case f.Models == nil:
			e.Raw([]byte(`[]`))
		default:
			return e.Any(f.Models)
		}
		return nil
	},
	Decode: func(data []byte, v reflect.Value) error {
		f := Fallbacks{}
		defer func() { v.Set(reflect.ValueOf(f)) }()
		if len(data) > 0 && data[0] == '"' {
			var s string
			if err := json.Unmarshal(data, &s); err != nil {
				return err
			}
			if s != "default" {
				return fmt.Errorf(`mms: fallbacks: unknown string form %q (want "default" or a list)`, s)
			}
			f.Default = true
			return nil
		}
		return codec.UnmarshalOwned(data, &f.Models)
	},
}

func init() { codec.Objects([]TextBlock(nil), []FallbackParam(nil)) }

// SystemPrompt is the system prompt: plain text, or text blocks (which may
// carry cache_control and citations). Build it with [SystemText] or
// [SystemBlocks]; the zero value is no system prompt.
//
//mms:json request spec=systemPromptSpec
type SystemPrompt struct {
	// Text is sent as a JSON string when Blocks is nil.
	Text string
	// Blocks, when non-nil, are sent as an array of text blocks.
	Blocks []TextBlock
}

// SystemText returns a plain-text system prompt.
func SystemText(s string) SystemPrompt { return SystemPrompt{Text: s} }

// SystemBlocks returns a system prompt made of text blocks.
func SystemBlocks(blocks ...TextBlock) SystemPrompt {
	if blocks == nil {
		blocks = []TextBlock{}
	}
	return SystemPrompt{Blocks: blocks}
}

// IsZero reports whether there is no system prompt (omitzero uses it).
func (s SystemPrompt) IsZero() bool { return s.Text == "" && s.Blocks == nil }

func (s SystemPrompt) validate(path string) error {
	for i, b := range s.Blocks {
		if err := b.validate(fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return err
		}
	}
	return nil
}

// ContainerParam names the code-execution container to reuse, and optionally
// the skills to load into it. With no Skills it is sent as the plain id
// string, the form every service version accepts.
//
//mms:json request spec=containerParamSpec
type ContainerParam struct {
	// ID is the container id; empty asks for a new container (object form).
	ID string `json:"id,omitzero"`
	// Skills to load into the container; at most 8.
	Skills []SkillParam `json:"skills,omitzero"`
}

// SkillParam is a skill to load into a container.
//
//mms:json request
type SkillParam struct {
	// Type is "vendor" (a built-in skill) or "custom".
	Type string `json:"type"`
	// SkillID is 1 to 64 characters.
	SkillID string `json:"skill_id"`
	// Version is a version number or "latest", at most 64 characters;
	// empty means latest.
	Version string `json:"version,omitzero"`
}

// Bounds of container.skills (the service's request schema, BetaContainerParams
// and BetaSkillParams).
const (
	maxContainerSkills = 8
	maxSkillFieldLen   = 64
)

func (c *ContainerParam) validate(path string) error {
	if c == nil {
		return nil
	}
	if err := validateCount(path+".skills", len(c.Skills), maxContainerSkills, "skills"); err != nil {
		return err
	}
	for i, s := range c.Skills {
		p := fmt.Sprintf("%s.skills[%d]", path, i)
		if err := validateLength(p+".skill_id", s.SkillID, 1, maxSkillFieldLen); err != nil {
			return err
		}
		if !isIDString(s.SkillID) {
			return invalid(p+".skill_id", "must match ^[a-zA-Z0-9_-]+$, got %q", s.SkillID)
		}
		// An empty version is left out (latest), so only its maximum applies.
		if err := validateLength(p+".version", s.Version, 0, maxSkillFieldLen); err != nil {
			return err
		}
		if s.Type == "" {
			return invalid(p+".type", "is required")
		}
	}
	return nil
}

// Diagnostics (beta) asks the service why the prompt cache was missed.
type Diagnostics struct {
	// PreviousMessageID is the id of this client's previous response; nil
	// (sent as null) opts in on a first turn.
	PreviousMessageID *string `json:"previous_message_id"`
}

// FallbackCreditToken (beta) redeems a prior refusal's
// stop_details.fallback_credit_token. With no Mode it is sent as the plain
// token string; with a Mode, as an object (which needs a newer beta the SDK
// adds).
//
//mms:json request spec=fallbackCreditTokenSpec
type FallbackCreditToken struct {
	Token string             `json:"token"`
	Mode  FallbackCreditMode `json:"mode,omitzero"`
}

// FallbackCreditMode says what a failed redemption does.
type FallbackCreditMode string

// Redemption modes.
const (
	FallbackCreditStrict     FallbackCreditMode = "strict"      // a failed redemption is a 400
	FallbackCreditBestEffort FallbackCreditMode = "best_effort" // proceed; see usage.fallback_credit
)

func (t *FallbackCreditToken) validate(path string) error {
	if t != nil && t.Token == "" {
		return invalid(path, "the token is empty")
	}
	return nil
}

// Fallbacks (beta) lists substitute models the service tries, in order,
// when the requested model refuses for policy reasons; or, with Default,
// lets the service pick (sent as the string "default").
//
//mms:json request spec=fallbacksSpec
type Fallbacks struct {
	Default bool
	Models  []FallbackParam
}

// FallbackParam is one substitute model with optional per-attempt overrides.
//
//mms:json request
type FallbackParam struct {
	Model        string         `json:"model"`
	MaxTokens    *int           `json:"max_tokens,omitzero"`
	Thinking     ThinkingConfig `json:"thinking,omitzero"`
	OutputConfig *OutputConfig  `json:"output_config,omitzero"`
	Speed        Speed          `json:"speed,omitzero"`
}

func (f *Fallbacks) validate(path string) error {
	if f == nil || f.Default {
		return nil
	}
	for i, m := range f.Models {
		p := fmt.Sprintf("%s[%d]", path, i)
		if m.Model == "" {
			return invalid(p+".model", "is required")
		}
		if m.MaxTokens != nil && *m.MaxTokens < 0 {
			return invalid(p+".max_tokens", "must not be negative, got %d", *m.MaxTokens)
		}
		if err := validateUnion(m.Thinking, p+".thinking"); err != nil {
			return err
		}
		if err := validateIf(m.OutputConfig, p+".output_config"); err != nil {
			return err
		}
	}
	return nil
}
