package mmstest

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Values for JSON Schemas: the generated tool inputs and the structured
// outputs (output_config.format), and the structured-output limits on a
// format's schema.

// maxRefDepth bounds recursion through $ref: past it, an anyOf or a type
// list takes its null branch when it has one, and past twice that a $ref
// gives null.
const maxRefDepth = 4

// stringFormats are the string formats a structured-output schema may use,
// with the value the fake gives each ("" for those built from the clock).
var stringFormats = map[string]string{
	"date-time": "", "date": "", "time": "",
	"duration": "PT1H", "email": "user@example.com", "hostname": "example.com",
	"uri": "https://example.com/", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1",
	"uuid": "00000000-0000-4000-8000-000000000000",
}

// schemaNode is the part of a JSON Schema the generator and the checks read.
type schemaNode struct {
	Ref                  string                     `json:"$ref"`
	Type                 json.RawMessage            `json:"type"`
	Enum                 []json.RawMessage          `json:"enum"`
	Const                json.RawMessage            `json:"const"`
	AnyOf                []json.RawMessage          `json:"anyOf"`
	Properties           map[string]json.RawMessage `json:"properties"`
	Required             []string                   `json:"required"`
	AdditionalProperties json.RawMessage            `json:"additionalProperties"`
	Items                json.RawMessage            `json:"items"`
	MinItems             int                        `json:"minItems"`
	Format               *string                    `json:"format"`
	Defs                 map[string]json.RawMessage `json:"$defs"`
	Definitions          map[string]json.RawMessage `json:"definitions"`
}

// types returns the node's type list ("type": "x" or ["x", "null"]).
func (n schemaNode) types() []string {
	var types []string
	if json.Unmarshal(n.Type, &types) != nil {
		var one string
		if json.Unmarshal(n.Type, &one) == nil && one != "" {
			types = []string{one}
		}
	}
	return types
}

// isObject reports whether the node describes an object.
func (n schemaNode) isObject() bool {
	return slices.Contains(n.types(), "object") || (n.Type == nil && n.Properties != nil)
}

// exampler builds a value for a schema: root resolves $ref, prompt fills
// plain strings and now the clock-based formats.
type exampler struct {
	root   json.RawMessage
	prompt string
	now    time.Time
}

// exampleEpoch is the clock of exampleValue, which has no server at hand.
var exampleEpoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// exampleValue builds a value for a JSON Schema by the rule in the package
// documentation, with date-time formats at exampleEpoch. Object members
// follow the schema's required order.
func exampleValue(schema json.RawMessage, prompt string) json.RawMessage {
	return exampler{root: schema, prompt: prompt, now: exampleEpoch}.value(schema, 0)
}

// example is exampleValue on the server's clock, compact.
func (s *Server) example(schema json.RawMessage, prompt string) json.RawMessage {
	return exampler{root: schema, prompt: prompt, now: s.now().UTC()}.value(schema, 0)
}

func (e exampler) value(schema json.RawMessage, depth int) json.RawMessage {
	var n schemaNode
	_ = json.Unmarshal(schema, &n) // a non-object schema behaves as {}
	deep := depth >= maxRefDepth
	switch {
	case n.Ref != "":
		if depth >= 2*maxRefDepth {
			return json.RawMessage("null")
		}
		return e.value(e.resolve(n.Ref), depth+1)
	case len(n.Enum) > 0:
		return compact(n.Enum[0])
	case n.Const != nil:
		return compact(n.Const)
	case len(n.AnyOf) > 0:
		pick := -1
		for i, b := range n.AnyOf {
			var bn schemaNode
			_ = json.Unmarshal(b, &bn)
			null := slices.Equal(bn.types(), []string{"null"})
			if (null == deep) && pick < 0 {
				pick = i
			}
		}
		if pick < 0 { // no branch of the wanted kind: the first one
			pick = 0
		}
		return e.value(n.AnyOf[pick], depth)
	}
	types := n.types()
	typ := ""
	for _, t := range types {
		if t != "null" {
			typ = t
			break
		}
	}
	if typ == "" && n.Properties != nil {
		typ = "object"
	}
	if deep && slices.Contains(types, "null") || typ == "" && slices.Contains(types, "null") {
		return json.RawMessage("null")
	}
	switch typ {
	case "integer", "number":
		return json.RawMessage("1")
	case "boolean":
		return json.RawMessage("true")
	case "array":
		var buf bytes.Buffer
		buf.WriteByte('[')
		for i := range max(n.MinItems, 0) {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Write(e.value(n.Items, depth))
		}
		buf.WriteByte(']')
		return buf.Bytes()
	case "object":
		var buf bytes.Buffer
		buf.WriteByte('{')
		for i, name := range n.Required {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Write(encodeJSON(name))
			buf.WriteByte(':')
			buf.Write(e.value(n.Properties[name], depth))
		}
		buf.WriteByte('}')
		return buf.Bytes()
	}
	if n.Format != nil {
		if v, ok := e.formatValue(*n.Format); ok {
			return encodeJSON(v)
		}
	}
	return encodeJSON(e.prompt)
}

