package sse

import (
	"bytes"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/fixtures"
)

func FuzzDecoder(f *testing.F) {
	for _, tt := range decodeTests {
		f.Add([]byte(tt.in))
	}
	// Small streams on file (project fixtures, recorded ones when present)
	// are seeds too.
	for _, path := range streamFiles(f) {
		if in := fixtures.Read(f, path); len(in) <= 8<<10 {
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
