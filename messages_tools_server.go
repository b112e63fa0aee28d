package mms

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// Versioned tools (spec). Each has a Version field holding its wire
// "type" and a Name field holding the fixed name the service expects for
// that type: encoding fills Name in when it is empty, decoding keeps what the
// wire had. Version has no default; encoding a tool without one fails.

// A toolFamily is one Go type of versioned tool or toolset, the wire types
// (versions) it stands for, and the fixed name the service expects for them
// ("" for a toolset, which has no name).
type toolFamily struct {
	tool     Tool
	name     string
	versions []string
}

func family[V ~string](tool Tool, name string, versions ...V) toolFamily {
	f := toolFamily{tool: tool, name: name}
	for _, v := range versions {
		f.versions = append(f.versions, string(v))
	}
	return f
}

// toolFamilies is the one table of the versioned tools: the tools union's
// decoder (toolUnion) and the fixed names (fixedToolName) derive from it. A
// new version is one more entry in its family's row.
//
//mms:variants Tool
var toolFamilies = []toolFamily{
	family(BashTool{}, "bash", Bash20250124, Bash20241022),
	family(CodeExecutionTool{}, "code_execution",
		CodeExecution20250522, CodeExecution20250825, CodeExecution20260120, CodeExecution20260521),
	family(MemoryTool{}, "memory", Memory20250818),
	family(TextEditorTool{}, "str_replace_editor", TextEditor20250124, TextEditor20241022),
	family(TextEditorTool{}, "str_replace_based_edit_tool", TextEditor20250429, TextEditor20250728),
	family(ComputerTool{}, "computer", Computer20241022, Computer20250124, Computer20251124),
	family(WebSearchTool{}, "web_search", WebSearch20250305, WebSearch20260209, WebSearch20260318),
	family(WebFetchTool{}, "web_fetch",
		WebFetch20250910, WebFetch20260209, WebFetch20260309, WebFetch20260318),
	family(ToolSearchTool{}, "tool_search_tool_bm25", ToolSearchBM25, ToolSearchBM25_20251119),
	family(ToolSearchTool{}, "tool_search_tool_regex", ToolSearchRegex, ToolSearchRegex20251119),
	family(AdvisorTool{}, "advisor", Advisor20260301),
	family(ComputerToolset{}, "", ComputerToolset20260801),
	family(BrowserToolset{}, "", BrowserToolset20260801),
}

// fixedToolNames maps each versioned tool type to its fixed name.
var fixedToolNames = func() map[string]string {
	m := make(map[string]string)
	for _, f := range toolFamilies {
		for _, v := range f.versions {
			if f.name != "" {
				m[v] = f.name
			}
		}
	}
	return m
}()

// fixedToolName returns the name the service expects for a versioned tool
// type, or "" for a toolset or a type this SDK version does not know.
func fixedToolName(typ string) string { return fixedToolNames[typ] }

// versionedTool is the Spec of every versioned tool and toolset: encoding
// fails without a Version and fills an empty Name in with the version's
// fixed name.
var versionedTool = codec.Spec{
	Encode: func(e *codec.Encoder, v reflect.Value) error {
		version := v.FieldByName("Version").String()
		if version == "" {
			return fmt.Errorf("mms: %s has no Version", v.Type().Name())
		}
		if name := v.FieldByName("Name"); name.IsValid() && name.String() == "" {
			if fixed := fixedToolName(version); fixed != "" {
				filled := reflect.New(v.Type()).Elem()
				filled.Set(v)
				filled.FieldByName("Name").SetString(fixed)
				v = filled
			}
		}
		return e.Struct(v)
	},
}

// validateVersioned checks a versioned tool's type and name.
func validateVersioned(path, typ, name string) error {
	if typ == "" {
		return invalid(path+".type", "must be set")
	}
	fixed := fixedToolName(typ)
	switch {
	case fixed == "" && name == "":
		return invalid(path+".name", "must be set for type %q, which this SDK version does not know", typ)
	case fixed != "" && name != "" && name != fixed:
		return invalid(path+".name", "must be %q for type %q, got %q", fixed, typ, name)
	}
	return nil
}

