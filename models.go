package mms

import (
	"context"
	"encoding/json"
	"iter"
	"time"

	"github.com/mms-sdk/mms-go/option"
)

// ModelsService lists and retrieves the models the service offers
// (/v1/models). Reach it as client.Models. The endpoints need no beta; betas
// given as options are passed through, and a beta request may return the
// beta-only [ModelInfo.AllowedFallbackModels].
type ModelsService struct {
	client *Client
}

// ModelListParams are the parameters of [ModelsService.List] and
// [ModelsService.ListPage]. The zero value lists from the newest model on.
type ModelListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service (20). The
	// iterator of List fetches pages of this size.
	Limit int
	// AfterID starts the list right after this model id.
	AfterID string
	// BeforeID starts the list right before this model id; List then pages
	// backwards (towards newer models).
	BeforeID string
}

// Validate reports the first rule the params break: Limit outside 1–1000
// when set, or AfterID and BeforeID given together.
func (p ModelListParams) Validate() error {
	return validateIDParams(p.Limit, p.AfterID, p.BeforeID)
}

func (p ModelListParams) listArgs() listArgs {
	return listArgs{query: limitQuery(p.Limit), start: idStart(p.AfterID, p.BeforeID)}
}

// all is the models' endpoint (/v1/models), paged by the id scheme.
func (s *ModelsService) all() endpoint[ModelInfo] {
	return endpoint[ModelInfo]{c: s.client, path: "/v1/models", scheme: idScheme}
}

// List iterates over the models, newest release first, fetching pages of
// p.Limit as it goes (GET /v1/models). Nothing is sent before the loop
// starts; ranging the sequence again lists again from p's position, and
// breaking out of the loop stops the fetching. An error, such as a
// *[ValidationError] for bad params or an *[Error] from the service, is
// yielded once, last.
//
//	for m, err := range client.Models.List(ctx, mms.ModelListParams{}) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(m.ID)
//	}
//
// With p.BeforeID set the list goes backwards, page by page, towards newer
// models; each page's models still come newest first.
func (s *ModelsService) List(ctx context.Context, p ModelListParams, opts ...option.RequestOption) iter.Seq2[ModelInfo, error] {
	return s.all().list(ctx, p, opts)
}

// ListPage fetches one page of models (GET /v1/models). Continue with
// AfterID set to the page's LastID while HasMore is true (or BeforeID set to
// its FirstID to go backwards).
func (s *ModelsService) ListPage(ctx context.Context, p ModelListParams, opts ...option.RequestOption) (*Page[ModelInfo], error) {
	return s.all().listPage(ctx, p, opts)
}

// Get retrieves one model by id or alias (GET /v1/models/{model_id}); an
// alias comes back resolved to the model's own id.
func (s *ModelsService) Get(ctx context.Context, modelID string, opts ...option.RequestOption) (*ModelInfo, error) {
	return s.all().id("model_id", modelID).get(ctx, opts)
}

// ModelInfo is the Models API's record of a model (the wire type "model"),
// returned by [ModelsService.Get] and [ModelsService.List]. (An agent's or
// session's model setting is [ModelConfig]; [AgentModel] builds its
// params.) Members this SDK version does not model are kept in Extra, so
// json.Marshal writes a reply back without loss.
//
//mms:json type=model
type ModelInfo struct {
	// ID is the model identifier, e.g. "mms-large-1".
	ID string `json:"id"`
	// DisplayName is the human-readable name.
	DisplayName string `json:"display_name"`
	// CreatedAt is the release time; it may be the Unix epoch when unknown.
	CreatedAt time.Time `json:"created_at"`
	// MaxInputTokens is the context window; nil when the service sends null.
	MaxInputTokens *int `json:"max_input_tokens"`
	// MaxTokens is the largest max_tokens Messages accepts; nil when null.
	MaxTokens *int `json:"max_tokens"`
	// Capabilities says what the model supports; nil when null.
	Capabilities *ModelCapabilities `json:"capabilities"`
	// AllowedFallbackModels lists the models accepted as fallbacks when this
	// model is primary; empty means fallbacks are not supported. Only
	// responses to beta requests carry it: nil means absent or null (a null
	// is kept in Extra, so it is written back as null).
	AllowedFallbackModels []string `json:"allowed_fallback_models,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ModelCapabilities says what a model supports.
//
//mms:json
type ModelCapabilities struct {
	// Batch is support for the Message Batches API.
	Batch CapabilitySupport `json:"batch"`
	// Citations is support for citations.
	Citations CapabilitySupport `json:"citations"`
	// CodeExecution is support for the code execution tool.
	CodeExecution CapabilitySupport `json:"code_execution"`
	// ImageInput is support for image content.
	ImageInput CapabilitySupport `json:"image_input"`
	// PDFInput is support for PDF documents.
	PDFInput CapabilitySupport `json:"pdf_input"`
	// StructuredOutputs is support for JSON schema output and strict tools.
	StructuredOutputs CapabilitySupport `json:"structured_outputs"`
	// ContextManagement lists the supported context-management strategies.
	ContextManagement ContextManagementCapability `json:"context_management"`
	// Effort lists the supported effort levels.
	Effort EffortCapability `json:"effort"`
	// Thinking lists the supported thinking modes.
	Thinking ThinkingCapability `json:"thinking"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// CapabilitySupport says whether one capability is supported.
//
//mms:json
type CapabilitySupport struct {
	Supported bool `json:"supported"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ContextManagementCapability lists the supported context-management
// strategies; a strategy the service reports as null is nil.
//
//mms:json
type ContextManagementCapability struct {
	Supported             bool               `json:"supported"`
	ClearThinking20251015 *CapabilitySupport `json:"clear_thinking_20251015"`
	ClearToolUses20250919 *CapabilitySupport `json:"clear_tool_uses_20250919"`
	Compact20260112       *CapabilitySupport `json:"compact_20260112"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// EffortCapability lists the supported effort levels; XHigh is nil when the
// service reports it as null.
//
//mms:json
type EffortCapability struct {
	Supported bool               `json:"supported"`
	Low       CapabilitySupport  `json:"low"`
	Medium    CapabilitySupport  `json:"medium"`
	High      CapabilitySupport  `json:"high"`
	Max       CapabilitySupport  `json:"max"`
	XHigh     *CapabilitySupport `json:"xhigh"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ThinkingCapability lists the supported thinking modes.
//
//mms:json
type ThinkingCapability struct {
	Supported bool                    `json:"supported"`
	Types     ThinkingCapabilityTypes `json:"types"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ThinkingCapabilityTypes lists support per thinking type.
//
//mms:json
type ThinkingCapabilityTypes struct {
	Enabled  CapabilitySupport `json:"enabled"`
	Adaptive CapabilitySupport `json:"adaptive"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}
