// Command files uploads a document with the Files API, asks a model about
// it by file id, downloads it again where the service allows it, and
// deletes it.
//
// It reads its credentials and address from the environment, as
// mms.NewClient does ($VENDOR_API_KEY or $VENDOR_AUTH_TOKEN, and
// $VENDOR_BASE_URL); with none of them set it runs against mmstest, the
// SDK's built-in fake, and says so on stderr:
//
//	go run ./examples/files -model mms-large-1 report.pdf
//
// The document is a PDF or a plain-text file. It is streamed from disk, so
// its size does not matter up to the service's 500 MiB limit, and as an
// *os.File it is sent again from the start if an attempt fails. With no
// document it uploads a short sample text.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
)

func main() {
	model := flag.String("model", "mms-large-1", "the model to ask about the document")
	question := flag.String("q", "Summarise this document in three sentences.", "the question")
	flag.Parse()
	if flag.NArg() > 1 {
		fmt.Fprintln(os.Stderr, "usage: files [-model id] [-q question] [document.pdf|document.txt]")
		os.Exit(2)
	}
	path := flag.Arg(0)
	if path == "" {
		sample, err := writeSample()
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(filepath.Dir(sample))
		path = sample
	}
	// In your program: client, err := mms.NewClient(), which reads $VENDOR_API_KEY
	// (or $VENDOR_AUTH_TOKEN) and $VENDOR_BASE_URL. Without them, New runs
	// the example against the built-in fake.
	client, fake, err := exampleclient.New()
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	if err := run(context.Background(), client, path, *model, *question, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run is the whole example; main_test.go runs it against mmstest.
func run(ctx context.Context, client *mms.Client, path, model, question string, out io.Writer) error {
	local, err := fileSHA256(path)
	if err != nil {
		return err
	}

	// 1. Upload. The filename and content type come from the file.
	doc, err := os.Open(path)
	if err != nil {
		return err
	}
	defer doc.Close()
	f, err := client.Files.Upload(ctx, mms.FileUploadParams{Reader: doc})
	if err != nil {
		return fmt.Errorf("uploading %s: %w", path, err)
	}
	fmt.Fprintf(out, "uploaded %s as %s (%s, %d bytes)\n", f.Filename, f.ID, f.MimeType, f.SizeBytes)
	// However the rest goes, do not leave the file behind.
	defer func() {
		if _, err := client.Files.Delete(ctx, f.ID); err != nil {
			fmt.Fprintf(out, "deleting %s: %v\n", f.ID, err)
			return
		}
		fmt.Fprintf(out, "deleted %s\n", f.ID)
	}()

	// 2. Ask about it: the message names the file instead of carrying it.
	msg, err := client.Messages.Create(ctx, mms.MessageCreateParams{
		Model:     model,
		MaxTokens: 1024,
		Messages:  []mms.MessageParam{mms.UserMessage(mms.DocumentFromFile(f.ID), mms.TextBlock{Text: question})},
	})
	if err != nil {
		return fmt.Errorf("asking about %s: %w", f.ID, err)
	}
	fmt.Fprintf(out, "answer: %s\n", msg.Text())

	// 3. Download it, streaming. The service serves only files created by
	// tools (code execution, skills); an uploaded file is refused.
	d, err := client.Files.Download(ctx, f.ID)
	var apiErr *mms.Error
	switch {
	case errors.As(err, &apiErr) && apiErr.StatusCode < 500:
		fmt.Fprintf(out, "download refused (downloadable: %v): %s\n", f.Downloadable != nil && *f.Downloadable, apiErr.Message)
		return nil
	case err != nil:
		return fmt.Errorf("downloading %s: %w", f.ID, err)
	}
	defer d.Body.Close()
	h := sha256.New()
	n, err := io.Copy(h, d.Body)
	if err != nil {
		return fmt.Errorf("downloading %s: %w", f.ID, err)
	}
	same := "identical to"
	if hex.EncodeToString(h.Sum(nil)) != local {
		same = "DIFFERENT from"
	}
	fmt.Fprintf(out, "downloaded %d bytes (%s), %s the local file\n", n, d.ContentType, same)
	return nil
}

// writeSample writes a short text document to a new temporary directory,
// for a run given no document.
func writeSample() (string, error) {
	dir, err := os.MkdirTemp("", "files-example-")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "notes.txt")
	text := "Meeting notes: the launch moved to Thursday; Ana owns the release checklist.\n"
	return path, os.WriteFile(path, []byte(text), 0o600)
}

// fileSHA256 hashes a local file.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
