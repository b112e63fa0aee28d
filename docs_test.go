package mms

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// rootFiles parses the root package's non-test files, comments included.
func rootFiles(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		require.NoError(t, err)
		files = append(files, f)
	}
	require.NotEmpty(t, files)
	return fset, files
}

// parseSource parses src as the file p.go, comments included.
func parseSource(t *testing.T, src string) (*token.FileSet, []*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	require.NoError(t, err)
	return fset, []*ast.File{f}
}

// extraDoc is the one comment of every Extra field; the type Extra says
// what the field holds.
const extraDoc = "// Extra keeps what this SDK version does not model; see [Extra]."

// badExtraDocs lists the Extra fields of files whose doc comment is not
// extraDoc alone.
func badExtraDocs(fset *token.FileSet, files []*ast.File) []string {
	var bad []string
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(*ast.StructType)
			if !ok {
				return true
			}
			for _, field := range st.Fields.List {
				if len(field.Names) != 1 || field.Names[0].Name != "Extra" {
					continue
				}
				if field.Doc == nil || len(field.Doc.List) != 1 || field.Doc.List[0].Text != extraDoc {
					bad = append(bad, fset.Position(field.Pos()).String())
				}
			}
			return true
		})
	}
	return bad
}

// TestExtraFieldDocs checks that every Extra field is documented by the
// one line that links [Extra], so the wording lives in one place.
func TestExtraFieldDocs(t *testing.T) {
	fset, files := rootFiles(t)
	n := 0
	for _, f := range files {
		ast.Inspect(f, func(n2 ast.Node) bool {
			if id, ok := n2.(*ast.Field); ok && len(id.Names) == 1 && id.Names[0].Name == "Extra" {
				n++
			}
			return true
		})
	}
	require.Greater(t, n, 100, "Extra fields found")
	require.Empty(t, badExtraDocs(fset, files), "Extra fields whose comment is not %q", extraDoc)
}

// TestExtraFieldDocsCatches checks the check: a field with another
// wording, or none, is reported.
func TestExtraFieldDocsCatches(t *testing.T) {
	src := `package p

type A struct {
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage ` + "`json:\"-\"`" + `
}

type B struct {
	Extra map[string]json.RawMessage
}

type C struct {
	` + extraDoc + `
	Extra map[string]json.RawMessage
}
`
	fset, files := parseSource(t, src)
	bad := badExtraDocs(fset, files)
	require.Equal(t, []string{"p.go:5:2", "p.go:9:2"}, bad)
}

// isJSONGlue reports whether fn is a one-line JSON method that hands the
// value to the codec (return marshalJSON(x), unmarshalJSON(data, x) or
// marshalRequest(x)); such methods are generated with their docs.
func isJSONGlue(fn *ast.FuncDecl) bool {
	if fn.Recv == nil || (fn.Name.Name != "MarshalJSON" && fn.Name.Name != "UnmarshalJSON") ||
		fn.Body == nil || len(fn.Body.List) != 1 {
		return false
	}
	ret, ok := fn.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return false
	}
	call, ok := ret.Results[0].(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := call.Fun.(*ast.Ident)
	return ok && (id.Name == "marshalJSON" || id.Name == "unmarshalJSON" || id.Name == "marshalRequest")
}

// recvName is the name of a method's receiver type.
func recvName(fn *ast.FuncDecl) string {
	t := fn.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// undocumented lists the exported declarations of files that go doc shows
// without a doc comment: functions, methods of exported types, types,
// constants and variables (a group's doc covers its members). JSON glue
// (isJSONGlue) and files named zz_*.go, which are generated, are skipped.
func undocumented(fset *token.FileSet, files []*ast.File) []string {
	var out []string
	report := func(n ast.Node, name string) {
		p := fset.Position(n.Pos())
		out = append(out, filepath.Base(p.Filename)+": "+name)
	}
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(fset.Position(f.Pos()).Filename), "zz_") {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() || d.Doc != nil || isJSONGlue(d) {
					continue
				}
				if d.Recv == nil {
					report(d, d.Name.Name)
				} else if r := recvName(d); ast.IsExported(r) {
					report(d, r+"."+d.Name.Name)
				}
			case *ast.GenDecl:
				if d.Doc != nil || d.Tok == token.IMPORT {
					continue
				}
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() && s.Doc == nil {
							report(s, s.Name.Name)
						}
					case *ast.ValueSpec:
						if s.Doc != nil {
							continue
						}
						for _, n := range s.Names {
							if n.IsExported() {
								report(n, n.Name)
							}
						}
					}
				}
			}
		}
	}
	return out
}

// TestExportedDocs checks that every exported declaration of the root
// package has a doc comment, whichever family's file it is in.
func TestExportedDocs(t *testing.T) {
	fset, files := rootFiles(t)
	require.Empty(t, undocumented(fset, files), "exported declarations without a doc comment")
}

// TestExportedDocsCatches checks the check.
func TestExportedDocsCatches(t *testing.T) {
	src := `package p

// T is documented.
type T struct{}

type U struct{}

func (t T) MarshalJSON() ([]byte, error) { return marshalJSON(t) }

func (t T) String() string { return "t" }

func (T) isT() {}

func (u u2) Exported() {}

// The kinds.
const (
	A = 1
	B = 2
)

const C = 3

var (
	// D is documented.
	D = 4
	E = 5
)

func F() {}
`
	fset, files := parseSource(t, src)
	require.Equal(t, []string{"p.go: U", "p.go: T.String", "p.go: C", "p.go: E", "p.go: F"}, undocumented(fset, files))
}
