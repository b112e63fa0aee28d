package codec

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/stretchr/testify/require"
)

func TestAppendQuotedMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `q"b\s`, "nl\n\r\t", "\x00\x1f", "<>&", "é ☃ 𝄞", "\u2028\u2029", "bad\xffutf8", "\xe2\x80"} {
		want := stdMarshal(t, s)
		if got := AppendQuoted(nil, s); string(got) != string(want) {
			t.Errorf("AppendQuoted(%q) = %s, want %s", s, got, want)
		}
		if n := quotedLen(s); n != len(want) {
			t.Errorf("quotedLen(%q) = %d, want %d", s, n, len(want))
		}
	}
}

// TestAppendQuotedWordScan puts each kind of byte the word-at-a-time scan
// must stop at (or pass) at every position of strings around its 8- and
// 16-byte steps, alone and followed by another, and compares with
// encoding/json.
func TestAppendQuotedWordScan(t *testing.T) {
	kinds := []string{"\x00", "\x1f", " ", "\x7f", `"`, `\\`, "\n", "\x80", "\xff", "é", "東", "\u2028", "\u2029", "𝄞", "\xe2\x80"}
	for n := 0; n <= 40; n++ {
		for p := 0; p <= n; p++ {
			for _, k := range kinds {
				for _, next := range []string{"", "\x01", " ", `"`} {
					s := strings.Repeat("a", p) + k + next + strings.Repeat("b", n-p)
					want := stdMarshal(t, s)
					if got := AppendQuoted([]byte("x"), s); string(got[1:]) != string(want) {
						t.Fatalf("AppendQuoted(%q) = %s, want %s", s, got[1:], want)
					}
					if got := quotedLen(s); got != len(want) {
						t.Fatalf("quotedLen(%q) = %d, want %d", s, got, len(want))
					}
				}
			}
		}
	}
}

// stdMarshal is encoding/json without HTML escaping: what Marshal follows
// for values that are not registered.
func stdMarshal(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

type textKey struct{ s string }

func (k textKey) MarshalText() ([]byte, error) { return []byte("k:" + k.s), nil }

type userMarshaler struct{ N int }

func (u userMarshaler) MarshalJSON() ([]byte, error) { return []byte(`{ "n" : 1 }`), nil }

type zeroer struct{ v int }

func (z zeroer) IsZero() bool { return z.v == 0 }

type embedded struct {
	Deep string `json:"deep"`
}

type plainStruct struct {
	A        string            `json:"a"`
	B        int               `json:"b,omitempty"`
	C        *float64          `json:"c,omitzero"`
	D        []string          `json:"d"`
	E        map[string]int    `json:"e,omitempty"`
	F        []byte            `json:"f"`
	G        json.RawMessage   `json:"g,omitempty"`
	H        time.Time         `json:"h"`
	I        textKey           `json:"i"`
	J        userMarshaler     `json:"j"`
	K        zeroer            `json:"k,omitzero"`
	L        any               `json:"l"`
	M        [2]bool           `json:"m"`
	N        uint8             `json:"n"`
	O        float32           `json:"o"`
	P        map[string]string `json:"p"`
	Untagged string
	Skipped  string `json:"-"`
	embedded
	*innerPtr
}

type innerPtr struct {
	Ptr string `json:"ptr"`
}

func TestMarshalMatchesEncodingJSON(t *testing.T) {
	f := 1.5
	cases := []any{
		plainStruct{},
		plainStruct{A: "x<y>&", B: 3, C: &f, D: []string{}, E: map[string]int{"z": 1, "a": 2}, F: []byte("hi"),
			G: json.RawMessage(` { "a" : [1, 2] } `), H: time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC),
			I: textKey{"v"}, K: zeroer{1}, L: map[string]any{"n": 1.0}, M: [2]bool{true}, N: 7, O: 0.1,
			P: map[string]string{"b": "1", "a": "2"}, Untagged: "u", embedded: embedded{"d"}, innerPtr: &innerPtr{"p"}},
		[]any{1e21, 1e20, 1e-7, 0.000001, math.Copysign(0, -1), 123456789.0, float32(1e-7), float32(3.4e38)},
		map[string]any{"nested": []any{nil, true, "s"}},
		nil,
	}
	for i, v := range cases {
		got, err := Marshal(v)
		if err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if want := stdMarshal(t, v); !bytes.Equal(got, want) {
			t.Errorf("%d:\ngot  %s\nwant %s", i, got, want)
		}
	}
}

