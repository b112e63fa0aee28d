package mms_test

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/fixtures"

	"github.com/stretchr/testify/require"
)

var rawEq = cmp.Comparer(func(a, b json.RawMessage) bool { return string(a) == string(b) })

var formValueEq = cmp.Comparer(func(a, b mms.BrowserFormValue) bool { return string(a.Raw()) == string(b.Raw()) })

// TestToolsetActionRoundTrip: a toolset call's input decodes into its
// action's struct (an unknown action into the Unknown variant), members
// this SDK version does not model and explicit nulls included, and
// marshals back to the same bytes (members in the struct's order).
func TestToolsetActionRoundTrip(t *testing.T) {
	tests := []struct {
		toolset, name, in string
		want              any
	}{
		{"computer", "screenshot", `{}`, mms.ComputerScreenshot{}},
		{"computer", "left_click", `{"coordinate":[1,2],"text":"shift"}`, mms.ComputerLeftClick{Coordinate: []int{1, 2}, Text: "shift"}},
		{"computer", "left_click", `{"coordinate":null}`, mms.ComputerLeftClick{Extra: map[string]json.RawMessage{"coordinate": json.RawMessage(`null`)}}},
		{"computer", "mouse_move", `{"speed":"fast"}`, mms.ComputerMouseMove{Extra: map[string]json.RawMessage{"coordinate": nil, "speed": json.RawMessage(`"fast"`)}}},
		{"computer", "mouse_move", `{"coordinate":[1,2,3]}`, mms.ComputerMouseMove{Coordinate: []int{1, 2, 3}}},
		{"computer", "scroll", `{"scroll_direction":"sideways","scroll_amount":0}`, mms.ComputerScroll{ScrollDirection: "sideways"}},
		{"computer", "key", `{"text":"a","repeat":0}`, mms.ComputerKey{Text: "a", Repeat: mms.Ptr(0)}},
		{"computer", "zoom", `{"region":[0,0,9,9]}`, mms.ComputerZoom{Region: []int{0, 0, 9, 9}}},
		{"computer", "teleport", `{"to":"mars"}`, mms.UnknownComputerAction{Type: "teleport", Raw: json.RawMessage(`{"to":"mars"}`)}},
		{"browser", "navigate", `{"tab_id":"t1","url":"https://a.example/"}`, mms.BrowserNavigate{TabID: "t1", URL: "https://a.example/"}},
		{"browser", "left_click", `{"target":{"type":"ref","ref":"ref_1"},"modifiers":"ctrl"}`,
			mms.BrowserLeftClick{Target: mms.BrowserRefTarget{Ref: "ref_1"}, Modifiers: "ctrl"}},
		{"browser", "hover", `{"target":{"type":"coordinate","x":1.5,"y":2,"z":0}}`,
			mms.BrowserHover{Target: mms.BrowserCoordinateTarget{X: 1.5, Y: 2, Extra: map[string]json.RawMessage{"z": json.RawMessage(`0`)}}}},
		{"browser", "hover", `{"target":{"type":"box","id":3}}`,
			mms.BrowserHover{Target: mms.UnknownBrowserTarget{Type: "box", Raw: json.RawMessage(`{"type":"box","id":3}`)}}},
		{"browser", "form_input", `{"target":{"type":"ref","ref":"r"},"value":1.50}`,
			mms.BrowserFormInput{Target: mms.BrowserRefTarget{Ref: "r"}, Value: rawFormValue(t, `1.50`)}},
		{"browser", "form_input", `{"target":{"type":"ref","ref":"r"},"value":false}`,
			mms.BrowserFormInput{Target: mms.BrowserRefTarget{Ref: "r"}, Value: mms.FormBool(false)}},
		{"browser", "form_input", `{"target":{"type":"ref","ref":"r"},"value":{"a":1}}`,
			mms.BrowserFormInput{Target: mms.BrowserRefTarget{Ref: "r"}, Value: rawFormValue(t, `{"a":1}`)}},
		{"browser", "form_input", `{"target":{"type":"ref","ref":"r"}}`,
			mms.BrowserFormInput{Target: mms.BrowserRefTarget{Ref: "r"}, Extra: map[string]json.RawMessage{"value": nil}}},
		{"browser", "scroll", `{"target":null,"scroll_direction":"up"}`,
			mms.BrowserScroll{ScrollDirection: mms.ScrollUp}},
		{"browser", "read_page", `{"depth":0,"filter":"all","tab_id":null}`,
			mms.BrowserReadPage{Depth: mms.Ptr(0), Filter: mms.ReadPageFilterAll, Extra: map[string]json.RawMessage{"tab_id": json.RawMessage(`null`)}}},
		{"browser", "wait", `{"duration":0.25}`, mms.BrowserWait{Duration: 0.25}},
		{"browser", "list_tabs", `{}`, mms.BrowserListTabs{}},
		{"browser", "close_tab", `{"tab_id":"t2"}`, mms.BrowserCloseTab{TabID: "t2"}},
		{"browser", "print", `{"copies":2}`, mms.UnknownBrowserAction{Type: "print", Raw: json.RawMessage(`{"copies":2}`)}},
	}
	for _, tt := range tests {
		t.Run(tt.toolset+"/"+tt.name, func(t *testing.T) {
			b := mms.ToolUseBlock{ID: "toolu_1", Name: tt.name, Input: json.RawMessage(tt.in), ToolsetName: tt.toolset}
			var got any
			var err error
			if tt.toolset == "computer" {
				got, err = b.ComputerAction()
			} else {
				got, err = b.BrowserAction()
			}
			require.NoError(t, err)
			if d := cmp.Diff(tt.want, got, rawEq, formValueEq); d != "" {
				t.Fatalf("(-want +got):\n%s", d)
			}
			out, err := json.Marshal(got)
			require.NoError(t, err)
			require.Equal(t, tt.in, string(out))
		})
	}
}

