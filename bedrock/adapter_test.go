package bedrock

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/platform"
)

func staticConfig(region string) aws.Config {
	return aws.Config{Region: region, Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
		return aws.Credentials{AccessKeyID: "AKID", SecretAccessKey: "SECRET", SessionToken: "SESSION"}, nil
	})}
}

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func fixedClock() func() time.Time {
	t := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return func() time.Time { return t }
}

func TestNewAdapterConfiguration(t *testing.T) {
	noCreds := aws.Config{Region: "us-east-1"}
	tests := []struct {
		name     string
		cfg      aws.Config
		env      map[string]string
		opts     []Option
		wantURL  string
		wantErr  string // substring; "" for none
		bearer   string
		wantName string
	}{
		{name: "sigv4", cfg: staticConfig("us-west-2"), wantURL: "https://bedrock-runtime.us-west-2.amazonaws.com", wantName: "Amazon Bedrock"},
		{name: "mantle", cfg: staticConfig("eu-west-1"), opts: []Option{Mantle()},
			wantURL: "https://bedrock-mantle.eu-west-1.api.aws/vendor", wantName: "Amazon Bedrock (Mantle)"},
		{name: "base URL from env", cfg: staticConfig("us-east-1"), env: map[string]string{EnvBaseURL: "https://proxy.example/b"},
			wantURL: "https://proxy.example/b", wantName: "Amazon Bedrock"},
		{name: "mantle base URL from env", cfg: staticConfig("us-east-1"), opts: []Option{Mantle()},
			env:     map[string]string{EnvMantleBaseURL: "https://proxy.example/m", EnvBaseURL: "https://wrong.example"},
			wantURL: "https://proxy.example/m", wantName: "Amazon Bedrock (Mantle)"},
		{name: "no region", cfg: aws.Config{Credentials: staticConfig("").Credentials}, wantErr: "no Region"},
		{name: "region that is no host label", cfg: staticConfig("us-east-1.evil.example/"), wantErr: "not a valid AWS region"},
		{name: "no credentials", cfg: noCreds, wantErr: "no credentials"},
		{name: "env bearer without credentials", cfg: noCreds, env: map[string]string{EnvBearerToken: "env-tok"},
			wantURL: "https://bedrock-runtime.us-east-1.amazonaws.com", bearer: "env-tok", wantName: "Amazon Bedrock"},
		{name: "option bearer wins over env", cfg: staticConfig("us-east-1"), env: map[string]string{EnvBearerToken: "env-tok"},
			opts: []Option{BearerToken("opt-tok")}, wantURL: "https://bedrock-runtime.us-east-1.amazonaws.com", bearer: "opt-tok", wantName: "Amazon Bedrock"},
		{name: "env bearer wins over sigv4", cfg: staticConfig("us-east-1"), env: map[string]string{EnvBearerToken: "env-tok"},
			wantURL: "https://bedrock-runtime.us-east-1.amazonaws.com", bearer: "env-tok", wantName: "Amazon Bedrock"},
		{name: "empty option bearer", cfg: staticConfig("us-east-1"), opts: []Option{BearerToken(" ")}, wantErr: "token is empty"},
		{name: "API key env: Mantle only", cfg: noCreds, env: map[string]string{EnvAPIKey: "key"}, wantErr: "no credentials"},
		{name: "API key env on Mantle", cfg: noCreds, env: map[string]string{EnvAPIKey: "key"}, opts: []Option{Mantle()},
			wantURL: "https://bedrock-mantle.us-east-1.api.aws/vendor", bearer: "key", wantName: "Amazon Bedrock (Mantle)"},
		{name: "bearer env before API key on Mantle", cfg: noCreds, env: map[string]string{EnvAPIKey: "key", EnvBearerToken: "tok"},
			opts: []Option{Mantle()}, wantURL: "https://bedrock-mantle.us-east-1.api.aws/vendor", bearer: "tok", wantName: "Amazon Bedrock (Mantle)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAdapter(tt.cfg, env(tt.env), fixedClock(), tt.opts)
			u, err := a.BaseURL()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("BaseURL error = %v, want one containing %q", err, tt.wantErr)
				}
				// The same defect refuses each call when a base URL is given.
				req, _ := http.NewRequest("POST", "https://x.example/model/m/invoke", nil)
				if aerr := a.Authenticate(context.Background(), req, nil); aerr == nil {
					t.Error("Authenticate succeeded with a broken configuration")
				}
				for _, secret := range []string{"opt-tok", "env-tok", "key", "SECRET"} {
					if strings.Contains(err.Error(), secret) {
						t.Errorf("error %q shows a secret", err)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if u != tt.wantURL || a.bearer != tt.bearer || a.Name() != tt.wantName {
				t.Errorf("got URL %q bearer %q name %q, want %q %q %q", u, a.bearer, a.Name(), tt.wantURL, tt.bearer, tt.wantName)
			}
			if a.RequestIDHeader() != "X-Amzn-Requestid" {
				t.Errorf("RequestIDHeader = %q", a.RequestIDHeader())
			}
		})
	}
}

