// Command vertex streams one reply from the service's models on Google
// Cloud Vertex AI. It authenticates with Application Default Credentials
// (gcloud auth application-default login, or $GOOGLE_APPLICATION_CREDENTIALS):
//
//	CLOUD_ML_REGION=us-east5 VENDOR_VERTEX_PROJECT_ID=my-project VENDOR_MODEL=... go run . "Why is the sky blue?"
//
// With neither $CLOUD_ML_REGION nor $VENDOR_VERTEX_PROJECT_ID set it runs
// against mmstest, the SDK's built-in fake, behind a simulated Vertex AI,
// and says so on stderr:
//
//	go run .
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
	"github.com/mms-sdk/mms-go/option"
	"github.com/mms-sdk/mms-go/vertex"
)

func main() {
	prompt := strings.Join(os.Args[1:], " ")
	if prompt == "" {
		prompt = "Say hello in three languages."
	}
	model := os.Getenv("VENDOR_MODEL") // a Vertex model id, model@date

	// Region and project from $CLOUD_ML_REGION and $VENDOR_VERTEX_PROJECT_ID.
	opts := []option.RequestOption{vertex.WithProject("", "")}
	if os.Getenv(vertex.EnvRegion) == "" && os.Getenv(vertex.EnvProjectID) == "" {
		// No Vertex AI configuration: the built-in fake plays Vertex AI
		// (offline.go).
		if model == "" {
			model = offlineModel
		}
		var fake *exampleclient.Fake
		opts, fake = offline(model)
		defer fake.Close()
	}
	if model == "" {
		log.Fatal("set $VENDOR_MODEL to a Vertex AI model id")
	}
	client, err := mms.NewClient(opts...) // in your program: mms.NewClient(vertex.WithProject("", ""))
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
