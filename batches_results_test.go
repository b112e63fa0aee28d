package mms_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// Result lines as batches.md §4 shows them.
const (
	succeededLine = `{"custom_id":"req-1","result":{"type":"succeeded","message":{"id":"msg_x","type":"message","role":"assistant","model":"example-model","content":[{"type":"text","text":"Hi","citations":null}],"stop_reason":"end_turn","stop_sequence":null,"stop_details":null,"container":null,"usage":{"input_tokens":9,"output_tokens":3,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":null,"inference_geo":null,"output_tokens_details":null,"server_tool_use":null,"service_tier":"batch"}}}}`
	erroredLine   = `{"custom_id":"req-2","result":{"type":"errored","error":{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: field required"},"request_id":null}}}`
	expiredLine   = `{"custom_id":"req-3","result":{"type":"expired"}}`
	canceledLine  = `{"custom_id":"req-4","result":{"type":"canceled"}}`
	unknownLine   = `{"custom_id":"req-5","result":{"type":"postponed","until":"later","n":[1,2]},"future":true}`
)

// textLine is a succeeded result line whose message says text (a JSON
// string body, already escaped).
func textLine(id, text string) string {
	return `{"custom_id":"` + id + `","result":{"type":"succeeded","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"` +
		text + `"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}}`
}

// resultsServer serves handler as every batch's results and returns a client
// on it.
func resultsServer(t *testing.T, handler http.HandlerFunc) *mms.Client {
	t.Helper()
	srv := httptest.NewServer(handler)
	t.Cleanup(func() {
		srv.CloseClientConnections() // unblocks a handler still writing
		srv.Close()
	})
	c, err := mms.NewClient(option.WithAPIKey("k"), option.WithBaseURL(srv.URL), option.WithMaxRetries(0))
	require.NoError(t, err)
	return c
}

// collect ranges over a results sequence: the custom ids before the first
// error, how many items came after it, and the error.
func collect(seq func(func(mms.BatchResult, error) bool)) (ids []string, after int, err error) {
	for r, e := range seq {
		switch {
		case err != nil:
			after++
		case e != nil:
			err = e
		default:
			ids = append(ids, r.CustomID)
		}
	}
	return ids, after, err
}

func TestBatchResultsDecode(t *testing.T) {
	body := strings.Join([]string{succeededLine, erroredLine, "", "  ", expiredLine, canceledLine, unknownLine}, "\n")
	c := resultsServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/messages/batches/msgbatch_1/results" || r.Header.Get("Accept") != "application/x-jsonl" ||
			r.Header.Get("Vendor-Beta") != "" || r.Method != http.MethodGet {
			http.Error(w, "bad request "+r.URL.Path, 400)
			return
		}
		io.WriteString(w, body+"\r\n") // CRLF and a final newline are fine
	})
	var got []mms.BatchResult
	for r, err := range c.Messages.Batches.Results(context.Background(), "msgbatch_1") {
		require.NoError(t, err)
		got = append(got, r)
	}
	if len(got) != 5 {
		t.Fatalf("%d results", len(got))
	}
	s, ok := got[0].Result.(mms.SucceededBatchResult)
	if !ok || s.Message.Text() != "Hi" || s.Message.Usage.ServiceTier != mms.ServiceTierBatch || got[0].CustomID != "req-1" {
		t.Errorf("succeeded: %#v", got[0])
	}
	e, ok := got[1].Result.(mms.ErroredBatchResult)
	if !ok || e.Error.Error.Type != "invalid_request_error" || e.Error.RequestID != nil {
		t.Fatalf("errored: %#v", got[1])
	}
	apiErr := e.Err()
	if !errors.Is(apiErr, mms.ErrInvalidRequest) || apiErr.Message != "max_tokens: field required" ||
		apiErr.Type != "invalid_request_error" || apiErr.StatusCode != 200 || apiErr.RequestID != "" {
		t.Errorf("Err() = %+v", apiErr)
	}
	if _, ok := got[2].Result.(mms.ExpiredBatchResult); !ok {
		t.Errorf("expired: %#v", got[2])
	}
	if _, ok := got[3].Result.(mms.CanceledBatchResult); !ok {
		t.Errorf("canceled: %#v", got[3])
	}
	if u, ok := got[4].Result.(mms.UnknownBatchResult); !ok || u.Type != "postponed" {
		t.Errorf("unknown: %#v", got[4])
	}
	// Every line is written back as it came (compared as JSON values).
	for i, line := range []string{succeededLine, erroredLine, expiredLine, canceledLine, unknownLine} {
		out, err := json.Marshal(got[i])
		require.NoError(t, err)
		var want, have any
		_ = json.Unmarshal([]byte(line), &want)
		_ = json.Unmarshal(out, &have)
		if diff := cmp.Diff(want, have); diff != "" {
			t.Errorf("line %d round trip (-in +out):\n%s", i+1, diff)
		}
	}
}

