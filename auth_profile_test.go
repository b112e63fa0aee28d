package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// writeJSONFile writes v as JSON at dir/rel with mode.
func writeJSONFile(t *testing.T, dir, rel string, v any, mode os.FileMode) string {
	t.Helper()
	path := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	require.NoError(t, err)
	if err := os.WriteFile(path, b, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

func readJSONFile(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// fedProfile writes a federation profile named name in dir for e.
func fedProfile(t *testing.T, dir, name string, e *fedEnv) {
	writeJSONFile(t, dir, "configs/"+name+".json", map[string]any{
		"version": "1.0", "base_url": e.srv.URL, "organization_id": fedOrg,
		"authentication": map[string]any{"type": "oidc_federation", "federation_rule_id": fedRule,
			"identity_token": map[string]string{"source": "file", "path": e.file}},
	}, 0o600)
}

// TestProfileFederation: a federation profile reuses its credentials
// file's token while more than 30 s remain, else exchanges and writes the
// new token back (mode 0600, other members kept).
func TestProfileFederation(t *testing.T) {
	e := newFedEnv(t)
	dir := t.TempDir()
	fedProfile(t, dir, "work", e)
	creds := writeJSONFile(t, dir, "credentials/work.json", map[string]any{
		"version": "1.0", "type": "oauth_token", "access_token": "stale", "expires_at": e.clock.Now().Add(20 * time.Second).Unix(),
		"account_email": "a@example.com",
	}, 0o600)
	c, err := mms.NewClient(option.WithProfile("work"), option.WithConfigDir(dir), mms.WithNowForTest(e.clock.Now))
	require.NoError(t, err)
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	if n := e.srv.TokenExchanges(); n != 1 {
		t.Fatalf("%d exchanges, want 1 (the file's token has 20 s left)", n)
	}
	m := readJSONFile(t, creds)
	if !strings.HasPrefix(m["access_token"].(string), "mms-oauth-") || m["account_email"] != "a@example.com" ||
		int64(m["expires_at"].(float64)) != e.clock.Now().Add(fedLifetime).Unix() {
		t.Errorf("credentials file %v", m)
	}
	if fi, _ := os.Stat(creds); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}

	// A second client (another process) reuses the saved token.
	c2, err := mms.NewClient(option.WithProfile("work"), option.WithConfigDir(dir), mms.WithNowForTest(e.clock.Now))
	require.NoError(t, err)
	if err := get(c2); err != nil {
		t.Fatal(err)
	}
	if n := e.srv.TokenExchanges(); n != 1 {
		t.Errorf("%d exchanges, want the saved token reused", n)
	}
}

// TestProfileUserOAuthRefresh: a user OAuth profile refreshes its expired
// token with the refresh grant and saves the rotated refresh token; a
// refresh token the service no longer knows says to log in again.
func TestProfileUserOAuthRefresh(t *testing.T) {
	e := newFedEnv(t)
	dir := t.TempDir()
	writeJSONFile(t, dir, "configs/me.json", map[string]any{
		"version": "1.0", "base_url": e.srv.URL, "workspace_id": "ws_me",
		"authentication": map[string]any{"type": "user_oauth", "client_id": "client-1"},
	}, 0o600)
	rt := e.srv.IssueRefreshToken("client-1")
	creds := writeJSONFile(t, dir, "credentials/me.json", map[string]any{
		"version": "1.0", "type": "oauth_token", "access_token": "expired", "expires_at": e.clock.Now().Add(-time.Minute).Unix(),
		"refresh_token": rt,
	}, 0o600)
	c, err := mms.NewClient(option.WithProfile("me"), option.WithConfigDir(dir), mms.WithNowForTest(e.clock.Now))
	require.NoError(t, err)
	if err := get(c); err != nil {
		t.Fatal(err)
	}
	reqs := e.srv.Requests()
	var grant map[string]string
	if err := json.Unmarshal(reqs[0].Body, &grant); err != nil {
		t.Fatal(err)
	}
	if grant["grant_type"] != "refresh_token" || grant["refresh_token"] != rt || grant["client_id"] != "client-1" ||
		reqs[0].Header.Get("Vendor-Beta") != "oauth-2025-04-20" {
		t.Errorf("refresh request %v %v", grant, reqs[0].Header)
	}
	if ws := reqs[1].Header.Get("Vendor-Workspace-Id"); ws != "ws_me" {
		t.Errorf("workspace header %q", ws)
	}
	m := readJSONFile(t, creds)
	if m["refresh_token"] == rt || !strings.HasPrefix(m["refresh_token"].(string), "mms-refresh-") {
		t.Errorf("the rotated refresh token was not saved: %v", m["refresh_token"])
	}

	// The old refresh token is spent: a client still holding it must log in again.
	writeJSONFile(t, dir, "credentials/me.json", map[string]any{"access_token": "expired", "expires_at": 1, "refresh_token": rt}, 0o600)
	c, err = mms.NewClient(option.WithProfile("me"), option.WithConfigDir(dir), mms.WithNowForTest(e.clock.Now))
	require.NoError(t, err)
	err = get(c)
	var te *mms.TokenExchangeError
	if !errors.As(err, &te) || te.Code != "invalid_grant" || !strings.Contains(err.Error(), "log in again") || strings.Contains(err.Error(), rt) {
		t.Errorf("err = %v", err)
	}
}

// TestProfileCredentialsFileRules: a symlink, or a file others may read,
// is refused; a profile name outside the rule is refused.
func TestProfileCredentialsFileRules(t *testing.T) {
	e := newFedEnv(t)
	dir := t.TempDir()
	writeJSONFile(t, dir, "configs/me.json", map[string]any{"base_url": e.srv.URL,
		"authentication": map[string]any{"type": "user_oauth"}}, 0o600)
	real := writeJSONFile(t, dir, "real.json", map[string]any{"access_token": "tok"}, 0o600)
	if err := os.Symlink(real, filepath.Join(dir, "credentials", "me.json")); err != nil {
		if err := os.MkdirAll(filepath.Join(dir, "credentials"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(real, filepath.Join(dir, "credentials", "me.json")); err != nil {
			t.Skip("no symlinks:", err)
		}
	}
	c, err := mms.NewClient(option.WithProfile("me"), option.WithConfigDir(dir))
	require.NoError(t, err)
	if err := get(c); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("symlink: err = %v", err)
	}
	if runtime.GOOS != "windows" {
		os.Remove(filepath.Join(dir, "credentials", "me.json"))
		writeJSONFile(t, dir, "credentials/me.json", map[string]any{"access_token": "tok"}, 0o644)
		if err := get(c); err == nil || !strings.Contains(err.Error(), "chmod 600") {
			t.Errorf("mode 0644: err = %v", err)
		}
	}
	for _, name := range []string{"..", ".", "a/b", "a b", ""} {
		if _, err := mms.NewClient(option.WithProfile(name), option.WithConfigDir(dir)); err == nil {
			t.Errorf("profile %q accepted", name)
		}
	}
}

// TestCredentialChain: the documented order, one source at a time and in
// competition, with profiles' gaps filled from the environment.
func TestCredentialChain(t *testing.T) {
	e := newFedEnv(t)
	rt := func() string { return e.srv.IssueRefreshToken("c") }
	type want struct {
		header, value string // on the API request
		err           string
	}
	setup := func(t *testing.T, dir string, env map[string]string) {
		for _, k := range []string{"VENDOR_API_KEY", "VENDOR_AUTH_TOKEN", "VENDOR_BASE_URL", "VENDOR_PROFILE",
			"VENDOR_FEDERATION_RULE_ID", "VENDOR_ORGANIZATION_ID", "VENDOR_IDENTITY_TOKEN_FILE", "VENDOR_IDENTITY_TOKEN", "VENDOR_WORKSPACE_ID"} {
			t.Setenv(k, env[k])
		}
		t.Setenv("VENDOR_CONFIG_DIR", dir)
	}
	fedVars := map[string]string{"VENDOR_FEDERATION_RULE_ID": fedRule, "VENDOR_ORGANIZATION_ID": fedOrg, "VENDOR_IDENTITY_TOKEN_FILE": e.file, "VENDOR_BASE_URL": e.srv.URL}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range fedVars {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name     string
		env      map[string]string
		profiles map[string]string // name -> "fed" | "user"
		active   string
		opts     []option.RequestOption
		want     want
	}{
		{"env federation", fedVars, nil, "", nil, want{"Authorization", "Bearer mms-oauth-", ""}},
		{"API key beats federation", with(map[string]string{"VENDOR_API_KEY": mmstest.DefaultAPIKey}), nil, "", nil, want{"X-Api-Key", mmstest.DefaultAPIKey, ""}},
		{"auth token beats federation", with(map[string]string{"VENDOR_AUTH_TOKEN": mmstest.DefaultAuthToken}), nil, "", nil, want{"Authorization", "Bearer " + mmstest.DefaultAuthToken, ""}},
		{"option beats everything", with(map[string]string{"VENDOR_API_KEY": "nope", "VENDOR_PROFILE": "user"}), map[string]string{"user": "user"}, "", []option.RequestOption{option.WithAuthToken(mmstest.DefaultAuthToken)}, want{"Authorization", "Bearer " + mmstest.DefaultAuthToken, ""}},
		{"named profile beats federation", with(map[string]string{"VENDOR_PROFILE": "user"}), map[string]string{"user": "user"}, "", nil, want{"Authorization", "Bearer user-token", ""}},
		{"named profile missing is an error", with(map[string]string{"VENDOR_PROFILE": "ghost"}), nil, "", nil, want{err: "ghost"}},
		{"federation beats the active profile", fedVars, map[string]string{"user": "user"}, "user", nil, want{"Authorization", "Bearer mms-oauth-", ""}},
		{"active profile", map[string]string{}, map[string]string{"user": "user"}, "user", nil, want{"Authorization", "Bearer user-token", ""}},
		{"default profile", map[string]string{}, map[string]string{"default": "user"}, "", nil, want{"Authorization", "Bearer user-token", ""}},
		{"federation profile gets the token file from the environment", map[string]string{"VENDOR_IDENTITY_TOKEN_FILE": e.file}, map[string]string{"default": "fed-no-token"}, "", nil, want{"Authorization", "Bearer mms-oauth-", ""}},
		{"partial federation names what is missing", map[string]string{"VENDOR_FEDERATION_RULE_ID": fedRule, "VENDOR_BASE_URL": e.srv.URL}, nil, "", nil, want{err: "VENDOR_ORGANIZATION_ID, $VENDOR_IDENTITY_TOKEN_FILE"}},
		{"partial federation defers to the active profile", map[string]string{"VENDOR_ORGANIZATION_ID": fedOrg}, map[string]string{"default": "user"}, "", nil, want{"Authorization", "Bearer user-token", ""}},
		{"blank variables are unset", map[string]string{"VENDOR_API_KEY": "  ", "VENDOR_BASE_URL": e.srv.URL}, map[string]string{"default": "user"}, "", nil, want{"Authorization", "Bearer user-token", ""}},
		{"nothing lists every source", map[string]string{"VENDOR_BASE_URL": e.srv.URL}, nil, "", nil, want{err: "VENDOR_PROFILE, federation"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			setup(t, dir, tt.env)
			for name, kind := range tt.profiles {
				switch kind {
				case "fed":
					fedProfile(t, dir, name, e)
				case "fed-no-token":
					writeJSONFile(t, dir, "configs/"+name+".json", map[string]any{"base_url": e.srv.URL, "organization_id": fedOrg,
						"authentication": map[string]any{"type": "oidc_federation", "federation_rule_id": fedRule}}, 0o600)
				case "user":
					writeJSONFile(t, dir, "configs/"+name+".json", map[string]any{"base_url": e.srv.URL,
						"authentication": map[string]any{"type": "user_oauth", "client_id": "c"}}, 0o600)
					writeJSONFile(t, dir, "credentials/"+name+".json", map[string]any{"access_token": "user-token", "refresh_token": rt()}, 0o600)
				}
			}
			if tt.active != "" {
				if err := os.WriteFile(filepath.Join(dir, "active_config"), []byte(tt.active+"\n"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			var seen []string
			rec := func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
				seen = append(seen, req.Header.Get(tt.want.header))
				return next(req)
			}
			c, err := mms.NewClient(append([]option.RequestOption{option.WithMiddleware(rec), mms.WithNowForTest(e.clock.Now)}, tt.opts...)...)
			if tt.want.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want.err) {
					t.Fatalf("err = %v, want %q", err, tt.want.err)
				}
				return
			}
			require.NoError(t, err)
			if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil); err != nil && !strings.Contains(tt.want.value, "user-token") {
				t.Fatal(err)
			}
			if len(seen) == 0 || !strings.HasPrefix(seen[0], tt.want.value) {
				t.Errorf("%s = %v, want %q…", tt.want.header, seen, tt.want.value)
			}
		})
	}
}
