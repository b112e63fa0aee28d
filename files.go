package mms

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"mime"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/multipart"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// Beta names the Files and Skills services send on every call. The service
// may accept the calls without them; switch one off with
// option.WithoutEndpointBeta(mms.BetaFiles).
const (
	BetaFiles  = "files-api-2025-04-14"
	BetaSkills = "skills-2025-10-02"
)

// FilesService uploads, lists, retrieves, downloads and deletes files
// (/v1/files). Reach it as client.Files. Under API version 2023-06-01
// every call sends the files-api-2025-04-14 beta ([BetaFiles]) unless
// option.WithoutEndpointBeta(mms.BetaFiles) is given; under 2026-10-21,
// where the value is deprecated, none is sent (option.WithBeta still adds
// it).
//
// An uploaded file's id goes into messages as an image or document source
// ([ImageFromFile], [DocumentFromFile]) or a [ContainerUploadBlock].
type FilesService struct {
	client *Client
}

// FileUploadParams are the parameters of [FilesService.Upload].
type FileUploadParams struct {
	// Filename is the name the file is stored under. When empty, the base
	// name of the reader's Name method (an *os.File) is sent, else an empty
	// filename: the service then stores "unnamed" plus the extension of
	// the content's media type.
	Filename string
	// Reader supplies the content, read as the request is sent: the file is
	// never held in memory. An io.ReadSeeker (an *os.File, *bytes.Reader,
	// *strings.Reader) is uploaded from its current position to its end, and
	// the upload is retried like any other call: each retry seeks back.
	// Any other reader is sent once and never retried; an error that would
	// have been retried matches [ErrNotReplayable].
	Reader io.Reader
	// ContentType is the file's media type. When empty it is taken from the
	// filename's extension, else sniffed from the first 512 bytes
	// (net/http.DetectContentType).
	ContentType string
	// Size is the content's length, for readers that cannot tell it (not an
	// io.Seeker and without a Len method). A known size is sent as the
	// Content-Length and checked against the 500 MiB limit before anything
	// is sent, and the reader must then hold exactly that many bytes. 0 or
	// -1 mean unknown: the body is sent chunked and the limit is enforced
	// while streaming.
	Size int64
	// ExpiresInSeconds, when not 0, makes the bytes permanently unavailable
	// that many seconds after the upload: 3600 (1 hour) to 7776000 (90
	// days). Only the service's newer (GA) files API documents it.
	ExpiresInSeconds int
}

// Validate reports the first rule the params break: no Reader, a Filename
// or ContentType with a line break or NUL, a Size below -1, or
// ExpiresInSeconds out of range.
func (p FileUploadParams) Validate() error {
	switch {
	case p.Reader == nil:
		return invalid("reader", "is required")
	case strings.ContainsAny(p.Filename, "\r\n\x00"):
		return invalid("filename", "must not contain line breaks or NUL, got %q", p.Filename)
	case strings.ContainsAny(p.ContentType, "\r\n\x00"):
		return invalid("content_type", "must not contain line breaks or NUL, got %q", p.ContentType)
	case p.Size < -1:
		return invalid("size", "must be the content's length, or 0 or -1 for unknown, got %d", p.Size)
	case p.ExpiresInSeconds != 0 && (p.ExpiresInSeconds < 3600 || p.ExpiresInSeconds > 7776000):
		return invalid("expires_in_seconds", "must be between 3600 and 7776000 (or 0 for never), got %d", p.ExpiresInSeconds)
	}
	return nil
}

// Upload uploads a file (POST /v1/files, multipart/form-data) and returns
// its record. The body is streamed from p.Reader as it is sent; see
// [FileUploadParams] for when it is retried. A body over the 500 MiB limit
// fails with a *[RequestTooLargeError]: before anything is sent when its
// size is known, else as soon as the stream crosses the limit (Sent is
// then true).
func (s *FilesService) Upload(ctx context.Context, p FileUploadParams, opts ...option.RequestOption) (*FileMetadata, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	src := multipart.NewSource(p.Reader, p.Size)
	name := uploadFilename(p.Filename, p.Reader)
	contentType := p.ContentType
	if contentType == "" {
		var err error
		if contentType, err = detectContentType(ctx, name, src); err != nil {
			return nil, fmt.Errorf("mms: reading the start of %q to detect its content type: %w", name, err)
		}
	}
	form := multipart.New()
	if p.ExpiresInSeconds != 0 {
		form.AddField("expires_in_seconds", strconv.Itoa(p.ExpiresInSeconds))
	}
	form.AddFile("file", name, contentType, src)
	return s.all().upload(ctx, form, opts)
}

