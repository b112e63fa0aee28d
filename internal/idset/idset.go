// Package idset finds repeated keys among very many, holding at most a fixed
// number in memory.
//
// A [Set] keeps (key, index) entries in a buffer; a full buffer is sorted by
// (key, index) and spilled to a temporary file as a run. Runs are merged
// (a k-way merge) in groups of at most mergeFanIn, so the memory in use and
// the number of open files stay bounded whatever the number of entries.
package idset

import (
	"bufio"
	"cmp"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// DefaultMemEntries is the number of entries a Set keeps in memory when New
// is given 0: 4 MiB of entries.
const DefaultMemEntries = 1 << 18

// mergeFanIn is the largest number of runs merged at once; each run being
// merged holds a read buffer of runBufSize bytes.
const (
	mergeFanIn = 16
	runBufSize = 32 << 10
)

// entrySize is the bytes an entry takes in a run: key, then index, both
// little-endian.
const entrySize = 16

type entry struct {
	key   uint64
	index int64
}

func compareEntries(a, b entry) int {
	if c := cmp.Compare(a.key, b.key); c != 0 {
		return c
	}
	return cmp.Compare(a.index, b.index)
}

// A Repeat is a later occurrence of a key: Later is its index and First the
// smallest index the key was added at.
type Repeat struct {
	First, Later int64
}

// A Set records (key, index) pairs and reports the keys seen more than once.
// It is not safe for concurrent use.
type Set struct {
	dir    string
	mem    int
	buf    []entry
	runs   []run // oldest first
	closed bool
}

// run is a spilled file of entries sorted by (key, index). A run of level
// L+1 is the merge of mergeFanIn runs of level L.
type run struct {
	path  string
	level int
}

// New returns a set that keeps up to memEntries entries in memory (0:
// [DefaultMemEntries]) and spills sorted runs to temporary files in dir
// ("": [os.TempDir]). Close removes them.
func New(dir string, memEntries int) *Set {
	if memEntries <= 0 {
		memEntries = DefaultMemEntries
	}
	return &Set{dir: dir, mem: memEntries}
}

var errClosed = errors.New("idset: set is closed")

// Add records that key was seen at index. Indices need not increase.
func (s *Set) Add(key uint64, index int64) error {
	if s.closed {
		return errClosed
	}
	if len(s.buf) == s.mem {
		if err := s.spill(); err != nil {
			return err
		}
	}
	if len(s.buf) == cap(s.buf) {
		// Grow by hand: append (and slices.Grow) could overshoot mem.
		buf := make([]entry, len(s.buf), min(max(2*cap(s.buf), 1024), s.mem))
		copy(buf, s.buf)
		s.buf = buf
	}
	s.buf = append(s.buf, entry{key, index})
	return nil
}

// spill writes the buffer out as a level-0 run, then merges the last
// mergeFanIn runs while they share a level, as a counter carries digits:
// each entry is rewritten once per level, and levels grow as the logarithm
// of the number of runs.
func (s *Set) spill() error {
	slices.SortFunc(s.buf, compareEntries)
	path, err := s.writeRun(func(emit func(entry) error) error {
		for _, e := range s.buf {
			if err := emit(e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.buf = s.buf[:0]
	s.runs = append(s.runs, run{path: path})
	for n := len(s.runs); n >= mergeFanIn && s.runs[n-mergeFanIn].level == s.runs[n-1].level; n = len(s.runs) {
		if err := s.mergeTail(mergeFanIn, s.runs[n-1].level+1); err != nil {
			return err
		}
	}
	return nil
}

// mergeTail merges the last n runs into one run of the given level.
func (s *Set) mergeTail(n, level int) error {
	tail := s.runs[len(s.runs)-n:]
	path, err := s.writeRun(func(emit func(entry) error) error {
		return merge(tail, nil, emit)
	})
	if err != nil {
		return err
	}
	var errs []error
	for _, r := range tail {
		if err := os.Remove(r.path); err != nil {
			errs = append(errs, err)
		}
	}
	s.runs = append(s.runs[:len(s.runs)-n], run{path: path, level: level})
	return errors.Join(errs...)
}

// writeRun writes the entries fill emits to a new temporary file and
// returns its path.
func (s *Set) writeRun(fill func(emit func(entry) error) error) (path string, err error) {
	f, err := os.CreateTemp(s.dir, "idset-*")
	if err != nil {
		return "", fmt.Errorf("idset: spill: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("idset: spill: %w", cerr)
		}
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	w := bufio.NewWriterSize(f, runBufSize)
	var rec [entrySize]byte
	err = fill(func(e entry) error {
		binary.LittleEndian.PutUint64(rec[:8], e.key)
		binary.LittleEndian.PutUint64(rec[8:], uint64(e.index))
		_, err := w.Write(rec[:])
		return err
	})
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return "", fmt.Errorf("idset: spill: %w", err)
	}
	return f.Name(), nil
}

// Repeats returns the repeats of keys added more than once (one per later
// occurrence, with the key's smallest index as First), the max with the
// smallest Later sorted by Later, and the number of all repeats. Call it
// after the last Add.
func (s *Set) Repeats(max int) (repeats []Repeat, total int64, err error) {
	if s.closed {
		return nil, 0, errClosed
	}
	// Fold runs until one merge can take them all with the buffer.
	for len(s.runs) > mergeFanIn-1 {
		n := min(len(s.runs)-(mergeFanIn-2), mergeFanIn)
		if err := s.mergeTail(n, s.runs[len(s.runs)-n].level+1); err != nil {
			return nil, 0, err
		}
	}
	slices.SortFunc(s.buf, compareEntries)
	var earliest repeatHeap // nil unless a repeat is kept
	var (
		prev  entry
		first int64
		some  bool
	)
	err = merge(s.runs, s.buf, func(e entry) error {
		if !some || e.key != prev.key {
			first = e.index
		} else {
			total++
			r := Repeat{First: first, Later: e.index}
			switch {
			case earliest.Len() < max:
				heap.Push(&earliest, r)
			case max > 0 && compareRepeats(r, earliest[0]) < 0:
				earliest[0] = r
				heap.Fix(&earliest, 0)
			}
		}
		prev, some = e, true
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	repeats = []Repeat(earliest)
	slices.SortFunc(repeats, compareRepeats)
	return repeats, total, nil
}

func compareRepeats(a, b Repeat) int {
	if c := cmp.Compare(a.Later, b.Later); c != 0 {
		return c
	}
	return cmp.Compare(a.First, b.First)
}

// repeatHeap is a max-heap of repeats: its root is the latest kept.
type repeatHeap []Repeat

func (h repeatHeap) Len() int           { return len(h) }
func (h repeatHeap) Less(i, j int) bool { return compareRepeats(h[i], h[j]) > 0 }
func (h repeatHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *repeatHeap) Push(x any)        { *h = append(*h, x.(Repeat)) }
func (h *repeatHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Close removes the spill files. The set cannot be used afterwards.
func (s *Set) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	var errs []error
	for _, r := range s.runs {
		if err := os.Remove(r.path); err != nil {
			errs = append(errs, err)
		}
	}
	s.runs, s.buf = nil, nil
	return errors.Join(errs...)
}

// source is one sorted input of a merge.
type source struct {
	head entry
	next func() (entry, bool, error)
}

// sourceHeap orders sources by their head entry.
type sourceHeap []*source

func (h sourceHeap) Len() int           { return len(h) }
func (h sourceHeap) Less(i, j int) bool { return compareEntries(h[i].head, h[j].head) < 0 }
func (h sourceHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *sourceHeap) Push(x any)        { *h = append(*h, x.(*source)) }
func (h *sourceHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// merge emits the entries of runs and the sorted slice mem in (key, index)
// order.
func merge(runs []run, mem []entry, emit func(entry) error) error {
	var sources []func() (entry, bool, error)
	for _, r := range runs {
		f, err := os.Open(r.path)
		if err != nil {
			return fmt.Errorf("idset: merge: %w", err)
		}
		defer f.Close()
		br := bufio.NewReaderSize(f, runBufSize)
		var rec [entrySize]byte
		sources = append(sources, func() (entry, bool, error) {
			switch _, err := io.ReadFull(br, rec[:]); err {
			case nil:
				return entry{binary.LittleEndian.Uint64(rec[:8]), int64(binary.LittleEndian.Uint64(rec[8:]))}, true, nil
			case io.EOF:
				return entry{}, false, nil
			default:
				return entry{}, false, fmt.Errorf("idset: merge %s: %w", r.path, err)
			}
		})
	}
	if len(mem) > 0 {
		sources = append(sources, func() (entry, bool, error) {
			if len(mem) == 0 {
				return entry{}, false, nil
			}
			e := mem[0]
			mem = mem[1:]
			return e, true, nil
		})
	}
	h := make(sourceHeap, 0, len(sources))
	for _, next := range sources {
		e, ok, err := next()
		if err != nil {
			return err
		}
		if ok {
			h = append(h, &source{head: e, next: next})
		}
	}
	heap.Init(&h)
	for h.Len() > 0 {
		src := h[0]
		if err := emit(src.head); err != nil {
			return err
		}
		e, ok, err := src.next()
		switch {
		case err != nil:
			return err
		case ok:
			src.head = e
			heap.Fix(&h, 0)
		default:
			heap.Pop(&h)
		}
	}
	return nil
}
