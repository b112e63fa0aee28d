// Package codec is the small JSON toolkit behind every mms type: a fast
// scanner for object members and array elements, the "type" peek that union
// decoders switch on, and the decode/encode pair that keeps members a Go type
// does not model (so a server reply round-trips without loss).
//
// A variant type uses it like this:
//
//	func (b *TextBlock) UnmarshalJSON(data []byte) error {
//		type plain TextBlock
//		return codec.DecodeObject(data, (*plain)(b), &b.Extra)
//	}
//
//	func (b TextBlock) MarshalJSON() ([]byte, error) {
//		type plain TextBlock
//		return codec.MarshalObject("text", plain(b), b.Extra)
//	}
package codec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sync"
)

// Decode decodes data into a new T. When *T implements json.Unmarshaler its
// method is called directly, skipping encoding/json's validation pass: the
// variant's own decoder validates what it reads.
func Decode[T any](data []byte) (T, error) {
	var v T
	if u, ok := any(&v).(json.Unmarshaler); ok {
		return v, u.UnmarshalJSON(data)
	}
	return v, json.Unmarshal(data, &v)
}

// DecodeArray decodes the JSON array in data with decode, one element at a
// time. A JSON null gives a nil slice.
func DecodeArray[T any](data []byte, decode func([]byte) (T, error)) ([]T, error) {
	var out []T
	i := 0
	err := EachElement(data, func(elem []byte) error {
		v, err := decode(elem)
		if err != nil {
			return fmt.Errorf("[%d]: %w", i, err)
		}
		out = append(out, v)
		i++
		return nil
	})
	if err == nil && out == nil && !isNull(data) {
		out = []T{}
	}
	return out, err
}

func isNull(data []byte) bool {
	return bytes.Equal(bytes.TrimSpace(data), []byte("null"))
}

// Clone returns a copy of data that does not alias the decoder's buffer.
func Clone(data []byte) json.RawMessage {
	return json.RawMessage(bytes.Clone(data))
}

// DecodeObject decodes the JSON object in data into v, a pointer to a struct
// without JSON methods of its own, and stores in *extra every member whose
// name none of v's fields claims (other than "type", which the union owns),
// plus any optional (omitzero) member sent with a value that leaves its
// field zero (null, "", false), so that
// MarshalObject writes the object back as it came. The stored values are
// copies. *extra stays nil when there are none. See decode.go for how it
// differs from json.Unmarshal.
func DecodeObject(data []byte, v any, extra *map[string]json.RawMessage) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("codec: DecodeObject needs a pointer to a struct, got %T", v)
	}
	*extra = nil
	return decodeStruct(data, rv.Elem(), extra)
}

// LiveExtra returns extra without the entries a field of v writes itself:
// a remembered null speaks only while its field is still zero (omitted), so
// a value set later wins.
func LiveExtra(v any, extra map[string]json.RawMessage) map[string]json.RawMessage {
	if len(extra) == 0 {
		return extra
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Struct {
		return extra
	}
	fields := infoOf(rv.Type()).fields
	var out map[string]json.RawMessage
	for k := range extra {
		f, ok := fields[k]
		if !ok {
			continue
		}
		if fv, err := fieldByIndex(rv, f.index); err == nil && f.omitzero && fv.IsZero() {
			continue
		}
		if out == nil {
			out = maps.Clone(extra)
		}
		delete(out, k)
	}
	if out == nil {
		return extra
	}
	return out
}

// KeepModeled returns the entries of extra that name fields of struct type
// t (the remembered explicit values DecodeObject keeps), minus the names in
// drop: what a request may carry back. Everything else in extra is unknown
// to this SDK and is never sent.
func KeepModeled(t reflect.Type, extra map[string]json.RawMessage, drop ...string) map[string]json.RawMessage {
	if len(extra) == 0 {
		return nil
	}
	fields := infoOf(t).fields
	var out map[string]json.RawMessage
	for k, v := range extra {
		if _, ok := fields[k]; !ok || slices.Contains(drop, k) {
			continue
		}
		if out == nil {
			out = make(map[string]json.RawMessage)
		}
		out[k] = v
	}
	return out
}

// MarshalObject encodes v, a struct without JSON methods of its own, as a JSON
// object with "type":typ as its first member (omitted when typ is "") and the
// members of extra appended in name order. An extra entry named like a field
// of v (a remembered null) is written only while that field is zero.
func MarshalObject(typ string, v any, extra map[string]json.RawMessage) ([]byte, error) {
	extra = LiveExtra(v, extra)
	body, err := jsonMarshal(v)
	if err != nil {
		return nil, err
	}
	if typ == "" && len(extra) == 0 {
		return body, nil
	}
	if len(body) < 2 || body[0] != '{' {
		return nil, fmt.Errorf("codec: %T does not encode as an object", v)
	}
	inner := body[1 : len(body)-1] // members without braces
	out := make([]byte, 0, len(body)+len(typ)+16+extraSize(extra))
	out = append(out, '{')
	if typ != "" {
		out = append(out, `"type":`...)
		out = appendString(out, typ)
		if len(inner) > 0 {
			out = append(out, ',')
		}
	}
	out = append(out, inner...)
	first := typ == "" && len(inner) == 0
	for _, k := range slices.Sorted(mapsKeys(extra)) {
		if !first {
			out = append(out, ',')
		}
		first = false
		out = appendString(out, k)
		out = append(out, ':')
		out = append(out, extra[k]...)
	}
	return append(out, '}'), nil
}

func extraSize(extra map[string]json.RawMessage) int {
	n := 0
	for k, v := range extra {
		n += len(k) + len(v) + 4
	}
	return n
}

func mapsKeys(m map[string]json.RawMessage) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// appendString appends s as a JSON string. Member names and type names are
// plain ASCII in practice; anything else goes through the encoder.
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			return AppendQuoted(dst, s)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

var encPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// jsonMarshal is json.Marshal without HTML escaping (MarshalObject's
// encoder, for types not yet moved to the registry).
func jsonMarshal(v any) ([]byte, error) {
	buf := encPool.Get().(*bytes.Buffer)
	defer encPool.Put(buf)
	buf.Reset()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.Clone(buf.Bytes()[:buf.Len()-1]), nil
}
