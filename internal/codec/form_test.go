package codec

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/stretchr/testify/require"
)

// formRecord has a member of every kind whose decoded form the codec keeps:
// always-written members (nullable or not), optional ones, timestamps.
type formRecord struct {
	P     *int                       `json:"p"`
	N     int                        `json:"n"`
	S     string                     `json:"s"`
	Sub   formSub                    `json:"sub"`
	L     []int                      `json:"l"`
	O     *int                       `json:"o,omitzero"`
	T     time.Time                  `json:"t"`
	TP    *time.Time                 `json:"tp"`
	TO    time.Time                  `json:"to,omitzero"`
	Extra map[string]json.RawMessage `json:"-"`
}

type formSub struct {
	A     int                        `json:"a"`
	Extra map[string]json.RawMessage `json:"-"`
}

// formVariant is a variant whose "type" the request form leaves out; its
// union's Unknown variant too.
type formVariant struct {
	On    bool                       `json:"on,omitzero"`
	Extra map[string]json.RawMessage `json:"-"`
}

type formUnion interface{ isFormUnion() }

func (formVariant) isFormUnion() {}

type unknownForm struct {
	Type string
	Raw  json.RawMessage
}

func (unknownForm) isFormUnion() {}

var formUnionTable = NewUnion[formUnion]("formUnion", unknownForm{}).
	AddSpec("v", formVariant{}, Spec{Const: map[string]string{"name": "v"}, RequestOmitsType: true})

func init() {
	Objects(formRecord{}, formSub{})
	Register(unknownForm{}, Spec{RequestOmitsType: true})
}

// full is a formRecord with every member, in the encoder's order and form.
const full = `{"p":1,"n":2,"s":"x","sub":{"a":3},"l":[4],"o":5,"t":"2026-01-02T03:04:05.5Z","tp":"2026-01-02T03:04:05Z","to":"2026-01-02T03:04:05+02:00"}`

// TestDecodedFormKept: a decoded record encodes, in both modes, to the
// bytes it came from: absent members stay absent, nulls stay null,
// timestamps keep their text. A record that came in the encoder's own form
// keeps nothing in Extra.
func TestDecodedFormKept(t *testing.T) {
	for _, in := range []string{
		full,
		`{}`,
		`{"n":0,"s":"","sub":{"a":0},"l":null,"t":"0001-01-01T00:00:00Z","tp":null}`,
		`{"p":null,"n":null,"s":null,"sub":null,"l":null,"t":null,"tp":null,"o":null,"to":null}`, // remembered optional zeros come last,
		`{"sub":{},"t":"2026-01-02T03:04:05.0Z","tp":"2026-01-02T03:04:05.000000000Z","to":"2026-01-02T01:04:05+00:00"}`,
		`{"s":"only","tp":"2026-01-02T03:04:05.10-07:00","to":"0001-01-01T00:00:00.0Z"}`,
	} {
		t.Run(in, func(t *testing.T) {
			v, err := Decode[formRecord]([]byte(in))
			require.NoError(t, err)
			for _, marshal := range []func(any) ([]byte, error){Marshal, MarshalRequest} {
				out, err := marshal(v)
				require.NoError(t, err)
				require.Equal(t, in, string(out))
			}
			again, err := Decode[formRecord]([]byte(in))
			require.NoError(t, err)
			if d := cmp.Diff(v, again); d != "" {
				t.Errorf("decode(encode(decode(x))) differs (-first +again):\n%s", d)
			}
		})
	}
	v, err := Decode[formRecord]([]byte(full))
	require.NoError(t, err)
	if v.Extra != nil || v.Sub.Extra != nil {
		t.Errorf("a record in the encoder's form kept %v, %v", v.Extra, v.Sub.Extra)
	}
}

// TestDecodedFormRecords pins what Extra holds: an empty value for an
// absent always-written member, the text of a null a field cannot hold and
// of a timestamp not in the encoder's form.
func TestDecodedFormRecords(t *testing.T) {
	v, err := Decode[formRecord]([]byte(`{"n":null,"t":"2026-01-02T03:04:05.0Z","tp":"2026-01-02T03:04:05Z","future":1}`))
	require.NoError(t, err)
	want := map[string]json.RawMessage{
		"p": nil, "s": nil, "sub": nil, "l": nil, // absent
		"n":      json.RawMessage("null"),
		"t":      json.RawMessage(`"2026-01-02T03:04:05.0Z"`),
		"future": json.RawMessage("1"),
	}
	if d := cmp.Diff(want, v.Extra); d != "" {
		t.Errorf("Extra (-want +got):\n%s", d)
	}
}

// TestDecodedFormYieldsToChanges: a field set after decoding is written as
// it now is; a timestamp changed to another instant or offset is written in
// the encoder's form, and one cleared is left out.
func TestDecodedFormYieldsToChanges(t *testing.T) {
	v, err := Decode[formRecord]([]byte(`{"n":null,"t":"2026-01-02T03:04:05.0Z","tp":"2026-01-02T03:04:05.0Z","to":"2026-01-02T03:04:05.0Z"}`))
	require.NoError(t, err)
	v.P, v.N, v.S, v.Sub.A, v.L = new(int), 7, "s", 1, []int{}
	v.T = v.T.Add(time.Second)
	v.TP = new(time.Time)
	*v.TP = time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("", 3600)).In(time.FixedZone("", 3600))
	v.TO = time.Time{}
	out, err := Marshal(v)
	require.NoError(t, err)
	require.Equal(t, `{"p":0,"n":7,"s":"s","sub":{"a":1},"l":[],"t":"2026-01-02T03:04:06Z","tp":"2026-01-02T03:04:05+01:00"}`, string(out))

	// The same instant in the same offset keeps the text.
	v, err = Decode[formRecord]([]byte(`{"t":"2026-01-02T03:04:05.0Z"}`))
	require.NoError(t, err)
	v.T = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	out, err = Marshal(v)
	require.NoError(t, err)
	require.Equal(t, `{"t":"2026-01-02T03:04:05.0Z"}`, string(out))
}

