package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	mms "github.com/mms-sdk/mms-go"
)

// runEventLoop is part 2: the same kind of session driven by hand, from
// its raw event stream. Sessions.Run does all of this for you; this loop
// shows what the events are and how to answer them.
func runEventLoop(ctx context.Context, client *mms.Client, agentID, envID string, out io.Writer) error {
	fmt.Fprintln(out, "== part 2: a raw event loop")
	s, err := client.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(agentID), EnvironmentID: envID})
	if err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	if _, err := client.Sessions.Events.Send(ctx, s.ID, mms.SessionEventSendParams{
		Events: []mms.SessionEventParams{mms.NewUserMessageEvent("Is it warm in Rome? Use get_weather.")},
	}); err != nil {
		return fmt.Errorf("send message: %w", err)
	}

	// The stream starts from the session's first event (IncludeHistory),
	// so the message sent above and what followed it are not missed, and
	// it reconnects by itself when the connection drops, yielding each
	// stored event once. Previews of agent.message (event_start and
	// event_delta) carry the text as it is written.
	stream := client.Sessions.Events.Stream(ctx, s.ID, mms.SessionEventStreamParams{
		IncludeHistory: true,
		EventDeltas:    []string{"agent.message"},
	})
	var acc mms.SessionEventAccumulator // folds the previews into messages
	text := &growingText{out: out}
	for ev, err := range stream {
		if err != nil {
			return fmt.Errorf("stream session %s: %w", s.ID, err)
		}
		shown := acc.Add(ev)
		switch ev := ev.(type) {
		case mms.SessionEventStart, mms.SessionEventDelta:
			// A preview: shown is the message as far as it got.
			if msg, ok := shown.(mms.AgentMessageEvent); ok {
				text.show(msg, false)
			}
		case mms.AgentMessageEvent:
			text.show(ev, true) // the final text replaces the preview
		case mms.UserMessageEvent:
			fmt.Fprintln(out, "  user sent a message")
		case mms.SessionStatusRunningEvent:
			fmt.Fprintln(out, "  running")
		case mms.AgentThinkingEvent:
			fmt.Fprintln(out, "  agent is thinking")
		case mms.AgentCustomToolUseEvent:
			// The agent waits for this program's answer. (This loop
			// answers every call it sees; a program that restarts
			// would first skip the calls already answered, as
			// Sessions.Run does.)
			if err := answer(ctx, client, s.ID, ev, out); err != nil {
				return err
			}
		case mms.AgentToolUseEvent:
			fmt.Fprintf(out, "  agent uses %s (permission %s)\n", ev.Name, ev.Permission())
		case mms.AgentToolResultEvent:
			fmt.Fprintf(out, "  %s finished (error: %v)\n", ev.ToolUseID, ev.IsError)
		case mms.SessionErrorEvent:
			fmt.Fprintf(out, "  session error %s: %s\n", ev.Error.ErrorType(), ev.Error.ErrorMessage())
		case mms.SessionUsageEvent:
			fmt.Fprintf(out, "  usage so far: %d tokens in, %d out\n", ev.Usage.InputTokens, ev.Usage.OutputTokens)
		case mms.SessionStatusIdleEvent:
			fmt.Fprintf(out, "  idle: %s\n", stopReason(ev.StopReason))
			if _, done := ev.StopReason.(mms.SessionEndTurn); done {
				// The turn is over. The stream would go on (the
				// session may get more input): leaving the loop
				// closes it.
				return nil
			}
		}
	}
	// The stream ends by itself only when the session is terminated or
	// deleted.
	return errors.New("the session ended before its turn did")
}

// answer runs the tool the agent called and posts its result.
func answer(ctx context.Context, client *mms.Client, sessionID string, call mms.AgentCustomToolUseEvent, out io.Writer) error {
	text, err := "", fmt.Errorf("no such tool: %s", call.Name)
	if tool, ok := tools[call.Name]; ok {
		text, err = tool(ctx, call)
	}
	if text == "" && err == nil {
		text = "(no output)" // the service refuses an empty result
	}
	result := mms.NewCustomToolResultEvent(call.ID, text)
	if err != nil {
		text = err.Error()
		result = mms.NewCustomToolErrorEvent(call.ID, text)
	}
	if _, err := client.Sessions.Events.Send(ctx, sessionID, mms.SessionEventSendParams{
		Events: []mms.SessionEventParams{result},
	}); err != nil {
		return fmt.Errorf("answer %s: %w", call.ID, err)
	}
	fmt.Fprintf(out, "  answered %s: %q (error: %v)\n", call.Name, text, result.IsError)
	return nil
}

// growingText prints agent messages as they are written: the start of a
// message once, then each new piece of its text.
type growingText struct {
	out     io.Writer
	printed map[string]string // by message id: the text printed so far
}

func (g *growingText) show(msg mms.AgentMessageEvent, final bool) {
	if g.printed == nil {
		g.printed = map[string]string{}
	}
	now := msg.Text()
	before, started := g.printed[msg.ID]
	switch {
	case !started:
		fmt.Fprintf(g.out, "  agent: %s", now)
	case strings.HasPrefix(now, before):
		fmt.Fprint(g.out, now[len(before):])
	default:
		// Previews are best effort: when the final text is not what
		// they said, print it whole.
		fmt.Fprintf(g.out, "\n  agent (corrected): %s", now)
	}
	g.printed[msg.ID] = now
	if final {
		fmt.Fprintln(g.out)
		delete(g.printed, msg.ID)
	}
}
