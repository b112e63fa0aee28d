package mmstest

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// rawCall sends a request that passes the rules (with the managed-agents
// beta) without a *testing.T, so that goroutines other than the test's
// can send it.
func rawCall(s *Server, method, path, contentType string, body []byte) (int, []byte, error) {
	req, err := http.NewRequest(method, s.URL+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set(wire.HeaderAPIKey, DefaultAPIKey)
	req.Header.Set(wire.HeaderVersion, wire.DefaultVersion)
	req.Header.Set(wire.HeaderBeta, wire.BetaManagedAgents)
	if contentType != "" {
		req.Header.Set(wire.HeaderContentType, contentType)
	}
	resp, err := s.Client().Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	return resp.StatusCode, b, err
}

// rawJSON sends a JSON request (rawCall) and decodes a 200 answer into a T.
func rawJSON[T any](s *Server, method, path, body string) (T, error) {
	var out T
	ct := ""
	if body != "" {
		ct = "application/json"
	}
	_, b, err := rawCall(s, method, path, ct, []byte(body))
	if err == nil {
		err = json.Unmarshal(b, &out)
	}
	return out, err
}

// churnedList is a list under test: how to add an item to it, take one
// away, and read the page a token names ("" for the first page).
type churnedList struct {
	name   string
	setup  func(t *testing.T) *Server
	create func(s *Server) (id string, err error)
	remove func(s *Server, id string) error
	page   func(s *Server, token string) (ids []string, next string, err error)
}

// listing pages through l from the first page to the last while other
// goroutines create and delete items; between two page fetches it also
// creates an item and deletes the two doomed items it listed last (the
// page's last item among them when doomed), so that every gap sees a
// create and a delete. Seeded items alternate between kept and doomed
// ones. It checks that no item is listed twice and every kept item once.
func listing(t *testing.T, l churnedList) {
	t.Helper()
	s := l.setup(t)
	kept, doomed := map[string]bool{}, map[string]bool{}
	for i := range 40 {
		id, err := l.create(s)
		require.NoError(t, err)
		if i%2 == 0 {
			kept[id] = true
		} else {
			doomed[id] = true
		}
	}
	var doomedQueue []string
	for id := range doomed {
		doomedQueue = append(doomedQueue, id)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	halt := sync.OnceFunc(func() { close(stop); wg.Wait() })
	defer halt()      // also when a require below ends the test
	var mu sync.Mutex // guards doomedQueue and deleted
	deleted := map[string]bool{}
	takeDoomed := func(id string) bool { // reports whether id was doomed and not yet taken
		mu.Lock()
		defer mu.Unlock()
		if !doomed[id] || deleted[id] {
			return false
		}
		deleted[id] = true
		return true
	}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				id, err := l.create(s)
				if err == nil {
					err = l.remove(s, id)
				}
				mu.Lock()
				var victim string
				if n := len(doomedQueue); n > 0 {
					victim, doomedQueue = doomedQueue[n-1], doomedQueue[:n-1]
				}
				mu.Unlock()
				if err == nil && victim != "" && takeDoomed(victim) {
					err = l.remove(s, victim)
				}
				if err != nil {
					t.Errorf("churn: %v", err)
					return
				}
			}
		}()
	}
	seen := map[string]int{}
	var listed []string
	token := ""
	for pages := 0; ; pages++ {
		require.Less(t, pages, 1000, "the listing does not end")
		ids, next, err := l.page(s, token)
		require.NoError(t, err)
		for _, id := range ids {
			seen[id]++
			listed = append(listed, id)
		}
		if next == "" {
			break
		}
		token = next
		_, err = l.create(s)
		require.NoError(t, err)
		taken := 0
		for i := len(listed) - 1; i >= 0 && taken < 2; i-- {
			if takeDoomed(listed[i]) {
				require.NoError(t, l.remove(s, listed[i]))
				taken++
			}
		}
	}
	halt()
	for id, n := range seen {
		assert.Equal(t, 1, n, "%s: %s listed %d times", l.name, id, n)
	}
	for id := range kept {
		assert.Equal(t, 1, seen[id], "%s: kept %s listed %d times", l.name, id, seen[id])
	}
}

// cursorIDs reads a cursor-scheme page of path (query included) for token.
func cursorIDs(s *Server, path, token string) ([]string, string, error) {
	if token != "" {
		path += "&page=" + url.QueryEscape(token)
	}
	p, err := rawJSON[bidiPage[struct{ ID string }]](s, "GET", path, "")
	var ids []string
	for _, d := range p.Data {
		ids = append(ids, d.ID)
	}
	next := ""
	if p.NextPage != nil {
		next = *p.NextPage
	}
	return ids, next, err
}

// recordID creates a record by a JSON POST and returns its id.
func recordID(s *Server, path, body string) (string, error) {
	rec, err := rawJSON[struct{ ID string }](s, "POST", path, body)
	return rec.ID, err
}

