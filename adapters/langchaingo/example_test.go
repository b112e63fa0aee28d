package langchaingo_test

import (
	"context"
	"fmt"
	"log"

	"github.com/tmc/langchaingo/llms"

	mms "github.com/mms-sdk/mms-go"
	langchaingo "github.com/mms-sdk/mms-go/adapters/langchaingo"
	"github.com/mms-sdk/mms-go/mmstest"
)

// readme is the README's program; it is compiled here so that it keeps
// compiling.
func readme() {
	client, err := mms.NewClient() // $VENDOR_API_KEY and $VENDOR_BASE_URL
	if err != nil {
		log.Fatal(err)
	}
	llm, err := langchaingo.New(client, langchaingo.WithModel("mms-large-1"))
	if err != nil {
		log.Fatal(err)
	}
	answer, err := llms.GenerateFromSinglePrompt(context.Background(), llm, "Hello!")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(answer)
}

var _ = readme

// The README's program, against mmstest (which echoes the prompt).
func ExampleNew() {
	srv := mmstest.NewServer()
	defer srv.Close()
	client, err := mms.NewClient(srv.ClientOptions()...)
	if err != nil {
		log.Fatal(err)
	}
	llm, err := langchaingo.New(client, langchaingo.WithModel("mms-large-1"))
	if err != nil {
		log.Fatal(err)
	}
	answer, err := llms.GenerateFromSinglePrompt(context.Background(), llm, "Hello!")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(answer)
	// Output: You said: Hello!
}

// A conversation with thinking on: AssistantMessage keeps the signed
// thinking blocks for the next turn.
func ExampleAssistantMessage() {
	srv := mmstest.NewServer()
	defer srv.Close()
	client, err := mms.NewClient(srv.ClientOptions()...)
	if err != nil {
		log.Fatal(err)
	}
	llm, err := langchaingo.New(client, langchaingo.WithModel("mms-large-1"))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	think := llms.WithThinkingBudget(2048)
	history := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "Is 1001 prime?")}
	for _, question := range []string{"", "Why?"} {
		if question != "" {
			history = append(history, llms.TextParts(llms.ChatMessageTypeHuman, question))
		}
		resp, err := llm.GenerateContent(ctx, history, think)
		if err != nil {
			log.Fatal(err)
		}
		choice := resp.Choices[0]
		fmt.Printf("thinking: %s\nanswer: %s\n", choice.ReasoningContent, choice.Content)
		history = append(history, langchaingo.AssistantMessage(choice))
	}
	// Output:
	// thinking: The user said: Is 1001 prime?
	// answer: You said: Is 1001 prime?
	// thinking: The user said: Why?
	// answer: You said: Why?
}
