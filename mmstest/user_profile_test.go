package mmstest

import (
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
