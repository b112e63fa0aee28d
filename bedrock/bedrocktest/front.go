// Package bedrocktest puts Amazon Bedrock's wire in front of mmstest's fake
// service, so that the bedrock adapter, and programs using it, can be
// tested end to end with no AWS account:
//
//	front := bedrocktest.Front()
//	srv := mmstest.NewServer(mmstest.WithPlatform(front))
//	defer srv.Close()
//	client, err := mms.NewClient(bedrock.WithConfig(bedrocktest.Config()),
//		option.WithBaseURL(srv.URL), option.WithHTTPClient(srv.Client()))
//
// The front serves InvokeModel (POST /model/{model}/invoke) and
// InvokeModelWithResponseStream (…/invoke-with-response-stream), and
// Mantle's messages path (/vendor/v1/messages). It verifies each request's
// SigV4 signature by recomputing it with the AWS SDK's signer from the
// front's static credentials and the SHA-256 of the body received, or
// checks a bearer token; it applies InvokeModel's body rules and its
// 20 MB limit; then it rewrites the request into the service's shape
// (POST /v1/messages with model and stream), lets the fake answer, and
// translates the answer back: server-sent events into EventStream frames
// (chunk events with base64 payloads and valid CRCs, written by the AWS
// SDK's encoder), error bodies into {"message"} with x-amzn-ErrorType, and
// an x-amzn-RequestId on every answer. Mantle answers in the service's own
// shapes, with the request id added.
//
// This package does not import the SDK: it checks the SDK from outside.
package bedrocktest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/mms-sdk/mms-go/mmstest"
)

// The front's defaults: the static credentials it verifies signatures
// with, and its region.
const (
	AccessKeyID     = "AKIDBEDROCKTEST0001"
	SecretAccessKey = "bedrocktest/secret/access/key"
	SessionToken    = "bedrocktest-session-token"
	Region          = "us-east-1"
	// MaxBodySize is InvokeModel's body limit: 20 MB as 20,000,000 bytes.
	MaxBodySize = 20_000_000
)

// Names the spec writes as <vendor>: Mantle's path prefix.
const vendor = "vendor"

// SigV4 service names of the two variants.
const (
	serviceInvoke = "bedrock"
	serviceMantle = "bedrock-mantle"
)

// Config returns an aws.Config for the front: its Region and its static
// credentials (with a session token), as config.LoadDefaultConfig would
// load them.
func Config() aws.Config {
	return aws.Config{
		Region: Region,
		Credentials: aws.NewCredentialsCache(aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: AccessKeyID, SecretAccessKey: SecretAccessKey, SessionToken: SessionToken, Source: "bedrocktest"}, nil
		})),
	}
}

// Option configures Front.
type Option func(*Server)

// WithCredentials verifies signatures with creds instead of the defaults.
func WithCredentials(creds aws.Credentials) Option {
	return func(s *Server) { s.creds = creds }
}

// WithBearerTokens accepts these Bedrock API keys as bearer tokens. With
// none (the default), bearer tokens are refused.
func WithBearerTokens(tokens ...string) Option {
	return func(s *Server) {
		for _, t := range tokens {
			s.tokens[t] = true
		}
	}
}

// WithRegion sets the region signatures must be scoped to.
func WithRegion(region string) Option {
	return func(s *Server) { s.region = region }
}

// Server is the Bedrock front; it implements mmstest.PlatformFront. It is
// safe for concurrent use.
type Server struct {
	creds  aws.Credentials
	tokens map[string]bool
	region string
	signer *v4.Signer

	mu         sync.Mutex
	attempts   []Attempt
	failures   []failure
	exceptions []exception
}

// Attempt is one request the front received, as it arrived.
type Attempt struct {
	Method string
	Path   string // escaped, as sent
	// Service is "bedrock" (InvokeModel) or "bedrock-mantle"; "" for a
	// path the front does not serve.
	Service string
	// Auth is "sigv4", "bearer" or "" (none).
	Auth string
	// Date and Signature are the SigV4 X-Amz-Date and signature.
	Date, Signature string
	BodySize        int64
	Header          http.Header
}