// TestListingWhileOthersWrite: pages of every scheme neither repeat nor
// skip an item while items are created and deleted between two page
// fetches, a deleted last item of a page included (issue 32 §1).
func TestListingWhileOthersWrite(t *testing.T) {
	plain := func(t *testing.T) *Server { return newTestServer(t) }
	sessions := func(t *testing.T) *Server { s, _ := sessionFixture(t); return s }
	createSession := func(s *Server) (string, error) {
		return recordID(s, "/v1/sessions", `{"agent":"agent_010000000000000000000001","environment_id":"`+testEnvID+`"}`)
	}
	removeAt := func(prefix string) func(s *Server, id string) error {
		return func(s *Server, id string) error {
			_, _, err := rawCall(s, "DELETE", prefix+id, "", nil)
			return err
		}
	}
	form, formType := buildForm(t, formPart{name: "file", filename: "f.txt", contentType: "text/plain", content: "x", file: true})
	createFile := func(s *Server) (string, error) {
		_, b, err := rawCall(s, "POST", "/v1/files", formType, form)
		var f fileWire
		if err == nil {
			err = json.Unmarshal(b, &f)
		}
		return f.ID, err
	}
	// filePage walks the files list by after_id, or backwards by before_id
	// from an id newer than any.
	filePage := func(param, from string) func(s *Server, token string) ([]string, string, error) {
		return func(s *Server, token string) ([]string, string, error) {
			path := "/v1/files?limit=3"
			if token != "" || from != "" {
				path += "&" + param + "=" + cmp.Or(token, from)
			}
			p, err := rawJSON[idPage[fileWire]](s, "GET", path, "")
			var ids []string
			for _, f := range p.Data {
				ids = append(ids, f.ID)
			}
			switch {
			case err != nil || !p.HasMore:
				return ids, "", err
			case param == "before_id":
				return ids, *p.FirstID, nil
			}
			return ids, *p.LastID, nil
		}
	}
	// sessionsBack walks the sessions list backwards by prev_page, from
	// the last page.
	sessionsBack := func(s *Server, token string) ([]string, string, error) {
		const path = "/v1/sessions?limit=3&order=asc"
		p, err := rawJSON[bidiPage[struct{ ID string }]](s, "GET", path, "")
		for token == "" && err == nil && p.NextPage != nil {
			p, err = rawJSON[bidiPage[struct{ ID string }]](s, "GET", path+"&page="+*p.NextPage, "")
		}
		if token != "" {
			p, err = rawJSON[bidiPage[struct{ ID string }]](s, "GET", path+"&page="+token, "")
		}
		var ids []string
		for _, d := range p.Data {
			ids = append(ids, d.ID)
		}
		if p.PrevPage == nil {
			return ids, "", err
		}
		return ids, *p.PrevPage, err
	}
	for _, l := range []churnedList{
		{name: "vaults", setup: plain,
			create: func(s *Server) (string, error) { return recordID(s, "/v1/vaults", `{"display_name":"v"}`) },
			remove: removeAt("/v1/vaults/"),
			page: func(s *Server, token string) ([]string, string, error) {
				return cursorIDs(s, "/v1/vaults?limit=3", token)
			}},
		{name: "agents", setup: plain,
			create: func(s *Server) (string, error) { return recordID(s, "/v1/agents", `{"name":"a","model":"m"}`) },
			remove: func(s *Server, id string) error { _, err := recordID(s, "/v1/agents/"+id+"/archive", ""); return err },
			page: func(s *Server, token string) ([]string, string, error) {
				return cursorIDs(s, "/v1/agents?limit=3", token)
			}},
		{name: "sessions desc", setup: sessions, create: createSession, remove: removeAt("/v1/sessions/"),
			page: func(s *Server, token string) ([]string, string, error) {
				return cursorIDs(s, "/v1/sessions?limit=3&order=desc", token)
			}},
		{name: "sessions asc", setup: sessions, create: createSession, remove: removeAt("/v1/sessions/"),
			page: func(s *Server, token string) ([]string, string, error) {
				return cursorIDs(s, "/v1/sessions?limit=3&order=asc", token)
			}},
		{name: "sessions backwards", setup: sessions, create: createSession, remove: removeAt("/v1/sessions/"), page: sessionsBack},
		{name: "files after_id", setup: plain, create: createFile, remove: removeAt("/v1/files/"), page: filePage("after_id", "")},
		{name: "files before_id", setup: plain, create: createFile, remove: removeAt("/v1/files/"),
			page: filePage("before_id", "file_01"+strings.Repeat("0", 22))}, // older than any
	} {
		t.Run(l.name, func(t *testing.T) { listing(t, l) })
	}
}

