package sse

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

func FuzzDecoder(f *testing.F) {
	for _, tt := range decodeTests {
		f.Add([]byte(tt.in))
	}
	// Small recorded streams, when present, are seeds too.
	paths, _ := filepath.Glob(filepath.Join(recordedDir, "*.sse"))
	for _, path := range paths {
		if in, err := os.ReadFile(path); err == nil && len(in) <= 8<<10 {
			f.Add(in)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		whole, _ := decodeAll(bytes.NewReader(in), 0)
		if diff := cmp.Diff(refDecode(in), whole); diff != "" {
			t.Fatalf("differs from the reference decoder (-ref +got):\n%s", diff)
		}
		for name, r := range readers(in) {
			got, _ := decodeAll(r(), 0)
			if diff := cmp.Diff(whole, got); diff != "" {
				t.Fatalf("%s reader differs (-whole +%s):\n%s", name, name, diff)
			}
		}

		// With a small limit, where the decoder fails must not depend on
		// how the input was split.
		small, _ := decodeAll(bytes.NewReader(in), 8)
		one, _ := decodeAll(iotest.OneByteReader(bytes.NewReader(in)), 8)
		if diff := cmp.Diff(small, one); diff != "" {
			t.Fatalf("with a small limit, one-byte reads differ (-whole +one-byte):\n%s", diff)
		}
	})
}