type failure struct {
	status             int
	exception, message string
}

type exception struct {
	after              int
	exception, message string
}

var _ mmstest.PlatformFront = (*Server)(nil)

// Front returns a Bedrock front for mmstest.WithPlatform.
func Front(opts ...Option) *Server {
	s := &Server{
		creds:  aws.Credentials{AccessKeyID: AccessKeyID, SecretAccessKey: SecretAccessKey, SessionToken: SessionToken},
		tokens: map[string]bool{},
		region: Region,
		signer: v4.NewSigner(),
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Attempts returns the requests received so far, in order.
func (s *Server) Attempts() []Attempt {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Attempt(nil), s.attempts...)
}

// FailNext answers the next authenticated request with status and the
// exception (e.g. 503, "ServiceUnavailableException") instead of passing
// it on; each call fails one more request. Mantle answers in the
// service's error shape.
func (s *Server) FailNext(status int, exception, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = append(s.failures, failure{status, exception, message})
}

// ExceptionAfter makes the next InvokeModelWithResponseStream send an
// exception frame (e.g. "throttlingException") after that many chunk
// events and end there.
func (s *Server) ExceptionAfter(events int, exceptionType, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exceptions = append(s.exceptions, exception{events, exceptionType, message})
}

// ServePlatform implements mmstest.PlatformFront.
func (s *Server) ServePlatform(w http.ResponseWriter, r *http.Request, service http.Handler) {
	w.Header().Set("X-Amzn-Requestid", newRequestID())
	path := r.URL.EscapedPath()
	at := Attempt{Method: r.Method, Path: path, Header: r.Header.Clone()}
	mantlePrefix := "/" + vendor + "/v1/"
	switch {
	case strings.HasPrefix(path, "/model/"):
		at.Service = serviceInvoke
	case strings.HasPrefix(path, mantlePrefix):
		at.Service = serviceMantle
	}
	// InvokeModel's limit comes first: a larger body is not read further.
	limit := int64(MaxBodySize)
	if at.Service != serviceInvoke {
		limit = 1 << 30 // Mantle: the service applies its own limit
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	at.BodySize = int64(len(body))
	if auth := r.Header.Get("Authorization"); strings.HasPrefix(auth, "Bearer ") {
		at.Auth = "bearer"
	} else if strings.HasPrefix(auth, sigV4Algorithm+" ") {
		at.Auth = "sigv4"
		at.Date = r.Header.Get("X-Amz-Date")
		_, _, at.Signature = parseAuthorization(auth)
	}
	s.mu.Lock()
	s.attempts = append(s.attempts, at)
	s.mu.Unlock()

	switch {
	case err != nil:
		writeAWSError(w, http.StatusBadRequest, "ValidationException", "the request body could not be read")
		return
	case at.Service == "":
		writeAWSError(w, http.StatusNotFound, "UnknownOperationException", "no operation at "+path)
		return
	case int64(len(body)) > limit:
		writeAWSError(w, http.StatusRequestEntityTooLarge, "ValidationException",
			fmt.Sprintf("Input is too long: the request body exceeds %d bytes", MaxBodySize))
		return
	}
	if status, exc, msg := s.authenticate(r, body, at.Service); status != 0 {
		s.refuse(w, at.Service, status, exc, msg)
		return
	}
	if f, ok := s.nextFailure(); ok {
		s.refuse(w, at.Service, f.status, f.exception, f.message)
		return
	}
	if at.Service == serviceMantle {
		s.serveMantle(w, r, body, service)
		return
	}
	s.serveInvoke(w, r, body, service)
}

func (s *Server) nextFailure() (failure, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.failures) == 0 {
		return failure{}, false
	}
	f := s.failures[0]
	s.failures = s.failures[1:]
	return f, true
}

func (s *Server) nextException() *exception {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.exceptions) == 0 {
		return nil
	}
	e := s.exceptions[0]
	s.exceptions = s.exceptions[1:]
	return &e
}

