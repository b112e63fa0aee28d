package mms

// The cursor-scheme driver has no public list yet (skills, agents and
// sessions come later), so it is tested here, inside the package, against a
// small server speaking the bidirectional cursor scheme of GET /v1/sessions.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

type thing struct {
	ID string `json:"id"`
}

// cursorServer serves n things at /v1/things, limit per page (default 3),
// sorted by order (default desc). Cursors are "<order>:<offset>" and are
// refused with a 400 under another order. Knobs let a test break the rules.
type cursorServer struct {
	*httptest.Server
	n int

	mu       sync.Mutex
	queries  []url.Values
	hasMore  func(offset, end int) *bool // nil: has_more not sent
	stuck    bool                        // next_page repeats the given cursor
	emptyAt  int                         // offset at which data is empty (with a next_page); 0 = never
	noCursor bool                        // next_page "" instead of null at the end
}

func newCursorServer(t *testing.T, n int) *cursorServer {
	t.Helper()
	s := &cursorServer{n: n}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *cursorServer) serve(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	s.queries = append(s.queries, q)
	hasMore, stuck, emptyAt, noCursor := s.hasMore, s.stuck, s.emptyAt, s.noCursor
	s.mu.Unlock()

	order := q.Get("order")
	if order == "" {
		order = "desc"
	}
	limit := 3
	if l := q.Get("limit"); l != "" {
		limit, _ = strconv.Atoi(l)
	}
	offset := 0
	if p := q.Get("page"); p != "" {
		o, off, ok := strings.Cut(p, ":")
		n, err := strconv.Atoi(off)
		if !ok || err != nil || o != order {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			fmt.Fprintf(w, `{"type":"error","error":{"type":"invalid_request_error","message":"page: cursor not valid for order %s"}}`, order)
			return
		}
		offset = n
	}
	end := min(offset+limit, s.n)
	page := map[string]any{"data": []thing{}, "next_page": nil, "prev_page": nil}
	data := []thing{}
	if offset != emptyAt || emptyAt == 0 {
		for i := offset; i < end; i++ {
			id := i
			if order == "desc" {
				id = s.n - 1 - i
			}
			data = append(data, thing{ID: fmt.Sprintf("t%d", id)})
		}
	}
	page["data"] = data
	cursor := func(off int) string { return order + ":" + strconv.Itoa(off) }
	switch {
	case stuck:
		page["next_page"] = q.Get("page")
	case end < s.n:
		page["next_page"] = cursor(end)
	case noCursor:
		page["next_page"] = ""
	}
	if offset > 0 {
		page["prev_page"] = cursor(max(0, offset-limit))
	}
	if hasMore != nil {
		if hm := hasMore(offset, end); hm != nil {
			page["has_more"] = *hm
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(page)
}

func (s *cursorServer) sent() []url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.queries)
}

func (s *cursorServer) call(t *testing.T, order, defaultOrder ListOrder) listCall {
	t.Helper()
	c, err := NewClient(option.WithAPIKey("k"), option.WithBaseURL(s.URL), option.WithMaxRetries(0))
	require.NoError(t, err)
	q := url.Values{}
	if order != "" {
		q.Set("order", string(order))
	}
	eff := order
	if eff == "" {
		eff = defaultOrder
	}
	return listCall{call: c.newCall(nil), path: "/v1/things", query: q, order: eff}
}

func ids(t *testing.T, seq func(func(thing, error) bool)) ([]string, error) {
	t.Helper()
	var out []string
	for v, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, v.ID)
	}
	return out, nil
}

func things(idx ...int) []string {
	out := make([]string, len(idx))
	for i, n := range idx {
		out[i] = fmt.Sprintf("t%d", n)
	}
	return out
}

