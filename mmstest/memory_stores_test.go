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

// seedMemoryStore adds a store with a chosen id, for tests of other
// families that name one.
func seedMemoryStore(s *Server, id string) {
	ts := s.now().UTC().Format(fileTimeLayout)
	st := s.memoryStores
	st.mu.Lock()
	defer st.mu.Unlock()
	st.stores = append(st.stores, &memoryStoreWire{ID: id, Type: "memory_store", Name: id, Metadata: map[string]string{}, recordTimes: createdAt(ts)})
}

// isMemoryConflict reports a 409 of one of the memory stores' own error
// types, which the status alone does not give.
func isMemoryConflict(status int, errType string) bool {
	return status == http.StatusConflict && (errType == wire.ErrMemoryPathConflict || errType == wire.ErrMemoryPreconditionFailed)
}

// memCall sends an agent-memory request with the default API key.
func memCall(t *testing.T, s *Server, method, path, body string) (*http.Response, []byte) {
	t.Helper()
	var req *http.Request
	if body == "" {
		req = newReq(t, s, method, path, nil)
	} else {
		req = newReq(t, s, method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set(wire.HeaderBeta, wire.BetaAgentMemory)
	return send(t, s, req)
}

// memOK sends an agent-memory request that must succeed and decodes the
// answer into a T.
func memOK[T any](t *testing.T, s *Server, method, path, body string) T {
	t.Helper()
	resp, b := memCall(t, s, method, path, body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// memListIDs lists every page of an agent-memory list and returns the
// ids.
func memListIDs(t *testing.T, s *Server, path string) []string {
	t.Helper()
	var ids []string
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	for page := ""; ; {
		p := memOK[cursorPage[struct{ ID string }]](t, s, "GET", path+page, "")
		for _, d := range p.Data {
			ids = append(ids, d.ID)
		}
		if p.NextPage == nil {
			return ids
		}
		page = sep + "page=" + *p.NextPage
	}
}

// memCase is a request and the status (and message part) it must get.
type memCase struct {
	name, method, path, body string
	status                   int
	msg                      string
}

func runMemCases(t *testing.T, s *Server, cases []memCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			resp, b := memCall(t, s, tt.method, tt.path, tt.body)
			if resp.StatusCode != tt.status || !strings.Contains(string(b), tt.msg) {
				t.Errorf("%d %s, want %d containing %q", resp.StatusCode, b, tt.status, tt.msg)
			}
		})
	}
}

func TestMemoryStoresRequireBeta(t *testing.T) {
	s := newTestServer(t)
	resp, body := send(t, s, newReq(t, s, http.MethodGet, "/v1/memory_stores", nil))
	wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, wire.BetaAgentMemory)
}

// TestMemoryStoreRules: every body rule of create and update, on both
// sides of each limit.
func TestMemoryStoreRules(t *testing.T) {
	s := newTestServer(t)
	st := memOK[memoryStoreWire](t, s, "POST", "/v1/memory_stores", `{"name":"n"}`)
	pairs := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, `%s"k%d":"v"`, map[bool]string{true: "", false: ","}[i == 0], i)
		}
		return `{` + b.String() + `}`
	}
	create, update := "/v1/memory_stores", "/v1/memory_stores/"+st.ID
	runMemCases(t, s, []memCase{
		{"name 255", "POST", create, `{"name":"` + strings.Repeat("é", 255) + `"}`, 200, ""},
		{"name 256", "POST", create, `{"name":"` + strings.Repeat("é", 256) + `"}`, 400, "name"},
		{"name empty", "POST", create, `{"name":""}`, 400, "name"},
		{"name missing", "POST", create, `{}`, 400, "name: Field required"},
		{"name null", "POST", create, `{"name":null}`, 400, "name"},
		{"name control", "POST", create, `{"name":"a\tb"}`, 400, "control"},
		{"description 1024", "POST", create, `{"name":"n","description":"` + strings.Repeat("d", 1024) + `"}`, 200, ""},
		{"description 1025", "POST", create, `{"name":"n","description":"` + strings.Repeat("d", 1025) + `"}`, 400, "description"},
		{"metadata 16", "POST", create, `{"name":"n","metadata":` + pairs(16) + `}`, 200, ""},
		{"metadata 17", "POST", create, `{"name":"n","metadata":` + pairs(17) + `}`, 400, "metadata"},
		{"unknown member", "POST", create, `{"name":"n","color":"red"}`, 400, "color: Extra inputs"},
		{"update name 256", "POST", update, `{"name":"` + strings.Repeat("n", 256) + `"}`, 400, "name"},
		{"update name control", "POST", update, `{"name":"a\u0000"}`, 400, "control"},
		{"update description 1025", "POST", update, `{"description":"` + strings.Repeat("d", 1025) + `"}`, 400, "description"},
		{"update unknown", "POST", update, `{"title":"t"}`, 400, "title"},
		{"update null metadata value", "POST", update, `{"metadata":{"gone":null}}`, 200, ""},
		{"list limit 100", "GET", create + "?limit=100", "", 200, ""},
		{"list limit 101", "GET", create + "?limit=101", "", 400, "limit"},
		{"list bad bound", "GET", create + "?created_at[gte]=yesterday", "", 400, "created_at[gte]"},
		{"list unknown query", "GET", create + "?order=asc", "", 400, "order"},
		{"get unknown", "GET", create + "/memstore_nope", "", 404, "Memory store not found"},
	})
}

