package mms

import (
	"encoding/json"
	"fmt"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// ToolResultBlock is a "tool_result" block: the caller's answer to a
// [ToolUseBlock]. Build a text answer with [ToolResult].
type ToolResultBlock struct {
	// ToolUseID is the ID of the tool_use block answered
	// (^[a-zA-Z0-9_-]+$).
	ToolUseID string `json:"tool_use_id"`
	// Content is the result: TextBlock, ImageBlock, SearchResultBlock,
	// DocumentBlock, ToolReferenceBlock and (at most one, not in an error
	// result) BrowserStateBlock values. It may be empty.
	Content ContentBlocks `json:"content,omitzero"`
	// StringContent selects the wire's string shorthand ("content":"…") for
	// Content when it is a single plain TextBlock; decoding sets it when the
	// wire used the string form. Otherwise the array form is written.
	StringContent bool `json:"-"`
	// IsError marks a failed tool call.
	IsError *bool `json:"is_error,omitzero"`
	// ToolsetName names the toolset of the answered call.
	ToolsetName  string        `json:"toolset_name,omitzero"`
	CacheControl *CacheControl `json:"cache_control,omitzero"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (ToolResultBlock) isContentBlock() {}

// UnmarshalJSON decodes the block, keeping unknown members in Extra.
func (b *ToolResultBlock) UnmarshalJSON(data []byte) error {
	type plain ToolResultBlock
	aux := struct {
		*plain
		Content blocksOrString `json:"content,omitzero"`
	}{plain: (*plain)(b)}
	err := decodeObject(data, &aux, &b.Extra)
	b.Content, b.StringContent = aux.Content.blocks, aux.Content.isString
	return err
}

// MarshalJSON writes the block with "type":"tool_result" and Extra.
func (b ToolResultBlock) MarshalJSON() ([]byte, error) {
	return b.appendJSON(make([]byte, 0, b.jsonSize()))
}

func (b ToolResultBlock) jsonSize() int { return 256 + blocksJSON(b.Content).jsonSize() }

// appendJSON appends the block; its content is written last, straight into
// dst, so an image or document payload is copied once.
func (b ToolResultBlock) appendJSON(dst []byte) ([]byte, error) {
	type plain ToolResultBlock
	extra := codec.LiveExtra(plain(b), b.Extra)
	if s, ok := stringForm(b.Content, b.StringContent); ok {
		enc, err := codec.MarshalObject("tool_result", struct {
			plain
			Content string `json:"content"`
		}{plain(b), s}, extra)
		return append(dst, enc...), err
	}
	content := b.Content
	b.Content = nil
	head, err := codec.MarshalObject("tool_result", plain(b), extra)
	if err != nil {
		return dst, err
	}
	if content == nil {
		return append(dst, head...), nil
	}
	return appendMember(dst, head, "content", blocksJSON(content))
}

func (b ToolResultBlock) requestForm() ContentBlock {
	b.Content = b.Content.requestForm()
	b.Extra = requestExtra[ToolResultBlock](b.Extra)
	return b
}

func (b ToolResultBlock) validate(path string) error {
	if err := checkToolID(path+".tool_use_id", b.ToolUseID); err != nil {
		return err
	}
	// Content the string shorthand cannot carry goes out as an array,
	// StringContent or not, so it is checked as one.
	if _, ok := stringForm(b.Content, b.StringContent); !ok {
		isError := b.IsError != nil && *b.IsError
		browserStates := 0
		err := b.Content.validate(path+".content", func(c ContentBlock) bool {
			switch c.(type) {
			case TextBlock, ImageBlock, SearchResultBlock, DocumentBlock, ToolReferenceBlock, BrowserStateBlock, UnknownContentBlock:
				return true
			}
			return false
		}, "tool_result content")
		if err != nil {
			return err
		}
		for i, c := range b.Content {
			if _, ok := c.(BrowserStateBlock); !ok {
				continue
			}
			p := fmt.Sprintf("%s.content[%d]", path, i)
			if isError {
				return invalid(p, "browser_state is not allowed in an error tool_result")
			}
			if browserStates++; browserStates > 1 {
				return invalid(p, "at most one browser_state block is allowed")
			}
		}
	}
	return b.CacheControl.validate(path + ".cache_control")
}

// ---------------------------------------------------------------------------
// browser_state

// BrowserStateBlock is a "browser_state" block: the browser's tabs after a
// browser-toolset call. It is only valid inside a non-error
// [ToolResultBlock], at most once.
type BrowserStateBlock struct {
	// Tabs is required; when it is not empty exactly one tab is active.
	Tabs []BrowserTab `json:"tabs"`
	// StateChanges lists what changed; leave it nil rather than empty.
	StateChanges BrowserStateChanges `json:"state_changes,omitzero"`
	CacheControl *CacheControl       `json:"cache_control,omitzero"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (BrowserStateBlock) isContentBlock() {}

// UnmarshalJSON decodes the block, keeping unknown members in Extra.
func (b *BrowserStateBlock) UnmarshalJSON(data []byte) error {
	type plain BrowserStateBlock
	return decodeObject(data, (*plain)(b), &b.Extra)
}

// MarshalJSON writes the block with "type":"browser_state" and Extra.
func (b BrowserStateBlock) MarshalJSON() ([]byte, error) {
	type plain BrowserStateBlock
	return marshalObject("browser_state", plain(b), b.Extra)
}

func (b BrowserStateBlock) requestForm() ContentBlock {
	if b.Tabs != nil {
		tabs := make([]BrowserTab, len(b.Tabs))
		for i, t := range b.Tabs {
			t.Extra = requestExtra[BrowserTab](t.Extra)
			tabs[i] = t
		}
		b.Tabs = tabs
	}
	if b.StateChanges != nil {
		changes := make(BrowserStateChanges, len(b.StateChanges))
		for i, c := range b.StateChanges {
			if c != nil {
				changes[i] = c.requestForm()
			}
		}
		b.StateChanges = changes
	}
	b.Extra = requestExtra[BrowserStateBlock](b.Extra)
	return b
}

func (b BrowserStateBlock) validate(path string) error {
	if b.Tabs == nil {
		return invalid(path+".tabs", "is required")
	}
	active := 0
	for i, t := range b.Tabs {
		p := fmt.Sprintf("%s.tabs[%d]", path, i)
		if t.TabID == "" {
			return invalid(p+".tab_id", "must not be empty")
		}
		if t.Active {
			active++
		}
	}
	if len(b.Tabs) > 0 && active != 1 {
		return invalid(path+".tabs", "exactly one tab must be active, got %d", active)
	}
	if b.StateChanges != nil && len(b.StateChanges) == 0 {
		return invalid(path+".state_changes", "must not be empty (omit it instead)")
	}
	for i, c := range b.StateChanges {
		p := fmt.Sprintf("%s.state_changes[%d]", path, i)
		if c == nil {
			return invalid(p, "must not be nil")
		}
		if err := c.validate(p); err != nil {
			return err
		}
	}
	return b.CacheControl.validate(path + ".cache_control")
}

// BrowserTab is one open tab of a [BrowserStateBlock].
type BrowserTab struct {
	TabID string `json:"tab_id"`
	Title string `json:"title"`
	URL   string `json:"url"`
	// Active marks the focused tab.
	Active bool `json:"active,omitzero"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes the tab, keeping unknown members in Extra.
func (t *BrowserTab) UnmarshalJSON(data []byte) error {
	type plain BrowserTab
	return decodeObject(data, (*plain)(t), &t.Extra)
}

// MarshalJSON writes the tab with Extra.
func (t BrowserTab) MarshalJSON() ([]byte, error) {
	type plain BrowserTab
	return marshalObject("", plain(t), t.Extra)
}

// A BrowserStateChange is one entry of [BrowserStateBlock].StateChanges.
// Variants: [TabOpenedChange], [DownloadStartedChange],
// [DownloadCompletedChange], [DownloadFailedChange] and
// [UnknownBrowserStateChange].
type BrowserStateChange interface {
	json.Marshaler
	isBrowserStateChange()
	requestForm() BrowserStateChange
	validate(path string) error
}

// BrowserStateChanges is a list of browser state changes. It owns the union
// decoding.
type BrowserStateChanges []BrowserStateChange

// UnmarshalJSON decodes each element by its "type".
func (c *BrowserStateChanges) UnmarshalJSON(data []byte) error {
	v, err := codec.DecodeArray(data, decodeBrowserStateChange)
	*c = v
	return err
}

func decodeBrowserStateChange(data []byte) (BrowserStateChange, error) {
	return decodeUnion(data, browserStateChangeVariants, unknownAs[BrowserStateChange, UnknownBrowserStateChange])
}

var browserStateChangeVariants = variants[BrowserStateChange]{
	"tab_opened":         variant[BrowserStateChange, TabOpenedChange],
	"download_started":   variant[BrowserStateChange, DownloadStartedChange],
	"download_completed": variant[BrowserStateChange, DownloadCompletedChange],
	"download_failed":    variant[BrowserStateChange, DownloadFailedChange],
}

// TabOpenedChange is a "tab_opened" state change.
type TabOpenedChange struct {
	TabID string `json:"tab_id"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (TabOpenedChange) isBrowserStateChange() {}

// UnmarshalJSON decodes the change, keeping unknown members in Extra.
func (c *TabOpenedChange) UnmarshalJSON(data []byte) error {
	type plain TabOpenedChange
	return decodeObject(data, (*plain)(c), &c.Extra)
}

// MarshalJSON writes the change with "type":"tab_opened" and Extra.
func (c TabOpenedChange) MarshalJSON() ([]byte, error) {
	type plain TabOpenedChange
	return marshalObject("tab_opened", plain(c), c.Extra)
}

func (c TabOpenedChange) requestForm() BrowserStateChange {
	c.Extra = requestExtra[TabOpenedChange](c.Extra)
	return c
}

func (c TabOpenedChange) validate(path string) error {
	if c.TabID == "" {
		return invalid(path+".tab_id", "must not be empty")
	}
	return nil
}

// DownloadStartedChange is a "download_started" state change.
type DownloadStartedChange struct {
	DownloadID string `json:"download_id"`
	URL        string `json:"url"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (DownloadStartedChange) isBrowserStateChange() {}

// UnmarshalJSON decodes the change, keeping unknown members in Extra.
func (c *DownloadStartedChange) UnmarshalJSON(data []byte) error {
	type plain DownloadStartedChange
	return decodeObject(data, (*plain)(c), &c.Extra)
}

// MarshalJSON writes the change with "type":"download_started" and Extra.
func (c DownloadStartedChange) MarshalJSON() ([]byte, error) {
	type plain DownloadStartedChange
	return marshalObject("download_started", plain(c), c.Extra)
}

func (c DownloadStartedChange) requestForm() BrowserStateChange {
	c.Extra = requestExtra[DownloadStartedChange](c.Extra)
	return c
}

func (c DownloadStartedChange) validate(path string) error {
	return validateDownload(path, c.DownloadID, c.URL)
}

func validateDownload(path, id, url string) error {
	if id == "" {
		return invalid(path+".download_id", "must not be empty")
	}
	if url == "" {
		return invalid(path+".url", "must not be empty")
	}
	return nil
}

// DownloadCompletedChange is a "download_completed" state change.
type DownloadCompletedChange struct {
	DownloadID string `json:"download_id"`
	URL        string `json:"url"`
	// Path is where the file was saved (nil: absent or null).
	Path *string `json:"path,omitzero"`
	// SizeBytes is the file size (nil: absent or null).
	SizeBytes *int64 `json:"size_bytes,omitzero"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (DownloadCompletedChange) isBrowserStateChange() {}

// UnmarshalJSON decodes the change, keeping unknown members in Extra.
func (c *DownloadCompletedChange) UnmarshalJSON(data []byte) error {
	type plain DownloadCompletedChange
	return decodeObject(data, (*plain)(c), &c.Extra)
}

// MarshalJSON writes the change with "type":"download_completed" and Extra.
func (c DownloadCompletedChange) MarshalJSON() ([]byte, error) {
	type plain DownloadCompletedChange
	return marshalObject("download_completed", plain(c), c.Extra)
}

func (c DownloadCompletedChange) requestForm() BrowserStateChange {
	c.Extra = requestExtra[DownloadCompletedChange](c.Extra)
	return c
}

func (c DownloadCompletedChange) validate(path string) error {
	return validateDownload(path, c.DownloadID, c.URL)
}

// DownloadFailedChange is a "download_failed" state change.
type DownloadFailedChange struct {
	DownloadID string `json:"download_id"`
	URL        string `json:"url"`
	// Error says why (nil: absent or null).
	Error *string `json:"error,omitzero"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

func (DownloadFailedChange) isBrowserStateChange() {}

// UnmarshalJSON decodes the change, keeping unknown members in Extra.
func (c *DownloadFailedChange) UnmarshalJSON(data []byte) error {
	type plain DownloadFailedChange
	return decodeObject(data, (*plain)(c), &c.Extra)
}

// MarshalJSON writes the change with "type":"download_failed" and Extra.
func (c DownloadFailedChange) MarshalJSON() ([]byte, error) {
	type plain DownloadFailedChange
	return marshalObject("download_failed", plain(c), c.Extra)
}

func (c DownloadFailedChange) requestForm() BrowserStateChange {
	c.Extra = requestExtra[DownloadFailedChange](c.Extra)
	return c
}

func (c DownloadFailedChange) validate(path string) error {
	return validateDownload(path, c.DownloadID, c.URL)
}

// UnknownBrowserStateChange holds a state change type this version cannot
// name; Raw is written back verbatim.
type UnknownBrowserStateChange struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownBrowserStateChange) isBrowserStateChange() {}

// MarshalJSON returns Raw unchanged.
func (c UnknownBrowserStateChange) MarshalJSON() ([]byte, error) { return rawJSON(c.Type, c.Raw) }

func (c UnknownBrowserStateChange) requestForm() BrowserStateChange { return c }
func (UnknownBrowserStateChange) validate(string) error             { return nil }
