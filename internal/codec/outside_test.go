package codec

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// outer is a union whose key travels beside the value (Union.Outside), as a
// toolset call's action is its tool_use name.
type outer interface{ isOuter() }

type outerMove struct {
	To    []int                      `json:"to"`
	Extra map[string]json.RawMessage `json:"-"`
}

type outerTyped struct {
	Type  string                     `json:"type"`
	Extra map[string]json.RawMessage `json:"-"`
}

type unknownOuter struct {
	Type string
	Raw  json.RawMessage
}

func (outerMove) isOuter()    {}
func (outerTyped) isOuter()   {}
func (unknownOuter) isOuter() {}

var outerTable = NewUnion[outer]("outer", unknownOuter{}).Outside().Add("move", outerMove{}).Add("typed", outerTyped{})

// TestUnionOutside: DecodeAs decodes by the key it is given, keeps the
// value's own "type" and unknown members as data, writes no key back, and
// gives an unknown key to the Unknown variant; Decode and union fields
// have no key and fail.
func TestUnionOutside(t *testing.T) {
	v, err := outerTable.DecodeAs("move", []byte(`{"to":[1,2],"type":"x","z":null}`))
	require.NoError(t, err)
	require.Equal(t, outerMove{To: []int{1, 2}, Extra: map[string]json.RawMessage{"type": json.RawMessage(`"x"`), "z": json.RawMessage(`null`)}}, v)
	out, err := Marshal(v)
	require.NoError(t, err)
	require.Equal(t, `{"to":[1,2],"type":"x","z":null}`, string(out))

	v, err = outerTable.DecodeAs("typed", []byte(`{"type":"a"}`))
	require.NoError(t, err)
	require.Equal(t, outerTyped{Type: "a"}, v)

	v, err = outerTable.DecodeAs("jump", []byte(`{"h":3}`))
	require.NoError(t, err)
	require.Equal(t, unknownOuter{Type: "jump", Raw: json.RawMessage(`{"h":3}`)}, v)
	out, err = Marshal(v)
	require.NoError(t, err)
	require.Equal(t, `{"h":3}`, string(out))

	for _, bad := range []string{`null`, `{"to":"x"}`} {
		_, err = outerTable.DecodeAs("move", []byte(bad))
		require.Error(t, err, bad)
	}
	_, err = outerTable.DecodeAs("jump", []byte(`{"h":`))
	require.Error(t, err)
	_, err = outerTable.Decode([]byte(`{"to":[1,2]}`))
	require.ErrorContains(t, err, "DecodeAs")
	_, err = Decode[[]outer]([]byte(`[{"to":[1]}]`))
	require.ErrorContains(t, err, "DecodeAs")
	require.Panics(t, func() { NewUnion[interface{ isLateOut() }]("lateOut", unknownLateOut{}).Add("a", lateOutA{}).Outside() })
}

type unknownLateOut struct {
	Type string
	Raw  json.RawMessage
}

type lateOutA struct{}

func (unknownLateOut) isLateOut() {}
func (lateOutA) isLateOut()       {}
