package mms_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// TestNoSecretInErrorsOrLogs drives every failure path with a key and a
// token, through a base URL carrying a user and password, and scans every
// error string and log line for them.
func TestNoSecretInErrorsOrLogs(t *testing.T) {
	const token = "tok-SECRET-abcdef0123"
	const userinfo = "SECRETUSER:SECRETPASS@"
	s := newScriptServer(t,
		reply{status: 401, body: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`},
		reply{status: 503, header: fast}, reply{status: 503, header: fast}, reply{status: 503, header: fast},
		reply{drop: true}, reply{drop: true}, reply{drop: true},
		reply{status: 200, header: map[string]string{"Set-Cookie": "session=SECRET-cookie"}, body: `{}`},
	)
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var errs []error
	for _, cred := range []option.RequestOption{option.WithAPIKey(testKey), option.WithAuthToken(token)} {
		c, err := mms.NewClient(cred, option.WithBaseURL(strings.Replace(s.URL, "://", "://"+userinfo, 1)), option.WithLogger(logger),
			option.WithHeader("Cookie", "c=SECRET-cookie"))
		require.NoError(t, err)
		for range 4 {
			errs = append(errs, c.Do(context.Background(), "POST", "/v1/messages", map[string]string{"q": "x"}, nil))
		}
		errs = append(errs, c.Do(context.Background(), "GET", "/v1/models", nil, nil, option.WithMaxRetries(-1)))
		errs = append(errs, c.Do(context.Background(), "POST", "/v1/messages", make([]byte, 33<<20), nil))
	}
	_, err := mms.NewClient(option.WithAPIKey(testKey), option.WithAuthToken(token), option.WithBaseURL(s.URL))
	errs = append(errs, err)
	_, err = mms.NewClient(option.WithAPIKey(testKey))
	errs = append(errs, err)
	for _, base := range []string{
		"http://" + userinfo + "[::1",         // does not parse
		"ftp://" + userinfo + "host",          // wrong scheme
		"http://" + userinfo + "host/?q=1",    // query
		"https://" + userinfo + "host\nx",     // control character
		userinfo + "host",                     // no scheme
		"//" + userinfo + "host",              // scheme-relative
		"http://" + userinfo + "host:badport", // bad port
	} {
		_, err = mms.NewClient(option.WithAPIKey(testKey), option.WithBaseURL(base))
		errs = append(errs, err)
		t.Setenv(mms.EnvBaseURL, base)
		_, err = mms.NewClient(option.WithAPIKey(testKey))
		errs = append(errs, err)
	}

	failures := 0
	for _, err := range errs {
		if err == nil {
			continue
		}
		failures++
		var apiErr *mms.Error
		text := err.Error()
		if errors.As(err, &apiErr) {
			text += string(apiErr.Body) + strings.Join(apiErr.Header.Values("X-Api-Key"), "")
		}
		var urlErr *url.Error
		if errors.As(err, &urlErr) {
			text += urlErr.URL
		}
		for _, secret := range []string{testKey, token, "SECRET"} {
			if strings.Contains(text, secret) {
				t.Errorf("error leaks a secret: %s", text)
			}
		}
	}
	if failures < 6 {
		t.Fatalf("only %d failures exercised", failures)
	}
	if logs.Len() == 0 {
		t.Fatal("logger received nothing")
	}
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, "SECRET") || strings.Contains(line, testKey) {
			t.Errorf("log line leaks a secret: %s", line)
		}
	}
	if !strings.Contains(logs.String(), "[redacted]") {
		t.Error("logs show no redaction marker: credentials were not logged as headers at all?")
	}
}

func TestSilentWithoutLogger(t *testing.T) {
	s := newScriptServer(t, reply{status: 503, header: fast})
	var buf bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	defer slog.SetDefault(prev)
	c := newTestClient(t, s)
	if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 0 {
		t.Errorf("the SDK wrote to the default logger: %s", buf.String())
	}
}

var _ = http.StatusOK
