package mms

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/wire"

	"github.com/stretchr/testify/require"
)

// internalRefs lists the exported names of a package's files that stand
// for something of an internal package, which go doc cannot show: a type
// alias of an internal type (type X = transport.Y, or any type mentioning
// one), a type defined as an internal type (type X transport.Y), and a
// const or var whose value is an internal package's (var X = transport.Y).
func internalRefs(fset *token.FileSet, files []*ast.File) []string {
	var found []string
	for _, f := range files {
		internal := map[string]bool{} // import names of internal packages
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !strings.Contains(path, "/internal/") {
				continue
			}
			name := path[strings.LastIndexByte(path, '/')+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			internal[name] = true
		}
		isInternal := func(e ast.Expr) bool {
			sel, ok := e.(*ast.SelectorExpr)
			if !ok {
				return false
			}
			x, ok := sel.X.(*ast.Ident)
			return ok && internal[x.Name]
		}
		mentions := func(e ast.Expr) bool {
			hit := false
			ast.Inspect(e, func(n ast.Node) bool {
				if e, ok := n.(ast.Expr); ok && isInternal(e) {
					hit = true
				}
				return !hit
			})
			return hit
		}
		at := func(n ast.Node, what string) {
			p := fset.Position(n.Pos())
			found = append(found, filepath.Base(p.Filename)+": "+what)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range g.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					t := s.Type
					if st, ok := t.(*ast.StarExpr); ok {
						t = st.X
					}
					if s.Assign.IsValid() && mentions(s.Type) || !s.Assign.IsValid() && isInternal(t) {
						at(s, "type "+s.Name.Name)
					}
				case *ast.ValueSpec:
					for i, name := range s.Names {
						if name.IsExported() && i < len(s.Values) && isInternal(s.Values[i]) {
							at(s, g.Tok.String()+" "+name.Name)
						}
					}
				}
			}
		}
	}
	return found
}

func parseDir(t *testing.T, fset *token.FileSet, dir string) []*ast.File {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		files = append(files, f)
	}
	if len(files) == 0 {
		t.Fatalf("no Go files in %s", dir)
	}
	return files
}

// TestNoPublicNameOfInternalType: every exported name of packages mms and
// option is a concrete, documented thing of its own package (or of another
// public one), never a stand-in for an internal one.
func TestNoPublicNameOfInternalType(t *testing.T) {
	for _, dir := range []string{".", "option"} {
		t.Run(dir, func(t *testing.T) {
			fset := token.NewFileSet()
			if found := internalRefs(fset, parseDir(t, fset, dir)); len(found) > 0 {
				t.Errorf("exported names standing for internal ones:\n%s", strings.Join(found, "\n"))
			}
		})
	}
}

// TestInternalRefsCatches: the check above finds each kind of stand-in.
func TestInternalRefsCatches(t *testing.T) {
	src := `package p

import (
	"net/http"

	"github.com/mms-sdk/mms-go/internal/transport"
	cfg "github.com/mms-sdk/mms-go/internal/config"
)

type Alias = transport.Metadata
type PtrAlias = *transport.Metadata
type FuncAlias = func(*cfg.Config) error
type Defined transport.Metadata
type Fine func(*cfg.Config) error
type Public = http.Header
type unexported = transport.Metadata

var ErrX = transport.ErrNotReplayable
var ErrFine, ErrY = http.ErrBodyNotAllowed, transport.ErrNotReplayable
var errQuiet = transport.ErrNotReplayable

const (
	Beta = cfg.Beta
	Literal = "x"
)
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
	require.NoError(t, err)
	got := internalRefs(fset, []*ast.File{f})
	want := []string{"p.go: type Alias", "p.go: type PtrAlias", "p.go: type FuncAlias", "p.go: type Defined",
		"p.go: var ErrX", "p.go: var ErrY", "p.go: const Beta"}
	slices.Sort(got)
	slices.Sort(want)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("found (-want +got):\n%s", d)
	}
}

// TestBetaConstantsAgreeWithWire: the public beta constants carry literal
// values (so go doc shows them); they must stay those the SDK sends.
func TestBetaConstantsAgreeWithWire(t *testing.T) {
	tests := []struct{ name, public, wire string }{
		{"BetaFiles", BetaFiles, wire.BetaFiles},
		{"BetaSkills", BetaSkills, wire.BetaSkills},
		{"BetaDreaming", BetaDreaming, wire.BetaDreaming},
		{"APIVersion20230601", APIVersion20230601, wire.DefaultVersion},
		{"APIVersion20261021", APIVersion20261021, wire.Version20261021},
	}
	for _, tt := range tests {
		if tt.public != tt.wire {
			t.Errorf("%s = %q, but the SDK sends %q", tt.name, tt.public, tt.wire)
		}
	}
}

// TestOptionExportsOnlyOptions: every exported function of package option
// makes a RequestOption; a helper the root needs lives in internal/.
func TestOptionExportsOnlyOptions(t *testing.T) {
	fset := token.NewFileSet()
	for _, f := range parseDir(t, fset, "option") {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !fn.Name.IsExported() {
				continue
			}
			if fn.Name.Name == "NewSecret" {
				// The one exception: Secret, the type of a credential
				// option's value (Token.AccessToken), is made here so
				// that mms.Secret can alias it.
				continue
			}
			res := fn.Type.Results
			if res == nil || len(res.List) != 1 || len(res.List[0].Names) > 1 {
				t.Errorf("option.%s does not return one RequestOption", fn.Name.Name)
				continue
			}
			if id, ok := res.List[0].Type.(*ast.Ident); !ok || id.Name != "RequestOption" {
				t.Errorf("option.%s does not return a RequestOption", fn.Name.Name)
			}
		}
	}
}