// TestEventListWhileTheSessionRuns: a session's events listed newest
// first while the session takes new messages and answers them: no event
// twice, every event that was there before the listing once.
func TestEventListWhileTheSessionRuns(t *testing.T) {
	s, a := sessionFixture(t)
	sess := sessionOK(t, s, "POST", "/v1/sessions", `{"agent":"`+a.ID+`","environment_id":"`+testEnvID+`"}`)
	path := "/v1/sessions/" + sess.ID + "/events"
	say := func(i int) error {
		_, _, err := rawCall(s, "POST", path, "application/json", fmt.Appendf(nil, `{"events":[`+userMsg+`]}`, fmt.Sprint("m", i)))
		return err
	}
	for i := range 5 {
		require.NoError(t, say(i))
		settle(s)
	}
	before, _, err := listAll(s, path+"?limit=100&order=desc")
	require.NoError(t, err)
	require.Greater(t, len(before), 10)
	seen := map[string]int{}
	token := ""
	for i := 0; ; i++ {
		require.Less(t, i, 100, "the listing does not end")
		ids, next, err := cursorIDs(s, path+"?limit=3&order=desc", token)
		require.NoError(t, err)
		for _, id := range ids {
			seen[id]++
		}
		if next == "" {
			break
		}
		token = next
		require.NoError(t, say(100+i)) // its answer lands while the listing goes on
	}
	settle(s)
	for id, n := range seen {
		assert.Equal(t, 1, n, "event %s listed %d times", id, n)
	}
	for _, id := range before {
		assert.Equal(t, 1, seen[id], "event %s listed %d times", id, seen[id])
	}
}

// listAll reads every page of a cursor-scheme path.
func listAll(s *Server, path string) (ids []string, pages int, err error) {
	for token := "start"; token != ""; pages++ {
		var page []string
		page, token, err = cursorIDs(s, path, strings.TrimPrefix(token, "start"))
		if err != nil {
			return nil, pages, err
		}
		ids = append(ids, page...)
	}
	return ids, pages, nil
}

// TestPageTokenOfDeletedItem: a token whose item has been deleted resumes
// where the item stood, in both directions of the sessions list; one of
// another list's shape or a forged one is refused.
func TestPageTokenOfDeletedItem(t *testing.T) {
	s, a := sessionFixture(t)
	var ids []string
	for range 6 {
		ids = append(ids, sessionOK(t, s, "POST", "/v1/sessions", `{"agent":"`+a.ID+`","environment_id":"`+testEnvID+`"}`).ID)
	}
	page := func(query string) bidiPage[sessionWire] {
		t.Helper()
		resp, b := agentCall(t, s, "GET", "/v1/sessions?"+query, "")
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
		var p bidiPage[sessionWire]
		require.NoError(t, json.Unmarshal(b, &p))
		return p
	}
	idsOf := func(p bidiPage[sessionWire]) []string {
		var out []string
		for _, d := range p.Data {
			out = append(out, d.ID)
		}
		return out
	}
	first := page("limit=2&order=asc")
	second := page("limit=2&order=asc&page=" + *first.NextPage)
	require.Equal(t, ids[2:4], idsOf(second))
	// Delete the item each token names: ids[1] (first's next) and ids[2]
	// (second's prev).
	for _, id := range ids[1:3] {
		sessionOK(t, s, "DELETE", "/v1/sessions/"+id, "")
	}
	assert.Equal(t, []string{ids[3], ids[4]}, idsOf(page("limit=2&order=asc&page="+*first.NextPage)))
	assert.Equal(t, []string{ids[0]}, idsOf(page("limit=2&order=asc&page="+*second.PrevPage)))
	// A token whose later items are all gone gives an empty page without
	// tokens (the fake used to panic on it).
	third := page("limit=1&order=asc&page=" + *second.NextPage)
	require.Equal(t, []string{ids[4]}, idsOf(third))
	sessionOK(t, s, "DELETE", "/v1/sessions/"+ids[5], "")
	last := page("limit=1&order=asc&page=" + *third.NextPage)
	assert.Empty(t, last.Data)
	assert.Nil(t, last.NextPage)
	assert.Nil(t, last.PrevPage)
	for _, bad := range []string{"", "not json", "{}", `{"order":"asc"}`, `{"order":"asc","after":["x"],"before":["y"]}`} {
		resp, b := agentCall(t, s, "GET", "/v1/sessions?order=asc&page=page_"+base64.RawURLEncoding.EncodeToString([]byte(bad)), "")
		wantError(t, resp, b, http.StatusBadRequest, wire.ErrInvalidRequest, "page")
	}
	// A cursor-scheme token (no order) is not a sessions token, and the
	// other way round.
	vaultOK[vaultWire](t, s, "POST", "/v1/vaults", `{"display_name":"v"}`)
	vaultOK[vaultWire](t, s, "POST", "/v1/vaults", `{"display_name":"w"}`)
	vaults := vaultOK[cursorPage[vaultWire]](t, s, "GET", "/v1/vaults?limit=1", "")
	resp, b := agentCall(t, s, "GET", "/v1/sessions?order=asc&page="+*vaults.NextPage, "")
	wantError(t, resp, b, http.StatusBadRequest, wire.ErrInvalidRequest, "order")
	resp, b = agentCall(t, s, "GET", "/v1/vaults?page="+*first.NextPage, "")
	wantError(t, resp, b, http.StatusBadRequest, wire.ErrInvalidRequest, "page")
}
