package multipart

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/fixtures"

	"github.com/stretchr/testify/require"
)

// TestRecordedUploadBody: the form reproduces the upload request bodies on
// file byte for byte: the project's (testdata/golden/files) and, when
// present, the recorded one of the official Python SDK.
func TestRecordedUploadBody(t *testing.T) {
	type field struct{ name, value string }
	type sample struct {
		file, boundary, filename, contentType, content string
		fields                                         []field
	}
	samples := []sample{{
		file:     fixtures.Project(t, "golden/files/upload.request.multipart.txt")[0],
		boundary: "4f1e8b2c9a7d6e5f3b2a1c0d9e8f7a6b", filename: "report.json", contentType: "application/json",
		content: `{"city": "Oslo", "visits": 12}` + "\n", fields: []field{{"expires_in_seconds", "86400"}},
	}}
	for _, f := range fixtures.Recorded(t, "other/pydantic__files_upload.request.multipart.txt") {
		samples = append(samples, sample{file: f, boundary: "e8f15f8bcbb90a26bab475c6e6f4dc99", filename: "data.csv",
			contentType: "text/csv", content: "item,value\napple,30\nbanana,70\n"})
	}
	for _, s := range samples {
		t.Run(fixtures.Name(s.file), func(t *testing.T) {
			want := fixtures.Read(t, s.file)
			f := New()
			if err := f.SetBoundary(s.boundary); err != nil {
				t.Fatal(err)
			}
			for _, fl := range s.fields {
				f.AddField(fl.name, fl.value)
			}
			f.AddFile("file", s.filename, s.contentType, NewSource(strings.NewReader(s.content), 0))
			got := readAll(t, f)
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("body (-on file +built):\n%s", diff)
			}
			if f.Size() != int64(len(want)) {
				t.Errorf("Size = %d, want %d", f.Size(), len(want))
			}
		})
	}
}

func readAll(t *testing.T, f *Form) []byte {
	t.Helper()
	r, err := f.Open()
	require.NoError(t, err)
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	return b
}

// parsed is one part as mime/multipart reads it back.
type parsed struct {
	Name, Filename, ContentType, Content string
}

func parse(t *testing.T, f *Form, body []byte) []parsed {
	t.Helper()
	_, params, err := mime.ParseMediaType(f.ContentType())
	require.NoError(t, err)
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	var out []parsed
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return out
		}
		require.NoError(t, err)
		_, dp, err := mime.ParseMediaType(p.Header.Get("Content-Disposition"))
		require.NoError(t, err)
		b, err := io.ReadAll(p)
		require.NoError(t, err)
		out = append(out, parsed{dp["name"], dp["filename"], p.Header.Get("Content-Type"), string(b)})
	}
}

func TestFormParsesBack(t *testing.T) {
	f := New()
	f.AddField("display_title", "My skill")
	f.AddFile("files[]", "my-skill/SKILL.md", "text/markdown", NewSource(strings.NewReader("---\nname: x\n---\n"), 0))
	f.AddFile("files[]", `odd "name" \ here.txt`, "", NewSource(bytes.NewReader([]byte("data")), 0))
	f.AddFile("files[]", "line\r\nbreak.txt", "text/plain", NewSource(strings.NewReader(""), 0))
	body := readAll(t, f)
	want := []parsed{
		{"display_title", "", "", "My skill"},
		{"files[]", "my-skill/SKILL.md", "text/markdown", "---\nname: x\n---\n"},
		{"files[]", `odd "name" \ here.txt`, "", "data"},
		{"files[]", "line  break.txt", "text/plain", ""},
	}
	if diff := cmp.Diff(want, parse(t, f, body)); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
	if f.Size() != int64(len(body)) {
		t.Errorf("Size = %d, body is %d", f.Size(), len(body))
	}
	if !f.Replayable() {
		t.Error("readers and buffers: want replayable")
	}
}

