// Command errors shows how a program tells the SDK's errors apart: a
// request the SDK refuses before sending (*mms.ValidationError), one the
// service refuses (*mms.Error, matched by status with sentinels such as
// mms.ErrNotFound), and transient failures the SDK retries for you, which
// surface only once the retries are used up. Copy it into your program; it
// reads its settings from the environment:
//
//	VENDOR_API_KEY=... VENDOR_BASE_URL=https://... go run ./examples/errors
//
// With neither set it runs against mmstest, the SDK's built-in fake, and
// says so on stderr:
//
//	go run ./examples/errors
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
	"github.com/mms-sdk/mms-go/option"
)

func main() {
	model := os.Getenv("VENDOR_MODEL")
	if model == "" {
		model = "mms-large-1"
	}
	// In your program: client, err := mms.NewClient(option.WithMaxRetries(3)),
	// which reads $VENDOR_API_KEY (or $VENDOR_AUTH_TOKEN) and
	// $VENDOR_BASE_URL. Without them, New runs the example against the
	// built-in fake. Transient failures (408, 409, 429, 5xx, 529, dropped
	// connections) are retried with backoff: 2 retries by default.
	client, fake, err := exampleclient.New(option.WithMaxRetries(3))
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	if err := run(context.Background(), client, model, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run makes three calls and writes what became of each to w.
func run(ctx context.Context, client *mms.Client, model string, w io.Writer) error {
	ask := func(model, prompt string) error {
		p := mms.MessageCreateParams{Model: model, MaxTokens: 256}
		if prompt != "" {
			p.Messages = []mms.MessageParam{mms.UserText(prompt)}
		}
		msg, err := client.Messages.Create(ctx, p)
		if err == nil {
			fmt.Fprintln(w, "ok:", msg.Text())
		}
		return err
	}
	fmt.Fprintln(w, "no messages:", describe(ask(model, "")))
	if err := ask(model, "Hello"); err != nil {
		fmt.Fprintln(w, "hello:", describe(err))
		return err
	}
	fmt.Fprintln(w, "unknown model:", describe(ask("no-such-model", "Hi")))
	return nil
}

// describe says what kind of failure err is and what to do about it.
func describe(err error) string {
	var invalid *mms.ValidationError
	var apiErr *mms.Error
	switch {
	case err == nil:
		return "no error"
	case errors.As(err, &invalid):
		// Nothing was sent: fix the program.
		return fmt.Sprintf("not sent: %s %s", invalid.Field, invalid.Rule)
	case errors.Is(err, mms.ErrNotFound), errors.Is(err, mms.ErrInvalidRequest), errors.Is(err, mms.ErrPermission):
		// The service refused the request itself: retrying cannot help.
		errors.As(err, &apiErr)
		return fmt.Sprintf("refused: %d %s: %s", apiErr.StatusCode, apiErr.Type, apiErr.Message)
	case errors.Is(err, mms.ErrAuthentication):
		return "check VENDOR_API_KEY"
	case errors.Is(err, mms.ErrOverloaded), errors.Is(err, mms.ErrRateLimited), errors.Is(err, mms.ErrAPI):
		// Transient, but the SDK's retries are used up: try again later.
		errors.As(err, &apiErr)
		return fmt.Sprintf("gave up after %d attempts: %d %s (request %s)", apiErr.Attempts, apiErr.StatusCode, apiErr.Type, apiErr.RequestID)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return "stopped: " + err.Error()
	}
	return "failed: " + err.Error() // a network error, for example
}
