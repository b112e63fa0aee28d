package mmstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// This file is a small validator for request bodies: the allowed members of
// every object are declared as text in messages_schema.go and checked by
// walking the raw JSON, so the fake refuses exactly what the service
// refuses (an undefined member anywhere is "Extra inputs are not
// permitted") without a Go struct per request shape.
//
// A shape is a space-separated list of fields "name:type", "name!:type" for
// a required field, or "..." to allow undeclared members (JSON Schema
// objects). A field type may end in "^beta1/beta2": the field is accepted
// only with one of those vendor-beta values. Types:
//
//	str str{1,200}    string, with optional bounds on its length in characters
//	str~name          string matching the pattern schemaPatterns[name]
//	int{0,} num{0,1}  integer or number, with optional bounds; {>0,} and
//	                  {,<1} make a bound exclusive
//	bool any          boolean; any JSON value
//	obj               any JSON object (tool input, JSON Schema)
//	enum(a,b)         one of the strings
//	?T                T or null
//	[T] [T]{1,10}     array of T, with optional bounds on its length
//	map(T)            object with any member names and T values
//	@name             object of the union name, chosen by its "type" member
//	#name             object of the shape name
//	T|U               T or U, chosen by the JSON kind of the value
//
// A union maps each "type" value to a shape. A tag key may end in
// "^beta1/beta2" (the type needs one of those betas) or in "?" (the tag that
// applies when "type" is absent or null).

// Type kinds.
const (
	kStr = iota
	kInt
	kNum
	kBool
	kAny
	kObj
	kEnum
	kArr
	kMap
	kUnion
	kShape
	kAlt
)

// kindWords are the words of the leaf types.
var kindWords = map[string]int{"str": kStr, "int": kInt, "num": kNum, "bool": kBool, "any": kAny, "obj": kObj}

// kindJSON is the JSON kind (see jsonKind) each type kind takes.
var kindJSON = [...]byte{kStr: '"', kEnum: '"', kInt: '0', kNum: '0', kBool: 'b', kArr: '[',
	kObj: '{', kMap: '{', kUnion: '{', kShape: '{', kAny: 0, kAlt: 0}

// kindNames say what each type kind takes, for "Input should be ..."
// messages (pydantic's wording, which the service uses).
var kindNames = [...]string{kStr: "a valid string", kInt: "a valid integer", kNum: "a valid number",
	kBool: "a valid boolean", kArr: "a valid list", kObj: "a valid dictionary", kMap: "a valid dictionary",
	kUnion: "a valid dictionary", kShape: "a valid dictionary", kAny: "", kEnum: "", kAlt: ""}

// schemaPatterns are the string patterns a type names with "~name".
var schemaPatterns = map[string]*regexp.Regexp{
	"id":        regexp.MustCompile(wire.ToolIDPattern),
	"srvtoolu":  regexp.MustCompile(wire.ServerToolIDPattern),
	"tool_name": regexp.MustCompile(wire.CustomToolNamePattern),
	"ref_name":  regexp.MustCompile(`^[a-zA-Z0-9_-]{1,256}$`),
	"custom_id": regexp.MustCompile(wire.CustomIDPattern),
}

// typ is a compiled field type.
type typ struct {
	kind         int
	null         bool
	min, max     *float64 // length (str, arr) or value (int, num) bounds
	exMin, exMax bool     // the value bounds are exclusive
	pattern      *regexp.Regexp
	elem         *typ     // kArr, kMap
	name         string   // kUnion, kShape
	enum         []string // kEnum
	alts         []*typ   // kAlt
}

type field struct {
	name  string
	req   bool
	t     *typ
	betas []string
}

type shape struct {
	fields []field
	open   bool // undeclared members are allowed
	betas  []string
}

func (sh *shape) field(name string) *field {
	for i := range sh.fields {
		if sh.fields[i].name == name {
			return &sh.fields[i]
		}
	}
	return nil
}

type union struct {
	tags  map[string]*shape
	order []string // tag names in order, for messages
	def   string   // tag used when "type" is absent or null
}

// schema is a compiled set of named shapes and unions.
type schema struct {
	shapes map[string]*shape
	unions map[string]*union
}

