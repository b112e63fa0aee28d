// Command deployments tours deployments: it creates an agent and an
// environment, deploys the agent on a cron schedule with its first
// message, pauses the schedule, runs the deployment now anyway (the run
// creates a session), lists the runs, and archives the deployment.
//
// It reads its credentials and address from the environment, as
// mms.NewClient does ($VENDOR_API_KEY or $VENDOR_AUTH_TOKEN, and
// $VENDOR_BASE_URL); with none of them set it runs against mmstest, the
// SDK's built-in fake, and says so on stderr:
//
//	go run ./examples/deployments
//
// The deployment, agent and environment are archived at the end.
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

// run is the whole example; main_test.go runs it against mmstest.
func run(ctx context.Context, client *mms.Client, model string, out io.Writer) error {
	agent, err := client.Agents.Create(ctx, mms.AgentCreateParams{Name: "inbox triager", Model: mms.AgentModel(model),
		System: "You sort the support inbox."})
	if err != nil {
		return fmt.Errorf("create agent: %w", err)
	}
	env, err := client.Environments.Create(ctx, mms.EnvironmentCreateParams{Name: "triage"})
	if err != nil {
		return fmt.Errorf("create environment: %w", err)
	}

	// 1. A deployment: the agent (its latest version, pinned), where it
	// runs, what each session starts with, and when it fires: 07:30 on
	// weekdays, Paris time.
	d, err := client.Deployments.Create(ctx, mms.DeploymentCreateParams{
		Name:          "morning triage",
		Agent:         mms.SessionAgentID(agent.ID),
		EnvironmentID: env.ID,
		InitialEvents: []mms.DeploymentInitialEvent{
			mms.NewUserMessageEvent("Sort yesterday's tickets by urgency."),
			mms.NewSystemMessageEvent("Answer in one short paragraph."),
		},
		Schedule: &mms.DeploymentScheduleParams{Expression: "30 7 * * 1-5", Timezone: "Europe/Paris"},
		Budget:   mms.Ptr(mms.DeploymentBudgetCents(500)), // $5.00 per session
		Metadata: map[string]string{"team": "support"},
	})
	if err != nil {
		return fmt.Errorf("create deployment: %w", err)
	}
	fmt.Fprintf(out, "deployed %s (agent version %d), %s\n", d.Name, d.Agent.Version, d.Status)
	fmt.Fprintf(out, "next fires: %d listed, the first at %s\n", len(d.Schedule.UpcomingRunsAt), d.Schedule.UpcomingRunsAt[0])

	// 2. Pause the schedule for a holiday; running by hand still works.
	d, err = client.Deployments.Pause(ctx, d.ID)
	if err != nil {
		return fmt.Errorf("pause: %w", err)
	}
	if _, manual := d.PausedReason.(mms.DeploymentPausedManual); manual {
		fmt.Fprintf(out, "%s: paused by hand\n", d.Status)
	}
	run, err := client.Deployments.Run(ctx, d.ID)
	if err != nil {
		return fmt.Errorf("run now: %w", err)
	}
	switch {
	case run.SessionID != nil:
		fmt.Fprintf(out, "run %s started session %s\n", run.ID, *run.SessionID)
	case run.Error != nil:
		fmt.Fprintf(out, "run %s failed: %s\n", run.ID, run.Error.Type)
	}

	// 3. The runs of the deployment, newest first, with what started them.
	for r, err := range client.Deployments.Runs.List(ctx, mms.DeploymentRunListParams{DeploymentID: d.ID}) {
		if err != nil {
			return fmt.Errorf("list runs: %w", err)
		}
		switch t := r.TriggerContext.(type) {
		case mms.DeploymentManualTrigger:
			fmt.Fprintf(out, "  %s: started by hand\n", r.ID)
		case mms.DeploymentScheduleTrigger:
			fmt.Fprintf(out, "  %s: scheduled for %s\n", r.ID, t.ScheduledAt)
		}
	}

	// 4. Back on schedule, then retired. There is no delete: an archived
	// deployment stays readable and never fires again.
	if d, err = client.Deployments.Unpause(ctx, d.ID); err != nil {
		return fmt.Errorf("unpause: %w", err)
	}
	fmt.Fprintf(out, "unpaused: %s\n", d.Status)
	if d, err = client.Deployments.Archive(ctx, d.ID); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	fmt.Fprintf(out, "archived; upcoming runs: %d\n", len(d.Schedule.UpcomingRunsAt))
	if _, err := client.Agents.Archive(ctx, agent.ID); err != nil {
		return fmt.Errorf("archive agent: %w", err)
	}
	if _, err := client.Environments.Archive(ctx, env.ID); err != nil {
		return fmt.Errorf("archive environment: %w", err)
	}
	return nil
}
