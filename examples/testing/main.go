// Command testing is a tiny app with a tool loop, written to show how to
// test code that uses the SDK: see main_test.go, which runs it against the
// in-process fake (mmstest/fakeclient) with a scripted model and an
// injected fault. Run it against the service:
//
//	VENDOR_API_KEY=... VENDOR_BASE_URL=https://... go run ./examples/testing "some text to summarise"
//
// With neither set it runs against mmstest, the SDK's built-in fake, and
// says so on stderr:
//
//	go run ./examples/testing
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"strconv"
	"strings"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/mmstest"
)

func main() {
	text := strings.Join(os.Args[1:], " ")
	if text == "" {
		text = "The quick brown fox jumps over the lazy dog."
	}
	// In your program: client, err := mms.NewClient(), which reads $VENDOR_API_KEY
	// (or $VENDOR_AUTH_TOKEN) and $VENDOR_BASE_URL. Without them, New runs
	// the example against the built-in fake.
	client, fake, err := exampleclient.New()
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	// Offline, the fake plays the model: it calls word_count on the text,
	// then answers from the count. Against the service the script is unused.
	input, err := json.Marshal(map[string]string{"text": text})
	if err != nil {
		log.Fatal(err)
	}
	fake.Script(mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "word_count", Input: string(input)}}})
	summary, err := summarize(context.Background(), client, "mms-large-1", text)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(summary)
}

// wordCount is the tool the model may call to count the words of a text.
var wordCount = mms.CustomTool{
	Name:        "word_count",
	Description: "Counts the words of a text.",
	InputSchema: mms.InputSchema(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
}

// maxRounds bounds the tool loop, so a model that keeps calling tools
// cannot keep the program running.
const maxRounds = 4

// summarize asks the model for a one-line summary of text, answering its
// word_count calls until it replies without one.
func summarize(ctx context.Context, client *mms.Client, model, text string) (string, error) {
	p := mms.MessageCreateParams{
		Model:     model,
		MaxTokens: 512,
		System:    mms.SystemText("Summarise the user's text in one line; say how many words it has."),
		Tools:     mms.Tools{wordCount},
		Messages:  []mms.MessageParam{mms.UserText(text)},
	}
	for range maxRounds {
		msg, err := client.Messages.Create(ctx, p)
		if err != nil {
			return "", fmt.Errorf("summarize: %w", err)
		}
		calls := msg.ToolUses()
		if len(calls) == 0 {
			return msg.Text(), nil
		}
		var results []mms.ContentBlock
		for _, call := range calls {
			results = append(results, runTool(call))
		}
		p.Messages = append(p.Messages, msg.ToParam(), mms.UserMessage(results...))
	}
	return "", errors.New("summarize: the model was still calling tools after " + strconv.Itoa(maxRounds) + " rounds")
}

// runTool answers one tool call; a call it cannot run becomes an error
// result the model can read.
func runTool(call mms.ToolUseBlock) mms.ContentBlock {
	var in struct {
		Text string `json:"text"`
	}
	if call.Name != wordCount.Name {
		return mms.ToolResult(call.ID, "unknown tool "+call.Name, true)
	}
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return mms.ToolResult(call.ID, "bad input: "+err.Error(), true)
	}
	return mms.ToolResult(call.ID, strconv.Itoa(len(strings.Fields(in.Text))), false)
}
