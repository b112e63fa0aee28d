package sse

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// msg returns an event of type "message" with the given data.
func msg(data string) testEvent { return testEvent{Type: "message", Data: data} }

var decodeTests = []struct {
	name string
	in   string
	want result
}{
	// Line endings.
	{"LF", "event: a\ndata: x\n\n", result{[]testEvent{{Type: "a", Data: "x"}}, endEOF}},
	{"CRLF", "event: a\r\ndata: x\r\n\r\n", result{[]testEvent{{Type: "a", Data: "x"}}, endEOF}},
	{"CR", "event: a\rdata: x\r\r", result{[]testEvent{{Type: "a", Data: "x"}}, endEOF}},
	{"mixed", "data: a\rdata: b\r\ndata: c\n\r\n", result{[]testEvent{msg("a\nb\nc")}, endEOF}},
	{"CR then LF is one line end", "data: a\r\ndata: b\r\n\r\n", result{[]testEvent{msg("a\nb")}, endEOF}},
	{"LF then CR is two line ends", "data: a\n\rdata: b\n\n", result{[]testEvent{msg("a"), msg("b")}, endEOF}},
	{"CR at end of stream", "data: a\r\r", result{[]testEvent{msg("a")}, endEOF}},
	{"CRCR LF", "data: a\r\r\ndata: b\n\n", result{[]testEvent{msg("a"), msg("b")}, endEOF}},

	// Byte order mark.
	{"BOM", "\xEF\xBB\xBFdata: x\n\n", result{[]testEvent{msg("x")}, endEOF}},
	{"BOM only", "\xEF\xBB\xBF", result{nil, endEOF}},
	{"two BOMs", "\xEF\xBB\xBF\xEF\xBB\xBFdata: x\n\n", result{nil, endEOF}},
	{"BOM later", "data: x\n\n\xEF\xBB\xBFdata: y\n\n", result{[]testEvent{msg("x")}, endEOF}},
	{"partial BOM", "\xEF\xBB", result{nil, endTruncated}},
	{"partial BOM then line", "\xEF\xBBdata: x\n\n", result{nil, endEOF}},
	{"BOM in data", "data: \xEF\xBB\xBF\n\n", result{[]testEvent{msg("\xEF\xBB\xBF")}, endEOF}},

	// Optional space.
	{"no space", "data:x\n\n", result{[]testEvent{msg("x")}, endEOF}},
	{"two spaces", "data:  x\n\n", result{[]testEvent{msg(" x")}, endEOF}},
	{"trailing space", "data: x \n\n", result{[]testEvent{msg("x ")}, endEOF}},
	{"tab not stripped", "data:\tx\n\n", result{[]testEvent{msg("\tx")}, endEOF}},
	{"space only", "data: \n\n", result{[]testEvent{msg("")}, endEOF}},
	{"event two spaces", "event:  t\ndata: x\n\n", result{[]testEvent{{Type: " t", Data: "x"}}, endEOF}},
	{"space before colon", "data : x\n\n", result{nil, endEOF}},
	{"colon in value", "data: a:b: c\n\n", result{[]testEvent{msg("a:b: c")}, endEOF}},

	// Data.
	{"multi-line data", "data: a\ndata: b\ndata: c\n\n", result{[]testEvent{msg("a\nb\nc")}, endEOF}},
	{"empty data line", "data:\n\n", result{[]testEvent{msg("")}, endEOF}},
	{"two empty data lines", "data\ndata\n\n", result{[]testEvent{msg("\n")}, endEOF}},
	{"data then empty data", "data: a\ndata:\n\n", result{[]testEvent{msg("a\n")}, endEOF}},
	{"NUL in data", "data: a\x00b\n\n", result{[]testEvent{msg("a\x00b")}, endEOF}},
	{"invalid UTF-8 kept", "data: \xff\xfe\n\n", result{[]testEvent{msg("\xff\xfe")}, endEOF}},
	{"JSON", "event: ping\ndata: {\"type\": \"ping\"}\n\n", result{[]testEvent{{Type: "ping", Data: `{"type": "ping"}`}}, endEOF}},
	{"several events", "data: 1\n\ndata: 2\n\n\n\ndata: 3\n\n", result{[]testEvent{msg("1"), msg("2"), msg("3")}, endEOF}},

	// Comments.
	{"comment", ": hello\ndata: x\n\n", result{[]testEvent{msg("x")}, endEOF}},
	{"comment inside event", "data: a\n:c\ndata: b\n\n", result{[]testEvent{msg("a\nb")}, endEOF}},
	{"colon only", ":\n\n", result{nil, endEOF}},
	{"comment-only stream", ": ping\n\n: ping\n", result{nil, endEOF}},
	{"comment with data text", ":data: x\n\n", result{nil, endEOF}},

	// Event type.
	{"default type", "data: x\n\n", result{[]testEvent{msg("x")}, endEOF}},
	{"empty event field", "event:\ndata: x\n\n", result{[]testEvent{msg("x")}, endEOF}},
	{"last event field wins", "event: a\nevent: b\ndata: x\n\n", result{[]testEvent{{Type: "b", Data: "x"}}, endEOF}},
	{"event after data", "data: x\nevent: a\n\n", result{[]testEvent{{Type: "a", Data: "x"}}, endEOF}},
	{"type does not persist", "event: a\ndata: x\n\ndata: y\n\n", result{[]testEvent{{Type: "a", Data: "x"}, msg("y")}, endEOF}},
	{"event named message", "event: message\ndata: x\n\n", result{[]testEvent{msg("x")}, endEOF}},
	{"uncommon type", "event: agent.message\ndata: x\n\nevent: agent.message\ndata: y\n\n", result{[]testEvent{{Type: "agent.message", Data: "x"}, {Type: "agent.message", Data: "y"}}, endEOF}},

	// Empty events are not dispatched, but reset the type.
	{"no data", "event: a\n\ndata: x\n\n", result{[]testEvent{msg("x")}, endEOF}},
	{"only blank lines", "\n\n\r\n\r", result{nil, endEOF}},
	{"empty stream", "", result{nil, endEOF}},

	// id.
	{"id", "id: 1\ndata: x\n\n", result{[]testEvent{{Type: "message", Data: "x", ID: "1"}}, endEOF}},
	{"id persists", "id: 1\ndata: a\n\ndata: b\n\n", result{[]testEvent{{"message", "a", "1", 0}, {"message", "b", "1", 0}}, endEOF}},
	{"id reset by empty id", "id: 1\ndata: a\n\nid\ndata: b\n\n", result{[]testEvent{{"message", "a", "1", 0}, {"message", "b", "", 0}}, endEOF}},
	{"id with NUL ignored", "id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n", result{[]testEvent{{"message", "a", "1", 0}, {"message", "b", "1", 0}}, endEOF}},
	{"id in undispatched event", "id: 7\n\ndata: x\n\n", result{[]testEvent{{"message", "x", "7", 0}}, endEOF}},
	{"last id wins", "id: 1\nid: 2\ndata: x\n\n", result{[]testEvent{{"message", "x", "2", 0}}, endEOF}},
	{"id after data", "data: x\nid: 3\n\n", result{[]testEvent{{"message", "x", "3", 0}}, endEOF}},
	{"id with space", "id:  a b\ndata: x\n\n", result{[]testEvent{{"message", "x", " a b", 0}}, endEOF}},

	// retry.
	{"retry", "retry: 1000\ndata: x\n\n", result{[]testEvent{{"message", "x", "", 1000}}, endEOF}},
	{"retry zero", "retry: 5\nretry: 0\ndata: x\n\n", result{[]testEvent{{"message", "x", "", 0}}, endEOF}},
	{"retry persists", "retry: 7\n\ndata: x\n\n", result{[]testEvent{{"message", "x", "", 7}}, endEOF}},
	{"retry letters", "retry: 5\nretry: 10a\ndata: x\n\n", result{[]testEvent{{"message", "x", "", 5}}, endEOF}},
	{"retry negative", "retry: 5\nretry: -1\ndata: x\n\n", result{[]testEvent{{"message", "x", "", 5}}, endEOF}},
	{"retry decimal", "retry: 5\nretry: 1.5\ndata: x\n\n", result{[]testEvent{{"message", "x", "", 5}}, endEOF}},
	{"retry empty", "retry: 5\nretry:\nretry: \nretry\ndata: x\n\n", result{[]testEvent{{"message", "x", "", 5}}, endEOF}},
	{"retry two spaces", "retry: 5\nretry:  6\ndata: x\n\n", result{[]testEvent{{"message", "x", "", 5}}, endEOF}},
	{"retry overflow", "retry: 5\nretry: 99999999999999999999999\ndata: x\n\n", result{[]testEvent{{"message", "x", "", 5}}, endEOF}},
	{"retry leading zeros", "retry: 0042\ndata: x\n\n", result{[]testEvent{{"message", "x", "", 42}}, endEOF}},

	// Field names.
	{"no colon is a name", "data\n\n", result{[]testEvent{msg("")}, endEOF}},
	{"event without colon", "event: a\nevent\ndata: x\n\n", result{[]testEvent{msg("x")}, endEOF}},
	{"unknown field", "foo: bar\ndata: x\n\n", result{[]testEvent{msg("x")}, endEOF}},
	{"unknown no colon", "foo\ndata: x\n\n", result{[]testEvent{msg("x")}, endEOF}},
	{"names are case-sensitive", "Data: x\nEVENT: y\n\n", result{nil, endEOF}},
	{"long unknown name", "dataevent: x\n\n", result{nil, endEOF}},
	{"name prefix", "dat: x\nevents: y\ndata: z\n\n", result{[]testEvent{msg("z")}, endEOF}},
	{"leading space", " data: x\n\n", result{nil, endEOF}},

	// End of stream.
	{"EOF after field line", "data: x\n", result{nil, endTruncated}},
	{"EOF mid-line", "data: x", result{nil, endTruncated}},
	{"EOF mid-event after events", "data: x\n\ndata: y", result{[]testEvent{msg("x")}, endTruncated}},
	{"EOF after event line", "data: x\n\nevent: a\n", result{[]testEvent{msg("x")}, endTruncated}},
	{"EOF after id line", "data: x\n\nid: 5\n", result{[]testEvent{msg("x")}, endTruncated}},
	{"EOF after one line end", "data: x\n\ndata: y\r", result{[]testEvent{msg("x")}, endTruncated}},
	{"EOF mid-comment", "data: x\n\n: pi", result{[]testEvent{msg("x")}, endTruncated}},
	{"EOF after comment line", "data: x\n\n: ping\n", result{[]testEvent{msg("x")}, endEOF}},
}

