package mms_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/fixtures"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// filesClient is a client of srv with fast retries.
func filesClient(t *testing.T, srv *mmstest.Server, opts ...option.RequestOption) *mms.Client {
	t.Helper()
	base := []option.RequestOption{option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL)}
	c, err := mms.NewClient(append(base, opts...)...)
	require.NoError(t, err)
	return c
}

func newFilesServer(t *testing.T) *mmstest.Server {
	t.Helper()
	srv := mmstest.NewServer()
	t.Cleanup(srv.Close)
	return srv
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// genReader produces n deterministic pseudo-random bytes without holding
// them: each 4 KiB chunk is a slice of a fixed 256 KiB table, chosen by the
// chunk's index, with the index in its first 8 bytes. It hashes what it
// hands out.
type genReader struct {
	n, off int64
	h      hash.Hash
}

var genTable = func() []byte {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 256<<10)
	for i := 0; i < len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], r.Uint64())
	}
	return b
}()

func newGenReader(n int64) *genReader { return &genReader{n: n, h: sha256.New()} }

func (g *genReader) Read(p []byte) (int, error) {
	if g.off >= g.n {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), g.n-g.off)]
	for done := 0; done < len(p); {
		k, o := g.off/4096, g.off%4096
		var m int
		if o < 8 {
			var stamp [8]byte
			binary.LittleEndian.PutUint64(stamp[:], uint64(k))
			m = copy(p[done:], stamp[o:])
		} else {
			start := (k * 4099) % int64(len(genTable)-4096)
			m = copy(p[done:], genTable[start+o:start+4096])
		}
		done += m
		g.off += int64(m)
	}
	g.h.Write(p)
	return len(p), nil
}

func (g *genReader) sum() string { return hex.EncodeToString(g.h.Sum(nil)) }

// heapSampler records the peak live heap (after a GC) while running.
type heapSampler struct {
	base, peak uint64
	stop       chan struct{}
	done       sync.WaitGroup
}

func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func startHeapSampler() *heapSampler {
	h := &heapSampler{base: liveHeap(), stop: make(chan struct{})}
	h.peak = h.base
	h.done.Add(1)
	go func() {
		defer h.done.Done()
		tick := time.NewTicker(25 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-tick.C:
				h.peak = max(h.peak, liveHeap())
			}
		}
	}()
	return h
}

// growth stops sampling and returns the peak growth over the baseline.
func (h *heapSampler) growth() int64 {
	close(h.stop)
	h.done.Wait()
	h.peak = max(h.peak, liveHeap())
	return int64(h.peak) - int64(h.base)
}

// TestFilesUpload300MBStreamFlatHeap uploads a 300 MB generated stream and
// downloads it again: the live heap (client and in-process fake together)
// grows by under 16 MB either way, and the SHA-256 of what the fake stored,
// and of what came back, equal the one computed while generating.
func TestFilesUpload300MBStreamFlatHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 300 MB twice; skipped with -short")
	}
	const size = 300 << 20
	srv := newFilesServer(t)
	c := filesClient(t, srv)
	ctx := context.Background()

	gen := newGenReader(size)
	start := time.Now()
	h := startHeapSampler()
	f, err := c.Files.Upload(ctx, mms.FileUploadParams{Filename: "big.bin", Reader: gen, Size: size})
	growth := h.growth()
	require.NoError(t, err)
	t.Logf("upload of %d MiB: %v, peak live heap growth %.2f MiB", size>>20, time.Since(start).Round(time.Millisecond), float64(growth)/(1<<20))
	if growth >= 16<<20 {
		t.Errorf("the heap grew by %d bytes during the upload; the body is being buffered", growth)
	}
	if f.SizeBytes != size || f.Filename != "big.bin" {
		t.Errorf("record %+v", f)
	}
	if got, ok := srv.FileSHA256(f.ID); !ok || got != gen.sum() {
		t.Fatalf("server SHA-256 %q, generated %q", got, gen.sum())
	}

	srv.SetFileDownloadable(f.ID, true)
	start = time.Now()
	h = startHeapSampler()
	d, err := c.Files.Download(ctx, f.ID)
	require.NoError(t, err)
	sum := sha256.New()
	n, err := io.Copy(sum, d.Body)
	d.Body.Close()
	growth = h.growth()
	require.NoError(t, err)
	t.Logf("download: %v, peak live heap growth %.2f MiB", time.Since(start).Round(time.Millisecond), float64(growth)/(1<<20))
	if growth >= 16<<20 {
		t.Errorf("the heap grew by %d bytes during the download", growth)
	}
	if n != size || d.ContentLength != size || hex.EncodeToString(sum.Sum(nil)) != gen.sum() {
		t.Errorf("downloaded %d bytes (Content-Length %d) with another SHA-256", n, d.ContentLength)
	}
}