func TestCursorListForward(t *testing.T) {
	boolp := func(b bool) *bool { return &b }
	tests := []struct {
		name     string
		n        int
		order    ListOrder
		setup    func(s *cursorServer)
		want     []string
		wantReqs int
	}{
		{"default order desc", 7, "", nil, things(6, 5, 4, 3, 2, 1, 0), 3},
		{"explicit asc", 7, ListOrderAsc, nil, things(0, 1, 2, 3, 4, 5, 6), 3},
		{"exact multiple of the page size", 6, ListOrderAsc, nil, things(0, 1, 2, 3, 4, 5), 2},
		{"empty list", 0, ListOrderAsc, nil, nil, 1},
		{"has_more true follows next_page", 7, ListOrderAsc, func(s *cursorServer) {
			s.hasMore = func(_, end int) *bool { return boolp(end < 7) }
		}, things(0, 1, 2, 3, 4, 5, 6), 3},
		{"has_more false stops despite next_page", 7, ListOrderAsc, func(s *cursorServer) {
			s.hasMore = func(offset, _ int) *bool { return boolp(offset < 3) }
		}, things(0, 1, 2, 3, 4, 5), 2},
		{"empty data with a next_page goes on", 9, ListOrderAsc, func(s *cursorServer) { s.emptyAt = 3 }, things(0, 1, 2, 6, 7, 8), 3},
		{"empty next_page stops", 4, ListOrderAsc, func(s *cursorServer) { s.noCursor = true }, things(0, 1, 2, 3), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newCursorServer(t, tt.n)
			if tt.setup != nil {
				tt.setup(s)
			}
			got, err := ids(t, listItems[thing](context.Background(), s.call(t, tt.order, ListOrderDesc), listPos{page: Cursor{}, backward: false}))
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
			qs := s.sent()
			if len(qs) != tt.wantReqs {
				t.Fatalf("%d requests, want %d: %v", len(qs), tt.wantReqs, qs)
			}
			for i, q := range qs {
				if q.Get("order") != string(tt.order) {
					t.Errorf("request %d order = %q, want %q", i, q.Get("order"), tt.order)
				}
				if i == 0 && q.Has("page") {
					t.Errorf("first request has page %q", q.Get("page"))
				}
			}
		})
	}
}

func TestCursorListBackward(t *testing.T) {
	s := newCursorServer(t, 8)
	l := s.call(t, ListOrderAsc, ListOrderDesc)
	ctx := context.Background()

	// Walk to the last page with the page-level call, then go back.
	p, err := fetchListPage[thing](ctx, l, listPos{page: Cursor{}})
	require.NoError(t, err)
	if p.PrevPage != nil || p.NextPage == nil || *p.NextPage != (Cursor{Token: "asc:3", Order: ListOrderAsc}) || !p.HasMore {
		t.Fatalf("first page = %+v", p)
	}
	for p.NextPage != nil {
		if p, err = fetchListPage[thing](ctx, l, listPos{page: *p.NextPage}); err != nil {
			t.Fatal(err)
		}
	}
	if p.HasMore || p.PrevPage == nil || *p.PrevPage != (Cursor{Token: "asc:3", Order: ListOrderAsc}) {
		t.Fatalf("last page = %+v", p)
	}
	got, err := ids(t, listItems[thing](ctx, l, listPos{page: *p.PrevPage, backward: true}))
	require.NoError(t, err)
	if diff := cmp.Diff(things(3, 4, 5, 0, 1, 2), got); diff != "" {
		t.Errorf("backward ids (-want +got):\n%s", diff)
	}
}

func TestCursorOrderMismatchRefused(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name         string
		order        ListOrder // the call's explicit order
		cursor       Cursor
		wantRefused  bool
		wantRequests int
	}{
		{"asc cursor with desc", ListOrderDesc, Cursor{Token: "asc:3", Order: ListOrderAsc}, true, 0},
		{"asc cursor with default (desc)", "", Cursor{Token: "asc:3", Order: ListOrderAsc}, true, 0},
		{"desc cursor with asc", ListOrderAsc, Cursor{Token: "desc:3", Order: ListOrderDesc}, true, 0},
		{"desc cursor with default (desc)", "", Cursor{Token: "desc:3", Order: ListOrderDesc}, false, 3},
		{"asc cursor with asc", ListOrderAsc, Cursor{Token: "asc:3", Order: ListOrderAsc}, false, 3},
		{"bare token is not checked", ListOrderAsc, Cursor{Token: "asc:3"}, false, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newCursorServer(t, 7)
			l := s.call(t, tt.order, ListOrderDesc)
			_, pageErr := fetchListPage[thing](ctx, l, listPos{page: tt.cursor})
			n := 0
			var seqErr error
			for _, err := range listItems[thing](ctx, l, listPos{page: tt.cursor, backward: false}) {
				n++
				if err != nil {
					seqErr = err
				}
			}
			if !tt.wantRefused {
				if pageErr != nil || seqErr != nil {
					t.Fatalf("page error %v, iterator error %v", pageErr, seqErr)
				}
			} else {
				for _, err := range []error{pageErr, seqErr} {
					var ve *ValidationError
					if !errors.As(err, &ve) || ve.Field != "page" || !errors.Is(err, ErrInvalidParams) {
						t.Errorf("err = %v, want a ValidationError on page", err)
					}
				}
				if n != 1 {
					t.Errorf("iterator yielded %d values, want the error alone", n)
				}
			}
			if got := len(s.sent()); got != tt.wantRequests {
				t.Errorf("%d requests sent, want %d", got, tt.wantRequests)
			}
		})
	}

	// A cursor from a page is checked against a later call with the other order.
	s := newCursorServer(t, 7)
	p, err := fetchListPage[thing](ctx, s.call(t, "", ListOrderDesc), listPos{page: Cursor{}})
	require.NoError(t, err)
	if p.NextPage.Order != ListOrderDesc {
		t.Fatalf("cursor issued under the default order records %q", p.NextPage.Order)
	}
	if _, err := fetchListPage[thing](ctx, s.call(t, ListOrderAsc, ListOrderDesc), listPos{page: *p.NextPage}); !errors.Is(err, ErrInvalidParams) {
		t.Errorf("reuse under asc: %v", err)
	}
	if got := len(s.sent()); got != 1 {
		t.Errorf("%d requests, want 1", got)
	}
}

