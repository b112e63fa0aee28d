package mmstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The Files endpoints:
//
//   - POST /v1/files takes multipart/form-data with one "file" part and an
//     optional "expires_in_seconds" field (3600-7776000); any other part is
//     a 400. The last path component of the part's filename (else
//     "unnamed" and the media type's extension, storedFilename) and the
//     media type (else application/octet-stream) become the record's
//     filename and mime_type. Contents over 1 MiB are stored in a temporary directory,
//     removed when the server closes; FileSHA256 reports each content's
//     SHA-256.
//   - Uploaded files are not downloadable, as on the service (only files
//     created by tools are): downloadable is false and GET .../content is a
//     400 until SetFileDownloadable marks the file downloadable.
//   - GET /v1/files lists newest first by the id scheme, with scope_id;
//     GET /v1/files/{file_id}, DELETE /v1/files/{file_id}; unknown or
//     deleted ids are a 404.
//   - GET /v1/files/{file_id}/content streams the bytes with the file's
//     Content-Type, its length and Content-Disposition: attachment with the
//     filename.
//   - POST /v1/messages and count_tokens check the file ids of image and
//     document "file" sources and container_upload blocks once the request
//     passed every other rule: an unknown or deleted id is a 404, an image
//     source naming a file that is not an image, or a document source one
//     that is not a PDF or plain text, a 400.
//
// The Files beta is not required: the service lists none, though the SDKs
// send it.

// fileStore holds a server's files (Server.files).
type fileStore struct {
	srv   *Server
	blobs blobDir
	mu    sync.Mutex
	files []*storedFile // in upload order
}

func newFileStore(s *Server) *fileStore {
	return &fileStore{srv: s, blobs: blobDir{srv: s}}
}

// storedFile is one uploaded file.
type storedFile struct {
	id           string
	filename     string
	mimeType     string
	created      time.Time
	expires      *time.Time
	downloadable bool
	content      *blob
}

// fileTimeLayout is how the service writes file timestamps
// ("2026-06-25T16:16:09.340000Z").
const fileTimeLayout = "2006-01-02T15:04:05.000000Z"

// fileWire is the FileMetadata record.
type fileWire struct {
	Type         string  `json:"type"`
	ID           string  `json:"id"`
	Filename     string  `json:"filename"`
	MimeType     string  `json:"mime_type"`
	SizeBytes    int64   `json:"size_bytes"`
	CreatedAt    string  `json:"created_at"`
	Downloadable bool    `json:"downloadable"`
	ExpiresAt    *string `json:"expires_at,omitempty"`
}

func (f *storedFile) record() fileWire {
	rec := fileWire{Type: "file", ID: f.id, Filename: f.filename, MimeType: f.mimeType, SizeBytes: f.content.size,
		CreatedAt: f.created.UTC().Format(fileTimeLayout), Downloadable: f.downloadable}
	if f.expires != nil {
		at := f.expires.UTC().Format(fileTimeLayout)
		rec.ExpiresAt = &at
	}
	return rec
}

// find returns the live file with id, or nil. Expired files are gone.
func (st *fileStore) find(id string) *storedFile {
	st.mu.Lock()
	defer st.mu.Unlock()
	i := slices.IndexFunc(st.files, func(f *storedFile) bool { return f.id == id })
	if i < 0 {
		return nil
	}
	f := st.files[i]
	if f.expires != nil && !st.srv.now().Before(*f.expires) {
		return nil
	}
	return f
}

// lookup returns the file named by the path, or answers 404.
func (st *fileStore) lookup(w http.ResponseWriter, r *http.Request) *storedFile {
	id := r.PathValue("file_id")
	f := st.find(id)
	if f == nil {
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "File not found: "+id)
	}
	return f
}

// FileSHA256 returns the lowercase hex SHA-256 of the content of the file
// with id, computed as it was stored, and whether the file exists.
func (s *Server) FileSHA256(id string) (string, bool) {
	f := s.files.find(id)
	if f == nil {
		return "", false
	}
	return f.content.sha256, true
}

