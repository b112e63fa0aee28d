// Command streaming streams a reply and prints its text as it arrives, then
// the token usage. Copy it into your program; it reads its settings from the
// environment:
//
//	VENDOR_API_KEY=... VENDOR_BASE_URL=https://... go run ./examples/streaming "Tell me a short story."
//
// With neither set it runs against mmstest, the SDK's built-in fake, and
// says so on stderr:
//
//	go run ./examples/streaming
//
// Ctrl-C stops the stream and closes the connection.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/option"
)

func main() {
	prompt := strings.Join(os.Args[1:], " ")
	if prompt == "" {
		prompt = "Tell me a three-sentence story about a lighthouse."
	}
	model := os.Getenv("VENDOR_MODEL")
	if model == "" {
		model = "mms-large-1"
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	// In your program: client, err := mms.NewClient(), which reads $VENDOR_API_KEY
	// (or $VENDOR_AUTH_TOKEN) and $VENDOR_BASE_URL. Without them, New runs
	// the example against the built-in fake.
	client, fake, err := exampleclient.New()
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	if err := run(ctx, client, model, prompt, os.Stdout, os.Stderr); err != nil {
		log.Fatal(err)
	}
}

// run streams the reply to prompt: text to out, usage to info.
func run(ctx context.Context, client *mms.Client, model, prompt string, out, info io.Writer) error {
	p := mms.MessageCreateParams{
		Model:     model,
		MaxTokens: 2048,
		Messages:  []mms.MessageParam{mms.UserText(prompt)},
	}
	var acc mms.MessageAccumulator
	// A stream has no overall deadline; fail it if the service goes silent
	// (no bytes, not even a ping) for a minute.
	stream := client.Messages.Stream(ctx, p, option.WithStreamIdleTimeout(time.Minute))
	for text, err := range acc.Text(stream) {
		if err != nil {
			fmt.Fprintln(out)
			return explain(err)
		}
		fmt.Fprint(out, text)
	}
	fmt.Fprintln(out)
	msg := acc.Message()
	u := msg.Usage
	fmt.Fprintf(info, "[%s, %d in / %d out tokens]\n", msg.StopReason, u.TotalInputTokens(), u.OutputTokens)
	return nil
}

// explain says what went wrong in a way a reader of the log can act on.
func explain(err error) error {
	var apiErr *mms.Error
	var idle *mms.StreamIdleError
	switch {
	case errors.As(err, &apiErr):
		return fmt.Errorf("the service failed (%d %s, request %s): %s", apiErr.StatusCode, apiErr.Type, apiErr.RequestID, apiErr.Message)
	case errors.As(err, &idle):
		return fmt.Errorf("the stream went silent for %v; try again", idle.Timeout)
	case errors.Is(err, mms.ErrStreamTruncated):
		return fmt.Errorf("the connection ended before the reply was complete: %w", err)
	case errors.Is(err, context.Canceled):
		return errors.New("interrupted")
	}
	return err
}
