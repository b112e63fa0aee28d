package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// syncBuffer is a bytes.Buffer the test reads while the worker writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestRun serves a self-hosted environment of mmstest until its queue is
// empty (stopWhenDone): each session gets its custom tool result and its
// sandbox result, and ends its turn.
func TestRun(t *testing.T) {
	client, _ := fakeclient.New(t)
	ctx := context.Background()
	var out syncBuffer
	envID, err := createEnvironment(ctx, client, &out)
	if err != nil {
		t.Fatal(err)
	}
	sessions, err := startDemoSessions(ctx, client, envID, 3, &out)
	if err != nil {
		t.Fatal(err)
	}
	if err := run(stopWhenDone(ctx, client, envID), client, envID, 2, &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}

	got := out.String()
	for _, want := range []string{"created self-hosted environment " + envID + "\n", "serving environment " + envID + "\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if !strings.HasSuffix(got, "stopped\n") || strings.Contains(got, "work ") || strings.Contains(got, "worker: ") {
		t.Errorf("output does not end cleanly:\n%s", got)
	}
	const sandboxOut = "would run: Use get_weather, then bash: date"
	for _, id := range sessions {
		for _, want := range []string{
			id + `: get_weather -> "sunny, 18 °C"`,
			id + `: bash -> "` + sandboxOut + `" (error: false)`,
			id + ": turn ended\n",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("output lacks %q:\n%s", want, got)
			}
		}
		// The session's own events: both answers stored, and the turn
		// ended after them.
		var custom, sandbox []string
		var last mms.SessionEvent
		for ev, err := range client.Sessions.Events.List(ctx, id, mms.SessionEventListParams{}) {
			if err != nil {
				t.Fatal(err)
			}
			switch ev := ev.(type) {
			case mms.UserCustomToolResultEvent:
				custom = append(custom, text(ev.Content))
			case mms.UserToolResultEvent:
				sandbox = append(sandbox, text(ev.Content))
			}
			last = ev
		}
		if len(custom) != 1 || custom[0] != "sunny, 18 °C" || len(sandbox) != 1 || sandbox[0] != sandboxOut {
			t.Errorf("session %s: custom results %q, sandbox results %q", id, custom, sandbox)
		}
		if idle, ok := last.(mms.SessionStatusIdleEvent); !ok {
			t.Errorf("session %s ends with %T", id, last)
		} else if _, ok := idle.StopReason.(mms.SessionEndTurn); !ok {
			t.Errorf("session %s ends idle with %T", id, idle.StopReason)
		}
	}
}

// text joins the text blocks of a result.
func text(content []mms.SessionContentBlock) string {
	var b strings.Builder
	for _, c := range content {
		if t, ok := c.(mms.TextBlock); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"turn ended", "stopped\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