// writeTempFile writes n generated bytes to a temporary file, returning it
// open at offset 0 and the bytes' SHA-256.
func writeTempFile(t *testing.T, n int64) (*os.File, string) {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "report.pdf"))
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	g := newGenReader(n)
	if _, err := io.Copy(f, g); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	return f, g.sum()
}

// TestFilesUploadFromFileRetried: an upload from an *os.File meets a 429
// (an upload creates a file, so a 5xx is not retried: see
// TestCreatingPostNotResentAfter500), is sent again from the start, and
// the fake stores identical bytes.
func TestFilesUploadFromFileRetried(t *testing.T) {
	srv := newFilesServer(t)
	srv.InjectFault(mmstest.Fault{Method: "POST", Path: "/v1/files", Statuses: []int{429}, RetryAfterMs: "1"})
	c := filesClient(t, srv)
	file, want := writeTempFile(t, 3<<20)
	var md mms.ResponseMetadata
	f, err := c.Files.Upload(context.Background(), mms.FileUploadParams{Reader: file}, option.WithResponseMetadata(&md))
	require.NoError(t, err)
	if md.Attempts != 2 {
		t.Errorf("attempts = %d, want 2", md.Attempts)
	}
	if got, _ := srv.FileSHA256(f.ID); got != want {
		t.Errorf("stored SHA-256 %s, file %s", got, want)
	}
	if f.Filename != "report.pdf" || f.MimeType != "application/pdf" || f.SizeBytes != 3<<20 {
		t.Errorf("record %+v", f)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].BodySize != reqs[1].BodySize || !bytes.Equal(reqs[0].Body, reqs[1].Body) ||
		reqs[0].Header.Get("Content-Length") == "" {
		t.Errorf("the two attempts differ: %d requests", len(reqs))
	}
}

// onlyReader hides every method but Read.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// TestFilesUploadStreamNotRetried: a reader that cannot seek is sent once;
// the 429 it meets is returned, saying why it was not retried.
func TestFilesUploadStreamNotRetried(t *testing.T) {
	srv := newFilesServer(t)
	srv.InjectFault(mmstest.Fault{Method: "POST", Path: "/v1/files", Statuses: []int{429}, RetryAfterMs: "1"})
	c := filesClient(t, srv)
	_, err := c.Files.Upload(context.Background(), mms.FileUploadParams{
		Filename: "stream.bin", Reader: onlyReader{newGenReader(2 << 20)},
	})
	if !errors.Is(err, mms.ErrNotReplayable) {
		t.Fatalf("err = %v, want ErrNotReplayable", err)
	}
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 429 {
		t.Errorf("the 429 is lost: %v", err)
	}
	if !strings.Contains(err.Error(), "cannot be replayed") || !strings.Contains(err.Error(), "io.ReadSeeker") {
		t.Errorf("the error does not say why: %v", err)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].BodySize == 0 {
		t.Errorf("%d requests reached the server, want 1 with its body", len(reqs))
	}
}

// zeroReader is an endless cheap stream of zeros.
type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestFilesUploadUnknownSizeOverLimit streams more than 500 MiB of unknown
// size: the client stops at the limit with the typed error.
func TestFilesUploadUnknownSizeOverLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 500 MiB; skipped with -short")
	}
	srv := newFilesServer(t)
	c := filesClient(t, srv)
	start := time.Now()
	_, err := c.Files.Upload(context.Background(), mms.FileUploadParams{
		Filename: "zeros.bin", Reader: io.LimitReader(zeroReader{}, wire.LimitFiles+1<<20),
	})
	t.Logf("aborted after %v", time.Since(start).Round(time.Millisecond))
	var tl *mms.RequestTooLargeError
	if !errors.As(err, &tl) || !tl.Sent || tl.Limit != wire.LimitFiles || !errors.Is(err, mms.ErrRequestTooLarge) {
		t.Fatalf("err = %v, want a RequestTooLargeError mid-stream", err)
	}
	if !strings.Contains(err.Error(), "while streaming") {
		t.Errorf("message %q", err)
	}
	if reqs := srv.Requests(); len(reqs) != 1 {
		t.Errorf("%d attempts; a body over the limit must not be retried", len(reqs))
	}
}

