package mms

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mms-sdk/mms-go/internal/config"
)

// FuzzTokenAnswer: the exchange's answer decoder and error builder never
// panic, accept only a usable token, and never show the request's secret.
func FuzzTokenAnswer(f *testing.F) {
	for _, s := range []string{
		`{"access_token":"a","token_type":"Bearer","expires_in":3600}`,
		`{"access_token":"a","token_type":"bearer"}`, `{"access_token":"","expires_in":1}`,
		`{"access_token":"a","token_type":"mac"}`, `{"access_token":"a\nb"}`, `{"access_token":"a","refresh_token":"r"}`,
		`{"error":"invalid_grant","error_description":"SECRET-assertion rejected","error_uri":"https://x"}`, `null`, `[]`, `{`,
	} {
		f.Add([]byte(s), 200)
		f.Add([]byte(s), 401)
	}
	x := &exchanger{now: func() time.Time { return time.Unix(0, 0) }}
	f.Fuzz(func(t *testing.T, body []byte, status int) {
		h := http.Header{"Request-Id": {"req_1"}}
		tok, _, err := x.parse(h, body)
		if err == nil && (strings.TrimSpace(tok.Value) == "" || strings.ContainsAny(tok.Value, "\r\n")) {
			t.Fatalf("accepted an unusable token %q", tok.Value)
		}
		e := exchangeError(status, h, body, "jwt-bearer", []string{"SECRET-assertion"})
		if strings.Contains(e.Error(), "SECRET-assertion") {
			t.Fatalf("the error shows the secret: %s", e)
		}
		if len(e.Description) > maxDescription+len("…") {
			t.Fatalf("description of %d bytes", len(e.Description))
		}
	})
}

// FuzzProfileFiles: profile configurations and credentials files of any
// content load or fail with an error, never a panic.
func FuzzProfileFiles(f *testing.F) {
	f.Add([]byte(`{"version":"1.0","base_url":"https://x","organization_id":"o","authentication":{"type":"oidc_federation","federation_rule_id":"r","identity_token":{"source":"file","path":"/t"}}}`),
		[]byte(`{"version":"1.0","type":"oauth_token","access_token":"a","expires_at":1700000000,"refresh_token":"r","scope":"s"}`))
	f.Add([]byte(`{"authentication":{"type":"user_oauth","client_id":"c"}}`), []byte(`{"access_token":7,"expires_at":"x"}`))
	f.Add([]byte(`{"authentication":{"type":"other"}}`), []byte(`[]`))
	f.Add([]byte(`nope`), []byte(`{`))
	f.Fuzz(func(t *testing.T, conf, creds []byte) {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "configs"), 0o700)
		os.MkdirAll(filepath.Join(dir, "credentials"), 0o700)
		os.WriteFile(filepath.Join(dir, "configs", "p.json"), conf, 0o600)
		os.WriteFile(filepath.Join(dir, "credentials", "p.json"), creds, 0o600)
		p, err := loadProfile(&config.Config{ConfigDir: dir}, "p", "test")
		if err == nil && p.credentials == "" {
			t.Fatal("a loaded profile without a credentials path")
		}
		c, err := readCredentials(filepath.Join(dir, "credentials", "p.json"))
		if err == nil {
			if tok, ok := c.token(); ok && tok.Value == "" {
				t.Fatal("an empty token reported present")
			}
		}
	})
}