// TestBuiltFormUnchanged: a value built in code (no Extra) encodes as
// before: every always-written member, null or zero.
func TestBuiltFormUnchanged(t *testing.T) {
	out, err := Marshal(formRecord{T: time.Date(2026, 1, 2, 3, 4, 5, 500_000_000, time.UTC)})
	require.NoError(t, err)
	require.Equal(t, `{"p":null,"n":0,"s":"","sub":{"a":0},"l":null,"t":"2026-01-02T03:04:05.5Z","tp":null}`, string(out))
}

// TestRequestOmitsType: the request form of a variant registered with
// RequestOmitsType, and of its union's Unknown variant, has no "type"; the
// response form has it.
func TestRequestOmitsType(t *testing.T) {
	type holder struct {
		Items []formUnion `json:"items"`
	}
	for _, in := range []string{
		`{"items":[{"type":"v","name":"v","on":true},{"type":"w","name":"w","x":[1]}]}`,
		`{"items":[{"name":"v","type":"v"},{"x":1,"type":"w","name":"w"}]}`,
	} {
		var h holder
		v, err := formUnionTable.DecodeList(Member([]byte(in), "items"))
		require.NoError(t, err)
		h.Items = v
		resp, err := Marshal(h)
		require.NoError(t, err)
		req, err := MarshalRequest(h)
		require.NoError(t, err)
		var a, b any
		require.NoError(t, json.Unmarshal(resp, &a))
		require.NoError(t, json.Unmarshal([]byte(in), &b))
		if d := cmp.Diff(b, a); d != "" {
			t.Errorf("response form (-in +out):\n%s", d)
		}
		var items []map[string]any
		require.NoError(t, json.Unmarshal(Member(req, "items"), &items))
		for i, m := range items {
			if _, ok := m["type"]; ok {
				t.Errorf("request form item %d has a type: %s", i, req)
			}
			if m["name"] == nil {
				t.Errorf("request form item %d lost its name: %s", i, req)
			}
		}
	}
}

// FuzzDecodedForm: whatever decodes as a formRecord encodes to the same
// JSON value (members and values, order and space aside), and decoding
// that gives the same record.
func FuzzDecodedForm(f *testing.F) {
	for _, s := range []string{full, `{}`, `{"n":null,"t":"2026-01-02T03:04:05.0Z","x":[1]}`,
		`{"tp":"2026-01-02T03:04:05.10-07:00","to":"0001-01-01T00:00:00.0Z","sub":{"b":1}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) || !utf8.Valid(data) {
			return // (invalid UTF-8 is replaced, not kept)
		}
		v, err := Decode[formRecord](data)
		if err != nil {
			return
		}
		var in any
		if json.Unmarshal(data, &in) != nil {
			return
		}
		if _, ok := in.(map[string]any); !ok || repeatsMember(data) {
			return // null, or a repeated member (the last wins, unless it is a null a field ignores)
		}
		out, err := Marshal(v)
		if err != nil {
			t.Fatalf("encode of decoded %q: %v", data, err)
		}
		var got any
		require.NoError(t, json.Unmarshal(out, &got))
		if d := cmp.Diff(in, got); d != "" {
			t.Fatalf("%s re-encodes as %s (-in +out):\n%s", data, out, d)
		}
		again, err := Decode[formRecord](out)
		require.NoError(t, err)
		if d := cmp.Diff(v, again); d != "" {
			t.Fatalf("decode(encode(decode(%s))) differs (-first +again):\n%s", data, d)
		}
	})
}

// repeatsMember reports whether an object in the JSON value data has two
// members of one name.
func repeatsMember(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		names  map[string]bool
		object bool
		key    bool // the next token is a name
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		top := len(stack) - 1
		isKey := top >= 0 && stack[top].object && stack[top].key
		if top >= 0 && stack[top].object {
			stack[top].key = !stack[top].key
		}
		switch tok := tok.(type) {
		case json.Delim:
			switch tok {
			case '{':
				stack = append(stack, frame{names: map[string]bool{}, object: true, key: true})
			case '[':
				stack = append(stack, frame{})
			default:
				stack = stack[:len(stack)-1]
				if n := len(stack) - 1; n >= 0 && stack[n].object {
					stack[n].key = true
				}
			}
		case string:
			if isKey {
				if stack[top].names[tok] {
					return true
				}
				stack[top].names[tok] = true
			}
		}
	}
}

// TestRepeatedMemberKeepsLast: a member repeated in an object is kept in
// Extra with its last value, also when the keeper's pending slots are full.
func TestRepeatedMemberKeepsLast(t *testing.T) {
	v, err := Decode[formSub]([]byte(`{"a":1,"u1":1,"u2":1,"u3":1,"x":1,"x":2,"u4":1}`))
	require.NoError(t, err)
	want := map[string]json.RawMessage{"u1": json.RawMessage("1"), "u2": json.RawMessage("1"), "u3": json.RawMessage("1"),
		"x": json.RawMessage("2"), "u4": json.RawMessage("1")}
	if d := cmp.Diff(want, v.Extra); d != "" {
		t.Errorf("Extra (-want +got):\n%s", d)
	}
}
