package transport

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/testutil"
)

// TestCancelWhileBodyReadBlocks: cancelling the context ends Do although
// the caller's reader never returns (net/http alone would wait for it).
func TestCancelWhileBodyReadBlocks(t *testing.T) {
	for _, size := range []int64{-1, 100} {
		t.Run(map[bool]string{true: "chunked", false: "content-length"}[size < 0], func(t *testing.T) {
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
			}))
			defer srv.Close()
			hc := &http.Client{Transport: &http.Transport{}}
			defer hc.CloseIdleConnections()
			base, _ := url.Parse(srv.URL)
			cfg := &config.Config{BaseURL: base, HTTPClient: hc, MaxRetries: 2}
			body := testutil.NewBlockedReader("partial")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				_, err := Do(ctx, cfg, &Request{Method: "POST", Path: "/v1/files", BodyStream: body, Size: size}, testErrors{})
				done <- err
			}()
			<-body.Reading
			cancel()
			var err error
			select {
			case err = <-done:
			case <-time.After(5 * time.Second):
				close(body.Release)
				t.Fatalf("Do did not return after the cancellation (it did once the reader was released: %v)", <-done)
			}
			close(body.Release)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("Do: %v; want context.Canceled", err)
			}
		})
	}
}

// TestCancelableBodyPassesThrough: the wrapped body delivers the reader's
// bytes and error unchanged, whatever the sizes of the reads.
func TestCancelableBodyPassesThrough(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	want := strings.Repeat("0123456789", 10000)
	errBoom := errors.New("boom")
	b := newCancelableBody(context.Background(), io.MultiReader(strings.NewReader(want), &failReader{errBoom}))
	var got strings.Builder
	buf := make([]byte, 7)
	var err error
	for {
		var n int
		n, err = b.Read(buf[:1+got.Len()%7])
		got.Write(buf[:n])
		if err != nil {
			break
		}
	}
	if got.String() != want || !errors.Is(err, errBoom) {
		t.Errorf("read %d bytes (want %d), err %v (want boom)", got.Len(), len(want), err)
	}
	b.Close()
}

type failReader struct{ err error }

func (r *failReader) Read([]byte) (int, error) { return 0, r.err }
