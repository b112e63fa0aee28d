package awsgateway_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mms-sdk/mms-go/platform/platformtest"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/google/go-cmp/cmp"
	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/awsgateway"
	"github.com/mms-sdk/mms-go/awsgateway/awsgatewaytest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

const (
	region    = "us-west-2"
	workspace = "wrkspc_test"
	gwKey     = "aws-gateway-key"
)

// rotating hands out creds in turn, one per Retrieve, as credentials
// refreshed between two attempts.
type rotating struct {
	creds []aws.Credentials
	n     atomic.Int64
}

func (r *rotating) Retrieve(context.Context) (aws.Credentials, error) {
	i := r.n.Add(1) - 1
	return r.creds[int(i)%len(r.creds)], nil
}

func testCreds() []aws.Credentials {
	return []aws.Credentials{
		{AccessKeyID: "AKIDFIRST", SecretAccessKey: "secret-one", SessionToken: "session-1"},
		{AccessKeyID: "AKIDSECOND", SecretAccessKey: "secret-two", SessionToken: "session-2"},
	}
}

// gateway starts the fake behind the AWS gateway front and a client that
// talks to it with opts.
func gateway(t *testing.T, cfg aws.Config, opts ...awsgateway.Option) (*mms.Client, *mmstest.Server, *awsgatewaytest.Front) {
	t.Helper()
	front := &awsgatewaytest.Front{Region: region, Credentials: testCreds(), APIKeys: []string{gwKey}, Workspace: workspace}
	srv := mmstest.NewServer(mmstest.WithPlatform(front))
	t.Cleanup(srv.Close)
	c, err := mms.NewClient(awsgateway.WithConfig(cfg, opts...), option.WithBaseURL(srv.URL), option.WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	return c, srv, front
}

func sigV4Config() aws.Config {
	return aws.Config{Region: region, Credentials: &rotating{creds: testCreds()}}
}

var (
	createParams  = platformtest.CreateParams
	messagesCalls = platformtest.MessagesCalls
)

// TestMessagesThroughGateway: create, stream and count_tokens through the
// gateway, signed or with a key, give what the direct fake gives.
func TestMessagesThroughGateway(t *testing.T) {
	want := platformtest.Direct(t)
	tests := []struct {
		name     string
		cfg      aws.Config
		opts     []awsgateway.Option
		wantAuth string
	}{
		{"sigv4", sigV4Config(), []awsgateway.Option{awsgateway.Workspace(workspace)}, "AWS4-HMAC-SHA256 Credential=AKIDFIRST/"},
		{"api key", aws.Config{Region: region}, []awsgateway.Option{awsgateway.Workspace(workspace), awsgateway.APIKey(gwKey)}, "x-api-key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, front := gateway(t, tt.cfg, tt.opts...)
			got := messagesCalls(t, c)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("through the gateway (-direct +gateway):\n%s", diff)
			}
			if auths := front.Authorizations(); len(auths) != 3 || !strings.HasPrefix(auths[0], tt.wantAuth) {
				t.Errorf("front authenticated %q, want 3 requests with %q", auths, tt.wantAuth)
			}
		})
	}
}

// TestRetryResigned: an injected 503 and 529 are retried, each attempt
// signed afresh with the credentials retrieved for it, and the AWS
// request id reaches the response metadata.
func TestRetryResigned(t *testing.T) {
	c, _, front := gateway(t, sigV4Config(), awsgateway.Workspace(workspace))
	front.FailNext(503, 529)
	var md mms.ResponseMetadata
	if _, err := c.Messages.Create(context.Background(), createParams, option.WithResponseMetadata(&md), option.WithMaxRetries(2)); err != nil {
		t.Fatal(err)
	}
	auths := front.Authorizations()
	if len(auths) != 3 {
		t.Fatalf("front saw %d authenticated attempts, want 3", len(auths))
	}
	for i, want := range []string{"AKIDFIRST", "AKIDSECOND", "AKIDFIRST"} {
		if !strings.Contains(auths[i], "Credential="+want+"/") {
			t.Errorf("attempt %d signed with %q, want %s", i+1, auths[i], want)
		}
	}
	if md.Attempts != 3 || md.PlatformRequestID != "aws-req-00000003" || md.RequestID == "" {
		t.Errorf("metadata: attempts %d, platform request id %q, request id %q", md.Attempts, md.PlatformRequestID, md.RequestID)
	}
}