// compileSchema compiles shape and union definitions, expanding each
// "$name" in a definition to frags[name] first. It panics on a malformed
// definition or a reference to an undefined name: the table is code.
func compileSchema(frags, shapes map[string]string, unions map[string]map[string]string) *schema {
	expand := func(def string) string {
		return expandFrags(def, frags)
	}
	sc := &schema{shapes: map[string]*shape{}, unions: map[string]*union{}}
	var refs []*typ
	for name, def := range shapes {
		key, betas := splitBetas(name)
		sh := parseShape(expand(def), &refs)
		sh.betas = betas
		sc.shapes[key] = sh
	}
	for name, tags := range unions {
		u := &union{tags: map[string]*shape{}}
		for tag, def := range tags {
			tag, betas := splitBetas(tag)
			if t, ok := strings.CutSuffix(tag, "?"); ok {
				tag, u.def = t, t
			}
			sh := parseShape(expand(def), &refs)
			sh.betas = betas
			u.tags[tag] = sh
			u.order = append(u.order, tag)
		}
		slices.Sort(u.order)
		sc.unions[name] = u
	}
	for _, t := range refs {
		if (t.kind == kUnion && sc.unions[t.name] == nil) || (t.kind == kShape && sc.shapes[t.name] == nil) {
			panic("mmstest: schema: undefined reference " + t.name)
		}
	}
	return sc
}

// expandFrags replaces each "$name" (name of letters, digits and _) with
// frags[name], recursively.
func expandFrags(def string, frags map[string]string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(def, '$')
		if i < 0 {
			b.WriteString(def)
			return b.String()
		}
		b.WriteString(def[:i])
		j := i + 1
		for j < len(def) && (isIdent(def[j])) {
			j++
		}
		frag, ok := frags[def[i+1:j]]
		if !ok {
			panic("mmstest: schema: undefined fragment " + def[i:j])
		}
		b.WriteString(expandFrags(frag, frags))
		def = def[j:]
	}
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// splitBetas splits "name^b1/b2" into the name and the betas.
func splitBetas(s string) (string, []string) {
	name, betas, ok := strings.Cut(s, "^")
	if !ok {
		return s, nil
	}
	return name, strings.Split(betas, "/")
}

func parseShape(def string, refs *[]*typ) *shape {
	sh := &shape{}
	for _, f := range strings.Fields(def) {
		if f == "..." {
			sh.open = true
			continue
		}
		name, tdef, ok := strings.Cut(f, ":")
		if !ok {
			panic("mmstest: schema: field without type: " + f)
		}
		tdef, betas := splitBetas(tdef)
		name, req := strings.CutSuffix(name, "!")
		p := &typeParser{s: tdef, refs: refs}
		t := p.alt()
		if p.i != len(p.s) {
			panic(fmt.Sprintf("mmstest: schema: bad type %q at %d", tdef, p.i))
		}
		sh.fields = append(sh.fields, field{name: name, req: req, t: t, betas: betas})
	}
	return sh
}

// typeParser parses one field type of the grammar in the file comment.
type typeParser struct {
	s    string
	i    int
	refs *[]*typ
}

func (p *typeParser) alt() *typ {
	t := p.one()
	if p.i >= len(p.s) || p.s[p.i] != '|' {
		return t
	}
	a := &typ{kind: kAlt, alts: []*typ{t}}
	for p.i < len(p.s) && p.s[p.i] == '|' {
		p.i++
		a.alts = append(a.alts, p.one())
	}
	return a
}

func (p *typeParser) one() *typ {
	switch {
	case p.eat("?"):
		t := *p.one() // a copy: a named type may be shared
		t.null = true
		return &t
	case p.eat("["):
		t := &typ{kind: kArr, elem: p.alt()}
		p.must("]")
		p.bounds(t)
		return t
	case p.eat("map("):
		t := &typ{kind: kMap, elem: p.alt()}
		p.must(")")
		return t
	case p.eat("enum("):
		j := strings.IndexByte(p.s[p.i:], ')')
		t := &typ{kind: kEnum, enum: strings.Split(p.s[p.i:p.i+j], ",")}
		p.i += j + 1
		return t
	case p.eat("@"), p.eat("#"):
		kind := kUnion
		if p.s[p.i-1] == '#' {
			kind = kShape
		}
		t := &typ{kind: kind, name: p.ident()}
		*p.refs = append(*p.refs, t)
		return t
	}
	word := p.ident()
	kind, ok := kindWords[word]
	if !ok {
		panic(fmt.Sprintf("mmstest: schema: unknown type %q in %q", word, p.s))
	}
	t := &typ{kind: kind}
	p.bounds(t)
	if p.eat("~") {
		name := p.ident()
		if t.pattern = schemaPatterns[name]; t.pattern == nil || kind != kStr {
			panic(fmt.Sprintf("mmstest: schema: bad pattern %q in %q", name, p.s))
		}
	}
	return t
}

func (p *typeParser) eat(tok string) bool {
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *typeParser) must(tok string) {
	if !p.eat(tok) {
		panic(fmt.Sprintf("mmstest: schema: want %q at %d in %q", tok, p.i, p.s))
	}
}