func TestBatchRecordRoundTrip(t *testing.T) {
	in := `{"id":"msgbatch_013Zva2CMHLNnXjNJJKqJ2EF","type":"message_batch","processing_status":"ended",` +
		`"request_counts":{"processing":0,"succeeded":95,"errored":3,"canceled":1,"expired":1,"retried":0},` +
		`"ended_at":"2024-08-20T18:37:24.100435Z","created_at":"2024-08-20T18:37:24.100435Z",` +
		`"expires_at":"2024-08-21T18:37:24.100435Z","archived_at":null,"cancel_initiated_at":"2024-08-20T18:38:00Z",` +
		`"results_url":"https://api.example.com/v1/messages/batches/msgbatch_013Zva2CMHLNnXjNJJKqJ2EF/results","priority":"low"}`
	var b mms.Batch
	if err := json.Unmarshal([]byte(in), &b); err != nil {
		t.Fatal(err)
	}
	if b.ProcessingStatus != mms.BatchStatusEnded || b.RequestCounts.Total() != 100 || b.ArchivedAt != nil ||
		b.EndedAt == nil || b.EndedAt.Nanosecond() != 100435000 || b.ResultsURL == nil || string(b.Extra["priority"]) != `"low"` {
		t.Errorf("decoded %+v", b)
	}
	out, err := json.Marshal(b)
	require.NoError(t, err)
	if diff := jsonDiff(t, []byte(in), out); diff != "" {
		t.Errorf("round trip (-in +out):\n%s", diff)
	}
	// Unknown statuses pass through; null members stay null.
	var fresh mms.Batch
	if err := json.Unmarshal([]byte(`{"id":"b","type":"message_batch","processing_status":"paused","request_counts":{"processing":1,"succeeded":0,"errored":0,"canceled":0,"expired":0},"created_at":"2026-01-01T00:00:00Z","expires_at":"2026-01-02T00:00:00Z","ended_at":null,"cancel_initiated_at":null,"archived_at":null,"results_url":null}`), &fresh); err != nil {
		t.Fatal(err)
	}
	if fresh.ProcessingStatus != "paused" || fresh.ResultsURL != nil || fresh.EndedAt != nil {
		t.Errorf("fresh %+v", fresh)
	}
	if out, _ := json.Marshal(fresh); !strings.Contains(string(out), `"ended_at":null`) || !strings.Contains(string(out), `"results_url":null`) {
		t.Errorf("nulls lost: %s", out)
	}
	var del mms.BatchDeleted
	if err := json.Unmarshal([]byte(`{"id":"b","type":"message_batch_deleted"}`), &del); err != nil || del.ID != "b" {
		t.Errorf("deleted %+v %v", del, err)
	}
	if out, _ := json.Marshal(del); string(out) != `{"type":"message_batch_deleted","id":"b"}` {
		t.Errorf("deleted encodes as %s", out)
	}
}