// uploadFilename is the filename sent for an upload.
func uploadFilename(name string, r io.Reader) string {
	if name != "" {
		return name
	}
	if n, ok := r.(interface{ Name() string }); ok {
		if base := filepath.Base(n.Name()); base != "." && base != string(filepath.Separator) && !strings.ContainsAny(base, "\r\n\x00") {
			return base
		}
	}
	return ""
}

// uploadTypes maps common extensions to media types, so the type does not
// depend on the system's MIME tables.
var uploadTypes = map[string]string{
	".pdf": "application/pdf", ".txt": "text/plain", ".md": "text/markdown", ".csv": "text/csv",
	".tsv": "text/tab-separated-values", ".json": "application/json", ".jsonl": "application/jsonl",
	".html": "text/html", ".htm": "text/html", ".xml": "application/xml", ".yaml": "application/yaml",
	".yml": "application/yaml", ".py": "text/x-python", ".js": "text/javascript", ".sh": "text/x-shellscript",
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
	".zip":  "application/zip",
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
}

// detectContentType picks a media type (without parameters) from the
// filename's extension, else from the content's first 512 bytes.
func detectContentType(ctx context.Context, name string, src *multipart.Source) (string, error) {
	ext := strings.ToLower(filepath.Ext(name))
	t := uploadTypes[ext]
	if t == "" && ext != "" {
		t = mime.TypeByExtension(ext)
	}
	if t == "" {
		head, err := src.Peek(ctx, 512)
		if err != nil {
			return "", err
		}
		t = http.DetectContentType(head)
	}
	if base, _, err := mime.ParseMediaType(t); err == nil {
		return base, nil
	}
	return t, nil
}

// FileListParams are the parameters of [FilesService.List] and
// [FilesService.ListPage]. The zero value lists from the newest file on.
type FileListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service (20).
	Limit int
	// AfterID starts the list right after this file id.
	AfterID string
	// BeforeID starts the list right before this file id; List then pages
	// backwards.
	BeforeID string
	// ScopeID keeps only the files whose scope id equals it (e.g. a
	// managed-agents session id).
	ScopeID string
}

// Validate reports the first rule the params break: Limit outside 1–1000
// when set, or AfterID and BeforeID given together.
func (p FileListParams) Validate() error {
	return validateIDParams(p.Limit, p.AfterID, p.BeforeID)
}

func (p FileListParams) listArgs() listArgs {
	q := limitQuery(p.Limit)
	if p.ScopeID != "" {
		q.Set("scope_id", p.ScopeID)
	}
	return listArgs{query: q, start: idStart(p.AfterID, p.BeforeID)}
}

// filesBetas is the endpoint beta list of every files request.
var filesBetas = []string{wire.BetaFiles}

// filesEndpoint is /v1/files followed by path (escaped), answering a T.
// The list is paged by the id scheme and follows a page in the cursor
// scheme by its next_page.
func filesEndpoint[T any](c *Client, path string) endpoint[T] {
	return endpoint[T]{c: c, path: "/v1/files" + path, betas: filesBetas, scheme: idOrCursorScheme}
}

// List iterates over the files, newest first, fetching pages of p.Limit as
// it goes (GET /v1/files). The list is paged by the id scheme (after_id =
// last_id while has_more); a page in the cursor scheme of the service's
// newer files API (next_page, no has_more) is followed by its next_page, so
// either shape lists everything. Nothing is sent before the loop starts;
// ranging again lists again; an error is yielded once, last.
func (s *FilesService) List(ctx context.Context, p FileListParams, opts ...option.RequestOption) iter.Seq2[FileMetadata, error] {
	return s.all().list(ctx, p, opts)
}

// ListPage fetches one page of files (GET /v1/files). Continue with AfterID
// set to the page's LastID while HasMore is true. A service answering in
// the cursor scheme fills NextPage instead.
func (s *FilesService) ListPage(ctx context.Context, p FileListParams, opts ...option.RequestOption) (*Page[FileMetadata], error) {
	return s.all().listPage(ctx, p, opts)
}

// Get retrieves a file's record (GET /v1/files/{file_id}).
func (s *FilesService) Get(ctx context.Context, fileID string, opts ...option.RequestOption) (*FileMetadata, error) {
	return s.at(fileID).get(ctx, opts)
}