func (p *typeParser) ident() string {
	j := p.i
	for j < len(p.s) && isIdent(p.s[j]) {
		j++
	}
	word := p.s[p.i:j]
	p.i = j
	return word
}

// bounds parses an optional "{min,max}" with either side optional; ">min"
// and "<max" are exclusive.
func (p *typeParser) bounds(t *typ) {
	if !p.eat("{") {
		return
	}
	j := strings.IndexByte(p.s[p.i:], '}')
	lo, hi, _ := strings.Cut(p.s[p.i:p.i+j], ",")
	p.i += j + 1
	lo, t.exMin = strings.CutPrefix(lo, ">")
	hi, t.exMax = strings.CutPrefix(hi, "<")
	if (t.exMin || t.exMax) && t.kind != kInt && t.kind != kNum {
		panic("mmstest: schema: exclusive bound on a length: " + p.s)
	}
	num := func(s string) *float64 {
		if s == "" {
			return nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			panic("mmstest: schema: bad bound " + s)
		}
		return &f
	}
	t.min, t.max = num(lo), num(hi)
}

// validator checks one request body against a schema. betas are the
// request's vendor-beta values.
type validator struct {
	sc    *schema
	betas []string
}

// jsonKind names the kind of a raw JSON value by its first byte.
func jsonKind(raw []byte) byte {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return 0
	}
	switch c := raw[0]; c {
	case '"', '{', '[', 'n':
		return c
	case 't', 'f':
		return 'b'
	}
	return '0'
}

// accepts reports whether a type takes values of a JSON kind.
func (t *typ) accepts(kind byte) bool {
	switch {
	case kind == 'n':
		return t.null || t.kind == kAny
	case t.kind == kAny:
		return true
	case t.kind == kAlt:
		return slices.ContainsFunc(t.alts, func(a *typ) bool { return a.accepts(kind) })
	}
	return kindJSON[t.kind] == kind
}

// expected describes what a type takes, for "Input should be ..." messages.
func (t *typ) expected() string {
	switch t.kind {
	case kAlt:
		var parts []string
		for _, a := range t.alts {
			parts = append(parts, a.expected())
		}
		return strings.Join(parts, " or ")
	case kEnum:
		return quoteList(t.enum, "or")
	}
	return kindNames[t.kind]
}

