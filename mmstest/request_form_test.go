package mmstest

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// A body user_profile_id is accepted alone or matching the header, and
// refused when the header names another profile.
func TestBodyUserProfileID(t *testing.T) {
	s := NewServer()
	defer s.Close()
	body := create(`"user_profile_id":"uprof_a","messages":` + hi)
	for _, tc := range []struct {
		name, header string
		status       int
	}{
		{"body only", "", http.StatusOK},
		{"same as header", "uprof_a", http.StatusOK},
		{"other than header", "uprof_b", http.StatusBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := newReq(t, s, http.MethodPost, "/v1/messages", strings.NewReader(body))
			req.Header.Set(wire.HeaderContentType, "application/json")
			if tc.header != "" {
				req.Header.Set(wire.HeaderUserProfileID, tc.header)
				req.Header.Set(wire.HeaderBeta, wire.BetaUserProfiles)
			}
			resp, out := send(t, s, req)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, out)
			}
			if tc.status != http.StatusOK && !strings.Contains(string(out), "user_profile_id") {
				t.Errorf("error does not name user_profile_id: %s", out)
			}
		})
	}
}

// The request form of an advisor result has no stop_reason member (it is
// response-only): sent back, it is refused.
func TestAdvisorResultStopReasonRefused(t *testing.T) {
	s := NewServer()
	defer s.Close()
	block := `{"type":"server_tool_use","id":"srvtoolu_1","name":"advisor","input":{}},` +
		`{"type":"advisor_tool_result","tool_use_id":"srvtoolu_1","content":{"type":"advisor_result","text":"ok"%s}}`
	tools := `"tools":[{"type":"advisor_20260301","name":"advisor","model":"mms-large-1"}],`
	for _, tc := range []struct {
		extra  string
		status int
	}{{"", http.StatusOK}, {`,"stop_reason":null`, http.StatusBadRequest}} {
		body := create(tools + userAssistantUser(fmt.Sprintf(block, tc.extra)))
		resp, out := post(t, s, "/v1/messages", body, "advisor-tool-2026-03-01")
		if resp.StatusCode != tc.status {
			t.Errorf("extra %q: status %d, want %d: %s", tc.extra, resp.StatusCode, tc.status, out)
		}
	}
}
