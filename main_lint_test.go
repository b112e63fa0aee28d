package mms_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/fixtures"

	"github.com/stretchr/testify/require"
)

// envGatedSkips returns the tests of a file that skip unless an
// environment variable says otherwise (an if on os.Getenv or os.LookupEnv
// whose body skips): helpers run as child processes, which show as skips
// in every normal run. A child process is dispatched from TestMain.
func envGatedSkips(fset *token.FileSet, f *ast.File) []string {
	var bad []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") {
			continue
		}
		for _, s := range fn.Body.List {
			ifs, ok := s.(*ast.IfStmt)
			if ok && callsAny(ifs.Cond, "Getenv", "LookupEnv") || ok && ifs.Init != nil && callsAny(ifs.Init, "Getenv", "LookupEnv") {
				if callsAny(ifs.Body, "Skip", "Skipf", "SkipNow") {
					bad = append(bad, fset.Position(fn.Pos()).String()+" "+fn.Name.Name)
				}
			}
		}
	}
	return bad
}

// callsAny reports whether n calls a function or method with one of names.
func callsAny(n ast.Node, names ...string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
				for _, name := range names {
					found = found || sel.Sel.Name == name
				}
			}
		}
		return !found
	})
	return found
}

// TestNoEnvGatedSkips keeps a clean `go test -v ./...` free of skips that
// are not about the machine: no test of any module only skips unless an
// environment variable is set.
func TestNoEnvGatedSkips(t *testing.T) {
	fset := token.NewFileSet()
	var bad []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		bad = append(bad, envGatedSkips(fset, f)...)
		return nil
	})
	require.NoError(t, err)
	require.Empty(t, bad, "tests that skip unless an environment variable is set; dispatch the child process from TestMain")
}

// TestNoEnvGatedSkipsCatches checks the check on the shape it replaced.
func TestNoEnvGatedSkipsCatches(t *testing.T) {
	// The fixture is a data file: as Go source in a test file it would
	// itself look like the skips it stands for.
	src, err := os.ReadFile(filepath.Join("testdata", "lint", "env_gated_skips.txt"))
	require.NoError(t, err)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p_test.go", src, parser.SkipObjectResolution)
	require.NoError(t, err)
	require.Equal(t, []string{"p_test.go:3:1 TestChild", "p_test.go:9:1 TestLookup"}, envGatedSkips(fset, f))
}

// TestCleanCloneSaysWhatItLeftOut runs tests that read ../shared in a
// child test binary that sees no ../shared, as in a clean clone: the run
// ends with one line naming them, in the output a passing run shows
// without -v.
func TestCleanCloneSaysWhatItLeftOut(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^(TestRecordedErrorBodies|TestRecordedStreams)$", "-test.count=1")
	cmd.Env = append(os.Environ(), fixtures.EnvSharedDir+"="+filepath.Join(t.TempDir(), "absent"))
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out),
		"fixtures: 2 test(s) ran fewer cases without ../shared/recorded (absent): TestRecordedErrorBodies, TestRecordedStreams\n")
}
