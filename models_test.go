package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// manyModels returns n models whose list order (newest first) is m-00000,
// m-00001, ... Each display name is padded to about 1 KiB, so that keeping
// every decoded model of a 10,000-model list would cost about 10 MiB.
func manyModels(n int) []mmstest.Model {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	pad := strings.Repeat(".", 1000)
	out := make([]mmstest.Model, n)
	for i := range out {
		out[i] = mmstest.Model{ID: modelID(i), DisplayName: "Model " + modelID(i) + pad,
			CreatedAt: base.Add(-time.Duration(i) * time.Minute), MaxInputTokens: 1000, MaxTokens: 100}
	}
	return out
}

func modelID(i int) string { return fmt.Sprintf("m-%05d", i) }

func modelsClient(t *testing.T, srv *mmstest.Server, opts ...option.RequestOption) *mms.Client {
	t.Helper()
	base := []option.RequestOption{option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL)}
	c, err := mms.NewClient(append(base, opts...)...)
	require.NoError(t, err)
	return c
}

// collectIDs ranges seq to the end and returns the ids, failing on an error.
func collectIDs(t *testing.T, seq func(func(mms.ModelInfo, error) bool)) []string {
	t.Helper()
	var ids []string
	for m, err := range seq {
		if err != nil {
			t.Fatalf("after %d models: %v", len(ids), err)
		}
		ids = append(ids, m.ID)
	}
	return ids
}

func queries(t *testing.T, srv *mmstest.Server) []url.Values {
	t.Helper()
	var out []url.Values
	for _, r := range srv.Requests() {
		q, err := url.ParseQuery(r.RawQuery)
		require.NoError(t, err)
		out = append(out, q)
	}
	return out
}

