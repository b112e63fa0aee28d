package mmstest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// reviewReq is a request to compliance review with the admin key.
func reviewReq(t *testing.T, s *Server, method, path, body string) *http.Request {
	t.Helper()
	req := newReq(t, s, method, "/v1/compliance/review"+path, strings.NewReader(body))
	req.Header.Set(wire.HeaderAPIKey, DefaultAdminKey)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

// TestComplianceReviewFakeRules: the fake refuses what the service
// refuses, each rule on both sides of its bound.
func TestComplianceReviewFakeRules(t *testing.T) {
	s := newTestServer(t)
	caseID, items := s.Org().AddReviewCase([]string{"bio"}, ReviewItem{UserProfileID: "uprof_1"})
	queries := []struct {
		path string
		want int
	}{
		{"/cases?status=open", 200},
		{"/cases?status=pending", 400},
		{"/cases?order=asc&order_by=updated_at", 200},
		{"/cases?order=up", 400},
		{"/cases?order_by=id", 400},
		{"/cases?limit=100", 200},
		{"/cases?limit=101", 400},
		{"/cases?created_at%5Bgte%5D=2026-01-01T00:00:00Z", 200},
		{"/cases?created_at%5Bgte%5D=yesterday", 400},
		{"/notices?order=desc", 200},
		{"/notices?order=sideways", 400},
		{"/notices?created_at%5Blt%5D=nope", 400},
		{"/cases/" + caseID, 200},
		{"/cases/rvc_missing", 404},
	}
	for _, q := range queries {
		resp, _ := send(t, s, reviewReq(t, s, "GET", q.path, ""))
		assert.Equal(t, q.want, resp.StatusCode, q.path)
	}
	// The item needs its profile header, and only then.
	for _, h := range []struct {
		profile string
		want    int
	}{{"uprof_1", 200}, {"", 404}, {"uprof_2", 404}} {
		req := reviewReq(t, s, "GET", "/items/"+items[0], "")
		if h.profile != "" {
			req.Header.Set(wire.HeaderUserProfileID, h.profile)
		}
		resp, _ := send(t, s, req)
		assert.Equal(t, h.want, resp.StatusCode, "profile %q", h.profile)
	}
	// The profile header on the case list needs its parameter.
	req := reviewReq(t, s, "GET", "/cases", "")
	req.Header.Set(wire.HeaderUserProfileID, "uprof_1")
	resp, _ := send(t, s, req)
	assert.Equal(t, 400, resp.StatusCode)
	req = reviewReq(t, s, "GET", "/cases?user_profile_id=uprof_1", "")
	req.Header.Set(wire.HeaderUserProfileID, "uprof_1")
	resp, _ = send(t, s, req)
	assert.Equal(t, 200, resp.StatusCode)

	bodies := []struct {
		body string
		want int
	}{
		{`{}`, 400},
		{`{"determination":"violation"}`, 400},
		{`{"determination":"violation","policy_categories":["bio","chem","cyber","io","mgw"]}`, 400},
		{`{"determination":"violation","policy_categories":["benign"]}`, 400},
		{`{"determination":"violation","policy_categories":["bio","bio"]}`, 400},
		{`{"determination":"no_violation","policy_categories":["bio"]}`, 400},
		{`{"determination":"no_violation","verdicts":[{"item_id":"m","determination":"no_violation","policy_category":"bio"}]}`, 400},
		{`{"determination":"no_violation","verdicts":[{"item_id":"m","determination":"no_violation"},{"item_id":"m","determination":"violation"}]}`, 400},
		{`{"determination":"no_violation","extra":1}`, 400},
		{`{"determination":"violation","policy_categories":["bio","chem","cyber","io"]}`, 200},
		{`{"determination":"violation","policy_categories":["io","cyber","chem","bio"]}`, 200},
		{`{"determination":"violation","policy_categories":["bio"]}`, 400},
	}
	for _, b := range bodies {
		resp, body := send(t, s, reviewReq(t, s, "POST", "/cases/"+caseID+"/respond", b.body))
		require.Equal(t, b.want, resp.StatusCode, "%s: %s", b.body, body)
	}
}
