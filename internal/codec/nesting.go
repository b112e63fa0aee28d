package codec

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Deep nesting.
//
// The decoder finds a member's extent (skipValue) before handing its bytes to
// the member's decoder, which then walks them again to find the extents of
// its own members, and so on down: a byte n levels deep is scanned n times,
// so a deeply nested body (a tool_result inside a tool_result, 1,000 deep)
// costs time quadratic in its size. A walk that meets nesting deeper than
// deepNesting therefore records, in one pass, where every container of that
// value ends (an endTable) and publishes the table for the nested decoders,
// which receive sub-slices of the same bytes and find their table by
// address. The decoders cannot be handed the table directly: they are
// json.Unmarshaler methods, called with bytes only. The table lives while
// the walk that built it runs, and keeps the bytes it describes alive, so an
// address in its range can only belong to those bytes.

// MaxDepth is the deepest nesting of objects and arrays the SDK accepts,
// encoding/json's own limit (which json.Valid reports as invalid JSON).
const MaxDepth = 10000

// ErrTooDeep matches a *DepthError.
var ErrTooDeep = errors.New("JSON nested too deep")

// DepthError reports JSON whose objects and arrays nest deeper than
// MaxDepth.
type DepthError struct {
	// Offset is where the nesting passes the limit, in the bytes being
	// checked (Valid) or decoded (a member value, for the decoders).
	Offset int
}

func (e *DepthError) Error() string {
	return fmt.Sprintf("%v: objects and arrays nest more than %d levels deep (at offset %d)", ErrTooDeep, MaxDepth, e.Offset)
}

// Is makes errors.Is(err, ErrTooDeep) true.
func (e *DepthError) Is(target error) bool { return target == ErrTooDeep }

// errInvalid reports input that is not well-formed JSON.
var errInvalid = errors.New("not valid JSON")

// Valid is json.Valid that tells nesting deeper than MaxDepth (a
// *DepthError) from other malformed input (an error matching neither).
func Valid(data []byte) error {
	if json.Valid(data) {
		return nil
	}
	at, deep, _ := nestingPast(data, skipSpace(data, 0), MaxDepth)
	if !deep {
		return errInvalid
	}
	// encoding/json stops at the first error: report the depth only when
	// that is where it stopped (its offsets count the failing byte).
	var syn *json.SyntaxError
	if err := json.Unmarshal(data, new(struct{})); errors.As(err, &syn) && syn.Offset == int64(at)+1 {
		return &DepthError{Offset: at}
	}
	return errInvalid
}

// deepNesting is the relative depth past which a walk builds an endTable.
// Shallower values are rescanned at most this many times, which costs less
// than the table; the SDK's own shapes stay well below it.
const deepNesting = 8

// minEntry is the smallest container an endTable records: rescanning a
// smaller one costs little, and leaving them out bounds the table at a
// fraction of the bytes however many tiny containers they hold.
const minEntry = 64

// nestingPast scans the value at data[i] and returns the offset just past
// it, or, with past set, the offset of the first bracket that nests it more
// than limit levels deep. It checks nothing but the brackets' balance.
func nestingPast(data []byte, i, limit int) (end int, past bool, err error) {
	depth := 0
	for i < len(data) {
		switch data[i] {
		case '"':
			end, err := stringEnd(data, i)
			if err != nil {
				return 0, false, err
			}
			i = end
			continue
		case '{', '[':
			if depth++; depth > limit {
				return i, true, nil
			}
		case '}', ']':
			if depth--; depth <= 0 {
				return i + 1, false, nil
			}
		}
		i++
	}
	return 0, false, syntaxErr(i, "unterminated object or array")
}

// endTable records where the containers of one value end.
type endTable struct {
	buf    []byte  // the value; its first byte is offset 0
	starts []int32 // the containers' offsets, ascending
	ends   []int32 // the offset just past each one
}

// end returns the offset just past the container at off.
func (t *endTable) end(off int) (int, bool) {
	k, ok := slices.BinarySearch(t.starts, int32(off))
	if !ok {
		return 0, false
	}
	return int(t.ends[k]), true
}