// TestFilesUploadKnownSizeOverLimit: a body whose size is known is refused
// before anything is sent.
func TestFilesUploadKnownSizeOverLimit(t *testing.T) {
	sparse, err := os.Create(filepath.Join(t.TempDir(), "huge.bin"))
	require.NoError(t, err)
	defer sparse.Close()
	if err := sparse.Truncate(wire.LimitFiles); err != nil { // the form's framing tips it over
		t.Fatal(err)
	}
	tests := []struct {
		name string
		p    mms.FileUploadParams
	}{
		{"file", mms.FileUploadParams{Reader: sparse}},
		{"declared size", mms.FileUploadParams{Filename: "x.bin", Reader: onlyReader{zeroReader{}}, Size: 600 << 20}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFilesServer(t)
			c := filesClient(t, srv)
			_, err := c.Files.Upload(context.Background(), tt.p)
			var tl *mms.RequestTooLargeError
			if !errors.As(err, &tl) || tl.Sent || tl.Size <= wire.LimitFiles || !strings.Contains(err.Error(), "nothing was sent") {
				t.Fatalf("err = %v, want a RequestTooLargeError before sending", err)
			}
			if n := len(srv.Requests()); n != 0 {
				t.Errorf("%d requests reached the server", n)
			}
		})
	}
}

// TestFilesDownloadStreams: Download hands back the bytes of a file as a
// stream with its headers, and equals the upload.
func TestFilesDownloadStreams(t *testing.T) {
	srv := newFilesServer(t)
	c := filesClient(t, srv)
	ctx := context.Background()
	content := bytes.Repeat([]byte("résumé line\n"), 100_000)
	f, err := c.Files.Upload(ctx, mms.FileUploadParams{Filename: "résumé.txt", Reader: bytes.NewReader(content)})
	require.NoError(t, err)
	if f.Downloadable == nil || *f.Downloadable {
		t.Errorf("an upload says downloadable %v", f.Downloadable)
	}
	_, err = c.Files.Download(ctx, f.ID)
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 {
		t.Fatalf("download of an upload: %v, want the service's 400", err)
	}
	srv.SetFileDownloadable(f.ID, true)
	d, err := c.Files.Download(ctx, f.ID)
	require.NoError(t, err)
	defer d.Body.Close()
	head := make([]byte, 12)
	if _, err := io.ReadFull(d.Body, head); err != nil || string(head) != "résumé lin" {
		t.Fatalf("first bytes %q, %v", head, err)
	}
	rest, err := io.ReadAll(d.Body)
	require.NoError(t, err)
	if got := sha256Hex(append(head, rest...)); got != sha256Hex(content) {
		t.Error("downloaded bytes differ from the upload")
	}
	if d.ContentType != "text/plain" || d.Filename != "résumé.txt" || d.ContentLength != int64(len(content)) ||
		!strings.HasPrefix(d.Metadata.RequestID, "req_") {
		t.Errorf("download %+v", d)
	}
	if accept := srv.Requests()[len(srv.Requests())-1].Header.Get("Accept"); accept != "application/binary" {
		t.Errorf("Accept %q", accept)
	}
}

