package mms_test

import (
	"context"
	"errors"
	"fmt"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

func ExampleMessagesService_Stream() {
	srv := mmstest.NewServer()
	defer srv.Close()
	client, err := mms.NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL))
	if err != nil {
		panic(err)
	}
	p := mms.MessageCreateParams{
		Model: "mms-large-1", MaxTokens: 256,
		Messages: []mms.MessageParam{mms.UserText("Hello, stream")},
	}
	var acc mms.MessageAccumulator
	for ev, err := range client.Messages.Stream(context.Background(), p) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		if err := acc.Add(ev); err != nil {
			fmt.Println("error:", err)
			return
		}
		switch ev := ev.(type) {
		case mms.ContentBlockDeltaEvent:
			if d, ok := ev.Delta.(mms.TextDelta); ok {
				fmt.Printf("%q\n", d.Text)
			}
		case mms.UnknownStreamEvent:
			fmt.Println("an event this SDK version does not know:", ev.Name)
		}
	}
	msg := acc.Message()
	fmt.Println(msg.Text())
	fmt.Println(msg.StopReason, msg.Usage.OutputTokens)
	// Output:
	// "You "
	// "said: H"
	// "ell"
	// "o, stream"
	// You said: Hello, stream
	// end_turn 6
}

func ExampleMessageAccumulator_Text() {
	srv := mmstest.NewServer()
	defer srv.Close()
	client, err := mms.NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL))
	if err != nil {
		panic(err)
	}
	p := mms.MessageCreateParams{
		Model: "mms-large-1", MaxTokens: 256,
		Messages: []mms.MessageParam{mms.UserText("What a fine day")},
	}
	var acc mms.MessageAccumulator
	for text, err := range acc.Text(client.Messages.Stream(context.Background(), p)) {
		if err != nil {
			fmt.Println("\nerror:", err)
			return
		}
		fmt.Print(text) // as it arrives
	}
	fmt.Println()
	fmt.Println("output tokens:", acc.Message().Usage.OutputTokens)
	// Output:
	// You said: What a fine day
	// output tokens: 7
}

// A stream cut short yields ErrStreamTruncated; an error event mid-stream
// yields an *Error.
func ExampleMessagesService_Stream_errors() {
	srv := mmstest.NewServer()
	defer srv.Close()
	client, err := mms.NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL))
	if err != nil {
		panic(err)
	}
	p := mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 256, Messages: []mms.MessageParam{mms.UserText("hi")}}

	srv.InjectStreamFault(mmstest.StreamFault{CutAfterEvents: 3, Times: 1})
	for _, err := range client.Messages.Stream(context.Background(), p) {
		if errors.Is(err, mms.ErrStreamTruncated) {
			fmt.Println("truncated")
		}
	}
	srv.InjectStreamFault(mmstest.StreamFault{ErrorAfterEvents: 3, Times: 1})
	for _, err := range client.Messages.Stream(context.Background(), p) {
		var apiErr *mms.Error
		if errors.As(err, &apiErr) {
			fmt.Println(apiErr.Type, errors.Is(err, mms.ErrOverloaded))
		}
	}
	// Output:
	// truncated
	// overloaded_error true
}