// formatValue is the value of a supported string format.
func (e exampler) formatValue(format string) (string, bool) {
	switch format {
	case "date-time":
		return e.now.Format(time.RFC3339), true
	case "date":
		return e.now.Format(time.DateOnly), true
	case "time":
		return e.now.Format("15:04:05Z07:00"), true
	}
	v, ok := stringFormats[format]
	return v, ok
}

// resolve returns the schema a local $ref ("#", "#/$defs/name",
// "#/definitions/name") points to; {} for any other.
func (e exampler) resolve(ref string) json.RawMessage {
	if ref == "#" {
		return e.root
	}
	var root schemaNode
	_ = json.Unmarshal(e.root, &root)
	if name, ok := strings.CutPrefix(ref, "#/$defs/"); ok {
		if d, ok := root.Defs[name]; ok {
			return d
		}
	}
	if name, ok := strings.CutPrefix(ref, "#/definitions/"); ok {
		if d, ok := root.Definitions[name]; ok {
			return d
		}
	}
	return json.RawMessage("{}")
}

// compact returns v as compact JSON.
func compact(v json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if json.Compact(&buf, v) != nil {
		return v
	}
	return buf.Bytes()
}

// outputSchema returns the schema of the request's structured-output
// format (output_config.format, or the beta output_format) and its path;
// nil when the request asks for none.
func (p *msgParams) outputSchema() (json.RawMessage, string) {
	format, path := p.OutputFormat, "output_format"
	if p.OutputConfig != nil && present(p.OutputConfig.Format) {
		format, path = p.OutputConfig.Format, "output_config.format"
	}
	if !present(format) {
		return nil, ""
	}
	var f struct {
		Schema json.RawMessage `json:"schema"`
	}
	_ = json.Unmarshal(format, &f) // {type: json_schema, schema: obj}, as the request form checked
	return f.Schema, path + ".schema"
}

// checkOutputSchema applies the structured-output limits to a format's
// schema: every object has additionalProperties false, and every string
// format is a supported one. The error names the schema path.
func checkOutputSchema(schema json.RawMessage, path string) *apiError {
	var n schemaNode
	if json.Unmarshal(schema, &n) != nil {
		return nil // a boolean schema: nothing to check
	}
	if n.isObject() && string(compact(n.AdditionalProperties)) != "false" {
		return invalid("%s: For 'object' type, 'additionalProperties' must be explicitly set to false", path)
	}
	if n.Format != nil {
		if _, ok := stringFormats[*n.Format]; !ok {
			names := make([]string, 0, len(stringFormats))
			for f := range stringFormats {
				names = append(names, f)
			}
			slices.Sort(names)
			return invalid("%s.format: unsupported format %q; supported: %s", path, *n.Format, strings.Join(names, ", "))
		}
	}
	var children []struct {
		path   string
		schema json.RawMessage
	}
	add := func(p string, sc json.RawMessage) {
		if sc != nil {
			children = append(children, struct {
				path   string
				schema json.RawMessage
			}{p, sc})
		}
	}
	for _, group := range []struct {
		name string
		m    map[string]json.RawMessage
	}{{"properties", n.Properties}, {"$defs", n.Defs}, {"definitions", n.Definitions}} {
		names := make([]string, 0, len(group.m))
		for k := range group.m {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			add(path+"."+group.name+"."+k, group.m[k])
		}
	}
	add(path+".items", n.Items)
	for i, b := range n.AnyOf {
		add(path+".anyOf."+strconv.Itoa(i), b)
	}
	if jsonKind(n.AdditionalProperties) == '{' {
		add(path+".additionalProperties", n.AdditionalProperties)
	}
	for _, c := range children {
		if err := checkOutputSchema(c.schema, c.path); err != nil {
			return err
		}
	}
	return nil
}

// checkOutputFormat applies checkOutputSchema to the request's format.
func (p *msgParams) checkOutputFormat() *apiError {
	schema, path := p.outputSchema()
	if schema == nil {
		return nil
	}
	return checkOutputSchema(schema, path)
}