// TestFilesCRUD: list (id scheme, across pages), get and delete.
func TestFilesCRUD(t *testing.T) {
	srv := newFilesServer(t)
	c := filesClient(t, srv)
	ctx := context.Background()
	var ids []string
	for i := range 5 {
		f, err := c.Files.Upload(ctx, mms.FileUploadParams{Filename: "f.txt", Reader: strings.NewReader(strings.Repeat("x", i))})
		require.NoError(t, err)
		ids = append([]string{f.ID}, ids...) // newest first
	}
	var got []string
	for f, err := range c.Files.List(ctx, mms.FileListParams{Limit: 2}) {
		require.NoError(t, err)
		got = append(got, f.ID)
	}
	if diff := cmp.Diff(ids, got); diff != "" {
		t.Errorf("listed (-want +got):\n%s", diff)
	}
	page, err := c.Files.ListPage(ctx, mms.FileListParams{Limit: 2, AfterID: ids[1]})
	if err != nil || len(page.Data) != 2 || page.Data[0].ID != ids[2] || !page.HasMore || *page.LastID != ids[3] {
		t.Fatalf("ListPage: %+v, %v", page, err)
	}
	g, err := c.Files.Get(ctx, ids[0])
	if err != nil || g.ID != ids[0] || g.SizeBytes != 4 || g.MimeType != "text/plain" {
		t.Fatalf("Get: %+v, %v", g, err)
	}
	del, err := c.Files.Delete(ctx, ids[0])
	if err != nil || del.ID != ids[0] || del.Type != "file_deleted" {
		t.Fatalf("Delete: %+v, %v", del, err)
	}
	_, err = c.Files.Get(ctx, ids[0])
	if !errors.Is(err, mms.ErrNotFound) {
		t.Errorf("Get after Delete: %v", err)
	}
	for _, bad := range []string{"", ".."} {
		if _, err := c.Files.Get(ctx, bad); !errors.Is(err, mms.ErrInvalidParams) {
			t.Errorf("Get(%q): %v", bad, err)
		}
	}
}

// TestFilesListCursorShape: a list page in the cursor scheme (next_page,
// no has_more) is followed to the end.
func TestFilesListCursorShape(t *testing.T) {
	s := newScriptServer(t,
		reply{body: `{"data":[{"type":"file","id":"file_3"},{"type":"file","id":"file_2"}],"next_page":"page_b"}`},
		reply{body: `{"data":[{"type":"file","id":"file_1"}],"next_page":null}`},
	)
	c := newTestClient(t, s)
	var got []string
	for f, err := range c.Files.List(context.Background(), mms.FileListParams{Limit: 2}) {
		require.NoError(t, err)
		got = append(got, f.ID)
	}
	if diff := cmp.Diff([]string{"file_3", "file_2", "file_1"}, got); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	reqs := s.requests()
	if len(reqs) != 2 || reqs[0].query != "limit=2" || reqs[1].query != "limit=2&page=page_b" {
		t.Errorf("queries: %+v", reqs)
	}
}

// TestFilesBetaHeader: every Files call sends the Files beta, unless
// switched off with WithoutEndpointBeta.
func TestFilesBetaHeader(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts []option.RequestOption
		want string
	}{
		{"default", nil, mms.BetaFiles},
		{"switched off", []option.RequestOption{option.WithoutEndpointBeta(mms.BetaFiles)}, ""},
		{"merged with the caller's", []option.RequestOption{option.WithBeta("pdfs-2024-09-25")}, "pdfs-2024-09-25," + mms.BetaFiles},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFilesServer(t)
			c := filesClient(t, srv, tt.opts...)
			ctx := context.Background()
			f, err := c.Files.Upload(ctx, mms.FileUploadParams{Filename: "a.txt", Reader: strings.NewReader("a")})
			require.NoError(t, err)
			srv.SetFileDownloadable(f.ID, true)
			for _, err := range c.Files.List(ctx, mms.FileListParams{}) {
				require.NoError(t, err)
			}
			if _, err := c.Files.Get(ctx, f.ID); err != nil {
				t.Fatal(err)
			}
			d, err := c.Files.Download(ctx, f.ID)
			require.NoError(t, err)
			d.Body.Close()
			if _, err := c.Files.Delete(ctx, f.ID); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if len(reqs) != 5 {
				t.Fatalf("%d requests", len(reqs))
			}
			for _, r := range reqs {
				if got := r.Header.Get(wire.HeaderBeta); got != tt.want {
					t.Errorf("%s %s: vendor-beta %q, want %q", r.Method, r.Path, got, tt.want)
				}
			}
		})
	}
}

// uploadSample is an upload request body on file (project fixture or
// recording) and the upload that produced it.
type uploadSample struct {
	file, boundary string
	params         mms.FileUploadParams
	content        string
	contentLength  string
}

// uploadSamples: the project's upload (testdata/golden/files) and, when
// present, the recorded upload of the official Python SDK.
func uploadSamples(t *testing.T) []uploadSample {
	samples := []uploadSample{{
		file:     fixtures.Project(t, "golden/files/upload.request.multipart.txt")[0],
		boundary: "4f1e8b2c9a7d6e5f3b2a1c0d9e8f7a6b",
		params:   mms.FileUploadParams{Filename: "report.json", ExpiresInSeconds: 86400},
		content:  `{"city": "Oslo", "visits": 12}` + "\n", contentLength: "314",
	}}
	for _, f := range fixtures.Recorded(t, "other/pydantic__files_upload.request.multipart.txt") {
		samples = append(samples, uploadSample{
			file: f, boundary: "e8f15f8bcbb90a26bab475c6e6f4dc99",
			params:  mms.FileUploadParams{Filename: "data.csv"},
			content: "item,value\napple,30\nbanana,70\n", contentLength: "198",
		})
	}
	return samples
}

