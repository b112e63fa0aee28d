package mmstest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/wire"

	"github.com/stretchr/testify/require"
)

func envOK(t *testing.T, s *Server, method, path, body string) environmentWire {
	t.Helper()
	resp, b := agentCall(t, s, method, path, body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	var e environmentWire
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	return e
}

func TestEnvironmentsRequireBeta(t *testing.T) {
	s := newTestServer(t)
	resp, body := send(t, s, newReq(t, s, http.MethodGet, "/v1/environments", nil))
	wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, wire.BetaManagedAgents)
}

// TestEnvironmentsStrict: the body rules, each on both sides where it has
// a limit; a refusal names the member.
func TestEnvironmentsStrict(t *testing.T) {
	s := newTestServer(t)
	meta := func(n, keyLen, valueLen int) string {
		m := map[string]string{}
		for i := range n {
			m[fmt.Sprintf("%0*d", keyLen, i)] = strings.Repeat("v", valueLen)
		}
		return string(encodeJSON(m))
	}
	for _, tt := range []struct {
		body string
		want string // "" when accepted
	}{
		{`{"name":"e"}`, ""},
		{`{}`, "name: Field required"},
		{`{"name":""}`, "name:"},
		{`{"name":"e","colour":"red"}`, "colour: Extra inputs are not permitted"},
		{`{"name":"e","scope":"galaxy"}`, "scope:"},
		{`{"name":"e","scope":"account"}`, ""},
		{`{"name":"e","config":{"type":"self_hosted","networking":{"type":"unrestricted"}}}`, "self_hosted config"},
		{`{"name":"e","config":{"type":"moon"}}`, "config.type"},
		{`{"name":"e","config":{"type":"cloud","gpu":1}}`, "config.gpu: Extra inputs"},
		{`{"name":"e","config":{"type":"cloud","networking":{"type":"unrestricted","allowed_hosts":[]}}}`, "unrestricted networking"},
		{`{"name":"e","config":{"type":"cloud","networking":{"type":"limited","allowed_hosts":["a",""]}}}`, "allowed_hosts.1"},
		{`{"name":"e","config":{"type":"cloud","networking":{"type":"limited","allowed_hosts":["a"],"allow_mcp_servers":"yes"}}}`, "allow_mcp_servers"},
		{`{"name":"e","config":{"type":"cloud","networking":{"type":"limited"}}}`, ""},
		{`{"name":"e","config":{"type":"cloud","packages":{"type":"packages","pip":["x"],"apt":null}}}`, ""},
		{`{"name":"e","config":{"type":"cloud","packages":{"conda":["x"]}}}`, "config.packages.conda"},
		{`{"name":"e","config":{"type":"cloud","packages":{"type":"pkgs"}}}`, "config.packages.type"},
		{`{"name":"e","metadata":` + meta(16, 64, 512) + `}`, ""},
		{`{"name":"e","metadata":` + meta(17, 2, 1) + `}`, "at most 16"},
		{`{"name":"e","metadata":` + meta(1, 65, 1) + `}`, "keys must be 1 to 64"},
		{`{"name":"e","metadata":` + meta(1, 1, 513) + `}`, "at most 512"},
		{`{"name":"e","metadata":{"k":null}}`, "metadata.k"},
	} {
		resp, body := agentCall(t, s, "POST", "/v1/environments", tt.body)
		if tt.want == "" {
			if resp.StatusCode != http.StatusOK {
				t.Errorf("%s: %d %s", tt.body, resp.StatusCode, body)
			}
			continue
		}
		t.Run(tt.want, func(t *testing.T) { wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, tt.want) })
	}
}

// TestEnvironmentsUpdateKeeps: update semantics on the record: omitted
// sub-fields keep, null and "" clear or delete, config null resets.
func TestEnvironmentsUpdateKeeps(t *testing.T) {
	s := newTestServer(t)
	e := envOK(t, s, "POST", "/v1/environments", `{"name":"e","description":"d","scope":"account","metadata":{"a":"1","b":"2","c":"3"},`+
		`"config":{"type":"cloud","networking":{"type":"limited","allowed_hosts":["h"],"allow_mcp_servers":true},"packages":{"pip":["p"],"npm":["n"]}}}`)
	path := "/v1/environments/" + e.ID
	u := envOK(t, s, "POST", path, `{"name":null,"description":"","metadata":{"a":null,"b":"","d":"4"},`+
		`"config":{"type":"cloud","networking":{"type":"limited","allow_package_managers":true},"packages":{"npm":null}}}`)
	got := string(encodeJSON(u.Config))
	want := `{"type":"cloud","networking":{"allow_mcp_servers":true,"allow_package_managers":true,"allowed_hosts":["h"],"type":"limited"},` +
		`"packages":{"apt":[],"cargo":[],"gem":[],"go":[],"npm":[],"pip":["p"],"type":"packages"}}`
	if got != want || u.Name != "e" || u.Description != nil || u.Scope != "account" || !cmp.Equal(u.Metadata, map[string]string{"c": "3", "d": "4"}) {
		t.Errorf("updated %+v\nconfig %s", u, got)
	}
	u = envOK(t, s, "POST", path, `{"config":null,"scope":null}`)
	if string(encodeJSON(u.Config)) != string(encodeJSON(defaultEnvConfig())) || u.Scope != "" || strings.Contains(string(encodeJSON(u)), "scope") {
		t.Errorf("reset %+v", u)
	}
	u = envOK(t, s, "POST", path, `{"config":{"type":"self_hosted"}}`)
	if u.Config.Type != "self_hosted" || u.Config.Networking != nil {
		t.Errorf("self-hosted %+v", u)
	}
}

