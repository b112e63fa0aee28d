package mms_test

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/mmstest"

	"github.com/stretchr/testify/require"
)

// goBlock is a block of Go code from the documentation: a ```go block of
// README.md or a code block of a package doc comment.
type goBlock struct {
	file    string // where it is, relative to the repository: README.md, otel/otel.go
	abs     string // the same, absolute: compiler messages name it
	line    int    // the line its code starts on
	heading string // for README.md, the "## " heading it is under
	code    string
}

func (b goBlock) pos() string { return fmt.Sprintf("%s:%d", b.file, b.line) }

// readmeGoBlocks returns the ```go blocks of a Markdown text. Blocks
// fenced otherwise (```sh, a bare ```) are not Go.
func readmeGoBlocks(t *testing.T, md []byte) []goBlock {
	t.Helper()
	readmePath, err := filepath.Abs("README.md")
	require.NoError(t, err)
	var blocks []goBlock
	var cur *goBlock
	heading := ""
	sc := bufio.NewScanner(bytes.NewReader(md))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "## "):
			heading = strings.TrimPrefix(line, "## ")
		case cur == nil && strings.TrimSpace(line) == "```go":
			cur = &goBlock{file: "README.md", abs: readmePath, line: n + 1, heading: heading}
		case cur != nil && strings.TrimSpace(line) == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.code += line + "\n"
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		t.Fatalf("README.md:%d: unterminated ```go block", cur.line-1)
	}
	return blocks
}

// packageDocBlocks returns the code blocks of the package doc comments of
// the repository's importable packages, in every module: those a user
// reads on pkg.go.dev. Commands (package main: their blocks are shell
// lines), internal packages and testdata are left out.
func packageDocBlocks(t *testing.T, root string) []goBlock {
	t.Helper()
	var blocks []goBlock
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch name := d.Name(); {
			case path == root:
			case strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_"),
				name == "testdata", name == "internal", name == "examples":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		if f.Doc == nil || f.Name.Name == "main" {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		var p comment.Parser
		for _, c := range p.Parse(f.Doc.Text()).Content {
			if code, ok := c.(*comment.Code); ok {
				blocks = append(blocks, goBlock{file: filepath.ToSlash(rel), abs: path, line: commentLine(src, code.Text), code: code.Text})
			}
		}
		return nil
	})
	require.NoError(t, err)
	return blocks
}

// commentLine is the line of src where a doc comment's code block starts
// (its first line, indented after "//"), or 1 when it cannot be found.
func commentLine(src []byte, code string) int {
	first, _, _ := strings.Cut(code, "\n")
	for i, line := range strings.Split(string(src), "\n") {
		if text, ok := strings.CutPrefix(line, "//"); ok && strings.TrimSpace(text) == strings.TrimSpace(first) {
			return i + 1
		}
	}
	return 1
}

// snippetImports resolves the package names a fragment uses without
// importing them. A fragment may use only these; anything else it names
// must be declared in the fragment.
var snippetImports = map[string]string{
	"context": "context",
	"csv":     "encoding/csv",
	"errors":  "errors",
	"exec":    "os/exec",
	"fmt":     "fmt",
	"http":    "net/http",
	"io":      "io",
	"json":    "encoding/json",
	"log":     "log",
	"os":      "os",
	"slog":    "log/slog",
	"testing": "testing",
	"time":    "time",

	"mms":            "github.com/mms-sdk/mms-go",
	"admin":          "github.com/mms-sdk/mms-go/admin",
	"option":         "github.com/mms-sdk/mms-go/option",
	"observe":        "github.com/mms-sdk/mms-go/observe",
	"platform":       "github.com/mms-sdk/mms-go/platform",
	"mmstest":        "github.com/mms-sdk/mms-go/mmstest",
	"fakeclient":     "github.com/mms-sdk/mms-go/mmstest/fakeclient",
	"otel":           "github.com/mms-sdk/mms-go/otel",
	"bedrock":        "github.com/mms-sdk/mms-go/bedrock",
	"bedrocktest":    "github.com/mms-sdk/mms-go/bedrock/bedrocktest",
	"vertex":         "github.com/mms-sdk/mms-go/vertex",
	"vertextest":     "github.com/mms-sdk/mms-go/vertex/vertextest",
	"foundry":        "github.com/mms-sdk/mms-go/foundry",
	"foundrytest":    "github.com/mms-sdk/mms-go/foundry/foundrytest",
	"awsgateway":     "github.com/mms-sdk/mms-go/awsgateway",
	"awsgatewaytest": "github.com/mms-sdk/mms-go/awsgateway/awsgatewaytest",
	"gcpgateway":     "github.com/mms-sdk/mms-go/gcpgateway",
	"gcpgatewaytest": "github.com/mms-sdk/mms-go/gcpgateway/gcpgatewaytest",
	"mmsmcp":         "github.com/mms-sdk/mms-go/mcp",
	"eino":           "github.com/mms-sdk/mms-go/adapters/eino",
	"langchaingo":    "github.com/mms-sdk/mms-go/adapters/langchaingo",
	"mmsgenkit":      "github.com/mms-sdk/mms-go/adapters/genkit",
	"postgres":       "github.com/mms-sdk/mms-go/batchstore/postgres",

	"aws":     "github.com/aws/aws-sdk-go-v2/aws",
	"config":  "github.com/aws/aws-sdk-go-v2/config",
	"mcp":     "github.com/modelcontextprotocol/go-sdk/mcp",
	"schema":  "github.com/cloudwego/eino/schema",
	"llms":    "github.com/tmc/langchaingo/llms",
	"genkit":  "github.com/firebase/genkit/go/genkit",
	"ai":      "github.com/firebase/genkit/go/ai",
	"pgxpool": "github.com/jackc/pgx/v5/pgxpool",
}

