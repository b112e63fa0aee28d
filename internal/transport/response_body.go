package transport

import (
	"errors"
	"io"
)

// errOverLimit is readBody's signal; the caller builds the typed error.
var errOverLimit = errors.New("response body over the limit")

const (
	firstChunk = 8 << 10
	maxChunk   = 256 << 10
)

// readBody reads a whole body of at most limit bytes, never more than
// limit+1. A body of known size is read into one buffer of exactly that
// size. One of unknown size (chunked, or decompressed by net/http) is read
// into chunks growing to 256 KiB, then joined once: twice its size (plus
// at most one chunk) at the moment of joining.
func readBody(r io.Reader, size, limit int64) ([]byte, error) {
	if size > limit {
		return nil, errOverLimit
	}
	var chunks [][]byte
	var total int64
	if size >= 0 {
		// One byte of spare capacity probes for more than announced.
		buf := make([]byte, size, size+1)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, err
		}
		n, err := io.ReadFull(r, buf[size:size+1])
		if n == 0 {
			if err == io.EOF {
				return buf, nil
			}
			return nil, err
		}
		// Longer than announced (a middleware's response may say anything):
		// go on in chunks.
		chunks, total = [][]byte{buf[:size+1]}, size+1
	}
	lr := &io.LimitedReader{R: r, N: limit + 1 - total}
	next := firstChunk
	for total <= limit {
		buf := make([]byte, next)
		n, err := io.ReadFull(lr, buf)
		chunks = append(chunks, buf[:n])
		total += int64(n)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
		next = min(2*next, maxChunk)
	}
	if total > limit {
		return nil, errOverLimit
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	out := make([]byte, 0, total)
	for i, c := range chunks {
		out = append(out, c...)
		chunks[i] = nil // collectable from here on
	}
	return out, nil
}
