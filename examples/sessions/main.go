// Command sessions runs managed-agent sessions from Go, in two ways:
//
//  1. With the session runner, client.Sessions.Run: the program registers
//     Go functions for the agent's custom tools (get_weather and
//     get_air_quality) and a ConfirmFunc that decides the built-in tool
//     calls that ask for a confirmation (bash is allowed, write is
//     denied). The runner answers each call once, posts the results with
//     retries, and stops when the turn ends; the program prints each step.
//  2. With a raw event loop (events.go): client.Sessions.Events.Stream with
//     the session's history and agent.message previews, a
//     SessionEventAccumulator that prints the agent's text as it grows, a
//     type switch over the common events, a custom tool call answered by
//     hand with Events.Send, and a break out of the loop at the end of the
//     turn.
//
// It reads its credentials and address from the environment, as
// mms.NewClient does ($VENDOR_API_KEY or $VENDOR_AUTH_TOKEN, and
// $VENDOR_BASE_URL); with none of them set it runs against mmstest, the
// SDK's built-in fake, and says so on stderr:
//
//	go run ./examples/sessions -model mms-large-1
//
// The agent and the cloud environment it creates are archived at the end.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
)

func main() {
	model := flag.String("model", "mms-large-1", "the model the agent runs on")
	flag.Parse()
	// In your program: client, err := mms.NewClient(), which reads $VENDOR_API_KEY
	// (or $VENDOR_AUTH_TOKEN) and $VENDOR_BASE_URL. Without them, New runs
	// the example against the built-in fake.
	client, fake, err := exampleclient.New()
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	if err := run(context.Background(), client, *model, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// tools are the Go functions behind the agent's custom tools, by name.
// Both parts of the example use them.
var tools = map[string]mms.SessionToolFunc{
	"get_weather": func(ctx context.Context, call mms.AgentCustomToolUseEvent) (string, error) {
		var in struct {
			City string `json:"city"`
			Unit string `json:"unit"`
		}
		if err := json.Unmarshal(call.Input, &in); err != nil {
			return "", fmt.Errorf("bad input: %w", err) // posted as an is_error result
		}
		if in.Unit == "fahrenheit" {
			return "sunny, 64 °F", nil
		}
		return "sunny, 18 °C", nil
	},
	"get_air_quality": func(ctx context.Context, call mms.AgentCustomToolUseEvent) (string, error) {
		return "AQI 42 (good)", nil
	},
}

// run is the whole example.
func run(ctx context.Context, client *mms.Client, model string, out io.Writer) error {
	// An agent with two custom tools, and of the built-in toolset only
	// bash and write, both asking for a confirmation before each call.
	ask := mms.AlwaysAskPolicy{}
	agent, err := client.Agents.Create(ctx, mms.AgentCreateParams{
		Name:   "weather-desk",
		Model:  mms.AgentModel(model),
		System: "You answer questions about the weather.",
		Tools: []mms.AgentTool{
			mms.AgentCustomTool{
				Name:        "get_weather",
				Description: "The current weather in a city.",
				InputSchema: mms.InputSchema(`{"type":"object","properties":{"city":{"type":"string"},` +
					`"unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city","unit"]}`),
			},
			mms.AgentCustomTool{
				Name:        "get_air_quality",
				Description: "The air quality index of a city.",
				InputSchema: mms.InputSchema(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
			},
			mms.AgentToolset20260401{
				DefaultConfig: &mms.AgentToolsetDefaultConfig{Enabled: mms.Ptr(false)},
				Configs: []mms.AgentToolConfig{
					mms.BashToolConfig{Enabled: mms.Ptr(true), PermissionPolicy: ask},
					mms.WriteToolConfig{Enabled: mms.Ptr(true), PermissionPolicy: ask},
				},
			},
		},
	})
	if err != nil {
		return fmt.Errorf("create agent: %w", err)
	}
	env, err := client.Environments.Create(ctx, mms.EnvironmentCreateParams{Name: "weather-desk"})
	if err != nil {
		return fmt.Errorf("create environment: %w", err)
	}
	fmt.Fprintf(out, "agent %s, environment %s\n", agent.ID, env.ID)

	if err := runWithRunner(ctx, client, agent.ID, env.ID, out); err != nil {
		return err
	}
	if err := runEventLoop(ctx, client, agent.ID, env.ID, out); err != nil {
		return err
	}

	if _, err := client.Environments.Archive(ctx, env.ID); err != nil {
		return fmt.Errorf("archive environment: %w", err)
	}
	if _, err := client.Agents.Archive(ctx, agent.ID); err != nil {
		return fmt.Errorf("archive agent: %w", err)
	}
	fmt.Fprintln(out, "archived the environment and the agent")
	return nil
}

// runWithRunner is part 1: a session run to the end of its turn by
// client.Sessions.Run.
func runWithRunner(ctx context.Context, client *mms.Client, agentID, envID string, out io.Writer) error {
	fmt.Fprintln(out, "== part 1: the session runner")
	s, err := client.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(agentID), EnvironmentID: envID})
	if err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	// Send the input first: the runner reads the session from its start,
	// so nothing the agent does is missed.
	msg := "How is it in Paris? Use get_weather and get_air_quality, then bash to save a note, or write one."
	if _, err := client.Sessions.Events.Send(ctx, s.ID, mms.SessionEventSendParams{
		Events: []mms.SessionEventParams{mms.NewUserMessageEvent(msg)},
	}); err != nil {
		return fmt.Errorf("send message: %w", err)
	}

	params := mms.SessionRunParams{
		Tools: tools,
		// Confirm decides the calls whose permission is "ask". A real
		// program might ask a person; this one allows bash only.
		Confirm: func(ctx context.Context, call mms.SessionEvent) (mms.ToolDecision, error) {
			if use, ok := call.(mms.AgentToolUseEvent); ok && use.Name == "bash" {
				return mms.ToolDecision{Allow: true}, nil
			}
			return mms.ToolDecision{DenyMessage: "this program allows only bash"}, nil
		},
	}
	// Run yields every event and every action; it returns once the
	// session is idle after end_turn with nothing left to answer.
	names := map[string]string{} // tool names by call id, for printing
	for step, err := range client.Sessions.Run(ctx, s.ID, params) {
		if err != nil {
			return fmt.Errorf("run session %s: %w", s.ID, err)
		}
		printStep(out, step, names)
	}
	return nil
}

// printStep prints one step of the runner in a line, skipping the
// events that say little on their own. names maps call ids to tool names.
func printStep(out io.Writer, step mms.SessionRunStep, names map[string]string) {
	switch step.Kind {
	case mms.StepToolResult:
		call := step.Event.(mms.AgentCustomToolUseEvent)
		fmt.Fprintf(out, "  ran %s: %q (error: %v)\n", call.Name, step.Output, step.IsError)
	case mms.StepConfirmation:
		// The call is a built-in tool's or an MCP server's.
		name := ""
		switch call := step.Event.(type) {
		case mms.AgentToolUseEvent:
			name = call.Name
		case mms.AgentMCPToolUseEvent:
			name = call.MCPServerName + "/" + call.Name
		}
		if step.Decision.Allow {
			fmt.Fprintf(out, "  allowed %s\n", name)
		} else {
			fmt.Fprintf(out, "  denied %s: %s\n", name, step.Decision.DenyMessage)
		}
	case mms.StepRetry:
		fmt.Fprintf(out, "  posting the answer to %s failed (attempt %d), retrying: %v\n", step.Event.EventID(), step.Attempt, step.Err)
	case mms.StepEvent:
		switch ev := step.Event.(type) {
		case mms.UserMessageEvent:
			fmt.Fprintln(out, "  user sent a message")
		case mms.AgentMessageEvent:
			fmt.Fprintf(out, "  agent: %s\n", ev.Text())
		case mms.AgentCustomToolUseEvent:
			fmt.Fprintf(out, "  agent calls %s\n", ev.Name)
		case mms.AgentToolUseEvent:
			names[ev.ID] = ev.Name
			fmt.Fprintf(out, "  agent calls %s (permission %s)\n", ev.Name, ev.Permission())
		case mms.AgentToolResultEvent:
			// The environment ran the call, or a denied call got its error.
			fmt.Fprintf(out, "  %s finished (error: %v)\n", names[ev.ToolUseID], ev.IsError)
		case mms.SessionStatusIdleEvent:
			fmt.Fprintf(out, "  idle: %s\n", stopReason(ev.StopReason))
		}
	}
}

// stopReason names an idle event's stop reason.
func stopReason(r mms.SessionStopReason) string {
	switch r := r.(type) {
	case mms.SessionEndTurn:
		return "end_turn"
	case mms.SessionRequiresAction:
		return fmt.Sprintf("requires_action (%d calls wait)", len(r.EventIDs))
	case mms.SessionRetriesExhausted:
		return "retries_exhausted"
	case mms.SessionBudgetReached:
		return "budget_reached"
	case mms.UnknownSessionStopReason:
		return r.Type
	}
	return fmt.Sprintf("%T", r)
}
