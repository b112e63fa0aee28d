package mms

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryParamsHasValidate: every exported …Params struct of the root has
// an exported Validate() error on a value receiver, and no …Params type has
// a pointer-receiver Validate, so a caller can check any params value the
// same way before sending. A union's params interface (SessionEventParams,
// …) is checked through its variants, which are listed here as structs.
func TestEveryParamsHasValidate(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	require.NoError(t, err)
	pkg, ok := pkgs["mms"]
	require.True(t, ok, "package mms not found")

	var params []string
	valueValidate := map[string]bool{}
	var pointerValidate []string
	for _, f := range pkg.Files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					ts, ok := spec.(*ast.TypeSpec)
					if !ok || !ts.Name.IsExported() || !strings.HasSuffix(ts.Name.Name, "Params") {
						continue
					}
					if _, isStruct := ts.Type.(*ast.StructType); isStruct {
						params = append(params, ts.Name.Name)
					}
				}
			case *ast.FuncDecl:
				if d.Name.Name != "Validate" || d.Recv == nil || len(d.Recv.List) != 1 {
					continue
				}
				if d.Type.Params.NumFields() != 0 || d.Type.Results.NumFields() != 1 {
					continue
				}
				if r, ok := d.Type.Results.List[0].Type.(*ast.Ident); !ok || r.Name != "error" {
					continue
				}
				switch recv := d.Recv.List[0].Type.(type) {
				case *ast.Ident:
					valueValidate[recv.Name] = true
				case *ast.StarExpr:
					if id, ok := recv.X.(*ast.Ident); ok && strings.HasSuffix(id.Name, "Params") {
						pointerValidate = append(pointerValidate, id.Name)
					}
				}
			}
		}
	}
	slices.Sort(params)
	require.NotEmpty(t, params)
	var missing []string
	for _, name := range params {
		if !valueValidate[name] {
			missing = append(missing, name)
		}
	}
	assert.Empty(t, missing, "…Params types without a value-receiver Validate() error")
	assert.Empty(t, pointerValidate, "…Params types with a pointer-receiver Validate")
}
