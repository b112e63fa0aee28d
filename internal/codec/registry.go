package codec

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
)

// The registry says how the SDK's own types travel, beyond what their
// fields and json tags say. A registered type (a union variant, an Unknown
// variant, or a type given a Spec or listed with Objects) is the codec's
// own: the codec encodes and decodes it structurally wherever it appears
// and never calls its MarshalJSON or UnmarshalJSON (which call back into
// the codec), so one pass covers a whole document and the encoding mode
// reaches every level. Registration happens in package variables and init
// functions, before any encoding.
//
// Extra is the one name for what a struct holds beyond its modelled fields:
// members this SDK version does not model; explicit zeros (null, "",
// false, 0) of optional (omitzero) fields, which the field alone cannot tell
// from absent; an empty entry for an always-written member that was absent;
// a null sent for an always-written field that cannot hold one; and the text
// of a timestamp not in the encoder's form (decodeStruct lists them). A
// registered struct with a field `Extra map[string]json.RawMessage` tagged
// `json:"-"` gets them on decode; all are written back in response mode
// while their field keeps its decoded value, and request mode leaves out
// only the unknown members.

// A Spec describes what differs about one registered type.
type Spec struct {
	// Type is the wire "type" written first and required on decode (a
	// different "type" is ErrOtherType). A union variant gets it from its
	// union's table; "" means none.
	Type string
	// RequestOmitsType leaves Type out of the request form (a member the
	// request schema does not define, that the response carries); response
	// mode writes it, and decoding accepts it. Registered for an Unknown
	// variant, it drops the "type" member of Raw in the request form.
	RequestOmitsType bool
	// Const lists members whose value is fixed, by wire name: written
	// after "type" in both modes, and required on decode (another value,
	// or none, is ErrOtherType), so they need no field.
	Const map[string]string
	// Fields overrides single members, by wire name.
	Fields map[string]FieldCodec
	// Encode and Decode, when set, replace the structural codec.
	Encode func(e *Encoder, v reflect.Value) error
	Decode func(data []byte, v reflect.Value) error
}

// A FieldCodec encodes and decodes one member of a struct; it gets the
// whole struct (addressable when decoding), so a member may depend on a
// sibling field (a string shorthand flag, say).
type FieldCodec struct {
	// Encode writes the member's value.
	Encode func(e *Encoder, parent reflect.Value) error
	// Decode reads the member's value into parent.
	Decode func(value []byte, parent reflect.Value) error
	// Omit, when set, reports whether the member is left out (else the
	// field's omitzero or omitempty decides).
	Omit func(e *Encoder, parent reflect.Value) bool
}

// ErrOtherType marks a value whose "type" is not the one its position
// allows. The nearest enclosing union turns the whole value into its
// Unknown variant, so nothing is re-typed or lost.
var ErrOtherType = errors.New("codec: unexpected type")

// ErrNoRaw is returned when an Unknown variant without Raw is encoded.
var ErrNoRaw = errors.New("codec: unknown variant has no raw JSON")

var (
	regMu  sync.Mutex
	specs  sync.Map // reflect.Type -> *Spec
	unions sync.Map // reflect.Type (interface) -> *union
	raws   sync.Map // reflect.Type -> bool: an Unknown variant {Type string; Raw json.RawMessage}
)

// Register records spec for the type of v (a value or a nil pointer of the
// type). It panics on a conflicting registration: tables are package
// variables, so a conflict is a programming error found at start-up.
func Register(v any, spec Spec) {
	register(typeOf(v), spec)
}

func typeOf(v any) reflect.Type {
	t := reflect.TypeOf(v)
	if t.Kind() == reflect.Pointer && reflect.ValueOf(v).IsNil() {
		t = t.Elem()
	}
	return t
}

func register(t reflect.Type, spec Spec) {
	regMu.Lock()
	defer regMu.Unlock()
	if old, ok := specs.Load(t); ok {
		o := old.(*Spec)
		if o.Type != spec.Type || spec.Encode != nil || spec.Decode != nil || spec.Fields != nil || spec.Const != nil || spec.RequestOmitsType {
			panic(fmt.Sprintf("codec: %v registered twice (type %q and %q)", t, o.Type, spec.Type))
		}
		return
	}
	s := spec
	specs.Store(t, &s)
}

