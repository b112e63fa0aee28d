// Command structured-output asks for a reply in the shape of a Go type and
// decodes it: output_config.format carries the JSON Schema derived from the
// type, and mms.ParseOutput checks the reply against it. Copy it into your
// program; it reads its settings from the environment:
//
//	VENDOR_API_KEY=... VENDOR_BASE_URL=https://... go run ./examples/structured-output "Ada Lovelace, born 1815 in London"
//
// With neither set it runs against mmstest, the SDK's built-in fake, and
// says so on stderr:
//
//	go run ./examples/structured-output
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

// Person is the shape the reply must have. Tags give the model
// descriptions, enums and formats; pointer and omitempty fields are
// optional.
type Person struct {
	Name       string   `json:"name" description:"Full name"`
	BirthYear  int      `json:"birth_year"`
	Birthplace *string  `json:"birthplace" description:"City, if the text says"`
	Field      string   `json:"field" enum:"science,arts,politics,other"`
	KnownFor   []string `json:"known_for,omitempty"`
}

func main() {
	text := strings.Join(os.Args[1:], " ")
	if text == "" {
		text = "Ada Lovelace (1815, London) wrote the first published computer program."
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
	if err := run(context.Background(), client, model, text, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run extracts a Person from text and prints it.
func run(ctx context.Context, client *mms.Client, model, text string, w io.Writer) error {
	format, err := mms.OutputFormatFor[Person]() // fails here, naming the field, if Person cannot be expressed
	if err != nil {
		return err
	}
	msg, err := client.Messages.Create(ctx, mms.MessageCreateParams{
		Model:        model,
		MaxTokens:    1024,
		Messages:     []mms.MessageParam{mms.UserText("Extract the person from this text: " + text)},
		OutputConfig: &mms.OutputConfig{Format: format},
	})
	if err != nil {
		return err
	}
	p, err := mms.ParseOutput[Person](msg)
	var outErr *mms.OutputError
	switch {
	case errors.Is(err, mms.ErrOutputTruncated):
		return fmt.Errorf("the reply was cut off; raise MaxTokens: %w", err)
	case errors.As(err, &outErr):
		return fmt.Errorf("the reply is not a Person (%v); it said: %q", outErr.Err, outErr.Text)
	case err != nil:
		return err
	}
	fmt.Fprintf(w, "name: %s\nborn: %d\nfield: %s\n", p.Name, p.BirthYear, p.Field)
	if p.Birthplace != nil {
		fmt.Fprintf(w, "birthplace: %s\n", *p.Birthplace)
	}
	return nil
}
