// Command gen writes the root package's JSON glue from what the package
// already declares as data, so that adding a wire type is its struct, one
// line in a union table (or one directive) and a fixture.
//
// It reads the root package's hand-written files (not tests, not zz_*.go)
// and writes one zz_<family>.go per file family (the file name up to its
// first "_"), holding, for every type that needs them and does not define
// them by hand:
//
//   - the marker method of each union variant and Unknown variant: a
//     union is an interface U built with codec.NewUnion[U](name,
//     Unknown{}); its variants are the T{} arguments of the table's
//     .Add/.AddSpec calls, and every T{} inside a package variable whose
//     doc carries //mms:variants U (tables built in a loop);
//   - MarshalJSON (response form, or request form for a type whose name
//     ends in Params or whose directive says request) and UnmarshalJSON,
//     for every variant and every type carrying an //mms:json directive
//     (Unknown variants get MarshalJSON only: they write Raw back);
//   - the union's accessors derived from data: EventType() returns the
//     wire name of the table line, EventID() and ObjectID() the field ID,
//     processedAt() the field ProcessedAt ("" where a variant has no such field);
//   - validate(path) of a variant (or Unknown variant) of a union whose
//     interface has it, when the type has no rule of its own: it returns
//     nil, so only the variants with rules carry a hand-written one;
//   - the codec registration of every //mms:json type.
//
// The directive, a line of the type's doc comment (go/doc hides it):
//
//	//mms:json [request] [type=WIRE] [spec=EXPR]
//
// registers the type with codec.Objects, with codec.Spec{Type: WIRE}, or
// with the codec.Spec that EXPR (a package-level expression) evaluates to.
// On a union variant the table already registers the type, so only
// request is allowed there.
//
// Run it with go generate from the module root; .ci/run fails when its
// output is stale.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

