package mms

import (
	"encoding/json"
	"reflect"
	"time"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// stopDetailsSpec writes a StopDetails without a type as a refusal's.
var stopDetailsSpec = codec.Spec{Encode: func(e *codec.Encoder, v reflect.Value) error {
	if d := v.Interface().(StopDetails); d.Type == "" {
		d.Type = "refusal"
		v = reflect.ValueOf(&d).Elem()
	}
	return e.Struct(v)
}}

// Role is the author of a message: RoleUser or RoleAssistant, or, in a
// request only, RoleSystem for a mid-conversation system message (see
// [SystemMessage]). The system prompt that opens the conversation is still
// the request parameter System. A response [Message] is always
// RoleAssistant.
type Role string

// Message roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleSystem marks a mid-conversation system message in a request's
	// messages: text, and (beta) tool changes, clear_at and output_config.
	RoleSystem Role = "system"
)

// ---------------------------------------------------------------------------
// MessageParam

// MessageParam is one turn of the conversation sent in a request. Content
// has the same type as [Message].Content, so a reply goes back unchanged:
//
//	next := append(history, msg.ToParam(), mms.UserText("go on"))
//
// MessageParam encodes in request form: every block drops the members this
// SDK does not model (Extra) and the response-only fields (citation file_id,
// tool-search error_message); unknown blocks go back raw. Decoding accepts
// the string shorthand ("content":"hi") and remembers it in StringContent.
//
//mms:json request spec=shorthandContent
type MessageParam struct {
	// Role is RoleUser, RoleAssistant or RoleSystem (a mid-conversation
	// system message: text, tool_addition and tool_removal blocks, in the
	// array form only; see [SystemMessage]).
	Role Role `json:"role"`
	// Content holds the turn's blocks. A trailing assistant turn is a
	// prefill the response continues.
	Content ContentBlocks `json:"content"`
	// StringContent selects the wire's string shorthand ("content":"…") when
	// Content is a single plain TextBlock (no citations, no cache_control);
	// otherwise the array form is written. Decoding sets it when the wire
	// used the string form, so such a request re-encodes as it came.
	StringContent bool `json:"-"`
	// ClearAt (system messages only, beta) says how long the message stays
	// visible: ClearAtNever (the default) or ClearAtNextUserMessage.
	ClearAt ClearAt `json:"clear_at,omitzero"`
	// OutputConfig (system messages only, beta) changes the output
	// settings from this message on. With it set, Content may be empty;
	// &MessageOutputConfig{} is sent as {} (allowed only with content).
	OutputConfig *MessageOutputConfig `json:"output_config,omitzero"`
}

// validate checks the turn against the service's rules; path is e.g.
// "messages[3]".
func (p MessageParam) validate(path string) error {
	switch p.Role {
	case RoleUser, RoleAssistant:
		if err := p.validateSystemOnly(path); err != nil {
			return err
		}
	case RoleSystem:
		return p.validateSystem(path)
	default:
		return invalid(path+".role", "must be %q, %q or %q, got %q", RoleUser, RoleAssistant, RoleSystem, p.Role)
	}
	if s, ok := stringForm(p.Content, p.StringContent); ok {
		if s == "" {
			return invalid(path+".content", "must not be empty")
		}
		return nil
	}
	if p.Content == nil {
		return invalid(path+".content", "is required")
	}
	return p.Content.validate(path+".content", func(b ContentBlock) bool {
		switch b.(type) {
		case ToolReferenceBlock, BrowserStateBlock:
			return false
		}
		return true
	}, "message content (only inside tool_result content)")
}

// ---------------------------------------------------------------------------
// Message

