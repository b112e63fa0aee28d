// Command tools answers a question with a client tool, running the tool
// loop by hand: define the tool, run each tool_use the reply asks for, send
// the tool_result back, and repeat until the model ends its turn. Copy it
// into your program; it reads its settings from the environment:
//
//	VENDOR_API_KEY=... VENDOR_BASE_URL=https://... go run ./examples/tools "What's the weather in Oslo?"
//
// With neither set it runs against mmstest, the SDK's built-in fake, and
// says so on stderr:
//
//	go run ./examples/tools
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
	"github.com/mms-sdk/mms-go/mmstest"
)

func main() {
	prompt := strings.Join(os.Args[1:], " ")
	if prompt == "" {
		prompt = "What's the weather in Oslo? Use get_weather."
	}
	model := os.Getenv("VENDOR_MODEL")
	if model == "" {
		model = "mms-large-1"
	}
	// In your program: client, err := mms.NewClient(), which reads $VENDOR_API_KEY
	// (or $VENDOR_AUTH_TOKEN) and $VENDOR_BASE_URL. Without them, New runs
	// the example against the built-in fake.
	client, fake, err := exampleclient.New()
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	// Offline, the fake plays the model: it asks for Oslo's weather, then
	// answers from the tool's result. Against the service the script is unused.
	fake.Script(mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Oslo"}`}}})
	if err := run(context.Background(), client, model, prompt, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// weatherTool is the tool the model may call.
var weatherTool = mms.CustomTool{
	Name:        "get_weather",
	Description: "The current weather in a city.",
	InputSchema: mms.InputSchema(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
}

// getWeather is the tool's implementation.
func getWeather(city string) (string, error) {
	if city == "" {
		return "", fmt.Errorf("no city given")
	}
	return "12°C and cloudy in " + city, nil
}

// maxTurns bounds the loop: a model that keeps calling tools must not run
// up the bill forever.
const maxTurns = 10

// run asks prompt, runs the tool calls and writes what happens to w.
func run(ctx context.Context, client *mms.Client, model, prompt string, w io.Writer) error {
	p := mms.MessageCreateParams{
		Model:     model,
		MaxTokens: 1024,
		Tools:     mms.Tools{weatherTool},
		Messages:  []mms.MessageParam{mms.UserText(prompt)},
	}
	for range maxTurns {
		msg, err := client.Messages.Create(ctx, p)
		if err != nil {
			return err
		}
		// The assistant turn goes back unchanged: its tool_use ids are what
		// the results answer.
		p.Messages = append(p.Messages, msg.ToParam())
		if msg.StopReason != mms.StopReasonToolUse {
			fmt.Fprintln(w, msg.Text())
			return nil
		}
		var results []mms.ContentBlock
		for _, call := range msg.ToolUses() {
			fmt.Fprintf(w, "-> %s %s\n", call.Name, call.Input)
			results = append(results, runTool(call))
		}
		p.Messages = append(p.Messages, mms.UserMessage(results...))
	}
	return fmt.Errorf("no answer after %d turns", maxTurns)
}

// runTool answers one call; a failure goes back as an is_error result, which
// the model can read and correct.
func runTool(call mms.ToolUseBlock) mms.ToolResultBlock {
	if call.Name != weatherTool.Name {
		return mms.ToolResult(call.ID, "unknown tool "+call.Name, true)
	}
	var in struct {
		City string `json:"city"`
	}
	if err := call.UnmarshalInput(&in); err != nil {
		return mms.ToolResult(call.ID, "bad input: "+err.Error(), true)
	}
	out, err := getWeather(in.City)
	if err != nil {
		return mms.ToolResult(call.ID, err.Error(), true)
	}
	return mms.ToolResult(call.ID, out, false)
}