func TestMarshalRejectsInvalidRaw(t *testing.T) {
	if _, err := Marshal(struct{ R json.RawMessage }{json.RawMessage(`{"a":`)}); err == nil {
		t.Error("invalid RawMessage accepted")
	}
}

func TestLargeStringsSplicedInPlace(t *testing.T) {
	big1 := strings.Repeat("A", LargeString)
	big2 := strings.Repeat("line\n\"two\"é", LargeString/10)
	for _, c := range []struct {
		name    string
		v       any
		members string
	}{
		{"clean and escaped, members", map[string]any{"a": big1, "b": []string{"sm", big2}}, `"stream":true`},
		{"clean and escaped", map[string]any{"a": big1, "b": []string{"sm", big2}}, ""},
		{"clean only, members", map[string]any{"a": big1, "b": []string{big1, "sm"}}, `"stream":true`},
		{"clean only", map[string]any{"a": big1}, ""},
		{"small only, members", map[string]any{"a": "x"}, `"stream":true`},
	} {
		got, err := MarshalRequestWith(c.v, c.members)
		require.NoError(t, err)
		want := stdMarshal(t, c.v)
		if c.members != "" {
			want = append([]byte("{"+c.members+","), want[1:]...)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: spliced body differs (len %d, want %d)", c.name, len(got), len(want))
		}
		if cap(got) != len(got) {
			t.Errorf("%s: buffer not sized exactly: len %d cap %d", c.name, len(got), cap(got))
		}
	}
	if got, err := MarshalRequestWith(map[string]int{}, `"s":1`); err != nil || string(got) != `{"s":1}` {
		t.Errorf("empty object: %s, %v", got, err)
	}
	if _, err := MarshalRequestWith([]int{1}, `"s":1`); err == nil {
		t.Error("members inserted into an array")
	}
}

// A registered record: Extra keeps unknown members and explicit zeros.
type record struct {
	Name  string                     `json:"name"`
	Note  *string                    `json:"note,omitzero"`
	Seen  string                     `json:"seen,omitzero" mms:"response"`
	Extra map[string]json.RawMessage `json:"-"`
}

func init() { Objects(record{}) }

func TestRegisteredRecordModes(t *testing.T) {
	in := []byte(`{"name":"a","note":null,"seen":"yes","future":{"x":1}}`)
	var r record
	if err := UnmarshalOwned(in, &r); err != nil {
		t.Fatal(err)
	}
	want := map[string]json.RawMessage{"note": json.RawMessage("null"), "future": json.RawMessage(`{"x":1}`)}
	if diff := cmp.Diff(want, r.Extra); diff != "" {
		t.Errorf("Extra (-want +got):\n%s", diff)
	}
	resp, _ := Marshal(r)
	if string(resp) != `{"name":"a","seen":"yes","future":{"x":1},"note":null}` {
		t.Errorf("response form: %s", resp)
	}
	req, _ := MarshalRequest(r)
	if string(req) != `{"name":"a","note":null}` {
		t.Errorf("request form: %s", req)
	}
	// A value set later wins over the remembered null.
	r.Note = new(string)
	req, _ = MarshalRequest(r)
	if string(req) != `{"name":"a","note":""}` {
		t.Errorf("set field: %s", req)
	}
	if _, err := MarshalOwned(plainStruct{}); err == nil {
		t.Error("MarshalOwned accepted an unregistered type")
	}
}
