// Package gcpgateway makes an mms.Client talk to the service's full
// first-party API through its Google Cloud gateway, authenticated with a
// Google OAuth2 access token (Application Default Credentials unless an
// option gives credentials or a token source):
//
//	client, err := mms.NewClient(gcpgateway.WithProject("my-project", "wrkspc_…"))
//
// Every endpoint of the service except the legacy /v1/complete works, with
// the service's own paths below the workspace's invoke URL, its body size
// limits and its server-sent-event streams.
package gcpgateway

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"

	"github.com/mms-sdk/mms-go/option"
	"github.com/mms-sdk/mms-go/platform"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"
)

// The gateway's names (the spec's <family> is "vendor").
const (
	// Name names the platform in errors.
	Name = "the Google Cloud gateway"
	// Host is the gateway's host.
	Host = "vendor.googleapis.com"
	// DefaultLocation is the location used unless one is given.
	DefaultLocation = "global"
	// Scope is the OAuth2 scope asked of Application Default Credentials.
	Scope = "https://www.googleapis.com/auth/cloud-platform"
)

// The environment variables the adapter reads when the matching argument
// or option is not given. The project falls back to $GOOGLE_CLOUD_PROJECT,
// then to the credentials' project; $VENDOR_GOOGLE_CLOUD_BASE_URL replaces
// the whole base URL, project path included.
const (
	EnvProject     = "VENDOR_GOOGLE_CLOUD_PROJECT"
	EnvLocation    = "VENDOR_GOOGLE_CLOUD_LOCATION"
	EnvWorkspaceID = "VENDOR_GOOGLE_CLOUD_WORKSPACE_ID"
	EnvBaseURL     = "VENDOR_GOOGLE_CLOUD_BASE_URL"
)

// An Option configures the adapter.
type Option func(*adapter)

// Location sets the gateway location (default "global";
// $VENDOR_GOOGLE_CLOUD_LOCATION when not given).
func Location(location string) Option { return func(a *adapter) { a.location = location } }

// TokenSource authenticates with tokens from ts, asked once per attempt
// (wrap it in oauth2.ReuseTokenSource to cache them). It takes precedence
// over Credentials.
func TokenSource(ts oauth2.TokenSource) Option { return func(a *adapter) { a.ts = ts } }

// Credentials authenticates with creds instead of Application Default
// Credentials; its project is used when no other project is given.
func Credentials(creds *google.Credentials) Option { return func(a *adapter) { a.creds = creds } }

// WithProject returns the client option that sends every call through the
// gateway for the workspace workspaceID of the Google Cloud project. Empty
// arguments are taken from the environment; a project or workspace that
// cannot be found makes mms.NewClient fail. Unless an option gives a token
// source or credentials, Application Default Credentials are looked up on
// the first call.
func WithProject(project, workspaceID string, opts ...Option) option.RequestOption {
	a, err := newAdapter(project, workspaceID, opts)
	a.err = err // mms.NewClient returns it, from BaseURL
	return option.WithPlatform(a)
}

// adapter implements platform.Adapter for the Google Cloud gateway.
type adapter struct {
	project, workspace, location, baseURL string

	creds *google.Credentials
	err   error // the configuration's problem, if any

	mu sync.Mutex
	ts oauth2.TokenSource // nil until resolved
}

func newAdapter(project, workspace string, opts []Option) (*adapter, error) {
	a := &adapter{project: project, workspace: workspace}
	for _, o := range opts {
		if o != nil {
			o(a)
		}
	}
	a.project = cmp.Or(a.project, os.Getenv(EnvProject), os.Getenv("GOOGLE_CLOUD_PROJECT"))
	a.workspace = cmp.Or(a.workspace, os.Getenv(EnvWorkspaceID))
	a.location = cmp.Or(a.location, os.Getenv(EnvLocation), DefaultLocation)
	a.baseURL = os.Getenv(EnvBaseURL)
	if a.ts == nil && a.creds != nil {
		a.ts = a.creds.TokenSource
	}
	if a.project == "" && a.baseURL == "" {
		if a.creds == nil && a.ts == nil {
			creds, err := google.FindDefaultCredentials(context.Background(), Scope)
			if err != nil {
				return a, fmt.Errorf("gcpgateway: no project given and no Application Default Credentials to take one from: %w", err)
			}
			a.creds, a.ts = creds, creds.TokenSource
		}
		if a.creds != nil {
			a.project = a.creds.ProjectID
		}
		if a.project == "" {
			return a, fmt.Errorf("gcpgateway: no project: pass one to WithProject or set $%s", EnvProject)
		}
	}
	if strings.TrimSpace(a.workspace) == "" {
		return a, fmt.Errorf("gcpgateway: no workspace id: pass one to WithProject or set $%s", EnvWorkspaceID)
	}
	return a, nil
}

