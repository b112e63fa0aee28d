package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/bedrock"
	"github.com/mms-sdk/mms-go/bedrock/bedrocktest"
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
