package mmstest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// profileCall sends a user-profiles request carrying beta (none when "").
func profileCall(t *testing.T, s *Server, beta, method, path, body string) (*http.Response, []byte) {
	t.Helper()
	var req *http.Request
	if body == "" {
		req = newReq(t, s, method, path, nil)
	} else {
		req = newReq(t, s, method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	}
	if beta != "" {
		req.Header.Set(wire.HeaderBeta, beta)
	}
	return send(t, s, req)
}

// profileOK sends a request under the seed beta that must succeed and
// decodes the answer into a T.
func profileOK[T any](t *testing.T, s *Server, method, path, body string) T {
	t.Helper()
	resp, b := profileCall(t, s, wire.BetaUserProfiles, method, path, body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestUserProfilesBetaRequirement: the seed value or any known dated
// user-profiles-* value meets the endpoint's requirement.
func TestUserProfilesBetaRequirement(t *testing.T) {
	s := newTestServer(t)
	for _, tt := range []struct {
		beta   string
		status int
		msg    string
	}{
		{"", 200, ""},                     // GA
		{wire.BetaManagedAgents, 200, ""}, // GA: no user-profiles beta
		{"user-profiles", 200, ""},
		{"user-profiles-2026-03-24", 200, ""},
		{"user-profiles-2026-08-18", 200, ""},
		{"user-profiles-2026-09-04", 200, ""},
		{wire.BetaFiles + ",user-profiles-2026-09-04", 200, ""},
		{"user-profiles-2099-01-01", 400, "Unexpected value"},
		{"user-profilesx", 400, "Unexpected value"},
	} {
		resp, body := profileCall(t, s, tt.beta, "GET", "/v1/user_profiles", "")
		if tt.status == 200 {
			if resp.StatusCode != 200 {
				t.Errorf("beta %q: %d %s", tt.beta, resp.StatusCode, body)
			}
			continue
		}
		wantError(t, resp, body, tt.status, wire.ErrInvalidRequest, tt.msg)
	}
	if wire.RequiredBeta("/v1/user_profiles/uprof_1/enrollment_url") != wire.BetaUserProfiles || !wire.IsKnownBeta("user-profiles-2026-09-04") {
		t.Errorf("wire: required %q", wire.RequiredBeta("/v1/user_profiles"))
	}
}

// TestUserProfilesLifecycle: create, get, update (merge, "" deletes, null
// clears, details members replace), enrollment URL, 404s.
func TestUserProfilesLifecycle(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	p := profileOK[userProfileWire](t, s, "POST", "/v1/user_profiles",
		`{"external_id":"u-1","name":"Ada","metadata":{"k":"v","gone":"x"},"relationship":"resold","access_type":"passthrough",`+
			`"external_user_onboarded_at":"2026-01-02T03:04:05Z","external_user_details":{"country":"FR","email_hash":"h"}}`)
	if !strings.HasPrefix(p.ID, "uprof_") || p.Type != "user_profile" || *p.ExternalID != "u-1" || *p.Name != "Ada" ||
		*p.Relationship != "resold" || *p.AccessType != "passthrough" || len(p.TrustGrants) != 0 || p.TrustGrants == nil ||
		*p.ExternalUserDetails.Country != "FR" || p.ExternalUserDetails.ReferenceID != nil {
		t.Fatalf("created %+v", p)
	}
	path := "/v1/user_profiles/" + p.ID
	if g := profileOK[userProfileWire](t, s, "GET", path, ""); !cmp.Equal(g, p, cmpopts.IgnoreUnexported(userProfileWire{})) {
		t.Errorf("get %s", cmp.Diff(p, g, cmpopts.IgnoreUnexported(userProfileWire{})))
	}
	clock.Advance(time.Minute)
	u := profileOK[userProfileWire](t, s, "POST", path, `{"name":null,"relationship":null,"metadata":{"gone":"","n":"1"},`+
		`"external_user_details":{"reference_id":"r","account_status":"blocked"}}`)
	d := u.ExternalUserDetails
	if u.Name != nil || u.Relationship != nil || *u.ExternalID != "u-1" || *u.AccessType != "passthrough" ||
		!cmp.Equal(u.Metadata, map[string]string{"k": "v", "n": "1"}) || u.UpdatedAt == p.UpdatedAt ||
		*d.Country != "FR" || *d.EmailHash != "h" || *d.ReferenceID != "r" || *d.AccountStatus != "blocked" {
		t.Fatalf("updated %+v %+v", u, d)
	}
	// The wire form: every details member present, null until set;
	// relationship gone once cleared.
	_, raw := profileCall(t, s, wire.BetaUserProfiles, "GET", path, "")
	for _, want := range []string{`"entity_type":null`, `"onboarded_at":null`, `"name":null`, `"trust_grants":{}`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("record lacks %s: %s", want, raw)
		}
	}
	if strings.Contains(string(raw), "relationship") {
		t.Errorf("cleared relationship still sent: %s", raw)
	}
	e := profileOK[enrollmentURLWire](t, s, "POST", path+"/enrollment_url", "")
	if e.Type != "enrollment_url" || !strings.HasPrefix(e.URL, "https://"+EnrollmentHost+"/") || strings.Contains(e.URL, s.URL) ||
		e.ExpiresAt != clock.Now().Add(24*time.Hour).UTC().Format(fileTimeLayout) {
		t.Errorf("enrollment %+v", e)
	}
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/v1/user_profiles/uprof_nope", ""},
		{"POST", "/v1/user_profiles/uprof_nope", "{}"},
		{"POST", "/v1/user_profiles/uprof_nope/enrollment_url", ""},
	} {
		resp, body := profileCall(t, s, wire.BetaUserProfiles, c.method, c.path, c.body)
		wantError(t, resp, body, http.StatusNotFound, wire.ErrNotFound, "uprof_nope")
	}
	for _, m := range []string{"PATCH", "PUT"} { // DELETE exists now (user_profiles_ga.go)
		if resp, _ := profileCall(t, s, wire.BetaUserProfiles, m, path, ""); resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s: %d", m, resp.StatusCode)
		}
	}
}

