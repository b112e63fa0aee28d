package mms

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// unionTable is one codec.NewUnion[U] table found in the source: the
// union's interface name and the exported variant types it adds, in
// order, its Unknown variant last.
type unionTable struct {
	pos      token.Position
	union    string
	variants []string
}

// unionTables finds every codec.NewUnion[U](name, Unknown{}) call of
// files and the variants the same top-level declaration adds with .Add or
// .AddSpec. A variant given as a composite literal (Circle{}) is read
// directly; one given otherwise (v.variant in a loop over a table) is
// read from the table: every T{} literal in the initializer of the
// package variable the loop ranges over.
func unionTables(fset *token.FileSet, files []*ast.File) ([]unionTable, error) {
	vars := map[string]ast.Expr{} // package variable -> its initializer
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i < len(vs.Values) {
						vars[n.Name] = vs.Values[i]
					}
				}
			}
		}
	}
	litTypes := func(n ast.Node) []string {
		var out []string
		ast.Inspect(n, func(n ast.Node) bool {
			if cl, ok := n.(*ast.CompositeLit); ok {
				if id, ok := cl.Type.(*ast.Ident); ok && ast.IsExported(id.Name) {
					out = append(out, id.Name)
				}
			}
			return true
		})
		return out
	}
	var tables []unionTable
	for _, f := range files {
		for _, d := range f.Decls {
			var t *unionTable
			var ranged []string // package variables ranged over in d
			ast.Inspect(d, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.RangeStmt:
					if id, ok := n.X.(*ast.Ident); ok {
						ranged = append(ranged, id.Name)
					}
				case *ast.CallExpr:
					if u, ok := newUnionType(n); ok {
						if t != nil {
							t.union = "" // two tables in one declaration: reported below
							return false
						}
						t = &unionTable{pos: fset.Position(n.Pos()), union: u}
						if len(n.Args) == 2 {
							t.variants = append(t.variants, litTypes(n.Args[1])...)
						}
					}
				}
				return true
			})
			if t == nil {
				continue
			}
			if t.union == "" {
				return nil, &unionTableError{fset.Position(d.Pos())}
			}
			unknown := t.variants
			t.variants = nil
			var adds []*ast.CallExpr
			ast.Inspect(d, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					adds = append(adds, call)
				}
				return true
			})
			// Inspect meets a chain's last call first, and every call of a
			// chain starts where the chain does: go by the opening parenthesis.
			slices.SortFunc(adds, func(a, b *ast.CallExpr) int { return int(a.Lparen - b.Lparen) })
			for _, call := range adds {
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || (sel.Sel.Name != "Add" && sel.Sel.Name != "AddSpec") || len(call.Args) < 2 {
					continue
				}
				if cl, ok := call.Args[1].(*ast.CompositeLit); ok {
					t.variants = append(t.variants, litTypes(cl)[:1]...)
					continue
				}
				for _, v := range ranged {
					if init, ok := vars[v]; ok {
						t.variants = append(t.variants, litTypes(init)...)
					}
				}
			}
			t.variants = append(t.variants, unknown...)
			tables = append(tables, *t)
		}
	}
	return tables, nil
}

type unionTableError struct{ pos token.Position }

func (e *unionTableError) Error() string {
	return e.pos.String() + ": more than one codec.NewUnion in one declaration"
}

// newUnionType returns U of a call codec.NewUnion[U](…).
func newUnionType(call *ast.CallExpr) (string, bool) {
	ix, ok := call.Fun.(*ast.IndexExpr)
	if !ok {
		return "", false
	}
	sel, ok := ix.X.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "NewUnion" {
		return "", false
	}
	if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "codec" {
		return "", false
	}
	u, ok := ix.Index.(*ast.Ident)
	if !ok {
		return "", false
	}
	return u.Name, true
}

// typeDocs maps each type declared in files to its doc comment's text.
func typeDocs(files []*ast.File) map[string]string {
	docs := map[string]string{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				docs[ts.Name.Name] = doc.Text()
			}
		}
	}
	return docs
}

// undocumentedVariants lists, per union, the exported variants its
// interface's doc comment does not link ([Variant]).
func undocumentedVariants(tables []unionTable, docs map[string]string) []string {
	var missing []string
	for _, t := range tables {
		doc := docs[t.union]
		seen := map[string]bool{}
		for _, v := range t.variants {
			if seen[v] {
				continue
			}
			seen[v] = true
			if !strings.Contains(doc, "["+v+"]") {
				missing = append(missing, t.union+": ["+v+"]")
			}
		}
	}
	return missing
}

// TestUnionDocsListVariants checks that the doc comment of every union
// interface links each of its variants, its Unknown variant included, so
// a reader of go doc learns what a type switch on it can meet.
func TestUnionDocsListVariants(t *testing.T) {
	fset, files := rootFiles(t)
	tables, err := unionTables(fset, files)
	require.NoError(t, err)
	require.Greater(t, len(tables), 40, "union tables found")
	for _, tb := range tables {
		assert.NotEmpty(t, tb.variants, "%s: union %s: no variants found", tb.pos, tb.union)
	}
	missing := undocumentedVariants(tables, typeDocs(files))
	assert.Empty(t, missing, "variants missing from their union's doc comment")
}

// TestUnionDocsCatches checks the check on a small package: a chained
// table, a table filled in a loop over a package variable, and a doc that
// forgets one variant of each.
func TestUnionDocsCatches(t *testing.T) {
	src := `package p

// A Shape is a [Circle] or an [UnknownShape].
type Shape interface{ isShape() }

var shapeUnion = codec.NewUnion[Shape]("Shape", UnknownShape{}).
	Add("circle", Circle{}).
	AddSpec("square", Square{}, codec.Spec{})

// A Pet is a [Cat] or an [UnknownPet].
type Pet interface{ isPet() }

var pets = []struct{ name string; v Pet }{{"cat", Cat{}}, {"dog", Dog{}}}

var petUnion = func() *codec.Union[Pet] {
	u := codec.NewUnion[Pet]("Pet", UnknownPet{})
	for _, p := range pets {
		u.Add(p.name, p.v)
	}
	return u
}()
`
	fset, files := parseSource(t, src)
	tables, err := unionTables(fset, files)
	require.NoError(t, err)
	require.Len(t, tables, 2)
	assert.Equal(t, []string{"Circle", "Square", "UnknownShape"}, tables[0].variants)
	assert.Equal(t, []string{"Cat", "Dog", "UnknownPet"}, tables[1].variants)
	got := undocumentedVariants(tables, typeDocs(files))
	slices.Sort(got)
	assert.Equal(t, []string{"Pet: [Dog]", "Shape: [Square]"}, got)
}
