// Package awsgatewaytest puts the AWS gateway's wire in front of the
// mmstest fake, so the awsgateway adapter can be tested end to end with no
// AWS account:
//
//	creds := aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "secret"}
//	front := &awsgatewaytest.Front{Region: "us-east-1", Credentials: []aws.Credentials{creds}}
//	srv := mmstest.NewServer(mmstest.WithPlatform(front))
//	defer srv.Close()
//
// The front checks what the gateway checks: a vendor-workspace-id header,
// and an x-api-key it knows or a SigV4 signature it recomputes with the
// AWS SDK's own signer. Paths, bodies and streams are the service's own.
package awsgatewaytest

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/platform"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// The names the front uses, as the awsgateway adapter does.
const (
	SigningService    = "aws-external-vendor"
	HeaderWorkspaceID = "Vendor-Workspace-Id"
	HeaderRequestID   = "X-Amzn-Requestid"
)

// MaxClockSkew is how far a signature's time may be from the front's
// clock, as on AWS.
const MaxClockSkew = 15 * time.Minute

// Front is the AWS gateway in front of the fake. Set its fields before the
// server starts; its methods are safe for concurrent use.
type Front struct {
	// Region is the region signatures must be made for.
	Region string
	// Credentials are the AWS credentials the front accepts signatures
	// from, matched by access key id and session token.
	Credentials []aws.Credentials
	// APIKeys are the gateway API keys accepted in x-api-key.
	APIKeys []string
	// Workspace, when set, is the only workspace id accepted; otherwise
	// any non-empty id is.
	Workspace string

	mu    sync.Mutex
	fail  []int
	auths []string
	ids   int
}

// FailNext answers the next authenticated requests, one per status, with
// that status instead of passing them to the service: 529 as the service's
// overloaded error, any other status as the AWS front end's own error
// ({"message"} with x-amzn-ErrorType).
func (f *Front) FailNext(statuses ...int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail = append(f.fail, statuses...)
}

// Authorizations returns the credential of every request the front
// authenticated, in order: the SigV4 Authorization header, or "x-api-key".
func (f *Front) Authorizations() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.auths)
}

// ServePlatform implements mmstest.PlatformFront.
func (f *Front) ServePlatform(w http.ResponseWriter, r *http.Request, service http.Handler) {
	f.mu.Lock()
	f.ids++
	id := fmt.Sprintf("aws-req-%08d", f.ids)
	f.mu.Unlock()
	w.Header().Set(HeaderRequestID, id)

	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeAWSError(w, http.StatusBadRequest, "SerializationException", "the request body could not be read")
		return
	}
	auth, status, errType, msg := f.authenticate(r, body)
	if status != 0 {
		writeAWSError(w, status, errType, msg)
		return
	}
	switch ws := r.Header.Get(HeaderWorkspaceID); {
	case ws == "":
		writeServiceError(w, http.StatusBadRequest, "invalid_request_error", "vendor-workspace-id: header is required")
		return
	case f.Workspace != "" && ws != f.Workspace:
		writeServiceError(w, http.StatusForbidden, "permission_error", "the credential has no access to this workspace")
		return
	}
	f.mu.Lock()
	f.auths = append(f.auths, auth)
	var injected int
	if len(f.fail) > 0 {
		injected, f.fail = f.fail[0], f.fail[1:]
	}
	f.mu.Unlock()
	switch {
	case injected == 529:
		writeServiceError(w, injected, "overloaded_error", "Overloaded")
		return
	case injected != 0:
		writeAWSError(w, injected, "ServiceUnavailableException", http.StatusText(injected))
		return
	}

	r2 := r.Clone(r.Context())
	for _, h := range []string{"Authorization", "X-Api-Key", "X-Amz-Date", "X-Amz-Security-Token", "X-Amz-Content-Sha256", HeaderWorkspaceID} {
		r2.Header.Del(h)
	}
	r2.Body = io.NopCloser(bytes.NewReader(body))
	service.ServeHTTP(w, r2)
}

