// Package jsonschema validates JSON documents against the subset of JSON
// Schema (draft 2020-12) that mms.SchemaFor emits: type (a name or a list),
// properties, required, additionalProperties (false or a schema), items,
// minItems, maxItems, enum, const, anyOf, pattern, $ref to "#" and to "#/…" pointers
// (such as "#/$defs/Name"), and format. Other keywords are ignored, as the
// draft says of unknown keywords.
package jsonschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Error is a document that does not match its schema, or a schema that
// cannot be applied. Path is a JSONPath to the value, such as
// "$.items[2].price"; "$" is the document itself.
type Error struct {
	Path   string
	Reason string
}

func (e *Error) Error() string { return e.Path + ": " + e.Reason }

// Schema is a parsed schema, safe for concurrent use.
type Schema struct {
	root     any
	patterns sync.Map // pattern → *regexp.Regexp
}

// maxDepth bounds schema evaluation: a $ref that loops without descending
// into the document (such as {"$ref":"#"} at the root) stops here.
const maxDepth = 10000

// Compile parses a schema (a JSON object or boolean).
func Compile(schema []byte) (*Schema, error) {
	v, err := decode(schema)
	if err != nil {
		return nil, fmt.Errorf("jsonschema: invalid schema: %w", err)
	}
	switch v.(type) {
	case bool, map[string]any:
	default:
		return nil, errors.New("jsonschema: invalid schema: not an object or boolean")
	}
	return &Schema{root: v}, nil
}

// Validate checks that doc, one JSON value, matches schema. A mismatch is an
// *Error naming the first failing value.
func Validate(schema, doc []byte) error {
	s, err := Compile(schema)
	if err != nil {
		return err
	}
	return s.Validate(doc)
}

// Validate checks that doc, one JSON value, matches the schema. Invalid JSON
// is an *Error at "$".
func (s *Schema) Validate(doc []byte) error {
	v, err := decode(doc)
	if err != nil {
		return &Error{Path: "$", Reason: "invalid JSON: " + strings.TrimPrefix(err.Error(), "json: ")}
	}
	return s.ValidateValue(v)
}

// ValidateValue checks a value decoded by encoding/json with UseNumber.
func (s *Schema) ValidateValue(v any) error {
	return (&validator{s}).check(s.root, v, "$", 0)
}

// decode reads exactly one JSON value, keeping numbers exact.
func decode(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err == nil {
		return nil, errors.New("json: data after the value")
	} else if err != io.EOF {
		return nil, err
	}
	return v, nil
}

type validator struct {
	*Schema
}

// regexp compiles a pattern once per schema. Go's RE2 syntax covers the
// simple patterns schemas use; a pattern it rejects is an error, not a pass.
func (c *validator) regexp(p string) (*regexp.Regexp, error) {
	if re, ok := c.patterns.Load(p); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", p, err)
	}
	c.patterns.Store(p, re)
	return re, nil
}

func (c *validator) check(schema, v any, path string, depth int) error {
	if depth > maxDepth {
		return &Error{Path: path, Reason: "schema nesting too deep (a $ref loop?)"}
	}
	s, ok := schema.(map[string]any)
	if !ok {
		if b, isBool := schema.(bool); isBool {
			if b {
				return nil
			}
			return &Error{Path: path, Reason: "no value is allowed here"}
		}
		return &Error{Path: path, Reason: fmt.Sprintf("invalid schema: %T", schema)}
	}
	if ref, ok := s["$ref"].(string); ok {
		target, err := c.resolve(ref)
		if err != nil {
			return &Error{Path: path, Reason: err.Error()}
		}
		if err := c.check(target, v, path, depth+1); err != nil {
			return err
		}
	}
	if t, ok := s["type"]; ok {
		if err := checkType(t, v, path); err != nil {
			return err
		}
	}
	if e, ok := s["enum"].([]any); ok {
		if !slicesContain(e, v) {
			return &Error{Path: path, Reason: "want one of " + compact(e) + ", got " + compact(v)}
		}
	}
	if k, ok := s["const"]; ok && !equal(k, v) {
		return &Error{Path: path, Reason: "want " + compact(k) + ", got " + compact(v)}
	}
	if p, ok := s["pattern"].(string); ok {
		if str, isStr := v.(string); isStr {
			re, err := c.regexp(p)
			if err != nil {
				return &Error{Path: path, Reason: err.Error()}
			}
			if !re.MatchString(str) {
				return &Error{Path: path, Reason: "want a string matching " + compact(p) + ", got " + compact(str)}
			}
		}
	}
	if f, ok := s["format"].(string); ok {
		if str, isStr := v.(string); isStr {
			if err := CheckFormat(f, str); err != nil {
				return &Error{Path: path, Reason: err.Error()}
			}
		}
	}
	if branches, ok := s["anyOf"].([]any); ok {
		if err := c.anyOf(branches, v, path, depth); err != nil {
			return err
		}
	}
	switch v := v.(type) {
	case map[string]any:
		return c.object(s, v, path, depth)
	case []any:
		return c.array(s, v, path, depth)
	}
	return nil
}

