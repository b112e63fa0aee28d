// Package testutil holds small helpers that tests of several packages need.
// It is imported by tests only.
package testutil

import (
	"io"
	"runtime"
	"sync"
	"time"
)

// BlockedReader hands out its head, then blocks in Read until Release is
// closed, when it reports io.EOF: a caller's reader that never answers, for
// cancellation tests.
type BlockedReader struct {
	head    string
	Reading chan struct{} // closed when a Read blocks
	Release chan struct{} // close to let the blocked Read return
	once    sync.Once
}

// NewBlockedReader returns a BlockedReader that first hands out head.
func NewBlockedReader(head string) *BlockedReader {
	return &BlockedReader{head: head, Reading: make(chan struct{}), Release: make(chan struct{})}
}

func (r *BlockedReader) Read(p []byte) (int, error) {
	if r.head != "" {
		n := copy(p, r.head)
		r.head = r.head[n:]
		return n, nil
	}
	r.once.Do(func() { close(r.Reading) })
	<-r.Release
	return 0, io.EOF
}

// Allocated returns the bytes the process allocated while f ran (servers in
// the same process count too), after a GC so earlier garbage does not.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Clock is a settable clock for mmstest.WithClock: it moves only when told.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a Clock standing at now.
func NewClock(now time.Time) *Clock { return &Clock{now: now} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
