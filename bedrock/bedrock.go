// Package bedrock makes an [mms.Client] talk to the service's models on
// Amazon Bedrock: InvokeModel and InvokeModelWithResponseStream, or the
// Mantle endpoint, which takes the service's own paths.
//
//	cfg, err := config.LoadDefaultConfig(ctx) // github.com/aws/aws-sdk-go-v2/config: profiles, env, SSO, IMDS, web identity
//	if err != nil {
//		return err
//	}
//	client, err := mms.NewClient(bedrock.WithConfig(cfg))
//	if err != nil {
//		return err
//	}
//	msg, err := client.Messages.Create(ctx, mms.MessageCreateParams{
//		Model:     "vendor.model-20250101-v1:0",
//		MaxTokens: 1024,
//		Messages:  []mms.MessageParam{mms.UserText("Hello")},
//	})
//
// Each attempt is signed with AWS Signature Version 4 (service "bedrock",
// or "bedrock-mantle" for Mantle) with credentials retrieved from
// cfg.Credentials for that attempt, so a retry carries a fresh signature.
// A Bedrock API key (bearer token) replaces signing: [BearerToken], else
// $AWS_BEARER_TOKEN_BEDROCK (and, for Mantle only, $VENDOR_AWS_API_KEY),
// in that order, before cfg's credentials.
//
// The region is cfg.Region. The base URL is
// https://bedrock-runtime.{region}.amazonaws.com ($VENDOR_BEDROCK_BASE_URL
// overrides it), for Mantle https://bedrock-mantle.{region}.api.aws/vendor
// ($VENDOR_BEDROCK_MANTLE_BASE_URL); option.WithBaseURL overrides both.
//
// InvokeModel offers Messages only (create and stream): count_tokens,
// Message Batches, Models, Files, Skills and the other endpoints fail
// before sending with a *platform.UnsupportedError. Its body limit is
// 20 MB (20,000,000 bytes). Mantle offers Messages only as well, with the
// service's own limit.
package bedrock

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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

// Names the spec writes as <vendor>: the Mantle path prefix.
const vendor = "vendor"

// Wire constants of the two variants.
const (
	// Version is the vendor_version body member InvokeModel requires,
	// added when the body lacks one.
	Version = "bedrock-2023-05-31"
	// SigningService and MantleSigningService are the SigV4 service names.
	SigningService       = "bedrock"
	MantleSigningService = "bedrock-mantle"
	// MaxBodySize is InvokeModel's request body limit: 20 MB, read as
	// 20,000,000 bytes (the stricter reading of "MB").
	MaxBodySize = 20_000_000
	// RequestIDHeader is the header of AWS's own request id.
	RequestIDHeader = "X-Amzn-Requestid"
)

// Environment variables the adapter reads when WithConfig is called.
const (
	EnvBearerToken   = "AWS_BEARER_TOKEN_BEDROCK"
	EnvAPIKey        = "VENDOR_AWS_API_KEY" // Mantle only, after EnvBearerToken
	EnvBaseURL       = "VENDOR_BEDROCK_BASE_URL"
	EnvMantleBaseURL = "VENDOR_BEDROCK_MANTLE_BASE_URL"
)

// Option configures WithConfig.
type Option func(*settings)

type settings struct {
	bearer    string
	bearerSet bool
	mantle    bool
}

// BearerToken authenticates with a Bedrock API key sent as
// "Authorization: Bearer", instead of signing with cfg's credentials. It
// takes precedence over $AWS_BEARER_TOKEN_BEDROCK.
func BearerToken(token string) Option {
	return func(s *settings) { s.bearer, s.bearerSet = token, true }
}

// Mantle selects the Mantle endpoint: the service's own paths under
// https://bedrock-mantle.{region}.api.aws/vendor, SigV4 service
// "bedrock-mantle" (or a bearer token), server-sent events as direct.
func Mantle() Option {
	return func(s *settings) { s.mantle = true }
}

