package mms

import (
	"encoding/json"
	"fmt"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// Beta names that request parameters switch on.
const (
	betaCacheDiagnosis  = "cache-diagnosis-2026-04-07"
	betaFallbackCredit  = "fallback-credit-2026-06-01"
	betaFallbackCredit2 = "fallback-credit-2026-07-01" // object form of fallback_credit_token
	betaFallbacks       = "server-side-fallback-2026-06-01"
	betaFallbacks2      = "server-side-fallback-2026-07-01" // fallbacks: "default"
	betaFastMode        = "fast-mode-2026-02-01"
)

// Service tiers a request may ask for (the response reports
// ServiceTierStandard, ServiceTierPriority or ServiceTierBatch).
const (
	ServiceTierAuto         ServiceTier = "auto"
	ServiceTierStandardOnly ServiceTier = "standard_only"
)

// maxMessages is the most turns one request may carry.
const maxMessages = 100_000

// MessageCreateParams is the body of POST /v1/messages. Model, MaxTokens and
// Messages are required; MaxTokens 0 is sent (it only warms the cache).
// Parameters marked beta add their beta name to the request automatically.
// The "stream" flag is not a parameter: [MessagesService.Stream] sets it.
//
//mms:json
type MessageCreateParams struct {
	Model     string         `json:"model"`
	MaxTokens int            `json:"max_tokens"`
	Messages  []MessageParam `json:"messages"`

	// System is the system prompt, as text or text blocks.
	System SystemPrompt `json:"system,omitzero"`
	// CacheControl places an automatic cache breakpoint on the last
	// cacheable block.
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Container reuses a code-execution container.
	Container *ContainerParam `json:"container,omitzero"`
	// InferenceGeo says where inference runs, e.g. "us".
	InferenceGeo  string           `json:"inference_geo,omitzero"`
	Metadata      *MessageMetadata `json:"metadata,omitzero"`
	OutputConfig  *OutputConfig    `json:"output_config,omitzero"`
	ServiceTier   ServiceTier      `json:"service_tier,omitzero"`
	StopSequences []string         `json:"stop_sequences,omitzero"`
	// Temperature, TopK and TopP are pointers: 0 is a meaningful value. Set
	// them with mms.Ptr.
	Temperature *float64       `json:"temperature,omitzero"`
	Thinking    ThinkingConfig `json:"thinking,omitzero"`
	ToolChoice  ToolChoice     `json:"tool_choice,omitzero"`
	Tools       Tools          `json:"tools,omitzero"`
	TopK        *int           `json:"top_k,omitzero"`
	TopP        *float64       `json:"top_p,omitzero"`

	// ContextManagement (beta) clears old tool results or thinking, or
	// compacts the conversation, on the server.
	ContextManagement *ContextManagement `json:"context_management,omitzero"`
	// Diagnostics (beta) asks why the prompt cache was missed.
	Diagnostics *Diagnostics `json:"diagnostics,omitzero"`
	// FallbackCreditToken (beta) redeems a prior refusal's credit.
	FallbackCreditToken *FallbackCreditToken `json:"fallback_credit_token,omitzero"`
	// Fallbacks (beta) are substitute models tried on a policy refusal.
	Fallbacks *Fallbacks `json:"fallbacks,omitzero"`
	// MCPServers (beta) are remote MCP servers usable in this request.
	MCPServers MCPServers `json:"mcp_servers,omitzero"`
	// OutputFormat (beta, deprecated) is the old spelling of
	// OutputConfig.Format; set one or the other.
	OutputFormat *OutputFormat `json:"output_format,omitzero"`
	// Speed (beta) selects fast output on models that offer it.
	Speed Speed `json:"speed,omitzero"`
	// UserProfileID (beta) attributes the request to a user profile, as the
	// body member user_profile_id; the header option.WithUserProfileID does
	// the same. Create and Stream refuse, before sending, a call whose
	// header names another profile. In a batch item the service errors
	// only that item when the batch header names another profile.
	UserProfileID string `json:"user_profile_id,omitzero"`
	// BillingPolicy (beta) says who pays: the caller (the default) or the
	// customer behind the vendor-user-profile-id header.
	BillingPolicy *BillingPolicy `json:"billing_policy,omitzero"`
	// Thread (beta) keeps the conversation on the service: ThreadCreate
	// stores it under the reply's id, ThreadContinue sends only the new
	// messages. [MessageThread] manages it for a conversation.
	Thread ThreadParam `json:"thread,omitzero"`
	// Compaction (beta) makes the call a compaction request: the reply is
	// one signed compaction block summarizing the conversation. Not with
	// ContextManagement.
	Compaction *Compaction `json:"compaction,omitzero"`
}

// BillingPolicy (beta) names who a request bills. With
// BillToUserProfile the call needs a user profile header
// (option.WithUserProfileID); Create, Stream and CountTokens refuse it
// without one before sending, as the service would (user_profile_required).
//
//mms:json request type=billing_policy
type BillingPolicy struct {
	// BillTo is BillToSelf (the default) or BillToUserProfile.
	BillTo BillTo `json:"bill_to,omitzero"`
}

// BillTo is who a [BillingPolicy] bills. Unknown values pass through.
type BillTo string

// Billing targets.
const (
	BillToSelf        BillTo = "self"
	BillToUserProfile BillTo = "user_profile"
)

const betaUserProfilesBilling = "user-profiles-billing-2026-10-01"

// MessageCountTokensParams is the body of POST /v1/messages/count_tokens:
// the prompt part of [MessageCreateParams], with the same rules.
//
//mms:json
type MessageCountTokensParams struct {
	Model    string         `json:"model"`
	Messages []MessageParam `json:"messages"`

	System            SystemPrompt       `json:"system,omitzero"`
	CacheControl      *CacheControl      `json:"cache_control,omitzero"`
	OutputConfig      *OutputConfig      `json:"output_config,omitzero"`
	Thinking          ThinkingConfig     `json:"thinking,omitzero"`
	ToolChoice        ToolChoice         `json:"tool_choice,omitzero"`
	Tools             Tools              `json:"tools,omitzero"`
	ContextManagement *ContextManagement `json:"context_management,omitzero"` // beta
	MCPServers        MCPServers         `json:"mcp_servers,omitzero"`        // beta
	OutputFormat      *OutputFormat      `json:"output_format,omitzero"`      // beta, deprecated
	Speed             Speed              `json:"speed,omitzero"`              // beta
	BillingPolicy     *BillingPolicy     `json:"billing_policy,omitzero"`     // beta
	// Compaction (beta) is accepted and ignored by count_tokens.
	Compaction *Compaction `json:"compaction,omitzero"`
}

// MessageTokensCount is the answer of count_tokens.
//
//mms:json
type MessageTokensCount struct {
	// InputTokens counts messages, system prompt and tools.
	InputTokens int `json:"input_tokens"`
	// ContextManagement (beta) reports the count before context edits.
	ContextManagement *TokensCountContextManagement `json:"context_management,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// prompt is the part both request bodies share; validation and betas are
// written once against it.
type prompt struct {
	model             string
	messages          []MessageParam
	system            SystemPrompt
	cacheControl      *CacheControl
	outputConfig      *OutputConfig
	thinking          ThinkingConfig
	toolChoice        ToolChoice
	tools             Tools
	contextManagement *ContextManagement
	mcpServers        MCPServers
	outputFormat      *OutputFormat
	speed             Speed
	billingPolicy     *BillingPolicy
	continues         bool // continues a thread: messages may be empty
}

func (p *MessageCreateParams) prompt() prompt {
	return prompt{p.Model, p.Messages, p.System, p.CacheControl, p.OutputConfig, p.Thinking, p.ToolChoice,
		p.Tools, p.ContextManagement, p.MCPServers, p.OutputFormat, p.Speed, p.BillingPolicy, threadContinues(p.Thread)}
}

func (p *MessageCountTokensParams) prompt() prompt {
	return prompt{p.Model, p.Messages, p.System, p.CacheControl, p.OutputConfig, p.Thinking, p.ToolChoice,
		p.Tools, p.ContextManagement, p.MCPServers, p.OutputFormat, p.Speed, p.BillingPolicy, false}
}

func (p prompt) validate() error {
	if p.model == "" {
		return invalid("model", "is required")
	}
	switch n := len(p.messages); {
	case n == 0 && !p.continues:
		return invalid("messages", "must hold at least one message")
	case n > maxMessages:
		return invalid("messages", "must hold at most %d messages, got %d", maxMessages, n)
	}
	for i, m := range p.messages {
		if err := m.validate(fmt.Sprintf("messages[%d]", i)); err != nil {
			return err
		}
	}
	if err := validateTurns(p.messages); err != nil {
		return err
	}
	checks := []func() error{
		func() error { return p.system.validate("system") },
		func() error { return p.cacheControl.validate("cache_control") },
		func() error { return validateIf(p.outputConfig, "output_config") },
		func() error { return validateIf(p.outputFormat, "output_format") },
		func() error { return validateUnion(p.thinking, "thinking") },
		func() error { return validateUnion(p.toolChoice, "tool_choice") },
		func() error { return p.tools.validate("tools") },
		func() error { return validateIf(p.contextManagement, "context_management") },
		func() error { return p.mcpServers.validate("mcp_servers") },
		func() error { return checkCompactionPlacement(p.messages) },
	}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	if p.outputFormat != nil && p.outputConfig != nil && p.outputConfig.Format != nil {
		return invalid("output_format", "cannot be combined with output_config.format (output_format is its deprecated spelling)")
	}
	return nil
}

// validateIf validates an optional parameter when it is set.
func validateIf[T any, P interface {
	*T
	validate(string) error
}](v P, path string) error {
	if v == nil {
		return nil
	}
	return v.validate(path)
}

// validateUnion validates a union value when it is set.
func validateUnion[U interface{ validate(string) error }](v U, path string) error {
	if any(v) == nil {
		return nil
	}
	return v.validate(path)
}

func (p prompt) betas() []string {
	var out []string
	out = appendNew(out, p.tools.betas()...)
	out = appendNew(out, messagesBetas(p.messages)...)
	if p.contextManagement != nil {
		out = appendNew(out, p.contextManagement.betas()...)
	}
	out = appendNew(out, p.mcpServers.betas()...)
	if p.outputFormat != nil {
		out = appendNew(out, p.outputFormat.betas()...)
	}
	if p.outputConfig != nil {
		out = appendNew(out, p.outputConfig.betas()...)
	}
	if p.speed != "" {
		out = appendNew(out, betaFastMode)
	}
	if p.thinking != nil {
		out = appendNew(out, thinkingBetas(p.thinking)...)
	}
	if p.billingPolicy != nil {
		out = appendNew(out, betaUserProfilesBilling)
	}
	return out
}

// Validate checks the parameters against the service's rules; Create calls
// it before sending. The error is a *ValidationError naming the field.
func (p MessageCreateParams) Validate() error {
	if err := p.prompt().validate(); err != nil {
		return err
	}
	if err := p.validateThread(); err != nil {
		return err
	}
	switch {
	case p.MaxTokens < 0:
		return invalid("max_tokens", "must not be negative, got %d", p.MaxTokens)
	case p.Temperature != nil && (*p.Temperature < 0 || *p.Temperature > 1):
		return invalid("temperature", "must be between 0 and 1, got %v", *p.Temperature)
	case p.TopP != nil && (*p.TopP < 0 || *p.TopP > 1):
		return invalid("top_p", "must be between 0 and 1, got %v", *p.TopP)
	case p.TopK != nil && *p.TopK < 0:
		return invalid("top_k", "must not be negative, got %d", *p.TopK)
	case p.Fallbacks != nil && p.FallbackCreditToken != nil:
		return invalid("fallback_credit_token", "cannot be combined with fallbacks")
	case p.Compaction != nil && p.ContextManagement != nil:
		return invalid("compaction", "cannot be combined with context_management")
	}
	if err := validateThinkingBudget(p.Thinking, p.MaxTokens, "thinking"); err != nil {
		return err
	}
	if err := p.Container.validate("container"); err != nil {
		return err
	}
	if err := validateIf(p.Metadata, "metadata"); err != nil {
		return err
	}
	if err := p.Fallbacks.validate("fallbacks"); err != nil {
		return err
	}
	return p.FallbackCreditToken.validate("fallback_credit_token")
}

// betas lists the beta names the parameters need.
func (p *MessageCreateParams) betas() []string {
	out := compactionBetas(p.prompt().betas(), p.Compaction, p.Messages)
	if p.Diagnostics != nil {
		out = appendNew(out, betaCacheDiagnosis)
	}
	if t := p.FallbackCreditToken; t != nil {
		out = appendNew(out, betaFallbackCredit)
		if t.Mode != "" {
			out = appendNew(out, betaFallbackCredit2)
		}
	}
	if f := p.Fallbacks; f != nil {
		out = appendNew(out, betaFallbacks)
		if f.Default {
			out = appendNew(out, betaFallbacks2)
		}
	}
	if p.Thread != nil {
		out = appendNew(out, betaMessageThreads)
	}
	if p.UserProfileID != "" {
		// The transport drops it when a dated user-profiles-* beta is given.
		out = appendNew(out, wire.BetaUserProfiles)
	}
	return out
}

// Validate checks the parameters; CountTokens calls it before sending.
func (p MessageCountTokensParams) Validate() error { return p.prompt().validate() }

func (p *MessageCountTokensParams) betas() []string {
	return compactionBetas(p.prompt().betas(), p.Compaction, p.Messages)
}

// ---------------------------------------------------------------------------
// Encoding: one path for Create, Stream, CountTokens and batches

// encodeMessageBody encodes a Create (or Stream) body in request form.
// members, if not empty, are inserted first (`"stream":true`), so streaming
// needs no second encoding. The encoder copies large payloads (base64
// images and PDFs, long texts) once, into a buffer of exactly the body's
// size (internal/codec, encode.go); the caller's params are not modified.
func encodeMessageBody(p *MessageCreateParams, members string) ([]byte, error) {
	return codec.MarshalRequestWith(p, members)
}
