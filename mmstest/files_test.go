package mmstest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/wire"

	"github.com/stretchr/testify/require"
)

// formPart is one part of a test form: a file when filename != "" or
// file is set.
type formPart struct {
	name, filename, contentType, content string
	file                                 bool
}

// buildForm encodes parts as multipart/form-data.
func buildForm(t *testing.T, parts ...formPart) (body []byte, contentType string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		disp := fmt.Sprintf(`form-data; name=%q`, p.name)
		if p.file || p.filename != "" {
			disp += fmt.Sprintf(`; filename=%q`, p.filename)
		}
		h.Set("Content-Disposition", disp)
		if p.contentType != "" {
			h.Set("Content-Type", p.contentType)
		}
		w, err := mw.CreatePart(h)
		require.NoError(t, err)
		io.WriteString(w, p.content)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), mw.FormDataContentType()
}

// postForm posts a form built from parts to path.
func postForm(t *testing.T, s *Server, path string, parts ...formPart) (*http.Response, []byte) {
	t.Helper()
	body, ct := buildForm(t, parts...)
	req := newReq(t, s, http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set(wire.HeaderContentType, ct)
	return send(t, s, req)
}

// uploadFile uploads content and returns the record.
func uploadFile(t *testing.T, s *Server, filename, contentType, content string) fileWire {
	t.Helper()
	resp, body := postForm(t, s, "/v1/files", formPart{name: "file", filename: filename, contentType: contentType, content: content, file: true})
	if resp.StatusCode != 200 {
		t.Fatalf("upload: %d %s", resp.StatusCode, body)
	}
	var f fileWire
	if err := json.Unmarshal(body, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

func hexSHA(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func TestFileLifecycle(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	content := "item,value\napple,30\nbanana,70\n"
	f := uploadFile(t, s, "data.csv", "text/csv", content)
	want := fileWire{Type: "file", ID: f.ID, Filename: "data.csv", MimeType: "text/csv", SizeBytes: 30,
		CreatedAt: "2026-07-01T12:00:00.000000Z", Downloadable: false}
	if diff := cmp.Diff(want, f); diff != "" || !strings.HasPrefix(f.ID, "file_") {
		t.Fatalf("record (-want +got):\n%s", diff)
	}
	if sum, ok := s.FileSHA256(f.ID); !ok || sum != hexSHA([]byte(content)) {
		t.Errorf("FileSHA256 = %q, %v", sum, ok)
	}

	resp, body := get(t, s, "/v1/files/"+f.ID)
	var got fileWire
	if resp.StatusCode != 200 || json.Unmarshal(body, &got) != nil || got != want {
		t.Errorf("get: %d %s", resp.StatusCode, body)
	}
	resp, body = get(t, s, "/v1/files")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"first_id":"`+f.ID+`"`) {
		t.Errorf("list: %d %s", resp.StatusCode, body)
	}

	resp, body = get(t, s, "/v1/files/"+f.ID+"/content")
	wantError(t, resp, body, 400, wire.ErrInvalidRequest, "not downloadable")
	if !s.SetFileDownloadable(f.ID, true) {
		t.Fatal("SetFileDownloadable: no such file")
	}
	resp, body = get(t, s, "/v1/files/"+f.ID+"/content")
	if resp.StatusCode != 200 || string(body) != content {
		t.Fatalf("download: %d %q", resp.StatusCode, body)
	}
	for name, want := range map[string]string{
		"Content-Type": "text/csv", "Content-Length": "30", "Content-Disposition": `attachment; filename=data.csv`,
	} {
		if got := resp.Header.Get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}

	req := newReq(t, s, http.MethodDelete, "/v1/files/"+f.ID, nil)
	resp, body = send(t, s, req)
	if resp.StatusCode != 200 || string(body) != `{"id":"`+f.ID+`","type":"file_deleted"}`+"\n" {
		t.Errorf("delete: %d %s", resp.StatusCode, body)
	}
	for _, path := range []string{"/v1/files/" + f.ID, "/v1/files/" + f.ID + "/content"} {
		resp, body = get(t, s, path)
		wantError(t, resp, body, 404, wire.ErrNotFound, "File not found: "+f.ID)
	}
	if _, ok := s.FileSHA256(f.ID); ok {
		t.Error("FileSHA256 of a deleted file")
	}
	if s.SetFileDownloadable(f.ID, true) {
		t.Error("SetFileDownloadable of a deleted file")
	}
}

func TestFileUploadDefaultsAndExpiry(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	resp, body := postForm(t, s, "/v1/files",
		formPart{name: "expires_in_seconds", content: "3600"},
		formPart{name: "file", file: true, content: "x"})
	var f fileWire
	if resp.StatusCode != 200 || json.Unmarshal(body, &f) != nil {
		t.Fatalf("upload: %d %s", resp.StatusCode, body)
	}
	if f.Filename != "unnamed" || f.MimeType != "application/octet-stream" || f.ExpiresAt == nil ||
		*f.ExpiresAt != "2026-07-01T13:00:00.000000Z" {
		t.Errorf("record %+v", f)
	}
	clock.Advance(time.Hour - time.Second)
	if resp, body := get(t, s, "/v1/files/"+f.ID); resp.StatusCode != 200 {
		t.Fatalf("before expiry: %d %s", resp.StatusCode, body)
	}
	clock.Advance(time.Second)
	resp, body = get(t, s, "/v1/files/"+f.ID)
	wantError(t, resp, body, 404, wire.ErrNotFound, "File not found")
	if resp, body := get(t, s, "/v1/files"); !strings.Contains(string(body), `"data":[]`) {
		t.Errorf("list after expiry: %d %s", resp.StatusCode, body)
	}
}

func TestFileUploadErrors(t *testing.T) {
	file := formPart{name: "file", filename: "a.txt", content: "a"}
	tests := []struct {
		name  string
		ct    string // overrides the form's content type
		parts []formPart
		msg   string
	}{
		{"not multipart", "application/json", []formPart{file}, "multipart/form-data"},
		{"no file", "", []formPart{{name: "expires_in_seconds", content: "3600"}}, "file: Field required"},
		{"empty form", "", nil, "file: Field required"},
		{"two files", "", []formPart{file, file}, "only one file"},
		{"file as text", "", []formPart{{name: "file", content: "a"}}, "expected a file part"},
		{"unknown field", "", []formPart{file, {name: "purpose", content: "x"}}, "purpose: Extra inputs are not permitted"},
		{"expiry not a number", "", []formPart{file, {name: "expires_in_seconds", content: "soon"}}, "valid integer"},
		{"expiry too short", "", []formPart{file, {name: "expires_in_seconds", content: "60"}}, "between 3600 and 7776000"},
		{"expiry too long", "", []formPart{file, {name: "expires_in_seconds", content: "7776001"}}, "between 3600 and 7776000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestServer(t)
			body, ct := buildForm(t, tt.parts...)
			if tt.ct != "" {
				ct = tt.ct
			}
			req := newReq(t, s, http.MethodPost, "/v1/files", bytes.NewReader(body))
			req.Header.Set(wire.HeaderContentType, ct)
			resp, got := send(t, s, req)
			wantError(t, resp, got, 400, wire.ErrInvalidRequest, tt.msg)
			if _, list := get(t, s, "/v1/files"); !strings.Contains(string(list), `"data":[]`) {
				t.Errorf("a refused upload was stored: %s", list)
			}
		})
	}
}

// TestFileLargeUploadOnDisk: a chunked upload over the memory limit is
// spooled and stored on disk, logged by its first MiB, and its directory
// goes away with the server.
func TestFileLargeUploadOnDisk(t *testing.T) {
	s := NewServer()
	defer s.Close()
	content := bytes.Repeat([]byte("0123456789abcdef"), 3<<20/16) // 3 MiB
	form, ct := buildForm(t, formPart{name: "file", filename: "big.bin", contentType: "application/octet-stream", content: string(content)})
	req := newReq(t, s, http.MethodPost, "/v1/files", io.MultiReader(bytes.NewReader(form))) // no length: chunked
	req.Header.Set(wire.HeaderContentType, ct)
	resp, body := send(t, s, req)
	var f fileWire
	if resp.StatusCode != 200 || json.Unmarshal(body, &f) != nil || f.SizeBytes != int64(len(content)) {
		t.Fatalf("upload: %d %s", resp.StatusCode, body)
	}
	if sum, _ := s.FileSHA256(f.ID); sum != hexSHA(content) {
		t.Error("stored content differs")
	}
	rec := s.Requests()[0]
	if rec.BodySize != int64(len(form)) || len(rec.Body) != maxLoggedBody || !bytes.Equal(rec.Body, form[:maxLoggedBody]) {
		t.Errorf("log: BodySize %d (want %d), %d body bytes", rec.BodySize, len(form), len(rec.Body))
	}
	st := s.files
	stored := st.find(f.ID).content
	if stored.path == "" || stored.data != nil {
		t.Fatal("a 3 MiB file is kept in memory")
	}
	dir := filepath.Dir(stored.path)
	s.SetFileDownloadable(f.ID, true)
	if resp, got := get(t, s, "/v1/files/"+f.ID+"/content"); resp.StatusCode != 200 || !bytes.Equal(got, content) {
		t.Fatalf("download: %d, %d bytes", resp.StatusCode, len(got))
	}
	s.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := os.Stat(dir); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still exists after Close", dir)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestFileListPaging(t *testing.T) {
	s := newTestServer(t)
	var ids []string
	for i := range 5 {
		ids = append(ids, uploadFile(t, s, fmt.Sprintf("f%d.txt", i), "text/plain", "x").ID)
	}
	var page idPage[fileWire]
	_, body := get(t, s, "/v1/files?limit=2&after_id="+ids[4])
	if err := json.Unmarshal(body, &page); err != nil {
		t.Fatal(err)
	}
	if len(page.Data) != 2 || page.Data[0].ID != ids[3] || page.Data[1].ID != ids[2] || !page.HasMore {
		t.Errorf("page after the newest: %s", body)
	}
	resp, body := get(t, s, "/v1/files?scope_id=sesn_1")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"data":[]`) {
		t.Errorf("scope filter: %s", body)
	}
	resp, body = get(t, s, "/v1/files?limit=0")
	wantError(t, resp, body, 400, wire.ErrInvalidRequest, "limit")
}

// messageWith is a Messages body whose user turn holds blocks.
func messageWith(blocks ...string) string {
	return `{"model":"mms-large-1","max_tokens":50,"messages":[{"role":"user","content":[` +
		strings.Join(blocks, ",") + `,{"type":"text","text":"What is in it?"}]}]}`
}

func TestMessagesFileRefs(t *testing.T) {
	s := newTestServer(t)
	pdf := uploadFile(t, s, "doc.pdf", "application/pdf", "%PDF-1.7").ID
	txt := uploadFile(t, s, "notes.txt", "text/plain", "notes").ID
	png := uploadFile(t, s, "pic.png", "image/png", "\x89PNG").ID
	csv := uploadFile(t, s, "data.csv", "text/csv", "a,b").ID
	gone := uploadFile(t, s, "gone.txt", "text/plain", "x").ID
	send(t, s, newReq(t, s, http.MethodDelete, "/v1/files/"+gone, nil))

	doc := func(id string) string { return `{"type":"document","source":{"type":"file","file_id":"` + id + `"}}` }
	img := func(id string) string { return `{"type":"image","source":{"type":"file","file_id":"` + id + `"}}` }
	upload := func(id string) string { return `{"type":"container_upload","file_id":"` + id + `"}` }
	tests := []struct {
		name, path, body string
		status           int
		msg              string
	}{
		{"pdf document", "/v1/messages", messageWith(doc(pdf)), 200, ""},
		{"text document", "/v1/messages", messageWith(doc(txt)), 200, ""},
		{"png image", "/v1/messages", messageWith(img(png)), 200, ""},
		{"container upload of any type", "/v1/messages", messageWith(upload(csv)), 200, ""},
		{"count_tokens too", "/v1/messages/count_tokens",
			`{"model":"mms-large-1","messages":[{"role":"user","content":[` + doc(txt) + `]}]}`, 200, ""},
		{"unknown document file", "/v1/messages", messageWith(doc("file_nope")), 404,
			"messages.0.content.0.source.file_id: File not found: file_nope"},
		{"deleted file", "/v1/messages", messageWith(img(gone)), 404, "File not found: " + gone},
		{"unknown container upload", "/v1/messages", messageWith(upload("file_nope")), 404, "messages.0.content.0.file_id"},
		{"count_tokens unknown", "/v1/messages/count_tokens",
			`{"model":"mms-large-1","messages":[{"role":"user","content":[` + doc("file_nope") + `]}]}`, 404, "File not found"},
		{"image of a csv", "/v1/messages", messageWith(img(csv)), 400, "an image source takes"},
		{"document of a png", "/v1/messages", messageWith(doc(png)), 400, "a document source takes"},
		{"inside a content document", "/v1/messages",
			messageWith(`{"type":"document","source":{"type":"content","content":[` + img("file_nope") + `]}}`), 404,
			"messages.0.content.0.source.content.0.source.file_id"},
		{"form errors come first", "/v1/messages",
			`{"model":"mms-large-1","max_tokens":50,"messages":[{"role":"user","content":[` + doc("file_nope") + `]}],"bogus":1}`,
			400, "bogus"},
		{"unknown model comes first", "/v1/messages",
			`{"model":"nope","max_tokens":50,"messages":[{"role":"user","content":[` + doc("file_nope") + `]}]}`, 404, "model: nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := newReq(t, s, http.MethodPost, tt.path, strings.NewReader(tt.body))
			req.Header.Set(wire.HeaderContentType, "application/json")
			resp, body := send(t, s, req)
			if tt.status == 200 {
				if resp.StatusCode != 200 {
					t.Fatalf("status %d: %s", resp.StatusCode, body)
				}
				return
			}
			wantError(t, resp, body, tt.status, errorTypeForStatus(tt.status), tt.msg)
		})
	}
}

// TestStoredFilename: the last path component is kept; an empty name
// becomes "unnamed" plus the media type's extension, when one is known.
func TestStoredFilename(t *testing.T) {
	for _, tt := range []struct{ filename, mediaType, want string }{
		{"report.pdf", "application/pdf", "report.pdf"},
		{"dir/sub/report.pdf", "application/pdf", "report.pdf"},
		{`C:\\Users\\a\\notes.txt`, "text/plain", "notes.txt"},
		{"", "text/plain", "unnamed.txt"},
		{"", "application/octet-stream", "unnamed"},
		{"dir/", "image/png", "unnamed.png"},
	} {
		if got := storedFilename(tt.filename, tt.mediaType); got != tt.want {
			t.Errorf("storedFilename(%q, %q) = %q, want %q", tt.filename, tt.mediaType, got, tt.want)
		}
	}
}
