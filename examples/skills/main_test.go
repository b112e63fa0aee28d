package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// TestRun uploads the embedded skill to mmstest, uses it and checks that
// it was deleted afterwards.
func TestRun(t *testing.T) {
	client, srv := fakeclient.New(t)
	files, err := mms.SkillFilesFromFS(sample, "haiku")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(context.Background(), client, "mms-large-1", files, "A poem, please.", &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "uploaded Example skill (custom)\nYou said: A poem, please.\n") {
		t.Errorf("out = %q", out.String())
	}
	var msgBody []byte
	for _, r := range srv.Requests() {
		if r.Path == "/v1/messages" {
			msgBody = r.Body
		}
	}
	if !bytes.Contains(msgBody, []byte(`"container":{"skills":[{"type":"custom","skill_id":"skill_`)) {
		t.Errorf("message request = %s", msgBody)
	}
	for s, err := range client.Skills.List(context.Background(), mms.SkillListParams{Source: mms.SkillSourceCustom}) {
		if err != nil {
			t.Fatal(err)
		}
		t.Errorf("skill %s left behind", s.ID)
	}

	// A directory without SKILL.md is refused before anything is sent.
	before := len(srv.Requests())
	err = run(context.Background(), client, "mms-large-1", []mms.SkillFile{{Path: "x/README.md", Reader: strings.NewReader("hi")}}, "?", &out)
	if err == nil || len(srv.Requests()) != before {
		t.Errorf("err = %v, %d requests sent", err, len(srv.Requests())-before)
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"uploaded Example skill"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
