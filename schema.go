package mms

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/jsonschema"
)

// JSONSchemaer is implemented by a type that supplies its own JSON Schema.
// SchemaFor uses the returned schema as is (compacted) in place of the one
// it would derive.
type JSONSchemaer interface{ JSONSchema() json.RawMessage }

// SchemaError is a Go type that SchemaFor cannot express as a JSON Schema.
type SchemaError struct {
	Type   reflect.Type // the type SchemaFor was asked for
	Path   string       // Go path to the field, e.g. "Order.Items[].Price"; "" for the type itself
	Reason string
}

// Error names the Go path of the type that cannot be expressed and why.
func (e *SchemaError) Error() string {
	at := ""
	if e.Path != "" {
		at = e.Path + ": "
	}
	return fmt.Sprintf("mms: no JSON schema for %v: %s%s", e.Type, at, e.Reason)
}

// SchemaFor returns the JSON Schema (draft 2020-12, compact JSON, a fresh
// copy) of T's JSON form as encoding/json writes and reads it, cached per
// type. A type it cannot express is a *SchemaError naming the field.
//
// Fields follow encoding/json: json tag names, "-", embedded structs
// promoted, ",string". A field is required unless it is a pointer or tagged
// omitempty or omitzero; a pointer is also nullable. Objects carry
// "additionalProperties": false; a map is an object whose
// additionalProperties is the value's schema. Tags add keywords:
// description:"…", enum:"a,b,c" (parsed for the field's kind; on a pointer,
// slice or array field it constrains the element) and format:"…" (one of
// date-time, time, date, duration, email, hostname, uri, ipv4, ipv6, uuid).
// A named type that contains itself is written once under "$defs" and
// referenced with "$ref" ("#" for the root type).
func SchemaFor[T any]() (json.RawMessage, error) { return SchemaOf(reflect.TypeFor[T]()) }

// SchemaOf is SchemaFor for a reflect.Type.
func SchemaOf(t reflect.Type) (json.RawMessage, error) {
	if t == nil {
		return nil, &SchemaError{Reason: "nil type"}
	}
	e := schemaEntryOf(t)
	if e.err != nil {
		c := *e.err
		return nil, &c
	}
	return bytes.Clone(e.schema), nil
}

// schemaEntry is one type's cached result.
type schemaEntry struct {
	schema json.RawMessage
	err    *SchemaError
	// mapPath is the Go path of the first map (structured outputs take
	// only objects with additionalProperties:false); raws are the
	// JSONSchemaer schemas used, for the same check.
	hasMap  bool
	mapPath string
	raws    []rawSchemaAt

	once     sync.Once
	compiled *jsonschema.Schema
	compErr  error
}

type rawSchemaAt struct {
	path string
	raw  json.RawMessage
}

// validator returns the entry's compiled schema.
func (e *schemaEntry) validator() (*jsonschema.Schema, error) {
	e.once.Do(func() { e.compiled, e.compErr = jsonschema.Compile(e.schema) })
	return e.compiled, e.compErr
}

var schemaCache sync.Map // reflect.Type → *schemaEntry

func schemaEntryOf(t reflect.Type) *schemaEntry {
	if e, ok := schemaCache.Load(t); ok {
		return e.(*schemaEntry)
	}
	e, _ := schemaCache.LoadOrStore(t, buildSchema(t))
	return e.(*schemaEntry)
}

func buildSchema(t reflect.Type) *schemaEntry {
	g := &schemaGen{root: t, stack: map[reflect.Type]bool{}, defs: map[reflect.Type]*node{}, defNames: map[reflect.Type]string{}, names: map[string]bool{}}
	n, err := g.gen(t, "", nil)
	if err != nil {
		err.Type = t
		if err.Path != "" {
			err.Path = strings.TrimPrefix(t.Name()+err.Path, ".")
		}
		return &schemaEntry{err: err}
	}
	b := n.write(nil, g)
	return &schemaEntry{schema: b, hasMap: g.hasMap, mapPath: g.mapPath, raws: g.raws}
}

