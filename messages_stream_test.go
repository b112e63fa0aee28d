package mms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ---------------------------------------------------------------------------
// helpers

// streamFake starts mmstest and a client on it.
func streamFake(t *testing.T, opts ...option.RequestOption) (*Client, *mmstest.Server) {
	t.Helper()
	srv := mmstest.NewServer()
	t.Cleanup(srv.Close)
	base := []option.RequestOption{option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL), option.WithMaxRetries(0)}
	c, err := NewClient(append(base, opts...)...)
	require.NoError(t, err)
	return c, srv
}

// streamParams is a small valid request.
func streamParams(prompt string) MessageCreateParams {
	return MessageCreateParams{Model: "mms-large-1", MaxTokens: 256, Messages: []MessageParam{UserText(prompt)}}
}

var streamLookupTool = CustomTool{
	Name:        "lookup",
	InputSchema: InputSchema(`{"type":"object","properties":{"q":{"type":"string"},"n":{"type":"integer"}},"required":["q","n"]}`),
}

// collect ranges over a stream, adding every event to an accumulator, and
// returns the events, the accumulator and the stream's error (an Add error
// fails the test).
func collect(t *testing.T, seq func(func(MessageStreamEvent, error) bool)) ([]MessageStreamEvent, *MessageAccumulator, error) {
	t.Helper()
	var events []MessageStreamEvent
	acc := &MessageAccumulator{}
	for ev, err := range seq {
		if err != nil {
			return events, acc, err
		}
		events = append(events, ev)
		if err := acc.Add(ev); err != nil {
			t.Fatalf("Add(%s): %v", eventName(ev), err)
		}
	}
	return events, acc, nil
}

// noLeaks checks, when the test and its cleanups are done, that no
// goroutine started during the test is left.
func noLeaks(t *testing.T) {
	t.Helper()
	opt := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, opt) })
}

// sseServer is an httptest server with a scripted SSE handler and a count of
// its connections by state.
type sseServer struct {
	*httptest.Server
	client *Client

	mu    sync.Mutex
	conns map[net.Conn]http.ConnState
}

// newSSEServer starts handler on a server, and a client on it with its own
// HTTP transport (closed when the test ends).
func newSSEServer(t *testing.T, handler http.HandlerFunc, opts ...option.RequestOption) *sseServer {
	t.Helper()
	s := &sseServer{conns: map[net.Conn]http.ConnState{}}
	s.Server = httptest.NewUnstartedServer(handler)
	s.Config.ConnState = func(c net.Conn, st http.ConnState) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if st == http.StateClosed || st == http.StateHijacked {
			delete(s.conns, c)
			return
		}
		s.conns[c] = st
	}
	s.Start()
	t.Cleanup(s.Close)
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	base := []option.RequestOption{option.WithAPIKey("k"), option.WithBaseURL(s.URL), option.WithMaxRetries(0),
		option.WithHTTPClient(&http.Client{Transport: tr})}
	c, err := NewClient(append(base, opts...)...)
	require.NoError(t, err)
	s.client = c
	return s
}

// busy returns the number of connections that are neither idle nor closed.
func (s *sseServer) busy() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, st := range s.conns {
		if st == http.StateNew || st == http.StateActive {
			n++
		}
	}
	return n
}

// waitFor polls cond for up to 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// sseOut writes events to a response.
type sseOut struct {
	w http.ResponseWriter
}

func startSSE(w http.ResponseWriter) sseOut {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Request-Id", "req_header")
	w.WriteHeader(200)
	return sseOut{w}
}

func (o sseOut) raw(s string) {
	io.WriteString(o.w, s)
	http.NewResponseController(o.w).Flush()
}

func (o sseOut) event(name, data string) { o.raw("event: " + name + "\ndata: " + data + "\n\n") }

const (
	sseStart      = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":1,"cache_creation_input_tokens":null,"cache_read_input_tokens":null,"service_tier":"standard"}}}`
	sseBlockStart = `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`
	sseBlockStop  = `{"type":"content_block_stop","index":0}`
	sseMsgDelta   = `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}`
	sseMsgStop    = `{"type":"message_stop"}`
)

