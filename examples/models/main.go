// Command models lists the models the service offers, newest first, and
// shows the details of one.
//
// It reads its credentials and address from the environment, as
// mms.NewClient does ($VENDOR_API_KEY or $VENDOR_AUTH_TOKEN, and
// $VENDOR_BASE_URL); with none of them set it runs against mmstest, the
// SDK's built-in fake, and says so on stderr:
//
//	go run ./examples/models            # list every model
//	go run ./examples/models mms-large-1 # details of one model (or alias)
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"text/tabwriter"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
)

func main() {
	pageSize := flag.Int("page-size", 100, "models fetched per request (1-1000)")
	flag.Parse()
	ctx := context.Background()
	// In your program: client, err := mms.NewClient(), which reads $VENDOR_API_KEY
	// (or $VENDOR_AUTH_TOKEN) and $VENDOR_BASE_URL. Without them, New runs
	// the example against the built-in fake.
	client, fake, err := exampleclient.New()
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	if err := run(ctx, client, flag.Arg(0), *pageSize, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run shows the model id, or lists every model when id is "".
func run(ctx context.Context, client *mms.Client, id string, pageSize int, out io.Writer) error {
	if id != "" {
		return show(ctx, client, id, out)
	}
	return list(ctx, client, pageSize, out)
}

// list prints one line per model; the iterator fetches the pages.
func list(ctx context.Context, client *mms.Client, pageSize int, out io.Writer) error {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tNAME\tRELEASED\tCONTEXT\tMAX OUTPUT")
	n := 0
	for m, err := range client.Models.List(ctx, mms.ModelListParams{Limit: pageSize}) {
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", m.ID, m.DisplayName, m.CreatedAt.Format("2006-01-02"),
			orUnknown(m.MaxInputTokens), orUnknown(m.MaxTokens))
		n++
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "\n%d models\n", n)
	return nil
}

// show prints one model and what it supports.
func show(ctx context.Context, client *mms.Client, id string, out io.Writer) error {
	m, err := client.Models.Get(ctx, id)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s (%s), released %s\n", m.ID, m.DisplayName, m.CreatedAt.Format("2006-01-02"))
	fmt.Fprintf(out, "context window %s tokens, max output %s tokens\n", orUnknown(m.MaxInputTokens), orUnknown(m.MaxTokens))
	c := m.Capabilities
	if c == nil {
		fmt.Fprintln(out, "capabilities: not reported")
		return nil
	}
	for _, f := range []struct {
		name string
		ok   bool
	}{
		{"message batches", c.Batch.Supported},
		{"citations", c.Citations.Supported},
		{"code execution", c.CodeExecution.Supported},
		{"image input", c.ImageInput.Supported},
		{"PDF input", c.PDFInput.Supported},
		{"structured outputs", c.StructuredOutputs.Supported},
		{"context management", c.ContextManagement.Supported},
		{"effort", c.Effort.Supported},
		{"thinking", c.Thinking.Supported},
	} {
		mark := "no"
		if f.ok {
			mark = "yes"
		}
		fmt.Fprintf(out, "  %-20s %s\n", f.name, mark)
	}
	return nil
}

func orUnknown(n *int) string {
	if n == nil {
		return "?"
	}
	return fmt.Sprint(*n)
}