func newRequest(ep platform.Endpoint, method, path, model string, stream bool, betas ...string) *platform.Request {
	h := http.Header{}
	h.Set("Vendor-Version", "2023-06-01")
	h.Set("Content-Type", "application/json")
	if len(betas) > 0 {
		h.Set("Vendor-Beta", strings.Join(betas, ","))
	}
	return &platform.Request{Endpoint: ep, Method: method, Path: path, Query: url.Values{"beta": {"true"}},
		Header: h, Model: model, Stream: stream, Betas: betas, HasJSONBody: true, MaxBodySize: 32_000_000}
}

func TestPrepareInvokeModel(t *testing.T) {
	tests := []struct {
		name      string
		req       *platform.Request
		wantPath  string
		wantEdits []platform.Edit
		accept    string
		bedrockAc string
		maxBody   int64
	}{
		{
			name:     "create",
			req:      newRequest(platform.Messages, "POST", "/v1/messages", "vendor.large-20250101-v1:0", false),
			wantPath: "/model/vendor.large-20250101-v1%3A0/invoke",
			wantEdits: []platform.Edit{{Name: "model"}, {Name: "stream"},
				{Name: "vendor_version", Value: json.RawMessage(`"bedrock-2023-05-31"`), IfAbsent: true}},
			accept: "application/json", maxBody: 20_000_000,
		},
		{
			name:     "stream with betas, an ARN model",
			req:      newRequest(platform.Messages, "POST", "/v1/messages", "arn:aws:bedrock:us-east-1:123:application-inference-profile/abc", true, "b-1", "b-2"),
			wantPath: "/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123%3Aapplication-inference-profile%2Fabc/invoke-with-response-stream",
			wantEdits: []platform.Edit{{Name: "model"}, {Name: "stream"},
				{Name: "vendor_version", Value: json.RawMessage(`"bedrock-2023-05-31"`), IfAbsent: true},
				{Name: "vendor_beta", Value: json.RawMessage(`["b-1","b-2"]`)}},
			accept: "application/vnd.amazon.eventstream", bedrockAc: "application/json", maxBody: 20_000_000,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAdapter(staticConfig("us-east-1"), env(nil), fixedClock(), nil)
			if err := a.Prepare(tt.req); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantEdits, tt.req.Edits()); diff != "" {
				t.Errorf("edits (-want +got):\n%s", diff)
			}
			r := tt.req
			if r.Path != tt.wantPath || r.Query.Has("beta") || r.Header.Get("Vendor-Beta") != "" ||
				r.Header.Get("Accept") != tt.accept || r.Header.Get("X-Amzn-Bedrock-Accept") != tt.bedrockAc || r.MaxBodySize != tt.maxBody {
				t.Errorf("got path %q query %v header %v max %d", r.Path, r.Query, r.Header, r.MaxBodySize)
			}
			if got, _ := url.PathUnescape(strings.Split(r.Path, "/")[2]); got != r.Model {
				t.Errorf("path segment unescapes to %q, want the model %q", got, r.Model)
			}
		})
	}
}

// TestPrepareBodyLimit: InvokeModel's 20 MB only lowers the service's
// limit, on both sides of it.
func TestPrepareBodyLimit(t *testing.T) {
	for _, tc := range []struct{ service, want int64 }{
		{32_000_000, 20_000_000}, {20_000_001, 20_000_000}, {20_000_000, 20_000_000}, {19_999_999, 19_999_999}, {0, 20_000_000},
	} {
		a := newAdapter(staticConfig("us-east-1"), env(nil), fixedClock(), nil)
		r := newRequest(platform.Messages, "POST", "/v1/messages", "m", false)
		r.MaxBodySize = tc.service
		if err := a.Prepare(r); err != nil {
			t.Fatal(err)
		}
		if r.MaxBodySize != tc.want {
			t.Errorf("service limit %d: MaxBodySize %d, want %d", tc.service, r.MaxBodySize, tc.want)
		}
	}
}

