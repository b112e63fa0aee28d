package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/bedrock"
	"github.com/mms-sdk/mms-go/bedrock/bedrocktest"
	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// TestRun runs the example through Bedrock's front over mmstest: SigV4
// signed with the front's credentials, so it cannot rot.
func TestRun(t *testing.T) {
	t.Setenv("AWS_BEARER_TOKEN_BEDROCK", "") // sign, whatever the machine has
	front := bedrocktest.Front()
	srv := mmstest.NewServer(mmstest.WithPlatform(front))
	defer srv.Close()
	client, err := mms.NewClient(bedrock.WithConfig(bedrocktest.Config()),
		option.WithBaseURL(srv.URL), option.WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	var out, info bytes.Buffer
	if err := run(context.Background(), client, "mms-large-1", "Hello", &out, &info); err != nil {
		t.Fatal(err)
	}
	if out.String() != "You said: Hello\n" || !strings.HasPrefix(info.String(), "[end_turn, ") {
		t.Errorf("out %q, info %q", out.String(), info.String())
	}
	if a := front.Attempts(); len(a) != 1 || a[0].Auth != "sigv4" || a[0].Path != "/model/mms-large-1/invoke" {
		t.Errorf("attempts %+v", a)
	}

	// A model Bedrock does not serve: the refusal names the status.
	err = run(context.Background(), client, "no-such-model", "Hello", &out, &info)
	if err == nil || !strings.Contains(err.Error(), "refused by Amazon Bedrock (404 not_found_error") {
		t.Errorf("err = %v", err)
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	for _, k := range []string{"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE", "AWS_BEARER_TOKEN_BEDROCK", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"} {
		t.Setenv(k, "")
	}
	dir := t.TempDir() // no AWS config or credentials files
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"You said: Say hello in three languages."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
