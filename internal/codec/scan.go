package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
)

// errSyntax is returned by the scanner for input that is not well-formed JSON.
// The scanner is only a fast path: encoding/json still validates what it decodes.
var errSyntax = errors.New("malformed JSON")

// errStop ends a member walk early; it never escapes this package.
var errStop = errors.New("stop")

func syntaxErr(off int, what string) error {
	return fmt.Errorf("codec: %w at offset %d: %s", errSyntax, off, what)
}

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the offset just past the JSON string starting at data[i]
// (which must be '"') and whether it contained escapes.
func skipString(data []byte, i int) (end int, escaped bool, err error) {
	end, err = stringEnd(data, i)
	if err != nil {
		return 0, false, err
	}
	return end, bytes.IndexByte(data[i+1:end-1], '\\') >= 0, nil
}

// stringEnd returns the offset just past the JSON string starting at data[i]
// (which must be '"'). It jumps from quote to quote with bytes.IndexByte
// (vectorised) and counts the backslashes before each quote to tell an
// escaped one from the end.
func stringEnd(data []byte, i int) (int, error) {
	start := i + 1
	i = start
	for {
		j := bytes.IndexByte(data[i:], '"')
		if j < 0 {
			return 0, syntaxErr(len(data), "unterminated string")
		}
		i += j
		n := 0
		for k := i - 1; k >= start && data[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return i + 1, nil
		}
		i++ // an escaped quote: keep looking
	}
}

// skipValue returns the offset just past the JSON value starting at data[i].
func (s *scanner) skipValue(i int) (int, error) {
	data := s.data
	if i >= len(data) {
		return 0, syntaxErr(i, "missing value")
	}
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		return s.skipContainer(i)
	default: // number, true, false, null
		start := i
		for i < len(data) {
			switch data[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				if i == start {
					return 0, syntaxErr(i, "missing value")
				}
				return i, nil
			}
			i++
		}
		if i == start {
			return 0, syntaxErr(i, "missing value")
		}
		return i, nil
	}
}

// EachMember calls fn for every member of the JSON object in data, in order,
// with the unquoted key and the raw value bytes (a sub-slice of data).
func EachMember(data []byte, fn func(key string, value []byte) error) error {
	return eachMember(data, func(key, value []byte) error { return fn(string(key), value) })
}

// eachMember is EachMember with the key as bytes, valid only during the
// call: the decoder looks keys up without allocating a string for each.
func eachMember(data []byte, fn func(key, value []byte) error) error {
	it := newMembers(data)
	defer it.done()
	for {
		key, value, ok, err := it.next()
		if err != nil || !ok {
			return err
		}
		if err := fn(key, value); err != nil {
			return err
		}
	}
}

// members walks the members of one JSON object without a callback (the
// struct decoder's loop, which runs for every object of every document).
type members struct {
	s     scanner
	i     int
	first bool
}

func newMembers(data []byte) members {
	return members{s: newScanner(data), first: true}
}

func (it *members) done() { it.s.done() }

// next returns the next member; ok is false after the last one. key is
// valid until the next call.
func (it *members) next() (key, value []byte, ok bool, err error) {
	data := it.s.data
	i := it.i
	if it.first {
		it.first = false
		i = skipSpace(data, 0)
		if i >= len(data) || data[i] != '{' {
			return nil, nil, false, syntaxErr(i, "expected an object")
		}
		i = skipSpace(data, i+1)
		if i < len(data) && data[i] == '}' {
			it.i = len(data)
			return nil, nil, false, nil
		}
	} else {
		i = skipSpace(data, i)
		if i >= len(data) {
			return nil, nil, false, syntaxErr(i, "unterminated object")
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			it.i = len(data)
			return nil, nil, false, nil
		default:
			return nil, nil, false, syntaxErr(i, "expected ',' or '}'")
		}
	}
	if i >= len(data) || data[i] != '"' {
		return nil, nil, false, syntaxErr(i, "expected a member name")
	}
	end, escaped, err := skipString(data, i)
	if err != nil {
		return nil, nil, false, err
	}
	key = data[i+1 : end-1]
	if escaped {
		var s string
		if err := json.Unmarshal(data[i:end], &s); err != nil {
			return nil, nil, false, fmt.Errorf("codec: member name: %w", err)
		}
		key = []byte(s)
	}
	i = skipSpace(data, end)
	if i >= len(data) || data[i] != ':' {
		return nil, nil, false, syntaxErr(i, "expected ':'")
	}
	i = skipSpace(data, i+1)
	vend, err := it.s.skipValue(i)
	if err != nil {
		return nil, nil, false, err
	}
	it.i = vend
	return key, data[i:vend], true, nil
}

// EachElement calls fn for every element of the JSON array in data. A JSON
// null is an empty array.
func EachElement(data []byte, fn func(elem []byte) error) error {
	s := newScanner(data)
	defer s.done()
	i := skipSpace(data, 0)
	if bytes.HasPrefix(data[i:], []byte("null")) {
		return nil
	}
	if i >= len(data) || data[i] != '[' {
		return syntaxErr(i, "expected an array")
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return nil
	}
	for {
		end, err := s.skipValue(i)
		if err != nil {
			return err
		}
		if err := fn(data[i:end]); err != nil {
			return err
		}
		i = skipSpace(data, end)
		if i >= len(data) {
			return syntaxErr(i, "unterminated array")
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case ']':
			return nil
		default:
			return syntaxErr(i, "expected ',' or ']'")
		}
	}
}

// PeekType returns the string value of the top-level "type" member of the
// JSON object in data. A missing "type" is an error: every union on the wire
// is discriminated by it. Type names are interned, so peeking allocates
// nothing for names seen before.
func PeekType(data []byte) (string, error) { return PeekMember(data, "type") }

// PeekMember is PeekType for the discriminating member named key.
func PeekMember(data []byte, key string) (string, error) {
	var raw []byte
	err := eachMember(data, func(k, value []byte) error {
		if string(k) != key {
			return nil
		}
		raw = value
		return errStop
	})
	if err != nil && err != errStop {
		return "", err
	}
	if raw == nil {
		return "", fmt.Errorf("codec: object has no %q member", key)
	}
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return intern(raw[1 : len(raw)-1]), nil
	}
	var typ string
	if err := json.Unmarshal(raw, &typ); err != nil {
		return "", fmt.Errorf("codec: %q is not a string: %w", key, err)
	}
	return typ, nil
}

// The intern table of type names. It is bounded, so hostile input with
// endless distinct names costs allocations, not memory.
var (
	internMu  sync.RWMutex
	internTab = make(map[string]string)
)

const internMax = 4096

func intern(b []byte) string {
	internMu.RLock()
	s, ok := internTab[string(b)]
	internMu.RUnlock()
	if ok {
		return s
	}
	s = string(b)
	internMu.Lock()
	if len(internTab) < internMax {
		internTab[s] = s
	}
	internMu.Unlock()
	return s
}
