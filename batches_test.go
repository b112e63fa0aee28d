package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// batchClock is a settable clock for mmstest.WithClock.
type batchClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *batchClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *batchClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newBatchFake starts mmstest on a fake clock and a client on it.
func newBatchFake(t *testing.T, opts ...option.RequestOption) (*mms.Client, *mmstest.Server, *batchClock) {
	t.Helper()
	clock := &batchClock{now: time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)}
	srv := mmstest.NewServer(mmstest.WithClock(clock.Now))
	t.Cleanup(srv.Close)
	base := []option.RequestOption{option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL)}
	c, err := mms.NewClient(append(base, opts...)...)
	require.NoError(t, err)
	return c, srv, clock
}

func hiRequest(id, text string) mms.BatchRequest {
	return mms.BatchRequest{CustomID: id, Params: mms.MessageCreateParams{
		Model: "mms-large-1", MaxTokens: 256, Messages: []mms.MessageParam{mms.UserText(text)}}}
}

var lookupTool = mms.CustomTool{
	Name:        "lookup_city",
	Description: "Facts about a city.",
	InputSchema: mms.InputSchema(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city","days"]}`),
}

// variedParams returns params of several kinds for request i: plain,
// tool use, stop sequence, thinking, system prompt, and every 100th one
// for a model the fake does not serve (an errored result).
func variedParams(i int) mms.MessageCreateParams {
	p := mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 512,
		Messages: []mms.MessageParam{mms.UserText(fmt.Sprintf("request number %d", i))}}
	switch i % 5 {
	case 1:
		p.Tools = mms.Tools{lookupTool}
		p.Messages = []mms.MessageParam{mms.UserText(fmt.Sprintf("please lookup_city for %d", i))}
	case 2:
		p.StopSequences = []string{"number"}
	case 3:
		p.MaxTokens = 4096
		p.Thinking = mms.ThinkingConfigEnabled{BudgetTokens: 1024}
	case 4:
		p.System = mms.SystemText("Be brief.")
		p.Temperature = mms.Ptr(0.0)
	}
	if i%100 == 99 {
		p.Model = "mms-nope"
	}
	return p
}

// withoutIDs gives a message as JSON with every "id" member and the
// service tier removed: what a batch result and Messages.Create share.
func withoutIDs(t *testing.T, m *mms.Message) any {
	t.Helper()
	raw, err := json.Marshal(m)
	require.NoError(t, err)
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	var strip func(any)
	strip = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			delete(x, "id")
			for _, e := range x {
				strip(e)
			}
		case []any:
			for _, e := range x {
				strip(e)
			}
		}
	}
	strip(v)
	delete(v.(map[string]any)["usage"].(map[string]any), "service_tier")
	return v
}