func sseText(i int, text string) string {
	return fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"text_delta","text":%q}}`, i, text)
}

// ---------------------------------------------------------------------------
// decoding

func TestStreamEventDecode(t *testing.T) {
	tests := []struct {
		name, event, data string
		want              MessageStreamEvent
	}{
		{"ping with a space", "ping", `{"type": "ping"}`, PingEvent{}},
		{"ping with extra", "ping", `{"type":"ping","seq":7}`, PingEvent{Extra: map[string]json.RawMessage{"seq": json.RawMessage("7")}}},
		{"text delta", "content_block_delta", `{"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"héllo \"q\"\n🎉"}}`,
			ContentBlockDeltaEvent{Index: 2, Delta: TextDelta{Text: "héllo \"q\"\n🎉"}}},
		{"delta event with extra member (slow path)", "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a","x":1},"trace":"t"}`,
			ContentBlockDeltaEvent{Delta: TextDelta{Text: "a", Extra: map[string]json.RawMessage{"x": json.RawMessage("1")}},
				Extra: map[string]json.RawMessage{"trace": json.RawMessage(`"t"`)}}},
		{"input json delta", "content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"q\": \"Os"}}`,
			ContentBlockDeltaEvent{Index: 1, Delta: InputJSONDelta{PartialJSON: `{"q": "Os`}}},
		{"thinking delta with estimate", "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm","estimated_tokens":3}}`,
			ContentBlockDeltaEvent{Delta: ThinkingDelta{Thinking: "hm", EstimatedTokens: Ptr(3)}}},
		{"thinking delta with null estimate", "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm","estimated_tokens":null}}`,
			ContentBlockDeltaEvent{Delta: ThinkingDelta{Thinking: "hm", Extra: map[string]json.RawMessage{"estimated_tokens": json.RawMessage("null")}}}},
		{"signature delta", "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"c2ln"}}`,
			ContentBlockDeltaEvent{Delta: SignatureDelta{Signature: "c2ln"}}},
		{"citations delta", "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{"type":"char_location","cited_text":"x","document_index":0,"document_title":null,"start_char_index":0,"end_char_index":1}}}`,
			nil},
		{"compaction delta", "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"compaction_delta","content":"sum","encrypted_content":null}}`,
			ContentBlockDeltaEvent{Delta: CompactionDelta{Content: Ptr("sum"), Extra: map[string]json.RawMessage{"encrypted_content": json.RawMessage("null")}}}},
		{"unknown delta", "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"sparkle_delta","n":1}}`,
			ContentBlockDeltaEvent{Delta: UnknownDelta{Type: "sparkle_delta", Raw: json.RawMessage(`{"type":"sparkle_delta","n":1}`)}}},
		{"block start", "content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"f","input":{}}}`,
			ContentBlockStartEvent{Index: 1, ContentBlock: ToolUseBlock{ID: "toolu_1", Name: "f", Input: json.RawMessage("{}")}}},
		{"block stop", "content_block_stop", `{"type":"content_block_stop","index":4}`, ContentBlockStopEvent{Index: 4}},
		{"message delta", "message_delta", `{"type":"message_delta","delta":{"stop_reason":"stop_sequence","stop_sequence":"END","stop_details":null,"container":{"id":"c","expires_at":"2026-01-01T00:00:00Z"}},"usage":{"output_tokens":31,"input_tokens":null,"server_tool_use":{"web_search_requests":2}},"context_management":{"applied_edits":[]}}`,
			MessageDeltaEvent{
				Delta: MessageDeltaFields{StopReason: StopReasonStopSequence, StopSequence: Ptr("END"), Container: &Container{ID: "c", ExpiresAt: "2026-01-01T00:00:00Z"},
					Extra: map[string]json.RawMessage{"stop_details": json.RawMessage("null")}},
				Usage: MessageDeltaUsage{OutputTokens: 31, ServerToolUse: &ServerToolUsage{WebSearchRequests: 2},
					Extra: map[string]json.RawMessage{"input_tokens": json.RawMessage("null")}},
				ContextManagement: &ContextManagementResponse{AppliedEdits: AppliedEdits{}},
			}},
		{"message stop", "message_stop", `{"type":"message_stop"}`, MessageStopEvent{}},
		{"unknown event name", "thought_bubble", `{"type":"thought_bubble","x":[1]}`,
			UnknownStreamEvent{Name: "thought_bubble", Data: json.RawMessage(`{"type":"thought_bubble","x":[1]}`)}},
		{"unknown event, not JSON", "comment", `hello`, UnknownStreamEvent{Name: "comment", Data: json.RawMessage(`hello`)}},
		{"known name, other type", "ping", `{"type":"pong"}`, UnknownStreamEvent{Name: "ping", Data: json.RawMessage(`{"type":"pong"}`)}},
		{"known name, no type", "message_stop", `{}`, UnknownStreamEvent{Name: "message_stop", Data: json.RawMessage(`{}`)}},
		{"no event name", "message", `{"type":"message_stop"}`, UnknownStreamEvent{Name: "message", Data: json.RawMessage(`{"type":"message_stop"}`)}},
		// A nested value of a type its position does not allow makes the
		// whole event Unknown, kept as it came.
		{"message of another type", "message_start", `{"type":"message_start","message":{"type":"message_v2","id":"m"}}`,
			UnknownStreamEvent{Name: "message_start", Data: json.RawMessage(`{"type":"message_start","message":{"type":"message_v2","id":"m"}}`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(tt.data)
			got, err := decodeMessageStreamEvent(tt.event, data)
			require.NoError(t, err)
			// The decoder's buffer is reused for the next event: nothing
			// decoded may alias it.
			for i := range data {
				data[i] = 'X'
			}
			if tt.want != nil {
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("decoded (-want +got):\n%s", diff)
				}
			}
			enc, err := json.Marshal(got)
			require.NoError(t, err)
			if u, ok := got.(UnknownStreamEvent); ok && !json.Valid([]byte(tt.data)) {
				if want := fmt.Sprintf("%q", tt.data); string(enc) != want || string(u.Data) != tt.data {
					t.Errorf("encoded %s, want %s", enc, want)
				}
				return
			}
			streamJSONEqual(t, "re-encoded", []byte(tt.data), enc)
		})
	}
}

// TestResponseUnionTables decodes a bare {"type":…} with every entry of the
// stream event, delta and batch result tables, and an unknown type (as
// TestUnionTables does for the content unions).
func TestResponseUnionTables(t *testing.T) {
	t.Run("events", unionTest(messageStreamEventUnion.Types(), messageStreamEventUnion.Decode))
	t.Run("deltas", unionTest(contentBlockDeltaUnion.Types(), contentBlockDeltaUnion.Decode))
	t.Run("batch results", unionTest(batchResultValueUnion.Types(), batchResultValueUnion.Decode))
}

