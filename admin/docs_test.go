package admin_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"strings"
	"testing"
)

// Every exported declaration of package admin has a doc comment, and every
// exported …Params type has a value-receiver Validate, as in the root.
func TestExportedDocsAndValidate(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	params, validates := map[string]bool{}, map[string]bool{}
	for _, f := range pkgs["admin"].Files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv != nil {
					recv := d.Recv.List[0].Type
					if _, ptr := recv.(*ast.StarExpr); !ptr && d.Name.Name == "Validate" {
						validates[recv.(*ast.Ident).Name] = true
					}
					if id, ok := recv.(*ast.Ident); ok && !id.IsExported() {
						continue
					}
				}
				if d.Doc == nil {
					t.Errorf("%s: func %s has no doc", fset.Position(d.Pos()), d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						if strings.HasSuffix(s.Name.Name, "Params") {
							params[s.Name.Name] = true
						}
						if d.Doc == nil && s.Doc == nil {
							t.Errorf("%s: type %s has no doc", fset.Position(s.Pos()), s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() && d.Doc == nil && s.Doc == nil {
								t.Errorf("%s: %s has no doc", fset.Position(n.Pos()), n.Name)
							}
						}
					}
				}
			}
		}
	}
	for p := range params {
		if !validates[p] {
			t.Errorf("%s has no value-receiver Validate", p)
		}
	}
}