func TestBatchEndToEnd(t *testing.T) {
	c, srv, clock := newBatchFake(t)
	ctx := context.Background()
	const n = 1000
	params := batchRequests(n)
	b, err := c.Messages.Batches.Create(ctx, mms.BatchCreateParams{Requests: params})
	require.NoError(t, err)
	if b.ProcessingStatus != mms.BatchStatusInProgress || b.RequestCounts.Processing != n ||
		b.RequestCounts.Total() != n || b.ResultsURL != nil || b.EndedAt != nil {
		t.Fatalf("created: %+v", b)
	}
	if got := srv.Requests()[0].Header.Get("Vendor-Beta"); got != "" {
		t.Errorf("GA create sent vendor-beta %q", got)
	}

	clock.Advance(mmstest.DefaultBatchProcessingTime)
	ended, err := c.Messages.Batches.Wait(ctx, b.ID, mms.BatchWaitParams{PollInterval: time.Millisecond})
	require.NoError(t, err)
	wantCounts := mms.BatchRequestCounts{Succeeded: n - n/100, Errored: n / 100}
	if ended.ProcessingStatus != mms.BatchStatusEnded || !cmp.Equal(ended.RequestCounts, wantCounts) ||
		ended.ResultsURL == nil || !strings.HasSuffix(*ended.ResultsURL, "/v1/messages/batches/"+b.ID+"/results") {
		t.Fatalf("ended: %+v", ended)
	}

	results := map[string]mms.BatchResult{}
	for r, err := range c.Messages.Batches.Results(ctx, b.ID) {
		require.NoError(t, err)
		if _, dup := results[r.CustomID]; dup {
			t.Fatalf("custom_id %s came back twice", r.CustomID)
		}
		results[r.CustomID] = r
	}
	last := srv.Requests()[len(srv.Requests())-1]
	if last.Path != "/v1/messages/batches/"+b.ID+"/results" || last.Header.Get("Accept") != "application/x-jsonl" {
		t.Errorf("results request: %s %v", last.Path, last.Header)
	}
	if len(results) != n {
		t.Fatalf("%d results for %d requests", len(results), n)
	}
	for i, req := range params {
		r, ok := results[req.CustomID]
		if !ok {
			t.Fatalf("no result for %s", req.CustomID)
		}
		switch v := r.Result.(type) {
		case mms.SucceededBatchResult:
			if i%100 == 99 {
				t.Fatalf("%s succeeded for an unknown model", req.CustomID)
			}
			if v.Message.Usage.ServiceTier != mms.ServiceTierBatch {
				t.Errorf("%s: service tier %q", req.CustomID, v.Message.Usage.ServiceTier)
			}
			if len(v.Message.Content) == 0 {
				t.Fatalf("%s: empty message", req.CustomID)
			}
			if i%7 != 0 { // every 7th request (all kinds of params) is compared with Create
				continue
			}
			direct, err := c.Messages.Create(ctx, req.Params)
			require.NoError(t, err)
			if diff := cmp.Diff(withoutIDs(t, direct), withoutIDs(t, &v.Message)); diff != "" {
				t.Fatalf("%s: batch message differs from Create (-create +batch):\n%s", req.CustomID, diff)
			}
		case mms.ErroredBatchResult:
			apiErr := v.Err()
			if i%100 != 99 || !errors.Is(apiErr, mms.ErrNotFound) || apiErr.Message != "model: mms-nope" ||
				v.Error.Error.Type != "not_found_error" {
				t.Fatalf("%s errored: %+v", req.CustomID, v.Error)
			}
		default:
			t.Fatalf("%s: %T", req.CustomID, r.Result)
		}
	}
}

// batchRequests returns n requests r0000… with variedParams.
func batchRequests(n int) []mms.BatchRequest {
	out := make([]mms.BatchRequest, n)
	for i := range out {
		out[i] = mms.BatchRequest{CustomID: fmt.Sprintf("r%04d", i), Params: variedParams(i)}
	}
	return out
}

func TestBatchCreateValidation(t *testing.T) {
	good := func(n int) []mms.BatchRequest {
		out := make([]mms.BatchRequest, n)
		for i := range out {
			out[i] = hiRequest(fmt.Sprintf("id-%d", i), "hi")
		}
		return out
	}
	with := func(n, at int, edit func(*mms.BatchRequest)) []mms.BatchRequest {
		out := good(n)
		edit(&out[at])
		return out
	}
	tests := []struct {
		name       string
		requests   []mms.BatchRequest
		field      string
		ruleSubstr string
	}{
		{"no requests", nil, "requests", "at least one"},
		{"too many requests", make([]mms.BatchRequest, mms.MaxBatchRequests+1), "requests", "at most 100000 requests, got 100001"},
		{"duplicate custom_id", with(8, 7, func(r *mms.BatchRequest) { r.CustomID = "id-2" }),
			"requests[7].custom_id", `duplicates requests[2].custom_id "id-2"`},
		{"custom_id pattern", with(3, 1, func(r *mms.BatchRequest) { r.CustomID = "has space" }),
			"requests[1].custom_id", "^[a-zA-Z0-9_-]{1,64}$"},
		{"custom_id non-ASCII", with(3, 2, func(r *mms.BatchRequest) { r.CustomID = "café" }),
			"requests[2].custom_id", "must match"},
		{"custom_id too long", with(3, 0, func(r *mms.BatchRequest) { r.CustomID = strings.Repeat("x", 65) }),
			"requests[0].custom_id", "at most 64 characters, got 65"},
		{"custom_id empty", with(3, 0, func(r *mms.BatchRequest) { r.CustomID = "" }),
			"requests[0].custom_id", "must not be empty"},
		{"bad params", with(5, 3, func(r *mms.BatchRequest) {
			r.Params.Messages = []mms.MessageParam{mms.UserMessage(mms.TextBlock{Text: ""})}
		}), "requests[3].params.messages[0].content[0].text", ""},
		{"params without model", with(5, 4, func(r *mms.BatchRequest) { r.Params.Model = "" }),
			"requests[4].params.model", "required"},
	}
	s := newScriptServer(t)
	c := newTestClient(t, s)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mms.BatchCreateParams{Requests: tt.requests}
			_, err := c.Messages.Batches.Create(context.Background(), p)
			var ve *mms.ValidationError
			if !errors.As(err, &ve) || !errors.Is(err, mms.ErrInvalidParams) {
				t.Fatalf("err = %v, want a *ValidationError", err)
			}
			if ve.Field != tt.field || !strings.Contains(ve.Rule, tt.ruleSubstr) {
				t.Errorf("field %q rule %q, want %q with %q", ve.Field, ve.Rule, tt.field, tt.ruleSubstr)
			}
			if err2 := p.Validate(); err2 == nil || err2.Error() != err.Error() {
				t.Errorf("Validate = %v, Create = %v", err2, err)
			}
		})
	}
	if n := len(s.requests()); n != 0 {
		t.Errorf("%d requests sent for invalid params", n)
	}
	// The limits themselves are accepted.
	edge := mms.BatchCreateParams{Requests: with(2, 1, func(r *mms.BatchRequest) { r.CustomID = strings.Repeat("Az09_-", 10) + "abcd" })}
	if err := edge.Validate(); err != nil {
		t.Errorf("64-character custom_id: %v", err)
	}
}

func TestBatchCreateTooLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("encodes a 257 MiB body")
	}
	s := newScriptServer(t)
	c := newTestClient(t, s)
	text := strings.Repeat("a", 129<<20) // used by both requests: the body is over 256 MiB
	p := mms.BatchCreateParams{Requests: []mms.BatchRequest{hiRequest("a", text), hiRequest("b", text)}}
	_, err := c.Messages.Batches.Create(context.Background(), p)
	var tooLarge *mms.RequestTooLargeError
	if !errors.As(err, &tooLarge) || !errors.Is(err, mms.ErrRequestTooLarge) || tooLarge.Sent || tooLarge.Limit != 256<<20 {
		t.Fatalf("err = %v", err)
	}
	if n := len(s.requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

func TestBatchCreateMergesParamsBetas(t *testing.T) {
	c, srv, clock := newBatchFake(t)
	fast := hiRequest("fast", "quick")
	fast.Params.Speed = mms.SpeedFast
	cm := hiRequest("cm", "edit")
	cm.Params.ContextManagement = &mms.ContextManagement{}
	p := mms.BatchCreateParams{Requests: []mms.BatchRequest{fast, hiRequest("plain", "x"), cm}}
	b, err := c.Messages.Batches.Create(context.Background(), p, option.WithBeta("output-128k-2025-02-19"))
	require.NoError(t, err)
	got := srv.Requests()[0].Header.Get("Vendor-Beta")
	for _, want := range []string{"fast-mode-2026-02-01", "context-management-2025-06-27", "output-128k-2025-02-19"} {
		if !strings.Contains(got, want) {
			t.Errorf("vendor-beta %q lacks %s", got, want)
		}
	}
	clock.Advance(mmstest.DefaultBatchProcessingTime)
	for r, err := range c.Messages.Batches.Results(context.Background(), b.ID) {
		require.NoError(t, err)
		if _, ok := r.Result.(mms.SucceededBatchResult); !ok {
			t.Errorf("%s: %#v", r.CustomID, r.Result)
		}
	}
}

func TestBatchCancelAndDeleteRules(t *testing.T) {
	c, srv, clock := newBatchFake(t)
	ctx := context.Background()
	srv.SetBatchProcessingTime(10 * time.Second) // request i is done at (i+1) s
	var reqs []mms.BatchRequest
	for i := range 10 {
		reqs = append(reqs, hiRequest(fmt.Sprintf("r%d", i), fmt.Sprint("hello ", i)))
	}
	b, err := c.Messages.Batches.Create(ctx, mms.BatchCreateParams{Requests: reqs})
	require.NoError(t, err)
	if _, err := c.Messages.Batches.Delete(ctx, b.ID); !errors.Is(err, mms.ErrInvalidRequest) {
		t.Fatalf("delete in progress: %v", err)
	}
	for r, err := range c.Messages.Batches.Results(ctx, b.ID) {
		if !errors.Is(err, mms.ErrNotFound) {
			t.Fatalf("results in progress: %+v, %v", r, err)
		}
	}
	clock.Advance(2500 * time.Millisecond)
	canceling, err := c.Messages.Batches.Cancel(ctx, b.ID)
	require.NoError(t, err)
	if canceling.ProcessingStatus != mms.BatchStatusCanceling || canceling.CancelInitiatedAt == nil || canceling.EndedAt != nil {
		t.Fatalf("canceling: %+v", canceling)
	}
	clock.Advance(time.Second)
	ended, err := c.Messages.Batches.Wait(ctx, b.ID, mms.BatchWaitParams{PollInterval: time.Millisecond})
	require.NoError(t, err)
	if want := (mms.BatchRequestCounts{Succeeded: 3, Canceled: 7}); !cmp.Equal(ended.RequestCounts, want) ||
		!ended.EndedAt.Equal(b.CreatedAt.Add(3*time.Second)) {
		t.Fatalf("ended: %+v", ended)
	}
	kinds := map[string]int{}
	for r, err := range c.Messages.Batches.Results(ctx, b.ID) {
		require.NoError(t, err)
		kinds[fmt.Sprintf("%T", r.Result)]++
	}
	if want := map[string]int{"mms.SucceededBatchResult": 3, "mms.CanceledBatchResult": 7}; !cmp.Equal(kinds, want) {
		t.Errorf("results %v", kinds)
	}
	if _, err := c.Messages.Batches.Cancel(ctx, b.ID); !errors.Is(err, mms.ErrInvalidRequest) {
		t.Errorf("cancel after the end: %v", err)
	}
	del, err := c.Messages.Batches.Delete(ctx, b.ID)
	if err != nil || del.ID != b.ID {
		t.Fatalf("delete: %+v %v", del, err)
	}
	if _, err := c.Messages.Batches.Get(ctx, b.ID); !errors.Is(err, mms.ErrNotFound) {
		t.Errorf("get after delete: %v", err)
	}
	for _, id := range []string{"", ".", ".."} {
		if _, err := c.Messages.Batches.Get(ctx, id); !errors.Is(err, mms.ErrInvalidParams) {
			t.Errorf("Get(%q): %v", id, err)
		}
	}
}

func TestBatchExpiry(t *testing.T) {
	c, srv, clock := newBatchFake(t)
	ctx := context.Background()
	srv.SetBatchProcessingTime(30 * time.Hour) // request i of 5 is done at (i+1)·6 h
	var reqs []mms.BatchRequest
	for i := range 5 {
		reqs = append(reqs, hiRequest(fmt.Sprintf("r%d", i), "slow"))
	}
	b, err := c.Messages.Batches.Create(ctx, mms.BatchCreateParams{Requests: reqs})
	require.NoError(t, err)
	if !b.ExpiresAt.Equal(b.CreatedAt.Add(24 * time.Hour)) {
		t.Errorf("expires_at %v", b.ExpiresAt)
	}
	clock.Advance(25 * time.Hour)
	ended, err := c.Messages.Batches.Wait(ctx, b.ID, mms.BatchWaitParams{})
	require.NoError(t, err)
	if want := (mms.BatchRequestCounts{Succeeded: 4, Expired: 1}); !cmp.Equal(ended.RequestCounts, want) || !ended.EndedAt.Equal(b.ExpiresAt) {
		t.Fatalf("expired: %+v", ended)
	}
	for r, err := range c.Messages.Batches.Results(ctx, b.ID) {
		require.NoError(t, err)
		if _, expired := r.Result.(mms.ExpiredBatchResult); expired != (r.CustomID == "r4") {
			t.Errorf("%s: %T", r.CustomID, r.Result)
		}
	}
}

func TestBatchList(t *testing.T) {
	c, srv, _ := newBatchFake(t)
	ctx := context.Background()
	var newestFirst []string
	for i := range 7 {
		b, err := c.Messages.Batches.Create(ctx, mms.BatchCreateParams{Requests: []mms.BatchRequest{hiRequest("a", fmt.Sprint(i))}})
		require.NoError(t, err)
		newestFirst = append([]string{b.ID}, newestFirst...)
	}
	collect := func(p mms.BatchListParams) ([]string, int) {
		t.Helper()
		srv.ResetRequests()
		var ids []string
		for b, err := range c.Messages.Batches.List(ctx, p) {
			require.NoError(t, err)
			ids = append(ids, b.ID)
		}
		return ids, len(srv.Requests())
	}
	if ids, pages := collect(mms.BatchListParams{Limit: 3}); !cmp.Equal(ids, newestFirst) || pages != 3 {
		t.Errorf("forward: %v in %d pages, want %v in 3", ids, pages, newestFirst)
	}
	if ids, _ := collect(mms.BatchListParams{Limit: 2, AfterID: newestFirst[2]}); !cmp.Equal(ids, newestFirst[3:]) {
		t.Errorf("after %s: %v", newestFirst[2], ids)
	}
	// Backwards from the oldest: pages towards newer batches, each page
	// newest first.
	want := append(append([]string{}, newestFirst[3:6]...), newestFirst[0:3]...)
	if ids, pages := collect(mms.BatchListParams{Limit: 3, BeforeID: newestFirst[6]}); !cmp.Equal(ids, want) || pages != 2 {
		t.Errorf("backward: %v in %d pages, want %v in 2", ids, pages, want)
	}
	page, err := c.Messages.Batches.ListPage(ctx, mms.BatchListParams{Limit: 4})
	require.NoError(t, err)
	if len(page.Data) != 4 || !page.HasMore || *page.FirstID != newestFirst[0] || *page.LastID != newestFirst[3] {
		t.Errorf("page: %+v", page)
	}
	next, err := c.Messages.Batches.ListPage(ctx, mms.BatchListParams{Limit: 4, AfterID: *page.LastID})
	if err != nil || len(next.Data) != 3 || next.HasMore {
		t.Errorf("next page: %+v %v", next, err)
	}
	for _, p := range []mms.BatchListParams{{Limit: 1001}, {Limit: -1}, {AfterID: "a", BeforeID: "b"}} {
		for _, err := range c.Messages.Batches.List(ctx, p) {
			if !errors.Is(err, mms.ErrInvalidParams) {
				t.Errorf("%+v: %v", p, err)
			}
		}
	}
}

func TestBatchWaitPollsUntilEnded(t *testing.T) {
	var polls atomic.Int32
	var clock *batchClock
	count := option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		if polls.Add(1) == 3 {
			clock.Advance(mmstest.DefaultBatchProcessingTime)
		}
		return next(r)
	})
	c, _, clk := newBatchFake(t)
	clock = clk
	ctx := context.Background()
	b, err := c.Messages.Batches.Create(ctx, mms.BatchCreateParams{Requests: []mms.BatchRequest{hiRequest("a", "x")}})
	require.NoError(t, err)
	ended, err := c.Messages.Batches.Wait(ctx, b.ID, mms.BatchWaitParams{PollInterval: time.Millisecond}, count)
	if err != nil || ended.ProcessingStatus != mms.BatchStatusEnded || polls.Load() != 3 {
		t.Fatalf("Wait = %+v, %v after %d polls", ended, err, polls.Load())
	}
}

