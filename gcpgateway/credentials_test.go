package gcpgateway_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/gcpgateway"
	"github.com/mms-sdk/mms-go/gcpgateway/gcpgatewaytest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
	"golang.org/x/oauth2/google"
)

// serviceAccount writes a service-account key file whose token endpoint
// is a local server handing out tokens minted by tokens.
func serviceAccount(t *testing.T, tokens *gcpgatewaytest.TokenSource) []byte {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	tokenServer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok, _ := tokens.Token()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": tok.AccessToken, "token_type": "Bearer", "expires_in": 3600})
	}))
	t.Cleanup(tokenServer.Close)
	data, err := json.Marshal(map[string]string{
		"type":           "service_account",
		"project_id":     "adc-project",
		"private_key_id": "k1",
		"private_key":    string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		"client_email":   "sa@adc-project.iam.gserviceaccount.com",
		"client_id":      "1",
		"token_uri":      tokenServer.URL,
	})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestGoogleCredentials: Application Default Credentials (here from
// $GOOGLE_APPLICATION_CREDENTIALS) and explicit credentials give both the
// project and the bearer token.
func TestGoogleCredentials(t *testing.T) {
	tokens := gcpgatewaytest.NewTokenSource()
	keyFile := serviceAccount(t, tokens)
	path := filepath.Join(t.TempDir(), "adc.json")
	if err := os.WriteFile(path, keyFile, 0o600); err != nil {
		t.Fatal(err)
	}
	creds, err := google.CredentialsFromJSON(context.Background(), keyFile, gcpgateway.Scope)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		adc  string
		opts []gcpgateway.Option
	}{
		{"application default credentials", path, nil},
		{"explicit credentials", "/nonexistent/adc.json", []gcpgateway.Option{gcpgateway.Credentials(creds)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range []string{"VENDOR_GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_PROJECT", "VENDOR_GOOGLE_CLOUD_BASE_URL", "VENDOR_GOOGLE_CLOUD_LOCATION"} {
				t.Setenv(k, "")
			}
			t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", tt.adc)
			front := &gcpgatewaytest.Front{Project: "adc-project", Workspace: workspace, Tokens: tokens}
			srv := mmstest.NewServer(mmstest.WithPlatform(front))
			defer srv.Close()
			wantBase := "https://vendor.googleapis.com" + gcpgateway.InvokePath("adc-project", "global", workspace)
			if got, err := gcpgateway.BaseURLForTest("", workspace, tt.opts...); err != nil || got != wantBase {
				t.Fatalf("BaseURL = %q, %v; want the credentials' project in %q", got, err, wantBase)
			}
			c, err := mms.NewClient(gcpgateway.WithProject("", workspace, tt.opts...),
				option.WithBaseURL(srv.URL+gcpgateway.InvokePath("adc-project", "global", workspace)), option.WithHTTPClient(srv.Client()))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Messages.CountTokens(context.Background(), countParams); err != nil {
				t.Fatal(err)
			}
			if got := front.SeenTokens(); len(got) != 1 || !strings.HasPrefix(got[0], "ya29.fake-token-") {
				t.Errorf("front accepted %q, want one token from the token endpoint", got)
			}
		})
	}
}
