package mms_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// A MessageThread sends the whole conversation once, then only each new
// turn: the service keeps the rest.
func ExampleMessageThread() {
	srv := mmstest.NewServer() // stands in for the service
	defer srv.Close()
	client, err := mms.NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	thread := client.Messages.NewThread(mms.MessageCreateParams{
		Model:     "mms-large-1",
		MaxTokens: 256,
		System:    mms.SystemText("Answer briefly."),
	})
	for _, question := range []string{"Hello!", "What did I just say?"} {
		reply, err := thread.Send(ctx, mms.UserText(question))
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(reply.Text())
	}
	fmt.Println("history:", len(thread.History()), "messages")

	// What went over the wire.
	for _, r := range srv.Requests() {
		var body struct {
			Thread   struct{ Type string }
			Messages []json.RawMessage
		}
		_ = json.Unmarshal(r.Body, &body)
		fmt.Printf("%s with %d message(s)\n", body.Thread.Type, len(body.Messages))
	}
	// Output:
	// You said: Hello!
	// You said: What did I just say?
	// history: 4 messages
	// create with 1 message(s)
	// continue with 1 message(s)
}
