package mms

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// FuzzBatchJobLogEntry: a log record either parses into an entry that
// encodes back to the same bytes, or is refused; nothing panics.
func FuzzBatchJobLogEntry(f *testing.F) {
	for _, seed := range []string{
		"s req-1", `e req-2 {"type":"errored","error":{"type":"error","error":{"type":"api_error","message":"x"},"request_id":null}}`,
		`r a {"type":"expired"}`, "c x", "u y {}", "x", "", "q id", "s  two", "s\tid",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, rec []byte) {
		e, err := parseLogEntry(rec)
		if err != nil {
			return
		}
		if got := e.encode(); !bytes.Equal(got, rec) && !(len(e.result) == 0 && bytes.HasSuffix(rec, []byte{' '})) {
			t.Fatalf("%q parsed to %+v, which encodes to %q", rec, e, got)
		}
	})
}

func TestMaxBatchBytesIsTheBatchLimit(t *testing.T) {
	if MaxBatchBytes != wire.LimitBatches {
		t.Errorf("MaxBatchBytes = %d, the batches endpoint's limit is %d", MaxBatchBytes, wire.LimitBatches)
	}
}

func TestIDIndex(t *testing.T) {
	ids := strings.Fields("q b z a m")
	x := newIDIndex([]byte(strings.Join(ids, "\n"))) // no final '\n'
	if x.len() != len(ids) {
		t.Fatalf("%d ids, want %d", x.len(), len(ids))
	}
	for i, id := range ids {
		if x.id(i) != id {
			t.Errorf("id(%d) = %q, want %q", i, x.id(i), id)
		}
		if got := x.find(id); got != i {
			t.Errorf("find(%q) = %d, want %d", id, got, i)
		}
	}
	for _, id := range []string{"", "c", "zz", "0"} {
		if got := x.find(id); got != -1 {
			t.Errorf("find(%q) = %d, want -1", id, got)
		}
	}
}

func TestPackerLimits(t *testing.T) {
	envelope := int64(len(bodyOpen) + len(bodyClose))
	item := []byte(`{"custom_id":"a","params":{}}`)
	n := int64(len(item))
	tests := []struct {
		name     string
		maxReq   int
		maxBytes int64
		items    int
		want     []int
	}{
		{"by count", 2, 1 << 20, 5, []int{2, 2, 1}},
		{"three fit exactly", 10, envelope + 3*n + 2, 7, []int{3, 3, 1}},
		{"one byte short of three", 10, envelope + 3*n + 1, 7, []int{2, 2, 2, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := newPacker(tt.maxReq, tt.maxBytes)
			for i := range tt.items {
				k.add(int64(i), item)
			}
			k.close()
			var got []int
			for _, c := range k.chunks {
				got = append(got, c.Count)
				if c.Bytes > tt.maxBytes {
					t.Errorf("a chunk of %d bytes, over %d", c.Bytes, tt.maxBytes)
				}
				if want := envelope + int64(c.Count)*n + int64(c.Count-1); c.Bytes != want {
					t.Errorf("a chunk of %d items counted %d bytes, want %d", c.Count, c.Bytes, want)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("chunk sizes (-want +got):\n%s", diff)
			}
		})
	}
}