func (a *adapter) Name() string { return Name }

// BaseURL is $VENDOR_GOOGLE_CLOUD_BASE_URL, else the workspace's invoke
// URL.
func (a *adapter) BaseURL() (string, error) {
	if a.err != nil {
		return "", a.err
	}
	if a.baseURL != "" {
		return a.baseURL, nil
	}
	return "https://" + Host + InvokePath(a.project, a.location, a.workspace), nil
}

// InvokePath is the path prefix of a workspace's invoke URL; the service's
// paths follow it.
func InvokePath(project, location, workspace string) string {
	return "/v1alpha/projects/" + url.PathEscape(project) + "/locations/" + url.PathEscape(location) +
		"/workspaces/" + url.PathEscape(workspace) + "/invoke"
}

// RequestIDHeader is "": no source names a request-id header of the
// gateway's own.
func (a *adapter) RequestIDHeader() string { return "" }

// Prepare keeps the service's paths, bodies and limits. The workspace is
// in the URL only: the gateway rejects a vendor-workspace-id header, and
// it takes no x-api-key.
func (a *adapter) Prepare(r *platform.Request) error {
	if r.Path == "/v1/complete" {
		return &platform.UnsupportedError{Platform: Name, Endpoint: r.Endpoint, Method: r.Method, Path: r.Path}
	}
	r.Header.Del("Vendor-Workspace-Id")
	r.Header.Del("X-Api-Key")
	return nil
}

// Authenticate adds a bearer token for this attempt, unless the program
// set an Authorization header of its own.
func (a *adapter) Authenticate(ctx context.Context, req *http.Request, _ []byte) error {
	if req.Header.Get("Authorization") != "" {
		return nil
	}
	ts, err := a.tokenSource(ctx)
	if err != nil {
		return err
	}
	tok, err := ts.Token()
	if err != nil {
		return fmt.Errorf("gcpgateway: getting an access token: %w", err)
	}
	if tok.AccessToken == "" {
		return errors.New("gcpgateway: the token source returned an empty access token")
	}
	tok.SetAuthHeader(req)
	return nil
}

// tokenSource returns the configured token source, looking up Application
// Default Credentials on first use (and again after a failed look-up).
func (a *adapter) tokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ts != nil {
		return a.ts, nil
	}
	creds, err := google.FindDefaultCredentials(ctx, Scope)
	if err != nil {
		return nil, fmt.Errorf("gcpgateway: finding Application Default Credentials: %w", err)
	}
	a.ts = creds.TokenSource
	return a.ts, nil
}

// Response turns an error Google's front end wrote itself (the Google
// error envelope {"error":{"code","message","status"}}) into the service's
// error body; the service's own answers pass unchanged.
func (a *adapter) Response(resp *http.Response, _ *platform.Request) (*http.Response, error) {
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		return resp, nil
	}
	return platform.TranslateError(resp, func(body []byte) (string, string, bool) {
		var google struct {
			Error struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
				Status  string `json:"status"`
			} `json:"error"`
		}
		if platform.IsServiceError(body) || json.Unmarshal(body, &google) != nil || google.Error.Code == 0 {
			return "", "", false
		}
		msg := google.Error.Message
		if google.Error.Status != "" {
			msg = google.Error.Status + ": " + msg
		}
		return "", msg, true
	})
}

// Interface check.
var _ platform.Adapter = (*adapter)(nil)
