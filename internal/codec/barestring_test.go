package codec

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// named is a union one of whose forms is a bare string (Union.BareString).
type named interface{ isNamed() }

type namedID string

type namedRef struct {
	ID    string                     `json:"id"`
	Extra map[string]json.RawMessage `json:"-"`
}

type unknownNamed struct {
	Type string
	Raw  json.RawMessage
}

func (namedID) isNamed()      {}
func (namedRef) isNamed()     {}
func (unknownNamed) isNamed() {}

var namedTable = NewUnion[named]("named", unknownNamed{}).
	Add("ref", namedRef{}).
	BareString(func(s string) named { return namedID(s) })

// TestUnionBareString: a JSON string decodes to the bare-string variant
// (escapes resolved), an object goes to the table, and a broken string is
// an error.
func TestUnionBareString(t *testing.T) {
	v, err := namedTable.Decode([]byte(`"ag\u0065nt_1"`))
	require.NoError(t, err)
	require.Equal(t, namedID("agent_1"), v)

	v, err = namedTable.Decode([]byte(`{"type":"ref","id":"a"}`))
	require.NoError(t, err)
	require.Equal(t, namedRef{ID: "a"}, v)

	_, err = namedTable.Decode([]byte(`"unterminated`))
	require.Error(t, err)
}
