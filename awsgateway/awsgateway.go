// Package awsgateway makes an mms.Client talk to the service's full
// first-party API through its AWS gateway
// (https://aws-external-vendor.{region}.api.aws), authenticated with an
// AWS gateway API key or with SigV4 and the AWS SDK's credentials:
//
//	cfg, err := config.LoadDefaultConfig(ctx) // github.com/aws/aws-sdk-go-v2/config
//	client, err := mms.NewClient(awsgateway.WithConfig(cfg, awsgateway.Workspace("wrkspc_…")))
//
// Every endpoint of the service works, with the service's own paths, body
// size limits and server-sent-event streams.
package awsgateway

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/mms-sdk/mms-go/option"
	"github.com/mms-sdk/mms-go/platform"
)

// The gateway's names (the spec's <vendor> is "vendor").
const (
	// Name names the platform in errors.
	Name = "the AWS gateway"
	// SigningService is the SigV4 service name of the gateway.
	SigningService = "aws-external-vendor"
	// HeaderWorkspaceID carries the workspace every request belongs to.
	HeaderWorkspaceID = "Vendor-Workspace-Id"
	// HeaderRequestID is the AWS request-id response header, surfaced as
	// PlatformRequestID when the gateway sends it. The variants
	// x-amzn-request-id and x-amz-request-id are read too.
	HeaderRequestID = "X-Amzn-Requestid"
)

// The environment variables the adapter reads when the matching option is
// not given. AWS_REGION and AWS_DEFAULT_REGION are read when the
// aws.Config has no region.
const (
	EnvAPIKey      = "VENDOR_AWS_API_KEY"
	EnvWorkspaceID = "VENDOR_AWS_WORKSPACE_ID"
	EnvBaseURL     = "VENDOR_AWS_BASE_URL"
)

// An Option configures the adapter.
type Option func(*adapter)

// APIKey authenticates with a gateway API key, sent as x-api-key, instead
// of SigV4. $VENDOR_AWS_API_KEY is used when no key is given.
func APIKey(key string) Option { return func(a *adapter) { a.apiKey = key } }

// Workspace sets the workspace id sent with every request (required;
// $VENDOR_AWS_WORKSPACE_ID is used when it is not given).
func Workspace(id string) Option { return func(a *adapter) { a.workspace = id } }

// WithConfig returns the client option that sends every call through the
// AWS gateway of cfg.Region. Without an API key, each attempt is signed
// with SigV4 using credentials retrieved from cfg.Credentials for that
// attempt (config.LoadDefaultConfig's provider caches them). A missing
// workspace id, region or credential makes mms.NewClient fail.
func WithConfig(cfg aws.Config, opts ...Option) option.RequestOption {
	a, err := newAdapter(cfg, opts)
	a.err = err // mms.NewClient returns it, from BaseURL
	return option.WithPlatform(a)
}

func newAdapter(cfg aws.Config, opts []Option) (*adapter, error) {
	a := &adapter{region: cfg.Region, creds: cfg.Credentials, now: time.Now}
	for _, o := range opts {
		if o != nil {
			o(a)
		}
	}
	return a, a.resolve()
}

// adapter implements platform.Adapter for the AWS gateway.
type adapter struct {
	region    string
	creds     aws.CredentialsProvider
	apiKey    string
	workspace string
	baseURL   string
	signer    *v4.Signer
	now       func() time.Time
	err       error // the configuration's problem, if any
}

// resolve fills what the options left out from the environment and
// checks the result.
func (a *adapter) resolve() error {
	if a.apiKey == "" {
		a.apiKey = os.Getenv(EnvAPIKey)
	}
	if a.workspace == "" {
		a.workspace = os.Getenv(EnvWorkspaceID)
	}
	if a.region == "" {
		a.region = cmp.Or(os.Getenv("AWS_REGION"), os.Getenv("AWS_DEFAULT_REGION"))
	}
	a.baseURL = os.Getenv(EnvBaseURL)
	switch {
	case strings.TrimSpace(a.workspace) == "":
		return fmt.Errorf("awsgateway: no workspace id: pass awsgateway.Workspace or set $%s", EnvWorkspaceID)
	case strings.ContainsAny(a.workspace, "\r\n\x00"):
		return errors.New("awsgateway: the workspace id contains a control character")
	case strings.ContainsAny(a.apiKey, "\r\n\x00"):
		return errors.New("awsgateway: the API key contains a control character")
	case a.apiKey != "":
		return nil
	case a.creds == nil:
		return fmt.Errorf("awsgateway: no credentials: pass awsgateway.APIKey, set $%s, or give the aws.Config credentials", EnvAPIKey)
	case a.region == "":
		return errors.New("awsgateway: no region to sign for: set the aws.Config region or $AWS_REGION")
	}
	a.signer = v4.NewSigner()
	return nil
}