func specOf(t reflect.Type) *Spec {
	if s, ok := specs.Load(t); ok {
		return s.(*Spec)
	}
	return nil
}

// Objects registers each type of vs (values or nil pointers) with an empty
// Spec: plain records whose fields and Extra say everything.
func Objects(vs ...any) {
	for _, v := range vs {
		Register(v, Spec{})
	}
}

// Owned reports whether t is registered (the codec handles it itself).
func Owned(t reflect.Type) bool { return owned(t) }

func owned(t reflect.Type) bool { return specOf(t) != nil || isRaw(t) }

var rawMessageType = reflect.TypeFor[json.RawMessage]()
var extraType = reflect.TypeFor[map[string]json.RawMessage]()

// extraField returns the index of t's Extra field.
func extraField(t reflect.Type) (int, bool) {
	f, ok := t.FieldByName("Extra")
	if !ok || len(f.Index) != 1 || f.Type != extraType || f.Tag.Get("json") != "-" {
		return 0, false
	}
	return f.Index[0], true
}

func isRaw(t reflect.Type) bool {
	_, ok := raws.Load(t)
	return ok
}

// union is a sealed interface's decode table.
type union struct {
	name     string
	key      string // the discriminating member, "type" unless Key says
	outside  bool   // the key travels beside the value (Outside): DecodeAs only
	variants map[string]reflect.Type
	unknown  reflect.Type
	// decode, when set, comes first; ok false hands data to the table.
	decode func(data []byte) (v reflect.Value, ok bool, err error)
}

func unionOf(t reflect.Type) *union {
	if u, ok := unions.Load(t); ok {
		return u.(*union)
	}
	return nil
}

// A Union is the table of a sealed interface U: each wire "type" with its
// variant. Build it once, as a package variable, with NewUnion and Add; its
// Decode is the only union decoder, and the codec uses it for every field,
// slice element or map value of type U.
type Union[U any] struct{ u *union }

// NewUnion starts the table of U. unknown is U's Unknown variant, a struct
// with the fields Type string and Raw json.RawMessage: a "type" the table
// does not know decodes into it, and it encodes as Raw.
func NewUnion[U any](name string, unknown U) *Union[U] {
	it := reflect.TypeFor[U]()
	if it.Kind() != reflect.Interface {
		panic(fmt.Sprintf("codec: NewUnion of %v, not an interface", it))
	}
	ut := reflect.TypeOf(unknown)
	if ft, ok := ut.FieldByName("Type"); !ok || ft.Type.Kind() != reflect.String {
		panic(fmt.Sprintf("codec: %v has no Type string field", ut))
	}
	if ft, ok := ut.FieldByName("Raw"); !ok || ft.Type != rawMessageType {
		panic(fmt.Sprintf("codec: %v has no Raw json.RawMessage field", ut))
	}
	raws.Store(ut, true)
	u := &union{name: name, key: "type", variants: make(map[string]reflect.Type), unknown: ut}
	if _, dup := unions.LoadOrStore(it, u); dup {
		panic(fmt.Sprintf("codec: union %v built twice", it))
	}
	return &Union[U]{u}
}

// Key makes member the union's discriminator in place of "type" (the
// memory tool's commands are told apart by "command"). Call it before Add:
// each variant is then registered with member as a constant (Spec.Const),
// and the Unknown variant's Type holds member's value.
func (t *Union[U]) Key(member string) *Union[U] {
	if len(t.u.variants) > 0 {
		panic(fmt.Sprintf("codec: union %s: Key after Add", t.u.name))
	}
	t.u.key = member
	return t
}

// Outside says the discriminator is no member of the value at all but
// travels beside it (a toolset call's action is its tool_use "name", the
// input holds the rest). Call it before Add: each variant is then a plain
// record, written without a key; decode with DecodeAs, which is given the
// key. Decode, and a field of type U, have no key to go by and fail.
func (t *Union[U]) Outside() *Union[U] {
	if len(t.u.variants) > 0 {
		panic(fmt.Sprintf("codec: union %s: Outside after Add", t.u.name))
	}
	t.u.outside = true
	return t
}