// FileDownload is the content of a file as [FilesService.Download] returns
// it: a stream the caller reads and must close.
type FileDownload struct {
	// Body streams the file's bytes. Close it when done, even unread.
	Body io.ReadCloser
	// ContentType is the response's Content-Type.
	ContentType string
	// ContentLength is the length of Body, or -1 when the service did not
	// say.
	ContentLength int64
	// Filename is the filename of the Content-Disposition header, "" when
	// there is none.
	Filename string
	// Metadata holds the response's request id, rate limits and attempts.
	Metadata ResponseMetadata
}

// Download streams a file's content (GET /v1/files/{file_id}/content, with
// Accept: application/binary). The service serves only files whose record
// says Downloadable (files created by tools such as code execution); for
// others it answers with an *[Error]. The per-attempt timeout covers the
// wait for the response headers, not the reading of Body.
func (s *FilesService) Download(ctx context.Context, fileID string, opts ...option.RequestOption) (*FileDownload, error) {
	seg, err := pathID("file_id", fileID)
	if err != nil {
		return nil, err
	}
	r := &request{
		method: http.MethodGet, path: "/v1/files/" + seg + "/content", accept: "application/binary",
		betas: filesBetas, streaming: true,
	}
	resp, err := s.client.newCall(opts).send(ctx, r)
	if err != nil {
		return nil, err
	}
	d := &FileDownload{
		Body: resp.Body, ContentType: resp.Header.Get(wire.HeaderContentType),
		ContentLength: resp.ContentLength, Metadata: metadataFrom(resp.StatusCode, resp.Header, resp.Attempts, resp.PlatformRequestID),
	}
	if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil {
		d.Filename = params["filename"]
	}
	return d, nil
}

// Delete deletes a file (DELETE /v1/files/{file_id}). Its id stops working
// in messages.
func (s *FilesService) Delete(ctx context.Context, fileID string, opts ...option.RequestOption) (*FileDeleted, error) {
	return as[FileDeleted](s.at(fileID)).delete(ctx, opts)
}

// FileMetadata is a file's record (the wire type "file"). Members this SDK
// version does not model are kept in Extra, so json.Marshal writes a reply
// back without loss.
//
//mms:json type=file
type FileMetadata struct {
	// ID identifies the file, e.g. "file_011CcQH3nbP5brKi4DsVcj7j"; use it
	// as the file_id of image and document sources and container_upload
	// blocks.
	ID string `json:"id"`
	// Filename is the file's original name.
	Filename string `json:"filename"`
	// MimeType is the file's media type, e.g. "text/csv".
	MimeType string `json:"mime_type"`
	// SizeBytes is the file's length.
	SizeBytes int64 `json:"size_bytes"`
	// CreatedAt is the upload time, an RFC 3339 string as the service sent
	// it (see [FileMetadata.Created]).
	CreatedAt string `json:"created_at"`
	// Downloadable says whether [FilesService.Download] may fetch the
	// content; nil when the service did not say. Files created by tools are
	// downloadable; uploaded files are not.
	Downloadable *bool `json:"downloadable,omitzero"`
	// Scope is the context that created the file (e.g. a managed-agents
	// session); nil when absent or null.
	Scope *FileScope `json:"scope,omitzero"`
	// ExpiresAt is when the bytes become unavailable (RFC 3339); nil when
	// absent or null (the file never expires). Newer (GA) files API only.
	ExpiresAt *string `json:"expires_at,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Created parses CreatedAt.
func (f FileMetadata) Created() (time.Time, error) { return time.Parse(time.RFC3339Nano, f.CreatedAt) }

// FileScope is the context a file belongs to, e.g. {type: "session", id}.
//
//mms:json
type FileScope struct {
	// Type is the kind of context, e.g. "session".
	Type string `json:"type"`
	// ID identifies it.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// FileDeleted is the answer to [FilesService.Delete].
//
//mms:json
type FileDeleted struct {
	// ID is the deleted file's id.
	ID string `json:"id"`
	// Type is "file_deleted"; the service may leave it out.
	Type string `json:"type,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Deprecated: use FileDeleted.
type DeletedFile = FileDeleted

// all is the files' endpoint (/v1/files).
func (s *FilesService) all() endpoint[FileMetadata] { return filesEndpoint[FileMetadata](s.client, "") }

// at is one file's endpoint (/v1/files/{file_id}).
func (s *FilesService) at(fileID string) endpoint[FileMetadata] {
	return s.all().id("file_id", fileID)
}
