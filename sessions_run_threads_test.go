package mms

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSessionRunnerDropsTerminatedThreadCalls: once a thread terminates,
// its waiting calls are no longer owed, a running one is cancelled and
// posts nothing, and a later call of it is not taken; other threads'
// calls are untouched.
func TestSessionRunnerDropsTerminatedThreadCalls(t *testing.T) {
	th, other := "sthr_1", "sthr_2"
	tool := func(context.Context, AgentCustomToolUseEvent) (string, error) { return "ok", nil }
	r := &sessionRun{p: SessionRunParams{Tools: map[string]SessionToolFunc{"t": tool}}.withDefaults(), calls: map[string]*runCall{}}
	r.note(AgentCustomToolUseEvent{ID: "c1", Name: "t", SessionThreadID: &th})
	r.note(AgentCustomToolUseEvent{ID: "c2", Name: "t", SessionThreadID: &th})
	r.note(AgentCustomToolUseEvent{ID: "c3", Name: "t", SessionThreadID: &other})
	require.True(t, r.owesAnswers())
	cancelled := false
	r.calls["c1"].started, r.calls["c1"].cancel = true, func() { cancelled = true }

	r.note(SessionThreadStatusTerminatedEvent{ID: "e", SessionThreadID: th})
	assert.True(t, cancelled, "the running call is cancelled")
	assert.True(t, r.calls["c1"].answered && r.calls["c2"].answered, "no call of the thread is owed")
	assert.False(t, r.calls["c3"].answered, "another thread's call is still owed")
	r.note(AgentCustomToolUseEvent{ID: "c4", Name: "t", SessionThreadID: &th})
	assert.Nil(t, r.calls["c4"], "a later call of the terminated thread is not taken")

	// A worker whose context was cancelled for the thread posts nothing
	// (r.events is nil: a post would panic).
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errThreadTerminated)
	d := r.execute(ctx, &runCall{ev: AgentCustomToolUseEvent{ID: "c1", Name: "t", SessionThreadID: &th}, kind: callCustom})
	assert.True(t, d.dropped)
}
