// Package sse decodes Server-Sent Events streams.
//
// A [Decoder] follows the "event stream interpretation" of the WHATWG HTML
// standard (section 9.2.6) exactly:
//
//   - Lines end in CRLF, LF or a lone CR. A UTF-8 byte order mark at the very
//     start of the stream is skipped.
//   - A line starting with a colon is a comment and is ignored. Any other line
//     is a field: the name runs up to the first colon, and the value follows
//     it with one leading space removed. A line without a colon is a field
//     whose value is empty.
//   - The fields are "event" (the event type), "data" (appended to the data
//     buffer; several data lines are joined with "\n"), "id" (sets the last
//     event ID unless the value contains U+0000 NULL; it persists across
//     events) and "retry" (the reconnection time in milliseconds, used only if
//     the value is one or more ASCII digits; a value too large for an int is
//     also ignored). Other field names are ignored.
//   - A blank line dispatches the event. An event whose data buffer is empty
//     is not dispatched, but its event type is reset. The event type is
//     "message" when no event field named one.
//   - At the end of the stream an unterminated event is discarded. The
//     decoder reports that case as an error wrapping [io.ErrUnexpectedEOF] so
//     that callers can tell a truncated stream from a complete one.
//
// Lines may be of any length: values are copied into the event's buffers as
// they arrive, so the decoder never needs a whole line in memory. The memory
// held for one event is bounded instead by [Decoder.SetMaxEventSize].
//
// # Activity
//
// A Decoder reads from its [io.Reader] only when it has no buffered bytes
// left, and it processes whatever a Read returns without waiting for more.
// A caller that watches for idle streams therefore learns of every arrival,
// including comment-only keep-alives that never become events, by wrapping
// the reader it passes to [NewDecoder] and noting the time of each Read that
// returns n > 0. The decoder itself has no hook for this.
package sse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
)

// DefaultMaxEventSize is the limit a new [Decoder] applies to the size of
// one event, in bytes; see [Decoder.SetMaxEventSize].
const DefaultMaxEventSize = 64 << 20

// ErrEventTooLarge is returned, wrapped in an error that names the limit,
// when one event needs more than the decoder's maximum event size.
var ErrEventTooLarge = errors.New("sse: event too large")

const (
	// readSize is the size of the read buffer.
	readSize = 32 << 10
	// keepData is the largest data buffer capacity kept between events; a
	// larger buffer left behind by an unusually big event is released.
	keepData = 1 << 20
	// maxEmptyReads is how many (0, nil) reads in a row are tolerated
	// before giving up with io.ErrNoProgress, as bufio does.
	maxEmptyReads = 100
	// maxKnownName is the length of the longest field name the decoder
	// acts on ("event", "retry"); longer names are ignored fields.
	maxKnownName = 5
	// maxTypeCache bounds the cache of uncommon event type strings.
	maxTypeCache = 64
)

var bom = []byte("\xEF\xBB\xBF")

// An Event is one dispatched Server-Sent Event.
type Event struct {
	// Type is the event type: the value of the last event field of the
	// event, or "message" when the event has none.
	Type string

	// Data holds the values of the event's data fields joined with "\n".
	// It aliases the decoder's buffer and is valid only until the next
	// call to [Decoder.Next]; copy it to keep it longer.
	Data []byte

	// ID is the last event ID of the stream when the event was dispatched:
	// the value of the latest valid id field, which may belong to an
	// earlier event, or "" if there has been none.
	ID string

	// Retry is the stream's reconnection time in milliseconds from the
	// latest valid retry field, which may belong to an earlier event, or 0
	// if there has been none.
	Retry int
}

// field identifies the field of the line being decoded.
type field uint8

const (
	fieldIgnore field = iota // unknown field name
	fieldComment
	fieldData
	fieldEvent
	fieldID
	fieldRetry
)

// lineState is how far the decoder has got into the current line.
type lineState uint8

const (
	inName  lineState = iota // before the first colon
	inSpace                  // just after the colon: an optional space may follow
	inValue                  // in the field value
)

