package sse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"testing"
	"testing/iotest"
)

// testEvent is an Event with its data copied, for comparisons.
type testEvent struct {
	Type  string
	Data  string
	ID    string
	Retry int
}

// result is everything a decoder produced for one stream.
type result struct {
	Events []testEvent
	End    string // see endKind
}

// Kinds of stream end reported in result.End.
const (
	endEOF       = "EOF"
	endTruncated = "truncated"
	endTooLarge  = "too large"
)

// endKind classifies the error that ended a stream.
func endKind(err error) string {
	switch {
	case err == io.EOF:
		return endEOF
	case errors.Is(err, io.ErrUnexpectedEOF):
		return endTruncated
	case errors.Is(err, ErrEventTooLarge):
		return endTooLarge
	default:
		return err.Error()
	}
}

// decodeAll decodes r to the end. maxSize 0 keeps the default limit.
func decodeAll(r io.Reader, maxSize int) (result, *Decoder) {
	d := NewDecoder(r)
	if maxSize > 0 {
		d.SetMaxEventSize(maxSize)
	}
	var res result
	for {
		ev, err := d.Next()
		if err != nil {
			res.End = endKind(err)
			return res, d
		}
		res.Events = append(res.Events, testEvent{ev.Type, string(ev.Data), ev.ID, ev.Retry})
	}
}

// chunkReader returns its chunks one Read at a time.
type chunkReader struct {
	chunks [][]byte
}

func (c *chunkReader) Read(p []byte) (int, error) {
	for len(c.chunks) > 0 && len(c.chunks[0]) == 0 {
		c.chunks = c.chunks[1:]
	}
	if len(c.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.chunks[0])
	c.chunks[0] = c.chunks[0][n:]
	return n, nil
}

// readers returns differently chunked readers over in, keyed by a name.
func readers(in []byte) map[string]func() io.Reader {
	return map[string]func() io.Reader{
		"whole":    func() io.Reader { return bytes.NewReader(in) },
		"one-byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(in)) },
		"half":     func() io.Reader { return iotest.HalfReader(bytes.NewReader(in)) },
		"data-err": func() io.Reader { return iotest.DataErrReader(bytes.NewReader(in)) },
	}
}

// splitReaders returns, for every split point, a reader that returns in as
// two reads split there.
func splitReaders(in []byte) map[string]func() io.Reader {
	m := make(map[string]func() io.Reader)
	for i := 0; i <= len(in); i++ {
		m["split-"+strconv.Itoa(i)] = func() io.Reader {
			return &chunkReader{chunks: [][]byte{in[:i:i], in[i:]}}
		}
	}
	return m
}

// refDecode is a literal transcription of the WHATWG event stream
// interpretation, used as an oracle. It ignores the maximum event size.
func refDecode(in []byte) result {
	in = bytes.TrimPrefix(in, bom)
	var lines []string
	for len(in) > 0 {
		i := bytes.IndexAny(in, "\r\n")
		if i < 0 {
			break // an unterminated last line is not a line
		}
		lines = append(lines, string(in[:i]))
		if in[i] == '\r' && i+1 < len(in) && in[i+1] == '\n' {
			i++
		}
		in = in[i+1:]
	}
	truncated := len(in) > 0

	var (
		res                   result
		data, typ, idBuf, lid string
		retry                 int
		pending               bool
	)
	for _, line := range lines {
		if line == "" {
			pending = false
			lid = idBuf
			if data == "" {
				typ = ""
				continue
			}
			ev := testEvent{Type: "message", Data: data[:len(data)-1], ID: lid, Retry: retry}
			if typ != "" {
				ev.Type = typ
			}
			res.Events = append(res.Events, ev)
			data, typ = "", ""
			continue
		}
		if line[0] == ':' {
			continue
		}
		pending = true
		name, value := line, ""
		if i := bytes.IndexByte([]byte(line), ':'); i >= 0 {
			name, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch name {
		case "event":
			typ = value
		case "data":
			data += value + "\n"
		case "id":
			if !bytes.Contains([]byte(value), []byte{0}) {
				idBuf = value
			}
		case "retry":
			digits := value != ""
			for _, c := range []byte(value) {
				if c < '0' || c > '9' {
					digits = false
				}
			}
			if n, err := strconv.Atoi(value); digits && err == nil {
				retry = n
			}
		}
	}
	res.End = endEOF
	if pending || truncated {
		res.End = endTruncated
	}
	return res
}

// noErr fails the test if err is not nil.
func noErr(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

// equal fails the test if got is not want.
func equal[T comparable](t *testing.T, want, got T, msg ...any) {
	t.Helper()
	if got != want {
		t.Fatalf("got %#v, want %#v %s", got, want, fmt.Sprint(msg...))
	}
}

// errIs fails the test if err does not match target.
func errIs(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("got error %v, want %v", err, target)
	}
}