// TestMemoryStoresLifecycle: create, update (null name keeps, null
// description clears, metadata patch), list filters, archive, delete.
func TestMemoryStoresLifecycle(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	a := memOK[memoryStoreWire](t, s, "POST", "/v1/memory_stores", `{"name":"a","description":"d","metadata":{"k":"v","x":"y"}}`)
	if !strings.HasPrefix(a.ID, "memstore_") || a.Type != "memory_store" || a.Description != "d" || a.ArchivedAt != nil {
		t.Fatalf("created %+v", a)
	}
	clock.Advance(time.Hour)
	u := memOK[memoryStoreWire](t, s, "POST", "/v1/memory_stores/"+a.ID, `{"name":null,"description":null,"metadata":{"x":null,"n":"1"}}`)
	if u.Name != "a" || u.Description != "" || !cmp.Equal(u.Metadata, map[string]string{"k": "v", "n": "1"}) || u.UpdatedAt == a.UpdatedAt {
		t.Errorf("updated %+v", u)
	}
	b := memOK[memoryStoreWire](t, s, "POST", "/v1/memory_stores", `{"name":"b"}`)
	if b.Description != "" || b.Metadata == nil {
		t.Errorf("minimal %+v", b)
	}
	memOK[memoryStoreWire](t, s, "POST", "/v1/memory_stores/"+a.ID+"/archive", "")
	runMemCases(t, s, []memCase{{"update archived", "POST", "/v1/memory_stores/" + a.ID, `{"name":"z"}`, 400, "archived"}})
	if got := memListIDs(t, s, "/v1/memory_stores"); !cmp.Equal(got, []string{b.ID}) {
		t.Errorf("list %v", got)
	}
	if got := memListIDs(t, s, "/v1/memory_stores?include_archived=true&limit=1"); !cmp.Equal(got, []string{b.ID, a.ID}) {
		t.Errorf("list archived %v", got)
	}
	lte := "/v1/memory_stores?include_archived=true&created_at[lte]=" + clock.Now().Add(-time.Minute).Format(time.RFC3339)
	if got := memListIDs(t, s, lte); !cmp.Equal(got, []string{a.ID}) {
		t.Errorf("created_at[lte] %v", got)
	}
	gte := "/v1/memory_stores?include_archived=true&created_at[gte]=" + clock.Now().Format(time.RFC3339)
	if got := memListIDs(t, s, gte); !cmp.Equal(got, []string{b.ID}) {
		t.Errorf("created_at[gte] %v", got)
	}
	memOK[memoryWire](t, s, "POST", "/v1/memory_stores/"+b.ID+"/memories", `{"path":"/a","content":"x"}`)
	d := memOK[deletedWire](t, s, "DELETE", "/v1/memory_stores/"+b.ID, "")
	if d != (deletedWire{ID: b.ID, Type: "memory_store_deleted"}) {
		t.Errorf("deleted %+v", d)
	}
	runMemCases(t, s, []memCase{
		{"deleted store", "GET", "/v1/memory_stores/" + b.ID, "", 404, "not_found_error"},
		{"deleted store's memories", "GET", "/v1/memory_stores/" + b.ID + "/memories", "", 404, "not_found_error"},
	})
}

