package codec

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// keyed is a union told apart by "op" (Union.Key) instead of "type".
type keyed interface{ isKeyed() }

type keyedAdd struct {
	N     int                        `json:"n"`
	Extra map[string]json.RawMessage `json:"-"`
}

type unknownKeyed struct {
	Type string
	Raw  json.RawMessage
}

func (keyedAdd) isKeyed()     {}
func (unknownKeyed) isKeyed() {}

var keyedTable = NewUnion[keyed]("keyed", unknownKeyed{}).Key("op").Add("add", keyedAdd{})

// TestUnionKey: a union keyed by another member decodes by it, writes it
// first as a constant, keeps a "type" member as data, and gives an unknown
// value's key to the Unknown variant.
func TestUnionKey(t *testing.T) {
	v, err := keyedTable.Decode([]byte(`{"n":2,"op":"add","type":"x"}`))
	require.NoError(t, err)
	require.Equal(t, keyedAdd{N: 2, Extra: map[string]json.RawMessage{"type": json.RawMessage(`"x"`)}}, v)
	out, err := Marshal(v)
	require.NoError(t, err)
	require.Equal(t, `{"op":"add","n":2,"type":"x"}`, string(out))

	v, err = keyedTable.Decode([]byte(`{"op":"mul","n":3}`))
	require.NoError(t, err)
	require.Equal(t, "mul", v.(unknownKeyed).Type)

	_, err = keyedTable.Decode([]byte(`{"type":"add","n":3}`))
	require.ErrorContains(t, err, `no "op" member`)
	require.Panics(t, func() { NewUnion[interface{ isLate() }]("late", unknownLate{}).Add("a", lateA{}).Key("k") })
}

type unknownLate struct {
	Type string
	Raw  json.RawMessage
}

type lateA struct{}

func (unknownLate) isLate() {}
func (lateA) isLate()       {}