var (
	jsonSchemaerType    = reflect.TypeFor[JSONSchemaer]()
	timeType            = reflect.TypeFor[time.Time]()
	rawMessageType      = reflect.TypeFor[json.RawMessage]()
	numberType          = reflect.TypeFor[json.Number]()
	jsonMarshalerType   = reflect.TypeFor[json.Marshaler]()
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// implements reports whether t or *t implements it.
func implements(t, it reflect.Type) bool {
	return t.Implements(it) || t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(it)
}

// node is a schema under construction, written with its members in a
// stable order.
type node struct {
	ref      string
	types    []string
	desc     string
	enum     []json.RawMessage
	format   string
	pattern  string
	items    *node
	fixedLen int // minItems = maxItems, when hasLen
	hasLen   bool
	props    []schemaProp
	required []string
	object   bool  // writes additionalProperties
	addl     *node // nil: additionalProperties false
	anyOf    []*node
	raw      json.RawMessage
}

type schemaProp struct {
	name string
	n    *node
}

// tagRules are a field's enum and format tags, applied to the first scalar
// under any pointers, slices and arrays.
type tagRules struct {
	enum, format string
	used         bool
}

type schemaGen struct {
	root     reflect.Type
	stack    map[reflect.Type]bool  // named types being generated
	defs     map[reflect.Type]*node // recursive types, written under $defs
	defOrder []reflect.Type
	defNames map[reflect.Type]string
	names    map[string]bool
	hasMap   bool
	mapPath  string
	raws     []rawSchemaAt
}

func schemaErr(path, format string, args ...any) *SchemaError {
	return &SchemaError{Path: path, Reason: fmt.Sprintf(format, args...)}
}

// gen returns t's schema; path is the Go path below the root type.
func (g *schemaGen) gen(t reflect.Type, path string, tags *tagRules) (*node, *SchemaError) {
	if t.Kind() == reflect.Pointer {
		n, err := g.gen(t.Elem(), path, tags)
		if err != nil {
			return nil, err
		}
		return nullable(n), nil
	}
	if t.Name() == "" {
		return g.genType(t, path, tags)
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Slice, reflect.Array, reflect.Map:
	default:
		return g.genType(t, path, tags)
	}
	// A named composite type may contain itself.
	if _, ok := g.defs[t]; ok {
		return &node{ref: g.refTo(t)}, nil
	}
	if g.stack[t] {
		if t != g.root {
			g.defs[t] = nil // reserved; filled when t's generation ends
			g.defOrder = append(g.defOrder, t)
		}
		return &node{ref: g.refTo(t)}, nil
	}
	g.stack[t] = true
	n, err := g.genType(t, path, tags)
	delete(g.stack, t)
	if err != nil {
		return nil, err
	}
	if _, ok := g.defs[t]; ok {
		g.defs[t] = n
		return &node{ref: g.refTo(t)}, nil
	}
	return n, nil
}

// refTo returns the $ref of a recursive type, naming its $defs entry on
// first use: the type name, with the package added (then a number) when two
// types share it.
func (g *schemaGen) refTo(t reflect.Type) string {
	if t == g.root {
		return "#"
	}
	name, ok := g.defNames[t]
	if !ok {
		base := defSafe(t.Name())
		name = base
		if g.names[name] {
			base = defSafe(t.PkgPath()[strings.LastIndexByte(t.PkgPath(), '/')+1:]) + "_" + base
			name = base
			for i := 2; g.names[name]; i++ {
				name = base + strconv.Itoa(i)
			}
		}
		g.names[name] = true
		g.defNames[t] = name
	}
	return "#/$defs/" + name
}

// defSafe keeps letters, digits and '_' so the name needs no escaping in a
// JSON pointer or URI fragment (generic type names carry brackets and
// import paths).
func defSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

func (g *schemaGen) genType(t reflect.Type, path string, tags *tagRules) (*node, *SchemaError) {
	switch {
	case implements(t, jsonSchemaerType):
		return g.ownSchema(t, path)
	case t == timeType:
		if tags != nil && tags.enum != "" {
			return nil, schemaErr(path, "enum tag on a time.Time")
		}
		if tags != nil && tags.format != "" {
			if tags.format != "date-time" {
				return nil, schemaErr(path, "format %q on a time.Time, which is always date-time", tags.format)
			}
			tags.used = true
		}
		return &node{types: []string{"string"}, format: "date-time"}, nil
	case t == rawMessageType:
		return &node{}, nil
	case t == numberType:
		return g.scalar(&node{types: []string{"number"}}, t, path, tags)
	case implements(t, jsonMarshalerType), implements(t, jsonUnmarshalerType):
		return nil, schemaErr(path, "%v has its own JSON encoding (json.Marshaler or json.Unmarshaler); give it a JSONSchema method", t)
	case implements(t, textMarshalerType), implements(t, textUnmarshalerType):
		if t.Kind() != reflect.String && !(implements(t, textMarshalerType) && implements(t, textUnmarshalerType)) {
			return nil, schemaErr(path, "%v implements only one of encoding.TextMarshaler and TextUnmarshaler", t)
		}
		return g.scalar(&node{types: []string{"string"}}, t, path, tags)
	}
	switch t.Kind() {
	case reflect.Bool:
		return g.scalar(&node{types: []string{"boolean"}}, t, path, tags)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return g.scalar(&node{types: []string{"integer"}}, t, path, tags)
	case reflect.Float32, reflect.Float64:
		return g.scalar(&node{types: []string{"number"}}, t, path, tags)
	case reflect.String:
		return g.scalar(&node{types: []string{"string"}}, t, path, tags)
	case reflect.Slice:
		if isByteSlice(t) {
			return &node{types: []string{"string"}, desc: "base64-encoded bytes"}, nil
		}
		items, err := g.gen(t.Elem(), path+"[]", tags)
		if err != nil {
			return nil, err
		}
		return &node{types: []string{"array"}, items: items}, nil
	case reflect.Array:
		items, err := g.gen(t.Elem(), path+"[]", tags)
		if err != nil {
			return nil, err
		}
		return &node{types: []string{"array"}, items: items, fixedLen: t.Len(), hasLen: true}, nil
	case reflect.Map:
		k := t.Key()
		switch k.Kind() {
		case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		default:
			if !implements(k, textMarshalerType) || !implements(k, textUnmarshalerType) {
				return nil, schemaErr(path, "map key type %v is not a string, an integer or an encoding.TextMarshaler", k)
			}
		}
		if !g.hasMap {
			g.hasMap, g.mapPath = true, path
		}
		v, err := g.gen(t.Elem(), path+"[]", nil)
		if err != nil {
			return nil, err
		}
		return &node{types: []string{"object"}, object: true, addl: v}, nil
	case reflect.Struct:
		return g.structNode(t, path)
	case reflect.Interface:
		if t.NumMethod() == 0 {
			return &node{}, nil
		}
		return nil, schemaErr(path, "interface %v has methods; only any (an empty interface) decodes", t)
	}
	return nil, schemaErr(path, "%v (a %v) has no JSON form", t, t.Kind())
}

// isByteSlice reports a slice encoding/json writes as a base64 string.
func isByteSlice(t reflect.Type) bool {
	e := t.Elem()
	return e.Kind() == reflect.Uint8 && !implements(e, jsonMarshalerType) && !implements(e, textMarshalerType)
}

// ownSchema returns a JSONSchemaer's schema, compacted.
func (g *schemaGen) ownSchema(t reflect.Type, path string) (n *node, err *SchemaError) {
	defer func() {
		if r := recover(); r != nil {
			n, err = nil, schemaErr(path, "%v.JSONSchema panicked: %v", t, r)
		}
	}()
	raw := reflect.New(t).Interface().(JSONSchemaer).JSONSchema()
	var buf bytes.Buffer
	if e := json.Compact(&buf, raw); e != nil {
		return nil, schemaErr(path, "%v.JSONSchema is not valid JSON: %v", t, e)
	}
	if b := buf.Bytes(); len(b) == 0 || (b[0] != '{' && string(b) != "true" && string(b) != "false") {
		return nil, schemaErr(path, "%v.JSONSchema is not a JSON object or boolean", t)
	}
	g.raws = append(g.raws, rawSchemaAt{path: path, raw: buf.Bytes()})
	return &node{raw: buf.Bytes()}, nil
}

// scalar applies a field's enum and format tags to a scalar node.
func (g *schemaGen) scalar(n *node, t reflect.Type, path string, tags *tagRules) (*node, *SchemaError) {
	if tags == nil || tags.enum == "" && tags.format == "" {
		return n, nil
	}
	tags.used = true
	if tags.format != "" {
		if n.types[0] != "string" {
			return nil, schemaErr(path, "format tag on %v, which is not a string", t)
		}
		if !jsonschema.FormatSupported(tags.format) {
			return nil, schemaErr(path, "format %q is not supported (use one of %s)", tags.format, strings.Join(jsonschema.Formats, ", "))
		}
		n.format = tags.format
	}
	if tags.enum == "" {
		return n, nil
	}
	seen := map[string]bool{}
	for _, s := range strings.Split(tags.enum, ",") {
		s = strings.TrimSpace(s)
		v, err := enumValue(n.types[0], t, s)
		if err != nil {
			return nil, schemaErr(path, "enum value %q: %v", s, err)
		}
		if seen[string(v)] {
			return nil, schemaErr(path, "enum value %q is repeated", s)
		}
		seen[string(v)] = true
		n.enum = append(n.enum, v)
	}
	return n, nil
}

// enumValue parses one enum tag value for a schema type.
func enumValue(typ string, t reflect.Type, s string) (json.RawMessage, error) {
	var err error
	switch typ {
	case "string":
		if s == "" {
			return nil, fmt.Errorf("empty")
		}
		return codec.AppendQuoted(nil, s), nil
	case "boolean":
		if s != "true" && s != "false" {
			err = fmt.Errorf("not true or false")
		}
	case "integer":
		switch t.Kind() {
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			_, err = strconv.ParseUint(s, 10, t.Bits())
		default:
			_, err = strconv.ParseInt(s, 10, t.Bits())
		}
	case "number":
		var f float64
		f, err = strconv.ParseFloat(s, 64)
		if err == nil {
			var b []byte
			if b, err = json.Marshal(f); err == nil {
				return b, nil
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("not a valid %s for %v", typ, t)
	}
	return json.RawMessage(s), nil
}

// nullable lets n also be null.
func nullable(n *node) *node {
	switch {
	case n.raw != nil || n.ref != "":
		return &node{anyOf: []*node{n, {types: []string{"null"}}}}
	case n.types == nil && n.anyOf == nil:
		return n // any JSON value, null included
	case n.anyOf != nil:
		for _, b := range n.anyOf {
			if len(b.types) == 1 && b.types[0] == "null" {
				return n
			}
		}
		n.anyOf = append(n.anyOf, &node{types: []string{"null"}})
		return n
	}
	for _, t := range n.types {
		if t == "null" {
			return n
		}
	}
	n.types = append(n.types, "null")
	if n.enum != nil {
		n.enum = append(n.enum, json.RawMessage("null"))
	}
	return n
}

// write appends n's JSON; g's $defs follow the root's members.
func (n *node) write(b []byte, g *schemaGen) []byte {
	if n.raw != nil {
		return append(b, n.raw...) // a JSONSchemaer root has no $defs
	}
	b = append(b, '{')
	first := true
	key := func(k string) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = codec.AppendQuoted(b, k)
		b = append(b, ':')
	}
	if n.ref != "" {
		key("$ref")
		b = codec.AppendQuoted(b, n.ref)
	}
	switch len(n.types) {
	case 0:
	case 1:
		key("type")
		b = codec.AppendQuoted(b, n.types[0])
	default:
		key("type")
		b = appendList(b, len(n.types), func(b []byte, i int) []byte { return codec.AppendQuoted(b, n.types[i]) })
	}
	if n.desc != "" {
		key("description")
		b = codec.AppendQuoted(b, n.desc)
	}
	if n.enum != nil {
		key("enum")
		b = appendList(b, len(n.enum), func(b []byte, i int) []byte { return append(b, n.enum[i]...) })
	}
	if n.format != "" {
		key("format")
		b = codec.AppendQuoted(b, n.format)
	}
	if n.pattern != "" {
		key("pattern")
		b = codec.AppendQuoted(b, n.pattern)
	}
	if n.items != nil {
		key("items")
		b = n.items.write(b, nil)
	}
	if n.hasLen {
		key("minItems")
		b = strconv.AppendInt(b, int64(n.fixedLen), 10)
		key("maxItems")
		b = strconv.AppendInt(b, int64(n.fixedLen), 10)
	}
	if n.object && n.addl == nil {
		key("properties")
		b = append(b, '{')
		for i, p := range n.props {
			if i > 0 {
				b = append(b, ',')
			}
			b = codec.AppendQuoted(b, p.name)
			b = append(b, ':')
			b = p.n.write(b, nil)
		}
		b = append(b, '}')
		if len(n.required) > 0 {
			key("required")
			b = appendList(b, len(n.required), func(b []byte, i int) []byte { return codec.AppendQuoted(b, n.required[i]) })
		}
	}
	if n.object {
		key("additionalProperties")
		if n.addl == nil {
			b = append(b, "false"...)
		} else {
			b = n.addl.write(b, nil)
		}
	}
	if n.anyOf != nil {
		key("anyOf")
		b = appendList(b, len(n.anyOf), func(b []byte, i int) []byte { return n.anyOf[i].write(b, nil) })
	}
	if g != nil && len(g.defOrder) > 0 {
		key("$defs")
		b = append(b, '{')
		for i, t := range g.defOrder {
			if i > 0 {
				b = append(b, ',')
			}
			b = codec.AppendQuoted(b, g.defNames[t])
			b = append(b, ':')
			b = g.defs[t].write(b, nil)
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

func appendList(b []byte, n int, elem func([]byte, int) []byte) []byte {
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = elem(b, i)
	}
	return append(b, ']')
}

// decodeSchemaValue validates data against SchemaFor[T] and decodes it into
// a T; the error names the JSON path that failed (e.g.
// `$.items[2].price: want number, got string`).
func decodeSchemaValue[T any](data []byte) (T, error) {
	var v T
	e := schemaEntryOf(reflect.TypeFor[T]())
	if e.err != nil {
		c := *e.err
		return v, &c
	}
	s, err := e.validator()
	if err != nil {
		return v, err
	}
	if err := s.Validate(data); err != nil {
		return v, err
	}
	if err := json.Unmarshal(data, &v); err != nil {
		// The schema does not bound integer sizes or map key syntax.
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return v, &jsonschema.Error{Path: "$." + te.Field, Reason: fmt.Sprintf("want %v, got %s", te.Type, te.Value)}
		}
		return v, &jsonschema.Error{Path: "$", Reason: strings.TrimPrefix(err.Error(), "json: ")}
	}
	return v, nil
}
