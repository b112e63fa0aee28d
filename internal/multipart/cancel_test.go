package multipart

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/stretchr/testify/require"
)

// gatedReader reads from r, but its first Read blocks until released.
type gatedReader struct {
	r       *strings.Reader
	reading chan struct{} // closed when the first Read blocks
	release chan struct{}
	once    sync.Once
}

func newGatedReader(s string) *gatedReader {
	return &gatedReader{r: strings.NewReader(s), reading: make(chan struct{}), release: make(chan struct{})}
}

func (g *gatedReader) Read(p []byte) (int, error) {
	g.once.Do(func() { close(g.reading) })
	<-g.release
	return g.r.Read(p)
}

// gatedSeeker can seek, so the source is replayable.
type gatedSeeker struct{ *gatedReader }

func (g gatedSeeker) Seek(offset int64, whence int) (int64, error) { return g.r.Seek(offset, whence) }

// returnsWithin fails the test unless fn returns within a generous bound.
func returnsWithin(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { fn(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s did not return while the reader blocks", what)
	}
}

// TestPeekReturnsOnCancel: sniffing the content returns the context's error
// once it ends, while the reader still blocks.
func TestPeekReturnsOnCancel(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	g := newGatedReader("%PDF-1.7")
	s := NewSource(g, 0)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-g.reading; cancel() }()
	var err error
	returnsWithin(t, "Peek", func() { _, err = s.Peek(ctx, 512) })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Peek: %v, want context.Canceled", err)
	}
	close(g.release)
}

// TestOpenWhileAReadBlocks: opening the body for another attempt does not
// wait for a Read of the previous attempt stuck in the caller's reader;
// the new attempt reads the whole content from the start once that Read
// has returned, and the old attempt is cut off.
func TestOpenWhileAReadBlocks(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	const content = "0123456789"
	g := newGatedReader(content)
	f := New()
	f.AddFile("file", "a.bin", "", NewSource(gatedSeeker{g}, 0))
	first, err := f.Open()
	require.NoError(t, err)
	firstDone := make(chan error, 1)
	go func() { _, err := io.ReadAll(first); firstDone <- err }()
	<-g.reading
	var second io.Reader
	returnsWithin(t, "Open", func() { second, err = f.Open() })
	require.NoError(t, err)
	close(g.release)
	body, err := io.ReadAll(second)
	require.NoError(t, err)
	if got := parse(t, f, body); len(got) != 1 || got[0].Content != content {
		t.Errorf("second attempt sent %+v, want the whole content", got)
	}
	if err := <-firstDone; !errors.Is(err, errSuperseded) {
		t.Errorf("first attempt: %v, want errSuperseded", err)
	}
}