func TestBatchWaitBackoffRespectsContext(t *testing.T) {
	c, _, _ := newBatchFake(t) // the clock never moves: the batch never ends
	b, err := c.Messages.Batches.Create(context.Background(), mms.BatchCreateParams{Requests: []mms.BatchRequest{hiRequest("a", "x")}})
	require.NoError(t, err)
	var mu sync.Mutex
	var times []time.Time
	record := option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		mu.Lock()
		times = append(times, time.Now())
		mu.Unlock()
		return next(r)
	})

	t.Run("backoff", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
		defer cancel()
		p := mms.BatchWaitParams{PollInterval: 10 * time.Millisecond, MaxPollInterval: 80 * time.Millisecond}
		last, err := c.Messages.Batches.Wait(ctx, b.ID, p, record)
		if !errors.Is(err, context.DeadlineExceeded) || last == nil || last.ID != b.ID || last.ProcessingStatus != mms.BatchStatusInProgress {
			t.Fatalf("Wait = %+v, %v", last, err)
		}
		mu.Lock()
		defer mu.Unlock()
		// Waits of 10, 20, 40, 80, 80 … ms: about 7 polls in 400 ms, where a
		// fixed 10 ms interval would make about 40.
		if len(times) < 4 || len(times) > 9 {
			t.Errorf("%d polls in 400 ms", len(times))
		}
		for i := 1; i < len(times); i++ {
			want := min(10*time.Millisecond<<(i-1), 80*time.Millisecond)
			if gap := times[i].Sub(times[i-1]); gap < want {
				t.Errorf("poll %d came %v after the previous one, want ≥ %v", i+1, gap, want)
			}
		}
	})
	t.Run("cancel during a long wait", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := c.Messages.Batches.Wait(ctx, b.ID, mms.BatchWaitParams{PollInterval: time.Hour})
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
			t.Fatalf("Wait = %v after %v", err, time.Since(start))
		}
	})
	t.Run("bad params", func(t *testing.T) {
		for _, p := range []mms.BatchWaitParams{{PollInterval: -1}, {MaxPollInterval: -1},
			{PollInterval: time.Minute, MaxPollInterval: time.Second}} {
			if _, err := c.Messages.Batches.Wait(context.Background(), b.ID, p); !errors.Is(err, mms.ErrInvalidParams) {
				t.Errorf("%+v: %v", p, err)
			}
		}
	})
}

