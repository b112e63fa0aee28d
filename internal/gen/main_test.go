package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// generated returns what the generator writes for the package in dir.
func generated(t *testing.T, dir string) map[string]string {
	t.Helper()
	p, err := load(dir)
	require.NoError(t, err)
	files, err := p.generate()
	require.NoError(t, err)
	out := map[string]string{}
	for name, src := range files {
		out[name] = string(src)
	}
	return out
}

// onDisk returns the zz_*.go files of dir.
func onDisk(t *testing.T, dir string) map[string]string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "zz_*.go"))
	require.NoError(t, err)
	out := map[string]string{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		require.NoError(t, err)
		out[filepath.Base(n)] = string(b)
	}
	return out
}

// TestGolden checks the output for a small package that uses every
// source of data: a table with literal and constant wire names and a
// spec, hand-written methods left alone, //mms:json in its forms, and a
// //mms:variants table.
func TestGolden(t *testing.T) {
	dir := filepath.Join("testdata", "shapes")
	if diff := cmp.Diff(onDisk(t, dir), generated(t, dir)); diff != "" {
		t.Errorf("testdata/shapes (-golden +generated):\n%s", diff)
	}
}

// TestRootCurrent fails when the root package's generated files are not
// what the generator writes now (run go generate in the module root).
func TestRootCurrent(t *testing.T) {
	dir := filepath.Join("..", "..")
	if diff := cmp.Diff(onDisk(t, dir), generated(t, dir)); diff != "" {
		t.Errorf("zz_*.go are stale; run go generate ./... (-on disk +generated):\n%s", diff)
	}
}

// TestRunWrites checks that run writes the files and removes a stale one.
func TestRunWrites(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"shapes.go", "tools.go"} {
		b, err := os.ReadFile(filepath.Join("testdata", "shapes", f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), b, 0o644))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "zz_gone.go"), []byte("package shapes\n"), 0o644))
	require.NoError(t, run(dir))
	require.Equal(t, onDisk(t, filepath.Join("testdata", "shapes")), onDisk(t, dir))
}

func TestErrors(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"unknown word", "package p\n\n//mms:json respons\ntype T struct{}\n", `unknown word "respons"`},
		{"type and spec", "package p\n\n//mms:json type=t spec=s\ntype T struct{}\n", "type= and spec= together"},
		{"generic", "package p\n\n//mms:json\ntype T[X any] struct{}\n", "generic"},
		{"wire on a variant", `package p

// A U is a [T]; [UnknownU] keeps any other.
type U interface{ isU() }

var u = codec.NewUnion[U]("U", UnknownU{}).Add("t", T{})

//mms:json type=t
type T struct{}

type UnknownU struct{}
`, "registered by its table"},
		{"variant not in the package", `package p

type U interface{ isU() }

var u = codec.NewUnion[U]("U", UnknownU{}).Add("t", other.T{}).Add("x", X{})

type UnknownU struct{}
`, "variant X of U is not a type of the package"},
		{"variant missing from the union's doc", `package p

// A U is a [T].
type U interface{ isU() }

var u = codec.NewUnion[U]("U", UnknownU{}).Add("t", T{}).Add("v", V{})

type T struct{}

type V struct{}

type UnknownU struct{}
`, "U: UnknownU\n\tU: V"},
		{"variants of no union", "package p\n\n//mms:variants Nope\nvar v = []any{}\n", "not a union interface"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "p.go"), []byte(c.src), 0o644))
			err := run(dir)
			require.Error(t, err)
			require.True(t, strings.Contains(err.Error(), c.want), "error %q does not say %q", err, c.want)
		})
	}
}
