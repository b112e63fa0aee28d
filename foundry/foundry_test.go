package foundry_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/platform/platformtest"

	"github.com/google/go-cmp/cmp"
	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/foundry"
	"github.com/mms-sdk/mms-go/foundry/foundrytest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
	"github.com/mms-sdk/mms-go/platform"
)

const foundryKey = "foundry-key"

// resource starts the fake behind the Foundry front and a client that
// talks to it with a fake Entra ID token source.
func resource(t *testing.T) (*mms.Client, *mmstest.Server, *foundrytest.Front) {
	t.Helper()
	tokens := foundrytest.NewTokenSource()
	front := &foundrytest.Front{APIKeys: []string{foundryKey}, Tokens: tokens}
	srv := mmstest.NewServer(mmstest.WithPlatform(front))
	t.Cleanup(srv.Close)
	c, err := mms.NewClient(foundry.WithResource("", foundry.BaseURL(srv.URL+foundrytest.PathPrefix), foundry.TokenSource(tokens.Token)),
		option.WithHTTPClient(srv.Client()))
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

// TestMessagesThroughFoundry: create, stream and count_tokens give what
// the direct fake gives, each request with its own token.
func TestMessagesThroughFoundry(t *testing.T) {
	want := platformtest.Direct(t)
	c, _, front := resource(t)
	if diff := cmp.Diff(want, messagesCalls(t, c)); diff != "" {
		t.Errorf("through Foundry (-direct +Foundry):\n%s", diff)
	}
	if got := front.Credentials(); !cmp.Equal(got, []string{"entra-fake-token-1", "entra-fake-token-2", "entra-fake-token-3"}) {
		t.Errorf("front accepted %q, want one fresh token per request", got)
	}
}

// TestRetryFreshToken: an injected 503 (Azure's shape) and 529 are
// retried, each attempt with a token asked for it; the apim-request-id of
// the last answer is in the metadata.
func TestRetryFreshToken(t *testing.T) {
	c, _, front := resource(t)
	front.FailNext(503, 529)
	var md mms.ResponseMetadata
	if _, err := c.Messages.Create(context.Background(), createParams, option.WithResponseMetadata(&md), option.WithMaxRetries(2)); err != nil {
		t.Fatal(err)
	}
	if got := front.Credentials(); !cmp.Equal(got, []string{"entra-fake-token-1", "entra-fake-token-2", "entra-fake-token-3"}) {
		t.Errorf("attempts carried %q, want a fresh token each", got)
	}
	if md.Attempts != 3 || md.RequestID == "" || md.PlatformRequestID != "00000000-0000-4000-8000-000000000003" {
		t.Errorf("metadata: attempts %d, request id %q, platform request id %q", md.Attempts, md.RequestID, md.PlatformRequestID)
	}
}

// TestFoundryErrors: Azure's own refusals reach the program as the
// service's errors, with the apim-request-id.
func TestFoundryErrors(t *testing.T) {
	srv := mmstest.NewServer(mmstest.WithPlatform(&foundrytest.Front{APIKeys: []string{foundryKey}}))
	defer srv.Close()
	tests := []struct {
		name       string
		key        string
		wantStatus int
		wantType   string
		wantMsg    string
	}{
		{"wrong key", "not-the-key-123", 401, "authentication_error", "Access denied due to invalid subscription key"},
		{"right key", foundryKey, 0, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := mms.NewClient(foundry.WithResource("", foundry.BaseURL(srv.URL+foundrytest.PathPrefix), foundry.APIKey(tt.key)), option.WithHTTPClient(srv.Client()))
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Messages.CountTokens(context.Background(), countParams)
			if tt.wantStatus == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var apiErr *mms.Error
			if !errors.As(err, &apiErr) || apiErr.StatusCode != tt.wantStatus || apiErr.Type != tt.wantType || !strings.Contains(apiErr.Message, tt.wantMsg) || apiErr.PlatformRequestID == "" {
				t.Errorf("err = %#v, want %d %s %q with an apim-request-id", err, tt.wantStatus, tt.wantType, tt.wantMsg)
			}
			if strings.Contains(err.Error(), tt.key) {
				t.Errorf("error %q shows the key", err)
			}
		})
	}
}