func TestBatchCreateBody(t *testing.T) {
	s := newScriptServer(t, reply{body: `{"id":"msgbatch_1","type":"message_batch","processing_status":"in_progress",` +
		`"request_counts":{"processing":2,"succeeded":0,"errored":0,"canceled":0,"expired":0},"created_at":"2026-07-01T12:00:00Z",` +
		`"expires_at":"2026-07-02T12:00:00Z","ended_at":null,"cancel_initiated_at":null,"archived_at":null,"results_url":null}`})
	c := newTestClient(t, s)
	img := mms.ImageFromBase64(mms.ImageMediaType("image/png"), strings.Repeat("QUJD", 40_000)) // spliced by the encoder
	big := hiRequest("with-image", "look")
	big.Params.Messages = []mms.MessageParam{mms.UserMessage(img, mms.TextBlock{Text: "what is it? <&>"})}
	p := mms.BatchCreateParams{Requests: []mms.BatchRequest{hiRequest("a-1", "hi"), big}}
	b, err := c.Messages.Batches.Create(context.Background(), p)
	require.NoError(t, err)
	if b.ID != "msgbatch_1" || b.RequestCounts.Processing != 2 || b.EndedAt != nil {
		t.Errorf("batch %+v", b)
	}
	got := s.requests()
	if len(got) != 1 || got[0].method != http.MethodPost || got[0].path != "/v1/messages/batches" {
		t.Fatalf("requests %+v", got)
	}
	want, err := json.Marshal(p)
	require.NoError(t, err)
	var gotBody, wantBody any
	if err := json.Unmarshal(got[0].body, &gotBody); err != nil {
		t.Fatalf("body %.200s: %v", got[0].body, err)
	}
	_ = json.Unmarshal(want, &wantBody)
	if diff := cmp.Diff(wantBody, gotBody); diff != "" {
		t.Errorf("body (-json.Marshal +sent):\n%.2000s", diff)
	}
	if !strings.Contains(string(got[0].body), `"text":"what is it? <&>"`) {
		t.Errorf("HTML escaping in the body")
	}
}