func rawFormValue(t *testing.T, raw string) mms.BrowserFormValue {
	t.Helper()
	var v mms.BrowserFormValue
	require.NoError(t, json.Unmarshal([]byte(raw), &v))
	return v
}

// TestToolsetActionDecodeErrors: the typed view needs a call of that
// toolset with an object input of the action's member types.
func TestToolsetActionDecodeErrors(t *testing.T) {
	tests := []struct {
		name    string
		block   mms.ToolUseBlock
		browser bool
		want    string
	}{
		{"no toolset", mms.ToolUseBlock{ID: "a", Name: "screenshot", Input: json.RawMessage(`{}`)}, false, "not a call of the computer toolset"},
		{"other toolset", mms.ToolUseBlock{ID: "a", Name: "screenshot", Input: json.RawMessage(`{}`), ToolsetName: "computer"}, true, "not a call of the browser toolset"},
		{"array input", mms.ToolUseBlock{ID: "a", Name: "screenshot", Input: json.RawMessage(`[]`), ToolsetName: "computer"}, false, "not a JSON object"},
		{"null input", mms.ToolUseBlock{ID: "a", Name: "screenshot", Input: json.RawMessage(`null`), ToolsetName: "browser"}, true, "not a JSON object"},
		{"malformed", mms.ToolUseBlock{ID: "a", Name: "type", Input: json.RawMessage(`{"text":`), ToolsetName: "computer"}, false, "computer action"},
		{"malformed unknown", mms.ToolUseBlock{ID: "a", Name: "fly", Input: json.RawMessage(`{"x":}`), ToolsetName: "browser"}, true, "browser action"},
		{"wrong member type", mms.ToolUseBlock{ID: "a", Name: "mouse_move", Input: json.RawMessage(`{"coordinate":"1,2"}`), ToolsetName: "computer"}, false, "coordinate"},
		{"float coordinate", mms.ToolUseBlock{ID: "a", Name: "left_click", Input: json.RawMessage(`{"coordinate":[1.5,2]}`), ToolsetName: "computer"}, false, "coordinate"},
		{"target not an object", mms.ToolUseBlock{ID: "a", Name: "hover", Input: json.RawMessage(`{"target":"ref_1"}`), ToolsetName: "browser"}, true, "target"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.browser {
				_, err = tt.block.BrowserAction()
			} else {
				_, err = tt.block.ComputerAction()
			}
			require.ErrorContains(t, err, tt.want)
		})
	}
}

type validateCase struct {
	name   string
	action interface{ Validate() error }
	field  string // "" when valid
}

