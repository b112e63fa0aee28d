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
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
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
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
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
//
//mms:json
type BrowserTab struct {
	TabID string `json:"tab_id"`
	Title string `json:"title"`
	URL   string `json:"url"`
	// Active marks the focused tab.
	Active bool `json:"active,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A BrowserStateChange is one entry of [BrowserStateBlock].StateChanges.
// Variants: [TabOpenedChange], [DownloadStartedChange],
// [DownloadCompletedChange], [DownloadFailedChange] and
// [UnknownBrowserStateChange].
type BrowserStateChange interface {
	json.Marshaler
	isBrowserStateChange()
	validate(path string) error
}

// BrowserStateChanges is a list of browser state changes. It owns the union
// decoding.
//
//mms:json
type BrowserStateChanges []BrowserStateChange

var browserStateChangeUnion = codec.NewUnion[BrowserStateChange]("BrowserStateChange", UnknownBrowserStateChange{}).
	Add("tab_opened", TabOpenedChange{}).
	Add("download_started", DownloadStartedChange{}).
	Add("download_completed", DownloadCompletedChange{}).
	Add("download_failed", DownloadFailedChange{})

// TabOpenedChange is a "tab_opened" state change.
type TabOpenedChange struct {
	TabID string `json:"tab_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
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
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
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
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
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
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
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

func (UnknownBrowserStateChange) validate(string) error { return nil }
