// Command thinking asks a question with extended thinking on, prints the
// model's thinking and its answer, then asks a follow-up in the same
// conversation (thinking blocks go back unchanged, signatures included).
// Copy it into your program; it reads its settings from the environment:
//
//	VENDOR_API_KEY=... VENDOR_BASE_URL=https://... go run ./examples/thinking "Is 1001 prime?"
//
// With neither set it runs against mmstest, the SDK's built-in fake, and
// says so on stderr:
//
//	go run ./examples/thinking
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
	prompt := strings.Join(os.Args[1:], " ")
	if prompt == "" {
		prompt = "Is 1001 prime?"
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
	if err := run(context.Background(), client, model, prompt, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run asks prompt and a follow-up with thinking on, writing both turns to w.
func run(ctx context.Context, client *mms.Client, model, prompt string, w io.Writer) error {
	p := mms.MessageCreateParams{
		Model: model,
		// max_tokens covers the thinking too, so it must exceed the budget.
		MaxTokens: 8000,
		Thinking:  mms.ThinkingConfigEnabled{BudgetTokens: 4000},
		Messages:  []mms.MessageParam{mms.UserText(prompt)},
	}
	for _, question := range []string{prompt, "Explain it to a child."} {
		if question != prompt {
			p.Messages = append(p.Messages, mms.UserText(question))
		}
		msg, err := client.Messages.Create(ctx, p)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "thinking: %s\nanswer: %s\n", msg.Thinking(), msg.Text())
		if d := msg.Usage.OutputTokensDetails; d != nil {
			fmt.Fprintf(w, "(%d of %d output tokens were thinking)\n", d.ThinkingTokens, msg.Usage.OutputTokens)
		}
		// The reply goes back as is: the service checks the thinking
		// blocks' signatures and refuses edited ones.
		p.Messages = append(p.Messages, msg.ToParam())
	}
	return nil
}
