package bedrock

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mms-sdk/mms-go/platform"

	"github.com/aws/aws-sdk-go-v2/aws/protocol/eventstream"
)

// Frame limits of the EventStream encoding (a frame's prelude is 12 bytes,
// its trailing CRC 4). Checked before decoding, so a damaged length cannot
// make the decoder buffer a whole response looking for a frame's end.
const (
	preludeLen     = 12
	frameOverhead  = preludeLen + 4
	maxHeadersLen  = 128 << 10
	maxPayloadLen  = 16 << 20
	eventChunk     = "chunk"
	messageEvent   = "event"
	messageExcept  = "exception"
	messageError   = "error"
	sseErrorEvent  = "error"
	headerMsgType  = ":message-type"
	headerEvtType  = ":event-type"
	headerExcType  = ":exception-type"
	headerErrCode  = ":error-code"
	headerErrMsg   = ":error-message"
	damagedMessage = "bedrock: the event stream is damaged"
)

// eventStreamReader reads InvokeModelWithResponseStream's EventStream
// frames, decoded and CRC-checked by the AWS SDK's decoder, as the
// service's server-sent events: each chunk's payload is one service event.
// An exception or error frame becomes an SSE error event, after which the
// stream ends; a truncated or corrupted frame ends it with a read error,
// after every frame before it was delivered.
type eventStreamReader struct {
	src     *bufio.Reader
	body    io.Closer
	dec     *eventstream.Decoder
	payload []byte
	out     bytes.Buffer // translated events not yet read
	err     error        // sticky: io.EOF at the end, or the damage
}

func newEventStreamReader(body io.ReadCloser) *eventStreamReader {
	return &eventStreamReader{src: bufio.NewReader(body), body: body, dec: eventstream.NewDecoder()}
}

func (r *eventStreamReader) Read(p []byte) (int, error) {
	for r.out.Len() == 0 {
		if r.err != nil {
			return 0, r.err
		}
		r.err = r.next()
	}
	return r.out.Read(p)
}

func (r *eventStreamReader) Close() error { return r.body.Close() }

// next translates one frame into r.out. It returns io.EOF after the last
// frame or an exception, an error for a damaged stream.
func (r *eventStreamReader) next() error {
	prelude, err := r.src.Peek(preludeLen)
	if len(prelude) == 0 && errors.Is(err, io.EOF) {
		return io.EOF // the end, between frames
	}
	if err != nil {
		return fmt.Errorf("%s: a frame's prelude: %w", damagedMessage, unexpected(err))
	}
	total := uint64(binary.BigEndian.Uint32(prelude[0:4]))
	headers := uint64(binary.BigEndian.Uint32(prelude[4:8]))
	if headers > maxHeadersLen || total < headers+frameOverhead || total-headers-frameOverhead > maxPayloadLen {
		return fmt.Errorf("%s: a frame declares %d bytes with %d of headers", damagedMessage, total, headers)
	}
	msg, err := r.dec.Decode(r.src, r.payload[:0])
	if err != nil {
		return fmt.Errorf("%s: %w", damagedMessage, unexpected(err))
	}
	r.payload = msg.Payload
	switch kind := header(msg, headerMsgType); kind {
	case messageEvent:
		if header(msg, headerEvtType) != eventChunk {
			return nil // an event the service does not send as a chunk carries none of its events
		}
		return r.chunk(msg.Payload)
	case messageExcept:
		var body struct {
			Message string `json:"message"`
		}
		name := header(msg, headerExcType)
		if err := json.Unmarshal(msg.Payload, &body); err != nil || body.Message == "" {
			body.Message = name // the exception's name says what happened
		}
		r.writeEvent(sseErrorEvent, platform.ErrorBody(errorType(name, 0), body.Message))
		return io.EOF
	case messageError:
		code := header(msg, headerErrCode)
		text := header(msg, headerErrMsg)
		if text == "" {
			text = code
		}
		r.writeEvent(sseErrorEvent, platform.ErrorBody(errorType(code, 0), text))
		return io.EOF
	default:
		return fmt.Errorf("%s: a frame of unknown message type %q", damagedMessage, kind)
	}
}

// chunk writes the service event a chunk carries: base64 JSON in "bytes".
func (r *eventStreamReader) chunk(payload []byte) error {
	var c struct {
		Bytes []byte `json:"bytes"`
	}
	if err := json.Unmarshal(payload, &c); err != nil {
		return fmt.Errorf("%s: a chunk's payload: %w", damagedMessage, err)
	}
	var ev struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(c.Bytes, &ev); err != nil {
		return fmt.Errorf("%s: a chunk's event: %w", damagedMessage, err)
	}
	if ev.Type == "" || strings.ContainsAny(ev.Type, "\r\n") {
		return fmt.Errorf("%s: a chunk's event has no usable type", damagedMessage)
	}
	var data bytes.Buffer
	if err := json.Compact(&data, c.Bytes); err != nil { // one SSE data line
		return fmt.Errorf("%s: a chunk's event: %w", damagedMessage, err)
	}
	r.writeEvent(ev.Type, data.Bytes())
	return nil
}

func (r *eventStreamReader) writeEvent(name string, data []byte) {
	r.out.WriteString("event: ")
	r.out.WriteString(name)
	r.out.WriteString("\ndata: ")
	r.out.Write(data)
	r.out.WriteString("\n\n")
}

// header returns a frame header's string value, "" if absent.
func header(m eventstream.Message, name string) string {
	if v := m.Headers.Get(name); v != nil {
		return v.String()
	}
	return ""
}

// unexpected turns an EOF inside a frame into io.ErrUnexpectedEOF.
func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