// TestMidStreamError: an error event in the middle of a stream ends it
// with *mms.Error after the events before it.
func TestMidStreamError(t *testing.T) {
	c, srv, _ := resource(t)
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

// TestRefusedBeforeSending: Models and Message Batches, which Foundry
// lacks, and a body over the service's 32 MB limit are refused with
// nothing sent.
func TestRefusedBeforeSending(t *testing.T) {
	c, _, front := resource(t)
	ctx := context.Background()
	big := createParams
	big.Messages = []mms.MessageParam{mms.UserText(strings.Repeat("x", 32<<20))}
	_, err := c.Messages.Create(ctx, big)
	var tooLarge *mms.RequestTooLargeError
	if !errors.As(err, &tooLarge) {
		t.Errorf("over the limit: err = %v, want *mms.RequestTooLargeError", err)
	}
	_, err = c.Models.Get(ctx, "mms-large-1")
	var unsupported *platform.UnsupportedError
	if !errors.As(err, &unsupported) || unsupported.Endpoint != platform.Models || !strings.Contains(err.Error(), "Microsoft Foundry") {
		t.Errorf("models: err = %v, want unsupported on Microsoft Foundry", err)
	}
	_, err = c.Messages.Batches.Get(ctx, "msgbatch_1")
	if !errors.As(err, &unsupported) || unsupported.Endpoint != platform.Batches {
		t.Errorf("batches: err = %v, want unsupported", err)
	}
	if n := len(front.Credentials()); n != 0 {
		t.Errorf("%d requests reached Foundry", n)
	}
}

// TestConfig: what NewClient needs, from options or the environment, and
// the base URL it builds.
func TestConfig(t *testing.T) {
	token := foundry.TokenSource(func(context.Context) (string, error) { return "t", nil })
	tests := []struct {
		name     string
		resource string
		env      map[string]string
		opts     []foundry.Option
		wantURL  string
		wantErr  string
	}{
		{"resource and key", "my-res", nil, []foundry.Option{foundry.APIKey("k")}, "https://my-res.services.ai.azure.com/vendor", ""},
		{"resource and token", "my-res", nil, []foundry.Option{token}, "https://my-res.services.ai.azure.com/vendor", ""},
		{"base URL option", "", nil, []foundry.Option{foundry.APIKey("k"), foundry.BaseURL("https://gw.example/vendor")}, "https://gw.example/vendor", ""},
		{"resource and key from the environment", "", map[string]string{"VENDOR_FOUNDRY_RESOURCE": "env-res", "VENDOR_FOUNDRY_API_KEY": "k"}, nil, "https://env-res.services.ai.azure.com/vendor", ""},
		{"base URL from the environment", "", map[string]string{"VENDOR_FOUNDRY_BASE_URL": "https://gw.example/v", "VENDOR_FOUNDRY_API_KEY": "k"}, nil, "https://gw.example/v", ""},
		{"resource and base URL", "my-res", nil, []foundry.Option{foundry.APIKey("k"), foundry.BaseURL("https://gw.example")}, "", "both a resource and a base URL"},
		{"resource and base URL in the environment", "", map[string]string{"VENDOR_FOUNDRY_RESOURCE": "r", "VENDOR_FOUNDRY_BASE_URL": "https://gw.example", "VENDOR_FOUNDRY_API_KEY": "k"}, nil, "", "both a resource and a base URL"},
		{"no resource", "", nil, []foundry.Option{foundry.APIKey("k")}, "", "no resource"},
		{"resource not a host label", "a.b/c", nil, []foundry.Option{foundry.APIKey("k")}, "", "not a host name label"},
		{"no credential", "my-res", nil, nil, "", "no credential"},
		{"key and token", "my-res", nil, []foundry.Option{foundry.APIKey("k"), token}, "", "both an API key and a token source"},
		{"token source wins over the key in the environment", "my-res", map[string]string{"VENDOR_FOUNDRY_API_KEY": "k"}, []foundry.Option{token}, "https://my-res.services.ai.azure.com/vendor", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range []string{"VENDOR_FOUNDRY_API_KEY", "VENDOR_FOUNDRY_RESOURCE", "VENDOR_FOUNDRY_BASE_URL"} {
				t.Setenv(k, tt.env[k])
			}
			got, err := foundry.BaseURLForTest(tt.resource, tt.opts...)
			if got != tt.wantURL || (err == nil) != (tt.wantErr == "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("BaseURL = %q, %v; want %q, %q", got, err, tt.wantURL, tt.wantErr)
			}
			_, err = mms.NewClient(foundry.WithResource(tt.resource, tt.opts...))
			if (err == nil) != (tt.wantErr == "") {
				t.Errorf("NewClient: %v, want error %q", err, tt.wantErr)
			}
		})
	}
}