// TestFilesUploadMatchesRecording: the body the client sends is the one on
// file, boundary aside.
func TestFilesUploadMatchesRecording(t *testing.T) {
	for _, sample := range uploadSamples(t) {
		t.Run(fixtures.Name(sample.file), func(t *testing.T) {
			want := fixtures.Read(t, sample.file)
			srv := newFilesServer(t)
			c := filesClient(t, srv)
			p := sample.params
			p.Reader = strings.NewReader(sample.content)
			if _, err := c.Files.Upload(context.Background(), p); err != nil {
				t.Fatal(err)
			}
			req := srv.Requests()[0]
			ct := req.Header.Get("Content-Type")
			m := regexp.MustCompile(`^multipart/form-data; boundary=([0-9a-f]{32})$`).FindStringSubmatch(ct)
			if m == nil {
				t.Fatalf("Content-Type %q", ct)
			}
			got := strings.ReplaceAll(string(req.Body), m[1], sample.boundary)
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("body (-on file +sent):\n%s", diff)
			}
			if cl := req.Header.Get("Content-Length"); cl != "" && cl != sample.contentLength {
				t.Errorf("Content-Length %q, want %s", cl, sample.contentLength)
			}
		})
	}
}

// TestFilesUploadContentType: the part's type comes from the caller, else
// the extension, else the content.
func TestFilesUploadContentType(t *testing.T) {
	srv := newFilesServer(t)
	c := filesClient(t, srv)
	tests := []struct {
		name, filename, contentType, content, want string
	}{
		{"given", "a.txt", "application/x-custom", "x", "application/x-custom"},
		{"by extension", "a.csv", "", "x", "text/csv"},
		{"upper-case extension", "A.PDF", "", "x", "application/pdf"},
		{"sniffed PDF", "noext", "", "%PDF-1.7\n...", "application/pdf"},
		{"sniffed PNG", "noext", "", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "image/png"},
		{"sniffed text", "noext", "", "hello", "text/plain"},
		{"sniffed binary", "noext", "", "\x00\x01\x02", "application/octet-stream"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tt.content), onlyReader{strings.NewReader(tt.content)}} {
				f, err := c.Files.Upload(context.Background(), mms.FileUploadParams{Filename: tt.filename, ContentType: tt.contentType, Reader: r})
				require.NoError(t, err)
				if f.MimeType != tt.want {
					t.Errorf("%T: mime_type %q, want %q", r, f.MimeType, tt.want)
				}
				if got, _ := srv.FileSHA256(f.ID); got != sha256Hex([]byte(tt.content)) {
					t.Errorf("%T: sniffing lost bytes", r)
				}
			}
		})
	}
}

func TestFileUploadParamsValidate(t *testing.T) {
	r := strings.NewReader("x")
	tests := []struct {
		name  string
		p     mms.FileUploadParams
		field string
	}{
		{"ok", mms.FileUploadParams{Reader: r}, ""},
		{"ok with expiry", mms.FileUploadParams{Reader: r, ExpiresInSeconds: 3600}, ""},
		{"no reader", mms.FileUploadParams{Filename: "a"}, "reader"},
		{"line break in filename", mms.FileUploadParams{Reader: r, Filename: "a\r\nX-Evil: 1"}, "filename"},
		{"line break in content type", mms.FileUploadParams{Reader: r, ContentType: "text/plain\n"}, "content_type"},
		{"negative size", mms.FileUploadParams{Reader: r, Size: -2}, "size"},
		{"expiry too short", mms.FileUploadParams{Reader: r, ExpiresInSeconds: 60}, "expires_in_seconds"},
		{"expiry too long", mms.FileUploadParams{Reader: r, ExpiresInSeconds: 7776001}, "expires_in_seconds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.p.Validate()
			var ve *mms.ValidationError
			switch {
			case tt.field == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tt.field != "" && (!errors.As(err, &ve) || ve.Field != tt.field):
				t.Fatalf("err = %v, want field %q", err, tt.field)
			}
		})
	}
	c, err := mms.NewClient(option.WithAPIKey("k"), option.WithBaseURL("http://127.0.0.1:1"))
	require.NoError(t, err)
	if _, err := c.Files.Upload(context.Background(), mms.FileUploadParams{}); !errors.Is(err, mms.ErrInvalidParams) {
		t.Errorf("Upload without a reader: %v", err)
	}
}

