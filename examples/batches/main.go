// Command batches sends a few questions as one message batch, waits for it
// to end and prints each answer.
//
// It reads its credentials and address from the environment, as
// mms.NewClient does ($VENDOR_API_KEY or $VENDOR_AUTH_TOKEN, and
// $VENDOR_BASE_URL); with none of them set it runs against mmstest, the
// SDK's built-in fake, and says so on stderr:
//
//	go run ./examples/batches -model mms-large-1 "What is 2+2?" "Name a color."
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
)

func main() {
	model := flag.String("model", "mms-large-1", "model for every request")
	maxTokens := flag.Int("max-tokens", 256, "max_tokens for every request")
	timeout := flag.Duration("timeout", 24*time.Hour, "how long to wait for the batch")
	flag.Parse()
	questions := flag.Args()
	if len(questions) == 0 {
		questions = []string{"What is the capital of France?", "Write a haiku about queues.", "Name three prime numbers."}
	}

	// In your program: client, err := mms.NewClient(), which reads $VENDOR_API_KEY
	// (or $VENDOR_AUTH_TOKEN) and $VENDOR_BASE_URL. Without them, New runs
	// the example against the built-in fake.
	client, fake, err := exampleclient.New()
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	if err := run(ctx, client, *model, *maxTokens, questions); err != nil {
		log.Fatal(err)
	}
}

// run sends questions as one batch and prints the answers.
func run(ctx context.Context, client *mms.Client, model string, maxTokens int, questions []string) error {
	// One request per question; the custom ids match results to questions.
	params := mms.BatchCreateParams{}
	for i, q := range questions {
		params.Requests = append(params.Requests, mms.BatchRequest{
			CustomID: fmt.Sprintf("question-%d", i),
			Params: mms.MessageCreateParams{
				Model:     model,
				MaxTokens: maxTokens,
				Messages:  []mms.MessageParam{mms.UserText(q)},
			},
		})
	}
	batch, err := client.Messages.Batches.Create(ctx, params)
	if err != nil {
		return fmt.Errorf("creating the batch: %w", err)
	}
	fmt.Printf("batch %s created: %d requests, expires at %s\n",
		batch.ID, batch.RequestCounts.Total(), batch.ExpiresAt.Format(time.RFC3339))

	// Poll until it ends: 1 s, 2 s, 4 s ... up to 30 s between polls, with
	// a progress line on stderr at each.
	batch, err = client.Messages.Batches.Wait(ctx, batch.ID, mms.BatchWaitParams{
		OnPoll: func(b *mms.Batch) {
			fmt.Fprintf(os.Stderr, "%s: %s, %d of %d processing\n", b.ID, b.ProcessingStatus, b.RequestCounts.Processing, b.RequestCounts.Total())
		},
	})
	if err != nil {
		if batch != nil {
			fmt.Fprintf(os.Stderr, "still %s; cancel it with client.Messages.Batches.Cancel(ctx, %q)\n", batch.ProcessingStatus, batch.ID)
		}
		return err
	}
	c := batch.RequestCounts
	fmt.Printf("ended at %s: %d succeeded, %d errored, %d canceled, %d expired\n\n",
		batch.EndedAt.Format(time.RFC3339), c.Succeeded, c.Errored, c.Canceled, c.Expired)

	// Results stream line by line, in no particular order.
	for res, err := range client.Messages.Batches.Results(ctx, batch.ID) {
		if err != nil {
			return fmt.Errorf("reading the results: %w", err)
		}
		switch r := res.Result.(type) {
		case mms.SucceededBatchResult:
			fmt.Printf("%s: %s\n", res.CustomID, r.Message.Text())
		case mms.ErroredBatchResult:
			fmt.Printf("%s: error: %v\n", res.CustomID, r.Err())
		case mms.CanceledBatchResult:
			fmt.Printf("%s: canceled\n", res.CustomID)
		case mms.ExpiredBatchResult:
			fmt.Printf("%s: expired\n", res.CustomID)
		default:
			fmt.Printf("%s: unknown result %T\n", res.CustomID, r)
		}
	}
	return nil
}
