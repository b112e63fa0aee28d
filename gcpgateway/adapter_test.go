package gcpgateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/gcpgateway/gcpgatewaytest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/platform"
)

// exchange does one call as the client's platform seam does it: Prepare,
// build the attempt below base, tamper (or nil), Authenticate, send,
// Response. It returns the status and the decoded body.
func exchange(t *testing.T, a *adapter, srv *mmstest.Server, base, method, path string, header http.Header, tamper func(*http.Request)) (int, map[string]any) {
	t.Helper()
	h := http.Header{"Vendor-Version": {"2023-06-01"}}
	for k, v := range header {
		h[k] = v
	}
	r := &platform.Request{Endpoint: platform.EndpointOf(method, path), Method: method, Path: path, Query: url.Values{}, Header: h}
	if err := a.Prepare(r); err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(method, base+r.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header = r.Header.Clone()
	if tamper != nil {
		tamper(req)
	}
	if err := a.Authenticate(context.Background(), req, nil); err != nil {
		t.Fatal(err)
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
	return resp.StatusCode, out
}

// TestAgainstFront: a fresh token per attempt, the workspace only in the
// URL, and the front end's refusals in the service's error shape.
func TestAgainstFront(t *testing.T) {
	tokens := gcpgatewaytest.NewTokenSource()
	front := &gcpgatewaytest.Front{Project: "proj-1", Workspace: "wrkspc_1", Tokens: tokens}
	srv := mmstest.NewServer(mmstest.WithPlatform(front))
	defer srv.Close()
	a, err := newAdapter("proj-1", "wrkspc_1", []Option{TokenSource(tokens)})
	if err != nil {
		t.Fatal(err)
	}
	base := srv.URL + InvokePath("proj-1", "global", "wrkspc_1")
	tests := []struct {
		name       string
		base       string
		header     http.Header
		tamper     func(*http.Request)
		wantStatus int
		wantError  map[string]any // nil for success
	}{
		{"token", base, nil, nil, 200, nil},
		{"workspace header dropped by Prepare", base, http.Header{"Vendor-Workspace-Id": {"wrkspc_1"}, "X-Api-Key": {"k"}}, nil, 200, nil},
		{"workspace header sent anyway", base, nil, func(r *http.Request) { r.Header.Set("Vendor-Workspace-Id", "wrkspc_1") }, 400,
			map[string]any{"type": "invalid_request_error", "message": "INVALID_ARGUMENT: vendor-workspace-id: header is not accepted; the workspace is in the URL"}},
		{"caller's authorization wins", base, nil, func(r *http.Request) { r.Header.Set("Authorization", "Bearer not-minted") }, 401,
			map[string]any{"type": "authentication_error", "message": "UNAUTHENTICATED: Request had invalid authentication credentials. Expected OAuth 2 access token."}},
		{"other project", srv.URL + InvokePath("proj-2", "global", "wrkspc_1"), nil, nil, 404,
			map[string]any{"type": "not_found_error", "message": "NOT_FOUND: the requested URL was not found on this server"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := exchange(t, a, srv, tt.base, "GET", "/v1/models", tt.header, tt.tamper)
			if status != tt.wantStatus {
				t.Fatalf("status %d (%v), want %d", status, body, tt.wantStatus)
			}
			if tt.wantError == nil {
				return
			}
			if diff := cmp.Diff(map[string]any{"type": "error", "error": tt.wantError}, body); diff != "" {
				t.Errorf("error body (-want +got):\n%s", diff)
			}
		})
	}
	if got, want := front.SeenTokens(), []string{"ya29.fake-token-1", "ya29.fake-token-2"}; !cmp.Equal(got, want) {
		t.Errorf("front accepted %q, want a fresh token per attempt %q", got, want)
	}
}

// TestCompleteUnsupported: the gateway lacks /v1/complete; every other
// endpoint is offered.
func TestCompleteUnsupported(t *testing.T) {
	a := &adapter{}
	for _, tt := range []struct {
		path        string
		unsupported bool
	}{{"/v1/complete", true}, {"/v1/messages", false}, {"/v1/messages/batches", false}, {"/v1/files", false}, {"/v1/models", false}} {
		r := &platform.Request{Endpoint: platform.EndpointOf("POST", tt.path), Method: "POST", Path: tt.path, Query: url.Values{}, Header: http.Header{}}
		err := a.Prepare(r)
		if errors.Is(err, platform.ErrUnsupported) != tt.unsupported {
			t.Errorf("%s: %v, want unsupported %v", tt.path, err, tt.unsupported)
		}
	}
}

// TestResponseKeepsServiceErrors: the service's own error bodies and
// non-JSON bodies pass unchanged.
func TestResponseKeepsServiceErrors(t *testing.T) {
	for _, body := range []string{`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, `{"error":"x"}`, `not json`} {
		resp := &http.Response{StatusCode: 529, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader([]byte(body)))}
		got, err := (&adapter{}).Response(resp, nil)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(got.Body)
		if string(data) != body {
			t.Errorf("body %q became %q", body, data)
		}
	}
}
