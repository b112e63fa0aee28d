package mms_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	mms "github.com/mms-sdk/mms-go"
)

// blockedReader hands out head, then blocks in Read until released.
type blockedReader struct {
	head    string
	reading chan struct{} // closed when a Read blocks
	release chan struct{}
	once    sync.Once
}

func newBlockedReader(head string) *blockedReader {
	return &blockedReader{head: head, reading: make(chan struct{}), release: make(chan struct{})}
}

func (r *blockedReader) Read(p []byte) (int, error) {
	if r.head != "" {
		n := copy(p, r.head)
		r.head = r.head[n:]
		return n, nil
	}
	r.once.Do(func() { close(r.reading) })
	<-r.release
	return 0, io.EOF
}

// blockedSeeker is a blockedReader that can seek, so the upload is
// replayable and has a Content-Length.
type blockedSeeker struct {
	*blockedReader
}

func (s blockedSeeker) Seek(offset int64, whence int) (int64, error) {
	if whence == io.SeekEnd {
		return 100, nil
	}
	return offset, nil
}

// TestUploadsReturnOnCancel: an upload or a Do with an io.Reader body
// returns promptly when its context is cancelled while the caller's reader
// blocks, whether the read is sniffing the content type or sending the
// body.
func TestUploadsReturnOnCancel(t *testing.T) {
	skill := func(r io.Reader, name string) mms.SkillCreateParams {
		return mms.SkillCreateParams{Files: []mms.SkillFile{
			{Path: "my-skill/SKILL.md", Reader: strings.NewReader("---\nname: s\n---\n")},
			{Path: "my-skill/" + name, Reader: r},
		}}
	}
	tests := []struct {
		name string
		call func(ctx context.Context, c *mms.Client, r *blockedReader) error
	}{
		{"files sniffing the type", func(ctx context.Context, c *mms.Client, r *blockedReader) error {
			_, err := c.Files.Upload(ctx, mms.FileUploadParams{Filename: "blob", Reader: r})
			return err
		}},
		{"files sending a stream", func(ctx context.Context, c *mms.Client, r *blockedReader) error {
			_, err := c.Files.Upload(ctx, mms.FileUploadParams{Filename: "a.txt", Reader: r})
			return err
		}},
		{"files sending a seekable reader", func(ctx context.Context, c *mms.Client, r *blockedReader) error {
			_, err := c.Files.Upload(ctx, mms.FileUploadParams{Filename: "a.txt", Reader: blockedSeeker{r}})
			return err
		}},
		{"skills sniffing the type", func(ctx context.Context, c *mms.Client, r *blockedReader) error {
			_, err := c.Skills.Create(ctx, skill(r, "blob"))
			return err
		}},
		{"skills sending a stream", func(ctx context.Context, c *mms.Client, r *blockedReader) error {
			_, err := c.Skills.Create(ctx, skill(r, "run.py"))
			return err
		}},
		{"Do with an io.Reader", func(ctx context.Context, c *mms.Client, r *blockedReader) error {
			return c.Do(ctx, "POST", "/v1/files", r, nil)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := goleak.IgnoreCurrent()
			t.Cleanup(func() { goleak.VerifyNone(t, opt) }) // runs after the server's cleanup
			c := newTestClient(t, newScriptServer(t))
			r := newBlockedReader("hello")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- tt.call(ctx, c, r) }()
			<-r.reading
			cancel()
			var err error
			select {
			case err = <-done:
			case <-time.After(5 * time.Second):
				close(r.release)
				t.Fatalf("the call did not return after the cancellation (it did once the reader was released: %v)", <-done)
			}
			close(r.release)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
		})
	}
}
