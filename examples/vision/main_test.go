package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// TestRun sends the generated PNG to mmstest, which checks that the data
// decodes as the media type the SDK sniffed.
func TestRun(t *testing.T) {
	client, srv := fakeclient.New(t)
	var out bytes.Buffer
	if err := run(context.Background(), client, "mms-large-1", samplePNG(), "What color?", &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != "You said: What color?\n" {
		t.Errorf("out = %q", out.String())
	}
	if got := srv.Requests(); len(got) != 1 || !bytes.Contains(got[0].Body, []byte(`"media_type":"image/png"`)) {
		t.Errorf("request = %s", got[0].Body)
	}

	// Bytes that are no image are refused by the service.
	err := run(context.Background(), client, "mms-large-1", []byte("not an image"), "What color?", &out)
	if err == nil || !strings.Contains(err.Error(), "image") {
		t.Errorf("err = %v", err)
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"You said: What color is this square?"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