func TestStreamEventDecodeErrors(t *testing.T) {
	tests := []struct{ name, event, data, wantErr string }{
		{"malformed JSON", "content_block_delta", `{"type":"content_block_delta","index":0,"delta":`, "malformed JSON"},
		{"delta without type", "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"text":"a"}}`, `no "type"`},
		{"text not a string", "content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":5}}`, "text"},
		{"index not a number", "content_block_stop", `{"type":"content_block_stop","index":"0"}`, "content_block_stop"},
		{"block without type", "content_block_start", `{"type":"content_block_start","index":0,"content_block":{}}`, "content_block_start"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := decodeMessageStreamEvent(tt.event, []byte(tt.data))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("got %v, %v; want an error containing %q", ev, err, tt.wantErr)
			}
		})
	}
}

// TestStreamEventBlockIndex: a block event whose "index" is null or absent
// is a decode error naming the event and the member (decoded as an int it
// would be block 0), on the delta fast path, its generic path, and
// json.Unmarshal alike; index 0 itself decodes.
func TestStreamEventBlockIndex(t *testing.T) {
	const text = `"delta":{"type":"text_delta","text":"x"}`
	tests := []struct {
		name, event, data string
		wantErr           string // "" for no error
	}{
		{"delta index null", "content_block_delta", `{"type":"content_block_delta","index":null,` + text + `}`, `"index" is null`},
		{"delta index absent", "content_block_delta", `{"type":"content_block_delta",` + text + `}`, `"index" is absent`},
		{"delta index absent, extra member (generic path)", "content_block_delta", `{"type":"content_block_delta",` + text + `,"x":1}`, `"index" is absent`},
		{"delta index null after a number", "content_block_delta", `{"type":"content_block_delta","index":1,` + text + `,"index":null}`, `"index" is null`},
		{"delta index 0", "content_block_delta", `{"type":"content_block_delta","index":0,` + text + `}`, ""},
		{"delta index 0, extra member (generic path)", "content_block_delta", `{"type":"content_block_delta","index":0,` + text + `,"x":1}`, ""},
		{"start index null", "content_block_start", `{"type":"content_block_start","index":null,"content_block":{"type":"text","text":""}}`, `"index" is null`},
		{"start index absent", "content_block_start", `{"type":"content_block_start","content_block":{"type":"text","text":""}}`, `"index" is absent`},
		{"start index 0", "content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`, ""},
		{"stop index null", "content_block_stop", `{"type":"content_block_stop","index":null}`, `"index" is null`},
		{"stop index absent", "content_block_stop", `{"type":"content_block_stop"}`, `"index" is absent`},
		{"stop index 0", "content_block_stop", `{"type":"content_block_stop","index":0}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := decodeMessageStreamEvent(tt.event, []byte(tt.data))
			if tt.wantErr == "" {
				if err != nil || eventName(ev) != tt.event {
					t.Fatalf("got %v, %v", ev, err)
				}
				return
			}
			want := "decoding a " + tt.event + " event: member " + tt.wantErr
			if ev != nil || err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("got %v, %v; want an error containing %q", ev, err, want)
			}
			var direct MessageStreamEvent
			switch tt.event {
			case "content_block_delta":
				direct = &ContentBlockDeltaEvent{}
				if _, err := decodeDeltaEventSlow([]byte(tt.data)); err == nil {
					t.Error("the generic delta decoder accepts it")
				}
			case "content_block_start":
				direct = &ContentBlockStartEvent{}
			default:
				direct = &ContentBlockStopEvent{}
			}
			if err := json.Unmarshal([]byte(tt.data), direct); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("json.Unmarshal into %T = %v", direct, err)
			}
		})
	}
}

func TestStreamErrorEventDecode(t *testing.T) {
	data := `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_p"}`
	ev, err := decodeMessageStreamEvent("error", []byte(data))
	var apiErr *Error
	if ev != nil || !errors.As(err, &apiErr) {
		t.Fatalf("got %v, %v; want an *Error", ev, err)
	}
	want := &Error{StatusCode: 200, Type: "overloaded_error", Message: "Overloaded", RequestID: "req_p", Body: []byte(data)}
	if diff := cmp.Diff(want, apiErr); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !errors.Is(err, ErrOverloaded) {
		t.Error("not ErrOverloaded")
	}
}

func TestStreamBodyFlag(t *testing.T) {
	p := &MessageCreateParams{Model: "m", MaxTokens: 1, Messages: []MessageParam{UserText("hi")}}
	got, err := encodeMessageBody(p, `"stream":true`)
	require.NoError(t, err)
	want := `{"stream":true,"model":"m","max_tokens":1,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// ---------------------------------------------------------------------------
// the request

// TestStreamRequest checks the wire request: the Create body with
// "stream":true spliced in front, the same betas, Accept text/event-stream.
func TestStreamRequest(t *testing.T) {
	c, srv := streamFake(t)
	ctx := context.Background()
	p := streamParams("lookup please")
	p.Tools = Tools{streamLookupTool}
	p.ContextManagement = &ContextManagement{Edits: ContextEdits{ClearThinkingEdit{}}}
	p.Thinking = ThinkingConfigAdaptive{}
	if _, err := c.Messages.Create(ctx, p); err != nil {
		t.Fatal(err)
	}
	if _, _, err := collect(t, c.Messages.Stream(ctx, p)); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	create, stream := reqs[0], reqs[1]
	if want := `{"stream":true,` + string(create.Body[1:]); string(stream.Body) != want {
		t.Errorf("stream body\n%s\nwant\n%s", stream.Body, want)
	}
	if stream.Method != "POST" || stream.Path != "/v1/messages" {
		t.Errorf("%s %s", stream.Method, stream.Path)
	}
	if got := stream.Header.Get("Accept"); got != "text/event-stream" {
		t.Errorf("Accept %q", got)
	}
	if got, want := stream.Header.Get("Vendor-Beta"), create.Header.Get("Vendor-Beta"); got != want || got == "" {
		t.Errorf("betas %q, Create sent %q", got, want)
	}
}

func TestStreamLazyAndSingleUse(t *testing.T) {
	c, srv := streamFake(t)
	seq := c.Messages.Stream(context.Background(), streamParams("hi"))
	time.Sleep(20 * time.Millisecond)
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests before ranging", n)
	}
	if _, acc, err := collect(t, seq); err != nil || !acc.Done() {
		t.Fatalf("first range: %v", err)
	}
	var errs []error
	for ev, err := range seq {
		if ev != nil {
			t.Errorf("second range yielded %T", ev)
		}
		errs = append(errs, err)
	}
	if len(errs) != 1 || !errors.Is(errs[0], errStreamReused) {
		t.Fatalf("second range yielded %v", errs)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
}

func TestStreamValidationSendsNothing(t *testing.T) {
	c, srv := streamFake(t)
	p := streamParams("hi")
	p.MaxTokens = -1
	var errs []error
	for ev, err := range c.Messages.Stream(context.Background(), p) {
		if ev != nil {
			t.Errorf("yielded %T", ev)
		}
		errs = append(errs, err)
	}
	var verr *ValidationError
	if len(errs) != 1 || !errors.As(errs[0], &verr) || verr.Field != "max_tokens" {
		t.Fatalf("yielded %v, want one *ValidationError for max_tokens", errs)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests sent", n)
	}
}

// TestStreamRetriedBeforeStart: an error status before the stream starts
// follows the retry policy.
func TestStreamRetriedBeforeStart(t *testing.T) {
	c, srv := streamFake(t, option.WithMaxRetries(2))
	srv.InjectFault(mmstest.Fault{Path: "/v1/messages", Statuses: []int{529}, RetryAfterMs: "1"})
	var md ResponseMetadata
	_, acc, err := collect(t, c.Messages.Stream(context.Background(), streamParams("hi"), option.WithResponseMetadata(&md)))
	require.NoError(t, err)
	if md.Attempts != 2 || acc.Message().Text() != "You said: hi" {
		t.Errorf("attempts %d, text %q", md.Attempts, acc.Message().Text())
	}
}

// TestStreamAPIErrorBeforeStart: a non-retried error status is yielded as
// the *Error, once.
func TestStreamAPIErrorBeforeStart(t *testing.T) {
	c, _ := streamFake(t)
	p := streamParams("hi")
	p.Model = "no-such-model"
	events, _, err := collect(t, c.Messages.Stream(context.Background(), p))
	var apiErr *Error
	if len(events) != 0 || !errors.As(err, &apiErr) || apiErr.StatusCode != 404 || !errors.Is(err, ErrNotFound) {
		t.Fatalf("events %d, err %v", len(events), err)
	}
}

// ---------------------------------------------------------------------------
// failures after the start

// TestStreamErrorEvent: an error event mid-stream is an *Error with status
// 200 and the payload's type, ends the stream, and is not retried.
func TestStreamErrorEvent(t *testing.T) {
	c, srv := streamFake(t, option.WithMaxRetries(3))
	srv.InjectStreamFault(mmstest.StreamFault{Path: "/v1/messages", ErrorAfterEvents: 4})
	events, acc, err := collect(t, c.Messages.Stream(context.Background(), streamParams("hello there")))
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v, want *Error", err)
	}
	reqs := srv.Requests()
	if apiErr.StatusCode != 200 || apiErr.Type != "overloaded_error" || apiErr.Message != "Overloaded" ||
		apiErr.RequestID != reqs[0].RequestID || !json.Valid(apiErr.Body) || apiErr.Attempts != 1 {
		t.Errorf("error %+v (request id %s)", apiErr, reqs[0].RequestID)
	}
	if !errors.Is(err, ErrOverloaded) {
		t.Error("errors.Is(err, ErrOverloaded) is false")
	}
	if len(events) != 4 || len(reqs) != 1 {
		t.Errorf("%d events, %d requests; want 4 events and no retry", len(events), len(reqs))
	}
	if acc.Done() || acc.Message() == nil {
		t.Error("accumulator state after an error event")
	}
}

// TestStreamErrorEventRequestID: without request_id in the payload the
// error takes the response's request-id header.
func TestStreamErrorEventRequestID(t *testing.T) {
	s := newSSEServer(t, func(w http.ResponseWriter, r *http.Request) {
		o := startSSE(w)
		o.event("message_start", sseStart)
		o.event("error", `{"type":"error","error":{"type":"api_error","message":"boom"}}`)
	})
	_, _, err := collect(t, s.client.Messages.Stream(context.Background(), streamParams("hi")))
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.RequestID != "req_header" || apiErr.Type != "api_error" || !errors.Is(err, ErrAPI) {
		t.Fatalf("err = %#v", err)
	}
}

// TestStreamErrorEventNotJSON: an "error" event ends the stream as an
// *Error whatever its payload.
func TestStreamErrorEventNotJSON(t *testing.T) {
	s := newSSEServer(t, func(w http.ResponseWriter, r *http.Request) {
		o := startSSE(w)
		o.event("message_start", sseStart)
		o.event("error", "upstream overloaded")
		o.event("message_stop", sseMsgStop)
	})
	events, _, err := collect(t, s.client.Messages.Stream(context.Background(), streamParams("hi")))
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 200 || apiErr.Message != "upstream overloaded" || apiErr.Type != "" || len(events) != 1 {
		t.Fatalf("%d events, err = %#v", len(events), err)
	}
}

func TestStreamTruncated(t *testing.T) {
	t.Run("cut by the fake", func(t *testing.T) {
		for _, n := range []int{1, 2, 5, 9} {
			c, srv := streamFake(t)
			srv.InjectStreamFault(mmstest.StreamFault{CutAfterEvents: n})
			events, acc, err := collect(t, c.Messages.Stream(context.Background(), streamParams("hello there, how are you")))
			if !errors.Is(err, ErrStreamTruncated) || len(events) != n || acc.Done() {
				t.Errorf("cut after %d: %d events, err %v", n, len(events), err)
			}
			if err != nil && !strings.Contains(err.Error(), fmt.Sprintf("after %d events", n)) {
				t.Errorf("error does not count the events: %v", err)
			}
		}
	})
	for _, tt := range []struct {
		name, body string
		events     int
		unexpected bool // the end fell inside an event
	}{
		{"clean end without message_stop", "event: message_start\ndata: " + sseStart + "\n\n", 1, false},
		{"clean end after message_delta", "event: message_start\ndata: " + sseStart + "\n\nevent: message_delta\ndata: " + sseMsgDelta + "\n\n", 2, false},
		{"end inside an event", "event: message_start\ndata: " + sseStart + "\n\nevent: content_block_start\ndata: " + sseBlockStart, 1, true},
		{"empty body", "", 0, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newSSEServer(t, func(w http.ResponseWriter, r *http.Request) { startSSE(w).raw(tt.body) })
			events, _, err := collect(t, s.client.Messages.Stream(context.Background(), streamParams("hi")))
			if !errors.Is(err, ErrStreamTruncated) || len(events) != tt.events || errors.Is(err, io.ErrUnexpectedEOF) != tt.unexpected {
				t.Fatalf("%d events, err %v", len(events), err)
			}
		})
	}
}

// TestStreamTruncatedEverywhere cuts the same stream after every possible
// number of events: each cut yields ErrStreamTruncated after exactly that
// many events, the snapshot encodes, and a tool call cut mid-input reports
// its partial input, a prefix of the complete one.
func TestStreamTruncatedEverywhere(t *testing.T) {
	c, srv := streamFake(t)
	p := streamParams("lookup Oslo weather")
	p.Tools = Tools{streamLookupTool}
	p.Thinking = ThinkingConfigEnabled{BudgetTokens: MinThinkingBudget}
	p.MaxTokens = 4096
	full, acc, err := collect(t, c.Messages.Stream(context.Background(), p))
	require.NoError(t, err)
	final := acc.Message()
	toolAt := -1
	for i, b := range final.Content {
		if _, ok := b.(ToolUseBlock); ok {
			toolAt = i
		}
	}
	if toolAt < 0 || len(full) < 20 {
		t.Fatalf("the stream has %d events and no tool call", len(full))
	}
	wantInput := string(final.Content[toolAt].(ToolUseBlock).Input)
	sawPartial := false
	for n := 1; n < len(full); n++ {
		srv.InjectStreamFault(mmstest.StreamFault{CutAfterEvents: n, Times: 1})
		events, acc, err := collect(t, c.Messages.Stream(context.Background(), p))
		if !errors.Is(err, ErrStreamTruncated) || len(events) != n || acc.Done() {
			t.Fatalf("cut after %d: %d events, err %v", n, len(events), err)
		}
		m := acc.Message()
		if _, err := json.Marshal(m); err != nil {
			t.Fatalf("cut after %d: snapshot does not encode: %v", n, err)
		}
		if in, ok := acc.PartialToolInput(toolAt); ok {
			sawPartial = true
			if !strings.HasPrefix(wantInput, in) || string(m.Content[toolAt].(ToolUseBlock).Input) != "{}" {
				t.Errorf("cut after %d: partial input %q is not a prefix of %q", n, in, wantInput)
			}
		}
	}
	if !sawPartial {
		t.Error("no cut fell inside the tool call")
	}
}

// TestStreamAfterMessageStop: the stream ends without error at message_stop
// even if the connection then breaks.
func TestStreamAfterMessageStop(t *testing.T) {
	s := newSSEServer(t, func(w http.ResponseWriter, r *http.Request) {
		o := startSSE(w)
		for _, d := range []string{sseStart, sseBlockStart, sseText(0, "ok"), sseBlockStop, sseMsgDelta, sseMsgStop} {
			var v struct{ Type string }
			json.Unmarshal([]byte(d), &v)
			o.event(v.Type, d)
		}
		o.raw("event: content_block_delta\ndata: {\"ty") // garbage after the end
		panic(http.ErrAbortHandler)
	})
	_, acc, err := collect(t, s.client.Messages.Stream(context.Background(), streamParams("hi")))
	if err != nil || !acc.Done() || acc.Message().Text() != "ok" {
		t.Fatalf("err %v, done %v", err, acc.Done())
	}
}

func TestStreamUnknownEventHandedOver(t *testing.T) {
	s := newSSEServer(t, func(w http.ResponseWriter, r *http.Request) {
		o := startSSE(w)
		o.event("message_start", sseStart)
		o.raw(": a comment\n\n")
		o.event("thought_bubble", `{"type":"thought_bubble","mood":"curious"}`)
		o.event("content_block_start", sseBlockStart)
		o.event("content_block_delta", sseText(0, "Hi"))
		o.event("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"sparkle_delta","n":1}}`)
		o.event("content_block_stop", sseBlockStop)
		o.event("message_delta", sseMsgDelta)
		o.event("message_stop", sseMsgStop)
	})
	events, acc, err := collect(t, s.client.Messages.Stream(context.Background(), streamParams("hi")))
	require.NoError(t, err)
	want := UnknownStreamEvent{Name: "thought_bubble", Data: json.RawMessage(`{"type":"thought_bubble","mood":"curious"}`)}
	if len(events) != 8 || !cmp.Equal(events[1], MessageStreamEvent(want)) {
		t.Fatalf("events %v", events)
	}
	if _, ok := events[4].(ContentBlockDeltaEvent).Delta.(UnknownDelta); !ok {
		t.Errorf("unknown delta decoded as %T", events[4].(ContentBlockDeltaEvent).Delta)
	}
	if m := acc.Message(); m.Text() != "Hi" || m.Usage.OutputTokens != 9 || m.StopReason != StopReasonEndTurn {
		t.Errorf("message %+v", m)
	}
}