// TestMemoryRules: the path, content, view and precondition rules on
// both sides of each limit.
func TestMemoryRules(t *testing.T) {
	s := newTestServer(t)
	st := memOK[memoryStoreWire](t, s, "POST", "/v1/memory_stores", `{"name":"n"}`)
	base := "/v1/memory_stores/" + st.ID + "/memories"
	m := memOK[memoryWire](t, s, "POST", base, `{"path":"/m","content":"c"}`)
	body := func(path, content string) string {
		return fmt.Sprintf(`{"path":%q,"content":%q}`, path, content)
	}
	long := "/" + strings.Repeat("p", 1023)
	runMemCases(t, s, []memCase{
		{"path 1024 bytes", "POST", base, body(long, ""), 200, ""},
		{"path 1025 bytes", "POST", base, body(long+"p", ""), 400, "1024"},
		{"path relative", "POST", base, body("a/b", ""), 400, "start with"},
		{"path root only", "POST", base, body("/", ""), 400, "segments"},
		{"path empty segment", "POST", base, body("/a//b", ""), 400, "segments"},
		{"path trailing slash", "POST", base, body("/a/", ""), 400, "segments"},
		{"path dot", "POST", base, body("/a/./b", ""), 400, "segments"},
		{"path dot dot", "POST", base, body("/a/../b", ""), 400, "segments"},
		{"path dots in a name", "POST", base, body("/a/..b", ""), 200, ""},
		{"path control", "POST", base, body("/a\nb", ""), 400, "control"},
		{"content 102400", "POST", base, body("/big", strings.Repeat("c", 102400)), 200, ""},
		{"content 102401", "POST", base, body("/bigger", strings.Repeat("c", 102401)), 400, "102400"},
		{"content missing", "POST", base, `{"path":"/x"}`, 400, "content: Field required"},
		{"path missing", "POST", base, `{"content":""}`, 400, "path: Field required"},
		{"unknown member", "POST", base, `{"path":"/y","content":"","mode":1}`, 400, "mode"},
		{"view bad", "POST", base + "?view=all", body("/z", ""), 400, "view"},
		{"store missing", "POST", "/v1/memory_stores/memstore_nope/memories", body("/z", ""), 404, "Memory store not found"},
		{"memory missing", "GET", base + "/mem_nope", "", 404, "Memory not found"},
		{"precondition type", "POST", base + "/" + m.ID, `{"precondition":{"type":"etag","content_sha256":"` + contentSHA256("c") + `"}}`, 400, "precondition.type"},
		{"precondition short", "POST", base + "/" + m.ID, `{"precondition":{"type":"content_sha256","content_sha256":"abc"}}`, 400, "precondition.content_sha256"},
		{"precondition upper case", "POST", base + "/" + m.ID, `{"precondition":{"type":"content_sha256","content_sha256":"` + strings.ToUpper(contentSHA256("c")) + `"}}`, 400, "precondition.content_sha256"},
		{"precondition missing hash", "POST", base + "/" + m.ID, `{"precondition":{"type":"content_sha256"}}`, 400, "Field required"},
		{"update path rule", "POST", base + "/" + m.ID, `{"path":"/a/.."}`, 400, "segments"},
		{"update content null", "POST", base + "/" + m.ID, `{"content":null}`, 200, ""},
		{"delete bad hash", "DELETE", base + "/" + m.ID + "?expected_content_sha256=xyz", "", 400, "expected_content_sha256"},
		{"list limit 100 basic", "GET", base + "?limit=100", "", 200, ""},
		{"list limit 101", "GET", base + "?limit=101", "", 400, "limit"},
		{"list limit 20 full", "GET", base + "?limit=20&view=full", "", 200, ""},
		{"list limit 21 full", "GET", base + "?limit=21&view=full", "", 400, "limit"},
		{"list prefix without slash", "GET", base + "?path_prefix=/a", "", 400, "path_prefix"},
		{"list depth 0", "GET", base + "?depth=0", "", 200, ""},
		{"list depth -1", "GET", base + "?depth=-1", "", 400, "depth"},
		{"versions operation", "GET", "/v1/memory_stores/" + st.ID + "/memory_versions?operation=renamed", "", 400, "operation"},
	})
}