// refuse answers an error in the variant's shape.
func (s *Server) refuse(w http.ResponseWriter, svc string, status int, exc, msg string) {
	if svc == serviceMantle {
		writeServiceError(w, status, vendorErrorType(status), msg)
		return
	}
	writeAWSError(w, status, exc, msg)
}

const sigV4Algorithm = "AWS4-HMAC-SHA256"

// authenticate checks the bearer token or recomputes the SigV4 signature
// with the AWS signer; a refusal returns its status, exception and message.
func (s *Server) authenticate(r *http.Request, body []byte, svc string) (int, string, string) {
	auth := r.Header.Get("Authorization")
	if tok, ok := strings.CutPrefix(auth, "Bearer "); ok {
		if !s.tokens[tok] {
			return http.StatusForbidden, "UnrecognizedClientException", "The security token included in the request is invalid."
		}
		return 0, "", ""
	}
	if !strings.HasPrefix(auth, sigV4Algorithm+" ") {
		return http.StatusForbidden, "MissingAuthenticationTokenException", "Missing Authentication Token"
	}
	scope, signed, _ := parseAuthorization(auth)
	parts := strings.Split(scope, "/") // key/date/region/service/aws4_request
	if len(parts) != 5 || parts[0] != s.creds.AccessKeyID {
		return http.StatusForbidden, "UnrecognizedClientException", "The security token included in the request is invalid."
	}
	if parts[2] != s.region || parts[3] != svc || parts[4] != "aws4_request" {
		return http.StatusForbidden, "InvalidSignatureException",
			fmt.Sprintf("Credential should be scoped to a valid region %s and service %s", s.region, svc)
	}
	if s.creds.SessionToken != "" && r.Header.Get("X-Amz-Security-Token") != s.creds.SessionToken {
		return http.StatusForbidden, "UnrecognizedClientException", "The security token included in the request is invalid."
	}
	date, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil || date.Format("20060102") != parts[1] {
		return http.StatusForbidden, "IncompleteSignatureException", "X-Amz-Date is missing or does not match the credential scope"
	}
	// Recompute over what arrived: the signed headers, the path and query
	// as sent, and the hash of the body received.
	re, _ := http.NewRequestWithContext(r.Context(), r.Method, "https://"+r.Host+"/", nil)
	re.URL.Path, re.URL.RawPath, re.URL.RawQuery = r.URL.Path, r.URL.RawPath, r.URL.RawQuery
	re.Host = r.Host
	for _, h := range strings.Split(signed, ";") {
		switch h {
		case "host", "x-amz-date", "x-amz-security-token":
		case "content-length":
			re.ContentLength = r.ContentLength
		default:
			re.Header[http.CanonicalHeaderKey(h)] = r.Header.Values(h)
		}
	}
	sum := sha256.Sum256(body)
	if err := s.signer.SignHTTP(r.Context(), s.creds, re, hex.EncodeToString(sum[:]), svc, s.region, date); err != nil {
		return http.StatusForbidden, "InvalidSignatureException", "the signature could not be computed"
	}
	if re.Header.Get("Authorization") != auth {
		return http.StatusForbidden, "InvalidSignatureException",
			"The request signature we calculated does not match the signature you provided."
	}
	return 0, "", ""
}

// parseAuthorization splits a SigV4 Authorization header.
func parseAuthorization(auth string) (scope, signedHeaders, signature string) {
	rest := strings.TrimPrefix(auth, sigV4Algorithm+" ")
	for _, part := range strings.Split(rest, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "Credential":
			scope = v
		case "SignedHeaders":
			signedHeaders = v
		case "Signature":
			signature = v
		}
	}
	return scope, signedHeaders, signature
}

// newRequestID returns an AWS-style request id (a random UUID).
func newRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read does not fail
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
