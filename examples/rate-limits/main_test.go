package main

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// TestRun runs the example against mmstest limited to 2 requests a second
// (burst 2). Without pacing, the third request gets a 429 and is retried
// after the retry-after; with the client's limiter no request is refused.
// The retry-after waits are real (about a second each).
func TestRun(t *testing.T) {
	tests := []struct {
		name string
		opts []option.RequestOption
		want string // a regexp of the output
	}{
		{"server 429 retried", nil, `^You said: a \(1 attempt\(s\)\)\n.*\n` +
			`You said: b \(1 attempt\(s\)\)\n  0 of 120 requests left.*\n` +
			`You said: c \(2 attempt\(s\)\)\n.*\n$`},
		{"client paced", []option.RequestOption{option.WithRateLimit(120, 0)}, `^You said: a \(1 attempt\(s\)\)\n.*\n` +
			`You said: b \(1 attempt\(s\)\)\n.*\n` +
			`You said: c \(1 attempt\(s\)\)\n.*\n$`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := mmstest.NewServer(mmstest.WithServerRateLimit(120, 2))
			defer srv.Close()
			client, err := mms.NewClient(append(tt.opts, option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL))...)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := run(context.Background(), client, "mms-large-1", []string{"a", "b", "c"}, &out); err != nil {
				t.Fatal(err)
			}
			if !regexp.MustCompile(tt.want).MatchString(out.String()) {
				t.Errorf("output:\n%s\ndoes not match %s", out.String(), tt.want)
			}
		})
	}
}

// TestRunExhausted: with retries off, the 429 is the call's error, and the
// example reports the server's retry-after.
func TestRunExhausted(t *testing.T) {
	srv := mmstest.NewServer(mmstest.WithServerRateLimit(60, 1))
	defer srv.Close()
	client, err := mms.NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL), option.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	err = run(context.Background(), client, "mms-large-1", []string{"a", "b"}, &bytes.Buffer{})
	if !errors.Is(err, mms.ErrRateLimited) || !regexp.MustCompile(`^rate limited after 1 attempts; the server asks to wait 1s: `).MatchString(err.Error()) {
		t.Errorf("err = %v", err)
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"attempt(s)", "requests left"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
