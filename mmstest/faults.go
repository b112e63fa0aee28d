package mmstest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// Fault describes misbehaviour to inject into matching requests, to exercise
// clients' retry, timeout and error handling. A request matches when Method
// is "" or equal to its method and its path starts with Path. Faults apply
// after the authentication, version, beta and size rules and before rate
// limiting; when several faults match, the one injected first applies.
type Fault struct {
	// Method restricts the fault to one HTTP method; "" matches any.
	Method string
	// Path is a path prefix such as "/v1/messages"; "" matches every path.
	Path string

	// Statuses answers one matching request per entry, in order, with that
	// status and the service's standard error body for it (see
	// errorTypeForStatus). Once they are used up the fault is removed and
	// normal handling resumes. Each entry must be in 400-599.
	Statuses []int

	// AfterApply makes the Statuses answers come after the request took
	// effect: the request is handled as normal (a session is created, an
	// event delivered, a record deleted) and the answer it would have had
	// is replaced by the status's error. This is the failure a client
	// cannot tell from one that did nothing, and the one that must not
	// make it send a create again. Without AfterApply a Statuses fault
	// answers before the request is handled, so nothing happened.
	// (DropAfterBytes alone already cuts the connection after the request
	// was handled: a dropped answer of an applied request.)
	AfterApply bool

	// RetryAfter, RetryAfterMs and ShouldRetry, when non-empty, are sent as
	// the retry-after, retry-after-ms and x-should-retry headers on every
	// response the fault affects. ShouldRetry "true" is the service saying
	// that the request did not take effect and may be sent again.
	RetryAfter, RetryAfterMs, ShouldRetry string

	// Latency delays the answer. The wait ends early, aborting the response,
	// if the client cancels the request or the server closes.
	Latency time.Duration

	// DropAfterBytes, when positive, sends only the first DropAfterBytes
	// bytes of the raw HTTP response (status line and headers included) and
	// then closes the connection. It applies to the Statuses responses if
	// there are any, and otherwise to the normal response, which is made
	// first: the request took effect and its answer is lost.
	DropAfterBytes int

	// Times limits a fault without Statuses to that many matching requests;
	// 0 means forever. It is ignored when Statuses is set.
	Times int
}

// faultState is an injected fault with its progress.
type faultState struct {
	Fault
	used int // matching requests served so far
}

// InjectFault adds f to the server's faults. It panics if a status in
// f.Statuses is outside 400-599, since the fault could not be answered with an
// error body.
func (s *Server) InjectFault(f Fault) {
	for _, st := range f.Statuses {
		if st < 400 || st > 599 {
			panic(fmt.Sprintf("mmstest: InjectFault: status %d is not an error status (400-599)", st))
		}
	}
	f.Statuses = append([]int(nil), f.Statuses...) // the caller may reuse its slice
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &faultState{Fault: f})
}

// FailNext answers the next requests whose path starts with path, one per
// status, with that status and the service's error body: FailNext(p, 529,
// 500) fails two. With no status it fails one request with 500. A status
// outside 400-599 panics, as for InjectFault.
func (s *Server) FailNext(path string, statuses ...int) {
	if len(statuses) == 0 {
		statuses = []int{http.StatusInternalServerError}
	}
	s.InjectFault(Fault{Path: path, Statuses: statuses})
}

// ClearFaults removes every injected fault, stream faults included.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults, s.streamFaults = nil, nil
}

// takeFault consumes one use of the first fault matching r. It returns the
// fault and, for a Statuses fault, the status to answer with (0 otherwise).
func (s *Server) takeFault(r *http.Request) (f Fault, status int, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, fs := range s.faults {
		if (fs.Method != "" && fs.Method != r.Method) || !strings.HasPrefix(r.URL.Path, fs.Path) {
			continue
		}
		fs.used++
		limit := fs.Times
		if len(fs.Statuses) > 0 {
			status, limit = fs.Statuses[fs.used-1], len(fs.Statuses)
		}
		if limit > 0 && fs.used >= limit {
			s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
		}
		return fs.Fault, status, true
	}
	return Fault{}, 0, false
}

// applyFault applies the first matching fault. It returns the writer the rest
// of the request must use, a function to call when the response is complete,
// and whether the fault already answered.
func (s *Server) applyFault(w http.ResponseWriter, r *http.Request) (http.ResponseWriter, func(), bool) {
	f, status, ok := s.takeFault(r)
	if !ok {
		return w, func() {}, false
	}
	if !s.sleep(r, f.Latency) {
		// The client is gone or the server is closing: break the connection
		// rather than send a response nobody asked for.
		panic(http.ErrAbortHandler)
	}
	h := w.Header()
	for name, v := range map[string]string{
		wire.HeaderRetryAfter: f.RetryAfter, wire.HeaderRetryAfterMs: f.RetryAfterMs, wire.HeaderShouldRetry: f.ShouldRetry,
	} {
		if v != "" {
			h.Set(name, v)
		}
	}
	finish := func() {}
	if f.DropAfterBytes > 0 {
		d := &dropWriter{rw: w, limit: f.DropAfterBytes}
		w, finish = d, d.drop
	}
	if status != 0 && f.AfterApply {
		// The handler runs against a writer that keeps nothing; then the
		// error goes out (through the drop writer, when there is one).
		out, drop := w, finish
		return &discardWriter{h: http.Header{}}, func() {
			writeError(out, r, status, errorTypeForStatus(status), statusMessage(status))
			drop()
		}, false
	}
	if status != 0 {
		writeError(w, r, status, errorTypeForStatus(status), statusMessage(status))
		return w, finish, true
	}
	return w, finish, false
}

// discardWriter takes the answer of a request whose real answer an
// AfterApply fault replaces.
type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) WriteHeader(int)             {}
func (d *discardWriter) Write(p []byte) (int, error) { return len(p), nil }

// Flush does nothing: the answer goes nowhere.
func (d *discardWriter) Flush() {}

// dropWriter collects a complete response so that drop can send a prefix of
// its raw bytes and cut the connection, as a network failure would.
type dropWriter struct {
	rw     http.ResponseWriter
	limit  int
	status int
	body   bytes.Buffer
}

func (d *dropWriter) Header() http.Header { return d.rw.Header() }

func (d *dropWriter) WriteHeader(status int) {
	if d.status == 0 {
		d.status = status
	}
}

func (d *dropWriter) Write(p []byte) (int, error) {
	d.WriteHeader(http.StatusOK)
	return d.body.Write(p)
}

// Flush does nothing: streaming handlers may flush, but the bytes are sent
// only by drop.
func (d *dropWriter) Flush() {}

// drop takes over the connection, writes the first limit bytes of the
// serialized response and closes it.
func (d *dropWriter) drop() {
	conn, _, err := http.NewResponseController(d.rw).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler) // cannot hijack (HTTP/2): aborting still breaks the response
	}
	defer conn.Close()
	resp := &http.Response{
		StatusCode:    max(d.status, http.StatusOK),
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        d.rw.Header(),
		ContentLength: int64(d.body.Len()),
		Body:          io.NopCloser(&d.body),
	}
	var raw bytes.Buffer
	_ = resp.Write(&raw) // writing to a bytes.Buffer cannot fail
	out := raw.Bytes()
	_, _ = conn.Write(out[:min(len(out), d.limit)]) // the client may already be gone
}
