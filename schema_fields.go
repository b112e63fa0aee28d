package mms

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"unicode"
)

// schemaField is one member of a struct's JSON form.
type schemaField struct {
	name   string
	tagged bool // the name came from a json tag
	index  []int
	typ    reflect.Type // the field's declared type
	goPath string       // Go selector from the struct, embedded fields included
	tag    reflect.StructTag
	omit   bool // omitempty or omitzero
	quoted bool // ",string" applies
	// viaPointer: promoted through an embedded pointer, so absent when it
	// is nil.
	viaPointer bool
}

// jsonFields lists t's JSON members the way encoding/json's typeFields
// does: breadth-first through embedded structs, a tagged name dominating an
// untagged one at the same depth, and an unresolved conflict dropping the
// name. The result is in field order.
func jsonFields(t reflect.Type) []schemaField {
	type walk struct {
		typ        reflect.Type
		index      []int
		goPath     string
		viaPointer bool
	}
	var current []walk
	next := []walk{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	var fields []schemaField
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, f := range current {
			if visited[f.typ] {
				continue
			}
			visited[f.typ] = true
			for i := range f.typ.NumField() {
				sf := f.typ.Field(i)
				if sf.Anonymous {
					et := sf.Type
					if et.Kind() == reflect.Pointer {
						et = et.Elem()
					}
					if !sf.IsExported() && et.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !validJSONTagName(name) {
					name = ""
				}
				index := append(slices.Clip(f.index), i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				goPath := sf.Name
				if f.goPath != "" {
					goPath = f.goPath + "." + sf.Name
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					field := schemaField{
						name: name, tagged: name != "", index: index, typ: sf.Type, goPath: goPath, tag: sf.Tag,
						omit:       hasTagOption(opts, "omitempty") || hasTagOption(opts, "omitzero"),
						quoted:     hasTagOption(opts, "string") && quotable(ft),
						viaPointer: f.viaPointer,
					}
					field.name = cmp.Or(field.name, sf.Name)
					fields = append(fields, field)
					if count[f.typ] > 1 {
						// Several instances at this depth: a duplicate makes
						// the conflict resolution below drop the name.
						fields = append(fields, fields[len(fields)-1])
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, walk{typ: ft, index: index, goPath: goPath, viaPointer: f.viaPointer || sf.Type.Kind() == reflect.Pointer})
				}
			}
		}
	}
	slices.SortFunc(fields, func(a, b schemaField) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0]
	for advance, i := 0, 0; i < len(fields); i += advance {
		for advance = 1; i+advance < len(fields) && fields[i+advance].name == fields[i].name; advance++ {
		}
		group := fields[i : i+advance]
		if len(group) > 1 && len(group[0].index) == len(group[1].index) && group[0].tagged == group[1].tagged {
			continue // ambiguous: encoding/json drops the name
		}
		out = append(out, group[0])
	}
	slices.SortFunc(out, func(a, b schemaField) int { return slices.Compare(a.index, b.index) })
	return out
}

// quotable reports whether ",string" applies to a field of type t (pointer
// removed): encoding/json quotes only plain bools, numbers and strings.
func quotable(t reflect.Type) bool {
	if implements(t, jsonMarshalerType) || implements(t, textMarshalerType) {
		return false // their encoders ignore the option
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.String:
		return true
	}
	return false
}

func hasTagOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}

// validJSONTagName is encoding/json's isValidTag.
func validJSONTagName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// structNode is a struct's object schema.
func (g *schemaGen) structNode(t reflect.Type, path string) (*node, *SchemaError) {
	n := &node{types: []string{"object"}, object: true, props: []schemaProp{}}
	for _, f := range jsonFields(t) {
		fn, err := g.field(t, f, path+"."+f.goPath)
		if err != nil {
			return nil, err
		}
		n.props = append(n.props, schemaProp{name: f.name, n: fn})
		if !f.omit && !f.viaPointer && f.typ.Kind() != reflect.Pointer {
			n.required = append(n.required, f.name)
		}
	}
	return n, nil
}

// field is one struct field's schema, its tags applied.
func (g *schemaGen) field(parent reflect.Type, f schemaField, path string) (*node, *SchemaError) {
	if err := embeddedUnexportedPointer(parent, f, path); err != nil {
		return nil, err
	}
	tags := &tagRules{enum: f.tag.Get("enum"), format: f.tag.Get("format")}
	_, hasEnum := f.tag.Lookup("enum")
	_, hasFormat := f.tag.Lookup("format")
	if hasEnum && tags.enum == "" || hasFormat && tags.format == "" {
		return nil, schemaErr(path, "empty enum or format tag")
	}
	var n *node
	if f.quoted {
		if hasEnum || hasFormat {
			return nil, schemaErr(path, "enum or format tag on a \",string\" field")
		}
		n = quotedNode(f.typ)
	} else {
		var err *SchemaError
		if n, err = g.gen(f.typ, path, tags); err != nil {
			return nil, err
		}
		if (hasEnum || hasFormat) && !tags.used {
			return nil, schemaErr(path, "enum or format tag on %v, which is not a string, number or bool (or a pointer, slice or array of one)", f.typ)
		}
	}
	if d, ok := f.tag.Lookup("description"); ok {
		if n.raw != nil {
			return nil, schemaErr(path, "description tag on %v, whose JSONSchema method gives the schema as is", f.typ)
		}
		n.desc = d
	}
	return n, nil
}

const quotedNumber = `^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`

// quotedNode is the schema of a ",string" field: its JSON text in a string.
func quotedNode(t reflect.Type) *node {
	ptr := t.Kind() == reflect.Pointer
	if ptr {
		t = t.Elem()
	}
	n := &node{types: []string{"string"}}
	switch t.Kind() {
	case reflect.Bool:
		n.pattern = `^(true|false)$`
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n.pattern = `^-?(0|[1-9][0-9]*)$`
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n.pattern = `^(0|[1-9][0-9]*)$`
	case reflect.Float32, reflect.Float64:
		n.pattern = quotedNumber
	case reflect.String:
		if t == numberType {
			n.pattern = quotedNumber
			break
		}
		n.pattern = `^".*"$`
	}
	if ptr {
		return nullable(n)
	}
	return n
}

// embeddedUnexportedPointer rejects a field promoted through an embedded
// pointer to an unexported struct: encoding/json cannot allocate it when
// decoding.
func embeddedUnexportedPointer(t reflect.Type, f schemaField, path string) *SchemaError {
	for _, i := range f.index[:len(f.index)-1] {
		sf := t.Field(i)
		if sf.Type.Kind() == reflect.Pointer {
			if !sf.IsExported() {
				return schemaErr(path, "promoted through an embedded pointer to unexported struct %v, which encoding/json cannot decode", sf.Type.Elem())
			}
			t = sf.Type.Elem()
			continue
		}
		t = sf.Type
	}
	return nil
}