func (a *adapter) Name() string { return Name }

// BaseURL is $VENDOR_AWS_BASE_URL, else the gateway of the region.
func (a *adapter) BaseURL() (string, error) {
	if a.err != nil {
		return "", a.err
	}
	if a.baseURL != "" {
		return a.baseURL, nil
	}
	if a.region == "" {
		return "", errors.New("awsgateway: no region: set the aws.Config region, $AWS_REGION or $" + EnvBaseURL)
	}
	if strings.ContainsAny(a.region, "/:@?#% ") {
		return "", fmt.Errorf("awsgateway: region %q is not a host name label", a.region)
	}
	return "https://" + SigningService + "." + a.region + ".api.aws", nil
}

func (a *adapter) RequestIDHeader() string { return HeaderRequestID }

// Prepare keeps the service's paths, bodies and limits; it adds the
// workspace header the gateway requires.
func (a *adapter) Prepare(r *platform.Request) error {
	r.Header.Set(HeaderWorkspaceID, a.workspace)
	return nil
}

// Authenticate sends the API key, or signs the attempt as it will be sent.
func (a *adapter) Authenticate(ctx context.Context, req *http.Request, body []byte) error {
	if a.apiKey != "" {
		req.Header.Set("X-Api-Key", a.apiKey)
		return nil
	}
	creds, err := a.creds.Retrieve(ctx)
	if err != nil {
		return fmt.Errorf("awsgateway: retrieving AWS credentials: %w", err)
	}
	hash := "UNSIGNED-PAYLOAD" // a streamed upload: its bytes are not known yet
	if body != nil || req.Body == nil || req.Body == http.NoBody {
		sum := sha256.Sum256(body)
		hash = hex.EncodeToString(sum[:])
	}
	req.Header.Set("X-Amz-Content-Sha256", hash)
	if err := a.signer.SignHTTP(ctx, creds, req, hash, SigningService, a.region, a.now()); err != nil {
		return fmt.Errorf("awsgateway: signing the request: %w", err)
	}
	return nil
}

// requestIDVariants are the other spellings AWS services use for the
// request-id header.
var requestIDVariants = []string{"X-Amzn-Request-Id", "X-Amz-Request-Id"}

// Response surfaces the AWS request id under one name and turns an error
// the AWS front end wrote itself ({"message"} with x-amzn-ErrorType: a
// refused signature, throttling) into the service's error body. The
// service's own answers pass unchanged.
func (a *adapter) Response(resp *http.Response, _ *platform.Request) (*http.Response, error) {
	if resp.Header.Get(HeaderRequestID) == "" {
		for _, v := range requestIDVariants {
			if id := resp.Header.Get(v); id != "" {
				resp.Header.Set(HeaderRequestID, id)
				break
			}
		}
	}
	awsType, _, _ := strings.Cut(resp.Header.Get("X-Amzn-Errortype"), ":")
	if awsType == "" {
		return resp, nil
	}
	return platform.TranslateError(resp, func(body []byte) (string, string, bool) {
		if platform.IsServiceError(body) {
			return "", "", false
		}
		var aws struct {
			Message  string `json:"message"`
			MessageC string `json:"Message"`
		}
		_ = json.Unmarshal(body, &aws) // a body of another shape keeps only the error type
		if msg := cmp.Or(aws.Message, aws.MessageC); msg != "" {
			return "", awsType + ": " + msg, true
		}
		return "", awsType, true
	})
}

// Interface check.
var _ platform.Adapter = (*adapter)(nil)