// buildTable records the containers of the object or array at data[i] in
// one pass; it fails on an unterminated value or nesting past MaxDepth.
func buildTable(data []byte, i int) (*endTable, error) {
	t := new(endTable)
	var open []int // indexes into starts of the containers not yet closed
	for j := i; j < len(data); {
		switch data[j] {
		case '"':
			end, err := stringEnd(data, j)
			if err != nil {
				return nil, err
			}
			j = end
			continue
		case '{', '[':
			if len(open) == MaxDepth {
				return nil, &DepthError{Offset: j}
			}
			open = append(open, len(t.starts))
			t.starts = append(t.starts, int32(j-i))
			t.ends = append(t.ends, 0)
		case '}', ']':
			if len(open) == 0 {
				return nil, syntaxErr(j, "unbalanced brackets")
			}
			k := open[len(open)-1]
			open = open[:len(open)-1]
			if j+1-i-int(t.starts[k]) < minEntry {
				// Too small to record, and so is everything inside it,
				// which was recorded after it.
				t.starts, t.ends = t.starts[:k], t.ends[:k]
			} else {
				t.ends[k] = int32(j + 1 - i)
			}
			if len(open) == 0 {
				t.buf = data[i : j+1]
				return t, nil
			}
		}
		j++
	}
	return nil, syntaxErr(len(data), "unterminated object or array")
}

// tables holds the endTables of the walks in progress, for every
// goroutine; it is replaced, never changed, so a lookup needs no lock.
var (
	tablesMu sync.Mutex
	tables   atomic.Pointer[[]*endTable]
)

func publish(t *endTable) {
	tablesMu.Lock()
	defer tablesMu.Unlock()
	var next []*endTable
	if cur := tables.Load(); cur != nil {
		next = slices.Clone(*cur)
	}
	next = append(next, t)
	tables.Store(&next)
}

func withdraw(t *endTable) {
	tablesMu.Lock()
	defer tablesMu.Unlock()
	cur := tables.Load()
	if cur == nil {
		return
	}
	next := slices.DeleteFunc(slices.Clone(*cur), func(x *endTable) bool { return x == t })
	if len(next) == 0 {
		tables.Store(nil)
		return
	}
	tables.Store(&next)
}

// tableFor returns the published table whose bytes hold data[0], and
// data[0]'s offset in it.
func tableFor(data []byte) (*endTable, int) {
	cur := tables.Load()
	if cur == nil || len(data) == 0 {
		return nil, 0
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	for _, t := range *cur {
		base := uintptr(unsafe.Pointer(unsafe.SliceData(t.buf)))
		if p >= base && p-base < uintptr(len(t.buf)) {
			return t, int(p - base)
		}
	}
	return nil, 0
}

// scanner finds the extents of the values in one object or array walk.
type scanner struct {
	data  []byte
	tab   *endTable // the table holding data, if any
	base  int       // data[0]'s offset in tab
	owned *endTable // built and published by this walk
}

func newScanner(data []byte) scanner {
	s := scanner{data: data}
	s.tab, s.base = tableFor(data)
	return s
}

// done withdraws the table this walk published, once the values it
// describes are decoded.
func (s *scanner) done() {
	if s.owned != nil {
		withdraw(s.owned)
		s.owned = nil
	}
}

// skipContainer returns the offset just past the object or array at
// data[i]: from the table holding it, by a plain scan, or, when the scan
// finds deep nesting, by building and publishing a table for it.
func (s *scanner) skipContainer(i int) (int, error) {
	if s.tab != nil && s.base+i < len(s.tab.buf) {
		if end, ok := s.tab.end(s.base + i); ok && end-s.base <= len(s.data) {
			return end - s.base, nil
		}
		// Not recorded: smaller than minEntry, cheap to scan.
		end, _, err := nestingPast(s.data, i, math.MaxInt)
		countScan(end - i)
		return end, err
	}
	end, deep, err := nestingPast(s.data, i, deepNesting)
	countScan(end - i)
	if err != nil || !deep {
		return end, err
	}
	if len(s.data)-i > math.MaxInt32 {
		end, _, err := nestingPast(s.data, i, math.MaxInt)
		countScan(end - i)
		return end, err
	}
	t, err := buildTable(s.data, i)
	if err != nil {
		return 0, err
	}
	countScan(len(t.buf))
	s.done() // the previous member's table: its value is decoded
	publish(t)
	s.owned = t
	return i + len(t.buf), nil
}

// scanned, when a test sets it, counts the bytes container scans cover.
var scanned *atomic.Int64

func countScan(n int) {
	if scanned != nil && n > 0 {
		scanned.Add(int64(n))
	}
}