// TestMemoriesLifecycle: computed hashes and sizes, views, path conflicts,
// preconditions, renames, deletion, and the versions each change records.
func TestMemoriesLifecycle(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	st := memOK[memoryStoreWire](t, s, "POST", "/v1/memory_stores", `{"name":"n"}`)
	base := "/v1/memory_stores/" + st.ID + "/memories"
	m := memOK[memoryWire](t, s, "POST", base, `{"path":"/notes/a.md","content":"héllo"}`)
	if !strings.HasPrefix(m.ID, "mem_") || m.Content != nil || m.ContentSHA256 != contentSHA256("héllo") ||
		m.ContentSizeBytes != 6 || !strings.HasPrefix(m.MemoryVersionID, "memver_") || m.MemoryStoreID != st.ID {
		t.Fatalf("created %+v", m)
	}
	if full := memOK[memoryWire](t, s, "GET", base+"/"+m.ID+"?view=full", ""); full.Content == nil || *full.Content != "héllo" {
		t.Errorf("view=full %+v", full)
	}
	if basic := memOK[memoryWire](t, s, "GET", base+"/"+m.ID+"?view=basic", ""); basic.Content != nil {
		t.Errorf("view=basic %+v", basic)
	}
	other := memOK[memoryWire](t, s, "POST", base+"?view=full", `{"path":"/notes/A.md","content":""}`) // case-sensitive
	if other.Content == nil || *other.Content != "" || other.ContentSizeBytes != 0 {
		t.Errorf("empty memory %+v", other)
	}
	conflict := func(method, path, body string) {
		t.Helper()
		resp, b := memCall(t, s, method, path, body)
		var e struct {
			Error map[string]string `json:"error"`
		}
		_ = json.Unmarshal(b, &e)
		if resp.StatusCode != 409 || e.Error["type"] != wire.ErrMemoryPathConflict ||
			e.Error["conflicting_memory_id"] != m.ID || e.Error["conflicting_path"] != "/notes/a.md" {
			t.Errorf("%s %s: %d %s", method, path, resp.StatusCode, b)
		}
	}
	conflict("POST", base, `{"path":"/notes/a.md","content":"x"}`)
	conflict("POST", base+"/"+other.ID, `{"path":"/notes/a.md"}`)

	stale := contentSHA256("stale")
	resp, b := memCall(t, s, "POST", base+"/"+m.ID, `{"content":"new","precondition":{"type":"content_sha256","content_sha256":"`+stale+`"}}`)
	wantError(t, resp, b, 409, wire.ErrMemoryPreconditionFailed, "precondition")
	clock.Advance(time.Minute)
	u := memOK[memoryWire](t, s, "POST", base+"/"+m.ID+"?view=full",
		`{"content":"new","path":"/notes/b.md","precondition":{"type":"content_sha256","content_sha256":"`+m.ContentSHA256+`"}}`)
	if u.ID != m.ID || *u.Content != "new" || u.Path != "/notes/b.md" || u.MemoryVersionID == m.MemoryVersionID || u.UpdatedAt == m.UpdatedAt {
		t.Errorf("updated %+v", u)
	}
	if same := memOK[memoryWire](t, s, "POST", base+"/"+m.ID, `{"content":"new"}`); same.MemoryVersionID != u.MemoryVersionID {
		t.Errorf("a no-op update made a version: %+v", same)
	}
	resp, b = memCall(t, s, "DELETE", base+"/"+m.ID+"?expected_content_sha256="+stale, "")
	wantError(t, resp, b, 409, wire.ErrMemoryPreconditionFailed, "")
	if d := memOK[deletedWire](t, s, "DELETE", base+"/"+m.ID+"?expected_content_sha256="+contentSHA256("new"), ""); d != (deletedWire{ID: m.ID, Type: "memory_deleted"}) {
		t.Errorf("deleted %+v", d)
	}
	runMemCases(t, s, []memCase{{"deleted", "GET", base + "/" + m.ID, "", 404, "Memory not found"}})

	versions := memOK[cursorPage[memoryVersion]](t, s, "GET", "/v1/memory_stores/"+st.ID+"/memory_versions?memory_id="+m.ID+"&view=full", "")
	var ops []string
	for _, v := range versions.Data {
		ops = append(ops, v.Operation)
		if string(v.CreatedBy) != `{"api_key_id":"apikey_01","type":"api_actor"}` {
			t.Errorf("created_by %s", v.CreatedBy)
		}
	}
	if !cmp.Equal(ops, []string{"deleted", "modified", "created"}) {
		t.Fatalf("operations %v", ops)
	}
	del, mod, cre := versions.Data[0], versions.Data[1], versions.Data[2]
	if del.Content != nil || del.ContentSHA256 != nil || del.ContentSizeBytes != nil || del.Path == nil || *del.Path != "/notes/b.md" {
		t.Errorf("deletion %+v", del)
	}
	if *mod.Content != "new" || *mod.Path != "/notes/b.md" || *cre.Content != "héllo" || *cre.ContentSizeBytes != 6 {
		t.Errorf("versions %+v %+v", mod, cre)
	}
	if basic := memOK[memoryVersion](t, s, "GET", "/v1/memory_stores/"+st.ID+"/memory_versions/"+cre.ID, ""); basic.Content != nil || basic.ContentSHA256 == nil {
		t.Errorf("basic version %+v", basic)
	}
	r := memOK[memoryVersion](t, s, "POST", "/v1/memory_stores/"+st.ID+"/memory_versions/"+cre.ID+"/redact", "")
	if r.Content != nil || r.ContentSHA256 != nil || r.ContentSizeBytes != nil || r.Path != nil || r.RedactedAt == nil || string(r.RedactedBy) != `{"api_key_id":"apikey_01","type":"api_actor"}` {
		t.Errorf("redacted %+v", r)
	}
	if full := memOK[memoryVersion](t, s, "GET", "/v1/memory_stores/"+st.ID+"/memory_versions/"+cre.ID+"?view=full", ""); full.Content != nil || full.Path != nil {
		t.Errorf("redacted, view=full %+v", full)
	}
}

