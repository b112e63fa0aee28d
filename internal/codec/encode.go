package codec

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// The encoder: one pass over a value into one buffer, in one of two modes.
//
// Response mode writes everything a value holds, Extra included, so a
// decoded reply re-encodes to the JSON it came from. Request mode writes the
// request form: fields tagged `mms:"response"`, the unknown members in
// Extra and a Spec.RequestOmitsType "type" are left out (the service
// rejects members its request schema does not define); the remembered
// explicit zeros of modelled fields stay. In both modes, what decoding
// recorded in Extra about modelled members holds while the field keeps its
// decoded value: a member that came absent stays absent, and one that came
// null stays null, while its field is zero; a timestamp is written in the
// text it came in while it holds the same instant and offset.
//
// Strings of LargeString bytes or more (base64 images and PDFs, long
// documents) are not copied into the buffer: their place is recorded, and
// bytes assembles the result in one allocation of exactly its size,
// escaping each large string straight into place. An 8 MiB document thus
// costs about 1× its size in allocations.
//
// Output follows encoding/json's rules for the SDK's types (field names and
// order, omitempty/omitzero, float formatting, base64 for []byte, sorted map
// keys) without HTML escaping. It is not guaranteed byte-identical to
// encoding/json for every value: a json.RawMessage or MarshalJSON result is
// compacted as json.Compact does but not HTML-escaped (appendCompact, which
// accepts what json.Valid accepts), and the `,string` tag option falls back
// to encoding/json for its struct.

// LargeString is the size from which a string is spliced in by bytes
// instead of being copied into the buffer.
const LargeString = 64 << 10

// An Encoder writes one JSON document.
type Encoder struct {
	buf     []byte
	request bool
	large   []largeString
	parts   [][]byte // bytes' scratch
}

type largeString struct {
	at     int // offset in buf where the quoted string belongs
	s      string
	quoted int // len(AppendQuoted(nil, s)), set by bytes
}

// Request reports whether the encoder writes the request form.
func (e *Encoder) Request() bool { return e.request }

// Raw appends b, which must be valid JSON, as it is.
func (e *Encoder) Raw(b []byte) { e.buf = append(e.buf, b...) }

// String appends s as a JSON string.
func (e *Encoder) String(s string) {
	if len(s) >= LargeString {
		e.large = append(e.large, largeString{at: len(e.buf), s: s})
		return
	}
	e.buf = AppendQuoted(e.buf, s)
}

// Value appends v's JSON.
func (e *Encoder) Value(v reflect.Value) error {
	if !v.IsValid() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	return encoderFor(v.Type())(e, v)
}

// Any appends the JSON of v.
func (e *Encoder) Any(v any) error { return e.Value(reflect.ValueOf(v)) }

// Struct appends the struct v with the structural codec, whatever its
// registration (for an Encode hook that adds to it).
func (e *Encoder) Struct(v reflect.Value) error {
	return structEncoderOf(v.Type())(e, v)
}

// StructAs is Struct with typ written first as the "type", in place of the
// registered one ("" writes none), for a type whose "type" the wire makes
// optional.
func (e *Encoder) StructAs(typ string, v reflect.Value) error {
	p := planOf(v.Type())
	if p.typ != typ {
		q := *p
		var consts map[string]string
		if spec := specOf(v.Type()); spec != nil {
			consts = spec.Const
		}
		q.typ, q.head = typ, headOf(typ, consts)
		q.reqHead = q.head
		p = &q
	}
	return e.structValue(p, v)
}

// bytes assembles the document; members, when not empty, are inserted
// first in the top-level object (which the document must be). When no
// large string needs escaping (base64 payloads), bytes.Join copies the
// pieces into a buffer it need not zero first; otherwise each large string
// is escaped straight into a buffer of the exact size.
func (e *Encoder) bytes(members string) []byte {
	clean := true
	size := len(e.buf)
	for i := range e.large {
		l := &e.large[i]
		l.quoted = quotedLen(l.s)
		size += l.quoted
		clean = clean && l.quoted == len(l.s)+2
	}
	last := 0
	parts := e.parts[:0]
	if members != "" {
		parts = append(parts, e.buf[:1], readOnly(members))
		size += len(members)
		if len(e.buf) > 2 {
			parts = append(parts, comma)
			size++
		}
		last = 1
	}
	if clean {
		for _, l := range e.large {
			parts = append(parts, e.buf[last:l.at], quote, readOnly(l.s), quote)
			last = l.at
		}
		out := bytes.Join(append(parts, e.buf[last:]), nil)
		clear(parts)
		e.parts = parts[:0]
		return out
	}
	out := make([]byte, 0, size)
	for _, p := range parts {
		out = append(out, p...)
	}
	clear(parts)
	e.parts = parts[:0]
	for _, l := range e.large {
		out = append(out, e.buf[last:l.at]...)
		out = AppendQuoted(out, l.s)
		last = l.at
	}
	return append(out, e.buf[last:]...)
}