// TestEnvironmentHooks: the hooks the sessions endpoints call.
func TestEnvironmentHooks(t *testing.T) {
	s := newTestServer(t)
	cloud := envOK(t, s, "POST", "/v1/environments", `{"name":"c"}`)
	self := envOK(t, s, "POST", "/v1/environments", `{"name":"s","config":{"type":"self_hosted"}}`)
	gone := envOK(t, s, "POST", "/v1/environments", `{"name":"g","config":{"type":"self_hosted"}}`)
	envOK(t, s, "POST", "/v1/environments/"+gone.ID+"/archive", "")
	st := s.environments
	for _, tt := range []struct {
		id             string
		selfHosted, ok bool
	}{{cloud.ID, false, true}, {self.ID, true, true}, {gone.ID, false, false}, {"env_nope", false, false}} {
		if sh, ok := st.sessionTarget(tt.id); sh != tt.selfHosted || ok != tt.ok {
			t.Errorf("sessionTarget(%s) = %v %v, want %v %v", tt.id, sh, ok, tt.selfHosted, tt.ok)
		}
	}

	// enqueueSession wakes a waiting poll, which takes the session item.
	clock := NewManualClock(time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC))
	s = newTestServer(t, WithManualClock(clock))
	st = s.environments
	self = envOK(t, s, "POST", "/v1/environments", `{"name":"s","config":{"type":"self_hosted"}}`)
	cloud = envOK(t, s, "POST", "/v1/environments", `{"name":"c"}`)
	done := make(chan []byte, 1)
	go func() {
		_, b := agentCall(t, s, "GET", "/v1/environments/"+self.ID+"/work/poll?block_ms=60000", "")
		done <- b
	}()
	for {
		st.mu.Lock()
		n := len(st.find(self.ID).polling)
		st.mu.Unlock()
		if n == 1 {
			break
		}
	}
	st.enqueueSession(cloud.ID, "sesn_cloud") // not self-hosted: nothing
	st.enqueueSession(self.ID, "sesn_1")
	var w workWire
	if err := json.Unmarshal(<-done, &w); err != nil {
		t.Fatal(err)
	}
	if w.Data != (workData{Type: "session", ID: "sesn_1"}) || w.State != "starting" || w.Secret == nil {
		t.Fatalf("polled %+v", w)
	}
	raw, err := base64.RawURLEncoding.DecodeString(*w.Secret)
	var secret map[string]string
	if err != nil || json.Unmarshal(raw, &secret) != nil || secret["sessions_token"] == "" || secret["api_base_url"] != s.URL {
		t.Errorf("secret %s %v", raw, err)
	}
	if len(st.find(cloud.ID).work) != 0 {
		t.Errorf("a cloud environment got work")
	}
}

// TestWorkStrict: the work queue's request rules.
func TestWorkStrict(t *testing.T) {
	s := newTestServer(t)
	self := envOK(t, s, "POST", "/v1/environments", `{"name":"s","config":{"type":"self_hosted"}}`)
	id, err := s.EnqueueHealthcheck(self.ID)
	require.NoError(t, err)
	if _, err := s.EnqueueHealthcheck("env_nope"); err == nil {
		t.Errorf("healthcheck on a missing environment")
	}
	base := "/v1/environments/" + self.ID + "/work"
	for _, tt := range []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"GET", base + "/poll?block_ms=-1", "", 400, "block_ms"},
		{"GET", base + "/poll?reclaim_older_than_ms=x", "", 400, "reclaim_older_than_ms"},
		{"POST", base + "/" + id, `{}`, 400, "metadata: Field required"},
		{"POST", base + "/" + id, `{"metadata":{},"x":1}`, 400, "x: Extra inputs"},
		{"POST", base + "/" + id + "/heartbeat", `{"desired_ttl_seconds":0}`, 400, "desired_ttl_seconds"},
		{"POST", base + "/" + id + "/heartbeat", `{"ttl":1}`, 400, "ttl: Extra inputs"},
		{"POST", base + "/" + id + "/stop", `{"now":true}`, 400, "now: Extra inputs"},
		{"POST", base + "/" + id + "/ack", "", 409, "queued"},
		{"GET", base + "/work_nope", "", 404, "work_nope"},
		{"GET", "/v1/environments/env_nope/work/stats", "", 404, "env_nope"},
	} {
		resp, body := agentCall(t, s, tt.method, tt.path, tt.body)
		errType := wire.ErrInvalidRequest
		if tt.status == http.StatusNotFound {
			errType = wire.ErrNotFound
		}
		wantError(t, resp, body, tt.status, errType, tt.want)
	}
	// A queued item stops at once, with an empty body.
	resp, body := agentCall(t, s, "POST", base+"/"+id+"/stop", "")
	var w workWire
	if resp.StatusCode != 200 || json.Unmarshal(body, &w) != nil || w.State != "stopped" || w.StoppedAt == nil {
		t.Errorf("stop: %d %s", resp.StatusCode, body)
	}
	// With the real clock block_ms is a real timer: a 1 ms poll ends empty.
	resp, body = agentCall(t, s, "GET", base+"/poll?block_ms=1", "")
	if resp.StatusCode != http.StatusNoContent || len(body) != 0 {
		t.Errorf("poll: %d %s", resp.StatusCode, body)
	}
}
