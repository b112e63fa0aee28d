// Package multipart builds multipart/form-data request bodies (RFC 7578)
// whose file parts are streamed from the caller's readers.
//
// A body is the concatenation of small framing buffers (boundary lines and
// part headers) and the parts' own readers, read in order by one
// io.MultiReader: nothing is copied into memory, and when every part's size
// is known the body's exact length is known before sending, so the request
// carries a Content-Length and can be refused locally when it is over a
// limit. A body whose sources are all io.Seekers can be opened again for a
// retry; [Source] makes sure a reader of an abandoned attempt can no longer
// read once the next attempt has rewound the source.
//
// The layout is byte for byte what mime/multipart.Writer produces:
//
//	--B\r\nheaders\r\n\r\ncontent\r\n--B\r\nheaders\r\n\r\ncontent\r\n--B--\r\n
package multipart

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Form is a multipart/form-data body under construction. Add the parts in
// the order they are to be sent, then call Open for each attempt.
type Form struct {
	boundary string
	parts    []part
}

type part struct {
	header []byte  // Content-Disposition and Content-Type lines, without the boundary
	text   []byte  // a text field's value
	src    *Source // a file part's content; nil for a text field
}

// New returns an empty form with a random boundary.
func New() *Form {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return &Form{boundary: hex.EncodeToString(b[:])}
}

// SetBoundary replaces the random boundary, e.g. to reproduce a recorded
// body. It must be 1–70 characters of the RFC 2046 boundary alphabet, not
// ending in a space.
func (f *Form) SetBoundary(b string) error {
	if len(b) < 1 || len(b) > 70 || b[len(b)-1] == ' ' {
		return fmt.Errorf("multipart: invalid boundary %q", b)
	}
	for _, c := range b {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.ContainsRune("'()+_,-./:=? ", c):
		default:
			return fmt.Errorf("multipart: invalid boundary %q", b)
		}
	}
	f.boundary = b
	return nil
}

// Boundary returns the form's boundary.
func (f *Form) Boundary() string { return f.boundary }

// ContentType returns the value of the request's Content-Type header.
func (f *Form) ContentType() string {
	b := f.boundary
	if strings.ContainsAny(b, `()<>@,;:\"/[]?= `) {
		b = `"` + b + `"`
	}
	return "multipart/form-data; boundary=" + b
}

// AddField adds a text field.
func (f *Form) AddField(name, value string) {
	f.parts = append(f.parts, part{header: disposition(name, "", false, ""), text: []byte(value)})
}

// AddFile adds a file part named name whose content is src. filename is
// sent as is in the Content-Disposition header (a directory prefix such as
// "my-skill/SKILL.md" is kept); contentType, when not "", becomes the
// part's Content-Type.
func (f *Form) AddFile(name, filename, contentType string, src *Source) {
	f.parts = append(f.parts, part{header: disposition(name, filename, true, contentType), src: src})
}

// disposition writes a part's header lines. Quotes and backslashes in the
// name and filename are escaped as mime/multipart does; CR and LF, which
// would end the header, are replaced by spaces (callers validate names
// before building a form).
func disposition(name, filename string, file bool, contentType string) []byte {
	var b bytes.Buffer
	b.WriteString(`Content-Disposition: form-data; name="`)
	b.WriteString(escape(name))
	b.WriteByte('"')
	if file {
		b.WriteString(`; filename="`)
		b.WriteString(escape(filename))
		b.WriteByte('"')
	}
	b.WriteString("\r\n")
	if contentType != "" {
		b.WriteString("Content-Type: ")
		b.WriteString(strings.NewReplacer("\r", " ", "\n", " ").Replace(contentType))
		b.WriteString("\r\n")
	}
	return b.Bytes()
}

var escaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\r", " ", "\n", " ")

func escape(s string) string { return escaper.Replace(s) }

// Size returns the exact length of the body, or -1 when a source's size is
// unknown.
func (f *Form) Size() int64 {
	var n int64
	for i, p := range f.parts {
		n += int64(len(f.delimiter(i))) + int64(len(p.header)) + 2 // header, blank line
		if p.src == nil {
			n += int64(len(p.text))
			continue
		}
		if p.src.size < 0 {
			return -1
		}
		n += p.src.size
	}
	return n + int64(len(f.closing()))
}

