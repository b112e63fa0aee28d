package mmstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// Streaming Messages: the reply the non-streaming path gives,
// cut into server-sent events, each flushed as soon as it is written.

// StreamFault breaks matching Messages and session event streams after a
// number of events, to exercise clients' handling of failures after the
// first byte. Every
// event counts, ping included; the event sequence of a request is
// deterministic, so a count names one exact point of the stream. A count of
// 0 disables that behaviour. When several apply at the same count, the
// stall comes first, then the error, then the cut.
type StreamFault struct {
	// Path is a path prefix such as "/v1/messages"; "" matches every stream.
	Path string

	// CutAfterEvents closes the connection after that many events, without
	// ending the chunked body: the client sees an unexpected EOF.
	CutAfterEvents int

	// ErrorAfterEvents sends, after that many events, an "error" event
	// carrying an overloaded_error (the payload the service sends
	// mid-stream) and ends the stream there.
	ErrorAfterEvents int

	// StallAfterEvents waits for Stall after that many events, then goes on.
	// The wait ends early, breaking the connection, if the client cancels or
	// the server closes.
	StallAfterEvents int
	Stall            time.Duration

	// DuplicateEvents writes each stored event of a session stream twice
	// in a row (previews and pings once), as a service that repeats itself.
	DuplicateEvents bool

	// ReplayOnConnect makes a new session stream first re-send up to that
	// many of the most recent stored events, newest first: events repeated,
	// and out of order, across a reconnect.
	ReplayOnConnect int

	// Reorder writes the stored events of a session stream out of stored
	// order, in swapped pairs (e2, e1, e4, e3, …): each stored event waits
	// for the next one, and the stream's last event writes the waiting one
	// first; previews and pings do not wait. With CutAfterEvents the
	// waiting event may never be written on that connection: a client
	// that fills the gap from the newest event it saw loses it.
	Reorder bool

	// Times limits the fault to that many streams; 0 means forever.
	Times int
}

type streamFaultState struct {
	StreamFault
	used int
}

// InjectStreamFault adds f to the server's stream faults. A stream takes the
// first matching fault injected; ClearFaults removes them too.
func (s *Server) InjectStreamFault(f StreamFault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.streamFaults = append(s.streamFaults, &streamFaultState{StreamFault: f})
}

// takeStreamFault consumes one use of the first stream fault matching r.
func (s *Server) takeStreamFault(r *http.Request) StreamFault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, fs := range s.streamFaults {
		if !strings.HasPrefix(r.URL.Path, fs.Path) {
			continue
		}
		fs.used++
		if fs.Times > 0 && fs.used >= fs.Times {
			s.streamFaults = append(s.streamFaults[:i:i], s.streamFaults[i+1:]...)
		}
		return fs.StreamFault
	}
	return StreamFault{}
}

// sseWriter writes events and applies the stream fault.
type sseWriter struct {
	s     *Server
	w     http.ResponseWriter
	r     *http.Request
	fault StreamFault
	sent  int
}

// send writes one event and reports whether the stream goes on.
func (e *sseWriter) send(name string, payload any) bool {
	e.write(name, payload)
	e.sent++
	f := e.fault
	if f.StallAfterEvents == e.sent && !e.s.sleep(e.r, f.Stall) {
		panic(http.ErrAbortHandler)
	}
	if f.ErrorAfterEvents == e.sent {
		type detail struct {
			Details *struct{} `json:"details"`
			Type    string    `json:"type"`
			Message string    `json:"message"`
		}
		e.write("error", struct {
			Type      string `json:"type"`
			Error     detail `json:"error"`
			RequestID string `json:"request_id"`
		}{"error", detail{Type: wire.ErrOverloaded, Message: "Overloaded"}, requestID(e.r)})
		return false
	}
	if f.CutAfterEvents == e.sent {
		panic(http.ErrAbortHandler) // the server drops the connection mid-body
	}
	return true
}

func (e *sseWriter) write(name string, payload any) {
	fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", name, encodeJSON(payload))
	_ = http.NewResponseController(e.w).Flush() // a failed flush means the client is gone
}

type typeOnly struct {
	Type string `json:"type"`
}

type blockEvent struct {
	Type         string `json:"type"`
	Index        int    `json:"index"`
	ContentBlock any    `json:"content_block,omitempty"`
	Delta        any    `json:"delta,omitempty"`
}