func TestDecoder(t *testing.T) {
	for _, tt := range decodeTests {
		t.Run(tt.name, func(t *testing.T) {
			in := []byte(tt.in)
			if diff := cmp.Diff(tt.want, refDecode(in)); diff != "" {
				t.Errorf("reference decoder disagrees with the table (-want +got):\n%s", diff)
			}
			rs := readers(in)
			for name, r := range splitReaders(in) {
				rs[name] = r
			}
			for name, r := range rs {
				got, _ := decodeAll(r(), 0)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("%s reader (-want +got):\n%s", name, diff)
				}
			}
		})
	}
}

func TestCRSplitAcrossReads(t *testing.T) {
	// A CR ends one read and the LF that completes the CRLF starts the next:
	// the LF must not be taken for a blank line.
	r := &chunkReader{chunks: [][]byte{
		[]byte("data: a\r"), []byte("\ndata: b\r"), []byte("\n"), []byte("\r"), []byte("\n"),
		[]byte("data: c\r"), []byte("\r"), []byte("\n"), []byte("data: d\n\n"),
	}}
	got, _ := decodeAll(r, 0)
	want := result{[]testEvent{msg("a\nb"), msg("c"), msg("d")}, endEOF}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestDispatchWithoutWaiting(t *testing.T) {
	// An event ending in a lone CR at the end of a read is dispatched at
	// once: the decoder must not block waiting to see whether an LF follows.
	pr, pw := io.Pipe()
	d := NewDecoder(pr)
	go func() { _, _ = pw.Write([]byte("data: x\r\r")) }()
	ev, err := d.Next()
	noErr(t, err)
	equal(t, "x", string(ev.Data))
	go func() { _, _ = pw.Write([]byte("\ndata: y\n\n")) }()
	ev, err = d.Next()
	noErr(t, err)
	equal(t, "y", string(ev.Data))
	noErr(t, pw.Close())
	_, err = d.Next()
	equal(t, io.EOF, err)
}

func TestHugeLine(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 1<<20) // 16 MiB
	in := []byte("event: big\ndata: " + big + "\n: " + big + "\nfoo: " + big + "\nx" + big + "\n\ndata: after\n\n")
	for name, r := range map[string]io.Reader{
		"whole": bytes.NewReader(in),
		"half":  iotest.HalfReader(bytes.NewReader(in)),
	} {
		t.Run(name, func(t *testing.T) {
			d := NewDecoder(r)
			ev, err := d.Next()
			noErr(t, err)
			equal(t, "big", ev.Type)
			if string(ev.Data) != big {
				t.Fatal("data of the 16 MiB line differs")
			}
			ev, err = d.Next()
			noErr(t, err)
			equal(t, "after", string(ev.Data))
			_, err = d.Next()
			equal(t, io.EOF, err)
		})
	}
}