// TestGatewayErrors: the gateway's own refusals and the service's errors
// arrive as *mms.Error with the service's type and both request ids.
func TestGatewayErrors(t *testing.T) {
	tests := []struct {
		name       string
		cfg        aws.Config
		opts       []awsgateway.Option
		inject     int
		wantStatus int
		wantType   string
		wantMsg    string
	}{
		{"unknown signing key", aws.Config{Region: region, Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "AKIDOTHER", SecretAccessKey: "x"}, nil
		})}, []awsgateway.Option{awsgateway.Workspace(workspace)}, 0, 403, "permission_error", "InvalidSignatureException: the security token"},
		{"wrong secret", aws.Config{Region: region, Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: "AKIDFIRST", SecretAccessKey: "wrong", SessionToken: "session-1"}, nil
		})}, []awsgateway.Option{awsgateway.Workspace(workspace)}, 0, 403, "permission_error", "does not match"},
		{"signed for another region", aws.Config{Region: "eu-west-1", Credentials: &rotating{creds: testCreds()}},
			[]awsgateway.Option{awsgateway.Workspace(workspace)}, 0, 403, "permission_error", "scoped to region"},
		{"wrong api key", aws.Config{Region: region}, []awsgateway.Option{awsgateway.Workspace(workspace), awsgateway.APIKey("nope")}, 0, 403, "permission_error", "ForbiddenException: Invalid API key"},
		{"other workspace", sigV4Config(), []awsgateway.Option{awsgateway.Workspace("wrkspc_other")}, 0, 403, "permission_error", "workspace"},
		{"gateway unavailable", sigV4Config(), []awsgateway.Option{awsgateway.Workspace(workspace)}, 503, 503, "api_error", "ServiceUnavailableException: Service Unavailable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, front := gateway(t, tt.cfg, tt.opts...)
			if tt.inject != 0 {
				front.FailNext(tt.inject)
			}
			_, err := c.Messages.Create(context.Background(), createParams, option.WithMaxRetries(0))
			var apiErr *mms.Error
			if !errors.As(err, &apiErr) {
				t.Fatalf("err = %v, want *mms.Error", err)
			}
			if apiErr.StatusCode != tt.wantStatus || apiErr.Type != tt.wantType || !strings.Contains(apiErr.Message, tt.wantMsg) {
				t.Errorf("err = %d %s %q, want %d %s containing %q", apiErr.StatusCode, apiErr.Type, apiErr.Message, tt.wantStatus, tt.wantType, tt.wantMsg)
			}
			if apiErr.PlatformRequestID == "" {
				t.Errorf("no platform request id on %v", err)
			}
		})
	}
}

// TestMidStreamError: an error event in the middle of a stream ends it
// with *mms.Error after the events before it.
func TestMidStreamError(t *testing.T) {
	c, srv, _ := gateway(t, sigV4Config(), awsgateway.Workspace(workspace))
	srv.InjectStreamFault(mmstest.StreamFault{ErrorAfterEvents: 2})
	var events int
	var apiErr *mms.Error
	for _, err := range c.Messages.Stream(context.Background(), createParams) {
		if err != nil {
			if !errors.As(err, &apiErr) {
				t.Fatalf("stream error %v, want *mms.Error", err)
			}
			break
		}
		events++
	}
	if apiErr == nil || apiErr.Type != "overloaded_error" || events != 2 {
		t.Errorf("after %d events got %v, want an overloaded_error after 2", events, apiErr)
	}
}

