package mmstest

import (
	"net/http"
	"slices"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// Model is a model the fake serves from the models endpoints.
// The server turns it into the wire record, so it carries no JSON tags.
type Model struct {
	// ID is the model identifier, such as "mms-large-1".
	ID string
	// DisplayName is the human-readable name.
	DisplayName string
	// CreatedAt is the release time; the list endpoint returns the newest first.
	CreatedAt time.Time
	// MaxInputTokens is the context window; zero is sent as null, which the
	// spec allows.
	MaxInputTokens int
	// MaxTokens is the largest max_tokens Messages accepts; zero is sent as
	// null.
	MaxTokens int
	// Capabilities lists what the model supports; nil is sent as null.
	Capabilities *ModelCapabilities
	// AllowedFallbackModels lists the models accepted as fallbacks. It is
	// sent, as allowed_fallback_models, only on beta requests.
	AllowedFallbackModels []string
	// Aliases are other names that retrieve resolves to this model.
	Aliases []string
}

// CapabilitySupport says whether one capability is supported.
type CapabilitySupport struct {
	Supported bool `json:"supported"`
}

// ModelCapabilities is the capabilities record of a model.
type ModelCapabilities struct {
	Batch             CapabilitySupport           `json:"batch"`
	Citations         CapabilitySupport           `json:"citations"`
	CodeExecution     CapabilitySupport           `json:"code_execution"`
	ImageInput        CapabilitySupport           `json:"image_input"`
	PDFInput          CapabilitySupport           `json:"pdf_input"`
	StructuredOutputs CapabilitySupport           `json:"structured_outputs"`
	ContextManagement ContextManagementCapability `json:"context_management"`
	Effort            EffortCapability            `json:"effort"`
	Thinking          ThinkingCapability          `json:"thinking"`
}

// ContextManagementCapability lists the supported context-management
// strategies; a nil strategy is sent as null.
type ContextManagementCapability struct {
	Supported             bool               `json:"supported"`
	ClearThinking20251015 *CapabilitySupport `json:"clear_thinking_20251015"`
	ClearToolUses20250919 *CapabilitySupport `json:"clear_tool_uses_20250919"`
	Compact20260112       *CapabilitySupport `json:"compact_20260112"`
}

// EffortCapability lists the supported effort levels; a nil XHigh is sent as
// null.
type EffortCapability struct {
	Supported bool               `json:"supported"`
	Low       CapabilitySupport  `json:"low"`
	Medium    CapabilitySupport  `json:"medium"`
	High      CapabilitySupport  `json:"high"`
	Max       CapabilitySupport  `json:"max"`
	XHigh     *CapabilitySupport `json:"xhigh"`
}

// ThinkingCapability lists the supported thinking modes.
type ThinkingCapability struct {
	Supported bool          `json:"supported"`
	Types     ThinkingTypes `json:"types"`
}

// ThinkingTypes lists support per thinking type.
type ThinkingTypes struct {
	Enabled  CapabilitySupport `json:"enabled"`
	Adaptive CapabilitySupport `json:"adaptive"`
}

// DefaultModels returns the models a server serves unless WithModels is used:
// made-up ids from mms-large-1 (everything supported) down to mms-tiny-0
// (null capabilities). Each call returns a fresh copy, so callers may extend
// it for WithModels.
func DefaultModels() []Model {
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	yes, no := CapabilitySupport{Supported: true}, CapabilitySupport{}
	ptr := func(c CapabilitySupport) *CapabilitySupport { return &c }
	full := func() *ModelCapabilities {
		return &ModelCapabilities{
			Batch: yes, Citations: yes, CodeExecution: yes, ImageInput: yes, PDFInput: yes, StructuredOutputs: yes,
			ContextManagement: ContextManagementCapability{Supported: true,
				ClearThinking20251015: ptr(yes), ClearToolUses20250919: ptr(yes), Compact20260112: ptr(yes)},
			Effort:   EffortCapability{Supported: true, Low: yes, Medium: yes, High: yes, Max: yes, XHigh: ptr(yes)},
			Thinking: ThinkingCapability{Supported: true, Types: ThinkingTypes{Enabled: yes, Adaptive: yes}},
		}
	}
	return []Model{
		{ID: "mms-large-1", DisplayName: "MMS Large 1", CreatedAt: day(2026, 5, 1),
			MaxInputTokens: 1_000_000, MaxTokens: 128_000, Capabilities: full(),
			AllowedFallbackModels: []string{"mms-medium-1"}, Aliases: []string{"mms-large-latest"}},
		{ID: "mms-medium-1", DisplayName: "MMS Medium 1", CreatedAt: day(2026, 3, 1),
			MaxInputTokens: 200_000, MaxTokens: 64_000, Capabilities: full(), Aliases: []string{"mms-medium-latest"}},
		{ID: "mms-small-1", DisplayName: "MMS Small 1", CreatedAt: day(2026, 1, 15),
			MaxInputTokens: 200_000, MaxTokens: 32_000, Aliases: []string{"mms-small-latest"},
			Capabilities: &ModelCapabilities{
				Batch: yes, Citations: yes, CodeExecution: no, ImageInput: yes, PDFInput: yes, StructuredOutputs: yes,
				ContextManagement: ContextManagementCapability{Supported: true, ClearToolUses20250919: ptr(yes)},
				Effort:            EffortCapability{},
				Thinking:          ThinkingCapability{Supported: true, Types: ThinkingTypes{Enabled: yes, Adaptive: no}},
			}},
		{ID: "mms-tiny-0", DisplayName: "MMS Tiny 0", CreatedAt: day(2025, 6, 1),
			MaxInputTokens: 100_000, MaxTokens: 8_192},
	}
}

// sortModels returns models newest first, the list endpoint's order.
func sortModels(models []Model) []Model {
	out := slices.Clone(models)
	slices.SortStableFunc(out, func(a, b Model) int { return b.CreatedAt.Compare(a.CreatedAt) })
	return out
}

// modelInfo is the wire record of a model (ModelInfo in the Models reference).
type modelInfo struct {
	Type           string             `json:"type"`
	ID             string             `json:"id"`
	DisplayName    string             `json:"display_name"`
	CreatedAt      time.Time          `json:"created_at"`
	MaxInputTokens *int               `json:"max_input_tokens"`
	MaxTokens      *int               `json:"max_tokens"`
	Capabilities   *ModelCapabilities `json:"capabilities"`
	// AllowedFallbackModels is present only on beta requests.
	AllowedFallbackModels *[]string `json:"allowed_fallback_models,omitempty"`
}

// info builds the wire record of m. Beta requests, those sent with a
// vendor-beta header or the SDKs' ?beta=true flag, get the beta-only
// allowed_fallback_models field; the Models reference says only that the beta variant
// may add it, so this trigger is an inference.
func (m Model) info(r *http.Request) modelInfo {
	rec := modelInfo{Type: "model", ID: m.ID, DisplayName: m.DisplayName, CreatedAt: m.CreatedAt.UTC(),
		MaxInputTokens: nonZero(m.MaxInputTokens), MaxTokens: nonZero(m.MaxTokens), Capabilities: m.Capabilities}
	if len(betaNames(r.Header)) > 0 || r.URL.Query().Get("beta") == "true" {
		fallbacks := append([]string{}, m.AllowedFallbackModels...) // [] rather than null when none
		rec.AllowedFallbackModels = &fallbacks
	}
	return rec
}

func nonZero(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

// listModels serves GET /v1/models, newest first, paged by the id scheme.
func (s *Server) listModels(w http.ResponseWriter, r *http.Request) {
	infos := make([]modelInfo, len(s.models))
	for i, m := range s.models {
		infos[i] = m.info(r)
	}
	page, err := pageByID(infos, func(m modelInfo) string { return m.ID }, r.URL.Query(), "")
	writePage(w, r, page, err)
}

// getModel serves GET /v1/models/{model_id}; an alias resolves to its model.
func (s *Server) getModel(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("model_id")
	for _, m := range s.models {
		if m.ID == id || slices.Contains(m.Aliases, id) {
			writeJSON(w, http.StatusOK, m.info(r))
			return
		}
	}
	writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "model: "+id)
}
