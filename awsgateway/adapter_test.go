package awsgateway

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/awsgateway/awsgatewaytest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/platform"
)

// exchange does one call as the client's platform seam does it: Prepare,
// build the attempt, Authenticate, tamper (a change after signing, or
// nil), send, Response. A streamed body is sent chunked and not shown to
// Authenticate, as an upload. It returns the status and the decoded body.
func exchange(t *testing.T, a *adapter, srv *mmstest.Server, method, path string, body []byte, streamed bool, tamper func(*http.Request)) (int, map[string]any, http.Header) {
	t.Helper()
	r := &platform.Request{Endpoint: platform.EndpointOf(method, path), Method: method, Path: path, Query: url.Values{},
		Header: http.Header{"Vendor-Version": {"2023-06-01"}, "Content-Type": {"application/json"}}, HasJSONBody: body != nil}
	if err := a.Prepare(r); err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(method, srv.URL+r.Path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = r.Header.Clone()
	shown := body
	if streamed {
		req.Body, req.ContentLength, shown = io.NopCloser(bytes.NewReader(body)), -1, nil
	}
	if err := a.Authenticate(context.Background(), req, shown); err != nil {
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

// TestSigV4AgainstFront: the adapter's signature verifies at the front
// (which recomputes it with the AWS signer) for a body and for none; a
// change after signing is refused in the AWS front end's shape, which
// Response turns into the service's error body.
func TestSigV4AgainstFront(t *testing.T) {
	creds := aws.Credentials{AccessKeyID: "AKIDTEST", SecretAccessKey: "secret", SessionToken: "tok"}
	front := &awsgatewaytest.Front{Region: "us-east-1", Credentials: []aws.Credentials{creds}}
	srv := mmstest.NewServer(mmstest.WithPlatform(front))
	defer srv.Close()
	a, err := newAdapter(aws.Config{Region: "us-east-1", Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) { return creds, nil })},
		[]Option{Workspace("wrkspc_1")})
	if err != nil {
		t.Fatal(err)
	}
	count := []byte(`{"model":"mms-large-1","messages":[{"role":"user","content":"hi"}]}`)
	tests := []struct {
		name       string
		method     string
		path       string
		body       []byte
		streamed   bool
		tamper     func(*http.Request)
		wantStatus int
		wantError  map[string]any // the error member; nil for success
	}{
		{"no body", "GET", "/v1/models", nil, false, nil, 200, nil},
		{"json body", "POST", "/v1/messages/count_tokens", count, false, nil, 200, nil},
		{"streamed body, unsigned payload", "POST", "/v1/messages/count_tokens", count, true, nil, 200, nil},
		{"body changed after signing", "POST", "/v1/messages/count_tokens", count, false, func(r *http.Request) {
			r.Body = io.NopCloser(bytes.NewReader(append(bytes.Clone(count[:len(count)-1]), ` `+"}"...)))
			r.ContentLength++
		}, 403, map[string]any{"type": "permission_error", "message": "InvalidSignatureException: the request signature we calculated does not match the signature you provided"}},
		{"signed header changed", "GET", "/v1/models", nil, false, func(r *http.Request) { r.Header.Set("Vendor-Workspace-Id", "wrkspc_2") }, 403,
			map[string]any{"type": "permission_error", "message": "InvalidSignatureException: the request signature we calculated does not match the signature you provided"}},
		{"signature removed", "GET", "/v1/models", nil, false, func(r *http.Request) { r.Header.Del("Authorization") }, 403,
			map[string]any{"type": "permission_error", "message": "MissingAuthenticationTokenException: Missing Authentication Token"}},
		{"workspace removed, key kept", "GET", "/v1/models", nil, false, func(r *http.Request) {
			r.Header.Del("Vendor-Workspace-Id")
			r.Header.Del("Authorization")
			r.Header.Set("X-Api-Key", "k")
		}, 403, map[string]any{"type": "permission_error", "message": "ForbiddenException: Invalid API key"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body, h := exchange(t, a, srv, tt.method, tt.path, tt.body, tt.streamed, tt.tamper)
			if status != tt.wantStatus {
				t.Fatalf("status %d (%v), want %d", status, body, tt.wantStatus)
			}
			if h.Get(HeaderRequestID) == "" {
				t.Error("no AWS request id")
			}
			if tt.wantError == nil {
				return
			}
			if diff := cmp.Diff(map[string]any{"type": "error", "error": tt.wantError}, body); diff != "" {
				t.Errorf("error body (-want +got):\n%s", diff)
			}
		})
	}
}

// TestResponseRequestIDVariants: the other AWS spellings of the request-id
// header are surfaced under HeaderRequestID.
func TestResponseRequestIDVariants(t *testing.T) {
	for _, name := range []string{"X-Amzn-RequestId", "x-amzn-request-id", "x-amz-request-id"} {
		resp := &http.Response{StatusCode: 200, Header: http.Header{}, Body: http.NoBody}
		resp.Header.Set(name, "id-1")
		got, err := (&adapter{}).Response(resp, nil)
		if err != nil || got.Header.Get(HeaderRequestID) != "id-1" {
			t.Errorf("%s: request id %q, %v", name, got.Header.Get(HeaderRequestID), err)
		}
	}
}

// TestPrepareKeepsTheServiceShape: every endpoint is offered; only the
// workspace header is added.
func TestPrepareKeepsTheServiceShape(t *testing.T) {
	a := &adapter{workspace: "wrkspc_1"}
	for _, path := range []string{"/v1/messages", "/v1/messages/batches", "/v1/models", "/v1/files", "/v1/skills", "/v1/complete", "/v1/agents"} {
		r := &platform.Request{Endpoint: platform.EndpointOf("POST", path), Method: "POST", Path: path, Query: url.Values{}, Header: http.Header{}, MaxBodySize: 32 << 20}
		if err := a.Prepare(r); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		want := &platform.Request{Endpoint: r.Endpoint, Method: "POST", Path: path, Query: url.Values{}, Header: http.Header{HeaderWorkspaceID: {"wrkspc_1"}}, MaxBodySize: 32 << 20}
		if diff := cmp.Diff(want, r, cmp.AllowUnexported(platform.Request{})); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
	}
}

// TestResponseErrorBodies: an error the AWS front end wrote becomes the
// service's error body for its status; the service's own body, even with
// an x-amzn-ErrorType, passes unchanged.
func TestResponseErrorBodies(t *testing.T) {
	tests := []struct {
		name, errType, body string
		status              int
		want                string
	}{
		{"aws throttling", "ThrottlingException:http://internal", `{"message":"Rate exceeded"}`, 429,
			`{"type":"error","error":{"type":"rate_limit_error","message":"ThrottlingException: Rate exceeded"}}`},
		{"aws capitalized message", "AccessDeniedException", `{"Message":"denied"}`, 403,
			`{"type":"error","error":{"type":"permission_error","message":"AccessDeniedException: denied"}}`},
		{"aws body not json", "InternalFailure", `oops`, 500,
			`{"type":"error","error":{"type":"api_error","message":"InternalFailure"}}`},
		{"service body", "Whatever", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, 529,
			`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`},
		{"no aws error type", "", `{"message":"x"}`, 500, `{"message":"x"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := &http.Response{StatusCode: tt.status, Header: http.Header{}, Body: io.NopCloser(bytes.NewReader([]byte(tt.body)))}
			if tt.errType != "" {
				resp.Header.Set("X-Amzn-ErrorType", tt.errType)
			}
			got, err := (&adapter{}).Response(resp, nil)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(got.Body)
			if string(data) != tt.want {
				t.Errorf("body %s, want %s", data, tt.want)
			}
		})
	}
}