// snippetHead opens the function a fragment of statements is the body of.
const snippetHead = "func example(ctx context.Context, t *testing.T) error {\n"

// snippetFile turns a block into a Go file by the rule the documentation
// is written to:
//
//   - a block whose first line is a package clause is a whole file: a
//     program (package main), a test file (package x_test, also run) or a
//     library file;
//   - any other block is a fragment: statements, the body of
//     func example(ctx context.Context, t *testing.T) error, so they may use
//     ctx and t, return an error, and end without a return; or else
//     top-level declarations. Every other name a fragment uses is declared
//     in it, or is one of the packages of snippetImports, imported for it.
//     A variable a fragment declares at its top level counts as used: the
//     fragment shows how to get it, what follows is the reader's.
//
// A //line directive points compiler and vet messages at the block.
func snippetFile(b goBlock) (src []byte, test bool, err error) {
	directive := fmt.Sprintf("//line %s:%d\n", filepath.ToSlash(b.abs), b.line)
	if first, _, _ := strings.Cut(b.code, "\n"); strings.HasPrefix(first, "package ") {
		return []byte(directive + b.code), strings.HasSuffix(first, "_test"), nil
	}
	// Statements, else declarations.
	stmts := "package snippet\n\n" + snippetHead + directive + b.code + "}\n"
	f, err := parser.ParseFile(token.NewFileSet(), "", stmts, 0)
	if err == nil {
		return fragmentFile(f, b, stmts[:len(stmts)-2]), false, nil
	}
	decls := "package snippet\n\n" + directive + b.code
	if f, err2 := parser.ParseFile(token.NewFileSet(), "", decls, 0); err2 == nil {
		return withImports(f, decls), false, nil
	}
	return nil, false, fmt.Errorf("%s: not a file, statements or declarations: %v", b.pos(), err)
}

// fragmentFile completes the function of a fragment of statements (src,
// without the closing brace): its top-level variables used, a return.
func fragmentFile(f *ast.File, b goBlock, src string) []byte {
	body := f.Decls[0].(*ast.FuncDecl).Body.List
	var tail strings.Builder
	tail.WriteString("//line snippet.go:1\n")
	seen := map[string]bool{}
	use := func(id *ast.Ident) {
		if id.Name != "_" && !seen[id.Name] {
			seen[id.Name] = true
			fmt.Fprintf(&tail, "\t_ = %s\n", id.Name)
		}
	}
	for _, s := range body {
		switch s := s.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE {
				for _, e := range s.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						use(id)
					}
				}
			}
		case *ast.DeclStmt:
			if g, ok := s.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				for _, spec := range g.Specs {
					for _, id := range spec.(*ast.ValueSpec).Names {
						use(id)
					}
				}
			}
		}
	}
	if len(body) == 0 {
		tail.WriteString("\treturn nil\n")
	} else if _, ok := body[len(body)-1].(*ast.ReturnStmt); !ok {
		tail.WriteString("\treturn nil\n")
	}
	return withImports(f, src+tail.String()+"}\n")
}

