package mms_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

// TestEchoedSecretsScrubbed: a server that echoes the bearer token, the
// API key or a credential's secret in its error (raw, JSON-escaped,
// \/-escaped, \u-escaped, in a header) puts none of them into the
// *mms.Error's message, body, header, %#v, nor into the retry log line.
func TestEchoedSecretsScrubbed(t *testing.T) {
	const bearer = "tok-bearer/SECRET+x"
	const vaultSecret = `vault<SECRET>"value"`
	const key = "sk-key-SECRET-0123"
	esc, _ := json.Marshal(vaultSecret) // "vault\u003cSECRET\u003e\"value\""
	echo := func(s string) string {
		return `{"type":"error","error":{"type":"overloaded_error","message":"echo ` + s + `"}}`
	}
	uEsc := `\u0074ok-bearer/SECRET+x` // a \u escape the scrubber does not foresee in the body
	tests := []struct {
		name string
		cred option.RequestOption
		body string
		echo string // echoed in a header
	}{
		{"bearer raw", option.WithAuthToken(bearer), echo(bearer), bearer},
		{"bearer \\/", option.WithAuthToken(bearer), echo(strings.ReplaceAll(bearer, "/", `\/`)), "Bearer " + bearer},
		{"bearer \\u", option.WithAuthToken(bearer), echo(uEsc), bearer},
		{"minted token", option.WithTokenSource(option.TokenSourceFunc(func(context.Context) (*option.Token, error) {
			return &option.Token{AccessToken: option.NewSecret(bearer)}, nil
		})), echo(bearer), bearer},
		{"api key", option.WithAPIKey(key), echo(key), key},
		{"vault secret, JSON-escaped", option.WithAPIKey(key), echo(string(esc[1 : len(esc)-1])), vaultSecret},
		{"vault secret in a non-JSON body", option.WithAPIKey(key), "<html>" + vaultSecret + "</html>", vaultSecret},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// x-should-retry: a create is resent only when the service says so.
			r := reply{status: 529, header: map[string]string{"Retry-After-Ms": "1", "X-Should-Retry": "true", "X-Echo": tt.echo}, body: tt.body}
			s := newScriptServer(t, r, r)
			var logs bytes.Buffer
			c := newBearerClient(t, s, tt.cred, option.WithMaxRetries(1),
				option.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
			_, err := c.Vaults.Credentials.Create(context.Background(), "vlt_1", mms.VaultCredentialCreateParams{
				Auth: mms.EnvironmentVariableAuthParams{SecretName: "K", SecretValue: mms.NewSecret(vaultSecret),
					Networking: mms.CredentialNetworkingUnrestricted{}}})
			var apiErr *mms.Error
			if !errors.As(err, &apiErr) {
				t.Fatalf("err = %v, want an *mms.Error", err)
			}
			out := err.Error() + fmt.Sprintf("%+v %#v %#v %s", err, err, apiErr, apiErr.Body) + fmt.Sprint(apiErr.Header) + logs.String()
			if !strings.Contains(logs.String(), "mms retry") {
				t.Fatal("no retry was logged")
			}
			for _, secret := range []string{"SECRET", string(esc[1 : len(esc)-1])} {
				if strings.Contains(out, secret) {
					t.Errorf("a secret shows: %s", out)
				}
			}
			if !strings.Contains(apiErr.Message, "[redacted]") {
				t.Errorf("message %q, want the mask", apiErr.Message)
			}
		})
	}
}

// TestBatchResultErrorsScrubbed: a results file whose errored lines echo
// the client's key (raw or JSON-escaped), or an invalid line quoting it,
// yields errors without it; a succeeded line is the caller's data, as sent.
func TestBatchResultErrorsScrubbed(t *testing.T) {
	const key = "sk-key-SECRET/0123"
	body := `{"custom_id":"a","result":{"type":"errored","error":{"type":"error","error":{"type":"invalid_request_error","message":"bad key sk-key-SECRET\/0123"}}}}` + "\n" +
		`{"custom_id":"b","result":{"type":"errored","error":{"type":"error","error":{"type":"invalid_request_error","message":"m","hint":"sk-key-SECRET/0123"}}}}` + "\n" +
		`{"custom_id":"c", sk-key-SECRET/0123` + "\n" +
		`{"custom_id":"d","result":{"type":"succeeded","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"sk-key-SECRET/0123"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}}}` + "\n"
	s := newScriptServer(t, reply{status: 200, body: body})
	c, err := mms.NewClient(option.WithAPIKey(key), option.WithBaseURL(s.URL))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	var succeeded string
	for r, err := range c.Messages.Batches.Results(context.Background(), "msgbatch_1") {
		if err != nil {
			fmt.Fprintf(&out, "%v %#v\n", err, err)
			continue
		}
		switch v := r.Result.(type) {
		case mms.ErroredBatchResult:
			b, _ := json.Marshal(r)
			fmt.Fprintf(&out, "%v %s %#v\n", v.Err(), b, v)
		case mms.SucceededBatchResult:
			succeeded = v.Message.Content[0].(mms.TextBlock).Text
		}
	}
	if strings.Contains(out.String(), "SECRET") {
		t.Errorf("a secret shows:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "bad key [redacted]") || !strings.Contains(out.String(), "line 3") {
		t.Errorf("want the mask and the invalid line's error:\n%s", out.String())
	}
	if succeeded != key {
		t.Errorf("succeeded text %q, want it as sent", succeeded)
	}
}