// TestFilesUploadExpiry sends expires_in_seconds as a form field.
func TestFilesUploadExpiry(t *testing.T) {
	srv := newFilesServer(t)
	c := filesClient(t, srv)
	f, err := c.Files.Upload(context.Background(), mms.FileUploadParams{Filename: "a.txt", Reader: strings.NewReader("a"), ExpiresInSeconds: 7200})
	require.NoError(t, err)
	created, err := f.Created()
	if err != nil || f.ExpiresAt == nil {
		t.Fatalf("created %v (%v), expires_at %v", created, err, f.ExpiresAt)
	}
	expires, err := time.Parse(time.RFC3339Nano, *f.ExpiresAt)
	if err != nil || expires.Sub(created) != 2*time.Hour {
		t.Errorf("expires_at %s, created_at %s", *f.ExpiresAt, f.CreatedAt)
	}
}

// TestFilesRecordedRoundTrip: the Files responses on file decode to what
// they say and re-encode to the same JSON: the project's
// (testdata/golden/files) always and, when the recorded traffic is
// present, its other/ folder, read in place.
func TestFilesRecordedRoundTrip(t *testing.T) {
	type sample struct {
		dir, upload, metadata, deleted   string
		uploadID, uploadName, uploadMIME string
		uploadSize, metadataSize         int64
		uploadCreated                    time.Time
		uploadExpires                    *string
		metadataScope                    *mms.FileScope
	}
	samples := []sample{{
		dir: filepath.Join(fixtures.Dir(t), "golden", "files"), upload: "upload.json", metadata: "get_metadata.json", deleted: "delete.json",
		uploadID: "file_fxF1Report", uploadName: "report.json", uploadMIME: "application/json", uploadSize: 31, metadataSize: 5120,
		uploadCreated: time.Date(2026, 6, 30, 8, 0, 0, 250e6, time.UTC), uploadExpires: mms.Ptr("2026-07-01T08:00:00.25Z"),
		metadataScope: &mms.FileScope{Type: "session", ID: "sesn_fx01Analysis"},
	}}
	if fixtures.HaveRecorded(t) {
		samples = append(samples, sample{
			dir: filepath.Join(fixtures.RecordedDir(t), "other"), upload: "pydantic__files_upload.json",
			metadata: "pydantic__files_get_metadata.json", deleted: "pydantic__files_delete.json",
			uploadID: "file_011CcQH3nbP5brKi4DsVcj7j", uploadName: "data.csv", uploadMIME: "text/csv", uploadSize: 30, metadataSize: 36,
			uploadCreated: time.Date(2026, 6, 25, 16, 16, 9, 340e6, time.UTC),
		})
	}
	for _, s := range samples {
		read := func(name string) []byte { return fixtures.Read(t, filepath.Join(s.dir, name)) }
		t.Run(fixtures.Name(filepath.Join(s.dir, s.upload)), func(t *testing.T) {
			f := roundTrip[mms.FileMetadata](t, read(s.upload))
			if f.ID != s.uploadID || f.Filename != s.uploadName || f.MimeType != s.uploadMIME ||
				f.SizeBytes != s.uploadSize || f.Downloadable == nil || *f.Downloadable || f.Extra != nil ||
				!cmp.Equal(f.ExpiresAt, s.uploadExpires) {
				t.Errorf("decoded %+v", f)
			}
			if c, err := f.Created(); err != nil || !c.Equal(s.uploadCreated) {
				t.Errorf("Created = %v, %v", c, err)
			}
		})
		t.Run(fixtures.Name(filepath.Join(s.dir, s.metadata)), func(t *testing.T) {
			f := roundTrip[mms.FileMetadata](t, read(s.metadata))
			if f.Downloadable == nil || !*f.Downloadable || f.SizeBytes != s.metadataSize || !cmp.Equal(f.Scope, s.metadataScope) {
				t.Errorf("decoded %+v", f)
			}
		})
		t.Run(fixtures.Name(filepath.Join(s.dir, s.deleted)), func(t *testing.T) {
			d := roundTrip[mms.FileDeleted](t, read(s.deleted))
			if d.ID != s.uploadID || d.Type != "file_deleted" {
				t.Errorf("decoded %+v", d)
			}
		})
	}
}

