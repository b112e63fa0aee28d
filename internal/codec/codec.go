// Package codec is the JSON toolkit behind every mms type: a registry of
// the SDK's types (unions and their variants, records, hooks), one
// single-pass decoder and one single-pass encoder with a response and a
// request mode, and the fast scanner they share (object members, array
// elements, the "type" peek). Members a Go type does not model are kept in
// its Extra field, so a server reply round-trips without loss. A variant
// is declared in its union's table and gets one-line JSON methods:
//
//	var contentBlockUnion = codec.NewUnion[ContentBlock]("ContentBlock", UnknownContentBlock{}).
//		Add("text", TextBlock{})
//
//	func (b TextBlock) MarshalJSON() ([]byte, error)     { return codec.MarshalOwned(b) }
//	func (b *TextBlock) UnmarshalJSON(data []byte) error { return codec.UnmarshalOwned(data, b) }
package codec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
)

// Decode decodes data into a new T with the codec (its registered codec,
// or encoding/json's rules for other types). It does not validate data:
// validate where bytes enter (Valid, or json.Unmarshal).
func Decode[T any](data []byte) (T, error) {
	var v T
	return v, decoderFor(reflect.TypeFor[T]())(trimSpace(data), reflect.ValueOf(&v).Elem())
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