func TestBatchResultsLazyAndRestartable(t *testing.T) {
	var calls atomic.Int32
	c := resultsServer(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		io.WriteString(w, expiredLine+"\n"+canceledLine+"\n")
	})
	seq := c.Messages.Batches.Results(context.Background(), "msgbatch_1")
	if n := calls.Load(); n != 0 {
		t.Fatalf("%d requests before ranging", n)
	}
	for range 2 {
		if ids, _, err := collect(seq); err != nil || !cmp.Equal(ids, []string{"req-3", "req-4"}) {
			t.Fatalf("ids %v err %v", ids, err)
		}
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("%d requests for two ranges", n)
	}
	for _, id := range []string{"", "..", "."} {
		if _, _, err := collect(c.Messages.Batches.Results(context.Background(), id)); !errors.Is(err, mms.ErrInvalidParams) {
			t.Errorf("id %q: %v", id, err)
		}
	}
	if n := calls.Load(); n != 2 {
		t.Errorf("a request was sent for a bad id")
	}
}

func TestBatchResultsServiceError(t *testing.T) {
	c := resultsServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(404)
		io.WriteString(w, `{"type":"error","error":{"type":"not_found_error","message":"still processing"},"request_id":"req_1"}`)
	})
	ids, after, err := collect(c.Messages.Batches.Results(context.Background(), "msgbatch_1"))
	var apiErr *mms.Error
	if len(ids) != 0 || after != 0 || !errors.As(err, &apiErr) || !errors.Is(err, mms.ErrNotFound) || apiErr.RequestID != "req_1" {
		t.Errorf("ids %v, err %v, %d after", ids, err, after)
	}
}

// TestBatchResultsMalformedLine: a line that is not a valid result is
// yielded in its place as a *BatchResultLineError (line number, custom_id
// when readable), and the lines after it still come.
func TestBatchResultsMalformedLine(t *testing.T) {
	good := func(i int) string { return textLine("ok-"+strconv.Itoa(i), "fine") }
	deep := `{"custom_id":"deep","result":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`
	tests := []struct {
		name     string
		body     string
		want     []string // custom ids, and "error" where the error comes
		line     int
		customID string
		msg      string
	}{
		{"invalid JSON", good(1) + "\n" + good(2) + "\n" + good(3) + "\n" + good(4) + "\n{\"custom_id\":\"x\",\n" + good(6) + "\n",
			[]string{"ok-1", "ok-2", "ok-3", "ok-4", "error", "ok-6"}, 5, "x", "not valid JSON"},
		{"blank lines count", good(1) + "\n\n" + good(3) + "\n\n" + `[1,2]` + "\n" + good(6),
			[]string{"ok-1", "ok-3", "error", "ok-6"}, 5, "", "not a JSON object"},
		{"no result", good(1) + "\n" + `{"custom_id":"x"}` + "\n" + good(3),
			[]string{"ok-1", "error", "ok-3"}, 2, "x", `no "result"`},
		{"result not an object", `{"custom_id":"x","result":"ok"}` + "\n" + good(2),
			[]string{"error", "ok-2"}, 1, "x", "result"},
		{"message not an object", good(1) + "\n" + `{"custom_id":"x","result":{"type":"succeeded","message":[]}}`,
			[]string{"ok-1", "error"}, 2, "x", "message"},
		{"truncated last line", good(1) + "\n" + good(2)[:40],
			[]string{"ok-1", "error"}, 2, "ok-2", "not valid JSON"},
		{"custom_id after the break", `{"result":{"type":"expired"} "custom_id" : "late"}` + "\n" + good(2),
			[]string{"error", "ok-2"}, 1, "late", "not valid JSON"},
		{"custom_id only inside a string", `{"result":"\"custom_id\":\"no\"" x}` + "\n" + good(2),
			[]string{"error", "ok-2"}, 1, "", "not valid JSON"},
		{"nested too deep", good(1) + "\n" + deep + "\n" + good(3),
			[]string{"ok-1", "error", "ok-3"}, 2, "deep", "10000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := resultsServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, tt.body) })
			var got []string
			var lineErr *mms.BatchResultLineError
			for r, err := range c.Messages.Batches.Results(context.Background(), "msgbatch_7") {
				if err != nil {
					got = append(got, "error")
					if !errors.As(err, &lineErr) {
						t.Fatalf("err = %v (%T), want a *BatchResultLineError", err, err)
					}
					continue
				}
				got = append(got, r.CustomID)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Fatalf("sequence (-want +got):\n%s", d)
			}
			if lineErr.Line != tt.line || lineErr.CustomID != tt.customID || lineErr.BatchID != "msgbatch_7" {
				t.Errorf("line error %+v, want line %d, custom_id %q", lineErr, tt.line, tt.customID)
			}
			msg := lineErr.Error()
			if !strings.Contains(msg, fmt.Sprintf("line %d", tt.line)) || !strings.Contains(msg, tt.msg) || !strings.Contains(msg, "msgbatch_7") {
				t.Errorf("err = %q, want the line, %q and the batch id", msg, tt.msg)
			}
		})
	}
	t.Run("break at the error", func(t *testing.T) {
		c := resultsServer(t, func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, good(1)+"\n{\n"+good(3)+"\n")
		})
		var got []string
		for r, err := range c.Messages.Batches.Results(context.Background(), "b") {
			if err != nil {
				break
			}
			got = append(got, r.CustomID)
		}
		if d := cmp.Diff([]string{"ok-1"}, got); d != "" {
			t.Errorf("results (-want +got):\n%s", d)
		}
	})
	t.Run("connection drops mid-line", func(t *testing.T) {
		c := resultsServer(t, func(w http.ResponseWriter, r *http.Request) {
			body := good(1) + "\n" + good(2) + "\n" + good(3)[:30]
			w.Header().Set("Content-Length", strconv.Itoa(len(body)+100))
			io.WriteString(w, body) // short of its Content-Length: the client sees an unexpected EOF
		})
		ids, _, err := collect(c.Messages.Batches.Results(context.Background(), "b"))
		if len(ids) != 2 || !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "line 3") {
			t.Errorf("ids %v err %v", ids, err)
		}
	})
	t.Run("valid last line without newline", func(t *testing.T) {
		c := resultsServer(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, good(1)+"\n"+good(2)) })
		if ids, _, err := collect(c.Messages.Batches.Results(context.Background(), "b")); err != nil || len(ids) != 2 {
			t.Errorf("ids %v err %v", ids, err)
		}
	})
}

