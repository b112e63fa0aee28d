package gcpgateway_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/platform/platformtest"

	"github.com/google/go-cmp/cmp"
	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/gcpgateway"
	"github.com/mms-sdk/mms-go/gcpgateway/gcpgatewaytest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
	"github.com/mms-sdk/mms-go/platform"
)

const (
	project   = "proj-1"
	workspace = "wrkspc_test"
	location  = "us-east5"
)

// gateway starts the fake behind the Google Cloud gateway front and a
// client that talks to it with a fake token source.
func gateway(t *testing.T) (*mms.Client, *mmstest.Server, *gcpgatewaytest.Front) {
	t.Helper()
	tokens := gcpgatewaytest.NewTokenSource()
	front := &gcpgatewaytest.Front{Project: project, Location: location, Workspace: workspace, Tokens: tokens}
	srv := mmstest.NewServer(mmstest.WithPlatform(front))
	t.Cleanup(srv.Close)
	c, err := mms.NewClient(gcpgateway.WithProject(project, workspace, gcpgateway.Location(location), gcpgateway.TokenSource(tokens)),
		option.WithBaseURL(srv.URL+gcpgateway.InvokePath(project, location, workspace)), option.WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	return c, srv, front
}

var (
	createParams  = platformtest.CreateParams
	countParams   = platformtest.CountParams
	messagesCalls = platformtest.MessagesCalls
)

// TestMessagesThroughGateway: create, stream and count_tokens through the
// gateway give what the direct fake gives, each with its own token.
func TestMessagesThroughGateway(t *testing.T) {
	want := platformtest.Direct(t)
	c, _, front := gateway(t)
	if diff := cmp.Diff(want, messagesCalls(t, c)); diff != "" {
		t.Errorf("through the gateway (-direct +gateway):\n%s", diff)
	}
	if got := front.SeenTokens(); !cmp.Equal(got, []string{"ya29.fake-token-1", "ya29.fake-token-2", "ya29.fake-token-3"}) {
		t.Errorf("front accepted %q, want one fresh token per request", got)
	}
}

// TestRetryFreshToken: an injected 503 (Google's envelope) and 529 are
// retried, each attempt with a token asked for it.
func TestRetryFreshToken(t *testing.T) {
	c, _, front := gateway(t)
	front.FailNext(503, 529)
	var md mms.ResponseMetadata
	if _, err := c.Messages.Create(context.Background(), createParams, option.WithResponseMetadata(&md), option.WithMaxRetries(2)); err != nil {
		t.Fatal(err)
	}
	if got := front.SeenTokens(); !cmp.Equal(got, []string{"ya29.fake-token-1", "ya29.fake-token-2", "ya29.fake-token-3"}) {
		t.Errorf("attempts carried %q, want a fresh token each", got)
	}
	if md.Attempts != 3 || md.RequestID == "" {
		t.Errorf("metadata: attempts %d, request id %q", md.Attempts, md.RequestID)
	}
}

// TestGatewayErrorTranslated: an error Google's front end writes reaches
// the program as the service's error, with its status.
func TestGatewayErrorTranslated(t *testing.T) {
	c, _, front := gateway(t)
	front.FailNext(503)
	_, err := c.Messages.Create(context.Background(), createParams, option.WithMaxRetries(0))
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || apiErr.Type != "api_error" || apiErr.Message != "UNAVAILABLE: Service Unavailable" {
		t.Fatalf("err = %#v, want a 503 api_error from Google's envelope", err)
	}
}

// TestMidStreamError: an error event in the middle of a stream ends it
// with *mms.Error after the events before it.
func TestMidStreamError(t *testing.T) {
	c, srv, _ := gateway(t)
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

// TestModelsThroughGateway: a non-Messages endpoint works below the
// invoke path.
func TestModelsThroughGateway(t *testing.T) {
	c, _, _ := gateway(t)
	var n int
	for _, err := range c.Models.List(context.Background(), mms.ModelListParams{}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n == 0 || n != len(mmstest.DefaultModels()) {
		t.Errorf("listed %d models, want the %d default ones", n, len(mmstest.DefaultModels()))
	}
}

// TestRefusedBeforeSending: a body over the service's own 32 MB limit and
// the legacy /v1/complete are refused with nothing sent.
func TestRefusedBeforeSending(t *testing.T) {
	c, _, front := gateway(t)
	big := createParams
	big.Messages = []mms.MessageParam{mms.UserText(strings.Repeat("x", 32<<20))}
	_, err := c.Messages.Create(context.Background(), big)
	var tooLarge *mms.RequestTooLargeError
	if !errors.As(err, &tooLarge) {
		t.Errorf("over the limit: err = %v, want *mms.RequestTooLargeError", err)
	}
	err = c.Do(context.Background(), "POST", "/v1/complete", map[string]any{"model": "mms-large-1", "prompt": "hi"}, nil)
	if !errors.Is(err, platform.ErrUnsupported) || !strings.Contains(err.Error(), gcpgateway.Name) {
		t.Errorf("/v1/complete: err = %v, want unsupported naming %s", err, gcpgateway.Name)
	}
	if n := len(front.SeenTokens()); n != 0 {
		t.Errorf("%d requests reached the gateway", n)
	}
}

// TestConfigErrors: what NewClient needs, from arguments or the
// environment, and the base URL it builds.
func TestConfigErrors(t *testing.T) {
	tokens := gcpgatewaytest.NewTokenSource()
	tests := []struct {
		name, project, workspace string
		env                      map[string]string
		opts                     []gcpgateway.Option
		wantErr                  string // "" = success
	}{
		{"arguments", project, workspace, nil, []gcpgateway.Option{gcpgateway.TokenSource(tokens)}, ""},
		{"no workspace", project, "", nil, []gcpgateway.Option{gcpgateway.TokenSource(tokens)}, "no workspace id"},
		{"workspace and project from the environment", "", "", map[string]string{"VENDOR_GOOGLE_CLOUD_PROJECT": project, "VENDOR_GOOGLE_CLOUD_WORKSPACE_ID": workspace}, []gcpgateway.Option{gcpgateway.TokenSource(tokens)}, ""},
		{"project from GOOGLE_CLOUD_PROJECT", "", workspace, map[string]string{"GOOGLE_CLOUD_PROJECT": project}, []gcpgateway.Option{gcpgateway.TokenSource(tokens)}, ""},
		{"no project and no ADC", "", workspace, map[string]string{"GOOGLE_APPLICATION_CREDENTIALS": "/nonexistent/adc.json"}, nil, "no project given and no Application Default Credentials"},
		{"no project, token source without one", "", workspace, nil, []gcpgateway.Option{gcpgateway.TokenSource(tokens)}, "no project"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range []string{"VENDOR_GOOGLE_CLOUD_PROJECT", "VENDOR_GOOGLE_CLOUD_WORKSPACE_ID", "VENDOR_GOOGLE_CLOUD_LOCATION", "VENDOR_GOOGLE_CLOUD_BASE_URL", "GOOGLE_CLOUD_PROJECT", "GOOGLE_APPLICATION_CREDENTIALS"} {
				t.Setenv(k, tt.env[k])
			}
			_, err := mms.NewClient(gcpgateway.WithProject(tt.project, tt.workspace, tt.opts...))
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("NewClient err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

// TestBaseURL: the workspace's invoke URL with the location (default
// global), or $VENDOR_GOOGLE_CLOUD_BASE_URL.
func TestBaseURL(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		opts []gcpgateway.Option
		want string
	}{
		{"default location", nil, nil, "https://vendor.googleapis.com/v1alpha/projects/proj-1/locations/global/workspaces/wrkspc_test/invoke"},
		{"location option", nil, []gcpgateway.Option{gcpgateway.Location("europe-west1")}, "https://vendor.googleapis.com/v1alpha/projects/proj-1/locations/europe-west1/workspaces/wrkspc_test/invoke"},
		{"location from the environment", map[string]string{"VENDOR_GOOGLE_CLOUD_LOCATION": "us-east5"}, nil, "https://vendor.googleapis.com/v1alpha/projects/proj-1/locations/us-east5/workspaces/wrkspc_test/invoke"},
		{"base URL from the environment", map[string]string{"VENDOR_GOOGLE_CLOUD_BASE_URL": "https://gw.example/x"}, nil, "https://gw.example/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("VENDOR_GOOGLE_CLOUD_LOCATION", tt.env["VENDOR_GOOGLE_CLOUD_LOCATION"])
			t.Setenv("VENDOR_GOOGLE_CLOUD_BASE_URL", tt.env["VENDOR_GOOGLE_CLOUD_BASE_URL"])
			opts := append([]gcpgateway.Option{gcpgateway.TokenSource(gcpgatewaytest.NewTokenSource())}, tt.opts...)
			got, err := gcpgateway.BaseURLForTest(project, workspace, opts...)
			if err != nil || got != tt.want {
				t.Errorf("BaseURL = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