func TestFileRecordsRoundTrip(t *testing.T) {
	t.Run("nulls, scope and unknown members", func(t *testing.T) {
		f := roundTrip[mms.FileMetadata](t, []byte(`{"type":"file","id":"file_1","filename":"a","mime_type":"text/plain","size_bytes":1,`+
			`"created_at":"2026-01-01T00:00:00Z","scope":null,"expires_at":null,"purpose":"x"}`))
		if f.Scope != nil || f.ExpiresAt != nil || f.Downloadable != nil || len(f.Extra) != 3 {
			t.Errorf("decoded %+v", f)
		}
	})
	t.Run("scope", func(t *testing.T) {
		f := roundTrip[mms.FileMetadata](t, []byte(`{"type":"file","id":"file_1","filename":"a","mime_type":"text/plain","size_bytes":1,`+
			`"created_at":"2026-01-01T00:00:00Z","downloadable":true,"scope":{"type":"session","id":"sesn_1","x":1},"expires_at":"2026-02-01T00:00:00Z"}`))
		if f.Scope == nil || f.Scope.ID != "sesn_1" || f.Scope.Type != "session" || len(f.Scope.Extra) != 1 || *f.ExpiresAt != "2026-02-01T00:00:00Z" {
			t.Errorf("decoded %+v", f)
		}
	})
	t.Run("deleted without type", func(t *testing.T) {
		if d := roundTrip[mms.FileDeleted](t, []byte(`{"id":"file_1"}`)); d.Type != "" {
			t.Errorf("decoded %+v", d)
		}
	})
}

// TestFileIDsInMessages: uploaded files work in messages as document and
// image sources and container_upload blocks, end to end; a deleted or
// unsuitable file is refused as the service refuses it.
func TestFileIDsInMessages(t *testing.T) {
	srv := newFilesServer(t)
	c := filesClient(t, srv)
	ctx := context.Background()
	upload := func(name, content string) string {
		f, err := c.Files.Upload(ctx, mms.FileUploadParams{Filename: name, Reader: strings.NewReader(content)})
		require.NoError(t, err)
		return f.ID
	}
	doc := upload("notes.txt", "The answer is 42.")
	img := upload("dot.png", "\x89PNG\r\n\x1a\n")
	csv := upload("data.csv", "a,b\n1,2\n")
	ask := func(blocks ...mms.ContentBlock) error {
		_, err := c.Messages.Create(ctx, mms.MessageCreateParams{
			Model: "mms-large-1", MaxTokens: 100,
			Messages: []mms.MessageParam{mms.UserMessage(append(blocks, mms.TextBlock{Text: "What does it say?"})...)},
		})
		return err
	}
	if err := ask(mms.DocumentFromFile(doc), mms.ImageFromFile(img), mms.ContainerUploadBlock{FileID: csv}); err != nil {
		t.Fatalf("files in a message: %v", err)
	}
	var apiErr *mms.Error
	if err := ask(mms.ImageFromFile(csv)); !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || !strings.Contains(apiErr.Message, "image") {
		t.Errorf("a CSV as an image: %v", err)
	}
	if _, err := c.Files.Delete(ctx, doc); err != nil {
		t.Fatal(err)
	}
	err := ask(mms.DocumentFromFile(doc))
	if !errors.Is(err, mms.ErrNotFound) || !strings.Contains(err.Error(), doc) {
		t.Errorf("a deleted file in a message: %v", err)
	}
}

// TestFilesUploadUnnamedReader: a reader without a name is sent with an
// empty filename (as the newest SDKs do), and the service stores it as
// "unnamed" plus the media type's extension.
func TestFilesUploadUnnamedReader(t *testing.T) {
	srv := newFilesServer(t)
	c := filesClient(t, srv)
	f, err := c.Files.Upload(context.Background(), mms.FileUploadParams{Reader: strings.NewReader("hello")})
	require.NoError(t, err)
	require.Equal(t, "unnamed.txt", f.Filename)
	reqs := srv.Requests()
	require.Contains(t, string(reqs[len(reqs)-1].Body), `name="file"; filename=""`)
}
