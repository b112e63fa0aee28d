package mmstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// resultsByID maps each custom_id of an ended batch to its raw result.
func resultsByID(t *testing.T, s *Server, id string) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, l := range resultsOf(t, s, id) {
		got[customID(l)] = string(l["result"])
	}
	return got
}

func TestBatchOutcomes(t *testing.T) {
	erroredAs := func(errType, msg string) string {
		return fmt.Sprintf(`{"type":"errored","error":{"type":"error","error":{"type":%q,"message":%q},"request_id":null}}`, errType, msg)
	}
	tests := []struct {
		name       string
		outcome    BatchOutcome
		want       string // r0's result; "succeeded" = run as usual
		wantCounts map[string]int
	}{
		{"zero value runs as usual", BatchOutcome{}, "succeeded",
			map[string]int{"processing": 0, "succeeded": 10, "errored": 0, "canceled": 0, "expired": 0}},
		{"errored with defaults", BatchOutcome{Type: "errored"}, erroredAs(wire.ErrAPI, "Internal server error"),
			map[string]int{"processing": 0, "succeeded": 9, "errored": 1, "canceled": 0, "expired": 0}},
		{"errored as chosen", BatchOutcome{Type: "errored", ErrorType: wire.ErrOverloaded, Message: "busy"}, erroredAs(wire.ErrOverloaded, "busy"),
			map[string]int{"processing": 0, "succeeded": 9, "errored": 1, "canceled": 0, "expired": 0}},
		{"canceled", BatchOutcome{Type: "canceled"}, `{"type":"canceled"}`,
			map[string]int{"processing": 0, "succeeded": 9, "errored": 0, "canceled": 1, "expired": 0}},
		{"expired", BatchOutcome{Type: "expired"}, `{"type":"expired"}`,
			map[string]int{"processing": 0, "succeeded": 9, "errored": 0, "canceled": 0, "expired": 1}},
		{"unknown type", BatchOutcome{Type: "lost"}, erroredAs(wire.ErrAPI, `mmstest: unknown BatchOutcome type "lost"`),
			map[string]int{"processing": 0, "succeeded": 9, "errored": 1, "canceled": 0, "expired": 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock()
			s := newTestServer(t, WithClock(clock.Now), WithBatchOutcomes(func(id string, _ int) BatchOutcome {
				if id == "r0" {
					return tt.outcome
				}
				return BatchOutcome{}
			}))
			b := createBatch(t, s, tenRequests())
			clock.Advance(DefaultBatchProcessingTime)
			e := getBatch(t, s, b.ID)
			if diff := cmp.Diff(tt.wantCounts, e.RequestCounts); diff != "" {
				t.Errorf("counts (-want +got):\n%s", diff)
			}
			got := resultsByID(t, s, b.ID)
			if tt.want == "succeeded" {
				var r struct{ Type string }
				if err := json.Unmarshal([]byte(got["r0"]), &r); err != nil || r.Type != "succeeded" {
					t.Errorf("r0: %s", got["r0"])
				}
			} else if got["r0"] != tt.want {
				t.Errorf("r0: %s\nwant %s", got["r0"], tt.want)
			}
			if r1 := got["r1"]; len(r1) < 22 || r1[:22] != `{"type":"succeeded","m` {
				t.Errorf("r1, left as usual: %.40s", r1)
			}
		})
	}
}

// TestBatchOutcomesOnlyForRequestsDoneInTime: a request canceled or
// expired by timing stays so whatever the function says, and the function
// is asked only about the requests done in time.
func TestBatchOutcomesOnlyForRequestsDoneInTime(t *testing.T) {
	clock := newFakeClock()
	var asked []string
	s := newTestServer(t, WithClock(clock.Now), WithBatchProcessingTime(10*time.Second),
		WithBatchOutcomes(func(id string, _ int) BatchOutcome {
			asked = append(asked, id)
			return BatchOutcome{Type: "errored"}
		}))
	b := createBatch(t, s, tenRequests())
	clock.Advance(1500 * time.Millisecond) // r0 done, r1 running
	post(t, s, batchesPath+"/"+b.ID+"/cancel", "")
	clock.Advance(time.Second)
	e := getBatch(t, s, b.ID)
	if diff := cmp.Diff(map[string]int{"processing": 0, "succeeded": 0, "errored": 2, "canceled": 8, "expired": 0}, e.RequestCounts); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"r0", "r1"}, asked); diff != "" {
		t.Errorf("asked about (-want +got):\n%s", diff)
	}
}