// TestModelsListManyPagesFlatMemory ranges 10,000 models in 100 pages and
// checks order, request count and that the heap does not grow with the
// number of items seen.
func TestModelsListManyPagesFlatMemory(t *testing.T) {
	const n, limit = 10_000, 100
	srv := mmstest.NewServer(mmstest.WithModels(manyModels(n)))
	defer srv.Close()
	c := modelsClient(t, srv)

	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	baseline := ms.HeapAlloc
	var peak uint64
	i := 0
	for m, err := range c.Models.List(context.Background(), mms.ModelListParams{Limit: limit}) {
		if err != nil {
			t.Fatalf("item %d: %v", i, err)
		}
		if m.ID != modelID(i) {
			t.Fatalf("item %d is %s, want %s", i, m.ID, modelID(i))
		}
		i++
		if i%1000 == 0 { // sample the live heap while ranging
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	}
	if i != n {
		t.Fatalf("got %d models, want %d", i, n)
	}
	growth := int64(peak) - int64(baseline)
	t.Logf("live heap growth while ranging %d models: %d bytes (%.2f MB)", n, growth, float64(growth)/(1<<20))
	if growth > 8<<20 {
		t.Errorf("heap grew by %d bytes while ranging; the iterator keeps items", growth)
	}
	qs := queries(t, srv)
	if len(qs) != n/limit {
		t.Fatalf("%d requests, want %d", len(qs), n/limit)
	}
	for k, q := range qs {
		want := url.Values{"limit": {"100"}}
		if k > 0 {
			want.Set("after_id", modelID(k*limit-1))
		}
		if diff := cmp.Diff(want, q); diff != "" {
			t.Fatalf("request %d query (-want +got):\n%s", k, diff)
		}
	}
}

func TestModelsListLazyAndRestartable(t *testing.T) {
	srv := mmstest.NewServer(mmstest.WithModels(manyModels(250)))
	defer srv.Close()
	c := modelsClient(t, srv)

	seq := c.Models.List(context.Background(), mms.ModelListParams{Limit: 100})
	if got := len(srv.Requests()); got != 0 {
		t.Fatalf("%d requests before ranging, want 0", got)
	}
	first := collectIDs(t, seq)
	second := collectIDs(t, seq)
	if len(first) != 250 {
		t.Fatalf("got %d models, want 250", len(first))
	}
	if diff := cmp.Diff(first, second); diff != "" {
		t.Errorf("second range differs (-first +second):\n%s", diff)
	}
	if got := len(srv.Requests()); got != 6 {
		t.Errorf("%d requests for two ranges of 3 pages, want 6", got)
	}
}

func TestModelsListBreakStopsFetching(t *testing.T) {
	srv := mmstest.NewServer(mmstest.WithModels(manyModels(50)))
	defer srv.Close()
	c := modelsClient(t, srv)

	n := 0
	for _, err := range c.Models.List(context.Background(), mms.ModelListParams{Limit: 5}) {
		require.NoError(t, err)
		if n++; n == 5 {
			break
		}
	}
	if got := len(srv.Requests()); got > 1 {
		t.Errorf("%d requests after breaking at item 5, want at most 1", got)
	}
}

func TestModelsListErrorYieldedOnceLast(t *testing.T) {
	srv := mmstest.NewServer(mmstest.WithModels(manyModels(1000)))
	defer srv.Close()
	c := modelsClient(t, srv, option.WithMaxRetries(0))

	items, errs := 0, 0
	var last error
	for m, err := range c.Models.List(context.Background(), mms.ModelListParams{Limit: 100}) {
		if err != nil {
			errs++
			last = err
			if m.ID != "" {
				t.Errorf("error yielded with a model %q", m.ID)
			}
			continue // keep ranging: the sequence itself must stop
		}
		if errs > 0 {
			t.Fatalf("model %s yielded after the error", m.ID)
		}
		items++
		if items == 600 { // six pages fetched: fail the seventh
			srv.InjectFault(mmstest.Fault{Path: "/v1/models", Statuses: []int{500}})
		}
	}
	if items != 600 || errs != 1 {
		t.Fatalf("items = %d, errors = %d; want 600 and 1", items, errs)
	}
	var apiErr *mms.Error
	if !errors.As(last, &apiErr) || apiErr.StatusCode != 500 {
		t.Errorf("error = %v, want a 500 *mms.Error", last)
	}
	if got := len(srv.Requests()); got != 7 {
		t.Errorf("%d requests, want 7", got)
	}
}

func TestModelsListDirections(t *testing.T) {
	srv := mmstest.NewServer(mmstest.WithModels(manyModels(250)))
	defer srv.Close()
	c := modelsClient(t, srv)

	span := func(from, to int) []string {
		var ids []string
		for i := from; i < to; i++ {
			ids = append(ids, modelID(i))
		}
		return ids
	}
	tests := []struct {
		name        string
		params      mms.ModelListParams
		want        []string
		wantQueries []url.Values
	}{
		{
			name:   "forward from after_id",
			params: mms.ModelListParams{Limit: 100, AfterID: modelID(99)},
			want:   span(100, 250),
			wantQueries: []url.Values{
				{"limit": {"100"}, "after_id": {modelID(99)}},
				{"limit": {"100"}, "after_id": {modelID(199)}},
			},
		},
		{
			name:   "backward from before_id",
			params: mms.ModelListParams{Limit: 100, BeforeID: modelID(200)},
			want:   append(span(100, 200), span(0, 100)...),
			wantQueries: []url.Values{
				{"limit": {"100"}, "before_id": {modelID(200)}},
				{"limit": {"100"}, "before_id": {modelID(100)}},
			},
		},
		{
			name:   "backward, short last page",
			params: mms.ModelListParams{Limit: 30, BeforeID: modelID(50)},
			want:   append(span(20, 50), span(0, 20)...),
			wantQueries: []url.Values{
				{"limit": {"30"}, "before_id": {modelID(50)}},
				{"limit": {"30"}, "before_id": {modelID(20)}},
			},
		},
		{
			name:        "default limit",
			params:      mms.ModelListParams{AfterID: modelID(239)},
			want:        span(240, 250),
			wantQueries: []url.Values{{"after_id": {modelID(239)}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv.ResetRequests()
			got := collectIDs(t, c.Models.List(context.Background(), tt.params))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantQueries, queries(t, srv)); diff != "" {
				t.Errorf("queries (-want +got):\n%s", diff)
			}
		})
	}
}

func TestModelsListPage(t *testing.T) {
	srv := mmstest.NewServer(mmstest.WithModels(manyModels(5)))
	defer srv.Close()
	c := modelsClient(t, srv)
	ctx := context.Background()

	p, err := c.Models.ListPage(ctx, mms.ModelListParams{Limit: 3})
	require.NoError(t, err)
	if len(p.Data) != 3 || !p.HasMore || *p.FirstID != modelID(0) || *p.LastID != modelID(2) || p.NextPage != nil {
		t.Fatalf("first page = %+v", p)
	}
	p, err = c.Models.ListPage(ctx, mms.ModelListParams{Limit: 3, AfterID: *p.LastID})
	require.NoError(t, err)
	if len(p.Data) != 2 || p.HasMore || *p.FirstID != modelID(3) || *p.LastID != modelID(4) {
		t.Fatalf("second page = %+v", p)
	}
	p, err = c.Models.ListPage(ctx, mms.ModelListParams{BeforeID: modelID(0)})
	require.NoError(t, err)
	if len(p.Data) != 0 || p.HasMore || p.FirstID != nil || p.LastID != nil {
		t.Fatalf("empty page = %+v", p)
	}
}

func TestModelListParamsValidate(t *testing.T) {
	tests := []struct {
		name      string
		params    mms.ModelListParams
		wantField string // "" = valid
	}{
		{"zero", mms.ModelListParams{}, ""},
		{"limit 1", mms.ModelListParams{Limit: 1}, ""},
		{"limit 1000 with after_id", mms.ModelListParams{Limit: 1000, AfterID: "a"}, ""},
		{"before_id", mms.ModelListParams{BeforeID: "b"}, ""},
		{"negative limit", mms.ModelListParams{Limit: -1}, "limit"},
		{"limit 1001", mms.ModelListParams{Limit: 1001}, "limit"},
		{"both ids", mms.ModelListParams{AfterID: "a", BeforeID: "b"}, "after_id"},
	}
	srv := mmstest.NewServer()
	defer srv.Close()
	c := modelsClient(t, srv)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.params.Validate()
			if tt.wantField == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			var ve *mms.ValidationError
			if !errors.As(err, &ve) || ve.Field != tt.wantField || !errors.Is(err, mms.ErrInvalidParams) {
				t.Fatalf("Validate() = %v, want a ValidationError on %s", err, tt.wantField)
			}
			srv.ResetRequests()
			if _, err := c.Models.ListPage(context.Background(), tt.params); !errors.As(err, &ve) {
				t.Errorf("ListPage error = %v, want a ValidationError", err)
			}
			n := 0
			for _, err := range c.Models.List(context.Background(), tt.params) {
				n++
				if !errors.As(err, &ve) {
					t.Errorf("List yielded %v, want a ValidationError", err)
				}
			}
			if n != 1 {
				t.Errorf("List yielded %d values, want 1", n)
			}
			if got := len(srv.Requests()); got != 0 {
				t.Errorf("%d requests sent for invalid params", got)
			}
		})
	}
}

