package codec

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stretchr/testify/require"
)

// node is a union-like type that nests through its own UnmarshalJSON, as
// tool_result blocks inside tool_result blocks do.
type node struct {
	Name  string                     `json:"name"`
	Kids  nodes                      `json:"kids"`
	Extra map[string]json.RawMessage `json:"-"`
}

type nodes []node

func init() { Objects(node{}, nodes(nil)) }

func (n *node) UnmarshalJSON(data []byte) error { return UnmarshalOwned(data, n) }

// deepNodes returns a chain of levels nodes whose innermost one carries
// about size bytes of small objects; the "type" member comes last, so
// peeking at it walks past every other member. The JSON nests 2·levels+1
// deep.
func deepNodes(levels, size int) []byte {
	var b strings.Builder
	for range levels {
		b.WriteString(`{"name":"n","kids":[`)
	}
	b.WriteString(`{"name":"leaf","kids":[],"payload":[`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"i":%d,"s":"x"}`, i)
	}
	b.WriteString(`],"type":"t"}`)
	for range levels {
		b.WriteString(`],"type":"t"}`)
	}
	return []byte(b.String())
}

// TestDeepNestingScansLinearly: however deep the chain, the container
// scans cover a bounded multiple of the input, not a multiple per level
// (the benchmarks in the root package show the time).
func TestDeepNestingScansLinearly(t *testing.T) {
	const size = 256 << 10
	for _, levels := range []int{0, 1, 2, 3, 4, 5, 10, 100, 1000, 4999} {
		t.Run(fmt.Sprint(levels), func(t *testing.T) {
			data := deepNodes(levels, size)
			var n atomic.Int64
			scanned = &n
			defer func() { scanned = nil }()
			got, err := Decode[node](data)
			require.NoError(t, err)
			depth := 0
			for len(got.Kids) == 1 {
				got = got.Kids[0]
				depth++
			}
			if depth != levels || got.Name != "leaf" || len(got.Extra["payload"]) < size/2 {
				t.Fatalf("decoded %d levels down to %q", depth, got.Name)
			}
			// Below deepNesting a value may be rescanned once per level;
			// past it, never.
			bound := int64(2 * deepNesting)
			if 2*levels+2 > deepNesting { // the depth below the top node
				bound = 3
			}
			if n.Load() > bound*int64(len(data)) {
				t.Errorf("scans covered %d bytes of %d (%.1f×, want at most %d×)", n.Load(), len(data), float64(n.Load())/float64(len(data)), bound)
			}
			if tables.Load() != nil {
				t.Error("a table is still published after the decode")
			}
		})
	}
}

func TestValidDepth(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tests := []struct {
		name    string
		in      string
		tooDeep bool
		invalid bool
	}{
		{"at the limit", nest(MaxDepth), false, false},
		{"one past the limit", nest(MaxDepth + 1), true, false},
		{"objects past the limit", strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1), true, false},
		{"syntax error before the depth", `[1,,` + nest(MaxDepth+1) + `]`, false, true},
		{"brackets in strings do not count", `["` + strings.Repeat("[", MaxDepth+1) + `"]`, false, false},
		{"shallow but malformed", `{"a":}`, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Valid([]byte(tt.in))
			if got := errors.Is(err, ErrTooDeep); got != tt.tooDeep {
				t.Fatalf("Valid: %v; want too deep %v", err, tt.tooDeep)
			}
			if tt.tooDeep {
				var de *DepthError
				if !errors.As(err, &de) || de.Offset != MaxDepth && !strings.HasPrefix(tt.in, "{") {
					t.Errorf("Valid: %#v; want a *DepthError at offset %d", err, MaxDepth)
				}
				if !strings.Contains(err.Error(), "10000") {
					t.Errorf("the message %q does not name the limit", err)
				}
			}
			if (err != nil && !tt.tooDeep) != tt.invalid {
				t.Errorf("Valid: %v; want invalid %v", err, tt.invalid)
			}
		})
	}
}

// TestDeepDecodeWithoutValidation: bytes that reach the decoder without the
// validation pass still get the depth error, and a malformed deep value a
// syntax error, never a panic.
func TestDeepDecodeWithoutValidation(t *testing.T) {
	deep := `{"name":"x","kids":[],"junk":` + strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1) + `}`
	if _, err := Decode[node]([]byte(deep)); !errors.Is(err, ErrTooDeep) {
		t.Errorf("past the limit: %v; want ErrTooDeep", err)
	}
	unterminated := `{"name":"x","junk":` + strings.Repeat("[", 100) + `}`
	if _, err := Decode[node]([]byte(unterminated)); !errors.Is(err, errSyntax) {
		t.Errorf("unterminated: %v; want a syntax error", err)
	}
}

// TestEndTableSkipsSmallContainers: the table records only containers of
// minEntry bytes or more, so it stays a fraction of the input.
func TestEndTableSkipsSmallContainers(t *testing.T) {
	small := strings.Repeat(`[1],`, 1000)
	in := strings.Repeat("[", deepNesting+1) + small + `"` + strings.Repeat("x", minEntry) + `"` + strings.Repeat("]", deepNesting+1)
	tab, err := buildTable([]byte(in), 0)
	require.NoError(t, err)
	if d := cmp.Diff(deepNesting+1, len(tab.starts)); d != "" {
		t.Errorf("recorded containers (-want +got):\n%s", d)
	}
	for k, start := range tab.starts {
		end := int(tab.ends[k])
		if in[start] != '[' || in[end-1] != ']' {
			t.Errorf("entry %d: [%d, %d) is not a container", k, start, end)
		}
		if want, _, _ := nestingPast([]byte(in), int(start), MaxDepth); want != end {
			t.Errorf("entry %d ends at %d, want %d", k, end, want)
		}
	}
}

// TestDeepDecodeConcurrent: goroutines decoding deep values at once, some
// the very same bytes, each find the right table and leave none behind.
func TestDeepDecodeConcurrent(t *testing.T) {
	shared := deepNodes(300, 32<<10)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			data := shared
			if g%2 == 1 {
				data = deepNodes(100+g, 16<<10)
			}
			for range 5 {
				n, err := Decode[node](data)
				if err != nil {
					errs <- err
					return
				}
				depth := 0
				for len(n.Kids) == 1 {
					n = n.Kids[0]
					depth++
				}
				if n.Name != "leaf" {
					errs <- fmt.Errorf("goroutine %d: reached %q at depth %d", g, n.Name, depth)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if tables.Load() != nil {
		t.Error("a table is still published after the decodes")
	}
}
