package mms_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/testutil"
)

// blockedSeeker is a testutil.BlockedReader that can seek, so the upload is
// replayable and has a Content-Length.
type blockedSeeker struct {
	*testutil.BlockedReader
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
		call func(ctx context.Context, c *mms.Client, r *testutil.BlockedReader) error
	}{
		{"files sniffing the type", func(ctx context.Context, c *mms.Client, r *testutil.BlockedReader) error {
			_, err := c.Files.Upload(ctx, mms.FileUploadParams{Filename: "blob", Reader: r})
			return err
		}},
		{"files sending a stream", func(ctx context.Context, c *mms.Client, r *testutil.BlockedReader) error {
			_, err := c.Files.Upload(ctx, mms.FileUploadParams{Filename: "a.txt", Reader: r})
			return err
		}},
		{"files sending a seekable reader", func(ctx context.Context, c *mms.Client, r *testutil.BlockedReader) error {
			_, err := c.Files.Upload(ctx, mms.FileUploadParams{Filename: "a.txt", Reader: blockedSeeker{r}})
			return err
		}},
		{"skills sniffing the type", func(ctx context.Context, c *mms.Client, r *testutil.BlockedReader) error {
			_, err := c.Skills.Create(ctx, skill(r, "blob"))
			return err
		}},
		{"skills sending a stream", func(ctx context.Context, c *mms.Client, r *testutil.BlockedReader) error {
			_, err := c.Skills.Create(ctx, skill(r, "run.py"))
			return err
		}},
		{"Do with an io.Reader", func(ctx context.Context, c *mms.Client, r *testutil.BlockedReader) error {
			return c.Do(ctx, "POST", "/v1/files", r, nil)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := goleak.IgnoreCurrent()
			t.Cleanup(func() { goleak.VerifyNone(t, opt) }) // runs after the server's cleanup
			c := newTestClient(t, newScriptServer(t))
			r := testutil.NewBlockedReader("hello")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- tt.call(ctx, c, r) }()
			<-r.Reading
			cancel()
			var err error
			select {
			case err = <-done:
			case <-time.After(5 * time.Second):
				close(r.Release)
				t.Fatalf("the call did not return after the cancellation (it did once the reader was released: %v)", <-done)
			}
			close(r.Release)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v, want context.Canceled", err)
			}
		})
	}
}
