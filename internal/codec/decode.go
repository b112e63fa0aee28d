package codec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// The member-wise decoder behind DecodeObject.
//
// encoding/json validates the whole input on every Unmarshal call and scans a
// value once more to find its end before handing it to an UnmarshalJSON
// method, so a union nested n levels deep is scanned about 2n times. The
// decoder here walks each object once with the fast scanner and hands each
// member straight to its field: strings are unquoted in place, numbers go
// through strconv, and fields whose type has its own UnmarshalJSON get their
// bytes directly. Validation happens once, where the bytes enter the SDK
// (the client's response decoding, or json.Unmarshal, which validates
// before calling UnmarshalJSON). Malformed input that reaches a method
// directly is still reported or decoded leniently, never a panic.
//
// Differences from encoding/json, on purpose: member names match field
// names exactly (the wire is case-sensitive), and a JSON null leaves a
// non-pointer field unchanged (as encoding/json does).

// field is one decodable member of a struct type.
type field struct {
	index    []int
	typ      reflect.Type
	omitzero bool // optional on the wire: absent when zero
}

// structInfo maps member names to fields.
type structInfo struct {
	fields map[string]field
}

var structCache sync.Map // reflect.Type -> *structInfo

func infoOf(t reflect.Type) *structInfo {
	if si, ok := structCache.Load(t); ok {
		return si.(*structInfo)
	}
	si := &structInfo{fields: make(map[string]field)}
	collectFields(t, nil, si.fields)
	structCache.Store(t, si)
	return si
}

// collectFields follows encoding/json's naming: the tag name, else the Go
// name; anonymous struct fields without a tag are flattened; the shallower
// field wins a name conflict.
func collectFields(t reflect.Type, prefix []int, out map[string]field) {
	type queued struct {
		t      reflect.Type
		prefix []int
	}
	level := []queued{{t, prefix}}
	for len(level) > 0 {
		var next []queued
		seen := map[string]bool{}
		for _, q := range level {
			for i := 0; i < q.t.NumField(); i++ {
				f := q.t.Field(i)
				tag := f.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				idx := append(append([]int(nil), q.prefix...), i)
				if ft := f.Type; f.Anonymous && name == "" {
					if ft.Kind() == reflect.Pointer {
						ft = ft.Elem()
					}
					if ft.Kind() == reflect.Struct {
						next = append(next, queued{ft, idx})
						continue
					}
				}
				if !f.IsExported() {
					continue
				}
				if name == "" {
					name = f.Name
				}
				if _, taken := out[name]; taken || seen[name] {
					continue
				}
				seen[name] = true
				omit := strings.Contains(","+opts+",", ",omitzero,") || strings.Contains(","+opts+",", ",omitempty,")
				out[name] = field{index: idx, typ: f.Type, omitzero: omit}
			}
		}
		level = next
	}
}

// decodeStruct decodes the object data into the struct rv points into.
// With extra non-nil, members no field claims (other than "type") are kept
// there, and so is an optional (omitzero) member sent with a value that
// leaves its field zero (null, "", false, 0): the field cannot tell it from
// absent, the entry can, so the value re-encodes as it came (see
// MarshalObject).
func decodeStruct(data []byte, rv reflect.Value, extra *map[string]json.RawMessage) error {
	si := infoOf(rv.Type())
	keep := func(key []byte, value json.RawMessage) {
		if *extra == nil {
			*extra = make(map[string]json.RawMessage)
		}
		(*extra)[string(key)] = value
	}
	return eachMember(data, func(key, value []byte) error {
		f, ok := si.fields[string(key)]
		if !ok {
			if extra != nil && string(key) != "type" {
				keep(key, Clone(value))
			}
			return nil
		}
		fv, err := fieldByIndex(rv, f.index)
		if err != nil {
			return err
		}
		if err := decodeValue(value, fv); err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if extra != nil && f.omitzero && (string(value) == "null" || fv.IsZero()) {
			keep(key, Clone(value)) // sent, yet omitzero would leave it out
		}
		return nil
	})
}

// fieldByIndex is reflect.Value.FieldByIndex that allocates nil embedded
// pointers on the way, as encoding/json does.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, error) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !v.CanSet() {
					return reflect.Value{}, fmt.Errorf("codec: cannot set embedded pointer to unexported %v", v.Type().Elem())
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, nil
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// decodeValue decodes one JSON value into the settable v.
func decodeValue(data []byte, v reflect.Value) error {
	if v.CanAddr() && v.Addr().Type().Implements(unmarshalerType) {
		return v.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(data)
	}
	null := len(data) == 4 && string(data) == "null"
	switch v.Kind() {
	case reflect.String:
		if null {
			return nil
		}
		s, err := unquote(data)
		if err != nil {
			return err
		}
		v.SetString(s)
		return nil
	case reflect.Bool:
		switch string(data) {
		case "true":
			v.SetBool(true)
		case "false":
			v.SetBool(false)
		case "null":
		default:
			return fmt.Errorf("codec: %.20q is not a boolean", data)
		}
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if null {
			return nil
		}
		n, err := strconv.ParseInt(string(data), 10, v.Type().Bits())
		if err != nil {
			return fmt.Errorf("codec: %.20q is not an integer of %v", data, v.Type())
		}
		v.SetInt(n)
		return nil
	case reflect.Float32, reflect.Float64:
		if null {
			return nil
		}
		f, err := strconv.ParseFloat(string(data), v.Type().Bits())
		if err != nil || !isNumber(data) {
			return fmt.Errorf("codec: %.20q is not a number", data)
		}
		v.SetFloat(f)
		return nil
	case reflect.Pointer:
		if null {
			v.SetZero()
			return nil
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return decodeValue(data, v.Elem())
	case reflect.Struct:
		if null {
			return nil
		}
		return decodeStruct(data, v, nil)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 { // []byte: base64, as encoding/json
			break
		}
		if null {
			v.SetZero()
			return nil
		}
		return decodeSlice(data, v)
	}
	return json.Unmarshal(data, v.Addr().Interface())
}

func decodeSlice(data []byte, v reflect.Value) error {
	n := 0
	out := reflect.MakeSlice(v.Type(), 0, 4)
	err := EachElement(data, func(elem []byte) error {
		out = reflect.Append(out, reflect.Zero(v.Type().Elem()))
		if err := decodeValue(elem, out.Index(n)); err != nil {
			return fmt.Errorf("[%d]: %w", n, err)
		}
		n++
		return nil
	})
	if err != nil {
		return err
	}
	v.Set(out)
	return nil
}

// unquote decodes a JSON string. Strings without escapes that are valid
// UTF-8 without control characters (nearly all) are converted directly.
func unquote(data []byte) (string, error) {
	if len(data) < 2 || data[0] != '"' || data[len(data)-1] != '"' {
		return "", fmt.Errorf("codec: %.20q is not a string", data)
	}
	body := data[1 : len(data)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) && !hasControl(body) {
		return string(body), nil
	}
	var s string
	err := json.Unmarshal(data, &s)
	return s, err
}

func hasControl(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}

// isNumber rejects what strconv accepts but JSON does not (hex, Inf, NaN,
// underscores, a leading '+').
func isNumber(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && c != '-' && c != '.' && c != 'e' && c != 'E' && c != '+' {
			return false
		}
	}
	return len(b) > 0 && b[0] != '+'
}