// Replayable reports whether Open may be called again after a body has been
// (partly) read: every source is an io.Seeker.
func (f *Form) Replayable() bool {
	for _, p := range f.parts {
		if p.src != nil && p.src.seeker == nil {
			return false
		}
	}
	return true
}

// delimiter is the boundary line before part i.
func (f *Form) delimiter(i int) string {
	if i == 0 {
		return "--" + f.boundary + "\r\n"
	}
	return "\r\n--" + f.boundary + "\r\n"
}

func (f *Form) closing() string {
	if len(f.parts) == 0 {
		return "--" + f.boundary + "--\r\n"
	}
	return "\r\n--" + f.boundary + "--\r\n"
}

// Open returns a reader of the whole body for one attempt. The first call
// reads the sources from where they stand; each later call rewinds them to
// that position, which needs every source to be an io.Seeker (see
// Replayable), and cuts off the readers of earlier attempts.
func (f *Form) Open() (io.Reader, error) {
	readers := make([]io.Reader, 0, 2*len(f.parts)+1)
	for i, p := range f.parts {
		head := make([]byte, 0, len(f.delimiter(i))+len(p.header)+2+len(p.text))
		head = append(head, f.delimiter(i)...)
		head = append(head, p.header...)
		head = append(head, "\r\n"...)
		if p.src == nil {
			readers = append(readers, bytes.NewReader(append(head, p.text...)))
			continue
		}
		r, err := p.src.open()
		if err != nil {
			return nil, err
		}
		readers = append(readers, bytes.NewReader(head), r)
	}
	readers = append(readers, strings.NewReader(f.closing()))
	return io.MultiReader(readers...), nil
}

// ErrNotRewindable is returned by Open for a second attempt when a source
// is not an io.Seeker.
var ErrNotRewindable = errors.New("multipart: the content is a stream that cannot be read twice")

// errSuperseded ends a read of an attempt that a later attempt replaced.
var errSuperseded = errors.New("multipart: the body was reopened for another attempt")

// Source is the content of one file part: the caller's reader, its size
// when known, and what is needed to read it again.
//
// No lock is held while the caller's reader is read or sought, so nothing
// that only needs the source's state (Open for a retry) waits for a Read
// that blocks. The reader itself is used by one call at a time (turn): a
// later attempt's Read, which rewinds it first, waits for an abandoned
// attempt's Read still in the reader to return. Reads run inside the HTTP
// transport, which gives up on them when the request is cancelled.
type Source struct {
	r      io.Reader
	seeker io.Seeker // set when r can be rewound to start
	start  int64
	size   int64         // -1 when unknown
	exact  bool          // size was declared by the caller: check the reader holds exactly that
	turn   chan struct{} // holds a token while r is read or sought

	mu     sync.Mutex // guards what follows; never held during a call of r
	prefix []byte     // bytes Peek took from a reader that cannot be rewound
	gen    int        // attempts opened so far
}

// NewSource wraps r. Its size is measured when r is an io.Seeker (from the
// current position to the end; declared is then ignored) or has a Len
// method (bytes.Buffer and friends); otherwise declared, when positive, is
// the size the caller vouches for, and -1 or 0 mean unknown. An io.Seeker
// whose Seek fails (a pipe behind an *os.File) counts as a plain reader.
func NewSource(r io.Reader, declared int64) *Source {
	s := &Source{r: r, size: -1, turn: make(chan struct{}, 1)}
	if rs, ok := r.(io.Seeker); ok {
		if cur, err := rs.Seek(0, io.SeekCurrent); err == nil {
			if end, err := rs.Seek(0, io.SeekEnd); err == nil {
				if _, err := rs.Seek(cur, io.SeekStart); err == nil && end >= cur {
					s.seeker, s.start, s.size = rs, cur, end-cur
					return s
				}
			}
		}
	}
	if l, ok := r.(interface{ Len() int }); ok {
		s.size = int64(l.Len())
		return s
	}
	if declared > 0 {
		s.size, s.exact = declared, true
	}
	return s
}