// A Decoder reads Server-Sent Events from an [io.Reader].
//
// A Decoder buffers its input, so it may read more bytes from the reader than
// the events it has returned so far. It is not safe for concurrent use.
type Decoder struct {
	rd     io.Reader
	buf    []byte // read buffer; unread bytes are buf[r:w]
	r, w   int
	lfScan int   // no LF in buf[r:lfScan]; if lfScan < w, buf[lfScan] is LF
	rerr   error // error from the reader, reported once buf is drained
	empty  int   // consecutive (0, nil) reads
	err    error // sticky error returned by Next

	bomDone bool // the start of the stream has been checked for a BOM
	skipLF  bool // the previous line ended in CR: a following LF belongs to it

	// Current line.
	state   lineState
	inLine  bool // the line has at least one byte
	f       field
	name    [maxKnownName]byte
	nameLen int // may exceed len(name); then the name is unknown

	retryVal    int
	retryOK     bool // the retry value so far is digits and fits in an int
	retryDigits bool // the retry value has at least one digit

	// Current event.
	pending bool   // a field line has been seen since the last blank line
	hasData bool   // a data field has been seen
	data    []byte // data buffer without the trailing LF
	typ     []byte // event type buffer
	idVal   []byte // value of the id field being read

	// Stream state.
	lastID    []byte // last event ID buffer
	lastIDStr string // lastID as of the last blank line
	idDirty   bool   // lastID changed since lastIDStr was set
	retry     int
	maxSize   int
	types     map[string]string // cache of uncommon event type strings

	ev Event // the event being returned by Next
}

// NewDecoder returns a Decoder that reads the stream from r, with the
// maximum event size set to [DefaultMaxEventSize].
//
// The Decoder calls r.Read only when it has consumed everything it read
// before, so a wrapper around r sees every arrival of bytes as it happens;
// see the package documentation.
func NewDecoder(r io.Reader) *Decoder {
	return &Decoder{
		rd:      r,
		buf:     make([]byte, readSize),
		maxSize: DefaultMaxEventSize,
	}
}

// SetMaxEventSize sets the largest number of bytes the decoder buffers for one
// event: the sum of the lengths of its data (with the "\n" separators), its
// event type, and the value of an id field being read. Comments and ignored
// fields are discarded as they arrive and do not count. When an event grows
// beyond the limit, [Decoder.Next] fails with an error wrapping
// [ErrEventTooLarge]. A value n <= 0 restores [DefaultMaxEventSize].
func (d *Decoder) SetMaxEventSize(n int) {
	if n <= 0 {
		n = DefaultMaxEventSize
	}
	d.maxSize = n
}

// LastEventID returns the stream's last event ID as of the last blank line:
// the value a reconnecting client sends in the Last-Event-ID header. Unlike
// [Event.ID] it is updated by events that are not dispatched because their
// data is empty.
func (d *Decoder) LastEventID() string {
	return d.lastIDStr
}

// Retry returns the stream's reconnection time in milliseconds from the
// latest valid retry field read so far, or 0 if there has been none.
func (d *Decoder) Retry() int {
	return d.retry
}

// Next reads and returns the next event of the stream.
//
// At the end of the stream Next returns [io.EOF] if the stream ended at an
// event boundary. If it ended in the middle of an event, the incomplete event
// is discarded (as the standard requires) and Next returns an error wrapping
// [io.ErrUnexpectedEOF]. A read error is returned wrapped, and an event that
// is too large yields an error wrapping [ErrEventTooLarge]. Once Next has
// returned an error, it returns the same error on every later call.
//
// The returned [Event.Data] is valid only until the next call to Next.
func (d *Decoder) Next() (Event, error) {
	if d.err != nil {
		return Event{}, d.err
	}
	if cap(d.data) > keepData {
		d.data = nil
	}
	for {
		if !d.bomDone {
			b := d.buf[d.r:d.w]
			if len(b) < len(bom) && bytes.HasPrefix(bom, b) && d.rerr == nil {
				d.fill()
				continue
			}
			if bytes.HasPrefix(b, bom) {
				d.r += len(bom)
			}
			d.bomDone = true
		}
		if d.r < d.w {
			ok, err := d.decode()
			if err != nil {
				d.err = err
				return Event{}, err
			}
			if ok {
				return d.ev, nil
			}
			continue
		}
		if d.rerr != nil {
			d.err = d.endErr()
			return Event{}, d.err
		}
		d.fill()
	}
}

