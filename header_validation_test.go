package mms_test

import (
	"context"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

// TestHeaderOptionsRefuseInvalidBytes checks every option that ends up in a
// header, on both sides of the rule: a CR, LF or other control byte is
// refused when the option is given (on NewClient and per call, naming the
// option, never quoting a secret); tab, space and non-ASCII bytes pass and
// reach the server unchanged.
func TestHeaderOptionsRefuseInvalidBytes(t *testing.T) {
	options := []struct {
		name   string // the option the error must name
		opt    func(v string) option.RequestOption
		header string // where a valid value arrives
		prefix string // what the SDK puts before the value
		secret bool
	}{
		{"WithAPIKey", option.WithAPIKey, "X-Api-Key", "", true},
		{"WithAuthToken", option.WithAuthToken, "Authorization", "Bearer ", true},
		{"WithVersion", option.WithVersion, "Vendor-Version", "", false},
		{"WithBeta", func(v string) option.RequestOption { return option.WithBeta(v) }, "Vendor-Beta", "", false},
		{"WithUserProfileID", option.WithUserProfileID, "Vendor-User-Profile-Id", "", false},
		{"WithWorkspaceID", option.WithWorkspaceID, "Vendor-Workspace-Id", "", false},
		{"WithHeader", func(v string) option.RequestOption { return option.WithHeader("X-Custom", v) }, "X-Custom", "", true},
	}
	bad := map[string]string{
		"CRLF injection": "SECRET-v1\r\nX-Injected:1",
		"LF":             "SECRET-v1\nx",
		"CR":             "SECRET-v1\rx",
		"NUL":            "SECRET-v1\x00x",
		"escape":         "SECRET-v1\x1bx",
		"DEL":            "SECRET-v1\x7fx",
	}
	good := map[string]string{
		"plain":     "v-1",
		"tab":       "v\t1",
		"non-ASCII": "v-é-1",
	}
	for _, o := range options {
		for name, v := range bad {
			t.Run(o.name+"/"+name, func(t *testing.T) {
				s := newScriptServer(t)
				_, err := mms.NewClient(option.WithAPIKey(testKey), option.WithBaseURL(s.URL), o.opt(v))
				checkHeaderErr(t, err, o.name, o.secret)
				c := newTestClient(t, s)
				err = c.Do(context.Background(), "GET", "/v1/models", nil, nil, o.opt(v))
				checkHeaderErr(t, err, o.name, o.secret)
				if n := len(s.requests()); n != 0 {
					t.Errorf("%d requests sent", n)
				}
			})
		}
		for name, v := range good {
			if o.name == "WithBeta" && strings.Contains(v, "\t") {
				continue // a beta name is a single token; its own rule refuses blanks
			}
			t.Run(o.name+"/"+name+" accepted", func(t *testing.T) {
				s := newScriptServer(t)
				c := newTestClient(t, s)
				if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil, o.opt(v)); err != nil {
					t.Fatal(err)
				}
				want := o.prefix + v
				if o.name == "WithUserProfileID" {
					want = v // Vendor-Beta gets user-profiles; the id is its own header
				}
				if got := s.requests()[0].header.Get(o.header); got != want {
					t.Errorf("%s = %q, want %q", o.header, got, want)
				}
			})
		}
	}
}

func checkHeaderErr(t *testing.T, err error, option string, secret bool) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s accepted an invalid header value", option)
	}
	if !strings.Contains(err.Error(), option) || !strings.Contains(err.Error(), "HTTP header") {
		t.Errorf("error %q does not name %s and the rule", err, option)
	}
	if secret && strings.Contains(err.Error(), "SECRET") {
		t.Errorf("error quotes the secret: %q", err)
	}
}

func TestWithHeaderRefusesInvalidNames(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"X-Good_1.~!#$%&'*+^`|", true},
		{" X-Trimmed ", true},
		{"X Bad", false},
		{"X:Bad", false},
		{"X-Bad\r\nX-Injected", false},
		{"X-Bad\x00", false},
		{"X-é", false},
		{"X(Bad)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mms.NewClient(option.WithAPIKey("k"), option.WithBaseURL("http://x"), option.WithHeader(tt.name, "v"))
			if tt.ok != (err == nil) {
				t.Fatalf("err = %v, want ok=%v", err, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "WithHeader") {
				t.Errorf("error %q does not name WithHeader", err)
			}
		})
	}
}

// TestEnvironmentCredentialsRefuseInvalidBytes: the credentials NewClient
// reads from the environment get the same check, naming the variable.
func TestEnvironmentCredentialsRefuseInvalidBytes(t *testing.T) {
	for _, env := range []string{mms.EnvAPIKey, mms.EnvAuthToken} {
		for _, v := range []string{"SECRET-k\n", "SECRET-k\r\nX-Injected: 1", "SECRET-k\x01"} {
			t.Run(env+"/"+strings.ReplaceAll(v, "\n", `\n`), func(t *testing.T) {
				t.Setenv(mms.EnvAPIKey, "")
				t.Setenv(mms.EnvAuthToken, "")
				t.Setenv(env, v)
				_, err := mms.NewClient(option.WithBaseURL("http://x"))
				if err == nil || !strings.Contains(err.Error(), "$"+env) || !strings.Contains(err.Error(), "HTTP header") {
					t.Fatalf("err = %v, want it to name $%s and the rule", err, env)
				}
				if strings.Contains(err.Error(), "SECRET") {
					t.Errorf("error quotes the secret: %q", err)
				}
			})
		}
		t.Run(env+"/valid", func(t *testing.T) {
			t.Setenv(mms.EnvAPIKey, "")
			t.Setenv(mms.EnvAuthToken, "")
			t.Setenv(env, "k\t1")
			if _, err := mms.NewClient(option.WithBaseURL("http://x")); err != nil {
				t.Fatal(err)
			}
		})
	}
}