func TestBatchResultsLongLine(t *testing.T) {
	const size = 16 << 20
	long := strings.Repeat("0123456789abcdef", size/16)
	c := resultsServer(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, textLine("short-1", "a")+"\n"+textLine("long", long)+"\n"+textLine("short-2", "b")+"\n")
	})
	var texts []int
	for r, err := range c.Messages.Batches.Results(context.Background(), "b") {
		require.NoError(t, err)
		m := r.Result.(mms.SucceededBatchResult).Message
		texts = append(texts, len(m.Text()))
	}
	if want := []int{1, size, 1}; !cmp.Equal(texts, want) {
		t.Errorf("text lengths %v, want %v", texts, want)
	}
}

// endlessResults writes result lines until the client goes away or limit
// bytes are written, then reports the bytes written on done.
func endlessResults(limit int64, written *atomic.Int64, done chan<- struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		defer close(done)
		w.Header().Set("Content-Type", "application/x-jsonl")
		bw := bufio.NewWriterSize(w, 64<<10)
		text := strings.Repeat("lorem ipsum dolor sit amet ", 150) // ≈ 4 KB lines
		line := []byte(textLine("XXXXXXXX", text) + "\n")
		at := strings.Index(string(line), "XXXXXXXX")
		for i := 0; written.Load() < limit; i++ {
			copy(line[at:at+8], fmt.Sprintf("%08d", i))
			n, err := bw.Write(line)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
		bw.Flush()
	}
}

