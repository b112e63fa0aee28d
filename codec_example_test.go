package mms

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/internal/codec"

	"github.com/stretchr/testify/require"
)

// The worked example of ARCHITECTURE.md ("Unions and the codec"): a union
// with two variants and its Unknown variant, declared in a handful of
// lines. Everything else (decoding by "type", Extra, the request form, the
// Unknown fallback, fields of the union type in other structs) is the
// codec's.

// A Shape is a test-only union.
type Shape interface {
	json.Marshaler
	isShape()
}

var shapeUnion = codec.NewUnion[Shape]("Shape", UnknownShape{}).
	Add("circle", Circle{}).
	Add("square", Square{})

// Circle is a "circle" shape.
type Circle struct {
	Radius float64                    `json:"radius"`
	Label  string                     `json:"label,omitzero"`
	Seen   string                     `json:"seen,omitzero" mms:"response"`
	Extra  map[string]json.RawMessage `json:"-"`
}

func (Circle) isShape()                           {}
func (c Circle) MarshalJSON() ([]byte, error)     { return marshalJSON(c) }
func (c *Circle) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, c) }

// Square is a "square" shape.
type Square struct {
	Side  float64                    `json:"side"`
	Extra map[string]json.RawMessage `json:"-"`
}

func (Square) isShape()                           {}
func (s Square) MarshalJSON() ([]byte, error)     { return marshalJSON(s) }
func (s *Square) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, s) }

// UnknownShape keeps a shape this version cannot name.
type UnknownShape struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownShape) isShape()                       {}
func (u UnknownShape) MarshalJSON() ([]byte, error) { return marshalJSON(u) }

// drawing holds the union as a field and as a list.
type drawing struct {
	Main   Shape   `json:"main"`
	Others []Shape `json:"others"`
}

func init() { codec.Objects(drawing{}) }

func TestUnionWorkedExample(t *testing.T) {
	in := `{"main":{"type":"circle","radius":2,"label":"","seen":"x","future":1},` +
		`"others":[{"type":"square","side":1},{"type":"hexagon","n":6},null]}`
	var d drawing
	if err := codec.UnmarshalOwned([]byte(in), &d); err != nil {
		t.Fatal(err)
	}
	want := drawing{
		Main: Circle{Radius: 2, Seen: "x", Extra: map[string]json.RawMessage{
			"label": json.RawMessage(`""`), "future": json.RawMessage("1")}},
		Others: []Shape{Square{Side: 1}, UnknownShape{Type: "hexagon", Raw: json.RawMessage(`{"type":"hexagon","n":6}`)}, nil},
	}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Fatalf("decoded (-want +got):\n%s", diff)
	}
	// Response form: everything back, lossless.
	resp, err := codec.Marshal(d)
	require.NoError(t, err)
	requireJSONEqual(t, []byte(in), resp)
	// Request form: no unknown member, no response-only field; the
	// explicit "" stays; an unknown variant goes back raw.
	req, err := codec.MarshalRequest(d)
	require.NoError(t, err)
	requireJSONEqual(t, []byte(`{"main":{"type":"circle","radius":2,"label":""},`+
		`"others":[{"type":"square","side":1},{"type":"hexagon","n":6},null]}`), req)
	// A variant marshalled on its own writes its "type".
	if b, _ := json.Marshal(Square{Side: 3}); string(b) != `{"type":"square","side":3}` {
		t.Errorf("json.Marshal(Square) = %s", b)
	}
	if _, err := shapeUnion.Decode([]byte(`null`)); err == nil {
		t.Error("a null union value decoded without an error")
	}
}
