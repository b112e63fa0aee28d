package foundry

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/foundry/foundrytest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/platform"
)

// exchange does one GET as the client's platform seam does it: Prepare,
// build the attempt, Authenticate, tamper (or nil), send, Response. It
// returns the status, the decoded body and the headers.
func exchange(t *testing.T, a *adapter, srv *mmstest.Server, path string, tamper func(*http.Request)) (int, map[string]any, http.Header) {
	t.Helper()
	r := &platform.Request{Endpoint: platform.EndpointOf("GET", path), Method: "GET", Path: path, Query: url.Values{}, Header: http.Header{"Vendor-Version": {"2023-06-01"}}}
	if err := a.Prepare(r); err != nil {
		t.Fatal(err)
	}
	base, err := a.BaseURL()
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest("GET", base+r.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header = r.Header.Clone()
	if err := a.Authenticate(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	if tamper != nil {
		tamper(req)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp, err = a.Response(resp, r); err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("body %q: %v", data, err)
	}
	return resp.StatusCode, out, resp.Header
}

// TestAgainstFront: a key or a fresh token per attempt reaches the
// service below /vendor; the front end's refusals arrive in the service's
// error shape, with the apim-request-id.
func TestAgainstFront(t *testing.T) {
	tokens := foundrytest.NewTokenSource()
	front := &foundrytest.Front{APIKeys: []string{"foundry-key"}, Tokens: tokens}
	srv := mmstest.NewServer(mmstest.WithPlatform(front))
	defer srv.Close()
	withKey, err := newAdapter("", []Option{BaseURL(srv.URL + "/vendor"), APIKey("foundry-key")})
	if err != nil {
		t.Fatal(err)
	}
	withToken, err := newAdapter("", []Option{BaseURL(srv.URL + "/vendor"), TokenSource(tokens.Token)})
	if err != nil {
		t.Fatal(err)
	}
	denied := map[string]any{"type": "authentication_error", "message": "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource."}
	tests := []struct {
		name       string
		a          *adapter
		tamper     func(*http.Request)
		wantStatus int
		wantError  map[string]any // nil for success
	}{
		{"key", withKey, nil, 200, nil},
		{"token", withToken, nil, 200, nil},
		{"token again", withToken, nil, 200, nil},
		{"wrong key", withKey, func(r *http.Request) { r.Header.Set("X-Api-Key", "nope") }, 401, denied},
		{"key and token", withKey, func(r *http.Request) { r.Header.Set("Authorization", "Bearer entra-fake-token-1") }, 401, denied},
		{"outside /vendor", withKey, func(r *http.Request) { r.URL.Path = strings.TrimPrefix(r.URL.Path, "/vendor") }, 404,
			map[string]any{"type": "not_found_error", "message": "Resource not found"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// /v1/files: Models are refused by Prepare, Files are sent.
			status, body, h := exchange(t, tt.a, srv, "/v1/files", tt.tamper)
			if status != tt.wantStatus {
				t.Fatalf("status %d (%v), want %d", status, body, tt.wantStatus)
			}
			if h.Get(HeaderRequestID) == "" {
				t.Error("no apim-request-id")
			}
			if tt.wantError == nil {
				return
			}
			if diff := cmp.Diff(map[string]any{"type": "error", "error": tt.wantError}, body); diff != "" {
				t.Errorf("error body (-want +got):\n%s", diff)
			}
		})
	}
	if got, want := front.Credentials(), []string{"x-api-key", "entra-fake-token-1", "entra-fake-token-2"}; !cmp.Equal(got, want) {
		t.Errorf("front accepted %q, want %q", got, want)
	}
}

// TestPrepareEndpoints: Batches and Models are refused, naming Foundry;
// Messages, count_tokens and the rest are sent unchanged.
func TestPrepareEndpoints(t *testing.T) {
	a := &adapter{apiKey: "k", resource: "r"}
	tests := []struct {
		method, path string
		unsupported  bool
	}{
		{"POST", "/v1/messages", false},
		{"POST", "/v1/messages/count_tokens", false},
		{"POST", "/v1/messages/batches", true},
		{"GET", "/v1/messages/batches/b1/results", true},
		{"GET", "/v1/models", true},
		{"GET", "/v1/models/m", true},
		{"POST", "/v1/files", false},
		{"POST", "/v1/skills", false},
	}
	for _, tt := range tests {
		r := &platform.Request{Endpoint: platform.EndpointOf(tt.method, tt.path), Method: tt.method, Path: tt.path, Query: url.Values{}, Header: http.Header{}}
		err := a.Prepare(r)
		if errors.Is(err, platform.ErrUnsupported) != tt.unsupported {
			t.Errorf("%s %s: %v, want unsupported %v", tt.method, tt.path, err, tt.unsupported)
		}
		if err != nil && !strings.Contains(err.Error(), "Microsoft Foundry") {
			t.Errorf("error %q does not name the platform", err)
		}
	}
}
