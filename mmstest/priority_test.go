package mmstest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// priorityHeaders reads the six priority headers of resp ("" when absent).
func priorityHeaders(resp *http.Response) [6]string {
	var got [6]string
	for i, name := range []string{"Limit", "Remaining", "Reset"} {
		got[i] = resp.Header.Get(priorityInputPrefix + name)
		got[3+i] = resp.Header.Get(priorityOutputPrefix + name)
	}
	return got
}

// usageTier is the usage.service_tier of a Message body.
func usageTier(t *testing.T, body []byte) string {
	t.Helper()
	var m struct {
		Usage struct {
			ServiceTier  string `json:"service_tier"`
			InputTokens  int    `json:"input_tokens"`
			OutputTokens int    `json:"output_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	// The arithmetic below assumes the "Hi" reply: 8 input, 3 output tokens.
	if m.Usage.InputTokens != 8 || m.Usage.OutputTokens != 3 {
		t.Fatalf("usage %+v, want 8 input and 3 output tokens", m.Usage)
	}
	return m.Usage.ServiceTier
}

func TestPriorityCommitment(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now), WithPriorityCommitment(PriorityCommitment{
		Model: "mms-large-1", InputTokensPerMinute: 20, OutputTokensPerMinute: 10, Model46OrLater: true}))
	none := [6]string{}
	steps := []struct {
		name    string
		advance time.Duration
		body    string
		tier    string
		// input limit, remaining, reset; output limit, remaining, reset
		// (the resets as durations from the step's time)
		headers [6]string
	}{
		// 8 input, 3 output: 20-8 = 12 left, full again in 8/(20/60) = 24s;
		// 10-3 = 7, full in 3/(10/60) = 18s.
		{"auto by default", 0, create(`"messages":` + hi), "priority", [6]string{"20", "12", "24s", "10", "7", "18s"}},
		// US-only on a 4.6 model: ceil(8*1.1) = 9, ceil(3*1.1) = 4.
		{"us geo burns 1.1", 0, create(`"inference_geo":"us","service_tier":"auto","messages":` + hi), "priority", [6]string{"20", "3", "51s", "10", "3", "42s"}},
		// 3 left < 8: standard, nothing drawn, still reported.
		{"exhausted", 0, create(`"messages":` + hi), "standard", [6]string{"20", "3", "51s", "10", "3", "42s"}},
		{"standard_only never draws", 0, create(`"service_tier":"standard_only","messages":` + hi), "standard", none},
		{"uncommitted model", 0, `{"model":"mms-small-1","max_tokens":100,"messages":` + hi + `}`, "standard", none},
		// 51s later the input bucket holds 20 again, the output 10.
		{"refilled", 51 * time.Second, create(`"messages":` + hi), "priority", [6]string{"20", "12", "24s", "10", "7", "18s"}},
		{"alias", 0, `{"model":"mms-large-latest","max_tokens":100,"messages":` + hi + `}`, "priority", [6]string{"20", "4", "48s", "10", "4", "36s"}},
	}
	for _, st := range steps {
		clock.Advance(st.advance)
		resp, body := post(t, s, "/v1/messages", st.body)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: status %d: %s", st.name, resp.StatusCode, body)
		}
		if got := usageTier(t, body); got != st.tier {
			t.Errorf("%s: service_tier %q, want %q", st.name, got, st.tier)
		}
		want := st.headers
		for _, i := range []int{2, 5} {
			if d, err := time.ParseDuration(want[i]); err == nil {
				want[i] = clock.Now().Add(d).Format(time.RFC3339)
			}
		}
		if diff := cmp.Diff(want, priorityHeaders(resp)); diff != "" {
			t.Errorf("%s: headers (-want +got):\n%s", st.name, diff)
		}
	}
}

// TestPriorityCommitmentStream: a stream's message_start carries the tier,
// its response the headers.
func TestPriorityCommitmentStream(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now), WithPriorityCommitment(PriorityCommitment{
		Model: "mms-large-1", InputTokensPerMinute: 20, OutputTokensPerMinute: 10}))
	at := func(d time.Duration) string { return clock.Now().Add(d).Format(time.RFC3339) }
	resp, body := post(t, s, "/v1/messages", create(`"stream":true,"messages":`+hi))
	want := [6]string{"20", "12", at(24 * time.Second), "10", "7", at(18 * time.Second)}
	if diff := cmp.Diff(want, priorityHeaders(resp)); diff != "" {
		t.Errorf("headers (-want +got):\n%s", diff)
	}
	if !strings.Contains(string(body), `"service_tier":"priority"`) {
		t.Errorf("message_start without service_tier priority:\n%s", body)
	}
}

// TestPriorityCommitmentSkipsBatches: a batch's requests are served at the
// batch tier and leave the commitment alone.
func TestPriorityCommitmentSkipsBatches(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now), WithPriorityCommitment(PriorityCommitment{
		Model: "mms-large-1", InputTokensPerMinute: 8, OutputTokensPerMinute: 3}))
	b := createBatch(t, s, batchBody("a", create(`"messages":`+hi)))
	clock.Advance(DefaultBatchProcessingTime)
	lines := resultsOf(t, s, b.ID)
	if len(lines) != 1 || !strings.Contains(string(lines[0]["result"]), `"service_tier":"batch"`) {
		t.Fatalf("results: %s", lines)
	}
	// The commitment holds exactly one "Hi" request: had the batch drawn
	// it, this one would be standard.
	resp, body := post(t, s, "/v1/messages", create(`"messages":`+hi))
	if got := usageTier(t, body); got != "priority" {
		t.Errorf("service_tier %q after a batch, want priority", got)
	}
	if got := priorityHeaders(resp); got[1] != "0" || got[4] != "0" {
		t.Errorf("remaining %q/%q, want 0/0", got[1], got[4])
	}
}

func TestNoPriorityHeadersByDefault(t *testing.T) {
	s := newTestServer(t)
	resp, body := post(t, s, "/v1/messages", create(`"messages":`+hi))
	if got := priorityHeaders(resp); got != ([6]string{}) {
		t.Errorf("priority headers %q without a commitment", got)
	}
	if got := usageTier(t, body); got != "standard" {
		t.Errorf("service_tier %q, want standard", got)
	}
}
