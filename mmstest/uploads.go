package mmstest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"sync"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// Multipart uploads (POST /v1/files, POST /v1/skills and
// POST /v1/skills/{skill_id}/versions) can be hundreds of megabytes, so
// they never sit in memory: the rule chain spools a large or chunked upload
// body to a temporary file instead of buffering it (spoolBody, called from
// readBody), the handlers read it part by part with mime/multipart's
// streaming Reader, and contents over uploadMemoryLimit are stored in a
// temporary directory that is removed when the server closes.

// uploadMemoryLimit is the size up to which an upload body is buffered in
// memory by the rule chain, and a stored content kept in memory; larger
// ones go to temporary files.
const uploadMemoryLimit = 1 << 20

// spoolsBody reports whether the rule chain should spool r's body to disk
// rather than buffer it: an upload route (routes.go) with a body over
// uploadMemoryLimit or of unknown length.
func spoolsBody(r *http.Request, rt *route) bool {
	return rt != nil && rt.upload && (r.ContentLength < 0 || r.ContentLength > uploadMemoryLimit)
}

// spoolBody reads r's body, within limit, into a temporary file that
// replaces r.Body for the handler and is removed when the request ends.
// Like the buffered path it reads the whole body before answering, so the
// rules that follow (faults, rate limits) see a completely sent request;
// the log keeps the first maxLoggedBody bytes and the size.
func (s *Server) spoolBody(w http.ResponseWriter, r *http.Request, rec *Request, limit int64) bool {
	f, err := os.CreateTemp("", "mmstest-upload-*")
	if err != nil {
		writeError(w, r, http.StatusInternalServerError, wire.ErrAPI, "could not store the request body")
		return false
	}
	discard := func() {
		f.Close()
		os.Remove(f.Name())
	}
	head := &headBuffer{max: maxLoggedBody}
	n, err := io.Copy(io.MultiWriter(f, head), http.MaxBytesReader(w, r.Body, limit))
	s.setSpooledBody(rec, head.Bytes(), n)
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		discard()
		writeTooLarge(w, r, limit)
		return false
	case err != nil:
		discard()
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "could not read the request body")
		return false
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		discard()
		writeError(w, r, http.StatusInternalServerError, wire.ErrAPI, "could not store the request body")
		return false
	}
	context.AfterFunc(r.Context(), discard) // the context ends when the handler returns
	r.Body = f
	return true
}

// setSpooledBody completes the log entry of a spooled body.
func (s *Server) setSpooledBody(rec *Request, head []byte, n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec.Body = head
	rec.BodySize = n
}

// headBuffer keeps the first max bytes written to it.
type headBuffer struct {
	buf bytes.Buffer
	max int
}

func (h *headBuffer) Write(p []byte) (int, error) {
	if room := h.max - h.buf.Len(); room > 0 {
		h.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (h *headBuffer) Bytes() []byte { return h.buf.Bytes() }

// formReader returns a streaming reader of r's multipart/form-data body.
func formReader(r *http.Request) (*multipart.Reader, *apiError) {
	ct := r.Header.Get(wire.HeaderContentType)
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, invalid("Content-Type: this endpoint takes multipart/form-data with a boundary, got %q", ct)
	}
	return multipart.NewReader(r.Body, params["boundary"]), nil
}

// nextFormPart returns the next part with its field name and its filename
// exactly as sent (Part.FileName would drop a directory prefix such as
// "my-skill/"); isFile tells a file part from a text field. It returns
// nil at the end of the form.
func nextFormPart(mr *multipart.Reader) (p *multipart.Part, name, filename string, isFile bool, err *apiError) {
	part, perr := mr.NextPart()
	if perr == io.EOF {
		return nil, "", "", false, nil
	}
	if perr != nil {
		return nil, "", "", false, invalid("could not parse the multipart/form-data body: %v", perr)
	}
	disp, params, derr := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
	if derr != nil || disp != "form-data" || params["name"] == "" {
		return nil, "", "", false, invalid("multipart/form-data part without a valid Content-Disposition: form-data; name=...")
	}
	filename, isFile = params["filename"]
	return part, params["name"], filename, isFile, nil
}

// readTextField reads a small text field.
func readTextField(name string, p *multipart.Part) (string, *apiError) {
	b, err := io.ReadAll(io.LimitReader(p, 4097))
	switch {
	case err != nil:
		return "", invalid("%s: could not read the field: %v", name, err)
	case len(b) > 4096:
		return "", invalid("%s: the value is too long", name)
	}
	return string(b), nil
}

// partMediaType is a file part's media type without parameters, or
// application/octet-stream when it has none.
func partMediaType(p *multipart.Part) string {
	ct := p.Header.Get(wire.HeaderContentType)
	if ct == "" {
		return "application/octet-stream"
	}
	if mt, _, err := mime.ParseMediaType(ct); err == nil {
		return mt
	}
	return ct
}

// blob is one stored content: in memory up to uploadMemoryLimit, else in a
// file of the store's temporary directory. Blobs never change once stored.
type blob struct {
	data   []byte
	path   string
	size   int64
	sha256 string // lowercase hex
}

// open returns a reader of the content.
func (b *blob) open() (io.ReadCloser, error) {
	if b.path == "" {
		return io.NopCloser(bytes.NewReader(b.data)), nil
	}
	return os.Open(b.path)
}

// remove deletes the content's file, if any. A download in progress keeps
// reading it where the system allows.
func (b *blob) remove() {
	if b.path != "" {
		os.Remove(b.path)
	}
}

// blobDir is the temporary directory of a store's large blobs, created on
// first use and removed when the server closes.
type blobDir struct {
	srv  *Server
	once sync.Once
	path string
	err  error
}

func (d *blobDir) get() (string, error) {
	d.once.Do(func() {
		d.path, d.err = os.MkdirTemp("", "mmstest-files-*")
		if d.err == nil {
			go func() { // Server.Close closes done
				<-d.srv.done
				os.RemoveAll(d.path)
			}()
		}
	})
	return d.path, d.err
}

// storeBlob reads r to its end into a blob, computing its SHA-256.
func (d *blobDir) storeBlob(r io.Reader) (*blob, error) {
	h := sha256.New()
	var mem bytes.Buffer
	n, err := io.Copy(io.MultiWriter(&mem, h), io.LimitReader(r, uploadMemoryLimit+1))
	if err != nil {
		return nil, err
	}
	if n <= uploadMemoryLimit {
		return &blob{data: mem.Bytes(), size: n, sha256: hex.EncodeToString(h.Sum(nil))}, nil
	}
	dir, err := d.get()
	if err != nil {
		return nil, fmt.Errorf("creating the storage directory: %w", err)
	}
	f, err := os.CreateTemp(dir, "blob-*")
	if err != nil {
		return nil, err
	}
	_, err = f.Write(mem.Bytes())
	var m int64
	if err == nil {
		m, err = io.Copy(io.MultiWriter(f, h), r)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return nil, err
	}
	return &blob{path: f.Name(), size: n + m, sha256: hex.EncodeToString(h.Sum(nil))}, nil
}