// onlyFrom reports a field that the tool's version does not take: older
// lists the known versions without it, first the first version with it.
func onlyFrom[V ~string](path string, set bool, v V, first V, older ...V) error {
	if set && slices.Contains(older, v) {
		return invalid(path, "is not supported by %s (needs %s or later)", v, first)
	}
	return nil
}

// BashVersion is the wire type of a [BashTool]. Unknown values pass through.
type BashVersion string

// Bash tool versions.
const (
	Bash20250124 BashVersion = "bash_20250124"
	// Bash20241022 is beta-only (computer-use-2024-10-22).
	Bash20241022 BashVersion = "bash_20241022"
)

// A BashTool lets the model run shell commands that the client executes.
// Its name is always "bash".
//
//mms:json request
type BashTool struct {
	// Version is the wire type, e.g. Bash20250124. Required.
	Version BashVersion `json:"type"`
	// Name is "bash"; encoding fills it in when empty.
	Name string `json:"name"`
	// AllowedCallers limits who may invoke the tool.
	AllowedCallers []AllowedCaller `json:"allowed_callers,omitzero"`
	// CacheControl sets a prompt-cache breakpoint after this tool.
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// DeferLoading keeps the tool out of the initial prompt.
	DeferLoading *bool `json:"defer_loading,omitzero"`
	// InputExamples are example inputs, each a JSON object.
	InputExamples []json.RawMessage `json:"input_examples,omitzero"`
	// Strict guarantees schema-valid inputs.
	Strict *bool `json:"strict,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (t BashTool) validate(path string) error {
	if err := validateVersioned(path, string(t.Version), t.Name); err != nil {
		return err
	}
	return validateToolCommon(path, t.CacheControl, t.InputExamples)
}

func (t BashTool) betas() []string {
	if t.Version == Bash20241022 {
		return []string{betaComputerUse20241022}
	}
	return nil
}

// CodeExecutionVersion is the wire type of a [CodeExecutionTool]. Unknown
// values pass through.
type CodeExecutionVersion string

// Code execution tool versions.
const (
	CodeExecution20250522 CodeExecutionVersion = "code_execution_20250522"
	CodeExecution20250825 CodeExecutionVersion = "code_execution_20250825"
	CodeExecution20260120 CodeExecutionVersion = "code_execution_20260120"
	CodeExecution20260521 CodeExecutionVersion = "code_execution_20260521"
)

// A CodeExecutionTool lets the model run code in a server-side container.
// Its name is always "code_execution".
//
//mms:json request
type CodeExecutionTool struct {
	// Version is the wire type, e.g. CodeExecution20260120. Required.
	Version CodeExecutionVersion `json:"type"`
	// Name is "code_execution"; encoding fills it in when empty.
	Name string `json:"name"`
	// AllowedCallers limits who may invoke the tool.
	AllowedCallers []AllowedCaller `json:"allowed_callers,omitzero"`
	// CacheControl sets a prompt-cache breakpoint after this tool.
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// DeferLoading keeps the tool out of the initial prompt.
	DeferLoading *bool `json:"defer_loading,omitzero"`
	// Strict guarantees schema-valid inputs.
	Strict *bool `json:"strict,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (CodeExecutionTool) betas() []string { return nil }

func (t CodeExecutionTool) validate(path string) error {
	if err := validateVersioned(path, string(t.Version), t.Name); err != nil {
		return err
	}
	return validateToolCommon(path, t.CacheControl, nil)
}

// MemoryToolVersion is the wire type of a [MemoryTool]. Unknown values pass
// through.
type MemoryToolVersion string

// Deprecated: use MemoryToolVersion; a memory store's version record is
// [MemoryVersionRecord].
type MemoryVersion = MemoryToolVersion

// Memory tool versions.
const Memory20250818 MemoryToolVersion = "memory_20250818"

// A MemoryTool gives the model a file-like memory that the client stores.
// Its name is always "memory".
//
//mms:json request
type MemoryTool struct {
	// Version is the wire type, Memory20250818. Required.
	Version MemoryToolVersion `json:"type"`
	// Name is "memory"; encoding fills it in when empty.
	Name string `json:"name"`
	// AllowedCallers limits who may invoke the tool.
	AllowedCallers []AllowedCaller `json:"allowed_callers,omitzero"`
	// CacheControl sets a prompt-cache breakpoint after this tool.
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// DeferLoading keeps the tool out of the initial prompt.
	DeferLoading *bool `json:"defer_loading,omitzero"`
	// InputExamples are example inputs, each a JSON object.
	InputExamples []json.RawMessage `json:"input_examples,omitzero"`
	// Strict guarantees schema-valid inputs.
	Strict *bool `json:"strict,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (MemoryTool) betas() []string { return nil }

func (t MemoryTool) validate(path string) error {
	if err := validateVersioned(path, string(t.Version), t.Name); err != nil {
		return err
	}
	return validateToolCommon(path, t.CacheControl, t.InputExamples)
}

// TextEditorVersion is the wire type of a [TextEditorTool]. Unknown values
// pass through.
type TextEditorVersion string

// Text editor tool versions. 20250124 and 20241022 are named
// "str_replace_editor", the later ones "str_replace_based_edit_tool".
const (
	TextEditor20250124 TextEditorVersion = "text_editor_20250124"
	TextEditor20250429 TextEditorVersion = "text_editor_20250429"
	// TextEditor20250728 adds MaxCharacters.
	TextEditor20250728 TextEditorVersion = "text_editor_20250728"
	// TextEditor20241022 is beta-only (computer-use-2024-10-22).
	TextEditor20241022 TextEditorVersion = "text_editor_20241022"
)

// A TextEditorTool lets the model view and edit files that the client holds.
//
//mms:json request
type TextEditorTool struct {
	// Version is the wire type, e.g. TextEditor20250728. Required.
	Version TextEditorVersion `json:"type"`
	// Name is fixed by Version; encoding fills it in when empty.
	Name string `json:"name"`
	// MaxCharacters truncates file views (TextEditor20250728 and later);
	// nil shows whole files.
	MaxCharacters *int `json:"max_characters,omitzero"`
	// AllowedCallers limits who may invoke the tool.
	AllowedCallers []AllowedCaller `json:"allowed_callers,omitzero"`
	// CacheControl sets a prompt-cache breakpoint after this tool.
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// DeferLoading keeps the tool out of the initial prompt.
	DeferLoading *bool `json:"defer_loading,omitzero"`
	// InputExamples are example inputs, each a JSON object.
	InputExamples []json.RawMessage `json:"input_examples,omitzero"`
	// Strict guarantees schema-valid inputs.
	Strict *bool `json:"strict,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (t TextEditorTool) validate(path string) error {
	if err := validateVersioned(path, string(t.Version), t.Name); err != nil {
		return err
	}
	if err := onlyFrom(path+".max_characters", t.MaxCharacters != nil, t.Version,
		TextEditor20250728, TextEditor20241022, TextEditor20250124, TextEditor20250429); err != nil {
		return err
	}
	if err := validatePositive(path+".max_characters", t.MaxCharacters); err != nil {
		return err
	}
	return validateToolCommon(path, t.CacheControl, t.InputExamples)
}

func (t TextEditorTool) betas() []string {
	if t.Version == TextEditor20241022 {
		return []string{betaComputerUse20241022}
	}
	return nil
}

// ComputerVersion is the wire type of a [ComputerTool]. Unknown values pass
// through. All computer tool versions are beta-only.
type ComputerVersion string

// Computer tool versions.
const (
	// Computer20241022 needs beta computer-use-2024-10-22.
	Computer20241022 ComputerVersion = "computer_20241022"
	// Computer20250124 needs beta computer-use-2025-01-24.
	Computer20250124 ComputerVersion = "computer_20250124"
	// Computer20251124 adds EnableZoom; the spec names no beta for it.
	Computer20251124 ComputerVersion = "computer_20251124"
)

// A ComputerTool lets the model drive a display (screenshots, mouse and
// keyboard) that the client controls. Its name is always "computer".
//
//mms:json request
type ComputerTool struct {
	// Version is the wire type, e.g. Computer20251124. Required.
	Version ComputerVersion `json:"type"`
	// Name is "computer"; encoding fills it in when empty.
	Name string `json:"name"`
	// DisplayWidthPx is the display width in pixels. Required.
	DisplayWidthPx int `json:"display_width_px"`
	// DisplayHeightPx is the display height in pixels. Required.
	DisplayHeightPx int `json:"display_height_px"`
	// DisplayNumber is the X11 display number, if any.
	DisplayNumber *int `json:"display_number,omitzero"`
	// EnableZoom offers the zoom action (Computer20251124 and later).
	EnableZoom bool `json:"enable_zoom,omitzero"`
	// AllowedCallers limits who may invoke the tool.
	AllowedCallers []AllowedCaller `json:"allowed_callers,omitzero"`
	// CacheControl sets a prompt-cache breakpoint after this tool.
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// DeferLoading keeps the tool out of the initial prompt.
	DeferLoading *bool `json:"defer_loading,omitzero"`
	// InputExamples are example inputs, each a JSON object.
	InputExamples []json.RawMessage `json:"input_examples,omitzero"`
	// Strict guarantees schema-valid inputs.
	Strict *bool `json:"strict,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (t ComputerTool) validate(path string) error {
	if err := validateVersioned(path, string(t.Version), t.Name); err != nil {
		return err
	}
	if t.DisplayWidthPx <= 0 {
		return invalid(path+".display_width_px", "must be greater than 0, got %d", t.DisplayWidthPx)
	}
	if t.DisplayHeightPx <= 0 {
		return invalid(path+".display_height_px", "must be greater than 0, got %d", t.DisplayHeightPx)
	}
	if t.DisplayNumber != nil && *t.DisplayNumber < 0 {
		return invalid(path+".display_number", "must not be negative, got %d", *t.DisplayNumber)
	}
	if err := onlyFrom(path+".enable_zoom", t.EnableZoom, t.Version,
		Computer20251124, Computer20241022, Computer20250124); err != nil {
		return err
	}
	return validateToolCommon(path, t.CacheControl, t.InputExamples)
}

func (t ComputerTool) betas() []string {
	switch t.Version {
	case Computer20241022:
		return []string{betaComputerUse20241022}
	case Computer20250124:
		return []string{betaComputerUse20250124}
	}
	return nil
}

// ResponseInclusion says whether a server tool's nested result blocks are
// returned. Unknown values pass through.
type ResponseInclusion string

// Response inclusion modes.
const (
	// ResponseInclusionFull (the default) returns the nested blocks.
	ResponseInclusionFull ResponseInclusion = "full"
	// ResponseInclusionExcluded drops the nested server_tool_use/result
	// pair when a completed code execution call consumed them.
	ResponseInclusionExcluded ResponseInclusion = "excluded"
)

// UserLocation is the approximate location of the end user, used to
// localise web searches. Every field is optional; City, Region and Timezone,
// when set, are 1 to 255 characters.
//
//mms:json request type=approximate
type UserLocation struct {
	// City name.
	City string `json:"city,omitzero"`
	// Country is an ISO 3166-1 alpha-2 code ("US"); exactly 2 characters.
	Country string `json:"country,omitzero"`
	// Region is a state or region name.
	Region string `json:"region,omitzero"`
	// Timezone is an IANA time zone ("America/New_York").
	Timezone string `json:"timezone,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Bounds of a user location's members (the service's request schema,
// BetaUserLocation). The service checks the country's length only, so a
// lowercase code is accepted.
const (
	maxUserLocationLen = 255
	countryCodeLen     = 2
)

func (l *UserLocation) validate(path string) error {
	if l == nil {
		return nil
	}
	for _, m := range []struct {
		name, value string
		lo, hi      int
	}{
		{"city", l.City, 1, maxUserLocationLen},
		{"country", l.Country, countryCodeLen, countryCodeLen},
		{"region", l.Region, 1, maxUserLocationLen},
		{"timezone", l.Timezone, 1, maxUserLocationLen},
	} {
		if m.value == "" && !sentEmpty(l.Extra, m.name) {
			continue // absent, or null
		}
		if err := validateLength(path+"."+m.name, m.value, m.lo, m.hi); err != nil {
			return err
		}
	}
	return nil
}

// validateDomains reports allowed_domains and blocked_domains set together.
func validateDomains(path string, allowed, blocked []string) error {
	if allowed != nil && blocked != nil {
		return invalid(path+".allowed_domains", "must not be set together with blocked_domains")
	}
	return nil
}

// WebSearchVersion is the wire type of a [WebSearchTool]. Unknown values pass
// through.
type WebSearchVersion string

// Web search tool versions.
const (
	WebSearch20250305 WebSearchVersion = "web_search_20250305"
	WebSearch20260209 WebSearchVersion = "web_search_20260209"
	// WebSearch20260318 adds ResponseInclusion.
	WebSearch20260318 WebSearchVersion = "web_search_20260318"
)

// A WebSearchTool lets the model search the web on the server. Its name is
// always "web_search".
//
//mms:json request
type WebSearchTool struct {
	// Version is the wire type, e.g. WebSearch20260318. Required.
	Version WebSearchVersion `json:"type"`
	// Name is "web_search"; encoding fills it in when empty.
	Name string `json:"name"`
	// AllowedDomains restricts results to these domains. Not together with
	// BlockedDomains.
	AllowedDomains []string `json:"allowed_domains,omitzero"`
	// BlockedDomains excludes these domains. Not together with
	// AllowedDomains.
	BlockedDomains []string `json:"blocked_domains,omitzero"`
	// MaxUses caps the searches per request; greater than 0.
	MaxUses *int `json:"max_uses,omitzero"`
	// UserLocation localises the results.
	UserLocation *UserLocation `json:"user_location,omitzero"`
	// ResponseInclusion (WebSearch20260318 and later) controls whether
	// nested result blocks are returned.
	ResponseInclusion ResponseInclusion `json:"response_inclusion,omitzero"`
	// AllowedCallers limits who may invoke the tool.
	AllowedCallers []AllowedCaller `json:"allowed_callers,omitzero"`
	// CacheControl sets a prompt-cache breakpoint after this tool.
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// DeferLoading keeps the tool out of the initial prompt.
	DeferLoading *bool `json:"defer_loading,omitzero"`
	// Strict guarantees schema-valid inputs.
	Strict *bool `json:"strict,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (WebSearchTool) betas() []string { return nil }

func (t WebSearchTool) validate(path string) error {
	if err := validateVersioned(path, string(t.Version), t.Name); err != nil {
		return err
	}
	if err := validateDomains(path, t.AllowedDomains, t.BlockedDomains); err != nil {
		return err
	}
	if err := validatePositive(path+".max_uses", t.MaxUses); err != nil {
		return err
	}
	if err := t.UserLocation.validate(path + ".user_location"); err != nil {
		return err
	}
	if err := onlyFrom(path+".response_inclusion", t.ResponseInclusion != "", t.Version,
		WebSearch20260318, WebSearch20250305, WebSearch20260209); err != nil {
		return err
	}
	return validateToolCommon(path, t.CacheControl, nil)
}

// WebFetchVersion is the wire type of a [WebFetchTool]. Unknown values pass
// through.
type WebFetchVersion string

// Web fetch tool versions.
const (
	WebFetch20250910 WebFetchVersion = "web_fetch_20250910"
	WebFetch20260209 WebFetchVersion = "web_fetch_20260209"
	// WebFetch20260309 adds UseCache.
	WebFetch20260309 WebFetchVersion = "web_fetch_20260309"
	// WebFetch20260318 adds UseCache and ResponseInclusion.
	WebFetch20260318 WebFetchVersion = "web_fetch_20260318"
)

// WebFetchCitations switches citations of fetched documents on or off (off by
// default).
//
//mms:json request
type WebFetchCitations struct {
	// Enabled turns citations on.
	Enabled bool `json:"enabled,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A WebFetchTool lets the model fetch web pages and PDFs on the server. Its
// name is always "web_fetch".
//
//mms:json request
type WebFetchTool struct {
	// Version is the wire type, e.g. WebFetch20260318. Required.
	Version WebFetchVersion `json:"type"`
	// Name is "web_fetch"; encoding fills it in when empty.
	Name string `json:"name"`
	// AllowedDomains restricts fetches to these domains. Not together with
	// BlockedDomains.
	AllowedDomains []string `json:"allowed_domains,omitzero"`
	// BlockedDomains excludes these domains. Not together with
	// AllowedDomains.
	BlockedDomains []string `json:"blocked_domains,omitzero"`
	// MaxUses caps the fetches per request; greater than 0.
	MaxUses *int `json:"max_uses,omitzero"`
	// MaxContentTokens approximately caps the fetched content's tokens (not
	// applied to binary content); greater than 0.
	MaxContentTokens *int `json:"max_content_tokens,omitzero"`
	// Citations switches citations of fetched documents on.
	Citations *WebFetchCitations `json:"citations,omitzero"`
	// UseCache false bypasses cached content (WebFetch20260309 and later).
	UseCache *bool `json:"use_cache,omitzero"`
	// ResponseInclusion (WebFetch20260318 and later) controls whether nested
	// result blocks are returned.
	ResponseInclusion ResponseInclusion `json:"response_inclusion,omitzero"`
	// URLSources says which sources contribute fetchable URLs (nil: every
	// source). GA on every version.
	URLSources *URLSources `json:"url_sources,omitzero"`
	// AllowedCallers limits who may invoke the tool.
	AllowedCallers []AllowedCaller `json:"allowed_callers,omitzero"`
	// CacheControl sets a prompt-cache breakpoint after this tool.
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// DeferLoading keeps the tool out of the initial prompt.
	DeferLoading *bool `json:"defer_loading,omitzero"`
	// Strict guarantees schema-valid inputs.
	Strict *bool `json:"strict,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (WebFetchTool) betas() []string { return nil }

func (t WebFetchTool) validate(path string) error {
	if err := validateVersioned(path, string(t.Version), t.Name); err != nil {
		return err
	}
	if err := validateDomains(path, t.AllowedDomains, t.BlockedDomains); err != nil {
		return err
	}
	if err := validatePositive(path+".max_uses", t.MaxUses); err != nil {
		return err
	}
	if err := validatePositive(path+".max_content_tokens", t.MaxContentTokens); err != nil {
		return err
	}
	if err := onlyFrom(path+".use_cache", t.UseCache != nil, t.Version,
		WebFetch20260309, WebFetch20250910, WebFetch20260209); err != nil {
		return err
	}
	if err := onlyFrom(path+".response_inclusion", t.ResponseInclusion != "", t.Version,
		WebFetch20260318, WebFetch20250910, WebFetch20260209, WebFetch20260309); err != nil {
		return err
	}
	if err := t.URLSources.validate(path + ".url_sources"); err != nil {
		return err
	}
	return validateToolCommon(path, t.CacheControl, nil)
}

// ToolSearchVersion is the wire type of a [ToolSearchTool]; it also picks the
// search method. Unknown values pass through.
type ToolSearchVersion string

// Tool search versions: BM25 or regular-expression search, each undated or
// dated.
const (
	ToolSearchBM25          ToolSearchVersion = "tool_search_tool_bm25"
	ToolSearchBM25_20251119 ToolSearchVersion = "tool_search_tool_bm25_20251119"
	ToolSearchRegex         ToolSearchVersion = "tool_search_tool_regex"
	ToolSearchRegex20251119 ToolSearchVersion = "tool_search_tool_regex_20251119"
)

// A ToolSearchTool lets the model search the request's deferred tools
// (DeferLoading) and load the ones it needs. Its name is
// "tool_search_tool_bm25" or "tool_search_tool_regex", after Version.
//
//mms:json request
type ToolSearchTool struct {
	// Version is the wire type, e.g. ToolSearchBM25_20251119. Required.
	Version ToolSearchVersion `json:"type"`
	// Name is fixed by Version; encoding fills it in when empty.
	Name string `json:"name"`
	// AllowedCallers limits who may invoke the tool.
	AllowedCallers []AllowedCaller `json:"allowed_callers,omitzero"`
	// CacheControl sets a prompt-cache breakpoint after this tool.
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// DeferLoading keeps the tool out of the initial prompt.
	DeferLoading *bool `json:"defer_loading,omitzero"`
	// Strict guarantees schema-valid inputs.
	Strict *bool `json:"strict,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (ToolSearchTool) betas() []string { return nil }

func (t ToolSearchTool) validate(path string) error {
	if err := validateVersioned(path, string(t.Version), t.Name); err != nil {
		return err
	}
	return validateToolCommon(path, t.CacheControl, nil)
}

// AdvisorVersion is the wire type of an [AdvisorTool]. Unknown values pass
// through.
type AdvisorVersion string

// Advisor tool versions (beta advisor-tool-2026-03-01).
const Advisor20260301 AdvisorVersion = "advisor_20260301"

// An AdvisorTool lets the model consult another model on the server. Its
// name is always "advisor". Beta-only: it needs advisor-tool-2026-03-01.
//
//mms:json request
type AdvisorTool struct {
	// Version is the wire type, Advisor20260301. Required.
	Version AdvisorVersion `json:"type"`
	// Name is "advisor"; encoding fills it in when empty.
	Name string `json:"name"`
	// Model is the advisor's model id. Required.
	Model string `json:"model"`
	// MaxTokens caps the advisor's output per call; greater than 0.
	MaxTokens *int `json:"max_tokens,omitzero"`
	// MaxUses caps the advisor calls per request; greater than 0.
	MaxUses *int `json:"max_uses,omitzero"`
	// Caching caches the advisor's own prompt.
	Caching *CacheControl `json:"caching,omitzero"`
	// AllowedCallers limits who may invoke the tool.
	AllowedCallers []AllowedCaller `json:"allowed_callers,omitzero"`
	// CacheControl sets a prompt-cache breakpoint after this tool.
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// DeferLoading keeps the tool out of the initial prompt.
	DeferLoading *bool `json:"defer_loading,omitzero"`
	// Strict guarantees schema-valid inputs.
	Strict *bool `json:"strict,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (AdvisorTool) betas() []string { return []string{betaAdvisorTool} }

func (t AdvisorTool) validate(path string) error {
	if err := validateVersioned(path, string(t.Version), t.Name); err != nil {
		return err
	}
	if t.Model == "" {
		return invalid(path+".model", "must not be empty")
	}
	if err := validatePositive(path+".max_tokens", t.MaxTokens); err != nil {
		return err
	}
	if err := validatePositive(path+".max_uses", t.MaxUses); err != nil {
		return err
	}
	if err := t.Caching.validate(path + ".caching"); err != nil {
		return err
	}
	return validateToolCommon(path, t.CacheControl, nil)
}