// WithConfig makes mms.NewClient talk to Amazon Bedrock with cfg's region
// and credentials. A configuration that cannot work (no region, no
// credentials, an empty bearer token) is an error from mms.NewClient, or,
// with option.WithBaseURL, from each call.
func WithConfig(cfg aws.Config, opts ...Option) option.RequestOption {
	return option.WithPlatform(newAdapter(cfg, os.Getenv, time.Now, opts))
}

// adapter implements platform.Adapter for both variants.
type adapter struct {
	mantle  bool
	region  string
	baseURL string
	bearer  string // a secret: never in an error
	creds   aws.CredentialsProvider
	signer  *v4.Signer
	now     func() time.Time
	err     error // the configuration's defect, returned by BaseURL and Authenticate
}

func newAdapter(cfg aws.Config, getenv func(string) string, now func() time.Time, opts []Option) *adapter {
	var s settings
	for _, o := range opts {
		if o != nil {
			o(&s)
		}
	}
	a := &adapter{mantle: s.mantle, region: cfg.Region, creds: cfg.Credentials, now: now,
		signer: v4.NewSigner(func(o *v4.SignerOptions) { o.Logger = cfg.Logger })}
	switch {
	case s.bearerSet:
		a.bearer = s.bearer
		if strings.TrimSpace(s.bearer) == "" {
			a.err = errors.New("bedrock: BearerToken: the token is empty")
		}
	case getenv(EnvBearerToken) != "":
		a.bearer = getenv(EnvBearerToken)
	case s.mantle && getenv(EnvAPIKey) != "":
		a.bearer = getenv(EnvAPIKey)
	case cfg.Credentials == nil:
		a.err = errors.New("bedrock: no credentials: the aws.Config has no Credentials provider and neither a bearer token nor $" + EnvBearerToken + " is set")
	}
	if a.err == nil {
		a.err = validRegion(cfg.Region)
	}
	if a.err == nil {
		a.baseURL = a.defaultBaseURL(getenv)
	}
	return a
}

// validRegion refuses a region that is empty or could not be a host label.
func validRegion(region string) error {
	if region == "" {
		return errors.New("bedrock: the aws.Config has no Region (set AWS_REGION or a profile's region)")
	}
	for _, c := range region {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return fmt.Errorf("bedrock: region %q is not a valid AWS region name", region)
		}
	}
	return nil
}

func (a *adapter) defaultBaseURL(getenv func(string) string) string {
	if a.mantle {
		if u := getenv(EnvMantleBaseURL); u != "" {
			return u
		}
		return "https://bedrock-mantle." + a.region + ".api.aws/" + vendor
	}
	if u := getenv(EnvBaseURL); u != "" {
		return u
	}
	return "https://bedrock-runtime." + a.region + ".amazonaws.com"
}

func (a *adapter) Name() string {
	if a.mantle {
		return "Amazon Bedrock (Mantle)"
	}
	return "Amazon Bedrock"
}

func (a *adapter) BaseURL() (string, error) { return a.baseURL, a.err }

func (a *adapter) RequestIDHeader() string { return RequestIDHeader }

// Authenticate signs the attempt with SigV4 over the exact body, or sets
// the bearer token. It runs once per attempt, so each gets a fresh
// X-Amz-Date and signature, and credentials the provider may have renewed.
func (a *adapter) Authenticate(ctx context.Context, req *http.Request, body []byte) error {
	if a.err != nil {
		return a.err
	}
	if a.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+a.bearer)
		return nil
	}
	creds, err := a.creds.Retrieve(ctx)
	if err != nil {
		return fmt.Errorf("bedrock: retrieving AWS credentials: %w", err)
	}
	service := SigningService
	if a.mantle {
		service = MantleSigningService
	}
	// A previous attempt's signature must not be signed over.
	for _, h := range []string{"Authorization", "X-Amz-Date", "X-Amz-Security-Token"} {
		req.Header.Del(h)
	}
	sum := sha256.Sum256(body)
	if err := a.signer.SignHTTP(ctx, creds, req, hex.EncodeToString(sum[:]), service, a.region, a.now().UTC()); err != nil {
		return fmt.Errorf("bedrock: signing the request: %w", err)
	}
	return nil
}

// Interface check.
var _ platform.Adapter = (*adapter)(nil)