// authenticate checks the request's x-api-key or SigV4 signature. It
// returns the credential's record, or an AWS error to answer.
func (f *Front) authenticate(r *http.Request, body []byte) (auth string, status int, errType, msg string) {
	if keys, ok := r.Header["X-Api-Key"]; ok {
		if len(keys) != 1 || !oneOf(keys[0], f.APIKeys) {
			return "", http.StatusForbidden, "ForbiddenException", "Invalid API key"
		}
		return "x-api-key", 0, "", ""
	}
	authz := r.Header.Get("Authorization")
	if authz == "" {
		return "", http.StatusForbidden, "MissingAuthenticationTokenException", "Missing Authentication Token"
	}
	if err := f.verify(r, authz, body); err != nil {
		return "", http.StatusForbidden, "InvalidSignatureException", err.Error()
	}
	return authz, 0, "", ""
}

// verify recomputes the request's SigV4 signature with the AWS signer
// over the headers it names and compares the Authorization headers.
func (f *Front) verify(r *http.Request, authz string, body []byte) error {
	const algo = "AWS4-HMAC-SHA256 "
	if !strings.HasPrefix(authz, algo) {
		return fmt.Errorf("not a SigV4 signature")
	}
	fields := map[string]string{}
	for _, part := range strings.Split(authz[len(algo):], ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		fields[k] = v
	}
	scope := strings.Split(fields["Credential"], "/")
	if len(scope) != 5 || scope[4] != "aws4_request" {
		return fmt.Errorf("malformed credential scope")
	}
	if scope[2] != f.Region || scope[3] != SigningService {
		return fmt.Errorf("credential should be scoped to region %q and service %q", f.Region, SigningService)
	}
	signedAt, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil {
		return fmt.Errorf("missing or malformed X-Amz-Date")
	}
	if d := time.Since(signedAt); d > MaxClockSkew || d < -MaxClockSkew {
		return fmt.Errorf("signature expired or not yet valid")
	}
	creds, ok := f.credentials(scope[0], r.Header.Get("X-Amz-Security-Token"))
	if !ok {
		return fmt.Errorf("the security token included in the request is invalid")
	}
	hash := r.Header.Get("X-Amz-Content-Sha256")
	if hash != "UNSIGNED-PAYLOAD" {
		hash = sha256Hex(body)
	}
	u := *r.URL
	u.Scheme, u.Host = "http", r.Host
	again, err := http.NewRequest(r.Method, u.String(), nil)
	if err != nil {
		return fmt.Errorf("malformed request target")
	}
	for _, name := range strings.Split(fields["SignedHeaders"], ";") {
		switch name {
		case "host":
		case "content-length": // the signer signs it from ContentLength
			again.ContentLength = int64(len(body))
		default:
			again.Header[http.CanonicalHeaderKey(name)] = r.Header.Values(name)
		}
	}
	if err := v4.NewSigner().SignHTTP(r.Context(), creds, again, hash, SigningService, f.Region, signedAt); err != nil {
		return fmt.Errorf("signature could not be recomputed")
	}
	if subtle.ConstantTimeCompare([]byte(again.Header.Get("Authorization")), []byte(authz)) != 1 {
		return fmt.Errorf("the request signature we calculated does not match the signature you provided")
	}
	return nil
}

// credentials finds the accepted credentials for an access key id and
// session token.
func (f *Front) credentials(keyID, token string) (aws.Credentials, bool) {
	for _, c := range f.Credentials {
		if c.AccessKeyID == keyID && c.SessionToken == token {
			return c, true
		}
	}
	return aws.Credentials{}, false
}

// oneOf reports whether secret is one of accepted, in constant time per
// candidate. An empty secret never matches.
func oneOf(secret string, accepted []string) bool {
	found := 0
	for _, a := range accepted {
		found |= subtle.ConstantTimeCompare([]byte(secret), []byte(a))
	}
	return secret != "" && found == 1
}

// writeAWSError answers as the AWS front end does: {"message"} with the
// error's type in x-amzn-ErrorType.
func writeAWSError(w http.ResponseWriter, status int, errType, msg string) {
	w.Header().Set("X-Amzn-Errortype", errType)
	writeJSON(w, status, map[string]string{"message": msg})
}

// writeServiceError answers with the service's error body.
func writeServiceError(w http.ResponseWriter, status int, errType, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(platform.ErrorBody(errType, msg))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
