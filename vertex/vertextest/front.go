package vertextest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/vertex"
)

// The project and region the front serves unless WithProject says
// otherwise.
const (
	Project = "mms-test-project"
	Region  = "us-east5"
)

// Attempt is one request the front received.
type Attempt struct {
	// Path is the escaped Vertex path asked for.
	Path string
	// Token is the bearer token sent ("" for none).
	Token string
	// Status is the front's refusal status, or 0 when the request went on
	// to the service.
	Status int
}

// Frontend is Vertex AI's front end before mmstest's fake service. It is
// safe for concurrent use.
type Frontend struct {
	tokens          *TokenSource
	project, region string
	expireOnFailure bool

	mu       sync.Mutex
	failures []int
	attempts []Attempt
}

// FrontOption configures Front.
type FrontOption func(*Frontend)

// WithProject makes the front serve project in region instead of Project
// in Region; other projects and regions are 404 NOT_FOUND.
func WithProject(region, project string) FrontOption {
	return func(f *Frontend) { f.region, f.project = region, project }
}

// WithExpireOnFailure makes every failure injected with FailNext also
// expire the token of the failed request, so that a retry must carry a new
// one.
func WithExpireOnFailure() FrontOption {
	return func(f *Frontend) { f.expireOnFailure = true }
}

// Front returns Vertex AI's front end, accepting the access tokens of
// tokens. Use it with mmstest.WithPlatform.
//
// It serves POST {model}:rawPredict, {model}:streamRawPredict and
// count-tokens:rawPredict under
// /v1/projects/{project}/locations/{region}/publishers/vendor/models/ and
// checks, in order: the bearer token (401), the path (404), the 30 MB body
// limit (413), then the body rules: a JSON object with vendor_version
// "vertex-2023-10-16", no model for rawPredict and streamRawPredict, stream
// true exactly for streamRawPredict, no query (400). Its refusals come in
// Google's error envelope; everything else is rewritten into the service's
// request and the service's answer (errors and event streams included)
// passes through unchanged.
func Front(tokens *TokenSource, opts ...FrontOption) *Frontend {
	f := &Frontend{tokens: tokens, project: Project, region: Region}
	for _, o := range opts {
		o(f)
	}
	return f
}

// The front is an mmstest.PlatformFront.
var _ mmstest.PlatformFront = (*Frontend)(nil)

// FailNext answers the next requests that pass authentication, one per
// status, with that status in Google's error envelope (503 UNAVAILABLE, …).
func (f *Frontend) FailNext(statuses ...int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failures = append(f.failures, statuses...)
}

// Attempts returns the requests received so far, in order.
func (f *Frontend) Attempts() []Attempt {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Attempt(nil), f.attempts...)
}

// Tokens returns the bearer token of each request received, in order.
func (f *Frontend) Tokens() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, len(f.attempts))
	for i, a := range f.attempts {
		out[i] = a.Token
	}
	return out
}

// ServePlatform implements mmstest.PlatformFront.
func (f *Frontend) ServePlatform(w http.ResponseWriter, r *http.Request, service http.Handler) {
	token, hasBearer := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	at := f.record(Attempt{Path: r.URL.EscapedPath(), Token: token})
	refuse := func(status int, message string) {
		// Read what is left of the body first, so that the client sees the
		// answer rather than a reset connection.
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, vertex.MaxBodySize+1))
		f.mu.Lock()
		f.attempts[at].Status = status
		f.mu.Unlock()
		WriteError(w, status, message)
	}

	if !hasBearer || token == "" {
		refuse(http.StatusUnauthorized, "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.")
		return
	}
	if why := f.tokens.check(token); why != "" {
		refuse(http.StatusUnauthorized, why)
		return
	}
	if status, ok := f.takeFailure(); ok {
		if f.expireOnFailure {
			f.tokens.expire(token)
		}
		refuse(status, "The service is currently unavailable.")
		return
	}

	model, method, why := f.route(r)
	if why != "" {
		refuse(http.StatusNotFound, why)
		return
	}
	if r.ContentLength > vertex.MaxBodySize {
		refuse(http.StatusRequestEntityTooLarge, tooLarge)
		return
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, vertex.MaxBodySize))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		refuse(http.StatusRequestEntityTooLarge, tooLarge)
		return
	case err != nil:
		refuse(http.StatusBadRequest, "The request body could not be read.")
		return
	}
	body, path, why := rewrite(raw, r.URL.RawQuery, model, method)
	if why != "" {
		refuse(http.StatusBadRequest, why)
		return
	}

	out := r.Clone(r.Context())
	out.URL.Path, out.URL.RawPath, out.URL.RawQuery = path, "", ""
	out.RequestURI = path
	out.Header.Del("Authorization")
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	out.Header.Set("Content-Length", strconv.Itoa(len(body)))
	service.ServeHTTP(w, out)
}