func TestBatchResultsBreakStopsReading(t *testing.T) {
	var written atomic.Int64
	done := make(chan struct{})
	c := resultsServer(t, endlessResults(1<<40, &written, done))
	n := 0
	for _, err := range c.Messages.Batches.Results(context.Background(), "b") {
		require.NoError(t, err)
		if n++; n == 3 {
			break
		}
	}
	select {
	case <-done: // the server's writes failed: the connection was closed
	case <-time.After(10 * time.Second):
		t.Fatalf("the server is still writing after break (%d bytes written)", written.Load())
	}
	if w := written.Load(); w > 256<<20 {
		t.Errorf("%d bytes written before the server noticed", w)
	}
}

// TestBatchResultsMemoryFlat ranges over a results body generated on the
// fly, sampling the live heap (after a GC) as it goes: the growth over the
// baseline must stay far below the body's size.
func TestBatchResultsMemoryFlat(t *testing.T) {
	size := int64(resultsMemoryBodySize)
	var written atomic.Int64
	done := make(chan struct{})
	c := resultsServer(t, endlessResults(size, &written, done))

	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapAlloc, ms.HeapAlloc
	lines, samples := 0, 0
	start := time.Now()
	for r, err := range c.Messages.Batches.Results(context.Background(), "b") {
		require.NoError(t, err)
		if _, ok := r.Result.(mms.SucceededBatchResult); !ok {
			t.Fatalf("line %d: %T", lines+1, r.Result)
		}
		if lines++; lines%2048 == 0 { // about every 8 MB
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			samples++
		}
	}
	<-done
	growth := int64(peak) - int64(base)
	t.Logf("%d MB in %d lines, %v; heap growth %.1f MB over %d samples",
		written.Load()>>20, lines, time.Since(start).Round(time.Millisecond), float64(growth)/(1<<20), samples)
	if written.Load() < size || samples < 5 {
		t.Fatalf("only %d bytes, %d samples", written.Load(), samples)
	}
	if growth > 32<<20 {
		t.Errorf("heap grew by %d MB while reading %d MB", growth>>20, size>>20)
	}
}

func FuzzBatchResultLine(f *testing.F) {
	for _, l := range []string{succeededLine, erroredLine, expiredLine, canceledLine, unknownLine,
		`{"custom_id":"x","result":{"type":"errored","error":null}}`, `{"result":{}}`, `{"result":null}`} {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var r mms.BatchResult
		if json.Unmarshal(data, &r) != nil || r.Result == nil {
			return
		}
		out, err := json.Marshal(r)
		if err != nil {
			return // e.g. an Unknown variant whose raw bytes are not JSON is refused, not panicked on
		}
		var again mms.BatchResult
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("re-decoding %s: %v", out, err)
		}
		if u, ok := r.Result.(mms.UnknownBatchResult); ok {
			if u2, ok := again.Result.(mms.UnknownBatchResult); !ok || u2.Type != u.Type {
				t.Fatalf("unknown result did not round-trip: %s", out)
			}
		}
		if e, ok := r.Result.(mms.ErroredBatchResult); ok {
			_ = e.Err()
		}
	})
}

// TestBatchResultsIdleTimeout: with option.WithStreamIdleTimeout, a results
// body that stalls ends with a StreamIdleError after the lines before it.
func TestBatchResultsIdleTimeout(t *testing.T) {
	release := make(chan struct{})
	c := resultsServer(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, textLine("a", "one")+"\n"+textLine("b", "two")+"\n")
		w.(http.Flusher).Flush()
		select { // stall until the client gives up
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	// The deadline only keeps a broken watchdog from hanging the test.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ids, _, err := collect(c.Messages.Batches.Results(ctx, "b", option.WithStreamIdleTimeout(100*time.Millisecond)))
	var idle *mms.StreamIdleError
	if !errors.As(err, &idle) || !errors.Is(err, context.DeadlineExceeded) || idle.Events != 2 {
		t.Fatalf("err = %v, want a StreamIdleError after 2 results", err)
	}
	if len(ids) != 2 {
		t.Errorf("results before the stall = %v", ids)
	}
}
