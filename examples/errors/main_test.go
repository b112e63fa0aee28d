package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// TestRun runs the example against mmstest with faults injected into the
// first request sent (the "Hello" call): two 529s are retried away; three
// use up the retries.
func TestRun(t *testing.T) {
	tests := []struct {
		name     string
		statuses []int
		want     string
		wantErr  error
	}{
		{"no faults", nil, `no messages: not sent: messages must hold at least one message
ok: You said: Hello
unknown model: refused: 404 not_found_error: model: no-such-model
`, nil},
		{"two 529s retried", []int{529, 529}, `no messages: not sent: messages must hold at least one message
ok: You said: Hello
unknown model: refused: 404 not_found_error: model: no-such-model
`, nil},
		{"retries used up", []int{529, 529, 529}, `no messages: not sent: messages must hold at least one message
hello: gave up after 3 attempts: 529 overloaded_error (request req_010000000000000000000003)
`, mms.ErrOverloaded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := mmstest.NewServer()
			defer srv.Close()
			client, err := mms.NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL), option.WithMaxRetries(2))
			if err != nil {
				t.Fatal(err)
			}
			if tt.statuses != nil {
				srv.InjectFault(mmstest.Fault{Path: "/v1/messages", Statuses: tt.statuses, RetryAfterMs: "1"}) // a fast retry

			}
			var out bytes.Buffer
			err = run(context.Background(), client, "mms-large-1", &out)
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if d := cmp.Diff(tt.want, out.String()); d != "" {
				t.Errorf("output (-want +got):\n%s", d)
			}
		})
	}
}

// TestDescribe covers the branches the fake's faults above do not reach.
func TestDescribe(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{nil, "no error"},
		{&mms.Error{StatusCode: 401, Type: "authentication_error"}, "check VENDOR_API_KEY"},
		{&mms.Error{StatusCode: 429, Type: "rate_limit_error", Attempts: 3, RequestID: "req_1"}, "gave up after 3 attempts: 429 rate_limit_error (request req_1)"},
		{context.DeadlineExceeded, "stopped: context deadline exceeded"},
		{errors.New("dial tcp: refused"), "failed: dial tcp: refused"},
	}
	for _, tt := range tests {
		if got := describe(tt.err); got != tt.want {
			t.Errorf("describe(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"unknown model: refused: 404"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