const tooLarge = "Request payload size exceeds the limit: 30000000 bytes."

func (f *Frontend) record(a Attempt) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.attempts = append(f.attempts, a)
	return len(f.attempts) - 1
}

func (f *Frontend) takeFailure() (int, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.failures) == 0 {
		return 0, false
	}
	st := f.failures[0]
	f.failures = f.failures[1:]
	return st, true
}

// route parses a publisher-model path: the model ("count-tokens" for
// counting) and the method, or why it is not found.
func (f *Frontend) route(r *http.Request) (model, method, why string) {
	prefix := "/v1/projects/" + url.PathEscape(f.project) + "/locations/" + url.PathEscape(f.region) +
		"/publishers/" + vertex.Publisher + "/models/"
	rest, ok := strings.CutPrefix(r.URL.EscapedPath(), prefix)
	i := strings.LastIndexByte(rest, ':') // a model id may hold ':'
	if r.Method != http.MethodPost || !ok || i <= 0 || strings.Contains(rest[:i], "/") {
		return "", "", "The requested URL " + r.URL.EscapedPath() + " was not found on this server."
	}
	model, err := url.PathUnescape(rest[:i])
	method = rest[i+1:]
	switch {
	case err != nil:
		return "", "", "The requested URL " + r.URL.EscapedPath() + " was not found on this server."
	case method != "rawPredict" && method != "streamRawPredict",
		model == "count-tokens" && method != "rawPredict":
		return "", "", "Method " + method + " not found for publisher model " + model + "."
	}
	return model, method, ""
}

// rewrite checks the body rules and returns the service's body and path,
// or why the body is refused.
func rewrite(raw []byte, query, model, method string) (out []byte, path, why string) {
	if query != "" {
		return nil, "", "Invalid query: publisher model methods take no query parameters."
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil || body == nil {
		return nil, "", "Invalid JSON payload received: the body must be a JSON object."
	}
	var version string
	if json.Unmarshal(body["vendor_version"], &version) != nil || version != vertex.Version {
		return nil, "", "vendor_version: must be \"" + vertex.Version + "\"."
	}
	delete(body, "vendor_version")
	path = "/v1/messages/count_tokens"
	if model != "count-tokens" {
		if _, ok := body["model"]; ok {
			return nil, "", "model: not allowed in the body; the path names the model."
		}
		var stream bool
		if s, ok := body["stream"]; ok && json.Unmarshal(s, &stream) != nil {
			return nil, "", "stream: must be a boolean."
		}
		if stream != (method == "streamRawPredict") {
			return nil, "", "stream: must be true exactly for streamRawPredict, not for " + method + "."
		}
		body["model"], _ = json.Marshal(model) // a string always marshals
		path = "/v1/messages"
	}
	out, err := json.Marshal(body)
	if err != nil {
		return nil, "", "Invalid JSON payload received."
	}
	return out, path, ""
}

// WriteError answers with status and Google's error envelope.
func WriteError(w http.ResponseWriter, status int, message string) {
	body, _ := json.Marshal(map[string]any{"error": map[string]any{
		"code": status, "message": message, "status": googleStatus(status),
	}})
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// googleStatus is the google.rpc.Code name Google sends with status.
func googleStatus(status int) string {
	switch status {
	case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
		return "INVALID_ARGUMENT"
	case http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	case http.StatusForbidden:
		return "PERMISSION_DENIED"
	case http.StatusNotFound:
		return "NOT_FOUND"
	case http.StatusTooManyRequests:
		return "RESOURCE_EXHAUSTED"
	case http.StatusServiceUnavailable:
		return "UNAVAILABLE"
	case http.StatusGatewayTimeout:
		return "DEADLINE_EXCEEDED"
	case http.StatusNotImplemented:
		return "UNIMPLEMENTED"
	}
	if status >= 500 {
		return "INTERNAL"
	}
	return "FAILED_PRECONDITION"
}
