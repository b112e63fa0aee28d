package eino_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/cloudwego/eino/schema"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/adapters/eino"
	"github.com/mms-sdk/mms-go/mmstest"
)

// The shortest program: a chat model on the service, one question.
func ExampleNewChatModel() {
	ctx := context.Background()
	client, err := mms.NewClient() // $VENDOR_API_KEY
	if err != nil {
		log.Fatal(err)
	}
	cm, err := eino.NewChatModel(client, mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 1024})
	if err != nil {
		log.Fatal(err)
	}
	msg, err := cm.Generate(ctx, []*schema.Message{schema.UserMessage("Hello")})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(msg.Content)
}

// A streamed answer, against the in-process fake: the text arrives in
// pieces, the usage once, with the last chunk.
func ExampleChatModel_Stream() {
	srv := mmstest.NewServer()
	defer srv.Close()
	client, err := mms.NewClient(srv.ClientOptions()...)
	if err != nil {
		log.Fatal(err)
	}
	cm, err := eino.NewChatModel(client, mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 1024})
	if err != nil {
		log.Fatal(err)
	}
	sr, err := cm.Stream(context.Background(), []*schema.Message{schema.UserMessage("Hello")})
	if err != nil {
		log.Fatal(err)
	}
	defer sr.Close()
	for {
		chunk, err := sr.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Print(chunk.Content)
		if chunk.ResponseMeta != nil {
			fmt.Printf("\n[%s, %d output tokens]\n", chunk.ResponseMeta.FinishReason, chunk.ResponseMeta.Usage.CompletionTokens)
		}
	}
	// Output:
	// You said: Hello
	// [end_turn, 4 output tokens]
}
