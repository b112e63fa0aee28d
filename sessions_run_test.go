package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// The session event stream and the runner against mmstest's session
// simulator.

// loggedEvent is the id and type of an event of the fake's own log.
type loggedEvent struct{ ID, Type string }

func fakeLog(t *testing.T, srv *mmstest.Server, sessionID string) []loggedEvent {
	t.Helper()
	var out []loggedEvent
	for _, raw := range srv.SessionEventLog(sessionID) {
		var e loggedEvent
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// agentFake is a fake (on a ManualClock, its session turns emitting an
// event every millisecond), a client without retries, an agent with tools
// and an environment with config (nil: cloud).
type agentFake struct {
	srv   *mmstest.Server
	c     *mms.Client
	agent string
	env   string
}

func newAgentFake(t *testing.T, tools []mms.AgentTool, config mms.EnvironmentConfig) agentFake {
	t.Helper()
	clock := mmstest.NewManualClock(time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC))
	srv := mmstest.NewServer(mmstest.WithManualClock(clock), mmstest.WithSessionEventDelay(time.Millisecond))
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0))
	ctx := context.Background()
	a, err := c.Agents.Create(ctx, mms.AgentCreateParams{Name: "worker", Model: mms.AgentModel("m"), Tools: tools})
	require.NoError(t, err)
	env, err := c.Environments.Create(ctx, mms.EnvironmentCreateParams{Name: "env", Config: config})
	require.NoError(t, err)
	return agentFake{srv: srv, c: c, agent: a.ID, env: env.ID}
}

// session creates a session of the fake's agent in its environment.
func (f agentFake) session(t *testing.T, initial ...mms.SessionEventParams) string {
	t.Helper()
	s, err := f.c.Sessions.Create(context.Background(), mms.SessionCreateParams{
		Agent: mms.SessionAgentID(f.agent), EnvironmentID: f.env, InitialEvents: initial})
	require.NoError(t, err)
	return s.ID
}

// newSimSession is a fake with a cloud environment and one session of an
// agent with tools.
func newSimSession(t *testing.T, tools []mms.AgentTool) (*mmstest.Server, *mms.Client, string) {
	t.Helper()
	f := newAgentFake(t, tools, nil)
	return f.srv, f.c, f.session(t)
}

func send(t *testing.T, c *mms.Client, sessionID string, events ...mms.SessionEventParams) {
	t.Helper()
	if _, err := c.Sessions.Events.Send(context.Background(), sessionID, mms.SessionEventSendParams{Events: events}); err != nil {
		t.Fatal(err)
	}
}

// TestSessionStreamSurvivesFaultsAgainstFake streams a session to its end
// across three cut connections, a stalled one, and connections that
// repeat and reorder events: every stored event arrives once, in the
// order of the fake's own log.
func TestSessionStreamSurvivesFaultsAgainstFake(t *testing.T) {
	srv, c, id := newSimSession(t, nil)
	srv.InjectStreamFault(mmstest.StreamFault{Path: "/v1/sessions/", CutAfterEvents: 4, Times: 3, ReplayOnConnect: 3})
	srv.InjectStreamFault(mmstest.StreamFault{Path: "/v1/sessions/", StallAfterEvents: 2, Stall: time.Hour, Times: 1, DuplicateEvents: true})
	// One message a turn, each sent when the session is idle, as a
	// program does (a message sent while a turn runs waits in the queue
	// and takes its place in the log when processed).
	const turns = 6
	send(t, c, id, mms.NewUserMessageEvent("message 0"))
	var got []loggedEvent
	idle := 0
	stream := c.Sessions.Events.Stream(context.Background(), id, mms.SessionEventStreamParams{
		IncludeHistory: true, EventDeltas: []string{"agent.message"},
		Reconnect: mms.ReconnectPolicy{InitialDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond},
	}, option.WithStreamIdleTimeout(200*time.Millisecond))
	for ev, err := range stream {
		if err != nil {
			t.Fatalf("after %d events: %v", len(got), err)
		}
		if ev.EventID() == "" {
			continue // previews
		}
		got = append(got, loggedEvent{ev.EventID(), ev.EventType()})
		if st, ok := ev.(mms.SessionStatusIdleEvent); ok {
			if _, end := st.StopReason.(mms.SessionEndTurn); end {
				if idle++; idle == turns {
					if err := srv.TerminateSession(id); err != nil {
						t.Fatal(err)
					}
				} else {
					send(t, c, id, mms.NewUserMessageEvent(fmt.Sprintf("message %d", idle)))
				}
			}
		}
	}
	want := fakeLog(t, srv, id)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("streamed events differ from the fake's log (-log +streamed):\n%s", diff)
	}
	if want[len(want)-1].Type != "session.status_terminated" {
		t.Errorf("the log ends with %s", want[len(want)-1].Type)
	}
	streams := 0
	for _, r := range srv.Requests() {
		if strings.HasSuffix(r.Path, "/events/stream") {
			streams++
		}
	}
	if streams < 5 {
		t.Errorf("%d stream connections, want at least 5 (3 cut, 1 stalled, 1 to the end)", streams)
	}
}

