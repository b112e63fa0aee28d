package mms_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// goBlock is a ```go block of README.md and the line its code starts on.
type goBlock struct {
	line int
	code string
}

// readmeGoBlocks returns the ```go blocks of a Markdown text.
func readmeGoBlocks(t *testing.T, md []byte) []goBlock {
	t.Helper()
	var blocks []goBlock
	var cur *goBlock
	sc := bufio.NewScanner(bytes.NewReader(md))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.TrimSpace(line) == "```go":
			cur = &goBlock{line: n + 1}
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

// TestReadmeGoBlocksBuild builds and vets every ```go block of README.md.
// Each block is a complete program (package main), built and vetted, or a
// test file (package x_test), also run: it is written into its
// own package of a scratch module that replaces github.com/mms-sdk/mms-go
// with this checkout and reuses its go.sum, so nothing is downloaded (the
// dependencies are in the module cache once this package's tests build).
// A //line directive makes compiler and vet messages point at README.md.
func TestReadmeGoBlocksBuild(t *testing.T) {
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	md, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	blocks := readmeGoBlocks(t, md)
	if len(blocks) == 0 {
		t.Fatal("README.md has no ```go block")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the README's code: %v", err)
	}

	dir := t.TempDir()
	goMod := "module readme.example\n\ngo 1.24\n\nrequire github.com/mms-sdk/mms-go v0.0.0\n\n" +
		"replace github.com/mms-sdk/mms-go => " + filepath.ToSlash(root) + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	write := func(name string, data []byte) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", []byte(goMod))
	write("go.sum", sum)
	var tests []string // the packages of test blocks
	for i, b := range blocks {
		code := []byte(fmt.Sprintf("//line README.md:%d\n%s", b.line, b.code))
		switch pkg, _, _ := strings.Cut(b.code, "\n"); {
		case pkg == "package main":
			write(fmt.Sprintf("block%d/main.go", i+1), code)
		case strings.HasPrefix(pkg, "package ") && strings.HasSuffix(pkg, "_test"):
			write(fmt.Sprintf("block%d/readme_test.go", i+1), code)
			tests = append(tests, fmt.Sprintf("./block%d", i+1))
		default:
			t.Errorf("README.md:%d: a Go block must be a program (package main) or a test file (package x_test)", b.line)
		}
	}
	if t.Failed() {
		return
	}

	env := append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOSUMDB=off", "GOWORK=off", "GOTOOLCHAIN=local")
	bin := filepath.Join(dir, "bin") + string(filepath.Separator) // -o to a directory: any number of mains
	steps := [][]string{{"build", "-o", bin, "./..."}, {"vet", "./..."}}
	if len(tests) > 0 {
		steps = append(steps, append([]string{"test", "-count=1"}, tests...))
	}
	for _, args := range steps {
		cmd := exec.Command(goTool, args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}
