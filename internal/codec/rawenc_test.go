package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

var compactSeeds = []string{
	// valid
	`{}`, `[]`, ` { } `, "[\n]", `{"a":1}`, ` { "a" : [ 1 , 2 ] , "b" : { } } `, "\t[true,false,null]\r\n",
	`"plain"`, `"esc \" \\ \/ \b \f \n \r \t \u00e9 \uD834\uDD1E"`, `"é 東 🙂 \u2028"`, "\"\xff\xfe raw high bytes\"",
	`0`, `-0`, `12`, `-12.5e+10`, `1E-2`, `0.001`, `[0,-1,2.5,3e3]`,
	`{"k":"` + strings.Repeat("abcdefg\\n", 20) + `","l":[` + strings.Repeat(`{"x":"y"},`, 20) + `{}]}`,
	strings.Repeat("[", 100) + strings.Repeat("]", 100),
	// invalid
	``, ` `, `{`, `}`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{1:2}`, `{"a":}`, `[1 2]`, `1 2`, `{}}`, `[]]`, `{]`, `[}`,
	`01`, `-`, `1.`, `.5`, `1e`, `1e+`, `+1`, `0x1`, `tru`, `nul`, `falsey`, `True`, `"\x"`, `"\u12g4"`, `"\u12"`,
	`"unterminated`, "\"ctl \x01\"", "\"tab\tin\"", `"\`, `{"a":"b"`, `[1,2`, `nul`, `"a"x`,
}

// TestAppendCompactMatchesEncodingJSON: appendCompact accepts what
// json.Valid accepts and writes what json.Compact writes.
func TestAppendCompactMatchesEncodingJSON(t *testing.T) {
	for _, s := range compactSeeds {
		checkCompact(t, []byte(s))
	}
}

func FuzzAppendCompact(f *testing.F) {
	for _, s := range compactSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkCompact(t, src) })
}

func checkCompact(t *testing.T, src []byte) {
	t.Helper()
	got, err := appendCompact([]byte("x"), src)
	if valid := json.Valid(src); valid != (err == nil) {
		t.Fatalf("appendCompact(%q): error %v, json.Valid %v", src, err, valid)
	}
	if err != nil {
		return
	}
	var want bytes.Buffer
	want.WriteByte('x')
	if err := json.Compact(&want, src); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("appendCompact(%q) = %q, want %q", src, got, want.Bytes())
	}
}

// TestAppendCompactDepth: nesting up to MaxDepth is valid, one level more
// is a depth error, as json.Valid draws the line.
func TestAppendCompactDepth(t *testing.T) {
	for _, depth := range []int{MaxDepth, MaxDepth + 1} {
		for _, open := range []string{"[", `{"a":`} {
			closer := "]"
			if open != "[" {
				closer = "}"
			}
			src := []byte(strings.Repeat(open, depth) + "1" + strings.Repeat(closer, depth))
			_, err := appendCompact(nil, src)
			if want := json.Valid(src); want != (err == nil) {
				t.Errorf("depth %d %s: error %v, json.Valid %v", depth, open, err, want)
			}
			if depth > MaxDepth && !errors.Is(err, ErrTooDeep) {
				t.Errorf("depth %d %s: %v, want a depth error", depth, open, err)
			}
		}
	}
}
