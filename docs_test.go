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