// TestUserProfilesBetaGating: each member is accepted only under the
// betas of §2.1; the seed value accepts all.
func TestUserProfilesBetaGating(t *testing.T) {
	s := newTestServer(t)
	const (
		b0324 = "user-profiles-2026-03-24"
		b0818 = "user-profiles-2026-08-18"
		b0904 = "user-profiles-2026-09-04"
	)
	members := map[string]string{
		"external_id":           `{"external_id":"x"}`,
		"relationship":          `{"relationship":"internal"}`,
		"access_type":           `{"access_type":"application"}`,
		"external_user_details": `{"external_user_details":{"reference_id":"r"}}`,
		"name":                  `{"name":"n","metadata":{"a":"b"},"external_user_onboarded_at":"2026-01-01T00:00:00Z"}`,
	}
	accepted := map[string][]string{
		"external_id":           {"user-profiles", b0324, b0818},
		"relationship":          {"user-profiles", b0324},
		"access_type":           {"user-profiles", b0818, b0904},
		"external_user_details": {"user-profiles", b0904},
		"name":                  {"user-profiles", b0324, b0818, b0904},
	}
	p := profileOK[userProfileWire](t, s, "POST", "/v1/user_profiles", `{}`)
	for member, body := range members {
		for _, beta := range []string{"user-profiles", b0324, b0818, b0904} {
			ok := false
			for _, a := range accepted[member] {
				ok = ok || a == beta
			}
			for _, path := range []string{"/v1/user_profiles", "/v1/user_profiles/" + p.ID} {
				resp, got := profileCall(t, s, beta, "POST", path, body)
				if ok && resp.StatusCode != 200 {
					t.Errorf("%s under %s on %s: %d %s", member, beta, path, resp.StatusCode, got)
				}
				if !ok {
					wantError(t, resp, got, 400, wire.ErrInvalidRequest, member+": not accepted under vendor-beta "+beta)
				}
			}
		}
	}
	// Two values: a member passes when one of them allows it.
	if resp, got := profileCall(t, s, b0324+","+b0904, "POST", "/v1/user_profiles", `{"relationship":"internal","external_user_details":{}}`); resp.StatusCode != 200 {
		t.Errorf("two dated betas: %d %s", resp.StatusCode, got)
	}
}

