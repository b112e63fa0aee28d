// Command vertex streams one reply from the service's models on Google
// Cloud Vertex AI. It authenticates with Application Default Credentials
// (gcloud auth application-default login, or $GOOGLE_APPLICATION_CREDENTIALS):
//
//	CLOUD_ML_REGION=us-east5 VENDOR_VERTEX_PROJECT_ID=my-project go run . "Why is the sky blue?"
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/vertex"
)

func main() {
	prompt := strings.Join(os.Args[1:], " ")
	if prompt == "" {
		prompt = "Say hello in three languages."
	}
	model := os.Getenv("VENDOR_MODEL") // a Vertex model id, model@date
	if model == "" {
		log.Fatal("set $VENDOR_MODEL to a Vertex AI model id")
	}

	// Region and project from $CLOUD_ML_REGION and $VENDOR_VERTEX_PROJECT_ID.
	client, err := mms.NewClient(vertex.WithProject("", ""))
	if err != nil {
		log.Fatal(err)
	}
	if err := run(context.Background(), client, model, prompt, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run streams the reply to prompt into out.
func run(ctx context.Context, client *mms.Client, model, prompt string, out io.Writer) error {
	var acc mms.MessageAccumulator
	stream := client.Messages.Stream(ctx, mms.MessageCreateParams{
		Model:     model,
		MaxTokens: 1024,
		Messages:  []mms.MessageParam{mms.UserText(prompt)},
	})
	for text, err := range acc.Text(stream) {
		if err != nil {
			return err
		}
		fmt.Fprint(out, text)
	}
	_, err := fmt.Fprintf(out, "\n[%s, %d output tokens]\n", acc.Message().StopReason, acc.Message().Usage.OutputTokens)
	return err
}