// TestComputerActionValidate: each rule of the computer actions, on both
// sides.
func TestComputerActionValidate(t *testing.T) {
	dec := func(name, in string) mms.ComputerAction {
		a, err := mms.ToolUseBlock{ID: "a", Name: name, Input: json.RawMessage(in), ToolsetName: "computer"}.ComputerAction()
		require.NoError(t, err)
		return a
	}
	runValidate(t, []validateCase{
		{"screenshot empty", mms.ComputerScreenshot{}, ""},
		{"screenshot with input", dec("screenshot", `{"x":1}`), "input.x"},
		{"cursor_position with input", mms.ComputerCursorPosition{Extra: map[string]json.RawMessage{"a": json.RawMessage(`1`)}}, "input.a"},
		{"left_mouse_down empty", mms.ComputerLeftMouseDown{}, ""},
		{"left_mouse_up with input", dec("left_mouse_up", `{"b":1,"a":2}`), "input.a"},
		{"click no coordinate", mms.ComputerLeftClick{}, ""},
		{"click coordinate 2", mms.ComputerRightClick{Coordinate: []int{0, 0}}, ""},
		{"click coordinate 1", mms.ComputerMiddleClick{Coordinate: []int{5}}, "input.coordinate"},
		{"click coordinate 3", mms.ComputerDoubleClick{Coordinate: []int{1, 2, 3}}, "input.coordinate"},
		{"click coordinate negative", mms.ComputerTripleClick{Coordinate: []int{-1, 2}}, "input.coordinate[0]"},
		{"mouse_move coordinate", mms.ComputerMouseMove{Coordinate: []int{3, 4}}, ""},
		{"mouse_move no coordinate", mms.ComputerMouseMove{}, "input.coordinate"},
		{"drag both", mms.ComputerLeftClickDrag{StartCoordinate: []int{1, 1}, Coordinate: []int{2, 2}}, ""},
		{"drag no start", mms.ComputerLeftClickDrag{Coordinate: []int{2, 2}}, "input.start_coordinate"},
		{"drag no end", mms.ComputerLeftClickDrag{StartCoordinate: []int{2, 2}}, "input.coordinate"},
		{"scroll down", mms.ComputerScroll{ScrollDirection: mms.ScrollDown, ScrollAmount: 3}, ""},
		{"scroll left 0", mms.ComputerScroll{ScrollDirection: mms.ScrollLeft}, ""},
		{"scroll up", mms.ComputerScroll{ScrollDirection: mms.ScrollUp, ScrollAmount: 1}, ""},
		{"scroll right", mms.ComputerScroll{ScrollDirection: mms.ScrollRight, ScrollAmount: 1}, ""},
		{"scroll sideways", mms.ComputerScroll{ScrollDirection: "sideways", ScrollAmount: 1}, "input.scroll_direction"},
		{"scroll no direction", mms.ComputerScroll{ScrollAmount: 1}, "input.scroll_direction"},
		{"scroll amount -1", mms.ComputerScroll{ScrollDirection: mms.ScrollUp, ScrollAmount: -1}, "input.scroll_amount"},
		{"scroll amount absent", dec("scroll", `{"scroll_direction":"up"}`), "input.scroll_amount"},
		{"scroll amount null", dec("scroll", `{"scroll_direction":"up","scroll_amount":null}`), "input.scroll_amount"},
		{"scroll coordinate 1", mms.ComputerScroll{ScrollDirection: mms.ScrollUp, Coordinate: []int{1}}, "input.coordinate"},
		{"type text", mms.ComputerType{Text: "x"}, ""},
		{"type no text", mms.ComputerType{}, "input.text"},
		{"key", mms.ComputerKey{Text: "Return"}, ""},
		{"key no text", mms.ComputerKey{Repeat: mms.Ptr(1)}, "input.text"},
		{"key repeat 1", mms.ComputerKey{Text: "a", Repeat: mms.Ptr(1)}, ""},
		{"key repeat 0", mms.ComputerKey{Text: "a", Repeat: mms.Ptr(0)}, "input.repeat"},
		{"hold_key", mms.ComputerHoldKey{Text: "shift", Duration: 0}, ""},
		{"hold_key no text", mms.ComputerHoldKey{Duration: 1}, "input.text"},
		{"hold_key duration -1", mms.ComputerHoldKey{Text: "shift", Duration: -1}, "input.duration"},
		{"hold_key no duration", dec("hold_key", `{"text":"shift"}`), "input.duration"},
		{"wait 0", mms.ComputerWait{}, ""},
		{"wait -1", mms.ComputerWait{Duration: -1}, "input.duration"},
		{"wait no duration", dec("wait", `{}`), "input.duration"},
		{"zoom 4", mms.ComputerZoom{Region: []int{0, 0, 1, 1}}, ""},
		{"zoom 3", mms.ComputerZoom{Region: []int{0, 0, 1}}, "input.region"},
		{"zoom 5", mms.ComputerZoom{Region: []int{0, 0, 1, 1, 1}}, "input.region"},
		{"zoom none", mms.ComputerZoom{}, "input.region"},
		{"unknown", mms.UnknownComputerAction{Type: "x", Raw: json.RawMessage(`{}`)}, ""},
	})
}

