// Command bedrock sends one message through Amazon Bedrock and prints the
// reply. It reads the AWS configuration as the AWS CLI does (profiles,
// environment, SSO, instance roles, web identity):
//
//	AWS_REGION=us-east-1 AWS_PROFILE=dev go run . "Why is the sky blue?"
//
// A Bedrock API key in $AWS_BEARER_TOKEN_BEDROCK replaces SigV4 signing;
// $VENDOR_MODEL names the model (a Bedrock model id or inference profile).
//
// With no AWS region (and no Bedrock API key) configured it runs against
// mmstest, the SDK's built-in fake, behind a simulated Bedrock, and says
// so on stderr:
//
//	go run .
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/aws/aws-sdk-go-v2/config"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/bedrock"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/option"
)

func main() {
	prompt := strings.Join(os.Args[1:], " ")
	if prompt == "" {
		prompt = "Say hello in three languages."
	}
	model := os.Getenv("VENDOR_MODEL")
	if model == "" {
		model = "vendor.mms-large-1-v1:0"
	}
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		log.Fatal(err)
	}
	opts := []option.RequestOption{bedrock.WithConfig(cfg)}
	if cfg.Region == "" && os.Getenv(bedrock.EnvBearerToken) == "" {
		// No AWS configuration: the built-in fake plays Bedrock (offline.go).
		var fake *exampleclient.Fake
		opts, fake = offline(model)
		defer fake.Close()
	}
	client, err := mms.NewClient(opts...) // in your program: mms.NewClient(bedrock.WithConfig(cfg))
	if err != nil {
		log.Fatal(err)
	}
	if err := run(ctx, client, model, prompt, os.Stdout, os.Stderr); err != nil {
		log.Fatal(err)
	}
}

// run sends prompt and writes the reply's text to out, its usage to info.
func run(ctx context.Context, client *mms.Client, model, prompt string, out, info io.Writer) error {
	msg, err := client.Messages.Create(ctx, mms.MessageCreateParams{
		Model:     model,
		MaxTokens: 1024,
		Messages:  []mms.MessageParam{mms.UserText(prompt)},
	})
	var apiErr *mms.Error
	switch {
	case errors.As(err, &apiErr):
		return fmt.Errorf("refused by Amazon Bedrock (%d %s): %s", apiErr.StatusCode, apiErr.Type, apiErr.Message)
	case err != nil:
		return err
	}
	fmt.Fprintln(out, msg.Text())
	fmt.Fprintf(info, "[%s, %d in / %d out tokens]\n", msg.StopReason, msg.Usage.InputTokens, msg.Usage.OutputTokens)
	return nil
}