func TestModelsGet(t *testing.T) {
	models := append(mmstest.DefaultModels(), mmstest.Model{ID: "org/model 1?x#y", DisplayName: "Odd", CreatedAt: time.Unix(0, 0)})
	srv := mmstest.NewServer(mmstest.WithModels(models))
	defer srv.Close()
	c := modelsClient(t, srv)
	ctx := context.Background()

	tests := []struct {
		name, id, wantID string
	}{
		{"by id", "mms-large-1", "mms-large-1"},
		{"alias resolves", "mms-medium-latest", "mms-medium-1"},
		{"id with slash, space, ? and # is escaped", "org/model 1?x#y", "org/model 1?x#y"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv.ResetRequests()
			m, err := c.Models.Get(ctx, tt.id)
			require.NoError(t, err)
			if m.ID != tt.wantID {
				t.Errorf("ID = %q, want %q", m.ID, tt.wantID)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || reqs[0].Method != "GET" || reqs[0].Path != "/v1/models/"+tt.id || reqs[0].RawQuery != "" {
				t.Errorf("requests = %+v", reqs)
			}
		})
	}

	t.Run("unknown model", func(t *testing.T) {
		_, err := c.Models.Get(ctx, "nope")
		if !errors.Is(err, mms.ErrNotFound) {
			t.Fatalf("err = %v, want ErrNotFound", err)
		}
	})
	for _, id := range []string{"", ".", ".."} {
		t.Run(fmt.Sprintf("invalid id %q", id), func(t *testing.T) {
			srv.ResetRequests()
			_, err := c.Models.Get(ctx, id)
			var ve *mms.ValidationError
			if !errors.As(err, &ve) || ve.Field != "model_id" {
				t.Fatalf("err = %v, want a ValidationError on model_id", err)
			}
			if got := len(srv.Requests()); got != 0 {
				t.Errorf("%d requests sent", got)
			}
		})
	}
}