func TestPrepareRefusals(t *testing.T) {
	tests := []struct {
		name   string
		mantle bool
		req    *platform.Request
		unsup  bool
	}{
		{"count_tokens", false, newRequest(platform.CountTokens, "POST", "/v1/messages/count_tokens", "m", false), true},
		{"batches", false, newRequest(platform.Batches, "POST", "/v1/messages/batches", "", false), true},
		{"models", false, newRequest(platform.Models, "GET", "/v1/models", "", false), true},
		{"files", false, newRequest(platform.Files, "GET", "/v1/files", "", false), true},
		{"skills", false, newRequest(platform.Skills, "GET", "/v1/skills", "", false), true},
		{"other", false, newRequest(platform.Other, "GET", "/v1/agents", "", false), true},
		{"mantle count_tokens", true, newRequest(platform.CountTokens, "POST", "/v1/messages/count_tokens", "m", false), true},
		{"mantle batches", true, newRequest(platform.Batches, "POST", "/v1/messages/batches", "", false), true},
		{"messages without a model", false, newRequest(platform.Messages, "POST", "/v1/messages", "", false), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts []Option
			if tt.mantle {
				opts = append(opts, Mantle())
			}
			a := newAdapter(staticConfig("us-east-1"), env(nil), fixedClock(), opts)
			err := a.Prepare(tt.req)
			if err == nil {
				t.Fatal("Prepare accepted the call")
			}
			var ue *platform.UnsupportedError
			if got := errors.As(err, &ue); got != tt.unsup || errors.Is(err, platform.ErrUnsupported) != tt.unsup {
				t.Fatalf("err = %v, unsupported %v, want %v", err, got, tt.unsup)
			}
			if tt.unsup && !strings.Contains(err.Error(), "Amazon Bedrock") {
				t.Errorf("err %q does not name the platform", err)
			}
		})
	}
}

func TestPrepareMantleKeepsTheServiceShape(t *testing.T) {
	a := newAdapter(staticConfig("us-east-1"), env(nil), fixedClock(), []Option{Mantle()})
	r := newRequest(platform.Messages, "POST", "/v1/messages", "m", true, "b-1")
	if err := a.Prepare(r); err != nil {
		t.Fatal(err)
	}
	if r.Path != "/v1/messages" || r.Header.Get("Vendor-Beta") != "b-1" || len(r.Edits()) != 0 || r.MaxBodySize != 32_000_000 || !r.Query.Has("beta") {
		t.Errorf("Mantle changed the call: %+v edits %v", r, r.Edits())
	}
}

func TestAuthenticate(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name      string
		opts      []Option
		wantAuth  string // prefix
		wantScope string
	}{
		{name: "sigv4", wantAuth: "AWS4-HMAC-SHA256 Credential=AKID/20260102/us-east-1/bedrock/aws4_request, SignedHeaders="},
		{name: "sigv4 mantle", opts: []Option{Mantle()}, wantAuth: "AWS4-HMAC-SHA256 Credential=AKID/20260102/us-east-1/bedrock-mantle/aws4_request, SignedHeaders="},
		{name: "bearer", opts: []Option{BearerToken("tok")}, wantAuth: "Bearer tok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAdapter(staticConfig("us-east-1"), env(nil), func() time.Time { return now }, tt.opts)
			req, _ := http.NewRequest("POST", "https://h.example/model/m%3A1/invoke", strings.NewReader("{}"))
			req.Header.Set("Authorization", "AWS4-HMAC-SHA256 stale")
			req.Header.Set("X-Amz-Date", "19990101T000000Z")
			if err := a.Authenticate(context.Background(), req, []byte("{}")); err != nil {
				t.Fatal(err)
			}
			if got := req.Header.Get("Authorization"); !strings.HasPrefix(got, tt.wantAuth) {
				t.Errorf("Authorization = %q, want prefix %q", got, tt.wantAuth)
			}
			if strings.HasPrefix(tt.wantAuth, "AWS4") {
				if req.Header.Get("X-Amz-Date") != "20260102T030405Z" || req.Header.Get("X-Amz-Security-Token") != "SESSION" {
					t.Errorf("headers %v", req.Header)
				}
				if strings.Count(strings.Join(req.Header.Values("Authorization"), "|"), "AWS4") != 1 {
					t.Errorf("the stale signature survived: %v", req.Header.Values("Authorization"))
				}
			}
		})
	}
}

