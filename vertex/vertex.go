// Package vertex makes an mms.Client talk to the service's models on
// Google Cloud Vertex AI:
//
//	client, err := mms.NewClient(vertex.WithProject("us-east5", "my-project"))
//
// Messages create and stream go to the publisher model's rawPredict and
// streamRawPredict methods, count_tokens to count-tokens:rawPredict. Each
// attempt carries a Google OAuth2 access token (Application Default
// Credentials unless WithCredentials or WithTokenSource says otherwise).
// Vertex offers no Message Batches, Models, Files or Skills: such calls fail
// before sending with a *platform.UnsupportedError. Request bodies are
// limited to 30 MB.
package vertex

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/mms-sdk/mms-go/option"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"
)

// Names from the environment and the wire.
const (
	// EnvRegion is the region used when WithProject gets "".
	EnvRegion = "CLOUD_ML_REGION"
	// EnvProjectID is the project used when WithProject gets "".
	EnvProjectID = "VENDOR_VERTEX_PROJECT_ID"
	// EnvBaseURL replaces the regional base URL (option.WithBaseURL wins
	// over it). Both "https://host" and "https://host/v1" are accepted.
	EnvBaseURL = "VENDOR_VERTEX_BASE_URL"

	// Publisher is the model publisher's name in Vertex paths.
	Publisher = "vendor"
	// Version is the vendor_version body member Vertex requires, added to
	// bodies that lack one.
	Version = "vertex-2023-10-16"
	// Scope is the OAuth2 scope asked of Application Default Credentials.
	Scope = "https://www.googleapis.com/auth/cloud-platform"
	// MaxBodySize is Vertex's request body limit (30 MB, counted in
	// decimal megabytes so that a body sent is under the limit whichever
	// unit Google means).
	MaxBodySize = 30 * 1000 * 1000
)

// platformName names Vertex in errors.
const platformName = "Google Vertex AI"

// Option configures WithProject.
type Option func(*settings)

type settings struct {
	creds *google.Credentials
	ts    oauth2.TokenSource
	err   error
}

// WithCredentials authenticates with creds (e.g. from
// google.CredentialsFromJSON) instead of Application Default Credentials.
func WithCredentials(creds *google.Credentials) Option {
	return func(s *settings) {
		if creds == nil || creds.TokenSource == nil {
			s.err = errors.New("vertex: WithCredentials: credentials without a token source")
			return
		}
		s.creds = creds
	}
}

// WithTokenSource authenticates with the access tokens of ts instead of
// Application Default Credentials. Tokens are reused until they expire.
func WithTokenSource(ts oauth2.TokenSource) Option {
	return func(s *settings) {
		if ts == nil {
			s.err = errors.New("vertex: WithTokenSource: token source is nil")
			return
		}
		s.ts = ts
	}
}

// WithProject makes the client talk to Vertex AI in region ("global",
// "us", "eu", "us-east5", …) for Google Cloud project projectID. An empty
// region is $CLOUD_ML_REGION; an empty projectID is $VENDOR_VERTEX_PROJECT_ID,
// else the project of WithCredentials' credentials; both must end up set. The base URL is $VENDOR_VERTEX_BASE_URL if set, else
// the region's (see BaseURL).
//
// Without WithCredentials or WithTokenSource, Application Default
// Credentials (scope cloud-platform) are looked up once, when mms.NewClient
// checks the configuration, so that missing credentials are NewClient's
// error.
func WithProject(region, projectID string, opts ...Option) option.RequestOption {
	return option.WithPlatform(newAdapter(region, projectID, opts))
}

// BaseURL returns Vertex AI's base URL for region, without the "/v1"
// that the request paths carry: the global endpoint for "global", the
// multi-region endpoints for "us" and "eu", the regional endpoint else.
func BaseURL(region string) (string, error) {
	switch {
	case region == "global":
		return "https://aiplatform.googleapis.com", nil
	case region == "us" || region == "eu":
		return "https://aiplatform." + region + ".rep.googleapis.com", nil
	case validRegion(region):
		return "https://" + region + "-aiplatform.googleapis.com", nil
	}
	return "", fmt.Errorf("vertex: region %q is not a Vertex AI region (lower-case letters, digits and dashes, e.g. us-east5)", region)
}

// validRegion keeps a region from changing the host name's meaning.
func validRegion(region string) bool {
	if region == "" || region[0] == '-' || region[len(region)-1] == '-' {
		return false
	}
	for _, c := range region {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	return true
}

// adapter is the platform.Adapter for Vertex AI.
type adapter struct {
	region, project string
	base            string
	err             error // a configuration error: BaseURL's and every Prepare's

	tokens tokens
}

func newAdapter(region, project string, opts []Option) *adapter {
	var s settings
	for _, o := range opts {
		o(&s)
	}
	a := &adapter{region: region, project: project}
	if a.region == "" {
		a.region = os.Getenv(EnvRegion)
	}
	if a.project == "" {
		a.project = os.Getenv(EnvProjectID)
	}
	if a.project == "" && s.creds != nil {
		a.project = s.creds.ProjectID
	}
	a.err = errors.Join(s.err, a.configure())
	switch {
	case s.ts != nil:
		a.tokens.set(s.ts)
	case s.creds != nil:
		a.tokens.set(s.creds.TokenSource)
	}
	return a
}

// configure checks region and project and picks the base URL.
func (a *adapter) configure() error {
	switch {
	case a.region == "":
		return fmt.Errorf("vertex: no region: pass one to WithProject or set $%s", EnvRegion)
	case a.project == "":
		return fmt.Errorf("vertex: no project: pass one to WithProject or set $%s", EnvProjectID)
	case strings.ContainsAny(a.project, "/?#%") || strings.ContainsAny(a.region, "/?#%"):
		return fmt.Errorf("vertex: project %q or region %q holds a URL delimiter", a.project, a.region)
	}
	if env := os.Getenv(EnvBaseURL); env != "" {
		a.base = strings.TrimSuffix(strings.TrimRight(env, "/"), "/v1")
		return nil
	}
	var err error
	a.base, err = BaseURL(a.region)
	return err
}

func (a *adapter) Name() string { return platformName }

// RequestIDHeader is "": no source establishes a request-id header of
// Vertex's own; the model's request-id comes through as usual.
func (a *adapter) RequestIDHeader() string { return "" }

// BaseURL returns the base URL, and resolves Application Default
// Credentials now unless an option supplied credentials.
func (a *adapter) BaseURL() (string, error) {
	if a.err != nil {
		return "", a.err
	}
	if _, err := a.tokens.source(); err != nil {
		return "", err
	}
	return a.base, nil
}

// tokens holds the token source, found lazily from Application Default
// Credentials when no option gave one.
type tokens struct {
	mu   sync.Mutex
	base oauth2.TokenSource // as configured or found
	ts   oauth2.TokenSource // base behind a cache; replaced to drop a refused token
}

func (t *tokens) set(base oauth2.TokenSource) {
	t.base = base
	t.ts = oauth2.ReuseTokenSource(nil, base)
}
