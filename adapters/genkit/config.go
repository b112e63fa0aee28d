package mmsgenkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/firebase/genkit/go/ai"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

// Config is a model call's configuration (ai.WithConfig). Zero fields are
// not sent, so the service's defaults apply; the pointers tell 0 from
// unset.
type Config struct {
	// MaxOutputTokens is max_tokens; 0 means Params.MaxTokens, then
	// Plugin.MaxTokens, then DefaultMaxTokens.
	MaxOutputTokens int `json:"maxOutputTokens,omitempty"`
	// Temperature, from 0 to 1.
	Temperature *float64 `json:"temperature,omitempty"`
	// TopP is nucleus sampling's cut-off.
	TopP *float64 `json:"topP,omitempty"`
	// TopK samples from the K likeliest tokens.
	TopK *int `json:"topK,omitempty"`
	// StopSequences end the reply when generated.
	StopSequences []string `json:"stopSequences,omitempty"`
	// ThinkingBudget turns thinking on with this budget of tokens (at
	// least the service's minimum, less than max_tokens).
	ThinkingBudget int `json:"thinkingBudget,omitempty"`
	// AdaptiveThinking lets the model choose how much to think; it
	// excludes ThinkingBudget.
	AdaptiveThinking bool `json:"adaptiveThinking,omitempty"`
	// Citations turns citations on for the request's documents (Genkit's
	// Docs): the reply's text parts that cite them keep their citations
	// in the block [Block] returns.
	Citations bool `json:"citations,omitempty"`
	// UserID is metadata.user_id, an opaque id of the end user.
	UserID string `json:"userId,omitempty"`

	// Params is a request template for what Config has no field for
	// (a thinking configuration with display options, server tools,
	// context management, …). Its Model and Messages must be empty: the
	// model and the conversation come from Genkit. The fields above,
	// when set, replace Params' own; Genkit's tools follow Params.Tools
	// and Genkit's system messages follow Params.System. (Not JSON.)
	Params *mms.MessageCreateParams `json:"-"`
	// RequestOptions apply to this call's request after the plugin's.
	// (Not JSON.)
	RequestOptions []option.RequestOption `json:"-"`
}

// configOf reads the request's config.
func configOf(v any) (Config, error) {
	switch c := v.(type) {
	case nil:
		return Config{}, nil
	case Config:
		return c, nil
	case *Config:
		if c == nil {
			return Config{}, nil
		}
		return *c, nil
	case ai.GenerationCommonConfig:
		return commonConfig(&c)
	case *ai.GenerationCommonConfig:
		if c == nil {
			return Config{}, nil
		}
		return commonConfig(c)
	case map[string]any:
		raw, err := json.Marshal(c)
		if err != nil {
			return Config{}, fmt.Errorf("mmsgenkit: config: %w", err)
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		var out Config
		if err := dec.Decode(&out); err != nil {
			return Config{}, fmt.Errorf("mmsgenkit: config: %w", err)
		}
		return out, nil
	default:
		return Config{}, fmt.Errorf("mmsgenkit: config of type %T; use mmsgenkit.Config, ai.GenerationCommonConfig or a map", v)
	}
}

// commonConfig is Genkit's common config as a Config. Its zero
// Temperature and TopP cannot be told from unset and are not sent.
func commonConfig(c *ai.GenerationCommonConfig) (Config, error) {
	if c.Version != "" {
		return Config{}, errors.New("mmsgenkit: config: Version is not supported; name the model instead")
	}
	out := Config{MaxOutputTokens: c.MaxOutputTokens, StopSequences: c.StopSequences}
	if c.Temperature != 0 {
		out.Temperature = mms.Ptr(c.Temperature)
	}
	if c.TopP != 0 {
		out.TopP = mms.Ptr(c.TopP)
	}
	if c.TopK != 0 {
		out.TopK = mms.Ptr(c.TopK)
	}
	return out, nil
}

// params is the request template of a call of model with cfg.
func (p *Plugin) params(model string, cfg Config) (mms.MessageCreateParams, error) {
	var out mms.MessageCreateParams
	if cfg.Params != nil {
		out = *cfg.Params
		switch {
		case out.Model != "":
			return out, errors.New("mmsgenkit: config: Params.Model must be empty; the model is the Genkit model's")
		case len(out.Messages) > 0:
			return out, errors.New("mmsgenkit: config: Params.Messages must be empty; the conversation comes from Genkit")
		}
		// New backing arrays: the template is shared by every call.
		out.Tools = slices.Clip(out.Tools)
		out.System.Blocks = slices.Clip(out.System.Blocks)
	}
	out.Model = model
	switch {
	case cfg.MaxOutputTokens < 0:
		return out, fmt.Errorf("mmsgenkit: config: MaxOutputTokens must not be negative, got %d", cfg.MaxOutputTokens)
	case cfg.MaxOutputTokens > 0:
		out.MaxTokens = cfg.MaxOutputTokens
	case out.MaxTokens == 0 && p.MaxTokens > 0:
		out.MaxTokens = p.MaxTokens
	case out.MaxTokens == 0:
		out.MaxTokens = DefaultMaxTokens
	}
	if cfg.Temperature != nil {
		out.Temperature = cfg.Temperature
	}
	if cfg.TopP != nil {
		out.TopP = cfg.TopP
	}
	if cfg.TopK != nil {
		out.TopK = cfg.TopK
	}
	if cfg.StopSequences != nil {
		out.StopSequences = cfg.StopSequences
	}
	switch {
	case cfg.ThinkingBudget < 0:
		return out, fmt.Errorf("mmsgenkit: config: ThinkingBudget must not be negative, got %d", cfg.ThinkingBudget)
	case cfg.ThinkingBudget > 0 && cfg.AdaptiveThinking:
		return out, errors.New("mmsgenkit: config: set ThinkingBudget or AdaptiveThinking, not both")
	case cfg.ThinkingBudget > 0:
		out.Thinking = mms.ThinkingConfigEnabled{BudgetTokens: cfg.ThinkingBudget}
	case cfg.AdaptiveThinking:
		out.Thinking = mms.ThinkingConfigAdaptive{}
	}
	if cfg.UserID != "" {
		md := mms.MessageMetadata{}
		if out.Metadata != nil {
			md = *out.Metadata
		}
		md.UserID = cfg.UserID
		out.Metadata = &md
	}
	return out, nil
}
