package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
	"github.com/mms-sdk/mms-go/vertex"
	"github.com/mms-sdk/mms-go/vertex/vertextest"
)

// TestRun runs the example against mmstest behind Vertex AI's front, so
// it cannot rot.
func TestRun(t *testing.T) {
	tokens := &vertextest.TokenSource{}
	front := vertextest.Front(tokens)
	srv := mmstest.NewServer(mmstest.WithPlatform(front))
	defer srv.Close()
	client, err := mms.NewClient(
		vertex.WithProject(vertextest.Region, vertextest.Project, vertex.WithTokenSource(tokens)),
		option.WithBaseURL(srv.URL), option.WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(context.Background(), client, "mms-large-1", "Hello", &out); err != nil {
		t.Fatal(err)
	}
	if want := "You said: Hello\n[end_turn, "; !bytes.HasPrefix(out.Bytes(), []byte(want)) {
		t.Errorf("out %q; want it to start with %q", out.String(), want)
	}
	if len(front.Attempts()) != 1 {
		t.Errorf("attempts %+v; want one, through the front", front.Attempts())
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	for _, k := range []string{vertex.EnvRegion, vertex.EnvProjectID, vertex.EnvBaseURL} {
		t.Setenv(k, "")
	}
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"You said: Say hello in three languages."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
