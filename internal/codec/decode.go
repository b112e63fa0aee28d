package codec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/bits"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"time"
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

// decField is one decodable member of a struct type.
type decField struct {
	index    []int
	typ      reflect.Type
	dec      decFunc
	omitzero bool // optional on the wire: absent when zero
	time     bool // a timestamp (time.Time or *time.Time): its text is kept when not canonical
	bit      int8 // its bit in structInfo.always, or -1
	nullable bool // its zero value encodes as null (a null needs no record)
	custom   *FieldCodec
}

// structInfo maps member names to fields.
type structInfo struct {
	fields map[string]decField
	typ    string            // the wire "type" the struct requires, or ""
	consts map[string]string // members with a fixed value (Spec.Const)
	// constBit numbers the consts (at most 64), each required on decode.
	constBit map[string]uint8
	extra    int // index of the Extra field, or -1
	// always has a bit for each member the encoder always writes (no
	// omitzero or omitempty), the first 64 of them; names[bit] is its
	// name. A member of these that an object leaves out is recorded in
	// Extra as absent.
	always uint64
	names  []string
	// typeField: a field claims "type" (a versioned tool's Version).
	typeField bool
	owned     bool // registered
}

var timeType = reflect.TypeFor[time.Time]()

// nullable reports whether the zero value of t encodes as null: a pointer,
// interface, slice or map, or a type with its own Encode (which writes its
// zero as it sees fit).
func nullable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map:
		return true
	}
	s := specOf(t)
	return s != nil && s.Encode != nil
}

// isTime reports whether a field of type t is a timestamp whose received
// text the codec keeps.
func isTime(t reflect.Type) bool {
	return t == timeType || t.Kind() == reflect.Pointer && t.Elem() == timeType
}

var structCache sync.Map // reflect.Type -> *structInfo

func infoOf(t reflect.Type) *structInfo {
	if si, ok := structCache.Load(t); ok {
		return si.(*structInfo)
	}
	si := &structInfo{fields: make(map[string]decField), extra: -1}
	spec := specOf(t)
	if spec != nil {
		si.typ, si.consts = spec.Type, spec.Const
		if len(spec.Const) > 64 {
			panic(fmt.Sprintf("codec: %v has more than 64 constant members", t))
		}
		si.constBit = make(map[string]uint8, len(spec.Const))
		for i, name := range slices.Sorted(maps.Keys(spec.Const)) {
			si.constBit[name] = uint8(i)
		}
	}
	for _, f := range fieldsOf(t) {
		df := decField{index: f.index, typ: f.typ, dec: decoderFor(f.typ), omitzero: f.omitzero || f.omitempty, time: isTime(f.typ), bit: -1}
		var fc FieldCodec
		if spec != nil {
			fc = spec.Fields[f.name]
			if fc.Decode != nil {
				df.custom = &fc
			}
		}
		df.nullable = nullable(f.typ) || fc.Encode != nil
		if !df.omitzero && fc.Omit == nil && len(si.names) < 64 {
			df.bit = int8(len(si.names))
			si.always |= 1 << df.bit
			si.names = append(si.names, f.name)
		}
		si.fields[f.name] = df
		if f.name == "type" {
			si.typeField = true
		}
	}
	if i, ok := extraField(t); ok {
		si.extra = i
	}
	si.owned = owned(t)
	structCache.Store(t, si)
	return si
}

// decodeStruct decodes the object data into the struct rv points into.
// With extra non-nil, what the fields alone cannot say is kept there, so
// that the value re-encodes as it came:
//
//   - members no field claims (other than the "type" a registered variant
//     requires);
//   - an optional (omitzero) member sent with a value that leaves its field
//     zero (null, "", false, 0): the field cannot tell it from absent;
//   - a member the encoder always writes that the object leaves out, as an
//     entry with an empty value (absent): the field cannot tell it from
//     null or zero;
//   - a timestamp's text when it is not the form the encoder writes
//     (RFC 3339 with the fewest fraction digits): "….0Z", "+00:00";
//   - a null sent for an always-written field whose zero value is not null
//     (an int, a string, a struct).
//
// A registered "type" that differs from the one in data is ErrOtherType.
func decodeStruct(data []byte, rv reflect.Value, extra *map[string]json.RawMessage) error {
	return decodeFields(data, rv, infoOf(rv.Type()), extra)
}