// TestBatchWaitOnPoll: OnPoll sees every batch Wait reads, in order, the
// ended one last, one call per request sent.
func TestBatchWaitOnPoll(t *testing.T) {
	var gets atomic.Int32
	var clock *batchClock
	count := option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		if gets.Add(1) == 4 {
			clock.Advance(mmstest.DefaultBatchProcessingTime)
		}
		return next(r)
	})
	c, _, clk := newBatchFake(t)
	clock = clk
	ctx := context.Background()
	b, err := c.Messages.Batches.Create(ctx, mms.BatchCreateParams{Requests: []mms.BatchRequest{hiRequest("a", "x")}})
	require.NoError(t, err)
	var seen []mms.BatchStatus
	ended, err := c.Messages.Batches.Wait(ctx, b.ID, mms.BatchWaitParams{
		PollInterval: time.Millisecond,
		OnPoll: func(b *mms.Batch) {
			seen = append(seen, b.ProcessingStatus)
		},
	}, count)
	require.NoError(t, err)
	require.Equal(t, mms.BatchStatusEnded, ended.ProcessingStatus)
	want := []mms.BatchStatus{mms.BatchStatusInProgress, mms.BatchStatusInProgress, mms.BatchStatusInProgress, mms.BatchStatusEnded}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("OnPoll calls (-want +got):\n%s", diff)
	}
	require.EqualValues(t, len(seen), gets.Load(), "one OnPoll call per poll")

	t.Run("the last batch seen when the context ends", func(t *testing.T) {
		b, err := c.Messages.Batches.Create(ctx, mms.BatchCreateParams{Requests: []mms.BatchRequest{hiRequest("a", "x")}})
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		var polls int
		last, err := c.Messages.Batches.Wait(ctx, b.ID, mms.BatchWaitParams{
			PollInterval: time.Millisecond, MaxPollInterval: 5 * time.Millisecond,
			OnPoll: func(*mms.Batch) { polls++ },
		})
		require.ErrorIs(t, err, context.DeadlineExceeded)
		require.NotNil(t, last)
		require.Greater(t, polls, 1)
	})
}