func TestCursorListLazyRestartableBreak(t *testing.T) {
	s := newCursorServer(t, 10)
	seq := listItems[thing](context.Background(), s.call(t, ListOrderAsc, ListOrderDesc), listPos{page: Cursor{}, backward: false})
	if len(s.sent()) != 0 {
		t.Fatal("request sent before ranging")
	}
	a, err := ids(t, seq)
	require.NoError(t, err)
	b, err := ids(t, seq)
	require.NoError(t, err)
	if diff := cmp.Diff(a, b); diff != "" || len(a) != 10 {
		t.Errorf("second range differs (-first +second):\n%s", diff)
	}
	before := len(s.sent())
	for range seq {
		break
	}
	if got := len(s.sent()) - before; got != 1 {
		t.Errorf("break after the first item sent %d requests, want 1", got)
	}
}

func TestCursorListStopsOnLoopAndErrors(t *testing.T) {
	ctx := context.Background()
	t.Run("cursor that does not advance", func(t *testing.T) {
		s := newCursorServer(t, 9)
		s.stuck = true
		// The first page has no cursor to repeat; start from one.
		got, err := ids(t, listItems[thing](ctx, s.call(t, ListOrderAsc, ""), listPos{page: Cursor{Token: "asc:3"}, backward: false}))
		if err == nil || len(got) != 3 || len(s.sent()) != 1 {
			t.Fatalf("ids %v, err %v, %d requests", got, err, len(s.sent()))
		}
	})
	t.Run("service error yielded once", func(t *testing.T) {
		s := newCursorServer(t, 9)
		n, errs := 0, 0
		for _, err := range listItems[thing](ctx, s.call(t, ListOrderAsc, ""), listPos{page: Cursor{Token: "desc:3"}, backward: false}) {
			n++
			if err != nil {
				errs++
			}
		}
		var apiErr *Error
		if n != 1 || errs != 1 {
			t.Fatalf("yielded %d values, %d errors", n, errs)
		}
		_, err := fetchListPage[thing](ctx, s.call(t, ListOrderAsc, ""), listPos{page: Cursor{Token: "desc:3"}})
		if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 {
			t.Errorf("err = %v", err)
		}
	})
}

func TestIDListStopsOnLoop(t *testing.T) {
	// A broken server repeating last_id would loop forever; the driver stops.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"data":[{"id":"a"}],"has_more":true,"first_id":"a","last_id":"a"}`)
	}))
	defer srv.Close()
	c, err := NewClient(option.WithAPIKey("k"), option.WithBaseURL(srv.URL))
	require.NoError(t, err)
	n := 0
	var last error
	for _, err := range listItems[thing](context.Background(), listCall{call: c.newCall(nil), path: "/v1/x", scheme: idScheme}, listPos{}) {
		n++
		last = err
		if n > 10 {
			t.Fatal("no end")
		}
	}
	if n != 3 || last == nil {
		t.Errorf("yielded %d values, last error %v", n, last)
	}
}

func TestAddQueryArray(t *testing.T) {
	type status string
	q := url.Values{"limit": {"2"}}
	addQueryArray(q, "statuses", []status{"running", "idle"})
	addQueryArray(q, "ids", []string{"a&b", "c"})
	addQueryArray(q, "empty", []string(nil))
	if got, want := q.Encode(), "ids%5B%5D=a%26b&ids%5B%5D=c&limit=2&statuses%5B%5D=running&statuses%5B%5D=idle"; got != want {
		t.Errorf("Encode() = %s, want %s", got, want)
	}
	// The server reads them back as key[] arrays.
	back, _ := url.ParseQuery(q.Encode())
	if diff := cmp.Diff([]string{"running", "idle"}, back["statuses[]"]); diff != "" {
		t.Error(diff)
	}
}