// TestModelsThroughGateway: a non-Messages endpoint works unchanged.
func TestModelsThroughGateway(t *testing.T) {
	c, _, _ := gateway(t, sigV4Config(), awsgateway.Workspace(workspace))
	var ids []string
	for m, err := range c.Models.List(context.Background(), mms.ModelListParams{}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	var want []string
	for _, m := range mmstest.DefaultModels() {
		want = append(want, m.ID)
	}
	if len(ids) == 0 || len(ids) != len(want) {
		t.Errorf("listed %v, want the %d default models", ids, len(want))
	}
}

// TestOverLimitRefusedBeforeSending: the gateway keeps the service's own
// 32 MB Messages limit; a larger body is refused with nothing sent.
func TestOverLimitRefusedBeforeSending(t *testing.T) {
	c, _, front := gateway(t, sigV4Config(), awsgateway.Workspace(workspace))
	big := createParams
	big.Messages = []mms.MessageParam{mms.UserText(strings.Repeat("x", 32<<20))}
	_, err := c.Messages.Create(context.Background(), big)
	var tooLarge *mms.RequestTooLargeError
	if !errors.As(err, &tooLarge) {
		t.Fatalf("err = %v, want *mms.RequestTooLargeError", err)
	}
	if n := len(front.Authorizations()); n != 0 {
		t.Errorf("%d requests reached the gateway", n)
	}
}

// TestConfigErrors: a configuration that cannot work fails NewClient,
// naming the problem and no secret.
func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		cfg     aws.Config
		opts    []awsgateway.Option
		wantErr string // "" = NewClient succeeds
	}{
		{"no workspace", nil, sigV4Config(), nil, "no workspace id"},
		{"workspace from the environment", map[string]string{"VENDOR_AWS_WORKSPACE_ID": workspace}, sigV4Config(), nil, ""},
		{"no credentials", nil, aws.Config{Region: region}, []awsgateway.Option{awsgateway.Workspace(workspace)}, "no credentials"},
		{"key from the environment", map[string]string{"VENDOR_AWS_API_KEY": gwKey}, aws.Config{Region: region}, []awsgateway.Option{awsgateway.Workspace(workspace)}, ""},
		{"no region to sign for", nil, aws.Config{Credentials: &rotating{creds: testCreds()}}, []awsgateway.Option{awsgateway.Workspace(workspace)}, "no region"},
		{"region from the environment", map[string]string{"AWS_REGION": region}, aws.Config{Credentials: &rotating{creds: testCreds()}}, []awsgateway.Option{awsgateway.Workspace(workspace)}, ""},
		{"control character in key", nil, aws.Config{}, []awsgateway.Option{awsgateway.Workspace(workspace), awsgateway.APIKey("k\nx")}, "control character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range []string{"VENDOR_AWS_API_KEY", "VENDOR_AWS_WORKSPACE_ID", "VENDOR_AWS_BASE_URL", "AWS_REGION", "AWS_DEFAULT_REGION"} {
				t.Setenv(k, tt.env[k])
			}
			_, err := mms.NewClient(awsgateway.WithConfig(tt.cfg, tt.opts...), option.WithBaseURL("https://gw.example"))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("NewClient: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("NewClient err = %v, want %q", err, tt.wantErr)
			case err != nil && strings.Contains(err.Error(), "k\nx"):
				t.Fatalf("error %q shows the key", err)
			}
		})
	}
}

// TestBaseURL: the region's gateway, or $VENDOR_AWS_BASE_URL.
func TestBaseURL(t *testing.T) {
	tests := []struct {
		name, region, env, want, wantErr string
	}{
		{"region", "eu-central-1", "", "https://aws-external-vendor.eu-central-1.api.aws", ""},
		{"environment", "eu-central-1", "https://gw.example/base", "https://gw.example/base", ""},
		{"bad region", "a/b", "", "", "not a host name label"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("VENDOR_AWS_BASE_URL", tt.env)
			got, err := awsgateway.BaseURLForTest(aws.Config{Region: tt.region, Credentials: &rotating{creds: testCreds()}}, awsgateway.Workspace(workspace))
			if got != tt.want || (err == nil) != (tt.wantErr == "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("BaseURL = %q, %v; want %q, %q", got, err, tt.want, tt.wantErr)
			}
		})
	}
}
