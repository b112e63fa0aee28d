package mmstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/wire"
)

const batchesPath = "/v1/messages/batches"

// batchBody builds a create body from custom_id/params pairs.
func batchBody(pairs ...string) string {
	var items []string
	for i := 0; i+1 < len(pairs); i += 2 {
		items = append(items, `{"custom_id":"`+pairs[i]+`","params":`+pairs[i+1]+`}`)
	}
	return `{"requests":[` + strings.Join(items, ",") + `]}`
}

// hiParams is a valid params body saying text.
func hiParams(text string) string {
	return create(`"messages":[{"role":"user","content":"` + text + `"}]`)
}

// batchRecord is the record as the tests read it.
type batchRecord struct {
	ID                string         `json:"id"`
	Type              string         `json:"type"`
	ProcessingStatus  string         `json:"processing_status"`
	RequestCounts     map[string]int `json:"request_counts"`
	CreatedAt         time.Time      `json:"created_at"`
	ExpiresAt         time.Time      `json:"expires_at"`
	EndedAt           *time.Time     `json:"ended_at"`
	CancelInitiatedAt *time.Time     `json:"cancel_initiated_at"`
	ArchivedAt        *time.Time     `json:"archived_at"`
	ResultsURL        *string        `json:"results_url"`
}

// decodeBatch decodes a 200 MessageBatch body strictly: every member of
// batches.md §2 present, nothing else.
func decodeBatch(t *testing.T, resp *http.Response, body []byte) batchRecord {
	t.Helper()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"id", "type", "processing_status", "request_counts", "created_at", "expires_at",
		"ended_at", "cancel_initiated_at", "archived_at", "results_url"} {
		if _, ok := members[m]; !ok {
			t.Errorf("record lacks %s: %s", m, body)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var b batchRecord
	if err := dec.Decode(&b); err != nil {
		t.Fatalf("record %s: %v", body, err)
	}
	if b.Type != "message_batch" || !strings.HasPrefix(b.ID, "msgbatch_") {
		t.Errorf("type %q id %q", b.Type, b.ID)
	}
	if !b.ExpiresAt.Equal(b.CreatedAt.Add(24 * time.Hour)) {
		t.Errorf("expires_at %v, created_at %v", b.ExpiresAt, b.CreatedAt)
	}
	total := 0
	for _, n := range b.RequestCounts {
		total += n
	}
	if b.ProcessingStatus != "ended" && b.RequestCounts["processing"] != total {
		t.Errorf("outcome counts before the end: %v", b.RequestCounts)
	}
	return b
}

func createBatch(t *testing.T, s *Server, body string, betas ...string) batchRecord {
	t.Helper()
	resp, b := post(t, s, batchesPath, body, betas...)
	return decodeBatch(t, resp, b)
}

func getBatch(t *testing.T, s *Server, id string) batchRecord {
	t.Helper()
	resp, b := get(t, s, batchesPath+"/"+id)
	return decodeBatch(t, resp, b)
}

// resultsOf fetches and parses a batch's JSONL results.
func resultsOf(t *testing.T, s *Server, id string) []map[string]json.RawMessage {
	t.Helper()
	resp, body := get(t, s, batchesPath+"/"+id+"/results")
	if resp.StatusCode != 200 {
		t.Fatalf("results: status %d: %s", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/x-jsonl" {
		t.Errorf("Content-Type %q", ct)
	}
	var out []map[string]json.RawMessage
	for i, line := range strings.Split(strings.TrimSuffix(string(body), "\n"), "\n") {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %d %q: %v", i+1, line, err)
		}
		out = append(out, m)
	}
	return out
}

func resultType(t *testing.T, line map[string]json.RawMessage) string {
	t.Helper()
	var r struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(line["result"], &r); err != nil {
		t.Fatal(err)
	}
	return r.Type
}

func customID(line map[string]json.RawMessage) string {
	var id string
	_ = json.Unmarshal(line["custom_id"], &id)
	return id
}

func TestBatchCreateValidation(t *testing.T) {
	s := newTestServer(t)
	many := func(n int) string {
		var b strings.Builder
		b.WriteString(`{"requests":[`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"custom_id":"r%d","params":{}}`, i)
		}
		b.WriteString(`]}`)
		return b.String()
	}
	tests := []struct {
		name, body string
		betas      []string
		want       string // message fragment; "" = accepted
	}{
		{"empty body", ``, nil, "request body is empty"},
		{"not JSON", `{"requests":`, nil, "not valid JSON"},
		{"no requests", `{}`, nil, "requests: Field required"},
		{"extra member", `{"x":1,"requests":[]}`, nil, "x: Extra inputs are not permitted"},
		{"zero requests", `{"requests":[]}`, nil, "requests: List should have at least 1 item"},
		{"too many requests", many(100_001), nil, "requests: List should have at most 100000 items"},
		{"custom_id missing", `{"requests":[{"params":` + hiParams("a") + `}]}`, nil, "requests.0.custom_id: Field required"},
		{"params missing", `{"requests":[{"custom_id":"a"}]}`, nil, "requests.0.params: Field required"},
		{"request extra member", `{"requests":[{"custom_id":"a","params":` + hiParams("a") + `,"x":1}]}`, nil,
			"requests.0.x: Extra inputs are not permitted"},
		{"custom_id too long", batchBody(strings.Repeat("a", 65), hiParams("a")), nil,
			"requests.0.custom_id: String should have at most 64 characters"},
		{"custom_id pattern", batchBody("ok", hiParams("a"), "has space", hiParams("b")), nil,
			"requests.1.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"},
		{"duplicate custom_id", batchBody("a", hiParams("a"), "b", hiParams("b"), "a", hiParams("c")), nil,
			`requests.2.custom_id: duplicate custom_id "a" (also requests.0.custom_id)`},
		{"params not an object", batchBody("a", `"hi"`), nil, "requests.0.params: Input should be a valid dictionary"},
		{"params request form", batchBody("a", hiParams("a"), "b", create(`"messages":[{"role":"user","content":[{"type":"text","text":""}]}]`)), nil,
			"requests.1.params.messages.0.content.0.text: String should have at least 1 character"},
		{"params unknown member", batchBody("a", create(`"foo":1,"messages":[]`)), nil, "requests.0.params.foo: Extra inputs are not permitted"},
		{"params no messages", batchBody("a", create(`"messages":[]`)), nil, "requests.0.params.messages: List should have at least 1 item"},
		{"beta param without its beta", batchBody("a", create(`"messages":[{"role":"user","content":"x"}],"speed":"fast"`)), nil,
			"requests.0.params.speed: this field requires the vendor-beta header value `fast-mode-2026-02-01`"},
		{"beta param with its beta", batchBody("a", create(`"messages":[{"role":"user","content":"x"}],"speed":"fast"`)),
			[]string{"fast-mode-2026-02-01"}, ""},
		{"64-character custom_id", batchBody(strings.Repeat("a", 64), hiParams("a")), nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := post(t, s, batchesPath, tt.body, tt.betas...)
			if tt.want == "" {
				decodeBatch(t, resp, body)
				return
			}
			wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, tt.want)
		})
	}
}

func TestBatchLifecycle(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	start := clock.Now()
	tooMany := `{"model":"mms-tiny-0","max_tokens":9000,"messages":[{"role":"user","content":"x"}]}`
	good := create(`"messages":[{"role":"user","content":"hello batch"}],"stop_sequences":["zzz"]`)
	body := batchBody(
		"good", good,
		"unknown-model", `{"model":"mms-nope","max_tokens":10,"messages":[{"role":"user","content":"x"}]}`,
		"streaming", create(`"messages":[{"role":"user","content":"x"}],"stream":true`),
		"too-many-tokens", tooMany,
	)
	b := createBatch(t, s, body)
	if b.ProcessingStatus != "in_progress" || b.RequestCounts["processing"] != 4 || b.EndedAt != nil ||
		b.ResultsURL != nil || b.CancelInitiatedAt != nil || b.ArchivedAt != nil || !b.CreatedAt.Equal(start) {
		t.Fatalf("new batch: %+v", b)
	}
	resp, rb := get(t, s, batchesPath+"/"+b.ID+"/results")
	wantError(t, resp, rb, http.StatusNotFound, wire.ErrNotFound, "available only after processing ends")
	resp, rb = send(t, s, newReq(t, s, http.MethodDelete, batchesPath+"/"+b.ID, nil))
	wantError(t, resp, rb, http.StatusBadRequest, wire.ErrInvalidRequest, "still processing")

	clock.Advance(DefaultBatchProcessingTime - time.Nanosecond)
	if b := getBatch(t, s, b.ID); b.ProcessingStatus != "in_progress" {
		t.Fatalf("ended early: %+v", b)
	}
	clock.Advance(time.Nanosecond)
	b = getBatch(t, s, b.ID)
	wantURL := s.URL + batchesPath + "/" + b.ID + "/results"
	if b.ProcessingStatus != "ended" || b.EndedAt == nil || !b.EndedAt.Equal(start.Add(DefaultBatchProcessingTime)) ||
		b.ResultsURL == nil || *b.ResultsURL != wantURL {
		t.Fatalf("ended batch: %+v", b)
	}
	if diff := cmp.Diff(map[string]int{"processing": 0, "succeeded": 1, "errored": 3, "canceled": 0, "expired": 0}, b.RequestCounts); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}

	lines := resultsOf(t, s, b.ID)
	var order []string
	byID := map[string]map[string]json.RawMessage{}
	for _, l := range lines {
		order = append(order, customID(l))
		byID[customID(l)] = l
	}
	if diff := cmp.Diff([]string{"too-many-tokens", "streaming", "unknown-model", "good"}, order); diff != "" {
		t.Errorf("result order (-want +got):\n%s", diff)
	}

	// The succeeded message is the one POST /v1/messages gives, but for its
	// id and service tier.
	var res struct {
		Type    string         `json:"type"`
		Message map[string]any `json:"message"`
	}
	if err := json.Unmarshal(byID["good"]["result"], &res); err != nil || res.Type != "succeeded" {
		t.Fatalf("good: %s (%v)", byID["good"]["result"], err)
	}
	direct := postMessage(t, s, good)
	if res.Message["usage"].(map[string]any)["service_tier"] != "batch" {
		t.Errorf("service tier: %v", res.Message["usage"])
	}
	for _, m := range []map[string]any{direct, res.Message} {
		delete(m, "id")
		delete(m["usage"].(map[string]any), "service_tier")
	}
	if diff := cmp.Diff(direct, res.Message); diff != "" {
		t.Errorf("batch message differs from POST /v1/messages (-direct +batch):\n%s", diff)
	}

	// Errored requests carry the error body POST /v1/messages would give.
	for id, want := range map[string][2]string{
		"unknown-model":   {wire.ErrNotFound, "model: mms-nope"},
		"streaming":       {wire.ErrInvalidRequest, "stream: batch requests cannot be streamed"},
		"too-many-tokens": {wire.ErrInvalidRequest, "max_tokens: 9000 > 8192"},
	} {
		var er struct {
			Type  string `json:"type"`
			Error struct {
				Type  string      `json:"type"`
				Error errorDetail `json:"error"`
				// request_id must be present and null.
				RequestID *string `json:"request_id"`
			} `json:"error"`
		}
		raw := byID[id]["result"]
		if err := json.Unmarshal(raw, &er); err != nil || er.Type != "errored" || er.Error.Type != "error" ||
			er.Error.Error.Type != want[0] || !strings.Contains(er.Error.Error.Message, want[1]) ||
			!strings.Contains(string(raw), `"request_id":null`) {
			t.Errorf("%s: %s", id, raw)
		}
		if id == "too-many-tokens" {
			_, direct := post(t, s, messagesPath, tooMany)
			if !strings.Contains(string(direct), er.Error.Error.Message) {
				t.Errorf("errored message %q is not what POST /v1/messages says: %s", er.Error.Error.Message, direct)
			}
		}
	}

	resp, rb = post(t, s, batchesPath+"/"+b.ID+"/cancel", "")
	wantError(t, resp, rb, http.StatusBadRequest, wire.ErrInvalidRequest, "already ended")

	resp, rb = send(t, s, newReq(t, s, http.MethodDelete, batchesPath+"/"+b.ID, nil))
	if resp.StatusCode != 200 || string(rb) != `{"id":"`+b.ID+`","type":"message_batch_deleted"}`+"\n" {
		t.Fatalf("delete: %d %s", resp.StatusCode, rb)
	}
	for _, path := range []string{"", "/results"} {
		resp, rb = get(t, s, batchesPath+"/"+b.ID+path)
		wantError(t, resp, rb, http.StatusNotFound, wire.ErrNotFound, b.ID)
	}
	resp, rb = send(t, s, newReq(t, s, http.MethodDelete, batchesPath+"/"+b.ID, nil))
	wantError(t, resp, rb, http.StatusNotFound, wire.ErrNotFound, b.ID)
}

// tenRequests is a batch of ten good requests r0…r9.
func tenRequests() string {
	var pairs []string
	for i := range 10 {
		pairs = append(pairs, fmt.Sprintf("r%d", i), hiParams(fmt.Sprintf("number %d", i)))
	}
	return batchBody(pairs...)
}

func TestBatchCancel(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	s.SetBatchProcessingTime(10 * time.Second) // request i is done at (i+1) s
	start := clock.Now()
	b := createBatch(t, s, tenRequests())

	clock.Advance(3500 * time.Millisecond) // r0…r2 done, r3 running
	resp, rb := post(t, s, batchesPath+"/"+b.ID+"/cancel", "")
	c := decodeBatch(t, resp, rb)
	if c.ProcessingStatus != "canceling" || c.CancelInitiatedAt == nil || !c.CancelInitiatedAt.Equal(clock.Now()) ||
		c.EndedAt != nil || c.RequestCounts["processing"] != 10 {
		t.Fatalf("canceling: %+v", c)
	}
	clock.Advance(400 * time.Millisecond)
	resp, rb = post(t, s, batchesPath+"/"+b.ID+"/cancel", "")
	if again := decodeBatch(t, resp, rb); !cmp.Equal(c, again) {
		t.Errorf("second cancel changed the batch:\n%+v\n%+v", c, again)
	}
	resp, rb = send(t, s, newReq(t, s, http.MethodDelete, batchesPath+"/"+b.ID, nil))
	wantError(t, resp, rb, http.StatusBadRequest, wire.ErrInvalidRequest, "still processing")

	clock.Advance(100 * time.Millisecond) // r3 completes at 4 s: the batch ends
	e := getBatch(t, s, b.ID)
	if e.ProcessingStatus != "ended" || !e.EndedAt.Equal(start.Add(4*time.Second)) || !e.CancelInitiatedAt.Equal(*c.CancelInitiatedAt) {
		t.Fatalf("ended: %+v", e)
	}
	if diff := cmp.Diff(map[string]int{"processing": 0, "succeeded": 4, "errored": 0, "canceled": 6, "expired": 0}, e.RequestCounts); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
	got := map[string]string{}
	for _, l := range resultsOf(t, s, b.ID) {
		got[customID(l)] = resultType(t, l)
		if resultType(t, l) == "canceled" && string(l["result"]) != `{"type":"canceled"}` {
			t.Errorf("canceled result %s", l["result"])
		}
	}
	for i := range 10 {
		want := "canceled"
		if i < 4 {
			want = "succeeded"
		}
		if id := fmt.Sprintf("r%d", i); got[id] != want {
			t.Errorf("%s: %q, want %q", id, got[id], want)
		}
	}
}

func TestBatchExpiryAndArchive(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	s.SetBatchProcessingTime(48 * time.Hour) // request i is done at (i+1)·12 h
	start := clock.Now()
	body := batchBody("a", hiParams("a"), "b", hiParams("b"), "c", hiParams("c"), "d", hiParams("d"))
	b := createBatch(t, s, body)
	clock.Advance(24*time.Hour - time.Second)
	if b := getBatch(t, s, b.ID); b.ProcessingStatus != "in_progress" || b.RequestCounts["processing"] != 4 {
		t.Fatalf("before expiry: %+v", b)
	}
	clock.Advance(time.Second)
	e := getBatch(t, s, b.ID)
	if e.ProcessingStatus != "ended" || !e.EndedAt.Equal(e.ExpiresAt) || !e.ExpiresAt.Equal(start.Add(24*time.Hour)) {
		t.Fatalf("expired: %+v", e)
	}
	if diff := cmp.Diff(map[string]int{"processing": 0, "succeeded": 2, "errored": 0, "canceled": 0, "expired": 2}, e.RequestCounts); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
	got := map[string]string{}
	for _, l := range resultsOf(t, s, b.ID) {
		got[customID(l)] = resultType(t, l)
	}
	if diff := cmp.Diff(map[string]string{"a": "succeeded", "b": "succeeded", "c": "expired", "d": "expired"}, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}

	clock.Advance(28*24*time.Hour - time.Second) // 29 days after creation, less a second
	if a := getBatch(t, s, b.ID); a.ArchivedAt != nil {
		t.Fatalf("archived early: %+v", a)
	}
	clock.Advance(time.Second)
	a := getBatch(t, s, b.ID)
	if a.ArchivedAt == nil || !a.ArchivedAt.Equal(start.Add(29*24*time.Hour)) {
		t.Fatalf("archive: %+v", a)
	}
	resp, rb := get(t, s, batchesPath+"/"+b.ID+"/results")
	wantError(t, resp, rb, http.StatusNotFound, wire.ErrNotFound, "archived")
}

func TestBatchBetasCarriedToProcessing(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	body := batchBody("fast", create(`"messages":[{"role":"user","content":"x"}],"speed":"fast"`))
	b := createBatch(t, s, body, "fast-mode-2026-02-01")
	clock.Advance(DefaultBatchProcessingTime)
	lines := resultsOf(t, s, b.ID)
	if len(lines) != 1 || resultType(t, lines[0]) != "succeeded" {
		t.Fatalf("a beta request was not run with its beta: %v", lines)
	}
}

func TestBatchList(t *testing.T) {
	s := newTestServer(t)
	var ids []string // newest first
	for i := range 5 {
		b := createBatch(t, s, batchBody("a", hiParams(fmt.Sprint(i))))
		ids = append([]string{b.ID}, ids...)
	}
	page := func(query string) (ids []string, hasMore bool) {
		t.Helper()
		resp, body := get(t, s, batchesPath+query)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", query, resp.StatusCode, body)
		}
		var p idPage[batchRecord]
		if err := json.Unmarshal(body, &p); err != nil {
			t.Fatal(err)
		}
		for _, b := range p.Data {
			ids = append(ids, b.ID)
		}
		return ids, p.HasMore
	}
	if got, more := page(""); !cmp.Equal(got, ids) || more {
		t.Errorf("all: %v %v, want %v", got, more, ids)
	}
	if got, more := page("?limit=2"); !cmp.Equal(got, ids[:2]) || !more {
		t.Errorf("first page: %v %v", got, more)
	}
	if got, more := page("?limit=2&after_id=" + ids[1]); !cmp.Equal(got, ids[2:4]) || !more {
		t.Errorf("after: %v %v", got, more)
	}
	if got, more := page("?limit=2&before_id=" + ids[4]); !cmp.Equal(got, ids[2:4]) || !more {
		t.Errorf("before: %v %v", got, more)
	}
	resp, body := get(t, s, batchesPath+"?limit=0")
	wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, "limit")
}

func TestBatchRequestsGoThroughTheMessagesEndpoint(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	// A file reference is checked by the POST /v1/messages route (files.go),
	// not by parseMessages: the batch must get the same answer.
	params := create(`"messages":[{"role":"user","content":[{"type":"document","source":{"type":"file","file_id":"file_nope"}},{"type":"text","text":"sum up"}]}]`)
	resp, direct := post(t, s, messagesPath, params)
	if resp.StatusCode == 200 {
		t.Fatalf("direct call accepted a missing file: %s", direct)
	}
	want := decodeError(t, direct)
	b := createBatch(t, s, batchBody("doc", params))
	clock.Advance(DefaultBatchProcessingTime)
	lines := resultsOf(t, s, b.ID)
	var got struct {
		Type  string
		Error batchErrorBody
	}
	if err := json.Unmarshal(lines[0]["result"], &got); err != nil || got.Type != "errored" ||
		got.Error.Error != want.Error || got.Error.RequestID != nil {
		t.Errorf("batch result %s, direct answer %s", lines[0]["result"], direct)
	}
}

func TestWithBatchProcessingTime(t *testing.T) {
	for _, tt := range []struct {
		name string
		d    time.Duration
		want time.Duration // when the batch ends
	}{
		{"ten seconds", 10 * time.Second, 10 * time.Second},
		{"negative counts as zero", -time.Second, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock()
			s := newTestServer(t, WithClock(clock.Now), WithBatchProcessingTime(tt.d))
			start := clock.Now()
			b := createBatch(t, s, tenRequests())
			if tt.want > 0 {
				clock.Advance(tt.want - time.Nanosecond)
				if b := getBatch(t, s, b.ID); b.ProcessingStatus != "in_progress" {
					t.Fatalf("before %v: %s", tt.want, b.ProcessingStatus)
				}
				clock.Advance(time.Nanosecond)
			}
			if b := getBatch(t, s, b.ID); b.ProcessingStatus != "ended" || b.EndedAt == nil || !b.EndedAt.Equal(start.Add(tt.want)) {
				t.Fatalf("at %v: %s, ended_at %v", tt.want, b.ProcessingStatus, b.EndedAt)
			}
		})
	}
}