func TestModelsGetDecodesFakeRecords(t *testing.T) {
	srv := mmstest.NewServer()
	defer srv.Close()
	c := modelsClient(t, srv)
	ctx := context.Background()

	tiny, err := c.Models.Get(ctx, "mms-tiny-0")
	require.NoError(t, err)
	want := &mms.ModelInfo{ID: "mms-tiny-0", DisplayName: "MMS Tiny 0", CreatedAt: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC),
		MaxInputTokens: mms.Ptr(100_000), MaxTokens: mms.Ptr(8_192)}
	if diff := cmp.Diff(want, tiny); diff != "" {
		t.Errorf("mms-tiny-0 (-want +got):\n%s", diff)
	}

	// A beta request gets allowed_fallback_models.
	large, err := c.Models.Get(ctx, "mms-large-1", option.WithBeta("files-api-2025-04-14"))
	require.NoError(t, err)
	if diff := cmp.Diff([]string{"mms-medium-1"}, large.AllowedFallbackModels); diff != "" {
		t.Errorf("allowed_fallback_models (-want +got):\n%s", diff)
	}
	if caps := large.Capabilities; caps == nil || !caps.Effort.XHigh.Supported || !caps.Thinking.Types.Adaptive.Supported {
		t.Errorf("capabilities = %+v", caps)
	}
	small, err := c.Models.Get(ctx, "mms-small-1")
	require.NoError(t, err)
	cm := small.Capabilities.ContextManagement
	if cm.ClearThinking20251015 != nil || cm.ClearToolUses20250919 == nil || !cm.ClearToolUses20250919.Supported || small.Capabilities.Effort.XHigh != nil {
		t.Errorf("small context management = %+v, effort = %+v", cm, small.Capabilities.Effort)
	}
}

const fullModelJSON = `{"type":"model","id":"mms-large-1","display_name":"MMS Large 1","created_at":"2026-05-01T00:00:00Z",
"max_input_tokens":1000000,"max_tokens":128000,
"capabilities":{"batch":{"supported":true},"citations":{"supported":true},"code_execution":{"supported":false},
"image_input":{"supported":true},"pdf_input":{"supported":true},"structured_outputs":{"supported":true},
"context_management":{"supported":true,"clear_thinking_20251015":{"supported":true},"clear_tool_uses_20250919":null,"compact_20260112":null},
"effort":{"supported":true,"low":{"supported":true},"medium":{"supported":true},"high":{"supported":true},"max":{"supported":false},"xhigh":null},
"thinking":{"supported":true,"types":{"enabled":{"supported":true},"adaptive":{"supported":false}}}},
"allowed_fallback_models":["mms-medium-1"]}`

func TestModelInfoRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		check func(t *testing.T, m mms.ModelInfo)
	}{
		{"full", fullModelJSON, func(t *testing.T, m mms.ModelInfo) {
			c := m.Capabilities
			if c == nil || *m.MaxInputTokens != 1_000_000 || c.ContextManagement.ClearToolUses20250919 != nil ||
				!c.ContextManagement.ClearThinking20251015.Supported || c.Effort.XHigh != nil || c.Effort.Max.Supported ||
				!c.Thinking.Types.Enabled.Supported || m.Extra != nil {
				t.Errorf("decoded %+v", m)
			}
		}},
		{"null leaves", `{"type":"model","id":"m","display_name":"M","created_at":"1970-01-01T00:00:00Z","max_input_tokens":null,"max_tokens":null,"capabilities":null,"allowed_fallback_models":null}`,
			func(t *testing.T, m mms.ModelInfo) {
				if m.MaxInputTokens != nil || m.MaxTokens != nil || m.Capabilities != nil || m.AllowedFallbackModels != nil || !m.CreatedAt.Equal(time.Unix(0, 0)) {
					t.Errorf("decoded %+v", m)
				}
			}},
		{"no beta member", `{"type":"model","id":"m","display_name":"M","created_at":"2026-01-01T00:00:00Z","max_input_tokens":5,"max_tokens":6,"capabilities":null}`,
			func(t *testing.T, m mms.ModelInfo) {
				if m.AllowedFallbackModels != nil || m.Extra != nil {
					t.Errorf("decoded %+v", m)
				}
			}},
		{"empty fallbacks", `{"type":"model","id":"m","display_name":"M","created_at":"2026-01-01T00:00:00Z","max_input_tokens":5,"max_tokens":6,"capabilities":null,"allowed_fallback_models":[]}`,
			func(t *testing.T, m mms.ModelInfo) {
				if m.AllowedFallbackModels == nil || len(m.AllowedFallbackModels) != 0 {
					t.Errorf("allowed_fallback_models = %#v, want empty non-nil", m.AllowedFallbackModels)
				}
			}},
		{"unknown members everywhere", `{"type":"model","id":"m","display_name":"M","created_at":"2026-01-01T00:00:00.123456789Z","max_input_tokens":5,"max_tokens":6,
"capabilities":{"batch":{"supported":true,"since":"2026"},"citations":{"supported":true},"code_execution":{"supported":true},"image_input":{"supported":true},"pdf_input":{"supported":true},"structured_outputs":{"supported":true},
"context_management":{"supported":false,"clear_thinking_20251015":null,"clear_tool_uses_20250919":null,"compact_20260112":null,"forget_20270101":{"supported":true}},
"effort":{"supported":false,"low":{"supported":false},"medium":{"supported":false},"high":{"supported":false},"max":{"supported":false},"xhigh":null,"ultra":{"supported":true}},
"thinking":{"supported":true,"types":{"enabled":{"supported":true},"adaptive":{"supported":true},"dreaming":{"supported":false}},"budget":[1,2]},
"audio_input":{"supported":true}},"deprecated_at":null,"tier":{"name":"x"}}`,
			func(t *testing.T, m mms.ModelInfo) {
				c := m.Capabilities
				if len(m.Extra) != 2 || len(c.Extra) != 1 || len(c.Batch.Extra) != 1 || len(c.ContextManagement.Extra) != 1 ||
					len(c.Effort.Extra) != 1 || len(c.Thinking.Extra) != 1 || len(c.Thinking.Types.Extra) != 1 {
					t.Errorf("unknown members not kept: %+v", m)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m mms.ModelInfo
			if err := json.Unmarshal([]byte(tt.in), &m); err != nil {
				t.Fatal(err)
			}
			tt.check(t, m)
			out, err := json.Marshal(m)
			require.NoError(t, err)
			if diff := jsonDiff(t, []byte(tt.in), out); diff != "" {
				t.Errorf("round trip (-in +out):\n%s", diff)
			}
		})
	}
}

func TestModelInfoDecodeErrors(t *testing.T) {
	for _, in := range []string{`[]`, `"x"`, `{"id":5}`, `{"created_at":"yesterday"}`, `{"capabilities":{"batch":[]}}`, `{`} {
		var m mms.ModelInfo
		if err := json.Unmarshal([]byte(in), &m); err == nil {
			t.Errorf("%s decoded without error: %+v", in, m)
		}
	}
	var m mms.ModelInfo
	if err := json.Unmarshal([]byte(`null`), &m); err != nil || m.ID != "" {
		t.Errorf("null: %v, %+v", err, m)
	}
}

func TestModelInfoFallbacksSetAfterNull(t *testing.T) {
	var m mms.ModelInfo
	if err := json.Unmarshal([]byte(`{"id":"m","allowed_fallback_models":null}`), &m); err != nil {
		t.Fatal(err)
	}
	m.AllowedFallbackModels = []string{"x"}
	out, err := json.Marshal(m)
	require.NoError(t, err)
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	if diff := cmp.Diff([]any{"x"}, got["allowed_fallback_models"]); diff != "" {
		t.Errorf("%s (-want +got):\n%s", out, diff)
	}
}

func FuzzModelInfo(f *testing.F) {
	f.Add([]byte(fullModelJSON))
	f.Add([]byte(`{"id":"m","allowed_fallback_models":null,"x":{"y":[1,null]}}`))
	f.Add([]byte(`{"capabilities":{"effort":null,"batch":null,"thinking":{"types":null}}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var m mms.ModelInfo
		if json.Unmarshal(data, &m) != nil {
			return
		}
		once, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("marshal of a decoded record: %v", err)
		}
		var again mms.ModelInfo
		if err := json.Unmarshal(once, &again); err != nil {
			t.Fatalf("re-decode of %s: %v", once, err)
		}
		twice, err := json.Marshal(again)
		require.NoError(t, err)
		// Compared as values: the codec may spell an odd member name
		// differently the second time ("\ufffd" for an invalid byte).
		if diff := jsonDiff(t, once, twice); diff != "" {
			t.Fatalf("not stable (-once +twice):\n%s", diff)
		}
	})
}
