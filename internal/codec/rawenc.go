package codec

import (
	"fmt"
	"math/bits"
)

// appendCompact appends the JSON value in src to dst without insignificant
// white space, checking it in the same pass: it accepts exactly what
// json.Valid accepts (nesting deeper than MaxDepth is a *DepthError) and
// writes what json.Compact writes. Runs without white space, the usual
// case for raw JSON the SDK holds (tool inputs, schemas), are copied whole.
func appendCompact(dst, src []byte) ([]byte, error) {
	const (
		value = iota // a value must come next
		key          // a member name must come next
		colon        // a ':' must come next
		after        // a value ended: ',', a closer or the end
	)
	var (
		state = value
		start = 0 // src[start:i] is not yet copied
		stack = make([]bool, 0, 32)
	)
	n := len(src)
	for i := 0; ; {
		if i < n && isSpace(src[i]) {
			dst = append(dst, src[start:i]...)
			for i < n && isSpace(src[i]) {
				i++
			}
			start = i
		}
		if i == n {
			if state != after || len(stack) > 0 {
				return dst, invalidJSON(src, i)
			}
			return append(dst, src[start:]...), nil
		}
		c := src[i]
		switch state {
		case value:
			switch {
			case c == '{' || c == '[':
				if len(stack) == MaxDepth {
					return dst, &DepthError{Offset: i}
				}
				stack = append(stack, c == '{')
				i++
				state = value
				if c == '{' {
					state = key
				}
				// An empty container closes at once.
				j := i
				for j < n && isSpace(src[j]) {
					j++
				}
				if j < n && src[j] == c+2 { // '{'+2 == '}', '['+2 == ']'
					if j > i {
						dst = append(dst, src[start:i]...)
						start = j
					}
					stack = stack[:len(stack)-1]
					i, state = j+1, after
				}
				continue
			case c == '"':
				end, ok := stringEndValid(src, i)
				if !ok {
					return dst, invalidJSON(src, end)
				}
				i = end
			case c == '-' || c >= '0' && c <= '9':
				end, ok := numberEnd(src, i)
				if !ok {
					return dst, invalidJSON(src, end)
				}
				i = end
			case c == 't' && hasWord(src, i, "true"), c == 'n' && hasWord(src, i, "null"):
				i += 4
			case c == 'f' && hasWord(src, i, "false"):
				i += 5
			default:
				return dst, invalidJSON(src, i)
			}
			state = after
		case key:
			if c != '"' {
				return dst, invalidJSON(src, i)
			}
			end, ok := stringEndValid(src, i)
			if !ok {
				return dst, invalidJSON(src, end)
			}
			i, state = end, colon
		case colon:
			if c != ':' {
				return dst, invalidJSON(src, i)
			}
			i, state = i+1, value
		case after:
			if len(stack) == 0 {
				return dst, invalidJSON(src, i)
			}
			obj := stack[len(stack)-1]
			switch {
			case c == ',':
				state = value
				if obj {
					state = key
				}
			case c == '}' && obj, c == ']' && !obj:
				stack = stack[:len(stack)-1]
			default:
				return dst, invalidJSON(src, i)
			}
			i++
		}
	}
}

func invalidJSON(src []byte, at int) error {
	return fmt.Errorf("codec: invalid JSON at offset %d: %.40q", at, src)
}

func hasWord(src []byte, i int, w string) bool {
	return len(src)-i >= len(w) && string(src[i:i+len(w)]) == w
}

// stringEndValid returns the offset just past the JSON string starting at
// src[i] (a '"'), checking its escapes and that it holds no control
// character; ok is false (end at the fault) otherwise. Bytes of 0x80 and
// up pass unchecked, as json.Valid lets them.
func stringEndValid(src []byte, i int) (end int, ok bool) {
	n := len(src)
	for i++; ; {
		for ; i+8 <= n; i += 8 {
			if m := stringSpecial(load64(src, i)); m != 0 {
				i += bits.TrailingZeros64(m) / 8
				break
			}
		}
		for ; i < n && src[i] >= 0x20 && src[i] != '"' && src[i] != '\\'; i++ {
		}
		if i == n || src[i] < 0x20 {
			return i, false
		}
		if src[i] == '"' {
			return i + 1, true
		}
		// a backslash
		if i+1 == n {
			return i + 1, false
		}
		switch src[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			if n-i < 6 || !isHex(src[i+2]) || !isHex(src[i+3]) || !isHex(src[i+4]) || !isHex(src[i+5]) {
				return i + 1, false
			}
			i += 6
		default:
			return i + 1, false
		}
	}
}

// stringSpecial flags the bytes of x that end a run inside a JSON string:
// '"', '\\' and control characters (not bytes of 0x80 and up). As in
// special, only the lowest flag is exact.
func stringSpecial(x uint64) uint64 {
	return ((x - 0x20*lsb) | ((x ^ '"'*lsb) - lsb) | ((x ^ '\\'*lsb) - lsb)) &^ x & msb
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// numberEnd returns the offset just past the JSON number starting at
// src[i]: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?; ok is false (end
// at the fault) when it is malformed.
func numberEnd(src []byte, i int) (end int, ok bool) {
	n := len(src)
	digits := func(i int) int {
		for i < n && src[i] >= '0' && src[i] <= '9' {
			i++
		}
		return i
	}
	if src[i] == '-' {
		i++
	}
	switch {
	case i < n && src[i] == '0':
		i++
	case i < n && src[i] >= '1' && src[i] <= '9':
		i = digits(i + 1)
	default:
		return i, false
	}
	if i < n && src[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < n && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < n && (src[i] == '+' || src[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}