// Add records variant (a zero value of it) under the wire type typ. A Go
// type added under one name writes that "type" first; a Go type added under
// several (a versioned tool) must carry the type in a field tagged
// `json:"type"`, and writes no other.
func (t *Union[U]) Add(typ string, variant U) *Union[U] {
	vt := reflect.TypeOf(variant)
	if _, dup := t.u.variants[typ]; dup {
		panic(fmt.Sprintf("codec: union %s: type %q added twice", t.u.name, typ))
	}
	t.u.variants[typ] = vt
	switch {
	case t.u.outside:
		register(vt, Spec{})
	case t.u.key != "type":
		register(vt, Spec{Const: map[string]string{t.u.key: typ}})
	case hasTypeField(vt):
		register(vt, Spec{})
	default:
		register(vt, Spec{Type: typ})
	}
	return t
}

// AddSpec is Add for a variant that needs more than its "type" (a member
// with its own codec, say): spec.Type is set to typ.
func (t *Union[U]) AddSpec(typ string, variant U, spec Spec) *Union[U] {
	vt := reflect.TypeOf(variant)
	if _, dup := t.u.variants[typ]; dup {
		panic(fmt.Sprintf("codec: union %s: type %q added twice", t.u.name, typ))
	}
	t.u.variants[typ] = vt
	spec.Type = typ
	register(vt, spec)
	return t
}

// Custom sets a decoder that runs before the table: it returns ok false to
// hand data on to the table (used for values that are not always an object
// with a "type", e.g. an array of results).
func (t *Union[U]) Custom(decode func(data []byte) (U, bool, error)) *Union[U] {
	t.u.decode = func(data []byte) (reflect.Value, bool, error) {
		v, ok, err := decode(data)
		if !ok || err != nil {
			return reflect.Value{}, ok, err
		}
		return reflect.ValueOf(&v).Elem(), true, nil
	}
	return t
}

// BareString is Custom for a union one of whose forms is a bare JSON
// string (an id standing for a reference to it): a string decodes to
// conv's variant, anything else goes to the table.
func (t *Union[U]) BareString(conv func(s string) U) *Union[U] {
	return t.Custom(func(data []byte) (U, bool, error) {
		if len(data) == 0 || data[0] != '"' {
			var zero U
			return zero, false, nil
		}
		s, err := Unquote(data)
		return conv(s), true, err
	})
}

// Types returns the wire types of the table, for tests and derived tables.
func (t *Union[U]) Types() map[string]reflect.Type { return t.u.variants }

// Decode decodes one value of the union (JSON null is an error here; a
// null field or element decodes to a nil interface): by its "type" through
// the table; an unknown type (or a nested value of a type its position does not
// allow) becomes the Unknown variant holding a copy of data.
func (t *Union[U]) Decode(data []byte) (U, error) {
	var out U
	v, err := t.u.decodeValue(data)
	if err != nil {
		return out, err
	}
	if !v.IsValid() {
		return out, fmt.Errorf("codec: a %s cannot be null", t.u.name)
	}
	return v.Interface().(U), nil
}

// DecodeAs decodes data as the variant recorded under key, for a union whose
// key travels beside the value (Outside): a key the table does not know, or
// a value its variant refuses as another type, becomes the Unknown variant
// with Type key and a copy of data. JSON null is an error, as in Decode.
func (t *Union[U]) DecodeAs(key string, data []byte) (U, error) {
	var out U
	if isNull(data) {
		return out, fmt.Errorf("codec: a %s cannot be null", t.u.name)
	}
	vt, ok := t.u.variants[key]
	if !ok {
		v, err := t.u.unknownValue(key, data)
		if err != nil {
			return out, err
		}
		return v.Interface().(U), nil
	}
	v := reflect.New(vt).Elem()
	if err := decoderFor(vt)(data, v); err != nil {
		if !errors.Is(err, ErrOtherType) {
			return out, err
		}
		if v, err = t.u.unknownValue(key, data); err != nil {
			return out, err
		}
	}
	return v.Interface().(U), nil
}

// DecodeList decodes a JSON array of the union (null: nil).
func (t *Union[U]) DecodeList(data []byte) ([]U, error) {
	return DecodeArray(data, t.Decode)
}