// TestBrowserActionValidate: each rule of the browser actions, on both
// sides.
func TestBrowserActionValidate(t *testing.T) {
	dec := func(name, in string) mms.BrowserAction {
		a, err := mms.ToolUseBlock{ID: "a", Name: name, Input: json.RawMessage(in), ToolsetName: "browser"}.BrowserAction()
		require.NoError(t, err)
		return a
	}
	pt := mms.BrowserCoordinateTarget{X: 1, Y: 2}
	ref := mms.BrowserRefTarget{Ref: "ref_1"}
	runValidate(t, []validateCase{
		{"navigate", mms.BrowserNavigate{URL: "https://a.example/"}, ""},
		{"navigate no url", mms.BrowserNavigate{TabID: "t"}, "input.url"},
		{"click ref", mms.BrowserLeftClick{Target: ref}, ""},
		{"click coordinate", mms.BrowserRightClick{Target: pt, Modifiers: "shift"}, ""},
		{"click no target", mms.BrowserMiddleClick{}, "input.target"},
		{"click unknown target", mms.BrowserDoubleClick{Target: mms.UnknownBrowserTarget{Type: "box", Raw: json.RawMessage(`{"type":"box"}`)}}, ""},
		{"click empty ref", mms.BrowserTripleClick{Target: mms.BrowserRefTarget{}}, "input.target.ref"},
		{"hover negative", mms.BrowserHover{Target: mms.BrowserCoordinateTarget{X: -1, Y: 0}}, "input.target"},
		{"hover zero", mms.BrowserHover{Target: mms.BrowserCoordinateTarget{}}, ""},
		{"hover no y", dec("hover", `{"target":{"type":"coordinate","x":1}}`), "input.target"},
		{"drag coordinates", mms.BrowserLeftClickDrag{From: pt, Target: pt}, ""},
		{"drag from ref", mms.BrowserLeftClickDrag{From: ref, Target: pt}, "input.from.type"},
		{"drag to ref", mms.BrowserLeftClickDrag{From: pt, Target: ref}, "input.target.type"},
		{"drag no from", mms.BrowserLeftClickDrag{Target: pt}, "input.from"},
		{"mouse down coordinate", mms.BrowserLeftMouseDown{Target: pt}, ""},
		{"mouse up ref", mms.BrowserLeftMouseUp{Target: ref}, "input.target.type"},
		{"mouse move unknown", mms.BrowserMouseMove{Target: mms.UnknownBrowserTarget{Type: "box", Raw: json.RawMessage(`{"type":"box"}`)}}, "input.target.type"},
		{"scroll", mms.BrowserScroll{Target: pt, ScrollDirection: mms.ScrollDown}, ""},
		{"scroll amount 0", mms.BrowserScroll{Target: pt, ScrollDirection: mms.ScrollDown, ScrollAmount: mms.Ptr(0)}, ""},
		{"scroll amount -1", mms.BrowserScroll{Target: pt, ScrollDirection: mms.ScrollDown, ScrollAmount: mms.Ptr(-1)}, "input.scroll_amount"},
		{"scroll bad direction", mms.BrowserScroll{Target: pt, ScrollDirection: "back"}, "input.scroll_direction"},
		{"scroll ref", mms.BrowserScroll{Target: ref, ScrollDirection: mms.ScrollUp}, "input.target.type"},
		{"scroll_to ref", mms.BrowserScrollTo{Target: ref}, ""},
		{"scroll_to coordinate", mms.BrowserScrollTo{Target: pt}, "input.target.type"},
		{"type", mms.BrowserType{Text: "x"}, ""},
		{"type empty", mms.BrowserType{}, "input.text"},
		{"key repeat 1", mms.BrowserKey{Text: "a", Repeat: mms.Ptr(1)}, ""},
		{"key repeat 0", mms.BrowserKey{Text: "a", Repeat: mms.Ptr(0)}, "input.repeat"},
		{"key no text", mms.BrowserKey{}, "input.text"},
		{"hold_key", mms.BrowserHoldKey{Text: "a", Duration: 0.5}, ""},
		{"hold_key negative", mms.BrowserHoldKey{Text: "a", Duration: -0.5}, "input.duration"},
		{"hold_key no text", mms.BrowserHoldKey{Duration: 1}, "input.text"},
		{"wait 0", mms.BrowserWait{}, ""},
		{"wait absent", dec("wait", `{"tab_id":"t"}`), "input.duration"},
		{"zoom", mms.BrowserZoom{Region: []int{1, 2, 3, 4}}, ""},
		{"zoom 2", mms.BrowserZoom{Region: []int{1, 2}}, "input.region"},
		{"find", mms.BrowserFind{Query: "q"}, ""},
		{"find empty", mms.BrowserFind{}, "input.query"},
		{"form string", mms.BrowserFormInput{Target: ref, Value: mms.FormString("")}, ""},
		{"form number", mms.BrowserFormInput{Target: ref, Value: mms.FormNumber(-2.5)}, ""},
		{"form bool", mms.BrowserFormInput{Target: ref, Value: mms.FormBool(true)}, ""},
		{"form no value", mms.BrowserFormInput{Target: ref}, "input.value"},
		{"form NaN", mms.BrowserFormInput{Target: ref, Value: mms.FormNumber(math.NaN())}, "input.value"},
		{"form null", dec("form_input", `{"target":{"type":"ref","ref":"r"},"value":null}`), "input.value"},
		{"form object", dec("form_input", `{"target":{"type":"ref","ref":"r"},"value":{}}`), "input.value"},
		{"form array", dec("form_input", `{"target":{"type":"ref","ref":"r"},"value":[1]}`), "input.value"},
		{"form coordinate", mms.BrowserFormInput{Target: pt, Value: mms.FormBool(true)}, "input.target.type"},
		{"upload", mms.BrowserFileUpload{Target: ref, Paths: []string{"/a"}}, ""},
		{"upload coordinate", mms.BrowserFileUpload{Target: pt}, "input.target.type"},
		{"javascript", mms.BrowserJavaScriptExec{Text: "1"}, ""},
		{"javascript empty", mms.BrowserJavaScriptExec{}, "input.text"},
		{"read_page", mms.BrowserReadPage{}, ""},
		{"read_page interactive depth 0", mms.BrowserReadPage{Filter: mms.ReadPageFilterInteractive, Depth: mms.Ptr(0)}, ""},
		{"read_page all", mms.BrowserReadPage{Filter: mms.ReadPageFilterAll}, ""},
		{"read_page filter", mms.BrowserReadPage{Filter: "visible"}, "input.filter"},
		{"read_page depth -1", mms.BrowserReadPage{Depth: mms.Ptr(-1)}, "input.depth"},
		{"get_page_text", mms.BrowserGetPageText{TabID: "t"}, ""},
		{"read_console", mms.BrowserReadConsole{}, ""},
		{"read_network", mms.BrowserReadNetwork{}, ""},
		{"screenshot", mms.BrowserScreenshot{}, ""},
		{"list_tabs", mms.BrowserListTabs{}, ""},
		{"list_tabs tab_id", dec("list_tabs", `{"tab_id":"t"}`), "input.tab_id"},
		{"new_tab", mms.BrowserNewTab{}, ""},
		{"new_tab url", dec("new_tab", `{"url":"https://a.example/"}`), "input.url"},
		{"close_tab", mms.BrowserCloseTab{TabID: "t"}, ""},
		{"close_tab no tab", mms.BrowserCloseTab{}, "input.tab_id"},
		{"switch_tab", mms.BrowserSwitchTab{TabID: "t"}, ""},
		{"switch_tab no tab", dec("switch_tab", `{}`), "input.tab_id"},
		{"unknown", mms.UnknownBrowserAction{Type: "x", Raw: json.RawMessage(`{}`)}, ""},
	})
}

