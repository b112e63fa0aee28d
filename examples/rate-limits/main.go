// Command rate-limits sends several messages within a rate limit: the client
// paces itself (option.WithRateLimit), and a 429 that still happens is
// retried after the server's retry-after. It prints each answer with the
// attempts it took and the requests left in the server's bucket. Copy it
// into your program; it reads its settings from the environment:
//
//	VENDOR_API_KEY=... VENDOR_BASE_URL=https://... go run ./examples/rate-limits "one" "two" "three"
//
// With neither set it runs against mmstest, the SDK's built-in fake, and
// says so on stderr:
//
//	go run ./examples/rate-limits
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

func main() {
	prompts := os.Args[1:]
	if len(prompts) == 0 {
		prompts = []string{"Name a color.", "Name a fruit.", "Name a tree."}
	}
	model := os.Getenv("VENDOR_MODEL")
	if model == "" {
		model = "mms-large-1"
	}
	// In your program: client, err := mms.NewClient(<these options>), which
	// reads $VENDOR_API_KEY (or $VENDOR_AUTH_TOKEN) and $VENDOR_BASE_URL.
	// Without them, NewWithFake runs the example against the built-in fake,
	// limited to 60 requests a minute in bursts of 2, as a service would be.
	client, fake, err := exampleclient.NewWithFake([]mmstest.Option{mmstest.WithServerRateLimit(60, 2)},
		// Your organization's limits: the client spreads its calls so it
		// stays under them, and also pauses when the server's
		// vendor-ratelimit-* headers report an empty bucket.
		option.WithRateLimit(50, 40_000),
		// 429, 529 and 5xx are retried (default 2 retries) after the
		// server's retry-after, else with exponential backoff.
		option.WithMaxRetries(4),
	)
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	if err := run(context.Background(), client, model, prompts, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run sends each prompt and writes the answer, attempts and budget to w.
func run(ctx context.Context, client *mms.Client, model string, prompts []string, w io.Writer) error {
	for _, prompt := range prompts {
		var md mms.ResponseMetadata
		msg, err := client.Messages.Create(ctx, mms.MessageCreateParams{
			Model:     model,
			MaxTokens: 256,
			Messages:  []mms.MessageParam{mms.UserText(prompt)},
		}, option.WithResponseMetadata(&md))
		if errors.Is(err, mms.ErrRateLimited) {
			// Still limited after every retry: back off for longer, or
			// lower the client's limits.
			return fmt.Errorf("rate limited after %d attempts; the server asks to wait %v: %w", md.Attempts, md.RetryAfter, err)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s (%d attempt(s))\n", msg.Text(), md.Attempts)
		if b, ok := md.RateLimits["requests"]; ok {
			fmt.Fprintf(w, "  %d of %d requests left, full again at %s\n", b.Remaining, b.Limit, b.Reset.Format("15:04:05"))
		}
	}
	return nil
}