// cyclingServer serves pages that lead a → b → a → … forever, in the id
// scheme (after_id, or before_id backwards) or the cursor scheme (page).
func cyclingServer(t *testing.T, scheme string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		w.Header().Set("Content-Type", "application/json")
		switch scheme {
		case "id":
			// The page after (or before) x holds x's successor; b's successor is a.
			at := q.Get("after_id") + q.Get("before_id")
			next := map[string]string{"": "a", "a": "b", "b": "a"}[at]
			fmt.Fprintf(w, `{"data":[{"id":%q}],"has_more":true,"first_id":%[1]q,"last_id":%[1]q}`, next)
		case "cursor":
			next := map[string]string{"": "a", "a": "b", "b": "a"}[q.Get("page")]
			fmt.Fprintf(w, `{"data":[{"id":"at-%s"}],"next_page":%q,"prev_page":%[2]q}`, q.Get("page"), next)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestListsStopOnCycle: a service whose pages lead back to one already read
// (a → b → a) ends the iteration with an error naming the cursor, after
// every item read once, in both schemes and both directions.
func TestListsStopOnCycle(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name, scheme string
		seq          func(l listCall) iter.Seq2[thing, error]
		want         []string
		wantInErr    string
	}{
		{"id forwards", "id", func(l listCall) iter.Seq2[thing, error] {
			l.scheme = idScheme
			return listItems[thing](ctx, l, listPos{})
		},
			[]string{"a", "b", "a"}, `after_id "a"`},
		{"id backwards", "id", func(l listCall) iter.Seq2[thing, error] {
			l.scheme = idScheme
			return listItems[thing](ctx, l, idStart("", "b"))
		},
			[]string{"a", "b"}, `before_id "b"`},
		{"cursor forwards", "cursor", func(l listCall) iter.Seq2[thing, error] {
			return listItems[thing](ctx, l, listPos{page: Cursor{}, backward: false})
		},
			[]string{"at-", "at-a", "at-b"}, `page "a"`},
		{"cursor backwards", "cursor", func(l listCall) iter.Seq2[thing, error] {
			return listItems[thing](ctx, l, listPos{page: Cursor{Token: "b"}, backward: true})
		},
			[]string{"at-b", "at-a"}, `page "b"`},
		{"files, id scheme", "id", func(l listCall) iter.Seq2[thing, error] {
			l.scheme = idOrCursorScheme
			return listItems[thing](ctx, l, listPos{})
		},
			[]string{"a", "b", "a"}, `after_id "a"`},
		{"files, cursor scheme", "cursor", func(l listCall) iter.Seq2[thing, error] {
			l.scheme = idOrCursorScheme
			return listItems[thing](ctx, l, listPos{})
		},
			[]string{"at-", "at-a", "at-b"}, `page "a"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := cyclingServer(t, tt.scheme)
			c, err := NewClient(option.WithAPIKey("k"), option.WithBaseURL(srv.URL), option.WithMaxRetries(0))
			require.NoError(t, err)
			var got []string
			var errs []error
			for v, err := range tt.seq(listCall{call: c.newCall(nil), path: "/v1/things"}) {
				if err != nil {
					errs = append(errs, err)
					continue
				}
				got = append(got, v.ID)
				if len(got) > 10 {
					t.Fatalf("no end: %v", got)
				}
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("items (-want +got):\n%s", d)
			}
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.wantInErr) {
				t.Errorf("errors %v; want one naming %s", errs, tt.wantInErr)
			}
		})
	}
}

// TestListPageWireDecode: a page decodes as encoding/json decodes it into
// the same fields, for items with and without their own decoder, and
// malformed items fail naming their position.
func TestListPageWireDecode(t *testing.T) {
	type plainPage listPageWire[ModelInfo] // the fields, without the decoder
	pages := []string{
		`{"data":[{"type":"model","id":"a","display_name":"A","created_at":"2026-01-01T00:00:00Z"},{"id":"b","x":1}],"has_more":true,"first_id":"a","last_id":"b"}`,
		`{"data":[],"has_more":false,"first_id":null,"last_id":null}`,
		`{"data":null,"next_page":"n1","prev_page":""}`,
		`{"has_more":true,"unknown":{"deep":[1,2]}}`,
		`{}`,
	}
	for _, page := range pages {
		t.Run(page, func(t *testing.T) {
			var want plainPage
			if err := json.Unmarshal([]byte(page), &want); err != nil {
				t.Fatal(err)
			}
			var got listPageWire[ModelInfo]
			if err := decodeInto([]byte(page), &got); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, plainPage(got), cmp.AllowUnexported(plainPage{})); d != "" {
				t.Errorf("page (-encoding/json +decoder):\n%s", d)
			}
			var things listPageWire[thing] // no decoder of its own
			if err := decodeInto([]byte(page), &things); err != nil {
				t.Fatal(err)
			}
			if len(things.Data) != len(want.Data) || (things.Data == nil) != (want.Data == nil) {
				t.Errorf("things: %d items (nil %v), want %d (nil %v)", len(things.Data), things.Data == nil, len(want.Data), want.Data == nil)
			}
		})
	}
	var got listPageWire[ModelInfo]
	err := decodeInto([]byte(`{"data":[{"id":"a"},{"id":7}]}`), &got)
	if err == nil || !strings.Contains(err.Error(), "data: [1]") {
		t.Errorf("err = %v, want one naming data: [1]", err)
	}
}