// quoteList renders "'a', 'b' or 'c'".
func quoteList(items []string, last string) string {
	q := make([]string, len(items))
	for i, it := range items {
		q[i] = "'" + it + "'"
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " " + last + " " + q[len(q)-1]
}

func fieldErr(path, format string, args ...any) error {
	if path == "" {
		path = "body"
	}
	return fmt.Errorf("%s: %s", path, fmt.Sprintf(format, args...))
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// check validates raw against t; path names raw in messages
// ("messages.0.content"). raw must be valid JSON (callers check json.Valid
// first): it is walked by the scanner of json_scan.go.
func (v *validator) check(path string, raw json.RawMessage, t *typ) error {
	kind := jsonKind(raw)
	if kind == 'n' && t.null {
		return nil
	}
	if !t.accepts(kind) {
		return fieldErr(path, "Input should be %s", t.expected())
	}
	switch t.kind {
	case kAlt:
		for _, a := range t.alts {
			if a.accepts(kind) {
				return v.check(path, raw, a)
			}
		}
	case kStr, kEnum:
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return fieldErr(path, "Input should be a valid string")
		}
		if t.kind == kEnum && !slices.Contains(t.enum, s) {
			return fieldErr(path, "Input should be %s", t.expected())
		}
		if err := checkLen(path, utf8.RuneCountInString(s), t, "String", "character"); err != nil {
			return err
		}
		if t.pattern != nil && !t.pattern.MatchString(s) {
			return fieldErr(path, "String should match pattern '%s'", t.pattern)
		}
	case kInt, kNum:
		return checkNumber(path, string(bytes.TrimSpace(raw)), t)
	case kArr:
		items := slices.Collect(jsonElements(raw))
		if err := checkLen(path, len(items), t, "List", "item"); err != nil {
			return err
		}
		for i, it := range items {
			if err := v.check(joinPath(path, strconv.Itoa(i)), it, t.elem); err != nil {
				return err
			}
		}
	case kMap:
		return eachMember(path, raw, func(name string, val json.RawMessage) error {
			return v.check(joinPath(path, name), val, t.elem)
		})
	case kShape:
		sh := v.sc.shapes[t.name]
		if err := v.needBetas(path, "this form", sh.betas); err != nil {
			return err
		}
		return v.object(path, raw, sh, "")
	case kUnion:
		return v.union(path, raw, v.sc.unions[t.name])
	}
	return nil
}

// checkLen applies a type's bounds to a string or list length.
func checkLen(path string, n int, t *typ, what, unit string) error {
	plural := func(f float64) string {
		if f == 1 {
			return unit
		}
		return unit + "s"
	}
	if t.min != nil && float64(n) < *t.min {
		if what == "List" {
			return fieldErr(path, "List should have at least %v %s after validation, not %d", *t.min, plural(*t.min), n)
		}
		return fieldErr(path, "%s should have at least %v %s", what, *t.min, plural(*t.min))
	}
	if t.max != nil && float64(n) > *t.max {
		if what == "List" {
			return fieldErr(path, "List should have at most %v %s after validation, not %d", *t.max, plural(*t.max), n)
		}
		return fieldErr(path, "%s should have at most %v %s", what, *t.max, plural(*t.max))
	}
	return nil
}

// checkNumber checks an integer or number literal and its bounds. Integers
// must be written as integers (no fraction or exponent), so they decode
// into Go ints.
func checkNumber(path, lit string, t *typ) error {
	var f float64
	var err error
	if t.kind == kInt {
		var n int64
		n, err = strconv.ParseInt(lit, 10, 64)
		f = float64(n)
	} else {
		f, err = strconv.ParseFloat(lit, 64)
	}
	if err != nil {
		return fieldErr(path, "Input should be %s", t.expected())
	}
	switch {
	case t.min != nil && t.exMin && f <= *t.min:
		return fieldErr(path, "Input should be greater than %v", *t.min)
	case t.min != nil && f < *t.min:
		return fieldErr(path, "Input should be greater than or equal to %v", *t.min)
	case t.max != nil && t.exMax && f >= *t.max:
		return fieldErr(path, "Input should be less than %v", *t.max)
	case t.max != nil && f > *t.max:
		return fieldErr(path, "Input should be less than or equal to %v", *t.max)
	}
	return nil
}

// object checks the members of raw against sh. tag, if not "", is the
// union tag that chose sh, so a "type" member is allowed.
func (v *validator) object(path string, raw json.RawMessage, sh *shape, tag string) error {
	seen := map[string]bool{}
	err := eachMember(path, raw, func(name string, val json.RawMessage) error {
		seen[name] = true
		f := sh.field(name)
		switch {
		case f == nil && name == "type" && tag != "":
			return nil
		case f == nil && sh.open:
			return nil
		case f == nil:
			return fieldErr(joinPath(path, name), "Extra inputs are not permitted")
		}
		if err := v.needBetas(joinPath(path, name), "this field", f.betas); err != nil {
			return err
		}
		return v.check(joinPath(path, name), val, f.t)
	})
	if err != nil {
		return err
	}
	for _, f := range sh.fields {
		if f.req && !seen[f.name] {
			return fieldErr(joinPath(path, f.name), "Field required")
		}
	}
	return nil
}

// union checks raw as the member of u its "type" names.
func (v *validator) union(path string, raw json.RawMessage, u *union) error {
	tag := u.def
	var typeRaw json.RawMessage
	_ = eachMember(path, raw, func(name string, val json.RawMessage) error {
		if name == "type" {
			typeRaw = val
		}
		return nil
	})
	if typeRaw != nil && jsonKind(typeRaw) != 'n' {
		if json.Unmarshal(typeRaw, &tag) != nil {
			tag = ""
		}
		if u.tags[tag] == nil {
			shown := "'" + tag + "'"
			if tag == "" {
				shown = strings.TrimSpace(string(typeRaw))
			}
			return fieldErr(path, "Input tag %s found using 'type' does not match any of the expected tags: %s",
				shown, quoteList(u.order, "or"))
		}
	}
	if tag == "" {
		return fieldErr(path, "Unable to extract tag using discriminator 'type'")
	}
	sh := u.tags[tag]
	if err := v.needBetas(path, fmt.Sprintf("type '%s'", tag), sh.betas); err != nil {
		return err
	}
	return v.object(path, raw, sh, tag)
}

// needBetas refuses what needs one of betas when the request has none of
// them.
func (v *validator) needBetas(path, what string, betas []string) error {
	if len(betas) == 0 || slices.ContainsFunc(betas, func(b string) bool { return slices.Contains(v.betas, b) }) {
		return nil
	}
	return fieldErr(path, "%s requires the vendor-beta header value `%s`", what, strings.Join(betas, "` or `"))
}

// eachMember calls fn for each member of the JSON object raw, in order.
func eachMember(path string, raw json.RawMessage, fn func(name string, val json.RawMessage) error) error {
	if jsonKind(raw) != '{' {
		return fieldErr(path, "Input should be a valid dictionary")
	}
	for name, val := range jsonMembers(raw) {
		if err := fn(name, val); err != nil {
			return err
		}
	}
	return nil
}
