package transport

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

func TestReadBody(t *testing.T) {
	const limit = 3*maxChunk + 5 // several chunks before the limit
	body := func(n int) []byte { return bytes.Repeat([]byte("abcdefg"), n/7+1)[:n] }
	tests := []struct {
		name    string
		n       int   // bytes the reader holds
		size    int64 // announced; -1 unknown
		wantErr error
	}{
		{"empty, known", 0, 0, nil},
		{"empty, unknown", 0, -1, nil},
		{"small, known", 100, 100, nil},
		{"small, unknown", 100, -1, nil},
		{"one chunk exactly, unknown", firstChunk, -1, nil},
		{"at the limit, known", limit, limit, nil},
		{"at the limit, unknown", limit, -1, nil},
		{"one over, known: not read", limit + 1, limit + 1, errOverLimit},
		{"one over, unknown", limit + 1, -1, errOverLimit},
		{"far over, unknown", 3 * limit, -1, errOverLimit},
		{"longer than announced, under the limit", 5000, 100, nil},
		{"longer than announced, over the limit", limit + 1, 100, errOverLimit},
		{"announced at the limit, one more sent", limit + 1, limit, errOverLimit},
		{"shorter than announced", 100, 200, io.ErrUnexpectedEOF},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := body(tt.n)
			r := &countReader{r: iotest.HalfReader(bytes.NewReader(want))}
			got, err := readBody(r, tt.size, limit)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if r.n > limit+1 {
				t.Errorf("read %d bytes, more than limit+1", r.n)
			}
			if tt.wantErr == nil && !bytes.Equal(got, want) {
				t.Errorf("got %d bytes, want %d (or different content)", len(got), len(want))
			}
		})
	}
	t.Run("reader error", func(t *testing.T) {
		boom := errors.New("boom")
		for _, size := range []int64{-1, 10} {
			r := io.MultiReader(bytes.NewReader(make([]byte, 20)), iotest.ErrReader(boom))
			if _, err := readBody(r, size, limit); !errors.Is(err, boom) {
				t.Errorf("size %d: err = %v, want boom", size, err)
			}
		}
	})
}

type countReader struct {
	r io.Reader
	n int
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}