// withImports adds to src (a file without imports, whose parse is f) an
// import of each snippetImports package f uses without declaring.
func withImports(f *ast.File, src string) []byte {
	need := map[string]bool{}
	if strings.Contains(src, snippetHead) {
		need["context"], need["testing"] = true, true
	}
	for _, id := range f.Unresolved {
		if _, ok := snippetImports[id.Name]; ok {
			need[id.Name] = true
		}
	}
	var imports []string
	for name := range need {
		imports = append(imports, fmt.Sprintf("\t%s %q\n", name, snippetImports[name]))
	}
	sort.Strings(imports)
	head := "package snippet\n\nimport (\n" + strings.Join(imports, "") + ")\n"
	if len(imports) == 0 {
		head = "package snippet\n"
	}
	return []byte(head + strings.TrimPrefix(src, "package snippet\n"))
}

// repoModule is a module of the repository.
type repoModule struct {
	path, dir string
	requires  map[string]string // module path → version
}

var (
	goModModule  = regexp.MustCompile(`(?m)^module\s+(\S+)`)
	goModRequire = regexp.MustCompile(`(?m)^(?:require\s+|\t)([a-z0-9.\-]+\.[a-z]+/\S+)\s+(v\S+)`)
)

// repoModules reads every go.mod of the repository (examples included:
// they name the third-party modules snippets import, e.g. the AWS SDK's
// config).
func repoModules(t *testing.T, root string) []repoModule {
	t.Helper()
	var mods []repoModule
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.Name() != "go.mod" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		m := goModModule.FindSubmatch(data)
		if m == nil {
			return fmt.Errorf("%s: no module line", path)
		}
		mod := repoModule{path: string(m[1]), dir: filepath.Dir(path), requires: map[string]string{}}
		for _, r := range goModRequire.FindAllSubmatch(data, -1) {
			mod.requires[string(r[1])] = string(r[2])
		}
		mods = append(mods, mod)
		return nil
	})
	require.NoError(t, err)
	return mods
}

// semverLess orders plain release versions (vX.Y.Z), which is all the
// repository's go.mod files name for the modules snippets import.
func semverLess(a, b string) bool {
	pa, pb := strings.Split(strings.TrimPrefix(a, "v"), "."), strings.Split(strings.TrimPrefix(b, "v"), ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		na, _ := strconv.Atoi(pa[i])
		nb, _ := strconv.Atoi(pb[i])
		if na != nb {
			return na < nb
		}
	}
	return len(pa) < len(pb)
}

// docsModule writes a scratch module with one package per block and
// returns its directory and the packages to run as tests. It requires
// every library module of the repository, replaced by its directory (as
// README.md tells a user of an unpublished clone to), and every
// third-party module of snippetImports at the highest version a go.mod of
// the repository names; its go.sum is the union of the repository's, so
// the modules come from the module cache (a test run of each module fills
// it), else through GOPROXY like any build's.
func docsModule(t *testing.T, root string, blocks []goBlock) (dir string, tests []string) {
	t.Helper()
	dir = t.TempDir()
	write := func(name string, data []byte) {
		t.Helper()
		path := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, data, 0o644))
	}
	mods := repoModules(t, root)
	var goMod, replaces strings.Builder
	goMod.WriteString("module docs.example\n\ngo 1.24\n\nrequire (\n")
	own := map[string]bool{}
	for _, m := range mods {
		own[m.path] = true
	}
	external := map[string]string{}
	for _, path := range snippetImports {
		for _, m := range mods {
			for mod, v := range m.requires {
				if !own[mod] && (path == mod || strings.HasPrefix(path, mod+"/")) && (external[mod] == "" || semverLess(external[mod], v)) {
					external[mod] = v
				}
			}
		}
	}
	var sums []string
	for _, m := range mods {
		sum, err := os.ReadFile(filepath.Join(m.dir, "go.sum"))
		if err == nil {
			sums = append(sums, strings.Split(string(sum), "\n")...)
		}
		if !strings.Contains(m.path, "/examples/") {
			fmt.Fprintf(&goMod, "\t%s v0.0.0\n", m.path)
			fmt.Fprintf(&replaces, "replace %s => %s\n", m.path, filepath.ToSlash(m.dir))
		}
	}
	for mod, v := range external {
		fmt.Fprintf(&goMod, "\t%s %s\n", mod, v)
	}
	goMod.WriteString(")\n\n" + replaces.String())
	write("go.mod", []byte(goMod.String()))
	sort.Strings(sums)
	write("go.sum", []byte(strings.TrimSpace(strings.Join(slices.Compact(sums), "\n"))+"\n"))

	for i, b := range blocks {
		src, test, err := snippetFile(b)
		if err != nil {
			t.Error(err)
			continue
		}
		name := fmt.Sprintf("block%d/doc.go", i+1)
		if test {
			name = fmt.Sprintf("block%d/doc_test.go", i+1)
			tests = append(tests, fmt.Sprintf("./block%d", i+1))
		}
		write(name, src)
	}
	return dir, tests
}