func TestMaxEventSize(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want result
	}{
		{"at limit", "data: 0123456789\n\n", result{[]testEvent{msg("0123456789")}, endEOF}},
		{"over limit", "data: 0123456789A\n\n", result{nil, endTooLarge}},
		{"data lines and separators", "data: 01234\ndata: 5678\n\n", result{[]testEvent{msg("01234\n5678")}, endEOF}},
		{"separator over limit", "data: 01234\ndata: 56789\n\n", result{nil, endTooLarge}},
		{"no-colon data over limit", "data: 0123456789\ndata\n\n", result{nil, endTooLarge}},
		{"type counts", "event: abcde\ndata: 012345\n\n", result{nil, endTooLarge}},
		{"long id", "id: 0123456789A\ndata: x\n\n", result{nil, endTooLarge}},
		{"id counts while it is read", "data: 012345\nid: abcde\n\n", result{nil, endTooLarge}},
		{"stored id does not count", "id: abcde\ndata: 012345\n\n", result{[]testEvent{{"message", "012345", "abcde", 0}}, endEOF}},
		{"limit is per event", "data: 0123456789\n\ndata: 0123456789\n\n", result{[]testEvent{msg("0123456789"), msg("0123456789")}, endEOF}},
		{"events before the error", "data: a\n\ndata: 0123456789A\n\ndata: b\n\n", result{[]testEvent{msg("a")}, endTooLarge}},
		{"comments do not count", ": " + strings.Repeat("c", 100) + "\ndata: x\n\n", result{[]testEvent{msg("x")}, endEOF}},
		{"ignored fields do not count", "foo: " + strings.Repeat("c", 100) + "\ndata: x\n\n", result{[]testEvent{msg("x")}, endEOF}},
		{"huge retry", "retry: " + strings.Repeat("1", 100) + "\ndata: x\n\n", result{[]testEvent{msg("x")}, endEOF}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for name, r := range readers([]byte(tt.in)) {
				got, _ := decodeAll(r(), 10)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("%s reader (-want +got):\n%s", name, diff)
				}
			}
		})
	}

	t.Run("error", func(t *testing.T) {
		d := NewDecoder(strings.NewReader("data: 0123456789A\n\n"))
		d.SetMaxEventSize(10)
		_, err := d.Next()
		errIs(t, err, ErrEventTooLarge)
		if !strings.Contains(err.Error(), "10 bytes") {
			t.Errorf("error %q does not name the limit", err)
		}
		_, err2 := d.Next()
		equal(t, err, err2, "the error is sticky")
	})

	t.Run("default", func(t *testing.T) {
		d := NewDecoder(strings.NewReader(""))
		equal(t, DefaultMaxEventSize, d.maxSize)
		d.SetMaxEventSize(5)
		d.SetMaxEventSize(0)
		equal(t, DefaultMaxEventSize, d.maxSize)
	})

	t.Run("huge line over limit", func(t *testing.T) {
		// The decoder fails as soon as the limit is passed, without
		// reading the rest of the line.
		r := io.MultiReader(strings.NewReader("data: "), neverEnding('x'))
		d := NewDecoder(r)
		d.SetMaxEventSize(1 << 20)
		_, err := d.Next()
		errIs(t, err, ErrEventTooLarge)
	})
}

