// Command prompt-caching asks several questions about one long reference
// text, caching the text after the first request so later requests read it
// from the cache (cheaper and faster). It prints each answer and how the
// input tokens were counted. Copy it into your program; it reads its
// settings from the environment:
//
//	VENDOR_API_KEY=... VENDOR_BASE_URL=https://... go run ./examples/prompt-caching manual.txt "What is X?" "And Y?"
//
// With neither set it runs against mmstest, the SDK's built-in fake, and
// says so on stderr:
//
//	go run ./examples/prompt-caching
//
// A prefix is cached only from a minimum size (about 1024 tokens on most
// models); a shorter one is sent, and billed, whole every time.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
)

func main() {
	reference := strings.Repeat("The lighthouse keeper trims the wick at dusk and logs every passing ship. ", 100)
	questions := []string{"When is the wick trimmed?", "What is logged?"}
	if len(os.Args) > 1 {
		data, err := os.ReadFile(os.Args[1])
		if err != nil {
			log.Fatal(err)
		}
		reference = string(data)
	}
	if len(os.Args) > 2 {
		questions = os.Args[2:]
	}
	model := os.Getenv("VENDOR_MODEL")
	if model == "" {
		model = "mms-large-1"
	}
	// In your program: client, err := mms.NewClient(), which reads $VENDOR_API_KEY
	// (or $VENDOR_AUTH_TOKEN) and $VENDOR_BASE_URL. Without them, New runs
	// the example against the built-in fake.
	client, fake, err := exampleclient.New()
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	if err := run(context.Background(), client, model, reference, questions, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run asks each question about reference, in separate requests sharing the
// cached prefix, and writes the answers and token counts to w.
func run(ctx context.Context, client *mms.Client, model, reference string, questions []string, w io.Writer) error {
	system := mms.SystemBlocks(
		mms.TextBlock{Text: "Answer from this reference only."},
		// The breakpoint: everything up to and including this block (tools,
		// then system, then messages) is cached for 5 minutes, renewed on
		// each hit. mms.CacheControl{TTL: mms.CacheTTL1h} keeps it an hour.
		mms.TextBlock{Text: reference, CacheControl: &mms.CacheControl{}},
	)
	for _, q := range questions {
		msg, err := client.Messages.Create(ctx, mms.MessageCreateParams{
			Model:     model,
			MaxTokens: 512,
			System:    system,
			Messages:  []mms.MessageParam{mms.UserText(q)},
		})
		if err != nil {
			return err
		}
		u := msg.Usage
		fmt.Fprintln(w, msg.Text())
		fmt.Fprintf(w, "  input tokens: %d written to the cache, %d read from it, %d not cached\n",
			deref(u.CacheCreationInputTokens), deref(u.CacheReadInputTokens), u.InputTokens)
	}
	return nil
}

// deref reads a count the service may leave out (nil).
func deref(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}
