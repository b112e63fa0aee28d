package transport

import (
	"context"
	"io"
	"sync"
)

// net/http's Transport does not return on cancellation while a read of the
// request body blocks: it waits for the goroutine writing the body, which
// waits for the caller's reader (a pipe, a socket). A streamed body is
// therefore read by a goroutine of its own, and a read of the request gives
// up as soon as the attempt's context ends. The caller's Read cannot be
// interrupted: the goroutine ends when that Read returns.

// pumpChunk is the most a pump reads at once.
const pumpChunk = 32 << 10

// cancelableBody reads r from a goroutine, so that its Read returns once
// ctx ends whatever r does.
type cancelableBody struct {
	ctx     context.Context
	r       io.Reader
	start   sync.Once
	want    chan int        // a read of up to n bytes is wanted
	got     chan pumpResult // its result; buffered, so the pump never waits
	stop    chan struct{}   // closed by Close
	stopped sync.Once
	waiting bool   // a read is in flight
	rest    []byte // bytes read but not yet handed over
	err     error  // the reader's error, returned once rest is empty
}

type pumpResult struct {
	b   []byte
	err error
}

// newCancelableBody returns r wrapped for a request whose context is ctx.
func newCancelableBody(ctx context.Context, r io.Reader) *cancelableBody {
	return &cancelableBody{
		ctx: ctx, r: r,
		want: make(chan int), got: make(chan pumpResult, 1), stop: make(chan struct{}),
	}
}

func (b *cancelableBody) Read(p []byte) (int, error) {
	if len(b.rest) > 0 {
		n := copy(p, b.rest)
		b.rest = b.rest[n:]
		return n, nil
	}
	if b.err != nil {
		return 0, b.err
	}
	if len(p) == 0 {
		return 0, nil
	}
	b.start.Do(func() { go b.pump() })
	if !b.waiting {
		select {
		case b.want <- min(len(p), pumpChunk):
			b.waiting = true
		case <-b.ctx.Done():
			return 0, b.ctx.Err()
		}
	}
	select {
	case res := <-b.got:
		b.waiting = false
		n := copy(p, res.b)
		b.rest, b.err = res.b[n:], res.err
		if len(b.rest) > 0 {
			return n, nil
		}
		return n, res.err
	case <-b.ctx.Done():
		return 0, b.ctx.Err()
	}
}

// Close stops the pump once its current read, if any, returns. net/http
// closes a request's body when it is done with it.
func (b *cancelableBody) Close() error {
	b.stopped.Do(func() { close(b.stop) })
	return nil
}

// pump serves reads until the reader fails or ends, the body is closed or
// the context ends.
func (b *cancelableBody) pump() {
	var buf []byte
	for {
		var n int
		select {
		case n = <-b.want:
		case <-b.stop:
			return
		case <-b.ctx.Done():
			return
		}
		if cap(buf) < n {
			buf = make([]byte, n)
		}
		got, err := b.r.Read(buf[:n])
		// Read asks for the next chunk only once it has handed over all
		// of this one, so buf is free again by then.
		b.got <- pumpResult{buf[:got], err}
		if err != nil {
			return
		}
	}
}
