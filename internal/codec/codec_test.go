package codec

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stretchr/testify/require"
)

func TestEachMember(t *testing.T) {
	tests := []struct {
		in      string
		want    [][2]string
		wantErr bool
	}{
		{`{}`, nil, false},
		{` { "a" : 1 , "b":"x\"y" ,"c":{"d":[1,{"e":"}"}]},"f":null,"g":true}`,
			[][2]string{{"a", "1"}, {"b", `"x\"y"`}, {"c", `{"d":[1,{"e":"}"}]}`}, {"f", "null"}, {"g", "true"}}, false},
		{`{"k\u0065y":"v"}`, [][2]string{{"key", `"v"`}}, false},
		{`{"a":"\\"}`, [][2]string{{"a", `"\\"`}}, false},
		{`[1]`, nil, true},
		{`{"a"}`, nil, true},
		{`{"a":1`, nil, true},
		{`{"a":"unterminated}`, nil, true},
		{`{"a":1 "b":2}`, nil, true},
		{`{"a":}`, nil, true},
		{``, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var got [][2]string
			err := EachMember([]byte(tt.in), func(k string, v []byte) error {
				got = append(got, [2]string{k, string(v)})
				return nil
			})
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !tt.wantErr {
				if d := cmp.Diff(tt.want, got); d != "" {
					t.Errorf("(-want +got):\n%s", d)
				}
			}
		})
	}
}

