package mms

import (
	"encoding/json"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// A ComputerAction is the typed input of a computer toolset call, one
// struct per action (the tool_use block's name); see
// [ToolUseBlock.ComputerAction]. Variants: [ComputerScreenshot],
// [ComputerCursorPosition], [ComputerLeftMouseDown], [ComputerLeftMouseUp],
// [ComputerLeftClick], [ComputerRightClick], [ComputerMiddleClick],
// [ComputerDoubleClick], [ComputerTripleClick], [ComputerMouseMove],
// [ComputerLeftClickDrag], [ComputerScroll], [ComputerType], [ComputerKey],
// [ComputerHoldKey], [ComputerWait], [ComputerZoom] and
// [UnknownComputerAction].
//
// Coordinates are [x, y] and regions [x1, y1, x2, y2], in pixels. Validate
// checks the action's required members, counts and enums; paths start at
// "input".
type ComputerAction interface {
	json.Marshaler
	isComputerAction()
	// Validate checks the action against the rules of its input.
	Validate() error
}

var computerActionUnion = codec.NewUnion[ComputerAction]("ComputerAction", UnknownComputerAction{}).
	Outside().
	Add("screenshot", ComputerScreenshot{}).
	Add("cursor_position", ComputerCursorPosition{}).
	Add("left_mouse_down", ComputerLeftMouseDown{}).
	Add("left_mouse_up", ComputerLeftMouseUp{}).
	Add("left_click", ComputerLeftClick{}).
	Add("right_click", ComputerRightClick{}).
	Add("middle_click", ComputerMiddleClick{}).
	Add("double_click", ComputerDoubleClick{}).
	Add("triple_click", ComputerTripleClick{}).
	Add("mouse_move", ComputerMouseMove{}).
	Add("left_click_drag", ComputerLeftClickDrag{}).
	Add("scroll", ComputerScroll{}).
	Add("type", ComputerType{}).
	Add("key", ComputerKey{}).
	Add("hold_key", ComputerHoldKey{}).
	Add("wait", ComputerWait{}).
	Add("zoom", ComputerZoom{})

// computerActionNames gives each variant type its action.
var computerActionNames = actionNames(computerActionUnion.Types())

// UnknownComputerAction keeps an action this SDK version cannot name: Type
// is the action (the tool_use name), Raw the input, written back as it
// came.
type UnknownComputerAction struct {
	Type string
	Raw  json.RawMessage
}

// Validate accepts the action: this SDK version knows no rules for it.
func (UnknownComputerAction) Validate() error { return nil }

// ComputerScreenshot ("screenshot") takes a screenshot. It takes no input.
type ComputerScreenshot struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate refuses any input member.
func (a ComputerScreenshot) Validate() error { return checkNoInput("screenshot", a.Extra) }

// ComputerCursorPosition ("cursor_position") reports the pointer's
// position. It takes no input.
type ComputerCursorPosition struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate refuses any input member.
func (a ComputerCursorPosition) Validate() error { return checkNoInput("cursor_position", a.Extra) }

// ComputerLeftMouseDown ("left_mouse_down") presses the left button where
// the pointer is. It takes no input.
type ComputerLeftMouseDown struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate refuses any input member.
func (a ComputerLeftMouseDown) Validate() error { return checkNoInput("left_mouse_down", a.Extra) }

// ComputerLeftMouseUp ("left_mouse_up") releases the left button where
// the pointer is. It takes no input.
type ComputerLeftMouseUp struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate refuses any input member.
func (a ComputerLeftMouseUp) Validate() error { return checkNoInput("left_mouse_up", a.Extra) }

// ComputerLeftClick ("left_click") clicks the left button.
type ComputerLeftClick struct {
	// Coordinate is where, [x, y]; nil clicks where the pointer is.
	Coordinate []int `json:"coordinate,omitzero"`
	// Text names modifier keys held during the click ("shift", "ctrl+alt").
	Text string `json:"text,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the coordinate, when there is one.
func (a ComputerLeftClick) Validate() error { return checkInts("coordinate", a.Coordinate, 2, false) }

// ComputerRightClick ("right_click") clicks the right button.
type ComputerRightClick struct {
	// Coordinate is where, [x, y]; nil clicks where the pointer is.
	Coordinate []int `json:"coordinate,omitzero"`
	// Text names modifier keys held during the click.
	Text string `json:"text,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the coordinate, when there is one.
func (a ComputerRightClick) Validate() error { return checkInts("coordinate", a.Coordinate, 2, false) }

// ComputerMiddleClick ("middle_click") clicks the middle button.
type ComputerMiddleClick struct {
	// Coordinate is where, [x, y]; nil clicks where the pointer is.
	Coordinate []int `json:"coordinate,omitzero"`
	// Text names modifier keys held during the click.
	Text string `json:"text,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the coordinate, when there is one.
func (a ComputerMiddleClick) Validate() error { return checkInts("coordinate", a.Coordinate, 2, false) }

// ComputerDoubleClick ("double_click") double-clicks the left button.
type ComputerDoubleClick struct {
	// Coordinate is where, [x, y]; nil clicks where the pointer is.
	Coordinate []int `json:"coordinate,omitzero"`
	// Text names modifier keys held during the click.
	Text string `json:"text,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the coordinate, when there is one.
func (a ComputerDoubleClick) Validate() error { return checkInts("coordinate", a.Coordinate, 2, false) }

// ComputerTripleClick ("triple_click") triple-clicks the left button.
type ComputerTripleClick struct {
	// Coordinate is where, [x, y]; nil clicks where the pointer is.
	Coordinate []int `json:"coordinate,omitzero"`
	// Text names modifier keys held during the click.
	Text string `json:"text,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the coordinate, when there is one.
func (a ComputerTripleClick) Validate() error { return checkInts("coordinate", a.Coordinate, 2, false) }

// ComputerMouseMove ("mouse_move") moves the pointer.
type ComputerMouseMove struct {
	// Coordinate is where to, [x, y]. Required.
	Coordinate []int `json:"coordinate"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the coordinate.
func (a ComputerMouseMove) Validate() error { return checkInts("coordinate", a.Coordinate, 2, true) }

// ComputerLeftClickDrag ("left_click_drag") drags with the left button
// from StartCoordinate to Coordinate.
type ComputerLeftClickDrag struct {
	// StartCoordinate is where the drag starts, [x, y]. Required.
	StartCoordinate []int `json:"start_coordinate"`
	// Coordinate is where it ends, [x, y]. Required.
	Coordinate []int `json:"coordinate"`
	// Text names modifier keys held during the drag.
	Text string `json:"text,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks both coordinates.
func (a ComputerLeftClickDrag) Validate() error {
	if err := checkInts("start_coordinate", a.StartCoordinate, 2, true); err != nil {
		return err
	}
	return checkInts("coordinate", a.Coordinate, 2, true)
}

// ComputerScroll ("scroll") scrolls.
type ComputerScroll struct {
	// ScrollDirection is up, down, left or right. Required.
	ScrollDirection ScrollDirection `json:"scroll_direction"`
	// ScrollAmount is how far, in scroll wheel clicks; >= 0. Required.
	ScrollAmount int `json:"scroll_amount"`
	// Coordinate is where, [x, y]; nil scrolls where the pointer is.
	Coordinate []int `json:"coordinate,omitzero"`
	// Text names modifier keys held while scrolling.
	Text string `json:"text,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the direction, the amount and the coordinate.
func (a ComputerScroll) Validate() error {
	if err := checkScrollDirection(a.ScrollDirection); err != nil {
		return err
	}
	if err := requireInt(a.Extra, "scroll_amount", a.ScrollAmount, 0); err != nil {
		return err
	}
	return checkInts("coordinate", a.Coordinate, 2, false)
}

// ComputerType ("type") types text.
type ComputerType struct {
	// Text is what to type. Required.
	Text string `json:"text"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks that there is text.
func (a ComputerType) Validate() error { return requireText("text", a.Text) }

// ComputerKey ("key") presses a key or a combination ("Return", "ctrl+s").
type ComputerKey struct {
	// Text is the key or combination. Required.
	Text string `json:"text"`
	// Repeat presses it this many times (>= 1); nil once.
	Repeat *int `json:"repeat,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the key and the repeat count.
func (a ComputerKey) Validate() error {
	if err := requireText("text", a.Text); err != nil {
		return err
	}
	return checkOptionalMin("repeat", a.Repeat, 1)
}

// ComputerHoldKey ("hold_key") holds a key down for a while.
type ComputerHoldKey struct {
	// Text is the key. Required.
	Text string `json:"text"`
	// Duration is how long, in seconds; >= 0. Required.
	Duration int `json:"duration"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the key and the duration.
func (a ComputerHoldKey) Validate() error {
	if err := requireText("text", a.Text); err != nil {
		return err
	}
	return requireInt(a.Extra, "duration", a.Duration, 0)
}

// ComputerWait ("wait") waits.
type ComputerWait struct {
	// Duration is how long, in seconds; >= 0. Required.
	Duration int `json:"duration"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the duration.
func (a ComputerWait) Validate() error { return requireInt(a.Extra, "duration", a.Duration, 0) }

// ComputerZoom ("zoom") shows a region of the screen enlarged.
type ComputerZoom struct {
	// Region is [x1, y1, x2, y2]. Required.
	Region []int `json:"region"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Validate checks the region.
func (a ComputerZoom) Validate() error { return checkInts("region", a.Region, 4, true) }