func TestStreamNotAnEventStream(t *testing.T) {
	s := newSSEServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"type":"message"}`)
	})
	_, _, err := collect(t, s.client.Messages.Stream(context.Background(), streamParams("hi")))
	if err == nil || !strings.Contains(err.Error(), "expected an event stream") {
		t.Fatalf("err = %v", err)
	}
}

// ---------------------------------------------------------------------------
// stream shapes the service sends (testdata/streams/shape_*.sse)

// TestStreamShapes serves each shape fixture through Messages.Stream and
// checks what the accumulator makes of it: a tool call complete in its
// content_block_start, a reply cut by max_tokens inside a tool call, a
// delta whose index is null, and a server that holds the connection open
// after message_stop.
func TestStreamShapes(t *testing.T) {
	const usage = `"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"service_tier":"standard"`
	tests := []struct {
		file    string
		hold    bool   // the server keeps the connection open after the body
		wantErr string // "" when the stream must end cleanly
		want    string // the accumulated message
		partial map[int]string
		// inputs are tool inputs checked byte for byte.
		inputs map[int]string
	}{
		{file: "shape_tool_input_in_start.sse",
			want: `{"id":"msg_shape_start_input","type":"message","role":"assistant","model":"mms-large-1","content":[
				{"type":"server_tool_use","id":"srvtoolu_shape_run","name":"code_execution","input":{"code":"r = await web_fetch({\"url\": \"https://example.org/a\"})\nprint(r)"}},
				{"type":"server_tool_use","id":"srvtoolu_shape_fetch","name":"web_fetch","input":{"url":"https://example.org/a"},"caller":{"type":"code_execution_20260120","tool_id":"srvtoolu_shape_run"}},
				{"type":"mcp_tool_use","id":"mcptoolu_shape","name":"list_files","server_name":"drive","input":{"folder":"reports","limit":5}},
				{"type":"tool_use","id":"toolu_shape_lookup","name":"lookup","input":{"q":"Oslo","n":2},"caller":{"type":"direct"}}],
				"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":812,"output_tokens":97,` + usage + `}}`,
			inputs: map[int]string{1: `{"url": "https://example.org/a"}`, 2: `{"folder":"reports","limit":5}`, 3: `{"q":"Oslo","n":2}`}},
		{file: "shape_max_tokens_mid_tool.sse",
			want: `{"id":"msg_shape_cut","type":"message","role":"assistant","model":"mms-large-1","content":[
				{"type":"text","text":"Looking that up."},
				{"type":"tool_use","id":"toolu_shape_cut","name":"lookup","input":{}}],
				"stop_reason":"max_tokens","stop_sequence":null,"usage":{"input_tokens":140,"output_tokens":24,` + usage + `}}`,
			partial: map[int]string{1: `{"q": "Oslo, Norway", "n`}},
		{file: "shape_null_index.sse",
			wantErr: `decoding a content_block_delta event: member "index" is null`,
			want: `{"id":"msg_shape_null_index","type":"message","role":"assistant","model":"mms-large-1","content":[{"type":"text","text":"Hello"}],
				"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":9,"output_tokens":1,` + usage + `}}`},
		{file: "shape_held_open.sse", hold: true,
			want: `{"id":"msg_shape_held_open","type":"message","role":"assistant","model":"mms-large-1","content":[{"type":"text","text":"All done."}],
				"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":5,` + usage + `}}`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			noLeaks(t)
			body, err := os.ReadFile(filepath.Join("testdata", "streams", tt.file))
			require.NoError(t, err)
			gone, release := make(chan struct{}), make(chan struct{})
			s := newSSEServer(t, func(w http.ResponseWriter, r *http.Request) {
				defer close(gone)
				startSSE(w).raw(string(body))
				if tt.hold {
					select {
					case <-r.Context().Done():
					case <-release: // the test is over
					}
				}
			})
			t.Cleanup(func() { close(release) })

			type result struct {
				events []MessageStreamEvent
				acc    MessageAccumulator
				err    error
			}
			done := make(chan *result, 1)
			go func() {
				res := &result{}
				for ev, err := range s.client.Messages.Stream(context.Background(), streamParams("hi")) {
					if err == nil {
						err = res.acc.Add(ev)
					}
					if err != nil {
						res.err = err
						break
					}
					res.events = append(res.events, ev)
				}
				done <- res
			}()
			var res *result
			select {
			case res = <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("the range loop did not end")
			}

			switch {
			case tt.wantErr == "" && res.err != nil:
				t.Fatalf("stream error: %v", res.err)
			case tt.wantErr != "" && (res.err == nil || !strings.Contains(res.err.Error(), tt.wantErr)):
				t.Fatalf("stream error %v, want one containing %q", res.err, tt.wantErr)
			case tt.wantErr == "":
				if _, ok := res.events[len(res.events)-1].(MessageStopEvent); !ok || !res.acc.Done() {
					t.Errorf("last event %T, done %v: the stream must end at message_stop", res.events[len(res.events)-1], res.acc.Done())
				}
			}
			m := res.acc.Message()
			streamJSONEqual(t, "accumulated message", []byte(tt.want), marshalMessage(t, m))
			for i, b := range m.Content {
				in, ok := res.acc.PartialToolInput(i)
				if want, partial := tt.partial[i]; ok != partial || in != want {
					t.Errorf("block %d: PartialToolInput = %q, %v; want %q, %v", i, in, ok, want, partial)
				}
				if want, ok := tt.inputs[i]; ok && string(toolInput(b)) != want {
					t.Errorf("block %d: input %s, want %s byte for byte", i, toolInput(b), want)
				}
			}
			select {
			case <-gone:
			case <-time.After(5 * time.Second):
				t.Fatal("the server still holds the connection")
			}
			waitFor(t, "the connection to be released", func() bool { return s.busy() == 0 })
		})
	}
}