func TestSizes(t *testing.T) {
	tests := []struct {
		name       string
		r          io.Reader
		declared   int64
		size       int64
		replayable bool
	}{
		{"strings.Reader", strings.NewReader("hello"), 0, 5, true},
		{"bytes.Reader after a read", func() io.Reader { r := bytes.NewReader([]byte("hello")); r.ReadByte(); return r }(), 0, 4, true},
		{"bytes.Buffer", bytes.NewBufferString("abc"), 0, 3, false},
		{"plain reader", iotest.OneByteReader(strings.NewReader("abc")), 0, -1, false},
		{"plain reader, declared", iotest.OneByteReader(strings.NewReader("abc")), 3, 3, false},
		{"seeker ignores declared", strings.NewReader("abc"), 99, 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewSource(tt.r, tt.declared)
			if s.Size() != tt.size || s.Replayable() != tt.replayable {
				t.Errorf("size %d replayable %v, want %d %v", s.Size(), s.Replayable(), tt.size, tt.replayable)
			}
		})
	}
	f := New()
	f.AddFile("file", "x", "", NewSource(iotest.OneByteReader(strings.NewReader("abc")), 0))
	if f.Size() != -1 || f.Replayable() {
		t.Errorf("unknown source: Size %d, Replayable %v", f.Size(), f.Replayable())
	}
	if body := readAll(t, f); !bytes.Contains(body, []byte("\r\n\r\nabc\r\n--")) {
		t.Errorf("body %q", body)
	}
}

// TestReplay: a seekable source is rewound for each attempt and readers of
// an earlier attempt are cut off; a stream cannot be opened twice.
func TestReplay(t *testing.T) {
	f := New()
	f.AddFile("file", "a.bin", "application/octet-stream", NewSource(strings.NewReader(strings.Repeat("x", 1000)), 0))
	first, err := f.Open()
	require.NoError(t, err)
	buf := make([]byte, 200)
	if _, err := io.ReadFull(first, buf); err != nil {
		t.Fatal(err)
	}
	whole := readAll(t, f) // the second attempt, from the start
	if int64(len(whole)) != f.Size() {
		t.Fatalf("replayed body is %d bytes, want %d", len(whole), f.Size())
	}
	if _, err := io.ReadAll(first); !errors.Is(err, errSuperseded) {
		t.Errorf("reading an abandoned attempt: %v, want errSuperseded", err)
	}

	g := New()
	g.AddFile("file", "a.bin", "", NewSource(iotest.OneByteReader(strings.NewReader("abc")), 0))
	if _, err := g.Open(); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Open(); !errors.Is(err, ErrNotRewindable) {
		t.Errorf("second Open of a stream: %v", err)
	}
}

func TestDeclaredSizeChecked(t *testing.T) {
	tests := []struct {
		name, content string
		declared      int64
		wantErr       string
	}{
		{"exact", "abcd", 4, ""},
		{"short", "ab", 4, "ended after 2 bytes, but its size is 4"},
		{"long", "abcdef", 4, "longer than its declared size of 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := New()
			f.AddFile("file", "x", "", NewSource(iotest.OneByteReader(strings.NewReader(tt.content)), tt.declared))
			r, err := f.Open()
			require.NoError(t, err)
			_, err = io.ReadAll(r)
			if tt.wantErr == "" {
				require.NoError(t, err)
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestPeek(t *testing.T) {
	for _, tt := range []struct {
		name string
		r    io.Reader
	}{
		{"seekable", strings.NewReader("%PDF-1.7 and more")},
		{"stream", iotest.HalfReader(strings.NewReader("%PDF-1.7 and more"))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := NewSource(tt.r, 0)
			head, err := s.Peek(context.Background(), 8)
			if err != nil || string(head) != "%PDF-1.7" {
				t.Fatalf("Peek = %q, %v", head, err)
			}
			f := New()
			f.AddFile("file", "x.pdf", "application/pdf", s)
			if got := parse(t, f, readAll(t, f)); got[0].Content != "%PDF-1.7 and more" {
				t.Errorf("content after Peek: %q", got[0].Content)
			}
		})
	}
}

func TestSetBoundary(t *testing.T) {
	f := New()
	for _, b := range []string{"", strings.Repeat("a", 71), "ends ", "semi;colon", "nl\n"} {
		if err := f.SetBoundary(b); err == nil {
			t.Errorf("SetBoundary(%q) accepted", b)
		}
	}
	if err := f.SetBoundary("with space=x"); err != nil {
		t.Fatal(err)
	}
	if ct := f.ContentType(); ct != `multipart/form-data; boundary="with space=x"` {
		t.Errorf("ContentType %q", ct)
	}
}