// anyOf reports, when no branch matches, the failure that got furthest into
// the document: for a nullable {"anyOf":[X,{"type":"null"}]} that is X's.
func (c *validator) anyOf(branches []any, v any, path string, depth int) error {
	var best *Error
	for _, b := range branches {
		err := c.check(b, v, path, depth+1)
		if err == nil {
			return nil
		}
		var e *Error
		if !errors.As(err, &e) {
			return err
		}
		if best == nil || len(e.Path) > len(best.Path) {
			best = e
		}
	}
	if best == nil {
		return &Error{Path: path, Reason: "anyOf is empty"}
	}
	if best.Path == path && len(branches) > 1 {
		return &Error{Path: path, Reason: "matches none of the anyOf schemas (" + best.Reason + ")"}
	}
	return best
}

func (c *validator) object(s map[string]any, obj map[string]any, path string, depth int) error {
	props, _ := s["properties"].(map[string]any)
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			name, _ := r.(string)
			if _, ok := obj[name]; !ok {
				return &Error{Path: member(path, name), Reason: "is required"}
			}
		}
	}
	// Members in name order, so the error reported is the same every run.
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	addl, hasAddl := s["additionalProperties"]
	for _, k := range names {
		if ps, ok := props[k]; ok {
			if err := c.check(ps, obj[k], member(path, k), depth+1); err != nil {
				return err
			}
			continue
		}
		if !hasAddl {
			continue
		}
		if b, ok := addl.(bool); ok && !b {
			return &Error{Path: member(path, k), Reason: "is not allowed (additionalProperties is false)"}
		}
		if err := c.check(addl, obj[k], member(path, k), depth+1); err != nil {
			return err
		}
	}
	return nil
}

func (c *validator) array(s map[string]any, arr []any, path string, depth int) error {
	if n, ok := count(s["minItems"]); ok && int64(len(arr)) < n {
		return &Error{Path: path, Reason: fmt.Sprintf("want at least %d items, got %d", n, len(arr))}
	}
	if n, ok := count(s["maxItems"]); ok && int64(len(arr)) > n {
		return &Error{Path: path, Reason: fmt.Sprintf("want at most %d items, got %d", n, len(arr))}
	}
	if items, ok := s["items"]; ok {
		for i, e := range arr {
			if err := c.check(items, e, path+"["+strconv.Itoa(i)+"]", depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func count(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil
}

// resolve follows a same-document reference: "#" or a JSON pointer "#/…".
func (c *validator) resolve(ref string) (any, error) {
	if ref == "#" {
		return c.root, nil
	}
	if !strings.HasPrefix(ref, "#/") {
		return nil, fmt.Errorf("unsupported $ref %q (only same-document references)", ref)
	}
	cur := c.root
	for _, tok := range strings.Split(ref[2:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("$ref %q does not resolve", ref)
		}
		if cur, ok = m[tok]; !ok {
			return nil, fmt.Errorf("$ref %q does not resolve", ref)
		}
	}
	return cur, nil
}

func checkType(t, v any, path string) error {
	var names []string
	switch t := t.(type) {
	case string:
		names = []string{t}
	case []any:
		for _, n := range t {
			if s, ok := n.(string); ok {
				names = append(names, s)
			}
		}
	default:
		return nil
	}
	for _, n := range names {
		if hasType(n, v) {
			return nil
		}
	}
	return &Error{Path: path, Reason: "want " + strings.Join(names, " or ") + ", got " + typeName(v)}
}

func hasType(name string, v any) bool {
	switch name {
	case "integer":
		n, ok := v.(json.Number)
		return ok && isInteger(n)
	case "number":
		_, ok := v.(json.Number)
		return ok
	}
	return typeName(v) == name
}

func isInteger(n json.Number) bool {
	if !strings.ContainsAny(string(n), ".eE") {
		return true
	}
	f, _, err := big.ParseFloat(string(n), 10, 0, big.ToNearestEven)
	return err == nil && f.IsInt()
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func slicesContain(list []any, v any) bool {
	for _, e := range list {
		if equal(e, v) {
			return true
		}
	}
	return false
}

// equal is JSON equality: numbers by value (1 equals 1.0), objects by
// members regardless of order.
func equal(a, b any) bool {
	switch a := a.(type) {
	case json.Number:
		b, ok := b.(json.Number)
		if !ok {
			return false
		}
		x, _, errA := big.ParseFloat(string(a), 10, 0, big.ToNearestEven)
		y, _, errB := big.ParseFloat(string(b), 10, 0, big.ToNearestEven)
		return errA == nil && errB == nil && x.Cmp(y) == 0
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equal(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !equal(av, bv) {
				return false
			}
		}
		return true
	}
	return a == b
}

// compact writes v as JSON for an error reason, clipped.
func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
}

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// member returns the JSONPath of an object member: $.name, or $["a b"].
func member(path, name string) string {
	if identifier.MatchString(name) {
		return path + "." + name
	}
	q, _ := json.Marshal(name)
	return path + "[" + string(q) + "]"
}