// ---------------------------------------------------------------------------
// idle timeout

func TestStreamIdleTimeout(t *testing.T) {
	noLeaks(t)
	c, srv := streamFake(t, option.WithStreamIdleTimeout(100*time.Millisecond))
	srv.InjectStreamFault(mmstest.StreamFault{StallAfterEvents: 3, Stall: 10 * time.Second})
	start := time.Now()
	events, _, err := collect(t, c.Messages.Stream(context.Background(), streamParams("hello")))
	var idle *StreamIdleError
	if !errors.As(err, &idle) || idle.Timeout != 100*time.Millisecond || idle.Events != 3 || len(events) != 3 {
		t.Fatalf("%d events, err %v", len(events), err)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Error("the idle error does not match context.DeadlineExceeded")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestStreamIdleTimeoutPerCall: the option works per call too, and the
// stall reaches the caller's loop as an error without closing other calls.
func TestStreamIdleTimeoutPerCall(t *testing.T) {
	c, srv := streamFake(t)
	srv.InjectStreamFault(mmstest.StreamFault{StallAfterEvents: 1, Stall: 10 * time.Second, Times: 1})
	_, _, err := collect(t, c.Messages.Stream(context.Background(), streamParams("hello"), option.WithStreamIdleTimeout(50*time.Millisecond)))
	var idle *StreamIdleError
	if !errors.As(err, &idle) || idle.Events != 1 {
		t.Fatalf("err %v", err)
	}
	if _, acc, err := collect(t, c.Messages.Stream(context.Background(), streamParams("hello"), option.WithStreamIdleTimeout(50*time.Millisecond))); err != nil || !acc.Done() {
		t.Fatalf("next stream: %v", err)
	}
}

// TestStreamIdleCountsBytes: pings (and comments) keep a slow stream alive;
// a caller slow between events is not a silent server.
func TestStreamIdleCountsBytes(t *testing.T) {
	const idle = 150 * time.Millisecond
	s := newSSEServer(t, func(w http.ResponseWriter, r *http.Request) {
		o := startSSE(w)
		o.event("message_start", sseStart)
		for i := range 8 { // 8 × 50 ms of keep-alives: longer than idle in total
			time.Sleep(50 * time.Millisecond)
			if i%2 == 0 {
				o.event("ping", `{"type":"ping"}`)
			} else {
				o.raw(": keep-alive\n\n")
			}
		}
		o.event("content_block_start", sseBlockStart)
		o.event("content_block_delta", sseText(0, "a"))
		o.event("content_block_delta", sseText(0, "b"))
		o.event("content_block_stop", sseBlockStop)
		o.event("message_delta", sseMsgDelta)
		o.event("message_stop", sseMsgStop)
	}, option.WithStreamIdleTimeout(idle))
	var acc MessageAccumulator
	for ev, err := range s.client.Messages.Stream(context.Background(), streamParams("hi")) {
		require.NoError(t, err)
		if err := acc.Add(ev); err != nil {
			t.Fatal(err)
		}
		if _, ok := ev.(ContentBlockDeltaEvent); ok {
			time.Sleep(2 * idle) // a slow consumer
		}
	}
	if acc.Message().Text() != "ab" {
		t.Errorf("text %q", acc.Message().Text())
	}
}

// ---------------------------------------------------------------------------
// cleanup

// endless serves a stream that never ends, one delta every 5 ms, until the
// client goes away; gone is closed then.
func endless(gone chan struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		defer close(gone)
		o := startSSE(w)
		o.event("message_start", sseStart)
		o.event("content_block_start", sseBlockStart)
		for {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(5 * time.Millisecond):
				o.event("content_block_delta", sseText(0, "more "))
			}
		}
	}
}