// decodeInto is the decoder of a field, element or value of the union's
// interface type.
func (u *union) decodeInto(data []byte, v reflect.Value) error {
	uv, err := u.decodeValue(data)
	if err != nil {
		return err
	}
	if !uv.IsValid() {
		v.SetZero()
		return nil
	}
	v.Set(uv)
	return nil
}

func hasTypeField(t reflect.Type) bool {
	for i := 0; i < t.NumField(); i++ {
		if name, _, _ := cutTag(t.Field(i).Tag.Get("json")); name == "type" {
			return true
		}
	}
	return false
}

// decodeValue decodes data into a new variant, boxed in a reflect.Value of
// the variant's type. A JSON null is the invalid Value (a nil interface).
func (u *union) decodeValue(data []byte) (reflect.Value, error) {
	if isNull(data) {
		return reflect.Value{}, nil
	}
	if u.outside {
		return reflect.Value{}, fmt.Errorf("codec: a %s is told apart by a key outside it; decode it with DecodeAs", u.name)
	}
	if u.decode != nil {
		v, ok, err := u.decode(data)
		if errors.Is(err, ErrOtherType) {
			return u.unknownValue("", data)
		}
		if ok || err != nil {
			return v, err
		}
	}
	typ, err := PeekMember(data, u.key)
	if err != nil {
		return reflect.Value{}, fmt.Errorf("%s: %w", u.name, err)
	}
	vt, ok := u.variants[typ]
	if !ok {
		return u.unknownValue(typ, data)
	}
	v := reflect.New(vt).Elem()
	if err := decoderFor(vt)(data, v); err != nil {
		if errors.Is(err, ErrOtherType) {
			return u.unknownValue(typ, data)
		}
		return reflect.Value{}, err
	}
	if f, ok := infoOf(vt).fields[u.key]; ok && len(f.index) == 1 {
		// A variant that holds its own type (a versioned tool): a repeated
		// "type" member must not have changed it from the one that chose it.
		if tv := v.Field(f.index[0]); tv.Kind() == reflect.String && tv.String() != typ {
			return u.unknownValue(typ, data)
		}
	}
	return v, nil
}

// unknownValue builds the Unknown variant holding a copy of data, which
// must be well-formed JSON (the type peek alone does not check that).
func (u *union) unknownValue(typ string, data []byte) (reflect.Value, error) {
	if !json.Valid(data) {
		return reflect.Value{}, fmt.Errorf("codec: malformed JSON in %s %q", u.name, typ)
	}
	v := reflect.New(u.unknown).Elem()
	v.FieldByName("Type").SetString(typ)
	v.FieldByName("Raw").SetBytes(Clone(data))
	return v, nil
}

// MarshalOwned is Marshal for a registered type (the MarshalJSON of the
// SDK's types): an unregistered one is an error, never a recursion into its
// own MarshalJSON.
func MarshalOwned(v any) ([]byte, error) {
	if t := reflect.TypeOf(v); !owned(t) {
		return nil, fmt.Errorf("codec: %v is not registered", t)
	}
	return marshal(v, false, "")
}

// MarshalRequestOwned is MarshalRequest for a registered type.
func MarshalRequestOwned(v any) ([]byte, error) {
	if t := reflect.TypeOf(v); !owned(t) {
		return nil, fmt.Errorf("codec: %v is not registered", t)
	}
	return marshal(v, true, "")
}

// UnmarshalOwned decodes data into v, a pointer to a registered type (the
// UnmarshalJSON of the SDK's types). It does not validate data: callers
// hand it bytes that were checked where they entered (json.Unmarshal, or
// the client's response decoding); malformed input is reported or decoded
// leniently, never a panic.
func UnmarshalOwned(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("codec: UnmarshalOwned needs a non-nil pointer, got %T", v)
	}
	t := rv.Type().Elem()
	if !owned(t) {
		return fmt.Errorf("codec: %v is not registered", t)
	}
	return decoderFor(t)(trimSpace(data), rv.Elem())
}

func trimSpace(data []byte) []byte {
	i, j := 0, len(data)
	for i < j && isSpace(data[i]) {
		i++
	}
	for j > i && isSpace(data[j-1]) {
		j--
	}
	return data[i:j]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