func runValidate(t *testing.T, cases []validateCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.action.Validate()
			if tt.field == "" {
				require.NoError(t, err)
				return
			}
			var ve *mms.ValidationError
			require.True(t, errors.As(err, &ve), "got %v", err)
			require.Equal(t, tt.field, ve.Field, ve.Error())
			require.ErrorIs(t, err, mms.ErrInvalidParams)
		})
	}
}

// TestToolsetToolUse: a block built from an action carries its action,
// toolset and input, and decodes back to the action; invalid actions and
// unnamed unknown ones are refused.
func TestToolsetToolUse(t *testing.T) {
	b, err := mms.ComputerToolUse("toolu_1", mms.ComputerLeftClick{Coordinate: []int{3, 4}})
	require.NoError(t, err)
	require.Equal(t, mms.ToolUseBlock{ID: "toolu_1", Name: "left_click", Input: json.RawMessage(`{"coordinate":[3,4]}`), ToolsetName: "computer"}, b)
	a, err := b.ComputerAction()
	require.NoError(t, err)
	require.Equal(t, mms.ComputerLeftClick{Coordinate: []int{3, 4}}, a)

	b, err = mms.BrowserToolUse("toolu_2", mms.BrowserFormInput{TabID: "t", Target: mms.BrowserRefTarget{Ref: "r"}, Value: mms.FormNumber(2)})
	require.NoError(t, err)
	require.Equal(t, "form_input", b.Name)
	require.Equal(t, "browser", b.ToolsetName)
	require.Equal(t, `{"tab_id":"t","target":{"type":"ref","ref":"r"},"value":2}`, string(b.Input))
	ba, err := b.BrowserAction()
	require.NoError(t, err)
	n, ok := ba.(mms.BrowserFormInput).Value.AsNumber()
	require.True(t, ok)
	require.Equal(t, json.Number("2"), n)

	b, err = mms.BrowserToolUse("toolu_3", mms.UnknownBrowserAction{Type: "print", Raw: json.RawMessage(`{"copies":1}`)})
	require.NoError(t, err)
	require.Equal(t, "print", b.Name)
	require.Equal(t, `{"copies":1}`, string(b.Input))

	_, err = mms.BrowserToolUse("toolu_4", mms.UnknownBrowserAction{Raw: json.RawMessage(`{}`)})
	require.ErrorIs(t, err, mms.ErrInvalidParams)
	_, err = mms.ComputerToolUse("toolu_5", mms.ComputerZoom{Region: []int{1}})
	require.ErrorIs(t, err, mms.ErrInvalidParams)
	_, err = mms.ComputerToolUse("toolu_6", nil)
	require.Error(t, err)
	_, err = mms.ComputerToolUse("toolu_6", (*mms.ComputerWait)(nil))
	require.Error(t, err)
	b, err = mms.ComputerToolUse("toolu_8", &mms.ComputerWait{Duration: 2})
	require.NoError(t, err)
	require.Equal(t, mms.ToolUseBlock{ID: "toolu_8", Name: "wait", Input: json.RawMessage(`{"duration":2}`), ToolsetName: "computer"}, b)
	_, err = mms.BrowserToolUse("toolu_7", mms.UnknownBrowserAction{Type: "print"})
	require.Error(t, err) // no Raw to write
}

