package vertex_test

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
	"github.com/mms-sdk/mms-go/platform"
	"github.com/mms-sdk/mms-go/vertex"
	"github.com/mms-sdk/mms-go/vertex/vertextest"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// setup is a client on Vertex AI's front before a fresh fake.
type setup struct {
	srv    *mmstest.Server
	front  *vertextest.Frontend
	tokens *vertextest.TokenSource
	client *mms.Client
}

func newSetup(t *testing.T, tokens *vertextest.TokenSource, opts ...vertextest.FrontOption) *setup {
	t.Helper()
	t.Setenv(vertex.EnvBaseURL, "")
	if tokens == nil {
		tokens = &vertextest.TokenSource{}
	}
	front := vertextest.Front(tokens, opts...)
	srv := mmstest.NewServer(mmstest.WithPlatform(front))
	t.Cleanup(srv.Close)
	client, err := mms.NewClient(
		vertex.WithProject(vertextest.Region, vertextest.Project, vertex.WithTokenSource(tokens)),
		option.WithBaseURL(srv.URL), option.WithHTTPClient(srv.Client()),
		option.WithMaxRetries(2),
	)
	if err != nil {
		t.Fatal(err)
	}
	return &setup{srv: srv, front: front, tokens: tokens, client: client}
}

// direct is a client on the fake itself.
func direct(t *testing.T) *mms.Client {
	t.Helper()
	srv := mmstest.NewServer()
	t.Cleanup(srv.Close)
	client, err := mms.NewClient(srv.ClientOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	return client
}

var params = mms.MessageCreateParams{
	Model:     "mms-large-1",
	MaxTokens: 64,
	Messages:  []mms.MessageParam{mms.UserText("Hello from Vertex")},
}

func stream(t *testing.T, c *mms.Client, p mms.MessageCreateParams) (*mms.Message, error) {
	t.Helper()
	var acc mms.MessageAccumulator
	for ev, err := range c.Messages.Stream(context.Background(), p) {
		if err != nil {
			return acc.Message(), err
		}
		if err := acc.Add(ev); err != nil {
			t.Fatal(err)
		}
	}
	return acc.Message(), nil
}

// TestSameResultsAsDirect: create, stream and count_tokens through Vertex
// give the typed results the fake gives directly.
func TestSameResultsAsDirect(t *testing.T) {
	ctx := context.Background()
	s, d := newSetup(t, nil), direct(t)

	want, err := d.Messages.Create(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	var md option.ResponseMetadata
	got, err := s.client.Messages.Create(ctx, params, option.WithResponseMetadata(&md))
	if err != nil {
		t.Fatal(err)
	}
	// The model's request-id comes through; Vertex has no id of its own.
	if !strings.HasPrefix(md.RequestID, "req_") || md.PlatformRequestID != "" {
		t.Errorf("request ids %q, %q", md.RequestID, md.PlatformRequestID)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("create (-direct +vertex):\n%s", diff)
	}

	wantStream, err := stream(t, d, params)
	if err != nil {
		t.Fatal(err)
	}
	gotStream, err := stream(t, s.client, params)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantStream, gotStream); diff != "" {
		t.Errorf("stream (-direct +vertex):\n%s", diff)
	}

	count := mms.MessageCountTokensParams{Model: params.Model, Messages: params.Messages}
	wantCount, err := d.Messages.CountTokens(ctx, count)
	if err != nil {
		t.Fatal(err)
	}
	gotCount, err := s.client.Messages.CountTokens(ctx, count)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantCount, gotCount); diff != "" {
		t.Errorf("count_tokens (-direct +vertex):\n%s", diff)
	}

	base := "/v1/projects/" + vertextest.Project + "/locations/" + vertextest.Region + "/publishers/vendor/models/"
	var paths []string
	for _, a := range s.front.Attempts() {
		paths = append(paths, a.Path)
	}
	wantPaths := []string{base + "mms-large-1:rawPredict", base + "mms-large-1:streamRawPredict", base + "count-tokens:rawPredict"}
	if diff := cmp.Diff(wantPaths, paths); diff != "" {
		t.Errorf("Vertex paths (-want +got):\n%s", diff)
	}
}

