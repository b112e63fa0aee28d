package mmstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// modelPage is the list response as a client decodes it.
type modelPage struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"`
	HasMore bool    `json:"has_more"`
	FirstID *string `json:"first_id"`
	LastID  *string `json:"last_id"`
}

func (p modelPage) ids() []string {
	ids := []string{}
	for _, m := range p.Data {
		ids = append(ids, m.ID)
	}
	return ids
}

// listPage fetches one page of models, failing on any non-200 answer.
func listPage(t *testing.T, s *Server, query string) modelPage {
	t.Helper()
	resp, body := get(t, s, "/v1/models"+query)
	if resp.StatusCode != 200 {
		t.Fatalf("list %s: status %d: %s", query, resp.StatusCode, body)
	}
	var p modelPage
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

var defaultIDs = []string{"mms-large-1", "mms-medium-1", "mms-small-1", "mms-tiny-0"}

func TestListModels(t *testing.T) {
	s := newTestServer(t)
	resp, body := get(t, s, "/v1/models")
	if resp.Header.Get(wire.HeaderContentType) != "application/json" {
		t.Errorf("content-type %q", resp.Header.Get(wire.HeaderContentType))
	}
	var raw map[string]any
	if err := json.Unmarshal(body, &raw); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"data": raw["data"], "has_more": false, "first_id": "mms-large-1", "last_id": "mms-tiny-0"}
	if diff := cmp.Diff(want, raw); diff != "" {
		t.Errorf("page (-want +got):\n%s", diff)
	}
	if got := listPage(t, s, "").ids(); !cmp.Equal(got, defaultIDs) {
		t.Errorf("ids %v, want newest first %v", got, defaultIDs)
	}
}

func TestModelRecord(t *testing.T) {
	s := newTestServer(t)
	_, body := get(t, s, "/v1/models/mms-small-1")
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	yes, no := map[string]any{"supported": true}, map[string]any{"supported": false}
	want := map[string]any{
		"type": "model", "id": "mms-small-1", "display_name": "MMS Small 1", "created_at": "2026-01-15T00:00:00Z",
		"max_input_tokens": 200000.0, "max_tokens": 32000.0,
		"capabilities": map[string]any{
			"batch": yes, "citations": yes, "code_execution": no, "image_input": yes, "pdf_input": yes, "structured_outputs": yes,
			"context_management": map[string]any{"supported": true, "clear_thinking_20251015": nil, "clear_tool_uses_20250919": yes, "compact_20260112": nil},
			"effort":             map[string]any{"supported": false, "low": no, "medium": no, "high": no, "max": no, "xhigh": nil},
			"thinking":           map[string]any{"supported": true, "types": map[string]any{"enabled": yes, "adaptive": no}},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("record (-want +got):\n%s", diff)
	}

	_, body = get(t, s, "/v1/models/mms-tiny-0")
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if v, ok := got["capabilities"]; !ok || v != nil {
		t.Errorf("mms-tiny-0 capabilities = %v, want null", v)
	}
}

func TestRetrieveModel(t *testing.T) {
	s := newTestServer(t)
	for _, id := range []string{"mms-large-1", "mms-large-latest"} {
		resp, body := get(t, s, "/v1/models/"+id)
		var m struct{ ID string }
		if err := json.Unmarshal(body, &m); err != nil || resp.StatusCode != 200 || m.ID != "mms-large-1" {
			t.Errorf("retrieve %s: %d %s", id, resp.StatusCode, body)
		}
	}
	resp, body := get(t, s, "/v1/models/no-such-model")
	wantError(t, resp, body, 404, wire.ErrNotFound, "model: no-such-model")
}

func TestAllowedFallbackModelsOnBetaOnly(t *testing.T) {
	s := newTestServer(t)
	field := func(req *http.Request) any {
		_, body := send(t, s, req)
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatal(err)
		}
		return m["allowed_fallback_models"]
	}
	if v := field(newReq(t, s, http.MethodGet, "/v1/models/mms-large-1", nil)); v != nil {
		t.Errorf("GA request: allowed_fallback_models = %v", v)
	}
	beta := newReq(t, s, http.MethodGet, "/v1/models/mms-large-1", nil)
	beta.Header.Set(wire.HeaderBeta, "server-side-fallback-2026-06-01")
	if v := field(beta); !cmp.Equal(v, []any{"mms-medium-1"}) {
		t.Errorf("header beta: allowed_fallback_models = %v", v)
	}
	if v := field(newReq(t, s, http.MethodGet, "/v1/models/mms-small-1?beta=true", nil)); !cmp.Equal(v, []any{}) {
		t.Errorf("?beta=true: allowed_fallback_models = %v, want []", v)
	}
}