// Message is the service's reply (the body of a non-streaming
// POST /v1/messages). json.Marshal of a decoded Message gives back the JSON it
// came from: unknown members are kept in Extra, explicit nulls of optional
// members are remembered there too. An absent always-present member
// (stop_reason, stop_sequence, usage, usage.service_tier and the other
// always-present members of nested objects) re-encodes as null or zero.
//
//mms:json type=message
type Message struct {
	ID string `json:"id"`
	// Role is always RoleAssistant.
	Role Role `json:"role"`
	// Model is the model that served the request (after any fallback).
	Model string `json:"model"`
	// Content is the reply: the blocks the model wrote, in order (text,
	// thinking, tool calls, server tool calls and their results). When the
	// request ended with an assistant turn (a prefill), Content continues
	// that turn directly and does not repeat it.
	Content ContentBlocks `json:"content"`
	// Container is the code-execution container used (nil: absent or null).
	Container *Container `json:"container,omitzero"`
	// StopReason is why generation stopped; empty (null) only in a stream's
	// message_start.
	StopReason StopReason `json:"stop_reason"`
	// StopSequence is the custom stop sequence hit (nil: null).
	StopSequence *string `json:"stop_sequence"`
	// StopDetails describes a refusal (nil: absent or null).
	StopDetails *StopDetails `json:"stop_details,omitzero"`
	Usage       Usage        `json:"usage"`
	// ContextManagement reports the context edits applied (beta; nil:
	// absent or null).
	ContextManagement *ContextManagementResponse `json:"context_management,omitzero"`
	// Diagnostics explains a prompt-cache miss (beta; nil: absent or null).
	Diagnostics *MessageDiagnostics `json:"diagnostics,omitzero"`
	// InputTransformations (beta, with ThinkingBlockBinding's beta) lists,
	// in request order, each input block the thinking binding check
	// dropped or let through; nil when absent or null, empty when none.
	InputTransformations []InputTransformation `json:"input_transformations,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// InputTransformation is one input block the thinking binding check
// touched (Message.InputTransformations).
//
//mms:json
type InputTransformation struct {
	// Type is InputThinkingDropped (the block was removed; it adds nothing
	// to usage.input_tokens) or InputThinkingMismatchAllowed (shown
	// although it failed the check).
	Type InputTransformationType `json:"type"`
	// Path names the block, "messages.{i}.content.{j}".
	Path string `json:"path"`
	// Reason is organization_binding_mismatch, end_user_binding_mismatch,
	// model_binding_mismatch or prefix_binding_mismatch.
	Reason string `json:"reason"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// InputTransformationType is an [InputTransformation]'s type. Unknown values
// pass through.
type InputTransformationType string

// The input transformations.
const (
	InputThinkingDropped         InputTransformationType = "thinking_dropped"
	InputThinkingMismatchAllowed InputTransformationType = "thinking_mismatch_allowed"
)

// StopReason says why the model stopped. Unknown values pass through. The
// empty value is JSON null.
//
//mms:json spec=nullableString
type StopReason string

// Stop reasons.
const (
	StopReasonEndTurn                    StopReason = "end_turn"
	StopReasonMaxTokens                  StopReason = "max_tokens"
	StopReasonStopSequence               StopReason = "stop_sequence"
	StopReasonToolUse                    StopReason = "tool_use"
	StopReasonPauseTurn                  StopReason = "pause_turn"
	StopReasonRefusal                    StopReason = "refusal"
	StopReasonModelContextWindowExceeded StopReason = "model_context_window_exceeded"
	// StopReasonCompaction (beta): the turn stopped after a compaction step.
	StopReasonCompaction StopReason = "compaction"
)

// StopDetails describes why the model refused (stop_reason "refusal").
//
//mms:json spec=stopDetailsSpec
type StopDetails struct {
	// Type is "refusal", the only kind known ("refusal" is written when
	// empty).
	Type string `json:"type"`
	// Category is the refusal's policy category (empty: null).
	Category RefusalCategory `json:"category"`
	// Explanation is a human-readable reason (nil: null).
	Explanation *string `json:"explanation"`
	// FallbackCreditToken lets a retry bill its cache creation at the
	// cache-read rate (beta; nil: absent or null).
	FallbackCreditToken *string `json:"fallback_credit_token,omitzero"`
	// FallbackHasPrefillClaim (beta; nil: absent or null).
	FallbackHasPrefillClaim *bool `json:"fallback_has_prefill_claim,omitzero"`
	// RecommendedModel is a model to retry with (beta; nil: absent or null).
	RecommendedModel *string `json:"recommended_model,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// RefusalCategory is the policy category of a refusal. Unknown values pass
// through. The empty value is JSON null.
//
//mms:json spec=nullableString
type RefusalCategory string

// Refusal categories.
const (
	RefusalCategoryCyber               RefusalCategory = "cyber"
	RefusalCategoryBio                 RefusalCategory = "bio"
	RefusalCategoryFrontierLLM         RefusalCategory = "frontier_llm"
	RefusalCategoryReasoningExtraction RefusalCategory = "reasoning_extraction"
	RefusalCategoryGeneralHarms        RefusalCategory = "general_harms"
)

// Container is the code-execution container a response used.
//
//mms:json
type Container struct {
	ID string `json:"id"`
	// ExpiresAt is an RFC 3339 time, kept as sent; see [Container.Expires].
	ExpiresAt string `json:"expires_at"`
	// Skills are the skills loaded in the container (nil: absent or null).
	Skills []ContainerSkill `json:"skills,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Expires parses ExpiresAt.
func (c Container) Expires() (time.Time, error) { return time.Parse(time.RFC3339Nano, c.ExpiresAt) }

// ContainerSkill is a skill loaded in a container.
//
//mms:json
type ContainerSkill struct {
	// Type is "vendor" or "custom".
	Type    string `json:"type"`
	SkillID string `json:"skill_id"`
	Version string `json:"version"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ---------------------------------------------------------------------------
// Usage

// Usage is the token accounting of a response. Total input is InputTokens
// plus the cache creation and cache read tokens ([Usage.TotalInputTokens]).
//
//mms:json
type Usage struct {
	// InputTokens counts non-cached input.
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	// CacheCreationInputTokens is nil when null or absent (a decoded
	// Usage writes it back as it came; one built in code writes null).
	CacheCreationInputTokens *int `json:"cache_creation_input_tokens"`
	// CacheReadInputTokens is nil when null or absent, written as
	// CacheCreationInputTokens.
	CacheReadInputTokens *int `json:"cache_read_input_tokens"`
	// CacheCreation splits the cache creation by lifetime (nil: absent or
	// null).
	CacheCreation *CacheCreation `json:"cache_creation,omitzero"`
	// InferenceGeo is where inference ran, e.g. "global" (nil: absent or
	// null).
	InferenceGeo *string `json:"inference_geo,omitzero"`
	// OutputTokensDetails (nil: absent or null).
	OutputTokensDetails *OutputTokensDetails `json:"output_tokens_details,omitzero"`
	// ServerToolUse counts server tool requests (nil: absent or null).
	ServerToolUse *ServerToolUsage `json:"server_tool_use,omitzero"`
	// ServiceTier is the tier that served the request (empty: null or
	// absent, e.g. in a stream's message_start). A decoded Usage writes it
	// back as it came, absent included; one built in code writes null.
	ServiceTier ServiceTier `json:"service_tier"`
	// Iterations is the per-sub-inference accounting (beta; nil: absent or
	// null).
	Iterations IterationUsages `json:"iterations,omitzero"`
	// Speed is the speed mode used (beta; empty: absent or null).
	Speed Speed `json:"speed,omitzero"`
	// FallbackCredit reports a fallback credit redemption (beta; nil: absent
	// or null).
	FallbackCredit *FallbackCreditUsage `json:"fallback_credit,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// TotalInputTokens is InputTokens plus the cache creation and cache read
// input tokens.
func (u Usage) TotalInputTokens() int {
	n := u.InputTokens
	if u.CacheCreationInputTokens != nil {
		n += *u.CacheCreationInputTokens
	}
	if u.CacheReadInputTokens != nil {
		n += *u.CacheReadInputTokens
	}
	return n
}

// CacheCreation splits cache-creation input tokens by cache lifetime.
//
//mms:json
type CacheCreation struct {
	Ephemeral5mInputTokens int `json:"ephemeral_5m_input_tokens"`
	Ephemeral1hInputTokens int `json:"ephemeral_1h_input_tokens"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// OutputTokensDetails breaks down output tokens.
//
//mms:json
type OutputTokensDetails struct {
	ThinkingTokens int `json:"thinking_tokens"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ServerToolUsage counts the server tool requests of a response.
//
//mms:json
type ServerToolUsage struct {
	WebSearchRequests int `json:"web_search_requests"`
	// WebFetchRequests is nil when absent (older responses).
	WebFetchRequests *int `json:"web_fetch_requests,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ServiceTier is the capacity tier that served a response. Unknown values
// pass through. The empty value is JSON null.
//
//mms:json spec=nullableString
type ServiceTier string

// Service tiers reported in usage.
const (
	ServiceTierStandard ServiceTier = "standard"
	ServiceTierPriority ServiceTier = "priority"
	ServiceTierBatch    ServiceTier = "batch"
)

// Speed is the output speed mode (beta). Unknown values pass through.
type Speed string

// Speed modes.
const (
	SpeedStandard Speed = "standard"
	SpeedFast     Speed = "fast"
)

// An IterationUsage is the accounting of one sub-inference of a response
// (beta usage.iterations). Variants: [MessageIterationUsage],
// [CompactionIterationUsage], [AdvisorMessageIterationUsage],
// [FallbackMessageIterationUsage] and [UnknownIterationUsage].
type IterationUsage interface {
	json.Marshaler
	isIterationUsage()
}

// IterationUsages is a list of iteration usages. It owns the union decoding.
//
//mms:json
type IterationUsages []IterationUsage

// iterationUsageUnion is the table of IterationUsage.
var iterationUsageUnion = codec.NewUnion[IterationUsage]("IterationUsage", UnknownIterationUsage{}).
	Add("message", MessageIterationUsage{}).
	Add("compaction", CompactionIterationUsage{}).
	Add("advisor_message", AdvisorMessageIterationUsage{}).
	Add("fallback_message", FallbackMessageIterationUsage{})

// MessageIterationUsage is a "message" iteration: a main-model inference.
type MessageIterationUsage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	// CacheCreation is nil when null.
	CacheCreation *CacheCreation `json:"cache_creation"`
	// Model is the model that ran (empty: absent).
	Model string `json:"model,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CompactionIterationUsage is a "compaction" iteration: a compaction step.
type CompactionIterationUsage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	// CacheCreation is nil when null.
	CacheCreation *CacheCreation `json:"cache_creation"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AdvisorMessageIterationUsage is an "advisor_message" iteration: an
// advisor-model inference.
type AdvisorMessageIterationUsage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	// CacheCreation is nil when null.
	CacheCreation *CacheCreation `json:"cache_creation"`
	// Model is the advisor model.
	Model string `json:"model,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// FallbackMessageIterationUsage is a "fallback_message" iteration: an
// inference of a fallback model.
type FallbackMessageIterationUsage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	// CacheCreation is nil when null.
	CacheCreation *CacheCreation `json:"cache_creation"`
	// Model is the fallback model.
	Model string `json:"model,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownIterationUsage holds an iteration type this version cannot name;
// Raw is written back verbatim.
type UnknownIterationUsage struct {
	Type string
	Raw  json.RawMessage
}

// FallbackCreditUsage reports what happened to a fallback credit token
// (beta usage.fallback_credit).
//
//mms:json
type FallbackCreditUsage struct {
	Status FallbackCreditStatus `json:"status"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A FallbackCreditStatus is the outcome of a fallback credit redemption.
// Variants: [FallbackCreditRedeemed], [FallbackCreditNotApplied] and
// [UnknownFallbackCreditStatus].
type FallbackCreditStatus interface {
	json.Marshaler
	isFallbackCreditStatus()
}

// fallbackCreditStatusVariants is the decode table of FallbackCreditStatus.
var fallbackCreditStatusUnion = codec.NewUnion[FallbackCreditStatus]("FallbackCreditStatus", UnknownFallbackCreditStatus{}).
	Add("redeemed", FallbackCreditRedeemed{}).
	Add("not_applied", FallbackCreditNotApplied{})

// FallbackCreditRedeemed is the "redeemed" status: the credit applied.
type FallbackCreditRedeemed struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// FallbackCreditNotApplied is the "not_applied" status: the credit did not
// apply, for Reason (e.g. "expired", "body_mismatch").
type FallbackCreditNotApplied struct {
	Reason string `json:"reason"`
	// RemoveToRedeem lists request fields whose removal would let the credit
	// apply (nil: absent or null).
	RemoveToRedeem []string `json:"remove_to_redeem,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownFallbackCreditStatus holds a status type this version cannot name;
// Raw is written back verbatim.
type UnknownFallbackCreditStatus struct {
	Type string
	Raw  json.RawMessage
}

// ---------------------------------------------------------------------------
// context management (beta)

// ContextManagementResponse reports the context edits the service applied
// (beta; the request side is context_management.edits).
//
//mms:json
type ContextManagementResponse struct {
	AppliedEdits AppliedEdits `json:"applied_edits"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// An AppliedEdit is one context edit the service applied. Variants:
// [AppliedClearToolUses], [AppliedClearThinking] and [UnknownAppliedEdit].
type AppliedEdit interface {
	json.Marshaler
	isAppliedEdit()
}

// AppliedEdits is a list of applied edits. It owns the union decoding.
//
//mms:json
type AppliedEdits []AppliedEdit

// appliedEditUnion is the table of AppliedEdit.
var appliedEditUnion = codec.NewUnion[AppliedEdit]("AppliedEdit", UnknownAppliedEdit{}).
	Add("clear_tool_uses_20250919", AppliedClearToolUses{}).
	Add("clear_thinking_20251015", AppliedClearThinking{})

// AppliedClearToolUses is an applied "clear_tool_uses_20250919" edit.
type AppliedClearToolUses struct {
	ClearedInputTokens int `json:"cleared_input_tokens"`
	ClearedToolUses    int `json:"cleared_tool_uses"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AppliedClearThinking is an applied "clear_thinking_20251015" edit.
type AppliedClearThinking struct {
	ClearedInputTokens   int `json:"cleared_input_tokens"`
	ClearedThinkingTurns int `json:"cleared_thinking_turns"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownAppliedEdit holds an edit type this version cannot name; Raw is
// written back verbatim.
type UnknownAppliedEdit struct {
	Type string
	Raw  json.RawMessage
}

// ---------------------------------------------------------------------------
// diagnostics (beta)

// MessageDiagnostics explains a prompt-cache miss (beta; request with
// diagnostics.previous_message_id).
//
//mms:json
type MessageDiagnostics struct {
	// CacheMissReason is nil when null (no miss, or nothing to compare).
	CacheMissReason CacheMiss `json:"cache_miss_reason"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A CacheMiss says why the prompt cache missed. Variants:
// [CacheMissModelChanged], [CacheMissSystemChanged], [CacheMissToolsChanged],
// [CacheMissMessagesChanged], [CacheMissPreviousMessageNotFound],
// [CacheMissUnavailable] and [UnknownCacheMiss].
type CacheMiss interface {
	json.Marshaler
	isCacheMiss()
}

// cacheMissVariants is the decode table of CacheMiss.
var cacheMissUnion = codec.NewUnion[CacheMiss]("CacheMiss", UnknownCacheMiss{}).
	Add("model_changed", CacheMissModelChanged{}).
	Add("system_changed", CacheMissSystemChanged{}).
	Add("tools_changed", CacheMissToolsChanged{}).
	Add("messages_changed", CacheMissMessagesChanged{}).
	Add("previous_message_not_found", CacheMissPreviousMessageNotFound{}).
	Add("unavailable", CacheMissUnavailable{})

// CacheMissModelChanged is the "model_changed" cache miss.
type CacheMissModelChanged struct {
	CacheMissedInputTokens int `json:"cache_missed_input_tokens"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CacheMissSystemChanged is the "system_changed" cache miss.
type CacheMissSystemChanged struct {
	CacheMissedInputTokens int `json:"cache_missed_input_tokens"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CacheMissToolsChanged is the "tools_changed" cache miss.
type CacheMissToolsChanged struct {
	CacheMissedInputTokens int `json:"cache_missed_input_tokens"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CacheMissMessagesChanged is the "messages_changed" cache miss.
type CacheMissMessagesChanged struct {
	CacheMissedInputTokens int `json:"cache_missed_input_tokens"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CacheMissPreviousMessageNotFound is the "previous_message_not_found"
// cache miss: the previous_message_id was unknown.
type CacheMissPreviousMessageNotFound struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CacheMissUnavailable is the "unavailable" cache miss: no diagnosis.
type CacheMissUnavailable struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownCacheMiss holds a cache miss type this version cannot name; Raw is
// written back verbatim.
type UnknownCacheMiss struct {
	Type string
	Raw  json.RawMessage
}