func TestAuthenticateCredentialErrorKeepsSecretsOut(t *testing.T) {
	cfg := aws.Config{Region: "us-east-1", Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
		return aws.Credentials{}, errors.New("sso session expired")
	})}
	a := newAdapter(cfg, env(nil), fixedClock(), nil)
	req, _ := http.NewRequest("POST", "https://h.example/model/m/invoke", nil)
	err := a.Authenticate(context.Background(), req, nil)
	if err == nil || !strings.Contains(err.Error(), "sso session expired") {
		t.Fatalf("err = %v", err)
	}
}

func TestResponseError(t *testing.T) {
	tests := []struct {
		name      string
		status    int
		errType   string
		body      string
		wantType  string
		wantMsg   string
		unchanged bool
	}{
		{"throttling", 429, "ThrottlingException", `{"message":"Too many requests"}`, "rate_limit_error", "Too many requests", false},
		{"service unavailable", 503, "ServiceUnavailableException:http://internal.amazon.com/coral/", `{"message":"busy"}`, "overloaded_error", "busy", false},
		{"validation", 400, "ValidationException", `{"message":"Malformed input request"}`, "invalid_request_error", "Malformed input request", false},
		{"too large", 413, "ValidationException", `{"message":"Input is too long"}`, "request_too_large", "Input is too long", false},
		{"access denied", 403, "AccessDeniedException", `{"Message":"no access"}`, "permission_error", "no access", false},
		{"bad signature", 403, "InvalidSignatureException", `{"message":"sig"}`, "authentication_error", "sig", false},
		{"not found", 404, "ResourceNotFoundException", `{"message":"no model"}`, "not_found_error", "no model", false},
		{"model timeout", 408, "ModelTimeoutException", `{"message":"slow"}`, "timeout_error", "slow", false},
		{"model error", 424, "ModelErrorException", `{"message":"model failed","originalStatusCode":500}`, "api_error", "model failed", false},
		{"internal", 500, "InternalServerException", `{"message":"oops"}`, "api_error", "oops", false},
		{"status only", 429, "", `{"message":"slow down"}`, "rate_limit_error", "slow down", false},
		{"plain text", 502, "", `Bad Gateway`, "api_error", "Bad Gateway", false},
		{"empty", 500, "", ``, "api_error", "Internal Server Error", false},
		{"already the service's", 529, "", `{"type":"error","error":{"type":"overloaded_error","message":"x"}}`, "overloaded_error", "x", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAdapter(staticConfig("us-east-1"), env(nil), fixedClock(), nil)
			resp := &http.Response{StatusCode: tt.status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(tt.body))}
			if tt.errType != "" {
				resp.Header.Set("X-Amzn-Errortype", tt.errType)
			}
			got, err := a.Response(resp, nil)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(got.Body)
			var body struct {
				Type  string
				Error struct{ Type, Message string }
			}
			if err := json.Unmarshal(raw, &body); err != nil {
				t.Fatalf("%s: %v", raw, err)
			}
			if got.StatusCode != tt.status || body.Type != "error" || body.Error.Type != tt.wantType || body.Error.Message != tt.wantMsg {
				t.Errorf("got %d %s, want %d %s %q", got.StatusCode, raw, tt.status, tt.wantType, tt.wantMsg)
			}
			if tt.unchanged && string(raw) != tt.body {
				t.Errorf("body changed to %s", raw)
			}
		})
	}
}

func TestResponsePassThrough(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mantle bool
		status int
		ctype  string
	}{
		{"invoke JSON", false, 200, "application/json"},
		{"mantle SSE", true, 200, "text/event-stream"},
		{"mantle error", true, 529, "application/json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []Option
			if tc.mantle {
				opts = append(opts, Mantle())
			}
			a := newAdapter(staticConfig("us-east-1"), env(nil), fixedClock(), opts)
			body := `{"type":"error","error":{"type":"overloaded_error","message":"x"}}`
			resp := &http.Response{StatusCode: tc.status, Header: http.Header{"Content-Type": {tc.ctype}}, Body: io.NopCloser(strings.NewReader(body))}
			got, err := a.Response(resp, nil)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(got.Body)
			if string(raw) != body || got.Header.Get("Content-Type") != tc.ctype {
				t.Errorf("got %s %v", raw, got.Header)
			}
		})
	}
}