func TestEachElement(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{`[]`, nil, false},
		{`null`, nil, false},
		{`[1, "a,b", {"x":[2]}, [3]]`, []string{"1", `"a,b"`, `{"x":[2]}`, "[3]"}, false},
		{`{}`, nil, true},
		{`[1,]`, nil, true},
		{`[1`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var got []string
			err := EachElement([]byte(tt.in), func(e []byte) error {
				got = append(got, string(e))
				return nil
			})
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v", err)
			}
			if d := cmp.Diff(tt.want, got); !tt.wantErr && d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestPeekType(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"type":"text","text":"x"}`, "text"},
		{`{"text":"{\"type\":\"no\"}","type":"te\u0078t"}`, "text"},
		{`{"a":{"type":"inner"},"type":"outer"}`, "outer"},
	}
	for _, tt := range tests {
		if got, err := PeekType([]byte(tt.in)); err != nil || got != tt.want {
			t.Errorf("PeekType(%s) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{`{"text":"x"}`, `{"type":3}`, `[]`, `{"type":`} {
		if _, err := PeekType([]byte(bad)); err == nil {
			t.Errorf("PeekType(%s) succeeded", bad)
		}
	}
}

type sample struct {
	Name  string                     `json:"name"`
	Count *int                       `json:"count,omitzero"`
	Extra map[string]json.RawMessage `json:"-"`
	inner
}

type inner struct {
	Deep string `json:"deep,omitzero"`
}

func init() {
	Register(sample{}, Spec{Type: "sample"})
	Objects(optional{})
}

func (s *sample) UnmarshalJSON(data []byte) error { return UnmarshalOwned(data, s) }

func (s sample) MarshalJSON() ([]byte, error) { return MarshalOwned(s) }

func TestObjectRoundTripKeepsUnknownMembers(t *testing.T) {
	in := `{"type":"sample","name":"a<b>","future":{"x":[1,2]},"deep":"d","also":null}`
	s, err := Decode[sample]([]byte(in))
	require.NoError(t, err)
	if s.Name != "a<b>" || s.Deep != "d" || len(s.Extra) != 2 {
		t.Fatalf("decoded %+v", s)
	}
	out, err := Marshal(s)
	require.NoError(t, err)
	if want := `{"type":"sample","name":"a<b>","deep":"d","also":null,"future":{"x":[1,2]}}`; string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	var a, b any
	json.Unmarshal([]byte(in), &a)
	json.Unmarshal(out, &b)
	if d := cmp.Diff(a, b); d != "" {
		t.Errorf("round trip (-in +out):\n%s", d)
	}
}

func TestRegisteredTypeWrittenFirst(t *testing.T) {
	for _, tt := range []struct {
		v    sample
		want string
	}{
		{sample{}, `{"type":"sample","name":""}`},
		{sample{Extra: map[string]json.RawMessage{"b": json.RawMessage(`2`), "a": json.RawMessage(`1`)}}, `{"type":"sample","name":"","a":1,"b":2}`},
	} {
		got, err := Marshal(tt.v)
		if err != nil || string(got) != tt.want {
			t.Errorf("Marshal(%+v) = %s, %v; want %s", tt.v, got, err, tt.want)
		}
	}
	// A different "type" on decode is ErrOtherType.
	var s sample
	if err := UnmarshalOwned([]byte(`{"type":"other","name":"x"}`), &s); !errors.Is(err, ErrOtherType) {
		t.Errorf("other type: %v", err)
	}
}

func TestDecodeArray(t *testing.T) {
	dec := func(b []byte) (int, error) { var n int; return n, json.Unmarshal(b, &n) }
	if v, err := DecodeArray([]byte(`null`), dec); err != nil || v != nil {
		t.Errorf("null: %v %v", v, err)
	}
	if v, err := DecodeArray([]byte(`[]`), dec); err != nil || v == nil || len(v) != 0 {
		t.Errorf("[]: %#v %v", v, err)
	}
	if _, err := DecodeArray([]byte(`[1,"x"]`), dec); err == nil || err.Error()[:3] != "[1]" {
		t.Errorf("error does not name the index: %v", err)
	}
}

func FuzzEachMember(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"a":"\\\""}`, `{"a":[{"b":"]"}]}`, `{"a`, `{"type":"x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var members int
		err := EachMember(data, func(string, []byte) error { members++; return nil })
		// Whatever encoding/json accepts as an object, the scanner must walk.
		var m map[string]json.RawMessage
		if json.Unmarshal(data, &m) == nil && m != nil && err != nil {
			t.Fatalf("valid object %q rejected: %v", data, err)
		}
		_, _ = PeekType(data)
		_ = EachElement(data, func([]byte) error { return nil })
	})
}

type optional struct {
	Name  string                     `json:"name,omitzero"`
	On    bool                       `json:"on,omitzero"`
	Count *int                       `json:"count,omitzero"`
	Must  string                     `json:"must"`
	Extra map[string]json.RawMessage `json:"-"`
}

// TestRememberedZeros: an optional member sent with a value omitzero would
// drop (null, "", false) is remembered and written back, until the field
// gets a value; a required member needs no memory.
func TestRememberedZeros(t *testing.T) {
	in := `{"name":"","on":false,"count":null,"must":"","x":1}`
	var v optional
	if err := UnmarshalOwned([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	extra := v.Extra
	out, err := Marshal(v)
	require.NoError(t, err)
	var a, b any
	json.Unmarshal([]byte(in), &a)
	json.Unmarshal(out, &b)
	if d := cmp.Diff(a, b); d != "" {
		t.Errorf("round trip (-in +out):\n%s", d)
	}
	if _, ok := extra["must"]; ok {
		t.Error("a required member was remembered")
	}
	v.Name, v.On = "set", true
	out, _ = Marshal(v)
	if want := `{"name":"set","on":true,"must":"","count":null,"x":1}`; string(out) != want {
		t.Errorf("got %s, want %s", out, want)
	}
	// The request form keeps the remembered zeros of modelled members only.
	out, _ = MarshalRequest(v)
	if want := `{"name":"set","on":true,"must":"","count":null}`; string(out) != want {
		t.Errorf("request form: got %s, want %s", out, want)
	}
}

// fixedName has constant members: no field holds them.
type fixedName struct {
	On    bool                       `json:"on,omitzero"`
	Extra map[string]json.RawMessage `json:"-"`
}

func init() {
	Register(fixedName{}, Spec{Type: "tool", Const: map[string]string{"name": "tool", "kind": "k"}})
}

// TestConstMembers writes Spec.Const members after "type" in name order,
// in both modes, and requires them on decode: another value, or none, is
// ErrOtherType, and a match is not kept in Extra.
func TestConstMembers(t *testing.T) {
	for _, marshal := range []func(any) ([]byte, error){Marshal, MarshalRequest} {
		got, err := marshal(fixedName{On: true})
		if want := `{"type":"tool","kind":"k","name":"tool","on":true}`; err != nil || string(got) != want {
			t.Errorf("got %s, %v; want %s", got, err, want)
		}
	}
	v, err := Decode[fixedName]([]byte(`{"name":"tool","type":"tool","kind":"k","on":true}`))
	if err != nil || !v.On || v.Extra != nil {
		t.Errorf("decoded %+v, %v", v, err)
	}
	if _, err := Decode[fixedName]([]byte(`{"type":"tool","name":"other"}`)); !errors.Is(err, ErrOtherType) {
		t.Errorf("another name: %v", err)
	}
	if _, err := Decode[fixedName]([]byte(`{"type":"tool","kind":1}`)); !errors.Is(err, ErrOtherType) {
		t.Errorf("a number where a constant belongs: %v", err)
	}
	if _, err := Decode[fixedName]([]byte(`{"type":"tool","name":"tool","on":true}`)); !errors.Is(err, ErrOtherType) {
		t.Errorf("a constant missing: %v", err)
	}
}

// plainRecord is registered but has no json methods, so only the codec
// keeps its Extra.
type plainRecord struct {
	Status string                     `json:"status"`
	Extra  map[string]json.RawMessage `json:"-"`
}

type withMap struct {
	Grants map[string]plainRecord  `json:"grants"`
	Ptrs   map[string]*plainRecord `json:"ptrs,omitzero"`
}

func init() { Objects(plainRecord{}, withMap{}) }

func TestMapValuesKeepUnknownMembers(t *testing.T) {
	in := `{"grants":{"a":{"status":"active","since":"2026"},"b":{"status":"pending"}},"ptrs":{"c":{"status":"x","n":1},"d":null}}`
	v, err := Decode[withMap]([]byte(in))
	require.NoError(t, err)
	if string(v.Grants["a"].Extra["since"]) != `"2026"` || string(v.Ptrs["c"].Extra["n"]) != "1" || v.Ptrs["d"] != nil {
		t.Fatalf("decoded %+v", v)
	}
	out, err := Marshal(v)
	require.NoError(t, err)
	var a, b any
	json.Unmarshal([]byte(in), &a)
	json.Unmarshal(out, &b)
	if d := cmp.Diff(a, b); d != "" {
		t.Errorf("round trip (-in +out):\n%s", d)
	}
	if _, err := Decode[withMap]([]byte(`{"grants":{"a":{"status":3}}}`)); err == nil || !strings.Contains(err.Error(), `"a"`) {
		t.Errorf("a bad value: err = %v", err)
	}
}