func decodeFields(data []byte, rv reflect.Value, si *structInfo, extra *map[string]json.RawMessage) error {
	it := newMembers(data)
	defer it.done()
	var kept keeper
	var seen uint64   // the always-written members met
	var consts uint64 // the constant members met
	for {
		key, value, ok, err := it.next()
		if err != nil {
			return err
		}
		if !ok {
			if len(si.consts) > 0 && consts != 1<<len(si.consts)-1 {
				return fmt.Errorf("%w: a constant member is missing", ErrOtherType)
			}
			if extra != nil && seen != si.always {
				kept.absent(extra, si, seen)
			}
			kept.flush(extra)
			return nil
		}
		f, ok := si.fields[string(key)]
		if !ok {
			switch {
			case string(key) == "type" && si.typ != "":
				if err := checkTypeValue(value, si.typ); err != nil {
					return err
				}
			case string(key) == "type" && !si.owned:
				// a union's, unmodelled
			case si.consts != nil && hasConst(si.consts, key):
				if err := checkConst(value, string(key), si.consts[string(key)]); err != nil {
					return err
				}
				consts |= 1 << si.constBit[string(key)]
			case extra != nil:
				kept.add(extra, key, value)
			}
			continue
		}
		fv := rv
		if len(f.index) == 1 {
			fv = rv.Field(f.index[0])
		} else if fv, err = fieldByIndex(rv, f.index); err != nil {
			return err
		}
		if f.custom != nil {
			err = f.custom.Decode(value, rv)
		} else {
			err = f.dec(value, fv)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
		if f.bit >= 0 {
			seen |= 1 << f.bit
		}
		if extra == nil {
			continue
		}
		switch {
		case f.omitzero && (isNullLiteral(value) || fv.IsZero()):
			kept.add(extra, key, value) // sent, yet omitzero would leave it out
		case f.time && !canonicalTime(value, fv):
			kept.add(extra, key, value)
		case f.bit >= 0 && !f.nullable && isNullLiteral(value):
			kept.add(extra, key, value) // a null the field cannot hold
		}
	}
}

// canonicalTime reports whether value, the JSON a timestamp field fv was
// decoded from, is what the encoder writes for fv (or null).
func canonicalTime(value []byte, fv reflect.Value) bool {
	if isNullLiteral(value) {
		return true
	}
	if fv.Kind() == reflect.Pointer {
		if fv.IsNil() {
			return false
		}
		fv = fv.Elem()
	}
	var buf [64]byte
	b := append(buf[:0], '"')
	b = fv.Addr().Interface().(*time.Time).AppendFormat(b, time.RFC3339Nano)
	b = append(b, '"')
	return bytes.Equal(b, value)
}

// keeper collects the members a struct keeps in Extra and copies them, at
// the end of the object, into one allocation: records of one kind often
// carry a few members this version does not model.
type keeper struct {
	n       int
	pending [4]struct {
		key   string
		value []byte
	}
}

func (k *keeper) add(extra *map[string]json.RawMessage, key, value []byte) {
	k.addName(extra, memberName(key), value)
}

func (k *keeper) addName(extra *map[string]json.RawMessage, name string, value []byte) {
	if k.n == len(k.pending) {
		if *extra == nil {
			*extra = make(map[string]json.RawMessage, 2)
		}
		(*extra)[name] = Clone(value)
		return
	}
	k.pending[k.n].key, k.pending[k.n].value = name, value
	k.n++
}

// absent records, as entries with an empty value, the always-written
// members of si that seen does not have.
func (k *keeper) absent(extra *map[string]json.RawMessage, si *structInfo, seen uint64) {
	for missing := si.always &^ seen; missing != 0; missing &= missing - 1 {
		k.addName(extra, si.names[bits.TrailingZeros64(missing)], nil)
	}
}

func (k *keeper) flush(extra *map[string]json.RawMessage) {
	if k.n == 0 {
		return
	}
	size := 0
	for _, p := range k.pending[:k.n] {
		size += len(p.value)
	}
	buf := make([]byte, 0, size)
	if *extra == nil {
		*extra = make(map[string]json.RawMessage, k.n)
	}
	// Latest first: a member repeated in the object keeps its last value,
	// and entries already in the map came after every pending one.
	for i := k.n - 1; i >= 0; i-- {
		p := &k.pending[i]
		if _, later := (*extra)[p.key]; later {
			continue
		}
		if len(p.value) == 0 {
			(*extra)[p.key] = nil // absent
			continue
		}
		start := len(buf)
		buf = append(buf, p.value...)
		(*extra)[p.key] = json.RawMessage(buf[start:len(buf):len(buf)])
	}
}

// memberName returns a kept member's name, interned (records of one kind
// carry the same few), with invalid UTF-8 replaced as the encoder writes
// it, so a kept member re-encodes and decodes back under the same name.
func memberName(key []byte) string {
	if utf8.Valid(key) {
		return intern(key)
	}
	return string(bytes.ToValidUTF8(key, []byte("\uFFFD")))
}

// checkTypeValue returns ErrOtherType unless the JSON string value is want.
func checkTypeValue(value []byte, want string) error {
	if len(value) == len(want)+2 && value[0] == '"' && string(value[1:len(value)-1]) == want {
		return nil
	}
	got, err := unquote(value)
	if err != nil {
		return fmt.Errorf(`codec: "type" is not a string: %w`, err)
	}
	if got != want {
		return fmt.Errorf("%w: %q where %q belongs", ErrOtherType, got, want)
	}
	return nil
}

func hasConst(consts map[string]string, key []byte) bool {
	_, ok := consts[string(key)]
	return ok
}

// checkConst requires a Spec.Const member to hold its value.
func checkConst(value []byte, name, want string) error {
	if got, err := unquote(value); err != nil || got != want {
		return fmt.Errorf("%w: %q is %s where %q belongs", ErrOtherType, name, value, want)
	}
	return nil
}

// decodeOwned decodes an owned struct: its Spec's Decode, or the fields
// with Extra.
func decodeOwned(data []byte, v reflect.Value) error {
	if isNullLiteral(data) {
		return nil
	}
	return DecodeStruct(data, v)
}

// DecodeStruct decodes the object data into the struct v points to with the
// structural codec, whatever v's registration (for a Decode hook that
// builds on it).
func DecodeStruct(data []byte, v reflect.Value) error {
	si := infoOf(v.Type())
	if si.extra < 0 {
		return decodeFields(data, v, si, nil)
	}
	ex := v.Field(si.extra).Addr().Interface().(*map[string]json.RawMessage)
	*ex = nil
	return decodeFields(data, v, si, ex)
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

type decFunc func(data []byte, v reflect.Value) error

var decCache sync.Map // reflect.Type -> decFunc

// decoderFor returns t's decoder. Building one looks at t only (element
// and field decoders are looked up when used), so recursive types need no
// care.
func decoderFor(t reflect.Type) decFunc {
	if f, ok := decCache.Load(t); ok {
		return f.(decFunc)
	}
	f := newDecoder(t)
	decCache.Store(t, f)
	return f
}

func newDecoder(t reflect.Type) decFunc {
	if t.Kind() == reflect.Interface {
		if u := unionOf(t); u != nil {
			return u.decodeInto
		}
	}
	if s := specOf(t); s != nil && s.Decode != nil {
		return s.Decode
	}
	if owned(t) && t.Kind() == reflect.Struct {
		return decodeOwned
	}
	if !owned(t) && reflect.PointerTo(t).Implements(unmarshalerType) {
		return func(data []byte, v reflect.Value) error {
			return v.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(data)
		}
	}
	switch t.Kind() {
	case reflect.String:
		return func(data []byte, v reflect.Value) error {
			if isNullLiteral(data) {
				return nil
			}
			s, err := unquote(data)
			if err != nil {
				return err
			}
			v.SetString(s)
			return nil
		}
	case reflect.Bool:
		return func(data []byte, v reflect.Value) error {
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
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		return func(data []byte, v reflect.Value) error {
			if isNullLiteral(data) {
				return nil
			}
			n, err := strconv.ParseInt(string(data), 10, bits)
			if err != nil {
				return fmt.Errorf("codec: %.20q is not an integer of %v", data, v.Type())
			}
			v.SetInt(n)
			return nil
		}
	case reflect.Float32, reflect.Float64:
		bits := t.Bits()
		return func(data []byte, v reflect.Value) error {
			if isNullLiteral(data) {
				return nil
			}
			f, err := strconv.ParseFloat(string(data), bits)
			if err != nil || !isNumber(data) {
				return fmt.Errorf("codec: %.20q is not a number", data)
			}
			v.SetFloat(f)
			return nil
		}
	case reflect.Pointer:
		elem := t.Elem()
		return func(data []byte, v reflect.Value) error {
			if isNullLiteral(data) {
				v.SetZero()
				return nil
			}
			if v.IsNil() {
				v.Set(reflect.New(elem))
			}
			return decoderFor(elem)(data, v.Elem())
		}
	case reflect.Struct:
		return func(data []byte, v reflect.Value) error {
			if isNullLiteral(data) {
				return nil
			}
			return decodeStruct(data, v, nil)
		}
	case reflect.Map:
		// A map of the codec's own types (records with Extra, unions) must
		// decode its values here: encoding/json would drop their Extra.
		if t.Key().Kind() != reflect.String || !needsCodec(t.Elem()) {
			break
		}
		return func(data []byte, v reflect.Value) error {
			if isNullLiteral(data) {
				v.SetZero()
				return nil
			}
			return decodeMap(data, v)
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 { // []byte: base64, as encoding/json
			break
		}
		return func(data []byte, v reflect.Value) error {
			if isNullLiteral(data) {
				v.SetZero()
				return nil
			}
			return decodeSlice(data, v)
		}
	}
	return func(data []byte, v reflect.Value) error {
		return json.Unmarshal(data, v.Addr().Interface())
	}
}

func isNullLiteral(data []byte) bool { return len(data) == 4 && string(data) == "null" }

// needsCodec reports whether values of t (through pointers) are the
// codec's own: registered records or unions.
func needsCodec(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return owned(t) || t.Kind() == reflect.Interface && unionOf(t) != nil
}

// decodeMap decodes an object into a map with string keys, each value with
// the codec.
func decodeMap(data []byte, v reflect.Value) error {
	t := v.Type()
	out := reflect.MakeMap(t)
	dec := decoderFor(t.Elem())
	err := EachMember(data, func(key string, value []byte) error {
		elem := reflect.New(t.Elem()).Elem()
		if err := dec(value, elem); err != nil {
			return fmt.Errorf("%q: %w", key, err)
		}
		out.SetMapIndex(reflect.ValueOf(key).Convert(t.Key()), elem)
		return nil
	})
	if err != nil {
		return err
	}
	v.Set(out)
	return nil
}

func decodeSlice(data []byte, v reflect.Value) error {
	n := 0
	out := reflect.MakeSlice(v.Type(), 0, 4)
	dec := decoderFor(v.Type().Elem())
	zero := reflect.Zero(v.Type().Elem())
	err := EachElement(data, func(elem []byte) error {
		out = reflect.Append(out, zero)
		if err := dec(elem, out.Index(n)); err != nil {
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
// A value that is not a string is named by its kind, never quoted: the
// field may be a secret sent in the wrong shape.
func unquote(data []byte) (string, error) {
	if len(data) < 2 || data[0] != '"' || data[len(data)-1] != '"' {
		return "", fmt.Errorf("codec: %s is not a string", jsonKind(data))
	}
	body := data[1 : len(data)-1]
	if plainPrefix(body) == len(body) {
		return string(body), nil
	}
	return unescape(body)
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

// jsonKind names the kind of a JSON value by its first byte, for errors
// that must not quote the value.
func jsonKind(data []byte) string {
	if len(data) == 0 {
		return "an empty value"
	}
	switch c := data[0]; {
	case c == '[':
		return "an array"
	case c == '{':
		return "an object"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	}
	return "a malformed value"
}