// Size returns the content's length, or -1 when unknown.
func (s *Source) Size() int64 { return s.size }

// Replayable reports whether the content can be read again (r is an
// io.Seeker).
func (s *Source) Replayable() bool { return s.seeker != nil }

// Peek returns up to n bytes from the start of the content without
// consuming them: a seekable reader is rewound, other readers keep the
// bytes to send them first. Call it before the first Open. It returns
// ctx's error as soon as ctx ends, even while the reader blocks; the read
// then finishes in the background, and the source must not be used.
func (s *Source) Peek(ctx context.Context, n int) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type result struct {
		head []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		head, err := s.peek(n)
		done <- result{head, err}
	}()
	select {
	case r := <-done:
		return r.head, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *Source) peek(n int) ([]byte, error) {
	s.turn <- struct{}{}
	defer func() { <-s.turn }()
	s.mu.Lock()
	prefix := s.prefix
	s.mu.Unlock()
	if s.seeker == nil && prefix != nil {
		return prefix[:min(n, len(prefix))], nil
	}
	buf := make([]byte, n)
	got, err := io.ReadFull(s.r, buf)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	buf = buf[:got]
	if s.seeker != nil {
		if _, serr := s.seeker.Seek(s.start, io.SeekStart); serr != nil {
			return nil, fmt.Errorf("multipart: rewinding after sniffing the content: %w", serr)
		}
	} else {
		s.mu.Lock()
		s.prefix = buf
		s.mu.Unlock()
	}
	return buf, err
}

// open starts an attempt: the first reads from where the source stands,
// later ones rewind it (on their first Read). Readers of earlier attempts
// fail from then on.
func (s *Source) open() (io.Reader, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gen > 0 && s.seeker == nil {
		return nil, ErrNotRewindable
	}
	s.gen++
	return &attempt{src: s, gen: s.gen, prefix: s.prefix, rewind: s.gen > 1}, nil
}

// attempt reads a Source for one attempt.
type attempt struct {
	src    *Source
	gen    int
	prefix []byte
	rewind bool  // seek to the start before the first read
	n      int64 // bytes delivered
	done   bool
}

func (a *attempt) Read(p []byte) (int, error) {
	if a.done {
		return 0, io.EOF
	}
	s := a.src
	s.turn <- struct{}{} // wait for a Read of an abandoned attempt, if any
	defer func() { <-s.turn }()
	s.mu.Lock()
	current := a.gen == s.gen
	s.mu.Unlock()
	if !current {
		return 0, errSuperseded
	}
	if a.rewind {
		if _, err := s.seeker.Seek(s.start, io.SeekStart); err != nil {
			return 0, fmt.Errorf("multipart: rewinding the content: %w", err)
		}
		a.rewind = false
	}
	if len(p) == 0 {
		return 0, nil
	}
	if s.size >= 0 && int64(len(p)) > s.size-a.n {
		p = p[:s.size-a.n] // never send more than the length announced
	}
	var n int
	var err error
	switch {
	case len(p) == 0: // the announced length has been sent
		err = io.EOF
	case len(a.prefix) > 0:
		n = copy(p, a.prefix)
		a.prefix = a.prefix[n:]
	default:
		n, err = s.r.Read(p)
	}
	a.n += int64(n)
	if err == io.EOF {
		a.done = true
		switch {
		case s.size >= 0 && a.n < s.size:
			return n, fmt.Errorf("multipart: the content ended after %d bytes, but its size is %d", a.n, s.size)
		case s.exact && a.n == s.size && s.seeker == nil && len(a.prefix) == 0:
			if extra := probe(s.r); extra {
				return n, fmt.Errorf("multipart: the content is longer than its declared size of %d bytes", s.size)
			}
		}
	}
	return n, err
}

// probe reports whether r has more to give.
func probe(r io.Reader) bool {
	var b [1]byte
	for range 3 { // a reader may return 0, nil; do not spin on one that always does
		n, err := r.Read(b[:])
		if n > 0 {
			return true
		}
		if err != nil {
			return false
		}
	}
	return false
}