func TestSetBatchOutcomes(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now), WithBatchOutcomes(func(string, int) BatchOutcome { return BatchOutcome{Type: "expired"} }))
	first := createBatch(t, s, batchBody("a", hiParams("a")))
	s.SetBatchOutcomes(nil) // before the batch ends: it runs as usual
	clock.Advance(DefaultBatchProcessingTime)
	if e := getBatch(t, s, first.ID); e.RequestCounts["succeeded"] != 1 {
		t.Errorf("after SetBatchOutcomes(nil): %v", e.RequestCounts)
	}
	s.SetBatchOutcomes(func(string, int) BatchOutcome { return BatchOutcome{Type: "canceled"} })
	second := createBatch(t, s, batchBody("a", hiParams("a")))
	clock.Advance(DefaultBatchProcessingTime)
	if e := getBatch(t, s, second.ID); e.RequestCounts["canceled"] != 1 {
		t.Errorf("after SetBatchOutcomes(canceled): %v", e.RequestCounts)
	}
}

// TestBatchSubmissions: each created batch counts once per custom_id, a
// refused create not at all, and the outcome function sees the number (and
// may call BatchSubmissions without deadlocking).
func TestBatchSubmissions(t *testing.T) {
	clock := newFakeClock()
	type call struct {
		ID               string
		Submission, Seen int
	}
	var calls []call
	var s *Server
	s = newTestServer(t, WithClock(clock.Now), WithBatchOutcomes(func(id string, n int) BatchOutcome {
		calls = append(calls, call{id, n, s.BatchSubmissions(id)})
		if n == 1 {
			return BatchOutcome{Type: "expired"} // the retry of the second batch succeeds
		}
		return BatchOutcome{}
	}))
	createBatch(t, s, batchBody("a", hiParams("a"), "b", hiParams("b")))
	resp, body := post(t, s, batchesPath, batchBody("a", hiParams("a"), "a", hiParams("a")))
	wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, "duplicate custom_id")
	second := createBatch(t, s, batchBody("a", hiParams("a")))
	for id, want := range map[string]int{"a": 2, "b": 1, "c": 0} {
		if got := s.BatchSubmissions(id); got != want {
			t.Errorf("BatchSubmissions(%q) = %d, want %d", id, got, want)
		}
	}
	clock.Advance(DefaultBatchProcessingTime)
	resultsByID(t, s, second.ID)
	// The second batch ends when its results are looked up, the first one
	// on the list that follows.
	get(t, s, batchesPath)
	want := []call{{"a", 2, 2}, {"a", 1, 2}, {"b", 1, 1}}
	if diff := cmp.Diff(want, calls); diff != "" {
		t.Errorf("outcome calls (-want +got):\n%s", diff)
	}
	if e := getBatch(t, s, second.ID); e.RequestCounts["succeeded"] != 1 {
		t.Errorf("second submission: %v", e.RequestCounts)
	}
}

// TestBatchCreateAnswerLost is the ambiguous create: the batch exists and
// is listed (and counted) although the client saw only an error.
func TestBatchCreateAnswerLost(t *testing.T) {
	s := newTestServer(t)
	s.InjectFault(Fault{Method: http.MethodPost, Path: batchesPath, DropAfterBytes: 1, Times: 1})
	req := newReq(t, s, http.MethodPost, batchesPath, strings.NewReader(batchBody("lost", hiParams("a"))))
	req.Header.Set(wire.HeaderContentType, "application/json")
	resp, err := s.Client().Do(req)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("create answered %d; want the connection dropped", resp.StatusCode)
	}
	_, body := get(t, s, batchesPath)
	var page idPage[batchRecord]
	if err := json.Unmarshal(body, &page); err != nil {
		t.Fatal(err)
	}
	if len(page.Data) != 1 || page.Data[0].RequestCounts["processing"] != 1 {
		t.Fatalf("listed %+v, want the one batch created", page.Data)
	}
	if n := s.BatchSubmissions("lost"); n != 1 {
		t.Errorf("BatchSubmissions = %d, want 1", n)
	}
}
