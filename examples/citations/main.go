// Command citations asks about documents with citations on and prints the
// answer with, for each cited passage, its text and where it comes from.
// Copy it into your program; it reads its settings from the environment:
//
//	VENDOR_API_KEY=... VENDOR_BASE_URL=https://... go run ./examples/citations notes.txt "What do my notes say?"
//
// With neither set it runs against mmstest, the SDK's built-in fake, and
// says so on stderr:
//
//	go run ./examples/citations
//
// With no file it asks about a short built-in text.
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
	title, text := "Lighthouses", "Lighthouses guide ships at night. The first stood at Pharos."
	question := "What do lighthouses do?"
	if len(os.Args) > 1 {
		data, err := os.ReadFile(os.Args[1])
		if err != nil {
			log.Fatal(err)
		}
		title, text = os.Args[1], string(data)
	}
	if len(os.Args) > 2 {
		question = strings.Join(os.Args[2:], " ")
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
	doc := mms.TextDocument(text)
	doc.Title = &title
	if err := run(context.Background(), client, model, []mms.DocumentBlock{doc}, question, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run asks question about docs and writes the answer and its citations to w.
func run(ctx context.Context, client *mms.Client, model string, docs []mms.DocumentBlock, question string, w io.Writer) error {
	var blocks []mms.ContentBlock
	for _, d := range docs {
		d.Citations = &mms.CitationsConfig{Enabled: mms.Ptr(true)}
		blocks = append(blocks, d)
	}
	msg, err := client.Messages.Create(ctx, mms.MessageCreateParams{
		Model:     model,
		MaxTokens: 1024,
		Messages:  []mms.MessageParam{mms.UserMessage(append(blocks, mms.TextBlock{Text: question})...)},
	})
	if err != nil {
		return err
	}
	// The answer is split into text blocks; the cited ones carry their
	// sources. Every kind of citation answers Location the same way.
	var sources []mms.CitationLocation
	for _, b := range msg.Content {
		t, ok := b.(mms.TextBlock)
		if !ok {
			continue
		}
		fmt.Fprint(w, t.Text)
		for _, c := range t.Citations {
			sources = append(sources, c.Location())
			fmt.Fprintf(w, " [%d]", len(sources))
		}
	}
	fmt.Fprintln(w)
	for i, loc := range sources {
		printSource(w, i+1, loc)
	}
	return nil
}

// printSource writes one numbered source line.
func printSource(w io.Writer, n int, loc mms.CitationLocation) {
	var where string
	switch loc.Kind {
	case mms.CitationKindChar:
		where = fmt.Sprintf("document %d %q, characters %d-%d", loc.DocumentIndex, loc.DocumentTitle, loc.Start, loc.End-1)
	case mms.CitationKindPage:
		where = fmt.Sprintf("document %d %q, pages %d-%d", loc.DocumentIndex, loc.DocumentTitle, loc.Start, loc.End-1)
	case mms.CitationKindContentBlock:
		where = fmt.Sprintf("document %d %q, blocks %d-%d", loc.DocumentIndex, loc.DocumentTitle, loc.Start, loc.End-1)
	case mms.CitationKindWebSearchResult:
		where = loc.URL
	case mms.CitationKindSearchResult:
		where = fmt.Sprintf("%s, blocks %d-%d", loc.Source, loc.Start, loc.End-1)
	default:
		where = "an unknown source"
	}
	fmt.Fprintf(w, "[%d] %q (%s)\n", n, loc.CitedText, where)
}
