// Command messages sends one message and prints the reply. Copy it into
// your program; it reads its settings from the environment:
//
//	VENDOR_API_KEY=... VENDOR_BASE_URL=https://... go run ./examples/messages "Why is the sky blue?"
//
// With neither set it runs against mmstest, the SDK's built-in fake, and
// says so on stderr:
//
//	go run ./examples/messages
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
)

func main() {
	prompt := strings.Join(os.Args[1:], " ")
	if prompt == "" {
		prompt = "Say hello in three languages."
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
	if err := run(context.Background(), client, model, prompt, os.Stdout, os.Stderr); err != nil {
		log.Fatal(err)
	}
}

// run sends prompt and writes the reply's text to out, its usage to info.
func run(ctx context.Context, client *mms.Client, model, prompt string, out, info io.Writer) error {
	msg, err := client.Messages.Create(ctx, mms.MessageCreateParams{
		Model:     model,
		MaxTokens: 1024,
		System:    mms.SystemText("Answer briefly."),
		Messages:  []mms.MessageParam{mms.UserText(prompt)},
	})
	var apiErr *mms.Error
	switch {
	case errors.As(err, &apiErr):
		return fmt.Errorf("the service refused (%d %s, request %s): %s", apiErr.StatusCode, apiErr.Type, apiErr.RequestID, apiErr.Message)
	case err != nil:
		return err
	}
	fmt.Fprintln(out, msg.Text())
	fmt.Fprintf(info, "[%s, %d in / %d out tokens]\n", msg.StopReason, msg.Usage.InputTokens, msg.Usage.OutputTokens)
	return nil
}
