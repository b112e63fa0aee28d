package mms_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/testutil"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// bodyServer answers every request with body, announcing its length
// (framing "length"), or chunked ("chunked"), or gzip-compressed ("gzip",
// which net/http's client inflates transparently, so the length is unknown).
type bodyServer struct {
	*httptest.Server
	hits atomic.Int32
}

func newBodyServer(t testing.TB, body []byte, framing string) *bodyServer {
	t.Helper()
	if framing == "gzip" {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(body)
		zw.Close()
		body = buf.Bytes()
	}
	s := &bodyServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		switch framing {
		case "length":
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		case "gzip":
			w.Header().Set("Content-Encoding", "gzip")
		}
		w.WriteHeader(200)
		for rest := body; len(rest) > 0; { // several writes: chunked stays chunked
			n := min(len(rest), 64<<10)
			w.Write(rest[:n])
			rest = rest[n:]
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *bodyServer) client(t testing.TB, opts ...option.RequestOption) *mms.Client {
	t.Helper()
	c, err := mms.NewClient(append([]option.RequestOption{option.WithAPIKey(testKey), option.WithBaseURL(s.URL)}, opts...)...)
	require.NoError(t, err)
	return c
}

// jsonOfSize is a JSON string value of exactly n bytes.
func jsonOfSize(n int) []byte {
	b := bytes.Repeat([]byte("x"), n)
	b[0], b[n-1] = '"', '"'
	return b
}

func TestMaxResponseSize(t *testing.T) {
	const limit = 100 << 10
	for _, framing := range []string{"length", "chunked", "gzip"} {
		for _, tt := range []struct {
			name   string
			size   int
			onCall bool // the option per call rather than on the client
			ok     bool
		}{
			{"at the limit", limit, false, true},
			{"one over", limit + 1, false, false},
			{"one over, per call", limit + 1, true, false},
			{"at the limit, per call", limit, true, true},
		} {
			t.Run(framing+"/"+tt.name, func(t *testing.T) {
				s := newBodyServer(t, jsonOfSize(tt.size), framing)
				var clientOpts, callOpts []option.RequestOption
				if tt.onCall {
					callOpts = append(callOpts, option.WithMaxResponseSize(limit))
				} else {
					clientOpts = append(clientOpts, option.WithMaxResponseSize(limit))
				}
				c := s.client(t, clientOpts...)
				var raw json.RawMessage
				err := c.Do(context.Background(), "GET", "/v1/x", nil, &raw, callOpts...)
				if tt.ok {
					if err != nil || len(raw) != tt.size {
						t.Fatalf("err = %v, got %d bytes, want %d", err, len(raw), tt.size)
					}
					return
				}
				var tl *mms.ResponseTooLargeError
				if !errors.As(err, &tl) {
					t.Fatalf("err = %v, want *mms.ResponseTooLargeError", err)
				}
				wantLength := int64(-1)
				if framing == "length" {
					wantLength = int64(tt.size)
				}
				if d := cmp.Diff(mms.ResponseTooLargeError{Method: "GET", Path: "/v1/x", Limit: limit, ContentLength: wantLength}, *tl); d != "" {
					t.Errorf("error (-want +got):\n%s", d)
				}
				if !strings.Contains(err.Error(), strconv.Itoa(limit)) {
					t.Errorf("error %q does not say the limit", err)
				}
				if n := s.hits.Load(); n != 1 {
					t.Errorf("%d requests, want 1 (not retried)", n)
				}
			})
		}
	}
	if _, err := mms.NewClient(option.WithAPIKey(testKey), option.WithBaseURL("http://x"), option.WithMaxResponseSize(0)); err == nil {
		t.Error("WithMaxResponseSize(0) accepted")
	}
}

// TestGzipBombCostsNoMoreThanTheLimit: a 64 MiB body compressed to ~64 KB
// is refused after the limit, having cost about the limit in memory.
func TestGzipBombCostsNoMoreThanTheLimit(t *testing.T) {
	const limit = 4 << 20
	s := newBodyServer(t, make([]byte, 64<<20), "gzip")
	c := s.client(t, option.WithMaxResponseSize(limit))
	var err error
	got := testutil.Allocated(func() { err = c.Do(context.Background(), "GET", "/v1/x", nil, nil) })
	var tl *mms.ResponseTooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("err = %v, want *mms.ResponseTooLargeError", err)
	}
	t.Logf("allocated %.2f MiB for a %d MiB limit", float64(got)/(1<<20), limit>>20)
	if max := uint64(limit + 2<<20); got > max {
		t.Errorf("allocated %d bytes for a %d-byte limit, want at most %d", got, limit, max)
	}
}

// TestLargeReplyAllocations bounds what a large reply costs: its size once
// when the length is announced, twice at most when it is not.
func TestLargeReplyAllocations(t *testing.T) {
	const size = 32 << 20
	for _, tt := range []struct {
		framing string
		factor  float64
	}{{"length", 1.05}, {"chunked", 2.05}, {"gzip", 2.05}} {
		t.Run(tt.framing, func(t *testing.T) {
			s := newBodyServer(t, jsonOfSize(size), tt.framing)
			c := s.client(t)
			var raw json.RawMessage
			var err error
			got := testutil.Allocated(func() { err = c.Do(context.Background(), "GET", "/v1/x", nil, &raw) })
			if err != nil || len(raw) != size {
				t.Fatalf("err = %v, %d bytes", err, len(raw))
			}
			t.Logf("allocated %.3f× the body", float64(got)/size)
			if max := uint64(tt.factor*size) + 1<<20; got > max {
				t.Errorf("allocated %.2f× the body (%d bytes), want at most %.2f×", float64(got)/size, got, tt.factor)
			}
		})
	}
}
