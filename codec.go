package mms

// The root package's side of the codec (internal/codec). Every wire type
// is registered there, by a union table (codec.NewUnion(...).Add(...)) or
// by an //mms:json directive on the type; internal/gen writes the
// registrations, the marker methods and the JSON methods (these
// one-liners' callers) into zz_*.go. See ARCHITECTURE.md, "Unions and the
// codec", for how to add a variant or a union.

//go:generate go run ./internal/gen

import (
	"encoding/json"
	"reflect"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// Extra is what a wire value holds beyond its modelled fields; most wire
// types have a field Extra of this type. Decoding puts there what the
// fields alone cannot say, so that a decoded reply marshals back to the
// members it came with, each value as received:
//
//   - every member this SDK version does not model;
//   - every explicit zero (null, "", false, 0) of an optional field, which
//     the field cannot tell from absent;
//   - an entry with an empty value for each member the encoder always
//     writes (a field without omitzero) that the reply left out: the field
//     cannot tell absent from null or zero;
//   - the null sent for such a field whose Go type cannot hold null (an
//     int, a string, a struct);
//   - the text of a timestamp (a time.Time field) not in the form the
//     encoder writes, e.g. "2026-01-02T03:04:05.0Z" or "+00:00".
//
// Response mode (json.Marshal of a record, a reply or an event) writes
// them back: unknown members as they came; a remembered zero, null or
// absence only while its field is still zero (a value set later wins); a
// timestamp's text only while the field holds that instant and offset.
// Request mode (request bodies, the params types and the request-only
// types) does the same for modelled request fields and drops the unknown
// members, because the service refuses members its request schema does
// not define. Values built in code leave it nil and encode every
// always-written field (null when empty).
type Extra = map[string]json.RawMessage

// marshalJSON is the MarshalJSON of a registered type: the response form,
// everything it holds, Extra included.
func marshalJSON(v any) ([]byte, error) { return codec.MarshalOwned(v) }

// marshalRequest is the MarshalJSON of a request-only type: the request
// form (no unknown members, no response-only fields).
func marshalRequest(v any) ([]byte, error) { return codec.MarshalRequestOwned(v) }

// unmarshalJSON is the UnmarshalJSON of a registered type (v a pointer).
func unmarshalJSON(data []byte, v any) error { return codec.UnmarshalOwned(data, v) }

// stringOrObject is the Spec of a request type that travels as a bare JSON
// string, its string field named field, when short says only that field
// matters, and as an object otherwise; a JSON string decodes into field.
func stringOrObject[T any](field string, short func(T) bool) codec.Spec {
	return codec.Spec{
		Encode: func(e *codec.Encoder, v reflect.Value) error {
			if short(v.Interface().(T)) {
				e.String(v.FieldByName(field).String())
				return nil
			}
			return e.Struct(v)
		},
		Decode: func(data []byte, v reflect.Value) error {
			v.SetZero()
			if len(data) > 0 && data[0] == '"' {
				var s string
				if err := json.Unmarshal(data, &s); err != nil {
					return err
				}
				v.FieldByName(field).SetString(s)
				return nil
			}
			return codec.DecodeStruct(data, v)
		},
	}
}

// nullableString is the Spec of the string enums whose JSON null is "":
// empty encodes as null and null decodes as empty.
var nullableString = codec.Spec{
	Encode: func(e *codec.Encoder, v reflect.Value) error {
		if v.Len() == 0 {
			e.Raw([]byte("null"))
		} else {
			e.String(v.String())
		}
		return nil
	},
	Decode: func(data []byte, v reflect.Value) error {
		if codec.IsNull(data) {
			v.SetString("")
			return nil
		}
		s, err := codec.Unquote(codec.TrimSpace(data))
		v.SetString(s)
		return err
	},
}