// TestBrowserFormValue: the three kinds are told apart, and a number keeps
// its text.
func TestBrowserFormValue(t *testing.T) {
	s, ok := mms.FormString("a\"b").AsString()
	require.True(t, ok)
	require.Equal(t, "a\"b", s)
	_, ok = mms.FormString("1").AsNumber()
	require.False(t, ok)
	bv, ok := mms.FormBool(true).AsBool()
	require.True(t, ok)
	require.True(t, bv)
	_, ok = mms.FormBool(false).AsString()
	require.False(t, ok)
	n, ok := rawFormValue(t, `1.50e3`).AsNumber()
	require.True(t, ok)
	require.Equal(t, json.Number("1.50e3"), n)
	_, ok = mms.FormNumber(1).AsBool()
	require.False(t, ok)
	require.Nil(t, mms.FormNumber(math.Inf(1)).Raw())
	var zero mms.BrowserFormValue
	out, err := json.Marshal(zero)
	require.NoError(t, err)
	require.Equal(t, `null`, string(out))
}

// TestToolsetFixtureCoversEveryAction: the golden toolset message holds a
// call of every action of both toolsets; each decodes to a known action
// that passes Validate and re-encodes to its input.
func TestToolsetFixtureCoversEveryAction(t *testing.T) {
	var m mms.Message
	require.NoError(t, json.Unmarshal(fixtures.Read(t, fixtures.Project(t, "golden/messages/toolset_calls.json")[0]), &m))
	seen := map[string]bool{}
	for _, c := range m.Content {
		b, ok := c.(mms.ToolUseBlock)
		if !ok {
			continue
		}
		var a interface {
			json.Marshaler
			Validate() error
		}
		var err error
		switch b.ToolsetName {
		case "computer":
			var ca mms.ComputerAction
			ca, err = b.ComputerAction()
			_, unknown := ca.(mms.UnknownComputerAction)
			require.False(t, unknown, b.Name)
			a = ca
		case "browser":
			var ba mms.BrowserAction
			ba, err = b.BrowserAction()
			_, unknown := ba.(mms.UnknownBrowserAction)
			require.False(t, unknown, b.Name)
			a = ba
		default:
			continue
		}
		require.NoError(t, err, b.Name)
		require.NoError(t, a.Validate(), b.Name)
		out, err := a.MarshalJSON()
		require.NoError(t, err)
		require.JSONEq(t, string(b.Input), string(out))
		seen[b.ToolsetName+"/"+b.Name] = true
	}
	var want []string
	for _, m := range computerMembers {
		want = append(want, "computer/"+m)
	}
	for _, m := range browserMembers {
		want = append(want, "browser/"+m)
	}
	for _, w := range want {
		require.True(t, seen[w], "no call of %s in the fixture", w)
	}
	require.Len(t, seen, len(want))
}

