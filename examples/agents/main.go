// Command agents tours the managed-agents resources: it creates an agent
// with a custom tool and an MCP toolset, updates it (a new version, guarded
// by the version it read), lists its versions, creates a cloud environment
// with limited networking and a few packages, starts sessions of the agent
// in it, and lists them newest first and then back from the oldest end.
//
// It reads its credentials and address from the environment, as
// mms.NewClient does ($VENDOR_API_KEY or $VENDOR_AUTH_TOKEN, and
// $VENDOR_BASE_URL); with none of them set it runs against mmstest, the
// SDK's built-in fake, and says so on stderr:
//
//	go run ./examples/agents -model mms-large-1
//
// Everything it creates is archived at the end (agents and environments
// have no hard delete in this tour).
package main

import (
	"context"
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

// run is the whole example.
func run(ctx context.Context, client *mms.Client, model string, out io.Writer) error {
	// 1. An agent: the built-in toolset asking before bash, a custom tool
	// the program would answer, and the tools of one MCP server.
	agent, err := client.Agents.Create(ctx, mms.AgentCreateParams{
		Name:   "support-triage",
		Model:  mms.AgentModel(model),
		System: "You triage support tickets.",
		Tools: []mms.AgentTool{
			mms.AgentToolset20260401{Configs: []mms.AgentToolConfig{
				mms.BashToolConfig{PermissionPolicy: mms.AlwaysAskPolicy{}},
			}},
			mms.AgentCustomTool{
				Name:        "lookup_customer",
				Description: "Look up a customer by email address.",
				InputSchema: mms.InputSchema(`{"type":"object","properties":{"email":{"type":"string"}},"required":["email"]}`),
			},
			mms.AgentMCPToolset{MCPServerName: "tickets"},
		},
		MCPServers: []mms.AgentMCPServer{{Name: "tickets", URL: "https://mcp.example.com/tickets"}},
		Metadata:   map[string]string{"team": "support"},
	})
	if err != nil {
		return fmt.Errorf("create agent: %w", err)
	}
	fmt.Fprintf(out, "created agent %s (version %d, %d tools)\n", agent.ID, agent.Version, len(agent.Tools))

	// 2. An update makes version 2. Version makes it conditional: had
	// someone else changed the agent since we read it, the service would
	// refuse it rather than overwrite their change.
	agent, err = client.Agents.Update(ctx, agent.ID, mms.AgentUpdateParams{
		Version:     agent.Version,
		System:      mms.Set("You triage support tickets. Be brief."),
		Description: mms.Set("Sorts incoming tickets"),
		Metadata:    mms.MetadataPatch{}.Set("owner", "ops").Delete("team"),
	})
	if err != nil {
		return fmt.Errorf("update agent: %w", err)
	}
	fmt.Fprintf(out, "updated agent to version %d: %q, metadata %v\n", agent.Version, *agent.System, agent.Metadata)
	for v, err := range client.Agents.Versions.List(ctx, agent.ID, mms.AgentVersionListParams{}) {
		if err != nil {
			return fmt.Errorf("list versions: %w", err)
		}
		fmt.Fprintf(out, "  version %d, updated %s\n", v.Version, v.UpdatedAt)
	}

	// 3. A cloud environment: outbound traffic to one host and the package
	// registries only, with pip packages installed.
	env, err := client.Environments.Create(ctx, mms.EnvironmentCreateParams{
		Name: "triage-sandbox",
		Config: mms.CloudEnvironmentConfig{
			Networking: mms.LimitedNetworking{AllowedHosts: []string{"api.example.com"}, AllowPackageManagers: mms.Ptr(true)},
			Packages:   &mms.EnvironmentPackages{Pip: []string{"requests==2.32.3"}},
		},
	})
	if err != nil {
		return fmt.Errorf("create environment: %w", err)
	}
	fmt.Fprintf(out, "created environment %s (%T)\n", env.ID, env.Config)

	// 4. Sessions of the agent's latest version in that environment.
	for _, title := range []string{"ticket 1", "ticket 2", "ticket 3"} {
		s, err := client.Sessions.Create(ctx, mms.SessionCreateParams{
			Agent: mms.SessionAgentID(agent.ID), EnvironmentID: env.ID, Title: title,
		})
		if err != nil {
			return fmt.Errorf("create session: %w", err)
		}
		fmt.Fprintf(out, "started session %s (%s) on agent version %d: %s\n", s.ID, *s.Title, s.Agent.Version, s.Status)
	}

	// 5. Sessions list both ways: pages of two, newest first; then from
	// the second page back along prev_page (that page, then the first; each
	// page's sessions still newest first).
	page, err := client.Sessions.ListPage(ctx, mms.SessionListParams{Limit: 2, AgentID: agent.ID})
	if err != nil {
		return fmt.Errorf("list sessions: %w", err)
	}
	fmt.Fprint(out, "newest first:")
	for s, err := range client.Sessions.List(ctx, mms.SessionListParams{Limit: 2, AgentID: agent.ID}) {
		if err != nil {
			return fmt.Errorf("list sessions: %w", err)
		}
		fmt.Fprintf(out, " %q", *s.Title)
	}
	fmt.Fprintln(out)
	if page.NextPage != nil {
		fmt.Fprint(out, "back from the second page:")
		for s, err := range client.Sessions.List(ctx, mms.SessionListParams{Limit: 2, AgentID: agent.ID,
			Page: *page.NextPage, FollowPrevPage: true}) {
			if err != nil {
				return fmt.Errorf("list sessions backwards: %w", err)
			}
			fmt.Fprintf(out, " %q", *s.Title)
		}
		fmt.Fprintln(out)
	}

	// 6. Tidy up.
	if _, err := client.Environments.Archive(ctx, env.ID); err != nil {
		return fmt.Errorf("archive environment: %w", err)
	}
	if _, err := client.Agents.Archive(ctx, agent.ID); err != nil {
		return fmt.Errorf("archive agent: %w", err)
	}
	fmt.Fprintln(out, "archived the environment and the agent")
	return nil
}
