package main

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// The pattern to copy: fakeclient.New(t) starts the fake and returns a
// client for it (the fake closes when the test ends); the script says what
// the model does; FailNext injects a failure.

func TestSummarize(t *testing.T) {
	client, srv := fakeclient.New(t)
	srv.Script(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "word_count", Input: `{"text":"one two three"}`}}},
		mmstest.Turn{Text: "Three words about counting."},
	)

	got, err := summarize(context.Background(), client, "mms-large-1", "one two three")
	if err != nil {
		t.Fatal(err)
	}
	if got != "Three words about counting." {
		t.Errorf("summary = %q", got)
	}
	// The second request carried the tool's answer back to the model.
	reqs := srv.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), `"tool_result"`) ||
		!strings.Contains(string(reqs[1].Body), `"content":"3"`) {
		t.Errorf("requests: %d, last %s", len(reqs), reqs[len(reqs)-1].Body)
	}
}

func TestSummarizeParallelAndUnknownTools(t *testing.T) {
	client, srv := fakeclient.New(t)
	// The model calls the tool twice at once; the results go back together.
	srv.Script(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "word_count", Input: `{"text":"a b"}`}, {Name: "word_count"}}},
		mmstest.Turn{Text: "done"},
	)
	if got, err := summarize(context.Background(), client, "mms-large-1", "a b"); err != nil || got != "done" {
		t.Fatalf("summary %q, err %v", got, err)
	}
	var sent struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	reqs := srv.Requests()
	if err := json.Unmarshal(reqs[len(reqs)-1].Body, &sent); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(sent.Messages[2].Content), `"tool_result"`); n != 2 {
		t.Errorf("%d tool results in one turn, want 2", n)
	}
}

func TestSummarizeKeepsCallingTools(t *testing.T) {
	client, srv := fakeclient.New(t)
	call := mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "word_count"}}}
	srv.Script(call, call, call, call, call)
	if _, err := summarize(context.Background(), client, "mms-large-1", "x"); err == nil {
		t.Fatal("no error from a model that never stops calling tools")
	}
}

func TestSummarizeErrors(t *testing.T) {
	client, srv := fakeclient.New(t)

	// An overload is retried by the client: the app never sees it.
	srv.FailNext("/v1/messages", 529)
	if _, err := summarize(context.Background(), client, "mms-large-1", "x"); err != nil {
		t.Fatalf("after one retried 529: %v", err)
	}

	// A refusal is not retried: the app returns it, wrapped.
	srv.FailNext("/v1/messages", 400)
	_, err := summarize(context.Background(), client, "mms-large-1", "x")
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || !strings.HasPrefix(err.Error(), "summarize: ") {
		t.Fatalf("err = %v, want the 400 wrapped by summarize", err)
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"You said: "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
