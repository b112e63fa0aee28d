// Package platform is the seam through which a partner or cloud platform
// adapter makes an [mms.Client] talk to that platform: Amazon Bedrock,
// Google Vertex AI, the cloud gateways of the service. Each adapter lives
// in its own module (github.com/mms-sdk/mms-go/bedrock, …) and hands the
// client an [Adapter] through option.WithPlatform, so that only programs
// that use a platform link its cloud SDK.
//
// Programs do not use this package: they pass the adapter's option
// (bedrock.WithConfig, vertex.WithProject, …) to mms.NewClient. Typed
// services, streaming, retries, rate limiting, middleware and logging work
// as against the service itself.
//
// What the client does with an adapter, for each call:
//
//  1. Prepare, once, before anything is sent: the adapter maps the call
//     (its Endpoint, Model and Stream come from the typed params) onto the
//     platform's path, query, headers and body members, sets the platform's
//     body size limit, or refuses an endpoint the platform lacks
//     (*UnsupportedError). The client then edits the encoded body and
//     checks the limit; a refused call sends nothing.
//  2. For each attempt, the program's middleware sees the request in the
//     service's own shape; then the client puts on the platform's URL,
//     headers and body, and calls Authenticate last, so that a signature
//     or a token is fresh on every retry.
//  3. Response translates each answer into the service's shape (a
//     stream's framing into server-sent events, an error body into the
//     service's error body) before the client reads it.
package platform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
)

// Adapter maps a client's requests onto one platform. The client calls it
// from many goroutines at once.
type Adapter interface {
	// Name names the platform in errors, e.g. "Amazon Bedrock".
	Name() string
	// BaseURL returns the platform's base URL, used unless the program
	// sets one with option.WithBaseURL, or the reason the adapter's
	// configuration cannot work (mms.NewClient returns it).
	BaseURL() (string, error)
	// RequestIDHeader names the platform's own request-id response header
	// (e.g. "X-Amzn-Requestid"), surfaced next to request-id in
	// ResponseMetadata and *mms.Error; "" if it has none.
	RequestIDHeader() string
	// Prepare maps one call onto the platform. It runs once per call,
	// before anything is sent.
	Prepare(r *Request) error
	// Authenticate adds the platform's credential to one attempt: the
	// last change before it is sent, once per attempt. body is the exact
	// body sent: empty for none, nil for a streamed upload (a file),
	// whose bytes are not in memory.
	Authenticate(ctx context.Context, req *http.Request, body []byte) error
	// Response translates an answer (any status) into the service's
	// shape. It may return resp as it is.
	Response(resp *http.Response, r *Request) (*http.Response, error)
}

// Endpoint says what a call is, independently of its path.
type Endpoint string

// The endpoints adapters tell apart. Everything else (the managed-agents
// resources, calls made with client.Do to other paths) is Other.
const (
	Messages    Endpoint = "messages"              // POST /v1/messages, streaming or not
	CountTokens Endpoint = "messages.count_tokens" // POST /v1/messages/count_tokens
	Batches     Endpoint = "messages.batches"      // /v1/messages/batches…
	Models      Endpoint = "models"                // /v1/models…
	Files       Endpoint = "files"                 // /v1/files…
	Skills      Endpoint = "skills"                // /v1/skills…
	Other       Endpoint = "other"
)

// Request is one call as Prepare sees and changes it.
type Request struct {
	// Endpoint is what the call is.
	Endpoint Endpoint
	// Method is the HTTP method.
	Method string
	// Path is the escaped path below the base URL ("/v1/messages");
	// Prepare may replace it ("/model/m/invoke").
	Path string
	// Query is the query; Prepare may change it. Never nil.
	Query url.Values
	// Header holds the headers the service would get (vendor-version,
	// vendor-beta, content type; no credential: adapters authenticate);
	// Prepare may change it.
	Header http.Header
	// Model and Stream come from the typed params of a Messages call
	// (create, stream, count_tokens); Model is "" for other calls.
	Model  string
	Stream bool
	// Betas are the call's beta names, as in the vendor-beta header.
	Betas []string
	// HasJSONBody says the body is a JSON object the client can edit
	// (SetMember, DeleteMember); false for no body and for uploads.
	HasJSONBody bool
	// MaxBodySize is the body size limit the client enforces before
	// sending: the service's own for the endpoint unless Prepare lowers it.
	MaxBodySize int64

	edits []memberEdit
}

// memberEdit is one change to the body's top-level members.
type memberEdit struct {
	name     string
	value    json.RawMessage // nil: delete
	ifAbsent bool
}

// SetMember sets the body's top-level member name to value (JSON),
// replacing it if present.
func (r *Request) SetMember(name string, value json.RawMessage) {
	r.edits = append(r.edits, memberEdit{name: name, value: value})
}

// SetDefaultMember adds the member name with value unless the body has it.
func (r *Request) SetDefaultMember(name string, value json.RawMessage) {
	r.edits = append(r.edits, memberEdit{name: name, value: value, ifAbsent: true})
}

// DeleteMember removes the body's top-level member name.
func (r *Request) DeleteMember(name string) {
	r.edits = append(r.edits, memberEdit{name: name})
}

// Edit is one change to the body, as the client applies it.
type Edit struct {
	Name string
	// Value is the member's JSON; nil removes the member.
	Value json.RawMessage
	// IfAbsent adds the member only when the body lacks it.
	IfAbsent bool
}

// Edits returns the body changes asked for, in order. The client applies
// them; adapters and their tests may read them.
func (r *Request) Edits() []Edit {
	out := make([]Edit, len(r.edits))
	for i, e := range r.edits {
		out[i] = Edit{Name: e.name, Value: e.value, IfAbsent: e.ifAbsent}
	}
	return out
}

// ErrUnsupported matches every *UnsupportedError.
var ErrUnsupported = errors.New("mms: not supported on this platform")

// UnsupportedError refuses a call the platform does not offer (Message
// Batches on Bedrock, …). Nothing was sent.
type UnsupportedError struct {
	Platform string
	Endpoint Endpoint
	Method   string
	Path     string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("mms: %s does not offer %s %s (%s); nothing was sent", e.Platform, e.Method, e.Path, e.Endpoint)
}

// Is makes errors.Is(err, ErrUnsupported) true.
func (e *UnsupportedError) Is(target error) bool { return target == ErrUnsupported }

// EndpointOf returns the endpoint of a service path.
func EndpointOf(method, path string) Endpoint {
	switch {
	case path == "/v1/messages" && method == http.MethodPost:
		return Messages
	case path == "/v1/messages/count_tokens":
		return CountTokens
	case hasPathPrefix(path, "/v1/messages/batches"):
		return Batches
	case hasPathPrefix(path, "/v1/models"):
		return Models
	case hasPathPrefix(path, "/v1/files"):
		return Files
	case hasPathPrefix(path, "/v1/skills"):
		return Skills
	}
	return Other
}

// hasPathPrefix reports whether path is prefix or below it.
func hasPathPrefix(path, prefix string) bool {
	return path == prefix || len(path) > len(prefix) && path[:len(prefix)] == prefix && path[len(prefix)] == '/'
}