func main() {
	dir := flag.String("dir", ".", "the root package's directory")
	flag.Parse()
	if err := run(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	pkg, err := load(dir)
	if err != nil {
		return err
	}
	files, err := pkg.generate()
	if err != nil {
		return err
	}
	old, _ := filepath.Glob(filepath.Join(dir, "zz_*.go"))
	for _, f := range old {
		if _, keep := files[filepath.Base(f)]; !keep {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	for name, src := range files {
		path := filepath.Join(dir, name)
		if cur, err := os.ReadFile(path); err == nil && bytes.Equal(cur, src) {
			continue
		}
		if err := os.WriteFile(path, src, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// A typeInfo is what the generator knows of one named type of the package.
type typeInfo struct {
	name    string
	file    string // the file declaring it
	st      *ast.StructType
	generic bool
	// methods defined by hand.
	methods map[string]bool
	// directive, when the type carries //mms:json.
	directive *directive
	// unions it is a variant of, with its wire names in each; Unknown
	// variants have the union with no wire names and unknown set.
	variantOf []*union
	wires     map[*union][]string
	unknownOf []*union
}

type directive struct {
	request bool
	wire    string
	spec    string
}

type union struct {
	iface   string
	doc     string // the interface's doc comment, which lists its variants
	marker  string
	methods []string // the interface's other methods
	unknown string
}

type pkgInfo struct {
	name   string
	types  map[string]*typeInfo
	unions map[string]*union
}

// load parses the hand-written, non-test files of dir.
func load(dir string) (*pkgInfo, error) {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	p := &pkgInfo{types: map[string]*typeInfo{}, unions: map[string]*union{}}
	var files []*ast.File
	for _, path := range names {
		base := filepath.Base(path)
		if strings.HasSuffix(base, "_test.go") || strings.HasPrefix(base, "zz_") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		if p.name == "" {
			p.name = f.Name.Name
		}
		files = append(files, f)
		if err := p.collectTypes(f, base); err != nil {
			return nil, err
		}
	}
	for _, f := range files {
		p.collectMethods(f)
	}
	for _, f := range files {
		if err := p.collectTables(f, fset); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (p *pkgInfo) collectTypes(f *ast.File, base string) error {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			ts := s.(*ast.TypeSpec)
			if ts.Assign.IsValid() {
				continue // an alias (a deprecated name) is its target's
			}
			t := &typeInfo{name: ts.Name.Name, file: base, methods: map[string]bool{},
				generic: ts.TypeParams != nil, wires: map[*union][]string{}}
			t.st, _ = ts.Type.(*ast.StructType)
			doc := ts.Doc
			if doc == nil && len(g.Specs) == 1 {
				doc = g.Doc
			}
			dir, err := parseDirective(doc)
			if err != nil {
				return fmt.Errorf("%s: type %s: %w", base, t.name, err)
			}
			if dir != nil && t.generic {
				return fmt.Errorf("%s: type %s: //mms:json on a generic type", base, t.name)
			}
			t.directive = dir
			p.types[t.name] = t
			if it, ok := ts.Type.(*ast.InterfaceType); ok {
				p.collectInterface(t.name, it)
				if u := p.unions[t.name]; u != nil {
					u.doc = doc.Text()
				}
			}
		}
	}
	return nil
}

// collectInterface notes an interface's marker (an unexported isX()
// method) and its other methods; it becomes a union when a table names it.
func (p *pkgInfo) collectInterface(name string, it *ast.InterfaceType) {
	u := &union{iface: name}
	for _, m := range it.Methods.List {
		if len(m.Names) != 1 {
			continue
		}
		n := m.Names[0].Name
		if strings.HasPrefix(n, "is") && len(n) > 2 && n[2] >= 'A' && n[2] <= 'Z' {
			u.marker = n
			continue
		}
		u.methods = append(u.methods, n)
	}
	if u.marker != "" {
		p.unions[name] = u
	}
}

func parseDirective(doc *ast.CommentGroup) (*directive, error) {
	if doc == nil {
		return nil, nil
	}
	for _, c := range doc.List {
		rest, ok := strings.CutPrefix(c.Text, "//mms:json")
		if !ok {
			continue
		}
		d := &directive{}
		for _, w := range strings.Fields(rest) {
			switch {
			case w == "request":
				d.request = true
			case strings.HasPrefix(w, "type="):
				d.wire = strings.TrimPrefix(w, "type=")
			case strings.HasPrefix(w, "spec="):
				d.spec = strings.TrimPrefix(w, "spec=")
			default:
				return nil, fmt.Errorf("//mms:json: unknown word %q", w)
			}
		}
		if d.wire != "" && d.spec != "" {
			return nil, fmt.Errorf("//mms:json: type= and spec= together (put the type in the spec)")
		}
		return d, nil
	}
	return nil, nil
}

func (p *pkgInfo) collectMethods(f *ast.File) {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
			continue
		}
		if t := p.types[recvType(fd.Recv.List[0].Type)]; t != nil {
			t.methods[fd.Name.Name] = true
		}
	}
}

// recvType is the type name of a receiver expression (T, *T, T[X]).
func recvType(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// collectTables finds every codec.NewUnion[U] call, the .Add/.AddSpec
// lines chained to it, and the //mms:variants variables.
func (p *pkgInfo) collectTables(f *ast.File, fset *token.FileSet) error {
	var err error
	ast.Inspect(f, func(n ast.Node) bool {
		if err != nil {
			return false
		}
		switch x := n.(type) {
		case *ast.GenDecl:
			if name := variantsDirective(x.Doc); name != "" {
				err = p.addDirectiveVariants(name, x, fset)
			}
		case *ast.CallExpr:
			if u, ok := p.newUnion(x); ok {
				err = p.setUnknown(u, x, fset)
				return true
			}
			sel, ok := x.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "Add" && sel.Sel.Name != "AddSpec") || len(x.Args) < 2 {
				return true
			}
			u := p.chainUnion(sel.X)
			if u == nil {
				return true
			}
			name := compositeName(x.Args[1])
			if name == "" {
				return true // a table built in a loop: see //mms:variants
			}
			// A wire name that is not a literal (a constant) is not known
			// here; accessors derived from it are then written by hand.
			wire, _ := strconv.Unquote(litString(x.Args[0]))
			err = p.addVariant(u, name, wire, fset.Position(x.Pos()))
		}
		return true
	})
	return err
}

func litString(e ast.Expr) string {
	if b, ok := e.(*ast.BasicLit); ok && b.Kind == token.STRING {
		return b.Value
	}
	return ""
}

// compositeName is T for the expression T{} (no elements).
func compositeName(e ast.Expr) string {
	c, ok := e.(*ast.CompositeLit)
	if !ok || len(c.Elts) != 0 {
		return ""
	}
	id, ok := c.Type.(*ast.Ident)
	if !ok {
		return ""
	}
	return id.Name
}

// newUnion reports whether call is codec.NewUnion[U](…) and returns U's union.
func (p *pkgInfo) newUnion(call *ast.CallExpr) (*union, bool) {
	ix, ok := call.Fun.(*ast.IndexExpr)
	if !ok {
		return nil, false
	}
	sel, ok := ix.X.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "NewUnion" {
		return nil, false
	}
	if pk, ok := sel.X.(*ast.Ident); !ok || pk.Name != "codec" {
		return nil, false
	}
	id, ok := ix.Index.(*ast.Ident)
	if !ok {
		return nil, false
	}
	u := p.unions[id.Name]
	return u, u != nil
}

// chainUnion follows a method chain (x.Custom(…).Add(…)…) down to its
// codec.NewUnion call.
func (p *pkgInfo) chainUnion(e ast.Expr) *union {
	for {
		call, ok := e.(*ast.CallExpr)
		if !ok {
			return nil
		}
		if u, ok := p.newUnion(call); ok {
			return u
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		e = sel.X
	}
}

func (p *pkgInfo) setUnknown(u *union, call *ast.CallExpr, fset *token.FileSet) error {
	if len(call.Args) != 2 {
		return fmt.Errorf("%s: codec.NewUnion[%s] needs (name, Unknown{})", fset.Position(call.Pos()), u.iface)
	}
	name := compositeName(call.Args[1])
	t := p.types[name]
	if t == nil {
		return fmt.Errorf("%s: the Unknown variant of %s is not a type of the package", fset.Position(call.Pos()), u.iface)
	}
	if u.unknown != "" {
		return fmt.Errorf("%s: union %s built twice", fset.Position(call.Pos()), u.iface)
	}
	u.unknown = name
	t.unknownOf = append(t.unknownOf, u)
	return nil
}

func (p *pkgInfo) addVariant(u *union, name, wire string, pos token.Position) error {
	t := p.types[name]
	if t == nil {
		return fmt.Errorf("%s: variant %s of %s is not a type of the package", pos, name, u.iface)
	}
	if !slices.Contains(t.variantOf, u) {
		t.variantOf = append(t.variantOf, u)
	}
	if wire != "" {
		t.wires[u] = append(t.wires[u], wire)
	}
	return nil
}

func variantsDirective(doc *ast.CommentGroup) string {
	if doc == nil {
		return ""
	}
	for _, c := range doc.List {
		if rest, ok := strings.CutPrefix(c.Text, "//mms:variants "); ok {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}

// addDirectiveVariants adds every T{} inside decl as a variant of union
// name, with no wire name (the table is built in a loop).
func (p *pkgInfo) addDirectiveVariants(name string, decl *ast.GenDecl, fset *token.FileSet) error {
	u := p.unions[name]
	if u == nil {
		return fmt.Errorf("%s: //mms:variants %s: not a union interface", fset.Position(decl.Pos()), name)
	}
	var err error
	ast.Inspect(decl, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && err == nil {
			if t := p.types[compositeName(e)]; t != nil && t.st != nil {
				err = p.addVariant(u, t.name, "", fset.Position(e.Pos()))
			}
		}
		return true
	})
	return err
}

// generate returns the generated files by name.
func (p *pkgInfo) generate() (map[string][]byte, error) {
	if err := p.checkDocs(); err != nil {
		return nil, err
	}
	byFamily := map[string][]*typeInfo{}
	for _, t := range p.types {
		if len(t.variantOf) > 0 || len(t.unknownOf) > 0 || t.directive != nil {
			fam := strings.TrimSuffix(t.file, ".go")
			fam, _, _ = strings.Cut(fam, "_")
			byFamily[fam] = append(byFamily[fam], t)
		}
	}
	out := map[string][]byte{}
	for fam, ts := range byFamily {
		sort.Slice(ts, func(i, j int) bool { return ts[i].name < ts[j].name })
		src, err := p.file(ts)
		if err != nil {
			return nil, fmt.Errorf("zz_%s.go: %w", fam, err)
		}
		if src != nil {
			out["zz_"+fam+".go"] = src
		}
	}
	return out, nil
}

func (p *pkgInfo) file(ts []*typeInfo) ([]byte, error) {
	var b bytes.Buffer
	var regs, objects []string
	for _, t := range ts {
		if err := p.check(t); err != nil {
			return nil, err
		}
		if r, plain := registration(t); plain {
			objects = append(objects, r)
		} else if r != "" {
			regs = append(regs, r)
		}
		p.methods(&b, t)
	}
	if b.Len() == 0 && len(regs) == 0 && len(objects) == 0 {
		return nil, nil
	}
	var h bytes.Buffer
	fmt.Fprintf(&h, "// Code generated by internal/gen; DO NOT EDIT.\n\npackage %s\n\n", p.name)
	if len(regs)+len(objects) > 0 {
		h.WriteString("import \"github.com/mms-sdk/mms-go/internal/codec\"\n\n")
		h.WriteString("func init() {\n")
		if len(objects) > 0 {
			h.WriteString("\tcodec.Objects(\n")
			for _, o := range objects {
				h.WriteString("\t\t" + o + ",\n")
			}
			h.WriteString("\t)\n")
		}
		for _, r := range regs {
			h.WriteString("\t" + r + "\n")
		}
		h.WriteString("}\n\n")
	}
	h.Write(b.Bytes())
	src, err := format.Source(h.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting: %w\n%s", err, h.Bytes())
	}
	return src, nil
}

func (p *pkgInfo) check(t *typeInfo) error {
	d := t.directive
	if d != nil && len(t.variantOf) > 0 && (d.wire != "" || d.spec != "") {
		return fmt.Errorf("type %s: a union variant is registered by its table; its //mms:json may say only request", t.name)
	}
	return nil
}

// registration is the codec call registering a //mms:json type that is
// not a union variant; plain reports a type that needs no Spec, given as
// the zero value for one codec.Objects call.
func registration(t *typeInfo) (r string, plain bool) {
	d := t.directive
	if d == nil || len(t.variantOf) > 0 {
		return "", false
	}
	zero := t.name + "{}"
	if t.st == nil {
		zero = "(*" + t.name + ")(nil)"
	}
	switch {
	case d.spec != "":
		return fmt.Sprintf("codec.Register(%s, %s)", zero, d.spec), false
	case d.wire != "":
		return fmt.Sprintf("codec.Register(%s, codec.Spec{Type: %q})", zero, d.wire), false
	}
	return zero, true
}

// receiver is the receiver name of t's generated methods.
func receiver(t *typeInfo) string {
	return strings.ToLower(t.name[:1])
}

func (p *pkgInfo) methods(b *bytes.Buffer, t *typeInfo) {
	r := receiver(t)
	emit := func(name, doc, decl string) {
		if t.methods[name] {
			return
		}
		t.methods[name] = true
		fmt.Fprintf(b, "// %s\nfunc %s\n\n", doc, decl)
	}
	unions := append(slices.Clone(t.variantOf), t.unknownOf...)
	sort.Slice(unions, func(i, j int) bool { return unions[i].iface < unions[j].iface })
	for _, u := range unions {
		emit(u.marker, fmt.Sprintf("%s makes %s a [%s].", u.marker, t.name, u.iface),
			fmt.Sprintf("(%s) %s() {}", t.name, u.marker))
	}
	for _, u := range unions {
		if slices.Contains(u.methods, "validate") {
			emit("validate", fmt.Sprintf("validate accepts %s as it stands: the type has no rule of its own (a rule is a hand-written validate method).", t.name),
				fmt.Sprintf("(%s) validate(string) error { return nil }", t.name))
		}
	}
	if len(t.unknownOf) > 0 {
		emit("MarshalJSON", "MarshalJSON writes Raw, the value as it came.",
			fmt.Sprintf("(%s %s) MarshalJSON() ([]byte, error) { return marshalJSON(%s) }", r, t.name, r))
		for _, u := range t.unknownOf {
			if slices.Contains(u.methods, "EventType") {
				emit("EventType", "EventType returns Type, the value's own \"type\".",
					fmt.Sprintf("(%s %s) EventType() string { return %s.Type }", r, t.name, r))
			}
		}
		return
	}
	if t.request() {
		emit("MarshalJSON", fmt.Sprintf("MarshalJSON encodes %s in request form: the members the request defines, nothing the service only sends.", t.name),
			fmt.Sprintf("(%s %s) MarshalJSON() ([]byte, error) { return marshalRequest(%s) }", r, t.name, r))
	} else {
		emit("MarshalJSON", fmt.Sprintf("MarshalJSON encodes %s as the service sends it%s", t.name, map[bool]string{true: ", [Extra] included.", false: "."}[t.hasField("Extra")]),
			fmt.Sprintf("(%s %s) MarshalJSON() ([]byte, error) { return marshalJSON(%s) }", r, t.name, r))
	}
	keeps := "."
	if t.hasField("Extra") {
		keeps = ", keeping what this SDK version does not model in [Extra]."
	}
	emit("UnmarshalJSON", fmt.Sprintf("UnmarshalJSON decodes %s%s", t.name, keeps),
		fmt.Sprintf("(%s *%s) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, %s) }", r, t.name, r))
	for _, u := range t.variantOf {
		p.accessors(emit, t, u, r)
	}
}

// fieldAccessors are the union methods that return a string field of the
// variant, or "" for a variant without it.
var fieldAccessors = map[string]struct{ field, doc, none string }{
	"EventID":     {"ID", "EventID returns ID, the event's id.", `EventID returns "": the event has no id.`},
	"processedAt": {"ProcessedAt", "processedAt returns ProcessedAt.", `processedAt returns "": the event has no processed_at.`},
	"ObjectID":    {"ID", "ObjectID returns ID, the id of the object the event is about.", `ObjectID returns "": the event names no object.`},
}

// accessors writes the union's methods that its table's data decides.
func (p *pkgInfo) accessors(emit func(name, doc, decl string), t *typeInfo, u *union, r string) {
	for _, m := range u.methods {
		switch m {
		case "EventType":
			if w := t.wires[u]; len(w) == 1 {
				emit(m, fmt.Sprintf("EventType returns %q, the wire type.", w[0]),
					fmt.Sprintf("(%s) EventType() string { return %q }", t.name, w[0]))
			}
		default:
			a, ok := fieldAccessors[m]
			if !ok {
				continue
			}
			if t.hasStringField(a.field) {
				emit(m, a.doc, fmt.Sprintf("(%s %s) %s() string { return %s.%s }", r, t.name, m, r, a.field))
			} else {
				emit(m, a.none, fmt.Sprintf("(%s) %s() string { return \"\" }", t.name, m))
			}
		}
	}
}

func (t *typeInfo) request() bool {
	return (t.directive != nil && t.directive.request) || strings.HasSuffix(t.name, "Params")
}

func (t *typeInfo) hasStringField(name string) bool {
	id, ok := t.field(name).(*ast.Ident)
	return ok && id.Name == "string"
}

func (t *typeInfo) hasField(name string) bool { return t.field(name) != nil }

// field is the type of t's field name; nil when t has none.
func (t *typeInfo) field(name string) ast.Expr {
	if t.st == nil {
		return nil
	}
	for _, f := range t.st.Fields.List {
		for _, n := range f.Names {
			if n.Name == name {
				return f.Type
			}
		}
	}
	return nil
}

// checkDocs fails when a union's doc does not link one of its exported
// variants ([Name]): a variant added to a table is added to the doc too.
func (p *pkgInfo) checkDocs() error {
	var missing []string
	for _, t := range p.types {
		for _, u := range append(slices.Clone(t.variantOf), t.unknownOf...) {
			if ast.IsExported(t.name) && u.unknown != "" && !strings.Contains(u.doc, "["+t.name+"]") {
				missing = append(missing, u.iface+": "+t.name)
			}
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("a union's doc does not link these variants ([Name]):\n\t%s", strings.Join(missing, "\n\t"))
	}
	return nil
}
