package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	mms "github.com/mms-sdk/mms-go"
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
// empty: each session gets its custom tool result and its sandbox result,
// and ends its turn.
func TestRun(t *testing.T) {
	client, _ := fakeclient.New(t)
	ctx := context.Background()
	var out syncBuffer
	envID, err := createEnvironment(ctx, client, &out)
	if err != nil {
		t.Fatal(err)
	}
	agent, err := client.Agents.Create(ctx, mms.AgentCreateParams{
		Name: "weather", Model: mms.AgentModel("mms-large-1"),
		Tools: []mms.AgentTool{
			mms.AgentCustomTool{Name: "get_weather", Description: "The weather.",
				InputSchema: mms.InputSchema(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)},
			mms.AgentToolset20260401{
				DefaultConfig: &mms.AgentToolsetDefaultConfig{Enabled: mms.Ptr(false)},
				Configs:       []mms.AgentToolConfig{mms.BashToolConfig{Enabled: mms.Ptr(true)}},
			},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var sessions []string
	for range 3 {
		s, err := client.Sessions.Create(ctx, mms.SessionCreateParams{
			Agent: mms.SessionAgentID(agent.ID), EnvironmentID: envID,
			InitialEvents: []mms.SessionEventParams{mms.NewUserMessageEvent("Use get_weather, then bash: date")},
		})
		if err != nil {
			t.Fatal(err)
		}
		sessions = append(sessions, s.ID)
	}

	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- run(wctx, client, envID, 2, &out) }()
	// The queue is empty once every session's work item is taken and
	// stopped: the worker stops an item when its session's turn ended.
	for {
		stats, err := client.Environments.Work.Stats(ctx, envID)
		if err != nil {
			t.Fatal(err)
		}
		if stats.Depth == 0 && stats.Pending == 0 {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("run returned early: %v\n%s", err, out.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; err != nil {
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