// streamMessage sends rep as an event stream: message_start, then for each
// block content_block_start, its deltas and content_block_stop, with a ping
// after the first start and between blocks, then message_delta and
// message_stop.
func (s *Server) streamMessage(w http.ResponseWriter, r *http.Request, p *msgParams, rep reply) {
	h := w.Header()
	h.Set(wire.HeaderContentType, "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	e := &sseWriter{s: s, w: w, r: r, fault: s.takeStreamFault(r)}

	msg := rep.message(p)
	final := msg
	msg.Content, msg.StopReason, msg.StopSequence = []any{}, nil, nil
	msg.Usage.OutputTokens = min(1, final.Usage.OutputTokens)
	msg.Usage.OutputTokensDetails = nil
	if !e.send("message_start", struct {
		Type    string      `json:"type"`
		Message messageWire `json:"message"`
	}{"message_start", msg}) {
		return
	}
	if len(rep.blocks) == 0 && !e.send("ping", typeOnly{"ping"}) {
		return
	}
	for i, b := range rep.blocks {
		events := []blockEvent{{Type: "content_block_start", Index: i, ContentBlock: b.wire(true)}}
		for _, d := range b.deltas() {
			events = append(events, blockEvent{Type: "content_block_delta", Index: i, Delta: d})
		}
		events = append(events, blockEvent{Type: "content_block_stop", Index: i})
		for j, ev := range events {
			if !e.send(ev.Type, ev) {
				return
			}
			pingAfter := i == 0 && j == 0 || j == len(events)-1 && i+1 < len(rep.blocks)
			if pingAfter && !e.send("ping", typeOnly{"ping"}) {
				return
			}
		}
	}
	type deltaUsage struct {
		InputTokens              int                `json:"input_tokens"`
		CacheCreationInputTokens int                `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int                `json:"cache_read_input_tokens"`
		OutputTokens             int                `json:"output_tokens"`
		OutputTokensDetails      *outputDetailsWire `json:"output_tokens_details,omitempty"`
		Iterations               []any              `json:"iterations,omitempty"`
	}
	type delta struct {
		StopReason   *string        `json:"stop_reason"`
		StopSequence *string        `json:"stop_sequence"`
		StopDetails  *struct{}      `json:"stop_details"`
		Container    *containerWire `json:"container,omitempty"`
	}
	u := final.Usage
	if e.send("message_delta", struct {
		Type  string     `json:"type"`
		Delta delta      `json:"delta"`
		Usage deltaUsage `json:"usage"`
	}{"message_delta", delta{StopReason: final.StopReason, StopSequence: final.StopSequence, Container: final.Container},
		deltaUsage{u.InputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens, u.OutputTokens, u.OutputTokensDetails, u.Iterations}}) {
		e.send("message_stop", typeOnly{"message_stop"})
	}
}

// deltaSizes are the sizes, in characters, of successive deltas: small and
// uneven, like the service's, and fixed, so streams are deterministic.
var deltaSizes = []int{4, 7, 3, 9, 5}

// chunks cuts s into pieces of deltaSizes characters.
func chunks(s string) []string {
	var out []string
	for i := 0; s != ""; i++ {
		n, size := 0, deltaSizes[i%len(deltaSizes)]
		for k := 0; k < size && n < len(s); k++ {
			_, w := utf8.DecodeRuneInString(s[n:])
			n += w
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// deltas returns the content_block_delta payloads that build the block
// from its initial form.
func (b replyBlock) deltas() []any {
	type textDelta struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	type thinkingDelta struct {
		Type     string `json:"type"`
		Thinking string `json:"thinking"`
	}
	type signatureDelta struct {
		Type      string `json:"type"`
		Signature string `json:"signature"`
	}
	type inputDelta struct {
		Type        string `json:"type"`
		PartialJSON string `json:"partial_json"`
	}
	type citationsDelta struct {
		Type     string          `json:"type"`
		Citation json.RawMessage `json:"citation"`
	}
	var out []any
	switch b.typ {
	case "text":
		for _, c := range b.citations {
			out = append(out, citationsDelta{"citations_delta", c})
		}
		for _, c := range chunks(b.text) {
			out = append(out, textDelta{"text_delta", c})
		}
	case "thinking":
		for _, c := range chunks(b.text) {
			out = append(out, thinkingDelta{"thinking_delta", c})
		}
		out = append(out, signatureDelta{"signature_delta", b.signature})
	case "compaction":
		out = append(out, compactionDelta{Type: "compaction_delta", Content: b.text})
	case "tool_use", "server_tool_use":
		out = append(out, inputDelta{"input_json_delta", ""}) // the service opens with an empty fragment
		for _, c := range chunks(string(b.input)) {
			out = append(out, inputDelta{"input_json_delta", c})
		}
	}
	return out
}