// fill reads once from the reader, appending to the unread bytes.
func (d *Decoder) fill() {
	if d.r == d.w {
		d.r, d.w, d.lfScan = 0, 0, 0
	}
	n, err := d.rd.Read(d.buf[d.w:])
	if n < 0 || n > len(d.buf)-d.w {
		d.rerr = fmt.Errorf("sse: reader returned invalid count %d", n)
		return
	}
	d.w += n
	switch {
	case err != nil:
		d.rerr = err
	case n > 0:
		d.empty = 0
	default:
		d.empty++
		if d.empty >= maxEmptyReads {
			d.rerr = io.ErrNoProgress
		}
	}
}

// endErr returns the error that ends the stream once all bytes read before
// the reader's error have been decoded.
func (d *Decoder) endErr() error {
	if d.rerr != io.EOF {
		return fmt.Errorf("sse: reading stream: %w", d.rerr)
	}
	if d.pending || d.inLine {
		return fmt.Errorf("sse: stream ended in the middle of an event: %w", io.ErrUnexpectedEOF)
	}
	return io.EOF
}

// decode consumes buffered bytes line by line until it dispatches an event
// into d.ev (ok is true) or the buffer is empty.
func (d *Decoder) decode() (ok bool, err error) {
	if d.skipLF {
		d.skipLF = false
		if d.buf[d.r] == '\n' {
			d.r++
		}
	}
	for d.r < d.w {
		// Find the next LF, starting where the previous search stopped.
		lf := max(d.lfScan, d.r)
		if i := bytes.IndexByte(d.buf[lf:d.w], '\n'); i >= 0 {
			lf += i
		} else {
			lf = d.w
		}
		d.lfScan = lf

		end, next := lf, lf+1 // line content ends at end; the next line starts at next
		if i := bytes.IndexByte(d.buf[d.r:lf], '\r'); i >= 0 {
			end = d.r + i
			switch {
			case end+1 == lf && lf < d.w:
				// CRLF.
			case end+1 == d.w:
				// CR at the end of the buffer: an LF may start the next read.
				next = d.w
				d.skipLF = true
			default:
				next = end + 1
			}
		} else if lf == d.w {
			// An incomplete line: take what there is and wait for more.
			err = d.feed(d.buf[d.r:d.w])
			d.r = d.w
			return false, err
		}
		if err = d.feed(d.buf[d.r:end]); err != nil {
			return false, err
		}
		d.r = next
		if ok, err = d.endLine(); ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// feed processes the next bytes of the current line, which contain no line
// terminator.
func (d *Decoder) feed(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	d.inLine = true
	if d.state == inName {
		i := bytes.IndexByte(p, ':')
		if i < 0 {
			d.appendName(p)
			return nil
		}
		d.appendName(p[:i])
		if err := d.startValue(); err != nil {
			return err
		}
		d.state = inSpace
		p = p[i+1:]
	}
	if d.state == inSpace {
		if len(p) == 0 {
			return nil
		}
		if p[0] == ' ' {
			p = p[1:]
		}
		d.state = inValue
	}
	return d.appendValue(p)
}

// appendName adds p to the name of the current field.
func (d *Decoder) appendName(p []byte) {
	if d.nameLen < len(d.name) {
		copy(d.name[d.nameLen:], p)
	}
	d.nameLen += len(p)
}

// startValue is called when the name of the current field is complete.
func (d *Decoder) startValue() error {
	d.f = fieldIgnore
	if d.nameLen == 0 {
		d.f = fieldComment
		return nil
	}
	if d.nameLen > len(d.name) {
		return nil
	}
	switch string(d.name[:d.nameLen]) {
	case "data":
		d.f = fieldData
		if d.hasData {
			if err := d.checkSize(1); err != nil {
				return err
			}
			d.data = append(d.data, '\n')
		}
		d.hasData = true
	case "event":
		d.f = fieldEvent
		d.typ = d.typ[:0]
	case "id":
		d.f = fieldID
		d.idVal = d.idVal[:0]
	case "retry":
		d.f = fieldRetry
		d.retryVal, d.retryOK, d.retryDigits = 0, true, false
	}
	return nil
}

// appendValue adds p to the value of the current field.
func (d *Decoder) appendValue(p []byte) error {
	switch d.f {
	case fieldData:
		if err := d.checkSize(len(p)); err != nil {
			return err
		}
		d.data = append(d.data, p...)
	case fieldEvent:
		if err := d.checkSize(len(p)); err != nil {
			return err
		}
		d.typ = append(d.typ, p...)
	case fieldID:
		if err := d.checkSize(len(p)); err != nil {
			return err
		}
		d.idVal = append(d.idVal, p...)
	case fieldRetry:
		for _, c := range p {
			if !d.retryOK {
				break
			}
			if c < '0' || c > '9' || d.retryVal > (math.MaxInt-int(c-'0'))/10 {
				d.retryOK = false
				break
			}
			d.retryVal = d.retryVal*10 + int(c-'0')
			d.retryDigits = true
		}
	}
	return nil
}

// checkSize reports an error if adding n bytes to the event would exceed the
// maximum event size.
func (d *Decoder) checkSize(n int) error {
	if len(d.data)+len(d.typ)+len(d.idVal)+n > d.maxSize {
		return fmt.Errorf("%w: more than %d bytes", ErrEventTooLarge, d.maxSize)
	}
	return nil
}

// endLine processes the end of a line. At a blank line it reports whether it
// dispatched an event into d.ev.
func (d *Decoder) endLine() (bool, error) {
	if !d.inLine {
		return d.dispatch(), nil
	}
	if d.state == inName {
		// No colon: the whole line is the field name and the value is empty.
		if err := d.startValue(); err != nil {
			return false, err
		}
	}
	switch d.f {
	case fieldID:
		if bytes.IndexByte(d.idVal, 0) < 0 {
			d.lastID = append(d.lastID[:0], d.idVal...)
			d.idDirty = true
		}
		d.idVal = d.idVal[:0]
	case fieldRetry:
		if d.retryOK && d.retryDigits {
			d.retry = d.retryVal
		}
	}
	if d.f != fieldComment {
		d.pending = true
	}
	d.state, d.inLine, d.f, d.nameLen = inName, false, fieldIgnore, 0
	return false, nil
}

// dispatch handles a blank line. It reports whether it dispatched an event
// into d.ev.
func (d *Decoder) dispatch() bool {
	d.pending = false
	if d.idDirty {
		if string(d.lastID) != d.lastIDStr { // compared without allocating
			d.lastIDStr = string(d.lastID)
		}
		d.idDirty = false
	}
	if !d.hasData {
		d.typ = d.typ[:0]
		return false
	}
	d.ev = Event{
		Type:  d.eventType(),
		Data:  d.data,
		ID:    d.lastIDStr,
		Retry: d.retry,
	}
	d.data = d.data[:0]
	d.typ = d.typ[:0]
	d.hasData = false
	return true
}

// eventType returns the event type buffer as a string, without allocating
// for the common types.
func (d *Decoder) eventType() string {
	switch string(d.typ) {
	case "":
		return "message"
	case "message":
		return "message"
	case "message_start":
		return "message_start"
	case "message_delta":
		return "message_delta"
	case "message_stop":
		return "message_stop"
	case "content_block_start":
		return "content_block_start"
	case "content_block_delta":
		return "content_block_delta"
	case "content_block_stop":
		return "content_block_stop"
	case "ping":
		return "ping"
	case "error":
		return "error"
	}
	if s, ok := d.types[string(d.typ)]; ok {
		return s
	}
	s := string(d.typ)
	if d.types == nil {
		d.types = make(map[string]string)
	}
	if len(d.types) < maxTypeCache {
		d.types[s] = s
	}
	return s
}