// SetFileDownloadable marks the file with id as downloadable or not, as
// the service marks files created by tools, and reports whether the file
// exists. Uploaded files start out not downloadable.
func (s *Server) SetFileDownloadable(id string, downloadable bool) bool {
	st := s.files
	f := st.find(id)
	if f == nil {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	f.downloadable = downloadable
	return true
}

// upload serves POST /v1/files.
func (st *fileStore) upload(w http.ResponseWriter, r *http.Request) {
	f, err := st.readUpload(r)
	if err != nil {
		writeAPIError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, appendLocked(&st.mu, &st.files, f, (*storedFile).record))
}

// readUpload parses the upload form and stores its file.
func (st *fileStore) readUpload(r *http.Request) (f *storedFile, err *apiError) {
	mr, err := formReader(r)
	if err != nil {
		return nil, err
	}
	var expiresIn int64
	defer func() {
		if err != nil && f != nil {
			f.content.remove()
		}
	}()
	for {
		part, name, filename, isFile, err := nextFormPart(mr)
		if err != nil {
			return f, err
		}
		if part == nil {
			break
		}
		switch name {
		case "file":
			if f != nil {
				return f, invalid("file: only one file may be uploaded per request")
			}
			if !isFile {
				return f, invalid("file: expected a file part (Content-Disposition with a filename), got a text field")
			}
			content, serr := st.blobs.storeBlob(part)
			if serr != nil {
				return f, invalid("file: could not read the file part: %v", serr)
			}
			f = &storedFile{filename: storedFilename(filename, partMediaType(part)), mimeType: partMediaType(part), content: content}
		case "expires_in_seconds":
			v, err := readTextField(name, part)
			if err != nil {
				return f, err
			}
			n, perr := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			switch {
			case perr != nil:
				return f, invalid("expires_in_seconds: Input should be a valid integer, got %q", v)
			case n < 3600 || n > 7776000:
				return f, invalid("expires_in_seconds: Input should be between 3600 and 7776000, got %d", n)
			}
			expiresIn = n
		default:
			return f, invalid("%s: Extra inputs are not permitted", name)
		}
	}
	if f == nil {
		return nil, invalid("file: Field required")
	}
	f.id = st.srv.newID("file_")
	f.created = st.srv.now()
	if expiresIn > 0 {
		at := f.created.Add(time.Duration(expiresIn) * time.Second)
		f.expires = &at
	}
	return f, nil
}

// list serves GET /v1/files, newest first, paged by the id scheme.
func (st *fileStore) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	scope := q.Get("scope_id")
	recs := locked(&st.mu, func() []fileWire {
		now := st.srv.now()
		return newestFirst(st.files, func(f *storedFile) (fileWire, bool) {
			return f.record(), (f.expires == nil || now.Before(*f.expires)) && scope == "" // uploads have no scope
		})
	})
	page, err := pageByID(recs, func(f fileWire) string { return f.ID }, q, "file_")
	writePage(w, r, page, err)
}

// get serves GET /v1/files/{file_id}.
func (st *fileStore) get(w http.ResponseWriter, r *http.Request) {
	if f := st.lookup(w, r); f != nil {
		writeJSON(w, http.StatusOK, locked(&st.mu, f.record))
	}
}

// download serves GET /v1/files/{file_id}/content.
func (st *fileStore) download(w http.ResponseWriter, r *http.Request) {
	f := st.lookup(w, r)
	if f == nil {
		return
	}
	ok := locked(&st.mu, func() bool { return f.downloadable })
	if !ok {
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest,
			fmt.Sprintf("File %s is not downloadable: only files created by tools (code execution, skills) can be downloaded", f.id))
		return
	}
	body, err := f.content.open()
	if err != nil {
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "File not found: "+f.id) // deleted meanwhile
		return
	}
	defer body.Close()
	h := w.Header()
	h.Set(wire.HeaderContentType, f.mimeType)
	h.Set("Content-Length", strconv.FormatInt(f.content.size, 10))
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": f.filename}))
	w.WriteHeader(http.StatusOK)
	_, _ = io.Copy(w, body) // a failed write means the client is gone
}

// delete serves DELETE /v1/files/{file_id}.
func (st *fileStore) delete(w http.ResponseWriter, r *http.Request) {
	f := st.lookup(w, r)
	if f == nil {
		return
	}
	withLock(&st.mu, func() { st.files = slices.DeleteFunc(st.files, func(g *storedFile) bool { return g == f }) })
	f.content.remove()
	writeJSON(w, http.StatusOK, map[string]string{"id": f.id, "type": "file_deleted"})
}

// fileRef is a file id named in a Messages request.
type fileRef struct {
	path string // e.g. messages.0.content.1.source.file_id
	id   string
	kind string // "image", "document" or "container_upload"
}