func TestStreamBreakReleasesConnection(t *testing.T) {
	noLeaks(t)
	gone := make(chan struct{})
	s := newSSEServer(t, endless(gone))
	n := 0
	for ev, err := range s.client.Messages.Stream(context.Background(), streamParams("hi")) {
		require.NoError(t, err)
		if _, ok := ev.(MessageStartEvent); !ok {
			t.Fatalf("first event %T", ev)
		}
		n++
		break
	}
	if n != 1 {
		t.Fatalf("%d loop iterations", n)
	}
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the server still streams after break")
	}
	waitFor(t, "the connection to be released", func() bool { return s.busy() == 0 })
}

func TestStreamContextCancel(t *testing.T) {
	noLeaks(t)
	gone := make(chan struct{})
	s := newSSEServer(t, endless(gone))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, _, err := collect(t, func(yield func(MessageStreamEvent, error) bool) {
		for ev, err := range s.client.Messages.Stream(ctx, streamParams("hi")) {
			if _, ok := ev.(ContentBlockDeltaEvent); ok {
				cancel()
			}
			if !yield(ev, err) {
				return
			}
		}
	})
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrStreamTruncated) || len(events) < 3 {
		t.Fatalf("%d events, err %v", len(events), err)
	}
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the server still streams after cancel")
	}
	waitFor(t, "the connection to be released", func() bool { return s.busy() == 0 })
}