var (
	quote = []byte{'"'}
	comma = []byte{','}
)

// readOnly views s as bytes without copying; the result must not be
// written to.
func readOnly(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

var encoderPool = sync.Pool{New: func() any { return &Encoder{buf: make([]byte, 0, 1024)} }}

// Marshal encodes v in response mode (everything it holds). The SDK's own
// types go through their registered codec; other values follow
// encoding/json, without HTML escaping.
func Marshal(v any) ([]byte, error) { return marshal(v, false, "") }

// MarshalRequest encodes v in request mode (the request form).
func MarshalRequest(v any) ([]byte, error) { return marshal(v, true, "") }

// MarshalRequestWith is MarshalRequest with members (e.g. `"stream":true`)
// inserted first in the top-level object, which v must encode as, at no
// extra copy.
func MarshalRequestWith(v any, members string) ([]byte, error) {
	return marshal(v, true, members)
}

func marshal(v any, request bool, members string) ([]byte, error) {
	e := encoderPool.Get().(*Encoder)
	e.buf, e.large, e.request = e.buf[:0], e.large[:0], request
	defer func() {
		if cap(e.buf) <= 1<<20 {
			clear(e.large)
			encoderPool.Put(e)
		}
	}()
	if err := e.Any(v); err != nil {
		return nil, err
	}
	if members != "" && (len(e.buf) < 2 || e.buf[0] != '{') {
		return nil, fmt.Errorf("codec: %T does not encode as an object", v)
	}
	return e.bytes(members), nil
}

// Encode writes v to buf as compact JSON in response mode, without HTML
// escaping.
func Encode(buf *bytes.Buffer, v any) error {
	b, err := Marshal(v)
	if err != nil {
		return err
	}
	buf.Write(b)
	return nil
}

// ---------------------------------------------------------------------------
// per-type encoders

type encFunc func(e *Encoder, v reflect.Value) error

var encCache sync.Map // reflect.Type -> encFunc

// encoderFor returns t's encoder, building it once. A recursive type gets a
// forwarding encoder while its own is built, as in encoding/json.
func encoderFor(t reflect.Type) encFunc {
	if f, ok := encCache.Load(t); ok {
		return f.(encFunc)
	}
	var (
		wg sync.WaitGroup
		f  encFunc
	)
	wg.Add(1)
	fi, loaded := encCache.LoadOrStore(t, encFunc(func(e *Encoder, v reflect.Value) error {
		wg.Wait()
		return f(e, v)
	}))
	if loaded {
		return fi.(encFunc)
	}
	f = newEncoder(t)
	wg.Done()
	encCache.Store(t, f)
	return f
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

func newEncoder(t reflect.Type) encFunc {
	if s := specOf(t); s != nil && s.Encode != nil {
		return s.Encode
	}
	if isRaw(t) {
		return encodeRaw
	}
	if t.Kind() == reflect.Struct && owned(t) {
		return structEncoderOf(t)
	}
	if t == rawMessageType {
		return encodeRawMessage
	}
	if t.Kind() == reflect.Interface {
		return encodeInterface
	}
	if t.Kind() == reflect.Pointer && owned(t.Elem()) {
		return pointerEncoder(t)
	}
	if specOf(t) == nil {
		if t.Implements(marshalerType) {
			return encodeMarshaler
		}
		if t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(marshalerType) {
			return addrEncoder(t, encodeMarshaler)
		}
		if t.Implements(textMarshalerType) {
			return encodeTextMarshaler
		}
		if t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(textMarshalerType) {
			return addrEncoder(t, encodeTextMarshaler)
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		return func(e *Encoder, v reflect.Value) error {
			e.buf = strconv.AppendBool(e.buf, v.Bool())
			return nil
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(e *Encoder, v reflect.Value) error {
			e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
			return nil
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(e *Encoder, v reflect.Value) error {
			e.buf = strconv.AppendUint(e.buf, v.Uint(), 10)
			return nil
		}
	case reflect.Float32, reflect.Float64:
		bits := t.Bits()
		return func(e *Encoder, v reflect.Value) error {
			return e.float(v.Float(), bits)
		}
	case reflect.String:
		return func(e *Encoder, v reflect.Value) error {
			e.String(v.String())
			return nil
		}
	case reflect.Interface:
		return encodeInterface
	case reflect.Pointer:
		return pointerEncoder(t)
	case reflect.Struct:
		return structEncoderOf(t)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !reflect.PointerTo(t.Elem()).Implements(marshalerType) {
			return encodeBytes
		}
		return sliceEncoder(t)
	case reflect.Array:
		return sliceEncoder(t)
	case reflect.Map:
		if t.Key().Kind() == reflect.String && !t.Key().Implements(textMarshalerType) {
			return mapEncoder(t)
		}
	}
	return encodeFallback
}

func pointerEncoder(t reflect.Type) encFunc {
	enc := encoderFor(t.Elem())
	return func(e *Encoder, v reflect.Value) error {
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		return enc(e, v.Elem())
	}
}

func addrEncoder(t reflect.Type, withAddr encFunc) encFunc {
	return func(e *Encoder, v reflect.Value) error {
		if v.CanAddr() {
			return withAddr(e, v.Addr())
		}
		p := reflect.New(t)
		p.Elem().Set(v)
		return withAddr(e, p)
	}
}

// encodeFallback hands a value the encoder does not model to encoding/json.
func encodeFallback(e *Encoder, v reflect.Value) error {
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return err
	}
	e.buf = append(e.buf, b...)
	return nil
}

func encodeInterface(e *Encoder, v reflect.Value) error {
	if v.IsNil() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	el := v.Elem()
	return encoderFor(el.Type())(e, el)
}

// encodeRaw writes an Unknown variant's Raw; in request mode without its
// "type" member when the variant is registered with Spec.RequestOmitsType.
func encodeRaw(e *Encoder, v reflect.Value) error {
	raw := v.FieldByName("Raw").Bytes()
	if len(raw) == 0 {
		return fmt.Errorf("%w (type %q)", ErrNoRaw, v.FieldByName("Type").String())
	}
	if e.request {
		if s := specOf(v.Type()); s != nil && s.RequestOmitsType {
			return e.objectWithout(raw, "type")
		}
	}
	e.buf = append(e.buf, raw...)
	return nil
}

// objectWithout appends the JSON object obj without its members named
// name (a value that is not an object is appended as it is).
func (e *Encoder) objectWithout(obj []byte, name string) error {
	obj = trimSpace(obj)
	if len(obj) == 0 || obj[0] != '{' {
		e.buf = append(e.buf, obj...)
		return nil
	}
	e.buf = append(e.buf, '{')
	mark := len(e.buf)
	err := eachMember(obj, func(key, value []byte) error {
		if string(key) == name {
			return nil
		}
		if len(e.buf) > mark {
			e.buf = append(e.buf, ',')
		}
		e.buf = append(AppendQuoted(e.buf, string(key)), ':')
		e.buf = append(e.buf, value...)
		return nil
	})
	e.buf = append(e.buf, '}')
	return err
}

func encodeRawMessage(e *Encoder, v reflect.Value) error {
	raw := v.Bytes()
	if len(raw) == 0 {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	return e.compact(raw)
}

// compact appends the JSON in b without insignificant space, checking it.
func (e *Encoder) compact(b []byte) error {
	out, err := appendCompact(e.buf, b)
	if err != nil {
		return err
	}
	e.buf = out
	return nil
}

func encodeMarshaler(e *Encoder, v reflect.Value) error {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	b, err := v.Interface().(json.Marshaler).MarshalJSON()
	if err != nil {
		return err
	}
	return e.compact(b)
}

func encodeTextMarshaler(e *Encoder, v reflect.Value) error {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	b, err := v.Interface().(encoding.TextMarshaler).MarshalText()
	if err != nil {
		return err
	}
	e.String(string(b))
	return nil
}

func encodeBytes(e *Encoder, v reflect.Value) error {
	if v.IsNil() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	b := v.Bytes()
	e.buf = append(e.buf, '"')
	e.buf = base64.StdEncoding.AppendEncode(e.buf, b)
	e.buf = append(e.buf, '"')
	return nil
}

func sliceEncoder(t reflect.Type) encFunc {
	enc := encoderFor(t.Elem())
	isSlice := t.Kind() == reflect.Slice
	return func(e *Encoder, v reflect.Value) error {
		if isSlice && v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		e.buf = append(e.buf, '[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			if err := enc(e, v.Index(i)); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
		e.buf = append(e.buf, ']')
		return nil
	}
}

func mapEncoder(t reflect.Type) encFunc {
	enc := encoderFor(t.Elem())
	return func(e *Encoder, v reflect.Value) error {
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		e.buf = append(e.buf, '{')
		for i, k := range keys {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.buf = AppendQuoted(e.buf, k.String())
			e.buf = append(e.buf, ':')
			if err := enc(e, v.MapIndex(k)); err != nil {
				return fmt.Errorf("%s: %w", k.String(), err)
			}
		}
		e.buf = append(e.buf, '}')
		return nil
	}
}

// float appends f as encoding/json does: 'f' format, or 'e' for very small
// and very large magnitudes, with a two-digit exponent cleaned up.
func (e *Encoder) float(f float64, bits int) error {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return fmt.Errorf("codec: unsupported value %v", f)
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 {
		if bits == 64 && (a < 1e-6 || a >= 1e21) || bits == 32 && (float32(a) < 1e-6 || float32(a) >= 1e21) {
			format = 'e'
		}
	}
	b := strconv.AppendFloat(e.buf, f, format, -1, bits)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	e.buf = b
	return nil
}

// ---------------------------------------------------------------------------
// structs

// encField is one member of a struct's encoding.
type encField struct {
	name     string
	key      []byte // `"name":`
	index    []int
	typ      reflect.Type
	enc      encFunc
	omit     func(v reflect.Value) bool // nil: never omitted
	omitzero bool                       // optional: an Extra entry may stand for it
	always   bool                       // always written: an absent entry in Extra may leave it out
	time     bool                       // a timestamp: a text kept in Extra may stand for it
	zero     func(v reflect.Value) bool // reports a zero value (always fields)
	response bool                       // left out of the request form
	custom   *FieldCodec
}

type structPlan struct {
	typ  string // the wire "type" written first, or ""
	head []byte // typ's member, `"type":"name"`, and the constants, or nil
	// reqHead is head in request mode (without "type" for a
	// Spec.RequestOmitsType).
	reqHead []byte
	fields  []encField
	byName  map[string]*encField
	extra   int // index of the Extra field, or -1
	// fallback: the struct uses an option this encoder does not model.
	fallback bool
}

var planCache sync.Map // reflect.Type -> *structPlan

func planOf(t reflect.Type) *structPlan {
	if p, ok := planCache.Load(t); ok {
		return p.(*structPlan)
	}
	p := buildPlan(t)
	planCache.Store(t, p)
	return p
}

func buildPlan(t reflect.Type) *structPlan {
	p := &structPlan{extra: -1, byName: make(map[string]*encField)}
	spec := specOf(t)
	if spec != nil {
		p.typ, p.head = spec.Type, headOf(spec.Type, spec.Const)
	}
	p.reqHead = p.head
	if spec != nil && spec.RequestOmitsType {
		p.reqHead = headOf("", spec.Const)
	}
	if i, ok := extraField(t); ok {
		p.extra = i
	}
	for _, f := range fieldsOf(t) {
		if f.stringOpt {
			p.fallback = true
		}
		ef := encField{
			name: f.name, key: append(AppendQuoted(nil, f.name), ':'),
			index: f.index, typ: f.typ, enc: encoderFor(f.typ), omitzero: f.omitzero || f.omitempty, response: f.response,
		}
		switch {
		case f.omitzero:
			ef.omit = zeroFunc(f.typ)
		case f.omitempty:
			ef.omit = isEmptyValue
		}
		var omit func(*Encoder, reflect.Value) bool
		if spec != nil {
			if fc, ok := spec.Fields[f.name]; ok {
				ef.custom, omit = &fc, fc.Omit
			}
		}
		// As the decoder's structInfo.always (its first 64).
		ef.always = !ef.omitzero && omit == nil
		ef.time = isTime(f.typ)
		if ef.always {
			ef.zero = zeroFunc(f.typ)
		}
		p.fields = append(p.fields, ef)
	}
	for i := range p.fields {
		p.byName[p.fields[i].name] = &p.fields[i]
	}
	return p
}

func typeMember(typ string) []byte {
	if typ == "" {
		return nil
	}
	return AppendQuoted([]byte(`"type":`), typ)
}

// headOf is what a struct writes first: its "type", then its constant
// members in name order.
func headOf(typ string, consts map[string]string) []byte {
	head := typeMember(typ)
	for _, name := range slices.Sorted(maps.Keys(consts)) {
		if len(head) > 0 {
			head = append(head, ',')
		}
		head = append(AppendQuoted(head, name), ':')
		head = AppendQuoted(head, consts[name])
	}
	return head
}

var isZeroerType = reflect.TypeFor[interface{ IsZero() bool }]()

func zeroFunc(t reflect.Type) func(reflect.Value) bool {
	switch {
	case t.Kind() == reflect.Pointer && t.Implements(isZeroerType):
		return func(v reflect.Value) bool { return v.IsNil() || v.Interface().(interface{ IsZero() bool }).IsZero() }
	case t.Kind() != reflect.Interface && t.Implements(isZeroerType):
		return func(v reflect.Value) bool { return v.Interface().(interface{ IsZero() bool }).IsZero() }
	}
	return reflect.Value.IsZero
}

func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// structEncoderOf returns t's structural encoder. The plan is built on
// first use, not here, so that building encoders never recurses through
// a recursive type's fields.
func structEncoderOf(t reflect.Type) encFunc {
	var plan atomic.Pointer[structPlan]
	return func(e *Encoder, v reflect.Value) error {
		p := plan.Load()
		if p == nil {
			p = planOf(t)
			plan.Store(p)
		}
		return e.structValue(p, v)
	}
}

// fieldValue follows index through embedded pointers; ok is false when a
// nil embedded pointer hides the field.
func fieldValue(v reflect.Value, index []int) (reflect.Value, bool) {
	if len(index) == 1 {
		return v.Field(index[0]), true
	}
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

func (e *Encoder) structValue(p *structPlan, v reflect.Value) error {
	if p.fallback {
		return encodeFallback(e, v)
	}
	head := p.head
	if e.request {
		head = p.reqHead
	}
	e.buf = append(e.buf, '{')
	e.buf = append(e.buf, head...)
	// A member is preceded by a comma unless nothing follows the '{' yet.
	// Large strings are values, after their key, so they never hide one.
	mark := len(e.buf) - len(head)
	// kept is Extra when it holds something: what decoding recorded about
	// modelled members is looked up only then.
	var kept map[string]json.RawMessage
	if p.extra >= 0 {
		if ev := v.Field(p.extra); ev.Len() > 0 {
			kept = ev.Interface().(map[string]json.RawMessage)
		}
	}
	for i := range p.fields {
		f := &p.fields[i]
		if f.response && e.request {
			continue
		}
		fv, ok := fieldValue(v, f.index)
		if !ok {
			continue
		}
		if kept != nil && (f.always || f.time) {
			if raw, ok := kept[f.name]; ok {
				switch {
				case f.time && len(raw) > 0 && !isNullLiteral(raw):
					// a timestamp's text, while it holds that time
					if !(f.omit != nil && f.omit(fv)) && sameTime(raw, fv) {
						e.member(mark, f.key)
						e.buf = append(e.buf, raw...)
						continue
					}
				case f.always && f.zero(fv):
					// absent (no text) or null, and still zero
					if len(raw) > 0 {
						e.member(mark, f.key)
						e.buf = append(e.buf, raw...)
					}
					continue
				}
			}
		}
		if c := f.custom; c != nil {
			if c.Omit != nil && c.Omit(e, v) || c.Omit == nil && f.omit != nil && f.omit(fv) {
				continue
			}
			e.member(mark, f.key)
			if err := c.Encode(e, v); err != nil {
				return fmt.Errorf("%s: %w", f.name, err)
			}
			continue
		}
		if f.omit != nil && f.omit(fv) {
			continue
		}
		e.member(mark, f.key)
		if err := f.enc(e, fv); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
	}
	if kept != nil {
		if err := e.extraMembers(p, v, kept, mark); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, '}')
	return nil
}

// sameTime reports whether the timestamp field fv (time.Time or
// *time.Time) holds the instant and offset of raw, the JSON string it was
// decoded from.
func sameTime(raw []byte, fv reflect.Value) bool {
	if fv.Kind() == reflect.Pointer {
		if fv.IsNil() {
			return false
		}
		fv = fv.Elem()
	}
	var was time.Time
	if was.UnmarshalJSON(raw) != nil {
		return false
	}
	var now time.Time
	if fv.CanAddr() {
		now = *fv.Addr().Interface().(*time.Time)
	} else {
		now = fv.Interface().(time.Time)
	}
	_, o1 := was.Zone()
	_, o2 := now.Zone()
	return was.Equal(now) && o1 == o2
}

// member starts a member with key (`"name":`) in the object whose '{'
// ends at mark.
func (e *Encoder) member(mark int, key []byte) {
	if len(e.buf) > mark {
		e.buf = append(e.buf, ',')
	}
	e.buf = append(e.buf, key...)
}

// extraMembers writes the live entries of Extra in name order: an unknown
// member (response mode only), or the remembered explicit zero of an
// optional field that is still zero (a value set later wins). An entry
// with an empty value (a member that came absent) is never written.
func (e *Encoder) extraMembers(p *structPlan, v reflect.Value, m map[string]json.RawMessage, mark int) error {
	keys := make([]string, 0, len(m))
	for k, raw := range m {
		if len(raw) > 0 {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		raw := m[k]
		if !e.liveExtra(p, v, k, raw) {
			continue
		}
		if e.request && !json.Valid(raw) {
			return fmt.Errorf("codec: Extra[%q] is not valid JSON", k)
		}
		if len(e.buf) > mark {
			e.buf = append(e.buf, ',')
		}
		e.buf = AppendQuoted(e.buf, k)
		e.buf = append(e.buf, ':')
		e.buf = append(e.buf, raw...)
	}
	return nil
}

func (e *Encoder) liveExtra(p *structPlan, v reflect.Value, k string, raw []byte) bool {
	if k == "type" && p.typ != "" {
		return false
	}
	f, ok := p.byName[k]
	if !ok {
		return !e.request
	}
	if !f.omitzero || f.response && e.request {
		return false
	}
	if f.custom != nil && f.custom.Omit != nil {
		return f.custom.Omit(e, v)
	}
	fv, ok := fieldValue(v, f.index)
	if !ok {
		return true
	}
	if !f.omit(fv) {
		return false
	}
	// A timestamp's kept text stands for its zero value only if it is one
	// (a text kept for a value since cleared is stale).
	return !f.time || isNullLiteral(trimSpace(raw)) || sameTime(raw, fv)
}

// ---------------------------------------------------------------------------
// struct fields, shared by the encoder and the decoder

type fieldInfo struct {
	name      string
	index     []int
	typ       reflect.Type
	omitzero  bool
	omitempty bool
	response  bool // `mms:"response"`: response-only
	stringOpt bool
}

var fieldsCache sync.Map // reflect.Type -> []fieldInfo

// fieldsOf lists t's JSON members in encoding/json's order and naming: the
// tag name, else the Go name; anonymous struct fields without a tag are
// flattened; the shallower field wins a name conflict (tagged first).
func fieldsOf(t reflect.Type) []fieldInfo {
	if f, ok := fieldsCache.Load(t); ok {
		return f.([]fieldInfo)
	}
	type queued struct {
		t     reflect.Type
		index []int
	}
	var out []fieldInfo
	taken := map[string]bool{}
	level := []queued{{t, nil}}
	visited := map[reflect.Type]bool{}
	for len(level) > 0 {
		var next []queued
		seen := map[string]bool{}
		var found []fieldInfo
		for _, q := range level {
			if visited[q.t] {
				continue
			}
			visited[q.t] = true
			for i := 0; i < q.t.NumField(); i++ {
				sf := q.t.Field(i)
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := cutTag(tag)
				index := append(append([]int(nil), q.index...), i)
				if ft := sf.Type; sf.Anonymous && name == "" {
					if ft.Kind() == reflect.Pointer {
						ft = ft.Elem()
					}
					if ft.Kind() == reflect.Struct {
						next = append(next, queued{ft, index})
						continue
					}
				}
				if !sf.IsExported() {
					continue
				}
				if name == "" {
					name = sf.Name
				}
				if taken[name] {
					continue
				}
				fi := fieldInfo{
					name: name, index: index, typ: sf.Type,
					omitzero:  hasOpt(opts, "omitzero"),
					omitempty: hasOpt(opts, "omitempty"),
					stringOpt: hasOpt(opts, "string"),
					response:  sf.Tag.Get("mms") == "response",
				}
				if seen[name] {
					continue // the first at a depth wins
				}
				seen[name] = true
				found = append(found, fi)
			}
		}
		for _, f := range found {
			taken[f.name] = true
			out = append(out, f)
		}
		level = next
	}
	slices.SortStableFunc(out, func(a, b fieldInfo) int { return slices.Compare(a.index, b.index) })
	fieldsCache.Store(t, out)
	return out
}

func cutTag(tag string) (name, opts string, ok bool) { return strings.Cut(tag, ",") }

func hasOpt(opts, opt string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == opt {
			return true
		}
	}
	return false
}
