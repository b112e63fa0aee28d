package mms

import (
	"encoding/json"
	"reflect"
	"strconv"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// A BrowserAction is the typed input of a browser toolset call, one struct
// per action (the tool_use block's name); see [ToolUseBlock.BrowserAction].
// Variants: [BrowserNavigate], [BrowserLeftClick], [BrowserRightClick],
// [BrowserMiddleClick], [BrowserDoubleClick], [BrowserTripleClick],
// [BrowserHover], [BrowserLeftClickDrag], [BrowserLeftMouseDown],
// [BrowserLeftMouseUp], [BrowserMouseMove], [BrowserScroll],
// [BrowserScrollTo], [BrowserType], [BrowserKey], [BrowserHoldKey],
// [BrowserWait], [BrowserZoom], [BrowserFind], [BrowserFormInput],
// [BrowserFileUpload], [BrowserJavaScriptExec], [BrowserReadPage],
// [BrowserGetPageText], [BrowserReadConsole], [BrowserReadNetwork],
// [BrowserScreenshot], [BrowserListTabs], [BrowserNewTab],
// [BrowserCloseTab], [BrowserSwitchTab] and [UnknownBrowserAction].
//
// Every action but list_tabs and new_tab takes a TabID: optional (the
// active tab when empty), except for close_tab and switch_tab. Validate
// checks the action's required members, counts, target kinds and enums;
// paths start at "input".
type BrowserAction interface {
	json.Marshaler
	isBrowserAction()
	// Validate checks the action against the rules of its input.
	Validate() error
}

var browserActionUnion = codec.NewUnion[BrowserAction]("BrowserAction", UnknownBrowserAction{}).
	Outside().
	Add("navigate", BrowserNavigate{}).
	Add("left_click", BrowserLeftClick{}).
	Add("right_click", BrowserRightClick{}).
	Add("middle_click", BrowserMiddleClick{}).
	Add("double_click", BrowserDoubleClick{}).
	Add("triple_click", BrowserTripleClick{}).
	Add("hover", BrowserHover{}).
	Add("left_click_drag", BrowserLeftClickDrag{}).
	Add("left_mouse_down", BrowserLeftMouseDown{}).
	Add("left_mouse_up", BrowserLeftMouseUp{}).
	Add("mouse_move", BrowserMouseMove{}).
	Add("scroll", BrowserScroll{}).
	Add("scroll_to", BrowserScrollTo{}).
	Add("type", BrowserType{}).
	Add("key", BrowserKey{}).
	Add("hold_key", BrowserHoldKey{}).
	Add("wait", BrowserWait{}).
	Add("zoom", BrowserZoom{}).
	Add("find", BrowserFind{}).
	Add("form_input", BrowserFormInput{}).
	Add("file_upload", BrowserFileUpload{}).
	Add("javascript_exec", BrowserJavaScriptExec{}).
	Add("read_page", BrowserReadPage{}).
	Add("get_page_text", BrowserGetPageText{}).
	Add("read_console", BrowserReadConsole{}).
	Add("read_network", BrowserReadNetwork{}).
	Add("screenshot", BrowserScreenshot{}).
	Add("list_tabs", BrowserListTabs{}).
	Add("new_tab", BrowserNewTab{}).
	Add("close_tab", BrowserCloseTab{}).
	Add("switch_tab", BrowserSwitchTab{})

// browserActionNames gives each variant type its action.
var browserActionNames = actionNames(browserActionUnion.Types())

// UnknownBrowserAction keeps an action this SDK version cannot name: Type
// is the action (the tool_use name), Raw the input, written back as it
// came.
type UnknownBrowserAction struct {
	Type string
	Raw  json.RawMessage
}

// Validate accepts the action: this SDK version knows no rules for it.
func (UnknownBrowserAction) Validate() error { return nil }

// BrowserNavigate ("navigate") loads a URL in a tab.
type BrowserNavigate struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// URL is the page to load. Required.
	URL string `json:"url"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks that there is a URL.
func (a BrowserNavigate) Validate() error { return requireText("url", a.URL) }

// BrowserLeftClick ("left_click") clicks the left button on a target.
type BrowserLeftClick struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Target is a coordinate or an element reference. Required.
	Target BrowserTarget `json:"target"`
	// Modifiers names modifier keys held during the click ("shift",
	// "ctrl+alt").
	Modifiers string `json:"modifiers,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the target.
func (a BrowserLeftClick) Validate() error { return checkTarget("target", a.Target, "") }

// BrowserRightClick ("right_click") clicks the right button on a target.
type BrowserRightClick struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Target is a coordinate or an element reference. Required.
	Target BrowserTarget `json:"target"`
	// Modifiers names modifier keys held during the click ("shift",
	// "ctrl+alt").
	Modifiers string `json:"modifiers,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the target.
func (a BrowserRightClick) Validate() error { return checkTarget("target", a.Target, "") }

// BrowserMiddleClick ("middle_click") clicks the middle button on a target.
type BrowserMiddleClick struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Target is a coordinate or an element reference. Required.
	Target BrowserTarget `json:"target"`
	// Modifiers names modifier keys held during the click ("shift",
	// "ctrl+alt").
	Modifiers string `json:"modifiers,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the target.
func (a BrowserMiddleClick) Validate() error { return checkTarget("target", a.Target, "") }

// BrowserDoubleClick ("double_click") double-clicks a target.
type BrowserDoubleClick struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Target is a coordinate or an element reference. Required.
	Target BrowserTarget `json:"target"`
	// Modifiers names modifier keys held during the click ("shift",
	// "ctrl+alt").
	Modifiers string `json:"modifiers,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the target.
func (a BrowserDoubleClick) Validate() error { return checkTarget("target", a.Target, "") }

// BrowserTripleClick ("triple_click") triple-clicks a target.
type BrowserTripleClick struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Target is a coordinate or an element reference. Required.
	Target BrowserTarget `json:"target"`
	// Modifiers names modifier keys held during the click ("shift",
	// "ctrl+alt").
	Modifiers string `json:"modifiers,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the target.
func (a BrowserTripleClick) Validate() error { return checkTarget("target", a.Target, "") }

// BrowserHover ("hover") moves the pointer over a target.
type BrowserHover struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Target is a coordinate or an element reference. Required.
	Target BrowserTarget `json:"target"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the target.
func (a BrowserHover) Validate() error { return checkTarget("target", a.Target, "") }

// BrowserLeftClickDrag ("left_click_drag") drags with the left button
// from From to Target.
type BrowserLeftClickDrag struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// From is where the drag starts, a coordinate. Required.
	From BrowserTarget `json:"from"`
	// Target is where it ends, a coordinate. Required.
	Target BrowserTarget `json:"target"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks that both ends are coordinates.
func (a BrowserLeftClickDrag) Validate() error {
	if err := checkTarget("from", a.From, browserTargetCoordinate); err != nil {
		return err
	}
	return checkTarget("target", a.Target, browserTargetCoordinate)
}

// BrowserLeftMouseDown ("left_mouse_down") presses the left button at a coordinate.
type BrowserLeftMouseDown struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Target is a coordinate. Required.
	Target BrowserTarget `json:"target"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks that the target is a coordinate.
func (a BrowserLeftMouseDown) Validate() error {
	return checkTarget("target", a.Target, browserTargetCoordinate)
}

// BrowserLeftMouseUp ("left_mouse_up") releases the left button at a coordinate.
type BrowserLeftMouseUp struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Target is a coordinate. Required.
	Target BrowserTarget `json:"target"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks that the target is a coordinate.
func (a BrowserLeftMouseUp) Validate() error {
	return checkTarget("target", a.Target, browserTargetCoordinate)
}

// BrowserMouseMove ("mouse_move") moves the pointer to a coordinate.
type BrowserMouseMove struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Target is a coordinate. Required.
	Target BrowserTarget `json:"target"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks that the target is a coordinate.
func (a BrowserMouseMove) Validate() error {
	return checkTarget("target", a.Target, browserTargetCoordinate)
}

// BrowserScroll ("scroll") scrolls at a coordinate.
type BrowserScroll struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Target is where, a coordinate. Required.
	Target BrowserTarget `json:"target"`
	// ScrollDirection is up, down, left or right. Required.
	ScrollDirection ScrollDirection `json:"scroll_direction"`
	// ScrollAmount is how far (>= 0); nil leaves it to the browser.
	ScrollAmount *int `json:"scroll_amount,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the target, the direction and the amount.
func (a BrowserScroll) Validate() error {
	if err := checkTarget("target", a.Target, browserTargetCoordinate); err != nil {
		return err
	}
	if err := checkScrollDirection(a.ScrollDirection); err != nil {
		return err
	}
	return checkOptionalMin("scroll_amount", a.ScrollAmount, 0)
}

// BrowserScrollTo ("scroll_to") scrolls an element into view.
type BrowserScrollTo struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Target is the element, a reference. Required.
	Target BrowserTarget `json:"target"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks that the target is a reference.
func (a BrowserScrollTo) Validate() error { return checkTarget("target", a.Target, browserTargetRef) }

// BrowserType ("type") types text.
type BrowserType struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Text is what to type. Required.
	Text string `json:"text"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks that there is text.
func (a BrowserType) Validate() error { return requireText("text", a.Text) }

// BrowserKey ("key") presses a key or a combination.
type BrowserKey struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Text is the key or combination. Required.
	Text string `json:"text"`
	// Repeat presses it this many times (>= 1); nil once.
	Repeat *int `json:"repeat,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the key and the repeat count.
func (a BrowserKey) Validate() error {
	if err := requireText("text", a.Text); err != nil {
		return err
	}
	return checkOptionalMin("repeat", a.Repeat, 1)
}

// BrowserHoldKey ("hold_key") holds a key down for a while.
type BrowserHoldKey struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Text is the key. Required.
	Text string `json:"text"`
	// Duration is how long, in seconds; >= 0. Required.
	Duration float64 `json:"duration"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the key and the duration.
func (a BrowserHoldKey) Validate() error {
	if err := requireText("text", a.Text); err != nil {
		return err
	}
	return requireNumber(a.Extra, "duration", a.Duration)
}

// BrowserWait ("wait") waits.
type BrowserWait struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Duration is how long, in seconds; >= 0. Required.
	Duration float64 `json:"duration"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the duration.
func (a BrowserWait) Validate() error { return requireNumber(a.Extra, "duration", a.Duration) }

// BrowserZoom ("zoom") shows a region of the page enlarged.
type BrowserZoom struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Region is [x1, y1, x2, y2]. Required.
	Region []int `json:"region"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the region.
func (a BrowserZoom) Validate() error { return checkInts("region", a.Region, 4, true) }

// BrowserFind ("find") looks for elements matching a description.
type BrowserFind struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Query describes what to find. Required.
	Query string `json:"query"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks that there is a query.
func (a BrowserFind) Validate() error { return requireText("query", a.Query) }

// BrowserFormInput ("form_input") sets a form field's value.
type BrowserFormInput struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Target is the field, a reference. Required.
	Target BrowserTarget `json:"target"`
	// Value is a string, a number or a boolean. Required.
	Value BrowserFormValue `json:"value"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the target and the value.
func (a BrowserFormInput) Validate() error {
	if err := checkTarget("target", a.Target, browserTargetRef); err != nil {
		return err
	}
	return a.Value.validate("input.value")
}

// BrowserFileUpload ("file_upload") uploads files through a file input.
type BrowserFileUpload struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Target is the file input, a reference. Required.
	Target BrowserTarget `json:"target"`
	// Paths are local files to upload.
	Paths []string `json:"paths,omitzero"`
	// DocumentIDs are documents to upload.
	DocumentIDs []string `json:"document_ids,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the target.
func (a BrowserFileUpload) Validate() error { return checkTarget("target", a.Target, browserTargetRef) }

// BrowserJavaScriptExec ("javascript_exec") runs JavaScript in a tab.
type BrowserJavaScriptExec struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Text is the script. Required.
	Text string `json:"text"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks that there is a script.
func (a BrowserJavaScriptExec) Validate() error { return requireText("text", a.Text) }

// BrowserReadPage ("read_page") reads the page's element tree, with the
// element references other actions target.
type BrowserReadPage struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Depth limits the tree's depth (>= 0); nil reads it all.
	Depth *int `json:"depth,omitzero"`
	// Filter is all or interactive; "" leaves it to the browser.
	Filter ReadPageFilter `json:"filter,omitzero"`
	// Ref reads the subtree of this element; "" the whole page.
	Ref string `json:"ref,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the depth and the filter.
func (a BrowserReadPage) Validate() error {
	if err := checkOptionalMin("depth", a.Depth, 0); err != nil {
		return err
	}
	switch a.Filter {
	case "", ReadPageFilterAll, ReadPageFilterInteractive:
		return nil
	}
	return invalid("input.filter", "must be all or interactive, got %q", a.Filter)
}

// BrowserGetPageText ("get_page_text") reads a tab's text.
type BrowserGetPageText struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate accepts the action: a tab_id is all it takes.
func (a BrowserGetPageText) Validate() error { return nil }

// BrowserReadConsole ("read_console") reads a tab's console messages.
type BrowserReadConsole struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate accepts the action: a tab_id is all it takes.
func (a BrowserReadConsole) Validate() error { return nil }

// BrowserReadNetwork ("read_network") reads a tab's network requests.
type BrowserReadNetwork struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate accepts the action: a tab_id is all it takes.
func (a BrowserReadNetwork) Validate() error { return nil }

// BrowserScreenshot ("screenshot") takes a screenshot of a tab.
type BrowserScreenshot struct {
	// TabID is the tab acted on; "" is the active tab.
	TabID string `json:"tab_id,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate accepts the action: a tab_id is all it takes.
func (a BrowserScreenshot) Validate() error { return nil }

// BrowserListTabs ("list_tabs") lists the open tabs. It takes no input.
type BrowserListTabs struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate refuses any input member.
func (a BrowserListTabs) Validate() error { return checkNoInput("list_tabs", a.Extra) }

// BrowserNewTab ("new_tab") opens a tab. It takes no input.
type BrowserNewTab struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate refuses any input member.
func (a BrowserNewTab) Validate() error { return checkNoInput("new_tab", a.Extra) }

// BrowserCloseTab ("close_tab") closes a tab.
type BrowserCloseTab struct {
	// TabID is the tab. Required.
	TabID string `json:"tab_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks that there is a tab.
func (a BrowserCloseTab) Validate() error { return requireText("tab_id", a.TabID) }

// BrowserSwitchTab ("switch_tab") makes a tab the active one.
type BrowserSwitchTab struct {
	// TabID is the tab. Required.
	TabID string `json:"tab_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks that there is a tab.
func (a BrowserSwitchTab) Validate() error { return requireText("tab_id", a.TabID) }

// ---------------------------------------------------------------------------
// targets and form values

// A BrowserTarget is what a browser action acts on: a point of the page
// ([BrowserCoordinateTarget]) or an element ([BrowserRefTarget], a
// reference from read_page or find). Variants: [BrowserCoordinateTarget],
// [BrowserRefTarget] and [UnknownBrowserTarget].
type BrowserTarget interface {
	json.Marshaler
	isBrowserTarget()
}

// The target kinds an action may require.
const (
	browserTargetCoordinate = "coordinate"
	browserTargetRef        = "ref"
)

var browserTargetUnion = codec.NewUnion[BrowserTarget]("BrowserTarget", UnknownBrowserTarget{}).
	Add(browserTargetCoordinate, BrowserCoordinateTarget{}).
	Add(browserTargetRef, BrowserRefTarget{})

// BrowserCoordinateTarget ("coordinate") is a point of the page, in pixels.
type BrowserCoordinateTarget struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// BrowserRefTarget ("ref") is an element, by the reference read_page or
// find gave it.
type BrowserRefTarget struct {
	Ref string `json:"ref"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownBrowserTarget keeps a target type this SDK version cannot name.
// It is written back as it came.
type UnknownBrowserTarget struct {
	Type string
	Raw  json.RawMessage
}

// checkTarget checks a required target; kind, when set, is the one kind
// the action accepts.
func checkTarget(member string, t BrowserTarget, kind string) error {
	p := "input." + member
	var got string
	switch t := t.(type) {
	case nil:
		return invalid(p, "is required")
	case BrowserCoordinateTarget:
		got = browserTargetCoordinate
		if missing(t.Extra, "x") || missing(t.Extra, "y") {
			return invalid(p, "a coordinate target needs x and y")
		}
		if t.X < 0 || t.Y < 0 {
			return invalid(p, "x and y must be >= 0, got %s, %s",
				strconv.FormatFloat(t.X, 'g', -1, 64), strconv.FormatFloat(t.Y, 'g', -1, 64))
		}
	case BrowserRefTarget:
		got = browserTargetRef
		if t.Ref == "" {
			return invalid(p+".ref", "is required")
		}
	case UnknownBrowserTarget:
		got = t.Type
	}
	if kind != "" && got != kind {
		return invalid(p+".type", "must be %s, got %q", kind, got)
	}
	return nil
}

// BrowserFormValue is a form_input value: a string, a number or a
// boolean, kept as its JSON so that a number keeps its exact text. Build
// one with [FormString], [FormNumber] or [FormBool].
//
//mms:json spec=formValueSpec
type BrowserFormValue struct {
	raw json.RawMessage
}

// formValueSpec stores and writes the value's JSON as it is.
var formValueSpec = codec.Spec{
	Encode: func(e *codec.Encoder, v reflect.Value) error {
		raw := v.Interface().(BrowserFormValue).raw
		if len(raw) == 0 {
			raw = json.RawMessage("null")
		}
		e.Raw(raw)
		return nil
	},
	Decode: func(data []byte, v reflect.Value) error {
		v.Addr().Interface().(*BrowserFormValue).raw = codec.Clone(codec.TrimSpace(data))
		return nil
	},
}

// FormString is a string form value.
func FormString(s string) BrowserFormValue {
	raw, _ := json.Marshal(s) // a string always encodes
	return BrowserFormValue{raw: raw}
}

// FormNumber is a number form value. NaN and the infinities have no JSON
// form: they give a value Validate refuses.
func FormNumber(f float64) BrowserFormValue {
	raw, err := json.Marshal(f)
	if err != nil {
		return BrowserFormValue{}
	}
	return BrowserFormValue{raw: raw}
}

// FormBool is a boolean form value.
func FormBool(b bool) BrowserFormValue {
	return BrowserFormValue{raw: json.RawMessage(strconv.FormatBool(b))}
}

// Raw returns the value's JSON (nil when unset).
func (v BrowserFormValue) Raw() json.RawMessage { return v.raw }

// AsString returns the value when it is a string.
func (v BrowserFormValue) AsString() (string, bool) {
	var s string
	if len(v.raw) == 0 || v.raw[0] != '"' || json.Unmarshal(v.raw, &s) != nil {
		return "", false
	}
	return s, true
}

// AsNumber returns the value's text when it is a number.
func (v BrowserFormValue) AsNumber() (json.Number, bool) {
	if len(v.raw) == 0 || (v.raw[0] != '-' && (v.raw[0] < '0' || v.raw[0] > '9')) || !json.Valid(v.raw) {
		return "", false
	}
	return json.Number(v.raw), true
}

// AsBool returns the value when it is a boolean.
func (v BrowserFormValue) AsBool() (value, ok bool) {
	switch string(v.raw) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

func (v BrowserFormValue) validate(path string) error {
	if len(v.raw) == 0 || codec.IsNull(v.raw) {
		return invalid(path, "is required")
	}
	if _, ok := v.AsString(); ok {
		return nil
	}
	if _, ok := v.AsNumber(); ok {
		return nil
	}
	if _, ok := v.AsBool(); ok {
		return nil
	}
	return invalid(path, "must be a string, a number or a boolean")
}
