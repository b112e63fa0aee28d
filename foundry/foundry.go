// Package foundry makes an mms.Client talk to the service's models in
// Microsoft Foundry (https://{resource}.services.ai.azure.com/vendor/),
// authenticated with the resource's API key or with a Microsoft Entra ID
// token:
//
//	client, err := mms.NewClient(foundry.WithResource("my-resource", foundry.APIKey(os.Getenv("MY_FOUNDRY_KEY"))))
//
// Messages (created, streamed) and token counting work as against the
// service. Message Batches and Models are refused before anything is sent,
// as the other SDKs do; other endpoints are sent as they are, and Foundry
// answers those it does not serve with an error.
package foundry

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/mms-sdk/mms-go/option"
	"github.com/mms-sdk/mms-go/platform"
)

const (
	// Name names the platform in errors.
	Name = "Microsoft Foundry"
	// Scope is the Microsoft Entra ID scope a token must be issued for.
	Scope = "https://ai.azure.com/.default"
	// HeaderRequestID is the request-id header of Azure's API Management
	// front end, surfaced as PlatformRequestID. No source states that
	// Foundry sends it: inferred.
	HeaderRequestID = "Apim-Request-Id"
)

// The environment variables the adapter reads when the matching argument
// or option is not given.
const (
	EnvAPIKey   = "VENDOR_FOUNDRY_API_KEY"
	EnvResource = "VENDOR_FOUNDRY_RESOURCE"
	EnvBaseURL  = "VENDOR_FOUNDRY_BASE_URL"
)

// An Option configures the adapter.
type Option func(*adapter)

// APIKey authenticates with the resource's API key, sent as x-api-key
// ($VENDOR_FOUNDRY_API_KEY when neither a key nor a token source is given).
func APIKey(key string) Option { return func(a *adapter) { a.apiKey = key } }

// TokenSource authenticates with Microsoft Entra ID tokens from get,
// asked once per attempt and sent as a bearer token; get should cache
// them. With azidentity:
//
//	foundry.TokenSource(func(ctx context.Context) (string, error) {
//		tok, err := cred.GetToken(ctx, policy.TokenRequestOptions{Scopes: []string{foundry.Scope}})
//		return tok.Token, err
//	})
func TokenSource(get func(ctx context.Context) (string, error)) Option {
	return func(a *adapter) { a.token = get }
}

// BaseURL sets the base URL instead of the resource's
// ($VENDOR_FOUNDRY_BASE_URL when neither is given).
func BaseURL(u string) Option { return func(a *adapter) { a.baseURL = u } }

// WithResource returns the client option that sends every call to the
// Foundry resource. An empty resource is taken from the environment. A
// configuration that cannot work (no resource or base URL, or both; no
// credential, or both an API key and a token source) makes mms.NewClient
// fail.
func WithResource(resource string, opts ...Option) option.RequestOption {
	a, err := newAdapter(resource, opts)
	a.err = err // mms.NewClient returns it, from BaseURL
	return option.WithPlatform(a)
}

// adapter implements platform.Adapter for Foundry.
type adapter struct {
	resource, baseURL, apiKey string
	token                     func(context.Context) (string, error)
	err                       error // the configuration's problem, if any
}

func newAdapter(resource string, opts []Option) (*adapter, error) {
	a := &adapter{resource: resource}
	for _, o := range opts {
		if o != nil {
			o(a)
		}
	}
	if a.resource == "" && a.baseURL == "" {
		a.resource, a.baseURL = os.Getenv(EnvResource), os.Getenv(EnvBaseURL)
	}
	if a.apiKey == "" && a.token == nil {
		a.apiKey = os.Getenv(EnvAPIKey)
	}
	switch {
	case a.resource != "" && a.baseURL != "":
		return a, errors.New("foundry: both a resource and a base URL: give one")
	case a.resource == "" && a.baseURL == "":
		return a, fmt.Errorf("foundry: no resource: pass one to WithResource, or set $%s or $%s", EnvResource, EnvBaseURL)
	case a.resource != "" && !isHostLabel(a.resource):
		return a, fmt.Errorf("foundry: resource %q is not a host name label", a.resource)
	case a.apiKey != "" && a.token != nil:
		return a, errors.New("foundry: both an API key and a token source: give one")
	case a.apiKey == "" && a.token == nil:
		return a, fmt.Errorf("foundry: no credential: pass foundry.APIKey or foundry.TokenSource, or set $%s", EnvAPIKey)
	case strings.ContainsAny(a.apiKey, "\r\n\x00"):
		return a, errors.New("foundry: the API key contains a control character")
	}
	return a, nil
}

// isHostLabel reports whether s is one DNS label (letters, digits, '-').
func isHostLabel(s string) bool {
	for _, c := range s {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return len(s) <= 63
}

func (a *adapter) Name() string { return Name }

// BaseURL is the resource's URL or the one given.
func (a *adapter) BaseURL() (string, error) {
	if a.err != nil {
		return "", a.err
	}
	if a.baseURL != "" {
		return a.baseURL, nil
	}
	return "https://" + a.resource + ".services.ai.azure.com/vendor", nil
}

func (a *adapter) RequestIDHeader() string { return HeaderRequestID }

// Prepare keeps the service's paths, bodies and limits, and refuses the
// endpoints Foundry lacks.
func (a *adapter) Prepare(r *platform.Request) error {
	switch r.Endpoint {
	case platform.Batches, platform.Models:
		return &platform.UnsupportedError{Platform: Name, Endpoint: r.Endpoint, Method: r.Method, Path: r.Path}
	}
	return nil
}

// Authenticate sends the API key, or a token asked for this attempt.
func (a *adapter) Authenticate(ctx context.Context, req *http.Request, _ []byte) error {
	if a.token == nil {
		req.Header.Set("X-Api-Key", a.apiKey)
		return nil
	}
	tok, err := a.token(ctx)
	if err != nil {
		return fmt.Errorf("foundry: getting a token: %w", err)
	}
	if tok == "" || strings.ContainsAny(tok, "\r\n\x00") {
		return errors.New("foundry: the token source returned an empty or malformed token")
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	return nil
}

// Response turns an error Azure's front end wrote itself
// ({"error":{"code","message"}} or {"statusCode","message"}) into the
// service's error body; the service's own answers pass unchanged.
func (a *adapter) Response(resp *http.Response, _ *platform.Request) (*http.Response, error) {
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		return resp, nil
	}
	return platform.TranslateError(resp, func(body []byte) (string, string, bool) {
		var azure struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
			Message string `json:"message"`
		}
		if platform.IsServiceError(body) || json.Unmarshal(body, &azure) != nil {
			return "", "", false
		}
		msg := cmp.Or(azure.Error.Message, azure.Message)
		return "", msg, msg != ""
	})
}

// Interface check.
var _ platform.Adapter = (*adapter)(nil)
