// Command dreams tours dreams (a research preview): it runs a session or
// two so there is something to learn from, starts a dream over them and a
// memory store, waits for it to end, reads where the reorganized store
// went, and archives the dream.
//
// It reads its credentials and address from the environment, as
// mms.NewClient does ($VENDOR_API_KEY or $VENDOR_AUTH_TOKEN, and
// $VENDOR_BASE_URL); with none of them set it runs against mmstest, the
// SDK's built-in fake, and says so on stderr:
//
//	go run ./examples/dreams
//
// What it created is archived or deleted at the end.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
)

func main() {
	model := flag.String("model", "mms-large-1", "the model the agent and the dream run on")
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
	// 1. A memory store, and two sessions that used it.
	store, err := client.MemoryStores.Create(ctx, mms.MemoryStoreCreateParams{Name: "Support playbook"})
	if err != nil {
		return fmt.Errorf("create store: %w", err)
	}
	agent, err := client.Agents.Create(ctx, mms.AgentCreateParams{Name: "support", Model: mms.AgentModel(model)})
	if err != nil {
		return fmt.Errorf("create agent: %w", err)
	}
	env, err := client.Environments.Create(ctx, mms.EnvironmentCreateParams{Name: "support"})
	if err != nil {
		return fmt.Errorf("create environment: %w", err)
	}
	var sessions []string
	for _, ask := range []string{"Acme asks for a refund.", "Globex cannot log in."} {
		s, err := client.Sessions.Create(ctx, mms.SessionCreateParams{
			Agent: mms.SessionAgentID(agent.ID), EnvironmentID: env.ID,
			Resources:     []mms.SessionResourceParams{mms.MemoryStoreResourceParams{MemoryStoreID: store.ID}},
			InitialEvents: []mms.SessionEventParams{mms.NewUserMessageEvent(ask)},
		})
		if err != nil {
			return fmt.Errorf("create session: %w", err)
		}
		sessions = append(sessions, s.ID)
	}
	fmt.Fprintf(out, "store %s, %d sessions\n", store.Name, len(sessions))

	// 2. The dream: read the store and the sessions, write a reorganized
	// copy (the default, DreamCreateNew; DreamUpdateExisting would write
	// into the store itself).
	d, err := client.Dreams.Create(ctx, mms.DreamCreateParams{
		Inputs: []mms.DreamInput{
			mms.DreamMemoryStore{MemoryStoreID: store.ID},
			mms.DreamSessions{SessionIDs: sessions},
		},
		Model:        mms.AgentModel(model),
		Instructions: "Keep one file per customer.",
	})
	if err != nil {
		return fmt.Errorf("create dream: %w", err)
	}
	fmt.Fprintf(out, "dream %s is %s\n", d.ID, d.Status)

	// 3. Wait for a final status: completed, failed or canceled.
	seen := map[mms.DreamStatus]bool{d.Status: true}
	d, err = client.Dreams.Wait(ctx, d.ID, mms.DreamWaitParams{
		PollInterval: 100 * time.Millisecond, MaxPollInterval: 5 * time.Second,
		OnPoll: func(d *mms.Dream) {
			if !seen[d.Status] {
				seen[d.Status] = true
				fmt.Fprintf(out, "  now %s\n", d.Status)
			}
		},
	})
	if err != nil {
		return fmt.Errorf("wait: %w", err)
	}
	switch d.Status {
	case mms.DreamCompleted:
		for _, o := range d.Outputs {
			if m, ok := o.(mms.DreamMemoryStore); ok {
				written, err := client.MemoryStores.Get(ctx, m.MemoryStoreID)
				if err != nil {
					return fmt.Errorf("output store: %w", err)
				}
				fmt.Fprintf(out, "completed: wrote %q (%d input tokens)\n", written.Name, d.Usage.InputTokens)
			}
		}
	case mms.DreamFailed:
		fmt.Fprintf(out, "failed: %s: %s\n", d.Error.Type, d.Error.Message)
	default:
		fmt.Fprintf(out, "ended %s\n", d.Status)
	}

	// 4. Tidy up: a final dream can be archived (it stays readable by id).
	if d, err = client.Dreams.Archive(ctx, d.ID); err != nil {
		return fmt.Errorf("archive dream: %w", err)
	}
	fmt.Fprintf(out, "archived the dream: %v\n", d.ArchivedAt != nil)
	for _, id := range sessions {
		if _, err := client.Sessions.Archive(ctx, id); err != nil {
			return fmt.Errorf("archive session: %w", err)
		}
	}
	if _, err := client.Agents.Archive(ctx, agent.ID); err != nil {
		return fmt.Errorf("archive agent: %w", err)
	}
	if _, err := client.Environments.Archive(ctx, env.ID); err != nil {
		return fmt.Errorf("archive environment: %w", err)
	}
	return nil
}