// withFileRefs wraps a Messages handler (top is "create" or
// "count_tokens") so that the file ids the request names must exist and
// suit their blocks. The request's other rules come first: a request that
// fails them is passed on unchanged, to be refused by the handler.
func (st *fileStore) withFileRefs(top string, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body) // buffered by the rule chain
		reset := func() { r.Body = io.NopCloser(bytes.NewReader(body)) }
		reset()
		if !bytes.Contains(body, []byte(`"file_id"`)) {
			next(w, r)
			return
		}
		refs := messageFileRefs(body)
		if len(refs) > 0 {
			if _, err := st.srv.parseMessages(r, top); err == nil {
				if err := st.checkRefs(refs); err != nil {
					writeAPIError(w, r, err)
					return
				}
			}
			reset()
		}
		next(w, r)
	}
}

// checkRefs applies the file rules to refs, in request order.
func (st *fileStore) checkRefs(refs []fileRef) *apiError {
	for _, ref := range refs {
		f := st.find(ref.id)
		if f == nil {
			return &apiError{status: http.StatusNotFound, errType: wire.ErrNotFound, msg: fmt.Sprintf("%s: File not found: %s", ref.path, ref.id)}
		}
		switch {
		case ref.kind == "image" && !slices.Contains([]string{"image/jpeg", "image/png", "image/gif", "image/webp"}, f.mimeType):
			return invalid("%s: file %s is %s; an image source takes a file of type image/jpeg, image/png, image/gif or image/webp",
				ref.path, ref.id, f.mimeType)
		case ref.kind == "document" && f.mimeType != "application/pdf" && f.mimeType != "text/plain":
			return invalid("%s: file %s is %s; a document source takes a file of type application/pdf or text/plain",
				ref.path, ref.id, f.mimeType)
		}
	}
	return nil
}

// messageFileRefs lists the file ids of a Messages body in order: image and
// document "file" sources (also inside tool_result content and content
// document sources) and container_upload blocks.
func messageFileRefs(body []byte) []fileRef {
	var req struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil {
		return nil
	}
	var refs []fileRef
	for i, m := range req.Messages {
		blockFileRefs(fmt.Sprintf("messages.%d.content", i), m.Content, &refs)
	}
	return refs
}

// blockFileRefs appends the file ids of a content array at path.
func blockFileRefs(path string, content json.RawMessage, refs *[]fileRef) {
	var blocks []struct {
		Type    string          `json:"type"`
		FileID  *string         `json:"file_id"`
		Content json.RawMessage `json:"content"`
		Source  *struct {
			Type    string          `json:"type"`
			FileID  *string         `json:"file_id"`
			Content json.RawMessage `json:"content"`
		} `json:"source"`
	}
	if json.Unmarshal(content, &blocks) != nil { // a string, or not ours to judge
		return
	}
	for j, b := range blocks {
		at := fmt.Sprintf("%s.%d", path, j)
		switch {
		case b.Type == "container_upload" && b.FileID != nil:
			*refs = append(*refs, fileRef{at + ".file_id", *b.FileID, b.Type})
		case (b.Type == "image" || b.Type == "document") && b.Source != nil && b.Source.Type == "file" && b.Source.FileID != nil:
			*refs = append(*refs, fileRef{at + ".source.file_id", *b.Source.FileID, b.Type})
		case b.Type == "document" && b.Source != nil && b.Source.Type == "content":
			blockFileRefs(at+".source.content", b.Source.Content, refs)
		case b.Type == "tool_result":
			blockFileRefs(at+".content", b.Content, refs)
		}
	}
}

// mediaExtensions are the extensions the fake gives an unnamed upload of
// these media types (a fixed list: the system's MIME tables differ
// between machines).
var mediaExtensions = map[string]string{"text/plain": ".txt", "text/csv": ".csv", "text/markdown": ".md",
	"application/json": ".json", "application/pdf": ".pdf", "image/png": ".png", "image/jpeg": ".jpg",
	"image/gif": ".gif", "image/webp": ".webp"}

// storedFilename is the name the service stores an upload under: the last
// path component of the part's filename, or "unnamed" plus the media
// type's extension when that is empty (files.md, Additions §D).
func storedFilename(filename, mediaType string) string {
	if i := strings.LastIndexAny(filename, `/\`); i >= 0 {
		filename = filename[i+1:]
	}
	if filename == "" {
		return "unnamed" + mediaExtensions[mediaType]
	}
	return filename
}
