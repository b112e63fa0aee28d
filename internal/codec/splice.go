package codec

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"unicode/utf8"
)

// Splicer keeps large strings out of the JSON encoder. encoding/json copies
// a value several times on its way out (into its buffer, which grows by
// doubling; through every nested MarshalJSON; out of the pool), which for an
// 8 MiB base64 document is many payloads of garbage. Instead a request is
// encoded with each large string replaced by a short token (Take), and
// Splice writes the final body into one buffer of exactly the right size,
// escaping each large string straight into place.
type Splicer struct {
	threshold int
	prefix    string // `mmslarge-<nonce>-`: a user string cannot guess it
	values    []string
}

// NewSplicer returns a Splicer that takes strings of threshold bytes or more.
func NewSplicer(threshold int) *Splicer {
	return &Splicer{threshold: threshold, prefix: fmt.Sprintf("mmslarge-%016x-", rand.Uint64())}
}

// Take returns v itself when it is small, else a token standing for it.
func (s *Splicer) Take(v string) string {
	if len(v) < s.threshold {
		return v
	}
	s.values = append(s.values, v)
	return s.prefix + strconv.Itoa(len(s.values)-1)
}

// Taken reports whether any string was taken.
func (s *Splicer) Taken() bool { return len(s.values) > 0 }

// errSplice means the encoded body did not hold each token exactly once
// (a MarshalJSON that dropped or repeated one); callers encode directly.
var errSplice = errors.New("codec: splice tokens do not match the encoded body")

// ErrSplice reports a body Splice could not reassemble.
func ErrSplice() error { return errSplice }

// Splice returns body with every token replaced by its string, JSON-quoted,
// and with members (e.g. `"stream":true`) inserted first in the top-level
// object. body must be an object.
func (s *Splicer) Splice(members string, body []byte) ([]byte, error) {
	if len(body) < 2 || body[0] != '{' {
		return nil, errors.New("codec: Splice needs a JSON object")
	}
	quotedPrefix := []byte(`"` + s.prefix)
	// First pass: find the tokens and size the result.
	type hit struct{ start, end, index int }
	var hits []hit
	seen := make([]bool, len(s.values))
	size := len(body) + len(members) + 1
	for off := 0; ; {
		i := bytes.Index(body[off:], quotedPrefix)
		if i < 0 {
			break
		}
		start := off + i
		j := bytes.IndexByte(body[start+len(quotedPrefix):], '"')
		if j < 0 {
			return nil, errSplice
		}
		end := start + len(quotedPrefix) + j + 1
		n, err := strconv.Atoi(string(body[start+len(quotedPrefix) : end-1]))
		if err != nil || n < 0 || n >= len(s.values) || seen[n] {
			return nil, errSplice
		}
		seen[n] = true
		hits = append(hits, hit{start, end, n})
		size += quotedLen(s.values[n]) - (end - start)
		off = end
	}
	if len(hits) != len(s.values) {
		return nil, errSplice
	}
	// Second pass: write it.
	out := make([]byte, 0, size)
	out = append(out, '{')
	rest := body[1:]
	if members != "" {
		out = append(out, members...)
		if len(bytes.TrimSpace(rest)) > 1 { // not "}"
			out = append(out, ',')
		}
	}
	last := 1
	for _, h := range hits {
		out = append(out, body[last:h.start]...)
		out = AppendQuoted(out, s.values[h.index])
		last = h.end
	}
	return append(out, body[last:]...), nil
}

const hexDigits = "0123456789abcdef"

// AppendQuoted appends s as a JSON string exactly as encoding/json writes it
// with HTML escaping off: invalid UTF-8 becomes \ufffd, and U+2028 and
// U+2029 are escaped.
func AppendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
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
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// quotedLen is len(AppendQuoted(nil, s)) without building it.
func quotedLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		if c < utf8.RuneSelf {
			switch c {
			case '"', '\\', '\n', '\r', '\t':
				n += 2
			default:
				n += 6
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1, r == '\u2028', r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}