// TestMemoryVersionFilters: each filter of the versions list, and the
// actor of each credential kind (never the credential).
func TestMemoryVersionFilters(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now), WithAPIKeys("key-one", "key-two"), WithAuthTokens("tok-one"))
	as := func(header, value, method, path, body string) []byte {
		t.Helper()
		req := newReq(t, s, method, path, strings.NewReader(body))
		req.Header.Del(wire.HeaderAPIKey)
		req.Header.Set(header, value)
		req.Header.Set(wire.HeaderBeta, wire.BetaAgentMemory)
		req.Header.Set("Content-Type", "application/json")
		resp, b := send(t, s, req)
		if resp.StatusCode != 200 {
			t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
		}
		return b
	}
	var st memoryStoreWire
	_ = json.Unmarshal(as(wire.HeaderAPIKey, "key-two", "POST", "/v1/memory_stores", `{"name":"n"}`), &st)
	base := "/v1/memory_stores/" + st.ID
	var m memoryWire
	_ = json.Unmarshal(as(wire.HeaderAPIKey, "key-two", "POST", base+"/memories", `{"path":"/a","content":"1"}`), &m)
	clock.Advance(time.Hour)
	as(wire.HeaderAuthorization, "Bearer tok-one", "POST", base+"/memories/"+m.ID, `{"content":"2"}`)
	as(wire.HeaderAPIKey, "key-one", "POST", base+"/memories", `{"path":"/b","content":"3"}`)
	versions := func(query string) []string {
		t.Helper()
		var p cursorPage[memoryVersion]
		_ = json.Unmarshal(as(wire.HeaderAPIKey, "key-one", "GET", base+"/memory_versions"+query, ""), &p)
		var out []string
		for _, v := range p.Data {
			if strings.Contains(string(v.CreatedBy), "key-") || strings.Contains(string(v.CreatedBy), "tok-") {
				t.Errorf("created_by shows a credential: %s", v.CreatedBy)
			}
			out = append(out, v.Operation+" "+string(v.CreatedBy))
		}
		return out
	}
	const (
		two  = `created {"api_key_id":"apikey_02","type":"api_actor"}`
		user = `modified {"type":"user_actor","user_id":"user_01"}`
		one  = `created {"api_key_id":"apikey_01","type":"api_actor"}`
	)
	later := clock.Now().Format(time.RFC3339)
	var first cursorPage[memoryVersion]
	if _ = json.Unmarshal(as(wire.HeaderAPIKey, "key-one", "GET", base+"/memory_versions?limit=1", ""), &first); first.NextPage == nil {
		t.Fatal("a page of one of three versions has no next_page")
	}
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"", []string{one, user, two}},
		{"?limit=1&page=" + *first.NextPage, []string{user}},
		{"?memory_id=" + m.ID, []string{user, two}},
		{"?operation=created", []string{one, two}},
		{"?api_key_id=apikey_02", []string{two}},
		{"?session_id=sesn_x", nil},
		{"?service_account_id=svc_x", nil},
		{"?created_at[gte]=" + later, []string{one, user}},
		{"?created_at[lte]=" + clock.Now().Add(-time.Minute).Format(time.RFC3339), []string{two}},
	} {
		if got := versions(tt.query); !cmp.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.query, got, tt.want)
		}
	}
}