// TestStreamCompleteReusesConnection: a complete stream leaves its
// connection idle, ready for the next request, also when the server ends
// the response only after the client has read message_stop (the stream
// reads the end of the body before it closes it).
func TestStreamCompleteReusesConnection(t *testing.T) {
	for _, endAfterStop := range []bool{false, true} {
		t.Run(fmt.Sprintf("end after the client's message_stop %v", endAfterStop), func(t *testing.T) {
			var mu sync.Mutex
			remotes := map[string]bool{}
			stopRead := make(chan struct{}, 1)
			s := newSSEServer(t, func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				remotes[r.RemoteAddr] = true
				mu.Unlock()
				o := startSSE(w)
				for _, d := range []string{sseStart, sseMsgDelta, sseMsgStop} {
					var v struct{ Type string }
					json.Unmarshal([]byte(d), &v)
					o.event(v.Type, d)
				}
				if endAfterStop {
					select {
					case <-stopRead:
					case <-r.Context().Done():
					}
				}
			})
			for range 3 {
				for ev, err := range s.client.Messages.Stream(context.Background(), streamParams("hi")) {
					require.NoError(t, err)
					if _, ok := ev.(MessageStopEvent); ok && endAfterStop {
						stopRead <- struct{}{}
					}
				}
			}
			mu.Lock()
			defer mu.Unlock()
			if len(remotes) != 1 {
				t.Errorf("3 streams used %d connections", len(remotes))
			}
		})
	}
}

