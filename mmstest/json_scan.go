package mmstest

import (
	"bytes"
	"encoding/json"
	"iter"
)

// A small scanner over JSON that json.Valid has already accepted: it hands
// out sub-slices of the input instead of copies, so that the request-form
// validator (schema.go) walks a body without decoding it, and a batch of
// 256 MiB keeps its params inside the one body it was sent as.

// jsonMembers yields the name and the raw value of each member of the JSON
// object obj, in order.
func jsonMembers(obj []byte) iter.Seq2[string, []byte] {
	return func(yield func(string, []byte) bool) {
		var name []byte // the member's name, once read; never empty
		for v := range jsonValues(obj) {
			if name == nil {
				name = v
				continue
			}
			if !yield(jsonString(name), v) {
				return
			}
			name = nil
		}
	}
}

// jsonElements yields the raw elements of the JSON array arr, in order.
func jsonElements(arr []byte) iter.Seq[[]byte] { return jsonValues(arr) }

// jsonValues yields the raw values inside the JSON array or object raw, in
// order: an array's elements, or an object's names and values in turn.
func jsonValues(raw []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		i := skipSpace(raw, 0) + 1 // past '{' or '['
		for {
			i = skipSpace(raw, i)
			if i >= len(raw) || raw[i] == '}' || raw[i] == ']' {
				return
			}
			if raw[i] == ',' || raw[i] == ':' {
				i = skipSpace(raw, i+1)
			}
			end := jsonValueEnd(raw, i)
			if !yield(raw[i:end]) {
				return
			}
			i = end
		}
	}
}

// jsonString decodes the JSON string raw; one without escapes is only
// unquoted.
func jsonString(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// jsonValueEnd returns the offset just past the JSON value starting at b[i].
func jsonValueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return jsonStringEnd(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = jsonStringEnd(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return i
	default: // a number, true, false or null
		for ; i < len(b); i++ {
			switch b[i] {
			case ',', ']', '}', ' ', '\t', '\n', '\r':
				return i
			}
		}
		return i
	}
}

// jsonStringEnd returns the offset just past the JSON string starting at
// b[i], jumping from quote to quote.
func jsonStringEnd(b []byte, i int) int {
	for i++; i < len(b); i++ {
		j := bytes.IndexAny(b[i:], `"\`)
		if j < 0 {
			return len(b)
		}
		i += j
		if b[i] == '"' {
			return i + 1
		}
		i++ // the escaped character
	}
	return i
}
