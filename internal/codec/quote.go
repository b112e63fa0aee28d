package codec

import (
	"math/bits"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// AppendQuoted appends s as a JSON string exactly as encoding/json writes it
// with HTML escaping off: invalid UTF-8 becomes \ufffd, and U+2028 and
// U+2029 are escaped.
func AppendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; ; {
		i += plainPrefix(s[i:])
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			start = i + size
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			start = i + size
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// quotedLen is len(AppendQuoted(nil, s)) without building it. Every escape
// lengthens the string, so quotedLen(s) == len(s)+2 means s is written as
// it is.
func quotedLen(s string) int {
	n := 2 + len(s)
	for i := 0; ; {
		i += plainPrefix(s[i:])
		if i == len(s) {
			return n
		}
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"', '\\', '\n', '\r', '\t':
				n++
			default:
				n += 5
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			n += 6 - size
		}
		i += size
	}
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// plainPrefix returns the length of the longest prefix of s made of bytes
// written as they are inside a JSON string and needing no UTF-8 check (the
// encoder's quoting and the decoder's unquoting both start with it):
// ASCII other than control characters, '"' and '\\'. It looks at eight bytes
// at a time (SWAR), since long strings (base64 payloads, documents) are
// mostly such bytes.
func plainPrefix[T string | []byte](s T) int {
	i := 0
	for ; i+16 <= len(s); i += 16 {
		a, b := special(load64(s, i)), special(load64(s, i+8))
		if a|b != 0 {
			if a != 0 {
				return i + bits.TrailingZeros64(a)/8
			}
			return i + 8 + bits.TrailingZeros64(b)/8
		}
	}
	for ; i+8 <= len(s); i += 8 {
		if m := special(load64(s, i)); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			break
		}
	}
	return i
}

// special flags (by its high bit) each byte of the little-endian word x
// that plainPrefix stops at. Above the lowest flagged byte a flag may be
// spurious (a borrow), so only the lowest one is used.
func special(x uint64) uint64 {
	return ((x - 0x20*lsb) | ((x ^ '"'*lsb) - lsb) | ((x ^ '\\'*lsb) - lsb) | x) & msb
}

// load64 reads s[i:i+8] as a little-endian word (one load on the usual
// architectures).
func load64[T string | []byte](s T, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
