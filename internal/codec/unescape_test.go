package codec

import (
	"encoding/json"
	"testing"
)

func FuzzUnquoteMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{`""`, `"plain"`, `"a\"b\\c\/d"`, `"\b\f\n\r\t"`, `"\u00e9\u263a"`,
		`"\ud834\udd1e"`, `"\ud834"`, `"\ud834x"`, `"\udd1e\ud834"`, `"\ud834\u0041"`, `"bad\xffutf8"`,
		`"\x01"`, `"\q"`, `"\u12"`, `"\uZZZZ"`, `"é ☃ 𝄞"`, `"tail\"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want string
		werr := json.Unmarshal(data, &want)
		if len(data) < 2 || data[0] != '"' {
			return
		}
		got, gerr := unquote(trimSpace(data)) // the decoder hands values over trimmed
		if werr != nil {
			// encoding/json refuses it; a lenient answer is fine, a panic is not.
			return
		}
		if gerr != nil || got != want {
			t.Fatalf("unquote(%q) = %q, %v; encoding/json gives %q", data, got, gerr, want)
		}
	})
}

// TestPlainPrefix puts each kind of special byte at every position of
// strings around the eight-byte word size, against a byte-by-byte scan.
func TestPlainPrefix(t *testing.T) {
	naive := func(b []byte) int {
		for i, c := range b {
			if c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
				return i
			}
		}
		return len(b)
	}
	for n := 0; n <= 20; n++ {
		for pos := 0; pos <= n; pos++ {
			for _, special := range []byte{0x00, 0x1f, '\\', 0x80, 0xff, ' ', '~', '"'} {
				b := make([]byte, n)
				for i := range b {
					b[i] = 'a' + byte(i%26)
				}
				if pos < n {
					b[pos] = special
				}
				if got, want := plainPrefix(b), naive(b); got != want {
					t.Fatalf("plainPrefix(%q) = %d, want %d", b, got, want)
				}
			}
		}
	}
}
