package main

import (
	"context"
	"fmt"
	"io"
	"time"

	mms "github.com/mms-sdk/mms-go"
)

// startDemoSessions creates an agent with the tools this worker answers
// and n sessions of it in the environment, each asked to use both; it
// returns their ids. The example runs it against the built-in fake only.
func startDemoSessions(ctx context.Context, client *mms.Client, envID string, n int, out io.Writer) ([]string, error) {
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
		return nil, fmt.Errorf("create agent: %w", err)
	}
	var ids []string
	for range n {
		s, err := client.Sessions.Create(ctx, mms.SessionCreateParams{
			Agent: mms.SessionAgentID(agent.ID), EnvironmentID: envID,
			InitialEvents: []mms.SessionEventParams{mms.NewUserMessageEvent("Use get_weather, then bash: date")},
		})
		if err != nil {
			return nil, fmt.Errorf("create session: %w", err)
		}
		ids = append(ids, s.ID)
	}
	fmt.Fprintf(out, "started %d sessions of agent %s\n", n, agent.ID)
	return ids, nil
}

// stopWhenDone returns a context that ends with ctx, or once the
// environment's queue is empty: every work item taken and stopped (the
// worker stops an item when its session's turn has ended).
func stopWhenDone(ctx context.Context, client *mms.Client, envID string) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		defer cancel()
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			stats, err := client.Environments.Work.Stats(ctx, envID)
			if err == nil && stats.Depth == 0 && stats.Pending == 0 {
				return
			}
		}
	}()
	return ctx
}
