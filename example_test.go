package mms_test

import (
	"context"
	"fmt"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

func ExampleNewClient() {
	srv := mmstest.NewServer() // stands in for the service
	defer srv.Close()

	// With no options NewClient reads $VENDOR_API_KEY (or
	// $VENDOR_AUTH_TOKEN) and $VENDOR_BASE_URL. Options override them and
	// set client-wide defaults that every call can override in turn.
	client, err := mms.NewClient(
		option.WithAPIKey(mmstest.DefaultAPIKey),
		option.WithBaseURL(srv.URL),
		option.WithMaxRetries(3),
		option.WithRequestTimeout(2*time.Minute),
	)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	msg, err := client.Messages.Create(context.Background(), mms.MessageCreateParams{
		Model: "mms-large-1", MaxTokens: 256,
		Messages: []mms.MessageParam{mms.UserText("Hello")},
	}, option.WithMaxRetries(0)) // this call only: no retries
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(msg.Text())
	// Output:
	// You said: Hello
}

func ExampleMessagesService_Create() {
	srv := mmstest.NewServer()
	defer srv.Close()
	client, err := mms.NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	p := mms.MessageCreateParams{
		Model:     "mms-large-1",
		MaxTokens: 1024,
		System:    mms.SystemText("Answer briefly."),
		Messages:  []mms.MessageParam{mms.UserText("What is Go?")},
	}
	msg, err := client.Messages.Create(ctx, p)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(msg.Text())
	fmt.Println(msg.StopReason, msg.Usage.InputTokens, msg.Usage.OutputTokens)

	// A conversation goes on by sending the reply back with the next turn.
	p.Messages = append(p.Messages, msg.ToParam(), mms.UserText("Who made it?"))
	msg, err = client.Messages.Create(ctx, p)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(msg.Text())
	// Output:
	// You said: What is Go?
	// end_turn 21 6
	// You said: Who made it?
}

func ExampleBatchesService_Create() {
	// The fake's batches take DefaultBatchProcessingTime on its clock; a
	// manual clock lets the example skip the wait.
	clock := mmstest.NewManualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	srv := mmstest.NewServer(mmstest.WithManualClock(clock))
	defer srv.Close()
	client, err := mms.NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()

	var p mms.BatchCreateParams
	for i, q := range []string{"What is 2+2?", "Name a color."} {
		p.Requests = append(p.Requests, mms.BatchRequest{
			CustomID: fmt.Sprintf("q%d", i), // matches a result to its request
			Params: mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 256,
				Messages: []mms.MessageParam{mms.UserText(q)}},
		})
	}
	batch, err := client.Messages.Batches.Create(ctx, p)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(batch.ProcessingStatus, batch.RequestCounts.Total())

	clock.Advance(mmstest.DefaultBatchProcessingTime)
	// Wait polls until the batch ends (1 s, 2 s, 4 s ... apart).
	batch, err = client.Messages.Batches.Wait(ctx, batch.ID, mms.BatchWaitParams{})
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(batch.ProcessingStatus, batch.RequestCounts.Succeeded)

	for res, err := range client.Messages.Batches.Results(ctx, batch.ID) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		if r, ok := res.Result.(mms.SucceededBatchResult); ok {
			fmt.Println(res.CustomID, r.Message.Text())
		}
	}
	// Results come in no particular order.

	// Unordered output:
	// in_progress 2
	// ended 2
	// q0 You said: What is 2+2?
	// q1 You said: Name a color.
}