func TestSessionEventAccumulatorAgainstFake(t *testing.T) {
	srv, c, id := newSimSession(t, nil)
	send(t, c, id, mms.NewUserMessageEvent("a longer message, so that the reply comes in several fragments of text"))
	var acc mms.SessionEventAccumulator
	var previews []string
	var final string
	for ev, err := range c.Sessions.Events.Stream(context.Background(), id, mms.SessionEventStreamParams{
		IncludeHistory: true, EventDeltas: []string{"agent.message"},
	}) {
		require.NoError(t, err)
		shown := acc.Add(ev)
		switch ev.(type) {
		case mms.SessionEventDelta:
			previews = append(previews, shown.(mms.AgentMessageEvent).Text())
		case mms.AgentMessageEvent:
			final = shown.(mms.AgentMessageEvent).Text()
			if len(acc.Pending()) != 0 {
				t.Errorf("pending after the final event: %v", acc.Pending())
			}
		case mms.SessionStatusIdleEvent:
			if err := srv.TerminateSession(id); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(previews) < 2 || previews[len(previews)-1] != final || !strings.HasPrefix(final, previews[0]) {
		t.Errorf("previews %q, final %q", previews, final)
	}
}

// askTools is an agent's tools: two custom ones and the built-in bash and
// read, which ask for a confirmation.
func askTools() []mms.AgentTool {
	ask := mms.AlwaysAskPolicy{}
	return []mms.AgentTool{
		customTool("weather", "the weather"),
		customTool("stocks", "stock prices"),
		mms.AgentToolset20260401{Configs: []mms.AgentToolConfig{
			mms.BashToolConfig{PermissionPolicy: ask}, mms.ReadToolConfig{PermissionPolicy: ask},
		}},
	}
}

// TestSessionRunnerAgainstFake completes a session with two custom tools
// (one panics), a confirmation allowed and one denied, and result posts
// that fail twice.
func TestSessionRunnerAgainstFake(t *testing.T) {
	srv, c, id := newSimSession(t, askTools())
	send(t, c, id, mms.NewUserMessageEvent("check the weather and the stocks, then bash and read"))
	srv.InjectFault(mmstest.Fault{Method: "POST", Path: "/v1/sessions/" + id + "/events", Statuses: []int{500, 503}})
	var weatherCalls atomic.Int32
	steps := map[mms.SessionRunStepKind]int{}
	var results []mms.SessionRunStep
	for step, err := range c.Sessions.Run(context.Background(), id, mms.SessionRunParams{
		Tools: map[string]mms.SessionToolFunc{
			"weather": func(ctx context.Context, call mms.AgentCustomToolUseEvent) (string, error) {
				weatherCalls.Add(1)
				return "sunny", nil
			},
			"stocks": func(ctx context.Context, call mms.AgentCustomToolUseEvent) (string, error) {
				panic("no market data")
			},
		},
		Confirm: func(ctx context.Context, call mms.SessionEvent) (mms.ToolDecision, error) {
			use := call.(mms.AgentToolUseEvent)
			if use.Name == "read" {
				return mms.ToolDecision{DenyMessage: "reading is not allowed"}, nil
			}
			return mms.ToolDecision{Allow: true}, nil
		},
	}) {
		require.NoError(t, err)
		steps[step.Kind]++
		if step.Kind == mms.StepToolResult || step.Kind == mms.StepConfirmation {
			results = append(results, step)
		}
	}
	if steps[mms.StepRetry] != 2 || steps[mms.StepToolResult] != 2 || steps[mms.StepConfirmation] != 2 {
		t.Errorf("steps %v, want 2 retries, 2 tool results, 2 confirmations", steps)
	}
	if weatherCalls.Load() != 1 {
		t.Errorf("weather ran %d times", weatherCalls.Load())
	}
	for _, s := range results {
		if use, ok := s.Event.(mms.AgentCustomToolUseEvent); ok && use.Name == "stocks" {
			var panicked *mms.ToolPanicError
			if !s.IsError || !errors.As(s.Err, &panicked) || s.Output != "the tool panicked: no market data" {
				t.Errorf("stocks step: %+v", s)
			}
		}
	}
	// The fake's log: each answer once, the denied call not run.
	answers := map[string]int{}
	var denied, ranBash bool
	var useNames = map[string]string{}
	for _, raw := range srv.SessionEventLog(id) {
		ev, err := decodeSessionEvent(raw)
		require.NoError(t, err)
		switch ev := ev.(type) {
		case mms.AgentToolUseEvent:
			useNames[ev.ID] = ev.Name
		case mms.UserCustomToolResultEvent:
			answers[ev.CustomToolUseID]++
		case mms.UserToolConfirmationEvent:
			answers[ev.ToolUseID]++
			denied = denied || (ev.Result == mms.ToolConfirmationDeny && useNames[ev.ToolUseID] == "read")
		case mms.AgentToolResultEvent:
			ranBash = ranBash || (useNames[ev.ToolUseID] == "bash" && !ev.IsError)
		}
	}
	if len(answers) != 4 {
		t.Errorf("answers %v, want 4 calls answered", answers)
	}
	for call, n := range answers {
		if n != 1 {
			t.Errorf("call %s answered %d times", call, n)
		}
	}
	if !denied || !ranBash {
		t.Errorf("read denied %v, bash ran %v", denied, ranBash)
	}
}

// TestSessionRunnerReconcilesPastCalls starts the runner after the call was
// made: it is answered once; a second runner finds nothing to do.
func TestSessionRunnerReconcilesPastCalls(t *testing.T) {
	srv, c, id := newSimSession(t, askTools())
	send(t, c, id, mms.NewUserMessageEvent("the weather please"))
	waitForLog(t, srv, id, "agent.custom_tool_use")
	var runs atomic.Int32
	tools := map[string]mms.SessionToolFunc{"weather": func(context.Context, mms.AgentCustomToolUseEvent) (string, error) {
		runs.Add(1)
		return "", nil // an empty output is posted as "(no output)"
	}}
	for i := range 2 {
		for step, err := range c.Sessions.Run(context.Background(), id, mms.SessionRunParams{Tools: tools}) {
			if err != nil {
				t.Fatalf("run %d: %v", i, err)
			}
			if step.Kind == mms.StepToolResult && step.Output != "(no output)" {
				t.Errorf("output %q", step.Output)
			}
		}
	}
	if runs.Load() != 1 {
		t.Errorf("the tool ran %d times", runs.Load())
	}
}

func waitForLog(t *testing.T, srv *mmstest.Server, id, typ string) {
	t.Helper()
	for range 2000 {
		for _, e := range fakeLog(t, srv, id) {
			if e.Type == typ {
				return
			}
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("no %s in the log", typ)
}

func TestSessionRunParamsValidation(t *testing.T) {
	c, err := mms.NewClient(option.WithAPIKey(testKey), option.WithBaseURL("http://127.0.0.1:1"))
	require.NoError(t, err)
	ok := func(context.Context, mms.AgentCustomToolUseEvent) (string, error) { return "", nil }
	tests := []struct {
		name  string
		id    string
		p     mms.SessionRunParams
		field string
	}{
		{"no session", "", mms.SessionRunParams{}, "session_id"},
		{"unnamed tool", "s", mms.SessionRunParams{Tools: map[string]mms.SessionToolFunc{"": ok}}, "Tools"},
		{"nil tool", "s", mms.SessionRunParams{Tools: map[string]mms.SessionToolFunc{"x": nil}}, "Tools[x]"},
		{"negative concurrency", "s", mms.SessionRunParams{MaxConcurrency: -1}, "MaxConcurrency"},
		{"negative timeout", "s", mms.SessionRunParams{IdleTimeout: -1}, "ToolTimeout"},
		{"stream params", "s", mms.SessionRunParams{Stream: mms.SessionEventStreamParams{EventDeltas: []string{""}}}, "event_deltas[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, err := range c.Sessions.Run(context.Background(), tt.id, tt.p) {
				var verr *mms.ValidationError
				if !errors.As(err, &verr) || verr.Field != tt.field {
					t.Fatalf("error %v, want a ValidationError for %s", err, tt.field)
				}
			}
		})
	}
}

// decodeSessionEvent decodes one stored event through the event union.
func decodeSessionEvent(raw json.RawMessage) (mms.SessionEvent, error) {
	var r mms.SessionEventSendResult
	if err := json.Unmarshal([]byte(`{"data":[`+string(raw)+`]}`), &r); err != nil {
		return nil, err
	}
	return r.Data[0], nil
}

// TestSessionRunnerLeavesCallsItDoesNotOwn: a call of a tool the runner
// was not given waits for its owner; with UntilTerminated the runner goes
// on until the session ends.
func TestSessionRunnerLeavesCallsItDoesNotOwn(t *testing.T) {
	srv, c, id := newSimSession(t, askTools())
	send(t, c, id, mms.NewUserMessageEvent("the weather please"))
	var sawCall bool
	for step, err := range c.Sessions.Run(context.Background(), id, mms.SessionRunParams{
		Tools:           map[string]mms.SessionToolFunc{"stocks": func(context.Context, mms.AgentCustomToolUseEvent) (string, error) { return "up", nil }},
		UntilTerminated: true,
	}) {
		require.NoError(t, err)
		if step.Kind != mms.StepEvent {
			t.Errorf("the runner acted: %+v", step)
		}
		if st, ok := step.Event.(mms.SessionStatusIdleEvent); ok && !sawCall {
			if _, waits := st.StopReason.(mms.SessionRequiresAction); waits {
				sawCall = true
				if err := srv.TerminateSession(id); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	for _, e := range fakeLog(t, srv, id) {
		if e.Type == "user.custom_tool_result" {
			t.Errorf("the weather call was answered")
		}
	}
	if !sawCall {
		t.Error("the session never waited for the call")
	}
}

// TestSessionRunnerIdleTimeout: with IdleTimeout 0 Run returns at the
// first idle end_turn; with an IdleTimeout, a message sent during the
// wait (shortly after the idle step, from another goroutine: a runner
// that did not wait would have returned by then) starts the wait over and
// its turn is run before Run returns.
func TestSessionRunnerIdleTimeout(t *testing.T) {
	for _, wait := range []time.Duration{0, 2 * time.Second} {
		t.Run(wait.String(), func(t *testing.T) {
			_, c, id := newSimSession(t, nil)
			send(t, c, id, mms.NewUserMessageEvent("first"))
			idles, sent := 0, false
			for step, err := range c.Sessions.Run(context.Background(), id, mms.SessionRunParams{IdleTimeout: wait}) {
				require.NoError(t, err)
				idle, ok := step.Event.(mms.SessionStatusIdleEvent)
				if !ok {
					continue
				}
				if _, endTurn := idle.StopReason.(mms.SessionEndTurn); !endTurn {
					continue
				}
				idles++
				if !sent && wait > 0 {
					sent = true
					done := make(chan error, 1)
					time.AfterFunc(50*time.Millisecond, func() {
						_, err := c.Sessions.Events.Send(context.Background(), id, mms.SessionEventSendParams{Events: []mms.SessionEventParams{mms.NewUserMessageEvent("second")}})
						done <- err
					})
					defer func() {
						if err := <-done; err != nil {
							t.Error(err)
						}
					}()
				}
			}
			want := 2
			if wait == 0 {
				want = 1
			}
			if idles != want {
				t.Errorf("Run saw %d idle end_turns, want %d", idles, want)
			}
		})
	}
}

// TestSessionRunnerConfirmPanicDenies: a panic in Confirm is contained as a
// *ToolPanicError naming the hook, and the call is denied, never run.
func TestSessionRunnerConfirmPanicDenies(t *testing.T) {
	_, c, id := newSimSession(t, askTools())
	send(t, c, id, mms.NewUserMessageEvent("bash and read"))
	ran := false
	confirmations := 0
	for step, err := range c.Sessions.Run(context.Background(), id, mms.SessionRunParams{
		Tools:   map[string]mms.SessionToolFunc{"weather": func(context.Context, mms.AgentCustomToolUseEvent) (string, error) { return "sunny", nil }},
		Sandbox: func(context.Context, mms.AgentToolUseEvent) (string, error) { ran = true; return "ok", nil },
		Confirm: func(context.Context, mms.SessionEvent) (mms.ToolDecision, error) { panic("a bug in Confirm") },
	}) {
		require.NoError(t, err)
		if step.Kind != mms.StepConfirmation {
			continue
		}
		confirmations++
		var pe *mms.ToolPanicError
		if step.Decision.Allow || !errors.As(step.Err, &pe) || pe.Hook != "Confirm" ||
			!strings.Contains(step.Decision.DenyMessage, "the Confirm hook panicked: a bug in Confirm") {
			t.Errorf("confirmation step %+v (err %v): want a denial for Confirm's panic", step, step.Err)
		}
	}
	if confirmations == 0 || ran {
		t.Errorf("%d confirmations, sandbox ran %v: want denials and no run", confirmations, ran)
	}
}
