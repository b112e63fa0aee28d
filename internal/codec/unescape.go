package codec

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

var errBadString = errors.New("codec: malformed JSON string")

// unescape decodes the body of a JSON string (without its quotes) that
// holds escapes, invalid UTF-8 or control bytes, as encoding/json does:
// invalid UTF-8 and unpaired surrogates become U+FFFD; a raw control byte
// or a bad escape is an error. Clean runs are copied whole, into one
// allocation.
func unescape(body []byte) (string, error) {
	var sb strings.Builder
	sb.Grow(len(body))
	i := plainPrefix(body)
	sb.Write(body[:i])
	for i < len(body) {
		c := body[i]
		switch {
		case c == '\\':
			if i+1 >= len(body) {
				return "", errBadString
			}
			switch e := body[i+1]; e {
			case '"', '\\', '/':
				sb.WriteByte(e)
			case 'b':
				sb.WriteByte('\b')
			case 'f':
				sb.WriteByte('\f')
			case 'n':
				sb.WriteByte('\n')
			case 'r':
				sb.WriteByte('\r')
			case 't':
				sb.WriteByte('\t')
			case 'u':
				r := hex4(body[i+2:])
				if r < 0 {
					return "", errBadString
				}
				i += 6
				if utf16.IsSurrogate(r) {
					if r2 := nextU4(body[i:]); r2 >= 0 {
						if dec := utf16.DecodeRune(r, r2); dec != unicode.ReplacementChar {
							sb.WriteRune(dec)
							i += 6
							continue
						}
					}
					r = unicode.ReplacementChar
				}
				sb.WriteRune(r)
				continue
			default:
				return "", errBadString
			}
			i += 2
		case c < 0x20:
			return "", errBadString
		default:
			j := validRun(body, i)
			if j == i { // an invalid UTF-8 byte
				sb.WriteRune(utf8.RuneError)
				i++
				continue
			}
			sb.Write(body[i:j])
			i = j
		}
	}
	return sb.String(), nil
}

// nextU4 reads a \uXXXX escape at the start of b, or returns -1.
func nextU4(b []byte) rune {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return -1
	}
	return hex4(b[2:])
}

// hex4 reads four hex digits, or returns -1.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// validRun returns the end of the run from i of bytes a JSON string holds
// as they are: no escape, no control byte, valid UTF-8.
func validRun(b []byte, i int) int {
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '\\' {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return i
}