// TestUserProfilesBodyRules: each rule on both sides of its limit, on
// create and (where it differs) on update.
func TestUserProfilesBodyRules(t *testing.T) {
	s := newTestServer(t)
	p := profileOK[userProfileWire](t, s, "POST", "/v1/user_profiles", `{}`)
	upd := "/v1/user_profiles/" + p.ID
	s255, s256 := strings.Repeat("é", 255), strings.Repeat("é", 256)
	var meta16, meta17 []string
	for i := range 17 {
		kv := `"k` + string(rune('a'+i)) + `":"v"`
		if i < 16 {
			meta16 = append(meta16, kv)
		}
		meta17 = append(meta17, kv)
	}
	details := func(m string) string { return `{"external_user_details":{` + m + `}}` }
	for _, tt := range []struct {
		name, path, body, msg string // msg "" = accepted
	}{
		{"external_id 255", "", `{"external_id":"` + s255 + `"}`, ""},
		{"external_id 256", "", `{"external_id":"` + s256 + `"}`, "external_id: String should have at most 255"},
		{"name 255", upd, `{"name":"` + s255 + `"}`, ""},
		{"name 256", upd, `{"name":"` + s256 + `"}`, "name: String should have at most 255"},
		{"name null on create", "", `{"name":null}`, ""},
		{"16 pairs", "", `{"metadata":{` + strings.Join(meta16, ",") + `}}`, ""},
		{"17 pairs", "", `{"metadata":{` + strings.Join(meta17, ",") + `}}`, "at most 16 pairs"},
		{"key 64", "", `{"metadata":{"` + strings.Repeat("k", 64) + `":"v"}}`, ""},
		{"key 65", "", `{"metadata":{"` + strings.Repeat("k", 65) + `":"v"}}`, "keys must be 1 to 64"},
		{"value 512", "", `{"metadata":{"k":"` + strings.Repeat("v", 512) + `"}}`, ""},
		{"value 513", "", `{"metadata":{"k":"` + strings.Repeat("v", 513) + `"}}`, "at most 512"},
		{"empty value on create", "", `{"metadata":{"k":""}}`, "metadata.k: String should have at least 1"},
		{"empty value on update deletes", upd, `{"metadata":{"k":""}}`, ""},
		{"null value", upd, `{"metadata":{"k":null}}`, "metadata.k: Input should be a valid string"},
		{"null metadata", upd, `{"metadata":null}`, "metadata"},
		{"relationship null on create", "", `{"relationship":null}`, "relationship: cannot be null"},
		{"relationship null on update", upd, `{"relationship":null}`, ""},
		{"relationship unknown", "", `{"relationship":"friend"}`, "relationship: Input should be 'external', 'resold' or 'internal'"},
		{"access_type null on update", upd, `{"access_type":null}`, ""},
		{"access_type unknown", upd, `{"access_type":"x"}`, "access_type: Input should be 'application' or 'passthrough'"},
		{"onboarded_at", "", `{"external_user_onboarded_at":"2026-01-01T00:00:00.5+02:00"}`, ""},
		{"onboarded_at not a time", "", `{"external_user_onboarded_at":"yesterday"}`, "external_user_onboarded_at: Input should be a valid datetime"},
		{"onboarded_at null", upd, `{"external_user_onboarded_at":null}`, "external_user_onboarded_at"},
		{"unknown member", "", `{"nickname":"x"}`, "nickname: Extra inputs are not permitted"},
		{"country FR", "", details(`"country":"FR"`), ""},
		{"country fr", "", details(`"country":"fr"`), "external_user_details.country: String should match"},
		{"country FRA", "", details(`"country":"FRA"`), "external_user_details.country: String should have 2 to 2"},
		{"hash 1", "", details(`"email_hash":"h","name_hash":"h"`), ""},
		{"hash 0", "", details(`"email_hash":""`), "external_user_details.email_hash: String should have 1 to 255"},
		{"hash 255", "", details(`"name_hash":"` + s255 + `"`), ""},
		{"hash 256", "", details(`"name_hash":"` + s256 + `"`), "external_user_details.name_hash"},
		{"reference_id 256", upd, details(`"reference_id":"` + s256 + `"`), "external_user_details.reference_id"},
		{"reference_id 0", upd, details(`"reference_id":""`), "external_user_details.reference_id"},
		{"details enums", "", details(`"account_status":"suspended","entity_type":"non_profit","onboarded_at":"2026-01-01T00:00:00Z"`), ""},
		{"account_status unknown", "", details(`"account_status":"gone"`), "external_user_details.account_status: Input should be"},
		{"entity_type unknown", "", details(`"entity_type":"club"`), "external_user_details.entity_type"},
		{"details member null", upd, details(`"country":null`), "external_user_details.country"},
		{"details null", upd, `{"external_user_details":null}`, "external_user_details: cannot be null"},
		{"details unknown member", "", details(`"age":3`), "external_user_details.age: Extra inputs"},
	} {
		path := tt.path
		if path == "" {
			path = "/v1/user_profiles"
		}
		resp, body := profileCall(t, s, wire.BetaUserProfiles, "POST", path, tt.body)
		if tt.msg == "" {
			if resp.StatusCode != 200 {
				t.Errorf("%s: %d %s", tt.name, resp.StatusCode, body)
			}
			continue
		}
		t.Run(tt.name, func(t *testing.T) { wantError(t, resp, body, 400, wire.ErrInvalidRequest, tt.msg) })
	}
}

