// Command worker serves a self-hosted environment: the sessions of an
// environment whose config is self_hosted run their tools on machines of
// yours, and this program is such a machine. It takes sessions from the
// environment's work queue with client.Environments.Work.Serve, keeps
// each work item's lease alive, answers the agent's get_weather custom
// tool, and runs the built-in bash tool in its sandbox function. This one
// runs nothing: it answers with the command it would have run. It serves
// until interrupted (Ctrl-C); any number of workers may serve one
// environment.
//
// It reads its credentials and address from the environment, as
// mms.NewClient does ($VENDOR_API_KEY or $VENDOR_AUTH_TOKEN, and
// $VENDOR_BASE_URL). Without -env it creates a self-hosted environment
// and prints its id; start sessions in it, and this worker runs them:
//
//	go run ./examples/worker -env env_... -max-sessions 4
//
// With none of those variables set it runs against mmstest, the SDK's
// built-in fake, and says so on stderr; as nobody else can start sessions
// in a fake inside this process, it starts three itself (demo.go) and
// stops once they are done:
//
//	go run ./examples/worker
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"sync"
	"syscall"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
)

func main() {
	envID := flag.String("env", "", "the self-hosted environment to serve; empty creates one")
	maxSessions := flag.Int("max-sessions", 4, "how many sessions to run at once")
	flag.Parse()
	// In your program: client, err := mms.NewClient(), which reads $VENDOR_API_KEY
	// (or $VENDOR_AUTH_TOKEN) and $VENDOR_BASE_URL. Without them, New runs
	// the example against the built-in fake.
	client, fake, err := exampleclient.New()
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	// Ctrl-C or a SIGTERM ends ctx: Serve then stops taking work and
	// returns once the sessions it runs have stopped. A session cut short
	// is taken again by another worker when its lease runs out.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *envID == "" {
		if *envID, err = createEnvironment(ctx, client, os.Stdout); err != nil {
			log.Fatal(err)
		}
	}
	if fake != nil {
		if _, err := startDemoSessions(ctx, client, *envID, 3, os.Stdout); err != nil {
			log.Fatal(err)
		}
		ctx = stopWhenDone(ctx, client, *envID)
	}
	if err := run(ctx, client, *envID, *maxSessions, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// createEnvironment creates a self-hosted environment.
func createEnvironment(ctx context.Context, client *mms.Client, out io.Writer) (string, error) {
	env, err := client.Environments.Create(ctx, mms.EnvironmentCreateParams{
		Name:   "go-worker",
		Config: mms.SelfHostedEnvironmentConfig{},
	})
	if err != nil {
		return "", fmt.Errorf("create environment: %w", err)
	}
	fmt.Fprintf(out, "created self-hosted environment %s\n", env.ID)
	return env.ID, nil
}

// run serves the environment until ctx ends.
func run(ctx context.Context, client *mms.Client, envID string, maxSessions int, out io.Writer) error {
	// Sessions run concurrently and report from their own goroutines:
	// one lock keeps their lines whole.
	var mu sync.Mutex
	printf := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(out, format, args...)
	}
	params := mms.WorkerParams{
		MaxSessions: maxSessions,
		Session: mms.SessionRunParams{
			Tools:   map[string]mms.SessionToolFunc{"get_weather": getWeather},
			Sandbox: sandbox,
		},
		// OnStep sees every step of every session; print what the worker did.
		OnStep: func(w *mms.Work, step mms.SessionRunStep) {
			session := w.Data.(mms.WorkSession).ID // Serve runs only session items
			switch step.Kind {
			case mms.StepToolResult:
				printf("%s: get_weather -> %q\n", session, step.Output)
			case mms.StepSandboxResult:
				call := step.Event.(mms.AgentToolUseEvent)
				printf("%s: %s -> %q (error: %v)\n", session, call.Name, step.Output, step.IsError)
			case mms.StepEvent:
				if idle, ok := step.Event.(mms.SessionStatusIdleEvent); ok {
					if _, end := idle.StopReason.(mms.SessionEndTurn); end {
						printf("%s: turn ended\n", session)
					}
				}
			}
		},
		// OnError hears of the failures Serve survives: a failed poll
		// (w is nil then), a lost lease, a session run that failed.
		OnError: func(w *mms.Work, err error) {
			if w == nil {
				printf("worker: %v\n", err)
				return
			}
			printf("work %s: %v\n", w.ID, err)
		},
	}
	printf("serving environment %s\n", envID)
	if err := client.Environments.Work.Serve(ctx, envID, params); err != nil {
		return fmt.Errorf("serve %s: %w", envID, err)
	}
	printf("stopped\n")
	return nil
}

// getWeather answers the agent's get_weather custom tool.
func getWeather(ctx context.Context, call mms.AgentCustomToolUseEvent) (string, error) {
	return "sunny, 18 °C", nil
}

// sandbox runs a built-in tool call on this machine. A real worker would
// run the command in an isolated sandbox; this one only says what it
// would run. An error becomes an is_error result the agent sees.
func sandbox(ctx context.Context, call mms.AgentToolUseEvent) (string, error) {
	if call.Name != "bash" {
		return "", errors.New("this worker runs only bash")
	}
	var in struct {
		Command string `json:"command"`
	}
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return "", fmt.Errorf("bad bash input: %w", err)
	}
	return "would run: " + in.Command, nil
}