var (
	computerMembers = []string{"cursor_position", "double_click", "hold_key", "key", "left_click", "left_click_drag",
		"left_mouse_down", "left_mouse_up", "middle_click", "mouse_move", "right_click", "screenshot", "scroll",
		"triple_click", "type", "wait", "zoom"}
	browserMembers = []string{"close_tab", "double_click", "file_upload", "find", "form_input", "get_page_text",
		"hold_key", "hover", "javascript_exec", "key", "left_click", "left_click_drag", "left_mouse_down",
		"left_mouse_up", "list_tabs", "middle_click", "mouse_move", "navigate", "new_tab", "read_console",
		"read_network", "read_page", "right_click", "screenshot", "scroll", "scroll_to", "switch_tab",
		"triple_click", "type", "wait", "zoom"}
)

// FuzzToolsetAction: any input decodes as any action or fails cleanly, and
// what decodes marshals to JSON that decodes to the same action.
func FuzzToolsetAction(f *testing.F) {
	for _, s := range []struct {
		browser    bool
		name, data string
	}{
		{false, "left_click", `{"coordinate":[1,2],"text":"shift","z":null}`},
		{false, "scroll", `{"scroll_direction":"up","scroll_amount":3}`},
		{false, "fly", `{"to":1}`},
		{true, "form_input", `{"target":{"type":"ref","ref":"r"},"value":1.0}`},
		{true, "left_click_drag", `{"from":{"type":"coordinate","x":1,"y":2},"target":{"type":"box"}}`},
		{true, "read_page", `{"depth":null,"filter":"all"}`},
	} {
		f.Add(s.browser, s.name, []byte(s.data))
	}
	f.Fuzz(func(t *testing.T, browser bool, name string, data []byte) {
		b := mms.ToolUseBlock{ID: "toolu_f", Name: name, Input: data, ToolsetName: "computer"}
		decode := func(b mms.ToolUseBlock) (json.Marshaler, error) { return b.ComputerAction() }
		if browser {
			b.ToolsetName = "browser"
			decode = func(b mms.ToolUseBlock) (json.Marshaler, error) { return b.BrowserAction() }
		}
		a, err := decode(b)
		if err != nil {
			return
		}
		_ = a.(interface{ Validate() error }).Validate() // never panics
		out, err := a.MarshalJSON()
		require.NoError(t, err)
		b.Input = out
		again, err := decode(b)
		require.NoError(t, err)
		out2, err := again.MarshalJSON()
		require.NoError(t, err)
		require.Equal(t, string(out), string(out2))
	})
}
