package idset

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/stretchr/testify/require"
)

// oracle computes what Repeats should return, with a map.
func oracle(entries []entry, max int) ([]Repeat, int64) {
	byKey := map[uint64][]int64{}
	for _, e := range entries {
		byKey[e.key] = append(byKey[e.key], e.index)
	}
	var all []Repeat
	for _, idx := range byKey {
		slices.Sort(idx)
		for _, later := range idx[1:] {
			all = append(all, Repeat{First: idx[0], Later: later})
		}
	}
	slices.SortFunc(all, compareRepeats)
	if max == 0 || len(all) == 0 {
		return nil, int64(len(all))
	}
	return all[:min(max, len(all))], int64(len(all))
}

// newSet returns a set spilling into a fresh directory, closed when the
// test ends.
func newSet(t testing.TB, mem int) (*Set, string) {
	dir := t.TempDir()
	s := New(dir, mem)
	t.Cleanup(func() { s.Close() })
	return s, dir
}

func addAll(t testing.TB, s *Set, entries []entry) {
	t.Helper()
	for _, e := range entries {
		if err := s.Add(e.key, e.index); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRepeatsOracle is a property test: random inputs, with and without
// spilling, give the oracle's answer.
func TestRepeatsOracle(t *testing.T) {
	for _, tc := range []struct {
		n, keys, mem, max int
		shuffled          bool
	}{
		{n: 0, keys: 1, mem: 4, max: 10},
		{n: 1, keys: 1, mem: 4, max: 10},
		{n: 100, keys: 50, mem: 1, max: 5},
		{n: 3000, keys: 1000, mem: 4, max: 20},
		{n: 3000, keys: 1000, mem: 7, max: 20, shuffled: true},
		{n: 5000, keys: 100, mem: 33, max: 1 << 20},
		{n: 5000, keys: 1 << 62, mem: 64, max: 10},
		{n: 2000, keys: 300, mem: 0, max: 3, shuffled: true},
		{n: 2000, keys: 300, mem: 1000, max: 0},
	} {
		for seed := range uint64(3) {
			name := fmt.Sprintf("n%d-keys%d-mem%d-max%d-shuffled%v-seed%d", tc.n, tc.keys, tc.mem, tc.max, tc.shuffled, seed)
			t.Run(name, func(t *testing.T) {
				rng := rand.New(rand.NewPCG(seed, 17))
				entries := make([]entry, tc.n)
				for i := range entries {
					entries[i] = entry{key: rng.Uint64N(uint64(tc.keys)), index: int64(i) * 3}
				}
				if tc.shuffled {
					rng.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
				}
				s, _ := newSet(t, tc.mem)
				addAll(t, s, entries)
				got, total, err := s.Repeats(tc.max)
				require.NoError(t, err)
				want, wantTotal := oracle(entries, tc.max)
				if diff := gocmp.Diff(want, got); diff != "" || total != wantTotal {
					t.Fatalf("total %d, want %d; repeats (-want +got):\n%s", total, wantTotal, diff)
				}
			})
		}
	}
}

func TestRepeatsNone(t *testing.T) {
	s, _ := newSet(t, 4)
	for i := range 5000 {
		if err := s.Add(uint64(i)*0x9E3779B97F4A7C15, int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	if len(s.runs) == 0 {
		t.Fatal("nothing spilled")
	}
	got, total, err := s.Repeats(10)
	if err != nil || got != nil || total != 0 {
		t.Fatalf("Repeats = %v, %d, %v; want none", got, total, err)
	}
}

// TestRepeatAcrossRuns: a key's first and later occurrences sit in two
// different spilled runs, and its third only in memory.
func TestRepeatAcrossRuns(t *testing.T) {
	s, _ := newSet(t, 4)
	addAll(t, s, []entry{{7, 10}, {1, 11}, {2, 12}, {3, 13}}) // run 1 once the next Add spills
	addAll(t, s, []entry{{4, 14}, {5, 15}, {7, 16}, {6, 17}}) // run 2
	addAll(t, s, []entry{{7, 18}, {8, 19}})                   // in memory
	if len(s.runs) != 2 {
		t.Fatalf("%d runs, want 2", len(s.runs))
	}
	got, total, err := s.Repeats(10)
	require.NoError(t, err)
	if diff := gocmp.Diff([]Repeat{{10, 16}, {10, 18}}, got); diff != "" || total != 2 {
		t.Fatalf("total %d; repeats (-want +got):\n%s", total, diff)
	}
}

// TestBounded: the buffer never outgrows memEntries and merging keeps the
// number of spill files logarithmic.
func TestBounded(t *testing.T) {
	for _, mem := range []int{1, 5, 1000, 3000} {
		t.Run(fmt.Sprint(mem), func(t *testing.T) {
			s, dir := newSet(t, mem)
			const n = 6000
			maxFiles := 0
			for i := range n {
				if err := s.Add(uint64(i%1999), int64(i)); err != nil {
					t.Fatal(err)
				}
				if cap(s.buf) > mem {
					t.Fatalf("buffer capacity %d > %d", cap(s.buf), mem)
				}
				if i%97 == 0 {
					files, err := os.ReadDir(dir)
					require.NoError(t, err)
					maxFiles = max(maxFiles, len(files))
				}
			}
			// Runs of each level: at most mergeFanIn-1, levels at most
			// log16(6000) < 4.
			if limit := 4 * (mergeFanIn - 1); maxFiles > limit || len(s.runs) > limit {
				t.Fatalf("%d files at most, %d runs at the end; want at most %d", maxFiles, len(s.runs), limit)
			}
			_, total, err := s.Repeats(1)
			if err != nil || total != n-1999 {
				t.Fatalf("total %d, %v; want %d", total, err, n-1999)
			}
			if len(s.runs) >= mergeFanIn {
				t.Fatalf("%d runs left for the final merge", len(s.runs))
			}
		})
	}
}

// TestClose: Close removes every spill file, and the set refuses use.
func TestClose(t *testing.T) {
	s, dir := newSet(t, 4)
	for i := range 1000 {
		if err := s.Add(uint64(i%10), int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := s.Repeats(3); err != nil {
		t.Fatal(err)
	}
	if files, _ := os.ReadDir(dir); len(files) == 0 {
		t.Fatal("no spill files before Close")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Fatalf("%d files left after Close", len(files))
	}
	if err := s.Add(1, 1); err == nil {
		t.Error("Add after Close succeeded")
	}
	if _, _, err := s.Repeats(1); err == nil {
		t.Error("Repeats after Close succeeded")
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestSpillError: a directory that cannot take files fails Add with the
// cause.
func TestSpillError(t *testing.T) {
	s := New(t.TempDir()+"/missing", 2)
	defer s.Close()
	var err error
	for i := range 3 {
		if err = s.Add(uint64(i), int64(i)); err != nil {
			break
		}
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Add = %v, want a not-exist error", err)
	}
}

func BenchmarkSetAdd(b *testing.B) {
	const n = 1 << 20
	dir := b.TempDir()
	b.ReportAllocs()
	for b.Loop() {
		s := New(dir, 0)
		for i := range n {
			if err := s.Add(uint64(i)*0x9E3779B97F4A7C15, int64(i)); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
