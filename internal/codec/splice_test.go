package codec

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestAppendQuotedMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `q"b\s`, "nl\n\r\t", "\x00\x1f", "<>&", "é ☃ 𝄞", "\u2028\u2029", "bad\xffutf8", "\xe2\x80"} {
		want, _ := Marshal(s)
		if got := AppendQuoted(nil, s); string(got) != string(want) {
			t.Errorf("AppendQuoted(%q) = %s, want %s", s, got, want)
		}
		if n := quotedLen(s); n != len(want) {
			t.Errorf("quotedLen(%q) = %d, want %d", s, n, len(want))
		}
	}
}

func TestSplice(t *testing.T) {
	sp := NewSplicer(4)
	big1, big2 := strings.Repeat("A", 10), "line\n\"two\""
	v := map[string]any{"a": sp.Take(big1), "b": []string{sp.Take("sm"), sp.Take(big2)}}
	body, _ := Marshal(v)
	out, err := sp.Splice(`"stream":true`, body)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Marshal(map[string]any{"stream": true, "a": big1, "b": []string{"sm", big2}})
	var a, b any
	json.Unmarshal(out, &a)
	json.Unmarshal(want, &b)
	if !json.Valid(out) || len(out) != len(want) {
		t.Fatalf("got %s\nwant %s", out, want)
	}
	if cap(out) != len(out) {
		t.Errorf("buffer not sized exactly: len %d cap %d", len(out), cap(out))
	}
	// A dropped token is detected.
	sp2 := NewSplicer(1)
	sp2.Take("x")
	if _, err := sp2.Splice("", []byte(`{}`)); err == nil {
		t.Error("missing token not detected")
	}
	// No members, empty object.
	if out, err := NewSplicer(1).Splice(`"s":1`, []byte(`{}`)); err != nil || string(out) != `{"s":1}` {
		t.Errorf("got %s, %v", out, err)
	}
}