// neverEnding is an endless stream of one byte.
type neverEnding byte

func (b neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

func TestReadErrors(t *testing.T) {
	boom := errors.New("boom")

	t.Run("wrapped", func(t *testing.T) {
		r := io.MultiReader(strings.NewReader("data: a\n\ndata: b\n"), iotest.ErrReader(boom))
		d := NewDecoder(r)
		ev, err := d.Next()
		noErr(t, err)
		equal(t, "a", string(ev.Data))
		_, err = d.Next()
		errIs(t, err, boom)
		if err == boom {
			t.Error("the error is not wrapped")
		}
		_, err2 := d.Next()
		equal(t, err, err2, "the error is sticky")
	})

	t.Run("data with error", func(t *testing.T) {
		// Bytes returned together with an error are decoded first.
		d := NewDecoder(&dataErr{data: []byte("data: a\n\n"), err: boom})
		ev, err := d.Next()
		noErr(t, err)
		equal(t, "a", string(ev.Data))
		_, err = d.Next()
		errIs(t, err, boom)
	})

	t.Run("unexpected EOF from reader", func(t *testing.T) {
		d := NewDecoder(iotest.ErrReader(io.ErrUnexpectedEOF))
		_, err := d.Next()
		errIs(t, err, io.ErrUnexpectedEOF)
	})

	t.Run("no progress", func(t *testing.T) {
		d := NewDecoder(emptyReader{})
		_, err := d.Next()
		errIs(t, err, io.ErrNoProgress)
	})

	t.Run("clean EOF is io.EOF", func(t *testing.T) {
		d := NewDecoder(strings.NewReader("data: a\n\n"))
		_, err := d.Next()
		noErr(t, err)
		_, err = d.Next()
		equal(t, io.EOF, err)
		_, err = d.Next()
		equal(t, io.EOF, err)
	})
}

// dataErr returns data and err from one Read.
type dataErr struct {
	data []byte
	err  error
}

func (r *dataErr) Read(p []byte) (int, error) {
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, r.err
}

// emptyReader returns (0, nil) forever.
type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

func TestStreamState(t *testing.T) {
	d := NewDecoder(strings.NewReader("retry: 2500\nid: 9\n\nid: 10\n"))
	_, err := d.Next()
	errIs(t, err, io.ErrUnexpectedEOF)
	equal(t, "9", d.LastEventID(), "an id in an unfinished event does not count")
	equal(t, 2500, d.Retry())
}

func TestDataReuse(t *testing.T) {
	// Data is valid until the next call to Next, and the buffer is reused.
	d := NewDecoder(strings.NewReader("data: first\n\ndata: other\n\n"))
	ev1, err := d.Next()
	noErr(t, err)
	equal(t, "first", string(ev1.Data))
	ev2, err := d.Next()
	noErr(t, err)
	equal(t, "other", string(ev2.Data))
	equal(t, &ev1.Data[0], &ev2.Data[0], "the data buffer is reused")
}

// repeatReader returns the same stream forever.
type repeatReader struct {
	b   []byte
	off int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := copy(p, r.b[r.off:])
	r.off = (r.off + n) % len(r.b)
	return n, nil
}

func TestAllocs(t *testing.T) {
	stream := []byte("event: message_start\ndata: {\"type\":\"message_start\"}\n\n" +
		"event: content_block_delta\r\ndata: {\"type\":\"content_block_delta\",\r\ndata: \"x\":1}\r\n\r\n" +
		": keep-alive\n" +
		"event: ping\rdata: {\"type\": \"ping\"}\r\r" +
		"event: agent.message\ndata: {}\n\n" +
		"id: 1\nretry: 10\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	d := NewDecoder(&repeatReader{b: stream})
	for range 100 { // warm up buffers and the type cache
		if _, err := d.Next(); err != nil {
			t.Fatal(err)
		}
	}
	allocs := testing.AllocsPerRun(1000, func() {
		if _, err := d.Next(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("Next allocates %v times per event in steady state, want 0", allocs)
	}
}