// TestMemoryListDepth: path_prefix and depth roll deeper entries up into
// memory_prefix items, sorted by path.
func TestMemoryListDepth(t *testing.T) {
	s := newTestServer(t)
	st := memOK[memoryStoreWire](t, s, "POST", "/v1/memory_stores", `{"name":"n"}`)
	base := "/v1/memory_stores/" + st.ID + "/memories"
	for _, p := range []string{"/top.md", "/notes/a.md", "/notes/deep/b.md", "/notes/deep/er/c.md", "/other/d.md"} {
		memOK[memoryWire](t, s, "POST", base, `{"path":"`+p+`","content":"x"}`)
	}
	list := func(query string) []string {
		t.Helper()
		p := memOK[cursorPage[struct {
			Type, Path string
			Content    *string
		}]](t, s, "GET", base+query, "")
		var out []string
		for _, d := range p.Data {
			out = append(out, d.Type+" "+d.Path)
		}
		return out
	}
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"", []string{"memory /notes/a.md", "memory /notes/deep/b.md", "memory /notes/deep/er/c.md", "memory /other/d.md", "memory /top.md"}},
		{"?depth=1", []string{"memory_prefix /notes/", "memory_prefix /other/", "memory /top.md"}},
		{"?path_prefix=/notes/", []string{"memory /notes/a.md", "memory /notes/deep/b.md", "memory /notes/deep/er/c.md"}},
		{"?path_prefix=/notes/&depth=1", []string{"memory /notes/a.md", "memory_prefix /notes/deep/"}},
		{"?path_prefix=/notes/&depth=2", []string{"memory /notes/a.md", "memory /notes/deep/b.md", "memory_prefix /notes/deep/er/"}},
		{"?path_prefix=/none/", nil},
	} {
		if got := list(tt.query); !cmp.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.query, got, tt.want)
		}
	}
}

// TestSessionsNeedUsableMemoryStore: a session's memory_store resource
// must name a store that exists and is not archived, as a vault must.
func TestSessionsNeedUsableMemoryStore(t *testing.T) {
	s, a := sessionFixture(t)
	live := memOK[memoryStoreWire](t, s, "POST", "/v1/memory_stores", `{"name":"live"}`)
	gone := memOK[memoryStoreWire](t, s, "POST", "/v1/memory_stores", `{"name":"gone"}`)
	memOK[memoryStoreWire](t, s, "POST", "/v1/memory_stores/"+gone.ID+"/archive", "")
	body := func(id string) string {
		return `{"agent":"` + a.ID + `","environment_id":"` + testEnvID + `","resources":[{"type":"memory_store","memory_store_id":"` + id + `"}]}`
	}
	for _, tt := range []struct {
		name, id string
		status   int
		msg      string
	}{
		{"usable", live.ID, 200, ""},
		{"missing", "memstore_nope", 404, "Memory store not found: memstore_nope"},
		{"archived", gone.ID, 404, "Memory store not found: " + gone.ID},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, b := agentCall(t, s, "POST", "/v1/sessions", body(tt.id))
			if resp.StatusCode != tt.status || !strings.Contains(string(b), tt.msg) {
				t.Errorf("%d %s, want %d containing %q", resp.StatusCode, b, tt.status, tt.msg)
			}
		})
	}
}
