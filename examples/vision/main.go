// Command vision asks a question about an image sent inline (base64) with
// the message. Copy it into your program; it reads its settings from the
// environment:
//
//	VENDOR_API_KEY=... VENDOR_BASE_URL=https://... go run ./examples/vision photo.jpg "What is in this picture?"
//
// With neither set it runs against mmstest, the SDK's built-in fake, and
// says so on stderr:
//
//	go run ./examples/vision
//
// With no file it sends a small generated PNG.
package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"log"
	"os"
	"strings"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
)

func main() {
	img, question := samplePNG(), "What color is this square?"
	if len(os.Args) > 1 {
		data, err := os.ReadFile(os.Args[1])
		if err != nil {
			log.Fatal(err)
		}
		img = data
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
	if err := run(context.Background(), client, model, img, question, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run sends img (JPEG, PNG, GIF or WebP) and question, and writes the answer
// to w.
func run(ctx context.Context, client *mms.Client, model string, img []byte, question string, w io.Writer) error {
	msg, err := client.Messages.Create(ctx, mms.MessageCreateParams{
		Model:     model,
		MaxTokens: 1024,
		Messages: []mms.MessageParam{mms.UserMessage(
			// "" sniffs the media type from the bytes. The image comes
			// before the question, which models answer best.
			mms.ImageFromBytes("", img),
			mms.TextBlock{Text: question},
		)},
	})
	if err != nil {
		return err
	}
	fmt.Fprintln(w, msg.Text())
	return nil
}

// samplePNG draws a 16x16 red square.
func samplePNG() []byte {
	m := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for x := range 16 {
		for y := range 16 {
			m.Set(x, y, color.RGBA{R: 255, A: 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil { // cannot fail on a bytes.Buffer
		panic(err)
	}
	return buf.Bytes()
}