// TestUserProfilesList: order, order_by (unnamed last either way), paging.
func TestUserProfilesList(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	var ids []string
	for _, body := range []string{`{"name":"b"}`, `{}`, `{"name":"a"}`, `{"name":"c"}`, `{}`} {
		clock.Advance(time.Second)
		ids = append(ids, profileOK[userProfileWire](t, s, "POST", "/v1/user_profiles", body).ID)
	}
	b, unnamed1, a, c, unnamed2 := ids[0], ids[1], ids[2], ids[3], ids[4]
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"", []string{unnamed2, c, a, unnamed1, b}},
		{"order=asc", []string{b, unnamed1, a, c, unnamed2}},
		{"order_by=created_at&order=desc&limit=2", []string{unnamed2, c, a, unnamed1, b}},
		{"order_by=name", []string{c, b, a, unnamed2, unnamed1}},
		{"order_by=name&order=asc&limit=1", []string{a, b, c, unnamed1, unnamed2}},
	} {
		got := listProfileIDs(t, s, tt.query)
		if !cmp.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.query, got, tt.want)
		}
	}
	for q, msg := range map[string]string{"?order=up": "order: Input should be 'asc' or 'desc'",
		"?order_by=id": "order_by: Input should be", "?limit=101": "limit", "?page=bogus": "page"} {
		resp, body := profileCall(t, s, wire.BetaUserProfiles, "GET", "/v1/user_profiles"+q, "")
		wantError(t, resp, body, 400, wire.ErrInvalidRequest, msg)
	}
}

// listProfileIDs walks every page of GET /v1/user_profiles?query and
// returns the ids.
func listProfileIDs(t *testing.T, s *Server, query string) []string {
	t.Helper()
	var ids []string
	page := ""
	for {
		p := profileOK[cursorPage[struct{ ID string }]](t, s, "GET", "/v1/user_profiles?"+query+page, "")
		for _, d := range p.Data {
			ids = append(ids, d.ID)
		}
		if p.NextPage == nil {
			return ids
		}
		page = "&page=" + *p.NextPage
	}
}