func TestModelsPagingForward(t *testing.T) {
	s := newTestServer(t)
	var ids []string
	query := "?limit=1"
	for range defaultIDs {
		p := listPage(t, s, query)
		ids = append(ids, p.ids()...)
		if !p.HasMore {
			break
		}
		query = "?limit=1&after_id=" + *p.LastID
	}
	if !cmp.Equal(ids, defaultIDs) {
		t.Errorf("paged forward through %v, want %v", ids, defaultIDs)
	}
	if p := listPage(t, s, "?after_id=mms-tiny-0"); len(p.Data) != 0 || p.HasMore || p.FirstID != nil || p.LastID != nil {
		t.Errorf("after the last model: %+v, want an empty page with null ids", p)
	}
}

func TestModelsPagingBackward(t *testing.T) {
	s := newTestServer(t)
	p := listPage(t, s, "?limit=2&before_id=mms-tiny-0")
	if want := []string{"mms-medium-1", "mms-small-1"}; !cmp.Equal(p.ids(), want) || !p.HasMore || *p.FirstID != want[0] {
		t.Fatalf("first backward page %v (has_more %v), want %v with more", p.ids(), p.HasMore, want)
	}
	p = listPage(t, s, "?limit=2&before_id="+*p.FirstID)
	if want := []string{"mms-large-1"}; !cmp.Equal(p.ids(), want) || p.HasMore {
		t.Errorf("second backward page %v (has_more %v), want %v and no more", p.ids(), p.HasMore, want)
	}
}

func TestModelsPagingLimits(t *testing.T) {
	many := make([]Model, 1001)
	for i := range many {
		many[i] = Model{ID: fmt.Sprintf("m-%04d", i), DisplayName: "M", CreatedAt: time.Unix(int64(100000-i), 0)}
	}
	s := newTestServer(t, WithModels(many))
	for query, want := range map[string]int{"": 20, "?limit=1": 1, "?limit=1000": 1000} {
		if p := listPage(t, s, query); len(p.Data) != want || !p.HasMore {
			t.Errorf("%q: %d models (has_more %v), want %d and more", query, len(p.Data), p.HasMore, want)
		}
	}
	for _, query := range []string{"?limit=0", "?limit=1001", "?limit=-1", "?limit=abc", "?limit=",
		"?after_id=nope", "?before_id=nope", "?after_id=m-0001&before_id=m-0005"} {
		resp, body := get(t, s, "/v1/models"+query)
		wantError(t, resp, body, 400, wire.ErrInvalidRequest, "")
	}
}

func TestWithModels(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC) }
	s := newTestServer(t, WithModels([]Model{
		{ID: "old", CreatedAt: day(1)}, {ID: "new", CreatedAt: day(3)}, {ID: "mid-a", CreatedAt: day(2)}, {ID: "mid-b", CreatedAt: day(2)},
	}))
	if got, want := listPage(t, s, "").ids(), []string{"new", "mid-a", "mid-b", "old"}; !cmp.Equal(got, want) {
		t.Errorf("ids %v, want %v", got, want)
	}
	empty := newTestServer(t, WithModels(nil))
	resp, body := get(t, empty, "/v1/models")
	if want := `{"data":[],"has_more":false,"first_id":null,"last_id":null}` + "\n"; resp.StatusCode != 200 || string(body) != want {
		t.Errorf("empty list: %d %s, want %s", resp.StatusCode, body, want)
	}
}