// goCmd runs the go command in dir, for the scratch module.
func goCmd(t *testing.T, dir string, args ...string) ([]byte, error) {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the documentation's code: %v", err)
	}
	cmd := exec.Command(goTool, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	return cmd.CombinedOutput()
}

// TestReadmeGoBlocksBuild builds and vets every ```go block of README.md
// and every code block of a package doc comment (packageDocBlocks), and
// runs those that are test files. The rule a block follows is
// snippetFile's; each block is its own package of one scratch module
// (docsModule), built by one go build. A fragment that does not compile
// under the rule is a documentation bug: fix the documentation.
func TestReadmeGoBlocksBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every module's documentation; skipped with -short")
	}
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	md, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	readme := readmeGoBlocks(t, md)
	if len(readme) == 0 {
		t.Fatal("README.md has no ```go block")
	}
	docs := packageDocBlocks(t, root)
	if len(docs) == 0 {
		t.Fatal("no package doc comment has a code block")
	}
	dir, tests := docsModule(t, root, append(readme, docs...)) // a block that does not parse is reported, the others built
	steps := [][]string{{"build", "./..."}, {"vet", "./..."}}
	if len(tests) > 0 {
		steps = append(steps, append([]string{"test", "-count=1"}, tests...))
	}
	for _, args := range steps {
		if out, err := goCmd(t, dir, args...); err != nil {
			t.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
			return
		}
	}
}

// TestReadmeQuickStartUsesTheEnvironment runs the README's quick start with
// nothing but $VENDOR_AUTH_TOKEN and $VENDOR_BASE_URL (pointing at an
// mmstest server) set, as its comments promise it works.
func TestReadmeQuickStartUsesTheEnvironment(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a program; skipped with -short")
	}
	md, err := os.ReadFile("README.md")
	require.NoError(t, err)
	var quick []goBlock
	for _, b := range readmeGoBlocks(t, md) {
		if b.heading == "Quick start" {
			quick = append(quick, b)
		}
	}
	require.Len(t, quick, 1, "README.md's Quick start has one ```go block")
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	dir, _ := docsModule(t, root, quick)
	bin := filepath.Join(dir, "quickstart")
	if out, err := goCmd(t, dir, "build", "-o", bin, "./block1"); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	srv := mmstest.NewServer()
	defer srv.Close()
	cmd := exec.Command(bin)
	for _, kv := range os.Environ() { // TestMain has cleared the other sources
		if !strings.HasPrefix(kv, "VENDOR_API_KEY=") && !strings.HasPrefix(kv, "VENDOR_BASE_URL=") && !strings.HasPrefix(kv, "VENDOR_AUTH_TOKEN=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "VENDOR_AUTH_TOKEN="+mmstest.DefaultAuthToken, "VENDOR_BASE_URL="+srv.URL)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the quick start with $VENDOR_AUTH_TOKEN and $VENDOR_BASE_URL: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "stop reason:") {
		t.Errorf("the quick start's output lacks its stream's stop reason:\n%s", out)
	}
}

// TestReadmeUnpublishedCloneCoversEveryModule checks that README.md's steps
// for an unpublished clone replace every library module of the
// repository, not the root alone: a dependency's replace directives do
// not apply to the module that requires it.
func TestReadmeUnpublishedCloneCoversEveryModule(t *testing.T) {
	md, err := os.ReadFile("README.md")
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(md), "### Before the module is published")
	require.True(t, ok, "README.md has a section for an unpublished clone")
	section, _, _ = strings.Cut(section, "\n## ")
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	for _, m := range repoModules(t, root) {
		if strings.Contains(m.path, "/examples/") {
			continue
		}
		rel, err := filepath.Rel(root, m.dir)
		require.NoError(t, err)
		want := "=../mms-go"
		if rel != "." {
			want += "/" + filepath.ToSlash(rel)
		}
		if !strings.Contains(section, m.path+want+" ") && !strings.Contains(section, m.path+want+"\n") {
			t.Errorf("README.md's steps for an unpublished clone do not replace %s (want %s%s)", m.path, m.path, want)
		}
	}
}
