package mms_test

import (
	"context"
	"fmt"
	"log"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
)

// A tool runner with one typed tool, against the fake service scripted to
// call it twice in parallel and then answer.
func ExampleMessagesService_NewToolRunner() {
	srv := mmstest.NewServer(mmstest.WithScript(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{
			{Name: "get_weather", Input: `{"city":"Paris"}`},
			{Name: "get_weather", Input: `{"city":"Oslo"}`},
		}},
		mmstest.Turn{Text: "Paris is warmer than Oslo."},
	))
	defer srv.Close()
	client, err := mms.NewClient(srv.ClientOptions()...)
	if err != nil {
		log.Fatal(err)
	}

	type In struct {
		City string `json:"city" description:"City name"`
	}
	temps := map[string]int{"Paris": 18, "Oslo": 9}
	weather := mms.NewTool("get_weather", "Current temperature in °C", func(ctx context.Context, in In) (int, error) {
		return temps[in.City], nil
	})

	runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{
		Params: mms.MessageCreateParams{
			Model:     "mms-large-1",
			MaxTokens: 1024,
			Messages:  []mms.MessageParam{mms.UserText("Is it warmer in Paris or in Oslo?")},
		},
		Tools: []mms.RunnableTool{weather},
	})
	for turn, err := range runner.Turns(context.Background()) {
		if err != nil {
			log.Fatal(err)
		}
		for _, c := range turn.Calls {
			fmt.Printf("%s %s -> %s\n", c.Use.Name, c.Use.Input, c.Result.Content[0].(mms.TextBlock).Text)
		}
	}
	fmt.Println(runner.Message().Text())
	fmt.Println(len(runner.Messages()), "turns in the conversation")
	// Output:
	// get_weather {"city":"Paris"} -> 18
	// get_weather {"city":"Oslo"} -> 9
	// Paris is warmer than Oslo.
	// 4 turns in the conversation
}