// TestStreamPanicInLoopReleases: a panic in the loop body still closes the
// connection (the close is deferred inside the iterator).
func TestStreamPanicInLoopReleases(t *testing.T) {
	gone := make(chan struct{})
	s := newSSEServer(t, endless(gone))
	func() {
		defer func() { recover() }()
		for range s.client.Messages.Stream(context.Background(), streamParams("hi")) {
			panic("boom")
		}
	}()
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the server still streams after a panic in the loop")
	}
}

// TestStreamErrorEventScrubbed: a server that echoes the request's key in
// a stream's "error" event (raw, or escaped in a way only decoding shows)
// does not get it into the *Error, its body or its text.
func TestStreamErrorEventScrubbed(t *testing.T) {
	const key = "sk-canary-0123456789"
	for name, payload := range map[string]string{
		"raw":     `{"type":"error","error":{"type":"api_error","message":"bad key ` + key + `"}}`,
		"escaped": `{"type":"error","error":{"type":"api_error","message":"bad key \u0073k-canary-0123456789"}}`,
		"no json": `bad key ` + key,
	} {
		t.Run(name, func(t *testing.T) {
			s := newSSEServer(t, func(w http.ResponseWriter, r *http.Request) {
				o := startSSE(w)
				o.event("message_start", sseStart)
				o.event("error", payload)
			}, option.WithAPIKey(key))
			_, _, err := collect(t, s.client.Messages.Stream(context.Background(), streamParams("hi")))
			var apiErr *Error
			require.ErrorAs(t, err, &apiErr)
			for _, shown := range []string{err.Error(), apiErr.Message, string(apiErr.Body), fmt.Sprintf("%#v", apiErr)} {
				assert.NotContains(t, shown, "canary-0123456789")
			}
			assert.Contains(t, apiErr.Message, "[redacted]")
		})
	}
}