// TestRetryCarriesAFreshToken: a 503 from Vertex is retried, and the retry
// carries a new token (the front expires the failed attempt's, so reusing
// it would be a 401).
func TestRetryCarriesAFreshToken(t *testing.T) {
	// Tokens live 5 s on a stopped clock: the front never sees them lapse,
	// while oauth2.ReuseTokenSource (renewing 10 s early) takes a new one
	// for each attempt.
	start := time.Now()
	tokens := &vertextest.TokenSource{Lifetime: 5 * time.Second, Now: func() time.Time { return start }}
	s := newSetup(t, tokens, vertextest.WithExpireOnFailure())
	s.front.FailNext(503)

	if _, err := s.client.Messages.Create(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	attempts := s.front.Attempts()
	if len(attempts) != 2 || attempts[0].Status != 503 || attempts[1].Status != 0 {
		t.Fatalf("attempts %+v; want a 503, then one passed on", attempts)
	}
	if attempts[0].Token == attempts[1].Token {
		t.Errorf("the retry carried the failed attempt's token %q", attempts[1].Token)
	}
}

// TestRefusedTokenIsDropped: after a 401 the next call carries a new token
// even though the refused one had not expired by its own date.
func TestRefusedTokenIsDropped(t *testing.T) {
	s := newSetup(t, nil)
	ctx := context.Background()
	if _, err := s.client.Messages.Create(ctx, params); err != nil {
		t.Fatal(err)
	}
	s.tokens.Expire() // revoked at Google's end

	_, err := s.client.Messages.Create(ctx, params)
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 401 || apiErr.Type != "authentication_error" || !errors.Is(err, mms.ErrAuthentication) {
		t.Fatalf("err = %v; want a 401 authentication_error", err)
	}
	if _, err := s.client.Messages.Create(ctx, params); err != nil {
		t.Fatalf("the call after the 401: %v", err)
	}
	tokens := s.front.Tokens()
	if len(tokens) != 3 || tokens[0] != tokens[1] || tokens[1] == tokens[2] {
		t.Errorf("tokens per attempt %q; want the same twice, then a new one", tokens)
	}
}

// TestGoogleErrorsAreServiceErrors: a refusal in Google's envelope is a
// *mms.Error of the status's type.
func TestGoogleErrorsAreServiceErrors(t *testing.T) {
	s := newSetup(t, nil)
	s.front.FailNext(403)
	_, err := s.client.Messages.Create(context.Background(), params)
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 403 || apiErr.Type != "permission_error" ||
		!strings.Contains(apiErr.Message, "Vertex AI PERMISSION_DENIED") || !errors.Is(err, mms.ErrPermission) {
		t.Fatalf("err = %v", err)
	}
}

// TestMidStreamError: the model's error event mid-stream is a *mms.Error.
func TestMidStreamError(t *testing.T) {
	s := newSetup(t, nil)
	s.srv.InjectStreamFault(mmstest.StreamFault{Path: "/v1/messages", ErrorAfterEvents: 3, Times: 1})
	_, err := stream(t, s.client, params)
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || apiErr.Type != "overloaded_error" {
		t.Fatalf("err = %v; want the overloaded_error event as *mms.Error", err)
	}
}

// TestUnsupportedEndpoints: what Vertex lacks is refused before sending.
func TestUnsupportedEndpoints(t *testing.T) {
	s := newSetup(t, nil)
	ctx := context.Background()
	_, batchErr := s.client.Messages.Batches.Create(ctx, mms.BatchCreateParams{Requests: []mms.BatchRequest{{CustomID: "a", Params: params}}})
	_, modelsErr := s.client.Models.ListPage(ctx, mms.ModelListParams{})
	for name, err := range map[string]error{"batches": batchErr, "models": modelsErr} {
		var ue *platform.UnsupportedError
		if !errors.Is(err, platform.ErrUnsupported) || !errors.As(err, &ue) || ue.Platform != "Google Vertex AI" {
			t.Errorf("%s: err = %v; want a *platform.UnsupportedError", name, err)
		}
	}
	if n := len(s.front.Attempts()); n != 0 {
		t.Errorf("%d requests reached Vertex", n)
	}
}

// TestBodyLimit: a body over 30 MB is refused before sending; one under it
// is sent (the front then refuses it with an injected 400, sparing the fake
// a 30 MB prompt).
func TestBodyLimit(t *testing.T) {
	tests := []struct {
		name     string
		text     int // bytes of prompt text
		wantSent bool
	}{
		{name: "under the limit", text: vertex.MaxBodySize - 1000, wantSent: true},
		{name: "over the limit", text: vertex.MaxBodySize + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSetup(t, nil)
			s.front.FailNext(http.StatusBadRequest)
			p := params
			p.Messages = []mms.MessageParam{mms.UserText(strings.Repeat("a", tt.text))}
			_, err := s.client.Messages.Create(context.Background(), p)
			sent := len(s.front.Attempts()) > 0
			if sent != tt.wantSent {
				t.Fatalf("sent %v, err %v; want sent %v", sent, err, tt.wantSent)
			}
			var tooLarge *mms.RequestTooLargeError
			var apiErr *mms.Error
			if tt.wantSent {
				if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest {
					t.Fatalf("err = %v; want the front's injected 400", err)
				}
			} else if !errors.As(err, &tooLarge) || tooLarge.Limit != vertex.MaxBodySize || tooLarge.Sent {
				t.Fatalf("err = %v; want a *mms.RequestTooLargeError at %d bytes, nothing sent", err, vertex.MaxBodySize)
			}
		})
	}
}

// TestNewClientErrors: a bad configuration is NewClient's error.
func TestNewClientErrors(t *testing.T) {
	t.Setenv(vertex.EnvRegion, "")
	t.Setenv(vertex.EnvProjectID, "")
	t.Setenv(vertex.EnvBaseURL, "")
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", filepath.Join(t.TempDir(), "missing.json"))
	ts := &vertextest.TokenSource{}
	tests := []struct {
		name    string
		opts    []option.RequestOption
		wantErr string
	}{
		{name: "no region", opts: []option.RequestOption{vertex.WithProject("", "p", vertex.WithTokenSource(ts))}, wantErr: "vertex: no region"},
		{name: "bad region", opts: []option.RequestOption{vertex.WithProject("us east", "p", vertex.WithTokenSource(ts))}, wantErr: "not a Vertex AI region"},
		{name: "no Application Default Credentials, even with a base URL", opts: []option.RequestOption{vertex.WithProject("global", "p"), option.WithBaseURL("https://proxy.example")},
			wantErr: "vertex: no Google Application Default Credentials"},
		{name: "with an API key", opts: []option.RequestOption{vertex.WithProject("global", "p", vertex.WithTokenSource(ts)), option.WithAPIKey("sk-secret-value")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mms.NewClient(tt.opts...)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v; want one containing %q", err, tt.wantErr)
			}
			if strings.Contains(err.Error(), "sk-secret-value") {
				t.Errorf("the error shows the key: %v", err)
			}
		})
	}
}
